#!/bin/sh
# xratings.sh: runs tests/e2e/xratings.py (ratings and standings across two
# nodes on one PostgreSQL) against the grundyd of this build, under a
# throwaway cluster of its own (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/e2e/pgcluster.sh" run python3 "$top/tests/e2e/xratings.py" . "$top"
