#!/usr/bin/env python3
"""hostbots.py: end-to-end test of `grundy host FILE` (issue 27 §3)
against a real grundyd: the bots of one file log in under their accounts
as `grundy bot`s and play; a bot that has played its games is done; one
whose program crashes is restarted with a backoff until its bound, then
failed; a status line per bot (CPU time, peak memory) comes on SIGUSR1
and at the end; SIGTERM stops the rest; the daemon is untouched.

Usage: hostbots.py BUILDDIR SRCDIR (TAP on stdout, through tests/py-run.sh).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys

from e2e import *

PERFECT = os.path.abspath(os.path.join(SRC, "contrib", "bots",
                                       "bot-perfect"))


def status_lines(text, when):
    """{name: {key: value}} of the last status lines of kind when."""
    out = {}
    for m in re.finditer(r"^host %s: (\S+) (.*)$" % when, text, re.M):
        kv = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(2)))
        out[m.group(1)] = kv
    return out


def test_host():
    d = Daemon("host")
    pw = os.path.join(TMP, "hb.pw")
    with open(pw, "w") as f:
        f.write("password1\n")
    seek = "nim 3 4 5 tc=20000"
    # Bot two's program runs in grundy bot's sandbox (where bwrap is):
    # a copy in a directory of its own, all the sandbox shows of it, which
    # the sandbox's user (nobody, under root) can reach.
    os.chmod(TMP, 0o755)
    two = os.path.join(TMP, "two")
    os.makedirs(two, exist_ok=True)
    shutil.copy(os.path.join(SRC, "contrib", "bots", "bot-random.py"), two)
    boxed = shutil.which("bwrap") is not None
    if not boxed:
        note("no bwrap: bot two runs without the sandbox")
    bots = [
        {"name": "one", "account": "hb1", "password_file": "hb.pw",
         "cmd": PERFECT, "register": True, "seek": seek, "games": 2},
        {"name": "two", "account": "hb2", "password_file": pw,
         "cmd": "./bot-random.py", "dir": "two", "register": True,
         "seek": seek, "games": 2, "sandbox": boxed,
         "sandbox_limits": "mem=256M,procs=32",
         "limits": {"memory_mb": 1024, "processes": 256}},
        {"name": "crasher", "account": "hb3", "password_file": pw,
         "cmd": sys.executable, "args": ["-c", "import sys; sys.exit(3)"],
         "register": True},
        {"name": "idle", "account": "hb4", "password_file": pw,
         "cmd": PERFECT, "register": True, "dir": "."},
    ]
    path = os.path.join(TMP, "hosted.json")
    with open(path, "w") as f:
        json.dump({"server": "127.0.0.1:%d" % d.port, "bots": bots}, f)
    out = open(os.path.join(TMP, "host.out"), "w")
    err = open(os.path.join(TMP, "host.log"), "w")
    env = dict(os.environ, GRUNDY=os.path.abspath(GRUNDY))
    p = subprocess.Popen([GRUNDY, "host", "--restarts", "2",
                          "--backoff-ms", "200", "--status-every", "0",
                          path], stdout=out, stderr=err, env=env)
    PROCS.append(p)

    def log():
        return open(os.path.join(TMP, "host.log"), errors="replace").read()

    def stdout():
        return open(os.path.join(TMP, "host.out"), errors="replace").read()

    check("the two seekers play their games and are done",
          wait_for(lambda: "one: up -> done" in log() and
                   "two: up -> done" in log(), 120), log()[-3000:])
    check("the crasher is restarted twice, then failed",
          wait_for(lambda: "crasher: up -> failed" in log(), 60) and
          "restart 1 of 2 in 200 ms" in log() and
          "restart 2 of 2 in 400 ms" in log(), log()[-3000:])
    check("each logged in under its account",
          all("as %s;" % a in log() for a in ("hb1", "hb2", "hb4")),
          log()[-3000:])
    n = db_count(d, "SELECT COUNT(*) FROM games WHERE status = 'finished'"
                 " AND ((player1 = 'hb1' AND player2 = 'hb2') OR "
                 "(player1 = 'hb2' AND player2 = 'hb1'))")
    check("grundyd has their two games", n == 2, n)
    check("bot two's program ran in the sandbox, the others not",
          log().count("sandbox: bwrap and seccomp") == (1 if boxed else 0),
          log()[-2000:])
    check("the idle bot is still up", p.poll() is None and
          "idle: waiting -> up" in log() and "idle: up ->" not in log(),
          log()[-3000:])
    p.send_signal(signal.SIGUSR1)
    check("SIGUSR1: a status line per bot",
          wait_for(lambda: len(status_lines(stdout(), "status")) == 4, 30),
          stdout())
    st = status_lines(stdout(), "status")
    check("their states and runs",
          st["one"]["state"] == "done" and st["one"]["runs"] == "1" and
          st["crasher"]["state"] == "failed" and
          st["crasher"]["runs"] == "3" and st["crasher"]["restarts"] == "2"
          and st["idle"]["state"] == "up", st)
    check("CPU time and peak memory of the players measured",
          float(st["one"]["cpu"].rstrip("s")) > 0 and
          float(st["two"]["peak"].rstrip("MiB")) > 0 and
          float(st["idle"]["peak"].rstrip("MiB")) > 0, st)
    check("the crasher's last end", "exited with status 1" in
          st["crasher"]["last"], st)
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(WAIT)
    except subprocess.TimeoutExpired:
        rc = None
    check("SIGTERM: it stops, exit 1 (a bot failed)", rc == 1, rc)
    end = status_lines(stdout(), "end")
    check("end: a status line per bot, idle stopped",
          len(end) == 4 and end["idle"]["state"] == "stopped", stdout())
    check("grundyd still serves", served(d) is not None)


def test_bad_file():
    path = os.path.join(TMP, "bad.json")
    with open(path, "w") as f:
        json.dump({"server": "127.0.0.1:1", "bots": [
            {"name": "x", "account": "a", "password_file": "/nonexistent",
             "cmd": "true"}]}, f)
    r = subprocess.run([GRUNDY, "host", path], capture_output=True,
                       text=True, timeout=60)
    check("a missing password file: exit 2, named", r.returncode == 2 and
          "/nonexistent" in r.stderr, r.stderr)
    with open(path, "w") as f:
        json.dump({"server": "127.0.0.1:1", "bots": [
            {"name": "x", "account": "a", "password_file": path,
             "cmd": "true", "limits": {"cpu": 1}}]}, f)
    r = subprocess.run([GRUNDY, "host", path], capture_output=True,
                       text=True, timeout=60)
    check("an unknown limit: exit 2, named", r.returncode == 2 and
          '"cpu"' in r.stderr, r.stderr)


if __name__ == "__main__":
    sys.exit(run([test_host, test_bad_file]))
