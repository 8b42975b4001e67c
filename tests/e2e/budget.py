#!/usr/bin/env python3
"""budget.py: one budget per client, by class (PROTOCOL.md §9.1).  The
daemon trusts only 127.0.0.1; clients from 127.0.0.2 are anonymous until
they log in, then of the account class; a client from 127.0.0.1 has the
trusted class's figures, the operator's.  Each class's commands budget
(rate, burst) and log budget (max-client-log-rate) are set apart here,
and each refusal is checked against the text of §9.1.

Nothing here waits for time: the rates are 1 a second and the bursts far
apart, so a pipelined run of N commands meets the burst whatever the
machine's load (a slow machine only refills a command a second)."""
from e2e import *

UNTRUSTED = "127.0.0.2"
FLAGS = ("--trusted-networks", "127.0.0.1/32",
         "--anonymous-rate", "1", "--anonymous-burst", "4",
         "--account-rate", "1", "--account-burst", "1000",
         "--rate", "1", "--burst", "12",
         "--admin-rate", "1", "--admin-burst", "1000")


def burst(c, n):
    """Sends n protocol_version requests at once; returns (accepted,
    the refusals)."""
    c.send("\n".join("%d protocol_version" % i for i in range(1, n + 1)))
    got = [c.wait("replies", lambda r, i=i: r.startswith(("=%d" % i,
                                                          "?%d" % i)))
           for i in range(1, n + 1)]
    check("all %d answered" % n, None not in got, got)
    acc = sum(1 for r in got if ok(r))
    return acc, [r for r in got if r is not None and not ok(r)]


def test_commands():
    """An anonymous client meets its small burst where an account does
    not; a trusted address has the operator's burst; the refusal names
    the budget, the class and its settings."""
    d = Daemon("cmds", *FLAGS)
    anon = ClientFrom(d, UNTRUSTED)
    acc, refusals = burst(anon, 40)
    check("anonymous: at least its burst of 4 ran", acc >= 4, acc)
    check("anonymous: refused past its burst", refusals, acc)
    want = ("budget: commands of the anonymous class: at most 1 commands "
            "per second, burst 4 (settings anonymous-rate, "
            "anonymous-burst)")
    check("anonymous: the documented refusal", refusals and all(
        body(r) == want for r in refusals), refusals[:2])
    acct = ClientFrom(d, UNTRUSTED)
    r = acct.cmd("register carol password1")
    check("register (one command)", ok(r), r)
    r = acct.cmd("login carol password1")
    check("login (one command)", ok(r), r)
    acc, refusals = burst(acct, 40)
    check("account: the same 40 commands all run", acc == 40 and
          not refusals, refusals[:2])
    trusted = Client(d)
    acc, refusals = burst(trusted, 40)
    check("trusted: at least the operator's burst of 12 ran", acc >= 12,
          acc)
    want = ("budget: commands of the trusted class: at most 1 commands "
            "per second, burst 12 (settings rate, burst)")
    check("trusted: refused past it, the operator's figures",
          refusals and all(body(r) == want for r in refusals),
          refusals[:2])
    # Others did not notice: a fresh anonymous client is served.
    other = ClientFrom(d, UNTRUSTED)
    check("another client is served", ok(other.cmd("protocol_version")))


def test_log():
    """The log budget by class: an anonymous client's section 8 match of
    about 9,000 bytes passes its 4,096 a minute, and its next match is
    refused; an account's 1 MiB a minute admits the same twice."""
    d = Daemon("logb", "--trusted-networks", "127.0.0.1/32",
               "--anonymous-max-client-log-rate", "4096",
               "--account-max-client-log-rate", "1048576",
               "--max-game-bytes", "8192")
    big = "new nim %s %s" % ("9" * 1500, "8" * 1500)

    def one_match(c, who):
        check(who + ": new", ok(c.cmd(big)))
        check(who + ": match", ok(c.cmd("match engine first")))
        r = c.cmd("play 1=%s" % ("1" * 1500))
        check(who + ": two moves, 9,000 bytes: byte-limit", ok(r) and
              "byte-limit max-game-bytes 8192" in r, r)
        check(who + ": a small game", ok(c.cmd("new nim 3 4 5")))

    anon = ClientFrom(d, UNTRUSTED)
    one_match(anon, "anonymous")
    r = anon.cmd("match engine first")
    check("anonymous: the next match is refused by its log budget",
          not ok(r) and body(r).startswith(
              "budget: log of the anonymous class: your games logged ")
          and "over the 4096 a minute of anonymous-max-client-log-rate: "
          "retry in " in r, r)
    r = anon.cmd("play 1=0")
    check("anonymous: the refusal started nothing (a move is the "
          "client's own, no engine reply)", ok(r) and "reply" not in r, r)
    acct = ClientFrom(d, UNTRUSTED)
    acct.cmd("register dave password1")
    check("login", ok(acct.cmd("login dave password1")))
    one_match(acct, "account")
    one_match(acct, "account, again")


sys.exit(run([test_commands, test_log]))
