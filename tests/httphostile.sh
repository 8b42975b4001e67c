#!/bin/sh
# httphostile.sh: runs the hostile HTTP client (tests/httphostile.py)
# against the grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/httphostile.py" . "${top_srcdir:-.}"
