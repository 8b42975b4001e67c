#!/usr/bin/env python3
"""match-bench.py: games per second of `grundy match` with instant engines
(grundyd's own engine, `grundy engine`, perfect play that answers in
microseconds) at concurrency 1, 2 and 8, and, as a reference measured in
the same run, the same games played through grundyd: 2 x N `grundy bot`
processes relaying the same engine, seeking the same random starts
(`random=1`) N games at a time, on a daemon with its own fresh log.  A
benchmark, not a test: it prints figures and asserts nothing.

Usage: match-bench.py BUILDDIR [--games G] [--game SPEC] [--conc 1,2,8]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
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


def run_match(grundy, spec, games, conc, out):
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
    if p.returncode != 0:
        die("match-bench", "grundy match: %s" % p.stderr[-500:])
    return el


def run_daemon(build, tmp, spec, games, conc):
    grundy = os.path.join(build, "grundy")
    portfile = os.path.join(tmp, "port")
    if os.path.exists(portfile):
        os.unlink(portfile)
    db = os.path.join(tmp, "bench-%d.db" % conc)
    log = open(os.path.join(tmp, "grundyd.log"), "a")
    d = subprocess.Popen([os.path.join(build, "grundyd"), "--listen",
                          "127.0.0.1:0", "--port-file", portfile, "--db",
                          db], stdout=log, stderr=log)
    try:
        wait_file(portfile)
        port = int(open(portfile).read())
        per = games // conc
        bots = []
        t0 = time.perf_counter()
        for i in range(2 * conc):
            bots.append(subprocess.Popen(
                [grundy, "bot", "--server", "127.0.0.1:%d" % port,
                 "--name", "b%d" % i, "--password", "password1",
                 "--register", "--no-ready", "--seek",
                 # Pair i seeks its own tc: its two bots meet each other.
                 spec + " tc=%d rated=0 random=1" % (600000 + i // 2),
                 "--games", str(per),
                 "--", grundy, "engine"], stdout=log, stderr=log))
        for b in bots:
            if b.wait(600) != 0:
                die("match-bench", "a grundy bot failed (see %s)" % tmp)
        el = time.perf_counter() - t0
    finally:
        d.terminate()
        d.wait()
    return el, per * conc


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "."
    games, spec, concs = 400, "nim 20 20 20", [1, 2, 8]
    args = sys.argv[2:]
    while args:
        if args[0] == "--games":
            games = int(args[1])
        elif args[0] == "--game":
            spec = args[1]
        elif args[0] == "--conc":
            concs = [int(x) for x in args[1].split(",")]
        args = args[2:]
    grundy = os.path.join(build, "grundy")
    tmp = tempfile.mkdtemp(prefix="match-bench.")
    try:
        print("game=%r games=%d, seconds wall, games/s" % (spec, games))
        for c in concs:
            el = run_match(grundy, spec, games, c, None)
            elo = run_match(grundy, spec, games, c,
                            os.path.join(tmp, "out.json"))
            plies = sum(g["plies"] for g in json.load(
                open(os.path.join(tmp, "out.json")))["games"])
            del_, n = run_daemon(build, tmp, spec, games, c)
            print("concurrency=%d match: %.2f s %.0f games/s "
                  "(%.0f moves/s); with --out: %.0f games/s; "
                  "grundyd+bots: %d games %.2f s %.0f games/s; "
                  "ratio %.1f" %
                  (c, el, games / el, plies / el, games / elo, n, del_,
                   n / del_, (games / el) / (n / del_)), flush=True)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
