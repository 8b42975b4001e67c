/*
 * live.js: /live: the list of live games (on a node: the cluster's, each
 * marked with its node), read from /api/games/live every 2 s; without
 * JavaScript the page shows the server's list as it was.
 */
"use strict";

G.every(2000, function () {
	return G.api("/api/games/live").then(function (r) {
		G.put("livegames", G.gamesTable(r.games,
		    "no game is being played", ["ply", "tc", "position",
		    "tournament", "node"]));
	});
});
