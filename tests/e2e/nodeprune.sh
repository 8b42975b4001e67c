#!/bin/sh
# nodeprune.sh: runs tests/e2e/nodeprune.py (the rows of dead nodes pruned)
# against the grundyd of this build, under a throwaway cluster of its own
# (tests/e2e/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/e2e/pgcluster.sh" run python3 "$top/tests/e2e/nodeprune.py" . \
    "$top"
