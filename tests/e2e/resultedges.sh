#!/bin/sh
# resultedges.sh: runs the review's end-to-end regression tests
# (tests/e2e/resultedges.py) against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/resultedges.py" . "${top_srcdir:-.}"
