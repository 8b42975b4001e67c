/*
 * tournament.js: /tournament/NAME: standings, the crosstable, progress
 * and the games being played now, read from /api/tournaments/NAME every
 * 2 s.
 */
"use strict";

var NAME = G.pathArg();

/* The standings as `standings NAME` prints them (PROTOCOL.md §13.10):
 * best first, players level on every tie-break sharing a rank; then the
 * tournament's tie-breaks in its order, "-" where direct encounter was
 * not applied. */
function standingsTable(rows) {
	var tbs = rows.length > 0 ? Object.keys(rows[0].tiebreaks) : [];

	return G.table("standings", ["rank", "player", "points", "games",
	    "wins", "losses"].concat(tbs), rows.map(function (s) {
		return [String(s.rank), G.playerLink(s.name),
		    String(s.points), String(s.games), String(s.wins),
		    String(s.losses)].concat(tbs.map(function (k) {
			var v = s.tiebreaks[k];
			return v === null ? "-" : String(v);
		    }));
	    }));
}

/* A Swiss tournament's rounds: each game with its result, and the bye. */
function roundsTable(rounds) {
	if (!rounds)
		return G.el("p", {class: "empty"}, "no rounds: every pairing " +
		    "is scheduled from the start");
	if (!rounds.length)
		return G.el("p", {class: "empty"}, "no round paired yet");
	return G.table("rounds", ["round", "pairings and results", "bye"],
	    rounds.map(function (r) {
		return [String(r.round), r.games.map(function (g) {
			var res = g.result === null ? g.state :
			    g.forfeit ? (g.result === "first" ? "+\u2013" :
			    "\u2013+") : g.result === "first" ? "1\u20130" :
			    "0\u20131";
			return G.el("span", {class: "pairing"},
			    G.playerLink(g.player1), " \u2013 ",
			    G.playerLink(g.player2), " ", G.el("b", {}, res),
			    " ");
		}), r.bye === null ? "none" : G.playerLink(r.bye)];
	    }));
}

/* The round of each slot of a Swiss tournament (the games list's). */
function slotRounds(rounds) {
	var m = {};
	(rounds || []).forEach(function (r) {
		r.games.forEach(function (g) { m[g.slot] = r.round; });
	});
	return m;
}

/* Row player's points over games against each column player, as
 * `crosstable NAME` prints them. */
function crossTable(players, cross) {
	return G.table("crosstable", [""].concat(players.map(function (p, i) {
		return String(i + 1);
	})), players.map(function (a, i) {
		return [[String(i + 1) + " ", G.playerLink(a)]].concat(
		    players.map(function (b, j) {
			var c = (cross[i] || [])[j];
			if (i === j)
				return "\u2014";
			return c && c.games ? c.points + "/" + c.games : "";
		    }));
	}));
}

/* The format's options and the SPRT's state, as tournament show has them. */
function optionsText(t) {
	var o = t.options, s = o.sprt, st = t.sprt_state, v = [];

	if (o.rounds !== null)
		v.push("round " + t.paired + " of " + o.rounds);
	v.push(o.forfeit_s ? "forfeit after " + o.forfeit_s + " s" :
	    "no forfeit deadline");
	v.push(o.seed === null ? "seed hidden until the end" :
	    "seed " + o.seed);	/* a string: every digit exact */
	if (t.withdrawn.length)
		v.push("withdrawn: " + t.withdrawn.join(", "));
	if (s)
		v.push("SPRT elo0=" + s.elo0 + " elo1=" + s.elo1 + " alpha=" +
		    s.alpha + " beta=" + s.beta + ": LLR " +
		    (st.llr === null ? "\u2014" : st.llr) + " in [" + st.lower +
		    ", " + st.upper + "], " + st.pairs + " pairs, " +
		    st.verdict);
	v.push(t.playing + " playing, " + t.pending_games + " pending, " +
	    t.stopped + " stopped, " + t.forfeits + " forfeits");
	return v.join(" \u00b7 ");
}

G.every(2000, function () {
	return G.api("/api/tournaments/" + encodeURIComponent(NAME))
	    .then(function (t) {
		var pct = t.total ? Math.round(100 * t.played / t.total) : 0;
		G.put("title", "Tournament " + t.name);
		document.title = t.name + " · Grundy";
		G.put("meta", [t.format, " · ", t.status, " · ",
		    t.games_per_pair + " games per pairing · ", G.tc(t.tc),
		    t.random ? " · random starts under " : " · ",
		    G.spec(t.game, 200)]);
		G.put("options", optionsText(t));
		document.getElementById("bar").style.width = pct + "%";
		G.put("progress", "played " + t.played + " of " + t.total +
		    " games (" + pct + "%)");
		G.put("standings", standingsTable(t.standings));
		G.put("cross", crossTable(t.players, t.crosstable));
		G.put("now", G.gamesTable(t.live,
		    "no game of this tournament is being played",
		    ["ply", "position"]));
		G.put("rounds", roundsTable(t.rounds));
		var sr = slotRounds(t.rounds);
		G.put("games", G.gamesTable(t.games.filter(function (g) {
			return g.status !== "live";
		}).map(function (g) {
			g.round = sr[g.slot];
			return g;
		}), "no game has ended yet", t.rounds ? ["round", "result"] :
		    ["result"]));
	});
});
