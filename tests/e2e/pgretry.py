#!/usr/bin/env python3
"""pgretry.py: a database outage does not kill a competition's bots (issue
15 §1, PROTOCOL.md §3 item 6), against a throwaway cluster of its
own (NEEDS_PG, SQLDB_PG_URL).  The cluster is stopped under a running
grundyd on PostgreSQL: once a write failed, new logged games are refused
with the cause the store knows (its database unreachable, not "disk
full?"); two `grundy bot --seek` started then have their login refused
(the accounts' database unreachable) and log in again with their backoff
instead of exiting; the cluster started again, they log in, their first
seek is refused (the log has not written since) and sent again with the
backoff until taken; they pair and play their game to its end.

Every wait is a poll with a deadline.  Usage: pgretry.py BUILDDIR SRCDIR,
with SQLDB_PG_URL set.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
URL = os.environ.get("SQLDB_PG_URL", "")
DEADLINE = 30.0         # s: every poll's bound on a loaded machine
UNREACHABLE = ("the game log cannot write (its database is unreachable: "
               "reconnecting): new logged games are refused until it can; "
               "analysis still works")


def pgctl(*args):
    """Stops or starts the test's cluster (tests/e2e/pgcluster.sh)."""
    return subprocess.run(os.environ["SQLDB_PG_CTL"].split() + list(args),
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode


def seeker(d, name):
    """grundy bot name seeking one unrated game of nim 3 4 5, playing
    `grundy engine` (its account registered beforehand)."""
    log = open(os.path.join(TMP, "bot-%s.log" % name), "a")
    p = subprocess.Popen(
        [GRUNDY, "bot", "--server", "127.0.0.1:%d" % d.port, "--name", name,
         "--password", "password1", "--seek", "nim 3 4 5 tc=60000 rated=0",
         "--games", "1", "--reconnect-ms", "100", "--", GRUNDY, "engine"],
        stdout=log, stderr=log)
    PROCS.append(p)
    return p


def test_outage_seek():
    """The bots seek during the outage and play once it is over."""
    check("SQLDB_PG_URL set", URL.startswith("postgresql://"), URL)
    d = Daemon("retry", db=URL)
    for n in ("rb1", "rb2"):
        login(d, n).close()
    c = Client(d)
    check("cluster stopped", pgctl("stop", os.environ["SQLDB_PG_DIR"],
                                   "fast") == 0)
    last = []

    def refused():
        c.cmd("new nim 1 1")
        r = c.cmd("match engine first")
        if ok(r):
            c.cmd("play 1=0")
        last[:] = [r]
        return not ok(r)
    check("a logged game refused once a write failed, naming the cause",
          wait_for(refused, DEADLINE, 0.1) and last[0] == "?%d %s" % (
              c.nid, UNREACHABLE), last)
    bots = [seeker(d, n) for n in ("rb1", "rb2")]
    check("both bots refused their login and trying again", wait_for(
        lambda: all(re.search(r"login as %s refused: .*: database "
                              r"unreachable; logging in again in \d+ ms" %
                              n, bot_log(n)) for n in ("rb1", "rb2")),
        DEADLINE), [bot_log(n)[-600:] for n in ("rb1", "rb2")])
    check("neither bot exited", all(p.poll() is None for p in bots),
          [p.poll() for p in bots])
    check("cluster started again",
          pgctl("start", os.environ["SQLDB_PG_DIR"]) == 0)
    done = wait_for(lambda: all(p.poll() is not None for p in bots),
                    DEADLINE * 2)
    check("both bots played their game and exited 0", done and all(
        p.returncode == 0 for p in bots), [p.poll() for p in bots])
    for n in ("rb1", "rb2"):
        log = bot_log(n)
        check("bot %s: logged in once the database was back, its seek "
              "refused (the log not written since), sought again" % n,
              re.search(r"logged in: .*\nbot: seek refused: %s; seeking "
                        r"again in \d+ ms\n" % re.escape(UNREACHABLE),
                        log), log[-1500:])
        check("bot %s: its game ended with a result" % n, re.search(
            r"game \d+ over: .* (won|lost) against", log), log[-800:])


sys.exit(run([test_outage_seek]))
