#!/bin/sh
# review5.sh: runs the review's end-to-end regression tests
# (tests/review5.py) against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/review5.py" . "${top_srcdir:-.}"
