#!/usr/bin/env python3
"""records.py: records anyone can check, end to end (issue 14 section 3).

`grundy verify` accepts every record grundyd writes: a game of every
family of doc/GAMES.md played bot against bot (a random player against a
perfect one, with a clock), the engine as a lobby participant, a section 8
match, refused moves under --illegal-move retry, an illegal-move loss, a
timeout and a resignation; and it names the exact line of records edited
to be wrong (an illegal move, a wrong result, a wrong mark, a wrong
clock).  `history` filters and pages, and /api/games?since=, with exact
ids.  argv: BUILDDIR SRCDIR.
"""
import json
import urllib.request

from e2e import *

# One game of every family of doc/GAMES.md (sections 1 to 8, sums).
FAMILIES = [
    "bash m=3 7 5",
    "nim 3 4 5",
    "nim misere=1 1 2 3",
    "wythoff 5 8",
    "wythoff t=2 6 9",
    "wythoff K=2 t=3 9 12",
    "staircase 3 0 2 4",
    "subtraction S=1,3,4 9 7",
    "graph edges=0>1,0>2,1>2,2>3,1>3 0 0 1",
    "klnim k=2 l=2 turn=1 5 4",
    "klnim k=1 l=2 turn=1 4 5",
    "sum nim 2 3 + bash m=2 4 + wythoff 3 4 + staircase 1 2",
]
RANDOM_BOT = os.path.join(SRC, "contrib", "bots", "bot-random.py")
PERFECT_BOT = os.path.join(SRC, "contrib", "bots", "bot-perfect")


def record_file(c, gid):
    """The text of `record GID format=file`, or None."""
    r = c.cmd("record %d format=file" % gid)
    return body(r) + "\n" if ok(r) else None


def verify(name, text):
    """Writes text to a file and runs grundy verify on it: (status,
    stdout, path)."""
    path = os.path.join(TMP, re.sub(r"[^A-Za-z0-9=.-]+", "_", name) +
                        ".rec")
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([GRUNDY, "verify", path], capture_output=True,
                       text=True, timeout=60)
    return p.returncode, p.stdout, path


def accepted(name, text, nmoves):
    """Checks that grundy verify says ok with exactly nmoves moves."""
    rc, out, _ = verify(name, text)
    return check("grundy verify accepts %s" % name,
                 rc == 0 and out == "ok %d moves\n" % nmoves,
                 "status %d: %s\n%s" % (rc, out, text))


def wrong_at(name, text, lineno, words):
    """Checks that grundy verify names line lineno (and says words)."""
    rc, out, path = verify(name, text)
    check("grundy verify names line %d of %s" % (lineno, name),
          rc == 1 and out.startswith("%s:%d: " % (path, lineno)) and
          words in out, "status %d: %s\n%s" % (rc, out, text))


def moves_of(d, gid):
    return db_count(d, "SELECT COUNT(*) FROM moves WHERE game_id = ?",
                    (gid,))


def finished(d, n, timeout=30.0):
    """Waits until d's log has n games that are no longer live."""
    return wait_for(lambda: db_count(
        d, "SELECT COUNT(*) FROM games WHERE status != 'live'") >= n,
        timeout, 0.1)


def test_every_family():
    """A random bot against a perfect one in every family, with a clock;
    and the engine as a lobby participant: every record verifies."""
    os.environ["GRUNDY"] = GRUNDY
    d = Daemon("families", "--register-rate", "0", "--max-queued-per-ip",
               "1000")
    for i, spec in enumerate(FAMILIES):
        seek = ["--seek", spec + " tc=60000+100", "--games", "1"]
        start_bot(d, "rnd%d" % i, [sys.executable, RANDOM_BOT, "--seed",
                                   str(i)], seek)
        start_bot(d, "prf%d" % i, [PERFECT_BOT], seek)
    c = login(d, "watcher")
    r = c.cmd("seek nim 2 5 opponent=engine tc=60000")
    check("a game against the engine", ok(r), r)
    e = event_of(c, "start")
    check("the engine game starts", e is not None)
    gid = int(e.split()[2]) if e else 0
    answers = ["1=0", "resign"]
    while answers:
        g = c.wait("commands", lambda x: " genmove " in x + " " or
                   " gameover " in x, WAIT)
        if g is None or " gameover " in g:
            break
        c.answer(g, answers.pop(0))
    check("every game ended", finished(d, len(FAMILIES) + 1))
    con = sqlite3.connect(d.db)
    games = con.execute("SELECT id, game, reason FROM games ORDER BY id"
                        ).fetchall()
    marks = {m for (m,) in con.execute("SELECT DISTINCT mark FROM moves")}
    con.close()
    check("every family played", sorted(g[1].split()[0] for g in games
                                        if g[0] != gid) ==
          sorted(f.split()[0] for f in FAMILIES), games)
    check("the random bot threw wins", "threw-win" in marks, marks)
    for gid_, start, reason in games:
        text = record_file(c, gid_)
        check("record %d has a file" % gid_, text is not None)
        if text is not None:
            accepted("%s (%s)" % (start, reason), text, moves_of(d, gid_))
    text = record_file(c, gid) or ""
    check("the engine's clock is never charged", re.search(
        r"\nmove \d+ [12] \S+ \d+ - ", text) is not None and
        ("player2 engine" in text or "player1 engine" in text), text)


def play_script(seats, first, script):
    """Plays script, a list of (seat, answer) pairs, each answering that
    seat's next genmove."""
    for seat, answer in script:
        g = genmove_of(seats[seat])
        check("genmove for seat %d" % seat, g is not None)
        if g is None:
            return False
        seats[seat].answer(g, answer)
    return True


def test_refused_resign_edits():
    """Refused moves (retry), a resignation out of turn; then edits."""
    d = Daemon("retry", "--illegal-move", "retry")
    a, b = login(d, "alice"), login(d, "bob")
    gid, seats, ea, eb = pair(d, a, b, "nim 3 4 5", "tc=60000+50")
    play_script(seats, 1, [(1, "9=9"), (1, "1=2"), (2, "4=1"),
                           (2, "2=x"), (2, "2=1"), (1, "3=3")])
    genmove_of(seats[2])
    r = seats[1].cmd("resign %d" % gid)     # seat 1 is not to move
    check("resign out of turn", ok(r), r)
    gameover_of(seats[2])
    finished(d, 1)
    text = record_file(a, gid) or ""
    check("three refused moves in the record",
          text.count("\nrefused ") == 3, text)
    accepted("refused moves and a resignation", text, 3)
    lines = text.split("\n")

    def edit(i, new):
        return "\n".join(lines[:i] + [new] + lines[i + 1:])

    mv = [i for i, l in enumerate(lines) if l.startswith("move ")]
    f = lines[mv[1]].split(" ")
    wrong_at("an illegal move", edit(mv[1], " ".join(f[:6] + ["2=9"])),
             mv[1] + 1, "illegal move 2=9")
    wrong_at("a wrong mark", edit(mv[0], " ".join(
        f0 if k != 3 else ("kept-win" if f0 != "kept-win" else
                           "threw-win")
        for k, f0 in enumerate(lines[mv[0]].split(" ")))),
        mv[0] + 1, "is wrong: the move is")
    wrong_at("a wrong clock", edit(mv[2], " ".join(
        f0 if k != 5 else str(int(f0) + 1)
        for k, f0 in enumerate(lines[mv[2]].split(" ")))),
        mv[2] + 1, "clock")
    res = [i for i, l in enumerate(lines) if l.startswith("result ")][0]
    wrong_at("a resignation without a winner", edit(res, "result - resign"),
             res + 1, "a resignation has a winner")
    rf = [i for i, l in enumerate(lines) if l.startswith("refused ")][0]
    wrong_at("a legal move said refused", edit(
        rf, lines[rf].replace('"9=9"', '"1=2"')), rf + 1,
        "the refused move 1=2 is legal here")


def test_illegal_timeout_match():
    """An illegal-move loss, a timeout, a section 8 match: all verify, and
    a wrong result of each is named."""
    d = Daemon("lose")
    a, b = login(d, "carol"), login(d, "dave")
    gid, seats, ea, eb = pair(d, a, b, "nim 1 2", "tc=60000")
    play_script(seats, 1, [(1, "2=1"), (2, "7=7")])
    gameover_of(seats[1])
    gid2, seats2, ea, eb = pair(d, a, b, "nim 1 2", "tc=200")
    g = genmove_of(seats2[1])
    check("genmove of the game that times out", g is not None)
    check("timeout", gameover_of(seats2[1]) is not None)
    m = Client(d)
    m.cmd("new nim 1 2 3")
    r = m.cmd("match engine first")
    gid3 = int(body(r).split()[1])
    m.cmd("play 1=0")
    r = m.cmd("resign")
    check("the match is resigned", ok(r), r)
    finished(d, 3)
    want = {gid: ("illegal-move", "result first illegal-move \"7=7\""),
            gid2: ("timeout", "result second timeout"),
            gid3: ("resign", "result second resign")}
    for g_, (reason, head) in want.items():
        text = record_file(m, g_) or ""
        accepted("game %d (%s)" % (g_, reason), text, moves_of(d, g_))
        if head is None:
            continue
        check("game %d ends %s" % (g_, reason), head in text, text)
        lines = text.split("\n")
        res = [i for i, l in enumerate(lines) if l.startswith("result ")][0]
        flip = lines[res].replace("first", "X").replace(
            "second", "first").replace("X", "second")
        words = "wrong result: player"
        if reason == "resign":
            flip, words = "result - resign", "a resignation has a winner"
        wrong_at("a wrong %s result" % reason, "\n".join(
            lines[:res] + [flip] + lines[res + 1:]), res + 1, words)


def test_own_loss():
    """resign GAME_ID REASON [DETAIL] (issue 27: a hosted bot's grundy bot
    tells why its program lost): only a player of the game, only its own
    loss, only a sandbox limit or a crash with its detail; a refused one
    changes nothing; the gameover, the record (which grundy verify
    accepts) and the JSON carry the reason."""
    d = Daemon("ownloss", "--http", "127.0.0.1:0")
    a, b, x = login(d, "hana"), login(d, "ivan"), login(d, "jill")
    port = wait_for(lambda: re.findall(
        r"event=http-listen addr=\S+ port=(\d+)",
        open(os.path.join(TMP, "ownloss.log")).read()))[-1]
    cases = [("memory-limit", ""), ("process-limit", ""),
             ("forbidden-syscall", ""), ("output-limit", ""),
             ("crash", "killed by signal 31"),
             ("crash", "exited with status 3"),
             ("crash", "closed its output")]
    for n, (reason, detail) in enumerate(cases):
        gid, seats, ea, eb = pair(d, a, b, "nim 3 4 5", "tc=60000")
        loser = 1 + n % 2        # the seat to move, or the other
        if n == 0:
            for bad, why in (
                    ("timeout", "? resign: timeout a reason is memory-limit, "
                     "process-limit, forbidden-syscall, output-limit or "
                     "crash"),
                    ("resign", "? resign: resign a reason is"),
                    ("memory-limit signal 9", "? resign: memory-limit has "
                     "no detail"),
                    ("crash", "? resign: crash needs its detail"),
                    ("crash exited with status 256",
                     "? resign: crash needs its detail"),
                    ("crash killed by signal 0",
                     "? resign: crash needs its detail")):
                r = seats[loser].cmd("resign %d %s" % (gid, bad))
                check("refused: resign GID %s" % bad, r is not None and
                      not ok(r) and ("? " + body(r)).startswith(why), r)
            r = x.cmd("resign %d memory-limit" % gid)
            check("a stranger cannot", r is not None and not ok(r) and
                  body(r) == "not a player of game %d" % gid, r)
            r = x.cmd("games live")
            check("the game is still live after the refusals",
                  ok(r) and body(r).startswith("%d " % gid), r)
        line = ("resign %d %s %s" % (gid, reason, detail)).strip()
        r = seats[loser].cmd(line)
        head = ("result %s %s %s" % ("second" if loser == 1 else "first",
                                     reason, detail)).strip()
        check("%s: answer %s" % (line, head), ok(r) and body(r) == head, r)
        for s in (1, 2):
            g = gameover_of(seats[s])
            check("%s: seat %d's gameover" % (line, s), g is not None and
                  g.split(" ", 1)[1] == "gameover " + head[7:], g)
        finished(d, n + 1)
        text = record_file(x, gid) or ""
        check("%s: the record's result" % line, "\n" + head + "\n" in text,
              text)
        accepted("a declared %s" % reason, text, moves_of(d, gid))
        j = json.load(urllib.request.urlopen(
            "http://127.0.0.1:%s/api/games/%d" % (port, gid), timeout=WAIT))
        g = j["game"]
        check("%s: the JSON" % line, g["reason"] == reason and
              g["detail"] == (detail or None) and g["result"] ==
              ("second" if loser == 1 else "first"), g)


def ids(c, line):
    """The game ids a history command lists, and its next line or None."""
    r = c.cmd(line)
    out = body(r).split("\n") if ok(r) else []
    nxt = [l for l in out if l.startswith("next before=")]
    return [int(l.split()[0]) for l in out if l and l[0].isdigit()], \
        (nxt[0] if nxt else None)


def test_history_filters():
    """history's filters and pages, and /api/games?since=, exact ids."""
    d = Daemon("hist", "--http", "127.0.0.1:0")
    a, b, c = login(d, "erin"), login(d, "fred"), login(d, "gina")
    played = []
    for x, y in ((a, b), (b, c), (a, c), (a, b), (c, b)):
        gid, seats, ea, eb = pair(d, x, y, "nim 1 2", "tc=60000")
        seats[1].cmd("resign %d" % gid)
        gameover_of(seats[2])
        played.append(gid)
    finished(d, 5)
    newest = played[::-1]
    check("history", ids(a, "history") == (newest, None))
    check("history player=gina", ids(a, "history player=gina") ==
          ([played[4], played[2], played[1]], None))
    check("history 2 player=erin", ids(a, "history 2 player=erin") ==
          ([played[3], played[2]], "next before=%d" % played[2]))
    check("the next page", ids(a, "history 2 player=erin before=%d" %
                               played[2]) == ([played[0]], None))
    seen, cursor, pages = [], "", 0
    while cursor is not None and pages < 10:
        got, nxt = ids(a, "history 2" + (" " + cursor if cursor else ""))
        seen += got
        cursor = nxt[5:] if nxt else None
        pages += 1
    check("pages of 2 list every game once", seen == newest and pages == 3,
          (seen, pages))
    check("since tomorrow: none", ids(a, "history since=2999-01-01") ==
          ([], None))
    check("since 2000: all", ids(a, "history since=2000-01-01") ==
          (newest, None))
    for bad in ("history since=yesterday", "history player=erin "
                "player=fred", "history colour=red", "history 0",
                "history before=0", "history 1001"):
        r = a.cmd(bad)
        check("refused: %s" % bad, r is not None and r.startswith("?"), r)
    port = wait_for(lambda: re.findall(
        r"event=http-listen addr=\S+ port=(\d+)",
        open(os.path.join(TMP, "hist.log")).read()))[-1]
    url = "http://127.0.0.1:%s/api/games?player=gina&since=2000-01-01" \
          "&limit=2" % port
    j = json.load(urllib.request.urlopen(url, timeout=WAIT))
    check("/api/games since= and player=, first page",
          [g["id"] for g in j["games"]] == [played[4], played[2]] and
          "since=2000-01-01T00%3A00%3A00.000Z" in (j["next"] or ""), j)
    j = json.load(urllib.request.urlopen(url.replace(
        "2000-01-01", "2999-01-01"), timeout=WAIT))
    check("/api/games since= tomorrow: none", j["games"] == [], j)
    j = json.load(urllib.request.urlopen(
        "http://127.0.0.1:%s/api/games/%d" % (port, played[0]), timeout=WAIT))
    r = a.cmd("record %d format=json" % played[0])
    mine = json.loads(body(r)) if ok(r) else None
    check("record format=json is /api/games/ID without live",
          j.pop("live", 0) is None and mine == j and
          j["format"] == "grundy-record" and j["version"] == 1 and
          all(m["clock_us"] is not None for m in j["moves"]), (mine, j))


if __name__ == "__main__":      # bounds.py borrows its helpers
    sys.exit(run([test_every_family, test_refused_resign_edits,
                  test_own_loss,
                  test_illegal_timeout_match, test_history_filters]))
