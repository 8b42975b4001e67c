#!/usr/bin/env python3
"""sandbox.py: end-to-end tests of the sandbox of `grundy match --sandbox`
(issue 27 §1, §5): hostile player programs (tests/sandbox/hostile, in C,
and tests/sandbox/hostile.py) play a round robin against two well-behaved
ones (contrib/bots/bot-random.py) and each loses exactly its own games,
with its reason (memory-limit, process-limit, forbidden-syscall,
output-limit, timeout), in the output file and in records that grundy
verify accepts; the good engines' game between themselves and their
counters are untouched, nothing they hold is seen or written, and no
process of the run outlives it.  The same snooping and orphaned programs
without --sandbox show that the checks can fail.  test_hosted plays the
whole suite under `grundy host` (sandboxed `grundy bot`s) on a real
grundyd: each hostile bot loses its game with its reason in the server's
record, the spinner is frozen off its turn.

Skips (TAP) when bwrap cannot make its namespaces on this machine; the
memory and process limits are checked where a cgroup holds them (grundy
match says which) and skipped where they fall back to rlimits.

Usage: sandbox.py BUILDDIR SRCDIR (TAP on stdout, through tests/py-run.sh).
"""
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time

from e2e import *

RANDOM = os.path.join(SRC, "contrib", "bots", "bot-random.py")
HOSTILE_C = os.path.join(BUILD, "tests", "sandbox", "hostile")
HOSTILE_PY = os.path.join(SRC, "tests", "sandbox", "hostile.py")
LIMITS = "mem=128M,procs=32,files=64,fsize=4M,scratch=8M,stderr=64K"
STDERR_CAP = 64 * 1024
GOOD = os.path.join(TMP, "good")
GOOD2 = os.path.join(TMP, "good2")
BAD = os.path.join(TMP, "bad")
HOSTILE = os.path.join(BAD, "hostile")     # its copy in its directory
RESULTS = os.path.join(TMP, "results")
STATE = {"mode": None, "skip": None}
LOSSES = ("memory-limit", "process-limit", "forbidden-syscall",
          "output-limit", "timeout")


def setup():
    """The engines' directories: each its own, with a secret beside it;
    under root a sandbox runs as a user of its own, who must reach them."""
    os.chmod(TMP, 0o755)
    for d, secret in ((GOOD, "good-secret"), (GOOD2, "good2-secret")):
        os.makedirs(d, exist_ok=True)
        shutil.copy(RANDOM, d)
        with open(os.path.join(d, "secret.txt"), "w") as f:
            f.write(secret + "\n")
    os.makedirs(BAD, exist_ok=True)
    shutil.copy(HOSTILE_C, BAD)
    shutil.copy(HOSTILE_PY, BAD)
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "earlier.json"), "w") as f:
        f.write('{"results": "of an earlier round"}\n')


def engines(bad_argv, sandbox=True):
    """--engine words: two good engines and the hostile one (bad)."""
    words = []
    for name, d in (("good", GOOD), ("good2", GOOD2)):
        words += ["--engine", "cmd=python3", "arg=bot-random.py",
                  "dir=" + d, "name=" + name]
    words += ["--engine", "cmd=" + bad_argv[0], "dir=" + BAD, "name=bad"]
    words += ["arg=" + a for a in bad_argv[1:]]
    return words + (["--sandbox", "--sandbox-limits", LIMITS]
                    if sandbox else [])


def survivors():
    """Processes whose command line names the hostile programs of TMP."""
    left = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().decode(errors="replace")
            with open("/proc/%s/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if BAD in cmd and state != "Z":
            left.append((int(pid), cmd.replace("\0", " ")))
    return left


def play(name, bad_argv, sandbox=True, tc="5000+100"):
    """Runs the round robin (6 games, 3 at once); returns (rc, out,
    err, games by pairing)."""
    out = os.path.join(TMP, name + ".json")
    rec = os.path.join(TMP, "rec-" + name)
    p = subprocess.run([GRUNDY, "match", "--game", "nim 5 6 7", "--games", "6",
                        "--concurrency", "3", "--tc", tc, "--seed", "5",
                        "--quiet", "--out", out, "--records", rec] +
                       engines(bad_argv, sandbox),
                       capture_output=True, timeout=300)
    err = p.stderr.decode(errors="replace")
    if "Sanitizer" in err or "runtime error:" in err:
        check("no sanitizer report", False, err[-2000:])
    d = None
    if os.path.exists(out):
        with open(out) as f:
            d = json.load(f)
    return p.returncode, p.stdout.decode(errors="replace"), err, d, rec


def counters(d, name):
    return [e for e in d["engines"] if e["name"] == name][0]


def tampered(rec, want):
    """grundy verify refuses a limit's result with a detail, or without a
    winner."""
    for f in sorted(os.listdir(rec)):
        text = open(os.path.join(rec, f)).read()
        if "\nresult first %s\n" % want in text or \
                "\nresult second %s\n" % want in text:
            break
    else:
        check("a record ends %s" % want, False)
        return
    line = [l for l in text.splitlines() if l.startswith("result ")][0]
    for edit, why in ((line + " killed by signal 9", "has no detail"),
                      ("result - " + want, "has a winner")):
        path = os.path.join(TMP, "tampered.grec")
        with open(path, "w") as fh:
            fh.write(text.replace(line + "\n", edit + "\n"))
        v = subprocess.run([GRUNDY, "verify", path], capture_output=True,
                           text=True)
        check("grundy verify refuses '%s'" % edit,
              v.returncode == 1 and why in v.stdout + v.stderr,
              v.stdout + v.stderr)


def judged(name, bad_argv, want, tc="5000+100", extra=None):
    """One hostile program under the sandbox: each of its games lost with
    reason want, the good engines' games and counters untouched, every
    record verified, no process left."""
    rc, so, se, d, rec = play(name, bad_argv, tc=tc)
    if not check("exit 0 and an output file", rc == 0 and d is not None,
                 "rc %d\n%s" % (rc, se[-1500:])):
        return None
    bad_games = [g for g in d["games"] if "bad" in (g["first"],
                                                    g["second"])]
    good_games = [g for g in d["games"] if "bad" not in (g["first"],
                                                         g["second"])]
    check("6 games played", len(d["games"]) == 6, d["games"])
    if want is not None:
        check("bad lost every game with %s" % want,
              len(bad_games) == 4 and all(
                  g["reason"] == want and g["result"] ==
                  ("second" if g["first"] == "bad" else "first")
                  for g in bad_games), bad_games)
        c = counters(d, "bad")
        n = c["timeouts"] if want == "timeout" else c["limits"]
        check("bad's counter says 4", n == 4, c)
    check("good against good2 played out on the board",
          len(good_games) == 2 and all(
              g["reason"] in ("no-legal-move", "last-token-taken")
              for g in good_games), good_games)
    for g in ("good", "good2"):
        c = counters(d, g)
        check("%s has no crash, timeout or limit" % g,
              c["crashes"] == 0 and c["timeouts"] == 0 and
              c["limits"] == 0 and c["illegal"] == 0, c)
    bad = []
    for f in sorted(os.listdir(rec)):
        v = subprocess.run([GRUNDY, "verify", os.path.join(rec, f)],
                           capture_output=True, text=True)
        if v.returncode != 0:
            bad.append((f, v.stdout + v.stderr))
    check("grundy verify accepts all 6 records",
          len(os.listdir(rec)) == 6 and not bad, bad)
    if want is not None and want != "timeout":
        tampered(rec, want)
    check("no process of the run is left", wait_for(
        lambda: not survivors(), timeout=WAIT), survivors())
    if extra is not None:
        extra(so, se, d)
    return d


def test_available():
    """The sandbox runs here (else every test skips), and says how its
    limits are held."""
    setup()
    if shutil.which("bwrap") is None:
        STATE["skip"] = "bwrap is not installed"
    else:
        rc, so, se, d, rec = play("probe", [HOSTILE, "good"])
        if "cannot run here" in se:
            STATE["skip"] = "bwrap cannot make its namespaces here: " + \
                se.strip().splitlines()[-1][:200]
        else:
            for line in se.splitlines():
                if line.startswith("match: sandbox: "):
                    STATE["mode"] = line.split("limits by ", 1)[-1]
            check("good programs play 6 games in the sandbox",
                  rc == 0 and d is not None and len(d["games"]) == 6,
                  se[-1500:])
            check("grundy match says how the limits are held",
                  STATE["mode"] is not None, se[-500:])
    if STATE["skip"]:
        skip("the sandbox runs", STATE["skip"])
    else:
        note("limits held by: %s" % STATE["mode"])


def skipping(what):
    if STATE["skip"]:
        skip(what, STATE["skip"])
        return True
    return False


def cgroup_holds(kind):
    """Whether a cgroup holds the memory or process limit here."""
    m = STATE["mode"] or ""
    return m.startswith("cgroup") and kind not in m


def test_snoop():
    """A Python program reads the other engines' directories, the results,
    /etc/shadow and home, and writes outside its scratch: it sees nothing
    and writes nothing; without the sandbox it would have."""
    if skipping("snoop"):
        return
    outside = [os.path.join(TMP, "pwned"), os.path.join(BAD, "pwned"),
               os.path.join(RESULTS, "pwned")]
    argv = ["python3", "hostile.py", "snoop",
            os.path.join(GOOD, "secret.txt"), GOOD, GOOD2, RESULTS,
            os.path.join(RESULTS, "earlier.json"), "/etc/shadow",
            os.path.expanduser("~"), "--write"] + outside

    def saw_nothing(so, se, d):
        lines = [l for l in se.splitlines() if l.startswith("hostile: ")]
        # A write under TMP lands in its own scratch /tmp (where bwrap
        # made the path to its directory), never on the host: below.
        check("it saw nothing",
              any(l.startswith("hostile: saw 0,") for l in lines),
              "\n".join(lines))
        check("no secret reached its stderr",
              "good-secret" not in se and "good2-secret" not in se and
              "earlier round" not in se, se[-800:])
        check("nothing written outside its scratch",
              not any(os.path.exists(p) for p in outside), outside)
    judged("snoop", argv, None, extra=saw_nothing)
    # The same program, trusted: it reads and writes all of it.
    rc, so, se, d, rec = play("snoop-trusted", argv, sandbox=False)
    check("without --sandbox it reads the secret and writes outside",
          "good-secret" in se and "wrote 3" in se, se[-800:])
    for p in outside:
        if os.path.exists(p):
            os.unlink(p)


def test_net():
    """TCP to a loopback port (Python) and to an outside address (C): the
    seccomp filter kills the program (forbidden-syscall); the listener
    never sees a connection."""
    if skipping("net"):
        return
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(8)
    ls.setblocking(False)
    port = ls.getsockname()[1]
    judged("net-loopback", ["python3", "hostile.py", "net", "127.0.0.1",
                            str(port)], "forbidden-syscall")
    try:
        ls.accept()
        got = True
    except BlockingIOError:
        got = False
    check("the loopback listener got no connection", not got)
    ls.close()
    judged("net-outside", [HOSTILE, "net", "192.0.2.1", "80"],
           "forbidden-syscall")


def test_ptrace():
    """ptrace of another process: forbidden-syscall."""
    if skipping("ptrace"):
        return
    judged("ptrace", [HOSTILE, "ptrace"], "forbidden-syscall")


def test_forkbomb():
    """A fork bomb and a thread bomb: process-limit (pids cgroup)."""
    if skipping("fork bomb"):
        return
    want = "process-limit" if cgroup_holds("processes") else None
    for mode in ("forkbomb", "threadbomb"):
        judged(mode, [HOSTILE, mode], want)
    if want is None:
        skip("process-limit told", "no pids cgroup here: RLIMIT_NPROC "
             "refuses the forks and nothing tells the referee")


def test_alloc():
    """10 GB allocated and touched: memory-limit (memory cgroup)."""
    if skipping("10 GB"):
        return
    want = "memory-limit" if cgroup_holds("memory") else None
    judged("alloc", [HOSTILE, "alloc"], want)
    if want is None:
        skip("memory-limit told", "no memory cgroup here: RLIMIT_AS "
             "refuses the allocation inside the program")


def test_output():
    """A file filling its scratch past fsize, and 1 GB to stderr:
    output-limit; grundy's stderr gets at most the cap."""
    if skipping("output"):
        return
    judged("fill", [HOSTILE, "fill"], "output-limit")

    def capped(so, se, d):
        starts = counters(d, "bad")["starts"]
        check("at most the cap of its stderr per start was passed on",
              0 < se.count("e" * 64) and
              se.count("e") <= (STDERR_CAP + 100) * starts,
              "%d bytes of e, %d starts" % (se.count("e"), starts))
    judged("stderr", [HOSTILE, "stderr"], "output-limit", extra=capped)


def test_sleep():
    """A program that sleeps for ever instead of moving: timeout."""
    if skipping("sleep"):
        return
    judged("sleep", ["python3", "hostile.py", "sleep"], "timeout",
           tc="2500+0")


def test_orphan():
    """A grandchild left running in its own session after the game: gone
    when grundy match ends under --sandbox.  Without it, whether it
    survives depends on the machine: the tree that measures each move's
    cost (issue 27 §4) is killed with the engine, which takes the orphan
    along where that tree is a cgroup, not where it is a process group
    (the test kills what is left)."""
    if skipping("orphan"):
        return
    judged("orphan", [HOSTILE, "orphan"], None)
    rc, so, se, d, rec = play("orphan-trusted", [HOSTILE, "orphan"],
                              sandbox=False)
    left = survivors()
    note("without --sandbox, left: %r" % (left,))
    for pid, _ in left:
        try:
            os.kill(pid, 9)
        except OSError:
            pass


def test_engines_file():
    """"sandbox": true in the engines file sandboxes that engine alone,
    without --sandbox; false, or no key, runs it as it is."""
    if skipping("engines file"):
        return
    conf = os.path.join(TMP, "engines.json")
    with open(conf, "w") as f:
        json.dump([{"name": "good", "cmd": "python3",
                    "args": ["bot-random.py"], "dir": GOOD,
                    "sandbox": False},
                   {"name": "bad", "cmd": HOSTILE, "args": ["ptrace"],
                    "dir": BAD, "sandbox": True}], f)
    out = os.path.join(TMP, "conf.json")
    p = subprocess.run([GRUNDY, "match", "--engines", conf, "--engine",
                        "conf=good", "--engine", "conf=bad", "--game",
                        "nim 5 6 7", "--games", "2", "--quiet", "--out",
                        out], capture_output=True, text=True, timeout=300)
    check("exit 0, the sandbox said", p.returncode == 0 and
          "match: sandbox: " in p.stderr, p.stderr[-800:])
    with open(out) as f:
        d = json.load(f)
    check("bad lost both games with forbidden-syscall",
          [g["reason"] for g in d["games"]] == ["forbidden-syscall"] * 2,
          d["games"])
    with open(conf, "w") as f:
        json.dump([{"name": "good", "cmd": "x", "sandbox": "yes"}], f)
    p = subprocess.run([GRUNDY, "match", "--engines", conf, "--engine",
                        "conf=good", "--engine", "conf=good", "--game",
                        "nim 5"], capture_output=True, text=True)
    check("\"sandbox\": \"yes\" is refused", p.returncode == 2 and
          "must be true or false" in p.stderr, p.stderr)


def bot_case(d, n, bad_argv, want):
    """One hostile program under grundy bot --sandbox, paired with a good
    bot's sandboxed program: its grundy bot ends naming want (exit 1), the
    game is the good bot's, the daemon and the good bot go on."""
    seek = ["--sandbox", "--sandbox-limits", LIMITS, "--seek",
            "nim 5 6 7 tc=8000", "--games", "1"]
    gname, bname = "good%d" % n, "bad%d" % n
    good = start_bot(d, gname, [os.path.join(GOOD, "bot-random.py")], seek)
    bad = start_bot(d, bname, bad_argv, seek)
    check("%s: both bots log in" % want, bots_logged_in([gname, bname]),
          bot_log(bname)[-800:])
    check("%s: the hostile bot's grundy bot ends" % want, wait_for(
        lambda: bad.poll() is not None, timeout=60), bot_log(bname))
    check("%s: it exits 1 naming %s" % (want, want),
          bad.returncode == 1 and want in bot_log(bname),
          bot_log(bname)[-800:])
    check("%s: the daemon still serves" % want, served(d) is not None)
    check("%s: the good bot's game is won" % want, wait_for(
        lambda: good.poll() is not None, timeout=90) and
        good.returncode == 0, bot_log(gname)[-800:])
    good.kill()
    good.wait()
    check("%s: no process of the bots is left" % want, wait_for(
        lambda: not survivors(), timeout=WAIT), survivors())


def hosted_cases(port):
    """The hostile bots of test_hosted: (name, cmd, args, reason wanted
    in the server's record or None: it plays normally, tc)."""
    snoop = ["snoop", os.path.join(GOOD, "secret.txt"), GOOD,
             GOOD2, RESULTS, os.path.join(RESULTS, "earlier.json"),
             "/etc/shadow", os.path.expanduser("~"), "--write"] + \
        OUTSIDE
    # Python scripts by their own path: the sandbox shows the program's
    # directory (grundy bot gives it no other).
    cases = [("snoop", "./hostile.py", snoop, None),
             ("netd", "./hostile.py", ["net", "127.0.0.1", str(port)],
              "forbidden-syscall"),
             ("netout", "./hostile", ["net", "192.0.2.1", "80"],
              "forbidden-syscall"),
             ("ptrace", "./hostile", ["ptrace"], "forbidden-syscall"),
             ("fill", "./hostile", ["fill"], "output-limit"),
             ("stderr", "./hostile", ["stderr"], "output-limit"),
             ("sleep", "./hostile.py", ["sleep"], "timeout"),
             ("spin", "./hostile", ["spin", "frozen"], None),
             ("spinp", "./hostile", ["spin", "ponder"], None),  # control
             ("orphan", "./hostile", ["orphan"], None)]
    if cgroup_holds("processes"):
        cases += [("forkbomb", "./hostile", ["forkbomb"], "process-limit"),
                  ("threadbomb", "./hostile", ["threadbomb"],
                   "process-limit")]
    else:
        skip("hosted fork and thread bombs: process-limit", "no pids "
             "cgroup here: RLIMIT_NPROC refuses the forks and nothing "
             "tells grundy bot")
    if cgroup_holds("memory"):
        cases.append(("alloc", "./hostile", ["alloc"], "memory-limit"))
    else:
        skip("hosted 10 GB: memory-limit", "no memory cgroup here")
    return cases


OUTSIDE = [os.path.join(TMP, "pwned"), os.path.join(BAD, "pwned"),
           os.path.join(RESULTS, "pwned")]


def comms():
    """The names (comm) of every process."""
    names = []
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/comm" % pid) as f:
                names.append(f.read().strip())
        except OSError:
            pass
    return names


def db_rows(d, sql, args=()):
    con = sqlite3.connect(d.db)
    rows = con.execute(sql, args).fetchall()
    con.close()
    return rows


def host_log():
    return open(os.path.join(TMP, "hosted.log"), errors="replace").read()


def test_hosted():
    """The whole hostile suite under `grundy host` (issue 27): every
    hostile bot (sandboxed grundy bot) plays a well-behaved sandboxed bot
    of its own on a real grundyd and loses its game with the right reason
    in the server's record (told by its grundy bot: resign GAME_ID
    REASON), or plays normally seeing and writing nothing (snoop), or
    loses on the server's clock (sleep); the spinner is frozen off its
    turn (its off-turn CPU ~0; with "ponder" it is not); the orphan is
    gone after its game; the good bots' own game and the daemon are
    untouched; grundy host restarts the hostile bots that failed; no
    process is left."""
    if skipping("hosted"):
        return
    for p in OUTSIDE:
        if os.path.exists(p):
            os.unlink(p)
    d = Daemon("sandbox-host", "--registration", "open", "--register-rate",
               "0", "--max-queued-per-ip", "1000")
    pw = os.path.join(TMP, "host.pw")
    with open(pw, "w") as f:
        f.write("password1\n")
    cases = hosted_cases(d.port)
    bots = []

    def bot(name, cmd, args, dirname, tc, **kw):
        b = {"name": name, "account": name, "password_file": pw,
             "cmd": cmd, "args": args, "dir": dirname, "register": True,
             "seek": "nim 5 6 7 tc=%s" % tc, "games": 1, "sandbox": True,
             "sandbox_limits": LIMITS}
        b.update(kw)
        bots.append(b)
    for k, (name, cmd, args, want) in enumerate(cases):
        # A seek of its own (tc) pairs each hostile bot with its partner.
        tc = "3000+%d" % k if want == "timeout" else "60000+%d" % k
        think = ["--think-ms", "600"] if name.startswith("spin") else []
        bot("h" + name, cmd, args, BAD, tc,
            **({"ponder": True} if name == "spinp" else {}))
        bot("g" + name, "./bot-random.py", think, GOOD, tc)
    for name in ("gg1", "gg2"):
        bot(name, "./bot-random.py", [], GOOD2, "60000+99", games=2)
    path = os.path.join(TMP, "hosted.json")
    with open(path, "w") as f:
        json.dump({"server": "127.0.0.1:%d" % d.port, "bots": bots}, f)
    out = open(os.path.join(TMP, "hosted.out"), "w")
    err = open(os.path.join(TMP, "hosted.log"), "w")
    h = subprocess.Popen([GRUNDY, "host", "--restarts", "3", "--backoff-ms",
                          "500", "--status-every", "0", path], stdout=out,
                         stderr=err)
    PROCS.append(h)
    names = [c[0] for c in cases]

    def games_of(name):
        return db_rows(d, "SELECT id, player1, player2, result, reason, "
                       "detail FROM games WHERE status = 'finished' AND "
                       "(player1 = ? OR player2 = ?)", ("h" + name,
                                                        "h" + name))

    def good_done():
        return all(("grundy host: g%s: up -> done" % n) in host_log()
                   for n in names) and \
            "grundy host: gg1: up -> done" in host_log() and \
            "grundy host: gg2: up -> done" in host_log()
    check("every game is played and every good bot is done",
          wait_for(lambda: good_done() and all(games_of(n) for n in names),
                   150, 0.2), host_log()[-4000:])
    c = served(d)
    check("the daemon still serves", c is not None)
    for name, cmd, args, want in cases:
        rows = games_of(name)
        check("%s: one game" % name, len(rows) == 1, rows)
        if not rows:
            continue
        gid, p1, p2, result, reason, detail = rows[0]
        seat = 1 if p1 == "h" + name else 2
        rec = c.cmd("record %d format=file" % gid) if c else None
        text = body(rec) + "\n" if ok(rec) else ""
        res = [l for l in text.splitlines() if l.startswith("result ")]
        if want is not None:
            line = "result %s %s" % ("second" if seat == 1 else "first",
                                     want)
            check("%s: the server's record says %s, its partner won" %
                  (name, line), res == [line], (res, rows))
        else:
            check("%s: played out on the board (%s)" % (name, res),
                  len(res) == 1 and res[0].split()[2] in
                  ("no-legal-move", "last-token-taken"), (res, rows))
        rpath = os.path.join(TMP, "host-%s.grec" % name)
        with open(rpath, "w") as f:
            f.write(text)
        v = subprocess.run([GRUNDY, "verify", rpath], capture_output=True,
                           text=True)
        check("%s: grundy verify accepts the record" % name,
              v.returncode == 0, v.stdout + v.stderr)
        if want not in (None, "timeout"):
            check("%s: its grundy bot told it and grundy host restarts "
                  "it" % name, wait_for(
                      lambda: "h%s: up -> waiting: exited with status 1; "
                      "restart 1 of" % name in host_log() and
                      " lost game %d: %s\n" % (gid, want) in host_log(),
                      WAIT), host_log()[-3000:])
    gg = db_rows(d, "SELECT reason FROM games WHERE status = 'finished' "
                 "AND player1 IN ('gg1', 'gg2') AND player2 IN ('gg1', "
                 "'gg2')")
    check("the good bots' own games played out on the board",
          len(gg) == 2 and all(r[0] in ("no-legal-move",
                                        "last-token-taken")
                               for r in gg), gg)
    log = host_log()
    check("snoop saw nothing, and no secret reached the log",
          "hostile: saw 0," in log and "good-secret" not in log and
          "good2-secret" not in log and "earlier round" not in log,
          [l for l in log.splitlines() if l.startswith("hostile: ")])
    check("nothing written outside its scratch",
          not any(os.path.exists(p) for p in OUTSIDE), OUTSIDE)
    spins = {tag: int(c) / max(int(w), 1) for c, w, tag in re.findall(
        r"hostile: off-turn cpu (\d+) ms wall (\d+) ms (\w+)", log)}
    note("spinners' off-turn CPU / wall: %r" % (spins,))
    check("both spinners told their off-turn time",
          sorted(spins) == ["frozen", "ponder"], spins)
    if sorted(spins) == ["frozen", "ponder"]:
        # Frozen: only the freeze's own latency runs (a fraction of a ms
        # with a cgroup, a walk of /proc without); the ponderer spins
        # through its opponent's 600 ms of thinking a move.
        check("the frozen spinner used ~0 CPU off its turn, the ponderer "
              "did", spins["frozen"] <= 0.1 and
              spins["ponder"] > 2 * spins["frozen"], spins)
    check("the orphan's grandchild is gone after its game",
          wait_for(lambda: "sbxorphan" not in comms(), WAIT) and
          "grundy host: horphan: up -> done" in log, log[-2000:])
    check("the hostile bots are restarted, then stopped by SIGTERM",
          h.poll() is None)
    h.send_signal(signal.SIGTERM)
    try:
        h.wait(WAIT)
    except subprocess.TimeoutExpired:
        pass
    check("grundy host ends", h.returncode is not None, host_log()[-2000:])
    check("no process of the hostile bots is left (the orphan neither)",
          wait_for(lambda: not survivors(), timeout=WAIT), survivors())
    check("the daemon still serves after all", served(d) is not None)


if __name__ == "__main__":
    sys.exit(run([test_available, test_snoop, test_net, test_ptrace,
                  test_forkbomb, test_alloc, test_output, test_sleep,
                  test_orphan, test_engines_file, test_hosted]))
