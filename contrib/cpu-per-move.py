#!/usr/bin/env python3
"""cpu-per-move.py: the daemon's CPU time per refereed move (BENCHMARKS.md §2).

Starts each given grundyd binary in turn (--db off, or each --db given:
"sqlite" is a fresh SQLite file, anything else is passed as is, such as a
postgresql:// URL), runs grundy-bench
against it and reads the daemon's CPU time (all threads, utime + stime from
/proc/PID/stat) when the games load starts and when it ends; prints CPU per
move (client and engine moves) and moves/s.  Binaries alternate for the
given number of rounds, so that two builds are measured in the same run.
Figures only; nothing is asserted.

usage: cpu-per-move.py [--rounds N] [--seconds S] [--conns C] [--bench PATH]
                       [--db off|sqlite|URL]... GRUNDYD...
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

from benchutil import free_port

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of every thread of pid, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def wait_listen(port, deadline):
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("cpu-per-move: the daemon did not listen on %d" % port)


def measure(grundyd, bench, seconds, conns, db="off"):
    port = free_port()
    tmp = None
    if db == "sqlite":
        tmp = tempfile.TemporaryDirectory()
        db = os.path.join(tmp.name, "bench.db")
    d = subprocess.Popen([grundyd, "--listen", "127.0.0.1:%d" % port,
                          "--db", db], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        wait_listen(port, time.monotonic() + 10)
        b = subprocess.Popen(["stdbuf", "-oL", bench, "--port", str(port),
                              "--conns", str(conns), "--seconds",
                              str(seconds)], stdout=subprocess.PIPE,
                             text=True)
        c0 = t0 = None
        rate = None
        for line in b.stdout:
            if line.startswith("grundyd protocol_version"):
                c0, t0 = cpu_seconds(d.pid), time.monotonic()
            elif line.startswith("grundyd refereed games"):
                c1, t1 = cpu_seconds(d.pid), time.monotonic()
                rate = int(re.search(r"(\d+) moves/s \(client", line)
                           .group(1))
        b.wait()
    finally:
        d.terminate()
        d.wait()
        if tmp is not None:
            tmp.cleanup()
    if rate is None or c0 is None:
        sys.exit("cpu-per-move: no games line from grundy-bench")
    moves = rate * (t1 - t0)
    return (c1 - c0) / moves * 1e6, rate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--conns", type=int, default=50)
    ap.add_argument("--bench", default="./grundy-bench")
    ap.add_argument("--db", action="append")
    ap.add_argument("grundyd", nargs="+")
    a = ap.parse_args()
    runs = [(g, db) for g in a.grundyd for db in (a.db or ["off"])]
    for r in range(a.rounds):
        order = runs if r % 2 == 0 else runs[::-1]
        for g, db in order:
            us, rate = measure(g, a.bench, a.seconds, a.conns, db)
            label = g if a.db is None else "%s --db %s" % (
                g, db.split("@")[-1] if "://" in db else db)
            print("round %d %-30s CPU/move %.2f us, %d moves/s" %
                  (r + 1, label, us, rate), flush=True)


if __name__ == "__main__":
    main()
