#!/usr/bin/env python3
"""gen-log.py: writes a grundyd game log with N finished rated games.

The schema is grundyd's own: the database is created by starting GRUNDYD
once on it (it applies every migration in db/, then stops on SIGTERM), so
the log is always in the current schema.  Then, in one transaction, with
bound parameters only:

  * M accounts gen0 .. gen{M-1} (hash '*': nobody can log in to them);
  * N games, each rated, finished, with an increasing ended_at, between
    two distinct accounts drawn at random; the winner is drawn from the
    Elo expectation of hidden strengths, so ratings spread out;
  * each game's moves as one move_runs row, a real game consistent with
    its result: a first-player win is `nim 1` (one move, 1=0), a
    second-player win is `nim 1 1` (1=0 then 2=0);
  * from schema version 5 on, each game's rating_seq (its id: the games
    end in id order), and no ratings checkpoint: the first start replays
    every game and writes it (db/005-ratings-checkpoint.sql).

Deterministic for a given --seed.  The file must not exist; it is
written as DB.tmp and renamed when complete.

usage: gen-log.py GRUNDYD DB [--games N] [--accounts M] [--seed S]
"""
import datetime
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time

import benchutil


def die(msg):
    benchutil.die("gen-log", msg)


def create_schema(grundyd, db):
    """Starts grundyd on an empty database until it listens, then stops
    it: the migrations are applied."""
    portfile = db + ".port"
    p = subprocess.Popen([grundyd, "--listen", "127.0.0.1:0", "--db", db,
                          "--port-file", portfile],
                         stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    port = None
    while port is None:
        if p.poll() is not None:
            die("%s exited at start (status %d)" % (grundyd, p.returncode))
        if time.monotonic() > deadline:
            p.kill()
            die("%s did not start within 30 s" % grundyd)
        try:
            with open(portfile) as f:
                port = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            time.sleep(0.01)
    socket.create_connection(("127.0.0.1", port), timeout=5).close()
    p.terminate()
    if p.wait() != 0:
        die("%s exited with status %d" % (grundyd, p.returncode))
    os.unlink(portfile)


def iso(ms):
    t = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) + \
        datetime.timedelta(milliseconds=ms)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)


# The two games: start, moves as stored in a run (PROTOCOL.md §12).
FIRST = ("nim 1", [[1, "1=0", "nim 0", 0, 0, 50]])
SECOND = ("nim 1 1", [[1, "1=0", "nim 0 1", 0, 2, 50],
                      [2, "2=0", "nim 0 0", 0, 0, 50]])


def rows(n, m, rng):
    strength = [rng.gauss(0, 200) for _ in range(m)]
    ms = 0
    for gid in range(1, n + 1):
        a = rng.randrange(m)
        b = rng.randrange(m - 1)
        b += b >= a
        pa = 1.0 / (1.0 + 10 ** ((strength[b] - strength[a]) / 400.0))
        first = rng.random() < pa
        start, moves = FIRST if first else SECOND
        t0 = iso(ms)
        ms += rng.randrange(1, 50)
        yield (gid, start, "gen%d" % a, "gen%d" % b, t0, iso(ms),
               "first" if first else "second", json.dumps(moves))


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0].startswith("-"):
        die("usage: gen-log.py GRUNDYD DB [--games N] [--accounts M] "
            "[--seed S]")
    grundyd, db = args[0], args[1]
    n, m, seed = 10000, 1000, 1
    rest = args[2:]
    while rest:
        if len(rest) < 2:
            die("option %s needs a value" % rest[0])
        if rest[0] == "--games":
            n = int(rest[1])
        elif rest[0] == "--accounts":
            m = int(rest[1])
        elif rest[0] == "--seed":
            seed = int(rest[1])
        else:
            die("unknown option %s" % rest[0])
        rest = rest[2:]
    if m < 2 or n < 0:
        die("need at least 2 accounts")
    if os.path.exists(db):
        die("%s exists" % db)
    tmp = db + ".tmp"
    for f in (tmp, tmp + "-wal", tmp + "-shm", tmp + ".lock"):
        if os.path.exists(f):
            os.unlink(f)
    create_schema(grundyd, tmp)
    con = sqlite3.connect(tmp)
    con.execute("PRAGMA synchronous=OFF")
    ver = con.execute("PRAGMA user_version").fetchone()[0]
    if con.execute("SELECT count(*) FROM games").fetchone()[0] != 0:
        die("%s: the new log already has games" % db)
    with con:
        con.executemany("INSERT INTO accounts (name, hash, created_at) "
                        "VALUES (?, '*', ?)",
                        (("gen%d" % i, iso(0)) for i in range(m)))
        games = []
        for r in rows(n, m, random.Random(seed)):
            games.append(r)
            if len(games) == 10000:
                insert(con, games)
                games = []
        insert(con, games)
    con.close()
    if os.path.exists(tmp + ".lock"):   # the lock file of builds before
        os.unlink(tmp + ".lock")        # dblock locked the database itself
    os.rename(tmp, db)
    print("gen-log: %s: schema version %d, %d accounts, %d rated games"
          % (db, ver, m, n))


def insert(con, games):
    cols = [r[1] for r in con.execute("PRAGMA table_info(games)")]
    seq = "rating_seq" in cols      # schema 5: the order of rating
    con.executemany(
        "INSERT INTO games (id, family, game, player1, player2, started_at,"
        " ended_at, result, reason, status, rated, tc%s)"
        " VALUES (?, 'nim', ?, ?, ?, ?, ?, ?, 'no-legal-move', 'finished',"
        " 1, '60000+0'%s)" % ((", rating_seq", ", ?1") if seq else ("", "")),
        (g[:7] for g in games))
    con.executemany(
        "INSERT INTO move_runs (game_id, first_ply, moves) VALUES (?, 1, ?)",
        ((g[0], g[7]) for g in games))


if __name__ == "__main__":
    main()
