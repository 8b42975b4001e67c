#!/usr/bin/env python3
"""lobbycmd.py: the exact replies of the lobby's commands (cmd-lobby.c):
every option of seek, challenge and tournament create, their errors, and
the formatting of games live, watch, standings, tournament list,
connections, kick, abort and adjudicate.  Written against the daemon
before the lobby's commands moved to the cmd layer (issue 10), so it pins
their text.  argv: BUILDDIR SRCDIR."""
from e2e import *

TCMAX = 24 * 3600 * 1000


def expect(c, line, want, name=None):
    """Sends line; the reply must be want exactly ("= body" or "? body");
    a want starting with ~ is a regular expression for the whole reply."""
    r = c.cmd(line)
    got = re.sub(r"^([=?])\d+ ?", r"\1 ", r or "").rstrip()
    if want.startswith("~"):
        good = re.fullmatch(want[1:], got, re.S) is not None
    else:
        good = got == want
    check(name or line, good, "got %r want %r" % (got, want))
    return got


def test_seek_options():
    d = Daemon("seekopts", "--admins", "root")
    anon = Client(d)
    expect(anon, "seek nim 3 tc=abc opponent=engine",
           "? invalid time control abc: tc=BASE or tc=BASE+INC in ms, "
           "BASE 1..%d" % TCMAX)
    expect(anon, "seek nim 3 tc= opponent=engine",
           "? invalid time control : tc=BASE or tc=BASE+INC in ms, "
           "BASE 1..%d" % TCMAX)
    expect(anon, "seek nim 3 tc=%d opponent=engine" % (TCMAX + 1),
           "? invalid time control %d: tc=BASE or tc=BASE+INC in ms, "
           "BASE 1..%d" % (TCMAX + 1, TCMAX))
    for bad in ("rated=2", "rated=", "random=x", "opponent=bot",
                "seat=3", "seat=12"):
        expect(anon, "seek nim 3 %s" % bad, "? invalid option " + bad)
    expect(anon, "seek tc=1000 rated=0", "? no game given")
    expect(anon, "seek nim 3 opponent=engine rated=1",
           "? games against the engine are unrated")
    expect(anon, "seek nim 0 opponent=engine",
           "? the game is already over: nobody can move")
    expect(anon, "seek nim 3",
           "? seeking a player needs an account (login); without one, "
           "seek opponent=engine")
    alice = login(d, "alice")
    expect(alice, "seek nim 3 seat=1",
           "? seat= is for challenges and the engine; a pairing picks "
           "seats at random")
    expect(alice, "seek nim 3 4 tc=1000+10 rated=0 random=0 "
           "opponent=any", "~= seek \\d+")
    expect(alice, "unseek", "=")
    expect(alice, "unseek", "? no open seek")
    # Later options win; the game's tokens may come around them.
    expect(alice, "seek tc=5 nim rated=1 3 tc=7000 opponent=engine "
           "opponent=any rated=0", "~= seek \\d+")
    expect(alice, "unseek", "=")
    # An engine game, then what the lobby shows of it.
    g = expect(anon, "seek nim 3 4 5 tc=60000+5 opponent=engine seat=2 "
               "random=0", "~= game \\d+")
    gid = g.split()[-1]
    expect(anon, "seek nim 3 opponent=engine",
           "? you are playing game %s" % gid)
    expect(alice, "games live",
           "~= %s engine anon:\\S+ ply=\\d tc=60000\\+5 rated=0 "
           "nim 3 4 5" % gid)
    expect(alice, "watch %s" % gid,
           "~= watching %s\nplayers engine anon:\\S+\nposition nim \\d+ "
           "\\d+ \\d+\nply 1\ntime1 60000\ntime2 \\d+" % gid)
    expect(alice, "unwatch %s" % gid, "=")
    expect(alice, "unwatch 99999", "=")
    expect(alice, "watch 99999", "? no live game 99999")
    expect(alice, "watch x", "? no live game x")
    expect(alice, "resign %s" % gid, "? not a player of game %s" % gid)
    expect(alice, "resign 99999", "? no live game 99999")
    expect(anon, "resign %s" % gid, "= result first resign")
    expect(alice, "games live", "=")
    anon = Client(d)      # the first is seated until gameover is answered
    expect(anon, "resume 99999",
           "? resume GAME_ID needs a login (anonymous players resume "
           "with their token)")
    expect(anon, "resume abcdef", "? no live game with that token")
    expect(alice, "resume 99999", "? no live game 99999")
    expect(alice, "ratings", "=")
    d.stop()


def test_challenge_options():
    d = Daemon("challopts", "--admins", "root")
    anon = Client(d)
    alice = login(d, "alice")
    bob = login(d, "bob")
    expect(anon, "challenge bob nim 3", "? challenges need an account "
           "(login)")
    expect(alice, "challenge b@d nim 3", "? invalid account name b@d")
    expect(alice, "challenge alice nim 3",
           "? you cannot challenge yourself")
    expect(alice, "challenge bob nim 3 opponent=engine",
           "? invalid option opponent=engine")
    expect(alice, "challenge bob nim 3 opponent=any",
           "? invalid option opponent=any")
    expect(alice, "challenge bob rated=1", "? no game given")
    expect(alice, "challenge bob nim 3 tc=1000 seat=2",
           "? bob is not connected, or neither ready nor seeking, or "
           "playing")
    expect(anon, "ready", "? ready needs an account (login)")
    expect(bob, "ready", "=")
    ch = expect(alice, "challenge bob nim 3 tc=1000 seat=2 rated=0",
                "~= challenge \\d+").split()[-1]
    e = bob.wait("events", lambda x: x.startswith("event challenge"))
    check("challenge event", e == "event challenge %s alice tc=1000 "
          "rated=0 seat=1 nim 3" % ch, e)
    expect(alice, "accept %s" % ch, "? challenge %s is not addressed to "
           "you" % ch)
    expect(bob, "decline %s" % ch, "=")
    e = alice.wait("events", lambda x: x.startswith("event declined"))
    check("declined event", e == "event declined %s bob" % ch, e)
    expect(bob, "accept %s" % ch, "? no open challenge %s" % ch)
    expect(bob, "accept zz", "? no open challenge zz")
    ch = expect(alice, "challenge bob nim 3 5 random=0 seat=1",
                "~= challenge \\d+").split()[-1]
    e = bob.wait("events", lambda x: x.startswith("event challenge"))
    check("challenge event 2", e is not None and e.endswith(
        "alice tc=60000 rated=1 seat=2 nim 3 5"), e)
    g = expect(bob, "accept %s" % ch, "~= game \\d+").split()[-1]
    expect(bob, "resume %s" % g, "? you are playing game %s" % g)
    expect(bob, "unready", "=")
    d.stop()


def test_tournament_options():
    d = Daemon("touropts", "--admins", "root")
    root = login(d, "root")
    alice = login(d, "alice")
    login(d, "bob")
    tc = "tournament create t1 "
    expect(alice, "tournament list", "=")
    expect(alice, "tournament cancel t1",
           "? permission denied: tournament needs the admin role")
    expect(root, "tournament create t1",
           "? usage: tournament create NAME roundrobin|gauntlet|swiss|arena "
           "players=A,B,... [games=N|pairs=N] [rounds=R] [tc=TC] [seed=S] "
           "[random=1] [forfeit=SECONDS] [sprt=ELO0,ELO1[,ALPHA,BETA]] "
           "[tiebreaks=TB,...] GAME")
    expect(root, tc + "knockout players=a,b nim 3",
           "? unknown format knockout: roundrobin, gauntlet, swiss or "
           "arena")
    for bad in ("games=0", "games=101", "games=", "games=x", "games=-1"):
        expect(root, tc + "roundrobin players=alice,bob %s nim 3" % bad,
               "? games=N: 1..100 games per pairing")
    for bad in ("seed=x", "seed=", "seed=-3"):
        expect(root, tc + "roundrobin players=alice,bob %s nim 3" % bad,
               "? seed=S: a number")
    expect(root, tc + "roundrobin players=alice,bob tc=0 nim 3",
           "? invalid time control 0")
    expect(root, tc + "roundrobin players=alice nim 3",
           "? players=A,B,...: at least two players")
    expect(root, tc + "roundrobin players=alice,bob",
           "? invalid game: none given")
    # A second players= and random= other than 1 are the game's tokens.
    expect(root, tc + "roundrobin players=alice,bob players=x,y nim 3",
           "~\\? invalid game: .*players.*")
    expect(root, tc + "roundrobin players=alice,bob random=0 nim 3",
           "~\\? invalid game: .*random.*")
    expect(root, tc + "gauntlet players=%s nim 3" %
           ",".join("p%d" % i for i in range(65)),
           "? too many players (limit 64)")
    expect(root, tc + "roundrobin players=alice,bob nim 0",
           "? the game is already over: nobody can move")
    expect(root, tc + "roundrobin players=alice,bob games=2 tc=60000+1 "
           "seed=7 nim 3 4", "~= tournament \\d+ t1 games 2")
    expect(root, "tournament list",
           "~= \\d+ t1 roundrobin running games-per-pair=2 tc=60000\\+1 "
           "nim 3 4")
    # No game yet: both level on everything, both rank 1 (§13.10).
    expect(root, "standings t1", "= status running\nplayed 0 of 2\n"
           "tiebreaks de,sb,win\n"
           "1 alice points 0 games 0 wins 0 losses 0 de - sb 0 win 0\n"
           "1 bob points 0 games 0 wins 0 losses 0 de - sb 0 win 0")
    expect(root, "standings t2", "? no tournament t2")
    expect(root, "tournament cancel t1", "=")
    expect(root, "tournament cancel t1", "? no running tournament t1")
    expect(root, "tournament list x",
           "? usage: tournament create ...|list|show NAME|cancel NAME|"
           "pause NAME|resume NAME|add NAME PLAYER|"
           "withdraw NAME PLAYER")
    expect(root, "standings t1", "~= status cancelled\nplayed 0 of 2\n.*")
    d.stop()


def test_admin_lobby():
    d = Daemon("adminlobby", "--admins", "root")
    root = login(d, "root")
    anon = Client(d)
    for line in ("connections", "kick 1 x", "abort 1 x",
                 "adjudicate 1 1 x"):
        word = line.split()[0]
        expect(anon, line, "? permission denied: %s needs the admin role"
               % word)
    expect(root, "connections",
           "~= \\d+ 127\\.0\\.0\\.1:\\d+ root\n\\d+ 127\\.0\\.0\\.1:\\d+ -")
    expect(root, "kick 1", "? kick needs a reason")
    expect(root, "kick 99999 go", "? no connection 99999")
    expect(root, "kick x go", "? no connection x")
    expect(root, "abort 99999 why", "? no live game 99999")
    expect(root, "adjudicate 99999 3 why",
           "? adjudicate: the winner is seat 1 or 2")
    expect(root, "abort 1 " + "x" * 201,
           "? reason too long: at most 200 bytes")
    g = expect(anon, "seek nim 3 4 5 opponent=engine seat=1",
               "~= game \\d+").split()[-1]
    expect(root, "connections",
           "~= \\d+ 127\\.0\\.0\\.1:\\d+ root\n\\d+ 127\\.0\\.0\\.1:\\d+ - "
           "game=%s seat=1" % g)
    expect(root, "adjudicate %s 2 bad play" % g, "= result second "
           "adjudicated")
    anon = Client(d)      # the first is seated until gameover is answered
    g = expect(anon, "seek nim 3 4 5 opponent=engine seat=1",
               "~= game \\d+").split()[-1]
    expect(root, "abort %s test over" % g, "= result - aborted")
    cid = re.search(r"(\d+) \S+ -", expect(root, "connections", "~=.*"))
    k = expect(root, "kick %s enough" % cid.group(1), "~= kicked \\d+")
    check("kicked its id", k == "= kicked " + cid.group(1), k)
    d.stop()


def raw(c, line, rid):
    """Sends line as it is; returns the reply with id rid."""
    c.send(line)
    return c.wait("replies", lambda x: re.match(r"[=?]%d\b" % rid, x))


def test_long_lines():
    """A lobby command runs on the loop, so its line is bounded (PROTOCOL
    §9): over 8,192 bytes it is refused, with its id, and not run; up to
    that it runs as usual.  Other long lines go to a worker."""
    d = Daemon("longlines")
    anon = Client(d)
    line = "17 seek nim 3 opponent=engine"
    r1 = raw(anon, line + " " * (8192 - len(line)), 17)
    check("8,192 bytes: run", re.fullmatch(r"=17 game \d+", r1 or ""), r1)
    anon = Client(d)
    r = raw(anon, line + " " * (8193 - len(line)), 17)
    check("8,193 bytes: refused with its id",
          r == "?17 line too long: seek takes at most 8192 bytes", r)
    r = raw(anon, "\t18\001 watch" + " " * 20000 + "1", 18)
    check("a long watch: refused with its id",
          r == "?18 line too long: watch takes at most 8192 bytes", r)
    first = re.fullmatch(r"=17 game (\d+)", r1 or "")
    r = anon.cmd("games live") or ""
    ids = [ln.split()[0] for ln in body(r).splitlines()]
    check("nothing was run: no game but the first",
          first is not None and ids in ([], [first.group(1)]), r)
    r = raw(anon, "19 new nim " + "7" * 90000, 19)
    check("a long new runs on a worker", (r or "").startswith("=19 "),
          (r or "")[:80])
    d.stop()


sys.exit(run([test_seek_options, test_challenge_options,
              test_tournament_options, test_admin_lobby, test_long_lines]))
