#!/bin/sh
# results.sh: runs the results end-to-end tests (tests/e2e/results.py) against
# the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/results.py" . "${top_srcdir:-.}"
