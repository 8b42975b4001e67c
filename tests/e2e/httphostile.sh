#!/bin/sh
# httphostile.sh: runs the hostile HTTP client (tests/e2e/httphostile.py)
# against the grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/httphostile.py" . "${top_srcdir:-.}"
