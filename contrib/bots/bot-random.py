#!/usr/bin/env python3
"""bot-random.py: a Grundy player program that plays random legal moves.

It speaks the engine side of grundyd's player role (proto/PROTOCOL.md
section 13.2) on stdin and stdout, so
`grundy bot ... -- contrib/bots/bot-random.py` plays it on a server:

    new GAME                      set up the position (every family of section 2)
    play MOVE [time1=MS] [time2=MS]   apply the opponent's move
    genmove [time1=MS] [time2=MS]     play a random legal move, or `resign`
    gameover [RESULT REASON]      the game ended
    protocol_version, name, version, known_command, list_commands, quit

The move is drawn in two uniform steps: a pile, step, token, component
(or, for Wythoff, a kind of move) that has a move, then one of its moves.
Numbers are Python ints, so positions of any size work.  Standard library
only.  `--seed N` (or BOT_SEED=N) makes the choices reproducible;
`--think-ms MS` waits that long before each genmove answer (tests).
"""

import os
import random
import sys
import time

LINE_MAX = 1 << 20  # longest request line accepted


class BotError(Exception):
    """A request that is refused with `? MESSAGE`."""


def number(tok, what):
    """Parses a non-negative decimal integer (section 1)."""
    if not tok or not tok.isascii() or not tok.isdigit():
        raise BotError("%s '%s': not a non-negative decimal integer"
                       % (what, tok[:40]))
    return int(tok)


class Game:
    """One game of a family: coordinates that moves set, and its rules."""

    keys = ()

    def __init__(self, params, coords):
        for k in params:
            if k not in self.keys:
                raise BotError("%s: unknown key '%s'" % (self.name, k))
        self.params = params
        self.c = [number(t, "position") for t in coords]
        if not self.c:
            raise BotError("%s: missing position" % self.name)
        self.setup()

    def setup(self):
        """Checks the parameters and position."""

    def moves_of(self, i):
        """Returns a function drawing a random move of coordinate i, or None."""
        raise NotImplementedError

    def choices(self):
        """Returns the random draws for every unit that has a move."""
        return [f for f in (self.moves_of(i) for i in range(len(self.c)))
                if f is not None]

    def random_move(self, rng):
        """Returns a random legal move as [(index from 1, value)], or None."""
        ch = self.choices()
        if not ch:
            return None
        return rng.choice(ch)(rng)

    def apply(self, changes):
        """Applies a move given as [(index from 1, value)]."""
        for idx, val in changes:
            if idx < 1 or idx > len(self.c):
                raise BotError("index %d out of range" % idx)
        for idx, val in changes:
            self.c[idx - 1] = val
        self.moved()

    def moved(self):
        """Called after every move (K-L-Nim flips the turn)."""


class Nim(Game):
    name, keys = "nim", ("misere",)

    def moves_of(self, i):
        p = self.c[i]
        if p == 0:
            return None
        return lambda rng: [(i + 1, rng.randrange(p))]


class Bash(Game):
    name, keys = "bash", ("m",)

    def setup(self):
        if "m" not in self.params or self.params["m"] < 1:
            raise BotError("bash: m=M with M >= 1 is required")
        self.m = self.params["m"]

    def moves_of(self, i):
        p = self.c[i]
        if p == 0:
            return None
        return lambda rng: [(i + 1, p - rng.randint(1, min(self.m, p)))]


class Wythoff(Game):
    name, keys = "wythoff", ("K", "t")

    def setup(self):
        self.k = self.params.get("K", 1)
        self.t = self.params.get("t", 1)
        if self.k < 1 or self.t < 1:
            raise BotError("wythoff: K and t must be at least 1")
        if len(self.c) != 2:
            raise BotError("wythoff: exactly 2 piles")
        # Removals iK and jK from both piles need |iK - jK| < t, that is
        # |i - j| <= ceil(t/K) - 1 = d.
        self.d = (self.t + self.k - 1) // self.k - 1

    def choices(self):
        k, (x, y) = self.k, self.c
        a, b = x // k, y // k
        ch = []
        if a >= 1:
            ch.append(lambda rng: [(1, x - k * rng.randint(1, a))])
        if b >= 1:
            ch.append(lambda rng: [(2, y - k * rng.randint(1, b))])
        if a >= 1 and b >= 1:
            def both(rng):
                # Any i up to min(a, b + d) has a j within d of it.
                i = rng.randint(1, min(a, b + self.d))
                j = rng.randint(max(1, i - self.d), min(b, i + self.d))
                return [(1, x - k * i), (2, y - k * j)]
            ch.append(both)
        return ch


class Staircase(Game):
    name = "staircase"

    def moves_of(self, i):
        c = self.c[i]
        if c == 0:
            return None

        def move(rng):
            n = rng.randint(1, c)
            if i == 0:
                return [(1, c - n)]  # off the staircase
            return [(i + 1, c - n), (i, self.c[i - 1] + n)]
        return move


class Subtraction(Game):
    name, keys = "subtraction", ("S",)

    def setup(self):
        if "S" not in self.params:
            raise BotError("subtraction: S=s1,s2,... is required")
        self.s = sorted(set(self.params["S"]))
        if not self.s or self.s[0] < 1:
            raise BotError("subtraction: every element of S must be >= 1")

    def moves_of(self, i):
        p = self.c[i]
        ok = [s for s in self.s if s <= p]
        if not ok:
            return None
        return lambda rng: [(i + 1, p - rng.choice(ok))]


class KLNim(Game):
    name, keys = "klnim", ("k", "l", "turn")

    def setup(self):
        if "k" not in self.params or "l" not in self.params:
            raise BotError("klnim: k=K and l=L are required")
        self.k, self.l = self.params["k"], self.params["l"]
        self.turn = self.params.get("turn", 1)
        if self.k < 1 or self.l < 1 or self.turn not in (1, 2):
            raise BotError("klnim: k, l >= 1 and turn=1|2")

    def moves_of(self, i):
        p = self.c[i]
        # Player 1 may never remove exactly k, player 2 never exactly l.
        bad = self.k if self.turn == 1 else self.l
        count = p - 1 if bad <= p else p
        if count < 1:
            return None

        def move(rng):
            r = rng.randint(1, count)
            if bad <= p and r >= bad:
                r += 1
            return [(i + 1, p - r)]
        return move

    def moved(self):
        self.turn = 3 - self.turn


class Graph(Game):
    name, keys = "graph", ("edges",)

    def setup(self):
        self.succ = {}
        for u, v in self.params.get("edges", []):
            self.succ.setdefault(u, []).append(v)
        for u in self.succ:
            self.succ[u] = sorted(set(self.succ[u]))

    def moves_of(self, i):
        nxt = self.succ.get(self.c[i])
        if not nxt:
            return None
        return lambda rng: [(i + 1, rng.choice(nxt))]


FAMILIES = {g.name: g for g in (Nim, Bash, Wythoff, Staircase, Subtraction,
                                KLNim, Graph)}


def parse_value(fam, key, val):
    """Parses one KEY=VALUE parameter."""
    if fam == "subtraction" and key == "S":
        return [number(t, "S element") for t in val.split(",")]
    if fam == "graph" and key == "edges":
        edges = []
        for e in val.split(",") if val else []:
            u, sep, v = e.partition(">")
            if not sep:
                raise BotError("graph: edge '%s': expected U>V" % e[:40])
            edges.append((number(u, "node"), number(v, "node")))
        return edges
    return number(val, key)


def parse_game(toks):
    """Parses FAMILY [KEY=VALUE ...] POSITION into a Game."""
    if not toks:
        raise BotError("missing game")
    fam = toks[0]
    if fam not in FAMILIES:
        raise BotError("unknown game '%s'" % fam[:40])
    params, i = {}, 1
    while i < len(toks) and "=" in toks[i]:
        key, _, val = toks[i].partition("=")
        if key in params:
            raise BotError("%s: duplicate key '%s'" % (fam, key))
        params[key] = parse_value(fam, key, val)
        i += 1
    return FAMILIES[fam](params, toks[i:])


class Sum:
    """A disjunctive sum: a move changes one component."""

    def __init__(self, toks):
        parts, cur = [], []
        for t in toks:
            if t == "+":
                parts.append(cur)
                cur = []
            else:
                cur.append(t)
        parts.append(cur)
        self.comps = [parse_game(p) for p in parts]

    def random_move(self, rng):
        ch = [(n, c) for n, c in enumerate(self.comps) if c.choices()]
        if not ch:
            return None
        n, comp = rng.choice(ch)
        return [(n + 1, i, v) for i, v in comp.random_move(rng)]

    def apply(self, changes):
        comps = {c for c, _, _ in changes}
        if len(comps) != 1 or None in comps:
            raise BotError("a move in a sum changes one component, "
                           "with COMP. prefixes")
        n = comps.pop()
        if n < 1 or n > len(self.comps):
            raise BotError("component %d out of range" % n)
        self.comps[n - 1].apply([(i, v) for _, i, v in changes])


def parse_move(toks, in_sum):
    """Parses [COMP.]INDEX=VALUE changes (section 3)."""
    if not 1 <= len(toks) <= 2:
        raise BotError("a move is one or two INDEX=VALUE changes")
    out = []
    for t in toks:
        lhs, sep, val = t.partition("=")
        if not sep:
            raise BotError("move token '%s': expected INDEX=VALUE" % t[:40])
        comp, dot, idx = lhs.rpartition(".")
        if in_sum != bool(dot):
            raise BotError("move token '%s': a COMP. prefix is needed "
                           "exactly in a sum" % t[:40])
        ch = (number(idx, "index"), number(val, "value"))
        out.append((number(comp, "component"),) + ch if dot else ch)
    return out


def format_move(move, in_sum):
    """Prints a move in the notation of section 3."""
    if in_sum:
        return " ".join("%d.%d=%d" % ch for ch in move)
    return " ".join("%d=%d" % ch for ch in move)


def strip_clock(args):
    """Drops trailing time1=MS / time2=MS tokens after checking them."""
    seen = set()
    while args and args[-1].split("=", 1)[0] in ("time1", "time2"):
        key, _, val = args[-1].partition("=")
        if key in seen:
            raise BotError("duplicate clock token '%s'" % key)
        number(val, key)
        seen.add(key)
        args = args[:-1]
    return args


COMMANDS = ("protocol_version", "name", "version", "known_command",
            "list_commands", "quit", "new", "play", "genmove", "gameover")


class Bot:
    def __init__(self, rng):
        self.rng = rng
        self.game = None
        self.in_sum = False

    def execute(self, cmd, args):
        """Runs one command; returns (body, quit)."""
        if cmd == "protocol_version":
            return "2", False
        if cmd == "name":
            return "bot-random", False
        if cmd == "version":
            return "1", False
        if cmd == "known_command":
            return ("true" if args and args[0] in COMMANDS else "false"), False
        if cmd == "list_commands":
            return "\n".join(COMMANDS), False
        if cmd == "quit":
            return "", True
        if cmd == "gameover":
            return "", False
        if cmd == "new":
            self.in_sum = bool(args) and args[0] == "sum"
            self.game = Sum(args[1:]) if self.in_sum else parse_game(args)
            return "", False
        if cmd in ("play", "genmove") and self.game is None:
            raise BotError("no game: start one with new GAME")
        if cmd == "play":
            args = strip_clock(args)
            self.game.apply(parse_move(args, self.in_sum))
            return "", False
        if cmd == "genmove" and getattr(self, "think", 0) > 0:
            time.sleep(self.think)      # --think-ms: a slower opponent
        if cmd == "genmove":
            if strip_clock(args):
                raise BotError("usage: genmove [time1=MS] [time2=MS]")
            move = self.game.random_move(self.rng)
            if move is None:
                return "resign", False
            self.game.apply(move)
            return format_move(move, self.in_sum), False
        sys.stderr.write("bot-random: unknown command: %s\n" % cmd[:64])
        raise BotError("unknown command")


def main():
    seed = os.environ.get("BOT_SEED")
    think = 0.0
    args = sys.argv[1:]
    while args:
        if len(args) >= 2 and args[0] == "--seed":
            seed = args[1]
        elif len(args) >= 2 and args[0] == "--think-ms" and \
                args[1].isdigit():
            think = int(args[1]) / 1000.0
        else:
            sys.stderr.write("usage: bot-random.py [--seed N] "
                             "[--think-ms MS]\n")
            return 2
        args = args[2:]
    bot = Bot(random.Random(seed))
    bot.think = think
    stdin = sys.stdin.buffer
    out = sys.stdout
    while True:
        raw = stdin.readline(LINE_MAX + 1)
        if not raw:
            return 0
        too_long = len(raw) > LINE_MAX and not raw.endswith(b"\n")
        while too_long and raw and not raw.endswith(b"\n"):
            raw = stdin.readline(LINE_MAX + 1)
        line = raw.decode("utf-8", "replace") if not too_long else ""
        # GTP preprocessing: drop control characters and comments.
        line = line.split("#", 1)[0].replace("\t", " ")
        line = "".join(ch for ch in line if ch >= " " and ch != "\x7f")
        toks = line.split()
        cid = ""
        if toks and toks[0].isascii() and toks[0].isdigit():
            cid = toks.pop(0)
        if too_long:
            out.write("? line too long: the limit is %d bytes\n\n" % LINE_MAX)
            out.flush()
            continue
        if not toks:
            if cid:
                out.write("?%s missing command after id\n\n" % cid)
                out.flush()
            continue
        try:
            body, quit_ = bot.execute(toks[0], toks[1:])
            out.write("=%s%s\n\n" % (cid, " " + body if body else ""))
        except (BotError, ValueError, IndexError) as e:
            quit_ = False
            out.write("?%s %s\n\n" % (cid, e))
        out.flush()
        if quit_:
            return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(0)
