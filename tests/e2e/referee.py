#!/usr/bin/env python3
"""referee.py: end-to-end tests of issue 9 through the real grundyd and
`grundy bot`: answers reach the command they answer (a skipped answer
costs one game only; control characters and tabs; a multi-line answer; a
debug banner; duplicate and stale ids; answers without ids), grundyd's
own answer framing with raw clients, reconnecting after the daemon was
down (--reconnect-for), a locked login retried, a bot restarted while its
account holds a live game (resume by account, once the daemon sends
`event live`), and --games counting only finished games across a daemon
restart in a tournament (issue 11 §2).

Usage: referee.py BUILDDIR SRCDIR (the shared client module is e2e.py).
"""
import os
import re
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

PROG = [sys.executable, os.path.join(SRC, "tests", "e2e", "referee-prog.py"),
        GRUNDY]


def games_of(d, name):
    """(result, reason, seat of name) of name's finished games, in order."""
    con = sqlite3.connect(d.db)
    rows = con.execute("SELECT result, reason, player1, player2 FROM games"
                       " WHERE (player1 = ? OR player2 = ?) AND status ="
                       " 'finished' ORDER BY id", (name, name)).fetchall()
    con.close()
    return [(r[0], r[1], 1 if r[2] == name else 2) for r in rows]


def play_engine(d, name, modes, games, tc="tc=2000"):
    """Runs `grundy bot` with the scripted program against grundyd's
    engine for a number of games; returns the bot's exit status."""
    p = start_bot(d, name, PROG + [modes],
                  ["--games", str(games), "--no-ready", "--seek",
                   "nim 3 4 5 %s opponent=engine" % tc])
    try:
        return p.wait(40)
    except Exception:
        p.kill()
        p.wait()
        return None


def lost(g):
    """Did the bot lose game g = (result, reason, seat)?"""
    return g[0] != ("first" if g[2] == 1 else "second")


def only_first_lost(name, modes, reason, games, *flags):
    """Plays the scripted program for a number of games on a new daemon:
    it must lose the first one for reason and end the others normally.
    Returns the daemon, still running."""
    d = Daemon(name, *flags)
    rc = play_engine(d, name, modes, games)
    check("%s: the bot exits 0" % name, rc == 0, rc)
    g = games_of(d, name)
    check("%s: the first game lost (%s), the others normal" % (name, reason),
          len(g) == games and lost(g[0]) and g[0][1] == reason and
          all(x[1] == "no-legal-move" for x in g[1:]), g)
    return d


def test_skip_one_answer():
    """A program that misses one genmove answer loses that game on time,
    and only that game (before: it lost the next games on time too)."""
    d = only_first_lost("skipper", "skip1", "timeout", 3, "--clock-grace",
                        "100")
    log = bot_log("skipper")
    check("skip: the unanswered command is logged", "never answered "
          "command" in log and "(genmove): given up" in log, log[-2000:])
    check("skip: the end-of-game line says lost, against whom, why",
          re.search(r"game \d+ over: \S+ lost against engine "
                    r"\((first|second) won, seat [12]\): timeout", log)
          is not None, log[-2000:])
    d.stop()


def test_misbehaving_answers():
    """Control characters and tabs, a debug banner before every answer,
    duplicate and stale ids, answers without ids: every game is played
    to its normal end (before: refused as illegal, or answers shifted)."""
    d = Daemon("answers")
    for name, modes in (("ctrl", "ctrl"), ("banner", "banner"),
                        ("dupstale", "dup,stale"), ("noid", "noid,banner"),
                        ("refuser", "refuse")):
        rc = play_engine(d, name, modes, 2)
        check("%s: the bot exits 0" % name, rc == 0, rc)
        g = games_of(d, name)
        check("%s: two games end normally" % name, len(g) == 2 and
              all(x[1] == "no-legal-move" for x in g), g)
    log = bot_log("banner")
    check("banner: logged, not taken as an answer",
          "=== debug banner ===" in log and "dropped an answer" not in log,
          log[-2000:])
    log = bot_log("refuser")
    check("refuse: a '?' to play is a warning with its text",
          re.search(r"bot: warning: \S+ refused play \(command \d+\): "
                    r"not today", log) is not None, log[-2000:])
    log = bot_log("dupstale")
    check("dup/stale: dropped and logged", "(stale or duplicate id)" in log,
          log[-2000:])
    d.stop()


def test_multiline_answer():
    """A genmove answer of two lines is an illegal move for that turn
    only; its second line (`whoami`) is never run by grundyd."""
    d = only_first_lost("multi", "multi1", "illegal-move", 2)
    log = bot_log("multi")
    check("multi: whoami never ran", "account multi" not in
          log.split("logged in:", 1)[-1].split("\n", 1)[-1], log[-2000:])
    check("multi: warned", "with several lines" in log, log[-2000:])
    d.stop()


def test_huge_answer():
    """A genmove answer too long for `grundy bot` is never relayed cut
    (its first bytes would read as a legal move): that game is lost, the
    next is not, and the bot goes on (before: it exited)."""
    d = only_first_lost("huge", "huge1", "resign", 2)
    d.stop()


def test_raw_answers():
    """grundyd's side with raw clients: preprocessing, answer blocks,
    stray answers, answer lines that are requests."""
    d = Daemon("raw", "--clock-grace", "100")
    a = login(d, "rawa")
    b = login(d, "rawb")
    gid, seats, ea, eb = pair(d, a, b)
    g = genmove_of(seats[1])
    cid = g.split()[0]
    # "=ID \x011=0\x7f": a legal move once control characters go.
    seats[1].s.sendall(("=%s \x011=2\x7f\t\n\n" % cid).encode())
    g2 = genmove_of(seats[2])
    check("raw: a move with control characters is accepted",
          g2 is not None, g2)
    # A two-line answer: illegal for this turn; whoami never runs.
    seats[2].s.sendall(("=%s 2=1\nwhoami\n\n" % g2.split()[0]).encode())
    for s in (seats[1], seats[2]):
        o = gameover_of(s)
        check("raw: a multi-line genmove answer is an illegal move",
              o is not None and o.split()[3] == "illegal-move", o)
    seats[2].cmd("name")
    check("raw: nothing in the answer block ran",
          not any("account" in r for r in seats[2].replies),
          seats[2].replies)
    # An answer nobody waits for is answered, not dropped.
    a.send("=999 1=0\n")
    r = a.wait("replies", lambda x: "unexpected answer" in x)
    check("raw: a stray answer gets an error", r ==
          "? unexpected answer: no server command is waiting for it", r)
    a.send("=== banner")
    r = a.wait("replies", lambda x: x.startswith("?"))
    check("raw: a banner is a request", r == "? unknown command", r)
    d.stop()


def test_reconnect():
    """The daemon is down for 3 s: a bot with --reconnect-for 30 comes
    back (exponential backoff with jitter, unit-tested in test-bot.c for
    the schedule); one with --reconnect-for 1 gives up and says so.  A
    daemon down for minutes differs only in the number of attempts."""
    d = Daemon("reconn")
    keep = start_bot(d, "keeper", [GRUNDY, "engine"],
                     ["--reconnect-for", "30", "--reconnect-ms", "100"])
    quit_ = start_bot(d, "quitter", [GRUNDY, "engine"],
                      ["--reconnect-for", "1", "--reconnect-ms", "100"])
    bots_logged_in(("keeper", "quitter"))
    d.stop()
    t0 = time.time()
    try:    # WAIT (30 s) is far below the default --reconnect-for 600
        rc = quit_.wait(WAIT)
    except subprocess.TimeoutExpired:
        rc = None
    check("reconnect: --reconnect-for 1 gives up", rc == 1,
          "exit %r after %.1f s" % (rc, time.time() - t0))
    check("reconnect: and says why", "could not reconnect" in
          bot_log("quitter") and "within 1 s" in bot_log("quitter"),
          bot_log("quitter")[-1000:])
    time.sleep(3)       # the outage itself, not a wait for a result
    d.start()
    wait_for(lambda: bot_log("keeper").count("logged in") >= 2, WAIT)
    check("reconnect: --reconnect-for 30 comes back and logs in",
          bot_log("keeper").count("logged in") == 2 and
          keep.poll() is None, bot_log("keeper")[-1500:])
    keep.kill()
    keep.wait()
    d.stop()


def test_first_connect():
    """A bot started while the daemon is not up yet (a boot order, a
    restart) keeps trying within --reconnect-for and then registers and
    logs in (before: it exited at once)."""
    d = Daemon("first")
    d.stop()
    p = start_bot(d, "early", [GRUNDY, "engine"],
                  ["--reconnect-ms", "100"])
    wait_for(lambda: "trying for up to" in bot_log("early"), WAIT)
    check("first: the bot waits for the daemon", p.poll() is None and
          "trying for up to 600 s" in bot_log("early"),
          bot_log("early")[-1000:])
    d.start()
    bots_logged_in(("early",))
    check("first: then registers and logs in", "logged in" in
          bot_log("early") and p.poll() is None, bot_log("early")[-1000:])
    p.kill()
    p.wait()
    d.stop()


def test_locked_login():
    """A stranger's failed logins lock the account: `grundy bot` waits
    for the lock to end and logs in (before: it exited)."""
    d = Daemon("locked", "--login-failures", "2", "--login-lockout", "2")
    c = login(d, "victim")
    c.close()
    for _ in range(2):
        s = Client(d)
        s.cmd("login victim wrongpassword")
        s.close()
    p = start_bot(d, "victim", [GRUNDY, "engine"], ["--no-ready"])
    wait_for(lambda: "logged in:" in bot_log("victim"), WAIT)
    log = bot_log("victim")
    check("locked: the bot waited", "logging in again in" in log, log)
    check("locked: then logged in", "logged in:" in log and
          p.poll() is None, log)
    p.kill()
    p.wait()
    d.stop()


def test_resume_by_account():
    """A bot whose process died mid-game is restarted and resumes its
    game by account (`event live` after login, `resume GAME_ID`), then
    plays it to its end."""
    d = Daemon("live")
    opp = login(d, "opp")
    opp.drain()
    r = opp.cmd("seek nim 9 9 9 tc=60000")
    p = start_bot(d, "phoenix", [GRUNDY, "engine"],
                  ["--no-ready", "--seek", "nim 9 9 9 tc=60000"])
    e = opp.wait("events", lambda x: x.startswith("event start"), WAIT)
    check("live: a game starts", e is not None, e)
    if e is None:
        return
    gid = e.split()[2]
    probe = login(d, "phoenix", register=False)
    live = probe.wait("events", lambda x: x.startswith("event live"), WAIT)
    probe.close()
    check("live: event live after login", live is not None and
          live.split()[2] == gid, live)
    p.kill()            # the bot dies; its program gets EOF and exits
    p.wait()
    p = start_bot(d, "phoenix", [GRUNDY, "engine"], ["--no-ready"])
    wait_for(lambda: "resumed: game %s" % gid in bot_log("phoenix"), WAIT)
    check("live: the restarted bot resumed its game by id",
          "resumed: game %s" % gid in bot_log("phoenix"),
          bot_log("phoenix")[-1500:])
    # The resumed game goes on to its end on the restarted bot.
    r = opp.cmd("resign %s" % gid)
    check("live: the opponent resigns the resumed game", ok(r), r)
    wait_for(lambda: "game %s over" % gid in bot_log("phoenix"), WAIT)
    check("live: the restarted bot saw the game end and won",
          re.search(r"game %s over: .* won against opp" % gid,
                    bot_log("phoenix")) is not None,
          bot_log("phoenix")[-1500:])
    p.kill()
    p.wait()
    d.stop()


def test_games_count_across_restart():
    """Issue 11 §2: bots with --games N in a tournament of N games each:
    a game cut off by a daemon restart is played again and not counted,
    so the tournament finishes and each bot then leaves (before: the
    bots counted the cut-off game and left one game early)."""
    d = Daemon("count", "--admins", "boss")
    os.environ["GRUNDY"] = GRUNDY
    slow = PROG + ["slow"]
    bots = [start_bot(d, n, slow, ["--games", "3"]) for n in ("cx", "cy")]
    boss = login(d, "boss")
    bots_logged_in(("cx", "cy"))
    r = boss.cmd("tournament create t3 roundrobin players=cx,cy games=3 "
                 "tc=60000 nim 4 4 4")
    check("count: tournament created", ok(r), r)
    # Cut the first game off as soon as it has started.
    wait_for(lambda: db_count(d, "SELECT COUNT(*) FROM games WHERE "
                              "tournament_id IS NOT NULL") > 0, WAIT)
    boss.close()
    boss, (played, total), r = kill_restart_finish(d, "boss", "t3", 90)
    check("count: the tournament finishes 3 of 3", played == total == 3, r)
    check("count: the game cut off was not counted", all(
        "lost while disconnected (not counted)" in bot_log(n)
        for n in ("cx", "cy")), bot_log("cx")[-1500:])
    for n, p in zip(("cx", "cy"), bots):
        try:
            rc = p.wait(20)
        except Exception:
            rc = None
        log = bot_log(n)
        check("count: %s left after 3 finished games" % n, rc == 0 and
              "3 games played: leaving" in log, log[-1500:])
    d.stop()


if __name__ == "__main__":
    sys.exit(run([test_skip_one_answer, test_misbehaving_answers,
                  test_multiline_answer, test_huge_answer, test_raw_answers,
                  test_reconnect, test_first_connect,
                  test_locked_login, test_resume_by_account,
                  test_games_count_across_restart]))
