#!/usr/bin/env python3
"""hostile.py: a hostile player program in Python for the sandbox's tests
(tests/e2e/sandbox.py, issue 27).  It speaks the engine side of the player
role (PROTOCOL.md section 13.2) for Nim ("nim N...", taking one token from
the first pile that has one) and, as its first argument says, misbehaves at its first
genmove:

    snoop PATH... [--write PATH...]  reads each PATH (a file, or a
                  directory's listing) and tries to create each --write
                  PATH; tells on stderr "hostile: saw N, wrote M" and each
                  success, then plays well
    net HOST PORT  opens a TCP connection (the seccomp filter kills it)
    sleep         sleeps for ever instead of moving (a timeout)

Standard library only.
"""
import os
import socket
import sys
import time


def snoop(args):
    """Reads and writes what args name; reports on stderr."""
    reads, writes, target = [], [], None
    for a in args:
        if a == "--write":
            target = writes
        else:
            (target if target is not None else reads).append(a)
    saw = wrote = 0
    for p in reads:
        try:
            if os.path.isdir(p):
                data = " ".join(os.listdir(p))
            else:
                with open(p, "rb") as f:
                    data = f.read(200)
            saw += 1
            sys.stderr.write("hostile: read %s: %r\n" % (p, data[:80]))
        except OSError as e:
            sys.stderr.write("hostile: cannot read %s: %s\n"
                             % (p, e.strerror))
    for p in writes:
        try:
            with open(p, "w") as f:
                f.write("pwned\n")
            wrote += 1
            sys.stderr.write("hostile: wrote %s\n" % p)
        except OSError as e:
            sys.stderr.write("hostile: cannot write %s: %s\n"
                             % (p, e.strerror))
    sys.stderr.write("hostile: saw %d, wrote %d\n" % (saw, wrote))
    sys.stderr.flush()


def misbehave(mode, args):
    if mode == "snoop":
        snoop(args)
    elif mode == "net":
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        try:
            s.connect((args[0], int(args[1])))
            sys.stderr.write("hostile: connected to %s:%s\n"
                             % (args[0], args[1]))
        except OSError as e:
            sys.stderr.write("hostile: connect: %s\n" % e)
    elif mode == "sleep":
        while True:
            time.sleep(3600)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    piles, done = [], False
    for line in sys.stdin:
        toks = line.split()
        if len(toks) < 2 or not toks[0].isdigit():
            continue
        cid, cmd, rest = toks[0], toks[1], toks[2:]
        body = ""
        if cmd == "new" and len(rest) >= 2 and rest[0] == "nim":
            piles = [int(t) for t in rest[1:]]
        elif cmd == "play" and rest and "=" in rest[0]:
            i, v = rest[0].split("=", 1)
            piles[int(i) - 1] = int(v)
        elif cmd == "genmove":
            if not done:
                done = True
                misbehave(mode, args)
            live = [i for i, p in enumerate(piles) if p > 0]
            if not live:
                body = " resign"
            else:
                piles[live[0]] -= 1
                body = " %d=%d" % (live[0] + 1, piles[live[0]])
        sys.stdout.write("=%s%s\n\n" % (cid, body))
        sys.stdout.flush()
        if cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
