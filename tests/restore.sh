#!/bin/sh
# restore.sh: runs tests/restore.py (a live game restored from the log
# with takeover on, issue 15 §2) against the grundyd and grundy of this
# build, under a throwaway PostgreSQL cluster (tests/pgcluster.sh) for
# its PostgreSQL part.
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/restore.py" . "$top"
