#!/usr/bin/env python3
"""play.py: end-to-end tests of networked play (PROTOCOL.md §13) against a
real grundyd on an ephemeral loopback port: accounts and the login limit,
rights, the player role, the referee's failure paths (illegal move, timeout,
disconnect and resume, disconnect with no return), spectating, ratings and
statistics, floods, and a timed rated round-robin between two `grundy bot`
processes that survives a daemon restart.

Usage: play.py BUILDDIR SRCDIR.  The daemon, client and runner are in
e2e.py, shared with the other end-to-end tests.
"""
import os
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)


def test_accounts():
    d = Daemon("accounts", "--admins", "root", "--login-failures", "3",
               "--login-lockout", "2")
    c = Client(d)
    check("register", body(c.cmd("register alice password1")) ==
          "registered alice")
    refused(c, "register alice password2", "register taken", "taken")
    refused(c, "register bad!name password1", "register bad name")
    refused(c, "register carol short", "register short password")
    r = c.cmd("login alice wrongpass1")
    check("wrong password", r is not None and
          body(r) == "wrong name or password", r)
    r = c.cmd("login nobody password1")
    check("unknown name same message", r is not None and
          body(r) == "wrong name or password", r)
    r = c.cmd("login alice wrongpass2")
    check("third failure closes", r is not None and "closing" in r, r)
    check("connection closed after failures", c.wait_closed())
    c2 = Client(d)
    r = c2.cmd("login alice wrongpass3")
    check("third failure for the name", r is not None and
          body(r) == "wrong name or password", r)
    r = c2.cmd("login alice password1")
    check("name locked after failures", r is not None and
          "too many failed logins for alice" in r, r)
    # Each try on a new connection: a refusal counts towards closing one.
    def unlocked():
        c3 = Client(d)
        r3 = c3.cmd("login alice password1")
        if ok(r3):
            return c3, r3
        c3.close()
        return None
    c2, r = wait_for(unlocked, WAIT, 0.1) or (c2, None)
    check("lock expires", ok(r) and "role player" in r, r)
    accepted(c2, "whoami", "whoami", "account alice")
    con = sqlite3.connect(d.db)
    h = con.execute("SELECT hash FROM accounts WHERE name = 'alice'"
                    ).fetchone()[0]
    con.close()
    check("yescrypt hash stored", h.startswith("$y$") and
          "password1" not in h, h)
    # Rights.
    anon = Client(d)
    refused(anon, "seek nim 3 4 5", "anonymous may not seek players",
            "account")
    refused(anon, "seek nim 3 4 5 opponent=engine rated=1",
            "engine games are unrated")
    refused(anon, "ready", "anonymous ready refused")
    refused(anon, "tournament cancel x", "anonymous admin refused",
            "permission denied")
    r = c2.cmd("tournament create t1 roundrobin players=alice,bob games=1 "
               "nim 3 4 5")
    check("non-admin admin refused", not ok(r) and
          "permission denied" in r, r)
    root = login(d, "root")
    check("admin role", "role admin" in (root.cmd("whoami") or ""))
    accepted(root, "tournament list", "admin may list")
    d.stop()


def test_engine_game():
    """An anonymous client plays the engine in the player role."""
    d = Daemon("engine")
    c = Client(d)
    r = c.cmd("seek nim 1 2 opponent=engine seat=1 tc=5000")
    check("engine seek", ok(r) and body(r).startswith("game"), r)
    g = genmove_of(c)
    check("engine game genmove", g is not None and "time1=" in g, g)
    c.answer(g, "2=1")           # nim 1 1: a winning move
    p = c.wait("commands", lambda x: " play " in x)
    check("engine replies with play", p is not None, p)
    g = genmove_of(c)
    c.answer(g, "1=0" if "1=0" not in p else "2=0")
    o = gameover_of(c)
    check("win against the engine", o is not None and
          o.split()[2:] == ["first", "no-legal-move"], o)
    c.answer(o)
    gid = int(body(r).split()[1])
    row, n = db_game(d, gid)
    check("engine game logged", row is not None and row[0] == "finished"
          and row[1] == "first" and n == 3 and row[5].startswith("anon:")
          and row[6] == "engine", (row, n))
    d.stop()


def test_referee():
    d = Daemon("referee", "--clock-grace", "100")
    a = login(d, "anna")
    b = login(d, "bert")
    w = Client(d)
    eve = login(d, "eve")

    # Illegal move: the default policy loses; both get gameover.
    gid, seats, ea, eb = pair(d, a, b)
    live = w.cmd("games live")
    check("games live lists it", ok(live) and str(gid) in live, live)
    accepted(w, "watch %d" % gid, "watch", "position nim 3 4 5")
    r = refused(eve, "resign %d" % gid, "resign someone else's game",
                "not a player")
    token1 = re.search(r"token=(\w+)", ea).group(1)
    r = refused(eve, "resume " + token1[::-1], "resume wrong token")
    first = seats[1]
    g = genmove_of(first)
    first.answer(g, "1=2")
    mv = w.wait("events", lambda x: x.startswith("event move"))
    check("spectator sees the move", mv is not None and " 1=2 " in mv, mv)
    g2 = genmove_of(seats[2])
    check("opponent asked to move", g2 is not None)
    seats[2].answer(g2, "1=9")    # pile 1 is 2: illegal
    for s, who in ((seats[1], "first"), (seats[2], "second")):
        o = gameover_of(s)
        check("illegal move loses (%s)" % who, o is not None and
              o.split()[2:5] == ["first", "illegal-move", '"1=9"'] and
              "smaller" in o, o)
        s.answer(o)
    go = w.wait("events", lambda x: x.startswith("event gameover"))
    check("spectator gameover", go is not None and "illegal-move" in go, go)
    row, n = db_game(d, gid)
    check("illegal game logged", row[:4] == ("finished", "first",
          "illegal-move", 1) and n == 1, row)

    # Timeout: nobody answers genmove.  The clock cannot start before the
    # pairing, so the loss comes at least tc + grace after t0 (how late is
    # not asserted: a loaded machine fires the timer late; the clock's
    # own arithmetic is test-lobby-clock's, on a virtual clock).
    t0 = time.time()
    gid, seats, ea, eb = pair(d, a, b, opts="tc=400")
    o = gameover_of(seats[1])
    el = time.time() - t0
    check("timeout loses", o is not None and
          o.split()[2:] == ["second", "timeout"], o)
    check("timeout after the clock and grace (0.5 s)", el >= 0.5, el)
    seats[1].answer(o)
    o2 = gameover_of(seats[2])
    seats[2].answer(o2)

    # Disconnect, then resume with the token; the game goes on.
    gid, seats, ea, eb = pair(d, a, b, spec="nim 1 1", opts="tc=20000")
    first, second = seats[1], seats[2]
    ev1 = ea if first is a else eb
    tok = re.search(r"token=(\w+)", ev1).group(1)
    fname = "anna" if first is a else "bert"
    first.close()
    e = event_of(second, "disconnected %d 1" % gid)
    check("opponent sees the disconnect", e is not None, e)
    back = Client(d)
    r = back.cmd("login %s password1" % fname)
    r = back.cmd("resume " + tok)
    check("resume", ok(r) and ("game %d you=1" % gid) in r, r)
    e = back.wait("events", lambda x: x.startswith("event start"))
    check("resume resends the start", e is not None and tok in e, e)
    n = back.wait("commands", lambda x: " new " in x)
    check("resume resends the position", n is not None and
          n.endswith("new nim 1 1"), n)
    g = genmove_of(back)
    check("resume asks for the move", g is not None, g)
    back.answer(g, "1=0")
    g = genmove_of(second)
    second.answer(g, "2=0")
    o = gameover_of(back)
    check("resumed game finishes", o is not None and
          o.split()[2:] == ["second", "no-legal-move"], o)
    back.answer(o)
    gameover_of(second)
    if first is a:
        a = back
    else:
        b = back

    # Disconnect with no return: the clock runs out.
    gid, seats, ea, eb = pair(d, a, b, opts="tc=600")
    away = seats[1]
    stay = seats[2]
    away.close()
    o = gameover_of(stay)
    check("disconnect with no return loses on time", o is not None and
          o.split()[2:] == ["second", "timeout"], o)
    row, n = db_game(d, gid)
    check("abandoned seat game logged", row[:3] ==
          ("finished", "second", "timeout"), row)
    d.stop()


def test_challenge():
    d = Daemon("challenge")
    a = login(d, "cara")
    b = login(d, "dave")
    eve = login(d, "evan")
    refused(a, "challenge nobody nim 3 4 5", "challenge offline",
            "not connected")
    refused(a, "challenge cara nim 3 4 5", "challenge yourself")
    refused(Client(d), "challenge dave nim 3 4 5", "anonymous challenge",
            "account")
    refused(a, "challenge dave nim 3 4 5 tc=9000+10",
            "challenge needs the target ready or seeking")
    check("ready", ok(b.cmd("ready")))
    r = a.cmd("challenge dave nim 3 4 5 tc=9000+10")
    check("challenge", ok(r) and body(r).startswith("challenge"), r)
    chid = body(r).split()[1]
    e = b.wait("events", lambda x: x.startswith("event challenge"))
    check("challenge event", e is not None and (" %s cara " % chid) in e
          and "tc=9000+10" in e and "seat=2" in e, e)
    refused(eve, "accept " + chid, "accept someone else's challenge",
            "not addressed to you")
    accepted(b, "decline " + chid, "decline")
    e = a.wait("events", lambda x: x.startswith("event declined"))
    check("declined event", e is not None, e)
    # Re-login as the target on the challenging connection: the
    # challenge is dropped, and one cannot accept one's own anyway.
    r = a.cmd("challenge dave nim 2 3")
    own = body(r).split()[1]
    a.cmd("register dave2 password1")
    a.cmd("login dave2 password1")
    r = a.cmd("accept " + own)
    check("challenge dropped on a new login", not ok(r), r)
    a.cmd("login cara password1")
    r = a.cmd("challenge dave nim 2 3 seat=2")
    chid = body(r).split()[1]
    r = b.cmd("accept " + chid)
    check("accept", ok(r) and body(r).startswith("game"), r)
    ea = a.wait("events", lambda x: x.startswith("event start"))
    check("challenger seat", ea is not None and "you=2" in ea, ea)
    g = genmove_of(b)
    check("accepter moves first", g is not None, g)
    d.stop()


def test_review_regressions():
    """Defects an outside review found, kept fixed."""
    d = Daemon("nodb", db="off")
    c = Client(d)
    accepted(c, "ratings", "ratings with none")
    # The engine wins at its first move, without a log.
    accepted(c, "seek nim 1 opponent=engine seat=2",
             "engine seek without a log")
    o = gameover_of(c)
    check("engine wins at once", o is not None and
          o.split()[2:] == ["first", "no-legal-move"], o)
    c.answer(o)
    # A stray answer id drops nothing else.
    r = c.cmd("seek nim 2 2 opponent=engine seat=1 tc=5000")
    g = genmove_of(c)
    c.send("=999 1=0")
    c.send("=999 1=0")
    c.answer(g, "1=0")
    p = c.wait("commands", lambda x: " play " in x)
    check("stray answers ignored", p is not None, p)
    r = c.cmd("protocol_version")
    check("server alive", ok(r), r)
    d.stop()
    d = Daemon("review", "--admins", "root")
    root = login(d, "root")
    login(d, "x1")
    login(d, "x2")
    r = root.cmd("tournament create t0 roundrobin players=x1,x2 games=1 "
                 "random=1 nim 0 0")
    check("template without a fair start refused", not ok(r) and
          "no fair start" in r, r)
    refused(root, "seek nim " + " ".join(["99999"] * 1000),
            "oversized seek spec refused", "too large")
    d.stop()


def test_retry_policy():
    d = Daemon("retry", "--illegal-move", "retry")
    a = login(d, "ann")
    b = login(d, "ben")
    gid, seats, ea, eb = pair(d, a, b, spec="nim 2 2")
    g = genmove_of(seats[1])
    seats[1].answer(g, "1=7")
    e = seats[1].wait("events", lambda x: x.startswith("event illegal"))
    check("retry: event illegal", e is not None, e)
    g = genmove_of(seats[1])
    check("retry: genmove again", g is not None, g)
    seats[1].answer(g, "1=0")
    g = genmove_of(seats[2])
    check("retry: game goes on", g is not None, g)
    d.stop()


def test_floods():
    d = Daemon("flood", "--max-seeks", "5", "--max-conns-per-ip", "40",
               "--max-line", "4096", "--trusted-networks", "none")
    other = Client(d)
    # Many seeks from one connection: one open at a time.
    a = login(d, "flooder")
    for i in range(200):
        a.send("seek nim %d %d" % (i + 1, i + 2))
    got = 0
    while a.wait("replies", timeout=WAIT) is not None:
        got += 1
        if got == 200:
            break
    check("200 seeks answered", got == 200, got)
    # Many seekers: the server-wide cap.
    cs = [login(d, "s%d" % i) for i in range(7)]
    rs = [c.cmd("seek nim 9 %d" % (i + 30)) for i, c in enumerate(cs)]
    # The flooder's last seek is open: 4 more fit under --max-seeks 5.
    refused = [i for i, r in enumerate(rs) if r and
               "too many open seeks (limit 5)" in r]
    check("max-seeks enforced: seekers 4, 5 and 6 refused",
          refused == [4, 5, 6] and all(ok(r) for r in rs[:4]), rs)
    # Many connections from one address: 9 are open (other, the flooder,
    # the 7 seekers), so 31 more fit under --max-conns-per-ip 40.
    many = []
    refused = 0
    for i in range(60):
        c = Client(d)
        many.append(c)
        try:
            if ok(c.cmd("protocol_version")):
                continue
        except OSError:
            pass
        r = c.wait("replies", lambda x: "too many connections" in x)
        refused += r is not None and c.wait_closed()
    check("max-conns-per-ip enforced: 29 of 60 refused", refused == 29,
          refused)
    # An oversized command, once the server has seen those close.
    for c in many:
        c.close()
    big = served(d)
    big.send("seek nim " + "9" * 10000)
    r = big.wait("replies", timeout=WAIT)
    check("oversized command refused", r is not None and
          "line too long" in r, r)
    r = other.cmd("protocol_version")
    check("other clients still served", ok(r) and body(r) == "2", r)
    d.stop()


def test_tournament():
    """Two bots play a timed rated round-robin across a daemon restart."""
    d = Daemon("tour", "--admins", "boss")
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    rnd = [sys.executable,
           os.path.join(SRC, "contrib", "bots", "bot-random.py")]
    env_ok = os.access(perfect[0], os.X_OK)
    check("bot-perfect is executable", env_ok)
    os.environ["GRUNDY"] = GRUNDY
    boss = login(d, "boss")
    bots = [start_bot(d, "perfect", perfect),
            start_bot(d, "random", rnd + ["--think-ms", "40"])]
    check("bots logged in", bots_logged_in(("perfect", "random")))
    r = boss.cmd("tournament create rr1 roundrobin players=perfect,random "
                 "games=6 tc=20000+100 seed=7 random=1 nim 9 9 9")
    check("tournament create", ok(r) and "games 6" in r, r)
    # Wait for two games played (how many more by the kill is not known).
    def two_played():
        played = standings(boss, "rr1")[0][0]
        return played is not None and played >= 2
    check("tournament under way", wait_for(two_played, 60, 0.05),
          standings(boss, "rr1")[1])
    boss.close()
    boss, (played, total), r = kill_restart_finish(d, "boss", "rr1", 90)
    check("tournament resumed and finished", played == total == 6, r)
    check("standings status", r is not None and "status finished" in r, r)
    perfect_wins = re.search(r"perfect points (\d+)", r or "")
    check("perfect bot wins every game against random (N starts)",
          perfect_wins is not None and int(perfect_wins.group(1)) == 6, r)
    r = boss.cmd("ratings")
    m = re.findall(r"(\w+) rating (\d+) games (\d+)", r or "")
    check("ratings after the tournament", len(m) == 2 and
          m[0][0] == "perfect" and int(m[0][1]) > 1500, r)
    r = boss.cmd("player random")
    check("player stats", ok(r) and "optimal" in r and "first-throw" in r,
          r)
    r = boss.cmd("player perfect")
    check("perfect bot plays optimally", ok(r) and "optimal 100.0%" in r, r)
    con = sqlite3.connect(d.db)
    rows = con.execute("SELECT COUNT(*) FROM games WHERE tournament_id IS"
                       " NOT NULL AND status = 'finished' AND rated = 1"
                       ).fetchone()[0]
    con.close()
    check("tournament games logged rated", rows == 6, rows)
    # A gauntlet: the first player meets each other one, no one else.
    bots.append(start_bot(d, "second", perfect))
    check("third bot logged in", bots_logged_in(("second",)))
    r = boss.cmd("tournament create g1 gauntlet players=perfect,random,"
                 "second games=2 tc=20000 nim 3 4 5")
    check("gauntlet create", ok(r) and "games 4" in r, r)
    (played, total), r = tournament_done(boss, "g1", 60)
    check("gauntlet finished", played == total == 4, r)
    check("gauntlet pairs only the first", r is not None and
          re.search(r"perfect points \d+ games 4 ", r) and
          re.search(r"random points \d+ games 2 ", r) and
          re.search(r"second points \d+ games 2 ", r), r)
    r = accepted(boss, "tournament list", "tournament list",
                 "rr1 roundrobin finished", "g1 gauntlet finished")
    d.stop()
    d.start()
    boss = Client(d)
    boss.cmd("login boss password1")
    (played, total), r = standings(boss, "rr1")
    check("standings of a finished tournament after a restart",
          played == total == 6 and "status finished" in r, r)
    for p in bots:
        p.terminate()
    d.stop()

def main():
    return run([test_accounts, test_engine_game, test_referee,
                test_challenge, test_review_regressions, test_retry_policy,
                test_floods, test_tournament])


if __name__ == "__main__":
    sys.exit(main())
