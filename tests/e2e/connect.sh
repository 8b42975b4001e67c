#!/bin/sh
# connect.sh: grundy connect and grundy play on a terminal, driven in tmux
# (tests/e2e/connect.py), with the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/connect.py" . "${top_srcdir:-.}"
