#!/bin/sh
# match.sh: runs the end-to-end tests of grundy match (tests/e2e/match.py)
# with the grundy and the contrib bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/match.py" . "${top_srcdir:-.}"
