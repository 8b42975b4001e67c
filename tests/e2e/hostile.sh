#!/bin/sh
# hostile.sh: runs the hostile-client and fault end-to-end tests
# (tests/e2e/hostile.py) against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/hostile.py" . "${top_srcdir:-.}"
