#!/usr/bin/env python3
"""idle-bench.py: memory per idle connection, grundyd against redis-server.

Starts grundyd (game log on, in a temporary directory, --max-conns raised
for the run) and redis-server (--save '' --appendonly no, --maxclients
raised), both on free loopback ports, and for each server in turn:

  1. reads its VmRSS (/proc/PID/status);
  2. opens N connections and waits until the server holds them all (its
     open descriptors, /proc/PID/fd, grew by N), reads VmRSS again:
     "fresh", a connection that never sent anything;
  3. sends one request on each (grundyd `protocol_version`, redis PING)
     and reads every answer, reads VmRSS again once it has settled
     (within 1% over 12 s): "used", a connection that has done one
     request and now idles;
  4. closes them all.

Prints the RSS growth per connection of each server for both states, in
bytes, and the ratio grundyd / redis.  A benchmark, not a test: it exits
1 with a message if a server refuses or drops a connection or answers
wrongly.

usage: idle-bench.py GRUNDYD [--conns N] [--redis PATH]
"""
import os
import resource
import select
import socket
import subprocess
import sys
import tempfile
import time

import benchutil
from benchutil import free_port


def die(msg):
    benchutil.die("idle-bench", msg)


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    die("no VmRSS for pid %d" % pid)


def settled_rss(pid, window=12, limit=90.0):
    """VmRSS once it has stopped moving: within 1% over `window` seconds
    (redis frees an idle client's query buffer in its cron once the client
    has been idle for 2 s, and jemalloc hands freed pages back after about
    10 s), or the last value after `limit` seconds."""
    deadline = time.monotonic() + limit
    seen = [rss(pid)]
    while time.monotonic() < deadline:
        time.sleep(1.0)
        seen = (seen + [rss(pid)])[-(window + 1):]
        if len(seen) > window and max(seen) - min(seen) <= seen[-1] // 100:
            break
    return seen[-1]


def nfds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def wait_for(what, cond, seconds=30.0):
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            die("timed out waiting for %s" % what)
        time.sleep(0.01)


def connectable(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def measure(name, proc, port, conns, request, reply):
    """Returns (rss before, after connecting, after one request each)."""
    pid = proc.pid
    base_fds = nfds(pid)
    before = rss(pid)
    socks = []
    for i in range(conns):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port)))
        except OSError as e:
            die("%s: connection %d refused: %s" % (name, i + 1, e))
    wait_for("%s to accept %d connections" % (name, conns),
             lambda: proc.poll() is not None or
             nfds(pid) >= base_fds + conns)
    if proc.poll() is not None:
        die("%s exited (status %d)" % (name, proc.returncode))
    fresh = rss(pid)
    for s in socks:
        s.sendall(request)
    pending = {s.fileno(): (s, b"") for s in socks}
    poller = select.poll()
    for fd in pending:
        poller.register(fd, select.POLLIN)
    deadline = time.monotonic() + 60
    while pending:
        if time.monotonic() > deadline:
            die("%s: %d answers missing after 60 s" % (name, len(pending)))
        for fd, _ in poller.poll(1000):
            s, got = pending[fd]
            data = s.recv(4096)
            if not data:
                die("%s closed an idle connection" % name)
            got += data
            if len(got) >= len(reply):
                if not got.startswith(reply):
                    die("%s answered %r, not %r" % (name, got, reply))
                del pending[fd]
                poller.unregister(fd)
            else:
                pending[fd] = (s, got)
    used = settled_rss(pid)
    for s in socks:
        s.close()
    return before, fresh, used


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        die("usage: idle-bench.py GRUNDYD [--conns N] [--redis PATH]")
    grundyd, conns, redis = args[0], 10000, "redis-server"
    rest = args[1:]
    while rest:
        if rest[0] == "--conns" and len(rest) > 1:
            conns = int(rest[1])
        elif rest[0] == "--redis" and len(rest) > 1:
            redis = rest[1]
        else:
            die("unknown option %s" % rest[0])
        rest = rest[2:]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = conns + 200
    if hard != resource.RLIM_INFINITY and hard < need:
        die("RLIMIT_NOFILE hard limit %d < %d: raise it (ulimit -Hn)"
            % (hard, need))
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))
    tmp = tempfile.mkdtemp(prefix="idle-bench.")
    gport, rport = free_port(), free_port()
    procs = []
    try:
        g = subprocess.Popen([grundyd, "--listen", "127.0.0.1:%d" % gport,
                              "--db", os.path.join(tmp, "g.db"),
                              "--max-conns", str(conns + 100)],
                             stderr=open(os.path.join(tmp, "g.log"), "w"))
        procs.append(g)
        r = subprocess.Popen([redis, "--port", str(rport), "--bind",
                              "127.0.0.1", "--save", "", "--appendonly", "no",
                              "--maxclients", str(conns + 100),
                              "--daemonize", "no"],
                             stdout=open(os.path.join(tmp, "r.log"), "w"))
        procs.append(r)
        for name, p, port in (("grundyd", g, gport), ("redis", r, rport)):
            wait_for("%s to listen" % name,
                     lambda: p.poll() is not None or connectable(port))
            if p.poll() is not None:
                die("%s exited at start (status %d, see %s)" %
                    (name, p.returncode, tmp))
        res = {}
        res["grundyd"] = measure("grundyd", g, gport, conns,
                                 b"protocol_version\n", b"= ")
        res["redis"] = measure("redis", r, rport, conns, b"PING\r\n",
                               b"+PONG\r\n")
    finally:
        for p in procs:
            p.terminate()
            p.wait()
    per = {}
    for name in ("grundyd", "redis"):
        before, fresh, used = res[name]
        per[name] = ((fresh - before) / conns, (used - before) / conns)
        print("%-8s conns=%d rss_before=%d KiB fresh=%d KiB used=%d KiB "
              "per_conn_fresh=%.2f KiB per_conn_used=%.2f KiB" %
              (name, conns, before // 1024, fresh // 1024, used // 1024,
               per[name][0] / 1024, per[name][1] / 1024))
    for i, state in enumerate(("fresh", "used")):
        print("ratio grundyd/redis %s: %.2f" %
              (state, per["grundyd"][i] / per["redis"][i]
               if per["redis"][i] > 0 else float("inf")))


if __name__ == "__main__":
    main()
