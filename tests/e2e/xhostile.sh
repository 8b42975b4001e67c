#!/bin/sh
# xhostile.sh: runs tests/e2e/xhostile.py (nothing on a node's event loop waits
# for the database, issue 15 §13.12) against the grundyd of this build, on a
# throwaway PostgreSQL cluster (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/e2e/xhostile.py" . "$top"
