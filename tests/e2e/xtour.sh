#!/bin/sh
# xtour.sh: runs tests/e2e/xtour.py (tournaments across nodes, issue 15 §2)
# against the grundyd and grundy of this build, three nodes on one
# throwaway PostgreSQL cluster (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/e2e/xtour.py" . "$top"
