#!/usr/bin/env python3
"""pgstall-bench.py: what a stalled PostgreSQL costs a node's loop (issue
25 §4, BENCHMARKS.md "A stalled PostgreSQL under a node").  Two nodes on
one PostgreSQL: A schedules a running round-robin (its players, logged in
on A, never move: the games stay live, the scheduler's tick reads and
announces), B follows. Every process of the cluster is then stopped
(SIGSTOP) for S seconds while three probes run, each a `protocol_version`
round trip every 10 ms: on A, on B, and on a trivial line server (the
control, a Python asyncio process started by this script, measured in the
same run).  A client of B follows a game of A from before the stall;
halfway through it, it stops (`unwatch`: an UNLISTEN on B) and asks to
`watch` another (its read and LISTEN wait for the database), while A's
scheduler's tick goes on.  With MODE reads (BENCHMARKS §43), halfway
through three clients of B ask `standings st`, `tournament show st` (B
reads the tournament from the log) and `ratings` (B syncs the ratings),
and A's admin asks `tournament create` instead.  Prints each
probe's p50/p99/max in ms during the stall and the max as a ratio to the
control's.

Usage (from the build directory, a throwaway cluster):
    sh tests/e2e/pgcluster.sh run \
        python3 contrib/bench/pgstall-bench.py . SRCDIR [SECONDS [MODE]]
"""
import os
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(sys.argv[2] if len(sys.argv) > 2 else ".",
                                "tests", "e2e"))
from e2e import PROCS, Client, Daemon, login, ok, wait_for  # noqa: E402

URL = os.environ["SQLDB_PG_URL"]
STALL = float(sys.argv[3]) if len(sys.argv) > 3 else 8.0
MODE = sys.argv[4] if len(sys.argv) > 4 else "watch"     # or "reads"

CONTROL = r"""
import asyncio, sys
async def serve(r, w):
    while True:
        line = await r.readline()
        if not line:
            break
        w.write(b"=\n\n")
        await w.drain()
async def main():
    s = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(s.sockets[0].getsockname()[1], flush=True)
    await s.serve_forever()
asyncio.run(main())
"""


def cluster_pids():
    pidfile = os.path.join(os.environ["SQLDB_PG_DIR"], "data",
                           "postmaster.pid")
    with open(pidfile) as f:
        pm = int(f.readline())
    pids = [pm]
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
        except OSError:
            continue
        if int(st[st.rindex(")") + 2:].split()[1]) == pm:
            pids.append(int(p))
    return pids


def signal_all(pids, sig):
    for p in pids:
        try:
            os.kill(p, sig)
        except ProcessLookupError:
            pass


def prober(port, out, stop):
    """protocol_version every 10 ms until stop; round trips (ms) into
    out (a round trip that never ends counts as the stall's length)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=STALL + 60)
    f = s.makefile("rb")
    while not stop.is_set():
        t0 = time.perf_counter()
        s.sendall(b"protocol_version\n")
        while True:
            line = f.readline()
            if not line or line == b"\n":
                break
        out.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.01)
    s.close()


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))] if v else float("nan")


def main():
    ctl = subprocess.Popen([sys.executable, "-c", CONTROL],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    try:
        run(int(ctl.stdout.readline()))
    finally:
        for p in PROCS + [ctl]:
            if p.poll() is None:
                p.kill()
                p.wait()


def run(cport):
    a = Daemon("stall-a", "--admins", "boss", db=URL)
    wait_for(lambda: "event=scheduler-elected" in open(a.log.name).read(),
             30, 0.05)
    b = Daemon("stall-b", db=URL)
    boss = login(a, "boss")
    names = ["s%d" % i for i in range(4)]
    players = [login(a, n) for n in names]
    for c in players:
        assert ok(c.cmd("ready"))
    r = boss.cmd("tournament create st roundrobin players=%s tc=600000 "
                 "seed=1 nim 5 6 7" % ",".join(names))
    assert ok(r), r
    mark = " event=start player1="
    assert wait_for(lambda: mark in open(a.log.name).read(), 30, 0.05)
    gid = int(open(a.log.name).read().split(mark)[0]
              .rsplit("game=", 1)[1].split()[0])
    assert wait_for(lambda: open(a.log.name).read().count(mark) >= 2, 30,
                    0.05)     # two games: s0-s1 and s2-s3
    watcher = login(b, "w")
    r = None
    while r is None or "is starting on another node" in r:
        r = watcher.cmd("watch %d" % gid)
    assert ok(r), r
    time.sleep(1.0)     # the tick runs at least once before the stall
    readers = [Client(b) for _ in range(3)]
    pids = cluster_pids()
    res = {"A": [], "B": [], "control": []}
    stop = threading.Event()
    ths = [threading.Thread(target=prober, args=(p, res[k], stop))
           for k, p in (("A", a.port), ("B", b.port), ("control", cport))]
    signal_all(pids, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        for t in ths:
            t.start()
        time.sleep(STALL / 2)
        if MODE == "reads":
            for c, line in zip(readers, ("standings st",
                                         "tournament show st", "ratings")):
                c.send(line)
            boss.send("tournament create st2 roundrobin players=s0,s1 "
                      "tc=600000 seed=2 nim 5 6 7")
        else:
            watcher.send("unwatch %d" % gid)
            watcher.send("watch %d" % (gid + 1))
        time.sleep(max(0.0, STALL - (time.monotonic() - t0)))
    finally:
        stop.set()
        signal_all(pids, signal.SIGCONT)
    for t in ths:       # a round trip still waiting ends now: counted
        t.join(120)
    print("stall %.1f s, load %.1f" % (STALL, os.getloadavg()[0]))
    cmax = max(res["control"])
    for k in ("A", "B", "control"):
        v = res[k]
        print("%-8s probes %4d  p50 %8.2f  p99 %8.2f  max %8.2f ms  "
              "max/control %.1fx" % (k, len(v), pct(v, .5), pct(v, .99),
                                     max(v), max(v) / cmax))
    if MODE == "reads":   # each answered once the database went on
        for c in readers + [boss]:
            assert c.wait("replies", timeout=120) is not None
    for c in players + [boss, watcher] + readers:
        c.close()
    a.stop()
    b.stop()


if __name__ == "__main__":
    main()
