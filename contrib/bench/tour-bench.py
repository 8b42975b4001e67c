#!/usr/bin/env python3
"""tour-bench.py: what the largest tournament costs the event loop.

Starts the build's grundyd (game log on, in a temporary directory) and
creates the largest schedule the limits allow: a gauntlet of 64 players
with an SPRT and games=2000, 126,000 games.  Then times, as round trips
from a client on loopback, each N times: `tournament show` (a pass over
every slot), `ready` + `unready` of the gauntlet's first player (`ready`
runs the scheduler over every slot; its opponents are absent, so nothing
starts), and a daemon restart until it answers (the schedule rebuilt
from the log).  Prints the median and the maximum of each.  A benchmark,
not a test.

usage: contrib/bench/tour-bench.py [BUILDDIR [N]]
"""
import os
import statistics
import sys
import time

BUILD = sys.argv[1] if len(sys.argv) > 1 else "."
N = int(sys.argv[2]) if len(sys.argv) > 2 else 20
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.argv = [sys.argv[0], BUILD, SRC]
sys.path.insert(0, os.path.join(SRC, "tests", "e2e"))
from e2e import Client, Daemon, login  # noqa: E402


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def report(name, ms):
    print("%-44s median %7.2f ms  max %7.2f ms  (%d runs)" %
          (name, statistics.median(ms), max(ms), len(ms)))


def main():
    d = Daemon("tourbench", "--admins", "boss")
    boss = login(d, "boss")
    names = ["b%d" % i for i in range(63)]
    for n in names:
        boss.cmd("account create %s password1" % n)
    line = ("tournament create big gauntlet players=boss,%s games=2000 "
            "sprt=0,10 tc=20000 nim 3 4 5" % ",".join(names))
    t = timed(lambda: boss.cmd(line, timeout=60))
    print("create (126,000 games): %.2f ms" % t)
    report("tournament show", [timed(lambda: boss.cmd(
        "tournament show big", timeout=60)) for _ in range(N)])
    ms = []
    for _ in range(N):
        ms.append(timed(lambda: boss.cmd("ready", timeout=60)))
        boss.cmd("unready")
    report("ready (a scheduler pass)", ms)
    report("protocol_version (the round trip alone)", [timed(
        lambda: boss.cmd("protocol_version")) for _ in range(N)])
    ms = []
    for _ in range(min(N, 5)):
        d.stop()
        t0 = time.perf_counter()
        d.start()
        Client(d).cmd("protocol_version", timeout=60)
        ms.append((time.perf_counter() - t0) * 1000)
    report("restart until it answers", ms)
    d.stop()


if __name__ == "__main__":
    main()
