#!/bin/sh
# xloop.sh: runs tests/e2e/xloop.py (a node's seek path across nodes never
# holds up its event loop) against the grundyd of this build, two nodes on
# one throwaway PostgreSQL cluster (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/e2e/xloop.py" . "$top"
