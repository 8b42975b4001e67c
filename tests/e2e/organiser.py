#!/usr/bin/env python3
"""organiser.py: an organiser's day as the README tells it (issue 26):
the operator's admin made by `grundyd --add-admin --password-file` (as
./quickstart.sh does), grundyd with --http, eight bots through the real
`grundy bot` (bot-random.py with distinct seeds, bot-perfect), a Swiss of
eight, a Swiss of seven (a bye each round) and a Swiss of five in which a
ninth bot leaves mid-tournament (forfeits); then a game's record saved with
`grundy connect --raw` and through the web view's download link, which
`grundy verify` accepts, and the standings CSV
(`export standings` through `grundy connect --raw`) whose every tie-break
column equals an independent computation of FIDE C.07 (2024) from the
log's games (read from the SQLite database, read-only) and the byes, with
the choices of doc/STATS.md §4, also downloaded from GET /api/export; the
seed of `tournament show` and of the JSON API alike.  Every wait polls
with a deadline."""
import json
import os
import re
import sqlite3
import subprocess
import sys
from fractions import Fraction

_here = sys.path.pop(0)
import http.client  # noqa: E402
sys.path.insert(0, _here)

from e2e import *  # noqa: E402,F401,F403

PERFECT = [os.path.join(SRC, "contrib", "bots", "bot-perfect")]
RANDOM = [sys.executable,
          os.path.join(SRC, "contrib", "bots", "bot-random.py")]
os.environ["GRUNDY"] = GRUNDY


def http_port(d):
    """The HTTP port grundyd logged (--http 127.0.0.1:0)."""
    def find():
        m = re.findall(r"event=http-listen addr=\S+ port=(\d+)",
                       open(os.path.join(TMP, d.name + ".log")).read())
        return int(m[-1]) if m else None
    return wait_for(find, WAIT)


def api(d, path):
    c = http.client.HTTPConnection("127.0.0.1", d.hport, timeout=WAIT)
    c.request("GET", path)
    r = c.getresponse()
    b = r.read()
    c.close()
    return r.status, b


def raw(d, line):
    """`grundy connect --raw` with one line: (exit status, stdout)."""
    r = subprocess.run([GRUNDY, "connect", "--raw", "127.0.0.1:%d" % d.port],
                       input=line.encode() + b"\n", stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=WAIT)
    return r.returncode, r.stdout


def show(c, name):
    r = c.cmd("tournament show " + name) or ""
    out = {"_": r}
    for ln in body(r).splitlines():
        k, _, v = ln.partition(" ")
        out.setdefault(k, v)
    return out


def finished(c, name, timeout=60):
    return wait_for(lambda: show(c, name).get("status") == "finished",
                    timeout, 0.05)


def log_games(d, name):
    """The tournament's finished games from the database, read-only:
    (slot, player1, player2, winner, forfeit)."""
    con = sqlite3.connect("file:%s?mode=ro" % d.db, uri=True)
    rows = con.execute(
        "SELECT g.slot, g.player1, g.player2, g.result, g.reason FROM games"
        " AS g JOIN tournaments AS t ON t.id = g.tournament_id WHERE"
        " t.name = ? AND g.status = 'finished' AND g.result IS NOT NULL"
        " ORDER BY g.id", (name,)).fetchall()
    con.close()
    return [(s, a, b, a if r == "first" else b, why == "forfeit")
            for s, a, b, r, why in rows]


def fide(players, games, byes, gpp):
    """FIDE C.07 (2024) as doc/STATS.md §4 chooses, computed here from
    the games and byes alone: each game of a pairing a unit, a bye gpp
    units won; a forfeit an unplayed unit for both (won for the winner, a
    VUR for the loser) in no direct encounter.  Units are ordered by
    round: a Swiss round is a block of len(players)//2*gpp slots.
    Opponents' points (16.3): points plus 1/2 per VUR in a round after
    the last round with a unit of another kind.  Dummy opponent (16.4): an unplayed unit counts the
    player's own points.  BH-C1 cuts a VUR's contribution first.  Returns
    {name: {tb: Fraction}} and each player's direct-encounter games."""
    block = len(players) // 2 * gpp
    units = {p: [] for p in players}      # (round, kind, won, opponent)
    for slot, a, b, w, ff in games:
        rnd = slot // block + 1
        for p, o in ((a, b), (b, a)):
            if ff:
                units[p].append((rnd, "fwon" if p == w else "vur",
                                 p == w, None))
            else:
                units[p].append((rnd, "game", p == w, o))
    for r, p in enumerate(byes):
        if p != "-":
            units[p].extend([(r + 1, "bye", True, None)] * gpp)
    pts = {p: Fraction(sum(1 for u in us if u[2])) for p, us in
           units.items()}
    adj = {}
    for p, us in units.items():
        # FIDE 16.3 speaks of rounds: a VUR counts only in a round after
        # the last round with a unit of another kind (a VUR in the round
        # of a game, as a forfeit of the second game of a pairing, is not
        # after it) — as the project orders units by round.
        last = max([u[0] for u in us if u[1] != "vur"] or [0])
        trail = sum(1 for u in us if u[1] == "vur" and u[0] > last)
        adj[p] = pts[p] + Fraction(trail, 2)
    out = {}
    for p, us in units.items():
        c = [adj[u[3]] if u[1] == "game" else pts[p] for u in us]
        vur = [k for k, u in enumerate(us) if u[1] == "vur"]
        cut = c[vur[0]] if vur else (min(c) if c else 0)
        out[p] = {"bh": sum(c), "bh-c1": sum(c) - cut,
                  "sb": sum(ci for ci, u in zip(c, us) if u[2]),
                  "win": Fraction(sum(1 for u in us if u[2]))}
    return pts, out


def direct(group, games):
    """Direct encounter within group (doc/STATS.md §4: only if every two
    have met over the board), applied again within a still-tied part:
    {name: points among them} for those it was applied to."""
    de = {}
    met = set()
    for _, a, b, _, ff in games:
        if not ff:
            met.add(frozenset((a, b)))

    def apply(g):
        if len(g) < 2 or any(frozenset((x, y)) not in met for x in g
                             for y in g if x < y):
            return
        v = {p: Fraction(sum(1 for _, a, b, w, ff in games if not ff and
                             a in g and b in g and w == p)) for p in g}
        de.update(v)
        parts = {}
        for p in g:
            parts.setdefault(v[p], []).append(p)
        if len(parts) > 1:
            for sub in parts.values():
                apply(sub)
    apply(group)
    return de


def expected(players, games, byes, gpp, tbs):
    """The standings C.07 gives with the list tbs: rows (rank, name,
    points, {tb: value or None})."""
    pts, t = fide(players, games, byes, gpp)
    de = {}

    def key(p, upto):
        k = [pts[p]]
        for name in tbs[:upto]:
            k.append(de.get(p, Fraction(-1)) if name == "de" else
                     t[p][name])
        return tuple(k)
    # Ranked tie-break by tie-break: DE is applied to a group level on
    # everything before it.
    for i, name in enumerate(tbs):
        if name != "de":
            continue
        groups = {}
        for p in players:
            groups.setdefault(key(p, i), []).append(p)
        for g in groups.values():
            if len(g) > 1:
                de.update(direct(sorted(g), games))
    order = sorted(players, key=lambda p: (tuple(-x for x in key(
        p, len(tbs))), p))
    rows = []
    for p in order:
        rank = 1 + sum(1 for q in players if key(q, len(tbs)) >
                       key(p, len(tbs)))
        v = {n: (de.get(p) if n == "de" else t[p][n]) for n in tbs}
        rows.append((rank, p, pts[p], v))
    return rows


def check_csv(d, boss, name, players, what):
    """export standings through grundy connect --raw: a CSV whose every
    column equals the independent computation."""
    sh = show(boss, name)
    byes = sh.get("byes", "").split()
    gpp = int(re.search(r"games-per-pair=(\d+)", sh.get("options", ""))
              .group(1))
    games = log_games(d, name)
    rc, out = raw(d, "export standings tournament=" + name)
    text = out.decode()
    check(what + ": the CSV through connect --raw has no framing",
          rc == 0 and text.startswith("rank,name,points,"), text[:200])
    lines = [ln.split(",") for ln in text.strip().split("\n")]
    head = lines[0]
    tbs = head[10:]
    want = expected(players, games, byes, gpp, tbs)
    have = []
    for x in lines[1:]:
        v = {n: (Fraction(x[10 + k]) if x[10 + k] != "" else None)
             for k, n in enumerate(tbs)}
        have.append((int(x[0]), x[1], Fraction(x[2]), v))
    check(what + ": every tie-break column as FIDE C.07 (%s)" %
          ",".join(tbs), have == want, (text, want))
    return lines, byes, games


def setup():
    """The operator's admin as quickstart.sh makes it (the password in a
    file, grundyd --add-admin with the daemon stopped), then grundyd with
    --http."""
    db = os.path.join(TMP, "org.db")
    pwf = os.path.join(TMP, "admin.password")
    with open(pwf, "w") as f:
        f.write("organiser-pw-1\n")
    os.chmod(pwf, 0o600)
    r = subprocess.run([GRUNDYD, "--db", db, "--add-admin", "admin",
                        "--password-file", pwf], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=WAIT)
    check("grundyd --add-admin admin --password-file", r.returncode == 0,
          r.stdout)
    d = Daemon("org", "--http", "127.0.0.1:0", db=db)
    d.hport = http_port(d)
    d.pw = "organiser-pw-1"
    boss = Client(d)
    check("login admin with the file's password", ok(boss.cmd(
        "login admin organiser-pw-1")))
    return d, boss


def main_test():
    d, boss = setup()
    names = ["b%d" % i for i in range(1, 9)]
    bots = {}
    for i, n in enumerate(names[:7]):
        bots[n] = start_bot(d, n, RANDOM + ["--seed", str(100 + i)])
    bots["b8"] = start_bot(d, "b8", PERFECT)
    check("eight bots logged in", bots_logged_in(names))
    r = boss.cmd("tournament create s8 swiss players=%s rounds=3 pairs=1 "
                 "tc=20000 seed=18446744073709551557 random=1 nim 3 4 5" %
                 ",".join(names))
    check("a Swiss of eight", ok(r) and "games 24" in r, r)
    r = boss.cmd("tournament create s7 swiss players=%s rounds=3 pairs=1 "
                 "tc=20000 seed=7 random=1 nim 3 4 5" % ",".join(names[:7]))
    check("a Swiss of seven", ok(r) and "games 18" in r, r)
    check("both finished", finished(boss, "s8") and finished(boss, "s7"),
          (show(boss, "s8")["_"], show(boss, "s7")["_"]))
    rows8, byes8, g8 = check_csv(d, boss, "s8", names, "Swiss of eight")
    check("eight: no bye", all(b == "-" for b in byes8) and
          all(x[7] == "0" for x in rows8[1:]), (byes8, rows8))
    rows7, byes7, _ = check_csv(d, boss, "s7", names[:7], "Swiss of seven")
    check("seven: a different bye each round", len(byes7) == 3 and
          len(set(byes7)) == 3 and "-" not in byes7 and
          sum(int(x[7]) for x in rows7[1:]) == 6, (byes7, rows7))

    # A Swiss of five in which a ninth bot (bot-perfect) leaves after its
    # first two games (`grundy bot --games 2`): its later rounds are
    # forfeited (forfeit=1), a bye each round as well.
    bots["b9"] = start_bot(d, "b9", PERFECT, ["--games", "2"])
    check("b9 logged in", bots_logged_in(["b9"]))
    five = ["b4", "b5", "b6", "b7", "b9"]
    r = boss.cmd("tournament create s5 swiss players=%s rounds=4 pairs=1 "
                 "forfeit=1 tc=20000 seed=5 random=1 nim 3 4 5" %
                 ",".join(five))
    check("a Swiss of five with a forfeit deadline", ok(r), r)
    check("s5 finished", finished(boss, "s5", 90), show(boss, "s5")["_"])
    rows5, byes5, g5 = check_csv(d, boss, "s5", five, "Swiss of five")
    b9 = [x for x in rows5[1:] if x[1] == "b9"]
    check("b9 lost its last rounds by forfeit", b9 and int(b9[0][9]) >= 1 and
          int(b9[0][3]) >= 2 and sum(1 for g in g5 if g[4]) ==
          int(b9[0][9]) and sum(int(x[7]) for x in rows5[1:]) == 8,
          (rows5, g5))
    check("the lobby's standings equal the export",
          body(boss.cmd("standings s5 format=csv")).strip() ==
          "\n".join(",".join(x) for x in rows5), rows5)

    # A game's record saved as the README says, checked by grundy verify.
    con = sqlite3.connect("file:%s?mode=ro" % d.db, uri=True)
    gid = con.execute("SELECT MIN(g.id) FROM games AS g JOIN tournaments AS"
                      " t ON t.id = g.tournament_id WHERE t.name = 's8'"
                      " AND g.status = 'finished'").fetchone()[0]
    con.close()
    rc, rec = raw(d, "record %d format=file" % gid)
    path = os.path.join(TMP, "game-%d.grec" % gid)
    with open(path, "wb") as f:
        f.write(rec)
    v = subprocess.run([GRUNDY, "verify", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=WAIT)
    check("record %d through connect --raw: grundy verify accepts it" % gid,
          rc == 0 and v.returncode == 0 and
          v.stdout.decode().startswith("ok "), (rec[:200], v.stdout))
    # The web view's download link: the same bytes, which grundy verify
    # accepts as well.
    st, web = api(d, "/api/games/%d/record" % gid)
    wpath = os.path.join(TMP, "web-game-%d.grec" % gid)
    with open(wpath, "wb") as f:
        f.write(web)
    v = subprocess.run([GRUNDY, "verify", wpath], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=WAIT)
    check("record %d through GET /api/games/ID/record: the same bytes, "
          "grundy verify accepts it" % gid, st == 200 and web == rec and
          v.returncode == 0 and v.stdout.decode().startswith("ok "),
          (st, web[:200], v.stdout))
    # The standings CSV's download link: the export's bytes.
    for name in ("s8", "s7", "s5"):
        st, csv = api(d, "/api/export?tournament=%s&format=csv"
                      "&table=standings" % name)
        rc, out = raw(d, "export standings tournament=" + name)
        check("GET /api/export standings of %s = export standings" % name,
              st == 200 and rc == 0 and csv == out, (st, csv, out))

    # The seed on the JSON API equals tournament show's, as a string
    # (issue 26: a 64-bit seed as a JSON number was rounded by
    # JavaScript).
    seed = re.search(r"seed=(\d+)", show(boss, "s8").get("options", ""))
    st, b = api(d, "/api/tournaments/s8")
    js = json.loads(b) if st == 200 else {}
    check("the seed of tournament show and of /api/tournaments/s8, a "
          "string", seed is not None and
          seed.group(1) == "18446744073709551557" and
          js.get("options", {}).get("seed") == seed.group(1), (seed, b[:300]))
    for p in bots.values():
        p.terminate()
    boss.close()
    d.stop()


sys.exit(run([main_test]))
