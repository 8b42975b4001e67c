#!/usr/bin/env python3
"""tjson.py: GET /api/tournaments/NAME carries what `tournament show`
shows (PROTOCOL.md §13.6, §14.3), and GET /api/tournaments the same
options: for a Swiss tournament with byes, an arena, an SPRT gauntlet and
a round-robin waiting for absent players, the text of `tournament show`
(to a player, who sees the seed only at the end) is rebuilt from the JSON
and must equal it byte for byte.  Every wait polls with a deadline."""
import http.client
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403
from httpapi import hdaemon, get  # noqa: E402

BOTS = os.path.join(SRC, "contrib", "bots")


def finished(d, name, timeout):
    """Polls the JSON until tournament name is finished."""
    def done():
        st, t = api(d, "/api/tournaments/" + name)
        return st == 200 and t["status"] == "finished"
    return wait_for(done, timeout, 0.05)


def tc_text(tc):
    return str(tc["base_ms"]) + ("+%d" % tc["inc_ms"] if tc["inc_ms"]
                                 else "")


def round_result(g):
    """A game of a round as `tournament show` writes it."""
    if g["result"] is None:
        return g["state"]
    first = g["result"] == "first"
    if g["forfeit"]:
        return "+-" if first else "-+"
    return "1-0" if first else "0-1"


def render(t):
    """`tournament show`'s body as rebuilt from the JSON object t."""
    o = t["options"]
    fl = "format " + t["format"]
    if o["rounds"] is not None:
        fl += " rounds=%d paired=%d" % (o["rounds"], t["paired"])
    out = ["tournament %d %s" % (t["id"], t["name"]), fl,
           "status " + t["status"],
           "game " + t["game"] + (" random=1" if t["random"] else ""),
           "options games-per-pair=%d tc=%s seed=%s forfeit=%d "
           "tiebreaks=%s" % (
               t["games_per_pair"], tc_text(t["tc"]),
               "hidden" if o["seed"] is None else o["seed"],
               o["forfeit_s"], o["tiebreaks"]),
           "players " + " ".join(t["players"])]
    if t["withdrawn"]:
        out.append("withdrawn " + " ".join(t["withdrawn"]))
    if t["byes"] is not None:
        out.append("byes" + "".join(" " + (b or "-") for b in t["byes"]))
    for r in t["rounds"] or []:
        out.append("round %d bye=%s" % (r["round"], r["bye"] or "-") +
                   "".join(" %s:%s=%s" % (g["player1"], g["player2"],
                                          round_result(g))
                           for g in r["games"]))
    out.append("games %d played %d playing %d pending %d stopped %d "
               "forfeits %d" % (t["total"], t["played"], t["playing"],
                                t["pending_games"], t["stopped"],
                                t["forfeits"]))
    for p in t["pending"]:
        ln = "pending %d game %d %s %s" % (p["slot"], p["game"],
                                           p["player1"], p["player2"])
        if p["first_game"]:
            ln += " waiting first-game"
        else:
            ln += " waiting %s=%s %s=%s" % (p["player1"], p["where"][0],
                                            p["player2"], p["where"][1])
        if p["forfeit_in_s"] is not None:
            ln += " forfeit-in=%d" % p["forfeit_in_s"]
        out.append(ln)
    if t["pending_more"]:
        out.append("pending-more %d" % t["pending_more"])
    s, st = o["sprt"], t["sprt_state"]
    if s is not None:
        out.append("sprt elo0=%g elo1=%g alpha=%g beta=%g lower=%.3f "
                   "upper=%.3f" % (s["elo0"], s["elo1"], s["alpha"],
                                   s["beta"], st["lower"], st["upper"]))
        ln = "sprt-state pairs=%d penta=%s" % (
            st["pairs"], ",".join(str(n) for n in st["penta"]))
        if st["llr"] is not None:
            ln += " llr=%.3f" % st["llr"]
        out.append(ln + " verdict=" + st["verdict"])
    return "\n".join(out)


def api(d, path):
    st, _, b = get(d, path)
    return st, (json.loads(b) if st == 200 else b)


def same_as_show(d, viewer, name, what):
    """Checks the JSON of tournament name against `tournament show`."""
    text = body(viewer.cmd("tournament show " + name)).strip("\n")
    st, t = api(d, "/api/tournaments/" + name)
    mine = render(t) if st == 200 else repr(t)
    check(what + ": the JSON is `tournament show`", mine == text,
          "JSON:\n%s\nshow:\n%s" % (mine, text))
    st, lst = api(d, "/api/tournaments")
    row = [x for x in lst["tournaments"] if x["name"] == name] \
        if st == 200 else []
    keys = ("id", "format", "status", "options", "played", "total")
    check(what + ": the list has the same options and counts",
          len(row) == 1 and st == 200 and
          all(row[0][k] == t[k] for k in keys), "%r\n%r" % (row, t))
    return t


def main_test():
    d = hdaemon("tjson", "--admins", "boss")
    boss = login(d, "boss")
    viewer = login(d, "viewer")
    waiting = ["away%d" % k for k in range(1, 12)]
    for n in waiting:
        login(d, n).close()
    names = ("s1", "s2", "s3", "s4", "s5")
    for n in names:
        start_bot(d, n, [os.path.join(BOTS, "bot-perfect")])
    start_bot(d, "rnd", [sys.executable, os.path.join(BOTS, "bot-random.py")])
    check("bots logged in", bots_logged_in(names + ("rnd",)))
    # Waiting: nobody of it plays.
    r = boss.cmd("tournament create wait roundrobin players=viewer," +
                 ",".join(waiting) + " tc=5000+100 nim 3 4 5")
    check("waiting round-robin created", ok(r), r)
    t = same_as_show(d, viewer, "wait", "running round-robin")
    check("50 pending listed, the rest counted, seed hidden",
          len(t["pending"]) == 50 and t["pending_more"] == 132 - 50 and
          t["options"]["seed"] is None and t["byes"] is None and
          t["sprt_state"] is None, t)
    # Nobody is ready (viewer has not said `ready`): the first 50 slots.
    check("pending: slots 0 to 49, game 1, both absent",
          [(p["slot"], p["game"], p["where"], p["first_game"])
           for p in t["pending"]] ==
          [(k, 1, ["absent", "absent"], False) for k in range(50)],
          t["pending"])
    r = boss.cmd("tournament create sw swiss players=s1,s2,s3,s4,s5 "
                 "rounds=3 pairs=1 tc=20000 seed=10496211527275241682 "
                 "random=1 nim 7 7 7")
    check("swiss created", ok(r), r)
    check("swiss finished", finished(d, "sw", 60))
    t = same_as_show(d, viewer, "sw", "swiss")
    check("swiss: three rounds of two pairs (four games) and a bye each",
          [(r["round"], r["bye"] is not None, len(r["games"]),
            all(g["state"] == "done" for g in r["games"]))
           for r in t["rounds"]] == [(k, True, 4, True) for k in (1, 2, 3)],
          t["rounds"])
    check("swiss: three byes, seed shown at the end",
          len(t["byes"]) == 3 and
          t["options"]["seed"] == "10496211527275241682" and
          t["options"]["rounds"] == 3 and t["paired"] == 3, t)
    r = boss.cmd("tournament create ar arena players=s1,s2,s3,s4,away1 "
                 "rounds=2 pairs=1 tc=20000 seed=2 random=1 nim 7 7 7")
    check("arena created", ok(r), r)
    check("arena finished", finished(d, "ar", 60))
    t = same_as_show(d, viewer, "ar", "arena")
    check("arena: 8 games", t["total"] == t["played"] == 8, t)
    r = boss.cmd("tournament create sp gauntlet players=s5,rnd games=400 "
                 "sprt=0,200,0.05,0.05 tc=20000 seed=1 random=1 nim 9 9 9")
    check("sprt gauntlet created", ok(r), r)
    check("sprt finished", finished(d, "sp", 60))
    t = same_as_show(d, viewer, "sp", "sprt gauntlet")
    st = t["sprt_state"] or {}
    check("sprt: H1, llr above 2.944, bounds",
          st.get("verdict") == "H1" and st.get("llr", 0) >= 2.944 and
          st.get("lower") == -2.944 and st.get("upper") == 2.944 and
          t["options"]["sprt"] == {"elo0": 0, "elo1": 200, "alpha": 0.05,
                                   "beta": 0.05}, t)
    d.stop()


sys.exit(run([main_test]))
