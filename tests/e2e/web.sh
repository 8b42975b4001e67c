#!/bin/sh
# web.sh: the web pages in headless chromium (tests/e2e/web.py), against the
# grundyd and bots of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/web.py" . "${top_srcdir:-.}"
