#!/usr/bin/env python3
"""match-bad.py: a player program for tests/e2e/match.py that plays perfectly
(it relays to `grundy engine`) but misbehaves on purpose, once per
process, at its Nth genmove (counted over the process's life):

  match-bad.py GRUNDY MODE N
  crash    exits with status 3 instead of answering
  hang     never answers (sleeps until killed)
  illegal  answers a move that is not legal (`9=1`)
  slow     (N ignored) waits 5 s before its first answer of all
  quit     answers its Nth genmove, then exits with status 3 (off move)
"""
import subprocess
import sys
import time


def main():
    grundy, mode, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    eng = subprocess.Popen([grundy, "engine"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)
    genmoves = 0
    if mode == "slow":
        time.sleep(5)
    for line in sys.stdin:
        words = line.split()
        if len(words) >= 2 and words[1] == "genmove":
            genmoves += 1
            if genmoves == n and mode == "crash":
                sys.exit(3)
            if genmoves == n and mode == "hang":
                time.sleep(3600)
            if genmoves == n and mode == "illegal":
                sys.stdout.write("=%s 9=1\n\n" % words[0])
                sys.stdout.flush()
                continue
        eng.stdin.write(line)
        eng.stdin.flush()
        while True:
            r = eng.stdout.readline()
            sys.stdout.write(r)
            if r in ("", "\n"):
                break
        sys.stdout.flush()
        if genmoves == n and mode == "quit" and words[1] == "genmove":
            sys.exit(3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
