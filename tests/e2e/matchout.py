#!/usr/bin/env python3
"""matchout.py: grundy match's --out file (issue 10): each pairing carries
the results JSON's members (score, an elo object, pentanomial, pair_elo;
PROTOCOL.md §14.3), and --resume still reads a file written before that
change (tests/e2e/match-v1.json: version 1, top-level Elo members);
and the report on stdout (issue 26 §4): the pentanomial in five buckets,
nElo +- by the delta method, draw and pair ratios, per-seat results, moves
and time per move agreeing with the file, no "sweep" for an even match of
zero variance, and the progress lines every --report-every pairs.

Usage: matchout.py BUILDDIR SRCDIR (TAP on stdout, through
tests/py-run.sh).
"""
import json
import math
import os
import shutil
import subprocess
import sys

from e2e import *

PERFECT = os.path.join(SRC, "contrib", "bots", "bot-perfect")
RANDOM = os.path.join(SRC, "contrib", "bots", "bot-random.py")
ENV = dict(os.environ, GRUNDY=GRUNDY)
# The run that wrote tests/e2e/match-v1.json (4 of its 6 games played).
ARGS = ["--engine", "cmd=" + PERFECT, "name=perfect",
        "--engine", "cmd=" + RANDOM, "name=random",
        "--game", "nim 3 4 5", "--games", "6", "--seed", "11", "--quiet"]
PAIR_KEYS = ["a", "b", "games", "wins", "losses", "draws", "score", "elo",
             "pentanomial", "pair_elo", "points"]
ESTIMATE_KEYS = ["elo", "lo", "hi", "err", "los", "zero_variance"]
PENTA_KEYS = ["pairs", "ll", "ld", "wl", "dd", "wd", "ww", "unpaired"]


def match(args, want_stdout=False):
    p = subprocess.run([GRUNDY, "match"] + args, capture_output=True,
                       text=True, timeout=120, env=ENV)
    check("no sanitizer report", "Sanitizer" not in p.stderr and
          "runtime error:" not in p.stderr, p.stderr[-2000:])
    if want_stdout:
        return p.returncode, p.stdout, p.stderr
    return p.returncode, p.stderr


def load(path):
    with open(path) as f:
        return json.load(f)


def test_resume_old_file():
    """A version 1 file, from before the shared shape, resumes."""
    out = os.path.join(TMP, "old.json")
    shutil.copy(os.path.join(SRC, "tests", "e2e", "match-v1.json"), out)
    old = load(out)
    check("the old file has the old shape", old["version"] == 1 and
          "elo_err" in old["pairings"][0] and old["played"] == 4)
    rc, se = match(ARGS + ["--out", out, "--resume"])
    check("resumed run exit 0", rc == 0, se[-1000:])
    d = load(out)
    idx = sorted(g["game"] for g in d["games"])
    check("the 4 games of the old file and 2 more", idx == list(range(6))
          and d["played"] == 6 and d["finished"], idx)
    new = {g["game"]: g for g in d["games"]}
    check("the old file's games kept as they were",
          all(new[g["game"]] == g for g in old["games"]))
    check("rewritten as version 2", d["version"] == 2, d["version"])
    p = d["pairings"][0]
    check("the pairing counts all 6 games", p["games"] == 6 and
          p["wins"] + p["losses"] + p["draws"] == 6 and
          p["pentanomial"]["pairs"] == 3, json.dumps(p))
    # The old file's games have no think_us: only the 2 new games' moves
    # are timed.
    timed = [g for g in d["games"] if "think_us" in g]
    check("only the new games carry think_us",
          sorted(g["game"] for g in timed) ==
          sorted(set(range(6)) - set(old_g["game"]
                                     for old_g in old["games"])),
          json.dumps(d["games"]))
    moves = sum(e["timed_moves"] for e in d["engines"])
    check("the engines' timed moves are the new games' plies",
          moves == sum(g["plies"] for g in timed), json.dumps(d["engines"]))


def test_shape():
    """The pairing has the results JSON's members, in its order and
    formats: one decimal Elo figures, "inf" for a clean sweep."""
    out = os.path.join(TMP, "shape.json")
    rc, se = match(["--engine", "cmd=" + PERFECT, "name=p1",
                    "--engine", "cmd=" + PERFECT, "name=p2",
                    "--game", "nim 3 4 5", "--games", "4", "--out", out,
                    "--sprt", "elo0=0,elo1=10", "--quiet"])
    check("exit 0", rc == 0, se[-1000:])
    with open(out) as f:
        text = f.read()
    d = json.loads(text)
    p = d["pairings"][0]
    check("the members in the results JSON's order, then points and sprt",
          list(p) == PAIR_KEYS + ["sprt"], list(p))
    check("elo and pair_elo are estimates",
          list(p["elo"]) == ESTIMATE_KEYS and
          list(p["pair_elo"]) == ESTIMATE_KEYS, json.dumps(p))
    check("pentanomial counts", list(p["pentanomial"]) == PENTA_KEYS,
          json.dumps(p))
    # nim 3 4 5 is won by the first player: perfect against perfect, each
    # pair is one win each (wl), an even score with no variance.
    check("an even pairing", p["wins"] == 2 and p["losses"] == 2 and
          p["pentanomial"]["wl"] == 2 and p["score"] == 0.5,
          json.dumps(p))
    check("formats: score 4 decimals, elo 1 decimal, los 4 decimals",
          '"score":0.5000,"elo":{"elo":0.0,"lo":-798.1,"hi":798.1,'
          '"err":798.1,"los":0.5000,"zero_variance":false}' in text and
          '"pair_elo":{"elo":0.0,"lo":0.0,"hi":0.0,"err":0.0,'
          '"los":0.5000,"zero_variance":true},"points":2.0000,' in text,
          text[:1500])


def test_sweep():
    """A clean sweep's Elo is "inf", as in the results JSON."""
    out = os.path.join(TMP, "sweep.json")
    # The random player seeded (BOT_SEED), so that it never finds the one
    # winning first move of nim 3 4 5 by chance (1 in 12 unseeded).
    rc, se = match(["--engine", "cmd=" + PERFECT, "name=perfect",
                    "--engine", "cmd=" + RANDOM, "name=random",
                    "option.BOT_SEED=1",
                    "--game", "nim 3 4 5", "--games", "2", "--seed", "11",
                    "--out", out, "--quiet"])
    check("exit 0", rc == 0, se[-1000:])
    p = load(out)["pairings"][0]
    check("perfect sweeps random", p["wins"] == 2, json.dumps(p))
    check("elo inf, lo inf, zero variance", p["elo"]["elo"] == "inf" and
          p["elo"]["lo"] == "inf" and p["elo"]["zero_variance"] and
          p["pair_elo"]["elo"] == "inf", json.dumps(p))


def nelo_delta(pen):
    """nElo and its +/- from pentanomial counts, by the delta method
    (fishtest's sensitivity_conf), written apart from matchstat.c."""
    a = [0, 0.25, 0.5, 0.75, 1]
    c = [pen["ll"], pen["ld"], pen["wl"] + pen["dd"], pen["wd"], pen["ww"]]
    n = sum(c)
    p = [x / n for x in c]
    s = sum(x * q for x, q in zip(a, p))
    v = sum(q * (x - s) ** 2 for x, q in zip(a, p))
    m3 = sum(q * (x - s) ** 3 for x, q in zip(a, p))
    m4 = sum(q * (x - s) ** 4 for x, q in zip(a, p))
    t = (s - 0.5) / v ** 0.5
    vt = 1 - t * m3 / v ** 1.5 + 0.25 * t * t * (m4 / v ** 2 - 1)
    k = 800 / math.log(10) / math.sqrt(2)
    return t * k, 1.959963984540054 * (vt / n) ** 0.5 * k


def test_report():
    """The report on stdout: fastchess's five pentanomial buckets, nElo
    +- by the delta method, draw and pair ratios, per-seat results and
    the engines' moves and time per move, consistent with --out."""
    out = os.path.join(TMP, "report.json")
    # Two random players, each with a seed of its own (the moves are
    # reproducible at concurrency 1): not a sweep, so nElo has a spread.
    rc, so, se = match(["--engine", "cmd=" + RANDOM, "name=perfect",
                        "option.BOT_SEED=3",
                        "--engine", "cmd=" + RANDOM, "name=random",
                        "option.BOT_SEED=4",
                        "--game", "nim 9 9 9", "--random-starts",
                        "--games", "40", "--seed", "5", "--out", out,
                        "--quiet"], want_stdout=True)
    check("report run exit 0", rc == 0, se[-1000:])
    d = load(out)
    p = d["pairings"][0]
    pen = p["pentanomial"]
    check("the five buckets", "Ptnml(0-2) [LL LD WL+DD WD WW]: "
          "[%d %d %d %d %d] (WL %d, DD %d), %d unpaired" %
          (pen["ll"], pen["ld"], pen["wl"] + pen["dd"], pen["wd"],
           pen["ww"], pen["wl"], pen["dd"], pen["unpaired"]) in so, so)
    ne, err = nelo_delta(pen)
    check("nElo +- by the delta method",
          "nElo %.1f +/- %.1f" % (ne, err) in so, (ne, err, so))
    pr = (pen["ww"] + pen["wd"]) / (pen["ll"] + pen["ld"]) if \
        pen["ll"] + pen["ld"] else None
    check("pairs ratio", ("pairs ratio %.2f" % pr if pr is not None
                          else "pairs ratio inf") in so, so)
    check("draw ratio", "draw ratio %.1f%% of games" %
          (100.0 * p["draws"] / p["games"]) in so, so)
    first = [g for g in d["games"] if g["first"] == "perfect"]
    fw = sum(g["result"] == "first" for g in first)
    fl = sum(g["result"] == "second" for g in first)
    check("perfect's results in the first seat",
          "perfect first: games %d, W-L-D %d-%d-%d" %
          (len(first), fw, fl, len(first) - fw - fl) in so, so)
    second = [g for g in d["games"] if g["second"] == "perfect"]
    sw = sum(g["result"] == "second" for g in second)
    sl = sum(g["result"] == "first" for g in second)
    check("perfect's results in the second seat",
          "perfect second: games %d, W-L-D %d-%d-%d" %
          (len(second), sw, sl, len(second) - sw - sl) in so, so)
    for e in d["engines"]:
        n = e["name"]
        mv = sum((g["plies"] + 1) // 2 for g in d["games"]
                 if g["first"] == n) + \
            sum(g["plies"] // 2 for g in d["games"] if g["second"] == n)
        us = sum(g["think_us"][0] for g in d["games"] if g["first"] == n) + \
            sum(g["think_us"][1] for g in d["games"] if g["second"] == n)
        check("%s: moves and think time are the games'" % n,
              e["timed_moves"] == mv and e["think_us"] == us, (e, mv, us))
        head = [l.split() for l in so.splitlines()
                if l.startswith("engine ")][0]
        row = [l.split() for l in so.splitlines()
               if l.startswith(n + " ") and len(l.split()) == len(head)]
        check("%s: the table's moves and ms/move" % n,
              len(row) == 1 and row[0][head.index("moves")] == str(mv) and
              row[0][head.index("ms/move")] == "%.3f" % (us / 1000.0 / mv),
              (row, mv, us))
    check("the table's head", "ms/move" in so and "moves" in so, so)


def test_no_sweep_label():
    """An even match of zero variance (every pair won once each way) is
    no sweep; a clean sweep is."""
    rc, so, se = match(["--engine", "cmd=" + PERFECT, "name=p1",
                        "--engine", "cmd=" + PERFECT, "name=p2",
                        "--game", "nim 3 4 5", "--games", "4", "--quiet"],
                       want_stdout=True)
    check("even run exit 0", rc == 0, se[-1000:])
    check("even and zero variance: no spread, not a sweep",
          "sweep" not in so and "no spread (every pair scored 0.5)" in so,
          so)
    check("p1 wins as first, loses as second",
          "p1 first: games 2, W-L-D 2-0-0" in so and
          "p1 second: games 2, W-L-D 0-2-0" in so, so)
    rc, so, se = match(["--engine", "cmd=" + PERFECT, "name=perfect",
                        "--engine", "cmd=" + RANDOM, "name=random",
                        "option.BOT_SEED=1",
                        "--game", "nim 3 4 5", "--games", "2", "--seed",
                        "11", "--quiet"], want_stdout=True)
    check("a clean sweep is one", "Elo +inf: a sweep" in so, so)


def test_report_every():
    """A progress line every --report-every pairs (default 10) and one at
    the end; 0: only the end."""
    base = ["--engine", "cmd=" + PERFECT, "name=p1",
            "--engine", "cmd=" + PERFECT, "name=p2",
            "--game", "nim 3 4 5", "--games", "30"]
    for extra, want in [([], [20, 30]), (["--report-every", "4"],
                                         [8, 16, 24, 30]),
                        (["--report-every", "0"], [30]),
                        (["--report-every", "15"], [30])]:
        rc, se = match(base + extra)
        got = [int(l.split()[2].split("/")[0]) for l in se.splitlines()
               if l.startswith("match: games ")]
        check("progress lines %s: at %s games" % (extra, want),
              rc == 0 and got == want, (got, se[-1500:]))
        check("progress lines carry nElo and the pentanomial",
              all("nElo" in l and "ptnml [" in l for l in se.splitlines()
                  if l.startswith("match: games ")), se[-800:])


sys.exit(run([test_resume_old_file, test_shape, test_sweep, test_report,
              test_no_sweep_label, test_report_every]))
