#!/bin/sh
# clocks.sh: the game clocks against a real grundyd (tests/e2e/clocks.py): the
# time charged in microseconds, in the record and in the clocks sent.
exec python3 "${top_srcdir:-.}/tests/e2e/clocks.py" . "${top_srcdir:-.}"
