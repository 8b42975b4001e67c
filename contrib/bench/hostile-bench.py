#!/usr/bin/env python3
"""hostile-bench.py: the latency other clients see while one hostile
client abuses grundyd (issue 11, BENCHMARKS.md §5).

Usage: contrib/bench/hostile-bench.py [GRUNDYD] [SECONDS]

For each abuse it starts a fresh grundyd with the default limits (its
database in a temporary directory), runs the attackers for SECONDS
(default 5) and meanwhile a probe client on its own connection that
sends, every 20 ms, a light command run on the event loop (`show` after
`new nim 1 2 3`) and, every 100 ms, on a second connection, a heavy one
run by the workers (`table wythoff count=5`).  It prints the probe's
median, 99th percentile and worst latency in ms for both, and what the
attackers got.  Attackers and probe share the machine's cores with the
daemon.  Measured, never asserted.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

GRUNDYD = sys.argv[1] if len(sys.argv) > 1 else "./grundyd"
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
TMP = tempfile.mkdtemp(prefix="hostile-bench.")


class Conn:
    def __init__(self, port, src="127.0.0.1"):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=30,
                                          source_address=(src, 0))
        self.buf = b""

    def cmd(self, line):
        """Sends a line and returns its reply block (skipping events)."""
        self.s.sendall((line + "\n").encode())
        return self.reply()

    def reply(self):
        while True:
            while b"\n\n" not in self.buf:
                d = self.s.recv(1 << 20)
                if not d:
                    return None
                self.buf += d
            # Skip server commands and events before the reply.
            while not self.buf.startswith((b"=", b"?")) and b"\n" in \
                    self.buf:
                self.buf = self.buf.split(b"\n", 1)[1]
            if self.buf.startswith((b"=", b"?")) and b"\n\n" in self.buf:
                r, self.buf = self.buf.split(b"\n\n", 1)
                return r.decode(errors="replace")


def daemon(name):
    port = os.path.join(TMP, name + ".port")
    log = open(os.path.join(TMP, name + ".log"), "w")
    p = subprocess.Popen([GRUNDYD, "--listen", "127.0.0.1:0", "--port-file",
                          port, "--db", os.path.join(TMP, name + ".db")],
                         stdout=log, stderr=log)
    for _ in range(200):
        if os.path.exists(port) and os.path.getsize(port) > 0:
            break
        time.sleep(0.05)
    return p, int(open(port).read())


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def probe(port, stop, light, heavy):
    c = Conn(port)
    h = Conn(port)
    c.cmd("new nim 1 2 3")
    nxt = time.time()
    while not stop.is_set():
        t = time.time()
        c.cmd("show")
        light.append((time.time() - t) * 1000)
        if len(light) % 5 == 0:
            t = time.time()
            h.cmd("table wythoff count=5")
            heavy.append((time.time() - t) * 1000)
        nxt += 0.02
        time.sleep(max(0, nxt - time.time()))


SUM = "sum " + " + ".join("wythoff t=%d 199 199" % t for t in range(1, 65))


def seek_draw(port, stop, n):
    """seek random=1 opponent=engine with a 64-component sum template."""
    c = Conn(port, "127.0.0.2")
    while not stop.is_set():
        r = c.cmd("seek %s random=1 opponent=engine tc=60000" % SUM)
        n.append(1)
        if r and r.startswith("= game") or r and "game" in r:
            gid = r.split()[-1]
            c.cmd("resign %s" % gid)


def table_huge(port, stop, n):
    c = Conn(port, "127.0.0.2")
    k = "9" * 100000
    while not stop.is_set():
        c.cmd("table wythoff K=%s count=1000" % k)
        n.append(1)


def table_cache(port, stop, n):
    c = Conn(port, "127.0.0.2")
    i = 0
    while not stop.is_set():
        i += 1
        c.cmd("table wythoff K=%d count=20000" % (1000 + i))
        n.append(1)


def heavy_flood(port, stop, n):
    c = Conn(port, "127.0.0.2")
    while not stop.is_set():
        c.cmd("stats")
        c.cmd("new " + SUM)
        n.append(1)


def undo_mem(port, stop, n):
    c = Conn(port, "127.0.0.2")
    c.cmd("new nim " + " ".join(["9"] * 10000))
    i = 0
    while not stop.is_set() and i < 80000:
        c.cmd("play %d=%d" % (1 + i % 10000, 8 - (i // 10000)))
        i += 1
        n.append(1)


def slowloris(port, stop, n):
    socks = []
    for _ in range(50):
        s = socket.create_connection(("127.0.0.1", port),
                                     source_address=("127.0.0.2", 0))
        socks.append(s)
    while not stop.is_set():
        for s in socks:
            try:
                s.send(b"x")
            except OSError:
                n.append(1)
        time.sleep(0.5)


def quiet(fn, port, stop, n):
    """Runs an attacker; the daemon closing on it at the end is fine."""
    try:
        fn(port, stop, n)
    except OSError:
        pass


ABUSES = [("none", None, 0), ("seek-draw", seek_draw, 4),
          ("table-huge", table_huge, 4), ("table-cache", table_cache, 2),
          ("heavy-flood", heavy_flood, 8), ("undo-memory", undo_mem, 1),
          ("slowloris", slowloris, 1)]


def main():
    print("| abuse | attackers | attacker cmds | light p50/p99/max ms | "
          "heavy p50/p99/max ms | daemon RSS MB |")
    print("|---|---:|---:|---|---|---:|")
    for name, fn, k in ABUSES:
        p, port = daemon(name)
        stop = threading.Event()
        light, heavy, n = [], [], []
        ts = [threading.Thread(target=quiet, args=(fn, port, stop, n),
                               daemon=True) for _ in range(k)]
        for t in ts:
            t.start()
        time.sleep(0.5)
        pt = threading.Thread(target=probe, args=(port, stop, light, heavy))
        pt.start()
        time.sleep(SECONDS)
        rss = 0
        for line in open("/proc/%d/status" % p.pid):
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) // 1024
        stop.set()
        pt.join(60)
        p.terminate()
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
        print("| %s | %d | %d | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f "
              "| %d |" % (name, k, len(n), pct(light, .5), pct(light, .99),
                          max(light or [0]), pct(heavy, .5),
                          pct(heavy, .99), max(heavy or [0]), rss),
              flush=True)
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
