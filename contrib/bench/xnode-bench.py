#!/usr/bin/env python3
"""xnode-bench.py: how long matchmaking and spectating across nodes take
(issue 15 §2, PROTOCOL.md §13.3 and §13.5), three grundyd on one
PostgreSQL (run it under tests/e2e/pgcluster.sh, which gives SQLDB_PG_URL).

  pair      from just before the second seek (on B; the first waits on
            A) to B's `event start`: the publish, the NOTIFY, B's claim
            transaction, the game's start and lease;
  redirect  the same start to A's `event redirect` (B's NOTIFY 'paired',
            A's read of the row and of B's address);
  resume    from the redirected player's connect to B to its `resume`
            answered (connect, login's password check, resume);
  spectate  from a move's answer on B to `event move` on C (B's writer
            commits the run of moves with its NOTIFY, C reads the log).

usage: xnode-bench.py BUILDDIR SRCDIR [RUNS]   (default 20)
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(sys.argv[2], "tests", "e2e"))
from e2e import (Client, Daemon, PROCS, event_of,  # noqa: E402
                 genmove_of, login, ok)

URL = os.environ["SQLDB_PG_URL"]


def ms(t):
    return "%.1f ms" % (t * 1000)


def watch(watcher, gid, deadline=10.0):
    """watch gid, again while the game is not yet leased or in the log on
    another node (its start raced ahead of the owner's first write: "no
    live game", then "is starting on another node"), for deadline s."""
    end = time.perf_counter() + deadline
    while True:
        r = watcher.cmd("watch %d" % gid)
        if ok(r) or time.perf_counter() > end or not (
                "is starting on another node" in r or
                "no live game" in r):
            return r
        time.sleep(0.005)       # a retry's pace, not a timed assertion


def one(i, a, b, c, watcher):
    """One game: returns the four durations."""
    spec = "nim 3 4 %d tc=60000 rated=0" % (5 + i % 40)
    x = Client(a)
    x.cmd("login x%d password1" % i)
    y = Client(b)
    y.cmd("login y%d password1" % i)
    r = x.cmd("seek " + spec)
    assert ok(r), r
    t0 = time.perf_counter()
    y.send("1 seek " + spec)
    e = event_of(y, "start", 20)
    assert e is not None, (y.replies, y.events, x.events)
    t_pair = time.perf_counter() - t0
    er = event_of(x, "redirect", 20)
    t_redir = time.perf_counter() - t0
    gid = int(e.split()[2])
    t1 = time.perf_counter()
    x2 = Client(b)
    x2.cmd("login x%d password1" % i)
    r = x2.cmd("resume %d" % gid)
    t_resume = time.perf_counter() - t1
    assert ok(r) and er is not None, (r, er)
    r = watch(watcher, gid)
    assert ok(r), r
    seats = {1: y if "you=1" in e else x2, 2: x2 if "you=1" in e else y}
    g = genmove_of(seats[1], 10)
    t2 = time.perf_counter()
    seats[1].answer(g, "1=0")
    mv = event_of(watcher, "move %d " % gid, 20)
    t_spec = time.perf_counter() - t2
    assert mv is not None
    seats[2].cmd("resign %d" % gid)
    event_of(watcher, "gameover %d" % gid, 20)
    for cl in (x, y, x2):
        cl.close()
    return t_pair, t_redir, t_resume, t_spec


def main():
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    a, b, c = (Daemon(n, "--admins", "adm", db=URL) for n in "ABC")
    adm = login(a, "adm")
    for i in range(runs):
        for p in "xy":
            adm.cmd("account create %s%d password1" % (p, i))
    watcher = login(c, "watcher")
    res = [one(i, a, b, c, watcher) for i in range(runs)]
    print("| measure | runs | median | min | p90 | max |")
    print("|---|---|---|---|---|---|")
    for k, name in enumerate(("pair", "redirect", "resume", "spectate")):
        v = sorted(r[k] for r in res)
        print("| %s | %d | %s | %s | %s | %s |" % (
            name, len(v), ms(statistics.median(v)), ms(v[0]),
            ms(v[int(0.9 * (len(v) - 1))]), ms(v[-1])))
    for d in (a, b, c):
        d.stop()
    for p in PROCS:
        if p.poll() is None:
            p.kill()


if __name__ == "__main__":
    main()
