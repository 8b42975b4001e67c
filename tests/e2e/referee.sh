#!/bin/sh
# referee.sh: runs the end-to-end tests of issue 9's referee
# (tests/e2e/referee.py) against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/referee.py" . "${top_srcdir:-.}"
