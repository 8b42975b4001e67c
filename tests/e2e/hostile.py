#!/usr/bin/env python3
"""hostile.py: end-to-end tests of issue 11 §1 and §2 against a real
grundyd: what one hostile client must not be able to do (freeze the loop,
exhaust memory, hold a connection with a byte a second), and the faults
that must not lose or mislabel a record (two daemons on one database, a
full disk, passwords cut by the line preprocessing, look-alike names).

Usage: hostile.py BUILDDIR SRCDIR (the daemon, client and runner are in
e2e.py).  Every wait is bounded; nothing sleeps a fixed time to decide.
"""
import errno
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)


# A heavy command of a few tenths of a second (Wythoff Grundy tables).
SLOW = "new sum " + " + ".join("wythoff t=%d 990 991" % t
                               for t in range(1, 13))



def log_text(d):
    d.log.flush()
    return open(os.path.join(TMP, d.name + ".log"), errors="replace").read()


def test_db_lock():
    """Two daemons on one database: the second exits, naming the first."""
    d = Daemon("lock")
    port = os.path.join(TMP, "lock2.port")
    p = subprocess.run([GRUNDYD, "--listen", "127.0.0.1:0", "--port-file",
                        port, "--db", d.db], capture_output=True, text=True,
                       timeout=WAIT)
    msg = p.stdout + p.stderr
    check("second daemon exits", p.returncode != 0, msg)
    check("second daemon names the holder's pid",
          ("pid %d" % d.proc.pid) in msg, msg)
    c = Client(d)
    check("first daemon still serves", ok(c.cmd("new nim 3 4 5")))
    d.stop()
    # Once the first is gone the database is free again.
    d.start()
    c = Client(d)
    check("restart after the holder exits", ok(c.cmd("new nim 1")))
    d.stop()


def test_passwords():
    """# and control characters in a password are refused, not cut."""
    d = Daemon("pass")
    c = Client(d)
    r = c.cmd("register bob abcdefgh#IGNORED")
    check("# in a password refused", not ok(r) and "#" in body(r), r)
    accepted(c, "register bob abcdefgh", "the cut password was not stored")
    r = c.cmd("register carol abc\x01defghi")
    check("control character refused", not ok(r) and
          "control" in body(r), r)
    accepted(c, "register carol abcdefghi # a comment after it",
             "a comment after the password is fine")
    accepted(c, "login carol abcdefghi", "login with it")
    r = c.cmd("passwd abcdefghi newpass1#CUT")
    check("passwd: # in the new password refused", not ok(r) and
          "#" in body(r), r)
    r = c.cmd("passwd abcdefghi newpass1\x02x")
    check("passwd: a control character refused", not ok(r) and
          "control" in body(r), r)
    accepted(c, "login carol abcdefghi", "the password did not change")
    # Names that differ only in case are look-alikes.
    accepted(c, "register Admin password1", "register Admin")
    r = c.cmd("register admin password1")
    check("look-alike refused", not ok(r) and "look-alike" in body(r), r)
    refused(c, "register ADMIN password1", "look-alike refused (upper)")
    d.stop()


def test_engine_match_log():
    """Matches against the engine log event=start and event=over."""
    d = Daemon("enginelog")
    c = Client(d)
    c.cmd("new nim 1")
    r = accepted(c, "match engine first", "match")
    gid = int(re.search(r"game (\d+)", r).group(1))
    r = accepted(c, "play 1=0", "win", "result first")
    txt = log_text(d)
    check("event=start logged", re.search(r"game=%d event=start" % gid,
                                          txt) is not None, txt[-2000:])
    check("event=over logged", re.search(
        r"game=%d event=over result=first reason=no-legal-move" % gid,
        txt) is not None, txt[-2000:])
    d.stop()


def db_tables(d):
    con = sqlite3.connect(d.db)
    n, b = con.execute("SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0)"
                       " FROM tables").fetchone()
    con.close()
    return n, b


def test_table_bounds():
    """table and new are bounded by bytes before the work; a set over the
    table cap gets the cap's error; a huge game echoes a digest."""
    d = Daemon("tablebound", "--max-table", "20", "--max-reply", "4096")
    c = Client(d)
    refused(c, "table subtraction S=3,7,100 count=5",
            "subtraction over the table cap", "Grundy table cap of 20")
    k = "9" * 100000
    r = c.cmd("table wythoff K=%s count=1000" % k)
    # Refused before it is built: the refusal gives the bytes the table
    # would need (PROTOCOL.md §7), which only the check before the work
    # knows; a built table would have been answered or refused by size.
    check("huge wythoff table refused before it is built", not ok(r) and
          "max-reply" in r and "needs up to" in r, (r or "")[:200])
    r = c.cmd("table wythoff count=1000")
    check("table over max-reply refused", not ok(r) and "count=" in r, r)
    r = c.cmd("table wythoff count=100")
    check("table within max-reply", ok(r) and len(r.splitlines()) == 100,
          (r or "")[:100])
    check("nothing huge stored", db_tables(d)[1] < 8192, db_tables(d))
    edges = ",".join("%d>%d" % (i, i + 1) for i in range(1, 1000))
    r = c.cmd("new graph edges=%s 1" % edges)
    check("huge new echoes a digest", ok(r) and
          re.match(r"=\d+ digest bytes=\d+ fnv1a64=[0-9a-f]{16}$", r), r)
    accepted(c, "show", "show of a huge game: digest", "position digest")
    accepted(c, "analyze", "analysis still served", "outcome")
    # max-line wins over max-digits (documented): the line is refused.
    big = " ".join(["1" * 100000] * 3)
    c.send("new nim " + big)
    r = c.wait("replies")
    check("three 100,000-digit piles: line too long", r is not None and
          "line too long" in r, (r or "")[:100])
    d.stop()


def play_many(c, moves):
    """Pipelines plays; returns the replies in order."""
    first = c.nid + 1
    data = ""
    for m in moves:
        c.nid += 1
        data += "%d play %s\n" % (c.nid, m)
    c.s.sendall(data.encode())
    out = []
    for i in range(first, c.nid + 1):
        out.append(c.wait("replies", lambda x, i=i: re.match(
            r"[=?]%d\b" % i, x), 30))
    return out


def test_undo_bytes():
    """The undo history is capped by bytes, not only by positions."""
    d = Daemon("undo", "--max-undo-bytes", "1000", db="off")
    c = Client(d)
    r = c.cmd("new nim 5 5 5")      # 9 bytes + 48 per number: 201 bytes
    check("new", ok(r), r)
    rs = play_many(c, ["%d=%d" % (1 + i % 3, 4 - i // 3) for i in range(10)])
    check("ten plays", all(ok(x) for x in rs), rs)
    n = 0
    while ok(c.cmd("undo")) and n < 20:
        n += 1
    check("undo keeps 1000 bytes of positions: 4", n == 4, n)
    d.stop()
    # The attack of the issue: a 20 KB nim and 900 plays (439 MB for 1,000 before).
    d = Daemon("undo2", db="off")
    c = Client(d)
    before = rss_kb(d)
    r = c.cmd("new nim " + " ".join(["9"] * 10000))
    check("new 10,000 piles", ok(r), (r or "")[:80])
    rs = play_many(c, ["%d=%d" % (1 + i % 10000, 8 - i // 10000)
                       for i in range(900)])
    check("900 plays", all(ok(x) for x in rs))
    grown = rss_kb(d) - before
    if b"__asan_init" in open(GRUNDYD, "rb").read():
        skip("history memory bounded", "ASan build, RSS not compared "
             "(its quarantine keeps freed memory)")
    else:
        check("history memory bounded (grew %d KB)" % grown,
              grown < 100000)
    d.stop()


def trickle(c, data, period, limit):
    """Sends data a byte per period until the server closes or limit
    seconds pass; returns the seconds until the close, or None."""
    t0 = time.time()
    i = 0
    while time.time() - t0 < limit:
        try:
            c.s.sendall(data[i % len(data)].encode())
        except OSError:
            c._pump(0.2)        # what was sent before the close
            c.closed = True
            break
        i += 1
        c._pump(period)
        if c.closed:
            break
    return time.time() - t0 if c.closed else None


def test_slowloris():
    """A byte a second does not keep a connection: partial lines do not
    reset the idle timer, and a line must end within line-timeout."""
    d = Daemon("slow", "--idle-timeout", "2", db="off")
    c = Client(d)
    dt = trickle(c, "new nim 1 2 3 4 5 6 7 8 9", 0.25, WAIT)
    check("trickled partial line closed by the idle timeout",
          dt is not None, dt)
    d.stop()
    d = Daemon("slow2", "--line-timeout", "1", db="off")
    c = Client(d)
    check("a complete line first", ok(c.cmd("new nim 1")))
    dt = trickle(c, "new nim 1 2 3 4 5 6 7 8 9", 0.2, WAIT)
    check("line timeout closes", dt is not None, dt)
    r = c.wait("replies", lambda x: "line timeout" in x)
    check("line timeout message", r is not None and
          "must end within 1 s" in r, r)
    # Lines that do end keep the connection (slowly, but complete).
    c = Client(d)
    t0 = time.time()
    n = 0
    while time.time() - t0 < 2.5:
        c.send("new nim 1")
        n += 1
        time.sleep(0.1)
    check("complete lines are not timed out", not c.closed and
          ok(c.cmd("show")))
    d.stop()


def test_table_cache_cap():
    """The table cache in the database is capped by rows and bytes: the
    oldest stored tables are evicted (23 MB/s grew it before)."""
    d = Daemon("tcache", "--max-tables", "5", "--max-tables-bytes", "8192")
    c = Client(d)
    for k in range(2, 14):
        accepted(c, "table wythoff K=%d count=10" % k, "table K=%d" % k)
    c.cmd("stats")                      # flushes the writer
    n, b = db_tables(d)
    check("5 tables kept", n == 5, (n, b))
    con = sqlite3.connect(d.db)
    keys = [x[0] for x in con.execute("SELECT key FROM tables ORDER BY key")]
    con.close()
    check("the newest kept", keys == ["K=%d t=1" % k for k in
                                      (10, 11, 12, 13, 9)], keys)
    for i in range(3):
        r = c.cmd("table wythoff K=%d count=300" % (100 + i))
        check("big table", ok(r) and len(r.splitlines()) == 300)
    c.cmd("stats")
    n, b = db_tables(d)
    check("bytes cap kept (%d bytes in %d tables)" % (b, n), b <= 8192)
    r = c.cmd("limits")
    check("limits shows the caps", "max-tables 5" in r and
          "max-tables-bytes 8192" in r, r)
    d.stop()


def test_worker_fairness():
    """One address cannot take every worker, nor queue without bound: a
    command of one address in the pool beyond its share waits there, one
    beyond max-queued-per-ip waits at its connection (not read further),
    and another address is served meanwhile.  The workers are gated, so
    nothing depends on how long a command takes."""
    quick = SLOW.replace("990 991", "10 11")     # heavy, but quick
    d, gate = gated_daemon("fair", "127.0.0.2", "--workers", "2", db="off")
    a = [ClientFrom(d, "127.0.0.2") for _ in range(5)]
    for i, c in enumerate(a):
        c.send("%d %s" % (i + 1, quick))
    # a[0] holds one worker at the gate, the others wait for the
    # address's share: the second worker is free for another address.
    b = Client(d)
    rb = b.cmd(quick, timeout=30)
    check("another address is served while one holds its share", ok(rb),
          rb)
    for c in a:
        c._pump(0.01)
    check("the gated address has no answer yet",
          all(not c.replies for c in a), [c.replies for c in a])
    os.write(gate, b"x")
    r1 = a[0].wait("replies", timeout=30)
    check("first heavy command", ok(r1) and r1.startswith("=1"),
          (r1 or "")[:60])
    os.write(gate, b"xxxx")
    for i, c in enumerate(a[1:]):
        r = c.wait("replies", timeout=30)
        check("the address's commands all run (%d)" % (i + 2),
              ok(r) and r.startswith("=%d" % (i + 2)), (r or "")[:60])
    d.stop()
    os.close(gate)
    d, gate = gated_daemon("fair2", "127.0.0.2", "--workers", "2",
                           "--max-queued-per-ip", "3", db="off")
    a = [ClientFrom(d, "127.0.0.2") for _ in range(5)]
    for i, c in enumerate(a):
        c.send("%d %s" % (i + 1, quick))
    b = Client(d)
    check("another address is not refused", ok(b.cmd(quick, timeout=30)))
    os.write(gate, b"xxxxx")
    replies = [c.wait("replies", timeout=30) for c in a]
    check("beyond max-queued-per-ip commands wait, none is refused",
          all(ok(r) and r.startswith("=%d" % (i + 1))
              for i, r in enumerate(replies)), replies)
    d.stop()
    os.close(gate)
    # A waiting line goes first: a connection whose command comes back
    # does not take the room its address's waiting line waits for.
    d, gate = gated_daemon("fair3", "127.0.0.2", "--workers", "2",
                           "--max-queued-per-ip", "1", "--verbose", "1",
                           db="off")
    a = [ClientFrom(d, "127.0.0.2") for _ in range(2)]
    a[0].send("1 %s\n2 %s" % (quick, quick))
    # Read means its first line went to the pool (the same pass of the
    # loop): only then does the second connection send.
    p0 = a[0].s.getsockname()[1]
    check("the first connection's lines are read",
          wait_for(lambda: server_unread(d.port, "127.0.0.2").get(p0) == 0,
                   30))
    a[1].send("3 %s" % quick)
    check("a line waits for the pool's room (event=park)",
          wait_for(lambda: "event=park" in log_text(d), 30))
    os.write(gate, b"xx")
    r1 = a[0].wait("replies", timeout=30)
    r3 = a[1].wait("replies", timeout=30)
    check("the waiting line ran before the next line of the first",
          ok(r1) and r1.startswith("=1") and ok(r3) and
          r3.startswith("=3"), (r1, r3))
    os.write(gate, b"x")
    r2 = a[0].wait("replies", timeout=30)
    check("then the first's next line", ok(r2) and r2.startswith("=2"), r2)
    d.stop()
    os.close(gate)


def test_register_rate():
    """Account creation is limited per address, not per connection."""
    d = Daemon("regrate", "--register-rate", "3")
    for i in range(3):
        c = Client(d)
        r = c.cmd("register user%d password1" % i)
        check("register %d" % i, ok(r), r)
        c.close()
    c = Client(d)
    r = c.cmd("register user9 password1")
    check("fourth account from one address refused", not ok(r) and
          "at most 3 an hour (register-rate); retry in" in r, r)
    r = c.cmd("login user9 password1")
    check("and not created", not ok(r), r)
    o = ClientFrom(d, "127.0.0.3")
    accepted(o, "register user9 password1", "another address may")
    check("limits shows it", "register-rate 3" in c.cmd("limits"))
    d.stop()


def test_clock_stall():
    """A clock stops when the answer reached the server's socket: a stalled
    server (here stopped with SIGSTOP for STALL s, longer than the whole
    clock) does not bill the player, and its late timer does not end the
    game on time.  The sleep is the stall simulated, not a wait for the
    server.  The TC ms clock leaves the test client (which reads the
    genmove, then answers) that long to be scheduled on a loaded machine:
    2 s was not always enough with two CPU hogs and other builds."""
    tc, stall = 10000, 10.5
    d = Daemon("stall", "--clock-grace", "100")
    c = Client(d)
    r = c.cmd("seek nim 1 2 opponent=engine seat=1 tc=%d" % tc)
    check("engine seek", ok(r) and body(r).startswith("game"), r)
    g = genmove_of(c)
    check("genmove", g is not None, g)
    d.proc.send_signal(signal.SIGSTOP)
    try:
        c.answer(g, "2=1")      # in the socket at once, read later
        time.sleep(stall)       # the stall being simulated
    finally:
        d.proc.send_signal(signal.SIGCONT)
    p = c.wait("commands", lambda x: " play " in x)
    # A gameover would come with the engine's move, or before it.
    o = c.wait("commands", lambda x: " gameover " in x, timeout=0.5)
    check("no timeout for the server's stall", p is not None and
          (o is None or "timeout" not in o), (p, o))
    g = genmove_of(c)
    t1 = int(re.search(r"time1=(\d+)", g or "time1=0").group(1))
    check("the stall was not charged (time1=%d)" % t1, t1 > 500, g)
    c.answer(g, "1=0" if "1=0" not in (p or "") else "2=0")
    o = gameover_of(c)
    check("the game goes on to its end", o is not None and
          "first no-legal-move" in o, o)
    d.stop()


def test_seek_off_loop():
    """A seek's game is parsed and its random start drawn on a worker:
    another client is answered while it runs (the loop stalled 1.1-1.5 s
    per such line before)."""
    d = Daemon("seekloop", "--max-wythoff", "1000")
    a = Client(d)
    spec = SLOW.replace("new ", "", 1)
    a.send("7 seek %s random=1 opponent=engine seat=1 tc=60000" % spec)
    p = Client(d)
    rp = p.cmd("new nim 1 2 3", timeout=30)
    ra = a.wait("replies", timeout=0.1)         # only what has arrived
    check("probe answered while the seek is prepared", ok(rp) and
          ra is None, (rp, ra))
    ra = a.wait("replies", timeout=60) if ra is None else ra
    check("the seek starts an engine game", ok(ra) and
          body(ra).startswith("game"), ra)
    g = genmove_of(a, timeout=30)
    check("and asks for a move", g is not None, g)
    d.stop()


def fill(path):
    """Fills the file system of path; returns the filler's name.  Unbuffered
    writes until one fails for want of space (ENOSPC), then a close that may
    fail the same way: both mean the file system is full."""
    name = os.path.join(path, "filler")
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        while os.write(fd, b"\0" * 65536) > 0:
            pass
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
    finally:
        try:
            os.close(fd)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
    return name


def test_disk_full():
    """Disk full (a small tmpfs): a result that could not be committed is
    never reported as durable; new logged games are refused while the log
    fails; analysis goes on; the log recovers by itself when space
    returns.  SQLite may still fit a small write in space its WAL already
    holds, so each game is checked both ways: reported unlogged exactly
    when its record is not finished in the database."""
    mnt = os.path.join(TMP, "full")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs",
                       mnt]).returncode != 0:
        skip("disk full", "cannot mount a tmpfs (needs root)")
        return
    try:
        d = Daemon("full", db=os.path.join(mnt, "g.db"))
        c = Client(d)
        c.cmd("new nim 1")
        c.cmd("match engine first")
        r = c.cmd("play 1=0")
        check("durable result", ok(r) and "result first" in r and
              "unlogged" not in r, r)
        w = Client(d)
        e = Client(d)
        r = accepted(e, "seek nim 1 2 opponent=engine seat=1 tc=60000", "seek")
        gid2 = int(body(r).split()[1])
        rw = w.cmd("watch %d" % gid2)
        check("watch", ok(rw), rw)
        filler = fill(mnt)
        # The first write after the disk filled fails: the lobby game's
        # start or moves, or this match's start.  If that failure came
        # first, the match is refused already.
        c.cmd("new nim 1 1")
        r = c.cmd("match engine first")
        check("match, or refused for the log", ok(r) or
              "cannot write (disk full?)" in r, r)
        gid1 = int(re.search(r"game (\d+)", r).group(1)) if ok(r) else 0
        if gid1:
            r1 = c.cmd("play 1=0")      # nim 0 1: the engine takes it
            check("match result", r1 is not None and "result second" in r1,
                  r1)
        else:
            r1 = ""
        g = genmove_of(e)
        e.answer(g, "2=1")               # nim 1 1
        p = e.wait("commands", lambda x: " play " in x)
        g = genmove_of(e)
        e.answer(g, "1=0" if "1=0" not in (p or "") else "2=0")
        o = gameover_of(e)
        check("gameover", o is not None, o)
        # event unlogged comes just before the gameover (PROTOCOL.md): once
        # each has its gameover, whether it was told is known, no waiting.
        over = w.wait("events", lambda x: x.startswith(
            "event gameover %d " % gid2))
        check("spectator told the gameover", over is not None, over)
        ev = e.wait("events", lambda x: x.startswith("event unlogged"), 0)
        evw = w.wait("events", lambda x: x.startswith("event unlogged"), 0)
        unlogged = {gid2: ev is not None}
        if gid1:
            unlogged[gid1] = "unlogged %d" % gid1 in r1
        check("the first write after the disk filled failed",
              any(unlogged.values()), unlogged)
        check("spectator told like the player", (evw is None) ==
              (ev is None), (ev, evw))
        r = c.cmd("new nim 3 4 5")
        r = c.cmd("analyze")
        check("analysis served while the disk is full", ok(r) and
              "outcome N" in r, r)
        r = c.cmd("match engine first")
        check("a new logged game: refused while the log fails, with the "
              "reason", (ok(r) and c.cmd("resign") is not None) or
              "cannot write (disk full?)" in r, r)
        os.unlink(filler)
        back = wait_for(lambda: ok(c.cmd("match engine first")), WAIT)
        check("the log recovers by itself", back)
        r = c.cmd("resign")
        check("and results are durable again", ok(r) and
              "unlogged" not in r, r)
        c.cmd("stats")                  # flushes
        con = sqlite3.connect(d.db)
        for gid in unlogged:
            row = con.execute("SELECT status, reason FROM games WHERE "
                              "id = ?", (gid,)).fetchone()
            if unlogged[gid]:
                check("game %d unlogged: not finished, marked" % gid,
                      row is None or row == ("abandoned", "log-failed"),
                      row)
            else:
                check("game %d reported durable: finished" % gid,
                      row is not None and row[0] == "finished", row)
        con.close()
        d.stop()
    finally:
        subprocess.run(["umount", "-l", mnt])


if __name__ == "__main__":
    sys.exit(run([test_db_lock, test_passwords, test_engine_match_log,
                  test_table_bounds, test_undo_bytes, test_slowloris,
                  test_table_cache_cap, test_worker_fairness,
                  test_register_rate, test_clock_stall,
                  test_seek_off_loop, test_disk_full]))
