#!/usr/bin/env python3
"""pgplay.py: grundyd with its store on PostgreSQL (issue 15 §1), against
a throwaway cluster of its own (NEEDS_PG, SQLDB_PG_URL): register and log
in, two bots play rated games to their end, then `history`, `record` of
each game, `ratings` and `verify ratings`; the daemon is restarted and
every answer is the same (the ratings come back from their checkpoint).
Then the database stopped and started again under a running daemon.

Usage: pgplay.py BUILDDIR SRCDIR, with SQLDB_PG_URL set.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
URL = os.environ.get("SQLDB_PG_URL", "")


def start_pg(name, *flags):
    """A Daemon on the PostgreSQL database, or None (with the reason in
    skip) if the league cannot open it yet: until branch lp's league on
    sqldb is merged, that is the only expected failure."""
    try:
        return Daemon(name, *flags, db=URL)
    except Exception as e:      # the port file never came: it exited
        log = open(os.path.join(TMP, name + ".log"), errors="replace").read()
        if "event=league-open" in log:
            skip("daemon on PostgreSQL", "the league does not open a "
                 "PostgreSQL URL yet (issue 15, branch lp)")
            return None
        check("daemon on PostgreSQL starts", False, "%r\n%s" % (e, log))
        return None


def answers(c, ids):
    """The answers that must survive a restart, by command."""
    out = {"history": c.cmd("history 50"), "ratings": c.cmd("ratings")}
    for gid in ids:
        out["record %d" % gid] = c.cmd("record %d" % gid)
    return dict((k, (ok(r), body(r))) for k, r in out.items())


def test_pg_rated():
    """Rated bot games on PostgreSQL, and the same answers after a
    restart."""
    check("SQLDB_PG_URL set", URL.startswith("postgresql://"), URL)
    d = start_pg("pg", "--admins", "boss")
    if d is None:
        return
    boss = login(d, "boss")
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    os.environ["GRUNDY"] = GRUNDY
    for name in ("alpha", "beta"):
        start_bot(d, name, perfect, ["--seek", "nim 2 3 tc=20000 rated=1",
                                     "--games", "3"])
    check("bots logged in", bots_logged_in(("alpha", "beta")))
    hist = [None]

    def three_finished():
        hist[0] = boss.cmd("history 50")
        return len(re.findall(r"^\d+ nim finished ", body(hist[0]) or "",
                              re.M)) == 3
    check("three rated games finished", wait_for(three_finished, 30, 0.1),
          hist[0])
    ids = [int(x) for x in re.findall(r"^(\d+) nim finished ",
                                      body(hist[0]) or "", re.M)]
    check("a fresh database's first games are 1, 2 and 3, as on SQLite "
          "(the node's first block of ids starts at 1)",
          sorted(ids) == [1, 2, 3], ids)
    before = answers(boss, ids)
    for gid in ids:
        good, r = before["record %d" % gid]
        check("record %d: the game and its moves" % gid, good and
              "status finished" in r and "\nmove " in r, r)
    good, r = before["ratings"]
    check("ratings: both bots, three games each", good and re.search(
        r"^alpha rating \d+ games 3 ", r, re.M) and re.search(
        r"^beta rating \d+ games 3 ", r, re.M), r)
    r = boss.cmd("verify ratings", timeout=30)
    check("verify ratings", ok(r) and body(r) == "ok 2 players", r)
    d.stop()
    d.start()
    boss = login(d, "boss", register=False)
    after = answers(boss, ids)
    for k in before:
        check("after a restart, the same " + k, after[k] == before[k],
              (before[k], after[k]))
    r = boss.cmd("verify ratings", timeout=30)
    check("verify ratings after the restart", ok(r) and
          body(r) == "ok 2 players", r)
    # The restart found schema_version made: PostgreSQL's NOTICE of it
    # ("relation ... already exists") is not logged.
    log = open(os.path.join(TMP, "pg.log"), errors="replace").read()
    check("both starts logged", log.count("event=ready") == 2, log[-2000:])
    check("no NOTICE of an existing relation in the log",
          "already exists" not in log and "event=notice" not in log,
          [l for l in log.splitlines() if "notice" in l])


def pgctl(*args):
    """Stops or starts the test's cluster (tests/e2e/pgcluster.sh)."""
    return subprocess.run(os.environ["SQLDB_PG_CTL"].split() + list(args) +
                          [], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode


def durable(r, result):
    """Did the reply to a game's last move report RESULT, durable?"""
    return ok(r) and ("result " + result) in r and "unlogged" not in r


def test_pg_outage():
    """The database stopped while grundyd runs: analysis goes on, logged
    games are refused with the reason once a write failed, no result is
    reported durable that is not in the log, and the log comes back by
    itself when the database does."""
    d = start_pg("outage")
    if d is None:
        return
    pgdir = os.environ["SQLDB_PG_DIR"]
    c = Client(d)
    for line in ("new nim 1", "match engine first"):
        c.cmd(line)
    r = c.cmd("play 1=0")      # nim 0: the engine has no move
    check("durable result before", durable(r, "first"), r)
    check("cluster stopped", pgctl("stop", pgdir, "fast") == 0)
    c.cmd("new nim 3 4 5")
    r = c.cmd("analyze")
    check("analysis served while the database is down", ok(r) and
          "outcome N" in r, r)
    told = {}                   # game id: reported durable

    def refused():
        c.cmd("new nim 1 1")
        r = c.cmd("match engine first")
        if ok(r):
            gid = int(re.search(r"game (\d+)", r).group(1))
            told[gid] = durable(c.cmd("play 1=0"), "second")
            return False
        return "cannot write" in (r or "")
    check("logged games refused while the database is down, with the "
          "reason", wait_for(refused, WAIT, 0.1), told)
    check("no result reported durable while the database is down",
          not any(told.values()), told)
    check("cluster started again", pgctl("start", pgdir) == 0)
    c.cmd("new nim 1")
    check("the log comes back by itself",
          wait_for(lambda: ok(c.cmd("match engine first")), WAIT, 0.2))
    r = c.cmd("play 1=0")
    check("and results are durable again", durable(r, "first"), r)
    for gid in told:
        r = c.cmd("record %d" % gid)
        check("game %d, unlogged: not in the log, or abandoned log-failed"
              % gid, ("no game %d" % gid) in (r or "") or (
                  ok(r) and "status abandoned" in body(r) and
                  "log-failed" in body(r)), r)


sys.exit(run([test_pg_rated, test_pg_outage]))
