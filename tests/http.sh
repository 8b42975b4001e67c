#!/bin/sh
# http.sh: runs the HTTP end-to-end tests (tests/http.py) against the
# grundyd of this build.
exec python3 "${top_srcdir:-.}/tests/http.py" . "${top_srcdir:-.}"
