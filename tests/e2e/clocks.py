#!/usr/bin/env python3
"""clocks.py: end-to-end tests of the game clocks (PROTOCOL.md §12, §13.4)
against a real grundyd: every move's charged time is in the record in
microseconds (TIME_US), with TIME_MS its whole milliseconds and DELAY_US
the server's own part of the turn; it covers the bot's 2 ms of thinking
(the clock starts when the genmove left and stops when the answer arrived;
the bound is half of it, as the server's stamps are taken just after its
send and at the kernel's receive, which a preempted loop may place a few
microseconds either side of what the bot sees); and the clocks sent in
`play` are exactly what the record's microseconds leave.

Usage: clocks.py BUILDDIR SRCDIR.
"""
import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

BASE_US = 60000 * 1000
HOLD_S = 0.002          # the bot's own thinking time per move


def play_nim6(seats):
    """Plays nim 6 to its end, one token a move (seat 2 wins), each
    genmove held HOLD_S; returns {ply: holding in us} and {ply: the `play`
    that relayed it}."""
    hold, sent = {}, {}
    for ply in range(1, 7):
        mover, other = seats[2 - ply % 2], seats[1 + ply % 2]
        g = genmove_of(mover)
        check("genmove ply %d" % ply, g is not None, g)
        t_read = time.monotonic_ns()
        time.sleep(HOLD_S)
        mover.answer(g, "1=%d" % (6 - ply))
        hold[ply] = (time.monotonic_ns() - t_read) // 1000
        p = other.wait("commands", lambda x: " play " in x)
        check("play relayed ply %d" % ply, p is not None, p)
        other.answer(p)
        sent[ply] = p
    return hold, sent


def test_charged_us():
    """TIME_US covers the bot's thinking, TIME_MS = TIME_US / 1000,
    DELAY_US known, TIME_US not whole ms, and the clocks in `play` are
    base - the sum of TIME_US."""
    d = Daemon("clocks", "--clock-grace", "0")
    a, b = login(d, "ann"), login(d, "bob")
    for c in (a, b):    # the answer and the ack of `play` not held back
        c.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    gid, seats, _, _ = pair(d, a, b, "nim 6", "tc=60000")
    hold, sent = play_nim6(seats)
    for s in (1, 2):
        o = gameover_of(seats[s])
        check("gameover to seat %d" % s, o is not None and
              o.split()[2:] == ["second", "no-legal-move"], o)
    rec = body(Client(d).cmd("record %d" % gid))
    mv = re.findall(r"^move (\d+) ([12]) (1=\d) (\S+) (\d+) (\d+) (\d+)$",
                    rec, re.M)
    check("six moves with TIME_MS DELAY_US TIME_US", len(mv) == 6, rec)
    used = [0, 0, 0]
    for m in mv:
        ply, seat, ms, us = int(m[0]), int(m[1]), int(m[4]), int(m[6])
        check("ply %d: charged covers half the bot's 2 ms" % ply,
              us >= HOLD_S * 1e6 / 2, "charged %d us, held %d us: %s" %
              (us, hold[ply], rec))
        check("ply %d: TIME_MS is TIME_US's whole ms" % ply,
              ms == us // 1000, rec)
        used[seat] += us
        # The clocks after this move, in whole ms (no increment).
        want = ((BASE_US - used[1]) // 1000, (BASE_US - used[2]) // 1000)
        t = re.search(r"time1=(\d+) time2=(\d+)$", sent.get(ply) or "")
        check("ply %d: play sent the clocks the record leaves %r" %
              (ply, want), t is not None and
              (int(t.group(1)), int(t.group(2))) == want, sent.get(ply))
    check("microseconds, not whole milliseconds",
          any(int(m[6]) % 1000 != 0 for m in mv), rec)
    d.stop()


def main():
    return run([test_charged_us])


if __name__ == "__main__":
    sys.exit(main())
