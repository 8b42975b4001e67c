#!/bin/sh
# pgstandby.sh: runs tests/pgstandby.py (grundyd on a primary and its
# promoted standby) against the grundyd, grundy and bots of this build,
# under a throwaway cluster of its own (tests/pgcluster.sh, which makes
# the standby).
top=${top_srcdir:-.}
exec sh "$top/tests/pgcluster.sh" run python3 "$top/tests/pgstandby.py" . \
    "$top"
