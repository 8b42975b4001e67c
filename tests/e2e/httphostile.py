#!/usr/bin/env python3
"""httphostile.py: a hostile client against grundyd's HTTP side
(PROTOCOL.md §14.2, §14.6): slowloris, an oversized request, a flood of
connections, too many feeds from one address, a feed that never reads,
bad query parameters, Last-Event-ID garbage, HTTP/1.0, pipelining and HEAD
on a feed.  After each, the daemon still answers a line-protocol
`protocol_version` and an HTTP `/api/ratings` within a deadline, and each
refusal is the documented status and JSON error.  No page or API answer
holds a password hash, a resume token or a peer address."""
import sqlite3

from httpapi import *  # noqa: F401,F403 (e2e's helpers and the HTTP ones)


def alive(d, what):
    """The daemon answers both protocols after what, while what's
    connections are still held: a loop that what blocked would answer
    neither before the deadline (WAIT; no elapsed time is asserted, a
    loaded machine may take seconds)."""
    t0 = time.time()
    c = Client(d)
    r = c.cmd("protocol_version")
    c.close()
    st, j = jget(d, "/api/ratings")
    check("after %s: protocol_version and /api/ratings answer" % what,
          ok(r) and st == 200 and "ratings" in j,
          (r, st, j, "%.1f s" % (time.time() - t0)))


def raw(d, data, timeout=WAIT, until=None, src=None):
    """Sends data on a new connection (from the address src if given);
    returns what arrives until the server closes it, until the bytes until
    have arrived, or the deadline, and whether it closed."""
    s = socket.create_connection(("127.0.0.1", d.hport), timeout=timeout,
                                 source_address=(src, 0) if src else None)
    s.sendall(data)
    got, closed, end = b"", False, time.time() + timeout
    while time.time() < end:
        s.settimeout(max(0.01, end - time.time()))
        try:
            c = s.recv(65536)
        except socket.timeout:
            break
        except OSError:
            c = b""
        if not c:
            closed = True
            break
        got += c
        if until is not None and until in got:
            break
    s.close()
    return got, closed


def still_open(socks):
    """How many of socks the server has not closed."""
    n = 0
    for s in socks:
        s.settimeout(0.01)
        try:
            n += s.recv(1) != b""
        except socket.timeout:
            n += 1
        except OSError:
            pass
    return n


def replies(data):
    """The (status, body) of each Content-Length reply in data, in order."""
    out = []
    while data:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            break
        head = data[:end].decode(errors="replace")
        m = re.search(r"(?im)^content-length: *(\d+)", head)
        n = int(m.group(1)) if m else len(data)     # HTTP/1.0: to the end
        out.append((int(head.split()[1]), data[end + 4:end + 4 + n]))
        data = data[end + 4 + n:]
    return out


def test_slowloris():
    """Headers one byte at a time: the request is not held past
    http-timeout, however steadily it trickles.  The request takes 90 s
    at least (900 bytes, 0.1 s each), so the close before WAIT (30 s) is
    http-timeout's (2 s), not the request's end; how long it took is
    not asserted (a loaded machine fires the timer late)."""
    d = hdaemon("slow", "--http-timeout", "2")
    s = socket.create_connection(("127.0.0.1", d.hport), timeout=WAIT)
    req = b"GET /api/ratings HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: y" * 100
    t0, closed = time.time(), False
    for b in req:
        try:
            s.sendall(bytes([b]))
        except OSError:
            closed = True
            break
        s.settimeout(0.1)
        try:
            if s.recv(1024) == b"":
                closed = True
                break
        except socket.timeout:
            pass
        except OSError:
            closed = True
            break
        if time.time() - t0 > WAIT:
            break
    took = time.time() - t0
    s.close()
    check("a request trickling in is closed at http-timeout (2 s), long "
          "before its end", closed, "closed=%s after %.1f s" % (closed, took))
    alive(d, "slowloris")
    d.stop()


def test_oversized():
    """Over max-http-request: 431 or 413, then closed; nothing else runs."""
    d = hdaemon("big", "--max-http-request", "2048")
    got, closed = raw(d, b"GET /api/ratings HTTP/1.1\r\nHost: x\r\nX-Big: " +
                      b"y" * 4000 + b"\r\n\r\n")
    check("headers over max-http-request: 400 (evhttp's), closed",
          got.split(b" ")[1:2] == [b"400"] and closed, got[:80])
    got, closed = raw(d, b"GET /api/ratings?" + b"a" * 4000 +
                      b" HTTP/1.1\r\nHost: x\r\n\r\n")
    check("a request line over max-http-request: 400, closed",
          got.split(b" ")[1:2] == [b"400"] and closed, got[:80])
    got, closed = raw(d, b"GET /api/ratings HTTP/1.1\r\nHost: x\r\n"
                      b"Content-Length: 5000\r\n\r\n" + b"z" * 5000)
    check("a body over 1,024 bytes: 413, closed",
          got.split(b" ")[1:2] == [b"413"] and closed, got[:80])
    alive(d, "oversized requests")
    d.stop()


def test_conn_flood():
    """Past max-http-conns: 503 with the documented JSON error, then
    closed; connections that never send a request hold nothing."""
    d = hdaemon("flood", "--max-http-conns", "4")
    idle = [socket.create_connection(("127.0.0.1", d.hport), timeout=5)
            for _ in range(200)]

    check("of 200 that send nothing, 4 (max-http-conns) are held, the "
          "others closed at once", wait_for(lambda: still_open(idle) == 4,
                                            WAIT))
    c = Client(d)
    check("the line protocol answers meanwhile",
          ok(c.cmd("protocol_version")))
    c.close()
    for s in idle:
        s.close()
    keep = []

    def one_more():         # once the server has seen the idle ones close
        try:
            keep.extend(keep_alive(d, 1, "/api/games/live"))
        except OSError:
            pass
        return len(keep) == 4
    check("then 4 keep-alive connections, each 200", wait_for(one_more, WAIT)
          and [s for c, s in keep] == [200] * 4, keep)
    outs = [raw(d, b"GET /api/ratings HTTP/1.1\r\nHost: x\r\n\r\n")
            for _ in range(10)]
    want = {"error": "too many HTTP connections: at most 4 "
            "(max-http-conns)", "status": 503}
    check("10 more: each 503 with the documented error, then closed",
          all(closed and replies(g)[0][0] == 503 and
              json.loads(replies(g)[0][1]) == want for g, closed in outs),
          outs[0])
    for c, s in keep:
        c.close()
    check("HTTP serves again once they close", wait_for(
        lambda: jget(d, "/api/ratings")[0] == 200), WAIT)
    alive(d, "a connection flood")
    d.stop()


SHARE_FLAGS = os.environ.get("HTTP_SHARE_FLAGS", "").split()  # the "before"


def test_conn_share():
    """256 slow connections from one untrusted address (127.0.0.2) hold at
    most its share, max-http-conns-per-ip (32 by default), and deny nobody
    else: requests from another address (127.0.0.1) are answered, and the
    address's next request gets the documented 503."""
    d = hdaemon("share", "--trusted-networks", "none", "--http-timeout",
                "600", *SHARE_FLAGS)
    slow = []
    for _ in range(256):
        s = socket.create_connection(("127.0.0.1", d.hport), timeout=5,
                                     source_address=("127.0.0.2", 0))
        s.sendall(b"GET /api/ratings HTTP/1.1\r\nHost: x\r\n")  # never ends
        slow.append(s)
    check("of 256 slow connections from 127.0.0.2, 32 are held, the others "
          "closed at once", wait_for(lambda: still_open(slow) == 32, WAIT))
    sts = [get(d, "/api/ratings")[0] for _ in range(40)]
    check("40 requests from 127.0.0.1 meanwhile: each 200",
          sts == [200] * 40, sts)
    got, closed = raw(d, b"GET /api/ratings HTTP/1.1\r\nHost: x\r\n\r\n",
                      timeout=WAIT, src="127.0.0.2")
    rs = replies(got)
    want = {"error": "too many HTTP connections from your address: at most "
            "32 (max-http-conns-per-ip; trusted-networks are exempt)",
            "status": 503}
    check("one more from 127.0.0.2: closed, at most with the documented "
          "503", closed and (rs == [] or (rs[0][0] == 503 and
                                          json.loads(rs[0][1]) == want)),
          got[:300])
    c = Client(d)
    check("the line protocol answers meanwhile",
          ok(c.cmd("protocol_version")))
    c.close()
    for s in slow:
        s.close()
    d.stop()


def test_streams_per_ip():
    """Past max-http-streams-per-ip from one address: 503 and the JSON
    error; a closed feed frees its place."""
    d = hdaemon("streams", "--trusted-networks", "none",
                "--max-http-streams-per-ip", "3")
    feeds = [Feed(d, "/api/tv/feed") for _ in range(3)]
    check("3 feeds from one address open", all(
        f.wait(lambda e: f.status is not None, WAIT) and f.status == 200
        for f in feeds), [f.status for f in feeds])
    for i in range(5):
        st, j = jget(d, "/api/tv/feed")
        if not is_error(st, j, 503):
            break
    check("5 more are each 503 with the documented error",
          st == 503 and j == {"error": "too many streams from your address:"
                              " at most 3 (max-http-streams-per-ip)",
                              "status": 503}, (st, j))
    feeds[0].close()
    check("a closed feed frees its place", wait_for(
        lambda: "grundy_http_streams 2\n" in get(d, "/metrics")[2].decode()))
    f = Feed(d, "/api/tv/feed")
    check("then one more opens", f.wait(lambda e: f.status is not None) and
          f.status == 200, f.status)
    alive(d, "too many feeds")
    for f in feeds[1:] + [f]:
        f.close()
    d.stop()


def test_feed_never_reads():
    """A feed that never reads is dropped at max-http-output; the game and
    everyone else go on."""
    d, a, b = two_players("nread", "--max-http-output", "4096",
                          "--http-heartbeat", "3600000")
    big = 10 ** 1000
    gid, seats, ea, eb = pair(d, a, b, "nim %d %d" % (big, big),
                              "tc=600000")
    slow = Feed(d, "/api/games/%d/feed" % gid, rcvbuf=4096)
    check("the feed opens", slow.wait(lambda e: slow.status is not None)
          and slow.status == 200, slow.status)

    def dropped():
        return "grundy_http_streams_dropped_total 1\n" in get(
            d, "/metrics")[2].decode()
    piles, ply = [big, big], 0
    while ply < 300 and not dropped():
        piles[ply % 2] -= 1
        if not play_one(seats, 1 + ply % 2, "%d=%d" % (ply % 2 + 1,
                                                       piles[ply % 2])):
            break
        ply += 1
    check("dropped at the cap after %d moves of ~1 KB" % ply, dropped(), ply)
    check("the stream gauge is back to 0", wait_for(
        lambda: "grundy_http_streams 0\n" in get(d, "/metrics")[2].decode()))
    st, j = jget(d, "/api/games/live")
    check("the game goes on", st == 200 and j["games"][0]["ply"] == ply, j)
    alive(d, "a feed that never reads")
    slow.close()
    finish(d, a, b)


def test_feed_sender():
    """A feed's client that sends without end after its request: the daemon
    stops reading it instead of buffering it all."""
    d = hdaemon("sender")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    s.connect(("127.0.0.1", d.hport))
    s.sendall(b"GET /api/tv/feed HTTP/1.1\r\nHost: x\r\n\r\n")
    check("the feed starts", s.recv(4096).startswith(b"HTTP/1.1 200"))
    s.settimeout(1)
    sent = 0
    try:
        while sent < 256 << 20:
            sent += s.send(b"x" * (1 << 20))
    except socket.timeout:
        pass
    check("the daemon stops reading it (kernel buffers only: < 32 MB)",
          sent < 32 << 20, "%d MB taken" % (sent >> 20))
    alive(d, "a feed's client sending without end")
    s.close()
    d.stop()


def test_bad_parameters():
    """Every bad value is a 400 with the parameter named; SQL and HTML
    metacharacters and an encoded NUL match nothing; nothing crashes."""
    d, a, b = two_players("params")
    gid, seats, ea, eb = pair(d, a, b, "nim 1", "tc=600000")
    play_one(seats, 1, "1=0")
    check("a game logged", wait_for(lambda: jget(
        d, "/api/games/%d" % gid)[0] == 200))
    for q, words in (("limit=-1", ["limit", "1 to 200"]),
                     ("limit=99999999999999999999999", ["limit"]),
                     ("limit=18446744073709551617", ["limit"]),
                     ("limit=abc", ["limit"]), ("limit=", ["limit"]),
                     ("limit=1e3", ["limit"]), ("limit=%2B5", ["limit"]),
                     ("limit=%205", ["limit"]),
                     ("limit=5%00", ["bad query string: %00 (NUL)"]),
                     ("before=-5", ["before"]), ("before=0", ["before"]),
                     ("before=abc", ["before"]), ("before=", ["before"]),
                     ("before=9223372036854775808", ["before"]),
                     ("before=1%00", ["bad query string: %00 (NUL)"]),
                     ("player=alice%00", ["bad query string: %00"]),
                     ("player=alice%00x", ["bad query string: %00"]),
                     ("tournament=%00", ["bad query string: %00"])):
        st, j = jget(d, "/api/games?" + q)
        check("400 for ?" + q, is_error(st, j, 400, words), (st, j))
    for q in ("limit=0", "limit=1001", "limit=-5", "limit=x"):
        st, j = jget(d, "/api/ratings?" + q)
        check("400 for /api/ratings?" + q, is_error(st, j, 400, ["limit"]),
              (st, j))
    for name in ("x%27%20OR%20%271%27=%271", "alice%27--",
                 "%3Cscript%3Ealert(1)%3C/script%3E", "a%22b%5C",
                 "%25", "alice%25", "alice%2500"):
        st, j = jget(d, "/api/games?player=" + name)
        check("player=%s matches no game" % name,
              (st == 200 and j == {"games": [], "next": None}) or
              is_error(st, j, 400, ["player"]), (st, j))
    for name in ("x%27%20OR%20%271%27=%271", "alice%27--", "alice%00",
                 "alice%00x", "%3Cscript%3Ealert(1)%3C/script%3E", "%25"):
        st, j = jget(d, "/api/players/" + name)
        check("/api/players/%s is not found or bad" % name,
              is_error(st, j, 404) or is_error(st, j, 400), (st, j))
    many = "&".join("p%d=" % i for i in range(32))
    st, j = jget(d, "/api/games?" + many)
    check("32 unknown parameters are ignored", st == 200, (st, j))
    st, j = jget(d, "/api/games?" + many + "&p32=")
    check("33 are a 400 (the duplicate check is quadratic)", is_error(
        st, j, 400, ["bad query string: more than 32 parameters"]), (st, j))
    st, j = jget(d, "/api/games?player=alice")
    check("alice's game is found by her name", st == 200 and
          [g["id"] for g in j["games"]] == [gid], j)
    st, j = jget(d, "/api/tournaments/%3Cb%3E%27%22")
    check("a tournament name with metacharacters: 404 JSON",
          is_error(st, j, 404, ["no tournament <b>'\""]), (st, j))
    st, hd, body_ = get(d, "/api/players/%3Cscript%3E")
    check("an error naming <script> is JSON, not HTML",
          hd.get("content-type", "").startswith("application/json"),
          hd)
    alive(d, "bad parameters")
    finish(d, a, b)


def test_last_event_id():
    """Last-Event-ID garbage: 400, never a crash or a stream."""
    d, a, b = two_players("leid")
    gid, seats, ea, eb = pair(d, a, b, "nim 2", "tc=600000")
    play_one(seats, 1, "1=1")
    play_one(seats, 2, "1=0")
    check("the game is logged", wait_for(lambda: jget(
        d, "/api/games/%d" % gid)[0] == 200 and jget(
        d, "/api/games/%d" % gid)[1]["game"]["status"] == "finished"))
    path = "/api/games/%d/feed" % gid
    for v in ("abc", "-1", "99999999999999999999999", "1e1", "0x1", "+1",
              "1.0", "end2", "1%00", "x" * 2000):
        st, j = jget(d, path, {"Last-Event-ID": v})
        check("Last-Event-ID %r: 400" % v[:20], is_error(
            st, j, 400, ["bad parameter Last-Event-ID: an integer"]),
            (st, j))
    st, j = jget(d, path, {"Last-Event-ID": "3"})
    check("Last-Event-ID past the last ply: 400", is_error(
        st, j, 400, ["bad parameter since: a ply from 0 to 2"]), (st, j))
    st, hd, b_ = get(d, path, {"Last-Event-ID": "end"})
    check("Last-Event-ID end: 204", st == 204 and b_ == b"", (st, b_))
    f = Feed(d, path, {"Last-Event-ID": "1"})
    check("Last-Event-ID 1: the second move, then the end", f.wait(
        lambda e: f.closed) and [x[1] for x in f.events] ==
        ["game", "move", "end"] and f.events[1][0] == "2",
        f.events)
    f.close()
    alive(d, "Last-Event-ID garbage")
    finish(d, a, b)


def test_http10_pipelined_head():
    """HTTP/1.0 is answered and closed; pipelined requests are answered in
    order; HEAD on a feed sends headers only and holds no stream."""
    d, a, b = two_players("proto")
    gid, seats, ea, eb = pair(d, a, b, "nim 3", "tc=600000")
    got, closed = raw(d, b"GET /api/games/live HTTP/1.0\r\n\r\n")
    r = replies(got)
    check("HTTP/1.0: one reply, then closed", closed and len(r) == 1 and
          r[0][0] == 200 and json.loads(r[0][1])["games"][0]["id"] == gid,
          got[:200])
    got, closed = raw(d, b"GET /api/games/%d/feed HTTP/1.0\r\n\r\n" % gid,
                      until=b"event: game")
    check("HTTP/1.0 feed: 200, the game event", got.startswith(
        b"HTTP/1.") and b" 200 " in got.split(b"\r\n")[0] and
        b"event: game" in got, got[:200])
    reqs = b"".join(b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % p for p in (
        b"/api/ratings", b"/nope", b"/api/games/live", b"/api/games/x",
        b"/api/tournaments"))
    got, closed = raw(d, reqs + b"GET /api/ratings HTTP/1.1\r\nHost: x\r\n"
                      b"Connection: close\r\n\r\n")
    check("6 pipelined requests: 6 replies in order", [s for s, _ in
                                                       replies(got)] ==
          [200, 404, 200, 400, 200, 200], replies(got))
    got, closed = raw(d, b"HEAD /api/games/%d/feed HTTP/1.1\r\nHost: x\r\n"
                      b"\r\n" % gid, until=b"\r\n\r\n")
    check("HEAD on a feed: 200 and no body", got.split(b" ")[1:2] ==
          [b"200"] and got.endswith(b"\r\n\r\n"), got)
    check("and no stream is held", wait_for(
        lambda: "grundy_http_streams 0\n" in get(d, "/metrics")[2].decode()))
    got, closed = raw(d, b"HEAD /api/tv/feed HTTP/1.1\r\nHost: x\r\n\r\n",
                      until=b"\r\n\r\n")
    check("HEAD on the TV feed: 200 and no body", got.split(b" ")[1:2] ==
          [b"200"] and got.endswith(b"\r\n\r\n"), got)
    check("and no stream is held", wait_for(
        lambda: "grundy_http_streams 0\n" in get(d, "/metrics")[2].decode()))
    alive(d, "HTTP/1.0, pipelining, HEAD")
    finish(d, a, b)


def test_no_secrets():
    """No page, API answer or feed holds a hash, a token or an address."""
    d = hdaemon("secret", "--trusted-networks", "none")
    a = Client(d, src="127.0.0.7")
    a.cmd("register alice password1")
    a.cmd("login alice password1")
    b = Client(d, src="127.0.0.9")
    b.cmd("register bob password1")
    b.cmd("login bob password1")
    gid, seats, ea, eb = pair(d, a, b, "nim 3 4", "tc=600000")
    play_one(seats, 1, "1=2")
    tokens = re.findall(r"token=(\S+)", ea + " " + eb)
    con = sqlite3.connect(d.db)
    hashes = [h for (h,) in con.execute("SELECT hash FROM accounts")]
    con.close()
    secrets = tokens + hashes + [h.split("$")[-1] for h in hashes] + [
        "127.0.0.7", "127.0.0.9", "127.0.0.1"]
    check("the secrets are known", len(tokens) == 2 and len(hashes) == 2,
          (tokens, hashes))
    paths = ["/", "/game/%d" % gid, "/player/alice", "/api/games/live",
             "/api/games", "/api/games/%d" % gid, "/api/players/alice",
             "/api/players/bob", "/api/ratings", "/api/tournaments",
             "/metrics", "/api/games/%d/feed" % gid]
    seen = {}
    f = Feed(d, "/api/games/%d/feed" % gid)
    f.wait(lambda e: len(e) >= 2)
    seen["feed"] = f.raw + f.body + json.dumps([x[2] for x in f.events]
                                               ).encode()
    f.close()
    for p in paths[:-1]:
        seen[p] = get(d, p)[2]
    leaks = [(p, s) for p, t in seen.items() for s in secrets
             if s and s.encode() in t]
    check("no token, hash or address in %d answers" % len(seen),
          not leaks, leaks)
    finish(d, a, b)


sys.exit(run([test_slowloris, test_oversized, test_conn_flood,
              test_conn_share, test_streams_per_ip, test_feed_never_reads, test_feed_sender,
              test_bad_parameters,
              test_last_event_id, test_http10_pipelined_head,
              test_no_secrets]))
