#!/usr/bin/env python3
"""lobby-bench.py: measures networked play (PROTOCOL.md §13) on loopback.

Pairs of clients log in, seek the same game and play it through grundyd's
referee as fast as they can (every genmove answered at once with a legal
move: pile 1 lowered by one, then the next pile).  Prints, for the whole
run: games, refereed moves per second, and the turnaround per move (from
sending an answer to receiving the opponent's next genmove, i.e. the
referee's work plus two loopback hops), p50 and p99.  As a reference in
the same run it times `protocol_version` round trips on one connection.

With --pid PID (grundyd's process id) it also prints the daemon's CPU
time per refereed move (user + system, all its threads, from
/proc/PID/stat over the timed part of the run), which is steadier than
moves/s on a shared machine (issue 12 §2).

Usage: lobby-bench.py PORT [--pairs N] [--seconds S] [--piles P] [--pid PID]
(start grundyd with a fresh --db; the accounts are registered here.)
"""
import os
import select
import socket
import sys
import time


def cpu_ticks(pid):
    """User + system CPU of a process, all threads, in clock ticks."""
    with open("/proc/%d/stat" % pid) as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return int(rest[11]) + int(rest[12])     # fields 14 and 15 of stat


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def rpc(s, f, line):
    s.sendall((line + "\n").encode())
    out = []
    while True:
        ln = f.readline()
        if ln in ("\n", ""):
            return out
        out.append(ln.rstrip("\n"))


class Player:
    def __init__(self, port, name):
        self.s = connect(port)
        self.f = self.s.makefile("r")
        rpc(self.s, self.f, "register %s benchpass1" % name)
        rpc(self.s, self.f, "login %s benchpass1" % name)
        self.piles = []
        self.buf = b""


def main():
    port = int(sys.argv[1])
    pairs, seconds, npiles, pid = 4, 5.0, 3, None
    args = sys.argv[2:]
    while args:
        if args[0] == "--pairs":
            pairs = int(args[1])
        elif args[0] == "--seconds":
            seconds = float(args[1])
        elif args[0] == "--piles":
            npiles = int(args[1])
        elif args[0] == "--pid":
            pid = int(args[1])
        args = args[2:]
    ref = connect(port)
    rf = ref.makefile("r")
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 1.0:
        rpc(ref, rf, "protocol_version")
        n += 1
    rtt = (time.perf_counter() - t0) / n
    tag = int(time.time())
    players = []
    for i in range(pairs * 2):
        players.append(Player(port, "b%d_%d" % (tag, i)))
    spec = "nim " + " ".join(["500"] * npiles) + " tc=600000"
    byfd = {p.s.fileno(): p for p in players}
    games_of = {}           # game id -> its players
    turn = []
    moves = games = 0

    def seek(p):
        p.game = None
        p.answered = None
        p.s.sendall(("seek %s\n" % spec).encode())

    for p in players:
        seek(p)
    cpu0 = cpu_ticks(pid) if pid else 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        r, _, _ = select.select(list(byfd), [], [], 1.0)
        lines = []
        for fd in r:
            p = byfd[fd]
            data = p.s.recv(65536)
            if not data:
                raise SystemExit("server closed")
            p.buf += data
            while b"\n" in p.buf:
                ln, p.buf = p.buf.split(b"\n", 1)
                lines.append((p, ln.decode()))
        for p, ln in lines:
            w = ln.split()
            now = time.perf_counter()
            if len(w) >= 3 and w[0] == "event" and w[1] == "start":
                p.game = w[2]
                games_of.setdefault(w[2], []).append(p)
            elif len(w) >= 2 and w[1] == "new":
                p.piles = [int(x) for x in w[3:]]
                p.s.sendall(("=%s\n\n" % w[0]).encode())
            elif len(w) >= 3 and w[1] == "play":
                i, v = w[2].split("=")
                p.piles[int(i) - 1] = int(v)
                p.s.sendall(("=%s\n\n" % w[0]).encode())
            elif len(w) >= 2 and w[1] == "genmove":
                for q in games_of.get(p.game, []):
                    if q is not p and q.answered is not None:
                        turn.append(now - q.answered)
                        q.answered = None
                k = next(i for i, x in enumerate(p.piles) if x > 0)
                p.piles[k] -= 1
                p.answered = time.perf_counter()
                p.s.sendall(("=%s %d=%d\n\n" % (w[0], k + 1,
                                                  p.piles[k])).encode())
                moves += 1
            elif len(w) >= 2 and w[1] == "gameover":
                p.s.sendall(("=%s\n\n" % w[0]).encode())
                games_of.pop(p.game, None)
                games += 1
                seek(p)
    el = time.perf_counter() - start
    cpu = cpu_ticks(pid) - cpu0 if pid else 0
    turn.sort()
    p50 = turn[len(turn) // 2] * 1e6 if turn else 0
    p99 = turn[int(len(turn) * 0.99)] * 1e6 if turn else 0
    print("pairs=%d seconds=%.1f games=%d moves=%d moves/s=%.0f "
          "turnaround_p50=%.0fus turnaround_p99=%.0fus "
          "protocol_version_rtt=%.0fus ratio_p50/rtt=%.2f" %
          (pairs, el, games // 2, moves, moves / el, p50, p99, rtt * 1e6,
           (p50 / (rtt * 1e6)) if rtt else 0))
    if pid:
        hz = os.sysconf("SC_CLK_TCK")
        print("daemon_cpu=%.2fs daemon_cpu_per_move=%.1fus "
              "protocol_version_requests=%d" %
              (cpu / hz, cpu / hz / moves * 1e6 if moves else 0, n))


if __name__ == "__main__":
    main()
