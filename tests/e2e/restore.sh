#!/bin/sh
# restore.sh: runs tests/e2e/restore.py (a live game restored from the log
# with takeover on, issue 15 §2) against the grundyd and grundy of this
# build, under a throwaway PostgreSQL cluster (tests/e2e/pgcluster.sh) for
# its PostgreSQL part.
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/e2e/restore.py" . "$top"
