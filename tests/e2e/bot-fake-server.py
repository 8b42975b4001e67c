#!/usr/bin/env python3
"""bot-fake-server.py: checks `grundy bot` against a scripted §13 server.

Usage: bot-fake-server.py GRUNDY

A fake grundyd on a loopback port plays the server side of
proto/PROTOCOL.md §13 by script: register (name taken), login, ready,
seek, a challenge that is accepted, a game whose commands are relayed to
`grundy engine`, a dropped connection that the bot resumes with its
token, a re-seek and a second game, after which `--games 2` makes the bot
send unready and exit 0.  A restarted bot resumes its live game by id
(`event live`), and a game cut off does not count; a locked login is
retried after the wait the server gives; `--accept-*` filters decline;
the password comes from a file or the environment.  Then a refused login and a program that dies must make it exit
non-zero with a message.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time

TIMEOUT = 10
TMPDIR = tempfile.mkdtemp(prefix="bot-fake.")


def fail(msg):
    sys.stderr.write("FAIL %s\n" % msg)
    sys.exit(1)


class Conn:
    """One accepted connection, read by lines."""

    def __init__(self, listener):
        self.s, _ = listener.accept()
        self.s.settimeout(TIMEOUT)
        self.buf = b""

    def line(self):
        while b"\n" not in self.buf:
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                fail("timed out waiting for the bot (have %r)" % self.buf)
            if not data:
                fail("the bot closed the connection (have %r)" % self.buf)
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def expect(self, *want):
        """Reads len(want) lines (blank ones skipped) in any order."""
        got = []
        while len(got) < len(want):
            line = self.line()
            if line != "":
                got.append(line)
        if sorted(got) != sorted(want):
            fail("want %r, got %r" % (list(want), got))

    def send(self, text):
        self.s.sendall(text.encode())

    def close(self):
        self.s.close()


def start(grundy, port, extra, prog, password=None, env=None):
    if password is None:
        password = ["--password", "secret123"]
    argv = [grundy, "bot", "--server", "127.0.0.1:%d" % port,
            "--name", "alice"] + password + extra + ["--"] + prog
    e = dict(os.environ)
    e.pop("GRUNDY_PASSWORD", None)
    e.update(env or {})
    return subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=e)


def finish(p, want_rc):
    try:
        _, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("the bot did not exit")
    if (p.returncode == 0) != (want_rc == 0):
        fail("exit status %d, want %s\n%s" % (p.returncode,
             "0" if want_rc == 0 else "non-zero", err))
    return err


def scenario_games(grundy, lst, port):
    p = start(grundy, port, ["--register", "--accept", "--games", "2",
                             "--reconnect-ms", "50", "--seek",
                             "nim 3 4 5 tc=60000"], [grundy, "engine"])
    c = Conn(lst)
    c.expect("1001 register alice secret123", "1002 login alice secret123",
             "1003 ready", "1004 seek nim 3 4 5 tc=60000")
    c.send("?1001 name alice is taken\n\n"
           "=1002 account alice\nrole player\nrating 1500\n\n"
           "=1003\n\n=1004 seek 1\n\n")
    c.send("event challenge 9 bob tc=1000 rated=0 seat=1 nim 1\n")
    c.expect("1005 accept 9")
    c.send("?1005 no such challenge: 9\n\n")
    c.send("event start 7 alice bob you=1 token=tok123 tc=60000+0 rated=1 "
           "nim 3 4 5\n1 new nim 3 4 5\n2 genmove time1=60000 time2=60000\n")
    c.expect("=1 nim 3 4 5", "=2 1=1")
    c.close()                       # the connection drops mid-game
    c = Conn(lst)
    c.expect("1006 login alice secret123", "1007 resume tok123", "1008 ready")
    c.send("=1006 account alice\nrole player\nrating 1500\n\n"
           "=1007 game 7 you=1\n\n=1008\n\n")
    c.send("1 new nim 1 4 5\n2 play 2=3 time1=59000 time2=60000\n"
           "3 genmove time1=59000 time2=59000\n")
    c.expect("=1 nim 1 4 5", "=2", "=3 3=2")
    c.send("4 gameover first no-legal-move\n")
    c.expect("=4", "1009 seek nim 3 4 5 tc=60000")
    c.send("=1009 seek 2\n\n")
    c.send("event start 8 carol alice you=2 token=t2 tc=60000+0 rated=1 "
           "nim 2 2\n5 new nim 2 2\n6 play 1=1 time1=1 time2=2\n"
           "7 genmove time1=1 time2=2\n")
    c.expect("=5 nim 2 2", "=6", "=7 2=1")
    c.send("8 gameover second timeout\n")
    # Leaving: unready first, so no tournament game starts on it.
    c.expect("=8", "1010 unready")
    c.send("=1010\n\n")
    err = finish(p, 0)
    for want in ("won against bob (first won, seat 1): no-legal-move",
                 "won against carol (second won, seat 2): timeout",
                 "alice is already registered", "resumed: game 7 you=1"):
        if want not in err:
            fail("stderr lacks %r:\n%s" % (want, err))
    if "tok123" in err:
        fail("the resume token was logged:\n%s" % err)
    c.close()


def scenario_restart(grundy, lst, port):
    """A bot restarted while its account holds a live game resumes it by
    id (event live); a game cut off and replayed does not count toward
    --games; a game it is already in on this connection is not resumed
    twice.  The password comes from a file."""
    pw = os.path.join(TMPDIR, "pw")
    with open(pw, "w") as f:
        f.write("secret123\n")
    p = start(grundy, port, ["--games", "1", "--seek", "nim 5"],
              [grundy, "engine"], password=["--password-file", pw])
    c = Conn(lst)
    c.expect("1001 login alice secret123", "1002 ready", "1003 seek nim 5")
    c.send("=1001 account alice\nrole player\nrating 1500\n\n"
           "event live 40 bob alice you=2 tc=60000 rated=1 nim 5\n")
    c.expect("1004 resume 40")
    c.send("=1002\n\n?1003 seated in a live game: resume it first\n\n"
           "=1004 game 40 you=2\n\n"
           "event live 40 bob alice you=2 tc=60000 rated=1 nim 5\n"
           "1 new nim 5\n2 genmove time1=1 time2=2\n")
    c.expect("=1 nim 5", "=2 1=0")
    # The daemon restarts: the game is cut off, to be played again.
    c.send("3 gameover - aborted\n")
    c.expect("=3", "1005 seek nim 5")
    c.send("=1005 seek 9\n\nevent start 41 alice bob you=1 token=t41 "
           "tc=60000 rated=1 nim 2\n4 new nim 2\n5 genmove time1=1 "
           "time2=1\n")
    c.expect("=4 nim 2", "=5 1=0")
    c.send("6 gameover first no-legal-move\n")
    c.expect("=6", "1006 unready")
    c.send("=1006\n\n")
    err = finish(p, 0)
    for want in ("resumed: game 40 you=2", "seek refused while a game of "
                 "ours is live", "game 40 over: - aborted (not counted)",
                 "won against bob (first won, seat 1)",
                 "1 game played: leaving"):
        if want not in err:
            fail("stderr lacks %r:\n%s" % (want, err))
    c.close()


def scenario_locked(grundy, lst, port):
    """A locked login is retried after the time the server gives; the
    password comes from the environment; --accept-* filters decline."""
    p = start(grundy, port, ["--no-ready", "--accept-games", "nim",
                             "--accept-min-tc", "2000",
                             "--accept-rated", "0"],
              [grundy, "engine"], password=[],
              env={"GRUNDY_PASSWORD": "secret123"})
    c = Conn(lst)
    c.expect("1001 login alice secret123")
    t0 = time.monotonic()
    c.send("?1001 too many failed logins for alice: retry in 1 s\n\n")
    c.close()
    c = Conn(lst)
    waited = time.monotonic() - t0
    if waited < 1.0:
        fail("logged in again after %.3f s, before the lock ended" % waited)
    c.expect("1002 login alice secret123")
    c.send("=1002 account alice\nrole player\nrating 1500\n\n")
    c.send("event challenge 5 bob tc=1000 rated=0 seat=1 nim 3\n")
    c.expect("1003 decline 5")
    c.send("=1003\n\nevent challenge 6 bob tc=60000 rated=0 seat=1 "
           "wythoff 3 5\n")
    c.expect("1004 decline 6")
    c.send("=1004\n\nevent challenge 7 bob tc=60000 rated=1 seat=1 "
           "nim 3\n")
    c.expect("1005 decline 7")
    c.send("=1005\n\nevent challenge 8 bob tc=1000+25 rated=0 seat=1 "
           "nim 3\n")
    c.expect("1006 accept 8")
    p.kill()                # before it can reconnect to the next scenario
    _, err = p.communicate(timeout=TIMEOUT)
    c.close()
    for want in ("logging in again in", "declining challenge 5: time "
                 "control 1000+0 is under --accept-min-tc 2000",
                 "declining challenge 6: game wythoff is not one of nim",
                 "declining challenge 7: a rated game"):
        if want not in err:
            fail("stderr lacks %r:\n%s" % (want, err))


def scenario_bad_login(grundy, lst, port):
    p = start(grundy, port, ["--no-ready"], [grundy, "engine"])
    c = Conn(lst)
    c.expect("1001 login alice secret123")
    c.send("?1001 wrong name or password\n\n")
    err = finish(p, 1)
    if "login as alice failed: wrong name or password" not in err:
        fail("bad login message:\n%s" % err)
    c.close()


def scenario_program_dies(grundy, lst, port):
    p = start(grundy, port, [], ["sh", "-c", "read x; exit 3"])
    c = Conn(lst)
    c.expect("1001 login alice secret123", "1002 ready")
    c.send("=1001 account alice\nrole player\nrating 1500\n\n=1002\n\n"
           "1 new nim 1\n")
    err = finish(p, 1)
    if "exited with status 3" not in err:
        fail("program death message:\n%s" % err)
    c.close()


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: bot-fake-server.py GRUNDY\n")
        return 2
    lst = socket.socket()
    lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lst.bind(("127.0.0.1", 0))
    lst.listen(4)
    lst.settimeout(TIMEOUT)
    port = lst.getsockname()[1]
    scenario_games(sys.argv[1], lst, port)
    scenario_restart(sys.argv[1], lst, port)
    scenario_locked(sys.argv[1], lst, port)
    scenario_bad_login(sys.argv[1], lst, port)
    scenario_program_dies(sys.argv[1], lst, port)
    print("bot-fake-server: relay, resume, re-seek, bad login and a dead "
          "program all behave")
    return 0


if __name__ == "__main__":
    sys.exit(main())
