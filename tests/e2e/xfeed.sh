#!/bin/sh
# xfeed.sh: runs tests/e2e/xfeed.py (the web's live feeds across nodes, issue
# 15 §2) against the grundyd of this build, two nodes on one throwaway
# PostgreSQL cluster (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/e2e/xfeed.py" . "$top"
