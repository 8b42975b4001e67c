#!/usr/bin/env python3
"""xratings.py: ratings and standings across nodes (issue 15 §2,
PROTOCOL.md §13.7): two grundyd on one PostgreSQL database (a
throwaway cluster of its own, NEEDS_PG, SQLDB_PG_URL).  Four players play
rated games in rounds, one game on each node at the same time (the two
games of a round have no player in common, and each player plays on both
nodes); then on both nodes `ratings`, `player`, `verify ratings` and the
log's standings and crosstable (`export ... since=`) are the same, and
equal a recomputation in Python from `export games`: Glicko-2 in the
order the results came (rounds apart in time; within a round the order
does not matter, the players being apart), wins and points per player
and pair.  Every wait is a poll with a deadline.

Usage: xratings.py BUILDDIR SRCDIR, with SQLDB_PG_URL set.
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)
sys.path.insert(0, os.path.join(SRC, "contrib", "bench"))
from benchutil import glicko2_one  # noqa: E402

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
URL = os.environ.get("SQLDB_PG_URL", "")
NAMES = ("ann", "bob", "cat", "dan")
# Each round: (node 0's game, node 1's game), players apart.
ROUNDS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2),
          (2, 3, 0, 1), (1, 3, 0, 2), (1, 2, 0, 3))
SINCE = "since=2000-01-01"


def start_pg(name):
    """A Daemon on the shared database, or None (a TAP skip with the
    reason) while grundyd cannot open a PostgreSQL --db (branch sp)."""
    try:
        return Daemon(name, "--admins", "boss", db=URL)
    except Exception as e:      # the port file never came: it exited
        log = open(os.path.join(TMP, name + ".log"), errors="replace").read()
        if "event=db-lock" in log or "event=league-open" in log:
            skip("daemon on PostgreSQL", "grundyd does not open a "
                 "PostgreSQL --db yet (issue 15 §1, branch sp)")
            return None
        check("daemon %s on PostgreSQL starts" % name, False,
              "%r\n%s" % (e, log))
        return None


def csv_rows(text):
    return list(csv.reader(io.StringIO(text)))


def play_round(cl, rnd):
    """Pairs the round's two games (one per node), then plays both at
    once: `nim 1`, seat 1 takes the last token and wins."""
    games = []
    for node in (0, 1):
        a, b = rnd[2 * node], rnd[2 * node + 1]
        gid, seats, _, _ = pair(None, cl[node][NAMES[a]],
                                cl[node][NAMES[b]], "nim 1",
                                "tc=60000 rated=1")
        games.append(seats)
    gens = [genmove_of(s[1]) for s in games]
    for s, g in zip(games, gens):
        if check("genmove", g is not None, g):
            s[1].answer(g, "1=0")
    for s in games:
        e = gameover_of(s[1])
        check("gameover", e is not None, e)


def glicko(rows):
    """{name: (rating, rd, games)} of the rated games of `export games`
    (header skipped) in the order they ended."""
    st = {}
    for x in sorted(rows, key=lambda x: (x[13], int(x[0]))):
        if x[9] != "1":
            continue
        p1, p2 = x[3], x[4]
        a = st.get(p1, (1500.0, 350.0, 0.06, 0))
        b = st.get(p2, (1500.0, 350.0, 0.06, 0))
        sa = 1.0 if x[6] == "first" else 0.0
        st[p1] = glicko2_one(a[0], a[1], a[2], b[0], b[1], sa) + (a[3] + 1,)
        st[p2] = glicko2_one(b[0], b[1], b[2], a[0], a[1], 1.0 - sa) + \
            (b[3] + 1,)
    return st


def ratings_text(st):
    """`ratings` as the replay gives it (best first, ties by name)."""
    return "\n".join(
        "%s rating %d games %d rd %d%s" % (
            n, int(r + 0.5), g, int(rd + 0.5),
            " provisional" if rd > 110 else "")
        for n, (r, rd, _, g) in sorted(st.items(),
                                       key=lambda x: (-x[1][0], x[0])))


def tally(rows):
    """{name: [points, games, wins, losses]} and {(a, b): [points, games]}
    of `export games` rows (finished, with a winner)."""
    per, pairs = {}, {}
    for x in rows:
        win = x[3] if x[6] == "first" else x[4]
        for me, op in ((x[3], x[4]), (x[4], x[3])):
            p = per.setdefault(me, [0, 0, 0, 0])
            c = pairs.setdefault((me, op), [0, 0])
            w = 1 if me == win else 0
            p[0] += w
            p[1] += 1
            p[2] += w
            p[3] += 1 - w
            c[0] += w
            c[1] += 1
    return per, pairs


def test_two_nodes():
    """Rated games on two nodes at once; every node answers as the log."""
    check("SQLDB_PG_URL set", URL.startswith("postgresql://"), URL)
    nodes = [start_pg("xa")]
    if nodes[0] is None:
        return
    nodes.append(start_pg("xb"))
    if nodes[1] is None:
        return
    boss = [login(nodes[0], "boss")]
    boss.append(login(nodes[1], "boss", register=False))
    cl = [{}, {}]
    for n in NAMES:
        cl[0][n] = login(nodes[0], n)
        cl[1][n] = login(nodes[1], n, register=False)
    for rnd in ROUNDS:
        play_round(cl, rnd)

    r = [b.cmd("export games " + SINCE, timeout=30) for b in boss]
    check("export games: the same on both nodes", ok(r[0]) and
          body(r[0]) == body(r[1]), r)
    rows = csv_rows(body(r[0]))[1:] if ok(r[0]) else []
    check("export games: every game, rated, finished", len(rows) ==
          2 * len(ROUNDS) and all(x[5] == "finished" and x[9] == "1"
                                  for x in rows), r[0])
    st = glicko(rows)
    want = ratings_text(st)
    for i, b in enumerate(boss):
        got = b.cmd("ratings")
        check("ratings on node %d: the replay of the log" % i,
              ok(got) and body(got) == want, (got, want))
        for n, (x, rd, _, _) in sorted(st.items()):
            line = "rating %d rd %d%s" % (int(x + 0.5), int(rd + 0.5),
                                          " provisional" if rd > 110
                                          else "")
            got = b.cmd("player " + n)
            check("player %s on node %d: %s" % (n, i, line), ok(got) and
                  line in body(got).split("\n"), got)
        got = b.cmd("verify ratings", timeout=30)
        check("verify ratings on node %d" % i, ok(got) and body(got) ==
              "ok %d players" % len(NAMES), got)

    per, pairs = tally(rows)
    for table in ("standings", "crosstable"):
        r = [b.cmd("export %s %s" % (table, SINCE), timeout=30)
             for b in boss]
        check("export %s: the same on both nodes" % table, ok(r[0]) and
              body(r[0]) == body(r[1]), r)
        got = csv_rows(body(r[0]))[1:] if ok(r[0]) else []
        if table == "standings":
            have = dict((x[1], [int(x[2]), int(x[3]), int(x[4]),
                                int(x[5])]) for x in got)
            check("standings: points, games, wins, losses as the log's",
                  have == per, (have, per))
        else:
            have = dict(((x[0], x[1]), [int(x[2]), int(x[3])])
                        for x in got)
            check("crosstable: points and games per pair as the log's",
                  have == pairs, (have, pairs))


sys.exit(run([test_two_nodes]))
