/*
 * index.js: the front page: the featured game, live from the TV feed
 * (Server-Sent Events, /api/tv/feed: the live game of the highest-rated
 * pairing, switching when it ends), and live games, recent results,
 * tournaments and the top ratings, read from the JSON API every 2 s (a
 * modest poll: four small requests; the lists are short).
 */
"use strict";

var TV = null;		/* {game: summary, position, ply, over: text} */

function drawTv() {
	var g = TV.game;
	G.put("tv", G.el("p", {}, G.gameLink(g.id, "game " + g.id), ": ",
	    G.playerLink(g.player1), " \u2013 ", G.playerLink(g.player2),
	    " \u00b7 ply " + TV.ply, TV.over ? " \u00b7 " + TV.over : ""),
	    G.drawGame(G.parseGame(TV.position), TV.position));
}

function followTv() {
	var es = new EventSource("/api/tv/feed");
	es.addEventListener("featured", function (e) {
		var d = JSON.parse(e.data);
		TV = {game: d.game, position: d.live ? d.live.position :
		    d.game.start, ply: d.live ? d.live.ply : 0, over: ""};
		drawTv();
	});
	es.addEventListener("move", function (e) {
		var d = JSON.parse(e.data);
		if (TV === null || d.id !== TV.game.id)
			return;
		TV.position = d.position || TV.position;
		TV.ply = d.ply;
		drawTv();
	});
	es.addEventListener("end", function (e) {
		var d = JSON.parse(e.data);
		if (TV === null || d.id !== TV.game.id)
			return;
		TV.over = G.result(d);
		drawTv();
	});
}

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
	/* A provisional rating (RD above 110) is marked "?", as lichess. */
	return G.table("ratings", ["", "player", "rating", "RD", "games"],
	    rs.map(function (r) {
		return [String(r.rank), G.playerLink(r.name),
		    r.rating + (r.provisional ? "?" : ""), String(r.rd),
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
followTv();
