#!/bin/sh
# play.sh: runs the networked-play end-to-end tests (tests/e2e/play.py) against
# the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/play.py" . "${top_srcdir:-.}"
