#!/usr/bin/env python3
"""onedb.py: one daemon per database by the file's identity, not its path
(issue 25 §6, PROTOCOL.md §12) against a real grundyd: with a daemon
running a live game on a database, a second daemon started on the same
file through a symlink, a hard link, another relative path ("./sub/../")
or the same path refuses to start with a clear error naming the first
daemon's pid, and the first daemon's game is untouched (still live, its
moves answered, its id not handed out again).

Usage: onedb.py BUILDDIR SRCDIR.
"""
import os
import re
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


if __name__ == "__main__":
    sys.exit(run([test_paths]))
