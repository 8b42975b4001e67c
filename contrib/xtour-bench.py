#!/usr/bin/env python3
"""xtour-bench.py: what a tournament read costs on a node that does not
schedule it (issue 15 §2, BENCHMARKS.md "Tournament reads across nodes"):
`standings NAME` on the scheduler answers from memory; on another node it
reads the tournament from the log first (src/lobby-xtour.c), on the
event loop.  Two nodes on one PostgreSQL: a 64-player round-robin (4,032
games, pairs=1) whose every game is finished in the log (inserted with
psql: a game's slot and result are all the read uses), then N commands on
each node, timed from the client, one at a time.

Usage (from the build directory, a throwaway cluster):
    sh tests/pgcluster.sh run python3 contrib/xtour-bench.py . SRCDIR [N]
"""
import glob
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(sys.argv[2] if len(sys.argv) > 2 else ".",
                                "tests"))
from e2e import Daemon, login, ok, wait_for  # noqa: E402

URL = os.environ["SQLDB_PG_URL"]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 200
PLAYERS = 64


def sql(query):
    exe = (sorted(glob.glob("/usr/lib/postgresql/*/bin/psql")) or
           [shutil.which("psql")])[-1]
    subprocess.run([exe, "-X", "-q", "-d", URL, "-c", query], check=True,
                   timeout=120)


def timed(c, line, n):
    """Mean and max milliseconds of n runs of line (each answered ok)."""
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        r = c.cmd(line, timeout=60)
        ts.append((time.perf_counter() - t0) * 1000)
        assert ok(r), r
    return sum(ts) / n, max(ts), r


def main():
    a = Daemon("bench-a", "--admins", "boss", "--node-ttl", "2000", db=URL)
    wait_for(lambda: "event=scheduler-elected" in open(a.log.name).read(),
             30, 0.05)
    b = Daemon("bench-b", "--admins", "boss", "--node-ttl", "2000", db=URL)
    boss = [login(a, "boss"), login(b, "boss", register=False)]
    names = ["b%02d" % i for i in range(PLAYERS)]
    for n in names:
        login(a, n).close()
    r = boss[0].cmd("tournament create big roundrobin players=%s pairs=1 "
                    "tc=20000 nim 3" % ",".join(names))
    assert ok(r) and "games 4032" in r, r
    sql("INSERT INTO games (family, game, player1, player2, started_at, "
        "ended_at, result, reason, status, rated, tc, tournament_id, slot) "
        "SELECT 'nim', 'nim 3', 'b00', 'b01', '2026-01-01T00:00:00.000Z', "
        "'2026-01-01T00:00:01.000Z', CASE WHEN s % 3 = 0 THEN 'second' "
        "ELSE 'first' END, 'no-legal-move', 'finished', 1, '20000+0', "
        "(SELECT id FROM tournaments WHERE name = 'big'), s "
        "FROM generate_series(0, 4031) AS s")
    print("standings big, %d times each, one at a time (ms per command):"
          % N)
    for i, who in enumerate(("scheduler (memory)", "other node (log)")):
        mean, worst, r = timed(boss[i], "standings big", N)
        print("  %-20s mean %7.2f  max %7.2f  (%s)" % (
            who, mean, worst, r.splitlines()[1]))
    mean, worst, _ = timed(boss[1], "tournament list", N)
    print("  %-20s mean %7.2f  max %7.2f  (tournament list, both nodes "
          "read the log)" % ("other node", mean, worst))
    a.stop()
    b.stop()


main()
