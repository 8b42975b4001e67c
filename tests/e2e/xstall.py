#!/usr/bin/env python3
"""xstall.py: a stalled PostgreSQL never freezes a node's loop (issue 25,
PROTOCOL.md §13.3): two grundyd on one PostgreSQL (make check runs it under
a throwaway cluster of its own, tests/e2e/pgcluster.sh).
test_stopped_cluster: every process of the cluster is stopped (SIGSTOP)
for a few seconds (less than a lease's 10 s: the node keeps its game): the scheduler's node (and the
other) answers protocol_version again and again, plays a whole game against
its engine in a session (new, play, genmove: no database), and a lobby
clock keeps running: a game between two players of the node, whose mover
does not move, is lost on time while the database is still stopped.  Each
check is a poll with a deadline that ends while the cluster is stopped,
so a loop blocked on the database fails it however loaded the machine; no
time is asserted.  Then the cluster goes on (SIGCONT) and the nodes still
work."""
import os
import signal

from e2e import *  # noqa: F401,F403
from xloop import log_wait  # noqa: E402
from xnode import fresh_db, relogin  # noqa: E402

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
DEADLINE = 20.0         # s: every poll's bound while the cluster is stopped


def cluster_pids():
    """The postmaster of the test's cluster and its children."""
    pidfile = os.path.join(os.environ["SQLDB_PG_DIR"], "data",
                           "postmaster.pid")
    with open(pidfile) as f:
        pm = int(f.readline())
    pids = [pm]
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
        except OSError:
            continue
        if int(st[st.rindex(")") + 2:].split()[1]) == pm:
            pids.append(int(p))
    return pids


def signal_all(pids, sig):
    for p in pids:
        try:
            os.kill(p, sig)
        except ProcessLookupError:
            pass


def test_stopped_cluster():
    url = fresh_db()
    a = Daemon("A", db=url)
    b = Daemon("B", db=url)
    p1 = login(a, "p1")
    r = p1.cmd("register p2 password1")
    check("p2 registered", ok(r), r)
    p2 = relogin(a, "p2")
    probes = [Client(a), Client(b)]
    eng = Client(a)
    # Both are this node's players: the game's clocks are A's loop's.
    gid, _, _, _ = pair(a, p1, p2, "nim 3 4 5", "tc=2000 rated=0")
    pids = cluster_pids()
    check("the cluster's processes found", len(pids) >= 3, str(pids))
    signal_all(pids, signal.SIGSTOP)
    try:
        for d, c in zip((a, b), probes):
            for i in range(5):
                r = c.cmd("protocol_version", timeout=DEADLINE)
                check("%s answers probe %d, the database stopped" %
                      (d.name, i), r is not None and ok(r), r)
        r = eng.cmd("new nim 3 4 5", timeout=DEADLINE)
        check("new, the database stopped", r is not None and ok(r), r)
        while True:
            r = eng.cmd("genmove", timeout=DEADLINE)
            if r is None or not ok(r) or "resign" in r or "pass" in r:
                break
            s = eng.cmd("show", timeout=DEADLINE)
            if s is None or "over" in s or "winner" in s:
                break
        check("a session game played, the database stopped",
              r is not None, r)
        # Nobody answers the genmove: the mover loses on time (2 s) while
        # the cluster is still stopped (the players hear of it once the
        # result is durable, §13.4; the log says so at once).
        over = log_wait(a, ["game=%d event=timeout" % gid], DEADLINE)
        check("a clock ran out, the database stopped", over is not None,
              over)
    finally:
        signal_all(pids, signal.SIGCONT)
    for d, c in zip((a, b), probes):
        r = c.cmd("protocol_version")
        check("%s answers once the database goes on" % d.name, ok(r), r)
    check("the players hear of it once the database goes on",
          gameover_of(p1, 60) is not None and gameover_of(p2, 60)
          is not None)
    a.stop()
    b.stop()


if __name__ == "__main__":
    if not os.environ.get("SQLDB_PG_URL"):
        print("1..0 # SKIP no SQLDB_PG_URL (run it under "
              "tests/e2e/pgcluster.sh)")
        sys.exit(0)
    sys.exit(run([test_stopped_cluster]))
