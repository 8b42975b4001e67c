#!/usr/bin/env python3
"""nodes-bench.py: how long `grundy bot --server A,B` takes to play again
on the other node (issue 15 §2, PROTOCOL.md §13.12).

Two grundyd (each its own SQLite log in a temporary directory) and one
`grundy bot --server A,B` playing `grundy engine`; on the node the bot is
not on, an opponent's seek waits, so the bot's next seek there starts a
game at once.  Two measures, alternating the nodes, RUNS times each:

  failover  from just before SIGKILL of the bot's node to the `event
            start` of its game on the other node (the loss seen, the
            dial, login, the failed resume of the cut game, the seek);
            the killed node is started again after each run;
  redirect  with `node drain OTHER` on the bot's node during a game:
            from just before the opponent's resign to the `event start`
            on the other node (gameover, event redirect, close, dial,
            login, seek).  At most 8 runs: a bot follows at most 8
            redirects within 60 s (the loop bound), and waits for its
            backoff after that by design.

usage: nodes-bench.py BUILDDIR SRCDIR [RUNS]   (default 20)
"""
import os
import signal
import statistics
import sys
import time

sys.path.insert(0, os.path.join(sys.argv[2], "tests", "e2e"))
from e2e import (Daemon, GRUNDY, PROCS, TMP, body,  # noqa: E402
                 event_of, login, ok)

SEEK = "nim 3 4 5 tc=60000 rated=0"


def accounts(d):
    """An admin and an opponent logged in on d, and the bot's account."""
    d.cl = {n: login(d, n) for n in ("root", "opp")}
    d.cl["root"].cmd("account create roamer password1")


def node(name):
    d = Daemon(name, "--admins", "root")
    accounts(d)
    return d


def game_with_bot(d):
    """opp on d seeks and gets a game with the bot; returns its id."""
    opp = d.cl["opp"]
    opp.drain()
    r = opp.cmd("seek " + SEEK)
    e = event_of(opp, "start", 10)
    if not ok(r) or e is None:
        sys.exit("no game with the bot on %s: %r" % (d.name, r))
    return int(e.split()[2])


def waiting_seek(d):
    """opp on d seeks: the bot's next seek there pairs at once."""
    d.cl["opp"].drain()
    r = d.cl["opp"].cmd("seek " + SEEK)
    if not ok(r) or not body(r).startswith("seek"):
        sys.exit("opp's seek on %s: %r" % (d.name, r))


def started(d, t0):
    """Seconds from t0 to the event start of opp's waiting seek on d."""
    e = event_of(d.cl["opp"], "start", 30)
    if e is None:
        sys.exit("the bot did not come to %s" % d.name)
    return time.monotonic() - t0


def failover(here, there):
    game_with_bot(here)
    waiting_seek(there)
    t0 = time.monotonic()
    here.stop(signal.SIGKILL)
    dt = started(there, t0)
    # A fresh log: the cut game is not live there when the bot comes back.
    here.runs = getattr(here, "runs", 0) + 1
    here.db = os.path.join(TMP, "%s-%d.db" % (here.name, here.runs))
    here.start()
    accounts(here)
    return dt


def redirect(here, there):
    gid = game_with_bot(here)
    waiting_seek(there)
    here.cl["root"].cmd("node drain 127.0.0.1:%d" % there.port)
    t0 = time.monotonic()
    here.cl["opp"].cmd("resign %d" % gid)
    dt = started(there, t0)
    here.cl["root"].cmd("node undrain")
    return dt


def finish(d):
    """Ends the bot's game on d (opp resigns), so that it seeks again."""
    r = d.cl["opp"].cmd("games live")
    for line in body(r).splitlines():
        d.cl["opp"].cmd("resign " + line.split()[0])


def main():
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    a, b = node("benchA"), node("benchB")
    log = open(os.path.join(TMP, "bot-roamer.log"), "a")
    PROCS.append(__import__("subprocess").Popen(
        [GRUNDY, "bot", "--server", "127.0.0.1:%d,127.0.0.1:%d" %
         (a.port, b.port), "--name", "roamer", "--password", "password1",
         "--seek", SEEK, "--no-ready", "--", GRUNDY, "engine"],
        stdout=log, stderr=log))
    res = {"failover": [], "redirect": []}
    here, there = a, b
    try:
        for _ in range(runs):
            res["failover"].append(failover(here, there))
            finish(there)
            here, there = there, here
        for _ in range(min(runs, 8)):
            res["redirect"].append(redirect(here, there))
            finish(there)
            here, there = there, here
    finally:
        for p in PROCS:
            if p.poll() is None:
                p.kill()
                p.wait()
    for k, v in res.items():
        v = sorted(x * 1000 for x in v)
        print("%-8s runs %d  median %.1f ms  min %.1f  p90 %.1f  max %.1f" %
              (k, len(v), statistics.median(v), v[0],
               v[int(0.9 * (len(v) - 1))], v[-1]))


main()
