#!/usr/bin/env python3
"""longlines.py: an address sending long request lines as fast as it can
(issue 25 §1, PROTOCOL.md §9): beyond what its address may have on the
workers (max-queued-per-ip, PREmax-lines-in-flight) its lines wait at
their connections, which the server stops reading, so the kernel's
buffers push back on the sender; no line is refused as busy, another
address is answered meanwhile, the daemon's memory stays bounded, and
every line is answered correctly once there is room.

The workers are gated (GRUNDYD_TEST_GATE, server-pool.c): while the gate
is shut the attacker's first lines hold the pool, so "the server stopped
reading" is a state the test polls for (each attacker socket full, its
server side holding unread bytes), not a time it waits.
"""
import os
import re
import select
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

CONNS = 8
LINE = 250 * 1024           # under max-line (262,144)
ATTACKER = "127.0.0.2"


def line_of(i):
    """Request i: an id and `new nim` of one pile of about 250,000 digits
    (over max-digits: answered with an error by a worker)."""
    head = "%d new nim " % i
    return (head + "7" * (LINE - len(head) - 1) + "\n").encode()


class Attacker:
    """CONNS non-blocking connections, each sending line after line."""

    def __init__(self, d):
        self.socks = []
        for _ in range(CONNS):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", d.port))
            s.setblocking(False)
            self.socks.append(s)
        self.nid = [1000 * k for k in range(CONNS)]    # last id sent
        self.pend = [b""] * CONNS       # the rest of the line being sent
        self.sent = [0] * CONNS         # complete lines sent
        self.inbuf = [b""] * CONNS
        self.replies = [[] for _ in range(CONNS)]

    def push(self, k, more):
        """Sends on connection k what its socket takes; starts a new line
        when more.  Returns whether anything was sent."""
        s, any_sent = self.socks[k], False
        while True:
            if not self.pend[k]:
                if not more:
                    return any_sent
                self.nid[k] += 1
                self.pend[k] = line_of(self.nid[k])
            try:
                n = s.send(self.pend[k])
            except BlockingIOError:
                return any_sent
            any_sent = True
            self.pend[k] = self.pend[k][n:]
            if not self.pend[k]:
                self.sent[k] += 1

    def pull(self, k):
        """Reads what has arrived on connection k into its replies."""
        try:
            while True:
                d = self.socks[k].recv(65536)
                if not d:
                    break
                self.inbuf[k] += d
        except BlockingIOError:
            pass
        while b"\n\n" in self.inbuf[k]:
            r, self.inbuf[k] = self.inbuf[k].split(b"\n\n", 1)
            self.replies[k].append(r.decode(errors="replace"))

    def round(self, more, timeout=0.2):
        """One poll round: sends and reads on every ready connection."""
        w = [s for k, s in enumerate(self.socks) if more or self.pend[k]]
        r, w, _ = select.select(self.socks, w, [], timeout)
        for k, s in enumerate(self.socks):
            if s in w:
                self.push(k, more)
            if s in r:
                self.pull(k)

    def stuck(self, port):
        """Every connection's socket is full and the server holds unread
        bytes of it: the server stopped reading all of them."""
        _, w, _ = select.select([], self.socks, [], 0)
        if w:
            return False
        unread = server_unread(port, ATTACKER)
        return all(unread.get(s.getsockname()[1], 0) > 0
                   for s in self.socks)


def test_long_lines():
    d, gate = gated_daemon("longlines", ATTACKER, "--workers", "2",
                           "--max-queued-per-ip", "4",
                           "--max-conns-per-ip", "100", db="off")
    rss0 = rss_kb(d)
    at = Attacker(d)
    end = time.time() + 60
    stuck = False
    while time.time() < end and not stuck:
        at.round(True)
        stuck = at.stuck(d.port)
    check("the server stops reading every attacker connection", stuck,
          (at.sent, server_unread(d.port, ATTACKER)))
    # What the kernel's buffers (at most their maximum sizes) and the
    # server's line at the gate or parked and one read ahead hold, no more.
    kernel = sum(int(open("/proc/sys/net/ipv4/tcp_%s" % k).read().split()[2])
                 for k in ("rmem", "wmem"))
    check("each connection sent what the buffers hold, no more",
          max(at.sent) * LINE <= kernel + 3 * LINE, (at.sent, kernel))
    for k in range(CONNS):
        at.pull(k)
    check("no attacker line is answered while the pool has no room",
          all(not r for r in at.replies), at.replies)
    # Bounded: per connection at most a line at the gate or parked and
    # one more read (max-line + a read); RSS within that and 16 MiB.
    bound = rss0 + CONNS * 3 * 262144 // 1024 + 16384
    rss = rss_kb(d)
    check("the daemon's RSS stays bounded (%d KiB, bound %d KiB)" %
          (rss, bound), rss <= bound)
    # Another address is answered meanwhile, heavy or light.
    b = Client(d)
    check("another address is answered",
          b.cmd("protocol_version", timeout=30) is not None)
    r = b.cmd("new nim " + "7" * 2000, timeout=30)
    check("another address's long line runs", ok(r), r)
    # Room: the gate opens for every line; each is answered, in order.
    os.write(gate, b"x" * 10000)
    while time.time() < end and any(at.pend):
        at.round(False)
    want = at.sent[:]
    while time.time() < end and any(len(at.replies[k]) < want[k]
                                     for k in range(CONNS)):
        at.round(False)
    check("every line sent is answered (%d lines)" % sum(want),
          all(len(at.replies[k]) == want[k] for k in range(CONNS)),
          ([len(x) for x in at.replies], want))
    bad = [r for k in range(CONNS) for i, r in enumerate(at.replies[k])
           if not re.match(r"\?%d invalid game: .*digits exceeds the "
                           r"limit of 100000$" % (1000 * k + i + 1), r)]
    check("each answer is its line's, none busy", not bad, bad[:3])
    check("at least one line beyond the pool's room waited",
          sum(want) > 4 + CONNS, want)
    os.close(gate)
    d.stop()


if __name__ == "__main__":
    sys.exit(run([test_long_lines]))
