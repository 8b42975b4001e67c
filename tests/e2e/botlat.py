#!/usr/bin/env python3
"""botlat.py: the clients' sockets to grundyd have TCP_NODELAY (and so
does grundyd's end of them).  Without it a client that writes twice before
the server answers (`grundy bot` relays the program's answer to play, then
to genmove) has its second write held by Nagle's algorithm until the
server's delayed ACK, 40 ms a move (BENCHMARKS.md §18).

The option is read on the real processes' sockets: pidfd_getfd(2) copies
the socket of a child process (`grundy bot`, `grundy connect --pipe`,
grundyd) into this one, and getsockopt reads TCP_NODELAY on it.  Nothing
is timed.  Usage: botlat.py BUILDDIR SRCDIR
"""
import ctypes
import errno
import os
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403

LIBC = ctypes.CDLL(None, use_errno=True)
SYS_PIDFD_OPEN, SYS_PIDFD_GETFD = 434, 438     # asm-generic, all arches


def sockets_of(pid):
    """Copies of the TCP sockets of process pid, as Python sockets; None
    if this kernel cannot copy another process's descriptors."""
    pfd = LIBC.syscall(SYS_PIDFD_OPEN, pid, 0)
    if pfd < 0:
        return None
    out = []
    try:
        for fd in sorted(os.listdir("/proc/%d/fd" % pid), key=int):
            try:
                link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
            except OSError:
                continue
            if not link.startswith("socket:"):
                continue
            n = LIBC.syscall(SYS_PIDFD_GETFD, pfd, int(fd), 0)
            if n < 0:
                if ctypes.get_errno() in (errno.ENOSYS, errno.EPERM):
                    return None
                continue
            s = socket.socket(fileno=n)
            if s.family in (socket.AF_INET, socket.AF_INET6) and \
                    s.type == socket.SOCK_STREAM:
                out.append(s)
            else:
                s.close()
    finally:
        os.close(pfd)
    return out


def nodelay(s):
    return s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def peer_socket(pid, port):
    """The socket of pid connected to loopback port, or None."""
    socks = sockets_of(pid)
    if socks is None:
        return None
    found = None
    for s in socks:
        try:
            if s.getpeername()[1] == port and found is None:
                found = s
                continue
        except OSError:
            pass
        s.close()
    return found


def server_end(d, client):
    """grundyd's socket whose peer is the address client is bound to."""
    want = client.getsockname()
    for s in sockets_of(d.proc.pid) or []:
        try:
            if s.getpeername() == want:
                return s
        except OSError:
            pass
        s.close()
    return None


def supported():
    """Whether pidfd_getfd works here (Linux 5.6+, ptrace allowed)."""
    p = subprocess.Popen(["sleep", "10"])
    try:
        return sockets_of(p.pid) is not None
    finally:
        p.kill()
        p.wait()


def check_both_ends(what, d, s):
    """The client's socket s and grundyd's end of it have TCP_NODELAY."""
    if not check(what + " is connected to grundyd", s is not None):
        return
    check(what + "'s socket has TCP_NODELAY", nodelay(s) != 0,
          "getsockopt(TCP_NODELAY) = %d" % nodelay(s))
    srv = server_end(d, s)
    if check("grundyd has " + what + "'s connection", srv is not None):
        check("grundyd's end of it has TCP_NODELAY", nodelay(srv) != 0)
        srv.close()
    s.close()


def test_bot_nodelay():
    if not supported():
        skip("grundy bot's socket", "pidfd_getfd(2) unavailable")
        return
    d = Daemon("bot")
    p = start_bot(d, "latbot", [GRUNDY, "engine"], ["--no-ready"])
    # Logged in: its connection is made and accepted by grundyd.
    check("grundy bot logged in", bots_logged_in(["latbot"]))
    check_both_ends("grundy bot", d, peer_socket(p.pid, d.port))


def test_connect_nodelay():
    if not supported():
        skip("grundy connect's socket", "pidfd_getfd(2) unavailable")
        return
    d = Daemon("conn")
    p = subprocess.Popen([GRUNDY, "connect", "--pipe",
                          "127.0.0.1:%d" % d.port], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    PROCS.append(p)
    # An answer read back: the connection is up; stdin stays open.
    p.stdin.write(b"protocol_version\n")
    p.stdin.flush()
    first = p.stdout.readline()
    check("grundy connect --pipe answers", first.startswith(b"="),
          repr(first))
    check_both_ends("grundy connect --pipe", d, peer_socket(p.pid, d.port))
    p.stdin.close()
    check("grundy connect --pipe exits 0 at EOF", p.wait(WAIT) == 0)


sys.exit(run([test_bot_nodelay, test_connect_nodelay]))
