#!/usr/bin/env python3
"""botlat-bench.py: games per second of `grundy bot` through grundyd,
before and after TCP_NODELAY on the client's socket (BENCHMARKS.md §18),
against the Python relay of contrib/bench/match-bench.py (which sets
TCP_NODELAY) as the reference, all measured in the same run on the same
grundyd (this build's, log on tmpfs), with the same engine (`grundy
engine`, an answer in microseconds) and the same games (`nim 20 20 20`
with random starts, 2 x N players, pair i seeking its own tc).

Rows: the Python relay; `grundy bot` of BEFORE (a grundy binary built
without the change) and of this build; and `grundy connect --pipe` of
BEFORE and of this build as the transport of a Python relay that writes
each answer on its own (as a program does).  "us" is grundyd's CPU per
game (all threads, /proc/PID/stat).  A benchmark: nothing is asserted.

Usage: botlat-bench.py BUILDDIR BEFORE_GRUNDY [--games G]
                       [--slow-games S] [--conc 1,2,8] [--runs R]
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchutil import die  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "match_bench", os.path.join(HERE, "match-bench.py"))
mb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mb)


def connect_relay(port, name, spec, games, grundy, engine, done):
    """A player through `grundy connect --pipe` (binary grundy): relays
    the server's commands to engine, each answer written on its own."""
    c = subprocess.Popen([grundy, "connect", "--pipe",
                          "127.0.0.1:%d" % port], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    eng = subprocess.Popen([engine, "engine"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(text):
        c.stdin.write(text)
        c.stdin.flush()
    done.append(mb.relay_games(c.stdout, send, eng, name, spec, games))
    eng.stdin.close()
    eng.wait()
    c.stdin.close()
    c.wait()


def run(build, dbdir, spec, games, conc, kind, grundy):
    """games games through this build's grundyd, 2 x conc players of
    kind "relay", "bot" or "connect" (grundy: the client binary).
    Returns (wall s, games played, the daemon's CPU s)."""
    engine = os.path.join(build, "grundy")
    portfile = os.path.join(dbdir, "port")
    if os.path.exists(portfile):
        os.unlink(portfile)
    db = os.path.join(dbdir, "g-%d.db" % time.time_ns())
    log = open(os.path.join(dbdir, "grundyd.log"), "a")
    d = subprocess.Popen([os.path.join(build, "grundyd"), "--listen",
                          "127.0.0.1:0", "--port-file", portfile, "--db",
                          db], stdout=log, stderr=log)
    try:
        mb.wait_file(portfile)
        port = int(open(portfile).read())
        per, done, th, procs = games // conc, [], [], []
        tag = time.time_ns() % 1000000
        c0 = mb.cpu_s(d.pid)
        t0 = time.perf_counter()
        for i in range(2 * conc):
            sp = spec + " tc=%d rated=0 random=1" % (600000 + i // 2)
            name = "l%d_%d" % (tag, i)
            if kind == "bot":
                procs.append(subprocess.Popen(
                    [grundy, "bot", "--server", "127.0.0.1:%d" % port,
                     "--name", name, "--password", "benchpass1",
                     "--register", "--no-ready", "--seek", sp,
                     "--games", str(per), "--", engine, "engine"],
                    stdout=log, stderr=log))
                continue
            if kind == "relay":
                args = (port, name, sp, per, engine, done)
                t = threading.Thread(target=mb.relay_client, args=args)
            else:
                args = (port, name, sp, per, grundy, engine, done)
                t = threading.Thread(target=connect_relay, args=args)
            t.start()
            th.append(t)
        for t in th:
            t.join(600)
        for p in procs:
            if p.wait(600) != 0:
                die("botlat-bench", "a grundy bot failed")
            done.append(per)
        el = time.perf_counter() - t0
        cpu = mb.cpu_s(d.pid) - c0
    finally:
        d.terminate()
        d.wait()
        log.close()
    if sum(done) != 2 * per * conc:
        die("botlat-bench", "%s: %d of %d games" % (kind, sum(done) // 2,
                                                     per * conc))
    return el, sum(done) // 2, cpu


def main():
    if len(sys.argv) < 3:
        die("botlat-bench", "usage: botlat-bench.py BUILDDIR BEFORE_GRUNDY")
    build, before = sys.argv[1], sys.argv[2]
    games, slow, spec, concs, runs = 1000, 40, "nim 20 20 20", \
        [1, 2, 8], 3
    args = sys.argv[3:]
    while args:
        if args[0] == "--games":
            games = int(args[1])
        elif args[0] == "--slow-games":
            slow = int(args[1])
        elif args[0] == "--conc":
            concs = [int(x) for x in args[1].split(",")]
        elif args[0] == "--runs":
            runs = int(args[1])
        args = args[2:]
    after = os.path.join(build, "grundy")
    shm = tempfile.mkdtemp(prefix="botlat-bench.",
                           dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    rows = (("Python relay (TCP_NODELAY)", "relay", after, games),
            ("grundy bot, before", "bot", before, slow),
            ("grundy bot, after", "bot", after, games),
            ("grundy connect --pipe, before", "connect", before, slow),
            ("grundy connect --pipe, after", "connect", after, games))
    try:
        print("game=%r with random starts; %d games (before: %d); best "
              "of %d runs; us = grundyd's CPU microseconds per game"
              % (spec, games, slow, runs))
        for c in concs:
            print("concurrency=%d load=%s" % (c, mb.load()), flush=True)
            ref = None
            for label, kind, grundy, g in rows:
                r = min((run(build, shm, spec, g, c, kind, grundy)
                         for _ in range(runs)), key=lambda x: x[0] / x[1])
                gps = r[1] / r[0]
                ref = ref or gps
                print("  %-30s %7.1f games/s  %5.0f us  %5.3f x relay"
                      % (label + ":", gps, r[2] / r[1] * 1e6, gps / ref),
                      flush=True)
    finally:
        shutil.rmtree(shm)


if __name__ == "__main__":
    main()
