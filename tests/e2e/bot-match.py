#!/usr/bin/env python3
"""bot-match.py: plays contrib/bots/bot-random.py against `grundy engine`.

Usage: bot-match.py GRUNDY BOT-RANDOM

For several start positions of every family (both players moving first in
turn, several seeds), the two programs alternate genmove and each move is
relayed to the other with play, with clock tokens, as grundyd's player
role sends them.  A third `grundy engine`, the referee, checks every move
of the random bot with `legal` and follows the game; the random bot must
answer `resign` exactly when the referee says the game is over.  Exits 1
on the first illegal or malformed move.
"""

import subprocess
import sys

GAMES = [
    "nim 3 4 5",
    "nim misere=1 1 2 3",
    "bash m=3 7 5",
    "wythoff 5 8",
    "wythoff t=2 6 9",
    "wythoff K=2 t=3 9 12",
    "wythoff K=3 t=1 7 11",
    "staircase 3 0 2 4",
    "staircase 0 0 5",
    "subtraction S=1,3,4 9 7",
    "subtraction S=2,5 4 1 8",
    "klnim k=1 l=2 turn=1 4 5",
    "klnim k=2 l=1 turn=2 3 6",
    "klnim k=3 l=3 turn=1 5 2",
    "graph edges=0>1,0>2,1>2,2>3,1>3 0 0 1",
    "graph edges=7>3,3>1,7>1 7",
    "graph 5",
    "sum nim 2 3 + bash m=2 4 + wythoff 3 4 + staircase 1 2 + "
    "subtraction S=2,3 6 + klnim k=2 l=2 turn=1 5 + graph edges=1>2,2>3 1",
    "sum wythoff K=2 t=3 6 5 + klnim k=1 l=1 turn=2 3",
]
SEEDS = 3
MAX_PLIES = 10000


class Program:
    """A GTP program on pipes; ask() sends one command, returns the answer."""

    def __init__(self, argv, name):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.next_id = 1

    def ask(self, cmd):
        cid = self.next_id
        self.next_id += 1
        self.p.stdin.write("%d %s\n" % (cid, cmd))
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                fail("%s: no answer to '%s'" % (self.name, cmd))
            line = line.rstrip("\n")
            if line == "":
                break
            lines.append(line)
        head = lines[0] if lines else ""
        want = "=%d" % cid
        if head.split(" ", 1)[0] != want:
            fail("%s: '%s' answered %r" % (self.name, cmd, lines))
        body = [head[len(want) + 1:]] + lines[1:]
        return "\n".join(body).strip()

    def close(self):
        self.ask("quit")
        self.p.stdin.close()
        if self.p.wait(timeout=30) != 0:
            fail("%s: exit status %d" % (self.name, self.p.returncode))


def fail(msg):
    sys.stderr.write("FAIL %s\n" % msg)
    sys.exit(1)


def play_game(game, rnd, eng, ref, random_first):
    """Plays one game; returns the number of plies."""
    for prog in (rnd, eng, ref):
        prog.ask("new " + game)
    turn_random = random_first
    clock = [60000, 60000]
    for ply in range(MAX_PLIES):
        over = "over" in ref.ask("show").split("\n")
        mover, other = (rnd, eng) if turn_random else (eng, rnd)
        times = "time1=%d time2=%d" % (clock[0], clock[1])
        if over:
            # Whoever is to move, the random bot must see no move.
            move = rnd.ask("genmove " + times)
            if move != "resign":
                fail("%s: %s played %r in a finished game"
                     % (game, rnd.name, move))
            break
        move = mover.ask("genmove " + times)
        if move == "resign":
            fail("%s: %s resigned with moves left (ply %d)"
                 % (game, mover.name, ply))
        verdict = ref.ask("legal " + move)
        if verdict != "true":
            fail("%s: %s played %r: %s (position: %s)"
                 % (game, mover.name, move, verdict, ref.ask("show")))
        ref.ask("play " + move)
        other.ask("play %s %s" % (move, times))
        clock[ply % 2] -= 1
        turn_random = not turn_random
    else:
        fail("%s: no end after %d plies" % (game, MAX_PLIES))
    for prog in (rnd, eng):
        prog.ask("gameover %s no-legal-move" %
                 ("first" if (ply % 2 == 1) else "second"))
    return ply


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: bot-match.py GRUNDY BOT-RANDOM\n")
        return 2
    grundy, random_bot = sys.argv[1], sys.argv[2]
    games = plies = 0
    for seed in range(SEEDS):
        rnd = Program([sys.executable, random_bot, "--seed", str(seed)],
                      "bot-random")
        eng = Program([grundy, "engine"], "grundy engine")
        ref = Program([grundy, "engine"], "referee")
        for i, game in enumerate(GAMES):
            plies += play_game(game, rnd, eng, ref, (i + seed) % 2 == 0)
            games += 1
        # The random bot against itself, too: both sides random.
        rnd2 = Program([sys.executable, random_bot, "--seed",
                        str(100 + seed)], "bot-random-2")
        for game in GAMES:
            plies += play_game(game, rnd, rnd2, ref, True)
            games += 1
        for prog in (rnd, rnd2, eng, ref):
            prog.close()
    print("bot-match: %d games, %d plies, every move legal" % (games, plies))
    return 0


if __name__ == "__main__":
    sys.exit(main())
