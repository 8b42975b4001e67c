#!/usr/bin/env python3
"""nodeprune.py: the rows of dead nodes pruned by a live node's thread
(issue 15 §2, doc/NODES.md "Pruning the nodes' rows"), end to end on a
throwaway cluster of its own (NEEDS_PG): two grundyd nodes (node-ttl 1000
ms); B killed (-9): A deletes B's row once B has been dead for 10
TTLs, and only it; A's own row deleted under it: A's next heartbeat makes
it again with the same id.  Every wait is a poll with a deadline; counts
are exact.

Usage: nodeprune.py BUILDDIR SRCDIR, with SQLDB_PG_URL, SQLDB_PG_DIR and
SQLDB_PG_CTL set (tests/e2e/pgcluster.sh run).
"""
import os
import re
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
URL = os.environ.get("SQLDB_PG_URL", "")
TTL = 1000              # ms: pruned 10 TTLs after its expiry
DEADLINE = 40.0


def sql(q):
    """What q returns on the test's cluster (pgcluster.sh sql), stripped."""
    r = subprocess.run(os.environ["SQLDB_PG_CTL"].split() +
                       ["sql", os.environ["SQLDB_PG_DIR"], q],
                       capture_output=True, text=True, timeout=30)
    return r.stdout.strip() if r.returncode == 0 else "error: " + r.stderr


def log_of(d):
    return open(os.path.join(TMP, d.name + ".log"), errors="replace").read()


def node_id(d):
    """The id node d registered with (its log), or None."""
    m = wait_for(lambda: re.search(r"node=(\d+) event=registered",
                                   log_of(d)), DEADLINE, 0.05)
    return int(m.group(1)) if m else None


def test_prune():
    """B killed: its row pruned by A (exactly one row, B's); A's row
    deleted under it: made again, same id."""
    a = Daemon("pa", "--node-ttl", str(TTL), db=URL)
    b = Daemon("pb", "--node-ttl", str(TTL), db=URL)
    ia, ib = node_id(a), node_id(b)
    check("two nodes registered", ia is not None and ib is not None and
          sql("SELECT COUNT(*) FROM nodes") == "2", (ia, ib))
    b.stop(signal.SIGKILL)
    check("B's row pruned, A's kept", wait_for(
        lambda: sql("SELECT id FROM nodes") == str(ia), DEADLINE, 0.2),
        sql("SELECT id, expires_ms FROM nodes"))
    check("A logged the pruning of one row",
          "node=%d event=pruned nodes=1" % ia in log_of(a), log_of(a)[-2000:])
    check("A's row deleted under it", sql("DELETE FROM nodes WHERE id = %d "
                                          "RETURNING id" % ia) == str(ia))
    check("A's heartbeat made its row again, same id, alive", wait_for(
        lambda: sql("SELECT COUNT(*) FROM nodes WHERE id = %d AND "
                    "expires_ms > heartbeat_ms" % ia) == "1", DEADLINE, 0.1),
        sql("SELECT * FROM nodes"))
    check("A logged its revival", "node=%d event=revived" % ia in
          log_of(a), log_of(a)[-2000:])
    c = Client(a)
    r = c.cmd("new nim 3")
    check("A still serves", ok(r), r)


sys.exit(run([test_prune]))
