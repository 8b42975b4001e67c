#!/bin/sh
# logpipe.sh: runs the end-to-end tests of a client that pipelines its next
# game behind a held result (tests/e2e/logpipe.py) against this build.
exec python3 "${top_srcdir:-.}/tests/e2e/logpipe.py" . "${top_srcdir:-.}"
