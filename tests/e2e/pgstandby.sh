#!/bin/sh
# pgstandby.sh: runs tests/e2e/pgstandby.py (grundyd on a primary and its
# promoted standby) against the grundyd, grundy and bots of this build,
# under a throwaway cluster of its own (tests/e2e/pgcluster.sh, which makes
# the standby).
top=${top_srcdir:-.}
exec sh "$top/tests/e2e/pgcluster.sh" run python3 "$top/tests/e2e/pgstandby.py" . \
    "$top"
