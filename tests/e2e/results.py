#!/usr/bin/env python3
"""results.py: end-to-end tests of the results (PROTOCOL.md §13.10 and
§14.3) against a real grundyd: two games played move by move with one
seat each from the same start (one game pair), whose `pairstats` figures
(counts, pentanomial, the referee's optimal-move rate, first thrown win
and conversion) are worked out by hand below, and agree with `player`,
`stats` and GET /api/pairs; a round robin of three perfect bots in which
every player ties, so that all share rank 1, with its crosstable, and
its JSON the same data as the text; the commands' refusals.

Usage: results.py BUILDDIR SRCDIR.
"""
import csv
import io

from httpapi import *  # noqa: F401,F403 (e2e's helpers and the HTTP ones)


# s: the bound of a reply that reads a whole large log (test_limits).
HEAVY = 300.0

def play(first, second, moves):
    """Plays a challenged game: first's and second's moves alternate,
    from the list; returns both gameover lines (each client's is taken,
    so that the next game waits for its own)."""
    seats = (first, second)
    for i, m in enumerate(moves):
        c = seats[i % 2]
        g = genmove_of(c)
        check("genmove %d" % (i + 1), g is not None, g)
        c.answer(g, m)
    return gameover_of(first), gameover_of(second)


def challenge(a, b, spec):
    """a challenges b to spec, a moving first; b accepts."""
    b.cmd("ready")
    r = a.cmd("challenge %s %s seat=1" % (b.name, spec))
    check("challenge", ok(r) and body(r).startswith("challenge"), r)
    r = b.cmd("accept " + body(r).split()[1])
    check("accept", ok(r) and body(r).startswith("game"), r)


# Game 1, alice first from nim 2 3 (an N-position): alice throws the win
# at once (1=1 leaves 1 3), bob keeps it twice, alice has no win left.
# Game 2, bob first from nim 2 3: bob keeps the win with each of his 3
# moves, alice has none.  From alice's side: 0 of 2, one pair (LL).
PAIR_TEXT = """players alice bob
games 2 wins 0 losses 2 draws 0
score 0.0000
elo -inf lo -inf hi -inf los 0.0% zero-variance
pairs 1 ll 1 ld 0 wl 0 dd 0 wd 0 ww 0 unpaired 0
pair-elo -inf lo -inf hi -inf los 0.0% zero-variance
referee alice games 2 moves 4 optimal 0.0% kept-win 0 threw-win 1 \
throw-games 1 first-throw-mean 1.0 won-games 1 converted 0 conversion 0.0%
referee bob games 2 moves 5 optimal 100.0% kept-win 5 threw-win 0 \
throw-games 0 first-throw-mean - won-games 2 converted 2 \
conversion 100.0%"""


def selection_refused(c, cmd):
    """cmd followed by each bad selection argument is refused, with the
    reason: pairstats and export share one parser of them."""
    for arg, why in (("tournament=nope", "no tournament nope"),
                     ("nope", "tournament=NAME, since=TIME or until=TIME"),
                     ("since=2026-13-01", "bad time 2026-13-01"),
                     ("since=yesterday", "bad time yesterday")):
        refused(c, "%s %s" % (cmd, arg), "%s: %s refused" % (
            cmd.split()[0], arg), why)


def test_pair():
    """Two games by hand: pairstats, player, stats and /api/pairs."""
    d = hdaemon("pair")
    a = login(d, "alice")
    b = login(d, "bob")
    a.name, b.name = "alice", "bob"
    refused(a, "pairstats alice alice", "pairstats one player",
            "two different players")
    selection_refused(a, "pairstats alice bob")
    r = a.cmd("pairstats alice bob")
    check("no game yet", ok(r) and "games 0 wins 0" in r and
          "score -" in r and "pairs 0 " in r and "unpaired 0" in r, r)
    challenge(a, b, "nim 2 3")
    e = play(a, b, ["1=1", "2=1", "1=0", "2=0"])
    check("game 1: bob wins", None not in e and all(
        "gameover second" in x for x in e), e)
    challenge(b, a, "nim 2 3")
    e = play(b, a, ["2=2", "1=1", "2=1", "1=0", "2=0"])
    check("game 2: bob wins", None not in e and all(
        "gameover first" in x for x in e), e)
    r = a.cmd("pairstats alice bob")
    check("pairstats by hand", ok(r) and body(r) == PAIR_TEXT,
          (body(r), PAIR_TEXT))
    r = a.cmd("pairstats bob alice")
    check("pairstats from bob's side", ok(r) and
          "games 2 wins 2 losses 0" in r and "elo inf lo inf hi inf "
          "los 100.0%" in r and "pairs 1 ll 0 ld 0 wl 0 dd 0 wd 0 ww 1" in r
          and body(r).split("\n")[-2].startswith("referee bob "), r)
    r = a.cmd("pairstats alice bob tournament=-")
    check("outside tournaments: the same games", ok(r) and
          body(r) == PAIR_TEXT, r)
    r = a.cmd("pairstats alice bob since=2000-01-01 until=2999-01-01")
    check("a span with both games: the same", ok(r) and
          body(r) == PAIR_TEXT, r)
    r = a.cmd("pairstats alice bob until=2000-01-01")
    check("a span before both games: none", ok(r) and
          "games 0 wins 0" in r, r)
    st, j = jget(d, "/api/pairs?a=alice&b=bob&since=2000-01-01")
    check("/api/pairs since: both games", st == 200 and j["games"] == 2,
          j)
    st, j = jget(d, "/api/pairs?a=alice&b=bob&until=2000-01-01")
    check("/api/pairs until: none", st == 200 and j["games"] == 0, j)
    # One optimal-move rate: kept-win / (kept-win + threw-win).  The old
    # `player` figure counted no-win moves as optimal: 3 of 4, 75.0%.
    r = a.cmd("player alice")
    check("player: the same optimal-move rate", ok(r) and
          "\nmoves 4 optimal 0.0%\n" in r, r)
    r = a.cmd("player bob")
    check("player bob", ok(r) and "\nmoves 5 optimal 100.0%\n" in r, r)
    r = a.cmd("stats")
    check("stats: the same definition and the same form as player",
          ok(r) and
          "player alice moves 4 optimal 0.0% kept-win 0 threw-win 1" in r
          and "player bob moves 5 optimal 100.0% kept-win 5 threw-win 0"
          in r, r)
    st, j = jget(d, "/api/pairs?a=alice&b=bob")
    check("/api/pairs", st == 200 and j["games"] == 2 and
          j["wins"] == 0 and j["losses"] == 2 and j["score"] == 0 and
          j["elo"]["elo"] == "-inf" and j["elo"]["zero_variance"] and
          j["pentanomial"] == {"pairs": 1, "ll": 1, "ld": 0, "wl": 0,
                               "dd": 0, "wd": 0, "ww": 0, "unpaired": 0},
          j)
    ra, rb = j["referee"] if st == 200 else ({}, {})
    check("/api/pairs referee", ra.get("name") == "alice" and
          ra.get("optimal_rate") == 0 and ra.get("kept_win") == 0 and
          ra.get("threw_win") == 1 and ra.get("throw_games") == 1 and
          ra.get("first_throw_mean") == 1 and
          ra["first_throw"][0]["games"] == 1 and
          ra.get("won_games") == 1 and ra.get("converted") == 0 and
          rb.get("optimal_rate") == 1 and rb.get("conversion_rate") == 1
          and rb.get("first_throw_mean") is None, j)
    st, j = jget(d, "/api/players/alice")
    check("/api/players: the same optimal-move rate", st == 200 and
          j["optimal"] == 0 and j["threw_win"] == 1 and
          j["optimal_rate"] == 0, j)
    st, j = jget(d, "/api/pairs?a=alice")
    check("/api/pairs without b", st == 400, j)
    st, j = jget(d, "/api/pairs?a=alice&b=bob&tournament=nope")
    check("/api/pairs unknown tournament", st == 404 and
          "no tournament nope" in j.get("error", ""), j)
    d.stop()


def perfect_cup(d, names, spec):
    """Plays round robin "cup" (2 games a pairing) of three perfect bots
    with these names (new in each test: the bot logs are appended to);
    returns the admin's client and the final standings reply."""
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    os.environ["GRUNDY"] = GRUNDY
    boss = login(d, "boss")
    for n in names:
        start_bot(d, n, perfect)
    check("bots logged in", bots_logged_in(names))
    r = boss.cmd("tournament create cup roundrobin players=%s games=2 "
                 "tc=20000 %s" % (",".join(names), spec))
    check("tournament create", ok(r), r)
    (played, total), sr = tournament_done(boss, "cup", 30)
    check("tournament played", played == total == 6, sr)
    return boss, sr


def test_tournament_tie():
    """Three perfect bots from an N-position: every game is won by the
    first player, seats alternate, so all three tie and share rank 1,
    listed by name (not in the tournament's order), as the export lists
    them (one order, issue 26)."""
    d = hdaemon("tie", "--admins", "boss")
    boss, sr = perfect_cup(d, ("p3", "p1", "p2"), "nim 2 3")
    lines = body(sr).split("\n")
    check("standings: a three-way tie shares rank 1",
          lines[2] == "tiebreaks de,sb,win" and lines[3:] == [
              "1 %s points 2 games 4 wins 2 losses 2 de 2 sb 4 win 2" % n
              for n in ("p1", "p2", "p3")], sr)
    r = boss.cmd("crosstable cup")
    check("crosstable", ok(r) and body(r) == "status finished\n"
          "played 6 of 6\nplayers p3 p1 p2\np3 x 1/2 1/2\np1 1/2 x 1/2\n"
          "p2 1/2 1/2 x", r)
    ex = boss.cmd("export standings tournament=cup")
    check("export standings: the same order as standings", ok(ex) and
          [x.split(",")[:2] for x in body(ex).split("\n")[1:]] ==
          [["1", n] for n in ("p1", "p2", "p3")], ex)
    refused(boss, "crosstable nope", "crosstable of no tournament",
            "no tournament nope")
    st, j = jget(d, "/api/tournaments/cup")
    check("JSON standings are the text's", st == 200 and [
        "%d %s points %g games %d wins %d losses %d de %g sb %g win %d" % (
            s["rank"], s["name"], s["points"], s["games"], s["wins"],
            s["losses"], s["tiebreaks"]["de"], s["tiebreaks"]["sb"],
            s["tiebreaks"]["win"]) for s in j["standings"]] ==
        lines[3:], (j, sr))
    check("JSON crosstable is the text's", st == 200 and all(
        (j["crosstable"][i][k] is None) == (i == k) and
        (i == k or (j["crosstable"][i][k]["points"] == 1 and
                    j["crosstable"][i][k]["games"] == 2))
        for i in range(3) for k in range(3)), j)
    r = boss.cmd("pairstats p1 p2 tournament=cup")
    moves = db_count(d, "SELECT COUNT(*) FROM moves AS m JOIN games AS g"
                     " ON g.id = m.game_id WHERE g.player%d = 'p1' AND"
                     " m.player = %d AND (g.player1 = 'p2' OR"
                     " g.player2 = 'p2')" % (1, 1)) + \
        db_count(d, "SELECT COUNT(*) FROM moves AS m JOIN games AS g"
                 " ON g.id = m.game_id WHERE g.player2 = 'p1' AND"
                 " m.player = 2 AND g.player1 = 'p2'")
    check("pairstats in the tournament", ok(r) and
          "games 2 wins 1 losses 1 draws 0\nscore 0.5000\n" in r and
          "pairs 1 ll 0 ld 0 wl 1 dd 0 wd 0 ww 0 unpaired 0" in r and
          ("referee p1 games 2 moves %d optimal 100.0%% kept-win" % moves)
          in r and "won-games 1 converted 1 conversion 100.0%" in r, r)
    st, j = jget(d, "/api/pairs?a=p1&b=p2&tournament=cup")
    check("/api/pairs in the tournament", st == 200 and j["games"] == 2
          and j["pentanomial"]["wl"] == 1 and j["score"] == 0.5 and
          j["referee"][0]["moves"] == moves, j)
    d.stop()


def csv_rows(text):
    """The rows of a CSV text."""
    return list(csv.reader(io.StringIO(text)))


def test_export():
    """export and GET /api/export: the same data as the other commands,
    every game and move of the set, and the limits.  nim 9 10 11 12 13
    is an N-position (the first player wins, as in nim 2 3) with at
    least 5 moves a game: 30 moves of CSV pass max-reply = 1024."""
    d = hdaemon("export", "--admins", "boss", "--max-reply", "1024")
    boss, sr = perfect_cup(d, ("q1", "q2", "q3"), "nim 9 10 11 12 13")
    ids = [x[0] for x in sqlite3.connect(d.db).execute(
        "SELECT id FROM games WHERE tournament_id IS NOT NULL ORDER BY id")]
    nmoves = db_count(d, "SELECT COUNT(*) FROM moves AS m JOIN games AS g"
                      " ON g.id = m.game_id WHERE g.tournament_id"
                      " IS NOT NULL")
    r = boss.cmd("export standings tournament=cup")
    rows = csv_rows(body(r)) if ok(r) else []
    check("export standings", rows and rows[0] == [
        "rank", "name", "points", "games", "wins", "losses", "draws", "byes",
        "forfeit_wins", "forfeit_losses", "de", "sb", "win"] and
        rows[1:] == [[str(1), n, "2", "4", "2", "2", "0", "0", "0", "0", "2",
                      "4", "2"] for n in ("q1", "q2", "q3")], r)
    r = boss.cmd("export crosstable tournament=cup")
    check("export crosstable", ok(r) and len(csv_rows(body(r))) == 7 and
          all(x[2:] == ["1", "2"] for x in csv_rows(body(r))[1:]), r)
    r = boss.cmd("export pairs tournament=cup")
    rows = csv_rows(body(r)) if ok(r) else []
    check("export pairs", len(rows) == 4 and all(
        x[2:7] == ["2", "1", "1", "0", "0.5000"] and x[11:19] ==
        ["1", "0", "0", "1", "0", "0", "0", "0"] for x in rows[1:]), r)
    r = boss.cmd("export referee tournament=cup")
    rows = csv_rows(body(r)) if ok(r) else []
    check("export referee", len(rows) == 4 and all(
        x[5] == "1.0000" and x[8:] == ["2", "2", "1.0000"]
        for x in rows[1:]), r)
    r = boss.cmd("export games tournament=cup")
    rows = csv_rows(body(r)) if ok(r) else []
    check("export games: every game of the tournament", len(ids) == 6 and
          [int(x[0]) for x in rows[1:]] == ids and all(
        x[11] == "cup" and x[5] == "finished" and x[10] == "20000+0"
        for x in rows[1:]), r)
    r = boss.cmd("export moves tournament=cup")
    check("export moves: over max-reply, refused", not ok(r) and
          "the moves table is over 1024 bytes" in r, r)
    r = boss.cmd("export games since=2000-01-01 until=2000-01-02")
    check("export of an empty span", ok(r) and body(r) == "id,family,"
          "start,player1,player2,status,result,winner,reason,rated,tc,"
          "tournament,started,ended", r)
    r = boss.cmd("export standings since=2000-01-01")
    check("export since: the same standings", ok(r) and
          len(csv_rows(body(r))) == 4, r)
    refused(boss, "export standings until=2000-01-01", "no selection",
            "needs tournament=NAME or since=TIME")
    refused(boss, "export nope tournament=cup", "unknown table",
            "unknown table nope")
    selection_refused(boss, "export games")
    st, j = jget(d, "/api/export?tournament=cup")
    check("/api/export: every game, as /api/games/ID", st == 200 and
          [g["game"]["id"] for g in j["games"]] == ids and
          sum(len(g["moves"]) for g in j["games"]) == nmoves, j)
    st1, one = jget(d, "/api/games/%d" % ids[0])
    one.pop("live", None)
    check("/api/export: a game is /api/games/ID's", st == 200 and
          j["games"][0] == one, (j["games"][0], one))
    check("/api/export: results", st == 200 and
          j["players"] == ["q1", "q2", "q3"] and
          [x["rank"] for x in j["standings"]] == [1, 1, 1] and
          len(j["pairs"]) == 3 and
          all(p["pentanomial"]["wl"] == 1 for p in j["pairs"]) and
          [x["optimal_rate"] for x in j["referee"]] == [1, 1, 1], j)
    st, hd, b = get(d, "/api/export?tournament=cup&format=csv&table=moves")
    rows = csv_rows(b.decode()) if st == 200 else []
    check("/api/export CSV moves: over HTTP, no max-reply", st == 200 and
          hd.get("content-type", "").startswith("text/csv") and
          len(rows) == nmoves + 1 and rows[0][:3] == ["game", "ply",
                                                       "player"], (st, b))
    st, hd, b = get(d, "/api/export?tournament=cup&format=csv"
                    "&table=standings")
    check("/api/export CSV is the command's", st == 200 and
          b.decode() == body(boss.cmd("export standings tournament=cup"))
          + "\n", b)
    for q, code in (("", 400), ("?tournament=nope", 404),
                    ("?since=bad", 400), ("?tournament=cup&format=xml", 400),
                    ("?tournament=cup&format=csv", 400)):
        st, j = jget(d, "/api/export" + q)
        check("/api/export%s: %d" % (q, code), st == code, j)
    d.stop()


def test_limits():
    """Over 100,000 games or 1,024 players a read is refused with its
    reason, in the command and over HTTP; under them it answers."""
    d = Daemon("many", "--http", "127.0.0.1:0",
               db=gen_log("many", 100001, 2))
    d.hport = http_port(d)
    c = Client(d)
    # Each read counts 100,001 games first: seconds on a loaded machine,
    # so these replies get a bound of their own (HEAVY), not WAIT's.
    r = c.cmd("pairstats gen0 gen1", HEAVY)
    check("over 100,000 games", not ok(r) and r is not None and
          "more than 100000 games: choose a narrower set" in r, r)
    r = c.cmd("export standings since=2000-01-01", HEAVY)
    check("export over 100,000", not ok(r) and r is not None and
          "more than 100000 games" in r, r)
    st, j = jget(d, "/api/pairs?a=gen0&b=gen1", timeout=HEAVY)
    check("/api/pairs over 100,000 games: 400", st == 400 and
          "more than 100000 games" in j.get("error", ""), j)
    d.stop()
    d = Daemon("wide", db=gen_log("wide", 3000, 1100))
    c = Client(d)
    n = db_count(d, "SELECT COUNT(*) FROM (SELECT player1 FROM games UNION"
                 " SELECT player2 FROM games)")
    check("more than 1,024 players in the log", n > 1024, n)
    r = c.cmd("export standings since=2000-01-01", HEAVY)
    check("over 1,024 players", not ok(r) and r is not None and
          "more than 1024 players: choose a narrower set" in r, r)
    r = c.cmd("pairstats gen0 gen1", HEAVY)
    check("a pair among them still answers", ok(r) and
          body(r).startswith("players gen0 gen1\ngames "), r)
    d.stop()


sys.exit(run([test_pair, test_tournament_tie, test_export, test_limits]))
