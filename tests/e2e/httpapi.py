#!/usr/bin/env python3
"""httpapi.py: end-to-end tests of grundyd's HTTP side (PROTOCOL.md §14):
the embedded pages, every JSON endpoint with its errors and pagination,
the SSE and NDJSON feeds (resumed from Last-Event-ID with nothing lost or
repeated), the TV feed, the limits (a feed that does not read is dropped
at max-http-output while the daemon keeps serving), text from users
escaped in the JSON, and /metrics (parsed strictly as Prometheus text,
its counters checked against what the test did)."""
import json
import socket
import sys

# This file's name hides the standard library's http package: look for it
# without this directory first.
_here = sys.path.pop(0)
import http.client  # noqa: E402
sys.path.insert(0, _here)

from e2e import *  # noqa: E402


def http_port(d, timeout=WAIT):
    """The HTTP port grundyd logged (--http 127.0.0.1:0)."""
    def find():
        m = re.findall(r"event=http-listen addr=\S+ port=(\d+)",
                       open(os.path.join(TMP, d.name + ".log")).read())
        return int(m[-1]) if m else None
    return wait_for(find, timeout)


def hdaemon(name, *flags):
    d = Daemon(name, "--http", "127.0.0.1:0", *flags)
    d.hport = http_port(d)
    return d


def two_players(name, *flags):
    """A daemon with HTTP and two logged-in clients, alice and bob."""
    d = hdaemon(name, *flags)
    return d, login(d, "alice"), login(d, "bob")


def finish(d, *clients):
    """Closes the clients and stops the daemon."""
    for c in clients:
        c.close()
    d.stop()


def get(d, path, headers=None, method="GET", timeout=WAIT):
    """One request on a new connection: (status, headers dict, body)."""
    c = http.client.HTTPConnection("127.0.0.1", d.hport, timeout=timeout)
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    b = r.read()
    hd = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    return r.status, hd, b


def keep_alive(d, n, path):
    """n connections each kept open after a GET of path: [(conn, status)]."""
    keep = []
    for i in range(n):
        c = http.client.HTTPConnection("127.0.0.1", d.hport, timeout=WAIT)
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        keep.append((c, r.status))
    return keep


def jget(d, path, headers=None, timeout=WAIT):
    """(status, parsed JSON) of a GET."""
    st, hd, b = get(d, path, headers, timeout=timeout)
    try:
        return st, json.loads(b.decode("utf-8"))
    except ValueError:
        return st, {"unparsed": b}


def is_error(st, j, code, words=()):
    return st == code and isinstance(j, dict) and j.get("status") == code \
        and all(w in j.get("error", "") for w in words)


class Feed:
    """A feed read from a raw socket (HTTP/1.1, chunked): SSE events as
    (id, event, json) or NDJSON objects; comments and empty lines count as
    heartbeats."""

    def __init__(self, d, path, headers=None, rcvbuf=None):
        self.s = socket.socket()
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.s.settimeout(WAIT)
        self.s.connect(("127.0.0.1", d.hport))
        h = "".join("%s: %s\r\n" % kv for kv in (headers or {}).items())
        self.s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n%s\r\n" %
                        (path, h)).encode())
        self.raw = b""
        self.body = b""
        self.status = None
        self.chunked = False
        self.closed = False
        self.beats = 0
        self.events = []

    def _recv(self, timeout):
        self.s.settimeout(timeout)
        try:
            d = self.s.recv(65536)
        except socket.timeout:
            return False
        except OSError:
            d = b""
        if not d:
            self.closed = True
            return False
        self.raw += d
        return True

    def _parse(self):
        if self.status is None:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.raw[:end].decode()
            self.raw = self.raw[end + 4:]
            self.status = int(head.split()[1])
            self.headers = head.lower()
            self.chunked = "transfer-encoding: chunked" in self.headers
            m = re.search(r"content-length: (\d+)", self.headers)
            self.length = int(m.group(1)) if m else None
        if self.chunked:
            while True:
                end = self.raw.find(b"\r\n")
                if end < 0:
                    return
                n = int(self.raw[:end], 16)
                if len(self.raw) < end + 2 + n + 2:
                    return
                self.body += self.raw[end + 2:end + 2 + n]
                self.raw = self.raw[end + 2 + n + 2:]
                if n == 0:
                    self.closed = True
                    return
        else:
            self.body += self.raw
            self.got = getattr(self, "got", 0) + len(self.raw)
            self.raw = b""
            if self.length is not None and self.got >= self.length:
                self.closed = True      # the reply is complete

    def _events(self, ndjson):
        if ndjson:
            while b"\n" in self.body:
                line, self.body = self.body.split(b"\n", 1)
                if not line:
                    self.beats += 1
                else:
                    self.events.append(json.loads(line.decode()))
            return
        while b"\n\n" in self.body:
            block, self.body = self.body.split(b"\n\n", 1)
            ev = {}
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    self.beats += 1
                    continue
                k, _, v = line.partition(": ")
                ev[k] = v
            if "data" in ev:
                self.events.append((ev.get("id"), ev.get("event"),
                                    json.loads(ev["data"])))

    def wait(self, pred, timeout=WAIT, ndjson=False):
        """Reads until pred(events) is true or the deadline; returns it."""
        t0 = time.time()
        end = t0 + timeout
        while True:
            self._parse()
            if self.status is not None:
                self._events(ndjson)
            if pred(self.events):
                return waited(t0, timeout, True)
            left = end - time.time()
            if left <= 0 or self.closed:
                return pred(self.events)
            self._recv(min(left, 0.2))

    def pump(self):
        """Reads whatever has arrived, without waiting."""
        while self._recv(0.001):
            pass

    def close(self):
        self.s.close()


def nim_moves(piles):
    """The moves taking one token at a time from the first pile left."""
    piles = list(piles)
    out = []
    while any(piles):
        i = next(k for k, p in enumerate(piles) if p)
        piles[i] -= 1
        out.append("%d=%d" % (i + 1, piles[i]))
    return out


def play_one(seats, mover, move):
    """The seat to move answers its genmove with move."""
    g = genmove_of(seats[mover])
    if g is None:
        return False
    seats[mover].answer(g, move)
    return True


def test_pages_and_errors():
    d = hdaemon("pages")
    st, hd, b = get(d, "/")
    check("/ is index.html", st == 200 and hd["content-type"].startswith(
        "text/html") and b.startswith(b"<!DOCTYPE html>"), (st, hd, b[:80]))
    st, hd, b2 = get(d, "/static/index.html")
    check("/ is the server's page around its template, "
          "/static/index.html", st == 200 and b'<nav id="nav">' in b and
          b'<nav id="nav">' not in b2 and b2.split(b"<!--grundy:")[0] in b,
          (b[:300], b2[:300]))
    st, hd, b3 = get(d, "/", method="HEAD")
    check("HEAD / has the headers and no body", st == 200 and b3 == b""
          and hd["content-type"].startswith("text/html"), (st, hd))
    for path in ("/static/nope.js", "/nope", "/static/../Makefile",
                 "/api/nope", "/api/games/1/nope", "/api/games/1/record"):
        st, j = jget(d, path)
        check("404 JSON for " + path, is_error(st, j, 404), (st, j))
    st, hd, b = get(d, "/api/games/live", method="POST")
    j = json.loads(b)
    check("POST is 405 with Allow", st == 405 and hd.get("allow") ==
          "GET, HEAD" and j["status"] == 405, (st, hd, b))
    for path, words in (("/api/games/abc", ["bad game id"]),
                        ("/api/games/0", ["bad game id"]),
                        ("/api/games/99999999999999999999", ["bad game id"]),
                        ("/api/games?limit=0", ["limit", "1 to 200"]),
                        ("/api/games?limit=201", ["limit"]),
                        ("/api/games?before=x", ["before"]),
                        ("/api/games?limit=1&limit=2", ["given twice"]),
                        ("/api/games?player=" + "a" * 65, ["player"]),
                        ("/api/games?result=draw", ["result",
                                                    "first or second"]),
                        ("/api/games?until=yesterday", ["until"]),
                        ("/api/games/abc/record", ["bad game id"]),
                        ("/api/ratings?limit=-1", ["limit"]),
                        ("/api/players/" + "b" * 65, ["bad name"]),
                        ("/api/games/1/feed?since=x", ["since"])):
        st, j = jget(d, path)
        check("400 for " + path[:40], is_error(st, j, 400, words), (st, j))
    st, j = jget(d, "/api/games/12345")
    check("404 unknown game", is_error(st, j, 404, ["no game 12345"]), j)
    st, j = jget(d, "/api/games/12345/feed")
    check("404 unknown game's feed", is_error(st, j, 404), j)
    st, j = jget(d, "/api/tournaments/nope")
    check("404 unknown tournament", is_error(st, j, 404,
                                             ["no tournament nope"]), j)
    st, j = jget(d, "/api/players/nobody")
    check("404 unknown player", is_error(st, j, 404,
                                         ["no player nobody"]), j)
    st, j = jget(d, "/api/games?tournament=nope")
    check("unknown tournament filter: an empty list", st == 200 and
          j == {"games": [], "next": None}, j)
    st, j = jget(d, "/api/games/live")
    check("no live games (a single node: none elsewhere)",
          st == 200 and j == {"games": [], "elsewhere": []}, j)
    # A request over max-http-request is refused; the daemon goes on.
    s = socket.create_connection(("127.0.0.1", d.hport), timeout=WAIT)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 20000 +
              b"\r\n\r\n")
    got = b""
    try:
        while True:
            c = s.recv(65536)
            if not c:
                break
            got += c
    except OSError:
        pass
    s.close()
    check("an oversized request is refused and closed",
          got.split(b" ")[1:2] in ([b"400"], [b"413"], [b"431"]) or
          got == b"", got[:60])
    st, j = jget(d, "/api/games/live")
    check("the daemon serves after it", st == 200, j)
    d.stop()


def record_lines(c, gid):
    """The move lines of `record GAME_ID`:
    [(ply, player, move, mark, time_us)]."""
    r = c.cmd("record %d" % gid)
    out = []
    for line in (r or "").split("\n"):
        m = re.match(r"(?:=\d+ )?move (\d+) (\d) (.*) (\S+) (\d+) (\S+)"
                     r" (\d+)$", line)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), m.group(3),
                        m.group(4), int(m.group(7))))
    return out


def moves_of(events):
    return [e for e in events if e[1] == "move"]


def test_game_feed_and_record():
    """SSE and NDJSON feeds of a live game, resumed with nothing lost or
    repeated; the record and the finished game's feed; escaping."""
    d, a, b = two_players("feed", "--illegal-move", "retry",
                          "--http-heartbeat", "100")
    gid, seats, ea, eb = pair(d, a, b, "nim 3 4 5", "tc=60000")
    moves = nim_moves([3, 4, 5])
    st, j = jget(d, "/api/games/live")
    live = [g for g in j.get("games", []) if g["id"] == gid]
    check("the game is live", st == 200 and len(live) == 1 and
          live[0]["ply"] == 0 and live[0]["to_move"] == 1 and
          live[0]["start"] == "nim 3 4 5" and
          live[0]["tc"] == {"base_ms": 60000, "inc_ms": 0}, j)
    f1 = Feed(d, "/api/games/%d/feed" % gid)
    check("SSE feed: the game event", f1.wait(lambda e: len(e) >= 1) and
          f1.status == 200 and "text/event-stream" in f1.headers and
          f1.events[0][0] is None and f1.events[0][1] == "game" and
          f1.events[0][2]["live"]["ply"] == 0, f1.events)
    # A refused move with quotes, a backslash, markup and UTF-8: the JSON
    # escapes them (json.c's unit test covers bytes that are not UTF-8).
    g = genmove_of(seats[1])
    weird = 'x"y\\z<b>&\u00e9\u2028'
    seats[1].answer(g, weird)
    ev = event_of(seats[1], "illegal")
    check("the weird move is refused (retry)", ev is not None, ev)
    g = genmove_of(seats[1])
    seats[1].answer(g, moves[0])
    for i, mv in enumerate(moves[1:5], 1):
        play_one(seats, 1 + i % 2, mv)
    check("SSE: plies 1 to 5 live", f1.wait(
        lambda e: len(moves_of(e)) == 5), f1.events)
    got = moves_of(f1.events)
    check("SSE: id is the ply, in order",
          [(x[0], x[2]["ply"], x[2]["move"]) for x in got] ==
          [(str(k), k, moves[k - 1]) for k in range(1, 6)], got)
    check("SSE: a move event's fields", set(got[0][2]) == {
        "type", "id", "ply", "player", "move", "position", "mark",
        "time_ms", "clock_ms"} and got[0][2]["position"] == "nim 2 4 5"
        and got[0][2]["mark"] in ("kept-win", "threw-win", "no-win"),
        got[0])
    check("SSE: heartbeats", f1.wait(lambda e: f1.beats >= 2, WAIT), f1.beats)
    f1.close()
    for i, mv in enumerate(moves[5:8], 5):
        play_one(seats, 1 + i % 2, mv)
    # The moves reach the lobby; resume after ply 5 as a browser would.
    wait_for(lambda: jget(d, "/api/games/live")[1]["games"][0]["ply"] == 8)
    f2 = Feed(d, "/api/games/%d/feed" % gid, {"Last-Event-ID": "5"})
    nd = Feed(d, "/api/games/%d/feed?since=7" % gid,
              {"Accept": "application/x-ndjson"})
    for i, mv in enumerate(moves[8:], 8):
        play_one(seats, 1 + i % 2, mv)
    check("SSE resumed: plies 6 to 12 once each, then the end",
          f2.wait(lambda e: any(x[1] == "end" for x in e), WAIT),
          f2.events)
    got = moves_of(f2.events)
    check("nothing lost or repeated", [x[2]["ply"] for x in got] ==
          list(range(6, 13)) and [x[2]["move"] for x in got] == moves[5:],
          [x[2]["ply"] for x in got])
    end = [x for x in f2.events if x[1] == "end"]
    check("the end event", len(end) == 1 and end[0][0] == "end" and
          end[0][2]["plies"] == 12 and end[0][2]["logged"] is True and
          end[0][2]["reason"] is not None and
          end[0][2]["result"] in ("first", "second"), end)
    check("the stream closes after the end", f2.wait(lambda e: f2.closed,
                                                     5))
    check("NDJSON resumed at 7: game, plies 8 to 12, end",
          nd.wait(lambda e: e and e[-1].get("type") == "end", WAIT,
                  ndjson=True) and "application/x-ndjson" in nd.headers and
          [e["type"] for e in nd.events] == ["game"] + ["move"] * 5 +
          ["end"] and [e["ply"] for e in nd.events[1:6]] ==
          list(range(8, 13)), nd.events)
    f2.close()
    nd.close()
    gameover_of(a)
    # The record: what `record` shows, as JSON.
    st, j = jget(d, "/api/games/%d" % gid)
    rec = record_lines(a, gid)
    check("record JSON: the moves of `record`", st == 200 and
          [(m["ply"], m["player"], m["move"], m["mark"], m["time_us"])
           for m in j["moves"]] == rec and len(rec) == 12 and
          all(m["time_ms"] == m["time_us"] // 1000 for m in j["moves"]),
          (j, rec))
    gsum = j.get("game", {})
    check("record JSON: the summary", gsum.get("status") == "finished" and
          gsum.get("player1") in ("alice", "bob") and
          gsum.get("winner") == (gsum["player1"] if gsum["result"] ==
                                 "first" else gsum["player2"]) and
          gsum.get("started") and gsum.get("ended") and
          j.get("live") is None and gsum.get("tournament") is None, gsum)
    check("record JSON: the refused move, escaped and exact",
          len(j["refused"]) == 1 and
          j["refused"][0]["move"] == weird and
          j["refused"][0]["ply"] == 1, j.get("refused"))
    st, hd, raw = get(d, "/api/games/%d" % gid)
    check("raw JSON: escaped, no control byte, U+2028 as \\u2028",
          all(c >= 0x20 for c in raw.rstrip(b"\n")) and
          b'x\\"y\\\\z<b>&\xc3\xa9\\u2028' in raw, raw[-400:])
    # The finished game's feed replays the log.
    f3 = Feed(d, "/api/games/%d/feed" % gid, {"Last-Event-ID": "10"})
    check("finished feed from ply 10: game, 11, 12, end",
          f3.wait(lambda e: f3.closed, WAIT) and
          [(x[0], x[1]) for x in f3.events] == [(None, "game"), ("11", "move"),
                                                ("12", "move"),
                                                ("end", "end")], f3.events)
    f3.close()
    st, hd, b0 = get(d, "/api/games/%d/feed" % gid,
                     {"Last-Event-ID": "end"})
    check("Last-Event-ID: end is 204", st == 204 and b0 == b"", st)
    st, j = jget(d, "/api/games/%d/feed?since=13" % gid)
    check("since past the end is 400", is_error(st, j, 400, ["since"]), j)
    finish(d, a, b)


def test_pagination():
    """/api/games pages, followed by next, list every game once."""
    d, a, b = two_players("pages2")
    c = login(d, "carol")
    for i in range(4):
        gid, seats, ea, eb = pair(d, a, b, "nim 1 2", "tc=60000")
        check("resign", ok(seats[1].cmd("resign %d" % gid)))
        gameover_of(seats[2])
    gid, seats, ea, eb = pair(d, a, c, "nim 1 2", "tc=60000")
    check("resign", ok(seats[2].cmd("resign %d" % gid)))
    gameover_of(seats[1])
    hist = [int(x.split()[0]) for x in body(a.cmd("history 1000")).split(
        "\n") if x.strip()]
    for q, want in (("", hist),
                    ("player=bob&", [i for i in hist if i != gid]),
                    ("player=carol&", [gid])):
        seen, url, pages = [], "/api/games?%slimit=2" % q, 0
        while url is not None and pages < 20:
            st, j = jget(d, url)
            check("page %s is 200" % url, st == 200 and
                  len(j["games"]) <= 2, j)
            seen += [g["id"] for g in j["games"]]
            url = j["next"]
            pages += 1
        check("pages of %r: every game once, newest first" % q,
              seen == want, (seen, want))
    st, j = jget(d, "/api/games?before=%d&limit=1" % hist[1])
    check("before is exclusive", [g["id"] for g in j["games"]] ==
          [hist[2]], j)
    g = [x for x in jget(d, "/api/games")[1]["games"] if x["id"] == gid][0]
    check("a summary's fields", set(g) == {
        "id", "family", "start", "player1", "player2", "status", "result",
        "winner", "reason", "detail", "rated", "tc", "tournament", "slot",
        "started", "ended"} and g["reason"] == "resign" and
        g["family"] == "nim" and g["slot"] is None, g)
    finish(d, a, b, c)


def test_tournament_players_ratings():
    """A tournament's JSON against `standings`; players and ratings
    against `player` and `ratings`."""
    d = hdaemon("tour", "--admins", "boss")
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    os.environ["GRUNDY"] = GRUNDY
    boss = login(d, "boss")
    start_bot(d, "p1", perfect)
    start_bot(d, "p2", perfect)
    check("bots logged in", bots_logged_in(("p1", "p2")))
    r = boss.cmd("tournament create cup roundrobin players=p1,p2 games=2 "
                 "tc=20000 nim 2 3")
    check("tournament create", ok(r), r)
    (played, total), sr = tournament_done(boss, "cup", 60)
    check("tournament played", played == total == 2, sr)
    st, j = jget(d, "/api/tournaments")
    t = j["tournaments"][0] if st == 200 and j["tournaments"] else {}
    check("tournament list", t.get("name") == "cup" and
          t.get("players") == ["p1", "p2"] and t.get("played") == 2 and
          t.get("total") == 2 and t.get("status") == "finished" and
          t.get("format") == "roundrobin" and t.get("game") == "nim 2 3",
          j)
    st, j = jget(d, "/api/tournaments/cup")
    lines = [x.split() for x in body(sr).split("\n")
             if re.match(r"\d+ ", x)]
    want = [{"rank": int(x[0]), "name": x[1], "games": int(x[5]),
             "wins": int(x[7])} for x in lines]
    check("standings are `standings`", st == 200 and
          [{k: x[k] for k in ("rank", "name", "games", "wins")}
           for x in j["standings"]] == want, (j, sr))
    idx = {"p1": 0, "p2": 1}
    ok_x = all(j["crosstable"][idx[w["name"]]][1 - idx[w["name"]]]["wins"]
               == w["wins"] for w in want) and j["crosstable"][0][0] is None
    check("crosstable agrees", ok_x, j["crosstable"])
    check("the tournament's games", sorted(g["id"] for g in j["games"]) ==
          sorted(g["id"] for g in jget(d, "/api/games?tournament=cup")[1][
              "games"]) and len(j["games"]) == 2 and
          all(g["tournament"] == "cup" for g in j["games"]) and
          j["live"] == [], j["games"])
    st, j = jget(d, "/api/ratings")
    rr = re.findall(r"(\w+) rating (\d+) games (\d+) rd (\d+)( provisional)?",
                    boss.cmd("ratings") or "")
    check("ratings are `ratings`", st == 200 and
          [(x["name"], x["games"], x["provisional"]) for x in j["ratings"]]
          == [(n, int(g), p != "") for n, v, g, rd, p in rr] and
          all(abs(x["rating"] - int(v)) <= 0.5 and
              abs(x["rd"] - int(rd)) <= 0.5 for x, (n, v, g, rd, p) in
              zip(j["ratings"], rr)), (j, rr))
    st, j = jget(d, "/api/players/p1")
    pr = body(boss.cmd("player p1"))
    m = re.search(r"games (\d+) wins (\d+) losses (\d+)", pr)
    check("player is `player`", st == 200 and m is not None and
          (j["games"], j["wins"], j["losses"]) ==
          tuple(int(x) for x in m.groups()) and
          re.search(r"\nrating (\d+) rd (\d+)( provisional)?\n", pr).groups()
          == (str(int(j["rating"])), str(int(j["rd"])),
              " provisional" if j["provisional"] else None) and
          len(j["first_throw"]) == 8 and j["rated_games"] == 2 and
          len(j["rating_history"]) == 2 and
          j["rating_history"][-1]["rating"] == j["rating"] and
          j["rating_history"][-1]["rd"] == j["rd"] and
          len(j["recent"]) == 2, (j, pr))
    st, j = jget(d, "/api/players/boss")
    check("a player without rated games: no rating, no RD, provisional",
          st == 200 and (j["rating"], j["rd"], j["provisional"],
                         j["rated_games"], j["rating_history"]) ==
          (None, None, True, 0, []), j)
    finish(d, boss)


def test_tv():
    d, a, b = two_players("tv")
    tv = Feed(d, "/api/tv/feed")
    gid, seats, ea, eb = pair(d, a, b, "nim 2 2", "tc=60000")
    play_one(seats, 1, "1=1")
    check("tv: featured at the first move", tv.wait(
        lambda e: any(x[1] == "featured" for x in e)) and
        tv.events[0][1] == "featured" and
        tv.events[0][2]["game"]["id"] == gid and
        tv.events[0][2]["live"]["ply"] == 1, tv.events)
    play_one(seats, 2, "2=1")
    check("tv: the move", tv.wait(lambda e: any(x[1] == "move" for x in e))
          and moves_of(tv.events)[0][2]["ply"] == 2 and
          moves_of(tv.events)[0][0] is None, tv.events)
    tv2 = Feed(d, "/api/tv/feed")
    check("tv: a new viewer gets the featured game now", tv2.wait(
        lambda e: len(e) == 1) and tv2.events[0][2]["live"]["ply"] == 2,
        tv2.events)
    check("resign", ok(seats[1].cmd("resign %d" % gid)))
    check("tv: the end, and the feed stays open", tv.wait(
        lambda e: any(x[1] == "end" for x in e)) and not tv.closed,
        tv.events)
    tv.close()
    tv2.close()
    finish(d, a, b)


def test_limits_and_slow_stream():
    """Streams per address, connections, and a feed that does not read:
    dropped at max-http-output while the daemon keeps serving."""
    d, a, b = two_players("slow", "--trusted-networks", "none",
                          "--max-http-streams-per-ip", "2",
                          "--max-http-conns", "6", "--max-http-output",
                          "4096", "--http-heartbeat", "3600000")
    big = 10 ** 1300
    gid, seats, ea, eb = pair(d, a, b, "nim %d %d %d" % (big, big, big),
                              "tc=600000")
    slow = Feed(d, "/api/games/%d/feed" % gid, rcvbuf=4096)
    ok1 = Feed(d, "/api/games/%d/feed" % gid)
    check("two feeds from one address",
          slow.wait(lambda e: slow.status is not None, WAIT) and
          ok1.wait(lambda e: len(e) >= 1) and slow.status == 200, slow.status)
    st, j = jget(d, "/api/games/%d/feed" % gid)
    check("a third from the address is 503", is_error(
        st, j, 503, ["max-http-streams-per-ip"]), j)
    # The slow feed reads nothing: play until it is dropped.
    piles, ply = [big, big, big], 0

    def dropped():
        t = get(d, "/metrics")[2].decode()
        return "grundy_http_streams_dropped_total 1" in t
    while ply < 200 and not dropped():
        ok1.pump()
        piles[ply % 2] -= 1
        play_one(seats, 1 + ply % 2, "%d=%d" % (ply % 2 + 1, piles[ply % 2]))
        ply += 1
    check("the slow feed is dropped at the cap", dropped(), ply)
    got = b""
    slow.s.settimeout(5)
    try:
        while True:
            c = slow.s.recv(1 << 20)
            if not c:
                break
            got += c
    except OSError:
        pass
    check("the slow feed's connection is closed", len(got) > 4096, len(got))
    check("the reading feed got every move", ok1.wait(
        lambda e: len(moves_of(e)) == ply, WAIT), len(moves_of(ok1.events)))
    st, j = jget(d, "/api/games/live")
    check("the daemon keeps serving", st == 200 and j["games"][0]["ply"] ==
          ply, j)
    # A feed resuming from ply 0 gets the whole game (about 500 KB, over
    # 100 times the cap) a piece at a time as it reads, not dropped.
    while ply < 120:
        ok1.pump()
        piles[ply % 3] -= 1
        play_one(seats, 1 + ply % 2, "%d=%d" % (ply % 3 + 1, piles[ply % 3]))
        ply += 1
    check("the reading feed keeps up", ok1.wait(
        lambda e: len(moves_of(e)) == ply, WAIT), len(moves_of(ok1.events)))
    late = Feed(d, "/api/games/%d/feed" % gid)
    check("a late feed catches up on %d big moves under the cap" % ply,
          late.wait(lambda e: len(moves_of(e)) == ply, WAIT) and
          [x[2]["ply"] for x in moves_of(late.events)] ==
          list(range(1, ply + 1)) and
          "grundy_http_streams_dropped_total 1" in get(d, "/metrics")[
              2].decode(), (len(moves_of(late.events)), ply))
    piles[ply % 3] -= 1
    play_one(seats, 1 + ply % 2, "%d=%d" % (ply % 3 + 1, piles[ply % 3]))
    ply += 1
    check("then it follows live", late.wait(
        lambda e: len(moves_of(e)) == ply, WAIT), len(moves_of(late.events)))
    late.close()
    check("its close is seen", wait_for(lambda: "grundy_http_streams 1\n" in
                                        get(d, "/metrics")[2].decode()))
    f3 = Feed(d, "/api/tv/feed")
    check("a new feed is accepted again", f3.wait(lambda e: len(e) >= 1),
          f3.events)
    # Connections: six are open (ok1, f3 and four kept alive), the 7th 503.
    keep = keep_alive(d, 4, "/api/ratings")
    check("keep-alive connections up to the limit",
          [s for c, s in keep] == [200] * 4, keep)
    st, j = jget(d, "/api/ratings")
    check("one over max-http-conns is 503", is_error(
        st, j, 503, ["max-http-conns"]), j)
    for c, s in keep:
        c.close()
    check("served again once they close", wait_for(
        lambda: jget(d, "/api/ratings")[0] == 200), WAIT)
    finish(d, slow, ok1, f3, a, b)


METRIC_LINE = re.compile(
    r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|'
    r'\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*)?\})? '
    r'(-?[0-9.eE+-]+|\+Inf|-Inf|NaN)$')


def parse_prometheus(text):
    """A strict parser of the text format 0.0.4: every family has HELP then
    TYPE before its samples, names and labels are valid, values numbers;
    histograms have cumulative buckets ending in +Inf equal to _count.
    Returns {(name, labels tuple): value}, or raises ValueError."""
    out, types, helped, cur = {}, {}, set(), None
    if not text.endswith("\n"):
        raise ValueError("no final newline")
    for line in text[:-1].split("\n"):
        if line.startswith("# HELP "):
            name = line.split(" ")[2]
            if name in helped:
                raise ValueError("HELP twice: " + name)
            helped.add(name)
            cur = name
            continue
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ")
            if name != cur or name in types or typ not in (
                    "counter", "gauge", "histogram"):
                raise ValueError("bad TYPE: " + line)
            types[name] = typ
            continue
        m = METRIC_LINE.match(line)
        if not m:
            raise ValueError("bad line: %r" % line)
        name = m.group(1)
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        fam = name if name in types else base
        if fam != cur or fam not in types:
            raise ValueError("sample outside its family: " + line)
        if types[fam] == "counter" and not name.endswith("_total"):
            raise ValueError("counter without _total: " + name)
        labels = tuple(re.findall(r'([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"',
                                  m.group(3) or ""))
        if (name, labels) in out:
            raise ValueError("sample twice: " + line)
        out[(name, labels)] = float(m.group(4))
    for fam, typ in types.items():
        if typ != "histogram":
            continue
        b = [(k[1][0][1], v) for k, v in out.items()
             if k[0] == fam + "_bucket"]
        vals = [v for _, v in b]
        if b[-1][0] != "+Inf" or vals != sorted(vals) or \
                vals[-1] != out[(fam + "_count", ())]:
            raise ValueError("bad histogram " + fam)
    return out


def test_metrics():
    d = hdaemon("metrics", "--rate", "1", "--burst", "6",
                "--login-failures", "2")
    st, hd, t0 = get(d, "/metrics")
    check("metrics type", st == 200 and hd["content-type"].startswith(
        "text/plain; version=0.0.4"), hd)
    try:
        m0 = parse_prometheus(t0.decode())
    except ValueError as e:
        m0 = None
        check("metrics parse", False, str(e))
    a, b = login(d, "alice"), login(d, "bob")
    gid, seats, ea, eb = pair(d, a, b, "nim 1 1 1", "tc=60000")
    play_one(seats, 1, "1=0")
    play_one(seats, 2, "2=0")
    check("resign", ok(seats[1].cmd("resign %d" % gid)))
    gameover_of(seats[2])
    # Rate: burst 3 then refusals; each refused is counted.
    x = Client(d)
    x.send("\n".join("%d protocol_version" % i for i in range(1, 11)))
    refusals = [x.wait("replies", lambda r: r.startswith("?%d" % i)
                       and "budget: commands of the trusted class" in r)
                for i in range(7, 11)]
    nref = sum(r is not None for r in refusals)
    # Two failed logins lock the name once.
    y = Client(d)
    for i in range(2):
        y.cmd("login alice wrongpassword")
    check("the locked-out connection is closed", y.wait_closed(WAIT))
    for i in range(3):
        get(d, "/nope")
    st, hd, t1 = get(d, "/metrics")
    try:
        m1 = parse_prometheus(t1.decode())
    except ValueError as e:
        m1 = {}
        check("metrics parse after", False, str(e))

    def v(name, *labels):
        return m1.get((name, tuple(labels)), 0) - \
            (m0 or {}).get((name, tuple(labels)), 0)
    check("moves counted", v("grundy_moves_total") == 2, t1)
    check("ends counted by reason",
          v("grundy_games_ended_total", ("reason", "resign")) == 1, t1)
    check("rate-limit refusals counted", nref == 4 and
          v("grundy_rate_limited_total") == nref, (nref, t1))
    check("lockouts counted", v("grundy_lockouts_total") == 1, t1)
    check("commands by name", v("grundy_commands_total",
                                ("command", "seek")) == 2 and
          v("grundy_commands_total", ("command", "resign")) == 1 and
          v("grundy_commands_total", ("command", "protocol_version")) == 6
          and v("grundy_command_errors_total", ("command", "login")) == 2,
          t1)
    check("HTTP requests by code", v("grundy_http_requests_total",
                                     ("code", "404")) == 3 and
          v("grundy_http_requests_total", ("code", "200")) == 1, t1)
    # y was closed at its lockout: a, b and x are left.
    check("gauges", m1.get(("grundy_connections", ())) == 3 and
          m1.get(("grundy_live_games", ())) == 0 and
          m1.get(("grundy_http_streams", ())) == 0, t1)
    check("commits observed", m1.get(("grundy_log_commit_seconds_count",
                                      ())) > 0, t1)
    finish(d, a, b, x, y)


if __name__ == "__main__":     # tests/e2e/httphostile.py imports the helpers
    sys.exit(run([test_pages_and_errors, test_game_feed_and_record,
                  test_pagination, test_tournament_players_ratings, test_tv,
                  test_limits_and_slow_stream, test_metrics]))
