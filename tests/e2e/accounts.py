#!/usr/bin/env python3
"""accounts.py: end-to-end tests of issue 9's server side against a real
grundyd: lockout per (name, address) and the per-address throttle, passwd,
the registration policy, every admin command (and its refusal to players
and anonymous clients), 500 connections from loopback with the default
settings, resume by account after a crash (and the take-over of a seat
still held by an old connection), the per-move time and network delay and
the refused moves in `record`, the illegal-move reason in `gameover` under
both policies, anonymous names unique across a restart, and the detection
of a vanished peer (TCP keepalive) in a private network namespace.

Usage: accounts.py BUILDDIR SRCDIR.
"""
import os
import re
import resource
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)


def retry_in(r):
    m = re.search(r"retry in (\d+) s", r or "")
    return int(m.group(1)) if m else None


def test_lockout():
    """A stranger's failures lock only the stranger; an address that fails
    for many names is throttled, whatever the name."""
    d = Daemon("lockout", "--login-failures", "3", "--login-lockout", "60",
               "--login-address-failures", "5")
    c = login(d, "owner")
    c.close()
    login(d, "other").close()
    # The stranger on 127.0.0.2 fails 3 times for owner: owner is locked
    # for the stranger only.
    s = ClientFrom(d, "127.0.0.2")
    for i in range(2):
        answers(s, "login owner wrongpass%d" % i, "stranger fails",
                "wrong name or password")
    s = ClientFrom(d, "127.0.0.2")
    answers(s, "login owner wrongpass3", "stranger third failure",
            "wrong name or password")
    r = s.cmd("login owner password1")
    check("the stranger is locked out of owner",
          r is not None and "too many failed logins for owner" in r and
          retry_in(r) is not None and 0 < retry_in(r) <= 60, r)
    o = Client(d)
    r = o.cmd("login owner password1")
    check("the owner from elsewhere is not locked out",
          ok(r) and "account owner" in r, r)
    # Throttle by address: two more failures from 127.0.0.2 for any names
    # (5 in all) lock the address, even for a right password.
    s = ClientFrom(d, "127.0.0.2")
    for name in ("nobody1", "nobody2"):
        r = s.cmd("login %s password1" % name)
        check("failure for " + name, body(r) == "wrong name or password", r)
    s = ClientFrom(d, "127.0.0.2")
    r = s.cmd("login other password1")
    check("the address is throttled for every name",
          r is not None and "too many failed logins from your address" in r
          and retry_in(r) is not None, r)
    r = Client(d).cmd("login other password1")
    check("other addresses are not throttled", ok(r), r)
    n = db_count(d, "SELECT COUNT(*) FROM accounts")
    check("refusals changed no account", n == 2, n)


def test_passwd_and_registration():
    d = Daemon("passwd", "--registration", "open")
    c = login(d, "pat")
    answers(c, "passwd wrongpass1 password2", "passwd wrong old",
            "wrong name or password")
    refused(c, "passwd password1 short", "passwd bad new", "too short")
    answers(c, "passwd password1 password2", "passwd",
            "password changed for pat")
    answers(Client(d), "login pat password1", "old password refused",
            "wrong name or password")
    accepted(Client(d), "login pat password2", "new password works")
    answers(Client(d), "passwd password2 password3",
            "passwd needs a login", "passwd needs a login")
    d.stop()
    # registration = closed: nobody creates accounts, admins neither.
    d = Daemon("regclosed", "--registration", "closed", "--admins", "boss")
    refused(Client(d), "register newbie password1", "registration closed",
            "registration is closed")
    n = db_count(d, "SELECT COUNT(*) FROM accounts WHERE name <> 'boss'")
    check("closed: no account but the operator's admin", n == 0, n)
    r = Client(d).cmd("limits")
    check("limits shows the policy", r is not None and
          "registration closed" in r and "keepalive-idle 5" in r, r)
    d.stop()
    # registration = admin: only admins create accounts.
    d = Daemon("regadmin", "--registration", "admin", "--admins", "boss")
    refused(Client(d), "register newbie password1",
            "registration by admins only", "admins only")
    # The operator made the admin with grundyd --add-admin (Daemon does).
    b = login(d, "boss", register=False)
    answers(b, "account create newbie password1 welcome",
            "admin creates an account", "registered newbie")
    answers(b, "register newbie2 password1", "an admin may register",
            "registered newbie2")
    accepted(Client(d), "login newbie password1",
             "created account logs in")


ADMIN_CMDS = ["account create x1 password1", "account disable pat spam",
              "account enable pat", "account reset pat password9",
              "connections", "kick 1 spam", "abort 1 cheating",
              "adjudicate 1 2 cheating"]


def test_admin_refused():
    d = Daemon("refused", "--admins", "boss")
    anon = Client(d)
    pl = login(d, "pat")
    for c, who in ((anon, "anonymous"), (pl, "player")):
        for line in ADMIN_CMDS:
            word = line.split()[0]
            r = c.cmd(line)
            check("%s refused to %s" % (word, who),
                  body(r) == "permission denied: %s needs the admin role" %
                  word, r)
    answers(Client(d), "login pat password9", "no reset happened",
            "wrong name or password")
    accepted(Client(d), "login pat password1", "no disable happened")
    check("nobody was kicked", not anon.closed and not pl.closed)


def test_admin():
    d = Daemon("admin", "--admins", "boss")
    b = login(d, "boss")
    answers(b, "account create carl password1", "account create",
            "registered carl")
    refused(b, "account create carl password1", "account create taken",
            "taken")
    answers(b, "account reset carl password2 forgot it", "account reset",
            "reset carl")
    r = Client(d).cmd("login carl password1")
    check("reset: old password refused", body(r) == "wrong name or password",
          r)
    refused(b, "account reset carl bad", "reset checks the password",
            "too short")
    carl = login(d, "carl", pw="password2", register=False)
    r = b.cmd("connections")
    check("connections lists carl", ok(r) and
          re.search(r"^\d+ 127\.0\.0\.1:\d+ carl$", body(r), re.M), r)
    cid = re.search(r"^(\d+) \S+ carl$", body(r), re.M).group(1)
    answers(b, "kick %s flooding the lobby" % cid, "kick", "kicked " + cid)
    e = event_of(carl, "kicked")
    check("kicked client told", e == "event kicked flooding the lobby", e)
    carl.wait("replies", lambda x: False, timeout=WAIT)   # until closed
    check("kicked client dropped", carl.closed)
    answers(b, "kick 99999 x", "kick unknown", "no connection 99999")
    answers(b, "kick %s" % cid, "kick needs a reason",
            "kick needs a reason")
    # Disable: the account's connections are told and dropped; login is
    # refused with a clear error; enable undoes it.
    carl = login(d, "carl", pw="password2", register=False)
    answers(b, "account disable carl cheating in round 3",
            "account disable", "disabled carl")
    e = event_of(carl, "disabled")
    check("disabled account's connection told",
          e == "event disabled cheating in round 3", e)
    carl.wait("replies", lambda x: False, timeout=WAIT)
    check("disabled account's connection dropped", carl.closed)
    r = Client(d).cmd("login carl password2")
    check("disabled account cannot log in",
          body(r) == "account carl is disabled: cheating in round 3", r)
    answers(b, "account enable carl", "account enable", "enabled carl")
    r = Client(d).cmd("login carl password2")
    check("enabled account logs in", ok(r), r)
    answers(b, "account disable nobody x", "disable unknown",
            "no account nobody")
    # Abort and adjudicate live games, with the reason in the record.
    p1, p2 = login(d, "p1"), login(d, "p2")
    gid, seats, _, _ = pair(d, p1, p2, "nim 3 4 5", "tc=60000 rated=1")
    answers(b, "abort %d server restart needed" % gid, "abort",
            "result - aborted")
    for s in seats.values():
        o = gameover_of(s)
        check("abort gameover", o is not None and o.split()[2:] ==
              ["-", "aborted", "by", "boss:", "server", "restart",
               "needed"], o)
        s.answer(o)
    rec = b.cmd("record %d" % gid)
    check("abort in the record", rec is not None and
          "\nresult - aborted by boss: server restart needed\n" in rec +
          "\n", rec)
    gid, seats, _, _ = pair(d, p1, p2, "nim 3 4 5", "tc=60000 rated=1")
    answers(b, "adjudicate %d 2 engine crash on the host" % gid,
            "adjudicate", "result second adjudicated")
    for s in seats.values():
        o = gameover_of(s)
        check("adjudicate gameover", o is not None and
              o.split()[2:4] == ["second", "adjudicated"] and
              o.endswith("by boss: engine crash on the host"), o)
        s.answer(o)
    rec = b.cmd("record %d" % gid)
    check("adjudication in the record", rec is not None and
          "result second adjudicated by boss: engine crash on the host" in
          rec, rec)
    answers(b, "abort %d again" % gid, "abort a finished game",
            "no live game %d" % gid)
    refused(b, "adjudicate 1 3 x", "adjudicate bad seat", "seat 1 or 2")
    r = b.cmd("ratings")
    check("aborted game unrated, adjudicated rated", ok(r) and
          re.search(r"p2 rating \d+ games 1", r) and
          re.search(r"p1 rating \d+ games 1", r), r)


def test_500_loopback():
    """500 connections from loopback with the default settings."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    d = Daemon("many")          # default limits (max-conns-per-ip 64)
    cs = []
    for i in range(500):
        s = socket.create_connection(("127.0.0.1", d.port), timeout=WAIT)
        cs.append(s)
    for i, s in enumerate(cs):
        s.sendall(b"%d name\n" % i)
    good = 0
    for i, s in enumerate(cs):
        data = b""
        while not data.endswith(b"\n\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        if data.startswith(b"=%d " % i):
            good += 1
    check("500 loopback connections served", good == 500, good)
    for s in cs:
        s.close()
    d.stop()
    # A remote address is still limited; the refusal names the settings.
    d = Daemon("fewer", "--max-conns-per-ip", "2",
               "--trusted-networks", "127.0.0.1/32")
    a = [ClientFrom(d, "127.0.0.2") for _ in range(2)]
    x = ClientFrom(d, "127.0.0.2")
    x._pump(1.0)
    check("untrusted address limited", x.replies and
          "max-conns-per-ip" in x.replies[0] and
          "trusted-networks" in x.replies[0], x.replies)
    y = Client(d)
    check("trusted address exempt", ok(y.cmd("name")))
    d.stop()
    unit = open(os.path.join(SRC, "systemd", "grundyd.service.in")).read()
    m = re.search(r"^LimitNOFILE=(\d+)", unit, re.M)
    check("systemd unit raises the file limit above max-conns",
          m is not None and int(m.group(1)) >= 1024 + 64, m)


def play_nim11(seats, gid):
    """Plays nim 1 1 to its end: 1=0 then 2=0; seat 2 wins."""
    for ply, mv in ((1, "1=0"), (2, "2=0")):
        g = genmove_of(seats[ply])
        check("genmove ply %d" % ply, g is not None, g)
        seats[ply].answer(g, mv)
        if ply == 1:
            p = seats[2].wait("commands", lambda x: " play " in x)
            check("play relayed", p is not None, p)
            seats[2].answer(p)


def test_resume_by_account():
    """A program that dies mid-game comes back by account: event live after
    login, resume GAME_ID, the opponent sees disconnected/reconnected, and
    the game finishes; a seat still held by an old connection of the same
    account is taken over."""
    d = Daemon("resume")
    a, b = login(d, "ann"), login(d, "bob")
    w = Client(d)
    gid, seats, ea, _ = pair(d, a, b, "nim 1 1", "tc=60000")
    w.cmd("watch %d" % gid)
    sa = 1 if seats[1] is a else 2
    # ann's program dies: the socket closes.
    a.close()
    e = event_of(b, "disconnected")
    check("opponent sees disconnected", e == "event disconnected %d %d" %
          (gid, sa), e)
    e = event_of(w, "disconnected")
    check("spectator sees disconnected", e == "event disconnected %d %d" %
          (gid, sa), e)
    r = login(d, "carl").cmd("seek nim 1 1")    # another account: fine
    a2 = Client(d)
    accepted(a2, "login ann password1", "login after the crash")
    e = event_of(a2, "live")
    check("event live after login", e is not None and
          e == "event live %d %s %s you=%d tc=60000 rated=1 nim 1 1" % (
              gid, "ann" if sa == 1 else "bob", "bob" if sa == 1 else "ann",
              sa), e)
    r = a2.cmd("seek nim 2 2")
    check("seek says resume GAME_ID", r is not None and
          "resume %d" % gid in r, r)
    answers(a2, "resume %d" % gid, "resume GAME_ID",
            "game %d you=%d" % (gid, sa))
    n = a2.wait("commands", lambda x: " new " in x)
    check("resume sends new", n is not None and n.endswith("new nim 1 1"),
          n)
    a2.answer(n)
    e = event_of(b, "reconnected")
    check("opponent sees reconnected", e == "event reconnected %d %d" %
          (gid, sa), e)
    seats[sa] = a2
    # Take-over: bob's old connection still holds its seat; bob logs in
    # again elsewhere and resumes.
    sb = 3 - sa
    b2 = Client(d)
    b2.cmd("login bob password1")
    answers(b2, "resume %d" % gid, "take-over by the same account",
            "game %d you=%d" % (gid, sb))
    e = event_of(b, "replaced")
    check("old connection told", e == "event replaced %d %d" % (gid, sb), e)
    n = b2.wait("commands", lambda x: " new " in x)
    b2.answer(n)
    seats[sb] = b2
    refused(Client(d), "resume %d" % gid, "anonymous resume by id refused",
            "needs a login")
    r = login(d, "eve").cmd("resume %d" % gid)
    check("another account cannot resume", body(r) ==
          "not a player of game %d" % gid, r)
    play_nim11(seats, gid)
    for s in (seats[1], seats[2]):
        o = gameover_of(s)
        check("resumed game finishes", o is not None and
              o.split()[2:] == ["second", "no-legal-move"], o)
    check("the replaced connection gets no gameover",
          gameover_of(b, 0.5) is None)
    # Per-move time and delay in the record.
    rec = Client(d).cmd("record %d" % gid)
    mv = re.findall(r"^move (\d+) (\d) (\S+) (\S+) (\d+) (\S+) (\d+)$",
                    body(rec), re.M)
    check("record has time and delay per move", len(mv) == 2 and
          all(m[5].isdigit() and int(m[6]) // 1000 == int(m[4])
              for m in mv), rec)


def test_match_delay():
    """A §8 match against the engine: the client's moves carry its delay,
    the engine's none."""
    d = Daemon("match")
    c = Client(d)
    c.cmd("new nim 1 2 3")
    r = c.cmd("match engine first")
    gid = int(re.search(r"game (\d+)", r).group(1))
    c.cmd("play 3=2")
    c.cmd("resign")
    rec = body(Client(d).cmd("record %d" % gid))
    mv = re.findall(r"^move (\d+) (\d) (\S+) (\S+) (\d+) (\S+) \d+$",
                    rec, re.M)
    check("match: client move has a delay, engine move none",
          len(mv) == 2 and mv[0][5].isdigit() and mv[1][5] == "-" and
          re.search(r"^players anon:\d+:1 engine$", rec, re.M), rec)


def test_illegal_reason():
    for policy in ("lose", "retry"):
        d = Daemon("illegal-" + policy, "--illegal-move", policy)
        a, b = login(d, "ann"), login(d, "bob")
        gid, seats, _, _ = pair(d, a, b, "nim 1 1", "tc=60000")
        g = genmove_of(seats[1])
        seats[1].answer(g, "1=5")
        if policy == "retry":
            e = event_of(seats[1], "illegal")
            check("retry: event illegal", e is not None and "1=5" in e, e)
            for k in range(3):
                g = genmove_of(seats[1])
                seats[1].answer(g, "7=0")
        for s in (seats[1], seats[2]):
            o = gameover_of(s)
            want = '"7=0"' if policy == "retry" else '"1=5"'
            check("%s: reason in gameover to both" % policy,
                  o is not None and o.split()[2:5] ==
                  ["second", "illegal-move", want] and
                  len(o.split()) > 5, o)
        rec = body(Client(d).cmd("record %d" % gid))
        ref = re.findall(r'^refused 1 1 \d+ \d+ "([^"]*)" .+$', rec, re.M)
        check("%s: refused moves in the record" % policy,
              ref == (["1=5"] if policy == "lose" else
                      ["1=5", "7=0", "7=0", "7=0"]), rec)
        check("%s: reason in the record's result" % policy,
              re.search(r'^result second illegal-move "\d=\d" .+$', rec,
                        re.M), rec)
        d.stop()


def test_anon_restart():
    """Anonymous names carry the daemon's start id: a restart never merges
    two clients in stats."""
    d = Daemon("anon")
    names = []
    for run in range(2):
        c = Client(d)
        r = c.cmd("seek nim 1 opponent=engine tc=60000")
        gid = int(body(r).split()[1])
        e = event_of(c, "start")
        names.append(e.split()[3] if "you=1" in e else e.split()[4])
        d.stop()
        d.start()
    check("anonymous names differ across a restart",
          names[0] != names[1] and all(re.match(r"anon:\d+:\d+$", n)
                                      for n in names) and
          names[0].split(":")[2] == names[1].split(":")[2], names)


VICTIM = r"""
import socket, sys, time
s = socket.create_connection(("10.9.0.1", 17559), timeout=10)
s.sendall(b"1 register vic password1\n2 login vic password1\n"
          b"3 seek nim 5 5 tc=600000\n")
print("sent", flush=True)
time.sleep(60)
"""


def vanish_inner():
    """Runs inside a private network namespace (see test_vanish)."""
    sh = lambda cmd: subprocess.run(cmd, shell=True, check=True)
    sh("ip link set lo up")
    sh("mount -t tmpfs none /run && mkdir -p /run/netns && ip netns add b")
    sh("ip link add va type veth peer name vb && ip link set vb netns b")
    sh("ip addr add 10.9.0.1/24 dev va && ip link set va up")
    sh("ip netns exec b sh -c 'ip addr add 10.9.0.2/24 dev vb && "
       "ip link set vb up && ip link set lo up'")
    d = Daemon("vanish", "--listen", "0.0.0.0:17559", "--keepalive-idle",
               "1", "--keepalive-interval", "1", "--keepalive-count", "2",
               "--user-timeout", "3000")
    v = subprocess.Popen(["ip", "netns", "exec", "b", "python3", "-c",
                          VICTIM], stdout=subprocess.PIPE)
    PROCS.append(v)
    check("victim connected", v.stdout.readline().strip() == b"sent")
    o = login(d, "opp")
    # Paired at once if the victim's seek is in, else when it comes in
    # (retrying with unseek raced with the pairing: "you are playing").
    r = o.cmd("seek nim 5 5 tc=600000")
    e = None
    if ok(r) and not body(r).startswith("game"):
        e = event_of(o, "start", timeout=30)
    check("paired with the victim", ok(r) and (body(r).startswith("game")
          or e is not None), (r, e))
    gid = int(body(r).split()[1] if e is None else e.split()[2])
    # The cable is pulled: no FIN, no RST, nothing answers.
    t0 = time.time()
    sh("ip netns exec b ip link set vb down")
    e = event_of(o, "disconnected", timeout=30)
    took = time.time() - t0
    check("vanished peer detected", e is not None and
          e.startswith("event disconnected %d " % gid), e)
    note("vanished peer seen after %.1f s (keepalive 1+1x2 s)" % took)
    check("within seconds", took < 15, took)


def test_vanish():
    """A peer that vanishes (link down, no FIN) is seen within seconds.
    Runs this script again under unshare -nm (a private network namespace
    with a veth pair into a second one) when we are root; otherwise it
    only checks that the keepalive settings are accepted."""
    import shutil
    if os.geteuid() != 0 or not shutil.which("ip") or \
            not shutil.which("unshare") or subprocess.run(
                ["unshare", "-nm", "true"], capture_output=True).returncode:
        skip("vanish test in a network namespace",
             "not root, or no ip or unshare: checking the settings only")
        d = Daemon("vanish-settings", "--keepalive-idle", "1")
        r = Client(d).cmd("limits")
        check("keepalive in limits", r is not None and
              "keepalive-idle 1" in r, r)
        d.stop()
        return
    env = dict(os.environ, ACCOUNTS_VANISH="1")
    env.pop("PLAY_ONLY", None)
    p = subprocess.run(["unshare", "-nm", sys.executable,
                        os.path.abspath(__file__), BUILD, SRC], env=env,
                       capture_output=True, text=True, timeout=120)
    note(p.stdout)                 # its own TAP lines, as comments here
    check("vanish test in a network namespace", p.returncode == 0,
          p.stdout + p.stderr)


if __name__ == "__main__":
    if os.environ.get("ACCOUNTS_VANISH"):
        sys.exit(run([vanish_inner]))
    sys.exit(run([test_lockout, test_passwd_and_registration,
                  test_admin_refused, test_admin, test_500_loopback,
                  test_resume_by_account, test_match_delay,
                  test_illegal_reason,
                  test_anon_restart, test_vanish]))
