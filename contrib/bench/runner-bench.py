#!/usr/bin/env python3
"""runner-bench.py: `grundy match`'s own CPU per ply against the floor a
match runner cannot beat (issue 28 §4), in one run: contrib/bench/relay,
a C program that relays one line per ply through two `cat` children.

Each round runs `grundy match` at concurrency 1 on GAME (nim 20 20 20)
with two `grundy engine` engines, and takes the runner's CPU from its
final line (getrusage RUSAGE_SELF: the engines are not counted) and the
plies from the --out file of an identical run that is not timed (the
engines are deterministic, the starts seeded); then the relay for
as many plies, and prints both per ply and their ratio.  The runner's
CPU per ply is marginal, as the relay's (its loop alone): a run of G
games less a run of 2 in the same round, over the plies between them,
so that what a run costs once (start-up, the engines' start and stop:
about 35 ms here, 2 µs a ply at 400 games) is not counted.  With --base
OLD, each round also runs OLD's grundy match (a build to compare with:
"before"), OLD's and this build's runners alternating with the relay.
Rounds alternate so that load falls on all alike.  A benchmark, not a
test: nothing is asserted.

--ptree MODE runs grundy match with GRUNDY_PTREE=MODE: "process-group"
holds an engine's tree without cgroups, where a move's CPU time and
memory are not read (what a user without cgroups gets): then the runner
does per ply what the relay does.  Without it, where cgroups can be made
(root), every move's cost is read from the engine's cgroup.

--counts first counts, once per build, what does not depend on the load:
syscalls per ply of the runner alone (strace -c, no -f) and of the
relay, and context switches per ply (perf stat --no-inherit).

Usage: runner-bench.py BUILDDIR [--base OLDBUILD] [--games G] [--rounds R]
                       [--game SPEC] [--random-starts] [--ptree MODE]
                       [--counts]
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


def match_args(grundy, spec, games, random_starts, out=None):
    """The command line of one grundy match run."""
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
    return args


def run_match(grundy, spec, games, random_starts, env, out=None):
    """One grundy match run: its own CPU seconds and, with out, the
    plies its --out file lists."""
    p = subprocess.run(match_args(grundy, spec, games, random_starts, out),
                       capture_output=True, text=True, env=env)
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


def counts(args, env, plies):
    """Syscalls per ply by name (strace -c of the process alone, not its
    children) and context switches per ply (perf stat --no-inherit)."""
    with tempfile.NamedTemporaryFile(prefix="runner-bench.") as t:
        subprocess.run(["strace", "-c", "-o", t.name] + args,
                       capture_output=True, env=env)
        sc = {}
        for line in open(t.name):
            w = line.split()
            if len(w) >= 5 and w[0][0].isdigit() and w[-1] != "total":
                sc[w[-1]] = int(w[3]) / plies
    p = subprocess.run(["perf", "stat", "--no-inherit", "-x,", "-e",
                        "context-switches"] + args, capture_output=True,
                       text=True, env=env)
    m = re.search(r"^([0-9]+),[^,]*,context-switches", p.stderr, re.M)
    cs = int(m.group(1)) / plies if m else float("nan")
    return sc, cs


def show_counts(name, sc, cs):
    top = sorted(((v, k) for k, v in sc.items() if v >= 0.01),
                 reverse=True)
    print("%-8s %6.2f syscalls/ply (%s); %.2f context switches/ply"
          % (name, sum(sc.values()), ", ".join("%s %.2f" % (k, v)
                                               for v, k in top), cs))


def med(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def main():
    argv = sys.argv[1:]
    usage = ("usage: runner-bench.py BUILDDIR [--base OLDBUILD] [--games G]"
             " [--rounds R] [--game SPEC] [--random-starts] [--ptree MODE]"
             " [--counts]")
    if not argv or argv[0].startswith("-"):
        die("runner-bench", usage)
    build = argv.pop(0)
    games, rounds, spec, rs = 1000, 5, "nim 20 20 20", False
    base, ptree, want_counts = None, None, False
    while argv:
        o = argv.pop(0)
        if o == "--random-starts":
            rs = True
        elif o == "--counts":
            want_counts = True
        elif o in ("--games", "--rounds", "--game", "--base",
                   "--ptree") and argv:
            v = argv.pop(0)
            if o == "--games":
                games = int(v)
            elif o == "--rounds":
                rounds = int(v)
            elif o == "--base":
                base = v
            elif o == "--ptree":
                ptree = v
            else:
                spec = v
        else:
            die("runner-bench", "unknown option %s; %s" % (o, usage))
    env = dict(os.environ)
    if ptree is not None:
        env["GRUNDY_PTREE"] = ptree
    builds = [("before", base)] if base is not None else []
    builds.append(("after" if base is not None else "match", build))
    relay = os.path.join(build, "contrib", "bench", "relay")
    for p in [os.path.join(b, "grundy") for _, b in builds] + [relay]:
        if not os.access(p, os.X_OK):
            die("runner-bench", "%s: not built (make)" % p)
    print("runner CPU per ply: grundy match (concurrency 1, %s%s, %d games,"
          " engine trees: %s) against the relay floor"
          % (spec, ", random starts" if rs else "", games,
             ptree or "default"))
    # The plies, from a run that is not timed: --out rewrites its whole
    # file after each game pair (BENCHMARKS.md §14), a cost that grows
    # with the games.  The engines are deterministic and the starts
    # seeded, so every run plays these same games.
    with tempfile.TemporaryDirectory(prefix="runner-bench.") as tmp:
        plies = run_match(os.path.join(build, "grundy"), spec, games, rs,
                          env, os.path.join(tmp, "out.json"))[1]
        plies0 = run_match(os.path.join(build, "grundy"), spec, 2, rs,
                           env, os.path.join(tmp, "out.json"))[1]
    if want_counts:
        if shutil.which("strace") is None or shutil.which("perf") is None:
            die("runner-bench", "--counts needs strace and perf")
        for name, b in builds:
            g = os.path.join(b, "grundy")
            show_counts(name, *counts(match_args(g, spec, games, rs), env,
                                      plies))
        show_counts("relay", *counts([relay, str(plies)], env, plies))
    print("%5s %8s %s %12s %s" % (
        "round", "plies", " ".join("%12s" % (n + " us/ply") for n, _ in
                                   builds),
        "relay us/ply", " ".join("%7s" % (n[:6] + "/r") for n, _ in
                                 builds)))
    mu = {n: [] for n, _ in builds}
    ru = []
    for r in range(rounds):
        for n, b in builds:
            g = os.path.join(b, "grundy")
            c0 = run_match(g, spec, 2, rs, env)[0]
            mu[n].append((run_match(g, spec, games, rs, env)[0] - c0) *
                         1e6 / (plies - plies0))
        ru.append(run_relay(relay, plies - plies0) * 1e6 / (plies - plies0))
        print("%5d %8d %s %12.2f %s" % (
            r + 1, plies, " ".join("%12.2f" % mu[n][-1] for n, _ in
                                   builds), ru[-1],
            " ".join("%6.2fx" % (mu[n][-1] / ru[-1]) for n, _ in builds)))
    print("relay: median %.2f, min %.2f us/ply" % (med(ru), min(ru)))
    for n, _ in builds:
        ratios = [a / b for a, b in zip(mu[n], ru)]
        print("%s: median %.2f, min %.2f us/ply; ratio to the relay: "
              "median %.2fx (range %.2f-%.2fx), of the minima %.2fx over %d "
              "rounds" % (n, med(mu[n]), min(mu[n]), med(ratios),
                          min(ratios), max(ratios), min(mu[n]) / min(ru),
                          rounds))


if __name__ == "__main__":
    main()
