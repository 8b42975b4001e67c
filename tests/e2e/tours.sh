#!/bin/sh
# tours.sh: runs the tournament end-to-end tests (tests/e2e/tours.py) against
# the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/tours.py" . "${top_srcdir:-.}"
