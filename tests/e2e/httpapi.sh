#!/bin/sh
# httpapi.sh: runs the HTTP end-to-end tests (tests/e2e/httpapi.py) against the
# grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/httpapi.py" . "${top_srcdir:-.}"
