#!/usr/bin/env python3
"""onedb.py: one daemon per database by the file's identity, not its path
(issue 25 §6, PROTOCOL.md §12) against a real grundyd: with a daemon
running a live game on a database, a second daemon started on the same
file through a symlink, a hard link, another relative path ("./sub/../")
or the same path refuses to start with a clear error naming the first
daemon's pid, and the first daemon's game is untouched (still live, its
moves answered, its id not handed out again).  And with the default
db-readers = off, an unwritable -shm file (chattr +i, else chmod 0444)
cannot kill the daemon: its WAL index is in heap memory, never mapped
(without it, SIGBUS killed the daemon 3 of 4 runs); other processes are
told the database is locked.

Usage: onedb.py BUILDDIR SRCDIR.
"""
import os
import re
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)


def second(db, cwd):
    """A second grundyd on db (a path relative to cwd): (rc, output)."""
    r = subprocess.run([os.path.abspath(GRUNDYD), "--listen", "127.0.0.1:0", "--db", db],
                       cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=WAIT)
    return r.returncode, r.stdout.decode()


def test_paths():
    d = Daemon("first")
    c = Client(d)
    accepted(c, "new nim 3 4 5", "new")
    r = accepted(c, "match engine first", "match")
    gid = int(re.search(r"game (\d+)", r).group(1))
    accepted(c, "play 1=1", "a move", "reply")
    os.mkdir(os.path.join(TMP, "sub"))
    os.mkdir(os.path.join(TMP, "links"))
    os.symlink(d.db, os.path.join(TMP, "links", "sym.db"))
    os.link(d.db, os.path.join(TMP, "links", "hard.db"))
    base = os.path.basename(d.db)
    for name, path, cwd in (
            ("symlink", "links/sym.db", TMP),
            ("hard link", "links/hard.db", TMP),
            ("relative ./sub/..", "./sub/../" + base, TMP),
            ("symlink to the directory", "dir/" + base, None),
            ("same path", d.db, None)):
        if cwd is None:
            cwd = os.path.join(TMP, "links")
            if not os.path.exists(os.path.join(cwd, "dir")):
                os.symlink(TMP, os.path.join(cwd, "dir"))
        rc, out = second(path, cwd)
        check("%s: refused" % name, rc == 1 and
              ("in use by grundyd pid %d " % d.proc.pid) in out and
              "one daemon per database" in out, (rc, out[-600:]))
    # The first daemon's game goes on: live, answered, its id unique.
    row, n = db_game(d, gid)
    check("the game is still live", row is not None and row[0] == "live",
          row)
    accepted(c, "show", "the first daemon still answers",
             "match client first")
    n = db_count(d, "SELECT COUNT(*) FROM games")
    check("no game handed out by a second daemon", n == 1, n)
    check("the first daemon runs", d.proc.poll() is None)
    d.stop()
    # Once it has stopped, a daemon through the symlink starts.
    e = Daemon("again", db=os.path.join(TMP, "links", "sym.db"))
    accepted(Client(e), "new nim 3", "through the symlink afterwards")
    e.stop()


def games(c, n):
    """Plays n one-move games against the engine on c; the number won."""
    won = 0
    for _ in range(n):
        c.cmd("new nim 1")
        c.cmd("match engine first")
        r = c.cmd("play 1=0")
        won += r is not None and "result first" in r
    return won


def test_shm():
    """An unwritable -shm file, several runs: the daemon lives on."""
    mode = os.environ.get("ONEDB_SHM_READERS", "off")   # "on": the crash
    for run_no in range(4):
        name = "shm%d" % run_no
        shm = os.path.join(TMP, name + ".db-shm")
        d = Daemon(name, "--db-readers", mode)
        c = Client(d)
        won = games(c, 50)
        # As the issue did: the -shm made unwritable under the daemon (one
        # made if there is none: with db-readers = off SQLite makes none).
        if not os.path.exists(shm):
            with open(shm, "wb") as f:
                f.write(b"\0" * 32768)
        immutable = subprocess.run(["chattr", "+i", shm],
                                   stderr=subprocess.DEVNULL).returncode == 0
        if not immutable:
            os.chmod(shm, 0o444)
        try:
            won += games(c, 400)
        finally:
            if immutable:   # else TMP could not be removed
                subprocess.run(["chattr", "-i", shm])
        check("run %d: 450 games played (shm %s)" % (run_no, "immutable"
              if immutable else "0444"), won == 450, won)
        check("run %d: the daemon lives" % run_no, d.proc.poll() is None,
              d.proc.poll())
        try:
            sqlite3.connect(d.db, timeout=0.2).execute(
                "SELECT COUNT(*) FROM games").fetchone()
            told = "read"
        except sqlite3.OperationalError as e:
            told = str(e)
        check("run %d: other processes are told it is locked" % run_no,
              told == "database is locked", told)
        d.stop()
        check("run %d: a clean exit" % run_no, d.proc.returncode == 0,
              d.proc.returncode)
        n = db_count(d, "SELECT COUNT(*) FROM games WHERE status = "
                     "'finished'")
        check("run %d: every game in the log" % run_no, n == 450, n)


if __name__ == "__main__":
    sys.exit(run([test_paths, test_shm]))
