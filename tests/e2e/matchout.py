#!/usr/bin/env python3
"""matchout.py: grundy match's --out file (issue 10): each pairing carries
the results JSON's members (score, an elo object, pentanomial, pair_elo;
PROTOCOL.md §14.3), and --resume still reads a file written before that
change (tests/e2e/match-v1.json: version 1, top-level Elo members).

Usage: matchout.py BUILDDIR SRCDIR (TAP on stdout, through
tests/py-run.sh).
"""
import json
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


def match(args):
    p = subprocess.run([GRUNDY, "match"] + args, capture_output=True,
                       text=True, timeout=60, env=ENV)
    check("no sanitizer report", "Sanitizer" not in p.stderr and
          "runtime error:" not in p.stderr, p.stderr[-2000:])
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
    rc, se = match(["--engine", "cmd=" + PERFECT, "name=perfect",
                    "--engine", "cmd=" + RANDOM, "name=random",
                    "--game", "nim 3 4 5", "--games", "2", "--seed", "11",
                    "--out", out, "--quiet"])
    check("exit 0", rc == 0, se[-1000:])
    p = load(out)["pairings"][0]
    check("perfect sweeps random", p["wins"] == 2, json.dumps(p))
    check("elo inf, lo inf, zero variance", p["elo"]["elo"] == "inf" and
          p["elo"]["lo"] == "inf" and p["elo"]["zero_variance"] and
          p["pair_elo"]["elo"] == "inf", json.dumps(p))


sys.exit(run([test_resume_old_file, test_shape, test_sweep]))
