/*
 * player.js: /player/NAME: rating and its history (an SVG line), the
 * optimal-move rate, a histogram of the move number at which the player
 * first threw a win in a game (SVG bars), and recent games.  Read from
 * /api/players/NAME every 5 s.
 */
"use strict";

var NAME = G.pathArg();

/* The optimal-move rate as `player NAME` prints it (PROTOCOL.md
 * §13.10): kept-win / (kept-win + threw-win) as "97.5%", rounded down,
 * "-" without a won position. */
function pct(kept, threw) {
	var t = kept + threw ? Math.floor(kept * 1000 / (kept + threw)) : -1;
	return t < 0 ? "-" : Math.floor(t / 10) + "." + t % 10 + "%";
}

/* A bucket of first throws: "1", "6-10", "21+". */
function bucket(b) {
	return b.to === null ? b.from + "+" : b.from === b.to ?
	    String(b.from) : b.from + "-" + b.to;
}

G.every(5000, function () {
	return G.api("/api/players/" + encodeURIComponent(NAME))
	    .then(function (p) {
		G.put("title", p.name);
		document.title = p.name + " · Grundy";
		G.put("rating", p.rating === null ? "unrated" :
		    p.rating + " \u00b1 " + p.rd +
		    (p.provisional ? " provisional" : ""));
		G.put("record", p.rated_games + " rated games; " + p.games +
		    " games: " + p.wins + " wins, " + p.losses + " losses");
		G.put("optimal", pct(p.optimal, p.threw_win));
		G.put("moves", p.optimal + " of " + (p.optimal + p.threw_win) +
		    " moves from a won position kept the win (" + p.moves +
		    " moves in all); " +
		    p.threw_win_games + " games with a thrown win");
		G.put("history", G.lineChart(p.rating_history.map(
		    function (h, i) {
			return {x: i, y: h.rating, label: "game " + h.game};
		    }), {empty: "no rated game yet", base: 1500}));
		/* A player who never threw a win: no chart of zeros. */
		G.put("throws", p.threw_win_games === 0 ? G.el("p",
		    {class: "empty"}, "no game thrown") :
		    G.barChart(p.first_throw.map(function (b) {
			return {label: bucket(b), value: b.games};
		    })));
		G.put("recent", G.gamesTable(p.recent, "no game yet",
		    ["result", "spec"]));
	});
});
