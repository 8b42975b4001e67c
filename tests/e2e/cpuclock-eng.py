#!/usr/bin/env python3
"""cpuclock-eng.py: a nim player for tests/e2e/cpuclock.py that plays by
itself (no child process: its process tree is this one process) and
spends its CPU time on purpose:

  cpuclock-eng.py MODE MS LOG
  spin    burns MS ms of its own CPU time on each genmove, then answers
  ponder  answers at once, then burns CPU until its next command comes
          (thinking on the opponent's time)
  sleep   never answers a genmove (sleeps until killed)

It appends to LOG one line per command: "CMD CPU_NS" (its CPU time, user
and system, when the command was read), and "answered CPU_NS" after each
genmove answer, so a test can tell its CPU on and off its turn.
"""
import os
import select
import sys
import time


def cpu_ns():
    return time.process_time_ns()


def nim_move(piles):
    """The move to a nim-sum of 0 if there is one, else 1 off the largest."""
    x = 0
    for p in piles:
        x ^= p
    if x != 0:
        for i, p in enumerate(piles):
            if p ^ x < p:
                return i, p ^ x
    i = max(range(len(piles)), key=lambda k: piles[k])
    return i, piles[i] - 1


def main():
    mode, ms, logpath = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    log = open(logpath, "a", buffering=1)
    piles = []
    fd = sys.stdin.fileno()
    buf = b""
    while True:
        while b"\n" not in buf:
            if mode == "ponder" and piles:
                # Spin until a command is there: no blocking read.
                while not select.select([fd], [], [], 0)[0]:
                    pass
            chunk = os.read(fd, 65536)
            if not chunk:
                return 0
            buf += chunk
        line, buf = buf.split(b"\n", 1)
        words = line.decode().split()
        if len(words) < 2:
            continue
        cid, cmd = words[0], words[1]
        log.write("%s %d\n" % (cmd, cpu_ns()))
        answer = ""
        if cmd == "new":
            piles = [int(w) for w in words[3:]]
        elif cmd == "play":
            for ch in words[2:]:
                if "=" in ch and not ch.startswith("time"):
                    i, v = ch.split("=")
                    piles[int(i) - 1] = int(v)
        elif cmd == "genmove":
            if mode == "sleep":
                time.sleep(3600)
            if mode == "spin":
                end = cpu_ns() + ms * 1000000
                while cpu_ns() < end:
                    pass
            i, v = nim_move(piles)
            piles[i] = v
            answer = "%d=%d" % (i + 1, v)
        sys.stdout.write("=%s %s\n\n" % (cid, answer) if answer else
                         "=%s\n\n" % cid)
        sys.stdout.flush()
        if cmd == "genmove":
            log.write("answered %d\n" % cpu_ns())


if __name__ == "__main__":
    sys.exit(main())
