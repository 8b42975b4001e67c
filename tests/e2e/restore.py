#!/usr/bin/env python3
"""restore.py: a live game restored from the log (issue 15 §2,
PROTOCOL.md §12 and §13.2).  A daemon with `takeover on` is killed (-9)
while two `grundy bot`s play a timed, rated game, at a ply known exactly:
each bot's program (a gate around `grundy engine`) answers two genmoves
and holds the third while a hold file exists, so the log has exactly 4
committed moves when `record` shows them.  The daemon restarts on the
same log; the bots resume by account and finish; the record has every
move once, plies 1..10, `grundy verify` accepts it, and the clocks the
restore gave are the replay of the charged times.  The same on
PostgreSQL (--db $SQLDB_PG_URL: it runs under pgcluster.sh, NEEDS_PG).  A
log edited to an illegal move is abandoned (restore-failed) with the
reason, and a clean stop still abandons live games (shutdown).  Every
wait is a poll with a deadline."""
import os
import re
import signal
import sqlite3
import subprocess

from e2e import *

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
SPEC = "nim " + " ".join(["1"] * 10)    # exactly 10 plies, seat 2 wins
BASE = 60000
OPTS = "tc=%d rated=1" % BASE
HELD_AFTER = 2                          # genmoves each program answers


def gate_bot(d, name, hold, play=("--seek", SPEC + " " + OPTS,
                                    "--no-ready")):
    """A bot (seeking SPEC) whose program holds its 3rd genmove while the
    file hold exists."""
    return start_bot(d, name, gate_prog(hold, HELD_AFTER),
                     play + ("--reconnect-ms", "100", "--games", "1"))


def held_at_four(c, gid):
    """Waits until game gid has its 4 moves committed (the 5th is held);
    returns its moves, or None."""
    got = [None]

    def four():
        got[0] = record(c, gid)
        return len(got[0][3]) >= 2 * HELD_AFTER
    wait_for(four, 30, 0.05)
    st, _, _, moves, text = got[0]
    if check("exactly %d moves committed, then held" % (2 * HELD_AFTER),
             st == "live" and [m[0] for m in moves] == [1, 2, 3, 4], text):
        return moves
    return None


def record(c, gid):
    """(status, result, reason, [(ply, player, move, time_us)], text)."""
    r = c.cmd("record %d" % gid)
    text = body(r) if ok(r) else ""
    moves = []
    st = res = reason = None
    for line in text.splitlines():
        w = line.split()
        if w and w[0] == "move":
            moves.append((int(w[1]), int(w[2]), " ".join(w[3:-4]),
                          int(w[-1])))
        elif w and w[0] == "status":
            st = w[1]
        elif w and w[0] == "result":
            res, reason = w[1], w[2]
    return st, res, reason, moves, text


def live_game(c, timeout=WAIT):
    """The id of the one live game (games), or None."""
    found = [None]

    def one():
        r = c.cmd("games live") or ""
        ids = re.findall(r"^(\d+) ", body(r), re.M) if ok(r) else []
        found[0] = int(ids[0]) if len(ids) == 1 else None
        return found[0] is not None
    wait_for(one, timeout, 0.05)
    return found[0]


def restored_line(d, gid, timeout=WAIT):
    """The daemon's log line event=restored of game gid, or None."""
    pat = re.compile(r"game=%d event=restored .*" % gid)
    line = [None]

    def seen():
        with open(os.path.join(TMP, d.name + ".log")) as f:
            m = pat.search(f.read())
        line[0] = m.group(0) if m else None
        return line[0] is not None
    wait_for(seen, timeout, 0.05)
    return line[0]


def takeover(name, db=None):
    """The kill -9 / restart / finish scenario on the log db."""
    hold = os.path.join(TMP, name + ".hold")
    open(hold, "w").close()
    d = Daemon(name, "--takeover", "on", db=db)
    c = login(d, "watcher")
    bots = [gate_bot(d, n, hold) for n in ("alice", "bob")]
    gid = live_game(c)
    if not check("the bots' game started", gid is not None):
        return
    before = held_at_four(c, gid) or []
    c.close()
    d.stop(signal.SIGKILL)
    d.start()
    os.unlink(hold)
    line = restored_line(d, gid)
    check("the game is restored", line is not None)
    # The clock rule: each seat has what its clock held after its last
    # committed move (the charged times replayed; increment 0).
    want = [BASE * 1000 - sum(m[3] for m in before if m[1] == s)
            for s in (1, 2)]
    check("restored clocks replay the charged times",
          line is not None and "ply=4 to_move=1 clock1=%d clock2=%d" %
          (want[0] // 1000, want[1] // 1000) in line, "%s\nwant %r" %
          (line, want))
    for i, b in enumerate(bots):
        try:
            rc = b.wait(60)
        except subprocess.TimeoutExpired:
            rc = None
        check("bot %d finished its game after the restore" % i, rc == 0,
              "status %r" % rc)
    c = login(d, "watcher", register=False)
    st, res, reason, after, text = record(c, gid)
    check("the game finished under its id", st == "finished" and
          res == "second", text)
    check("plies 1..10, each once", [m[0] for m in after] ==
          list(range(1, 11)), text)
    check("the committed moves kept", after[:4] == before, text)
    check("the mover after the restore did not lose time", all(
        m[3] < BASE * 1000 for m in after[4:]), text)
    r = c.cmd("record %d format=file" % gid)
    path = os.path.join(TMP, name + ".rec")
    with open(path, "w") as f:
        f.write(body(r) + "\n")
    p = subprocess.run([GRUNDY, "verify", path], capture_output=True,
                       text=True, timeout=60)
    check("grundy verify accepts the record", p.returncode == 0 and
          p.stdout == "ok 10 moves\n", p.stdout + p.stderr)
    r = c.cmd("ratings")
    for n in ("alice", "bob"):
        check("the restored game was rated for %s" % n, ok(r) and
              re.search(r"^%s rating \S+ games 1 " % n, body(r), re.M)
              is not None, r)
    c.close()


def test_takeover_sqlite():
    takeover("restore-lite")


def test_takeover_pg():
    url = os.environ.get("SQLDB_PG_URL")
    if not url:
        skip("takeover on PostgreSQL", "SQLDB_PG_URL is not set")
        return
    try:
        takeover("restore-pg", db=url)
    except FileNotFoundError:           # the daemon did not start
        with open(os.path.join(TMP, "restore-pg.log")) as f:
            log = f.read()
        # Until the branches sp (--db URL) and lp (the league on
        # PostgreSQL) are merged, the daemon stops with one of these.
        pending = re.search(r"event=(db-lock path=postgresql|league-open"
                            r" error=\"postgresql)", log)
        if pending is None:
            raise
        skip("takeover on PostgreSQL", "grundyd cannot run on PostgreSQL"
             " in this build yet: " + pending.group(0))


def test_c_on_pg():
    """tests/unit/test-lobby-restore (the clock rule on the virtual clock) on
    this cluster's PostgreSQL: the restore's reads and writes there."""
    url = os.environ.get("SQLDB_PG_URL")
    if not url:
        skip("test-lobby-restore on PostgreSQL", "SQLDB_PG_URL is not set")
        return
    prog = os.path.join(BUILD, "tests", "unit", "test-lobby-restore")
    p = subprocess.run([prog],
                       capture_output=True, text=True, timeout=120)
    check("test-lobby-restore passes on PostgreSQL", p.returncode == 0 and
          "store=postgresql" in p.stderr + p.stdout,
          (p.stdout + p.stderr)[-3000:])


def test_tournament_slot():
    """A tournament's game restored keeps its slot: the tournament ends
    with that one game, under its id, and plays no other for the slot."""
    hold = os.path.join(TMP, "tour.hold")
    open(hold, "w").close()
    d = Daemon("restore-tour", "--takeover", "on", "--admins", "boss")
    boss = login(d, "boss")
    bots = [gate_bot(d, n, hold, ()) for n in ("ta", "tb")]
    check("bots logged in", bots_logged_in(["ta", "tb"]))
    r = boss.cmd("tournament create tk roundrobin players=ta,tb games=1 "
                 "tc=%d %s" % (BASE, SPEC))
    check("tournament created", ok(r), r)
    gid = live_game(boss)
    if not check("its game started", gid is not None) or \
            held_at_four(boss, gid) is None:
        return
    boss.close()
    d.stop(signal.SIGKILL)
    d.start()
    os.unlink(hold)
    check("the game is restored", restored_line(d, gid) is not None)
    boss = Client(d)
    boss.cmd("login boss password1")
    check("the tournament finished", wait_for(
        lambda: "played 1 of 1" in (boss.cmd("standings tk") or ""), 60,
        0.1), boss.cmd("standings tk"))
    r = boss.cmd("history tournament=tk")
    rows = body(r).splitlines() if ok(r) else []
    check("one game for its slot, the restored one, finished",
          len(rows) == 1 and rows[0].split()[:3] == [str(gid), "nim",
                                                     "finished"], r)
    for b in bots:
        b.kill()
        b.wait()
    boss.close()


def test_replay_fails():
    """A log whose committed move is illegal: abandoned with the reason."""
    hold = os.path.join(TMP, "bad.hold")
    open(hold, "w").close()
    d = Daemon("restore-bad", "--takeover", "on")
    c = login(d, "watcher")
    bots = [gate_bot(d, n, hold) for n in ("carol", "dave")]
    gid = live_game(c)
    if not check("the bots' game started", gid is not None):
        return
    wait_for(lambda: len(record(c, gid)[3]) >= 4, 30, 0.05)
    first = record(c, gid)[3][0][2]
    c.close()
    d.stop(signal.SIGKILL)
    for b in bots:
        b.kill()
        b.wait()
    con = sqlite3.connect(d.db)
    runs = con.execute("SELECT first_ply, moves FROM move_runs WHERE"
                       " game_id = ? ORDER BY first_ply",
                       (gid,)).fetchall()
    fp, moves = runs[0]
    bad = moves.replace('"%s"' % first, '"1=5"', 1)
    n = con.execute("UPDATE move_runs SET moves = ? WHERE game_id = ? AND"
                    " first_ply = ?", (bad, gid, fp)).rowcount
    con.commit()
    con.close()
    check("the log edited to an illegal first move", n == 1 and fp == 1 and
          bad != moves, moves)
    d.start()
    c = Client(d)
    r = c.cmd("login watcher password1")
    got = [None]

    def ended():
        got[0] = c.cmd("record %d" % gid)
        return ok(got[0]) and "status abandoned" in body(got[0])
    wait_for(ended, WAIT, 0.05)
    text = body(got[0]) if got[0] else ""
    check("abandoned with reason restore-failed and why", re.search(
        r"^result - restore-failed ply 1: move \"1=5\" does not replay",
        text, re.M) is not None, text)
    r = c.cmd("games live")
    check("not live", ok(r) and not re.search(r"^%d " % gid, body(r), re.M),
          r)
    c.close()


def test_clean_stop_abandons():
    """takeover on: a clean stop still abandons the live games."""
    d = Daemon("restore-stop", "--takeover", "on")
    a = login(d, "erin")
    b = login(d, "frank")
    gid, _, _, _ = pair(d, a, b, "nim 3 4 5", "tc=60000 rated=0")
    a.close()
    b.close()
    d.stop()
    d.start()
    c = Client(d)
    c.cmd("login erin password1")
    r = c.cmd("record %d" % gid)
    check("abandoned at the clean stop (shutdown), not restored", ok(r) and
          "result - shutdown" in body(r) and "status abandoned" in body(r),
          r)
    c.close()


sys.exit(run([test_takeover_sqlite, test_takeover_pg, test_c_on_pg,
              test_tournament_slot, test_replay_fails,
              test_clean_stop_abandons]))
