#!/usr/bin/env python3
"""xtour-bench.py: what a tournament read costs on a node that does not
schedule it (issue 15 §2, BENCHMARKS.md "Tournament reads across nodes"):
`standings NAME` on the scheduler answers from memory; on another node it
reads the tournament from the log first (src/lobby/lobby-xtour.c), on the
event loop.  Two nodes on one PostgreSQL: a 64-player round-robin (4,032
games, pairs=1) whose every game is finished in the log (inserted with
psql: a game's slot and result are all the read uses), then N commands on
each node, timed from the client, one at a time; and reads from the log
alone (one a second at most per tournament and node).

Usage (from the build directory, a throwaway cluster):
    sh tests/e2e/pgcluster.sh run \
        python3 contrib/bench/xtour-bench.py . SRCDIR [N]
"""
import glob
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(sys.argv[2] if len(sys.argv) > 2 else ".",
                                "tests", "e2e"))
from e2e import Daemon, login, ok, wait_for  # noqa: E402

URL = os.environ["SQLDB_PG_URL"]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 200
PLAYERS = 64
READS = 5


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


def elected(d):
    return wait_for(lambda: "event=scheduler-elected" in
                    open(d.log.name).read(), 30, 0.05)


def main():
    a = Daemon("bench-a", "--admins", "boss", "--node-ttl", "2000", db=URL)
    elected(a)
    boss = login(a, "boss")
    names = ["b%02d" % i for i in range(PLAYERS)]
    for n in names:         # the admin's: no registration rate
        assert ok(boss.cmd("account create %s password1" % n))
    r = boss.cmd("tournament create big roundrobin players=%s pairs=1 "
                 "tc=20000 nim 3" % ",".join(names))
    assert ok(r) and "games 4032" in r, r
    sql("INSERT INTO games (family, game, player1, player2, started_at, "
        "ended_at, result, reason, status, rated, tc, tournament_id, slot) "
        "SELECT 'nim', 'nim 3', 'b00', 'b01', '2026-01-01T00:00:00.000Z', "
        "'2026-01-01T00:00:01.000Z', CASE WHEN s % 3 = 0 THEN 'second' "
        "ELSE 'first' END, 'no-legal-move', 'finished', 1, '20000+0', "
        "(SELECT id FROM tournaments WHERE name = 'big'), s "
        "FROM generate_series(0, 4031) AS s")
    # B schedules (it reads the games from the log when elected), A
    # started again answers from the log.
    a.stop()
    b = Daemon("bench-b", "--admins", "boss", "--node-ttl", "2000", db=URL)
    elected(b)
    a.start()
    boss = [login(b, "boss", register=False),
            login(a, "boss", register=False)]
    print("standings big (64 players, 4,032 games), ms per command, one "
          "at a time:")
    mean, worst, r = timed(boss[0], "standings big", N)
    print("  scheduler, from memory:          mean %7.2f  max %7.2f  (%d "
          "commands; %s)" % (mean, worst, N, r.splitlines()[1]))
    reads = []
    for _ in range(READS):      # each past the second a read serves
        time.sleep(1.1)
        reads.append(timed(boss[1], "standings big", 1)[0])
    print("  other node, a read from the log: mean %7.2f  max %7.2f  (%d "
          "reads, 1.1 s apart)" % (sum(reads) / READS, max(reads), READS))
    mean, worst, r = timed(boss[1], "standings big", N)
    print("  other node, %d in a row:        mean %7.2f  max %7.2f  (%s)" %
          (N, mean, worst, r.splitlines()[1]))
    mean, worst, _ = timed(boss[1], "tournament list", N)
    print("  other node, tournament list:     mean %7.2f  max %7.2f  (every "
          "node reads the log)" % (mean, worst))
    a.stop()
    b.stop()


main()
