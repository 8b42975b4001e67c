/*
 * index.js: the front page: live games, recent results, tournaments and
 * the top ratings, read from the JSON API every 2 s (a modest poll: four
 * small requests; the lists are short).
 */
"use strict";

function toursTable(ts) {
	if (!ts.length)
		return G.el("p", {class: "empty"}, "no tournament");
	return G.table("tours", ["name", "format", "status", "played"],
	    ts.map(function (t) {
		return [G.tourLink(t.name), t.format, t.status,
		    t.played + " of " + t.total];
	    }));
}

function ratingsTable(rs) {
	if (!rs.length)
		return G.el("p", {class: "empty"}, "no rated game yet");
	return G.table("ratings", ["", "player", "rating", "games"],
	    rs.map(function (r) {
		return [String(r.rank), G.playerLink(r.name), String(r.rating),
		    String(r.games)];
	    }));
}

G.every(2000, function () {
	return Promise.all([
		G.api("/api/games/live"),
		G.api("/api/games?limit=15"),
		G.api("/api/tournaments"),
		G.api("/api/ratings?limit=10")
	]).then(function (r) {
		G.put("livegames", G.gamesTable(r[0].games,
		    "no game is being played", ["ply", "tc", "position"]));
		G.put("results", G.gamesTable(r[1].games.filter(
		    function (g) { return g.status !== "live"; }),
		    "no game has ended yet", ["result", "spec"]));
		G.put("tours", toursTable(r[2].tournaments));
		G.put("top", ratingsTable(r[3].ratings));
	});
});
