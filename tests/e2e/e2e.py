#!/usr/bin/env python3
"""e2e.py: the client module shared by the end-to-end tests (play.py and
the others, run by tests/py-run.sh): a grundyd on an ephemeral loopback port with
its own database, a raw protocol client that sorts replies, server
commands and events, `grundy bot` processes, and a runner that counts
checks and looks for sanitizer reports in every log.

Every check is reported on its own in TAP (automake's tap-driver.sh):
`ok N - TEST: NAME` or `not ok N - TEST: NAME` with the detail as `#`
lines under it, and the plan `1..N` at the end; anything else printed is a
`#` comment.  A failure thus names its check in the test's .log and in
test-suite.log.

A test script does `from e2e import *`, defines test functions and ends
with `sys.exit(run([test_a, test_b]))`; argv is BUILDDIR SRCDIR.  Every
wait is bounded; daemons and bots are killed at the end whatever happens.
"""
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback

BUILD, SRC = sys.argv[1], sys.argv[2]
GRUNDYD = os.path.join(BUILD, "grundyd")
GRUNDY = os.path.join(BUILD, "grundy")
TMP = tempfile.mkdtemp(prefix="grundy-e2e.")
PROCS = []
DAEMONS = []            # the running test's: run() stops them at its end
NODE_LOGS = set()       # the logs of daemons on PostgreSQL (nodes)
# s: the default bound of every wait for something that should happen.
# A wait returns as soon as it happens, so the bound only matters on a
# loaded machine (make check beside other builds), where 5 s was too
# short; a test that waits for something NOT to happen names its own.
WAIT = 30.0
PASSED = 0
FAILED = 0
CURRENT = ""            # the test function running, a prefix of its checks


def note(text):
    """Prints text as TAP comment lines."""
    for line in str(text).splitlines() or [""]:
        print("# " + line, flush=True)


def waited(t0, timeout, got):
    """Called by every bounded wait when it ends: a wait that got what it
    waited for after more than half its bound is noted (`# slow wait`,
    with the test's line), so that a loaded run shows the waits near their
    deadline before they fail; a wait that ran out (nothing, or a wait
    for something NOT to happen) is not.  Returns got."""
    took = time.time() - t0
    if got and timeout >= 1 and took > timeout / 2:
        where = "?"
        for fr in reversed(traceback.extract_stack()[:-1]):
            if os.path.basename(fr.filename) not in ("e2e.py",
                                                      "httpapi.py"):
                where = "%s:%d" % (os.path.basename(fr.filename),
                                   fr.lineno)
                break
        note("slow wait: %.1f s of its %.0f s at %s" % (took, timeout,
                                                         where))
    return got


def check(name, cond, detail=""):
    """Reports one check as a TAP line; a failure's detail follows it as
    comments.  Returns cond, so that a test can stop on a failure."""
    global PASSED, FAILED
    n = PASSED + FAILED + 1
    # '#' starts a TAP directive; a description must not hold one.
    desc = (CURRENT + ": " if CURRENT else "") + \
        " ".join(str(name).replace("#", "No.").split())
    if cond:
        PASSED += 1
        print("ok %d - %s" % (n, desc), flush=True)
    else:
        FAILED += 1
        print("not ok %d - %s" % (n, desc), flush=True)
        note(detail)
    return bool(cond)


def skip(name, reason):
    """Reports a check that cannot run here as a TAP skip."""
    global PASSED
    PASSED += 1
    desc = (CURRENT + ": " if CURRENT else "") + " ".join(
        str(name).replace("#", "No.").split())
    print("ok %d - %s # SKIP %s" % (PASSED + FAILED, desc, reason),
          flush=True)


class Daemon:
    """A grundyd on an ephemeral port with its own database."""

    def __init__(self, name, *flags, db=None):
        self.db = db or os.path.join(TMP, name + ".db")     # "off": none
        self.flags = list(flags)
        # The tests read the database while the daemon runs, which needs
        # db-readers = on (PROTOCOL.md §12); E2E_DB_READERS=off runs them
        # with the default, the database the daemon's alone.
        if "--db-readers" not in self.flags:
            self.flags += ["--db-readers",
                           os.environ.get("E2E_DB_READERS", "on")]
        self.name = name
        self.port = 0
        DAEMONS.append(self)
        self.start()

    def start(self):
        """Starts it; a restart listens on the same port again.  The names
        of --admins are reserved; each is made an admin with the password
        password1 first (grundyd --add-admin, PROTOCOL.md §13.1)."""
        portfile = os.path.join(TMP, self.name + ".port")
        if os.path.exists(portfile):
            os.unlink(portfile)
        self.log = open(os.path.join(TMP, self.name + ".log"), "a")
        for i, f in enumerate(self.flags[:-1]):
            if f == "--admins" and self.db != "off":
                for n in self.flags[i + 1].split(","):
                    add_admin(self.db, n, log=self.log)
        # The loop guard (PROTOCOL.md §13.12): every statement the event
        # loop runs is reported in the log (event=loop-db), which run()
        # checks; GRUNDY_LOOP_DB=abort stops the daemon there instead.
        env = dict(os.environ)
        env.setdefault("GRUNDY_LOOP_DB", "log")
        if self.db.startswith("postgres"):
            NODE_LOGS.add(self.name + ".log")
        self.proc = subprocess.Popen(
            [GRUNDYD, "--listen", "127.0.0.1:%d" % self.port,
             "--port-file", portfile,
             "--db", self.db] + self.flags,
            stdout=self.log, stderr=self.log, env=env)
        PROCS.append(self.proc)
        wait_for(lambda: os.path.exists(portfile) and
                 os.path.getsize(portfile) > 0, WAIT, 0.05)
        self.port = int(open(portfile).read().strip())

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        try:
            self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def gated_daemon(name, host, *flags, db=None):
    """A daemon whose workers run a request of host only when the test
    writes a byte to the returned gate (GRUNDYD_TEST_GATE, server-pool.c):
    a barrier, so the test knows which requests hold a worker."""
    fifo = os.path.join(TMP, name + ".gate")
    os.mkfifo(fifo)
    os.environ["GRUNDYD_TEST_GATE"] = "%s:%s" % (host, fifo)
    try:
        d = Daemon(name, *flags, db=db)
    finally:
        del os.environ["GRUNDYD_TEST_GATE"]
    gate = os.open(fifo, os.O_WRONLY)
    return d, gate


def rss_kb(d):
    """The daemon's resident set (VmRSS), in KiB."""
    for line in open("/proc/%d/status" % d.proc.pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def server_unread(port, peer):
    """{peer port: bytes the server has not read} of the sockets of the
    server on port to the IPv4 address peer, from /proc/net/tcp: whether
    the server has read what a client sent (or stopped reading it)."""
    out = {}
    want = "%08X" % int.from_bytes(socket.inet_aton(peer), "little")
    for ln in open("/proc/net/tcp").readlines()[1:]:
        f = ln.split()
        lport = f[1].split(":")[1]
        rip, rport = f[2].split(":")
        if int(lport, 16) == port and rip == want:
            out[int(rport, 16)] = int(f[4].split(":")[1], 16)
    return out


def add_admin(db, name, pw="password1", log=None):
    """grundyd --db DB --add-admin NAME with the password pw (from
    GRUNDY_PASSWORD); checks that it succeeded."""
    env = dict(os.environ, GRUNDY_PASSWORD=pw)
    r = subprocess.run([GRUNDYD, "--db", db, "--add-admin", name], env=env,
                       stdout=subprocess.PIPE, stderr=log or subprocess.PIPE,
                       timeout=WAIT)
    if r.returncode != 0:
        raise RuntimeError("grundyd --add-admin %s: exit %d" %
                           (name, r.returncode))
    return r.stdout.decode()


class Client:
    """A raw protocol connection that sorts what arrives: replies (blocks
    starting with = or ?), server commands (ID NAME ...) and events."""

    def __init__(self, d, src=None, host="127.0.0.1", port=None):
        """Connects to d (or host:port), from the loopback address src
        (127.0.0.N) when given, so that tests can play other clients."""
        self.s = socket.create_connection(
            (host, port or d.port), timeout=WAIT,
            source_address=(src, 0) if src is not None else None)
        self.buf = b""
        self.replies = []
        self.commands = []
        self.events = []
        self.closed = False
        self.nid = 100

    def send(self, line):
        self.s.sendall((line + "\n").encode())

    def _pump(self, timeout):
        self.s.settimeout(timeout)
        try:
            data = self.s.recv(65536)
        except socket.timeout:
            return
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return
        self.buf += data
        while True:
            if self.buf.startswith((b"=", b"?")):
                end = self.buf.find(b"\n\n")
                if end < 0:
                    break
                self.replies.append(self.buf[:end].decode())
                self.buf = self.buf[end + 2:]
                continue
            end = self.buf.find(b"\n")
            if end < 0:
                break
            line = self.buf[:end].decode()
            self.buf = self.buf[end + 1:]
            if line.startswith("event "):
                self.events.append(line)
            elif line:
                self.commands.append(line)

    def wait(self, what, pred=lambda x: True, timeout=WAIT):
        """Waits for the first item of replies|commands|events matching
        pred; removes and returns it, or None after timeout."""
        lst = getattr(self, what)
        t0 = time.time()
        end = t0 + timeout
        while True:
            for i, x in enumerate(lst):
                if pred(x):
                    return waited(t0, timeout, lst.pop(i))
            left = end - time.time()
            if left <= 0 or self.closed:
                return None
            self._pump(min(left, 0.2))

    def cmd(self, line, timeout=WAIT):
        """Sends a command with a fresh id and returns its reply block."""
        self.nid += 1
        i = self.nid
        self.send("%d %s" % (i, line))
        r = self.wait("replies", lambda x: re.match(r"[=?]%d\b" % i, x),
                      timeout)
        return r

    def answer(self, cmdline, body=""):
        cid = cmdline.split()[0]
        self.send("=%s %s\n" % (cid, body))

    def drain(self):
        """Forgets whatever arrived from an earlier game."""
        self._pump(0.05)
        del self.commands[:]
        del self.events[:]

    def wait_closed(self, timeout=WAIT):
        """Reads until the server closes the connection; returns whether it
        did before the deadline."""
        t0 = time.time()
        end = t0 + timeout
        while not self.closed and time.time() < end:
            self._pump(min(end - time.time(), 0.2))
        return waited(t0, timeout, self.closed)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def ClientFrom(d, src, host="127.0.0.1", port=None):
    """A Client connecting from another loopback address (127.0.0.N)."""
    return Client(d, src, host, port)


def wait_for(pred, timeout=WAIT, interval=0.02):
    """Polls pred until it returns a true value or the deadline passes;
    returns that value (or pred()'s last one)."""
    t0 = time.time()
    end = t0 + timeout
    while time.time() < end:
        v = pred()
        if v:
            return waited(t0, timeout, v)
        time.sleep(interval)
    return waited(t0, timeout, pred())


def bot_log(name):
    """What the `grundy bot` named name has written so far."""
    return open(os.path.join(TMP, "bot-%s.log" % name),
                errors="replace").read()


def bots_logged_in(names, timeout=60.0):
    """Waits until each named bot has logged in; returns whether all did."""
    return wait_for(lambda: all("logged in" in bot_log(n) for n in names),
                    timeout)


def event_of(c, prefix, timeout=WAIT):
    return c.wait("events", lambda x: x.startswith("event " + prefix),
                  timeout)


def served(d, timeout=WAIT):
    """A new Client once the daemon serves one (slots of closed connections
    come back when the server has seen them close); None at the deadline."""
    def attempt():
        c = Client(d)
        if ok(c.cmd("protocol_version")):
            return c
        c.close()
        return None
    return wait_for(attempt, timeout, 0.05)


def ok(r):
    return r is not None and r.startswith("=")


def body(r):
    return re.sub(r"^[=?]\d*\s?", "", r or "")


def refused(c, line, name, *words):
    """Sends line on c; checks that it is refused, with each of words in the
    reply.  Returns the reply."""
    r = c.cmd(line)
    check(name, not ok(r) and (not words or r is not None and
                               all(w in r for w in words)), r)
    return r


def accepted(c, line, name, *words):
    """Sends line on c; checks that it succeeds, with each of words in the
    reply.  Returns the reply."""
    r = c.cmd(line)
    check(name, ok(r) and all(w in r for w in words), r)
    return r


def answers(c, line, name, want):
    """Sends line on c; checks that the reply's text is exactly want.
    Returns the reply."""
    r = c.cmd(line)
    check(name, body(r) == want, r)
    return r


def login(d, name, pw="password1", register=True):
    c = Client(d)
    if register:
        c.cmd("register %s %s" % (name, pw))
    r = c.cmd("login %s %s" % (name, pw))
    check("login " + name, ok(r), r)
    return c


def genmove_of(c, timeout=WAIT):
    return c.wait("commands", lambda x: " genmove " in x + " ", timeout)


def gameover_of(c, timeout=WAIT):
    return c.wait("commands", lambda x: " gameover " in x, timeout)


def pair(d, a, b, spec="nim 3 4 5", opts="tc=5000"):
    """Pairs two logged-in clients through seeks; returns (game id,
    {seat: client})."""
    a.drain()
    b.drain()
    ra = a.cmd("seek %s %s" % (spec, opts))
    check("seek waits", ok(ra) and body(ra).startswith("seek"), ra)
    rb = b.cmd("seek %s %s" % (spec, opts))
    check("seek pairs", ok(rb) and body(rb).startswith("game"), rb)
    ea = a.wait("events", lambda x: x.startswith("event start"))
    eb = b.wait("events", lambda x: x.startswith("event start"))
    check("start events", ea is not None and eb is not None)
    gid = int(ea.split()[2])
    seats = {int(re.search(r"you=(\d)", ea).group(1)): a,
             int(re.search(r"you=(\d)", eb).group(1)): b}
    return gid, seats, ea, eb


def db_game(d, gid):
    con = sqlite3.connect(d.db)
    row = con.execute("SELECT status, result, reason, rated, tc, player1,"
                      " player2 FROM games WHERE id = ?", (gid,)).fetchone()
    con.close()
    return row, db_count(d, "SELECT COUNT(*) FROM moves WHERE game_id = ?",
                         (gid,))

def db_count(d, sql, args=()):
    """The one number a SELECT COUNT(*) on d's database returns."""
    con = sqlite3.connect(d.db)
    n = con.execute(sql, args).fetchone()[0]
    con.close()
    return n


def standings(c, name):
    """((played, total), reply) of a tournament's standings."""
    r = c.cmd("standings " + name)
    m = re.search(r"played (\d+) of (\d+)", r or "")
    return (int(m.group(1)), int(m.group(2))) if m else (None, None), r


def kill_restart_finish(d, admin, tname, timeout):
    """Kills the daemon (-9), starts it again, logs admin in and waits
    until tournament tname has played all its games; returns (client,
    (played, total), standings reply)."""
    d.stop(signal.SIGKILL)
    d.start()
    c = Client(d)
    c.cmd("login %s password1" % admin)
    return (c,) + tournament_done(c, tname, timeout)


def tournament_done(c, tname, timeout):
    """Waits until tournament tname has played all its games; returns
    ((played, total), standings reply) as last seen."""
    last = [((None, None), None)]

    def done():
        last[0] = standings(c, tname)
        played, total = last[0][0]
        return played is not None and played == total
    wait_for(done, timeout, 0.1)
    return last[0]


def start_bot(d, name, prog, extra=()):
    log = open(os.path.join(TMP, "bot-%s.log" % name), "a")
    p = subprocess.Popen(
        [GRUNDY, "bot", "--server", "127.0.0.1:%d" % d.port, "--name",
         name, "--password", "password1", "--register"] + list(extra) +
        ["--"] + prog, stdout=log, stderr=log)
    PROCS.append(p)
    return p


GATE = r"""
import os, subprocess, sys, time
hold, free, grundy = sys.argv[1], int(sys.argv[2]), sys.argv[3]
parent = os.getppid()
eng = subprocess.Popen([grundy, "engine"], stdin=subprocess.PIPE,
                       stdout=sys.stdout, text=True, bufsize=1)
asked = 0
while True:
    line = sys.stdin.readline()
    if not line:
        break
    asked += (" genmove" in " " + line)
    while (asked > free and os.path.exists(hold) and
           os.getppid() == parent):
        time.sleep(0.02)
    eng.stdin.write(line)
    eng.stdin.flush()
eng.stdin.close()
eng.wait()
"""


def gate_prog(hold, free):
    """A bot's program: `grundy engine` behind a gate that answers free
    genmoves, then holds the next while the file hold exists, so that a
    test knows the exact ply a game stops at.  The gate lets go when its
    bot is gone (killed), so that no program outlives its test."""
    path = os.path.join(TMP, "gate.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(GATE)
    return [sys.executable, path, hold, str(free), GRUNDY]


def gen_log(name, games, accounts, seed=1, timeout=300):
    """A log of finished games among gen0 .. gen{accounts-1}, written by
    contrib/bench/gen-log.py into TMP/NAME.db; its path."""
    db = os.path.join(TMP, name + ".db")
    gen = os.path.join(SRC, "contrib", "bench", "gen-log.py")
    r = subprocess.run([sys.executable, gen, GRUNDYD, db, "--games", str(games),
                        "--accounts", str(accounts), "--seed", str(seed)],
                       capture_output=True, text=True, timeout=timeout)
    check("gen-log %s" % name, r.returncode == 0, r.stderr)
    return db


def run(tests):
    """Runs the test functions (PLAY_ONLY=name runs one), stops each test's
    daemons still running when it ends, kills every process left, checks
    every log for a sanitizer report and prints the TAP plan; returns the
    exit status."""
    global CURRENT
    only = os.environ.get("PLAY_ONLY")
    try:
        for t in tests:
            if only and t.__name__ != only:
                continue
            CURRENT = t.__name__
            t0 = time.time()
            try:
                t()
            except Exception as e:      # a crash is a failure, not a stop
                check("ran to its end", False, "exception: %r" % (e,))
            for d in DAEMONS:
                if d.proc.poll() is None:
                    d.stop()
            DAEMONS.clear()
            note("%s done in %.1f s" % (t.__name__, time.time() - t0))
        CURRENT = ""
    finally:
        for p in PROCS:
            if p.poll() is None:
                p.kill()
                p.wait()
    # Sanitizer builds: a report in any daemon or bot log is a failure.
    for f in sorted(os.listdir(TMP)):
        if f.endswith(".log"):
            text = open(os.path.join(TMP, f), errors="replace").read()
            check("no sanitizer report in " + f,
                  "Sanitizer" not in text and "runtime error:" not in text)
            # The loop guard (PROTOCOL.md §13.12): a node's loop runs no
            # statement; a single node's exceptions are listed.
            loop = [ln for ln in text.splitlines() if "event=loop-db " in ln]
            if f in NODE_LOGS:
                check("no database statement on the loop in " + f,
                      not loop, "\n".join(loop[:20]))
            elif loop:
                note("%s: %d statements on the loop (single node)" %
                     (f, len(loop)))
    if FAILED or os.environ.get("GRUNDY_KEEP_LOGS"):
        note("%d passed, %d failed (logs in %s)" % (PASSED, FAILED, TMP))
    else:
        # All passed: the daemons' logs and databases go (GRUNDY_KEEP_LOGS=1
        # keeps them); a failure keeps them for reading.
        shutil.rmtree(TMP, ignore_errors=True)
        note("%d passed, %d failed" % (PASSED, FAILED))
    print("1..%d" % (PASSED + FAILED), flush=True)
    return 1 if FAILED else 0
