#!/bin/sh
# web.sh: the web pages in headless chromium (tests/web.py), against the
# grundyd and bots of this build.
exec python3 "${top_srcdir:-.}/tests/web.py" . "${top_srcdir:-.}"
