#!/usr/bin/env python3
"""bounds-bench.py: issue 25's rows on bounded games, records and feeds,
rerun against one or more grundyd binaries in the same run, each beside
a trivial C line server (contrib/bench/line-server) as the control.

Usage: contrib/bench/bounds-bench.py [--seconds S] [--rows a,b,c]
                                     GRUNDYD [GRUNDYD...]

Rows (each on a fresh grundyd with --http and its own database):
  a  endless: one anonymous client plays a networked game against the
     engine (seek opponent=engine) on nim A A (A of 2,000 digits),
     answering at once (one less, or equal piles), for S seconds
     (default 10), seeking again whenever a game ends or is refused;
     prints RSS before/after and the log's growth (database and WAL
     bytes per second);
  b  records: a 20,000-ply game (200-digit piles; --anonymous-rate and
     --anonymous-burst 100000: its pipelined plies are not refused), read
     once whole, then 6 connections ask GET /api/games/ID and never
     read, for S seconds: RSS peak;
  c  feeds: a live 20,000-ply networked game (two clients, each taking
     one from the first non-empty pile), then 256 feeds with
     Last-Event-ID: 0 from 32 addresses (127.0.0.1-32, 8 each) that read
     as fast as they can, for S seconds: RSS peak, moves they got.
  d  long lines: 64 connections from the untrusted 127.0.0.1 each send
     256 KiB `new nim ...` lines (a 262,000-digit pile, over the game
     limits: answered on a worker) as fast as the server takes them,
     pipelined, reading the answers, for S seconds (contrib/bench/
     line-flood): lines sent and answered, `busy` refusals, RSS peak;
  e  engine moves: 4 anonymous clients each play a networked game
     against the engine (seek opponent=engine) on subtraction S=1,3,4
     with 300 piles of 1,000, answering at once (one from the largest
     pile), for S seconds: plies played.
During every row a probe client sends protocol_version on its own GTP
connection every 20 ms, and the same probe runs against the control;
both print p50/p99/max in ms.  Measured, never asserted.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="bounds-bench.")
WAIT = 60.0


def rss_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait_file(path):
    end = time.time() + WAIT
    while time.time() < end:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return open(path).read().strip()
        time.sleep(0.05)
    raise SystemExit("no port in %s" % path)


class Conn:
    def __init__(self, port, src="127.0.0.1"):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=WAIT,
                                          source_address=(src, 0))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.skipped = []       # server commands reply() passed over

    def send(self, line):
        self.s.sendall((line + "\n").encode())

    def reply(self):
        """The next reply block (server commands and events skipped)."""
        while True:
            while not self.buf.startswith((b"=", b"?")) and \
                    b"\n" in self.buf:
                ln, self.buf = self.buf.split(b"\n", 1)
                self.skipped.append(ln.decode(errors="replace"))
            if self.buf.startswith((b"=", b"?")) and b"\n\n" in self.buf:
                r, self.buf = self.buf.split(b"\n\n", 1)
                return r.decode(errors="replace")
            d = self.s.recv(1 << 20)
            if not d:
                return None
            self.buf += d

    def line(self):
        if self.skipped:
            return self.skipped.pop(0)
        while b"\n" not in self.buf:
            d = self.s.recv(1 << 20)
            if not d:
                return None
            self.buf += d
        ln, self.buf = self.buf.split(b"\n", 1)
        return ln.decode(errors="replace")

    def cmd(self, line):
        self.send(line)
        return self.reply()


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def prober(port, stop, out):
    """protocol_version every 20 ms on its own connection: ms each."""
    c = Conn(port)
    while not stop.is_set():
        t = time.perf_counter()
        r = c.cmd("protocol_version")
        if r is None:
            break
        out.append((time.perf_counter() - t) * 1000)
        time.sleep(0.02)


def daemon(binary, name, *flags):
    pf = os.path.join(TMP, name + ".port")
    log = open(os.path.join(TMP, name + ".log"), "w")
    db = os.path.join(TMP, name + ".db")
    p = subprocess.Popen([binary, "--listen", "127.0.0.1:0", "--port-file",
                          pf, "--db", db, "--http", "127.0.0.1:0",
                          "--trusted-networks", "none"] + list(flags),
                         stdout=log, stderr=log)
    port = int(wait_file(pf))
    hport = None
    end = time.time() + WAIT
    while hport is None and time.time() < end:
        for ln in open(os.path.join(TMP, name + ".log")):
            if "event=http-listen" in ln:
                hport = int(ln.split("port=")[1].split()[0])
        time.sleep(0.05)
    return p, port, hport, db


def stop_daemon(p):
    """Stops a daemon: SIGTERM, then SIGKILL after 30 s."""
    p.terminate()
    try:
        p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def db_bytes(db):
    return sum(os.path.getsize(db + s) for s in ("", "-wal")
               if os.path.exists(db + s))


def next_command(c, piles):
    """The next line from the server on c, as words (None on a time-out
    or a close); a `play` (the opponent's move) is applied to piles and
    answered."""
    try:
        ln = c.line()
    except socket.timeout:
        return None
    if ln is None:
        return None
    w = ln.split()
    if len(w) > 1 and w[1] == "play":
        for tok in w[2:]:
            if "=" in tok and not tok.startswith("time"):
                i, v = tok.split("=")
                piles[int(i) - 1] = int(v)
        c.send("=%s\n" % w[0])
    return w


def row_endless(port, hport, pid, db, seconds):
    """An anonymous networked game against the engine (seek
    opponent=engine), answered at once, a new one whenever it ends."""
    a = 10 ** 1999
    c = Conn(port)
    piles = [a, a]
    state = {"games": 0, "refused": 0, "plies": 0}

    def start():
        piles[0] = piles[1] = a
        r = c.cmd("seek nim %d %d opponent=engine tc=86400000" % (a, a))
        if r is not None and r.startswith("="):
            state["games"] += 1
            return True
        state["refused"] += 1
        return False
    rss0, b0, t0 = rss_kb(pid), db_bytes(db), time.time()
    live = start()
    c.s.settimeout(1)
    while time.time() - t0 < seconds:
        if not live:
            time.sleep(0.2)
            live = start()
            continue
        w = next_command(c, piles)
        if w is None:
            continue
        if len(w) > 1 and w[1] == "play":
            state["plies"] += 1
        elif len(w) > 1 and w[1] == "genmove":
            if piles[0] != piles[1]:        # equalize: the winning move
                i = 0 if piles[0] > piles[1] else 1
                piles[i] = piles[1 - i]
            else:
                i = 0 if piles[0] > 0 else 1
                piles[i] -= 1
            state["plies"] += 1
            c.send("=%s %d=%d\n" % (w[0], i + 1, piles[i]))
        elif len(w) > 1 and w[1] == "gameover":
            c.send("=%s\n" % w[0])
            live = start()
        elif len(w) > 1 and w[0].isdigit():     # new, ...: acknowledged
            c.send("=%s\n" % w[0])
    dt = time.time() - t0
    return ("RSS %d -> %d KiB, log +%.1f MB/s, %d plies, %d games, "
            "%d refused" % (rss0, rss_kb(pid), (db_bytes(db) - b0) / dt /
                            1e6, state["plies"], state["games"],
                            state["refused"]))


def long_match(port, plies, digits):
    a = 10 ** (digits - 1)
    c = Conn(port)
    c.cmd("new nim %d %d" % (a, a))
    r = c.cmd("match engine first")
    gid = int(r.split()[2]) if r and r.startswith("=") else 0
    n = plies // 2
    for k0 in range(0, n, 1000):
        c.s.sendall("".join("play 1=%d\n" % (a - k) for k in
                            range(k0 + 1, min(n, k0 + 1000) + 1)).encode())
        for k in range(k0, min(n, k0 + 1000)):
            c.reply()
    c.cmd("resign")
    return gid


def record_bytes(hport, gid):
    """The length of GET /api/games/ID, read whole (a reader's)."""
    s = socket.create_connection(("127.0.0.1", hport), timeout=WAIT)
    s.sendall(("GET /api/games/%d HTTP/1.0\r\n\r\n" % gid).encode())
    n, head = 0, b""
    while True:
        x = s.recv(1 << 20)
        if not x:
            break
        if not head:
            head = x[:64]
        n += len(x)
    s.close()
    return n, head.split(b"\r\n")[0].decode(errors="replace")


def row_records(port, hport, pid, db, seconds):
    gid = long_match(port, 20000, 200)
    size, status = record_bytes(hport, gid)
    rss0 = rss_kb(pid)
    socks = []
    for i in range(6):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", hport))
        s.sendall(("GET /api/games/%d HTTP/1.1\r\nHost: x\r\n\r\n" %
                   gid).encode())
        socks.append(s)
    peak, t0 = rss0, time.time()
    while time.time() - t0 < seconds:
        peak = max(peak, rss_kb(pid))
        time.sleep(0.1)
    codes = []
    for s in socks:
        s.settimeout(5)
        try:
            codes.append(s.recv(64).split(b" ")[1].decode())
        except (OSError, IndexError):
            codes.append("-")
        s.close()
    return "game %d (a reader got %d bytes: %s): RSS %d KiB, peak %d " \
        "KiB; replies %s" % (gid, size, status, rss0, peak, ",".join(codes))


def row_feeds(port, hport, pid, db, seconds):
    p1, p2 = Conn(port), Conn(port)
    for i, c in enumerate((p1, p2)):
        c.cmd("register feeder%d password1" % i)
        c.cmd("login feeder%d password1" % i)
    a = 10 ** 5
    spec = "nim %d %d" % (a, a)
    p1.cmd("seek %s tc=86400000" % spec)
    r = p2.cmd("seek %s tc=86400000" % spec)
    gid = int(r.split()[2])
    piles = [a, a]
    plies = [0]
    stop_play = threading.Event()

    def player(c):
        while not stop_play.is_set():
            w = next_command(c, piles)
            if w is None:
                return
            if len(w) > 1 and w[1] == "play":
                pass
            elif len(w) > 1 and w[1] == "genmove":
                i = 0 if piles[0] > 0 else 1
                piles[i] -= 1
                plies[0] += 1
                c.send("=%s %d=%d\n" % (w[0], i + 1, piles[i]))
            elif len(w) > 1 and w[1] == "gameover":
                return
            elif len(w) > 1 and w[0].isdigit():
                c.send("=%s\n" % w[0])
    ts = [threading.Thread(target=player, args=(c,)) for c in (p1, p2)]
    for t in ts:
        t.start()
    end = time.time() + 300
    while plies[0] < 20000 and time.time() < end:
        time.sleep(0.2)
    rss0 = rss_kb(pid)
    got = [0]
    lock = threading.Lock()
    stop = threading.Event()

    def feed(src):
        try:
            s = socket.create_connection(("127.0.0.1", hport), timeout=5,
                                         source_address=(src, 0))
            s.sendall(("GET /api/games/%d/feed HTTP/1.1\r\nHost: x\r\n"
                       "Last-Event-ID: 0\r\nAccept: application/x-ndjson"
                       "\r\n\r\n" % gid).encode())
            while not stop.is_set():
                try:
                    d = s.recv(1 << 16)
                except socket.timeout:
                    continue
                if not d:
                    break
                with lock:
                    got[0] += d.count(b'"type":"move"')
            s.close()
        except OSError:
            pass
    fs = [threading.Thread(target=feed, args=("127.0.0.%d" % (1 + i % 32),))
          for i in range(256)]
    for f in fs:
        f.start()
    peak, t0 = rss0, time.time()
    while time.time() - t0 < seconds:
        peak = max(peak, rss_kb(pid))
        time.sleep(0.1)
    stop.set()
    stop_play.set()
    for f in fs:
        f.join()
    return "game %d at ply %d: RSS %d KiB, peak %d KiB; feeds got %d " \
        "moves" % (gid, plies[0], rss0, peak, got[0])


def row_lines(port, hport, pid, db, seconds):
    """64 connections sending 256 KiB new lines as fast as the server
    takes them (contrib/bench/line-flood, C: blocking sends of one
    pre-built line, so the attacker idles when the server stops reading
    and its own CPU does not decide the control's latency)."""
    rss0 = rss_kb(pid)
    peak = [rss0]
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kb(pid))
            time.sleep(0.1)
    w = threading.Thread(target=watch)
    w.start()
    r = subprocess.run([os.path.join(HERE, "line-flood"), str(port), "64",
                        str(256 * 1024), str(max(1, int(seconds)))],
                       stdout=subprocess.PIPE, timeout=seconds + WAIT)
    stop.set()
    w.join()
    return "%s; RSS %d KiB, peak %d KiB" % (
        r.stdout.decode().strip(), rss0, peak[0])


def row_engine(port, hport, pid, db, seconds):
    """4 clients against the engine on a 300-pile subtraction game."""
    spec = "subtraction S=1,3,4 " + " ".join(["1000"] * 300)
    total = {"plies": 0, "games": 0}
    lock = threading.Lock()
    end = time.time() + seconds

    def one():
        c = Conn(port)
        piles = []
        plies = games = 0

        def start():
            piles[:] = [1000] * 300
            r = c.cmd("seek %s opponent=engine tc=86400000" % spec)
            return r is not None and r.startswith("=")
        live = start()
        games += live
        c.s.settimeout(1)
        while time.time() < end:
            w = next_command(c, piles)
            if w is None:
                continue
            if len(w) > 1 and w[1] == "play":
                plies += 1
            elif len(w) > 1 and w[1] == "genmove":
                i = max(range(len(piles)), key=lambda k: piles[k])
                piles[i] -= 1
                plies += 1
                c.send("=%s %d=%d\n" % (w[0], i + 1, piles[i]))
            elif len(w) > 1 and w[1] == "gameover":
                c.send("=%s\n" % w[0])
                if start():
                    games += 1
            elif len(w) > 1 and w[0].isdigit():
                c.send("=%s\n" % w[0])
        with lock:
            total["plies"] += plies
            total["games"] += games
    th = [threading.Thread(target=one) for _ in range(4)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    return "%d plies in %d games" % (total["plies"], total["games"])


ROWS = {"a": ("endless game", row_endless),
        "b": ("record, 6 non-readers", row_records),
        "c": ("256 catching-up feeds", row_feeds),
        "d": ("64 connections of 256 KiB lines", row_lines),
        "e": ("4 engine games, 300-pile subtraction", row_engine)}


# Row b's match sends its plies pipelined, 1,000 at a time: over the
# anonymous class's command budget (rate, burst) most would be refused.
ROW_FLAGS = {"b": ("--anonymous-rate", "100000", "--anonymous-burst",
                  "100000")}


def main():
    args = sys.argv[1:]
    seconds, rows = 10.0, "abc"
    while args and args[0].startswith("--"):
        if args[0] == "--seconds":
            seconds = float(args[1])
        elif args[0] == "--rows":
            rows = args[1].replace(",", "")
        args = args[2:]
    if not args:
        raise SystemExit(__doc__)
    ctl_pf = os.path.join(TMP, "control.port")
    ctl = subprocess.Popen([os.path.join(HERE, "line-server"), ctl_pf])
    ctl_port = int(wait_file(ctl_pf))
    try:
        for r in rows:
            name, fn = ROWS[r]
            for i, binary in enumerate(args):
                p, port, hport, db = daemon(binary, "%s%d" % (r, i),
                                            "--max-conns-per-ip", "1000",
                                            *ROW_FLAGS.get(r, ()))
                stop = threading.Event()
                probe, control = [], []
                th = [threading.Thread(target=prober, args=(port, stop,
                                                            probe)),
                      threading.Thread(target=prober, args=(ctl_port, stop,
                                                            control))]
                for t in th:
                    t.start()
                try:
                    what = fn(port, hport, p.pid, db, seconds)
                except Exception as e:          # a row that broke
                    what = "failed: %r" % e
                stop.set()
                for t in th:
                    t.join()
                print("%s | %s | %s | probe p50/p99/max %.2f/%.2f/%.2f ms "
                      "(%d) | control %.2f/%.2f/%.2f ms" % (
                          name, binary, what, pct(probe, .5),
                          pct(probe, .99), max(probe or [float("nan")]),
                          len(probe), pct(control, .5), pct(control, .99),
                          max(control or [float("nan")])), flush=True)
                stop_daemon(p)
    finally:
        ctl.kill()
        ctl.wait()
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
