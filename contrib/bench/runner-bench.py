#!/usr/bin/env python3
"""runner-bench.py: `grundy match`'s own CPU per ply against the floor a
match runner cannot beat (issue 28 §4), in one run: contrib/bench/relay,
a C program that relays one line per ply through two `cat` children.

Each round runs `grundy match` at concurrency 1 on GAME (nim 20 20 20)
with two `grundy engine` engines, and takes the runner's CPU from its
final line (getrusage RUSAGE_SELF: the engines are not counted) and the
plies from the --out file of an identical run that is not timed (the
engines are deterministic, the starts seeded); then the relay for
as many plies, and prints both per ply and their ratio.  Rounds
alternate so that load falls on both alike.  A benchmark, not a test:
nothing is asserted.

Usage: runner-bench.py BUILDDIR [--games G] [--rounds R] [--game SPEC]
                       [--random-starts]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchutil import die  # noqa: E402


def run_match(grundy, spec, games, random_starts, out=None):
    """One grundy match run: its own CPU seconds and, with out, the
    plies its --out file lists."""
    args = [grundy, "match", "--engine", "cmd=" + grundy, "arg=engine",
            "name=a", "--engine", "cmd=" + grundy, "arg=engine", "name=b",
            "--game", spec, "--seed", "1", "--games", str(games),
            "--concurrency", "1", "--tc", "600000", "--quiet"]
    if random_starts:
        args.append("--random-starts")
    if out is not None:
        args += ["--out", out]
        if os.path.exists(out):
            os.unlink(out)
    p = subprocess.run(args, capture_output=True, text=True)
    m = re.search(r"([0-9.]+) s of CPU", p.stderr)
    if p.returncode != 0 or m is None:
        die("runner-bench", "grundy match: %s" % p.stderr[-500:])
    if out is None:
        return float(m.group(1)), None
    with open(out) as f:
        return float(m.group(1)), sum(g["plies"] for g in
                                      json.load(f)["games"])


def run_relay(relay, plies):
    """The relay for plies plies: its own CPU seconds."""
    p = subprocess.run([relay, str(plies)], capture_output=True, text=True)
    m = re.search(r"([0-9.]+) s of CPU", p.stdout)
    if p.returncode != 0 or m is None:
        die("runner-bench", "relay: %s%s" % (p.stdout, p.stderr))
    return float(m.group(1))


def main():
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("-"):
        die("runner-bench", "usage: runner-bench.py BUILDDIR [--games G] "
            "[--rounds R] [--game SPEC] [--random-starts]")
    build = argv.pop(0)
    games, rounds, spec, rs = 1000, 5, "nim 20 20 20", False
    while argv:
        o = argv.pop(0)
        if o == "--random-starts":
            rs = True
        elif o in ("--games", "--rounds", "--game") and argv:
            v = argv.pop(0)
            if o == "--games":
                games = int(v)
            elif o == "--rounds":
                rounds = int(v)
            else:
                spec = v
        else:
            die("runner-bench", "unknown option %s" % o)
    grundy = os.path.join(build, "grundy")
    relay = os.path.join(build, "contrib", "bench", "relay")
    for p in (grundy, relay):
        if not os.access(p, os.X_OK):
            die("runner-bench", "%s: not built (make)" % p)
    print("runner CPU per ply: grundy match (concurrency 1, %s%s, %d games)"
          " against the relay floor" % (spec, ", random starts" if rs
                                         else "", games))
    print("%5s %8s %12s %12s %7s" % ("round", "plies", "match us/ply",
                                      "relay us/ply", "ratio"))
    ratios = []
    # The plies, from a run that is not timed: --out rewrites its whole
    # file after each game pair (BENCHMARKS.md §14), a cost that grows
    # with the games.  The engines are deterministic and the starts
    # seeded, so every run plays these same games.
    with tempfile.TemporaryDirectory(prefix="runner-bench.") as tmp:
        plies = run_match(grundy, spec, games, rs,
                          os.path.join(tmp, "out.json"))[1]
    for r in range(rounds):
        mcpu = run_match(grundy, spec, games, rs)[0]
        rcpu = run_relay(relay, plies)
        mu, ru = mcpu * 1e6 / plies, rcpu * 1e6 / plies
        ratios.append(mu / ru)
        print("%5d %8d %12.2f %12.2f %6.2fx" % (r + 1, plies, mu, ru,
                                                mu / ru))
    ratios.sort()
    print("ratio: median %.2fx, range %.2f-%.2fx over %d rounds"
          % (ratios[len(ratios) // 2], ratios[0], ratios[-1], rounds))


if __name__ == "__main__":
    main()
