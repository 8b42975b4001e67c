#!/bin/sh
# tjson.sh: runs tests/tjson.py (the tournament's JSON against `tournament
# show`) against the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/tjson.py" . "${top_srcdir:-.}"
