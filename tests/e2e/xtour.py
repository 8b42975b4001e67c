#!/usr/bin/env python3
"""xtour.py: tournaments across nodes (issue 15 §2, PROTOCOL.md §13.6 and
§13.12, doc/NODES.md): three grundyd on one PostgreSQL database (a
throwaway cluster of its own, NEEDS_PG, SQLDB_PG_URL).  Four `grundy bot
--server X,Y,Z` players, connected first to nodes A, B, C and B, enter a
rated round-robin made on the scheduler A (the holder of the scheduler's
lock): the players elsewhere are redirected to it, every game is
started there, the round-robin ends with exactly its games, and
`standings`, `crosstable`, `tournament show`, `tournament list`,
`ratings` and the API's tournament pages are the same bytes on the three
nodes and agree with a recomputation from `export games`; a Swiss
tournament with byes too.  A player connected to another node is not
forfeited (`forfeit=`), one connected nowhere is.  The other nodes
refuse to change a tournament and name the scheduler.  Then the scheduler is killed (-9)
in the middle of a round-robin: another node takes the lock, reads the
tournament again, and it finishes with every game once, no player in two
games at once.

Every wait is a poll with a deadline.  Usage: xtour.py BUILDDIR SRCDIR,
with SQLDB_PG_URL set.
"""
import csv
import io
import os
import re
import signal
import subprocess
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
URL = os.environ.get("SQLDB_PG_URL", "")
NODE_TTL = 1500         # ms
DEADLINE = 30.0         # s: every poll's bound on a loaded machine
PERFECT = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
os.environ["GRUNDY"] = GRUNDY


def text_of(d):
    return open(os.path.join(TMP, d.name + ".log"), errors="replace").read()


def where(d):
    return "127.0.0.1:%d" % d.port


def start_nodes(names, extra=()):
    """Nodes on the shared database, the first one the scheduler; returns
    them, or None (a failed check)."""
    ds = []
    for i, n in enumerate(names):
        try:
            ds.append(Daemon(n, "--admins", "boss", "--node-ttl",
                             str(NODE_TTL), *extra, db=URL))
        except Exception as e:      # the port file never came
            check("node %s starts" % n, False, repr(e))
            return None
        if i == 0 and not check("%s elected scheduler" % n, wait_for(
                lambda: "event=scheduler-elected" in text_of(ds[0]),
                DEADLINE)):
            return None
    return ds


SLOW = r"""
import subprocess, sys, time
eng = subprocess.Popen([sys.argv[1], "engine"], stdin=subprocess.PIPE,
                       stdout=sys.stdout, text=True, bufsize=1)
for line in sys.stdin:
    if " genmove" in " " + line:
        time.sleep(float(sys.argv[2]))
    eng.stdin.write(line)
    eng.stdin.flush()
eng.stdin.close()
eng.wait()
"""


def slow_prog(pace):
    """`grundy engine` that takes pace seconds a move: games that last
    long enough to be cut by a kill (a pace, not a wait of the test)."""
    path = os.path.join(TMP, "slow.py")
    with open(path, "w") as f:
        f.write(SLOW)
    return [sys.executable, path, GRUNDY, str(pace)]


FIRST = (0, 1, 2, 1)    # each bot's first node: A, B, C, B


def roamer(name, ds, first, prog=PERFECT):
    """grundy bot NAME playing prog, its --server list starting at node
    first (its account registered beforehand)."""
    order = ds[first:] + ds[:first]
    log = open(os.path.join(TMP, "bot-%s.log" % name), "a")
    p = subprocess.Popen(
        [GRUNDY, "bot", "--server", ",".join(where(d) for d in order),
         "--name", name, "--password", "password1", "--reconnect-ms",
         "100", "--"] + prog, stdout=log, stderr=log)
    PROCS.append(p)
    return p


def on_node(d, name):
    """Whether account name has a connection on node d."""
    c = login(d, "boss", register=False)
    r = c.cmd("connections") or ""
    c.close()
    return any(" %s " % name in line + " " for line in r.splitlines())


def answer_everywhere(bosses, line, name):
    """line's reply on each node; checks they are the same bytes."""
    r = [b.cmd(line, timeout=30) for b in bosses]
    check(name + ": the same on every node", ok(r[0]) and
          all(ok(x) and body(x) == body(r[0]) for x in r), r)
    return r[0]


def api(d, path):
    """GET path of d's HTTP (its port from its log), or None."""
    port = re.findall(r"event=http-listen .* port=(\d+)", text_of(d))
    try:
        with urllib.request.urlopen("http://127.0.0.1:%s%s" % (
                port[-1], path), timeout=10) as r:
            return r.read()
    except (OSError, IndexError) as e:
        return repr(e)


def in_play(d):
    """Whether d's log shows a game started and not over."""
    t = text_of(d)
    return set(re.findall(r"game=(\d+) event=start ", t)) - set(
        re.findall(r"game=(\d+) event=over ", t)) != set()


def recompute(rows):
    """From `export games` rows: {name: (points, games, wins, losses)} and
    {(row, col): (points, games)}."""
    per, cell = {}, {}
    for x in rows:
        winner = x[3] if x[6] == "first" else x[4]
        for me, op in ((x[3], x[4]), (x[4], x[3])):
            w = int(me == winner)
            p, g, wi, lo = per.get(me, (0, 0, 0, 0))
            per[me] = (p + w, g + 1, wi + w, lo + 1 - w)
            cp, cg = cell.get((me, op), (0, 0))
            cell[(me, op)] = (cp + w, cg + 1)
    return per, cell


def check_tables(bosses, tname, ngames):
    """standings, crosstable, show, list, ratings on every node: the same
    bytes, and the first two as `export games` recomputes them."""
    st = answer_everywhere(bosses, "standings " + tname, "standings")
    ct = answer_everywhere(bosses, "crosstable " + tname, "crosstable")
    answer_everywhere(bosses, "tournament show " + tname, "tournament show")
    answer_everywhere(bosses, "tournament list", "tournament list")
    answer_everywhere(bosses, "ratings", "ratings")
    for i, b in enumerate(bosses):
        v = b.cmd("verify ratings", timeout=30)
        check("verify ratings on node %d" % i, ok(v) and
              body(v).startswith("ok "), v)
    ex = answer_everywhere(bosses, "export games tournament=" + tname,
                           "export games")
    rows = list(csv.reader(io.StringIO(body(ex))))[1:] if ok(ex) else []
    check("export: %d finished rated games" % ngames, len(rows) == ngames
          and all(x[5] == "finished" and x[9] == "1" for x in rows), rows)
    per, cell = recompute(rows)
    lines = body(st).splitlines() if ok(st) else []
    check("standings: finished, every game", lines[:3] == [
        "status finished", "played %d of %d" % (ngames, ngames),
        "tiebreaks de,sb,win"], st)
    have = {}
    for w in (x.split() for x in lines[3:]):
        have[w[1]] = (float(w[3]), int(w[5]), int(w[7]), int(w[9]))
    check("standings as recomputed from the log", have == {
        k: (float(v[0]),) + v[1:] for k, v in per.items()}, (have, per))
    lines = body(ct).splitlines()[2:] if ok(ct) else []
    names = lines[0].split()[1:] if lines else []
    got = {}
    for w in (x.split() for x in lines[1:]):
        for j, c in enumerate(w[1:]):
            if c not in ("x", "-"):
                p, g = c.split("/")
                got[(w[0], names[j])] = (float(p), int(g))
    check("crosstable as recomputed from the log", got == {
        k: (float(v[0]), v[1]) for k, v in cell.items()}, (got, cell))


def test_round_robin():
    """Four bots on different nodes; the round-robin plays on the
    scheduler's node and every node answers as the log."""
    check("SQLDB_PG_URL set", URL.startswith("postgresql://"), URL)
    ds = start_nodes(("xtA", "xtB", "xtC"), ("--http", "127.0.0.1:0"))
    if ds is None:
        return
    bosses = [login(ds[0], "boss")] + [login(d, "boss", register=False)
                                       for d in ds[1:]]
    names = ("rr1", "rr2", "rr3", "rr4")
    for n in names:
        login(ds[0], n).close()
    # A non-scheduler refuses a change, once it heard the scheduler.
    want = "tournaments are changed on the scheduler's node: go to " + \
        where(ds[0])
    for i in (1, 2):
        check("node %d refuses tournament create and names the scheduler"
              % i, wait_for(lambda: want in (bosses[i].cmd(
                  "tournament create no roundrobin players=rr1,rr2 nim 3")
                  or ""), DEADLINE, 0.1))
    for i, n in enumerate(names):
        roamer(n, ds, FIRST[i])
    check("bots logged in", bots_logged_in(names, DEADLINE))
    check("rr2 is on node B before the tournament", on_node(ds[1], "rr2"))
    r = bosses[0].cmd("tournament create xt roundrobin "
                      "players=rr1,rr2,rr3,rr4 pairs=1 tc=20000 seed=7 "
                      "random=1 nim 5 6 7")
    check("create on the scheduler: 12 games", ok(r) and "games 12" in r, r)
    (played, total), sr = tournament_done(bosses[0], "xt", DEADLINE * 2)
    check("the round-robin played its 12 games", played == total == 12, sr)
    # The pages first: no other read of xt made B and C read it yet.
    for path in ("/api/tournaments", "/api/tournaments/xt"):
        got = [api(d, path) for d in ds]
        check("GET %s: the same bytes on every node" % path,
              got[0].startswith(b"{") and got[1:] == [got[0]] * 2, got)
    for n in (x for i, x in enumerate(names) if FIRST[i] != 0):
        check("%s was redirected to the scheduler" % n,
              "redirected to %s" % where(ds[0]) in bot_log(n), bot_log(n))
    ex = bosses[0].cmd("export games tournament=xt", timeout=30)
    ids = sorted(int(x[0]) for x in list(csv.reader(io.StringIO(
        body(ex))))[1:]) if ok(ex) else []
    started = [sorted(int(g) for g in re.findall(
        r"game=(\d+) event=start ", text_of(d))) for d in ds]
    check("the 12 games all started on the scheduler, none elsewhere",
          len(ids) == 12 and started[0] == ids and started[1:] == [[], []],
          (ids, started))
    check_tables(bosses, "xt", 12)
    # A Swiss tournament with the engine and a bye each round: its rounds
    # are paired on the scheduler; the other nodes pair them again from
    # the log, byes included.
    r = bosses[0].cmd("tournament create xs swiss players=rr1,rr2,rr3,rr4,"
                      "engine rounds=3 tc=20000 seed=2 random=1 nim 4 5 6")
    check("create a Swiss tournament: 12 games", ok(r) and "games 12" in r,
          r)
    (played, total), sr = tournament_done(bosses[1], "xs", DEADLINE * 2)
    check("node B sees the Swiss tournament finish", played == total == 12,
          sr)
    for line in ("standings xs", "crosstable xs", "tournament show xs"):
        answer_everywhere(bosses, line, line)
    for d in ds:
        d.stop()


def test_forfeit_elsewhere():
    """forfeit=: a player connected to another node is redirected and
    plays; only the one connected nowhere loses by forfeit."""
    ds = start_nodes(("xfA", "xfB", "xfC"))
    if ds is None:
        return
    boss = login(ds[0], "boss")
    for n in ("f1", "f2", "f3"):
        login(ds[0], n).close()
    roamer("f1", ds, 0)
    roamer("f2", ds, 1)
    check("bots logged in", bots_logged_in(("f1", "f2"), DEADLINE))
    check("f2 is on node B", on_node(ds[1], "f2"))
    r = boss.cmd("tournament create xf roundrobin players=f1,f2,f3 games=1 "
                 "tc=20000 forfeit=5 nim 3 4 5")
    check("create: 3 games", ok(r) and "games 3" in r, r)
    (played, total), sr = tournament_done(boss, "xf", DEADLINE * 2)
    check("the tournament played its 3 games", played == total == 3, sr)
    check("f2 was redirected to the scheduler", "redirected to %s" %
          where(ds[0]) in bot_log("f2"), bot_log("f2"))
    ex = boss.cmd("export games tournament=xf", timeout=30)
    rows = list(csv.reader(io.StringIO(body(ex))))[1:] if ok(ex) else []
    got = sorted((x[3], x[4], x[7], x[8]) for x in rows)
    check("f1-f2 played; f3 lost both its games by forfeit", [
        g[:2] + (g[3] == "forfeit",) for g in got] == [
        ("f1", "f2", False), ("f1", "f3", True), ("f2", "f3", True)] and
        all(g[2] != "f3" for g in got), got)
    sh = boss.cmd("tournament show xf") or ""
    check("show: 2 forfeits", "games 3 played 3 playing 0 pending 0 "
          "stopped 0 forfeits 2" in sh, sh)


def check_restored(boss, live):
    """Each game restored by the live nodes after the kill was played on:
    it ended other than on time, with every ply of its record once (1..N,
    N at least the restored ply); and no game of any node's log ended on
    time with 0 plies (a player lost for a node's death)."""
    logs = "".join(text_of(d) for d in live)
    over = {int(g): (r, int(n)) for g, r, n in re.findall(
        r"game=(\d+) event=over result=\w+ reason=(\S+) plies=(\d+)", logs)}
    restored = {int(g): int(n) for g, n in re.findall(
        r"game=(\d+) event=restored epoch=\d+ ply=(\d+)", logs)}
    note("games restored after the kill: %d" % len(restored))
    for gid, ply in sorted(restored.items()):
        r = boss.cmd("record %d" % gid)
        plies = [int(w[1]) for w in (x.split() for x in (
            body(r) if ok(r) else "").splitlines()) if w and w[0] == "move"]
        end = over.get(gid)
        check("restored game %d played on to its end, not on time" % gid,
              end is not None and end[0] != "time" and end[1] >= ply and
              end[1] > 0, (ply, end))
        check("restored game %d: every ply once" % gid, end is not None and
              plies == list(range(1, end[1] + 1)), (plies, end))
    lost = [g for g, (r, n) in over.items() if r == "time" and n == 0]
    check("no game lost on time with 0 plies", lost == [], lost)


def test_kill_scheduler():
    """kill -9 of the scheduler in the middle of a round-robin: another
    node takes the lock and the round-robin finishes, every game once."""
    ds = start_nodes(("xkA", "xkB", "xkC"))
    if ds is None:
        return
    boss = login(ds[0], "boss")
    names = ("kr1", "kr2", "kr3", "kr4")
    for n in names:
        login(ds[0], n).close()
    for i, n in enumerate(names):
        roamer(n, ds, FIRST[i], slow_prog(0.05))
    check("bots logged in", bots_logged_in(names, DEADLINE))
    r = boss.cmd("tournament create xk roundrobin players=kr1,kr2,kr3,kr4 "
                 "pairs=1 tc=5000 seed=3 random=1 nim 9 9 9 9")
    check("create on the scheduler: 12 games", ok(r) and "games 12" in r,
          r)
    late = login(ds[2], "kr1", register=False)
    e = event_of(late, "redirect", DEADLINE)
    check("a player logging in on node C is redirected to the scheduler",
          e == "event redirect " + where(ds[0]), e)
    late.close()
    check("some games finished, one in play", wait_for(
        lambda: (standings(boss, "xk")[0][0] or 0) >= 2 and
        in_play(ds[0]), DEADLINE, 0.1))
    ds[0].stop(signal.SIGKILL)
    rest = [login(d, "boss", register=False) for d in ds[1:]]
    check("another node elected", wait_for(
        lambda: any("event=scheduler-elected" in text_of(d)
                    for d in ds[1:]), DEADLINE))
    (played, total), sr = tournament_done(rest[0], "xk", DEADLINE * 3)
    check("the round-robin finished: 12 of 12", played == total == 12, sr)
    ex = rest[0].cmd("export games tournament=xk", timeout=30)
    seats = {}
    for x in list(csv.reader(io.StringIO(body(ex))))[1:] if ok(ex) else []:
        seats[(x[3], x[4])] = seats.get((x[3], x[4]), 0) + 1
    check_restored(rest[0], ds[1:])
    check("every game once: each pairing one game in each seat order",
          sorted(seats.values()) == [1] * 12, seats)
    spans = {}
    for x in list(csv.reader(io.StringIO(body(ex))))[1:] if ok(ex) else []:
        for n in (x[3], x[4]):
            spans.setdefault(n, []).append((x[12], x[13], x[0]))
    overlap = [(n, a, b) for n, v in spans.items() for a, b in
               zip(sorted(v), sorted(v)[1:]) if b[0] < a[1]]
    check("no player in two games at once (a game taken over included)",
          overlap == [], overlap)
    check_tables(rest, "xk", 12)


sys.exit(run([test_round_robin, test_forfeit_elsewhere,
              test_kill_scheduler]))
