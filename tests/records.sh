#!/bin/sh
# records.sh: runs the end-to-end tests of records anyone can check
# (tests/records.py) against the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/records.py" . "${top_srcdir:-.}"
