#!/usr/bin/env python3
"""botnodes.py: clients that follow the server across nodes (issue 15 §2,
PROTOCOL.md §13.12): `grundy bot --server DEAD,A,B` moves to the next node
when its node is gone, and follows `event redirect`; `node drain|undrain|
status` on one node.  Two daemons, each with its own SQLite log (the
bot's accounts registered on each).  Every wait is a poll with a
deadline; counts are exact."""
import os
import signal
import socket
import subprocess

from e2e import *

sys.path.insert(0, os.path.join(SRC, "contrib", "bench"))
from benchutil import free_port  # noqa: E402

PERM = "permission denied: node needs the admin role"
SPEC = "nim 3 4 5"
OPTS = "tc=60000 rated=0"


def addr(d):
    return "127.0.0.1:%d" % d.port


def accounts(d, names, bot):
    """Registers and logs in each name on d (the first is an admin), and
    creates the bot's account; returns {name: client}."""
    cl = {n: login(d, n) for n in names}
    r = cl[names[0]].cmd("account create %s password1" % bot)
    check("account %s created" % bot, ok(r), r)
    return cl


def start_roamer(name, servers, extra=()):
    """A bot with a --server list playing `grundy engine`, seeking SPEC;
    its account is registered on every node beforehand (no --register)."""
    log = open(os.path.join(TMP, "bot-%s.log" % name), "a")
    p = subprocess.Popen(
        [GRUNDY, "bot", "--server", ",".join(servers), "--name", name,
         "--password", "password1", "--seek", SPEC + " " + OPTS,
         "--no-ready", "--reconnect-ms", "100"] + list(extra) +
        ["--", GRUNDY, "engine"], stdout=log, stderr=log)
    PROCS.append(p)
    return p


def connected(d, name, timeout=WAIT):
    """Waits until name is logged in on d (connections); returns whether
    it was."""
    c = Client(d)
    c.cmd("login root password1")

    def has():
        r = c.cmd("connections") or ""
        return any(" %s" % name in line for line in r.splitlines())
    ok_ = wait_for(has, timeout, 0.05)
    c.close()
    return ok_


def play_one(d, opp, timeout=WAIT):
    """opp (logged in on d) seeks SPEC: it pairs with the bot's open seek,
    or the bot's seek (sent as it logs in and after each game) pairs with
    opp's.  Returns the game id, or None."""
    opp.drain()
    r = opp.cmd("seek %s %s" % (SPEC, OPTS))
    if not ok(r):
        return None
    e = event_of(opp, "start", timeout)
    return int(e.split()[2]) if e is not None else None


def win_on(d, cl, where, won):
    """The bot wins a game on d against cl's opp, who resigns: won games
    in all then."""
    gid = play_one(d, cl["opp"])
    if not check("the bot seeks " + where, gid is not None,
                 bot_log("roamer")[-1500:]):
        return
    resign(cl["opp"], gid)
    check("the bot wins " + where, won_on("roamer", won),
          bot_log("roamer")[-1500:])


def resign(opp, gid):
    r = opp.cmd("resign %d" % gid)
    check("opponent resigns game %d" % gid, ok(r), r)


def won_on(name, n, timeout=WAIT):
    """Waits until the bot's log shows n games won in all."""
    return wait_for(lambda: bot_log(name).count(" won against ") >= n,
                    timeout, 0.05)


def redirects(log, d, end):
    """How many times log says the bot was redirected to d."""
    return log.count("redirected to %s%s" % (addr(d), end))


def status(c, want, name, timeout=WAIT):
    """Polls node status on c until its reply is exactly want."""
    last = [None]

    def same():
        last[0] = c.cmd("node status")
        return body(last[0]) == want
    check(name, wait_for(same, timeout, 0.05), "%r != %r" % (last[0], want))


def test_node_command():
    """node drain|undrain|status: the admin role, the address, the state;
    a draining node refuses new games and redirects players."""
    d = Daemon("nodecmd", "--admins", "root")
    cl = {n: login(d, n) for n in ("root", "pat")}
    root, pat = cl["root"], cl["pat"]
    anon = Client(d)
    for c, line, name, want in (
            (anon, "node status", "anonymous", PERM),
            (pat, "node drain 127.0.0.1:9", "non-admin", PERM),
            (pat, "node undrain", "non-admin undrain", PERM),
            (root, "node drain nohost", "no port",
             "node drain: bad address 'nohost': expected HOST:PORT"),
            (root, "node drain ::1:7559", "IPv6 without brackets",
             "an IPv6 address needs brackets: [ADDR]:PORT"),
            (root, "node drain 127.0.0.1:0", "port 0",
             "port must be a number from 1 to 65535"),
            (root, "node drain h%s:1" % ("x" * 300), "too long",
             "longer than 261 bytes"),
            (root, "node drain", "no address", "usage: node drain HOST:PORT"),
            (root, "node undrain", "not draining", "node is not draining"),
            (root, "node sleep", "unknown operation",
             "unknown node operation sleep: expected drain, undrain or "
             "status")):
        refused(c, line, name + " refused", want)
    answers(root, "node status", "status serving",
            "serving games=0 players=2")
    answers(root, "node status", "refusals changed nothing",
            "serving games=0 players=2")
    pat.drain()
    answers(root, "node drain [::1]:7600", "drain to an IPv6 node",
            "drained to [::1]:7600 games=0 players=2 redirected=1: no live "
            "game left, the node may stop")
    e = event_of(pat, "redirect")
    check("a free player is redirected at once",
          e == "event redirect [::1]:7600", e)
    refused(root, "node drain 127.0.0.1:7601", "already draining",
            "node already draining to [::1]:7600: node undrain first")
    for line, what in (("seek nim 3 tc=5000", "seek"),
                       ("seek nim 3 opponent=engine", "engine seek"),
                       ("challenge root nim 3", "challenge"),
                       ("ready", "ready")):
        answers(pat, line, what + " refused while draining",
                "node draining: go to [::1]:7600")
    q = login(d, "quin")
    e = event_of(q, "redirect")
    check("a player logging in is redirected",
          e == "event redirect [::1]:7600", e)
    answers(root, "node status", "status counts the redirects",
            "drained to [::1]:7600 games=0 players=3 redirected=2: no live "
            "game left, the node may stop")
    answers(root, "node undrain", "undrain", "serving games=0 players=3")
    accepted(pat, "seek nim 3 tc=5000", "seek after undrain", "seek")
    check("no other redirect came",
          not any("redirect" in x for x in pat.events + q.events),
          (pat.events, q.events))


def drain_phase(src, dst, won):
    """The bot plays on src = (daemon, clients, name); node drain to dst
    there; the bot ends its game, follows the redirect, and wins on dst
    (won games in all then); src says it is drained, then undrains."""
    (sd, sc, sn), (dd, dc, dn) = src, dst
    to = addr(dd)
    gid = play_one(sd, sc["opp"])
    check("a game on " + sn, gid is not None)
    answers(sc["root"], "node drain " + to, "drain %s to %s" % (sn, dn),
            "draining to %s games=1 players=3 redirected=0" % to)
    refused(sc["root"], "node drain " + to, "drain twice refused",
            "node already draining to %s: node undrain first" % to)
    sc["opp"].drain()
    resign(sc["opp"], gid)
    e = event_of(sc["opp"], "redirect")
    check("the opponent is redirected after the game",
          e == "event redirect " + to, e)
    win_on(dd, dc, "on %s after the redirect" % dn, won)
    status(sc["root"], "drained to %s games=0 players=2 redirected=2: no "
           "live game left, the node may stop" % to, sn + " drained")
    answers(sc["root"], "node undrain", "undrain " + sn,
            "serving games=0 players=2")


def test_bot_nodes():
    """A bot with --server DEAD,A,B: plays on A; A killed, it plays on B;
    node drain A on B (A restarted empty) and it moves to A after its
    game; node drain B on A and it moves back to B after its game."""
    a = Daemon("nodeA", "--admins", "root")
    b = Daemon("nodeB", "--admins", "root")
    ca = accounts(a, ("root", "opp"), "roamer")
    cb = accounts(b, ("root", "opp"), "roamer")
    dead = free_port()     # nothing listens there
    p = start_roamer("roamer", ["127.0.0.1:%d" % dead, addr(a), addr(b)])
    win_on(a, ca, "on A (DEAD refused)", 1)
    log = bot_log("roamer")
    check("DEAD was tried first, then A",
          log.count("cannot connect to 127.0.0.1:%d" % dead) == 1 and
          log.count("connected to 127.0.0.1:%d" % a.port) == 1 and
          log.count("next node: 127.0.0.1:%d in 0 ms" % a.port) == 1, log)

    # A killed with a game live: the bot moves to B and plays there.
    gid = play_one(a, ca["opp"])
    check("a second game on A", gid is not None)
    wait_for(lambda: bot_log("roamer").count("event start") >= 2, WAIT, 0.05)
    a.stop(signal.SIGKILL)
    win_on(b, cb, "on B after A's kill", 2)
    log = bot_log("roamer")
    check("lost A, went to B at once",
          log.count("lost the connection to 127.0.0.1:%d" % a.port) == 1 and
          log.count("next node: 127.0.0.1:%d" % b.port) == 1 and
          log.count("reconnected to 127.0.0.1:%d" % b.port) == 1, log)

    # node drain A_ADDR on B: the bot finishes its game, then moves to A.
    a.db = os.path.join(TMP, "nodeA2.db")
    a.start()
    ca = accounts(a, ("root", "opp"), "roamer")
    drain_phase((b, cb, "B"), (a, ca, "A"), 4)
    # node drain B_ADDR on A: back to B after the game.
    drain_phase((a, ca, "A"), (b, cb, "B"), 6)
    log = bot_log("roamer")
    check("two redirects followed, each once",
          log.count("redirected to ") == 2 and
          redirects(log, a, "\n") == 1 and redirects(log, b, "\n") == 1,
          log)
    check("six games won, the game cut by the kill not counted",
          log.count(" won against ") == 6 and
          log.count("(not counted)") == 1, log)
    check("the bot is still running", p.poll() is None)
    p.kill()
    p.wait()


def test_redirect_loop():
    """Two nodes that redirect to each other: the bot follows 8 redirects
    within 60 s, then goes back to its list with backoff; a redirect to a
    node not in its list is followed too."""
    a = Daemon("loopA", "--admins", "root")
    b = Daemon("loopB", "--admins", "root")
    ca = accounts(a, ("root",), "looper")
    cb = accounts(b, ("root",), "looper")
    p = start_roamer("looper", [addr(a)])
    check("the bot logs in on A", connected(a, "looper"),
          bot_log("looper")[-1500:])
    answers(cb["root"], "node drain " + addr(a), "B drains to A",
            "drained to %s games=0 players=1 redirected=0: no live game "
            "left, the node may stop" % addr(a))
    r = ca["root"].cmd("node drain " + addr(b))
    check("A drains to B (not in the bot's list)", ok(r), r)
    check("the loop is cut", wait_for(
        lambda: "redirects within 60 s: not following" in bot_log("looper"),
        20, 0.05), bot_log("looper")[-2000:])
    log = bot_log("looper")
    check("8 redirects followed, alternating",
          log.count("redirected to ") == 8 and
          redirects(log, b, " (not in --server)") == 4 and
          redirects(log, a, "\n") == 4, log)
    r = ca["root"].cmd("node undrain")
    check("undrain A", ok(r) and body(r).startswith("serving games=0 "), r)
    mark = len(bot_log("looper"))
    check("the bot settles on A: its seek is taken", wait_for(
        lambda: "waiting for an opponent" in bot_log("looper")[mark:], 40,
        0.05),
          bot_log("looper")[-1500:])
    check("the bot is still running", p.poll() is None)
    p.kill()
    p.wait()


def test_dial_timeout():
    """A node whose accept queue is full takes the SYN and never answers:
    after --dial-timeout ms the bot goes to the next node."""
    hang = socket.socket()
    hang.bind(("127.0.0.1", 0))
    hang.listen(0)
    filler = socket.create_connection(hang.getsockname())   # queue full
    a = Daemon("dialA", "--admins", "root")
    accounts(a, ("root",), "waiter")
    p = start_roamer("waiter", ["127.0.0.1:%d" % hang.getsockname()[1],
                                addr(a)], ["--dial-timeout", "300"])
    check("the bot logs in on A after the dial timeout",
          connected(a, "waiter"), bot_log("waiter")[-1500:])
    log = bot_log("waiter")
    check("the dial to the hung node timed out, once",
          log.count("(no answer within 300 ms)") == 1 and
          log.count("next node: %s in 0 ms" % addr(a)) == 1, log)
    p.kill()
    p.wait()
    filler.close()
    hang.close()


def test_detour_fails():
    """A redirect to a node not in the list that does not answer: the
    list resumes after the node the bot left."""
    a = Daemon("detourA", "--admins", "root")
    b = Daemon("detourB", "--admins", "root")
    ca = accounts(a, ("root",), "detour")
    accounts(b, ("root",), "detour")
    p = start_roamer("detour", [addr(a), addr(b)])
    check("the bot logs in on A", connected(a, "detour"),
          bot_log("detour")[-1500:])
    dead = free_port()
    r = ca["root"].cmd("node drain 127.0.0.1:%d" % dead)
    check("A drains to a dead node", ok(r), r)
    check("the bot logs in on B", connected(b, "detour") and wait_for(
        lambda: bot_log("detour").count("logged in") == 2, WAIT, 0.02),
          bot_log("detour")[-1500:])
    log = bot_log("detour")
    check("redirected to the dead node, then the list's next",
          log.count("redirected to 127.0.0.1:%d (not in --server)" %
                    dead) == 1 and
          log.count("cannot connect to 127.0.0.1:%d" % dead) == 1 and
          log.count("next node: %s in 0 ms" % addr(b)) == 1 and
          log.count("logged in") == 2, log)
    p.kill()
    p.wait()


class FakeNode:
    """A node that talks to one bot by script: a listening socket."""

    def __init__(self):
        self.lst = socket.socket()
        self.lst.bind(("127.0.0.1", 0))
        self.lst.listen(4)
        self.lst.settimeout(WAIT)
        self.port = self.lst.getsockname()[1]

    def accept(self):
        self.c = self.lst.accept()[0]
        self.c.settimeout(WAIT)
        self.f = self.c.makefile("r")

    def lines(self, n):
        return [self.f.readline().rstrip("\n") for _ in range(n)]

    def send(self, text):
        self.c.sendall(text.encode())

    def close(self):
        self.f.close()
        self.c.close()
        self.lst.close()


def test_resume_elsewhere():
    """A game started on node A (its token) goes on on node B, which holds
    the seat by account but knows no token (issue 15: a lease taken
    over): when A is gone, or sends `event redirect B 7`, the bot's
    resume TOKEN is refused on B, and it resumes the game by id from B's
    event live."""
    for name, how in (("ann", "gone"), ("bea", "redirect")):
        resume_on_b(name, how)


def resume_on_b(name, how):
    a, b = FakeNode(), FakeNode()
    log = open(os.path.join(TMP, "bot-%s.log" % name), "a")
    p = subprocess.Popen(
        [GRUNDY, "bot", "--server", "127.0.0.1:%d,127.0.0.1:%d" %
         (a.port, b.port), "--name", name, "--password", "password1",
         "--no-ready", "--", GRUNDY, "engine"], stdout=log, stderr=log)
    PROCS.append(p)
    a.accept()
    got = a.lines(1)
    check(how + ": login on A", got == ["1001 login %s password1" % name],
          got)
    a.send("=1001 account %s, role player, rating 1500\n\n"
           "event start 7 %s bob you=1 token=tok123 tc=60000 rated=0 "
           "nim 3 4 5\n" % (name, name))
    if how == "redirect":
        a.send("event redirect 127.0.0.1:%d 7\n" % b.port)
    wait_for(lambda: "event start 7" in bot_log(name), WAIT, 0.02)
    if how == "gone":
        a.close()
    b.accept()
    if how == "redirect":
        check(how + ": the bot left A", a.f.readline() == "", "")
        a.close()
    got = b.lines(2)
    check(how + ": on B, login, then resume by token",
          got == ["1002 login %s password1" % name, "1003 resume tok123"],
          got)
    b.send("=1002 account %s, role player, rating 1500\n\n"
           "event live 7 %s bob you=1 tc=60000 rated=0 nim 3 4 5\n"
           "?1003 no live game with that token\n\n" % (name, name))
    got = b.lines(1)
    check(how + ": then resume by id", got == ["1004 resume 7"], got)
    b.send("=1004 game 7 you=1\n\n")
    check(how + ": resumed on B", wait_for(
        lambda: "resumed: game 7 you=1" in bot_log(name), WAIT, 0.02),
        bot_log(name))
    log = bot_log(name)
    check(how + ": the game was not given up",
          "could not resume" not in log and
          log.count("resume by token refused (no live game with that "
                    "token): resuming game 7 by account") == 1 and
          log.count("redirected to 127.0.0.1:%d for game 7\n" % b.port) ==
          (how == "redirect"), log)
    p.kill()
    p.wait()
    b.close()


sys.exit(run([test_node_command, test_bot_nodes, test_redirect_loop,
              test_dial_timeout, test_detour_fails, test_resume_elsewhere]))
