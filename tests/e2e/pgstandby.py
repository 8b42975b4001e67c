#!/usr/bin/env python3
"""pgstandby.py: grundyd on a primary and its promoted standby (issue 15
§1: "connection strings with several hosts and target_session_attrs=
read-write work, so a promoted standby is found").  The test's throwaway
cluster (NEEDS_PG) gets a synchronous streaming standby (pgcluster.sh
standby: a commit the daemon saw is on the standby); grundyd's --db names
both, primary first, with target_session_attrs=read-write.  Four grundy
bots play rated games held at an exact ply; the primary is stopped
(immediate) mid-game and the standby promoted; the daemon reconnects by
itself to the new primary, the games go on and finish, and the bots play
their next ones.  Then: every result a bot saw is in the log as it saw
it, every game is finished and its record verifies (`grundy verify`),
`verify ratings` passes and `ratings` equals a Glicko-2 replay of `export
games`.  Every wait is a poll with a deadline; counts are exact.

Usage: pgstandby.py BUILDDIR SRCDIR, with SQLDB_PG_DIR and SQLDB_PG_CTL
set (tests/e2e/pgcluster.sh run).
"""
import csv
import io
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)
sys.path.insert(0, os.path.join(SRC, "contrib", "bench"))
from benchutil import glicko2_games  # noqa: E402

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
PGDIR = os.environ.get("SQLDB_PG_DIR", "")
STANDBY = os.path.join(PGDIR, "standby")
# Both clusters, the primary first; only a read-write one is taken.
URL = ("postgresql:///postgres?host=%s,%s&user=grundy&"
       "target_session_attrs=read-write" % (PGDIR, STANDBY))
SPEC = "nim " + " ".join(["1"] * 8)     # exactly 8 plies, seat 2 wins
HELD = 2                                # genmoves each bot answers at first
GAMES = 2                               # counted games each bot plays
BOTS = ("sba", "sbb", "sbc", "sbd")
DEADLINE = 40.0
SINCE = "since=2000-01-01"


def pgctl(*args):
    """tests/e2e/pgcluster.sh ARGS: its exit status (output in the log)."""
    log = open(os.path.join(TMP, "pgctl.log"), "a")
    return subprocess.run(os.environ["SQLDB_PG_CTL"].split() + list(args),
                          stdout=log, stderr=log).returncode


def export(c, table):
    """`export TABLE` of everything as a list of {column: value}."""
    r = c.cmd("export %s %s" % (table, SINCE), timeout=30)
    rows = list(csv.reader(io.StringIO(body(r) if ok(r) else "")))
    return [dict(zip(rows[0], x)) for x in rows[1:]] if rows else []


def plies(c, gid):
    """The number of moves in game gid's record."""
    r = c.cmd("record %d" % gid)
    return len(re.findall(r"^move ", body(r), re.M)) if ok(r) else -1


def seen(names):
    """{game id: result} of the games the bots saw end with a winner
    (their logs), and whether two seats ever disagreed."""
    out, agree = {}, True
    for n in names:
        for gid, res in re.findall(r"game (\d+) over: \S+ (?:won|lost) "
                                   r"against \S+ \((first|second) won",
                                   bot_log(n)):
            agree = agree and out.get(int(gid), res) == res
            out[int(gid)] = res
    return out, agree


def ratings_of(c):
    """{name: (rating, games, rd)} of `ratings`."""
    r = c.cmd("ratings")
    return dict((m[0], (int(m[1]), int(m[2]), int(m[3]))) for m in
                re.findall(r"^(\S+) rating (\d+) games (\d+) rd (\d+)",
                           body(r) if ok(r) else "", re.M))


def test_promoted_standby():
    """The primary stopped mid-game, the standby promoted: the games go
    on and finish on the new primary, nothing a client saw is lost."""
    check("pgcluster.sh standby", pgctl("standby", PGDIR) == 0)
    # Leases of 30 s: the failover takes well under that, so the games
    # go on under the epoch they began with (a lease that expires during
    # an outage is doc/NODES.md's "Database loss").
    d = Daemon("sb", "--admins", "boss", "--node-ttl", "30000", db=URL)
    boss = login(d, "boss")
    hold = os.path.join(TMP, "sb.hold")
    open(hold, "w").close()
    for n in BOTS:
        start_bot(d, n, gate_prog(hold, HELD),
                  ("--seek", SPEC + " tc=60000 rated=1", "--no-ready",
                   "--games", str(GAMES)))
    live = [[]]

    def held():
        r = boss.cmd("games live")
        live[0] = [int(x) for x in re.findall(r"^(\d+) ", body(r) or "",
                                               re.M)] if ok(r) else []
        return len(live[0]) == 2 and all(plies(boss, g) == 2 * HELD
                                         for g in live[0])
    if not check("two games held at ply %d" % (2 * HELD),
                 wait_for(held, DEADLINE, 0.05), live[0]):
        return
    check("primary stopped (immediate)", pgctl("stop", PGDIR,
                                               "immediate") == 0)
    check("standby promoted", pgctl("promote", STANDBY) == 0)
    # The first use of each connection after the failover.
    c = Client(d)
    r = c.cmd("login boss password1")
    check("a login on the new primary, at once", ok(r), r)
    r = c.cmd("register sblate password1")
    check("a registration on the new primary, at once", ok(r), r)
    os.unlink(hold)

    def over():
        return sum(len(re.findall(r"game \d+ over: \S+ (?:won|lost) ",
                                  bot_log(n))) for n in BOTS)
    check("every bot saw its %d games end" % GAMES, wait_for(
        lambda: over() == GAMES * len(BOTS), DEADLINE, 0.1), over())
    log = open(os.path.join(TMP, "sb.log"), errors="replace").read()
    check("the daemon reconnected by itself", "event=reconnected" in log,
          log[-3000:])
    # Its connections were idle at the failover: each found its own dead
    # before sending anything, so no write and no league read failed.
    for what in ("event=write-failed", "event=log-failed", "event=db-error"):
        check("no %s in the daemon's log" % what, what not in log,
              "\n".join(x for x in log.splitlines() if what in x))
    r = boss.cmd("games live")
    check("no game left live", ok(r) and body(r) == "", r)

    saw, agree = seen(BOTS)
    check("both seats of each game saw the same result", agree, saw)
    check("%d games seen with a winner" % (GAMES * len(BOTS) // 2),
          len(saw) == GAMES * len(BOTS) // 2, saw)
    games = export(boss, "games")
    logged = dict((int(g["id"]), g) for g in games)
    for gid in live[0]:
        check("game %d, held across the failover, seen to its end" % gid,
              gid in saw, saw)
    for gid, res in sorted(saw.items()):
        g = logged.get(gid, {})
        check("game %d in the log as seen: finished, %s" % (gid, res),
              g.get("status") == "finished" and g.get("result") == res, g)
    check("the log holds exactly the games seen", sorted(logged) ==
          sorted(saw), (sorted(logged), sorted(saw)))
    for gid in sorted(logged):
        rec = os.path.join(TMP, "sb-%d.rec" % gid)
        with open(rec, "w") as f:
            f.write(body(boss.cmd("record %d format=file" % gid)) + "\n")
        v = subprocess.run([GRUNDY, "verify", rec], capture_output=True,
                           text=True, timeout=60)
        check("grundy verify accepts game %d" % gid, (v.returncode,
              v.stdout.strip()) == (0, "ok 8 moves"), v.stdout + v.stderr)
    r = boss.cmd("verify ratings", timeout=30)
    check("verify ratings", ok(r) and body(r) == "ok %d players" %
          len(BOTS), r)
    st = glicko2_games((g["player1"], g["player2"], g["result"]) for g in
                       sorted(games, key=lambda g: (g["ended"],
                                                    int(g["id"]))))
    want = dict((n, (int(x[0] + 0.5), x[3], int(x[1] + 0.5)))
                for n, x in st.items())
    got = ratings_of(boss)
    check("ratings: the Glicko-2 replay of export games", got == want,
          (got, want))


sys.exit(run([test_promoted_standby]))
