#!/bin/sh
# pgplay.sh: runs tests/e2e/pgplay.py (grundyd with its store on PostgreSQL)
# against the grundyd, grundy and bots of this build, under a throwaway
# cluster of its own (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/e2e/pgcluster.sh" run python3 "$top/tests/e2e/pgplay.py" . "$top"
