#!/usr/bin/env python3
"""xstall.py: a stalled PostgreSQL never freezes a node's loop (issue 25,
PROTOCOL.md §13.3 and §13.12): two grundyd on one PostgreSQL (make check
runs it under a throwaway cluster of its own, tests/e2e/pgcluster.sh).
test_stopped_cluster: every process of the cluster is stopped (SIGSTOP)
for a few seconds (less than a lease's 10 s: the node keeps its game),
while the scheduler's node runs a tournament: the scheduler's node (and
the other) answers protocol_version again and again, plays a whole game
against its engine in a session (new, play, genmove: no database), and a
lobby clock keeps running: a game between two players of the node, whose
mover does not move, is lost on time while the database is still
stopped.  Meanwhile the other node's `standings`, `tournament show` (its
copy read from the log) and `ratings`, and the scheduler's `tournament
create`, wait for the database on workers while the loops answer the
probes; they are answered once it goes on.  On the other node a spectator of a game of the first stops
watching it (its UNLISTEN) and another starts (its read and LISTEN wait
for the database: the node answers the rest meanwhile, and the spectator
follows the game once the database goes on).
test_scheduler_moves: the cluster is stopped but for the two node
threads' connections; the scheduler's node is killed, the other takes
the scheduler's lock and must read the tournaments (on a worker): it
answers probes and plays a session game while that read waits.
Each check is a poll with a deadline that ends while the cluster is
stopped, so a loop blocked on the database fails it however loaded the
machine; no time is asserted.  Then the cluster goes on (SIGCONT) and the
nodes still work."""
import os
import re
import signal
import time

from e2e import *  # noqa: F401,F403
from xloop import log_wait  # noqa: E402
from xnode import fresh_db, psql, relogin  # noqa: E402
from xloop import watched  # noqa: E402

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


def probe(d, c, what):
    for i in range(5):
        r = c.cmd("protocol_version", timeout=DEADLINE)
        check("%s answers probe %d, %s" % (d.name, i, what),
              r is not None and ok(r), r)


def session_game(c, what):
    """A whole game against the engine in a session (no database)."""
    r = c.cmd("new nim 3 4 5", timeout=DEADLINE)
    check("new, " + what, r is not None and ok(r), r)
    while True:
        r = c.cmd("genmove", timeout=DEADLINE)
        if r is None or not ok(r) or "resign" in r or "pass" in r:
            break
        s = c.cmd("show", timeout=DEADLINE)
        if s is None or "over" in s or "winner" in s:
            break
    check("a session game played, " + what, r is not None, r)


def elected(d, timeout=WAIT):
    return log_wait(d, ["event=scheduler-elected"], timeout) is not None


def tournament(a, names, tname, opts="tc=600000"):
    """Registers names, logs them in on a, ready (their connections are
    returned), and creates round-robin tname of them on a."""
    boss = login(a, "boss")
    cs = [login(a, n) for n in names]
    for c in cs:
        r = c.cmd("ready")
        check("ready", ok(r), r)
    r = boss.cmd("tournament create %s roundrobin players=%s %s seed=1 "
                 "nim 3 4 5" % (tname, ",".join(names), opts))
    check("tournament %s created" % tname, ok(r), r)
    return boss, cs


def test_stopped_cluster():
    url = fresh_db()
    a = Daemon("A", "--admins", "boss", db=url)
    check("A is the scheduler", elected(a))
    b = Daemon("B", db=url)
    p1 = login(a, "p1")
    r = p1.cmd("register p2 password1")
    check("p2 registered", ok(r), r)
    p2 = relogin(a, "p2")
    probes = [Client(a), Client(b)]
    eng = Client(a)
    # Both are this node's players: the game's clocks are A's loop's.
    gid, _, _, _ = pair(a, p1, p2, "nim 3 4 5", "tc=2000 rated=0")
    # A tournament on A (its players on A, who never move): the
    # scheduler's tick announces it and reads the log on workers.
    boss, _ = tournament(a, ["t1", "t2", "t3"], "st")
    check("a tournament game started on A",
          log_wait(a, ["event=start player1=t"], DEADLINE) is not None)
    # Two long games of A's players, followed from B.
    games = []
    for x, y in (("q1", "q2"), ("q3", "q4")):
        games.append(pair(a, login(a, x), login(a, y), "nim 3 4 5",
                          "tc=600000 rated=0"))
    w1, w2 = Client(b), Client(b)
    r = watched(w1, games[0][0])
    check("B follows A's game before the stall",
          ok(r) and ("watching %d" % games[0][0]) in r, r)
    pids = cluster_pids()
    check("the cluster's processes found", len(pids) >= 3, str(pids))
    signal_all(pids, signal.SIGSTOP)
    waiting = []
    try:
        for d, c in zip((a, b), probes):
            probe(d, c, "the database stopped")
        # Commands whose answers need the database (§13.12): B, which does
        # not schedule, reads the tournament from the log and the ratings
        # other nodes' games changed; A stores a new tournament.  They
        # wait on workers (their clients wait); the loops answer others.
        for line in ("standings st", "tournament show st", "ratings"):
            c = Client(b)
            c.send(line)
            waiting.append((b, c, line))
        boss.send("tournament create st2 roundrobin players=t1,t2 "
                  "tc=600000 seed=2 nim 3 4 5")
        waiting.append((a, boss, "tournament create st2"))
        for d, c in zip((a, b), probes):
            probe(d, c, "standings, show, ratings and create waiting")
        r = w1.cmd("unwatch %d" % games[0][0], timeout=DEADLINE)
        check("B's spectator stops following A's game (its UNLISTEN "
              "waits), the database stopped", r is not None and ok(r), r)
        w2.send("watch %d" % games[1][0])   # its read waits
        probe(b, probes[1], "a watch waiting for the database")
        session_game(eng, "the database stopped")
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
    for d, c, line in waiting:
        r = c.wait("replies", timeout=60)
        check("%s on %s, asked during the stall, answered after it" %
              (line, d.name), r is not None and ok(r) and
              ("ratings" in line or "st" in r), r)
    r = boss.cmd("tournament show st2")
    check("the tournament created during the stall is A's", ok(r) and
          "status running" in r, r)
    check("the players hear of it once the database goes on",
          gameover_of(p1, 60) is not None and gameover_of(p2, 60)
          is not None)
    r = w2.wait("replies", timeout=60)
    check("the watch asked during the stall is answered after it",
          r is not None and ("watching %d" % games[1][0]) in r, r)
    gid2, seats = games[1][0], games[1][1]
    for s in (1, 2):    # a move each: B's spectator sees both
        g = genmove_of(seats[s], 60)
        seats[s].answer(g, "1=0" if s == 1 else "2=0")
        check("B's new spectator sees move %d (its LISTEN is on)" % s,
              w2.wait("events", lambda e, s=s: e.startswith(
                  "event move %d %d " % (gid2, s)), 60) is not None,
              w2.events)
    a.stop()
    b.stop()


def backends_kept(url, started):
    """The node threads' connections: the scheduler's lock's holder (A's)
    and, of the backends started at or after started (B's), the one whose
    last statement ended the node thread's beat (a COMMIT)."""
    a = psql(url, "SELECT pid FROM pg_locks WHERE locktype = 'advisory'")
    b = psql(url, "SELECT pid FROM pg_stat_activity WHERE backend_type = "
             "'client backend' AND query = 'COMMIT' AND backend_start >= "
             "to_timestamp(%f) AND pid <> pg_backend_pid()" % started)
    return [int(x) for x in (a.split() + b.split())]


def test_scheduler_moves():
    url = fresh_db()
    a = Daemon("SA", "--admins", "boss", db=url)
    check("SA is the scheduler", elected(a))
    started = time.time()
    b = Daemon("SB", db=url)
    check("SB is on standby", log_wait(b, ["event=scheduler-standby"],
                                       DEADLINE) is not None)
    # A tournament whose players are connected nowhere: it waits, no live
    # game (none to take over).
    boss, cs = tournament(a, ["u1", "u2", "u3"], "sx")
    for c in cs:
        c.close()
    pb, eng = Client(b), Client(b)
    check("SB's node thread's connection is at rest", wait_for(
        lambda: len(backends_kept(url, started)) == 2, DEADLINE, 0.1),
        psql(url, "SELECT string_agg(pid || ' ' || backend_start || ' ' || "
             "left(query, 30), '; ') FROM pg_stat_activity") + " %f" % started)
    keep = backends_kept(url, started)
    pids = [p for p in cluster_pids() if p not in keep]
    signal_all(pids, signal.SIGSTOP)
    try:
        a.stop(signal.SIGKILL)      # its lock goes with its connection
        check("SB takes the scheduler's lock, the database stopped",
              elected(b, DEADLINE))
        # SB reads the tournaments on a worker: its loop goes on.
        probe(b, pb, "the scheduler's read waiting")
        session_game(eng, "the scheduler's read waiting")
    finally:
        signal_all(pids, signal.SIGCONT)
    r = pb.cmd("protocol_version")
    check("SB answers once the database goes on", ok(r), r)
    c = login(b, "boss", register=False)
    r = c.cmd("tournament show sx")
    check("SB shows the tournament as its scheduler", ok(r), r)
    b.stop()


def lease_expired(url, gid):
    """Whether game gid's lease expired by the wall clock (psql's)."""
    return psql(url, "SELECT count(*) FROM leases WHERE game_id = %d AND "
                "expires_ms < extract(epoch FROM clock_timestamp()) * 1000"
                % gid) == "1"


def test_lease_lost():
    """A stall longer than a lease (node-ttl 1500 ms): once the database
    goes on, A's renewal comes too late and A finds its game's lease lost
    while nobody holds it (B is stopped too, until then): its players get
    `event lost GAME_ID`, then, once a node took the game over (A itself,
    or B), `event redirect HOST:PORT GAME_ID` naming it (PROTOCOL.md
    §13.12), and resume it there."""
    url = fresh_db()
    a = Daemon("LA", "--node-ttl", "1500", db=url)
    b = Daemon("LB", "--node-ttl", "1500", db=url)
    p1 = login(a, "l1")
    p2 = login(a, "l2")
    gid, seats, _, _ = pair(a, p1, p2, "nim 3 4 5", "tc=600000 rated=0")
    check("A holds the game's lease", wait_for(lambda: psql(
        url, "SELECT count(*) FROM leases WHERE game_id = %d AND state = "
        "'held'" % gid) == "1", DEADLINE, 0.05))
    until = int(psql(url, "SELECT expires_ms FROM leases WHERE game_id = %d"
                     % gid))
    probe_a = Client(a)
    pids = cluster_pids()
    b.proc.send_signal(signal.SIGSTOP)
    signal_all(pids, signal.SIGSTOP)
    try:
        # A renews no lease while the database is stopped: wait (A still
        # answering) until a renewal just before the stop would have
        # expired too (one TTL after the last one read).
        answered = True
        while answered and time.time() * 1000 < until + 1500 + 500:
            r = probe_a.cmd("protocol_version", timeout=DEADLINE)
            answered = r is not None and ok(r)
            time.sleep(0.05)
        check("A answers while its lease runs out, the database stopped",
              answered, r)
    finally:
        signal_all(pids, signal.SIGCONT)
    try:
        check("the game's lease expired", wait_for(
            lambda: lease_expired(url, gid) or "event=lease-lost" in
            open(a.log.name).read(), DEADLINE, 0.05))
        lost = log_wait(a, ["game=%d event=lease-lost" % gid], WAIT)
        check("A finds the game's lease lost", lost is not None, lost)
        for c in (p1, p2):
            check("a player of A is told the game is lost", c.wait(
                "events", lambda e: e == "event lost %d" % gid, WAIT)
                is not None, c.events)
    finally:
        b.proc.send_signal(signal.SIGCONT)
    where = {"127.0.0.1:%d" % d.port: d for d in (a, b)}
    for c in (p1, p2):
        e = c.wait("events", lambda e: re.match(
            r"event redirect (\S+) %d$" % gid, e) is not None, 60)
        check("a player of A is told where the game went", e is not None
              and e.split()[2] in where, c.events)
        if e is None:
            continue
        d = where[e.split()[2]]
        n = Client(d)
        r = n.cmd("login %s password1" % ("l1" if c is p1 else "l2"))
        r = n.cmd("resume %d" % gid) if ok(r) else r
        for _ in range(100):        # "being taken over: try again"
            if r is None or ok(r) or "try again" not in r:
                break
            n.wait("events", lambda x: False, 0.1)
            r = n.cmd("resume %d" % gid)
        check("and resumes it on %s" % d.name, r is not None and ok(r), r)
    a.stop()
    b.stop()


if __name__ == "__main__":
    if not os.environ.get("SQLDB_PG_URL"):
        print("1..0 # SKIP no SQLDB_PG_URL (run it under "
              "tests/e2e/pgcluster.sh)")
        sys.exit(0)
    sys.exit(run([test_stopped_cluster, test_scheduler_moves,
                  test_lease_lost]))
