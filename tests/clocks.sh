#!/bin/sh
# clocks.sh: the game clocks against a real grundyd (tests/clocks.py): the
# time charged in microseconds, in the record and in the clocks sent.
exec python3 "${top_srcdir:-.}/tests/clocks.py" . "${top_srcdir:-.}"
