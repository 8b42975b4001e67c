/*
 * common.js: what every page of Grundy's web view shares: building the DOM
 * (always with text nodes, never HTML from data: names, game specs and
 * refused moves come from users), reading the JSON API, and formatting
 * numbers, clocks and times.  No library, no build step.
 */
"use strict";

var G = {};

/* An element: el("td", {class: "x", title: "y"}, child...).  A child is a
 * node, a string (added as text: never parsed as HTML), or null. */
G.el = function (tag, attrs) {
	var e = document.createElement(tag);
	G.fill(e, attrs, Array.prototype.slice.call(arguments, 2));
	return e;
};

/* The same for SVG. */
G.svg = function (tag, attrs) {
	var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
	G.fill(e, attrs, Array.prototype.slice.call(arguments, 2));
	return e;
};

G.fill = function (e, attrs, kids) {
	var k;
	for (k in attrs || {})
		if (attrs[k] !== null && attrs[k] !== undefined)
			e.setAttribute(k, String(attrs[k]));
	kids.forEach(function (c) { G.add(e, c); });
};

G.add = function (e, c) {
	if (c === null || c === undefined)
		return;
	if (Array.isArray(c))
		c.forEach(function (x) { G.add(e, x); });
	else if (typeof c === "object")
		e.appendChild(c);
	else
		e.appendChild(document.createTextNode(String(c)));
};

/* Replaces the children of the element with id (or the node) by kids. */
G.put = function (where) {
	var e = typeof where === "string" ? document.getElementById(where) :
	    where;
	while (e.firstChild)
		e.removeChild(e.firstChild);
	G.add(e, Array.prototype.slice.call(arguments, 1));
	return e;
};

/* The last part of the page's path, decoded: /game/42 -> "42". */
G.pathArg = function () {
	var p = location.pathname.replace(/\/+$/, "");
	return decodeURIComponent(p.slice(p.lastIndexOf("/") + 1));
};

/* GET path as JSON; rejects with the API's error text (or the status). */
G.api = function (path) {
	return fetch(path, {cache: "no-store"}).then(function (r) {
		return r.json().catch(function () { return null; })
		    .then(function (j) {
			if (r.ok && j !== null)
				return j;
			throw new Error(j && j.error ? j.error :
			    "HTTP " + r.status + " for " + path);
		});
	});
};

/* Calls fn now and every ms while the page is open (a failure is shown in
 * the element #status and retried at the next tick). */
G.every = function (ms, fn) {
	function tick() {
		Promise.resolve().then(fn).then(function () {
			G.status("");
		}, function (e) {
			G.status(String(e.message || e));
		}).then(function () { setTimeout(tick, ms); });
	}
	tick();
};

G.status = function (text) {
	var s = document.getElementById("status");
	if (s)
		G.put(s, text);
};

/* A decimal number of any size, shortened when long: the first and last
 * digits and the digit count ("12345…6789 (40 digits)"). */
G.num = function (s, max) {
	s = String(s);
	max = max || 16;
	if (s.length <= max)
		return s;
	return s.slice(0, 6) + "\u2026" + s.slice(-4) + " (" + s.length +
	    " digits)";
};

/* A game spec or position with each long number shortened (G.num), as
 * a span whose title is the whole text (when it is not too long); over max
 * characters even so, it is cut and says how long it was. */
G.spec = function (text, max) {
	var s = String(text === null || text === undefined ? "" : text),
	    t = s.replace(/\d{17,}/g, function (d) { return G.num(d); });
	max = max || 120;
	if (t.length > max)
		t = t.slice(0, max) + "\u2026 (" + s.length + " characters)";
	return G.el("span", {class: "spec", title: t === s || s.length > 4096 ?
	    null : s}, t);
};

/* A number as a DOM node: shortened, with the whole number as its title
 * when it is not too long to be one. */
G.numEl = function (s, max) {
	var t = G.num(s, max);
	return G.el("span", {class: "num", title: t === String(s) ||
	    String(s).length > 4096 ? null : String(s)}, t);
};

/* Milliseconds as a clock: "1:05.3", "-0:00.2". */
G.clock = function (ms) {
	var neg = ms < 0, t = Math.floor(Math.abs(ms) / 100);
	var tenths = t % 10, s = Math.floor(t / 10) % 60,
	    m = Math.floor(t / 600);
	return (neg ? "-" : "") + m + ":" + (s < 10 ? "0" : "") + s + "." +
	    tenths;
};

/* An ISO time as "2026-11-21 05:38:09" (UTC, as the server writes it). */
G.time = function (iso) {
	if (!iso || iso === "-")
		return "";
	return String(iso).replace("T", " ").replace(/\.\d+Z?$|Z$/, "");
};

G.gameLink = function (id, text) {
	return G.el("a", {href: "/game/" + encodeURIComponent(id)},
	    text === undefined ? "#" + id : text);
};

/* A player: an account links to its page; engine and anonymous
 * players (anon:...) do not have one. */
G.playerLink = function (name) {
	name = String(name === null || name === undefined ? "-" : name);
	if (name === "engine" || name === "-" || name.indexOf(":") >= 0)
		return G.el("span", {class: "player"}, name);
	return G.el("a", {class: "player", href: "/player/" +
	    encodeURIComponent(name)}, name);
};

G.tourLink = function (name) {
	return G.el("a", {href: "/tournament/" + encodeURIComponent(name)},
	    name);
};

/* A table: head is a list of column titles, rows a list of lists of
 * cells (each a node or text). */
G.table = function (cls, head, rows) {
	return G.el("table", {class: cls},
	    G.el("thead", {}, G.el("tr", {}, head.map(function (h) {
		return G.el("th", {}, h);
	    }))),
	    G.el("tbody", {}, rows.map(function (r) {
		return G.el("tr", {}, r.map(function (c) {
			return G.el("td", {}, c);
		}));
	    })));
};

/* A time control {base_ms, inc_ms} as "60+1 s" (null: none). */
G.tc = function (tc) {
	if (!tc)
		return "no clock";
	return tc.base_ms / 1000 + (tc.inc_ms ? "+" + tc.inc_ms / 1000 : "") +
	    " s" + (tc.clock === "cpu" ? " CPU" : "");
};

/* The columns a list of games may show: a title and a cell maker. */
G.gameCols = {
	game: ["game", function (g) { return G.gameLink(g.id); }],
	players: ["players", function (g) {
		return [G.playerLink(g.player1), " \u2013 ",
		    G.playerLink(g.player2)];
	}],
	ply: ["ply", function (g) { return String(g.ply); }],
	tc: ["tc", function (g) { return G.tc(g.tc); }],
	position: ["position", function (g) { return G.spec(g.position, 60); }],
	result: ["result", function (g) {
		return g.status === "live" ? G.el("span", {class: "live"},
		    "live") : G.result(g);
	}],
	spec: ["game spec", function (g) { return G.spec(g.start, 40); }],
	tournament: ["tournament", function (g) {
		return g.tournament ? G.tourLink(g.tournament) : "";
	}],
	round: ["round", function (g) {
		return g.round ? String(g.round) : "";
	}],
	node: ["node", function (g) {
		return g.node === undefined || g.node === null ? "" :
		    String(g.node);
	}]
};

/* A table of games (summaries or live games) with the named columns, or
 * a note when there is none. */
G.gamesTable = function (games, empty, cols) {
	if (!games.length)
		return G.el("p", {class: "empty"}, empty);
	cols = ["game", "players"].concat(cols).map(function (c) {
		return G.gameCols[c];
	});
	return G.table("games", cols.map(function (c) { return c[0]; }),
	    games.map(function (g) {
		return cols.map(function (c) { return c[1](g); });
	    }));
};

/* A game summary's result in words: "alice wins (no-legal-move)",
 * "aborted"; the seat ("first wins") when the winner has no name. */
G.result = function (g) {
	var who = g.winner || g.result;
	if (!who)
		return g.reason || g.status || "";
	return who + " wins" + (g.reason ? " (" + g.reason + ")" : "");
};

/* The mark of a move, as a symbol and words. */
G.marks = {
	"kept-win": ["\u2713", "kept a win"],
	"threw-win": ["\u2717", "threw a win"],
	"no-win": ["\u00b7", "no win existed"]
};

G.markEl = function (mark) {
	var m = G.marks[mark] || ["?", mark || "unknown"];
	return G.el("span", {class: "mark " + (mark || ""), title: m[1]},
	    m[0] + " " + m[1]);
};
