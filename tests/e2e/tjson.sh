#!/bin/sh
# tjson.sh: runs tests/e2e/tjson.py (the tournament's JSON against `tournament
# show`) against the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/tjson.py" . "${top_srcdir:-.}"
