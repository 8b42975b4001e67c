#!/bin/sh
# records.sh: runs the end-to-end tests of records anyone can check
# (tests/e2e/records.py) against the grundyd, grundy and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/records.py" . "${top_srcdir:-.}"
