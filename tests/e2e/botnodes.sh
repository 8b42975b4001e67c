#!/bin/sh
# botnodes.sh: runs tests/e2e/botnodes.py (grundy bot across nodes: --server
# lists, event redirect, node drain) against the grundyd and grundy of
# this build.
exec python3 "${top_srcdir:-.}/tests/e2e/botnodes.py" . "${top_srcdir:-.}"
