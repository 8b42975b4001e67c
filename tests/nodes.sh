#!/bin/sh
# nodes.sh: runs tests/nodes.py (grundyd as one of three nodes on one
# PostgreSQL store: registry, leases, takeover, the elected scheduler)
# against the grundyd, grundy and bots of this build, under a throwaway
# cluster of its own (tests/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/pgcluster.sh" run python3 "$top/tests/nodes.py" . "$top"
