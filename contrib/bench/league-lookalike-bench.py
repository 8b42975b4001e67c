#!/usr/bin/env python3
# league-lookalike-bench.py: the cost of the league's look-alike check
# (src/league/league.c, LEAGUE_S_REGISTER) on SQLite with N accounts: the old
# "name = ? COLLATE NOCASE", the portable "lower(name) = lower(?)" without
# an index, and with migration 010's index accounts_name_lower.  Python's
# sqlite3 module (its SQLite, not necessarily grundyd's); a file in a
# temporary directory; best of 3 runs of 2,000 look-ups each.
#
# usage: python3 contrib/bench/league-lookalike-bench.py [N]
import os
import sqlite3
import sys
import tempfile
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
with tempfile.TemporaryDirectory() as d:
    c = sqlite3.connect(os.path.join(d, "bench.db"))
    c.execute("CREATE TABLE accounts (name TEXT PRIMARY KEY,"
              " hash TEXT NOT NULL, created_at TEXT NOT NULL)")
    c.executemany("INSERT INTO accounts VALUES (?, 'h', 't')",
                  (("user%d" % i,) for i in range(n)))
    c.commit()

    def bench(sql, label, k=2000):
        best = None
        for _ in range(3):
            t = time.perf_counter()
            for i in range(k):
                c.execute(sql, ("User%d" % (i * 37 % n),)).fetchone()
            d = (time.perf_counter() - t) / k
            best = d if best is None else min(best, d)
        print("| %s | %.1f us |" % (label, best * 1e6))

    print("SQLite %s, %d accounts" % (sqlite3.sqlite_version, n))
    print("| check | per look-up |\n|---|---|")
    bench("SELECT 1 FROM accounts WHERE name = ? COLLATE NOCASE",
          "name = ? COLLATE NOCASE (before)", 200)
    bench("SELECT 1 FROM accounts WHERE lower(name) = lower(?)",
          "lower(name) = lower(?), no index", 200)
    c.execute("CREATE INDEX accounts_name_lower ON accounts (lower(name))")
    c.commit()
    bench("SELECT 1 FROM accounts WHERE lower(name) = lower(?)",
          "lower(name) = lower(?), index of 010")
