#!/usr/bin/env python3
"""bot-fake-server.py: checks `grundy bot` against a scripted §13 server.

Usage: bot-fake-server.py GRUNDY

A fake grundyd on a loopback port plays the server side of
proto/PROTOCOL.md §13 by script: register (name taken), login, ready,
seek, a challenge that is accepted, a game whose commands are relayed to
`grundy engine`, a dropped connection that the bot resumes with its
token, a re-seek and a second game, after which `--games 2` makes the bot
exit 0.  Then a refused login and a program that dies must make it exit
non-zero with a message.
"""

import socket
import subprocess
import sys

TIMEOUT = 10


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


def start(grundy, port, extra, prog):
    argv = [grundy, "bot", "--server", "127.0.0.1:%d" % port,
            "--name", "alice", "--password", "secret123"] + extra + \
        ["--"] + prog
    return subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)


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
    c.expect("=8")
    err = finish(p, 0)
    for want in ("bot: game 7 over: first no-legal-move",
                 "bot: game 8 over: second timeout",
                 "alice is already registered", "resumed: game 7 you=1"):
        if want not in err:
            fail("stderr lacks %r:\n%s" % (want, err))
    if "tok123" in err:
        fail("the resume token was logged:\n%s" % err)
    c.close()


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
    scenario_bad_login(sys.argv[1], lst, port)
    scenario_program_dies(sys.argv[1], lst, port)
    print("bot-fake-server: relay, resume, re-seek, bad login and a dead "
          "program all behave")
    return 0


if __name__ == "__main__":
    sys.exit(main())
