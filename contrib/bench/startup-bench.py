#!/usr/bin/env python3
"""startup-bench.py: grundyd's start-up time against the size of its log.

For each size N (default 10,000, 100,000 and 1,000,000 rated games) it
writes a log with contrib/bench/gen-log.py (kept in DIR and reused by later
runs, never started on: GEN, if given, writes it, so that an older
grundyd can read it too), copies it to a work file, then starts grundyd
on the copy RUNS times and measures, from just before the exec:
"listen", the first successful connect to its port (grundyd listens only
once the ratings are loaded), and "serve", the first answer to
`protocol_version` on that connection.  Since schema version 5 the first
start on a log migrates it and replays every rated game once, writing the
ratings checkpoint; the later starts read the checkpoint.

On the first and the last start of each size it also checks the ratings:
`ratings` must list exactly what a replay here of the same games in the
same order (rating_seq, or ended_at then id before version 5) computes,
rounded as grundyd rounds: Glicko-2 (PROTOCOL.md §13.7; rating, games,
RD, provisional) when grundyd prints RDs, else Elo (start 1500, K = 32)
for the builds before it.  Any difference, a daemon that exits or does not listen within
the timeout: exit 1.

With --verify V, the last start also times V runs of `verify ratings`
(PROTOCOL.md §13.9: grundyd's full replay of the log, compared with the
checkpoint), as the admin bench-admin it makes on the work copy (grundyd --add-admin,
or register on builds before it);
each must answer `ok N players`.

usage: startup-bench.py GRUNDYD [--sizes 10000,100000,1000000]
                        [--accounts M] [--runs R] [--dir DIR] [--gen GEN]
                        [--verify V]
"""
import os
import shutil
import socket
import subprocess
import sys
import time

import benchutil
from benchutil import free_port

HERE = os.path.dirname(os.path.abspath(__file__))


def die(msg):
    benchutil.die("startup-bench", msg)


def request(s, line):
    s.sendall((line + "\n").encode())
    data = b""
    while not data.endswith(b"\n\n"):
        got = s.recv(1 << 20)
        if not got:
            die("grundyd closed the connection")
        data += got
    return data.decode()


def start(grundyd, db, port, timeout=300.0):
    """Starts grundyd; returns (process, listen s, serve s, socket)."""
    helps = subprocess.run([grundyd, "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL).stdout.decode()
    extra = []
    if "--add-admin" in helps:      # roles granted (PROTOCOL.md §13.1)
        subprocess.run([grundyd, "--db", db, "--add-admin", "bench-admin"],
                       env=dict(os.environ, GRUNDY_PASSWORD="bench-password"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if "--db-readers" in helps:     # check_ratings reads the database
        extra = ["--db-readers", "on"]
    t0 = time.monotonic()
    p = subprocess.Popen([grundyd, "--listen", "127.0.0.1:%d" % port,
                          "--db", db, "--admins", "bench-admin"] + extra,
                         stderr=subprocess.DEVNULL)
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            pass
        if p.poll() is not None:
            die("grundyd exited at start (status %d)" % p.returncode)
        if time.monotonic() - t0 > timeout:
            p.kill()
            die("grundyd did not listen within %.0f s" % timeout)
        time.sleep(0.001)
    t_listen = time.monotonic() - t0
    if not request(s, "protocol_version").startswith("= "):
        die("bad answer to protocol_version")
    return p, t_listen, time.monotonic() - t0, s


def elo(db):
    """The ratings the rated games of db imply, as a grundyd before
    Glicko-2 prints them."""
    # lround: halves away from zero (ratings are positive).
    return {k: (int(v + 0.5), n) for k, (v, n) in
            benchutil.elo_replay(db).items()}


def rounds_to(shown, x):
    """Whether grundyd's lround of x may print shown: equal, or x within
    1e-6 of the half the two codes may round differently."""
    return shown == int(x + 0.5) or (abs(x - int(x) - 0.5) < 1e-6 and
                                     abs(shown - x) <= 0.5 + 1e-6)


def check_glicko(got, db):
    """got: {name: (rating, games, rd, provisional)} as `ratings` prints
    them, against benchutil's Glicko-2 replay; the names that differ."""
    want = benchutil.glicko2_replay(db)
    return sorted(k for k in set(got) | set(want)
                  if k not in got or k not in want or
                  not rounds_to(got[k][0], want[k][0]) or
                  got[k][1] != want[k][3] or
                  not rounds_to(got[k][2], want[k][1]) or
                  got[k][3] != (want[k][1] > 110))


def check_ratings(s, db):
    got, glicko = {}, False
    for line in request(s, "ratings").split("\n"):
        w = line.lstrip("= ").split()
        if len(w) == 5 and w[1] == "rating" and w[3] == "games":
            got[w[0]] = (int(w[2]), int(w[4]))
        elif len(w) in (7, 8) and w[1::2][:3] == ["rating", "games", "rd"]:
            glicko = True
            got[w[0]] = (int(w[2]), int(w[4]), int(w[6]), len(w) == 8)
    if glicko:
        bad = check_glicko(got, db)
        if bad:
            die("ratings differ for %d players, e.g. %s: grundyd %s"
                % (len(bad), bad[0], got.get(bad[0])))
        return len(got)
    want = elo(db)
    if got != want:
        bad = sorted(k for k in set(got) | set(want)
                     if got.get(k) != want.get(k))
        die("ratings differ for %d players, e.g. %s: grundyd %s, replay %s"
            % (len(bad), bad[0], got.get(bad[0]), want.get(bad[0])))
    return len(got)


def time_verify(s, times):
    """Times `verify ratings` times times on s (as bench-admin)."""
    request(s, "register bench-admin bench-password")  # older builds
    if not request(s, "login bench-admin bench-password").startswith("= "):
        die("cannot log in as bench-admin")
    got = []
    for _ in range(times):
        t0 = time.monotonic()
        r = request(s, "verify ratings")
        got.append(time.monotonic() - t0)
        if not r.startswith("= ok "):
            die("verify ratings: %s" % r.strip())
    return " verify=" + "/".join("%.3f" % t for t in got) + " s"


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        die("usage: startup-bench.py GRUNDYD [--sizes N,...] "
            "[--accounts M] [--runs R] [--dir DIR] [--gen GEN] "
            "[--verify V]")
    grundyd = gen = args[0]
    sizes, accounts, runs, d = [10000, 100000, 1000000], 1000, 3, \
        "/tmp/startup-bench"
    verify = 0
    rest = args[1:]
    while rest:
        if len(rest) < 2:
            die("option %s needs a value" % rest[0])
        if rest[0] == "--sizes":
            sizes = [int(x) for x in rest[1].split(",")]
        elif rest[0] == "--accounts":
            accounts = int(rest[1])
        elif rest[0] == "--runs":
            runs = int(rest[1])
        elif rest[0] == "--dir":
            d = rest[1]
        elif rest[0] == "--gen":
            gen = rest[1]
        elif rest[0] == "--verify":
            verify = int(rest[1])
        else:
            die("unknown option %s" % rest[0])
        rest = rest[2:]
    os.makedirs(d, exist_ok=True)
    for n in sizes:
        db = os.path.join(d, "log-%d-%d.db" % (n, accounts))
        if not os.path.exists(db):
            if subprocess.call([sys.executable,
                                os.path.join(HERE, "gen-log.py"),
                                gen, db, "--games", str(n),
                                "--accounts", str(accounts)]) != 0:
                die("gen-log.py failed")
        work = os.path.join(d, "work.db")
        for f in (work, work + "-wal", work + "-shm", work + ".lock"):
            if os.path.exists(f):
                os.unlink(f)
        shutil.copyfile(db, work)
        for run in range(runs):
            p, t_listen, t_serve, s = start(grundyd, work, free_port())
            checked = ""
            if run == 0 or run == runs - 1:
                checked = " ratings_checked=%d" % check_ratings(s, work)
            if run == runs - 1 and verify > 0:
                checked += time_verify(s, verify)
            s.close()
            p.terminate()
            if p.wait() != 0:
                die("grundyd exited with status %d" % p.returncode)
            print("games=%d accounts=%d run=%d listen=%.3f s serve=%.3f s%s"
                  % (n, accounts, run + 1, t_listen, t_serve, checked))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
