#!/bin/sh
# ratings.sh: runs the ratings checkpoint's end-to-end tests
# (tests/e2e/ratings.py) against the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/ratings.py" . "${top_srcdir:-.}"
