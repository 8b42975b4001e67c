#!/usr/bin/env python3
"""fanout-bench: the server's CPU per spectator-event of one game's feed,
against redis pub/sub with the same fan-out, in one run (issue 28 §3).

Each round runs, each on a fresh server:
  watch  grundyd, N spectators on `watch ID` (PROTOCOL.md §13.6);
  sse    grundyd --http, N spectators on GET /api/games/ID/feed (§14.4);
  redis  redis-server, N subscribers on one channel, one publisher sending
         a message the size of the watch line, then of the SSE event, one
         at a time, waiting for each reply (as the game's plies go: one
         move at a time);
with every build given (--old OLD/grundyd: the same phases on it, in the
same round).  The game: nim with one pile, each move taking one token,
played by two clients as fast as they can (sse-bench's players).  The
spectators are contrib/bench/sse-spect (one epoll loop) in their mode.

Prints, per round, the server's CPU (user + system, /proc/PID/stat) over
the plies divided by the events the spectators read, and the ratio to
redis's in the same round.

--counts first prints what each server does per request and per
spectator-event, counts that do not depend on the machine's load
(BENCHMARKS.md §45), for every build and redis in the same run:
  requests  grundy-bench --load L --requests N (--conns C): redis PING,
            grundyd protocol_version, grundyd game commands (new, match,
            play against the engine: refereed moves), `--db off`;
  events    the fan-out above with --count-spectators and --count-plies;
counted as:
  syscalls  system calls the server entered (perf stat -p on the
            raw_syscalls:sys_enter tracepoint), a native run;
  instr     user-space instructions of all its threads (valgrind
            --tool=callgrind, zeroed before the load and dumped after it:
            callgrind_control -z / -d), and from the same dump the calls
            to malloc, calloc and realloc (allocs) and the calls into
            libgmp from outside it (gmp);
then grundy-bench's own CPU ratios (--pid, --redis-pid) for each build.
The kernel's instructions are not counted (a VM has no PMU for perf):
the system calls stand for them.

Usage: python3 contrib/bench/fanout-bench.py ./grundyd [--old OLD/grundyd]
       [--spectators N] [--plies P] [--rounds R] [--redis-server PATH]
       [--counts] [--requests N] [--conns C] [--count-spectators N]
       [--count-plies P]
"""
import glob
import importlib.machinery
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchutil import die, free_port  # noqa: E402

PROG = "fanout-bench"
SB = importlib.machinery.SourceFileLoader(
    "ssebench", os.path.join(HERE, "sse-bench")).load_module()


def spectators(spect, port, chan, n, mode):
    """Starts sse-spect in mode; returns it once every spectator is in."""
    c = subprocess.Popen([spect, str(port), str(chan), str(n), mode],
                         stdout=subprocess.PIPE, text=True)
    if c.stdout.readline().strip() != "ready":
        die(PROG, "the %s spectators did not connect" % mode)
    return c


def events(c):
    """The number of events the spectators read (after the end)."""
    n = sum(1 for _ in c.stdout)
    if c.wait() != 0:
        die(PROG, "sse-spect failed")
    return n


def grundyd_phase(grundyd, spect, tmp, mode, n, plies, tag, count=None):
    """grundyd's fan-out to n spectators in mode (watch, sse): CPU per
    event, or with count, its counts per event."""
    http = mode == "sse"
    p, lport, hport = SB.start(grundyd, tmp, tag, http,
                               ["--max-watchers", str(n + 10)],
                               count.wrap if count else ())
    try:
        gid, a, b = SB.seek_pair(lport, plies, tag)
        c = spectators(spect, hport if http else lport, gid, n, mode)
        time.sleep(0.2)
        cpu0 = SB.proc_cpu(p.pid)
        if count:
            got = count(p.pid, lambda: SB.play(a, b, plies, 0.0))
        else:
            SB.play(a, b, plies, 0.0)
        cpu = SB.proc_cpu(p.pid) - cpu0
        ev = events(c)
        if ev != plies * n:
            die(PROG, "%s: %d events, expected %d" % (mode, ev, plies * n))
        if count:
            return {k: v / ev for k, v in got.items()}
        return cpu / ev
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(60)


class Syscalls:
    """Counts the system calls a process enters during some work (perf
    stat on the raw_syscalls:sys_enter tracepoint, attached to it)."""
    wrap = ()
    tag = "s"

    def __init__(self, tmp):
        self.out = os.path.join(tmp, "perf-stat.txt")

    def __call__(self, pid, work):
        perf = subprocess.Popen(["perf", "stat", "-x,", "-o", self.out,
                                 "-e", "raw_syscalls:sys_enter", "-p",
                                 str(pid)], stderr=subprocess.DEVNULL)
        time.sleep(0.5)         # attached (perf has no ready signal)
        work()
        perf.send_signal(signal.SIGINT)
        perf.wait(30)
        for line in open(self.out):
            f = line.split(",")
            if len(f) > 2 and f[2].startswith("raw_syscalls:sys_enter"):
                return {"syscalls": int(f[0])}
        die(PROG, "perf stat counted nothing (%s)" % self.out)


class Callgrind:
    """Counts a process's user-space instructions, allocations and calls
    into libgmp during some work: the process runs under callgrind, zeroed
    before the work and dumped after it."""

    tag = "c"

    def __init__(self, tmp):
        self.pattern = os.path.join(tmp, "callgrind.%p")
        self.wrap = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" +
                     self.pattern]

    def control(self, pid, what):
        subprocess.run(["callgrind_control", what, str(pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def __call__(self, pid, work):
        self.control(pid, "-z")
        work()
        before = set(glob.glob(self.pattern.replace("%p", "%d.*" % pid)))
        self.control(pid, "-d")
        dumps = set(glob.glob(self.pattern.replace("%p", "%d.*" % pid)))
        new = sorted(dumps - before)
        if len(new) != 1:
            die(PROG, "callgrind_control -d %d: no dump" % pid)
        return callgrind_counts(new[0])


# The allocators: glibc's, and jemalloc's inside redis-server.
ALLOCS = ("malloc", "calloc", "realloc", "je_malloc", "je_calloc",
          "je_realloc")


def callgrind_counts(path):
    """{instr, allocs, gmp} of a callgrind dump: the instructions (Ir) of
    every thread, the calls to malloc/calloc/realloc, and the calls from
    outside libgmp into it."""
    names = {"ob": {}, "fn": {}}
    kind = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn"}
    ob = cob = cfn = None
    instr = allocs = gmp = 0
    for line in open(path, errors="replace"):
        m = re.match(r"(c?ob|c?fn)=(?:\((\d+)\))? ?(.*)", line.rstrip("\n"))
        if m:
            key, ident, name = m.groups()
            table = names[kind[key]]
            if ident is not None and name:
                table[ident] = name
            val = table.get(ident, name) if ident is not None else name
            if key == "ob":
                ob = val
            elif key == "cob":
                cob = val
            elif key == "cfn":
                cfn = val
            continue
        if line.startswith("calls="):
            n = int(line.split("=", 1)[1].split()[0])
            target = cob if cob is not None else ob
            base = (cfn or "").split("'")[0]
            if base in ALLOCS:
                allocs += n
            if "libgmp" in (target or "") and "libgmp" not in (ob or ""):
                gmp += n
            cob = cfn = None
            continue
        if line.startswith("totals:") or line.startswith("summary:"):
            instr = int(line.split()[1])
    return {"instr": instr, "allocs": allocs, "gmp": gmp}


def request_counts(bench, build, kind, count, requests, conns, tmp, redis):
    """The counts per request of one load of grundy-bench on a fresh
    server: kind trivial, games or moves (games of 5..100,000-token piles:
    nearly all `play`) on grundyd (--db off), redis on redis-server."""
    if kind == "redis":
        p, port, s = start_redis(redis, conns + 100, count.wrap)
        s.close()
    else:
        p, port, _ = SB.start(build, tmp, "req%s%s" % (kind, count.tag), False,
                              ["--db", "off"], count.wrap)
    try:
        cmd = [bench, "--port", str(port), "--conns", str(conns),
               "--seconds", "3600"] + (
            ["--load", "games", "--pile-max", "100000"] if kind == "moves"
            else ["--load", kind])
        # A warm-up first: the server's buffers and tables exist.
        subprocess.run(cmd + ["--requests", str(requests // 10)],
                       check=True, stdout=subprocess.DEVNULL)
        done = {}

        def work():
            out = subprocess.run(cmd + ["--requests", str(requests)],
                                 check=True, stdout=subprocess.PIPE,
                                 text=True).stdout
            done["n"] = int(out.split()[-1])
        got = count(p.pid, work)
        return {k: v / done["n"] for k, v in got.items()}
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(60)


def print_counts(what, rows, ref):
    """Prints one table of counts per unit: a row per server, each count
    with its ratio to the row ref."""
    keys = ("syscalls", "instr", "allocs", "gmp")
    print("%s (ratio to %s):" % (what, ref))
    for name, c in rows:
        cells = []
        for k in keys:
            r = rows_get(rows, ref).get(k, 0)
            cells.append("%s %.2f%s" % (k, c.get(k, 0),
                                        " (%.2fx)" % (c[k] / r)
                                        if r and k in c else ""))
        print("  %-28s %s" % (name, ", ".join(cells)))


def rows_get(rows, name):
    return dict(rows)[name]


def counts(builds, redis, spect, tmp, o):
    """--counts: the load-independent counts of every server and build,
    per request and per spectator-event, then grundy-bench's CPU ratios."""
    bench = os.path.join(os.path.dirname(builds[0][1]), "grundy-bench")
    if not os.access(bench, os.X_OK):
        die(PROG, "%s: not built" % bench)
    meters = (Syscalls(tmp), Callgrind(tmp))
    req = {}
    for name, kind, build in [("redis PING", "redis", None)] + [
            ("%s %s" % (b, k), k, g) for b, g in builds
            for k in ("trivial", "games", "moves")]:
        req[name] = {}
        for m in meters:
            req[name].update(request_counts(bench, build, kind, m,
                                            o["requests"], o["conns"], tmp,
                                            redis))
    print_counts("per request, %d requests over %d connections" %
                 (o["requests"], o["conns"]),
                 [(k.replace("trivial", "protocol_version").replace(
                     "games", "game command").replace(
                     "moves", "move, long games"), v)
                  for k, v in req.items()], "redis PING")
    for b, g in builds:
        t = req["%s trivial" % b]
        print("  %s, ratio to its protocol_version: game command syscalls "
              "%.2fx, instr %.2fx; move, long games syscalls %.2fx, instr "
              "%.2fx" % (b, req["%s games" % b]["syscalls"] / t["syscalls"],
                         req["%s games" % b]["instr"] / t["instr"],
                         req["%s moves" % b]["syscalls"] / t["syscalls"],
                         req["%s moves" % b]["instr"] / t["instr"]))
    n, plies = o["count_spectators"], o["count_plies"]
    sizes = {"watch": WATCH_SIZE, "sse": SSE_SIZE}
    ev = []
    for mode in ("watch", "sse"):
        got = {}
        for m in meters:
            got.update(redis_phase(redis, spect, n, plies, sizes[mode], m))
        ev.append(("redis PUBLISH %d B" % sizes[mode], got))
        for b, g in builds:
            got = {}
            for m in meters:
                got.update(grundyd_phase(g, spect, tmp, mode, n, plies,
                                         "cnt%s%s%s" % (b, mode, m.tag),
                                         m))
            ev.append(("%s %s" % (b, mode), got))
    for mode in ("watch", "sse"):
        print_counts("per spectator-event, %d spectators, %d plies" %
                     (n, plies), [r for r in ev if r[0].endswith(mode) or
                                  r[0].startswith("redis PUBLISH %d " %
                                                  sizes[mode])],
                     "redis PUBLISH %d B" % sizes[mode])
    for b, g in builds:
        p, port, _ = SB.start(g, tmp, "cpu%s" % b, False, ["--db", "off"])
        r, rport, s = start_redis(redis, o["conns"] + 100)
        s.close()
        try:
            out = subprocess.run(
                [bench, "--port", str(port), "--conns", str(o["conns"]),
                 "--seconds", "5", "--redis", str(rport), "--pid",
                 str(p.pid), "--redis-pid", str(r.pid)], check=True,
                stdout=subprocess.PIPE, text=True).stdout
        finally:
            for x in (p, r):
                x.send_signal(signal.SIGTERM)
                x.wait(60)
        print("grundy-bench, %s:" % b)
        for line in out.splitlines():
            if "PING" in line or "CPU" in line:
                print("  " + line.strip())
        sys.stdout.flush()


def start_redis(redis, maxclients, wrap=()):
    """Starts redis-server (behind wrap, if given) on a free port;
    returns (process, port, a connection to it)."""
    port = free_port()
    p = subprocess.Popen(list(wrap) + [
        redis, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--maxclients", str(maxclients)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.time() + (120 if wrap else 10)
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            if time.time() > end:
                die(PROG, "redis-server did not start")
            time.sleep(0.05)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(b"PING\r\n")
    if not s.recv(64).startswith(b"+PONG"):
        die(PROG, "port %d: not our redis-server" % port)
    return p, port, s


def publish(s, plies, size):
    """Publishes plies messages of size bytes and the end, one at a time."""
    for ply in range(1, plies + 2):
        body = ("move %d " % ply) if ply <= plies else "end"
        body = body.ljust(size if ply <= plies else 3, "x")
        s.sendall(("*3\r\n$7\r\nPUBLISH\r\n$1\r\n1\r\n$%d\r\n%s\r\n" %
                   (len(body), body)).encode())
        got = b""
        while not got.endswith(b"\r\n"):
            got += s.recv(64)


def redis_phase(redis, spect, n, plies, size, count=None):
    """redis pub/sub to n subscribers: CPU per event, or with count (a
    function of the pid and the work, as counted()), its counts per
    event."""
    p, port, s = start_redis(redis, n + 100, count.wrap if count else ())
    try:
        c = spectators(spect, port, "1", n, "redis")
        time.sleep(0.2)
        cpu0 = SB.proc_cpu(p.pid)
        if count:
            got = count(p.pid, lambda: publish(s, plies, size))
        else:
            publish(s, plies, size)
        cpu = SB.proc_cpu(p.pid) - cpu0
        ev = events(c)
        if ev != plies * n:
            die(PROG, "redis: %d events, expected %d" % (ev, plies * n))
        s.close()
        if count:
            return {k: v / ev for k, v in got.items()}
        return cpu / ev
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(60)


# The sizes of what a spectator reads per move at ply ~1000 of a 2,000-ply
# game: the watch line and the SSE event (chunked).
WATCH_SIZE = len("event move 1 1000 1 1 time1=36000000 time2=36000000\n")
SSE_SIZE = 190


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        die(PROG, "usage: fanout-bench.py ./grundyd [--old OLD/grundyd] "
            "[--spectators N] [--plies P] [--rounds R]")
    builds = [("new", os.path.abspath(args.pop(0)))]
    n, plies, rounds = 1000, 2000, 2
    redis = shutil.which("redis-server") or "/usr/bin/redis-server"
    o = {"counts": False, "requests": 20000, "conns": 50,
         "count_spectators": 200, "count_plies": 300}
    while args:
        if args[0] == "--counts":
            o["counts"] = True
            args = args[1:]
            continue
        k, v = args[0], args[1]
        if k in ("--requests", "--conns", "--count-spectators",
                 "--count-plies"):
            o[k[2:].replace("-", "_")] = int(v)
        elif k == "--old":
            builds.append(("old", os.path.abspath(v)))
        elif k == "--spectators":
            n = int(v)
        elif k == "--plies":
            plies = int(v)
        elif k == "--rounds":
            rounds = int(v)
        elif k == "--redis-server":
            redis = v
        else:
            die(PROG, "unknown option %s" % k)
        args = args[2:]
    spect = os.path.join(HERE, "sse-spect")
    if not os.access(spect, os.X_OK):
        die(PROG, "%s: not built (make contrib/bench/sse-spect)" % spect)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2 * n + 100:
        die(PROG, "ulimit -Hn %d: %d spectators need %d descriptors" %
            (hard, n, 2 * n + 100))
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    tmp = tempfile.mkdtemp(prefix="fanout-bench.")
    print("spectators %d, plies %d; load average before: %s" %
          (n, plies, open("/proc/loadavg").read().split()[0]))
    if o["counts"]:
        counts(builds, redis, spect, tmp, o)
    sizes = {"watch": WATCH_SIZE, "sse": SSE_SIZE}
    for r in range(1, rounds + 1):
        ref = {m: redis_phase(redis, spect, n, plies, sizes[m])
               for m in ("watch", "sse")}
        for m in ("watch", "sse"):
            print("round %d redis pub/sub (%d-byte message): %.3f us per "
                  "event" % (r, sizes[m], ref[m] * 1e6))
        for name, g in builds:
            for m in ("watch", "sse"):
                x = grundyd_phase(g, spect, tmp, m, n, plies,
                                  "%s%s%d" % (name, m, r))
                print("round %d %s %-5s: %.3f us per event, %.2fx redis "
                      "pub/sub" % (r, name, m, x * 1e6, x / ref[m]))
        sys.stdout.flush()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
