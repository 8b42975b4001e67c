#!/bin/sh
# conn.sh: runs the connection buffer and output tests (tests/e2e/conn.py)
# against the grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/conn.py" . "${top_srcdir:-.}"
