#!/usr/bin/env python3
"""cpuclock.py: end-to-end tests of CPU-time clocks in `grundy match`
(issue 27 §2, §4): `--tc 'BASE+INC clock=cpu'` charges a move the CPU
time its engine's process tree used during the turn, freezes the engine
not on move (unless --ponder), and still bounds the wall time; every move's
wall time, CPU time and peak memory are in the record (cost lines, which
`grundy verify` checks), the --out JSON and the table.

The margins are wide on purpose: CPU time does not depend on the machine's
load, which is the point, but the windows around a turn (the runner
reading an answer, freezing, thawing) do.

Usage: cpuclock.py BUILDDIR SRCDIR (TAP on stdout, through tests/py-run.sh).
"""
import json
import os
import subprocess
import sys

from e2e import *

ENG = os.path.join(SRC, "tests", "e2e", "cpuclock-eng.py")
SPIN_MS = 300


def engine(name, mode, ms, log):
    return ["--engine", "cmd=" + ENG, "arg=" + mode, "arg=%d" % ms,
            "arg=" + log, "name=" + name]


def run_match(tag, engines, args, timeout=300):
    """Runs one game of grundy match; returns (rc, stdout, stderr, out
    JSON, the record's text)."""
    out = os.path.join(TMP, tag + ".json")
    rec = os.path.join(TMP, tag + "-records")
    p = subprocess.run([GRUNDY, "match"] + engines +
                       ["--game", "nim 5 6 7", "--games", "1",
                        "--out", out, "--records", rec] + args,
                       capture_output=True, text=True, timeout=timeout)
    if "Sanitizer" in p.stderr or "runtime error:" in p.stderr:
        check("no sanitizer report from grundy match", False, p.stderr)
    d = json.load(open(out)) if os.path.exists(out) else {}
    files = sorted(os.listdir(rec)) if os.path.isdir(rec) else []
    text = open(os.path.join(rec, files[0])).read() if files else ""
    return p.returncode, p.stdout, p.stderr, d, os.path.join(
        rec, files[0]) if files else None, text


def verify(path):
    p = subprocess.run([GRUNDY, "verify", path], capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def moves_and_costs(text):
    """{ply: (player, TIME_US)} and {ply: (wall, cpu, peak)} of a record."""
    moves, costs = {}, {}
    for line in text.splitlines():
        w = line.split()
        if w[0] == "move":
            moves[int(w[1])] = (int(w[2]), int(w[4]))
        elif w[0] == "cost":
            costs[int(w[1])] = tuple(None if x == "-" else int(x)
                                     for x in w[2:5])
    return moves, costs


def off_turn_ns(log):
    """The CPU an engine spent between answering a genmove and reading
    its next command (off its turn), from its log."""
    total, last = 0, None
    for line in open(log):
        cmd, ns = line.split()
        ns = int(ns)
        if cmd == "answered":
            last = ns
        elif last is not None:
            total += ns - last
            last = None
    return total


def spin_vs_ponder(tag, extra):
    spin_log = os.path.join(TMP, tag + "-spin.log")
    pon_log = os.path.join(TMP, tag + "-ponder.log")
    rc, so, se, d, path, text = run_match(
        tag, engine("spin", "spin", SPIN_MS, spin_log) +
        engine("ponder", "ponder", 0, pon_log),
        ["--tc", "120000 clock=cpu"] + extra)
    check("%s: exit 0" % tag, rc == 0, se[-2000:])
    moves, costs = moves_and_costs(text)
    spin = [p for p, (who, _) in moves.items() if who == 1]
    return rc, so, d, path, text, moves, costs, spin, off_turn_ns(pon_log)


def test_spinner_charged_ponderer_frozen():
    """(a) a spinner is charged the CPU time of its turns; (b) a ponderer
    that spins on the opponent's time is frozen there: its CPU off its
    turn stays near 0 and the spinner's clock does not pay for it."""
    rc, so, d, path, text, moves, costs, spin, off = spin_vs_ponder(
        "frozen", [])
    check("a whole game", d.get("played") == 1 and len(moves) >= 7,
          json.dumps(d)[:2000])
    check("the record says clock=cpu", "\ntc 120000+0 clock=cpu\n" in text,
          text[:500])
    check("every move has its cost line", sorted(costs) == sorted(moves),
          text)
    # (a): TIME_US is the turn's CPU time, the spinner's at least SPIN_MS.
    check("TIME_US is the CPU time of the cost line",
          all(moves[p][1] == costs[p][1] for p in moves), text)
    low = [costs[p][1] for p in spin if costs[p][1] < SPIN_MS * 950]
    check("the spinner is charged its spin on every move", not low, text)
    high = [costs[p][1] for p in spin
            if costs[p][1] > SPIN_MS * 1000 + 500000]
    check("and not much more (another engine's CPU is not its)",
          not high, text)
    check("peak memory measured", all(costs[p][2] and costs[p][2] > 1 << 20
                                      for p in moves), text)
    rcv, out = verify(path)
    check("grundy verify accepts the record", rcv == 0 and
          out.startswith("ok "), out)
    spun = sum(costs[p][1] for p in spin) * 1000
    note("frozen: off its turn %.3f s, the spinner's CPU %.3f s" %
         (off / 1e9, spun / 1e9))
    # (b): frozen off its turn; a window of the runner's own latency
    # around each turn is all it gets (wide: half the spinner's CPU).
    check("the ponderer's CPU off its turn is small (frozen)",
          off < spun // 2, "off %d ns, the spinner's CPU %d ns" % (off, spun))
    e = {x["name"]: x for x in d.get("engines", [])}
    check("the --out JSON has CPU per move and peak memory",
          e["spin"]["cpu_us_per_move"] >= SPIN_MS * 950 and
          e["spin"]["moves_measured"] == len(spin) and
          e["ponder"]["peak_bytes"] > 0, json.dumps(e))
    check("the table has the cost rows", "cpu/move" in so and
          "peak-mem" in so, so)
    # The control: with --ponder it thinks on the spinner's time.
    rc, so, d, path, text, moves, costs, spin, off = spin_vs_ponder(
        "ponder", ["--ponder"])
    spun = sum(costs[p][1] for p in spin) * 1000
    note("--ponder: off its turn %.3f s, the spinner's CPU %.3f s" %
         (off / 1e9, spun / 1e9))
    check("--ponder: the ponderer spins off its turn",
          off > spun // 4, "off %d ns, the spinner's CPU %d ns" % (off, spun))
    high = [costs[p][1] for p in spin
            if costs[p][1] > SPIN_MS * 1000 + 500000 or
            costs[p][1] < SPIN_MS * 950]
    check("--ponder: the spinner is still charged only its own CPU",
          not high, text)


def test_sleeper_wall_bound():
    """(c) an engine that sleeps on its turn spends no CPU time, and loses
    on the wall bound: factor x (CPU left + grace) + margin."""
    rc, so, se, d, path, text = run_match(
        "sleep", engine("sleeper", "sleep", 0,
                        os.path.join(TMP, "sleep-1.log")) +
        engine("quick", "spin", 0, os.path.join(TMP, "sleep-2.log")),
        ["--tc", "500+0 clock=cpu", "--wall-factor", "2",
         "--wall-margin", "2000"])
    check("exit 0", rc == 0, se[-2000:])
    g = d.get("games", [{}])[0]
    check("the sleeper loses on time", g.get("reason") == "timeout" and
          g.get("result") == "second", json.dumps(g))
    # Bound 2 x (500 + 250) + 2000 = 3500 ms of wall time.
    check("after the wall bound, not before", g.get("ms", 0) >= 3500,
          json.dumps(g))
    e = {x["name"]: x for x in d.get("engines", [])}
    check("counted as its timeout", e["sleeper"]["timeouts"] == 1 and
          e["quick"]["timeouts"] == 0, json.dumps(e))
    rcv, out = verify(path)
    check("grundy verify accepts the record", rcv == 0, out)


def test_spinner_out_of_cpu():
    """A program that spins on its turn and never answers loses on time
    when its CPU time runs out, well before the wall bound (30 x (1000 +
    250) + 5000 ms here: it would have to get under 3% of a core)."""
    rc, so, se, d, path, text = run_match(
        "spinforever", engine("quick", "spin", 0,
                              os.path.join(TMP, "sf-1.log")) +
        engine("spinner", "spin", 10 ** 9,
               os.path.join(TMP, "sf-2.log")),
        ["--tc", "1000+0 clock=cpu", "--wall-factor", "30"])
    check("exit 0", rc == 0, se[-2000:])
    g = d.get("games", [{}])[0]
    check("the spinner loses on time", g.get("reason") == "timeout" and
          g.get("result") == "first", json.dumps(g))
    check("on its CPU time: before the wall bound",
          1000 <= g.get("ms", 0) < 42500, json.dumps(g))
    rcv, out = verify(path)
    check("grundy verify accepts the record", rcv == 0, out)


def test_bad_tc():
    """A clock that is not cpu or wall is refused."""
    p = subprocess.run([GRUNDY, "match", "--engine", "cmd=" + ENG,
                        "name=a", "--engine", "cmd=" + ENG, "name=b",
                        "--game", "nim 1",
                        "--tc", "1000 clock=moon"], capture_output=True,
                       text=True, timeout=60)
    check("exit 2 naming the clock", p.returncode == 2 and
          "clock=moon" in p.stderr, p.stderr)


if __name__ == "__main__":
    sys.exit(run([test_spinner_charged_ponderer_frozen,
                  test_sleeper_wall_bound, test_spinner_out_of_cpu,
                  test_bad_tc]))
