"""benchutil.py: helpers shared by the Python benchmarks in contrib/."""
import socket
import sqlite3
import sys


def die(prog, msg):
    """Exits 1 with "PROG: MSG" on stderr."""
    sys.stderr.write("%s: %s\n" % (prog, msg))
    sys.exit(1)


def free_port():
    """A loopback TCP port free right now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def elo_replay(db):
    """{name: (rating, games)}: the rated games of the log at db replayed
    as grundyd rates them (Elo, start 1500, K = 32, PROTOCOL.md §13.7), in
    rating_seq order (ended_at, then id, before schema version 5); the
    ratings as doubles."""
    con = sqlite3.connect(db)
    r, n = {}, {}
    cols = [c[1] for c in con.execute("PRAGMA table_info(games)")]
    if "rating_seq" in cols:
        sql = ("SELECT player1, player2, result FROM games"
               " WHERE rating_seq IS NOT NULL ORDER BY rating_seq")
    else:
        sql = ("SELECT player1, player2, result FROM games WHERE rated = 1"
               " AND status = 'finished' AND result IS NOT NULL"
               " ORDER BY ended_at, id")
    for p1, p2, res in con.execute(sql):
        a, b = r.get(p1, 1500.0), r.get(p2, 1500.0)
        ea = 1.0 / (1.0 + pow(10.0, (b - a) / 400.0))
        sa = 1.0 if res == "first" else 0.0
        r[p1] = a + 32.0 * (sa - ea)
        r[p2] = b - 32.0 * (sa - ea)
        n[p1] = n.get(p1, 0) + 1
        n[p2] = n.get(p2, 0) + 1
    con.close()
    return {k: (r[k], n[k]) for k in r}
