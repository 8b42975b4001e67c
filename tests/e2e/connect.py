#!/usr/bin/env python3
"""connect.py: `grundy connect` and `grundy play` as a person uses them, on
a terminal: each runs in a tmux pane of a private tmux server, keys are
typed with send-keys and the screen is read with capture-pane, polled
with a deadline (issue 13 §4).  A watched game's moves must appear without
typing; a challenge is accepted, answered move by move from the prompt and
played to the end; `grundy play` understands help, undo and analyze, and
both keep a history in ~/.grundy_history; `help` at the prompt; --raw
prints replies' bodies only (a record file `grundy verify` accepts, a CSV
from its header).  argv: BUILDDIR SRCDIR."""
import shlex
import shutil

from e2e import *

TMUX_SOCK = os.path.join(TMP, "tmux.sock")
HOME = os.path.join(TMP, "home")


class Pane:
    """A program on a tmux pane (80x50) of the test's own tmux server."""

    def __init__(self, name, argv):
        self.name = name
        os.makedirs(HOME, exist_ok=True)
        env = dict(os.environ, HOME=HOME, TERM="xterm")
        cmd = " ".join(shlex.quote(a) for a in argv)
        self.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "50",
                  "env HOME=%s %s; echo \"exit status $?\"" %
                  (shlex.quote(HOME), cmd), env=env)
        self.tmux("set-option", "-t", name, "remain-on-exit", "on")

    def tmux(self, *args, env=None):
        return subprocess.run(["tmux", "-S", TMUX_SOCK] + list(args),
                              capture_output=True, text=True, env=env,
                              timeout=WAIT).stdout

    def type(self, text):
        """Types text, then Enter."""
        self.tmux("send-keys", "-t", self.name, "-l", text)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def key(self, *keys):
        self.tmux("send-keys", "-t", self.name, *keys)

    def screen(self):
        """The pane's text, scrollback included, wrapped lines joined."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-3000", "-t",
                         self.name)

    def lines(self):
        return [l.rstrip() for l in self.screen().splitlines()]

    def wait(self, pred, timeout=WAIT):
        """Polls the screen until pred(lines) holds; returns whether it
        did before the deadline."""
        return bool(wait_for(lambda: pred(self.lines()), timeout, 0.05))

    def wait_line(self, regex, count=1, timeout=WAIT):
        """Waits until count lines match regex (re.search)."""
        return self.wait(lambda ls: sum(1 for l in ls if re.search(regex, l))
                         >= count, timeout)

    def count(self, regex):
        return sum(1 for l in self.lines() if re.search(regex, l))

    def exited(self, status=0, timeout=WAIT):
        """Waits until the program has exited with status (the pane's
        shell prints it)."""
        return self.wait_line(r"^exit status %d$" % status, 1, timeout)

    def kill(self):
        """Ends the pane; a sanitizer build's report on it is a failure."""
        text = self.screen()
        check("no sanitizer report on the screen",
              "Sanitizer" not in text and "runtime error:" not in text, text)
        self.tmux("kill-session", "-t", self.name)


def connect_pane(d, name):
    p = Pane(name, [GRUNDY, "connect", "127.0.0.1:%d" % d.port])
    check("the prompt shows", p.wait_line(r"^grundy 127\.0\.0\.1:\d+>$"),
          p.screen())
    return p


def answer_genmove(c, move):
    """Waits for c's genmove and answers it with move; returns the
    command line."""
    g = genmove_of(c, WAIT)
    if g is not None:
        c.answer(g, move)
    return g


def test_watch():
    """watch GAME: the moves and the end appear while the user types
    nothing (before issue 13 they showed only after the next command)."""
    d = Daemon("watch")
    alice, bob = login(d, "alice"), login(d, "bob")
    gid, seats, _, _ = pair(d, alice, bob, "nim 3 4 5", "tc=60000")
    p = connect_pane(d, "watch")
    p.type("watch %d" % gid)
    check("watching", p.wait_line(r"^= watching %d$" % gid), p.screen())
    # --pipe on a terminal: the same lines, as they arrive, no editing.
    pp = Pane("watchpipe", [GRUNDY, "connect", "--pipe",
                            "127.0.0.1:%d" % d.port])
    pp.type("watch %d" % gid)
    check("--pipe watching", pp.wait_line(r"^= watching %d$" % gid),
          pp.screen())
    # Typing starts but is never finished: the events must still show.
    # The line is longer than the pane is wide: it wraps onto a second
    # row, and both rows are redrawn under each event.
    typed = "whoa " + "y" * 130
    p.key("-l", typed)
    for ply, (seat, move) in enumerate([(1, "1=1"), (2, "2=0"),
                                        (1, "3=1")], 1):
        check("genmove %d answered" % ply,
              answer_genmove(seats[seat], move) is not None)
        check("move %d shows without typing" % ply,
              p.wait_line(r"^event move %d %d %d %s " % (gid, ply, seat,
                                                          re.escape(move))),
              p.screen())
    check("the half-typed line is drawn again under the events, once",
          p.wait(lambda ls: [l for l in ls if l][-1].endswith("> " + typed)
                 and sum(1 for l in ls if "whoa" in l) == 1), p.screen())
    check("--pipe shows the moves as they come",
          pp.wait_line(r"^event move %d 3 1 3=1 " % gid), pp.screen())
    r = seats[2].cmd("resign %d" % gid)
    check("resign", ok(r), r)
    check("gameover shows without typing",
          p.wait_line(r"^event gameover %d first resign" % gid), p.screen())
    check("--pipe shows the end", pp.wait_line(r"^event gameover %d " % gid),
          pp.screen())
    pp.key("C-d")
    check("--pipe ends at the end of input", pp.exited(0), pp.screen())
    pp.kill()
    p.key("C-u")
    p.type("quit")
    check("quit ends the program with status 0", p.exited(0), p.screen())
    p.kill()


def test_challenge():
    """A challenge is accepted at the prompt and played to the end: new,
    play and gameover are answered for the user, genmove shows the
    position and clocks and the typed move goes back under its id."""
    d = Daemon("challenge")
    dave = login(d, "dave")
    p = connect_pane(d, "challenge")
    p.type("register carol password1")
    check("registered", p.wait_line(r"^= registered carol$"), p.screen())
    p.type("login carol password1")
    check("logged in", p.wait_line(r"^= account carol$"), p.screen())
    p.type("ready")
    check("ready", p.wait_line(r"^=$"), p.screen())
    r = dave.cmd("challenge carol nim 3 4 5 tc=60000 seat=2 rated=0")
    check("challenge sent", ok(r), r)
    chid = body(r).split()[-1]
    check("the challenge shows without typing",
          p.wait_line(r"^event challenge %s dave " % chid), p.screen())
    p.type("accept %s" % chid)
    check("the game starts", p.wait_line(r"^event start \d+ carol dave "
                                         r"you=1 "), p.screen())
    check("genmove asks for a move",
          p.wait_line(r"^your move in game \d+ \(you are player 1\): "
                      r"position nim 3 4 5$"), p.screen())
    check("both clocks shown",
          p.wait_line(r"^clocks: player 1 \d+\.\d s \(you\), player 2 "
                      r"\d+\.\d s; "), p.screen())
    check("the prompt asks for the move",
          p.wait(lambda ls: [l for l in ls if l][-1].startswith(
              "your move (game ")), p.screen())
    # An illegal move is refused here and not sent; the clock runs on.
    p.type("9=1")
    check("an illegal move is refused locally",
          p.wait_line(r"^illegal move: index 9 out of range: the position "
                      r"has 3 piles; try again$"), p.screen())
    check("the prompt counts carol's clock down",
          p.wait(lambda ls: re.fullmatch(r"your move \(game \d+, 59 s "
                                         r"left\)>", [l for l in ls if l][-1])
                 is not None), p.screen())
    # carol: 1=1, 3=1, 3=0 against dave's 2=0, 1=0: carol wins.  The
    # second move is typed as a GTP answer under the genmove's id.
    for n, (mine, his) in enumerate([("1=1", "2=0"), ("3=1", "1=0")], 1):
        if n == 2:
            gid = [l.split()[0] for l in p.lines()
                   if re.match(r"^\d+ genmove ", l)][-1]
            p.type("=%s %s" % (gid, mine))
        else:
            p.type(mine)
        pl = dave.wait("commands", lambda x: " play " in x, WAIT)
        check("dave gets carol's move %d" % n,
              pl is not None and pl.split()[2] == mine, pl)
        check("dave's genmove", answer_genmove(dave, his) is not None)
        check("genmove %d shown" % (n + 1),
              p.wait_line(r"^your move in game \d+", n + 1), p.screen())
    check("the position followed the typed answer",
          p.wait_line(r"^your move in game \d+ \(you are player 1\): "
                      r"position nim 0 0 1$"), p.screen())
    p.type("3=0")
    g = gameover_of(dave, WAIT)
    check("dave loses", g is not None and " gameover first no-legal-move"
          in g, g)
    check("carol is told she won",
          p.wait_line(r"^game over: you win \(no-legal-move\)$"),
          p.screen())
    p.type("whoami")
    check("the prompt still answers after the game",
          p.wait_line(r"^= account carol$"), p.screen())
    check("no stray answer was refused",
          p.count("unexpected answer") == 0, p.screen())
    p.type("quit")
    check("quit ends the program with status 0", p.exited(0), p.screen())
    hist = open(os.path.join(HOME, ".grundy_history"),
                errors="replace").read()
    check("history kept", "whoami" in hist and "accept" in hist, hist)
    check("no password in the history", "password1" not in hist, hist)
    p.kill()


def test_play():
    """grundy play on a terminal: help, undo, analyze, history."""
    p = Pane("play", [GRUNDY, "play", "nim", "3", "4", "5"])
    check("asks for a move", p.wait_line(r"^your move>$"), p.screen())
    p.type("help")
    check("help lists undo and analyze",
          p.wait_line(r"^undo: ") and p.wait_line(r"^analyze: "),
          p.screen())
    p.type("analyze")
    check("analyze", p.wait_line(r"^outcome N$") and
          p.wait_line(r"^grundy 2$") and p.wait_line(r"^winning 1$"),
          p.screen())
    p.type("undo")
    check("nothing to undo yet",
          p.wait_line(r"^cannot undo: you have not moved yet$"), p.screen())
    p.type("1=1")
    check("the engine replies", p.wait_line(r"^engine plays "), p.screen())
    p.type("undo")
    check("undo takes back both moves",
          p.wait_line(r"^took back your last move and the engine's reply$")
          and p.wait_line(r"^position: nim 3 4 5$", 2), p.screen())
    n = p.count(r"^outcome N$")
    p.key("Up", "Up", "Up", "Up", "Enter")  # undo, 1=1, undo, analyze
    check("history: the arrow keys recall analyze",
          p.wait_line(r"^outcome N$", n + 1), p.screen())
    p.type("quit")
    check("quit", p.wait_line(r"^you resign: the engine wins$"), p.screen())
    check("exits 0", p.exited(0), p.screen())
    p.kill()


def gone(pid):
    """Whether process pid has exited (a zombie counts)."""
    try:
        return open("/proc/%d/stat" % pid).read().split(") ")[1][0] in "ZX"
    except (OSError, IndexError):
        return True


def test_hangup():
    """The terminal hangs up while SIGHUP is ignored (nohup): the client
    must end, not spin on a descriptor that stays readable."""
    d = Daemon("hangup", db="off")
    pidfile = os.path.join(TMP, "hangup.pid")
    p = Pane("hangup", ["sh", "-c", "trap '' HUP; echo $$ > %s; exec %s "
                        "connect 127.0.0.1:%d" % (pidfile, GRUNDY, d.port)])
    check("the prompt shows", p.wait_line(r"^grundy 127\.0\.0\.1:\d+>$"),
          p.screen())
    pid = int(open(pidfile).read())
    p.kill()
    check("the client ends when its terminal is gone",
          wait_for(lambda: gone(pid), WAIT))
    if not gone(pid):
        os.kill(pid, signal.SIGKILL)


def test_pipe_unchanged():
    """Not a terminal: plain lines, no prompt, no editing (as before)."""
    d = Daemon("pipe", db="off")
    r = subprocess.run([GRUNDY, "connect", "127.0.0.1:%d" % d.port],
                       input="protocol_version\nname\n", text=True,
                       capture_output=True, timeout=WAIT)
    check("pipe replies", r.stdout == "= 2\n\n= grundyd\n\n", repr(r.stdout))
    r = subprocess.run([GRUNDY, "play", "nim", "1"], input="help\n1=0\n",
                       text=True, capture_output=True, timeout=WAIT)
    check("play from a pipe has no prompt", "your move>" not in r.stdout and
          "game over: you win" in r.stdout, r.stdout)


def test_raw():
    """--raw: a reply's body without its framing.  `record ID
    format=file` saved so is a file `grundy verify` accepts (with --pipe
    the "= " made it fail), `export games` a CSV that starts with its
    header; a failure goes to stderr and makes the status 1."""
    d = Daemon("raw")
    alice, bob = login(d, "alice"), login(d, "bob")
    gid, seats, _, _ = pair(d, alice, bob, "nim 3 4 5", "tc=60000")
    for seat, move in [(1, "1=1"), (2, "2=0"), (1, "3=1")]:
        check("genmove answered", answer_genmove(seats[seat], move)
              is not None)
    r = seats[2].cmd("resign %d" % gid)
    check("resign", ok(r), r)
    check("the game is in the log", wait_for(
        lambda: ok(alice.cmd("record %d format=file" % gid)), WAIT))
    want = body(alice.cmd("record %d format=file" % gid)) + "\n"
    addr = "127.0.0.1:%d" % d.port
    rec = os.path.join(TMP, "raw.grec")
    for flags, good in [(["--pipe"], False), (["--raw"], True)]:
        r = subprocess.run([GRUNDY, "connect"] + flags + [addr],
                           input="record %d format=file\n" % gid,
                           text=True, capture_output=True, timeout=WAIT)
        with open(rec, "w") as f:
            f.write(r.stdout)
        v = subprocess.run([GRUNDY, "verify", rec], capture_output=True,
                           text=True, timeout=WAIT)
        check("%s: the saved record %s" % (flags[0], "verifies" if good
                                           else "has the framing"),
              (v.returncode == 0) == good and
              (r.stdout == want) == good and r.returncode == 0,
              (v.stdout, v.stderr, r.stdout[:300]))
    r = subprocess.run([GRUNDY, "connect", "--raw", addr],
                       input="export games since=2000-01-01\n"
                       "protocol_version\n", text=True,
                       capture_output=True, timeout=WAIT)
    lines = r.stdout.splitlines()
    check("export: the CSV starts with its header, then its row, then "
          "the next reply's body", r.returncode == 0 and len(lines) == 3
          and lines[0].startswith("id,family,start,") and
          lines[1].startswith("%d,nim," % gid) and lines[2] == "2",
          r.stdout)
    r = subprocess.run([GRUNDY, "connect", "--raw", addr],
                       input="no_such_command\nname\n", text=True,
                       capture_output=True, timeout=WAIT)
    check("a failure: on stderr, status 1, the rest still printed",
          r.returncode == 1 and r.stdout == "grundyd\n" and
          r.stderr == "? unknown command\n", (r.returncode, r.stdout,
                                               r.stderr))


def test_help():
    """help at the prompt explains it, then lists the server's commands
    (it was `? unknown command`)."""
    d = Daemon("help", db="off")
    p = connect_pane(d, "help")
    p.type("help")
    check("the banner points to help",
          p.count(r"^connected to .*'help' explains") == 1, p.screen())
    check("help explains the prompt",
          p.wait_line(r"PROTOCOL\.md describes every command"), p.screen())
    check("and lists the server's commands",
          p.wait_line(r"^= protocol_version$") and
          p.wait_line(r"^list_commands$") and
          p.count(r"unknown command") == 0, p.screen())
    p.kill()


if shutil.which("tmux") is None:
    skip("tmux", "tmux is not installed (./quickstart.sh installs it)")
    print("1..1")
    sys.exit(0)
try:
    rc = run([test_watch, test_challenge, test_play, test_hangup,
              test_pipe_unchanged, test_raw, test_help])
finally:
    subprocess.run(["tmux", "-S", TMUX_SOCK, "kill-server"],
                   capture_output=True)
sys.exit(rc)
