#!/usr/bin/env python3
"""conn.py: end-to-end checks of a connection's buffers and output (issue
12 §2 and §5), run by tests/py-run.sh.

- An idle connection gives its buffers back (the daemon logs
  event=idle-free at --verbose 1) and, when it comes back, works: whole
  and split request lines, an overlong line (--max-line), a line that
  does not end (--line-timeout), a reader that stops reading (the output
  cap and the write timeout).
- What the lobby writes a client in one pass of the loop leaves in one
  send(): the client's socket counts one data segment (TCP_INFO
  tcpi_data_segs_in) for `event start`, `new` and `genmove`, and one for
  the opponent's `play` and the next `genmove`.
"""
import socket
import struct
import threading
import time

from e2e import *


def log_text(d):
    d.log.flush()
    with open(os.path.join(TMP, d.name + ".log"), errors="replace") as f:
        return f.read()


def conn_id(d, nth):
    """The id of the nth connection the daemon logged (1-based)."""
    ids = re.findall(r"conn=(\d+) event=connect", log_text(d))
    return ids[nth - 1] if len(ids) >= nth else None


def idle_freed(d, cid, times=1, timeout=WAIT):
    """Waits until connection cid has given its buffers back `times`
    times (log lines; CONN_IDLE_FREE_MS is 2 s)."""
    pat = "conn=%s event=idle-free" % cid
    return wait_for(lambda: log_text(d).count(pat) >= times, timeout, 0.05)


def raw(d):
    s = socket.create_connection(("127.0.0.1", d.port), timeout=WAIT)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_block(s, timeout=WAIT):
    """Reads until a blank line ends a reply; returns the text."""
    got = b""
    end = time.time() + timeout
    while not got.endswith(b"\n\n") and time.time() < end:
        s.settimeout(max(end - time.time(), 0.01))
        try:
            data = s.recv(4096)
        except socket.timeout:
            break
        if not data:
            break
        got += data
    return got.decode(errors="replace")


def test_idle_comes_back():
    d = Daemon("idle", "--verbose", "1", "--max-line", "1024",
               "--line-timeout", "1", "--idle-timeout", "60", db="off")
    s = raw(d)
    s.sendall(b"protocol_version\n")
    check("first request", read_block(s) == "= 2\n\n")
    cid = conn_id(d, 1)     # logged before the reply
    check("buffers given back when idle", idle_freed(d, cid, 1))
    s.sendall(b"protocol_version\n")
    check("a request after idling", read_block(s) == "= 2\n\n")
    check("idle again", idle_freed(d, cid, 2))
    s.sendall(b"7 name")
    s.sendall(b"\n")
    check("a line split over two reads", read_block(s) == "=7 grundyd\n\n")
    check("idle a third time", idle_freed(d, cid, 3))
    s.sendall(b"8 name " + b"x" * 2000 + b"\n")
    r = read_block(s)
    check("an overlong line is refused after idling",
          r.startswith("?8 ") and "1024" in r, r)
    s.sendall(b"protocol_version\n")
    check("and the connection goes on", read_block(s) == "= 2\n\n")
    check("idle a fourth time", idle_freed(d, cid, 4))
    s.sendall(b"protocol_vers")
    r = read_block(s, WAIT)
    check("a line that does not end is cut by line-timeout",
          r.startswith("? line timeout"), r)
    s.close()
    d.stop()


def test_slow_reader_after_idle():
    d = Daemon("slow", "--verbose", "1", "--max-output", "65536",
               "--rate", "10000000", "--burst", "10000000",
               "--idle-timeout", "5", db="off")
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", d.port))
    s.sendall(b"protocol_version\n")
    check("first request", read_block(s) == "= 2\n\n")
    cid = conn_id(d, 1)
    check("buffers given back when idle", idle_freed(d, cid, 1))
    # ~900 bytes of reply per 6-byte request, never read: throttled, then
    # dropped by the write timeout (--idle-timeout).
    s.setblocking(False)
    sent = 0
    for _ in range(10):
        try:
            sent += s.send(b"games\n" * 1000)
        except BlockingIOError:
            break
    check("requests sent", sent > 0)
    other = raw(d)
    other.sendall(b"name\n")
    check("others are served meanwhile", read_block(other) == "= grundyd\n\n")
    dropped = wait_for(lambda: "conn=%s event=close reason=write-timeout" %
                       cid in log_text(d), WAIT, 0.1)
    check("the reader that stopped is dropped by the write timeout", dropped)
    other.close()
    other = raw(d)
    other.sendall(b"protocol_version\n")
    check("a new client is served", read_block(other) == "= 2\n\n")
    s.close()
    other.close()
    d.stop()


def test_partial_writes_intact():
    """Replies the socket takes in pieces arrive whole and in order: a
    client with a small receive window pipelines requests and reads only
    once the server's output waits for the socket (event=output-wait):
    the rest is then sent in parts and its buffer compacted."""
    d = Daemon("parts", "--verbose", "1", "--rate", "10000000", "--burst",
               "10000000", db="off")
    one = raw(d)
    one.sendall(b"list_commands\n")
    want = read_block(one)
    check("one reply", want.startswith("= ") and want.endswith("\n\n"))
    one.close()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", d.port))
    wait_for(lambda: conn_id(d, 2) is not None, WAIT, 0.02)
    cid = conn_id(d, 2)
    n = 30000
    sender = threading.Thread(target=s.sendall, args=(b"".join(
        b"%d list_commands\n" % i for i in range(n)),), daemon=True)
    sender.start()
    check("the output waits for the socket",
          wait_for(lambda: "conn=%s event=output-wait" % cid in
                   log_text(d), 30.0, 0.05))
    expect = "".join("=%d%s" % (i, want[1:]) for i in range(n)).encode()
    got = []
    size = 0
    s.settimeout(30)
    while size < len(expect):
        data = s.recv(1 << 20)
        if not data:
            break
        got.append(data)
        size += len(data)
    sender.join(30)
    got = b"".join(got)
    check("%d replies (%d bytes) intact and in order" % (n, len(expect)),
          got == expect, "got %d bytes" % len(got))
    s.close()
    d.stop()


def segs_in(c):
    """Data segments the client's socket received (struct tcp_info's
    tcpi_data_segs_in, Linux 4.6 and later)."""
    ti = c.s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return struct.unpack_from("I", ti, 152)[0]


def test_one_send_per_pass():
    d = Daemon("pass")
    a = login(d, "conna")
    b = login(d, "connb")
    a.drain()
    b.drain()
    r = a.cmd("seek nim 3 4 5 tc=60000")
    check("seek waits", ok(r), r)
    before = segs_in(a)
    r = b.cmd("seek nim 3 4 5 tc=60000")
    check("seek pairs", ok(r), r)
    ev = a.wait("events", lambda x: x.startswith("event start"))
    new = a.wait("commands", lambda x: " new " in x + " ")
    check("start and new arrive", ev is not None and new is not None)
    a.answer(new)
    seat = int(re.search(r"you=(\d)", ev).group(1))
    if seat == 1:
        g = genmove_of(a)
        check("the first genmove arrives", g is not None)
    check("event start, new (and genmove): one segment",
          segs_in(a) - before == 1, "%d segments" % (segs_in(a) - before))
    mover, other = (a, b) if seat == 1 else (b, a)
    nb = b.wait("commands", lambda x: " new " in x + " ")
    if nb is not None:
        b.answer(nb)
    if seat != 1:
        g = genmove_of(b)
        check("the first genmove arrives", g is not None)
    before = segs_in(other)
    mover.answer(g, "1=2")
    p = other.wait("commands", lambda x: " play " in x)
    g2 = genmove_of(other)
    check("play and genmove arrive", p is not None and g2 is not None)
    check("play and the next genmove: one segment",
          segs_in(other) - before == 1, "%d segments" %
          (segs_in(other) - before))
    a.close()
    b.close()
    d.stop()


sys.exit(run([test_idle_comes_back, test_slow_reader_after_idle,
              test_partial_writes_intact, test_one_send_per_pass]))
