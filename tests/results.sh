#!/bin/sh
# results.sh: runs the results end-to-end tests (tests/results.py) against
# the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/results.py" . "${top_srcdir:-.}"
