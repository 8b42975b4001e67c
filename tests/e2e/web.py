#!/usr/bin/env python3
"""web.py: the web pages (issue 13 §2) in a real browser: Debian's
chromium, headless, driven through its DevTools protocol on a pipe
(--remote-debugging-pipe: NUL-terminated JSON messages on fds 3 and 4, so
no websocket is needed), against a grundyd with --http while bots and
test-driven clients play.  Checked from the DOM: the front page features
a live game (TV feed), lists it and moves it to the results when it ends,
without a reload; a live game's moves and clocks follow its feed without
a reload, the result and its reason appear, and the finished game steps
move by move (the moves and marks are those of `record`); the tournament
page shows the game being played and ends with the standings of the
`standings` command and its crosstable; the player page shows the rating,
optimal-move rate and first-throw counts of the `player` command and
draws its charts; text from users (a game spec `edges=0>1,...`, a
refused move holding HTML) is shown as text.  A screenshot of each page
is saved in the test's log directory.

argv: BUILDDIR SRCDIR.  Skipped (TAP skip) only when chromium is missing.
"""
import base64
import fcntl
import json
import os
import re
import select
import shutil
import sys
import time

import subprocess
import urllib.error
import urllib.request
from e2e import *  # noqa: F401,F403  (the shared client module)

EDGES = "edges=0>1,0>3,1>2,2>3"
GSPEC = "graph %s 0 0" % EDGES
HOSTILE = "<b id=pwn>1=0</b>"


class Browser:
    """Headless chromium and one page, driven over the DevTools pipe."""

    def __init__(self, exe):
        r1, w1 = os.pipe()      # ours -> chromium's fd 3
        r2, w2 = os.pipe()      # chromium's fd 4 -> ours

        def child():
            a = fcntl.fcntl(r1, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(w2, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.log = open(os.path.join(TMP, "chromium.log"), "a")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run",
             "--user-data-dir=" + os.path.join(TMP, "chromium-profile"),
             "--window-size=1100,1000", "about:blank"],
            preexec_fn=child, pass_fds=(3, 4, r1, w2),
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        PROCS.append(self.proc)
        os.close(r1)
        os.close(w2)
        self.w, self.r, self.buf, self.nid = w1, r2, b"", 0
        t = self.call("Target.createTarget", {"url": "about:blank"})
        self.session = self.call("Target.attachToTarget", {
            "targetId": t["targetId"], "flatten": True})["sessionId"]

    def call(self, method, params=None, session=None, timeout=15):
        """Sends one DevTools command; returns its result (events that
        arrive meanwhile are dropped: the test reads the DOM instead)."""
        self.nid += 1
        msg = {"id": self.nid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        end = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if m.get("id") == self.nid:
                    if "error" in m:
                        raise RuntimeError("%s: %s" % (method, m["error"]))
                    return m.get("result", {})
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("chromium did not answer " + method)
            if select.select([self.r], [], [], left)[0]:
                data = os.read(self.r, 1 << 20)
                if not data:
                    raise EOFError("chromium closed its pipe")
                self.buf += data

    def page(self, method, params=None):
        return self.call(method, params, self.session)

    def go(self, url):
        self.page("Page.navigate", {"url": url})
        return wait_for(lambda: self.js("document.readyState") ==
                        "complete" and self.js("location.href") == url, 10)

    def js(self, expr):
        """The value of a JavaScript expression in the page (None when it
        throws: a page still loading)."""
        r = self.page("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True})
        if "exceptionDetails" in r:
            return None
        return r["result"].get("value")

    def until(self, expr, timeout=WAIT):
        """Polls expr until it is true; returns its last value."""
        return wait_for(lambda: self.js(expr), timeout, 0.05)

    def shot(self, name):
        """Saves a screenshot in the log directory and in
        tests/e2e/web-shots/ of the build (kept after the test; not
        committed: .gitignore)."""
        data = self.page("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True})["data"]
        shots = os.path.join(BUILD, "tests", "e2e", "web-shots")
        os.makedirs(shots, exist_ok=True)
        for d in (TMP, shots):
            path = os.path.join(d, name + ".png")
            with open(path, "wb") as f:
                f.write(base64.b64decode(data))
        check("screenshot " + name, os.path.getsize(path) > 1000, path)

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except (OSError, RuntimeError, TimeoutError, EOFError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def http_ok(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def text(b, sel):
    return b.js("(document.querySelector(%s) || {}).textContent || ''"
                % json.dumps(sel))


def rows(b, sel):
    """The cells' texts of each row of a table's body."""
    return b.js("Array.from(document.querySelectorAll(%s)).map(function(r)"
                "{return Array.from(r.cells).map(function(c){"
                "return c.textContent.trim();});})"
                % json.dumps(sel + " tbody tr")) or []


def links(b, sel):
    return b.js("Array.from(document.querySelectorAll(%s)).map(function(a)"
                "{return a.getAttribute('href');})"
                % json.dumps(sel + " a")) or []


def clock_of(b, seat):
    """The milliseconds a seat's clock shows ("9:59.9"), or None."""
    m = re.fullmatch(r"(\d+):(\d\d)\.(\d)", text(b, "#clock%d" % seat))
    return m and (int(m.group(1)) * 60000 + int(m.group(2)) * 1000 +
                  int(m.group(3)) * 100)


def answer_genmove(c, move):
    g = genmove_of(c)
    check("genmove for " + move, g is not None, c.commands)
    if g:
        c.answer(g, move)


def record_moves(c, gid):
    """[(ply, player, move, mark)] of the game's `record`."""
    r = c.cmd("record %d" % gid) or ""
    return [(m[0], m[1], m[2], m[3]) for m in re.findall(
        r"^move (\d+) (\d) (.+?) (kept-win|threw-win|no-win) \d+ \S+ \d+$",
        body(r), re.M)]


def live_game(b, base, d):
    """A game between two test-driven clients, followed on its page."""
    alice, bob = login(d, "alice"), login(d, "bob")
    gid, seats, _, _ = pair(d, alice, bob, GSPEC, "tc=600000 rated=0")
    second = "alice" if seats[2] is alice else "bob"
    check("game page loads", b.go("%s/game/%d" % (base, gid)))
    check("live game shown", b.until(
        "document.getElementById('state').textContent === 'live' && "
        "document.querySelectorAll('#moves tbody tr').length === 0"),
          text(b, "#status"))
    b.js("window.notReloaded = 1")
    check("the spec is shown as text", GSPEC in text(b, "#spec"),
          text(b, "#spec"))
    check("the graph is drawn with its tokens", b.js(
        "document.querySelectorAll('#position svg circle.node').length"
        " === 4 && document.querySelectorAll("
        "'#position svg circle.tokened').length === 1"))
    answer_genmove(seats[1], "1=1")
    check("the first move appears live", b.until(
        "document.querySelectorAll('#moves tbody tr').length === 1"),
          rows(b, "#moves"))
    check("its position is drawn", "tokens on nodes 1, 0" in
          text(b, "#position"), text(b, "#position"))
    c1, c2 = clock_of(b, 1), clock_of(b, 2)
    check("the clock of the player to move counts down", c2 is not None and
          wait_for(lambda: (clock_of(b, 2) or c2) < c2, WAIT),
          (c2, text(b, "#clock2")))
    check("the other clock stands", c1 is not None and clock_of(b, 1) == c1,
          (c1, text(b, "#clock1")))
    answer_genmove(seats[2], "2=3")
    check("the second move appears live", b.until(
        "document.querySelectorAll('#moves tbody tr').length === 2"),
          rows(b, "#moves"))
    answer_genmove(seats[1], HOSTILE)
    check("the result and its reason appear", b.until(
        "document.getElementById('result').textContent.indexOf("
        "'%s wins (illegal-move)') === 0" % second), text(b, "#result"))
    check("no reload while following", b.js("window.notReloaded") == 1)
    check("a refused move holding HTML is shown as text",
          HOSTILE in text(b, "main") and b.js(
              "document.getElementById('pwn') === null"),
          text(b, "#result"))
    b.shot("game")
    want = record_moves(alice, gid)
    got = b.js("Array.from(document.querySelectorAll('#moves tr[data-ply]'))"
               ".map(function(r){return [r.getAttribute('data-ply'),"
               "r.cells[2].textContent, r.getAttribute('data-mark')];})")
    check("moves and marks are those of record", len(want) == 2 and
          [[w[0], w[2], w[3]] for w in want] == got, (want, got))
    drawing(b)
    steps = []
    for button in ("first", "next", "next", "prev", "last"):
        b.js("document.getElementById('%s').click()" % button)
        steps.append((text(b, "#ply").split(":")[0],
                      re.sub(r".*tokens on nodes ", "",
                             text(b, "#position"))))
    check("the finished game steps move by move", steps == [
        ("ply 0 of 2", "0, 0"), ("ply 1 of 2", "1, 0"),
        ("ply 2 of 2", "1, 3"), ("ply 1 of 2", "1, 0"),
        ("ply 2 of 2", "1, 3")], steps)
    # A thrown win for the player page: nim 1 2 is won by 1=1, not 1=0.
    gid, seats, _, _ = pair(d, alice, bob, "nim 1 2", "tc=600000 rated=0")
    answer_genmove(seats[1], "1=0")
    answer_genmove(seats[2], "2=0")
    check("the throwing game ends", gameover_of(seats[1]) is not None)
    alice.close()
    bob.close()
    return "alice" if seats[1] is alice else "bob"


def wythoff_p(b, K, t, n):
    """The cells (x, y), x <= y <= n, that draw.js marks as P-positions."""
    return sorted(tuple(c) for c in b.js(
        "(function(){var p = G.wythoffP(%d, %d, %d), r = [], x, y;"
        "for (y = 0; y <= %d; y++) for (x = 0; x <= y; x++)"
        " if (p(x, y)) r.push([x, y]); return r;})()" % (K, t, n, n)))


def drawing(b):
    """draw.js on the game page: P-positions as games.md tabulates them,
    moves applied, numbers shortened, each family drawn for what it is."""
    want = [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13), (9, 15),
            (11, 18), (12, 20)]
    check("Wythoff's P-positions (games.md §3)", wythoff_p(b, 1, 1, 20) ==
          want, wythoff_p(b, 1, 1, 20))
    want = [(0, 0), (1, 3), (2, 6), (4, 10), (5, 13), (7, 17), (8, 20)]
    check("t=2 Wythoff's P-positions (games.md §4)",
          wythoff_p(b, 1, 2, 20) == want, wythoff_p(b, 1, 2, 20))
    want = sorted((x, y) for a, bb in ((0, 0), (3, 9), (6, 18), (12, 30))
                  for x in range(a, a + 3) for y in range(bb, bb + 3)
                  if x <= y <= 32)
    check("(K,t) = (3,5) Wythoff's P-blocks (games.md §5)",
          wythoff_p(b, 3, 5, 32) == want, wythoff_p(b, 3, 5, 32))
    cases = [
        ("sum nim 3 4 + bash m=3 10", "2.1=7", "sum nim 3 4 + bash m=3 7"),
        ("klnim k=2 l=3 turn=1 5 6", "2=1", "klnim k=2 l=3 turn=2 5 1"),
        ("staircase 3 0 2", "3=1 2=1", "staircase 3 1 1"),
        ("nim 3 4", "3=0", "null")]
    got = [b.js("(function(){var g = G.applyMove(G.parseGame(%s), %s);"
                "return g ? G.gameText(g) : 'null';})()"
                % (json.dumps(c[0]), json.dumps(c[1]))) for c in cases]
    check("moves applied", got == [c[2] for c in cases], got)
    got = b.js("G.num('1234567890123456789012345678901234567890')")
    check("a long number shortened with its digit count",
          got == "123456\u20267890 (40 digits)", got)
    shapes = [("nim 3 0 2", "#t .tok", 5), ("bash m=3 41", "#t .tok", 0),
              ("staircase 3 0 2", "#t circle.coin", 5),
              ("wythoff 3 5", "#t svg rect.cell.p", 7),
              ("wythoff 100 200", "#t svg", 0),
              ("graph edges=0>1,1>2 0 2", "#t circle.tokened", 2),
              ("sum nim 2 + graph edges=0>1 0", "#t .comp", 2)]
    got = [b.js("(function(){var d = document.createElement('div');"
                "d.id = 't'; document.body.appendChild(d);"
                "G.put(d, G.drawGame(G.parseGame(%s)));"
                "var n = document.querySelectorAll(%s).length;"
                "d.remove(); return n;})()" % (json.dumps(g), json.dumps(q)))
           for g, q, _ in shapes]
    check("each family drawn for what it is", got == [n for _, _, n in
                                                       shapes], got)


def carol_game(carol):
    """The id of carol's next tournament game (None at the deadline)."""
    e = carol.wait("events", lambda x: x.startswith("event start"), WAIT)
    return int(e.split()[2]) if e else None


def tournament(b, base, d, boss):
    carol = login(d, "carol")
    check("carol ready", ok(carol.cmd("ready")))
    r = boss.cmd("tournament create cup roundrobin players=p1,p2,carol "
                 "games=2 tc=600000 " + GSPEC)
    check("tournament created", ok(r), r)
    gid = carol_game(carol)
    check("carol's first game starts", gid is not None)
    check("front page loads", b.go(base + "/"))
    check("the front page lists the live game", b.until(
        "Array.from(document.querySelectorAll('#livegames a')).some("
        "function(a){return a.getAttribute('href') === '/game/%d';})"
        % gid), text(b, "#livegames"))
    check("the front page shows the graph's edges as text",
          EDGES in text(b, "#livegames"), text(b, "#livegames"))
    check("the featured game is carol's, drawn", b.until(
        "!!(document.querySelector('#tv a[href=\"/game/%d\"]') && "
        "document.querySelector('#tv svg.graph'))" % gid), text(b, "#tv"))
    b.js("window.notReloaded = 1")
    b.shot("index")
    carol.cmd("resign %d" % gid)
    check("the featured game ends or switches to the next", b.until(
        "/\\(resign\\)/.test(document.getElementById('tv').textContent)"
        " || !document.querySelector('#tv a[href=\"/game/%d\"]')" % gid),
          text(b, "#tv"))
    check("the ended game moves to the results without a reload", b.until(
        "Array.from(document.querySelectorAll('#results a')).some("
        "function(a){return a.getAttribute('href') === '/game/%d';})"
        " && !Array.from(document.querySelectorAll('#livegames a')).some("
        "function(a){return a.getAttribute('href') === '/game/%d';})"
        " && window.notReloaded === 1" % (gid, gid)),
          text(b, "main"))
    gid = carol_game(carol)
    check("tournament page loads", b.go(base + "/tournament/cup"))
    check("the tournament page shows the game being played", b.until(
        "Array.from(document.querySelectorAll('#now a')).some("
        "function(a){return a.getAttribute('href') === '/game/%d';})"
        % gid), text(b, "#now"))
    carol.cmd("resign %d" % gid)
    for _ in range(2):
        gid = carol_game(carol)
        if gid:
            carol.cmd("resign %d" % gid)
    (played, total), r = tournament_done(boss, "cup", 30)
    check("tournament finished", played == total == 6, r)
    want = [m.groups() for m in re.finditer(
        r"^(\d+) (\S+) points (\d+) games (\d+) wins (\d+) losses (\d+)"
        r" de (\S+) sb (\S+) win (\S+)$",
        body(r), re.M)]

    def same():
        return [tuple(x) for x in rows(b, "#standings")] == want
    check("the standings are those of the standings command",
          len(want) == 3 and wait_for(same, WAIT, 0.1),
          (want, rows(b, "#standings")))
    check("progress shown", "played 6 of 6" in text(b, "#progress"),
          text(b, "#progress"))
    check("options and counts shown as tournament show has them",
          wait_for(lambda: re.fullmatch(
              "no forfeit deadline \u00b7 seed \\d+ \u00b7 0 playing, 0 "
              "pending, 0 stopped, 0 forfeits", text(b, "#options")), 10,
              0.1), text(b, "#options"))
    cross = rows(b, "#cross")
    # Perfect bots from a P-position: each wins its pairing's game as the
    # second player; carol resigned all four of hers.
    check("crosstable", cross == [
        ["1 p1", "\u2014", "1/2", "2/2"], ["2 p2", "1/2", "\u2014", "2/2"],
        ["3 carol", "0/2", "0/2", "\u2014"]], cross)
    b.shot("tournament")
    carol.close()


def player_page(b, base, boss, thrower):
    r = boss.cmd("player p1")
    m = re.search(r"\nrating (\d+) rd (\d+)( provisional)?\n", r or "")
    check("player page loads", b.go(base + "/player/p1"))
    # The page shows `player`'s rating line: R ± RD [provisional].
    check("rating shown", m is not None and b.until(
        "document.getElementById('rating').textContent === '%s \\u00b1 %s%s'"
        % (m.group(1), m.group(2), m.group(3) or "")),
        (r, text(b, "#rating")))
    # The server's HTML shows the rating at once; the chart is drawn by
    # the script: wait for it.
    check("rating history drawn as a line, a point per rated game",
          b.until("document.querySelectorAll('#history svg polyline')"
                  ".length === 1 && document.querySelectorAll('#history "
                  "svg circle.dot').length === 4"), text(b, "#history"))
    b.shot("player")
    r = boss.cmd("player " + thrower)
    check("thrower's page loads", b.go(base + "/player/" + thrower) and
          b.until("document.getElementById('optimal').textContent"))
    m = re.search(r"optimal (\S+)", r or "")
    check("optimal-move rate as the player command says", m is not None and
          text(b, "#optimal") == m.group(1), (r, text(b, "#optimal")))
    want = re.findall(r" \S+?:(\d+)", (re.search(r"first-throw(.*)", r or "")
                                       or re.match("", "")).group(0))
    b.until("document.querySelectorAll('#throws svg text.barvalue')"
            ".length === 8")      # drawn by the script, after the HTML
    got = b.js("Array.from(document.querySelectorAll('#throws svg "
               "text.barvalue')).map(function(t){return t.textContent;})")
    check("first-throw histogram: the player command's counts",
          len(want) == 8 and want[0] == "1" and got == want, (r, got))
    top_ratings(b, base, boss)


def top_ratings(b, base, boss):
    """The front page's top ratings are `ratings`' first 10 lines: rank,
    name, rating (to 0.1, "?" when provisional), RD (to 0.1), games."""
    want = [ln.split() for ln in body(boss.cmd("ratings")).split("\n")
            if ln][:10]

    def same():
        got = rows(b, "#top")
        return len(got) == len(want) > 0 and all(
            g[0] == str(i + 1) and g[1] == w[0] and g[4] == w[4] and
            g[2].endswith("?") == (w[-1] == "provisional") and
            abs(float(g[2].rstrip("?")) - int(w[2])) <= 0.5 and
            abs(float(g[3]) - int(w[6])) <= 0.5
            for i, (g, w) in enumerate(zip(got, want)))
    check("front page loads again", b.go(base + "/"))
    check("top ratings: `ratings` with RD, provisional marked ?",
          wait_for(same, WAIT, 0.1), (rows(b, "#top"), want))


PAGES = ["/", "/live", "/games", "/ratings", "/tournaments"]


def nav_of(b):
    """The navigation's links [(href, text)] (None without one)."""
    return b.js("(function(){var n = document.getElementById('nav');"
                "return n ? Array.from(n.querySelectorAll('a')).map("
                "function(a){return [a.getAttribute('href'), "
                "a.textContent];}) : null;})()")


def fetch(url):
    """(status, headers dict, body bytes) of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as r:
            return r.status, {k.lower(): v for k, v in r.getheaders()}, \
                r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, \
            e.read()


def site_pages(b, base, boss, gid):
    """Every page has the same navigation; each is shot."""
    pages = PAGES + ["/tournament/sw", "/player/p1", "/game/%d" % gid,
                     "/games?player=p1&tournament=sw&result=first"]
    navs = {}
    for i, p in enumerate(pages):
        check("page %s loads" % p, b.go(base + p))
        b.until("document.getElementById('nav')", 10)
        navs[p] = nav_of(b)
        b.shot("site-%d" % i)
    first = navs[pages[0]]
    check("one navigation on every page", first is not None and
          len(first) == 4 and all(navs[p] == first for p in pages), navs)


def site_swiss(b, base, boss):
    """A Swiss tournament of three bots: its rounds, byes and seed."""
    r = boss.cmd("tournament create sw swiss players=p1,p2,p3 rounds=3 "
                 "pairs=1 tc=600000 seed=10496211527275241682 nim 5 6 7")
    check("swiss created", ok(r), r)
    (played, total), r = tournament_done(boss, "sw", 60)
    check("swiss finished", played == total == 6, r)
    r = boss.cmd("tournament show sw")
    seed = re.search(r" seed=(\d+) ", body(r))
    check("tournament page loads", b.go(base + "/tournament/sw"))
    check("the page's seed is tournament show's (every digit)", seed and
          b.until("/ seed 10496211527275241682 /.test(document."
                  "getElementById('options').textContent)") and
          seed.group(1) == "10496211527275241682",
          (r, text(b, "#options")))
    want = [ln.split() for ln in body(r).splitlines()
            if ln.startswith("round ")]
    got = rows(b, "#rounds")
    check("rounds: each round's pairings, results and bye as tournament "
          "show has them", len(want) == 3 and len(got) == 3 and all(
              g[0] == w[1] and g[2] == w[2].split("=")[1] and
              g[1].split() == [x for pr in w[3:] for x in (
                  pr.split(":")[0], "\u2013", pr.split(":")[1].split("=")[0],
                  pr.split("=")[1].replace("-", "\u2013"))]
              for g, w in zip(got, want)), (want, got))
    links_ = links(b, "#downloads")
    check("download links: standings, games, crosstable CSV and JSON",
          len(links_) == 4, links_)
    b.shot("site-swiss")
    return want


def site_nojs(b, base, gid, rounds):
    """The static parts read without JavaScript: the server's HTML."""
    b.page("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        check("no-JS tournament page loads", b.go(base + "/tournament/sw"))
        check("no JavaScript runs", b.js("typeof G") == "undefined")
        got = rows(b, "#rounds")
        check("no-JS: the rounds", len(got) == len(rounds) == 3 and
              [g[0] for g in got] == ["1", "2", "3"], got)
        st = rows(b, "#standings")
        check("no-JS: the standings list the three players",
              sorted(r[1] for r in st) == ["p1", "p2", "p3"], st)
        gr = rows(b, "#games")
        check("no-JS: the games list gives each game's round",
              len(gr) == 6 and sorted(re.sub(r".* round ", "", g[4])
                                      for g in gr) ==
              ["1", "1", "2", "2", "3", "3"], gr)
        check("no-JS: the seed", text(b, "#seed") ==
              "10496211527275241682", text(b, "#options"))
        b.shot("nojs-tournament")
        check("no-JS games page loads", b.go(
            base + "/games?tournament=sw&limit=4"))
        got = rows(b, "table.games")
        check("no-JS: a page of 4 games, and a next page",
              len(got) == 4 and links(b, "p:has(#next)") != [], got)
        hostile = [g["id"] for g in json.loads(fetch(
            base + "/api/games?limit=200")[2])["games"]
            if g["start"] == GSPEC and g["reason"] == "illegal-move"]
        check("no-JS: a refused move holding HTML is shown as text",
              len(hostile) == 1 and b.go(base + "/game/%d" % hostile[0])
              and HOSTILE in text(b, "table.refused") and
              b.js("document.getElementById('pwn') === null") and
              EDGES in text(b, "p.summary"), text(b, "main"))
        check("no-JS game page loads", b.go(base + "/game/%d" % gid))
        check("no-JS: the record's moves", len(rows(b, "table.moves")) >= 1,
              text(b, "main"))
        b.shot("nojs-game")
        check("no-JS ratings page loads", b.go(base + "/ratings"))
        check("no-JS: ratings listed", len(rows(b, "table.ratings")) >= 3,
              text(b, "main"))
        check("no-JS unknown player", b.go(base + "/player/nobody"))
        check("an unknown player: a clear message, no empty cards",
              text(b, "#error") == "no player nobody" and
              b.js("document.getElementById('rating') === null"),
              text(b, "main"))
        b.shot("nojs-noplayer")
    finally:
        b.page("Emulation.setScriptExecutionDisabled", {"value": False})
    st, _, page = fetch(base + "/player/nobody")
    check("an unknown player's page is a 404", st == 404, st)
    st, _, page = fetch(base + "/tournament/sw")
    check("the server's HTML escapes and carries the seed", st == 200 and
          b'<span id="seed">10496211527275241682</span>' in page, page[:200])


def site_downloads(base, boss, gid):
    """A record file downloaded is one grundy verify accepts; the CSV
    downloads are the export command's bytes."""
    st, hd, rec = fetch(base + "/api/games/%d/record" % gid)
    check("record download", st == 200 and hd.get(
        "content-disposition") == 'attachment; filename="game-%d.grec"' % gid,
        (st, hd))
    path = os.path.join(TMP, "game-%d.grec" % gid)
    with open(path, "wb") as f:
        f.write(rec)
    r = subprocess.run([GRUNDY, "verify", path], capture_output=True,
                       text=True, timeout=WAIT)
    check("grundy verify accepts the downloaded record", r.returncode == 0
          and r.stdout.startswith("ok "), (r.returncode, r.stdout, r.stderr))
    want = body(boss.cmd("record %d format=file" % gid))
    check("the record download is record ID format=file's bytes",
          rec.decode().rstrip("\n") == want.rstrip("\n"),
          (rec[:200], want[:200]))
    for table in ("standings", "games"):
        st, hd, csv = fetch(base + "/api/export?tournament=sw&format=csv&"
                            "table=" + table)
        gtp = body(boss.cmd("export %s tournament=sw" % table))
        check("%s CSV download: export's bytes, a header, a file name" %
              table, st == 200 and csv.decode().rstrip("\n") ==
              gtp.rstrip("\n") and
              csv.startswith(b"rank,name," if table == "standings" else
                             b"id,") and hd.get("content-disposition") ==
              'attachment; filename="sw-%s.csv"' % table,
              (st, hd, csv[:200], gtp[:200]))
    st, hd, js = fetch(base + "/api/export?tournament=sw")
    check("JSON export download", st == 200 and hd.get(
        "content-disposition") == 'attachment; filename="sw.json"' and
        json.loads(js)["players"] == ["p1", "p2", "p3"], (st, hd))


def organiser_site(b, base, d, boss):
    """Issue 26 §2: the site an organiser publishes."""
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    start_bot(d, "p3", perfect)
    check("p3 logged in", bots_logged_in(("p3",)))
    rounds = site_swiss(b, base, boss)
    gid = json.loads(fetch(base + "/api/games?tournament=sw&limit=1")[2])[
        "games"][0]["id"]
    site_pages(b, base, boss, gid)
    check("perfect player: no chart of zeros", b.go(base + "/player/p1")
          and b.until("document.getElementById('throws').textContent"
                      " === 'no game thrown'"), text(b, "#throws"))
    site_nojs(b, base, gid, rounds)
    site_downloads(base, boss, gid)


def test_pages():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        skip("pages in a browser", "chromium is not installed "
             "(./quickstart.sh check installs it)")
        return
    d = Daemon("web", "--admins", "boss", "--http", "127.0.0.1:0")
    port = wait_for(lambda: re.findall(r"event=http-listen .* port=(\d+)",
                                       open(d.log.name).read()), WAIT)
    check("http listens", port, "no event=http-listen in " + d.log.name)
    base = "http://127.0.0.1:%s" % (port or ["0"])[-1]
    check("http serves", wait_for(lambda: http_ok(base + "/"), WAIT))
    boss = login(d, "boss")
    perfect = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
    os.environ["GRUNDY"] = GRUNDY
    for n in ("p1", "p2"):
        start_bot(d, n, perfect)
    check("bots logged in", bots_logged_in(("p1", "p2")))
    b = Browser(exe)
    try:
        thrower = live_game(b, base, d)
        tournament(b, base, d, boss)
        player_page(b, base, boss, thrower)
        organiser_site(b, base, d, boss)
    finally:
        b.close()
    d.stop()


if __name__ == "__main__":     # tests/xfeed.py imports the browser
    sys.exit(run([test_pages]))
