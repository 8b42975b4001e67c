#!/usr/bin/env python3
"""sandbox-bench.py: the cost of `grundy match --sandbox` (issue 27):
games per second and CPU per ply of the runner (grundy match's own
process, from its final line) and of the whole run (the runner, bwrap and
the engines: the children's rusage), with and without --sandbox, in the
same run, alternating, the reference being the run without.  The engines
are grundyd's own (`grundy engine`, perfect play, answers in
microseconds), copied with the grundy binary into a directory of their own
so that the sandbox shows them nothing else.  Each engine starts once per
slot and plays every game of it, so the per-ply figures are the referee's
per-move cost of the sandbox (its stderr pipe in the poll, the limits'
counters read before each move is judged); the start of a sandbox (bwrap,
namespaces, seccomp, cgroups) is in the first games, and shows in the
total with few games (--games 10).

A benchmark, not a test: nothing is asserted.

Usage: sandbox-bench.py BUILDDIR [--games G] [--conc C] [--runs R]
                        [--game SPEC]
"""
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchutil import die  # noqa: E402


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(grundy, d, spec, games, conc, sandbox):
    """One run: (games/s, runner CPU us/ply, total CPU us/ply)."""
    out = os.path.join(d, "out.json")
    if os.path.exists(out):
        os.unlink(out)
    args = [grundy, "match", "--game", spec, "--random-starts", "--seed",
            "1", "--games", str(games), "--concurrency", str(conc),
            "--tc", "600000", "--quiet", "--out", out]
    for name in ("a", "b"):
        args += ["--engine", "cmd=./grundy", "arg=engine", "dir=" + d,
                 "name=" + name]
    if sandbox:
        args.append("--sandbox")
    c0 = children_cpu()
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    total = children_cpu() - c0
    if p.returncode != 0:
        die("sandbox-bench", "grundy match failed: %s" % p.stderr[-500:])
    own = None
    for line in p.stderr.splitlines():
        if "of CPU in grundy match itself" in line:
            own = float(line.split(", ")[1].split(" s of CPU")[0])
    with open(out) as f:
        g = json.load(f)
    plies = sum(x["plies"] for x in g["games"])
    if own is None or plies == 0 or len(g["games"]) != games:
        die("sandbox-bench", "unexpected run: %s" % p.stderr[-500:])
    return games / wall, own * 1e6 / plies, total * 1e6 / plies


def main():
    args = sys.argv[1:]
    if not args:
        die("sandbox-bench", __doc__.split("Usage: ")[1].strip())
    build = args.pop(0)
    games, conc, runs, spec = 400, 2, 5, "nim 20 20 20"
    while args:
        k, v = args[0], args[1]
        if k == "--games":
            games = int(v)
        elif k == "--conc":
            conc = int(v)
        elif k == "--runs":
            runs = int(v)
        elif k == "--game":
            spec = v
        else:
            die("sandbox-bench", "unknown option %s" % k)
        args = args[2:]
    d = tempfile.mkdtemp(prefix="sandbox-bench.")
    os.chmod(d, 0o755)      # under root a sandbox is a user of its own
    try:
        shutil.copy(os.path.join(build, "grundy"), d)
        grundy = os.path.join(d, "grundy")
        res = {False: [], True: []}
        for _ in range(runs):
            for sb in (False, True):
                res[sb].append(run(grundy, d, spec, games, conc, sb))
        print("sandbox-bench: %d games of '%s' at concurrency %d, %d runs "
              "each, alternating" % (games, spec, conc, runs))
        med = {}
        for sb in (False, True):
            cols = list(zip(*res[sb]))
            med[sb] = [statistics.median(c) for c in cols]
            print("  %-10s games/s %8.1f (%.1f-%.1f)  runner CPU/ply %6.1f "
                  "us (%.1f-%.1f)  total CPU/ply %7.1f us (%.1f-%.1f)" % (
                      "sandbox" if sb else "plain", med[sb][0],
                      min(cols[0]), max(cols[0]), med[sb][1], min(cols[1]),
                      max(cols[1]), med[sb][2], min(cols[2]), max(cols[2])))
        print("  ratio sandbox/plain: games/s %.2fx, runner CPU/ply %.2fx, "
              "total CPU/ply %.2fx" % (med[True][0] / med[False][0],
                                       med[True][1] / med[False][1],
                                       med[True][2] / med[False][2]))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
