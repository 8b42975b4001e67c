#!/usr/bin/env python3
"""xnode.py: matchmaking across nodes (issue 15 §2, PROTOCOL.md §13.3):
three grundyd on one PostgreSQL (tests/e2e/pgcluster.sh gives SQLDB_PG_URL;
make check runs it under a throwaway cluster).  Seeks on nodes A and B
pair; the player on the node that does not own the game gets `event
redirect HOST:PORT GAME_ID`, resumes there by account, and the game ends
with both players; a seek withdrawn leaves nothing published; seeks on
two nodes racing for one published seek make exactly one game.  Roles
across nodes (issue 25 §5, PROTOCOL.md §13.1): a role granted with
grundyd --add-admin on the shared database while both nodes run holds on
either at the next login, and a reserved name is refused on each.  Every
wait is a poll with a deadline; counts are exact."""
import glob
import os
import re
import signal
import subprocess

from e2e import *

NEEDS_PG = True         # tests/py-run.sh: a throwaway cluster of its own
URL = os.environ.get("SQLDB_PG_URL", "")
SPEC = "nim 3 4 5"
NDB = 0


def addr(d):
    return "127.0.0.1:%d" % d.port


def fresh_db():
    """A new empty database on the cluster for each test; its URL."""
    global NDB
    NDB += 1
    name = "xnode%d" % NDB
    bindir = os.environ.get("PG_BINDIR") or sorted(
        glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    host = os.environ["SQLDB_PG_DIR"]
    r = subprocess.run([os.path.join(bindir, "createdb"), "-h", host,
                        "-U", "grundy", name], capture_output=True,
                       text=True, timeout=30)
    check("createdb " + name, r.returncode == 0, r.stderr)
    return "postgresql:///%s?host=%s&user=grundy" % (name, host)


def nodes(*names):
    url = fresh_db()
    return [Daemon(n, "--admins", "adm", db=url) for n in names]


def relogin(d, name):
    c = Client(d)
    r = c.cmd("login %s password1" % name)
    check("login %s on %s" % (name, d.name), ok(r), r)
    return c


def history(c, name):
    """The logged games of name, as (id, reason, p1, p2)."""
    r = c.cmd("history 100 player=%s" % name) or ""
    out = []
    for line in body(r).splitlines():
        f = line.split()
        if len(f) >= 7 and f[0].isdigit():
            out.append((int(f[0]), f[4], f[5], f[6]))
    return out


def seek_ok(c, spec, who):
    r = c.cmd("seek %s tc=60000 rated=0" % spec)
    check("%s's seek waits" % who, ok(r) and body(r).startswith("seek"), r)
    return r


def test_pair_redirect():
    """alice seeks on A, bob on B: B (the newer seek) pairs them and owns
    the game; alice is redirected to B and resumes by account; carol
    watches from C and sees each committed move once, then the end."""
    a, b, c = nodes("A", "B", "C")
    alice = login(a, "alice")
    for n in ("bob", "carol"):
        r = alice.cmd("register %s password1" % n)
        check("%s registered on A" % n, ok(r), r)
    bob = relogin(b, "bob")
    seek_ok(alice, SPEC, "alice (on A)")
    seek_ok(bob, SPEC, "bob (on B: no local partner)")
    eb = event_of(bob, "start", 20)
    check("bob gets event start on B", eb is not None, bob.events)
    gid = int(eb.split()[2]) if eb else 0
    er = event_of(alice, "redirect", 20)
    check("alice gets event redirect B GAME_ID",
          er == "event redirect %s %d" % (addr(b), gid), er)
    check("no genmove before both are seated",
          genmove_of(bob, 0.3) is None, bob.commands)
    carol = relogin(c, "carol")
    r = carol.cmd("watch %d" % gid)
    check("carol watches the game from C", ok(r) and
          ("watching %d" % gid) in r and "ply 0" in r and
          "time1 60000" in r, r)
    alice2 = relogin(b, "alice")
    r = alice2.cmd("resume %d" % gid)
    check("alice resumes the game on B", ok(r) and "game %d" % gid in r, r)
    seats = {int(re.search(r"you=(\d)", eb).group(1)): bob}
    seats[3 - list(seats)[0]] = alice2
    moves = ["1=0", "2=0", "3=0"]     # nim 3 4 5: the third empties it
    for i, mv in enumerate(moves):
        g = genmove_of(seats[1 + i % 2], 10)
        check("ply %d: genmove to seat %d" % (i + 1, 1 + i % 2),
              g is not None, seats[1 + i % 2].commands)
        if g is None:
            return
        seats[1 + i % 2].answer(g, mv)
    for s, cl in seats.items():
        check("seat %d gets gameover" % s,
              gameover_of(cl, 10) is not None, cl.commands)
    go = event_of(carol, "gameover %d" % gid, 20)
    check("carol gets event gameover first no-legal-move",
          go == "event gameover %d first no-legal-move" % gid, go)
    got = [e for e in carol.events if e.startswith("event move")]
    check("carol saw each move exactly once, in order",
          [e.split()[2:6] for e in got] ==
          [[str(gid), str(i + 1), str(1 + i % 2), mv]
           for i, mv in enumerate(moves)], got)
    check("carol's moves carry both clocks",
          all(re.search(r" time1=\d+ time2=\d+$", e) for e in got), got)
    names = {s: ("bob" if cl is bob else "alice") for s, cl in seats.items()}
    games = history(carol, "alice")
    check("node C's history has exactly the one game",
          games == [(gid, "no-legal-move", names[1], names[2])],
          (games, names))


def seeks_on_b_c(b, c, p, q):
    """p seeks SPEC on B, then q on C (newer: C claims); returns q's
    event start and p's event redirect (or None)."""
    cp = relogin(b, p)
    seek_ok(cp, SPEC, "%s (on B)" % p)
    cq = relogin(c, q)
    seek_ok(cq, SPEC, "%s (on C)" % q)
    return event_of(cq, "start", 20), event_of(cp, "redirect", 20)


def test_withdrawn():
    """A seek withdrawn (unseek) or whose player left is no longer
    published: the next seeks pair with the one still open (the oldest
    compatible row would be taken first)."""
    a, b, c = nodes("A", "B", "C")
    adm = login(a, "adm")
    for n in ("u1", "u2", "u3", "u4"):
        r = adm.cmd("account create %s password1" % n)
        check("account %s created" % n, ok(r), r)
    u1 = relogin(a, "u1")
    seek_ok(u1, SPEC, "u1 (on A)")
    r = u1.cmd("unseek")
    check("u1 withdraws its seek", ok(r), r)
    u2 = relogin(a, "u2")
    seek_ok(u2, SPEC, "u2 (on A)")
    u2.close()                                    # its player leaves
    check("u2's connection is gone from A", wait_for(
        lambda: " u2" not in (adm.cmd("connections") or ""), 10))
    e, er = seeks_on_b_c(b, c, "u3", "u4")
    check("u4 on C pairs with u3, the only seek still published",
          e is not None, e)
    gid = int(e.split()[2]) if e else 0
    check("u3 is redirected to C", er == "event redirect %s %d" %
          (addr(c), gid), er)
    r = relogin(c, "u3").cmd("resume %d" % gid)
    check("u3 resumes on C: the game is u3 against u4", ok(r), r)
    check("u1 got no event start", event_of(u1, "start", 0.2) is None,
          u1.events)


def test_race():
    """Rounds of three compatible seeks: x on A first, then y on B and z on
    C at once: the nodes of y and z race to claim x's row, and of y and
    z the newer may claim the other's.  Each round makes exactly one game
    (one `event start` on its owner, one `event redirect` to it, the same
    game), and the third seek stays open (its unseek succeeds)."""
    a, b, c = nodes("A", "B", "C")
    adm = login(a, "adm")
    rounds = 6
    for i in range(rounds):
        for p in "xyz":
            r = adm.cmd("account create %s%d password1" % (p, i))
            check("account %s%d created" % (p, i), ok(r), r)
    for i in range(rounds):
        spec = "nim 3 4 %d" % (5 + i)
        cl = {"x": relogin(a, "x%d" % i), "y": relogin(b, "y%d" % i),
              "z": relogin(c, "z%d" % i)}
        seek_ok(cl["x"], spec, "x%d (on A)" % i)
        cl["y"].send("901 seek %s tc=60000 rated=0" % spec)
        cl["z"].send("901 seek %s tc=60000 rated=0" % spec)
        ry = cl["y"].wait("replies", lambda r: r.startswith("=901"), 10)
        rz = cl["z"].wait("replies", lambda r: r.startswith("=901"), 10)
        check("round %d: both racing seeks wait" % i,
              ry is not None and rz is not None, (ry, rz))
        got = {}

        def two():
            for k, v in cl.items():
                v._pump(0.02)
                for e in v.events:
                    if e.startswith(("event start", "event redirect")):
                        got.setdefault(k, []).append(e)
                v.events[:] = [e for e in v.events if not e.startswith(
                    ("event start", "event redirect"))]
            return sum(len(v) for v in got.values()) >= 2
        wait_for(two, 20, 0.01)
        ev = sorted((k, e) for k, v in got.items() for e in v)
        kinds = sorted(e.split()[1] for _, e in ev)
        gids = {int(e.split()[2] if e.split()[1] == "start" else
                    e.split()[3]) for _, e in ev}
        check("round %d: one start and one redirect, one game" % i,
              kinds == ["redirect", "start"] and len(gids) == 1 and
              len({k for k, _ in ev}) == 2, ev)
        third = [k for k in "xyz" if k not in got]
        r = cl[third[0]].cmd("unseek") if len(third) == 1 else None
        check("round %d: the third seek (%s) is still open" % (i, third),
              ok(r), r)
        two()       # what came meanwhile: nothing more
        check("round %d: no other start or redirect" % i,
              sum(len(v) for v in got.values()) == 2, got)
        starter = [k for k, e in ev if e.startswith("event start")]
        if starter and gids:
            r = cl[starter[0]].cmd("resign %d" % min(gids))
            check("round %d: the game ends" % i, ok(r), r)


def test_never_comes():
    """The redirected player never comes: 10 s after the start (checked
    each second) the clocks start anyway and the usual absence rules
    hold: the away player's clock runs and it loses on time; the player
    present wins, whichever seat moves first."""
    a, b = nodes("A", "B")
    adm = login(a, "adm")
    r = adm.cmd("register bob password1")
    check("bob registered", ok(r), r)
    r = adm.cmd("seek nim 3 4 5 tc=1000 rated=0")
    check("adm's seek waits on A", ok(r) and body(r).startswith("seek"), r)
    bob = relogin(b, "bob")
    r = bob.cmd("seek nim 3 4 5 tc=1000 rated=0")
    check("bob's seek waits on B", ok(r) and body(r).startswith("seek"), r)
    e = event_of(bob, "start", 20)
    check("bob's game starts on B", e is not None, bob.events)
    er = event_of(adm, "redirect", 20)
    check("adm is redirected (and stays away)", er is not None, adm.events)
    you = int(re.search(r"you=(\d)", e).group(1)) if e else 0
    if you == 1:
        g = genmove_of(bob, 30)
        check("seat 1 (bob) gets genmove after the join deadline",
              g is not None, bob.commands)
        if g:
            bob.answer(g, "1=0")
    o = gameover_of(bob, 30)
    check("bob wins on time against the absent player",
          o is not None and o.split()[2:4] ==
          ["first" if you == 1 else "second", "timeout"], o)


def psql(url, sql):
    """One value that sql returns on the database of url (psql)."""
    bindir = os.environ.get("PG_BINDIR") or sorted(
        glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    r = subprocess.run([os.path.join(bindir, "psql"), "-Atqc", sql, url],
                       capture_output=True, text=True, timeout=30)
    return r.stdout.strip()


def test_node_killed():
    """A node killed (-9) leaves its published seek behind: once its
    heartbeat has expired, no node pairs with it: a seek on B waits, and
    the next one, on C, pairs with B's (with A's row taken, C would have
    claimed it, the oldest)."""
    a, b, c = nodes("A", "B", "C")
    url = a.db
    adm = login(a, "adm")
    for n in ("s1", "s2"):
        r = adm.cmd("account create %s password1" % n)
        check("account %s created" % n, ok(r), r)
    seek_ok(adm, SPEC, "adm (on A)")
    a.stop(signal.SIGKILL)
    check("A's seek is left in table seeks",
          psql(url, "SELECT count(*) FROM seeks") == "1")
    check("A's heartbeat expires (TTL 15 s)", wait_for(
        lambda: psql(url, "SELECT count(*) FROM nodes WHERE expires_ms > "
                     "(extract(epoch from clock_timestamp()) * 1000)::bigint")
        == "2", 30, 0.5))
    e, er = seeks_on_b_c(b, c, "s1", "s2")
    check("s2 on C pairs with s1, not with the dead node's seek",
          e is not None and e.split()[3:5] in (["s1", "s2"], ["s2", "s1"]),
          e)
    check("s1 is redirected to C", er is not None and
          er.split()[2] == addr(c), er)


def role_of(c):
    m = re.search(r"^role (\S+)$", body(c.cmd("whoami")), re.M)
    return m.group(1) if m else None


def test_roles_across_nodes():
    """Granted on the shared database while the nodes run: every node sees
    the role at the next login; nobody claims it by a name."""
    a, b = nodes("roleA", "roleB")
    s = login(a, "chief", pw="strangerpw1")
    check("registered on A: a player", role_of(s) == "player")
    for d in (a, b):
        refused(Client(d), "register ADM password1", "reserved look-alike "
                "refused on " + d.name, "name ADM is reserved for an admin")
    add_admin(a.db, "chief", pw="operatorpw1")      # no lock on PostgreSQL
    refused(Client(a), "login chief strangerpw1", "the squatter is out",
            "wrong name or password")
    cb = login(b, "chief", pw="operatorpw1", register=False)
    check("granted while B runs: an admin on B", role_of(cb) == "admin",
          role_of(cb))
    check("and its admin commands work on B", ok(cb.cmd("connections")))
    adm = login(a, "adm", register=False)
    check("the operator's admin on A", role_of(adm) == "admin")
    r = subprocess.run([GRUNDYD, "--db", a.db, "--revoke-admin", "chief"],
                       capture_output=True, text=True, timeout=WAIT)
    check("--revoke-admin on the shared database", r.returncode == 0,
          r.stdout + r.stderr)
    ca = login(a, "chief", pw="operatorpw1", register=False)
    check("revoked: a player on A at the next login",
          role_of(ca) == "player", role_of(ca))
    r = ca.cmd("connections")
    check("and refused", body(r) == "permission denied: connections needs "
          "the admin role", r)


if __name__ == "__main__":
    if not URL:
        print("1..0 # SKIP no SQLDB_PG_URL (run it under "
              "tests/e2e/pgcluster.sh)")
        sys.exit(0)
    sys.exit(run([test_pair_redirect, test_withdrawn, test_race,
                  test_never_comes, test_node_killed,
                  test_roles_across_nodes]))
