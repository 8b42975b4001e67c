#!/usr/bin/env python3
"""match-bench.py: games per second of `grundy match` with instant engines
(grundyd's own engine, `grundy engine`: perfect play, an answer in
microseconds) at concurrency 1, 2 and 8, and as a reference measured in
the same run, the same games played through grundyd: 2 x N players, each
relaying the same engine, seeking the same random starts (`random=1`), N
games at a time, on a daemon with its own fresh log.  The players are
relays written here, which set TCP_NODELAY, with the log on tmpfs
(/dev/shm: its fsync costs nothing) and on disk; and `grundy bot` itself
on tmpfs, with fewer games (it sets TCP_NODELAY since BENCHMARKS.md §18;
contrib/bench/botlat-bench.py compares it before and after).

Besides games/s of wall time (noisy on a shared machine) it gives CPU
time per game of the referee alone: grundy match's own process (its
final line; the engines are not counted) against grundyd's (all its
threads, /proc/PID/stat).  A benchmark, not a test: nothing is asserted.

Usage: match-bench.py BUILDDIR [--games G] [--bot-games B] [--game SPEC]
                      [--conc 1,2,8] [--runs R]
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchutil import die  # noqa: E402


def wait_file(path, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return
        time.sleep(0.02)
    die("match-bench", "%s never appeared" % path)


def cpu_s(pid):
    """User + system CPU of a process, all threads, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")


def run_match(grundy, spec, games, conc, out):
    """One grundy match run: (wall seconds, its own CPU seconds)."""
    args = [grundy, "match", "--engine", "cmd=" + grundy, "arg=engine",
            "name=a", "--engine", "cmd=" + grundy, "arg=engine", "name=b",
            "--game", spec, "--random-starts", "--seed", "1",
            "--games", str(games), "--concurrency", str(conc),
            "--tc", "600000", "--quiet"]
    if out:
        args += ["--out", out]
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    el = time.perf_counter() - t0
    m = re.search(r"([0-9.]+) s of CPU", p.stderr)
    if p.returncode != 0 or m is None:
        die("match-bench", "grundy match: %s" % p.stderr[-500:])
    return el, float(m.group(1))


def relay_client(port, name, spec, games, grundy, done):
    """A player like `grundy bot`, but with TCP_NODELAY: logs in, seeks
    spec, relays the server's commands to a `grundy engine` process and
    its answers back, until it has played games games."""
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    f = s.makefile("r")
    eng = subprocess.Popen([grundy, "engine"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)
    done.append(relay_games(f, lambda t: s.sendall(t.encode()), eng, name,
                            spec, games))
    eng.stdin.close()
    eng.wait()
    s.close()


def relay_games(f, send, eng, name, spec, games):
    """Registers and logs in as name, seeks spec and relays the server's
    commands (read from f) to the engine eng and its answers back (each
    with send(text)) until games games are played; returns how many."""
    for line in ("register %s benchpass1" % name,
                 "login %s benchpass1" % name):
        send(line + "\n")
        while f.readline() not in ("\n", ""):
            pass
    played = 0
    send("seek %s\n" % spec)
    while played < games:
        line = f.readline()
        if line == "":
            break
        w = line.split()
        if len(w) < 2 or not w[0].isdigit() or w[1] not in (
                "new", "play", "genmove", "gameover"):
            continue
        eng.stdin.write(line)
        eng.stdin.flush()
        out = []
        while True:
            r = eng.stdout.readline()
            out.append(r)
            if r in ("\n", ""):
                break
        send("".join(out))
        if w[1] == "gameover":
            played += 1
            if played < games:
                send("seek %s\n" % spec)
    return played


def run_grundyd(build, dbdir, spec, games, conc, bots):
    """The games through grundyd: (wall s, games, the daemon's CPU s)."""
    grundy = os.path.join(build, "grundy")
    portfile = os.path.join(dbdir, "port")
    if os.path.exists(portfile):
        os.unlink(portfile)
    db = os.path.join(dbdir, "g-%d-%d.db" % (conc, time.time_ns()))
    log = open(os.path.join(dbdir, "grundyd.log"), "a")
    d = subprocess.Popen([os.path.join(build, "grundyd"), "--listen",
                          "127.0.0.1:0", "--port-file", portfile, "--db",
                          db], stdout=log, stderr=log)
    try:
        wait_file(portfile)
        port = int(open(portfile).read())
        per, done, th, procs = games // conc, [], [], []
        tag = time.time_ns() % 1000000
        c0 = cpu_s(d.pid)
        t0 = time.perf_counter()
        for i in range(2 * conc):
            # Pair i seeks its own tc: its two players meet each other.
            sp = spec + " tc=%d rated=0 random=1" % (600000 + i // 2)
            name = "r%d_%d" % (tag, i)
            if bots:
                procs.append(subprocess.Popen(
                    [grundy, "bot", "--server", "127.0.0.1:%d" % port,
                     "--name", name, "--password", "benchpass1",
                     "--register", "--no-ready", "--seek", sp,
                     "--games", str(per), "--", grundy, "engine"],
                    stdout=log, stderr=log))
                continue
            t = threading.Thread(target=relay_client, args=(
                port, name, sp, per, grundy, done))
            t.start()
            th.append(t)
        for t in th:
            t.join(600)
        for p in procs:
            if p.wait(600) != 0:
                die("match-bench", "a grundy bot failed")
            done.append(per)
        el = time.perf_counter() - t0
        cpu = cpu_s(d.pid) - c0
    finally:
        d.terminate()
        d.wait()
    return el, sum(done) // 2, cpu


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "."
    games, bgames, spec, concs, runs = 2000, 40, "nim 20 20 20", \
        [1, 2, 8], 3
    args = sys.argv[2:]
    while args:
        if args[0] == "--games":
            games = int(args[1])
        elif args[0] == "--bot-games":
            bgames = int(args[1])
        elif args[0] == "--game":
            spec = args[1]
        elif args[0] == "--conc":
            concs = [int(x) for x in args[1].split(",")]
        elif args[0] == "--runs":
            runs = int(args[1])
        args = args[2:]
    grundy = os.path.join(build, "grundy")
    tmp = tempfile.mkdtemp(prefix="match-bench.")
    shm = tempfile.mkdtemp(prefix="match-bench.",
                           dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    try:
        print("game=%r with random starts; %d games (grundy bot: %d); "
              "best of %d runs; us = CPU microseconds per game of the "
              "runner or daemon alone" % (spec, games, bgames, runs))
        for c in concs:
            l0 = load()
            m = min(run_match(grundy, spec, games, c, None)
                    for _ in range(runs))
            mo = min(run_match(grundy, spec, games, c,
                               os.path.join(tmp, "out.json"))
                     for _ in range(runs))
            r = min((run_grundyd(build, shm, spec, games, c, False)
                     for _ in range(runs)), key=lambda x: x[0])
            rd = run_grundyd(build, tmp, spec, games, c, False)
            b = run_grundyd(build, shm, spec, bgames, c, True)
            print("concurrency=%d load=%s\n"
                  "  grundy match:            %6.0f games/s  %5.0f us\n"
                  "  grundy match --out:      %6.0f games/s  %5.0f us\n"
                  "  grundyd, relays, tmpfs:  %6.0f games/s  %5.0f us\n"
                  "  grundyd, relays, disk:   %6.0f games/s  %5.0f us\n"
                  "  grundyd, grundy bot:     %6.1f games/s  %5.0f us" %
                  (c, l0, games / m[0], m[1] / games * 1e6,
                   games / mo[0], mo[1] / games * 1e6,
                   r[1] / r[0], r[2] / r[1] * 1e6,
                   rd[1] / rd[0], rd[2] / rd[1] * 1e6,
                   b[1] / b[0], b[2] / b[1] * 1e6), flush=True)
    finally:
        shutil.rmtree(tmp)
        shutil.rmtree(shm)


if __name__ == "__main__":
    main()
