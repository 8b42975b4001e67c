#!/bin/sh
# pgplay.sh: runs tests/pgplay.py (grundyd with its store on PostgreSQL)
# against the grundyd, grundy and bots of this build, under a throwaway
# cluster of its own (tests/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/pgcluster.sh" run python3 "$top/tests/pgplay.py" . "$top"
