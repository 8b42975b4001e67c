#!/usr/bin/env python3
"""logpipe.py: end-to-end tests of a client that pipelines its next game
behind the move that ends a logged match (issue 12 §3, PROTOCOL.md §12):
the result is still sent only once the log has it on disk, the next
game's `new` and `match` run meanwhile, and the responses come in order;
every result a client saw is on disk after kill -9.

The commit is held back by a write lock taken on the database from here
(SQLite waits for it), so that "meanwhile" is observable: the next
match's start is in the daemon's log while its result is not sent yet.

Usage: logpipe.py BUILDDIR SRCDIR.
"""
import os
import signal
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)


def replies(c, n, timeout=WAIT):
    """The next n replies of c, in the order they came (None if missing)."""
    out = []
    end = time.time() + timeout
    while len(out) < n and time.time() < end:
        if c.replies:
            out.append(c.replies.pop(0))
        else:
            c._pump(0.05)
    return out + [None] * (n - len(out))


def started(d, gid):
    return ("game=%d event=start" % gid) in open(d.log.name).read()


def test_pipelined_next_game():
    """The next game runs while the result waits for its commit."""
    d = Daemon("logpipe")
    c = Client(d)
    check("new", ok(c.cmd("new nim 1")))
    r = c.cmd("match engine first")
    check("match", ok(r) and body(r).startswith("game "), r)
    gid = int(body(r).split()[1])
    lock = sqlite3.connect(d.db, isolation_level=None, timeout=10)
    lock.execute("BEGIN IMMEDIATE")        # the writer must wait for it
    c.send("play 1=0\nnew nim 2\nmatch engine first")
    check("the next match starts while the result waits",
          wait_for(lambda: started(d, gid + 1), WAIT, 0.02))
    c._pump(0.2)
    check("no response before the commit", c.replies == [], c.replies)
    lock.execute("COMMIT")
    lock.close()
    a, b, m = replies(c, 3)
    check("the result first", a is not None and a.startswith("=") and
          "result first no-legal-move" in a and "unlogged" not in a, a)
    check("then new", b is not None and b.startswith("="), b)
    check("then match", m is not None and m.startswith("=") and
          ("game %d" % (gid + 1)) in m, m)
    row, moves = db_game(d, gid)
    check("the result is on disk", row is not None and row[0] ==
          "finished" and row[1] == "first" and moves == 1, (row, moves))
    d.stop()


def test_pipelined_kill():
    """kill -9 under a pipelining client: every result it saw is on disk,
    complete."""
    d = Daemon("logpipe-kill")
    c = Client(d)
    seen = []
    for i in range(200):
        c.send("new nim 2 1\nmatch engine first\nplay 1=1" if i == 0 else
               "play 1=1")
        # nim 2 1: the client's 1=1 leaves 1 1; the engine takes one, the
        # client the other: three moves, the client wins.
        rs = replies(c, 3 if i == 0 else 1)
        p = rs[-1]
        if p is None or not p.startswith("="):
            break
        mv = p.split("reply ")[1].split()[0]
        c.send("play %s\nnew nim 2 1\nmatch engine first" %
               ("2=0" if mv.startswith("1=") else "1=0"))
        res, nw, mt = replies(c, 3)
        if res is None or "result first" not in res:
            break
        seen.append(int(mt.split("game ")[1].split()[0]) - 1)
        if i == 150:
            d.stop(signal.SIGKILL)
            break
    check("every game played up to the kill", len(seen) == 151, len(seen))
    con = sqlite3.connect(d.db)
    bad = [g for g in seen if con.execute(
        "SELECT status, result FROM games WHERE id = ?", (g,)).fetchone()
        != ("finished", "first") or con.execute(
        "SELECT COUNT(*) FROM moves WHERE game_id = ?", (g,)).fetchone()[0]
        != 3]
    con.close()
    check("every result seen is on disk, complete", bad == [], bad[:5])


sys.exit(run([test_pipelined_next_game, test_pipelined_kill]))
