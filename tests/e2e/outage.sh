#!/bin/sh
# outage.sh: runs tests/e2e/outage.py (a daemon down for over 60 s while a
# `grundy bot` waits to reconnect) against the grundyd and grundy of this
# build.
exec python3 "${top_srcdir:-.}/tests/e2e/outage.py" . "${top_srcdir:-.}"
