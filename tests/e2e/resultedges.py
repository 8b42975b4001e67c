#!/usr/bin/env python3
"""resultedges.py: regression tests for what an outside review of the
results, records and `grundy verify` found (one test per finding):

- an even Elo printed as "-0.0" (pairstats, export pairs, /api/pairs);
- `grundy verify` on a FIFO blocked in open(2) instead of refusing it;
- pairstats and export took the last of a repeated tournament=, since=
  or until= silently (history and the JSON API refuse a repeat);
- grundyd wrote its port file before it handled SIGTERM: a stop right
  after the start killed it (status -15; contrib/bench/gen-log.py and every
  test's Daemon stop a daemon so), 46 times in 100 under ASan;
- clients that asked for /api/export and never read held up to 64 MiB
  each, with no bound on how many (15 of them: 621 MB of RSS);
- pairstats echoed names of any length that no player can have.

Usage: resultedges.py BUILDDIR SRCDIR (TAP on stdout, through py-run.sh).
"""
import re
import socket
import subprocess

from httpapi import *  # noqa: F401,F403 (e2e's helpers and the HTTP ones)


def test_even_elo():
    """gen-log's seed 1 gives gen0 and gen1 six game pairs, each won once
    by each (WL): the pair Elo is exactly 0, printed 0.0, never -0.0."""
    db = gen_log("even", 3000, 20)
    d = Daemon("even", "--http", "127.0.0.1:0", db=db)
    d.hport = http_port(d)
    c = Client(d)
    r = c.cmd("pairstats gen0 gen1")
    check("pairstats: six WL pairs", ok(r) and
          "pairs 6 ll 0 ld 0 wl 6 dd 0 wd 0 ww 0 unpaired 5" in r, r)
    check("pairstats: pair-elo 0.0, not -0.0",
          "\npair-elo 0.0 lo 0.0 hi 0.0 los 50.0% zero-variance" in r, r)
    r = c.cmd("export pairs since=2000-01-01")
    check("export pairs: no -0.0", ok(r) and ",0.0,0.0,0.0,0.5000" in r and
          "-0.0," not in r, r[:400])
    st, hd, b = get(d, "/api/pairs?a=gen0&b=gen1")
    check("/api/pairs: no -0.0", st == 200 and b"-0.0" not in b and
          b'"pair_elo":{"elo":0.0,"lo":0.0,"hi":0.0' in b, b)
    d.stop()


def test_verify_fifo():
    """A FIFO is not a record file: refused at once, not waited on."""
    path = os.path.join(TMP, "record.fifo")
    os.mkfifo(path)
    try:
        r = subprocess.run([GRUNDY, "verify", path], capture_output=True,
                           text=True, timeout=WAIT)
        check("grundy verify FIFO: refused", r.returncode != 0 and
              "not a regular file" in r.stderr, r.stderr)
    except subprocess.TimeoutExpired:
        check("grundy verify FIFO: refused", False, "blocked in open")


def test_repeated_args():
    """A selection given twice is refused, naming it; once each answers."""
    d = Daemon("rep")
    c = Client(d)
    refused(c, "pairstats a b since=2000-01-01 since=2001-01-01",
            "pairstats since twice", "since= given twice")
    refused(c, "pairstats a b until=2030-01-01 until=2031-01-01",
            "pairstats until twice", "until= given twice")
    refused(c, "export standings tournament=- since=2000-01-01 "
            "tournament=-", "export tournament twice",
            "tournament= given twice")
    r = c.cmd("pairstats a b tournament=- since=2000-01-01 "
              "until=2030-01-01")
    check("each once: answers", ok(r) and "games 0 " in r, r)
    r = c.cmd("export standings since=2000-01-01 until=2030-01-01")
    check("export, each once: answers", ok(r) and body(r) ==
          "rank,name,points,games,wins,losses,draws,byes,forfeit_wins,"
          "forfeit_losses,de,sb,win", r)
    d.stop()


def test_sigterm_at_port_file():
    """SIGTERM as soon as the port file names the port: a clean stop
    (status 0), 30 times out of 30 (before the fix about half died)."""
    bad = []
    for i in range(30):
        pf = os.path.join(TMP, "sig%d.port" % i)
        p = subprocess.Popen([GRUNDYD, "--listen", "127.0.0.1:0", "--db",
                              "off", "--port-file", pf],
                             stderr=subprocess.DEVNULL)
        PROCS.append(p)
        deadline = time.monotonic() + WAIT
        while not (os.path.exists(pf) and os.path.getsize(pf) > 0) and \
                time.monotonic() < deadline and p.poll() is None:
            pass        # busy: the signal must come at once
        p.terminate()
        if p.wait(WAIT) != 0:
            bad.append(p.returncode)
    check("SIGTERM right after the port file: status 0 each time",
          bad == [], bad)


def test_pair_names():
    """pairstats refuses a name no player can have, without echoing all of
    it; the engine is a player (tournaments)."""
    d = Daemon("names", db=os.path.join(TMP, "names.db"))
    c = Client(d)
    r = c.cmd("pairstats " + "x" * 5000 + " bob")
    check("a 5,000-byte name: refused, cut to 40 bytes",
          r.startswith("?") and (" bad player name " + "x" * 40 +
                                 "...: an account name (1..32 of A-Z a-z "
                                 "0-9 _ - .) or engine") in r and
          len(r) < 200, r[:300])
    r = c.cmd("pairstats alice b@d")
    check("a bad character: refused", r.startswith("?") and
          " bad player name b@d: " in r, r)
    r = c.cmd("pairstats engine alice")
    check("the engine: answered", ok(r) and "players engine alice" in r, r)
    d.stop()


def held_export(d, path):
    """Asks for path on a socket that never reads (a 4 KiB receive
    buffer): the reply, far larger than the kernel's buffers, cannot be
    handed over, so its export stays in flight while the socket is open."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", d.hport))
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
    return s


# s: how long the exports of 20,000 games may take on the workers of a
# loaded machine (26 s seen for two of them queued behind two others).
HEAVY = 300.0


def replying(socks):
    """Whether the reply has started on each of socks (its first bytes
    wait to be read): the export was made on a worker and is being handed
    over.  Until then a connection's close is not seen (nothing reads or
    writes it while its export is built), so its slot is freed only when
    the export is done: a wait for that depended on the machine's load."""
    def started(s):
        try:
            return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
        except BlockingIOError:
            return False
    return all(started(s) for s in socks)


def exports_in_flight(d):
    st, hd, b = get(d, "/metrics")
    m = re.search(rb"\ngrundy_http_exports (\d+)\n", b)
    return int(m.group(1)) if m else -1


def test_export_slots():
    """Exports in flight are bounded server-wide (4), and to one per
    address outside trusted-networks; a slot is free again once its
    connection closes (or its reply is handed over)."""
    db = gen_log("slots", 20000, 20, seed=2, timeout=120)
    path = "/api/export?since=2000-01-01"
    d = Daemon("slots", "--http", "127.0.0.1:0", db=db)
    d.hport = http_port(d)
    held = [held_export(d, path) for i in range(4)]
    check("four exports in flight",
          wait_for(lambda: exports_in_flight(d) == 4, WAIT), exports_in_flight(d))
    check("their replies have started",
          wait_for(lambda: replying(held), HEAVY, 0.05))
    st, hd, b = get(d, path)
    check("a fifth: 503, too many in flight", st == 503 and
          b"too many exports in flight (at most 4 at once)" in b, (st, b))
    held.pop().close()
    check("a closed connection frees its slot",
          wait_for(lambda: exports_in_flight(d) == 3, WAIT), exports_in_flight(d))
    st, hd, b = get(d, path.replace("export?", "export?format=csv&table=standings&"))
    check("then an export is answered", st == 200 and
          b.startswith(b"rank,"), (st, b[:200]))
    check("its slot is free once answered",
          wait_for(lambda: exports_in_flight(d) == 3, WAIT), exports_in_flight(d))
    for s in held:
        s.close()
    check("every slot free",
          wait_for(lambda: exports_in_flight(d) == 0, WAIT), exports_in_flight(d))
    d.stop()
    d = Daemon("slots1", "--http", "127.0.0.1:0", "--trusted-networks",
               "none", db=db)
    d.hport = http_port(d)
    s = held_export(d, path)
    check("untrusted: one export in flight",
          wait_for(lambda: exports_in_flight(d) == 1, WAIT), exports_in_flight(d))
    check("untrusted: its reply has started",
          wait_for(lambda: replying([s]), HEAVY, 0.05))
    st, hd, b = get(d, path)
    check("untrusted: a second from the address: 503", st == 503 and
          b"an export from your address is in flight" in b, (st, b))
    s.close()
    check("untrusted: the slot is free once closed",
          wait_for(lambda: exports_in_flight(d) == 0, WAIT), exports_in_flight(d))
    d.stop()


sys.exit(run([test_even_elo, test_verify_fifo, test_repeated_args,
              test_sigterm_at_port_file, test_export_slots,
              test_pair_names]))
