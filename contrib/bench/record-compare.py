#!/usr/bin/env python3
"""record-compare.py: every reply proportional to a game's record, from
two grundyd binaries over copies of the same databases, compared byte for
byte (issue 25 §2: the streamed replies must equal the ones built whole).

Usage: contrib/bench/record-compare.py [--long PLIES] OLD NEW [DB...]

For each database (and with --long, one more: a finished PLIES-ply match
on nim with 200-digit piles, played on OLD), both daemons run on their own
copy (with bounds-bench.py's row b flags); for every game of the log (GET /api/games, all pages) it fetches
  GET /api/games/ID, GET /api/games/ID/record, HEAD of both,
  GET /api/games/ID/feed as SSE and NDJSON, from ply 0 and from half way,
  GTP record ID, record ID format=file and record ID format=json
and prints each pair that differs (a GTP record OLD refused over
max-reply counts as skipped, and NEW's must then equal the file
download).  Exit status 1 if any differ.
"""
import http.client
import importlib.util
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "boundsbench", os.path.join(HERE, "bounds-bench.py"))
bb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bb)


def get(hport, path, method="GET", headers=None):
    c = http.client.HTTPConnection("127.0.0.1", hport, timeout=bb.WAIT)
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    b = r.read()
    c.close()
    return r.status, b


def gtp(port, line):
    """The raw bytes of one GTP reply ("=..." up to its blank line)."""
    c = bb.Conn(port)
    c.send(line)
    buf = b""
    while b"\n\n" not in buf:
        d = c.s.recv(1 << 20)
        if not d:
            break
        buf += d
    c.s.close()
    return buf


def game_ids(hport):
    ids, path = [], "/api/games?limit=200"
    while path:
        st, b = get(hport, path)
        if st != 200:
            break
        j = json.loads(b)
        ids += [g["id"] for g in j["games"]]
        path = j.get("next")
    return ids


def start(binary, name, src):
    db = os.path.join(bb.TMP, name + ".db")
    if src is not None:
        shutil.copyfile(src, db)
    return bb.daemon(binary, name, "--max-conns-per-ip", "1000",
                     *bb.ROW_FLAGS["b"])


def compare(old, new, src, tag):
    """Returns (same, differ, skipped) over src's games."""
    po, porto, hporto, _ = start(old, tag + "-old", src)
    pn, portn, hportn, _ = start(new, tag + "-new", src)
    same = differ = skipped = 0
    try:
        ids = game_ids(hporto)
        for gid in ids:
            st, b = get(hporto, "/api/games/%d/record" % gid)
            half = 0
            for ln in b.decode(errors="replace").split("\n"):
                if ln.startswith("moves "):
                    half = int(ln.split()[1]) // 2
            asks = []
            for p in ("/api/games/%d", "/api/games/%d/record"):
                asks += [("GET", p % gid, None), ("HEAD", p % gid, None)]
            for since in (0, half):
                f = "/api/games/%d/feed?since=%d" % (gid, since)
                asks += [("GET", f, None), ("GET", f, {
                    "Accept": "application/x-ndjson"})]
            for m, p, h in asks:
                a, b2 = get(hporto, p, m, h), get(hportn, p, m, h)
                if a == b2:
                    same += 1
                else:
                    differ += 1
                    print("DIFFER %s %s %s: %d bytes (%d) vs %d (%d)" % (
                        tag, m, p, len(a[1]), a[0], len(b2[1]), b2[0]))
            for opt in ("", " format=file", " format=json"):
                line = "record %d%s" % (gid, opt)
                a, b2 = gtp(porto, line), gtp(portn, line)
                if a.startswith(b"?") and b"max-reply" in a:
                    skipped += 1
                    if opt == " format=file" and not b2.startswith(
                            b"= " + get(hportn, "/api/games/%d/record" %
                                        gid)[1]):
                        differ += 1
                        print("DIFFER %s %s: not the file download" %
                              (tag, line))
                elif a == b2:
                    same += 1
                else:
                    differ += 1
                    print("DIFFER %s %s: %d bytes vs %d" % (
                        tag, line, len(a), len(b2)))
        print("%s: %d games, %d replies identical, %d differ, %d skipped "
              "(OLD refused over max-reply)" % (tag, len(ids), same, differ,
                                                skipped), flush=True)
    finally:
        bb.stop_daemon(po)
        bb.stop_daemon(pn)
    return same, differ, skipped


def main():
    args = sys.argv[1:]
    plies = 0
    if args[:1] == ["--long"]:
        plies = int(args[1])
        args = args[2:]
    if len(args) < 2:
        raise SystemExit(__doc__)
    old, new, dbs = args[0], args[1], args[2:]
    differ = 0
    try:
        for i, db in enumerate(dbs):
            differ += compare(old, new, db, "db%d" % i)[1]
        if plies:
            p, port, _, db = bb.daemon(old, "long", "--max-conns-per-ip",
                                       "1000", *bb.ROW_FLAGS["b"])
            bb.long_match(port, plies, 200)
            bb.stop_daemon(p)
            differ += compare(old, new, db, "long%d" % plies)[1]
    finally:
        shutil.rmtree(bb.TMP, ignore_errors=True)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
