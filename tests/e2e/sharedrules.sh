#!/bin/sh
# sharedrules.sh: the exact refusals of the rules one helper serves for
# several commands (tests/e2e/sharedrules.py), against the grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/sharedrules.py" . "${top_srcdir:-.}"
