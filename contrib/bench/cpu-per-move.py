#!/usr/bin/env python3
"""cpu-per-move.py: the daemon's CPU time per refereed move (BENCHMARKS.md §2).

Starts each given grundyd binary in turn (--db off, or each --db given:
"sqlite" is a fresh SQLite file, anything else is passed as is, such as a
postgresql:// URL), runs grundy-bench
against it and reads the daemon's CPU time (all threads, utime + stime from
/proc/PID/stat) when the games load starts and when it ends; prints CPU per
move (client and engine moves) and moves/s.  Binaries alternate for the
given number of rounds, so that two builds are measured in the same run.
Figures only; nothing is asserted.

--nodes N (repeatable; a postgresql:// --db only when N > 1) starts N
grundyd on the same --db, each on its own port, all before the load, and
N grundy-bench at once, the --conns split evenly over them; moves/s is
their sum and CPU/move is all N daemons' CPU.  With --pg-dir DIR (default
$SQLDB_PG_DIR, as tests/e2e/pgcluster.sh sets it) and a postgresql:// --db, it
also reads the cluster's CPU (the postmaster of DIR/data and all its
children, /proc) and, through psql, its write transactions (the
transaction ids used, pg_current_snapshot) and WAL bytes
(pg_current_wal_lsn) over the same window: PostgreSQL's CPU, commits and
WAL per move.  The window opens when the last grundy-bench
starts its games and closes when the first one ends them.

usage: cpu-per-move.py [--rounds N] [--seconds S] [--conns C] [--bench PATH]
                       [--db off|sqlite|URL]... [--nodes N]... [--pg-dir DIR]
                       [--pg-fresh] [--daemon-arg=ARG]... GRUNDYD...

--pg-fresh: each measurement on a postgresql:// --db runs on a database
of its own, created empty for it (CREATE DATABASE through psql on the
URL's database, which then names the new one) and dropped after it, as
"sqlite" gets a fresh file: builds of different schema versions can then
be measured in the same run (an older one refuses a database that a newer
one migrated), and none inherits another's games.

--daemon-arg passes ARG to every grundyd (e.g. --daemon-arg=--rate --daemon-arg=100000
when few connections would exceed the per-connection rate limit; a
failed grundy-bench is reported and the rounds go on).
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from benchutil import cpu_seconds, free_port, pg_cluster_cpu

# WAL position and the next transaction id, both current (pg_stat_database's
# xact_commit lags up to a second): write transactions = the xids used.
PG_STATS = ("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn,"
            " pg_snapshot_xmax(pg_current_snapshot())")


def wait_listen(port, deadline):
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("cpu-per-move: the daemon did not listen on %d" % port)


def psql_path():
    p = shutil.which("psql")
    if p is None:
        sys.exit("cpu-per-move: --pg-dir needs psql in the PATH")
    return p


class Probe:
    """Snapshots of the daemons' CPU and, for PostgreSQL, the cluster's
    CPU, WAL position and commits."""

    def __init__(self, pids, db, pgdir):
        self.pids, self.db = pids, db
        self.pgdir = pgdir if pgdir and "://" in db else None

    def take(self):
        s = {"t": time.monotonic(),
             "cpu": sum(cpu_seconds(p) for p in self.pids)}
        if self.pgdir:
            s["pgcpu"] = pg_cluster_cpu(os.path.join(self.pgdir, "data"))
            out = subprocess.run([psql_path(), self.db, "-XAtF", " ", "-c",
                                  PG_STATS], capture_output=True, text=True,
                                 check=True).stdout.split()
            s["wal"], s["commits"] = int(out[-2]), int(out[-1])
        return s


FRESH = {"n": 0}


def pg_fresh(url):
    """A new empty database on url's cluster: (its URL, the SQL to drop
    it, to run on url)."""
    FRESH["n"] += 1
    name = "cpm_%d_%d" % (os.getpid(), FRESH["n"])
    subprocess.run([psql_path(), url, "-Xq", "-c",
                    "CREATE DATABASE " + name], check=True)
    u = urllib.parse.urlsplit(url)     # (urlunsplit drops an empty host)
    return ("%s://%s/%s%s" % (u.scheme, u.netloc, name,
                              "?" + u.query if u.query else ""),
            "DROP DATABASE " + name)


def run_benches(bench, ports, seconds, conns, probe):
    """N grundy-bench at once, conns split over ports; returns (snapshot
    at the last start of games, snapshot at the first end, summed rate)."""
    n = len(ports)
    lock = threading.Lock()
    st = {"started": 0, "s0": None, "s1": None, "rates": []}

    def reader(b):
        for line in b.stdout:
            if line.startswith("grundyd protocol_version"):
                with lock:
                    st["started"] += 1
                    if st["started"] == n:
                        st["s0"] = probe.take()
            elif line.startswith("grundyd refereed games"):
                with lock:
                    if st["s1"] is None:
                        st["s1"] = probe.take()
                    st["rates"].append(int(re.search(
                        r"(\d+) moves/s \(client", line).group(1)))
    bs, ts = [], []
    for i, port in enumerate(ports):
        c = conns // n + (1 if i < conns % n else 0)
        b = subprocess.Popen(["stdbuf", "-oL", bench, "--port", str(port),
                              "--conns", str(c), "--seconds", str(seconds)],
                             stdout=subprocess.PIPE, text=True)
        t = threading.Thread(target=reader, args=(b,))
        t.start()
        bs.append(b)
        ts.append(t)
    for b, t in zip(bs, ts):
        b.wait()
        t.join()
    if len(st["rates"]) != n or st["s0"] is None:
        return None
    return st["s0"], st["s1"], sum(st["rates"])


def measure(grundyd, bench, seconds, conns, db="off", nodes=1, pgdir=None,
            extra=(), fresh=False):
    """A dict of the figures per move, or None if a grundy-bench failed."""
    tmp = drop = None
    if fresh and "://" in db:
        url = db
        db, drop = pg_fresh(url)
    if db == "sqlite":
        tmp = tempfile.TemporaryDirectory()
        db = os.path.join(tmp.name, "bench.db")
    ports, ds = [], []
    try:
        for _ in range(nodes):          # one at a time: migrations
            port = free_port()
            ds.append(subprocess.Popen([grundyd, "--listen",
                                        "127.0.0.1:%d" % port, "--db", db]
                                       + list(extra),
                                       stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL))
            wait_listen(port, time.monotonic() + 10)
            ports.append(port)
        r = run_benches(bench, ports, seconds, conns,
                        Probe([d.pid for d in ds], db, pgdir))
    finally:
        for d in ds:
            d.terminate()
        for d in ds:
            d.wait()
        if tmp is not None:
            tmp.cleanup()
        if drop is not None:
            subprocess.run([psql_path(), url, "-Xq", "-c", drop],
                           check=True)
    if r is None:
        return None
    s0, s1, rate = r
    moves = rate * (s1["t"] - s0["t"])
    f = {"rate": rate, "us": (s1["cpu"] - s0["cpu"]) / moves * 1e6}
    if "pgcpu" in s0:
        f["pgus"] = (s1["pgcpu"] - s0["pgcpu"]) / moves * 1e6
        f["commits"] = (s1["commits"] - s0["commits"]) / moves
        f["wal"] = (s1["wal"] - s0["wal"]) / moves
    return f


def report(r, label, f):
    if f is None:
        print("round %d %-30s grundy-bench failed (see its error)" %
              (r, label), flush=True)
        return
    line = "round %d %-30s CPU/move %.2f us, %d moves/s" % (
        r, label, f["us"], f["rate"])
    if "pgus" in f:
        line += (", postgres CPU/move %.2f us, %.4f commits/move,"
                 " %.0f WAL bytes/move" % (f["pgus"], f["commits"],
                                            f["wal"]))
    print(line, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--conns", type=int, default=50)
    ap.add_argument("--bench", default="./grundy-bench")
    ap.add_argument("--db", action="append")
    ap.add_argument("--nodes", type=int, action="append")
    ap.add_argument("--pg-dir", default=os.environ.get("SQLDB_PG_DIR"))
    ap.add_argument("--pg-fresh", action="store_true")
    ap.add_argument("--daemon-arg", action="append", default=[])
    ap.add_argument("grundyd", nargs="+")
    a = ap.parse_args()
    runs = [(g, db, n) for g in a.grundyd for db in (a.db or ["off"])
            for n in (a.nodes or [1])]
    for g, db, n in runs:
        if n < 1 or n > a.conns or (n > 1 and "://" not in db):
            sys.exit("cpu-per-move: --nodes %d needs 1..--conns and, above"
                     " 1, a postgresql:// --db" % n)
    for r in range(a.rounds):
        order = runs if r % 2 == 0 else runs[::-1]
        for g, db, n in order:
            f = measure(g, a.bench, a.seconds, a.conns, db, n, a.pg_dir,
                        a.daemon_arg, a.pg_fresh)
            label = g if a.db is None else "%s --db %s" % (
                g, db.split("://")[0] if "://" in db else db)
            if a.nodes:
                label += " --nodes %d" % n
            report(r + 1, label, f)


if __name__ == "__main__":
    main()
