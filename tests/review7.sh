#!/bin/sh
# review7.sh: runs tests/review7.py (nothing on a node's event loop waits
# for the database, issue 15 §13.12) against the grundyd of this build, on a
# throwaway PostgreSQL cluster (tests/pgcluster.sh).
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/pgcluster.sh" run sh "$0"
fi
exec python3 "$top/tests/review7.py" . "$top"
