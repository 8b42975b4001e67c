#!/bin/sh
# nodes.sh: runs tests/e2e/nodes.py (grundyd as one of three nodes on one
# PostgreSQL store: registry, leases, takeover, the elected scheduler)
# against the grundyd, grundy and bots of this build, under a throwaway
# cluster of its own (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/e2e/pgcluster.sh" run python3 "$top/tests/e2e/nodes.py" . "$top"
