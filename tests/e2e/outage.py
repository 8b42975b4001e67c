#!/usr/bin/env python3
"""outage.py: issue 9 §2, a daemon restart longer than 60 s.  A `grundy bot`
with its default settings is seated in a live game when the daemon is
killed (SIGKILL, as a crash) and kept down for 65 s, longer than the old
fixed 60 s reconnect window; the bot keeps trying (--reconnect-for, default
600 s), logs in again once the daemon is back on the same port, seeks again
and is paired into a new game.  About 70 to 100 s of wall time, spent mostly
in the outage itself; every other wait is a poll with a deadline.

Usage: outage.py BUILDDIR SRCDIR (the shared client module is e2e.py).
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

OUTAGE_S = 65


def test_outage_over_60s():
    d = Daemon("outage")
    spec = "nim 9 9 9 tc=600000"
    opp = login(d, "opp")
    opp.drain()
    accepted(opp, "seek " + spec, "outage: the opponent seeks")
    p = start_bot(d, "steady", [GRUNDY, "engine"],
                  ["--no-ready", "--seek", spec])
    e = opp.wait("events", lambda x: x.startswith("event start"), WAIT)
    check("outage: a game starts", e is not None, e)
    opp.close()
    d.stop(signal.SIGKILL)
    t0 = time.time()
    # The outage itself: the bot must still be trying all along.
    while time.time() - t0 < OUTAGE_S:
        if p.poll() is not None:
            break
        time.sleep(0.5)
    check("outage: the bot is still trying after %d s" % OUTAGE_S,
          p.poll() is None, bot_log("steady")[-1500:])
    d.start()
    # Backoff steps are at most 30 s (test-bot.c), so 45 s is a bound.
    back = wait_for(lambda: bot_log("steady").count("logged in") >= 2, 45)
    check("outage: the bot logged in again after the restart", back,
          bot_log("steady")[-1500:])
    opp = login(d, "opp", register=False)
    opp.drain()
    r = opp.cmd("seek " + spec)
    e = opp.wait("events", lambda x: x.startswith("event start"), WAIT) \
        if ok(r) and "seek" in body(r) else None
    if e is None and ok(r) and body(r).startswith("game"):
        e = r
    check("outage: the bot is paired again", e is not None, r)
    p.kill()
    p.wait()
    d.stop()


if __name__ == "__main__":
    sys.exit(run([test_outage_over_60s]))
