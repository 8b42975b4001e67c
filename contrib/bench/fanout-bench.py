#!/usr/bin/env python3
"""fanout-bench: the server's CPU per spectator-event of one game's feed,
against redis pub/sub with the same fan-out, in one run (issue 28 §3).

Each round runs, each on a fresh server:
  watch  grundyd, N spectators on `watch ID` (PROTOCOL.md §13.6);
  sse    grundyd --http, N spectators on GET /api/games/ID/feed (§14.4);
  redis  redis-server, N subscribers on one channel, one publisher sending
         a message the size of the watch line, then of the SSE event, one
         at a time, waiting for each reply (as the game's plies go: one
         move at a time);
with every build given (--old OLD/grundyd: the same phases on it, in the
same round).  The game: nim with one pile, each move taking one token,
played by two clients as fast as they can (sse-bench's players).  The
spectators are contrib/bench/sse-spect (one epoll loop) in their mode.

Prints, per round, the server's CPU (user + system, /proc/PID/stat) over
the plies divided by the events the spectators read, and the ratio to
redis's in the same round.

Usage: python3 contrib/bench/fanout-bench.py ./grundyd [--old OLD/grundyd]
       [--spectators N] [--plies P] [--rounds R] [--redis-server PATH]
"""
import importlib.machinery
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchutil import die, free_port  # noqa: E402

PROG = "fanout-bench"
SB = importlib.machinery.SourceFileLoader(
    "ssebench", os.path.join(HERE, "sse-bench")).load_module()


def spectators(spect, port, chan, n, mode):
    """Starts sse-spect in mode; returns it once every spectator is in."""
    c = subprocess.Popen([spect, str(port), str(chan), str(n), mode],
                         stdout=subprocess.PIPE, text=True)
    if c.stdout.readline().strip() != "ready":
        die(PROG, "the %s spectators did not connect" % mode)
    return c


def events(c):
    """The number of events the spectators read (after the end)."""
    n = sum(1 for _ in c.stdout)
    if c.wait() != 0:
        die(PROG, "sse-spect failed")
    return n


def grundyd_phase(grundyd, spect, tmp, mode, n, plies, tag):
    http = mode == "sse"
    p, lport, hport = SB.start(grundyd, tmp, tag, http,
                               ["--max-watchers", str(n + 10)])
    try:
        gid, a, b = SB.seek_pair(lport, plies, tag)
        c = spectators(spect, hport if http else lport, gid, n, mode)
        time.sleep(0.2)
        cpu0 = SB.proc_cpu(p.pid)
        SB.play(a, b, plies, 0.0)
        cpu = SB.proc_cpu(p.pid) - cpu0
        ev = events(c)
        if ev != plies * n:
            die(PROG, "%s: %d events, expected %d" % (mode, ev, plies * n))
        return cpu / ev
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(10)


def redis_phase(redis, spect, n, plies, size):
    port = free_port()
    p = subprocess.Popen([redis, "--port", str(port), "--bind", "127.0.0.1",
                          "--save", "", "--appendonly", "no",
                          "--maxclients", str(n + 100)],
                         stdout=subprocess.DEVNULL)
    try:
        end = time.time() + 10
        while True:
            try:
                s = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                if time.time() > end:
                    die(PROG, "redis-server did not start")
                time.sleep(0.05)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        c = spectators(spect, port, "1", n, "redis")
        time.sleep(0.2)
        cpu0 = SB.proc_cpu(p.pid)
        for ply in range(1, plies + 2):
            body = ("move %d " % ply) if ply <= plies else "end"
            body = body.ljust(size if ply <= plies else 3, "x")
            s.sendall(("*3\r\n$7\r\nPUBLISH\r\n$1\r\n1\r\n$%d\r\n%s\r\n" %
                       (len(body), body)).encode())
            got = b""
            while not got.endswith(b"\r\n"):
                got += s.recv(64)
        cpu = SB.proc_cpu(p.pid) - cpu0
        ev = events(c)
        if ev != plies * n:
            die(PROG, "redis: %d events, expected %d" % (ev, plies * n))
        s.close()
        return cpu / ev
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(10)


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        die(PROG, "usage: fanout-bench.py ./grundyd [--old OLD/grundyd] "
            "[--spectators N] [--plies P] [--rounds R]")
    builds = [("new", os.path.abspath(args.pop(0)))]
    n, plies, rounds = 1000, 2000, 2
    redis = shutil.which("redis-server") or "/usr/bin/redis-server"
    while args:
        k, v = args[0], args[1]
        if k == "--old":
            builds.append(("old", os.path.abspath(v)))
        elif k == "--spectators":
            n = int(v)
        elif k == "--plies":
            plies = int(v)
        elif k == "--rounds":
            rounds = int(v)
        elif k == "--redis-server":
            redis = v
        else:
            die(PROG, "unknown option %s" % k)
        args = args[2:]
    spect = os.path.join(HERE, "sse-spect")
    if not os.access(spect, os.X_OK):
        die(PROG, "%s: not built (make contrib/bench/sse-spect)" % spect)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2 * n + 100:
        die(PROG, "ulimit -Hn %d: %d spectators need %d descriptors" %
            (hard, n, 2 * n + 100))
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.mkdtemp(prefix="fanout-bench.")
    print("spectators %d, plies %d; load average before: %s" %
          (n, plies, open("/proc/loadavg").read().split()[0]))
    # The sizes of what a spectator reads per move at ply ~1000 of a
    # 2,000-ply game: the watch line and the SSE event (chunked).
    sizes = {"watch": len("event move 1 1000 1 1 time1=36000000 "
                          "time2=36000000\n"),
             "sse": 190}
    for r in range(1, rounds + 1):
        ref = {m: redis_phase(redis, spect, n, plies, sizes[m])
               for m in ("watch", "sse")}
        for m in ("watch", "sse"):
            print("round %d redis pub/sub (%d-byte message): %.3f us per "
                  "event" % (r, sizes[m], ref[m] * 1e6))
        for name, g in builds:
            for m in ("watch", "sse"):
                x = grundyd_phase(g, spect, tmp, m, n, plies,
                                  "%s%s%d" % (name, m, r))
                print("round %d %s %-5s: %.3f us per event, %.2fx redis "
                      "pub/sub" % (r, name, m, x * 1e6, x / ref[m]))
        sys.stdout.flush()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
