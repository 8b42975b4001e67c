#!/usr/bin/env python3
"""sharedrules.py: the exact refusals of the rules that one helper now
serves for several commands (issue 10, the copies): a game's size for
networked play (lobby_spec_fits: seek, challenge, tournament create), a
tournament's lookup by name (lobby_tour_named: pause, resume, show,
standings, crosstable; lobby_tour_live: add, withdraw, cancel) and a
player's name (league_player_ok: tournament create and add, pairstats), a
results filter's argument (export_filter_arg: export, pairstats).
argv: BUILDDIR SRCDIR."""
from e2e import *

TOO_BIG = "nim " + "1 " * 2100     # 4 + 2 * 2100 bytes with the separators
TOO_BIG_WHY = "game too large for networked play: 4204 bytes (limit 4096)"
BAD_NAME = "bad player name: 1..32 characters of A-Z a-z 0-9 _ - ."


def refuses(c, line, why, name=None):
    """Sends line; it must be refused with exactly why."""
    r = c.cmd(line)
    check(name or line[:60], not ok(r) and body(r) == why, r)


def with_accounts(name):
    """A daemon whose admin is root, with the accounts alice and bob;
    returns it and root's connection."""
    d = Daemon(name, "--admins", "root")
    root = login(d, "root")
    login(d, "alice")
    login(d, "bob")
    return d, root


def test_game_size():
    d, root = with_accounts("gamesize")
    anon = Client(d)
    refuses(anon, "seek opponent=engine " + TOO_BIG, TOO_BIG_WHY,
            "seek: a game over 4096 bytes")
    refuses(login(d, "alice", register=False), "challenge bob " + TOO_BIG,
            TOO_BIG_WHY, "challenge: a game over 4096 bytes")
    refuses(root, "tournament create big roundrobin players=alice,bob " +
            TOO_BIG, TOO_BIG_WHY, "tournament create: a game over 4096 bytes")
    # At the limit exactly: 4 + 2 * 2046 = 4096 bytes is accepted.
    accepted(anon, "seek opponent=engine nim " + "1 " * 2046,
             "seek: a game of 4096 bytes", "game ")
    d.stop()


def test_tournament_lookup():
    d, root = with_accounts("tourlookup")
    for line in ("tournament pause nope", "tournament resume nope",
                 "tournament show nope", "standings nope",
                 "crosstable nope"):
        refuses(root, line, "no tournament nope")
    for line in ("tournament add nope carol", "tournament withdraw nope bob",
                 "tournament cancel nope"):
        refuses(root, line, "no running tournament nope")
    accepted(root, "tournament create t1 roundrobin players=alice,bob nim 3",
             "create t1", "t1 games 2")
    accepted(root, "tournament pause t1", "pause t1")
    refuses(root, "tournament pause t1", "tournament t1 is paused")
    # A paused tournament is live for add, withdraw and cancel.
    accepted(root, "tournament add t1 engine", "add engine to a paused one")
    accepted(root, "tournament cancel t1", "cancel a paused one")
    refuses(root, "tournament resume t1", "tournament t1 is cancelled")
    for line in ("tournament add t1 carol", "tournament withdraw t1 bob",
                 "tournament cancel t1"):
        refuses(root, line, "no running tournament t1")
    accepted(root, "tournament show t1", "show a cancelled one", " t1\n")
    d.stop()


def test_player_names():
    d, root = with_accounts("playernames")
    refuses(root, "tournament create t1 roundrobin players=alice,b@d nim 3",
            BAD_NAME)
    accepted(root, "tournament create t1 roundrobin players=alice,engine "
             "nim 3", "create with engine", "t1 games 2")
    refuses(root, "tournament add t1 b@d", BAD_NAME)
    refuses(root, "tournament add t1 -", BAD_NAME)
    accepted(root, "tournament add t1 bob", "add bob")
    refuses(root, "tournament add t1 engine",
            "engine is a player of t1 already")
    accepted(root, "pairstats engine alice", "pairstats with engine",
             "players engine alice\n")
    refuses(root, "pairstats b@d alice", "bad player name b@d: an account "
            "name (1..32 of A-Z a-z 0-9 _ - .) or engine")
    d.stop()


def test_filters():
    """export_filter_arg: one refusal for an argument with no known key,
    with or without "="."""
    d, root = with_accounts("filters")
    why = ("unknown argument %s: expected tournament=NAME, since=TIME or "
           "until=TIME")
    for arg in ("nope", "nope=1", "tournament", "since", "x" * 50):
        refuses(root, "export standings " + arg, why % arg[:40])
        refuses(root, "pairstats alice bob " + arg, why % arg[:40])
    refuses(root, "export games tournament=nope", "no tournament nope")
    refuses(root, "export games since=2020", "bad time 2020: expected "
            "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC)")
    accepted(root, "export games tournament=-", "tournament=- is none",
             "id,family,")
    accepted(root, "export games since=2020-01-01", "since a date",
             "id,family,")
    d.stop()


if __name__ == "__main__":
    sys.exit(run([test_game_size, test_tournament_lookup,
                  test_player_names, test_filters]))
