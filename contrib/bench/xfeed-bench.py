#!/usr/bin/env python3
"""xfeed-bench.py: how late a spectator on another node sees a move,
against one on the game's own node (issue 15 §2), two grundyd with --http
on one PostgreSQL (run it under tests/e2e/pgcluster.sh, which gives
SQLDB_PG_URL).  Two raw clients play one game of MOVES plies on node A;
for each ply, from the mover's answer to the move's arrival at

  watch A   a `watch` client on A (the owner: at once, in memory)
  watch B   a `watch` client on B (A commits the move with its NOTIFY,
            B reads the log)
  SSE A     GET /api/games/ID/feed on A
  SSE B     the same on B (a build whose B does not follow another node's
            live game for the web gets the log's record once: n/a)

all four read in one select loop, so none waits for another.  The moves
are paced PACE_MS apart (so each is timed alone).  Prints a table of
median, p90 and max per spectator.

usage: xfeed-bench.py BUILDDIR SRCDIR [MOVES [PACE_MS]]  (default 40, 50)
"""
import os
import select
import statistics
import sys
import time

sys.path.insert(0, os.path.join(sys.argv[2], "tests", "e2e"))
from e2e import Client, Daemon, PROCS, genmove_of, ok  # noqa: E402
from httpapi import Feed, http_port  # noqa: E402

URL = os.environ["SQLDB_PG_URL"]


def hnode(name):
    d = Daemon(name, "--http", "127.0.0.1:0", db=URL)
    d.hport = http_port(d)
    return d


def login(d, name):
    c = Client(d)
    c.cmd("register %s password1" % name)
    r = c.cmd("login %s password1" % name)
    assert ok(r), r
    return c


def start(a, moves):
    """Two clients on A paired on nim with MOVES piles of 1: (id, seats)."""
    x, y = login(a, "bx"), login(a, "by")
    spec = "nim %s tc=600000 rated=0" % " ".join(["1"] * moves)
    r = x.cmd("seek " + spec)
    assert ok(r), r
    y.send("1 seek " + spec)
    ex = x.wait("events", lambda e: e.startswith("event start"), 20)
    ey = y.wait("events", lambda e: e.startswith("event start"), 20)
    assert ex and ey, (x.events, y.events)
    seats = {1: x if "you=1" in ex else y, 2: y if "you=1" in ex else x}
    return int(ex.split()[2]), seats


def arrived(kind, obj, ply):
    """Whether spectator obj (a Client or a Feed) has ply's move."""
    if kind == "watch":
        return any(e.split()[3] == str(ply) for e in obj.events
                   if e.startswith("event move"))
    obj._parse()
    if obj.status is not None:
        obj._events(False)
    return any(e[1] == "move" and e[2]["ply"] == ply for e in obj.events)


def wait_all(specs, ply, t0, deadline=10.0):
    """Reads every spectator's socket until each has ply; their delays."""
    got = {}
    end = t0 + deadline
    while len(got) < len(specs) and time.perf_counter() < end:
        todo = [s for s in specs if s[0] not in got]
        r, _, _ = select.select([s[2].s for s in todo], [], [], 0.5)
        now = time.perf_counter()
        for name, kind, obj in todo:
            if obj.s in r:
                if kind == "watch":
                    obj._pump(0)
                else:
                    obj._recv(0)
            if arrived(kind, obj, ply):
                got[name] = now - t0
    return got


def main():
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    pace = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    a, b = hnode("A"), hnode("B")
    gid, seats = start(a, moves)
    wa, wb = login(a, "wa"), login(b, "wb")
    assert ok(wa.cmd("watch %d" % gid)) and ok(wb.cmd("watch %d" % gid))
    path = "/api/games/%d/feed" % gid
    fa, fb = Feed(a, path), Feed(b, path)
    fa.wait(lambda e: len(e) >= 1, 10)
    fb.wait(lambda e: len(e) >= 1, 10)
    specs = [("watch A", "watch", wa), ("watch B", "watch", wb),
             ("SSE A", "feed", fa)]
    if fb.events and fb.events[0][2].get("live") is not None:
        specs.append(("SSE B", "feed", fb))
    res = {s[0]: [] for s in specs}
    for ply in range(1, moves + 1):
        c = seats[1 + (ply - 1) % 2]
        g = genmove_of(c, 10)
        assert g is not None, c.commands
        time.sleep(pace / 1000.0)
        t0 = time.perf_counter()
        c.answer(g, "%d=0" % ply)
        for k, v in wait_all(specs, ply, t0).items():
            res[k].append(v)
    a.stop()
    b.stop()
    left = [p for p in PROCS if p.poll() is None]
    list(map(lambda p: p.kill(), left))
    print("%d plies on node A, one every %d ms or more; a move's answer "
          "to its arrival:" % (moves, pace))
    table(res)


def table(res):
    print("| spectator | moves seen | median | p90 | max |")
    print("|---|---|---|---|---|")
    for name in ("watch A", "watch B", "SSE A", "SSE B"):
        v = sorted(res.get(name, []))
        row = ["n/a", "", "", ""] if not v else [
            str(len(v))] + ["%.1f ms" % (x * 1000) for x in (
                statistics.median(v), v[int(0.9 * (len(v) - 1))], v[-1])]
        print("| %s | %s |" % (name, " | ".join(row)))


if __name__ == "__main__":
    main()
