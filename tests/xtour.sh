#!/bin/sh
# xtour.sh: runs tests/xtour.py (tournaments across nodes, issue 15 §2)
# against the grundyd and grundy of this build, three nodes on one
# throwaway PostgreSQL cluster (tests/pgcluster.sh).
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/xtour.py" . "$top"
