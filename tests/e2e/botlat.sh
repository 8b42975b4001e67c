#!/bin/sh
# botlat.sh: runs tests/e2e/botlat.py (the clients' sockets have TCP_NODELAY)
# against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/e2e/botlat.py" . "${top_srcdir:-.}"
