#!/usr/bin/env python3
"""cpuclock-bench.py: the runner's own CPU time per ply of `grundy match`
(issue 27 §2, §4) with CPU-time clocks (`--tc 'BASE clock=cpu'`: each
move's tree CPU read before and after, the engine not on move frozen and
thawed) against wall clocks (each move's cost still measured: CPU and peak
memory), with instant engines (`grundy engine`, perfect play), all in one
run: the modes alternate for --rounds rounds and the best of each is
printed, with its ratio to the wall clock's.  Each mode also runs with
GRUNDY_PTREE=process-group (no cgroup: the tree found by a walk of /proc).
With --ref GRUNDY (a build without the measurement, such as main's before
issue 27) its wall-clock figure is the reference of the ratios instead.

The runner's CPU is its final line ("s of CPU in grundy match itself");
plies come from its --out file.  A benchmark, not a test: nothing is
asserted.

Usage: cpuclock-bench.py BUILDDIR [--games G] [--rounds R] [--game SPEC]
                         [--ref GRUNDY]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchutil import die  # noqa: E402


def run(grundy, engine, spec, games, tc, env, out):
    """One run: (runner CPU seconds, plies, wall seconds)."""
    args = [grundy, "match", "--engine", "cmd=" + engine, "arg=engine",
            "name=a", "--engine", "cmd=" + engine, "arg=engine", "name=b",
            "--game", spec, "--random-starts", "--seed", "1",
            "--games", str(games), "--tc", tc, "--quiet", "--out", out]
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    m = re.search(r"in ([0-9.]+) s, ([0-9.]+) s of CPU", p.stderr)
    if p.returncode != 0 or m is None:
        die("cpuclock-bench", "grundy match: %s" % p.stderr[-500:])
    with open(out) as f:
        plies = sum(g["plies"] for g in json.load(f)["games"])
    return float(m.group(2)), plies, float(m.group(1))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "."
    games, rounds, spec, ref = 400, 3, "nim 20 20 20", None
    args = sys.argv[2:]
    while args:
        if args[0] == "--games":
            games = int(args[1])
        elif args[0] == "--rounds":
            rounds = int(args[1])
        elif args[0] == "--game":
            spec = args[1]
        elif args[0] == "--ref":
            ref = args[1]
        args = args[2:]
    grundy = os.path.abspath(os.path.join(build, "grundy"))
    tmp = tempfile.mkdtemp(prefix="cpuclock-bench.")
    pg = dict(os.environ, GRUNDY_PTREE="process-group")
    modes = [("wall clock", grundy, "600000", os.environ),
             ("clock=cpu", grundy, "600000 clock=cpu", os.environ),
             ("wall clock, process group", grundy, "600000", pg),
             ("clock=cpu, process group", grundy, "600000 clock=cpu", pg)]
    if ref is not None:
        # A copy: the reference build may be rebuilt during the run.
        shutil.copy(ref, os.path.join(tmp, "grundy-ref"))
        modes.insert(0, ("reference, wall clock",
                         os.path.join(tmp, "grundy-ref"), "600000",
                         os.environ))
    best = {}
    try:
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        for _ in range(rounds):
            for name, g, tc, env in modes:
                cpu, plies, wall = run(g, grundy, spec, games, tc, env,
                                       os.path.join(tmp, "out.json"))
                us = cpu / plies * 1e6
                if name not in best or us < best[name][0]:
                    best[name] = (us, plies, wall)
        base = best[modes[0][0]][0]
        print("game=%r, %d games, random starts, instant engines (grundy "
              "engine); best of %d rounds; load %s; runner CPU per ply "
              "(grundy match itself), ratio to %s" %
              (spec, games, rounds, load, modes[0][0]))
        for name, _, _, _ in modes:
            us, plies, wall = best[name]
            print("  %-28s %7.1f us/ply  %5.2fx  (%d plies, %.2f s)" %
                  (name, us, us / base, plies, wall))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
