#!/usr/bin/env python3
"""xloop.py: a node's seek path across nodes never holds up its event loop
(issue 15's leftovers, PROTOCOL.md §13.3, doc/NODES.md): two grundyd on one
PostgreSQL (make check runs it under a throwaway cluster,
tests/e2e/pgcluster.sh).
test_seek_locked: while a psql session holds table seeks in ACCESS
EXCLUSIVE mode, a seek on node A waits for the database (its statement is
seen waiting for the lock) but A answers protocol_version on another
connection, two more seeks, a login and 'player' (on the shared workers),
and a clocked game on A goes on: a move is relayed and the
player who then does not move loses on time, all while the lock is held.
Once the lock is gone the seek is answered and pairs across nodes as
before (the newer seek's node, B, owns the game; A's player is
redirected there).
test_unseek_in_flight: a seek withdrawn while its publication waits for
the lock leaves no row once the lock is gone.
test_second_game: an account seeking on one connection while it plays on
another gets no second game from a claim across nodes.
test_orphan_swept: held rows no hold, seek or job of their node owns are
deleted by its sweep.
test_watch_share: one address's spectators start following at most 15
games of other nodes.  Every wait is a poll with a deadline; no time is
asserted."""
import glob
import os
import subprocess
import time

from e2e import *  # noqa: F401,F403
from xnode import addr, fresh_db, psql, relogin  # noqa: E402

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
SPEC = "nim 3 4 5"
DEADLINE = 30.0                         # s: every poll's bound
GRANTED = "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = " \
    "l.relation WHERE c.relname = 'seeks' AND l.mode = " \
    "'AccessExclusiveLock' AND l.granted"
WAITING = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = " \
    "'Lock' AND position('seeks' in query) > 0"
HOLDER = "SELECT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = " \
    "l.relation WHERE c.relname = 'seeks' AND l.mode = " \
    "'AccessExclusiveLock' AND l.granted"


def lock_seeks(url):
    """A psql session that takes table seeks in ACCESS EXCLUSIVE mode and
    sleeps in that transaction (unlock_seeks cancels it)."""
    bindir = os.environ.get("PG_BINDIR") or sorted(
        glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    p = subprocess.Popen([os.path.join(bindir, "psql"), "-Aqt", "-c",
                          "BEGIN; LOCK TABLE seeks IN ACCESS EXCLUSIVE MODE; "
                          "SELECT pg_sleep(120)", url],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    check("table seeks locked",
          wait_for(lambda: psql(url, GRANTED) == "1", DEADLINE, 0.05))
    return p


def unlock_seeks(url, p):
    psql(url, "SELECT pg_cancel_backend(pid) FROM (%s) h" % HOLDER)
    p.wait(DEADLINE)


def test_seek_locked():
    url = fresh_db()
    a = Daemon("A", db=url)
    b = Daemon("B", db=url)
    p1 = login(a, "p1")
    for n in ("p2", "s1", "s2", "s3", "s4"):
        r = p1.cmd("register %s password1" % n)
        check("%s registered on A" % n, ok(r), r)
    p2 = relogin(a, "p2")
    s1 = relogin(a, "s1")
    s2 = relogin(b, "s2")
    c = Client(a)
    # Two players of A pair at once (the second seek holds the first's
    # row on a worker): a game with TC ms on each clock.  Seat 1 answers
    # as soon as the lock is held and A's seek waits for it (before, it
    # answered after all the steps below, which took more than its 12 s
    # on a loaded machine); seat 2 then loses on time while the rest runs.
    tc = 30000
    gid, seats, _, _ = pair(a, p1, p2, SPEC, "tc=%d rated=0" % tc)
    lk = lock_seeks(url)
    try:
        s1.send("7 seek %s tc=60000 rated=0" % SPEC)
        check("A's seek statement waits for the lock on seeks",
              wait_for(lambda: psql(url, WAITING) != "0", DEADLINE, 0.05))
        answers(c, "protocol_version",
                "A answers protocol_version while its seek waits", "2")
        g = genmove_of(seats[1], DEADLINE)
        check("seat 1 is asked for its move", g is not None,
              seats[1].commands)
        if g is not None:
            seats[1].answer(g, "1=0")
        # Commands on the shared workers too: two more seeks (their
        # preparations never wait for each other), then a login and
        # 'player' on other connections.
        more = [relogin(a, n) for n in ("s3", "s4")]
        for i, m in enumerate(more):    # terms of their own: no pairing
            m.send("8 seek %s tc=%d rated=0" % (SPEC, 70000 + 10000 * i))
        t0 = time.monotonic()
        lc = Client(a)
        r = lc.cmd("login p1 password1")
        check("A answers a login (on a worker) while its seeks wait",
              ok(r) and psql(url, GRANTED) == "1", r)
        r = lc.cmd("player s1")
        check("A answers player (on a worker) while its seeks wait",
              ok(r) and psql(url, GRANTED) == "1", r)
        print("# login and player answered in %.2f s while the lock was "
              "held" % (time.monotonic() - t0))
        for m in more:
            r = m.wait("replies", lambda x: x.startswith(("=8", "?8")),
                       DEADLINE)
            check("another seek on A is answered while the lock is held",
                  r is not None and r.startswith("=8 seek") and
                  psql(url, GRANTED) == "1", r)
        check("seat 2 is asked for its move after seat 1's",
              genmove_of(seats[2], DEADLINE) is not None, seats[2].commands)
        go = gameover_of(seats[2], tc / 1000 + DEADLINE)
        check("seat 2, which does not move, loses on time",
              go is not None and " timeout" in go, go)
        check("all while the lock is held", psql(url, GRANTED) == "1")
    finally:
        unlock_seeks(url, lk)
    # Answered after the lock, or during it: its preparation waits for a
    # lock XHOLD_LOCK_MS at most, then a job publishes it.
    r = s1.wait("replies", lambda x: x.startswith(("=7", "?7")), DEADLINE)
    check("the seek on A is answered", r is not None and
          r.startswith("=7 seek"), r)
    # Published again by the tick (its job failed on the lock, after
    # XJOB_LOCK_MS): B's seek is the newer one.
    check("s1's seek is published on A once the lock is gone",
          wait_for(lambda: psql(url, "SELECT count(*) FROM seeks WHERE "
                                "player = 's1' AND created_ms > 0") == "1",
                   DEADLINE, 0.05))
    r = s2.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("s2's seek waits on B", ok(r) and body(r).startswith("seek"), r)
    e = event_of(s2, "start", DEADLINE)
    check("s2 gets event start on B", e is not None, s2.events)
    er = event_of(s1, "redirect", DEADLINE)
    check("s1 is redirected to B's game", e is not None and
          er == "event redirect %s %s" % (addr(b), e.split()[2]), er)
    check("A's game is not B's", e is None or int(e.split()[2]) != gid, e)


def test_unseek_in_flight():
    """A seek withdrawn while its row's statements wait for the database
    (table seeks locked) leaves nothing in the table once they ran, and
    pairs with no one."""
    url = fresh_db()
    a = Daemon("uA", db=url)
    b = Daemon("uB", db=url)
    u1 = login(a, "u1")
    r = u1.cmd("register u2 password1")
    check("u2 registered on A", ok(r), r)
    u2 = relogin(b, "u2")
    lk = lock_seeks(url)
    try:
        u1.send("7 seek %s tc=60000 rated=0" % SPEC)
        r = u1.wait("replies", lambda x: x.startswith(("=7", "?7")),
                    DEADLINE)
        check("u1's seek is answered while the lock is held (its "
              "preparation waited a second at most)",
              r is not None and r.startswith("=7 seek") and
              psql(url, GRANTED) == "1", r)
        r = u1.cmd("unseek")
        check("u1 withdraws it while its publication waits", ok(r), r)
    finally:
        unlock_seeks(url, lk)
    check("nothing of it is left in table seeks",
          wait_for(lambda: psql(url, "SELECT count(*) FROM seeks") == "0",
                   DEADLINE, 0.05))
    r = u2.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("u2's seek on B waits", ok(r) and body(r).startswith("seek"), r)
    check("u2's seek alone is published",
          wait_for(lambda: psql(url, "SELECT count(*) FROM seeks WHERE "
                                "created_ms > 0") == "1", DEADLINE, 0.05))
    r = u2.cmd("unseek")
    check("it paired with no one: still open, no event start",
          ok(r) and not [e for e in u2.events if "start" in e], r)


def log_wait(d, words, timeout):
    """The first line of d's log holding one of words, or None."""
    path = os.path.join(TMP, d.name + ".log")
    found = []

    def seen():
        with open(path, errors="replace") as f:
            found[:] = [ln for ln in f if any(w in ln for w in words)]
        return bool(found)
    wait_for(seen, timeout, 0.05)
    return found[0].strip() if found else None


def seek_published(url, c, who, node):
    """c seeks (the only seek in the table) and is published."""
    r = c.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("%s's seek waits on %s" % (who, node),
          ok(r) and body(r).startswith("seek"), r)
    check("%s's seek is published" % who,
          wait_for(lambda: psql(url, "SELECT count(*) FROM seeks WHERE "
                                "created_ms > 0") == "1", DEADLINE, 0.05))


def test_second_game():
    """An account seeking on one connection while it plays on another is
    not paired again across nodes: x's seek on A (published once table
    seeks is unlocked, after x accepted a challenge on another connection)
    claims w's older row of B, and A refuses it (event=xnode-busy): x
    plays one game, both seeks stay published."""
    url = fresh_db()
    a = Daemon("gA", db=url)
    b = Daemon("gB", db=url)
    x1 = login(a, "x")
    for n in ("z", "w"):
        r = x1.cmd("register %s password1" % n)
        check("%s registered on A" % n, ok(r), r)
    x2 = relogin(a, "x")
    z = relogin(a, "z")
    w = relogin(b, "w")
    seek_published(url, w, "w", "B")
    lk = lock_seeks(url)
    try:
        x1.send("7 seek %s tc=60000 rated=0" % SPEC)
        r = x1.wait("replies", lambda x: x.startswith(("=7", "?7")),
                    DEADLINE)
        check("x's seek on A is answered while the lock is held",
              r is not None and r.startswith("=7 seek"), r)
        r = x2.cmd("ready")
        check("x's second connection is ready", ok(r), r)
        r = z.cmd("challenge x nim 3 4 5 tc=600000 rated=0")
        check("z challenges x", ok(r), r)
        chid = body(r).split()[-1] if ok(r) else "0"
        r = x2.cmd("accept %s" % chid)
        check("x accepts on its second connection", ok(r), r)
        check("x plays z", event_of(x2, "start", DEADLINE) is not None,
              x2.events)
        check("all while the lock is held", psql(url, GRANTED) == "1")
    finally:
        unlock_seeks(url, lk)
    line = log_wait(a, ("event=xnode-busy seek=", "event=xnode-paired "),
                    DEADLINE)
    check("A refuses the claim of x's seek: x plays already",
          line is not None and "event=xnode-busy seek=" in line, line)
    check("x gets no second game",
          not [e for e in x1.events if e.startswith("event start")],
          x1.events)
    check("w is not redirected",
          not [e for e in w.events if "redirect" in e], w.events)
    check("both seeks stay published",
          psql(url, "SELECT count(*) FROM seeks WHERE created_ms > 0 AND "
               "owner_id IS NULL") == "2")


def test_orphan_swept():
    """Rows of a node held (created_ms 0 or -1) that nothing of it owns
    (a give-back that never ran) are deleted by its sweep (two sweeps
    XSWEEP_TICKS apart); its published seek's row stays."""
    url = fresh_db()
    a = Daemon("oA", db=url)
    v = login(a, "v")
    seek_published(url, v, "v", "A")
    node = psql(url, "SELECT id FROM nodes WHERE addr = '%s'" % addr(a))
    for ms in (0, -1):
        psql(url, "INSERT INTO seeks (node_id, player, spec, random, rated,"
             " base_ms, inc_ms, created_ms) VALUES (%s, 'ghost', '%s', 0, 0,"
             " 60000, 0, %d)" % (node, SPEC, ms))
    check("two held rows owned by nothing",
          psql(url, "SELECT count(*) FROM seeks WHERE created_ms IN "
               "(0, -1)") == "2")
    check("A's sweep deletes them",
          wait_for(lambda: psql(url, "SELECT count(*) FROM seeks WHERE "
                                "created_ms IN (0, -1)") == "0",
                   2 * DEADLINE, 0.1))
    check("v's published row stays",
          psql(url, "SELECT count(*) FROM seeks WHERE player = 'v' AND "
               "created_ms > 0") == "1")


def watched(c, gid):
    """watch gid on c, again while its start is not in the log yet; the
    last reply."""
    r = None

    def answered():
        nonlocal r
        r = c.cmd("watch %d" % gid)
        return r is not None and "is starting on another node" not in r
    wait_for(answered, DEADLINE, 0.05)
    return r


def test_watch_share():
    """One address's connections start following at most 15 of the 63
    games of other nodes a node may follow (PROTOCOL §13.5): a sixteenth
    is refused with the documented error; another address may still
    follow one, and a game followed already may still be watched."""
    url = fresh_db()
    a = Daemon("wA", "--admins", "adm", db=url)
    b = Daemon("wB", "--admins", "adm", db=url)
    adm = login(b, "adm")
    gids = []
    for i in range(16):
        for n in ("x%d" % i, "y%d" % i):
            r = adm.cmd("account create %s password1" % n)
            check("account %s created" % n, ok(r), r)
        gid, _, _, _ = pair(b, relogin(b, "x%d" % i), relogin(b, "y%d" % i),
                            SPEC, "tc=600000 rated=0")
        gids.append(gid)
    w1, w2 = Client(a), Client(a)
    for i, gid in enumerate(gids[:15]):
        r = watched(w1 if i < 8 else w2, gid)
        check("127.0.0.1 follows game %d of node B" % gid,
              ok(r) and ("watching %d" % gid) in r, r)
    r = watched(w2, gids[15])
    check("a sixteenth game of 127.0.0.1 is refused",
          not ok(r) and body(r) == "your address watches 15 games of "
          "other nodes here (limit 15): unwatch one first", r)
    r = watched(w2, gids[0])
    check("a game 127.0.0.1 follows already may be watched",
          ok(r) and ("watching %d" % gids[0]) in r, r)
    w3 = Client(a, src="127.0.0.2")
    r = watched(w3, gids[15])
    check("127.0.0.2 follows the sixteenth",
          ok(r) and ("watching %d" % gids[15]) in r, r)


if __name__ == "__main__":
    if not os.environ.get("SQLDB_PG_URL"):
        print("1..0 # SKIP no SQLDB_PG_URL (run it under "
              "tests/e2e/pgcluster.sh)")
        sys.exit(0)
    sys.exit(run([test_seek_locked, test_unseek_in_flight,
                  test_second_game, test_orphan_swept, test_watch_share]))
