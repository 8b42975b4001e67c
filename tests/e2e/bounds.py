#!/usr/bin/env python3
"""bounds.py: games are bounded (PROTOCOL.md §12.1): a game that reaches
max-plies or max-game-bytes ends at once with the solver's verdict
(reasons ply-limit and byte-limit), checked here against an independent
computation for Nim (the xor of the piles) and by grundy verify; a client
whose games logged more than max-client-log-rate is refused new games;
the log's queue past half of max-queue-bytes refuses new games (the
writer held by an SQLite write lock taken here)."""
import json
import socket
import sqlite3
import subprocess
import time

from e2e import *

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from records import record_file, verify, wrong_at   # noqa: E402
from httpapi import get, hdaemon, http_port           # noqa: E402


def nim_play(piles, move):
    """Applies a canonical Nim move ("2=5", or "1=0 3=4") to piles."""
    for tok in move.split():
        i, v = tok.split("=")
        piles[int(i) - 1] = int(v)


def nim_winner(piles, mover):
    """The seat that wins a Nim position under perfect play: the mover
    if the xor of the piles is not 0, else the other."""
    x = 0
    for p in piles:
        x ^= p
    return mover if x != 0 else 3 - mover


def take_one(piles):
    """A legal move: the first non-empty pile, one less."""
    for i, p in enumerate(piles):
        if p > 0:
            return "%d=%d" % (i + 1, p - 1)
    return None


def verified(name, d, c, gid, result_line):
    """The record of gid ends with result_line, grundy verify accepts it,
    and the other winner is named wrong."""
    text = record_file(c, gid) or ""
    check("%s: the record says %s" % (name, result_line),
          "\n%s\n" % result_line in text, text[:2000])
    rc, out, _ = verify(name, text)
    check("%s: grundy verify accepts it" % name, rc == 0 and
          out.startswith("ok "), "status %d: %s" % (rc, out))
    lines = text.split("\n")
    res = [i for i, l in enumerate(lines) if l.startswith("result ")]
    if not res:
        return
    flip = lines[res[0]].replace("first", "X").replace(
        "second", "first").replace("X", "second")
    wrong_at("%s, other winner" % name, "\n".join(
        lines[:res[0]] + [flip] + lines[res[0] + 1:]), res[0] + 1,
        "wrong result")
    # A bound the game did not reach is named.
    w = lines[res[0]].split()
    far = " ".join(w[:-1] + [str(int(w[-1]) * 1000)])
    wrong_at("%s, a bound not reached" % name, "\n".join(
        lines[:res[0]] + [far] + lines[res[0] + 1:]), res[0] + 1,
        "is not reached")


def test_match_ply_limit():
    """A section 8 match reaches max-plies 7: the result line is the
    solver's, the xor of the piles agrees, the record verifies."""
    d = Daemon("mplies", "--max-plies", "7")
    c = Client(d)
    start = [1000, 2000, 3000, 4000]
    piles = list(start)
    check("new", ok(c.cmd("new nim " + " ".join(map(str, start)))))
    r = c.cmd("match engine first")
    check("match", ok(r), r)
    gid = int(body(r).split()[1])
    result = None
    for ply in range(1, 8, 2):
        mv = take_one(piles)
        r = c.cmd("play " + mv)
        check("play %s" % mv, ok(r), r)
        nim_play(piles, mv)
        for line in body(r).split("\n"):
            if line.startswith("reply "):
                nim_play(piles, line[6:])
            elif line.startswith("result "):
                result = line
        if result:
            break
    # Ply 7 is the client's (first): the engine (second) is to move.
    want = nim_winner(piles, 2)
    line = "result %s ply-limit max-plies 7" % ("first" if want == 1
                                                 else "second")
    check("the match ends at ply 7 by the solver", result == line,
          "%s, want %s (piles %s)" % (result, line, piles))
    verified("match ply-limit", d, c, gid, line)
    check("next: a match may start again",
          ok(c.cmd("new nim 3 4 5")) and ok(c.cmd("match engine first")))


def test_lobby_limits():
    """A networked game against the engine reaches max-plies: gameover
    with the solver's verdict; one reaching max-game-bytes ends as
    byte-limit; both verify."""
    d = Daemon("lplies", "--max-plies", "6", "--max-game-bytes", "20000")
    c = login(d, "pat")
    for spec, reason in (("nim 1000 2000 3000", "ply-limit max-plies 6"),
                         ("nim %s %s %s" % ("9" * 1300, "8" * 1300,
                                            "7" * 1300),
                          "byte-limit max-game-bytes 20000")):
        c.drain()
        piles = [int(x) for x in spec.split()[1:]]
        r = c.cmd("seek %s opponent=engine tc=600000" % spec)
        check("seek opponent=engine", ok(r), r)
        e = event_of(c, "start")
        check("the game starts", e is not None, e)
        if e is None:
            return
        gid = int(e.split()[2])
        me = int(re.search(r"you=(\d)", e).group(1))
        over = None
        ply = 0
        while over is None:
            x = c.wait("commands", lambda x: " genmove " in x + " " or
                       " play " in x or " gameover " in x)
            if x is None:
                break
            w = x.split()
            if w[1] == "gameover":
                over = x
                break
            if w[1] == "play":
                mv = " ".join(t for t in w[2:] if not t.startswith("time"))
                nim_play(piles, mv)
                ply += 1
                c.answer(x)
                continue
            mv = take_one(piles)
            nim_play(piles, mv)
            ply += 1
            c.answer(x, mv)
        mover = 1 if ply % 2 == 0 else 2
        want = "first" if nim_winner(piles, mover) == 1 else "second"
        check("%s: gameover by the solver" % reason, over is not None and
              over.split()[2:] == [want] + reason.split(),
              "%s, want %s %s after %d plies" % (over, want, reason, ply))
        check("%s: finished in the log" % reason, wait_for(
            lambda: (db_game(d, gid)[0] or ("",))[0] == "finished"))
        verified("lobby " + reason.split()[0], d, c, gid,
                 "result %s %s" % (want, reason))
        # 1,300-digit piles: a move and its position have 5,200 bytes
        # and a few: the fourth passes 20,000.
        check("%s: it stopped at ply %d (me seat %d)" % (reason, ply, me),
              ply == (6 if reason.startswith("ply") else 4))


def test_client_log_rate():
    """max-client-log-rate: a client whose games logged more than the
    budget is refused a new game with the specific error."""
    d = Daemon("lrate", "--max-client-log-rate", "4096",
               "--max-game-bytes", "8192")
    c = login(d, "quinn")
    piles = [int("9" * 1500), int("8" * 1500)]
    r = c.cmd("seek nim %d %d opponent=engine tc=600000" % tuple(piles))
    check("the first game starts", ok(r), r)
    while True:
        x = c.wait("commands", lambda x: " genmove " in x + " " or
                   " play " in x or " gameover " in x)
        if x is None or " gameover " in x:
            break
        if " play " in x:
            nim_play(piles, " ".join(t for t in x.split()[2:]
                                     if not t.startswith("time")))
            c.answer(x)
        else:
            mv = take_one(piles)
            nim_play(piles, mv)
            c.answer(x, mv)
    # Two moves of 4,500 bytes: byte-limit, and 9,000 bytes charged.
    check("the game ended by byte-limit", x is not None and
          "byte-limit max-game-bytes 8192" in x, x)
    refused(c, "seek nim 3 4 5 opponent=engine", "the next game is refused",
            "budget: log of the trusted class", "max-client-log-rate")
    o = login(d, "rory")
    accepted(o, "seek nim 3 4 5 opponent=engine", "another client is not")
    # A section 8 match charges its connection the same way.
    m = Client(d)
    check("new", ok(m.cmd("new nim %s %s" % ("9" * 1500, "8" * 1500))))
    check("match", ok(m.cmd("match engine first")))
    r = m.cmd("play 1=%s" % ("1" * 1500))
    check("two moves, 9,000 bytes: byte-limit", ok(r) and
          "byte-limit max-game-bytes 8192" in r, r)
    m.cmd("new nim 3 4 5")
    refused(m, "match engine first", "the next match is refused",
            "budget: log of the trusted class", "max-client-log-rate")


def test_queue_refuses():
    """The writer held (an SQLite write lock taken here): the queue passes
    half of max-queue-bytes with a match's big moves, and a new match is
    refused with the queue's error, not queued."""
    d = Daemon("queue", "--max-queue-bytes", "65536")
    c = Client(d)
    check("a first game", ok(c.cmd("new nim 1 2")) and
          ok(c.cmd("match engine first")))
    c.cmd("resign")
    con = sqlite3.connect(d.db, timeout=WAIT, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")  # the writer waits for it
    except sqlite3.OperationalError as e:
        # A daemon that keeps the file locked (exclusive locking mode)
        # cannot be stalled this way; test-store-writer's
        # test_queue_bytes holds the writer with its test hook instead.
        skip("a new match is refused", "cannot lock the database: %s" % e)
        con.close()
        return
    try:
        p = Client(d)
        piles = ["9" * 5000, "8" * 5000, "7" * 5000]
        check("new", ok(p.cmd("new nim " + " ".join(piles))))
        r = p.cmd("match engine first")
        check("match", ok(r), r)
        for i in range(2):
            mv = "%d=%s" % (i % 3 + 1, "1" * 4999)
            r = p.cmd("play " + mv)
            check("move %d" % (i + 1), ok(r), r)
            nim_play_text(piles, mv)
            for line in body(r).split("\n"):
                if line.startswith("reply "):
                    nim_play_text(piles, line[6:])
        q = Client(d)
        q.cmd("new nim 3 4 5")
        refused(q, "match engine first", "a new match is refused",
                "the game log cannot write", "max-queue-bytes")
    finally:
        con.execute("ROLLBACK")
        con.close()
    check("once the writer is free, games are welcome again", wait_for(
        lambda: ok(q.cmd("match engine first"))))


def nim_play_text(piles, move):
    """nim_play on piles of decimal text."""
    for tok in move.split():
        i, v = tok.split("=")
        piles[int(i) - 1] = v


def long_match(d, plies, digits):
    """A finished match of plies plies on nim A A (A of digits digits),
    sent pipelined: the client takes one from pile 1, the engine's only
    winning move mirrors it on pile 2.  Returns its game id."""
    a = 10 ** (digits - 1)
    c = Client(d)
    check("new", ok(c.cmd("new nim %d %d" % (a, a))))
    r = c.cmd("match engine first")
    gid = int(body(r).split()[1])
    n = plies // 2
    lines = "".join("play 1=%d\n" % (a - k) for k in range(1, n + 1))
    c.s.sendall(lines.encode())
    got = 0
    while got < n:
        x = c.wait("replies", lambda x: True, WAIT)
        if x is None or not ok(x):
            break
        got += 1
    check("%d plies played" % plies, got == n, got)
    check("resigned", ok(c.cmd("resign")))
    c.close()
    return gid


def probe_ms(d):
    """A protocol_version round trip on the GTP port, in ms (None: no
    answer within WAIT)."""
    c = Client(d)
    t = time.time()
    r = c.cmd("protocol_version")
    c.close()
    return (time.time() - t) * 1000 if ok(r) else None


def test_record_non_readers():
    """A 20,000-ply game's record (about 14 MB as JSON, over
    max-http-inflight 1 MiB and max-reply) fetched by 6 HTTP clients and
    a GTP one that never read: each reply is streamed in chunks made as
    its client takes them, so all six HTTP replies start (200, none
    refused), the bytes in flight are a chunk or so per reader, the
    daemon's RSS grows by a few chunks per reader (not a record), another
    client reading meanwhile gets the same bytes whole, another client's
    probe is answered, and the GTP client, reading at last, gets the JSON
    record whole; GTP's record file is the download."""
    d = hdaemon("nonread", "--max-http-inflight", "1048576", "--rate",
                "10000000", "--burst", "10000000")
    gid = long_match(d, 20000, 200)
    st, hd, whole = get(d, "/api/games/%d" % gid)
    size = len(whole)
    check("the record is served whole to a reader (%d bytes)" % size,
          st == 200 and size > 10 << 20, st)
    st, hd, fb = get(d, "/api/games/%d/record" % gid)
    gtp = Client(d)
    check("GTP record format=file, over max-reply, is the download whole",
          record_file(gtp, gid) == fb.decode(), len(fb))
    base = rss_kb(d)
    # A GTP client that asks for the JSON record and does not read.
    g = socket.socket()
    g.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    g.connect(("127.0.0.1", d.port))
    g.sendall(("7 record %d format=json\n" % gid).encode())
    socks = []
    for i in range(6):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", d.hport))
        s.sendall(("GET /api/games/%d HTTP/1.1\r\nHost: x\r\n\r\n" %
                   gid).encode())
        socks.append(s)

    def metric(name):
        m = re.search(r"^%s (\d+)$" % re.escape(name),
                      get(d, "/metrics")[2].decode(), re.M)
        return int(m.group(1)) if m else 0
    # Each stream holds its chunk charged until its client takes it: six
    # of them, at least 64 KiB each, and no more than a few chunks.
    inflight = wait_for(lambda: metric("grundy_http_inflight_bytes") >=
                        6 * 65536 and metric("grundy_http_inflight_bytes"))
    check("six replies in flight, a chunk or so each (%s bytes)" %
          inflight, inflight and inflight <= 6 * 4 * 65536, inflight)
    st, hd, again = get(d, "/api/games/%d" % gid)
    check("a reader meanwhile gets the same bytes whole",
          st == 200 and again == whole, (st, len(again)))
    ms = probe_ms(d)
    check("the probe is answered (%s ms)" % ms, ms is not None)
    peak = rss_kb(d)
    note("RSS %d KiB before, %d KiB with 6 non-readers (record %d bytes)"
         % (base, peak, size))
    # Built whole, six replies would be over 80 MB (one record each);
    # streamed, each reader holds a chunk or so.
    check("RSS grows by less than a quarter of one record (%d KiB)" %
          (peak - base), peak - base < size // 4 // 1024, peak - base)
    check("none refused", metric('grundy_http_requests_total{code="503"}')
          == 0, metric('grundy_http_requests_total{code="503"}'))
    started = 0
    for s in socks:
        s.settimeout(WAIT)
        try:
            head = s.recv(64)
        except OSError:
            head = b""
        started += head.startswith(b"HTTP/1.1 200 ")
        s.close()
    check("all six replies started (%d)" % started, started == 6, started)
    g.settimeout(WAIT)
    parts = [b""]
    while not (parts[-1].endswith(b"\n\n") or parts[-1] == b"\n" and
               parts[-2].endswith(b"\n")):
        x = g.recv(1 << 20)
        if not x:
            break
        parts.append(x)
    g.close()
    data = b"".join(parts)
    # (4 KiB reads; a 4 KiB window would wait on delayed ACKs for minutes)
    status, ev = feed_events(d, "/api/games/%d/feed" % gid, 1, None)
    check("a slow reader of the finished feed gets every event",
          b" 200 " in status and ev == [("game", None)] +
          [("move", k) for k in range(1, 20001)] + [("end", None)],
          (status, len(ev)))
    check("the GTP non-reader then reads the JSON record whole",
          data.decode() == "=7 " + whole.decode().replace(
              ',"live":null}', '}').strip() + "\n\n", len(data))


def test_record_stream_holds_events():
    """A logged-in client streams a 4,000-ply record without reading
    while another challenges it and it pipelines a second command: once
    it reads, the record is whole and intact (the challenge's event was
    held until its end), then the event, then the second reply."""
    d = hdaemon("holdev", "--rate", "10000000", "--burst", "10000000")
    gid = long_match(d, 4000, 200)
    file_bytes = get(d, "/api/games/%d/record" % gid)[2]
    ann = login(d, "ann")
    ann.cmd("protocol_version")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", d.port))
    s.sendall(b"1 register carl password1\n1 login carl password1\n"
              b"1 ready\n")
    got = b""
    while got.count(b"\n\n") < 3:
        got += s.recv(4096)
    s.sendall(("2 record %d format=file\n3 protocol_version\n" %
               gid).encode())
    # A barrier: the record's reply has begun (its first bytes are here)
    # before the challenge is made; else the event may rightly come first.
    s.settimeout(WAIT)
    parts = [s.recv(16)]
    while len(b"".join(parts)) < 3:
        parts.append(s.recv(16))
    check("the record's reply has begun", b"".join(parts).startswith(b"=2 "),
          b"".join(parts))
    r = ann.cmd("challenge carl nim 3 4 5 tc=60000")
    check("the challenge is made", ok(r), r)
    while True:
        x = s.recv(1 << 20)
        if not x:
            break
        parts.append(x)
        if b"=3 2\n\n" in b"".join(parts[-2:]):
            break
    s.close()
    data = b"".join(parts).decode()
    want = "=2 " + file_bytes.decode().rstrip("\n") + "\n\n"
    i = data.find(want)
    ev = data.find("event challenge")
    check("the record is whole and in one piece", i >= 0, data[:200])
    check("the challenge's event follows it, then the next reply",
          i >= 0 and ev >= i + len(want) and data.find("=3 2\n\n") > ev,
          (i, ev, data[i + len(want):][:200] if i >= 0 else ""))


def record_lines(text):
    """A record file's move and refused lines, as JSON would have them:
    ([(ply, player, mark, time_us, clock_us or None)], [(ply, player,
    move)])."""
    moves, refused = [], []
    for ln in text.split("\n"):
        w = ln.split(" ")
        if w[0] == "move":
            moves.append((int(w[1]), int(w[2]), w[3], int(w[4]),
                          None if w[5] == "-" else int(w[5])))
        elif w[0] == "refused":
            refused.append((int(w[1]), int(w[2]), json.loads(w[5])))
    return moves, refused


def feed_events(d, path, ndjson, rcvbuf=4096):
    """A finished game's feed read to its end, 4 KiB at a time (with a
    receive buffer of rcvbuf, None: the kernel's): (status line,
    [(type, ply or None)])."""
    s = socket.create_connection(("127.0.0.1", d.hport), timeout=WAIT)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.sendall(("GET %s HTTP/1.0\r\n%s\r\n" % (path, "Accept: "
               "application/x-ndjson\r\n" if ndjson else "")).encode())
    parts = []
    while True:
        x = s.recv(4096)
        if not x:
            break
        parts.append(x)
    s.close()
    head, _, b = b"".join(parts).partition(b"\r\n\r\n")
    out = []
    for ln in b.decode().split("\n"):
        if ndjson and ln.strip():
            ev = json.loads(ln)
        elif ln.startswith("data: "):
            ev = json.loads(ln[6:])
        else:
            continue
        out.append((ev["type"], ev.get("ply")))
    return head.split(b"\r\n")[0], out


def test_record_pages():
    """A 300-ply lobby game with a clock and refused moves at many plies
    (retry: 1 to 3 at every 7th ply), so that the record is read in
    several pages with refused moves across them: its file verifies
    (clocks and refused moves included), its JSON agrees with the file
    move by move and refused move by refused move, GTP's file is the
    download, and its feeds (SSE from 0, NDJSON from 100) have every
    move once, in order, then the end."""
    d = hdaemon("pages", "--illegal-move", "retry")
    a, b = login(d, "ann"), login(d, "ben")
    gid, seats, ea, eb = pair(d, a, b, "nim 150 150", "tc=600000+10")
    piles, seat, ply, nref = [150, 150], 1, 0, 0
    while sum(piles) > 0:
        if ply % 7 == 3:
            for k in range(1 + ply % 3):
                g = genmove_of(seats[seat])
                if g is None:
                    break
                seats[seat].answer(g, "3=%d" % k)
                nref += 1
        g = genmove_of(seats[seat])
        if g is None:
            check("genmove at ply %d" % (ply + 1), False)
            return
        mv = take_one(piles)
        nim_play(piles, mv)
        seats[seat].answer(g, mv)
        seat, ply = 3 - seat, ply + 1
    gameover_of(seats[1])
    check("the game is logged", wait_for(lambda: get(
        d, "/api/games/%d" % gid)[2].find(b'"status":"finished"') > 0))
    st, hd, fb = get(d, "/api/games/%d/record" % gid)
    text = fb.decode()
    rc, out, _ = verify("pages", text)
    check("the file verifies (%d refused moves)" % nref,
          rc == 0 and out.startswith("ok "), "%d: %s" % (rc, out))
    moves, refused_ = record_lines(text)
    check("300 moves and every refused one in the file", len(moves) ==
          300 and len(refused_) == nref, (len(moves), len(refused_)))
    check("GTP record format=file is the download",
          record_file(a, gid) == text)
    st, hd, jb = get(d, "/api/games/%d" % gid)
    j = json.loads(jb)
    check("the JSON's moves are the file's", [
        (m["ply"], m["player"], m["mark"], m["time_us"], m["clock_us"])
        for m in j["moves"]] == moves)
    check("the JSON's refused moves are the file's", [
        (m["ply"], m["player"], m["move"]) for m in j["refused"]] ==
        refused_)
    check("GTP record format=json is the JSON", body(a.cmd(
        "record %d format=json" % gid)) == jb.decode().replace(
        ',"live":null}', '}').strip())
    for path, nd, first in (("/api/games/%d/feed" % gid, 0, 1),
                            ("/api/games/%d/feed?since=100" % gid, 1,
                             101)):
        status, ev = feed_events(d, path, nd)
        check("feed %s: game, plies %d to 300, end" % (path, first),
              b" 200 " in status and ev == [("game", None)] +
              [("move", k) for k in range(first, 301)] + [("end", None)],
              (status, ev[:3], ev[-3:], len(ev)))
    # The same log with its moves in runs of 1 to 7 moves (as a node
    # writes them, one commit a move or two): the same bytes.
    feed = get(d, "/api/games/%d/feed" % gid)[2]
    d.stop()
    con = sqlite3.connect(d.db)
    runs = con.execute("SELECT first_ply, moves FROM move_runs WHERE "
                       "game_id = ? ORDER BY first_ply", (gid,)).fetchall()
    flat = [(f + i, m) for f, ms in runs for i, m in enumerate(
        json.loads(ms))]
    con.execute("DELETE FROM move_runs WHERE game_id = ?", (gid,))
    k, n = 0, 1
    while k < len(flat):
        con.execute("INSERT INTO move_runs (game_id, first_ply, moves) "
                    "VALUES (?, ?, ?)", (gid, flat[k][0], json.dumps(
                        [m for _, m in flat[k:k + n]])))
        k, n = k + n, n % 7 + 1
    con.commit()
    con.close()
    logf = os.path.join(TMP, d.name + ".log")
    before = open(logf).read().count("event=http-listen")
    d.start()
    wait_for(lambda: open(logf).read().count("event=http-listen") > before)
    d.hport = http_port(d)
    check("runs of 1 to 7 moves: the same file, JSON and feed",
          get(d, "/api/games/%d/record" % gid)[2] == fb and
          get(d, "/api/games/%d" % gid)[2] == jb and
          get(d, "/api/games/%d/feed" % gid)[2] == feed)


def test_feed_catchup_from_log():
    """A live game nobody follows keeps no events; a feed from ply 0
    gets every move from the log (clocks replayed; 1,000 plies, about
    140 KB of NDJSON: three chunks of catch-up), then the live ones."""
    d = hdaemon("catchup")
    a = login(d, "sam")
    piles = [7000, 7000]
    r = a.cmd("seek nim 7000 7000 opponent=engine tc=600000")
    check("seek opponent=engine", ok(r), r)
    e = event_of(a, "start")
    gid = int(e.split()[2])
    ply = 0

    def step():
        x = a.wait("commands", lambda x: " genmove " in x + " " or
                   " play " in x)
        w = x.split()
        if w[1] == "play":
            nim_play(piles, " ".join(t for t in w[2:]
                                     if not t.startswith("time")))
            a.answer(x)
        else:
            mv = take_one(piles)
            nim_play(piles, mv)
            a.answer(x, mv)
        return 1
    while ply < 1000:
        ply += step()
    import http.client
    c = http.client.HTTPConnection("127.0.0.1", d.hport, timeout=WAIT)
    c.request("GET", "/api/games/%d/feed?since=0" % gid,
              headers={"Accept": "application/x-ndjson"})
    resp = c.getresponse()
    check("the feed opens", resp.status == 200, resp.status)
    got, clocks = [], {}
    while len(got) < 1000:
        line = resp.readline()
        if not line:
            break
        if line.strip():
            ev = json.loads(line)
            if ev["type"] == "move":
                got.append(ev["ply"])
                clocks[ev["ply"]] = ev["clock_ms"][ev["player"] - 1]
    check("plies 1 to 1000 from the log", got == list(range(1, 1001)),
          got)
    # The clocks replayed across the catch-up's chunks are the record's.
    rec = json.loads(get(d, "/api/games/%d" % gid)[2])
    want = {m["ply"]: m["clock_us"] // 1000 for m in rec["moves"]
            if m["clock_us"] is not None and m["ply"] <= 1000}
    check("the mover's clock after each move is the record's (%d moves)"
          % len(want), len(want) >= 400 and all(
              clocks.get(k) == v for k, v in want.items()),
          [(k, clocks.get(k), v) for k, v in want.items()
           if clocks.get(k) != v][:5])
    while ply < 1010:
        ply += step()
    while len(got) < 1010:
        line = resp.readline()
        if not line:
            break
        if line.strip():
            ev = json.loads(line)
            if ev["type"] == "move":
                got.append(ev["ply"])
    check("then the live ones", got == list(range(1, 1011)), got)
    c.close()


if __name__ == "__main__":
    sys.exit(run([test_match_ply_limit, test_lobby_limits,
                  test_client_log_rate, test_queue_refuses,
                  test_record_non_readers, test_record_stream_holds_events,
                  test_record_pages,
                  test_feed_catchup_from_log]))
