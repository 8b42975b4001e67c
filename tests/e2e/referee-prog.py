#!/usr/bin/env python3
"""referee-prog.py: a player program that plays perfectly (it relays to
`grundy engine`) but misbehaves on purpose, the way honest bots do, to
check that `grundy bot` and grundyd route, frame and preprocess its
answers exactly (issue 9 §1).

Usage: referee-prog.py GRUNDY MODE[,MODE...]; modes:
  skip1       never answers the first genmove (then answers all the rest)
  ctrl        control characters and tabs inside every genmove answer
  multi1      the first genmove answer has a second line, `whoami`
  banner      a line `=== debug banner ===` before every answer
  dup         every answer written twice (duplicate id)
  stale       before every genmove answer, an answer `resign` with the
              id of the first command it was ever given (a stale id)
  noid        answers without ids (GTP allows it; they go to the oldest)
  slow        thinks 50 ms before every genmove answer
  refuse      answers `?ID not today` to every play (after playing it)
  huge1       the first genmove answer is its move with 2 MB of zeros
              after it (cut, it would read as a legal move)
"""
import subprocess
import sys
import time


def main():
    grundy, modes = sys.argv[1], set(sys.argv[2].split(","))
    eng = subprocess.Popen([grundy, "engine"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, bufsize=1)
    out = sys.stdout
    genmoves = 0
    first_id = None
    for line in sys.stdin:
        cid = line.split()[0] if line.split() else ""
        if first_id is None:
            first_id = cid
        eng.stdin.write(line)
        eng.stdin.flush()
        lines = []
        while True:
            r = eng.stdout.readline()
            if r in ("", "\n"):
                break
            lines.append(r.rstrip("\n"))
        if not lines:
            return 0
        is_genmove = " genmove" in " " + line
        if is_genmove:
            genmoves += 1
        head = lines[0]
        if "noid" in modes:
            head = head[0] + head[1 + len(cid):]
        if is_genmove and "skip1" in modes and genmoves == 1:
            continue
        if "refuse" in modes and " play " in " " + line:
            head = "?%s not today" % cid
        if is_genmove and "ctrl" in modes and head.startswith("="):
            # "=7 1=0" -> "=7\t\x011=\x7f0\x01": the same answer once
            # control characters are removed and tabs are spaces.
            body = head[1 + len(cid) + 1:]
            head = "=%s\t\x01%s\x7f%s\x01" % (cid, body[:2], body[2:])
        if is_genmove and "huge1" in modes and genmoves == 1:
            head += "0" * (2 * 1024 * 1024)
        if is_genmove and "multi1" in modes and genmoves == 1:
            lines.append("whoami")
        block = "\n".join([head] + lines[1:]) + "\n\n"
        if is_genmove and "slow" in modes:
            time.sleep(0.05)
        if "banner" in modes:
            out.write("=== debug banner ===\n")
        if is_genmove and "stale" in modes:
            out.write("=%s resign\n\n" % first_id)
        out.write(block)
        if "dup" in modes:
            out.write(block)
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
