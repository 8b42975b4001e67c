#!/usr/bin/env python3
"""hosted-bench.py: what freezing a hosted bot's program off its turn
costs `grundy bot --sandbox` (issue 27: no pondering; a bot without
--sandbox is never frozen), against `grundy bot --sandbox --ponder` as the reference, in the same run on the same
grundyd (log on tmpfs), with the same instant engine (`grundy engine`)
and the same games (`nim 20 20 20`, random starts, one pair of bots
seeking its own tc).  Each mode also runs with GRUNDY_PTREE=process-group
(no cgroup: the tree's members found by a walk of /proc, stopped with
SIGSTOP).

Per ply of the games: the system calls of one of the two grundy bot
processes (strace -c on it alone, not its program: a count, not a time,
so the machine's load does not move it), and the CPU time of both bots
with their programs (wait4's rusage: the bot and the program it reaped).
Best of --runs runs of each mode; ratios to --ponder of the same tree
mode.  A benchmark: nothing is asserted.

Usage: hosted-bench.py BUILDDIR [--games G] [--runs R]
"""
import importlib.util
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchutil import die  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "match_bench", os.path.join(HERE, "match-bench.py"))
mb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mb)


def run(build, tmp, games, ponder, env, n):
    """One run: (syscalls of bot A per ply, CPU s of both bots and their
    programs per ply, plies)."""
    grundy = os.path.join(build, "grundy")
    portfile = os.path.join(tmp, "port%d" % n)
    db = os.path.join(tmp, "g%d.db" % n)
    log = open(os.path.join(tmp, "log"), "a")
    d = subprocess.Popen([os.path.join(build, "grundyd"), "--listen",
                          "127.0.0.1:0", "--port-file", portfile, "--db",
                          db, "--register-rate", "0"], stdout=log,
                         stderr=log)
    try:
        mb.wait_file(portfile)
        port = int(open(portfile).read())
        trace = os.path.join(tmp, "strace%d" % n)
        procs = []
        for i in range(2):
            argv = [grundy, "bot", "--server", "127.0.0.1:%d" % port,
                    "--name", "hb%d_%d" % (n, i), "--password",
                    "benchpass1", "--register", "--no-ready", "--seek",
                    "nim 20 20 20 tc=600000 rated=0 random=1", "--games",
                    str(games), "--sandbox"] + \
                (["--ponder"] if ponder else []) + \
                ["--", grundy, "engine"]
            if i == 0:
                argv = ["strace", "-c", "-o", trace] + argv
            procs.append(subprocess.Popen(argv, stdout=log, stderr=log,
                                          env=env))
        cpu = 0.0
        for p in procs:
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = status
            if status != 0:
                die("hosted-bench", "a grundy bot failed (see %s/log)" %
                    tmp)
            if p is not procs[0]:
                cpu += ru.ru_utime + ru.ru_stime
    finally:
        d.terminate()
        d.wait()
        log.close()
    con = sqlite3.connect(db)
    plies = con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    con.close()
    m = re.search(r"^\s*\S+\s+\S+\s+\S+\s+(\d+)\s+(?:\d+\s+)?total$",
                  open(trace).read(), re.M)
    if m is None or plies == 0:
        die("hosted-bench", "no strace total or no plies")
    # Bot B's CPU (bot A runs under strace) counts for both.
    return int(m.group(1)) / plies, 2 * cpu / plies, plies


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "."
    games, runs = 100, 3
    args = sys.argv[2:]
    while args:
        if args[0] == "--games":
            games = int(args[1])
        elif args[0] == "--runs":
            runs = int(args[1])
        args = args[2:]
    if shutil.which("strace") is None:
        die("hosted-bench", "needs strace")
    tmp = tempfile.mkdtemp(prefix="hosted-bench.",
                           dir="/dev/shm" if os.path.isdir("/dev/shm")
                           else None)
    n = 0
    try:
        with open("/proc/loadavg") as f:
            print("%d games a run, best of %d runs; load %s" %
                  (games, runs, f.read().split()[0]))
        print("%-34s %12s %7s %14s %7s" % ("mode", "syscalls/ply",
                                          "ratio", "bots' us/ply",
                                          "ratio"))
        for tree in ("default", "process-group"):
            env = dict(os.environ)
            if tree != "default":
                env["GRUNDY_PTREE"] = tree
            ref = None
            for ponder in (True, False):
                best = None
                for _ in range(runs):
                    n += 1
                    r = run(build, tmp, games, ponder, env, n)
                    best = r if best is None else \
                        (min(best[0], r[0]), min(best[1], r[1]), r[2])
                if ref is None:
                    ref = best
                label = "%s, %s" % ("--ponder" if ponder else "frozen "
                                    "off its turn", "tree " + tree)
                print("%-34s %12.1f %6.2fx %14.1f %6.2fx" %
                      (label, best[0], best[0] / ref[0], best[1] * 1e6,
                       best[1] / ref[1]), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
