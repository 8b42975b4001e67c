#!/usr/bin/env python3
"""xfeed.py: the web's live feeds across nodes (issue 15 §2, PROTOCOL.md
§14.4): two grundyd with --http on one PostgreSQL (make check runs it
under a throwaway cluster, tests/e2e/pgcluster.sh).  Two grundy bots play a
game owned by node A, held after 4 plies; SSE feeds of it on node B
(which does not own it) and on A, an NDJSON feed on B and a feed on B
resumed with Last-Event-ID get the same move and end events, byte for
byte, every ply once and in order, then the end; the record equals what
the feeds sent; B's TV shows only B's own games (none); A wrote each move
after B began to follow as a run of its own (the remote spectator's
promptness, without timing it).  And in headless chromium (web.py's
Browser), node B's page of a game of node A follows its moves and shows
its result without a reload.  And node B's feed of a game it took over
from a killed node A has every ply from the first.  Every wait is a poll with a deadline;
counts are exact."""
import os
import shutil
import signal
import sys

from e2e import *  # noqa: F401,F403
from httpapi import Feed, get, http_port, jget  # noqa: E402
from web import Browser, answer_genmove, rows, text  # noqa: E402
from xnode import URL, fresh_db, psql  # noqa: E402

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
SPEC = "nim " + " ".join(["1"] * 10)    # exactly 10 plies, seat 2 wins
PLIES = 10
HELD = 2                                # genmoves each bot answers first
DEADLINE = 30.0                         # s: every poll's bound


class TextFeed(Feed):
    """A Feed that also keeps the text of its body (the events' bytes)."""

    def __init__(self, *args, **kw):
        self.text = b""
        Feed.__init__(self, *args, **kw)

    def _parse(self):
        n = len(self.body)
        Feed._parse(self)
        self.text += self.body[n:]

    def blocks(self):
        """The events' text without the game event and the heartbeats."""
        return [b for b in self.text.decode().split("\n\n")
                if b and not b.startswith(":") and
                "event: game\n" not in b + "\n"]


def hnode(name, url):
    d = Daemon(name, "--http", "127.0.0.1:0", "--node-ttl", "2000", db=url)
    d.hport = http_port(d)
    return d


def bot(d, name, hold):
    return start_bot(d, name, gate_prog(hold, HELD),
                     ("--seek", SPEC + " tc=60000 rated=0", "--no-ready",
                      "--games", "1"))


def live_id(d):
    """The id of the one live game of node d, or None at the deadline."""
    def one():
        st, j = jget(d, "/api/games/live")
        g = j.get("games", []) if st == 200 else []
        return g[0]["id"] if len(g) == 1 else None
    return wait_for(one, DEADLINE, 0.05)


def logged(d, gid):
    """Whether game gid is in the log, read on node d (its owner took its
    lease before its first write: another node can follow it now)."""
    return wait_for(lambda: jget(d, "/api/games/%d" % gid)[0] == 200,
                    DEADLINE, 0.05)


def streams(d):
    """The feeds open on node d (its /metrics gauge), or None."""
    st, _, body_ = get(d, "/metrics")
    m = re.search(r"^grundy_http_streams (\d+)$", body_.decode(), re.M)
    return int(m.group(1)) if st == 200 and m else None


def moves_of(events):
    return [e[2] for e in events if e[1] == "move"]


def ended(f):
    return lambda ev: any(e[1] == "end" for e in ev)


def cluster_live(a, b, gid):
    """Issue 26: node B lists node A's live game, marking its node: in
    `games live`, GET /api/games/live's elsewhere and the page /live."""
    def elsewhere(d):
        st, j = jget(d, "/api/games/live")
        return j.get("elsewhere") if st == 200 else None
    eb = wait_for(lambda: [e for e in elsewhere(b) or []
                           if e["game"]["id"] == gid], DEADLINE, 0.05)
    check("B's /api/games/live: A's game elsewhere, with A's node",
          eb and len(eb) == 1 and isinstance(eb[0]["node"], int) and
          eb[0]["node"] > 0 and eb[0]["game"]["status"] == "live" and
          eb[0]["node_addr"] == "127.0.0.1:%d" % a.port, eb)
    check("B's /api/games/live: not among B's own games",
          all(g["id"] != gid for g in jget(b, "/api/games/live")[1][
              "games"]))
    check("A's /api/games/live: its own game, none elsewhere",
          elsewhere(a) == [] and [g["id"] for g in jget(
              a, "/api/games/live")[1]["games"]] == [gid])
    c = login(b, "lookon")
    r = c.cmd("games live") or ""
    lines = [ln for ln in body(r).splitlines() if ln]
    check("`games live` on B: A's game, with node=N", ok(r) and
          len(lines) == 1 and lines[0].startswith("%d " % gid) and
          (" node=%d " % eb[0]["node"] if eb else "?") in lines[0] and
          lines[0].endswith(" " + SPEC), r)
    c.close()
    st, _, page = get(b, "/live")
    check("B's page /live: A's game under the other nodes",
          st == 200 and b'<div id="elsewhere">' in page and
          ('href="/game/%d"' % gid).encode() in page.split(
              b'<div id="elsewhere">')[1], page[-600:])


def test_remote_feed():
    url = fresh_db()
    a, b = hnode("fA", url), hnode("fB", url)
    hold = os.path.join(TMP, "xfeed.hold")
    open(hold, "w").close()
    bots = [bot(a, n, hold) for n in ("fx", "fy")]
    gid = live_id(a)
    if not check("the bots' game is live on node A", gid is not None):
        return
    check("the game is in the log", logged(b, gid))
    cluster_live(a, b, gid)
    path = "/api/games/%d/feed" % gid
    tv = TextFeed(b, "/api/tv/feed")
    fb = TextFeed(b, path)
    check("B's feed: the game event", fb.wait(lambda e: len(e) >= 1,
                                               DEADLINE) and
          fb.events[0][1] == "game" and fb.events[0][2]["game"]["id"] ==
          gid and fb.events[0][2]["game"]["status"] == "live" and
          (fb.events[0][2]["live"] or {}).get("id") == gid, fb.events[:1])
    check("B's feed: the 4 plies played so far",
          fb.wait(lambda e: len(moves_of(e)) >= 2 * HELD, DEADLINE) and
          [m["ply"] for m in moves_of(fb.events)] == [1, 2, 3, 4],
          fb.events)
    fa = TextFeed(a, path)
    nd = TextFeed(b, path, {"Accept": "application/x-ndjson"})
    fr = TextFeed(b, path, {"Last-Event-ID": "3"})
    check("A's feed: the 4 plies", fa.wait(
        lambda e: len(moves_of(e)) >= 2 * HELD, DEADLINE), fa.events)
    check("B's resumed feed: ply 4 only", fr.wait(
        lambda e: len(moves_of(e)) >= 1, DEADLINE) and
        [m["ply"] for m in moves_of(fr.events)] == [4], fr.events)
    check("node A is told that another node follows the game",
          wait_for(lambda: ("game=%d event=followed" % gid) in
                   open(os.path.join(TMP, "fA.log")).read(), DEADLINE))
    os.unlink(hold)
    for name, f in (("A", fa), ("B", fb), ("B resumed", fr)):
        check("%s's feed: the end arrives and the stream ends" % name,
              f.wait(lambda e: f.closed, DEADLINE) and
              bool(f.events) and f.events[-1][1] == "end", f.events[-2:])
    check("B's NDJSON feed ends with the end", nd.wait(
        lambda e: nd.closed, DEADLINE, ndjson=True) and
        bool(nd.events) and nd.events[-1].get("type") == "end",
        nd.events[-2:])
    for p in bots:
        try:
            p.wait(DEADLINE)
        except Exception:
            p.kill()
    ma = moves_of(fa.events)
    check("A's feed: every ply once, in order",
          [m["ply"] for m in ma] == list(range(1, PLIES + 1)), ma)
    check("A's and B's feeds: the same move and end events, byte for byte",
          fa.blocks() == fb.blocks() and len(fb.blocks()) == PLIES + 1,
          (fa.blocks(), fb.blocks()))
    check("each move's SSE id is its ply, the end's is end",
          [e[0] for e in fb.events[1:]] ==
          [str(i) for i in range(1, PLIES + 1)] + ["end"], fb.events)
    check("B's resumed feed: exactly the rest, byte for byte",
          fr.blocks() == fb.blocks()[3:], (fr.blocks(), fb.blocks()))
    check("B's NDJSON feed: the same events",
          [e for e in nd.events if e.get("type") != "game"] ==
          [e[2] for e in fb.events[1:]], nd.events)
    end = fb.events[-1][2] if fb.events else {}
    check("the end: seat 2 wins after 10 plies, logged",
          end.get("result") == "second" and end.get("plies") == PLIES and
          end.get("logged") is True and
          end.get("reason") == "no-legal-move", end)
    st, rec = jget(b, "/api/games/%d" % gid)
    rm = rec.get("moves", []) if st == 200 else []
    mb = moves_of(fb.events)
    keys = ("ply", "player", "move", "position", "mark", "time_ms")
    check("the record (read on B) equals what the feeds sent",
          len(rm) == PLIES and
          [[m[k] for k in keys] for m in rm] ==
          [[m[k] for k in keys] for m in mb] and
          [m["clock_us"] // 1000 for m in rm] ==
          [m["clock_ms"][m["player"] - 1] for m in mb] and
          rec["game"]["result"] == "second", (rm, mb))
    runs = psql(url, "SELECT string_agg(first_ply::text, ',' ORDER BY "
                "first_ply) FROM move_runs WHERE game_id = %d AND "
                "first_ply > %d" % (gid, 2 * HELD))
    check("A wrote each move after the follow at once: a run each",
          runs == ",".join(str(p) for p in range(2 * HELD + 1, PLIES + 1)),
          runs)
    tv.pump()
    tv.wait(lambda e: False, 0.2)
    check("B's TV shows B's own games only: nothing featured",
          tv.status == 200 and tv.events == [], tv.events)
    # A finished game's feed on B is its record (no live follow left).
    f3 = TextFeed(b, path, {"Last-Event-ID": "8"})
    check("B, after the end: plies 9, 10 and the end from the log",
          f3.wait(lambda e: f3.closed, DEADLINE) and
          [e[0] for e in f3.events[1:]] == ["9", "10", "end"], f3.events)
    for f in (fa, fb, nd, fr, tv, f3):
        f.close()


def test_restored_feed():
    """Node A is killed (-9) with its bots' game held after 4 plies; node
    B takes the game over and restores it from the log; the bots resume
    there and ply 5 is played (ply 6 held), before any feed of B asked
    for the game: B's feed has plies 1 to 5 (1 to 4 read from the log,
    clocks replayed: as the record has them), and a feed resumed after
    ply 2 gets exactly 3 to 5."""
    url = fresh_db()
    a, b = hnode("rA", url), hnode("rB", url)
    holds = [os.path.join(TMP, "xfeed-r%d.hold" % i) for i in (1, 2)]
    for h in holds:
        open(h, "w").close()
    servers = "127.0.0.1:%d,127.0.0.1:%d" % (a.port, b.port)
    bots = [start_bot(a, n, gate_prog(h, HELD), (
        "--server", servers, "--seek", SPEC + " tc=60000 rated=0",
        "--no-ready", "--reconnect-ms", "100", "--games", "1"))
        for n, h in (("rx", holds[0]), ("ry", holds[1]))]
    gid = live_id(a)
    if not check("the bots' game is live on node A", gid is not None):
        return
    rec = [None]

    def plies(n):
        st, j = jget(b, "/api/games/%d" % gid)
        rec[0] = j if st == 200 else None
        return rec[0] is not None and len(rec[0]["moves"]) == n
    check("4 plies committed", wait_for(lambda: plies(2 * HELD), DEADLINE,
                                        0.05), rec[0])
    for p in bots:      # resumed on B only once B holds the game
        p.send_signal(signal.SIGSTOP)
    a.stop(signal.SIGKILL)
    check("node B restores the game at ply 4", wait_for(
        lambda: re.search(r"game=%d event=restored epoch=\d+ ply=4 " % gid,
                          open(os.path.join(TMP, "rB.log")).read()),
        DEADLINE))
    for p in bots:
        p.send_signal(signal.SIGCONT)
    first = rec[0]["game"]["player1"] if rec[0] else ""
    os.unlink(holds[0 if first == "rx" else 1])     # seat 1 plays ply 5
    check("ply 5 is played on B and committed",
          wait_for(lambda: plies(2 * HELD + 1), DEADLINE, 0.05), rec[0])
    path = "/api/games/%d/feed" % gid
    f = TextFeed(b, path)
    fr = TextFeed(b, path, {"Last-Event-ID": "2"})
    check("B's feed: plies 1 to 5", f.wait(
        lambda e: len(moves_of(e)) >= 2 * HELD + 1, DEADLINE) and
        [e[0] for e in f.events[1:]] == ["1", "2", "3", "4", "5"],
        f.events)
    keys = ("ply", "player", "move", "position", "mark", "time_ms")
    rm, fm = rec[0]["moves"] if rec[0] else [], moves_of(f.events)
    check("B's feed: the moves and clocks of the record",
          [[m[k] for k in keys] for m in rm] ==
          [[m[k] for k in keys] for m in fm] and
          [m["clock_us"] // 1000 for m in rm] ==
          [m["clock_ms"][m["player"] - 1] for m in fm], (rm, fm))
    check("B's feed resumed after ply 2: exactly 3 to 5", fr.wait(
        lambda e: len(moves_of(e)) >= 3, DEADLINE) and
        fr.blocks() == f.blocks()[2:], (fr.blocks(), f.blocks()))
    for p in bots:
        p.kill()
    f.close()
    fr.close()


def test_browser():
    """A game of node A followed live in headless chromium on node B's
    game page: its moves appear without a reload, then its result."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        skip("B's game page in a browser", "chromium is not installed")
        return
    url = fresh_db()
    a, b = hnode("wA", url), hnode("wB", url)
    alice, bob = login(a, "walice"), login(a, "wbob")
    gid, seats, _, _ = pair(a, alice, bob, "nim 1 2 3", "tc=600000 rated=0")
    first = "walice" if seats[1] is alice else "wbob"
    check("the game is in the log", logged(b, gid))
    br = Browser(exe)
    try:
        check("B's page of A's game loads",
              br.go("http://127.0.0.1:%d/game/%d" % (b.hport, gid)))
        check("B's page: the game is live", br.until(
            "document.getElementById('state').textContent === 'live'"),
              text(br, "#status"))
        br.js("window.notReloaded = 1")
        check("B's page follows the game on one live stream of node B",
              wait_for(lambda: streams(b) == 1, DEADLINE, 0.05), streams(b))
        for n, (seat, mv) in enumerate(((1, "1=0"), (2, "2=0"), (1, "3=0"))):
            answer_genmove(seats[seat], mv)
            check("B's page: move %d appears live" % (n + 1), br.until(
                "document.querySelectorAll('#moves tbody tr').length === %d"
                % (n + 1), DEADLINE), rows(br, "#moves"))
        check("B's page: the result and its reason appear", br.until(
            "document.getElementById('result').textContent.indexOf("
            "'%s wins (no-legal-move)') === 0" % first, DEADLINE),
              text(br, "#result"))
        check("B's page: no reload while following",
              br.js("window.notReloaded") == 1)
        br.shot("xfeed-game")
    finally:
        br.close()
    alice.close()
    bob.close()


if __name__ == "__main__":
    if not URL:
        print("1..0 # SKIP no SQLDB_PG_URL (run it under "
              "tests/e2e/pgcluster.sh)")
        sys.exit(0)
    sys.exit(run([test_remote_feed, test_restored_feed, test_browser]))
