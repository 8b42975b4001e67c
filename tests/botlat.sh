#!/bin/sh
# botlat.sh: runs tests/botlat.py (the clients' sockets have TCP_NODELAY)
# against the grundyd and grundy of this build.
exec python3 "${top_srcdir:-.}/tests/botlat.py" . "${top_srcdir:-.}"
