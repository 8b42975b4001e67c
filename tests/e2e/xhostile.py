#!/usr/bin/env python3
"""xhostile.py: an adversarial client against two grundyd nodes on one
PostgreSQL (issue 15, PROTOCOL.md §13.12; make check runs it under a
throwaway cluster, tests/e2e/pgcluster.sh).  Each test failed on main before
its fix (the seek checks: lobby-where.c, an account told its game is on
another node may start none here; test_loop_blocked: branch lp2).
  test_adversarial: a game held on node A (no move answered until the
    test says so); on node B its player logs in again and again (each
    login gets exactly one `event redirect A GAME_ID` and nothing else,
    and changes nothing on A); resumes of games that do not exist, are
    not the client's or are elsewhere get the documented errors; a seek
    on B by the player seated on A is refused (§13.2) and pairs with no
    one; a spectator churns watch/unwatch of the remote game, then still
    gets each move exactly once and the end once.
  test_killed_owner: A killed with the game held: the player's seek on B
    is refused meanwhile, B restores the game (event live), both resume
    and finish it, a non-player's resume is refused.
  test_loop_blocked: while another session locks table leases, `watch`
    and a web feed of a game B does not have must not keep B from
    answering another connection (nothing on the loop waits for the
    database).
Every wait is a poll with a deadline; counts are exact."""
import glob
import http.client
import os
import re
import select
import signal
import subprocess
import threading

from e2e import *  # noqa: F401,F403
from httpapi import http_port  # noqa: E402
from xnode import addr, fresh_db, psql, relogin  # noqa: E402

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
SPEC = "nim 3 4 5"
MOVES = ["1=0", "2=0", "3=0"]           # the third empties nim 3 4 5
FLOOD = 30                              # logins of alice on B
CHURN = 50                              # watch/unwatch pairs on B
DEADLINE = 20.0                         # s: every poll's bound


def two_nodes():
    url = fresh_db()
    return [Daemon(n, "--admins", "adm", "--node-ttl", "2000", db=url)
            for n in ("A", "B")]


def held_game(a):
    """alice and bob pair on A; returns (gid, seats)."""
    alice = login(a, "alice")
    for n in ("bob", "carol", "dave"):
        r = alice.cmd("register %s password1" % n)
        check("%s registered on A" % n, ok(r), r)
    bob = relogin(a, "bob")
    gid, seats, _, _ = pair(a, alice, bob, SPEC, "tc=600000 rated=0")
    return gid, seats


def play_out(gid, seats):
    for i, mv in enumerate(MOVES):
        c = seats[1 + i % 2]
        g = genmove_of(c, DEADLINE)
        check("ply %d: genmove to seat %d" % (i + 1, 1 + i % 2),
              g is not None, c.commands)
        if g is None:
            return False
        c.answer(g, mv)
    return True


def wait_redirect(b, want):
    """Logs alice in on B until she is told want; returns whether she
    was before DEADLINE."""
    def told():
        c = Client(b)
        r = c.cmd("login alice password1")
        ev = event_of(c, "redirect", 0.5)
        c.close()
        return ok(r) and ev == want
    return wait_for(told, DEADLINE, 0.1)


def test_adversarial():
    a, b = two_nodes()
    gid, seats = held_game(a)
    check("a game on A", gid > 0, gid)
    want = "event redirect %s %d" % (addr(a), gid)

    # Until A has written the game's begin and lease, a login on B is
    # told nothing (PROTOCOL §13.12: "its other live games in the log"):
    # wait for the first redirect, then flood.
    first = wait_redirect(b, want)
    check("a login of alice on B is told %r (within %d s)" %
          (want, DEADLINE), first, want)
    # Flood of logins of alice on B: one redirect each, nothing else.
    bad = []
    for k in range(FLOOD):
        c = Client(b)
        r = c.cmd("login alice password1")
        ev = event_of(c, "redirect", DEADLINE)
        c._pump(0.05)
        if not ok(r) or ev != want or c.events:
            bad.append((k, r, ev, list(c.events)))
        c.close()
    check("%d logins of alice on B: each exactly one %r" % (FLOOD, want),
          not bad, bad[:3])

    # Nothing changed on A: the game is live at ply 0, seats unchanged.
    adm = login(a, "adm")
    r = adm.cmd("watch %d" % gid)
    check("A: the game is still live at ply 0 after the flood",
          ok(r) and "watching %d" % gid in r and "ply 0" in r, r)
    adm.cmd("unwatch %d" % gid)

    # Resumes on B.
    alice_b = relogin(b, "alice")
    ev = event_of(alice_b, "redirect", DEADLINE)
    check("alice on B told to go to A", ev == want, ev)
    answers(alice_b, "resume 999999", "B: resume of a game that does not "
            "exist", "no live game 999999")
    answers(alice_b, "resume %d" % gid, "B: resume of alice's game held "
            "by live node A is refused (it is on A)",
            "no live game %d" % gid)
    answers(alice_b, "resume 0", "B: resume 0", "no live game 0")
    answers(alice_b, "resume -5", "B: resume -5 (a token)",
            "no live game with that token")
    carol_b = relogin(b, "carol")
    answers(carol_b, "resume %d" % gid, "B: carol resumes a game not hers "
            "(held on A)", "no live game %d" % gid)
    check("carol on B got no event about alice's game",
          not [e for e in carol_b.events if str(gid) in e], carol_b.events)
    carol_a = relogin(a, "carol")
    answers(carol_a, "resume %d" % gid, "A: carol resumes a game not hers",
            "not a player of game %d" % gid)

    # A seek on B by alice, whose game is live on A (PROTOCOL §13.2: an
    # account seated in a live game may not seek; on one node it is
    # refused, so it must be across nodes too).
    r = alice_b.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("B: alice (seated in live game %d on A, told so) may not seek "
          "on B" % gid, not ok(r), r)
    dave = relogin(b, "dave")
    r = dave.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("B: dave's seek waits (alice, seated on A, is no partner): no "
          "second live game of alice's", ok(r) and
          body(r).startswith("seek"), r)
    m = re.match(r"game (\d+)", body(r))
    if m:                       # the bug: end alice's second game
        dave.cmd("resign %s" % m.group(1))
    else:
        dave.cmd("unseek")
    alice_b.cmd("unseek")

    # Watch/unwatch churn of the remote game on B, then a real watch.
    bad = []
    for k in range(CHURN):
        r = carol_b.cmd("watch %d" % gid)
        if not (ok(r) and "watching %d" % gid in r and "ply 0" in r):
            bad.append((k, "watch", r))
        r = carol_b.cmd("unwatch %d" % gid)
        if not ok(r):
            bad.append((k, "unwatch", r))
    check("B: %d watch/unwatch pairs of the remote game all answered"
          % CHURN, not bad, bad[:3])
    r = carol_b.cmd("unwatch %d" % gid)
    check("B: unwatch of a game not watched", r is not None, r)
    carol_b.drain()
    r = carol_b.cmd("watch %d" % gid)
    check("B: carol watches the remote game after the churn",
          ok(r) and "watching %d" % gid in r and "ply 0" in r, r)
    if not play_out(gid, seats):
        return
    go = event_of(carol_b, "gameover %d" % gid, DEADLINE)
    check("B: carol gets event gameover first no-legal-move",
          go == "event gameover %d first no-legal-move" % gid, go)
    carol_b._pump(0.2)
    got = [e.split()[2:6] for e in carol_b.events
           if e.startswith("event move")]
    check("B: carol saw each move exactly once, in order, after the churn",
          got == [[str(gid), str(i + 1), str(1 + i % 2), mv]
                  for i, mv in enumerate(MOVES)], carol_b.events)
    check("B: no second gameover",
          not [e for e in carol_b.events if e.startswith("event gameover")],
          carol_b.events)

    # After the end: alice logs in on B and is told nothing.
    c = relogin(b, "alice")
    c._pump(0.3)
    check("B: alice's login after the end gets no redirect/takeover",
          not [e for e in c.events if re.match(r"event (redirect|takeover)",
                                               e)], c.events)


def test_killed_owner():
    """A is killed with alice's game held: alice logs in on B, which
    takes the game over: whatever she is told first (event takeover, or
    event live once B restored it), a seek of hers is refused meanwhile,
    event live comes within the deadline, resume GAME_ID takes the seat
    and the game ends with both players; resume of the game by carol is
    refused; nothing is left live."""
    a, b = two_nodes()
    gid, seats = held_game(a)
    want = "event redirect %s %d" % (addr(a), gid)
    check("alice's game is known on B before the kill",
          wait_redirect(b, want), want)
    a.stop(signal.SIGKILL)
    alice = relogin(b, "alice")
    bob = relogin(b, "bob")
    carol = relogin(b, "carol")
    r = alice.cmd("seek %s tc=60000 rated=0" % SPEC)
    check("B: alice's seek refused while her game is taken over or "
          "restored", not ok(r), r)
    el = event_of(alice, "live %d " % gid, DEADLINE + 10)
    check("B: alice gets event live for game %d" % gid, el is not None,
          alice.events)
    eb = event_of(bob, "live %d " % gid, DEADLINE)
    check("B: bob gets event live for game %d" % gid, eb is not None,
          bob.events)
    if el is None or eb is None:
        return
    answers(carol, "resume %d" % gid, "B: carol may not resume it",
            "not a player of game %d" % gid)
    sa = int(re.search(r"you=(\d)", el).group(1))
    nseats = {sa: alice, 3 - sa: bob}
    for s, c in nseats.items():
        r = c.cmd("resume %d" % gid)
        check("B: seat %d resumes game %d" % (s, gid),
              ok(r) and "game %d you=%d" % (gid, s) in r, r)
    if not play_out(gid, nseats):
        return
    for s, c in nseats.items():
        check("B: seat %d gets gameover" % s,
              gameover_of(c, DEADLINE) is not None, c.commands)
    c = relogin(b, "alice")
    c._pump(0.3)
    check("B: alice's login after the end is told of no game",
          not [e for e in c.events if re.match(
              r"event (redirect|takeover|live)", e)], c.events)


class Locker:
    """A psql session holding an ACCESS EXCLUSIVE lock on table leases of
    the database of url until release()."""

    def __init__(self, url):
        bindir = os.environ.get("PG_BINDIR") or sorted(
            glob.glob("/usr/lib/postgresql/*/bin"))[-1]
        self.p = subprocess.Popen([os.path.join(bindir, "psql"), "-Aqt",
                                   url], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.p.stdin.write("BEGIN;\nLOCK TABLE leases IN ACCESS EXCLUSIVE "
                           "MODE;\nSELECT 'locked';\n")
        self.p.stdin.flush()
        r, _, _ = select.select([self.p.stdout], [], [], DEADLINE)
        self.locked = bool(r) and self.p.stdout.readline().strip() == \
            "locked"

    def release(self):
        try:
            self.p.stdin.write("COMMIT;\n")
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait(30)


LEASE_GET = "SELECT node_id, epoch, state, acquired_ms, expires_ms " \
    "FROM leases WHERE game_id"


def waiting_lease_get(url):
    """Whether a lease_get statement waits for a lock (pg_stat_activity)."""
    return psql(url, "SELECT count(*) FROM pg_stat_activity WHERE "
                "wait_event_type = 'Lock' AND position('%s' in query) = 1"
                % LEASE_GET) not in ("", "0")


def test_loop_blocked():
    """Nothing on B's event loop waits for the database: while a session
    holds an exclusive lock on table leases, `watch GAME_ID` of a game B
    does not have (its lease is read, and waits for the lock), and a web
    feed request of such a game, must not keep B from answering
    protocol_version on another connection.  The lock is released at
    the end whatever happened."""
    url = fresh_db()
    b = Daemon("B", "--http", "127.0.0.1:0", "--node-ttl", "2000", db=url)
    b.hport = http_port(b)
    c = Client(b)
    answers(c, "protocol_version", "B answers before the lock", "2")
    for what in ("watch", "feed"):
        lk = Locker(url)
        check("%s: table leases locked" % what, lk.locked)
        done = []
        if what == "watch":
            w = Client(b)
            w.send("1 watch 999998")
        else:
            def req():
                try:
                    h = http.client.HTTPConnection(
                        "127.0.0.1", b.hport, timeout=3 * DEADLINE)
                    h.request("GET", "/api/games/999999/feed")
                    done.append(h.getresponse().status)
                    h.close()
                except Exception as e:          # noqa: BLE001
                    done.append(repr(e))
            t = threading.Thread(target=req, daemon=True)
            t.start()
        blocked = wait_for(lambda: waiting_lease_get(url), DEADLINE, 0.1)
        check("%s: B's read of the lease waits for the lock" % what,
              blocked)
        r = c.cmd("protocol_version", timeout=DEADLINE) if blocked else "2"
        lk.release()
        check("%s: B answers protocol_version while a %s of a game it "
              "does not have waits for the database" % (what, what),
              body(r) == "2", r)
        if r is None:
            c.wait("replies", lambda x: True, DEADLINE)  # the late answer
        if what == "watch":
            rw = w.wait("replies", lambda x: x.startswith(("=1", "?1")),
                        DEADLINE)
            check("watch 999998 is refused once the lock is gone",
                  rw == "?1 no live game 999998", rw)
        else:
            t.join(DEADLINE)
            check("the feed of 999999 is refused once the lock is gone",
                  done == [404], done)


if __name__ == "__main__":
    sys.exit(run([test_adversarial, test_killed_owner, test_loop_blocked]))
