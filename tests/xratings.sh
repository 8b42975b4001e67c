#!/bin/sh
# xratings.sh: runs tests/xratings.py (ratings and standings across two
# nodes on one PostgreSQL) against the grundyd of this build, under a
# throwaway cluster of its own (tests/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/pgcluster.sh" run python3 "$top/tests/xratings.py" . "$top"
