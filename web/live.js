/*
 * live.js: /live: the live games, read from /api/games/live every 2 s:
 * this server's, and on a node of several those the other nodes referee
 * (each with its node); without JavaScript the page shows the server's
 * lists as they were.
 */
"use strict";

G.every(2000, function () {
	return G.api("/api/games/live").then(function (r) {
		G.put("livegames", G.gamesTable(r.games,
		    "no game is being played", ["ply", "tc", "position",
		    "tournament"]));
		if (document.getElementById("elsewhere"))
			G.put("elsewhere", G.gamesTable(r.elsewhere.map(
			    function (e) {
				var g = Object.assign({}, e.game);
				g.ply = e.ply;
				g.node = e.node === null ? "taken over" :
				    "node " + e.node;
				return g;
			    }), "no game", ["ply", "tc", "spec", "tournament",
			    "node"]));
	});
});
