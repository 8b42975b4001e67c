/*
 * chart.js: the two charts of the pages, drawn as SVG by the page: a line
 * (a rating's history) and bars (a histogram).
 */
"use strict";

/* A line through points [{x: number, y: number, label: text}], with the
 * y range and the first and last x labelled.  Empty: a note. */
G.lineChart = function (points, opts) {
	opts = opts || {};
	var W = opts.width || 560, H = opts.height || 220, L = 48, B = 28,
	    T = 10, R = 12;
	if (!points.length)
		return G.el("p", {class: "empty"}, opts.empty || "no data");
	var ys = points.map(function (p) { return p.y; }),
	    lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
	if (hi - lo < 20) {
		lo -= 10;
		hi += 10;
	}
	var x0 = points[0].x, x1 = points[points.length - 1].x;
	function X(x) {
		return L + (x1 === x0 ? (W - L - R) / 2 :
		    (x - x0) / (x1 - x0) * (W - L - R));
	}
	function Y(y) {
		return T + (hi - y) / (hi - lo) * (H - T - B);
	}
	var parts = [
		G.svg("line", {x1: L, y1: T, x2: L, y2: H - B, class: "axisline"}),
		G.svg("line", {x1: L, y1: H - B, x2: W - R, y2: H - B,
		    class: "axisline"}),
		G.svg("text", {x: L - 4, y: Y(hi) + 4, class: "ylabel"},
		    String(Math.round(hi))),
		G.svg("text", {x: L - 4, y: Y(lo) + 4, class: "ylabel"},
		    String(Math.round(lo))),
		G.svg("text", {x: L, y: H - 8, class: "xlabel"},
		    points[0].label || String(x0)),
		G.svg("text", {x: W - R, y: H - 8, class: "xlabel end"},
		    points[points.length - 1].label || String(x1))
	];
	if (opts.base !== undefined && opts.base > lo && opts.base < hi)
		parts.push(G.svg("line", {x1: L, x2: W - R, y1: Y(opts.base),
		    y2: Y(opts.base), class: "baseline"}));
	parts.push(G.svg("polyline", {class: "line", points: points.map(
	    function (p) { return X(p.x) + "," + Y(p.y); }).join(" ")}));
	points.forEach(function (p) {
		parts.push(G.svg("circle", {cx: X(p.x), cy: Y(p.y), r: 2.5,
		    class: "dot"}, G.svg("title", {}, (p.label || p.x) + ": " +
		    p.y)));
	});
	return G.svg("svg", {class: "chart line", width: W, height: H,
	    role: "img"}, parts);
};

/* Bars [{label: text, value: number}], each with its count above it. */
G.barChart = function (bars, opts) {
	opts = opts || {};
	var W = opts.width || 560, H = opts.height || 200, B = 28, T = 16,
	    n = bars.length, bw = (W - 20) / Math.max(n, 1), parts = [],
	    max = Math.max.apply(null, bars.map(function (b) {
		    return b.value;
	    }).concat([1]));
	bars.forEach(function (b, i) {
		var h = b.value / max * (H - T - B), x = 10 + i * bw;
		parts.push(G.svg("rect", {x: x + 4, y: H - B - h,
		    width: bw - 8, height: h, class: "bar"},
		    G.svg("title", {}, b.label + ": " + b.value)));
		parts.push(G.svg("text", {x: x + bw / 2, y: H - B - h - 4,
		    class: "barvalue"}, String(b.value)));
		parts.push(G.svg("text", {x: x + bw / 2, y: H - 10,
		    class: "barlabel"}, b.label));
	});
	parts.push(G.svg("line", {x1: 10, x2: W - 10, y1: H - B, y2: H - B,
	    class: "axisline"}));
	return G.svg("svg", {class: "chart bars", width: W, height: H,
	    role: "img"}, parts);
};
