/*
 * game.js: /game/ID, a live or finished game: the position drawn, the
 * moves with their optimality marks and thinking times (with their CPU
 * time and peak memory where the record has them), both clocks, the
 * result and its reason.  Any ply can be stepped to (buttons, arrow keys, a click on a
 * move).  A live game follows its feed (Server-Sent Events,
 * /api/games/ID/feed): moves appear as they are made, the clock of the
 * player to move counts down, and the end reloads the game's record.
 */
"use strict";

var S = {
	id: G.pathArg(),
	game: null,		/* the game summary */
	refused: [],		/* its refused moves */
	live: null,		/* the live game, while the lobby referees it */
	moves: [],		/* {ply, player, move, position, mark, time_ms} */
	pos: [],		/* parsed positions: pos[k] after k moves */
	view: 0,		/* the ply shown */
	clock: null,		/* {t: [ms1, ms2], at: Date.now(), run: 0|1|2} */
	feed: null
};

function live() {
	return S.game !== null && S.game.status === "live";
}

/* The clocks of a finished game, from the time control and the time each
 * move took (a live game's come from the server). */
function clocksFromMoves() {
	var tc = S.game.tc, t;
	if (!tc)
		return null;
	t = [tc.base_ms, tc.base_ms];
	S.moves.forEach(function (m) {
		var i = m.player === 2 ? 1 : 0;
		t[i] = Math.max(0, t[i] - (m.time_ms || 0)) + tc.inc_ms;
	});
	return t;
}

/* Both seats' time left as of now, the seat to move running. */
function setClock(ms, run) {
	S.clock = ms ? {t: ms.slice(), at: Date.now(), run: run} : null;
}

function renderClocks() {
	var c = S.clock, i, ms, el;
	for (i = 0; i < 2; i++) {
		el = document.getElementById("clock" + (i + 1));
		document.getElementById("seat" + (i + 1)).className = "seat" +
		    (c && c.run === i + 1 ? " tomove" : "");
		if (!c) {
			G.put(el, S.game && !S.game.tc ? "no clock" : "");
			continue;
		}
		ms = c.t[i];
		if (c.run === i + 1)
			ms -= Date.now() - c.at;
		ms = Math.max(ms, 0);
		G.put(el, G.clock(ms));
		el.className = "clock" + (ms < 10000 ? " low" : "");
	}
}

function renderPosition() {
	var n = S.moves.length, k = S.view, txt;
	G.put("position", G.drawGame(S.pos[k], k === 0 ? S.game.start :
	    S.moves[k - 1].position));
	txt = ["ply " + k + " of " + n];
	if (k > 0)
		txt.push(": player " + S.moves[k - 1].player + " played ",
		    G.spec(S.moves[k - 1].move, 80));
	G.put("ply", txt);
	Array.prototype.forEach.call(document.querySelectorAll(
	    "#moves tbody tr[data-ply]"), function (tr) {
		tr.classList.toggle("current",
		    +tr.getAttribute("data-ply") === k);
	});
}

function moveRow(m) {
	var tr = G.el("tr", {"data-ply": m.ply, "data-mark": m.mark || null},
	    G.el("td", {class: "n"}, String(m.ply)),
	    G.el("td", {}, G.playerLink(m.player === 1 ? S.game.player1 :
	    S.game.player2)),
	    G.el("td", {class: "move"}, G.spec(m.move, 80)),
	    G.el("td", {}, m.mark ? G.markEl(m.mark) : ""),
	    G.el("td", {class: "n"}, typeof m.time_ms === "number" ?
	    (m.time_ms / 1000).toFixed(1) + " s" : "", cost(m)));
	tr.addEventListener("click", function () { step(m.ply); });
	return tr;
}

/* What a move cost where it was measured (a record of grundy match's:
 * wall_us, cpu_us, peak_bytes; grundyd's games have none): "" if not. */
function cost(m) {
	var t = [];
	if (typeof m.wall_us !== "number")
		return "";
	if (S.game.tc && S.game.tc.clock === "cpu")
		t.push("wall " + (m.wall_us / 1e6).toFixed(2) + " s");
	else if (typeof m.cpu_us === "number")
		t.push("CPU " + (m.cpu_us / 1e6).toFixed(2) + " s");
	if (typeof m.peak_bytes === "number")
		t.push((m.peak_bytes / 1048576).toFixed(1) + " MiB");
	return t.length ? G.el("span", {class: "cost"}, " · " + t.join(" · "))
	    : "";
}

function refusedRow(r) {
	return G.el("tr", {class: "refused"},
	    G.el("td", {class: "n"}, String(r.ply)),
	    G.el("td", {}, "player " + r.player),
	    G.el("td", {class: "move", colspan: 3}, "refused: ",
	    JSON.stringify(String(r.move)), " ", r.reason || ""));
}

function renderMoves() {
	var rows = [], refused = S.refused.slice();
	S.moves.forEach(function (m) {
		while (refused.length && refused[0].ply <= m.ply)
			rows.push(refusedRow(refused.shift()));
		rows.push(moveRow(m));
	});
	refused.forEach(function (r) { rows.push(refusedRow(r)); });
	G.put(document.querySelector("#moves tbody"), rows);
}

function renderHead() {
	var g = S.game;
	G.put("title", "Game " + g.id);
	document.title = "Game " + g.id + " · Grundy";
	G.put("spec", G.spec(g.start, 400));
	G.put("state", g.status);
	document.getElementById("state").className = "tag" +
	    (live() ? " live" : "");
	G.put("meta", [" ", G.tc(g.tc), g.rated ? " · rated" : " · unrated",
	    g.tournament ? [" · tournament ", G.tourLink(g.tournament)] :
	    null, g.started ? " · started " + G.time(g.started) : null]);
	G.put("name1", G.playerLink(g.player1), " (moves first)");
	G.put("name2", G.playerLink(g.player2));
	G.put("result", live() ? "" : [G.result(g),
	    g.detail ? ": " + g.detail : ""]);
}

/* Rebuilds everything from the game's JSON (/api/games/ID). */
function render(j) {
	var follow = S.view >= S.moves.length;
	S.game = j.game;
	S.refused = j.refused || [];
	S.moves = (j.moves || []).slice();
	S.pos = [G.parseGame(S.game.start)];
	S.moves.forEach(function (m) {
		S.pos.push(G.parseGame(m.position) ||
		    G.applyMove(S.pos[S.pos.length - 1], m.move));
	});
	if (follow || S.view > S.moves.length)
		S.view = S.moves.length;
	renderHead();
	renderMoves();
	renderPosition();
	if (j.live)
		setClock(j.live.clock_ms, j.live.to_move);
	else
		setClock(clocksFromMoves(), 0);
	renderClocks();
}

function step(k) {
	S.view = Math.max(0, Math.min(S.moves.length, k));
	renderPosition();
}

/* A move from the feed: appended once, in ply order (the feed's id is the
 * ply: a resumed feed repeats nothing, and the record's moves that the
 * page has already are skipped). */
function onMove(d) {
	if (d.ply !== S.moves.length + 1)
		return;
	var follow = S.view === S.moves.length;
	S.moves.push(d);
	S.pos.push(G.parseGame(d.position) ||
	    G.applyMove(S.pos[S.pos.length - 1], d.move));
	if (follow)
		S.view = S.moves.length;
	document.querySelector("#moves tbody").appendChild(moveRow(d));
	if (d.clock_ms)
		setClock(d.clock_ms, d.ply % 2 === 0 ? 1 : 2);
	renderPosition();
	renderClocks();
}

/* Reads the game's record and shows it; follows it if it is live.  A
 * failure (a game so new that the log has not written it yet, a server
 * busy) is shown and retried every 2 s. */
function load() {
	G.api("/api/games/" + encodeURIComponent(S.id)).then(function (j) {
		G.status("");
		render(j);
		if (live() && !S.feed)
			follow();
	}, function (e) {
		G.status(e.message);
		setTimeout(load, 2000);
	});
}

/* Follows the live game's feed until its end, then reads the record
 * again (its result, and the marks of every move). */
function follow() {
	S.feed = new EventSource("/api/games/" + encodeURIComponent(S.id) +
	    "/feed");
	S.feed.addEventListener("game", function (e) {
		var d = JSON.parse(e.data);
		if (d.live)
			setClock(d.live.clock_ms, d.live.to_move);
	});
	S.feed.addEventListener("move", function (e) {
		onMove(JSON.parse(e.data));
	});
	S.feed.addEventListener("end", function () {
		S.feed.close();
		S.feed = null;
		load();
	});
	/* A feed refused for good (over a limit, say): read the record again
	 * in 2 s, which follows a new feed if the game is still live. */
	S.feed.onerror = function () {
		if (this.readyState !== EventSource.CLOSED || S.feed !== this)
			return;
		S.feed = null;
		setTimeout(load, 2000);
	};
}

document.getElementById("first").onclick = function () { step(0); };
document.getElementById("prev").onclick = function () { step(S.view - 1); };
document.getElementById("next").onclick = function () { step(S.view + 1); };
document.getElementById("last").onclick = function () {
	step(S.moves.length);
};
document.addEventListener("keydown", function (e) {
	if (e.key === "ArrowLeft")
		step(S.view - 1);
	else if (e.key === "ArrowRight")
		step(S.view + 1);
});
setInterval(function () {
	if (S.clock && S.clock.run)
		renderClocks();
}, 100);
load();
