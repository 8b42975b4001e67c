"""benchutil.py: helpers shared by the Python benchmarks in contrib/."""
import math
import os
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


def _rated_games(con):
    """The SQL of the rated games in the order of rating."""
    cols = [c[1] for c in con.execute("PRAGMA table_info(games)")]
    if "rating_seq" in cols:
        return ("SELECT player1, player2, result FROM games"
                " WHERE rating_seq IS NOT NULL ORDER BY rating_seq")
    return ("SELECT player1, player2, result FROM games WHERE rated = 1"
            " AND status = 'finished' AND result IS NOT NULL"
            " ORDER BY ended_at, id")


def elo_replay(db):
    """{name: (rating, games)}: the rated games of the log at db replayed
    as grundyd rated them before Glicko-2 (Elo, start 1500, K = 32), in
    rating_seq order (ended_at, then id, before schema version 5); the
    ratings as doubles.  For the builds before issue 14 §1."""
    con = sqlite3.connect(db)
    r, n = {}, {}
    for p1, p2, res in con.execute(_rated_games(con)):
        a, b = r.get(p1, 1500.0), r.get(p2, 1500.0)
        ea = 1.0 / (1.0 + pow(10.0, (b - a) / 400.0))
        sa = 1.0 if res == "first" else 0.0
        r[p1] = a + 32.0 * (sa - ea)
        r[p2] = b - 32.0 * (sa - ea)
        n[p1] = n.get(p1, 0) + 1
        n[p2] = n.get(p2, 0) + 1
    con.close()
    return {k: (r[k], n[k]) for k in r}


GLICKO_Q = 173.7178     # Glickman's scale factor


def glicko2_one(r, rd, vol, ro, rdo, score, tau=0.5, eps=0.000001):
    """One player's Glicko-2 rating period of one game (Glickman, "Example
    of the Glicko-2 system", 2013, steps 2 to 8, the Illinois algorithm of
    step 5; RD capped at 350): (rating, RD, volatility) after a game of
    score 1 or 0 against an opponent rated ro, rdo before it."""
    mu, phi = (r - 1500.0) / GLICKO_Q, rd / GLICKO_Q
    muj, phij = (ro - 1500.0) / GLICKO_Q, rdo / GLICKO_Q
    g = 1.0 / math.sqrt(1.0 + 3.0 * phij * phij / (math.pi * math.pi))
    e = 1.0 / (1.0 + math.exp(-g * (mu - muj)))
    v = 1.0 / (g * g * e * (1.0 - e))
    delta = v * g * (score - e)
    a = math.log(vol * vol)

    def f(x):
        ex = math.exp(x)
        d = phi * phi + v + ex
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d)
                - (x - a) / (tau * tau))
    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    vol2 = math.exp(big_a / 2.0)
    phistar = math.sqrt(phi * phi + vol2 * vol2)
    phin = 1.0 / math.sqrt(1.0 / (phistar * phistar) + 1.0 / v)
    mun = mu + phin * phin * g * (score - e)
    return (1500.0 + GLICKO_Q * mun, min(GLICKO_Q * phin, 350.0), vol2)


def glicko2_replay(db):
    """{name: (rating, rd, volatility, games)}: the rated games of the log
    at db replayed as grundyd rates them (Glicko-2, each game one rating
    period for its two players against each other's rating and RD before
    it, PROTOCOL.md §13.7), in rating_seq order; doubles, which may differ
    from grundyd's in the last bits (compare within 1e-6)."""
    con = sqlite3.connect(db)
    st = glicko2_games(con.execute(_rated_games(con)))
    con.close()
    return st


def glicko2_games(games):
    """glicko2_replay's replay of games, (player1, player2, result) in
    the order they were rated (any source: a log, `export games`)."""
    st = {}
    for p1, p2, res in games:
        a = st.get(p1, (1500.0, 350.0, 0.06, 0))
        b = st.get(p2, (1500.0, 350.0, 0.06, 0))
        sa = 1.0 if res == "first" else 0.0
        na = glicko2_one(a[0], a[1], a[2], b[0], b[1], sa)
        nb = glicko2_one(b[0], b[1], b[2], a[0], a[1], 1.0 - sa)
        st[p1] = na + (a[3] + 1,)
        st[p2] = nb + (b[3] + 1,)
    return st


def glicko2_near(x, y, tol=1e-6):
    """Whether two {name: (rating, rd, volatility, games)} agree: the same
    names and games, the doubles within tol."""
    return (set(x) == set(y) and
            all(x[k][3] == y[k][3] and
                all(abs(p - q) <= tol for p, q in zip(x[k][:3], y[k][:3]))
                for k in x))


TICK = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid):
    """The fields of /proc/PID/stat after the command's name (field 3 on)."""
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid):
    """utime + stime of every thread of pid, in seconds (/proc)."""
    f = _stat_fields(pid)
    return (int(f[11]) + int(f[12])) / TICK


def pg_cluster_cpu(datadir):
    """CPU seconds of a PostgreSQL cluster since its start: the postmaster
    (pid from DATADIR/postmaster.pid) and every live child (backends, WAL
    writer, checkpointer...), utime + stime, plus the postmaster's cutime
    + cstime (its children that already exited); from /proc."""
    with open(os.path.join(datadir, "postmaster.pid")) as f:
        pm = int(f.readline())
    f = _stat_fields(pm)
    total = sum(int(x) for x in f[11:15])
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            f = _stat_fields(int(d))
        except OSError:
            continue        # exited meanwhile
        if int(f[1]) == pm:
            total += int(f[11]) + int(f[12])
    return total / TICK
