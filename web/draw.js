/*
 * draw.js: a game position (PROTOCOL.md §2, canonical form) as a picture:
 * Nim, Bash, subtraction and K-L-Nim as rows of tokens, Wythoff as a queen
 * on a grid with the P-positions marked (numbers when the board is too
 * large), staircase as steps with coins, graph games as the graph with its
 * tokens, sums as their components.  Numbers too large to draw are shown
 * shortened with their digit count.  Moves (§3) are applied here too, so a
 * finished game can be stepped through from its start.
 */
"use strict";

/* Parses "FAMILY KEY=V ... N ..." or "sum G + G ..." into
 * {family, params: {KEY: V}, keys: [KEY...], values: [N...]} or
 * {family: "sum", comps: [...]}; null when it does not parse. */
G.parseGame = function (text) {
	var t = String(text || "").trim();
	if (t.indexOf("sum ") === 0)
		return {family: "sum", comps: t.slice(4).split(" + ")
		    .map(G.parseGame)};
	var w = t.split(/\s+/), g = {family: w[0], params: {}, keys: [],
	    values: []};
	if (!w[0] || w[0] === "digest")
		return null;
	w.slice(1).forEach(function (x) {
		var eq = x.indexOf("=");
		if (eq > 0) {
			g.params[x.slice(0, eq)] = x.slice(eq + 1);
			g.keys.push(x.slice(0, eq));
		} else {
			g.values.push(x.replace(/^0+(?=\d)/, ""));
		}
	});
	return g;
};

G.gameText = function (g) {
	if (g.family === "sum")
		return "sum " + g.comps.map(G.gameText).join(" + ");
	return [g.family].concat(g.keys.map(function (k) {
		return k + "=" + g.params[k];
	}), g.values).join(" ");
};

/* The game after MOVE ("2=1", "3=1 2=6", "3.1=0 3.2=2"): every change
 * sets one coordinate; K-L-Nim's turn flips.  Returns a new game, or null
 * when the move does not fit the game. */
G.applyMove = function (g, move) {
	if (!g)
		return null;
	var n = JSON.parse(JSON.stringify(g)), ok = true;
	String(move).trim().split(/\s+/).forEach(function (ch) {
		var m = /^(?:(\d+)\.)?(\d+)=(\d+)$/.exec(ch), c = n;
		if (!m) {
			ok = false;
			return;
		}
		if (n.family === "sum")
			c = m[1] ? n.comps[+m[1] - 1] : null;
		if (!c || c.family === "sum" || +m[2] < 1 ||
		    +m[2] > c.values.length) {
			ok = false;
			return;
		}
		c.values[+m[2] - 1] = m[3].replace(/^0+(?=\d)/, "");
	});
	if (!ok)
		return null;
	if (n.family === "klnim" && n.params.turn)
		n.params.turn = n.params.turn === "1" ? "2" : "1";
	return n;
};

/* A small number (tokens to draw one by one), or -1. */
G.small = function (s, cap) {
	return String(s).length <= 6 && +s <= cap ? +s : -1;
};

G.describeParams = function (g) {
	return g.keys.map(function (k) {
		return k + "=" + g.params[k];
	}).join(" ");
};

/* The picture of a game: a <figure> with a caption. */
G.drawGame = function (g, text) {
	if (!g)
		return G.el("figure", {class: "pos"}, G.el("figcaption", {},
		    "position: ", G.spec(text || "?")));
	if (g.family === "sum")
		return G.el("figure", {class: "pos sum"},
		    G.el("figcaption", {}, "sum of " + g.comps.length +
		    " components"),
		    g.comps.map(function (c, i) {
			    return G.el("div", {class: "comp"},
				G.el("div", {class: "comphead"}, "component " +
				(i + 1) + ": " + (c ? c.family : "?")),
				G.drawGame(c));
		    }));
	var f = {nim: G.drawPiles, bash: G.drawPiles, subtraction: G.drawPiles,
	    klnim: G.drawPiles, wythoff: G.drawWythoff,
	    staircase: G.drawStairs, graph: G.drawGraph}[g.family];
	return G.el("figure", {class: "pos " + g.family},
	    G.el("figcaption", {}, G.spec(g.family + " " + G.describeParams(g))),
	    f ? f(g) : G.el("div", {}, G.spec(G.gameText(g))));
};

/* Rows of tokens, one per pile; a pile over 40 tokens is a number; the
 * first 100 piles, then how many more there are. */
G.drawPiles = function (g) {
	var rows = g.values.slice(0, 100).map(function (v, i) {
		var n = G.small(v, 40), toks = [], k;
		for (k = 0; k < n; k++)
			toks.push(G.el("span", {class: "tok"}));
		return G.el("div", {class: "pile"},
		    G.el("span", {class: "pilename"}, "pile " + (i + 1)),
		    G.el("span", {class: "toks"}, toks),
		    G.el("span", {class: "pilecount"}, G.numEl(v)));
	});
	if (g.values.length > 100)
		rows.push(G.el("div", {class: "legend"}, "\u2026 and " +
		    (g.values.length - 100) + " more piles"));
	if (g.family === "klnim")
		rows.unshift(G.el("div", {class: "turn"}, "player " +
		    g.params.turn + " to move (player 1 may not remove " +
		    G.num(g.params.k) + ", player 2 may not remove " +
		    G.num(g.params.l) + ")"));
	return G.el("div", {class: "piles"}, rows);
};

/* The P-positions of (K,t)-Wythoff up to n on each side: P iff
 * (x div K, y div K) is a P-position of r-Wythoff, r = ceil(t/K)
 * (games.md §5), built by the mex recursion A_n = mex, B_n = A_n + r n. */
G.wythoffP = function (K, t, n) {
	var r = Math.ceil(t / K), q = Math.floor(n / K) + 1, used = {},
	    p = {}, a = 0, i, x, y;
	for (i = 0; a <= q; i++) {
		while (used[a])
			a++;
		used[a] = used[a + r * i] = true;
		p[a + "," + (a + r * i)] = p[(a + r * i) + "," + a] = true;
	}
	return function (x, y) {
		return !!p[Math.floor(x / K) + "," + Math.floor(y / K)];
	};
};

/* A queen on an (x+1) by (y+1) grid (at least 8 by 8), P-positions
 * shaded, the corner (0,0) bottom left; numbers beyond 40. */
G.drawWythoff = function (g) {
	var x = g.values[0], y = g.values[1], K = +(g.params.K || 1),
	    t = +(g.params.t || 1);
	var sx = G.small(x, 40), sy = G.small(y, 40);
	var nums = G.el("div", {class: "wynums"}, "queen at (",
	    G.numEl(x), ", ", G.numEl(y), ")");
	if (sx < 0 || sy < 0 || K > 1e6 || t > 1e6)
		return G.el("div", {}, nums);
	var n = Math.max(sx, sy, 7) + 1, c = Math.max(10, Math.min(24,
	    Math.floor(400 / n))), isP = G.wythoffP(K, t, n), cells = [],
	    i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			cells.push(G.svg("rect", {x: 20 + i * c,
			    y: (n - 1 - j) * c, width: c, height: c,
			    class: isP(i, j) ? "cell p" : "cell"}));
	for (i = 0; i < n; i += n > 16 ? 5 : 1) {
		cells.push(G.svg("text", {x: 20 + i * c + c / 2,
		    y: n * c + 12, class: "axis"}, String(i)));
		cells.push(G.svg("text", {x: 10, y: (n - 1 - i) * c + c * 0.7,
		    class: "axis"}, String(i)));
	}
	cells.push(G.svg("circle", {cx: 20 + sx * c + c / 2,
	    cy: (n - 1 - sy) * c + c / 2, r: c * 0.6, class: "queenbg"}));
	cells.push(G.svg("text", {x: 20 + sx * c + c / 2,
	    y: (n - 1 - sy) * c + c * 0.8, class: "queen",
	    "font-size": Math.max(c * 0.9, 11)}, "\u265b"));
	return G.el("div", {}, G.svg("svg", {class: "board", width: 20 + n * c,
	    height: n * c + 16, role: "img"}, cells), nums,
	    G.el("div", {class: "legend"}, "shaded: P-positions (the player " +
	    "to move loses); the queen moves left, down or diagonally " +
	    "towards (0,0)"));
};

/* Steps 1..n rising to the right, each with its coins (a number beyond
 * 12), step 0 the ground. */
G.drawStairs = function (g) {
	if (g.values.length > 40)
		return G.el("div", {class: "wynums"}, g.values.length +
		    " steps; coins: ", G.spec(g.values.join(" "), 400));
	var n = g.values.length, w = 56, h = 18, top = 20 + 9 * Math.max.apply(
	    null, g.values.map(function (v) { return G.small(v, 12); }).concat(0)),
	    H = top + n * h + 24, parts = [], i, k;
	for (i = 0; i < n; i++) {
		var v = g.values[i], sv = G.small(v, 12),
		    x = 30 + (i + 1) * w, base = H - 20 - (i + 1) * h;
		parts.push(G.svg("rect", {x: x, y: base, width: w,
		    height: (i + 1) * h, class: "step"}));
		parts.push(G.svg("text", {x: x + w / 2, y: H - 6,
		    class: "axis"}, "step " + (i + 1)));
		for (k = 0; k < sv; k++)
			parts.push(G.svg("circle", {cx: x + w / 2,
			    cy: base - 7 - k * 9, r: 4, class: "coin"}));
		if (sv < 0)
			parts.push(G.svg("text", {x: x + w / 2, y: base - 6,
			    class: "coinnum"}, G.num(v, 8)));
	}
	parts.push(G.svg("rect", {x: 30, y: H - 20, width: w,
	    height: 2, class: "ground"}));
	parts.push(G.svg("text", {x: 30 + w / 2, y: H - 6, class: "axis"},
	    "ground"));
	return G.el("div", {}, G.svg("svg", {class: "stairs", role: "img",
	    width: 30 + (n + 1) * w + 10, height: H}, parts),
	    G.el("div", {class: "wynums"}, "coins on steps 1..", String(n),
	    ": ", g.values.map(function (v, j) {
		    return [j ? ", " : "", G.numEl(v, 12)];
	    })));
};

/* Nodes of a DAG in layers by longest path from a source. */
G.graphLayout = function (edges, nodes) {
	var depth = {}, changed = true, rounds = 0;
	nodes.forEach(function (v) { depth[v] = 0; });
	while (changed && rounds++ <= nodes.length) {
		changed = false;
		edges.forEach(function (e) {
			if (depth[e[1]] < depth[e[0]] + 1) {
				depth[e[1]] = depth[e[0]] + 1;
				changed = true;
			}
		});
	}
	var cols = [], pos = {};
	nodes.forEach(function (v) {
		(cols[depth[v]] = cols[depth[v]] || []).push(v);
	});
	cols.forEach(function (col, d) {
		(col || []).forEach(function (v, i) {
			pos[v] = [40 + d * 90, 70 + i * 56];
		});
	});
	return pos;
};

/* An arrow from a to b, bent (more for a longer edge) so that an edge
 * that skips a layer does not run through the nodes in between. */
G.graphEdge = function (a, b) {
	var dx = b[0] - a[0], dy = b[1] - a[1], d = Math.sqrt(dx * dx +
	    dy * dy) || 1, bend = Math.abs(dx) > 100 || dx === 0 ?
	    Math.min(0.25 * d, 110) : 0, c = [(a[0] + b[0]) / 2 + dy / d * bend,
	    (a[1] + b[1]) / 2 - dx / d * bend];
	function off(p, r) {
		var ex = c[0] - p[0], ey = c[1] - p[1],
		    l = Math.sqrt(ex * ex + ey * ey) || 1;
		return (p[0] + ex / l * r) + "," + (p[1] + ey / l * r);
	}
	return G.svg("path", {d: "M" + off(a, 14) + " Q" + c[0] + "," + c[1] +
	    " " + off(b, 15), class: "edge", "marker-end": "url(#arrow)"});
};

/* The graph with its tokens; over 60 nodes, the tokens' nodes in words. */
G.drawGraph = function (g) {
	var edges = (g.params.edges || "").split(",").filter(Boolean)
	    .map(function (e) { return e.split(">"); }), seen = {}, nodes = [],
	    count = {};
	edges.forEach(function (e) { e.forEach(function (v) {
		if (!seen[v]) { seen[v] = true; nodes.push(v); }
	}); });
	g.values.forEach(function (v) {
		count[v] = (count[v] || 0) + 1;
		if (!seen[v]) { seen[v] = true; nodes.push(v); }
	});
	var words = G.el("div", {class: "wynums"}, "tokens on nodes ",
	    G.spec(g.values.join(", ") || "(none)", 400));
	if (nodes.length > 60)
		return G.el("div", {}, words);
	nodes.sort(function (a, b) { return a - b; });
	var pos = G.graphLayout(edges, nodes), parts = [], W = 0, H = 0;
	parts.push(G.svg("defs", {}, G.svg("marker", {id: "arrow",
	    viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7,
	    markerHeight: 7, orient: "auto"}, G.svg("path",
	    {d: "M0,0 L10,5 L0,10 z", class: "arrowhead"}))));
	edges.forEach(function (e) { parts.push(G.graphEdge(pos[e[0]],
	    pos[e[1]])); });
	nodes.forEach(function (v) {
		var p = pos[v];
		W = Math.max(W, p[0] + 60);
		H = Math.max(H, p[1] + 40);
		parts.push(G.svg("circle", {cx: p[0], cy: p[1], r: 14,
		    class: count[v] ? "node tokened" : "node"}));
		parts.push(G.svg("text", {x: p[0], y: p[1] + 4,
		    class: "nodeid"}, v));
		if (count[v])
			parts.push(G.svg("text", {x: p[0] + 16, y: p[1] - 12,
			    class: "tokcount"}, "\u25cf" + (count[v] > 1 ?
			    "\u00d7" + count[v] : "")));
	});
	return G.el("div", {}, G.svg("svg", {class: "graph", role: "img",
	    width: W, height: H}, parts), words);
};
