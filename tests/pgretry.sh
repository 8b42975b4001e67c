#!/bin/sh
# pgretry.sh: runs tests/pgretry.py (grundy bot seeking through a database
# outage of grundyd on PostgreSQL) against the grundyd, grundy and bots of
# this build, under a throwaway cluster of its own (tests/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/pgcluster.sh" run python3 "$top/tests/pgretry.py" . "$top"
