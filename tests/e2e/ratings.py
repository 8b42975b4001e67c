#!/usr/bin/env python3
"""ratings.py: end-to-end tests of the ratings checkpoint (issue 12 §4)
and its Glicko-2 ratings (issue 14 §1) against a real grundyd: two bots
play rated games until grundyd is killed (-9) in the middle; the
checkpoint in the file then covers exactly the rated games it holds
(never ahead, never behind) and equals a Glicko-2 replay in Python of
them (within 1e-6: benchutil.glicko2_replay, written apart from the C);
after a restart `verify ratings` (grundyd's own full replay, compared
exactly) says ok while the bots play on; `ratings` and `player` show
rating, RD and the provisional mark as the replay gives them;
a checkpoint row edited in the file is reported (only the checkpoint
while the daemon runs, the live ratings too after a restart); the
command's refusals.

Usage: ratings.py BUILDDIR SRCDIR.
"""
import os
import re
import signal
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)
sys.path.insert(0, os.path.join(SRC, "contrib", "bench"))
from benchutil import glicko2_replay as replay  # noqa: E402
from benchutil import glicko2_near as near  # noqa: E402


def checkpoint(db):
    """(seq the checkpoint covers, the log's last rating_seq, rows)."""
    con = sqlite3.connect(db)
    seq = con.execute("SELECT seq FROM ratings_checkpoint").fetchone()[0]
    last = con.execute("SELECT COALESCE(MAX(rating_seq), 0) FROM games"
                       ).fetchone()[0]
    rows = {name: (r, rd, vol, g) for name, r, rd, vol, g in con.execute(
        "SELECT name, rating, rd, volatility, games FROM ratings")}
    con.close()
    return seq, last, rows


def play_nim1(seats):
    """Plays `nim 1`: seat 1 takes the last token and wins."""
    g = genmove_of(seats[1])
    check("genmove", g is not None, g)
    seats[1].answer(g, "1=0")
    return gameover_of(seats[1])


def test_crash():
    """kill -9 while two bots play rated games: the checkpoint is the
    replay of exactly the games in the file; verify says ok afterwards."""
    d = Daemon("crash", "--admins", "boss")
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    os.environ["GRUNDY"] = GRUNDY
    boss = login(d, "boss")
    for name in ("alpha", "beta"):
        start_bot(d, name, perfect, ["--seek", "nim 2 3 tc=20000 rated=1"])
    check("bots logged in", bots_logged_in(("alpha", "beta")))
    check("rated games under way", wait_for(lambda: db_count(
        d, "SELECT COUNT(*) FROM games WHERE rating_seq IS NOT NULL") >= 30,
        30, 0.02))
    d.stop(signal.SIGKILL)
    seq, last, rows = checkpoint(d.db)
    want = replay(d.db)
    check("checkpoint covers the log's last rated game", seq == last > 0,
          (seq, last))
    check("checkpoint equals the replay", near(rows, want), (rows, want))
    d.start()
    boss = login(d, "boss", register=False)
    check("bots back", wait_for(lambda: db_count(
        d, "SELECT COUNT(*) FROM games WHERE rating_seq > ?", (last,)) >= 10,
        30, 0.02))
    r = boss.cmd("verify ratings", timeout=30)
    check("verify ratings while the bots play", ok(r) and
          body(r) == "ok 2 players", r)
    r = boss.cmd("ratings")
    m = dict((x[0], int(x[1])) for x in
             re.findall(r"(\w+) rating (\d+) games (\d+) rd (\d+)", r or ""))
    check("ratings listed", set(m) == {"alpha", "beta"}, r)
    d.stop(signal.SIGKILL)
    seq, last, rows = checkpoint(d.db)
    check("second kill: checkpoint still the replay", seq == last and
          near(rows, replay(d.db)), (seq, last))


def show_ratings(d, boss):
    """`ratings` and `player` against the Python replay: rating and RD
    rounded, provisional exactly when RD > 110."""
    want = replay(d.db)
    lines = []
    for name, (r, rd, _, g) in sorted(want.items(), key=lambda x: -x[1][0]):
        lines.append("%s rating %d games %d rd %d%s" % (
            name, int(r + 0.5), g, int(rd + 0.5),
            " provisional" if rd > 110 else ""))
    r = boss.cmd("ratings")
    check("ratings: rating, games, RD, provisional", ok(r) and
          body(r) == "\n".join(lines), (r, lines))
    for name, (x, rd, _, g) in want.items():
        r = boss.cmd("player " + name)
        line = "rating %d rd %d%s" % (int(x + 0.5), int(rd + 0.5),
                                      " provisional" if rd > 110 else "")
        check("player %s: %s" % (name, line), ok(r) and
              line in body(r).split("\n"), r)
    r = boss.cmd("player boss")
    check("player without rated games: the start, provisional", ok(r) and
          "rating 1500 rd 350 provisional" in body(r).split("\n"), r)


def test_edited():
    """A checkpoint row edited in the file is reported as a mismatch."""
    d = Daemon("edited", "--admins", "boss")
    boss = login(d, "boss")
    a, b = login(d, "ann"), login(d, "bob")
    for _ in range(3):
        gid, seats, _, _ = pair(d, a, b, "nim 1", "tc=60000 rated=1")
        o = play_nim1(seats)
        check("game over", o is not None and " first " in o + " ", o)
    r = boss.cmd("verify ratings")
    check("verify ok", ok(r) and body(r) == "ok 2 players", r)
    p = Client(d)
    login_r = p.cmd("login ann password1")
    check("ann logged in", ok(login_r), login_r)
    r = p.cmd("verify ratings")
    check("verify needs the admin role", r is not None and
          r.startswith("?") and "needs the admin role" in r, r)
    r = boss.cmd("verify moves")
    check("verify of something else", r is not None and r.startswith("?")
          and "what can be verified is: ratings" in r, r)
    show_ratings(d, boss)
    # The checkpoint as verify just found it equal to grundyd's replay.
    want = checkpoint(d.db)[2]
    con = sqlite3.connect(d.db)
    con.execute("UPDATE ratings SET rating = rating + 1 WHERE name = 'ann'")
    con.commit()
    con.close()
    exp = "%.6f %.6f %.9f %d" % want["ann"]
    found = "%.6f %.6f %.9f %d" % ((want["ann"][0] + 1,) + want["ann"][1:])
    r = boss.cmd("verify ratings")
    check("edited row: the checkpoint disagrees", ok(r) and body(r) ==
          "mismatch checkpoint ann expected %s found %s\n"
          "mismatches 1 players 2" % (exp, found), r)
    d.stop()
    d.start()
    boss = login(d, "boss", register=False)
    r = boss.cmd("verify ratings")
    lines = sorted(body(r).split("\n")) if ok(r) else []
    check("after a restart the live ratings disagree too", lines == sorted([
        "mismatch checkpoint ann expected %s found %s" % (exp, found),
        "mismatch live ann expected %s found %s" % (exp, found),
        "mismatches 2 players 2"]), r)
    con = sqlite3.connect(d.db)
    con.execute("UPDATE ratings_checkpoint SET seq = seq - 1")
    con.commit()
    con.close()
    r = boss.cmd("verify ratings")
    lines = body(r).split("\n") if ok(r) else []
    check("a checkpoint behind the log", lines[:1] == [
        "mismatch checkpoint-seq expected 3 found 2"] and
        lines[-1:] == ["mismatches 3 players 2"], r)
    d.stop()


sys.exit(run([test_crash, test_edited]))
