#!/bin/sh
# nodeprune.sh: runs tests/nodeprune.py (the rows of dead nodes pruned)
# against the grundyd of this build, under a throwaway cluster of its own
# (tests/pgcluster.sh).
top=${top_srcdir:-.}
exec sh "$top/tests/pgcluster.sh" run python3 "$top/tests/nodeprune.py" . \
    "$top"
