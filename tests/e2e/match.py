#!/usr/bin/env python3
"""match.py: end-to-end tests of `grundy match` (issue 14 §4): the contrib
bots under the SPRT, misbehaving engines (crash, hang, illegal move, slow
start) that cost games and never the run, an interrupted run (SIGINT)
that prints its partial results and resumes to the exact total, the
engines file, adjudication by the solver, and the records.

Usage: match.py BUILDDIR SRCDIR (TAP on stdout, through tests/py-run.sh).
"""
import json
import os
import signal
import subprocess
import sys

from e2e import *

PERFECT = os.path.join(SRC, "contrib", "bots", "bot-perfect")
RANDOM = os.path.join(SRC, "contrib", "bots", "bot-random.py")
BAD = os.path.join(SRC, "tests", "e2e", "match-bad.py")
ENV = dict(os.environ, GRUNDY=GRUNDY)


def match(args, timeout=60):
    """Runs grundy match to its end; returns (status, stdout, stderr)."""
    p = subprocess.run([GRUNDY, "match"] + args, capture_output=True,
                       text=True, timeout=timeout, env=ENV)
    if "Sanitizer" in p.stderr or "runtime error:" in p.stderr:
        check("no sanitizer report from grundy match", False, p.stderr)
    return p.returncode, p.stdout, p.stderr


def load(path):
    with open(path) as f:
        return json.load(f)


def bad(mode, n, name="bad"):
    return ["--engine", "cmd=" + BAD, "arg=" + GRUNDY, "arg=" + mode,
            "arg=%d" % n, "name=" + name]


PERFECT_ENGINE = ["--engine", "cmd=" + PERFECT, "name=perfect"]
RANDOM_ENGINE = ["--engine", "cmd=" + RANDOM, "name=random"]


def test_sprt_h1():
    """perfect against random accepts H1, and stops there."""
    out = os.path.join(TMP, "sprt.json")
    rc, so, se = match(PERFECT_ENGINE + RANDOM_ENGINE +
                       ["--game", "nim 20 20 20", "--random-starts",
                        "--seed", "7", "--games", "2000",
                        "--concurrency", "4", "--tc", "5000+50",
                        "--sprt", "elo0=0,elo1=10", "--out", out,
                        "--records", os.path.join(TMP, "records-sprt")])
    check("exit 0", rc == 0, se[-2000:])
    d = load(out)
    pr = d["pairings"][0]
    check("H1 accepted", pr["sprt"]["verdict"] == "H1", json.dumps(pr))
    check("stopped well before 2000 games", d["played"] < 400,
          d["played"])
    check("LLR at or above the upper bound",
          pr["sprt"]["llr"] >= pr["sprt"]["upper"], json.dumps(pr))
    check("the table says so", "H1 accepted" in so, so)
    check("progress lines with LLR", "LLR" in se and "match: games" in se,
          se[-500:])
    # Every game is counted once; pairs are the same start, seats swapped.
    games = d["games"]
    check("played = games listed", d["played"] == len(games))
    byi = {g["game"]: g for g in games}
    check("game indices unique", len(byi) == len(games))
    paired = [(byi[i], byi[i + 1]) for i in range(0, 4000, 2)
              if i in byi and i + 1 in byi]
    check("pairs share a start, seats swapped",
          all(a["start"] == b["start"] and a["first"] == b["second"]
              for a, b in paired) and len(paired) > 0)
    ww = sum(1 for a, b in paired
             if a["first"] == "perfect" and a["result"] == "first"
             and b["result"] == "second")
    check("pentanomial counts from the games",
          pr["pentanomial"]["ww"] == ww and
          pr["pentanomial"]["pairs"] == len(paired),
          "%r %d %d" % (pr["pentanomial"], ww, len(paired)))
    # Random moving first from a won start may play it out perfectly by
    # chance: perfect loses only a game whose start was lost for it.
    def nimsum(start):
        x = 0
        for v in start.split()[1:]:
            x ^= int(v)
        return x
    lost = [g for g in games if g["result"] in ("first", "second") and
            g[g["result"]] != "perfect"]
    check("perfect loses only from a lost start",
          all((nimsum(g["start"]) == 0) == (g["first"] == "perfect")
              for g in lost), json.dumps(lost))
    check("its losses are counted", pr["losses"] == len(lost),
          "%d %d" % (pr["losses"], len(lost)))
    verify_records(os.path.join(TMP, "records-sprt"), d["played"], "sprt")


def misbehave(mode, n, reason, extra=(), tampers=()):
    out = os.path.join(TMP, "bad-%s.json" % mode)
    rec = os.path.join(TMP, "records-%s" % mode)
    rc, so, se = match(PERFECT_ENGINE + bad(mode, n) +
                       ["--game", "nim 3 4 5", "--games", "6",
                        "--concurrency", "2", "--out", out,
                        "--records", rec] + list(extra))
    check("%s: exit 0" % mode, rc == 0, se[-2000:])
    d = load(out)
    games = d["games"]
    check("%s: every game played" % mode, len(games) == 6 and
          d["played"] == 6 and d["finished"], json.dumps(d)[:1000])
    lost = [g for g in games if g["reason"] == reason and
            g["result"] == ("first" if g["second"] == "bad" else "second")]
    check("%s: each game lost by %s" % (mode, reason), len(lost) == 6,
          json.dumps(games)[:2000])
    eng = [e for e in d["engines"] if e["name"] == "bad"][0]
    check("%s: restarted for each game" % mode, eng["starts"] == 6,
          json.dumps(eng))
    verify_records(rec, 6, mode, tampers)
    return d


def test_crash():
    d = misbehave("crash", 2, "crash", tampers=[
        (lambda r: r.replace("status 3", "status 256"),
         "crash needs its detail"),
        (lambda r: "result - " + r.split(" ", 2)[2], "crash has a winner")])
    check("crash: the exit status is in the detail",
          all(g.get("detail") == "exited with status 3"
              for g in d["games"]), json.dumps(d["games"])[:1000])
    check("crash: counted", d["engines"][1]["crashes"] == 6)


def test_hang():
    d = misbehave("hang", 1, "timeout", ["--tc", "1000", "--grace", "50"],
                  [(flip, "wrong result: player ")])
    check("hang: counted", d["engines"][1]["timeouts"] == 6)


def test_illegal():
    d = misbehave("illegal", 1, "illegal-move")
    check("illegal: the move and why",
          all(g["detail"].startswith('"9=1" ') for g in d["games"]),
          json.dumps(d["games"])[:1000])


def test_slow_start():
    misbehave("slow", 1, "start-timeout", ["--start-timeout", "2000"],
              [(lambda r: r + " late", "start-timeout has no detail"),
               (lambda r: r.replace("start-", "slow-"),
                "unknown reason slow-timeout")])
    out = os.path.join(TMP, "bad-both.json")
    rc, so, se = match(bad("slow", 1, "slow1") + bad("slow", 1, "slow2") +
                       ["--game", "nim 3 4 5", "--games", "2",
                        "--concurrency", "2", "--start-timeout", "300",
                        "--out", out, "--records",
                        os.path.join(TMP, "records-both")])
    check("both slow: exit 0", rc == 0, se[-1000:])
    d = load(out)
    check("both slow: each game a draw by start-timeout",
          [(g["result"], g["reason"]) for g in d["games"]] ==
          [("draw", "start-timeout")] * 2, d["games"])
    pr = d["pairings"][0]
    check("both slow: one DD pair", pr["draws"] == 2 and
          pr["pentanomial"]["dd"] == 1, json.dumps(pr))
    verify_records(os.path.join(TMP, "records-both"), 2, "both slow")


def test_resume():
    """SIGINT prints the results so far; --resume plays exactly the rest."""
    out = os.path.join(TMP, "resume.json")
    args = (PERFECT_ENGINE + ["--engine", "cmd=" + RANDOM,
                              "arg=--think-ms", "arg=20", "name=random"] +
            ["--game", "nim 20 20 20", "--random-starts", "--seed", "3",
             "--games", "40", "--concurrency", "2", "--tc", "5000",
             "--out", out])
    p = subprocess.Popen([GRUNDY, "match"] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV)
    PROCS.append(p)

    def played():
        try:
            return load(out)["played"]
        except (OSError, ValueError):
            return 0
    check("some games played", wait_for(lambda: played() >= 6, 30))
    p.send_signal(signal.SIGINT)
    so, se = p.communicate(timeout=30)
    check("exit 130", p.returncode == 130, se[-1000:])
    check("no sanitizer report", "Sanitizer" not in se and
          "runtime error:" not in se, se[-2000:])
    first = load(out)
    n = first["played"]
    check("partial results printed",
          "Interrupted after %d of 40 games" % n in so, so)
    check("not finished", not first["finished"] and 6 <= n < 40, n)
    rc, so, se = match(args + ["--resume"])
    check("resumed run exit 0", rc == 0, se[-1000:])
    d = load(out)
    idx = sorted(g["game"] for g in d["games"])
    check("exactly 40 games, each once", idx == list(range(40)) and
          d["played"] == 40 and d["finished"], idx)
    old = {g["game"]: g for g in first["games"]}
    new = {g["game"]: g for g in d["games"]}
    check("games of the first run kept", all(new[i] == old[i] for i in old))
    check("the same starts (seeded)",
          all(new[i]["start"] == new[i ^ 1]["start"] for i in new))
    check("the table counts all 40", "Results after 40 of 40 games" in so,
          so)
    rc, so, se = match(args[:-2] + ["--out", out, "--resume", "--seed",
                                    "4"])
    check("resume with another seed refused",
          rc == 2 and "another --seed" in se, se)


def test_engines_file():
    path = os.path.join(TMP, "engines.json")
    with open(path, "w") as f:
        json.dump([{"name": "perfect", "command": PERFECT + " "},
                   {"name": "rnd", "cmd": RANDOM, "args": ["--think-ms",
                                                           "0"],
                    "options": {"BOT_SEED": "5"}}], f)
    out = os.path.join(TMP, "engines.json.out")
    rc, so, se = match(["--engines", path, "--engine", "conf=perfect",
                        "--engine", "conf=rnd", "--game", "nim 3 4 5",
                        "--games", "4", "--out", out])
    check("runs from the file", rc == 0, se[-1000:])
    d = load(out)
    check("the file's names", d["config"]["engines"] == ["perfect", "rnd"],
          d["config"])
    check("all games played", d["played"] == 4)
    rc, so, se = match(["--engines", path, "--engine", "conf=nobody",
                        "--engine", "conf=rnd", "--game", "nim 3 4 5"])
    check("an unknown name refused",
          rc == 2 and "conf=nobody: no such engine" in se, se)
    with open(path, "w") as f:
        f.write('[{"name": "x", "cmd": "y"},]')
    rc, so, se = match(["--engines", path, "--engine", "conf=x",
                        "--engine", "conf=x", "--game", "nim 3 4 5"])
    check("a bad file refused with where", rc == 2 and "byte" in se, se)
    rc, so, se = match(["--engine", "cmd=" + os.path.join(TMP, "nothing"),
                        "--engine", "cmd=" + PERFECT, "--game", "nim 3 4 5"])
    check("a program that cannot run refused",
          rc == 2 and "not an executable program" in se, se)


def test_round_robin():
    """Three engines: every pair of them plays its game pairs."""
    out = os.path.join(TMP, "rr.json")
    rc, so, se = match(PERFECT_ENGINE + RANDOM_ENGINE +
                       ["--engine", "cmd=" + RANDOM, "name=random2",
                        "--game", "nim 3 4 5", "--games", "12",
                        "--concurrency", "3", "--out", out])
    check("exit 0", rc == 0, se[-1000:])
    d = load(out)
    got = [(p["a"], p["b"], p["games"], p["pentanomial"]["pairs"])
           for p in d["pairings"]]
    check("three pairings of two pairs each",
          got == [("perfect", "random", 4, 2), ("perfect", "random2", 4, 2),
                  ("random", "random2", 4, 2)], got)
    for p in d["pairings"]:
        mine = [g for g in d["games"] if {g["first"], g["second"]} ==
                {p["a"], p["b"]}]
        wins = sum(1 for g in mine if g[g["result"]] == p["a"])
        check("%s-%s: wins counted from its games" % (p["a"], p["b"]),
              len(mine) == 4 and wins == p["wins"] and
              p["wins"] + p["losses"] == 4, json.dumps(p))


def test_no_blocking():
    """A hung engine holds only its own games: with all six games of
    three engines at once, the two games without it end first, while the
    hung ones wait for their clocks (the output lists games as they
    end)."""
    out = os.path.join(TMP, "noblock.json")
    # The hung engine first: its games come first in the schedule.
    rc, so, se = match(bad("hang", 1) + PERFECT_ENGINE + RANDOM_ENGINE +
                       ["--game", "nim 3 4 5", "--games", "6",
                        "--concurrency", "6", "--tc", "3000",
                        "--grace", "50", "--out", out])
    check("exit 0", rc == 0, se[-1000:])
    d = load(out)
    order = [(g["first"], g["second"]) for g in d["games"]]
    check("the games without the hung engine end first",
          sorted(order[:2]) == [("perfect", "random"),
                                ("random", "perfect")], order)
    check("the hung engine loses its four games on time",
          sum(1 for g in d["games"] if g["reason"] == "timeout" and
              "bad" in (g["first"], g["second"])) == 4, d["games"])


def test_one_at_a_time():
    """At concurrency 1 the loop waits in a read on the mover's pipe
    (mg_wait): a hung mover still loses on time (its timer), and an
    engine that ends off move still loses at once by crash, not when the
    hung mover's 30 s have run out."""
    d = misbehave("hang", 1, "timeout", ["--tc", "1000", "--grace", "50",
                                         "--concurrency", "1"])
    check("hang at concurrency 1: counted",
          d["engines"][1]["timeouts"] == 6)
    out = os.path.join(TMP, "quit.json")
    rc, so, se = match(bad("quit", 1, "quitter") + bad("hang", 1, "hanger") +
                       ["--game", "nim 3 4 5", "--games", "1",
                        "--concurrency", "1", "--tc", "30000",
                        "--out", out], timeout=120)
    check("quit off move: exit 0", rc == 0, se[-1000:])
    g = load(out)["games"]
    check("quit off move: lost by crash while the other thinks",
          [(x["first"], x["result"], x["reason"], x.get("detail"))
           for x in g] ==
          [("quitter", "second", "crash", "exited with status 3")], g)


def flip(line):
    """The result line with the other seat winning."""
    w = line.split(" ")
    w[1] = {"first": "second", "second": "first"}.get(w[1], w[1])
    return " ".join(w)


def verify_records(rec, n, what, tampers=()):
    """Every record of the run passes grundy verify; each tamper (a function
    of the result line, and the verdict it must give) is caught there."""
    bad = []
    for i in range(1, n + 1):
        path = os.path.join(rec, "game-%06d.grec" % i)
        p = subprocess.run([GRUNDY, "verify", path],
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            bad.append((i, p.stdout + p.stderr))
        with open(path) as f:
            lines = f.read().split("\n")
        k = [j for j, ln in enumerate(lines) if ln.startswith("result ")][0]
        for edit, want in tampers:
            t = list(lines)
            t[k] = edit(t[k])
            with open(path + ".t", "w") as f:
                f.write("\n".join(t))
            p = subprocess.run([GRUNDY, "verify", path + ".t"],
                               capture_output=True, text=True, timeout=30)
            if p.returncode != 1 or not p.stdout.startswith(
                    "%s.t:%d: %s" % (path, k + 1, want)):
                bad.append((i, t[k], p.stdout + p.stderr))
    check("%s: grundy verify accepts all %d records%s" % (
        what, n, ", and catches %d edits of each" % len(tampers)
        if tampers else ""), not bad, repr(bad)[:2000])


def test_adjudicate():
    out = os.path.join(TMP, "adj.json")
    rec = os.path.join(TMP, "records")
    rc, so, se = match(PERFECT_ENGINE + RANDOM_ENGINE +
                       ["--game", "nim 20 20 20", "--games", "6",
                        "--adjudicate", "2", "--records", rec,
                        "--out", out])
    check("exit 0", rc == 0, se[-1000:])
    d = load(out)
    games = d["games"]
    check("every game adjudicated after 2 plies",
          all(g["reason"] == "adjudicated" and g["plies"] == 2
              for g in games), json.dumps(games)[:1000])
    check("perfect moving first always wins",
          all(g["result"] == "first" for g in games
              if g["first"] == "perfect"))
    for g in games:
        path = os.path.join(rec, "game-%06d.grec" % (g["game"] + 1))
        with open(path) as f:
            lines = f.read().splitlines()
        moves = [ln.split()[6] for ln in lines if ln.startswith("move ")]
        piles = [int(x) for x in g["start"].split()[1:]]
        for mv in moves:
            i, v = (int(x) for x in mv.split("="))
            piles[i - 1] = v
        x = 0
        for v in piles:
            x ^= v
        # After 2 plies seat 1 moves: it wins iff the nim-sum is not 0.
        want = "first" if x != 0 else "second"
        check("game %d: the solver's winner" % g["game"],
              g["result"] == want and len(moves) == 2,
              "%r %r %r" % (g, moves, piles))
    verify_records(rec, 6, "adjudicated", [
        (flip, "wrong result: player 1 to move after ply 2 "),
        (lambda r: r.replace("ply 2", "ply 1"),
         "wrong result: adjudicated at ply 1, the game has 2 moves")])


sys.exit(run([test_sprt_h1, test_crash, test_hang, test_illegal,
              test_slow_start, test_resume, test_engines_file,
              test_adjudicate, test_round_robin, test_no_blocking,
              test_one_at_a_time]))
