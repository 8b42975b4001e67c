#!/usr/bin/env python3
"""tours.py: tournaments end to end with bots (issue 14 §2, PROTOCOL.md
§13.6): paired starts in a round-robin that ends in a tie, a Swiss
tournament with byes, a forfeit deadline, pause and resume across a
daemon restart, the engine as a participant, and an SPRT gauntlet that
stops.  Every wait polls with a deadline; no fixed sleeps."""
import math
import os
import re
import signal
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403

PERFECT = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
RANDOM = [sys.executable,
          os.path.join(SRC, "contrib", "bots", "bot-random.py")]
os.environ["GRUNDY"] = GRUNDY


def show(c, name):
    """tournament show NAME's reply as a dict of its first word per line
    (pending lines as a list)."""
    r = c.cmd("tournament show " + name) or ""
    out = {"_": r, "pending": []}
    for line in body(r).splitlines():
        k, _, v = line.partition(" ")
        if k == "pending":
            out["pending"].append(v)
        else:
            out[k] = v
    return out


def setup(name, bots, absent=(), prog=PERFECT):
    """A daemon with the admin boss logged in, accounts that never play
    (absent) and a bot for each of bots, logged in; returns (d, boss)."""
    d = Daemon(name, "--admins", "boss")
    boss = login(d, "boss")
    for n in absent:
        login(d, n).close()
    for n in bots:
        start_bot(d, n, prog)
    if bots:
        check("bots logged in", bots_logged_in(bots))
    return d, boss


def status_of(c, name):
    return show(c, name).get("status")


def wait_status(c, name, want, timeout):
    return wait_for(lambda: status_of(c, name) == want, timeout, 0.05)


def games_of(d, tid):
    """The tournament's games: (id, slot, p1, p2, game, status, result,
    reason), by id."""
    con = sqlite3.connect(d.db)
    rows = con.execute("SELECT id, slot, player1, player2, game, status,"
                       " result, reason FROM games WHERE tournament_id = ?"
                       " ORDER BY id", (tid,)).fetchall()
    con.close()
    return rows


def tid_of(r):
    m = re.search(r"tournament (\d+) ", r or "")
    return int(m.group(1)) if m else None


def test_paired_tie():
    """A round-robin of three perfect bots with random starts: each pairing
    plays one game pair (the same start, the seats swapped, the second
    after the first), and every pair splits, so all tie."""
    names = ("pa", "pb", "pc")
    d, boss = setup("tpaired", names)
    r = boss.cmd("tournament create rr roundrobin players=pa,pb,pc pairs=1 "
                 "tc=20000 seed=5 random=1 nim 9 9 9")
    check("create: 3 pairings x 2 games", ok(r) and "games 6" in r, r)
    check("finished", wait_status(boss, "rr", "finished", 60),
          show(boss, "rr")["_"])
    rows = [g for g in games_of(d, tid_of(r)) if g[5] == "finished"]
    check("six finished games", len(rows) == 6, rows)
    pairs = {}
    for g in rows:
        pairs.setdefault(frozenset(g[2:4]), []).append(g)
    ok_pairs = len(pairs) == 3
    for gs in pairs.values():
        ok_pairs = ok_pairs and len(gs) == 2 and gs[0][4] == gs[1][4] and \
            gs[0][2] == gs[1][3] and gs[0][3] == gs[1][2] and \
            gs[0][0] < gs[1][0] and gs[0][1] < gs[1][1]
    check("each pairing: same start, seats swapped, in id order",
          ok_pairs, rows)
    check("random starts differ between pairings",
          len(set(g[4] for g in rows)) == 3, rows)
    wins = {n: sum(1 for g in rows if (g[2] == n and g[6] == "first") or
                   (g[3] == n and g[6] == "second")) for n in names}
    check("every pair split: a three-way tie", set(wins.values()) == {2},
          wins)
    sh = show(boss, "rr")
    check("show: counts", sh.get("games") == "6 played 6 playing 0 "
          "pending 0 stopped 0 forfeits 0", sh["_"])
    check("show: options", sh.get("options") == "games-per-pair=2 "
          "tc=20000 seed=5 forfeit=0 tiebreaks=de,sb,win", sh["_"])
    anyone = login(d, "viewer")
    check("show and list for everyone", ok(anyone.cmd("tournament show rr"))
          and "rr roundrobin finished" in anyone.cmd("tournament list"))
    check("the seed shown once finished", show(anyone, "rr").get(
        "options") == "games-per-pair=2 tc=20000 seed=5 forfeit=0 "
        "tiebreaks=de,sb,win")
    refused(anyone, "tournament pause rr", "pause needs admin",
            "permission denied")
    d.stop()


def test_swiss_byes():
    """A Swiss tournament of five: two pairs and a bye each round, no
    rematch, three different byes."""
    names = ("s1", "s2", "s3", "s4", "s5")
    d, boss = setup("tswiss", names)
    refused(boss, "tournament create sw swiss players=s1,s2,s3,s4,s5 "
            "rounds=6 nim 3 4 5", "too many rounds", "at most 5 rounds")
    refused(boss, "tournament create sw swiss players=s1,s2 nim 3 4 5",
            "swiss needs rounds", "needs rounds=R")
    r = boss.cmd("tournament create sw swiss players=s1,s2,s3,s4,s5 "
                 "rounds=3 pairs=1 tc=20000 seed=9 random=1 nim 7 7 7")
    check("create: 3 rounds x 2 pairings x 2 games", ok(r) and
          "games 12" in r, r)
    check("finished", wait_status(boss, "sw", "finished", 60),
          show(boss, "sw")["_"])
    sh = show(boss, "sw")
    byes = (sh.get("byes") or "").split()
    check("a different bye each round", len(byes) == 3 and
          len(set(byes)) == 3 and set(byes) <= set(names), sh["_"])
    check("format line", sh.get("format") == "swiss rounds=3 paired=3",
          sh["_"])
    rows = [g for g in games_of(d, tid_of(r)) if g[5] == "finished"]
    check("twelve games", len(rows) == 12, rows)
    met = [frozenset(g[2:4]) for g in rows]
    check("no rematch: each pairing plays exactly one pair",
          all(met.count(m) == 2 for m in met) and len(set(met)) == 6, met)
    rounds = {}
    for g in rows:
        rounds.setdefault(g[1] // 4, set()).update(g[2:4])
    check("each round: its bye plays no game",
          all(byes[k] not in rounds.get(k, ()) for k in range(3)), rounds)
    # `tournament show` lists each round: its bye, then its games with
    # the log's results (slot order: the first seat first).
    lines = [ln.split() for ln in body(sh["_"]).splitlines()
             if ln.startswith("round ")]
    want = []
    for k in range(3):
        gs = sorted((g for g in rows if g[1] // 4 == k), key=lambda g: g[1])
        want.append(["round", str(k + 1), "bye=" + byes[k]] + [
            "%s:%s=%s" % (g[2], g[3], "1-0" if g[6] == "first" else "0-1")
            for g in gs])
    check("tournament show: each round's bye, pairings and results",
          lines == want, (lines, want))
    # A bye scores its round's two games, as the pairing counted it.
    st = boss.cmd("standings sw")
    lines = [ln.split() for ln in st.splitlines()[3:] if ln.strip()]
    check("standings: points = wins + 2 per bye, games without the byes",
          len(lines) == 5 and all(
              ln[3] == str(int(ln[7]) + 2 * byes.count(ln[1])) and
              int(ln[5]) == int(ln[7]) + int(ln[9]) for ln in lines) and
          sum(int(ln[3]) for ln in lines) == 18, st)
    fide_swiss(boss, rows, byes, st)
    same_standings(boss, "sw", "a Swiss with byes")
    d.stop()


def same_standings(boss, name, what):
    """`export standings tournament=NAME` (from the log: the byes of
    migration 015) equals `standings NAME format=csv` (the lobby's);
    returns the rows."""
    ex = boss.cmd("export standings tournament=" + name)
    cs = boss.cmd("standings %s format=csv" % name)
    check("export standings = standings: " + what, ok(ex) and ok(cs) and
          body(ex) == body(cs), (ex, cs))
    return [x.split(",") for x in body(cs).split("\n")]


def test_swiss_forfeit_export():
    """A Swiss of five, a bye each round and a player who never comes (a
    forfeit in each round it is paired), the daemon restarted while round
    2 is paired and again at the end: `export standings` from the log
    equals `standings` from the lobby, byes and forfeits alike."""
    d, boss = setup("tswfx", ("k1", "k2", "k3", "k4"), absent=("k5",))
    r = boss.cmd("tournament create sf swiss players=k1,k2,k3,k4,k5 "
                 "rounds=3 pairs=1 forfeit=1 tc=20000 seed=5 nim 3 4 5")
    check("create", ok(r) and "games 12" in r, r)
    check("round 2 paired", wait_for(lambda: "paired=2" in show(
        boss, "sf").get("format", ""), WAIT, 0.05), show(boss, "sf")["_"])
    d.stop()
    d.start()
    boss = Client(d)
    boss.cmd("login boss password1")
    check("finished after a restart mid-tournament", wait_status(
        boss, "sf", "finished", 60), show(boss, "sf")["_"])
    rows = same_standings(boss, "sf", "a Swiss with byes and forfeits")
    col = dict((x[1], x) for x in rows[1:])
    check("three byes (two games each) and k5's forfeits counted",
          len(rows) == 6 and sum(int(x[7]) for x in rows[1:]) == 6 and
          int(col["k5"][9]) >= 2 and col["k5"][2] in ("0", "2"), rows)
    d.stop()
    d.start()
    boss = Client(d)
    boss.cmd("login boss password1")
    check("the same after another restart", same_standings(
        boss, "sf", "after a restart") == rows, rows)
    d.stop()


def fide_swiss(boss, rows, byes, st):
    """The Swiss's tie-breaks as FIDE C.07 defines them (doc/STATS.md
    §4), recomputed here from the log's games and the byes: each game and
    each bye game a unit, a bye a game against a dummy opponent with the
    player's own points.  BH: opponents' points (own for a bye game);
    BH-C1: BH less its least contribution; SB: points scored times the
    opponent's (own for a bye game); win: games won and bye games.  Then
    `standings sw format=csv` has the same figures as the text."""
    pts, opp = {}, {}
    for g in rows:
        w = g[2] if g[6] == "first" else g[3]
        for p in g[2:4]:
            pts[p] = pts.get(p, 0) + (p == w)
            opp.setdefault(p, []).append((g[3] if p == g[2] else g[2],
                                          p == w))
    for b in byes:          # a bye: its round's two games, won
        pts[b] = pts.get(b, 0) + 2
        opp.setdefault(b, []).extend([(None, True)] * 2)
    want = {}
    for p, us in opp.items():
        c = [pts[o] if o else pts[p] for o, _ in us]
        want[p] = {"bh-c1": sum(c) - min(c), "bh": sum(c),
                   "sb": sum(pts[o] if o else pts[p] for o, w in us if w),
                   "win": sum(1 for _, w in us if w)}
    lines = body(st).split("\n")
    have = {}
    for ln in lines[3:]:
        w = ln.split()
        kv = dict(zip(w[2::2], w[3::2]))
        have[w[1]] = {k: float(kv[k]) for k in ("bh-c1", "bh", "sb",
                                                  "win")}
    check("standings: Buchholz, cut-1, SB and wins as FIDE counts byes",
          lines[2] == "tiebreaks bh-c1,bh,de,sb,win" and have == want,
          (have, want, st))
    cs = boss.cmd("standings sw format=csv")
    cr = [x.split(",") for x in body(cs).split("\n")] if ok(cs) else []
    check("standings as CSV: the text's figures, byes counted",
          len(cr) == 6 and cr[0] == [
              "rank", "name", "points", "games", "wins", "losses", "draws",
              "byes", "forfeit_wins", "forfeit_losses", "bh-c1", "bh", "de",
              "sb", "win"] and
          [x[1] for x in cr[1:]] == [ln.split()[1] for ln in lines[3:]] and
          all(float(x[10]) == have[x[1]]["bh-c1"] and
              float(x[13]) == have[x[1]]["sb"] and
              int(x[7]) == 2 * byes.count(x[1]) for x in cr[1:]), cs)
    refused(boss, "standings sw format=json", "standings format=json",
            "unknown argument format=json: expected format=csv")


def test_forfeit():
    """An absent player loses each game of its pair by forfeit once the
    deadline passes; the forfeits are logged as such."""
    d, boss = setup("tforfeit", ("here",), absent=("ghost",))
    refused(boss, "tournament create f roundrobin players=here,ghost "
            "forfeit=0 nim 3 4 5", "forfeit=0", "forfeit=SECONDS: 1..86400")
    refused(boss, "tournament create f arena players=here,ghost "
            "rounds=1001 nim 3 4 5", "rounds=1001", "rounds=R: 1..1000 rounds")
    r = boss.cmd("tournament create f roundrobin players=here,ghost "
                 "forfeit=1 tc=20000 nim 3 4 5")
    check("create", ok(r) and "games 2" in r, r)
    check("show: whom it waits for, and how long", wait_for(lambda: any(
        re.match(r"0 game 1 here ghost waiting here=ready ghost=absent "
                 r"forfeit-in=1$", p) for p in show(boss, "f")["pending"]),
        5, 0.02), show(boss, "f")["_"])
    check("finished by forfeits", wait_status(boss, "f", "finished", 10),
          show(boss, "f")["_"])
    rows = games_of(d, tid_of(r))
    check("two forfeits logged, ghost lost both", len(rows) == 2 and all(
        g[5] == "finished" and g[7] == "forfeit" and
        ((g[2] == "ghost") == (g[6] == "second")) for g in rows), rows)
    check("show counts the forfeits", show(boss, "f").get("games") ==
          "2 played 2 playing 0 pending 0 stopped 0 forfeits 2",
          show(boss, "f")["_"])
    # FIDE C.07 (doc/STATS.md): a forfeit is an unplayed round, no game.
    # here: 2 points, no game, 2 forfeits won; DE none (not level); SB
    # each forfeit 1 x its own 2 points = 4; wins 2.  ghost never took
    # part: 0 everywhere, last.
    st = boss.cmd("standings f")
    check("standings: forfeits as unplayed rounds", ok(st) and
          body(st).split("\n")[2:] == [
              "tiebreaks de,sb,win",
              "1 here points 2 games 0 wins 0 losses 0 forfeits 2/0 de - "
              "sb 4 win 2",
              "2 ghost points 0 games 0 wins 0 losses 0 forfeits 0/2 de - "
              "sb 0 win 0"], st)
    ex = boss.cmd("export standings tournament=f")
    check("export: the same standings from the log", ok(ex) and
          body(ex).split("\n") == [
              "rank,name,points,games,wins,losses,draws,byes,forfeit_wins,"
              "forfeit_losses,de,sb,win", "1,here,2,0,0,0,0,0,2,0,,4,2",
              "2,ghost,0,0,0,0,0,0,0,2,,0,0"], ex)
    d.stop()


def test_pause_restart():
    """A paused tournament stays paused across a restart: its players are
    ready and nothing starts; resumed, it finishes."""
    d, boss = setup("tpause", (), absent=("q1", "q2"))
    r = boss.cmd("tournament create pz roundrobin players=q1,q2 pairs=1 "
                 "tc=20000 nim 3 4 5")
    check("create", ok(r), r)
    accepted(boss, "tournament pause pz", "pause", "")
    refused(boss, "tournament pause pz", "pause twice", "is paused")
    d.stop(signal.SIGKILL)
    d.start()
    boss = Client(d)
    boss.cmd("login boss password1")
    check("still paused after a restart", status_of(boss, "pz") ==
          "paused", show(boss, "pz")["_"])
    check("the seed hidden from players while it runs", "seed=hidden" in
          show(login(d, "q1", register=False), "pz").get("options", ""),
          show(boss, "pz")["_"])
    bots = [start_bot(d, "q1", PERFECT), start_bot(d, "q2", PERFECT)]
    check("both ready, nothing started", wait_for(lambda: any(
        "q1=ready q2=ready" in p for p in show(boss, "pz")["pending"]), 15)
        and show(boss, "pz").get("games", "").startswith(
            "2 played 0 playing 0"), show(boss, "pz")["_"])
    accepted(boss, "tournament resume pz", "resume", "")
    check("finished after the resume", wait_status(boss, "pz", "finished",
                                                  30), show(boss, "pz")["_"])
    refused(boss, "tournament resume pz", "resume a finished one",
            "is finished")
    for b in bots:
        b.terminate()
    d.stop()


def test_engine_and_sprt():
    """The engine as a participant, and an SPRT gauntlet of a perfect bot
    against a random one that stops at H1 long before its cap."""
    d, boss = setup("tsprt", ("perf",))
    start_bot(d, "rnd", RANDOM)
    check("random bot logged in", bots_logged_in(("rnd",)))
    r = boss.cmd("tournament create eg gauntlet players=engine,perf "
                 "pairs=1 tc=20000 seed=3 random=1 nim 9 9 9")
    check("engine gauntlet", ok(r) and "games 2" in r, r)
    check("engine games finished", wait_status(boss, "eg", "finished", 30),
          show(boss, "eg")["_"])
    rows = games_of(d, tid_of(r))
    check("the engine played both seats", sorted(g[2] for g in rows) ==
          ["engine", "perf"], rows)
    refused(boss, "tournament create big gauntlet players=engine,perf nim "
            + "1 " * 2100, "a game over 4,096 bytes",
            "game too large for networked play: 4204 bytes (limit 4096)")
    refused(boss, "tournament create s2 swiss players=perf,rnd rounds=1 "
            "sprt=0,10 nim 3", "sprt swiss", "gauntlet or a two-player")
    refused(boss, "tournament create s2 gauntlet players=perf,rnd "
            "sprt=10,0 nim 3", "sprt elo0>=elo1", "elo0 must be less")
    refused(boss, "tournament create s2 gauntlet players=perf,rnd "
            "sprt=0,10,0.05 nim 3", "sprt three numbers", "two or four")
    r = boss.cmd("tournament create sp gauntlet players=perf,rnd "
                 "games=400 sprt=0,200,0.05,0.05 tc=20000 seed=1 random=1 "
                 "nim 9 9 9")
    check("sprt gauntlet", ok(r) and "games 400" in r, r)
    check("the SPRT stops it", wait_status(boss, "sp", "finished", 60),
          show(boss, "sp")["_"])
    sh = show(boss, "sp")
    st = sh.get("sprt-state", "")
    check("verdict H1", st.endswith("verdict=H1"), sh["_"])
    m = re.search(r"pairs=(\d+) penta=(\d+),(\d+),(\d+),(\d+),(\d+) "
                  r"llr=(-?[\d.]+)", st)
    check("llr above the upper bound", m is not None and
          float(m.group(7)) >= 2.944, st)
    counts = [int(m.group(k)) for k in range(2, 7)] if m else [0] * 5
    ref = llr_penta(counts, 0, 200) if m else None
    check("llr as computed here from the counts", m is not None and
          abs(float(m.group(7)) - ref) < 0.002 and
          sum(counts) == int(m.group(1)), "%s: here %r" % (st, ref))
    # One pairing: game k is slot k, pair k // 2 (same start, swapped).
    rows = [g for g in games_of(d, tid_of(r)) if g[6] is not None]
    pairs = {}
    for g in rows:
        pairs.setdefault(g[1] // 2, []).append(
            1 if (g[2] == "perf") == (g[6] == "first") else 0)
    check("each pair: one start, each seat once", all(
        len(set(g[4] for g in rows if g[1] // 2 == k)) == 1 and
        len(set(g[2] for g in rows if g[1] // 2 == k)) == len(v)
        for k, v in pairs.items()), rows)
    mine = [0] * 5
    for v in pairs.values():
        if len(v) == 2:
            mine[2 * sum(v)] += 1
    check("pentanomial counts from the log", mine == counts,
          "%r from the log, %r shown" % (mine, counts))
    check("bounds", sh.get("sprt") == "elo0=0 elo1=200 alpha=0.05 "
          "beta=0.05 lower=-2.944 upper=2.944", sh["_"])
    g = re.match(r"400 played (\d+) playing 0 pending 0 stopped (\d+)",
                 sh.get("games", ""))
    check("stopped long before its cap", g is not None and
          int(g.group(1)) < 100 and int(g.group(1)) + int(g.group(2)) ==
          400, sh["_"])
    # The verdict is stored: a restart shows the same.
    d.stop()
    d.start()
    boss = Client(d)
    boss.cmd("login boss password1")
    check("verdict kept across a restart", show(boss, "sp").get(
        "sprt-state") == st and status_of(boss, "sp") == "finished",
        show(boss, "sp")["_"])
    d.stop()


def test_arena():
    """An arena: each round pairs every ready player (the absent one
    never), starts when the one before ended, and three rounds end it."""
    names = ("r1", "r2", "r3", "r4")
    d, boss = setup("tarena", names, absent=("away",))
    refused(boss, "tournament create ar arena players=r1,r2 nim 3",
            "arena needs rounds", "needs rounds=R")
    refused(boss, "tournament create ar arena players=r1,r2 rounds=2 "
            "games=12 nim 3", "arena games cap", "at most 10 games")
    r = boss.cmd("tournament create ar arena players=r1,r2,r3,r4,away "
                 "rounds=3 pairs=1 tc=20000 seed=2 random=1 nim 7 7 7")
    check("create: rounds come as played", ok(r) and "games 0" in r, r)
    check("finished", wait_status(boss, "ar", "finished", 60),
          show(boss, "ar")["_"])
    sh = show(boss, "ar")
    check("three rounds of two pairings", sh.get("format") ==
          "arena rounds=3 paired=3" and sh.get("games") ==
          "12 played 12 playing 0 pending 0 stopped 0 forfeits 0", sh["_"])
    rows = [g for g in games_of(d, tid_of(r)) if g[5] == "finished"]
    check("twelve games, the absent player in none", len(rows) == 12 and
          all("away" not in g[2:4] for g in rows), rows)
    per_round = {}
    for g in rows:
        per_round.setdefault(g[1] // 64, []).extend(g[2:4])
    check("every ready player plays every round", sorted(per_round) ==
          [0, 1, 2] and all(sorted(set(v)) == list(names) and len(v) == 8
                            for v in per_round.values()), per_round)
    (played, total), st = standings(boss, "ar")
    check("standings count the arena's games", played == total == 12, st)
    d.stop()
    d.start()                           # rounds rebuilt from the log
    boss = Client(d)
    boss.cmd("login boss password1")
    check("the same after a restart", body(show(boss, "ar")["_"]) ==
          body(sh["_"]),
          show(boss, "ar")["_"] + "\n---\n" + sh["_"])
    d.stop()


def test_add_withdraw():
    """A round-robin gets a new player, whose pairings follow the others',
    and loses an absent one, whose games are never played; both survive a
    restart."""
    d, boss = setup("taddwd", ("w1", "w2"), absent=("w3",))
    r = boss.cmd("tournament create aw roundrobin players=w1,w2,w3 pairs=1 "
                 "tc=20000 nim 3 4 5")
    check("create", ok(r) and "games 6" in r, r)
    refused(boss, "tournament add aw w2", "add a player twice",
            "w2 is a player of aw already")
    refused(boss, "tournament add aw nobody", "add without an account",
            "no account nobody")
    refused(boss, "tournament withdraw aw nobody", "withdraw a stranger",
            "nobody does not play in aw")
    login(d, "w4").close()
    accepted(boss, "tournament add aw w4", "add w4")
    accepted(boss, "tournament withdraw aw w3", "withdraw w3")
    refused(boss, "tournament withdraw aw w3", "withdraw twice",
            "withdrawn already")
    start_bot(d, "w4", PERFECT)
    check("finished", wait_status(boss, "aw", "finished", 60),
          show(boss, "aw")["_"])
    sh = show(boss, "aw")
    check("w4's three pairings added, w3's four pairings' games stopped",
          sh.get("games") == "12 played 6 playing 0 pending 0 stopped 6 "
          "forfeits 0" and sh.get("players") == "w1 w2 w3 w4" and
          sh.get("withdrawn") == "w3", sh["_"])
    rows = [g for g in games_of(d, tid_of(r)) if g[5] == "finished"]
    check("w3 never played; w4 met w1 and w2 twice each", len(rows) == 6
          and all("w3" not in g[2:4] for g in rows) and
          sum(1 for g in rows if "w4" in g[2:4]) == 4, rows)
    d.stop()
    d.start()
    boss = Client(d)
    boss.cmd("login boss password1")
    check("the same after a restart", body(show(boss, "aw")["_"]) ==
          body(sh["_"]), show(boss, "aw")["_"])
    same_standings(boss, "aw", "a withdrawal in a round-robin")
    refused(boss, "tournament add aw w2", "add to a finished one",
            "no running tournament aw")
    d.stop()


def test_swiss_withdraw():
    """A Swiss player withdrawn during round 1: its pending games are not
    played and the later rounds pair the three others, a bye each."""
    names = ("x1", "x2", "x3")
    d, boss = setup("tswd", names, absent=("x4",))
    r = boss.cmd("tournament create sw swiss players=x1,x2,x3,x4 rounds=3 "
                 "pairs=1 tc=20000 nim 3 4 5")
    check("create", ok(r) and "games 12" in r, r)
    refused(boss, "tournament add sw x5", "add to a Swiss one",
            "a Swiss tournament")
    check("round 1: one pair waits for x4", wait_for(lambda: any(
        "x4=absent" in p for p in show(boss, "sw")["pending"]), 15),
        show(boss, "sw")["_"])
    accepted(boss, "tournament withdraw sw x4", "withdraw x4")
    check("finished", wait_status(boss, "sw", "finished", 60),
          show(boss, "sw")["_"])
    sh = show(boss, "sw")
    byes = (sh.get("byes") or "").split()
    check("rounds 2 and 3: one pairing and a bye", sh.get("games") ==
          "8 played 6 playing 0 pending 0 stopped 2 forfeits 0" and
          len(byes) == 3 and byes[0] == "-" and "x4" not in byes, sh["_"])
    rows = same_standings(boss, "sw", "a Swiss withdrawal (games stopped)")
    check("x4 listed, last, absent every round", rows[-1][:4] ==
          ["4", "x4", "0", "0"], rows)
    d.stop()
    d.start()                   # the rounds paired again from the log
    boss = Client(d)
    boss.cmd("login boss password1")
    check("the same after a restart", body(show(boss, "sw")["_"]) ==
          body(sh["_"]), show(boss, "sw")["_"])
    check("export = standings after a restart", same_standings(
        boss, "sw", "after a restart") == rows, rows)
    d.stop()


def llr_penta(counts, elo0, elo1):
    """The logistic GLLR of pentanomial counts (ll, ld, wl+dd, wd, ww),
    computed here independently of src/stats/sprt.c: Van den Bergh's
    Proposition 1.1 with fastchess's regularization (doc/STATS.md §3)."""
    a = [0.0, 0.25, 0.5, 0.75, 1.0]
    c = [x if x > 0 else 1e-3 for x in counts]
    n = sum(c)
    ph = [x / n for x in c]

    def theta(sc):
        lo = -1 / (max(a) - sc)
        hi = -1 / (min(a) - sc)
        f = lambda t: sum(p * (x - sc) / (1 + t * (x - sc))
                          for p, x in zip(ph, a))
        for _ in range(200):        # f decreases from +inf to -inf
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    s0, s1 = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    t0, t1 = theta(s0), theta(s1)
    return n * sum(p * math.log((1 + t0 * (x - s0)) / (1 + t1 * (x - s1)))
                   for p, x in zip(ph, a))


def forfeit_state(boss, name):
    """(forfeits, seconds left on each pending game's deadline) now."""
    sh = show(boss, name)
    m = re.search(r"forfeits (\d+)", sh.get("games", ""))
    left = [int(x) for p in sh["pending"]
            for x in re.findall(r"forfeit-in=(\d+)", p)]
    return (int(m.group(1)) if m else None), left, sh["_"]


def test_forfeit_earliest():
    """Two deadlines, the second set two seconds after the first: the
    first forfeit falls on its own deadline, not the later one's (the
    tournament's timer once kept only the last deadline it looked at)."""
    d, boss = setup("tearly", ("e0",), absent=("e1", "e2"))
    r = boss.cmd("tournament create fe gauntlet players=e0,e1 pairs=1 "
                 "forfeit=3 tc=20000 nim 3 4 5")
    check("create", ok(r), r)
    check("e1's deadline runs", wait_for(
        lambda: forfeit_state(boss, "fe")[1] == [1], 10, 0.05),
        forfeit_state(boss, "fe")[2])
    accepted(boss, "tournament add fe e2", "add e2: a later deadline")
    last = [None]

    def first_forfeit():
        last[0] = forfeit_state(boss, "fe")
        return last[0][0] is not None and last[0][0] >= 1
    check("a first forfeit", wait_for(first_forfeit, WAIT, 0.02), last[0])
    check("e1 forfeited on time: e2's game still waits",
          last[0][0] == 1 and len(last[0][1]) == 2 and max(last[0][1]) >= 1,
          last[0][2])
    check("finished", wait_status(boss, "fe", "finished", 20),
          show(boss, "fe")["_"])
    d.stop()


def test_withdraw_abort():
    """A game in play when its player is withdrawn, then aborted by the
    admin, is never played again (it once went back to pending)."""
    d, boss = setup("twdab", ("v1",))
    start_bot(d, "v2", RANDOM + ["--think-ms", "60000"])
    check("slow bot logged in", bots_logged_in(("v2",)))
    r = boss.cmd("tournament create wa roundrobin players=v1,v2 pairs=1 "
                 "tc=600000 nim 9 9 9")
    check("create", ok(r), r)
    live = [None]

    def playing():
        live[0] = re.findall(r"^(\d+) ", body(boss.cmd("games live")),
                             re.M)
        return len(live[0]) == 1
    check("its first game is live", wait_for(playing, WAIT), live[0])
    accepted(boss, "tournament withdraw wa v2", "withdraw v2 mid-game")
    check("the game goes on", show(boss, "wa").get("games") ==
          "2 played 0 playing 1 pending 0 stopped 1 forfeits 0",
          show(boss, "wa")["_"])
    accepted(boss, "abort %s enough" % live[0][0], "abort it")
    check("never played again: finished", wait_status(boss, "wa",
                                                     "finished", 10),
          show(boss, "wa")["_"])
    check("both games stopped", show(boss, "wa").get("games") ==
          "2 played 0 playing 0 pending 0 stopped 2 forfeits 0",
          show(boss, "wa")["_"])
    same_standings(boss, "wa", "a game aborted after a withdrawal")
    d.stop()


sys.exit(run([test_withdraw_abort, test_forfeit_earliest, test_paired_tie, test_arena, test_add_withdraw,
              test_swiss_withdraw, test_swiss_byes, test_forfeit,
              test_swiss_forfeit_export,
              test_pause_restart, test_engine_and_sprt]))
