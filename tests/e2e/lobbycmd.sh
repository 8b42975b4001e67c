#!/bin/sh
# lobbycmd.sh: the exact replies of the lobby's commands (tests/e2e/lobbycmd.py),
# against the grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/lobbycmd.py" . "${top_srcdir:-.}"
