#!/bin/sh
# hostile.sh: runs the hostile-client and fault end-to-end tests
# (tests/hostile.py) against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/hostile.py" . "${top_srcdir:-.}"
