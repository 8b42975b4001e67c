#!/bin/sh
# logpipe.sh: runs the end-to-end tests of a client that pipelines its next
# game behind a held result (tests/logpipe.py) against this build.
exec python3 "${top_srcdir:-.}/tests/logpipe.py" . "${top_srcdir:-.}"
