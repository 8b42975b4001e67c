/*
 * game-graph.c: tokens on a directed acyclic graph (games.md §7).  Position:
 * the node of each token; a move slides one token along one edge.  Parse
 * rejects cycles and computes every node's Grundy value and height once, in
 * reverse topological order; the graph is shared between clones.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"

/* Largest node id. */
#define GRAPH_ID_MAX	2147483647UL

/* Cycles longer than this are printed with their middle elided. */
#define GRAPH_CYCLE_SHOW 12

/* The graph with its Grundy values; read-only once built, shared by clones. */
struct graph_dag {
	atomic_size_t	 refs;		/* atomic: clones share it */
	size_t		 nv;		/* distinct nodes */
	size_t		 ne;		/* distinct edges */
	unsigned long	*ids;		/* node ids, ascending */
	size_t		*off;		/* adj[off[v]..off[v+1]) */
	size_t		*adj;		/* ascending for each node */
	unsigned	*sg;		/* Grundy value of each node */
	size_t		*height;	/* longest path to a sink */
};

/* Graph state: the shared graph and the node of each token. */
struct graph {
	struct graph_dag *dag;
	size_t		 n;
	size_t		*tok;		/* node indices (dag->ids) */
};

/* An edge while parsing: node ids, later node indices. */
struct graph_edge {
	unsigned long	 u;
	unsigned long	 v;
};

/*
 * Parses a node id of n characters at p.  On failure, returns the error class
 * and says why in why, where side ("before", "after") names the node.
 */
static enum game_err
graph_parse_id(const char *p, size_t n, const char *side, unsigned long *out,
    char *why, size_t whylen)
{
	unsigned long	 v = 0, dig;
	size_t		 i;

	if (n == 0) {
		snprintf(why, whylen, "missing the node %s '>'", side);
		return (GAME_ESYNTAX);
	}
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9') {
			snprintf(why, whylen, "the node %s '>' is not a "
			    "non-negative decimal integer", side);
			return (GAME_ESYNTAX);
		}
		dig = (unsigned long)(p[i] - '0');
		v = v > (GRAPH_ID_MAX - dig) / 10 ? GRAPH_ID_MAX + 1 :
		    v * 10 + dig;
	}
	if (v > GRAPH_ID_MAX) {
		snprintf(why, whylen, "the node %s '>' exceeds the largest "
		    "node id %lu", side, GRAPH_ID_MAX);
		return (GAME_ELIMIT);
	}
	*out = v;
	return (GAME_OK);
}

/* Parses edges=U>V,U>V,... into a new array of *np edges. */
static int
graph_parse_edges(struct graph_edge **ep, size_t *np, const char *val,
    struct game_error *err)
{
	struct graph_edge *e;
	const char	*p, *c, *gt;
	char		 why[96];
	enum game_err	 code;
	size_t		 n = 1, i, len;
	int		 q;

	for (p = val; *p != '\0'; p++)
		if (*p == ',')
			n++;
	e = xreallocarray(NULL, n, sizeof *e);
	for (p = val, i = 0; i < n; p = c + 1, i++) {
		if ((c = strchr(p, ',')) == NULL)
			c = p + strlen(p);
		len = (size_t)(c - p);
		q = len > 40 ? 40 : (int)len;
		if (len == 0) {
			free(e);
			return (game_set_error(err, GAME_ESYNTAX,
			    "graph: edge %zu is empty", i + 1));
		}
		gt = memchr(p, '>', len);
		if (gt == NULL) {
			free(e);
			return (game_set_error(err, GAME_ESYNTAX,
			    "graph: edge '%.*s': expected U>V", q, p));
		}
		if ((code = graph_parse_id(p, (size_t)(gt - p), "before",
		    &e[i].u, why, sizeof why)) != GAME_OK ||
		    (code = graph_parse_id(gt + 1, (size_t)(c - gt - 1),
		    "after", &e[i].v, why, sizeof why)) != GAME_OK) {
			free(e);
			return (game_set_error(err, code,
			    "graph: edge '%.*s': %s", q, p, why));
		}
	}
	*ep = e;
	*np = n;
	return (0);
}

/* Compares two edges by (u, v) for qsort. */
static int
graph_edge_cmp(const void *a, const void *b)
{
	const struct graph_edge *x = a, *y = b;

	if (x->u != y->u)
		return (x->u < y->u ? -1 : 1);
	return (x->v < y->v ? -1 : x->v > y->v);
}

/* Returns the index of node id, or nv if the graph has no such node. */
static size_t
graph_index(const struct graph_dag *d, unsigned long id)
{
	const unsigned long *p;

	p = bsearch(&id, d->ids, d->nv, sizeof *d->ids, game_ulong_cmp);
	return (p == NULL ? d->nv : (size_t)(p - d->ids));
}

/* Returns 1 if w is a successor of u. */
static int
graph_has_edge(const struct graph_dag *d, size_t u, size_t w)
{
	size_t	 lo = d->off[u], hi = d->off[u + 1], mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->adj[mid] == w)
			return (1);
		if (d->adj[mid] < w)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (0);
}

/*
 * Collects the distinct node ids of the edges and the tokens, maps both onto
 * node indices, folds duplicate edges and builds the successor lists.
 */
static int
graph_build(struct graph_dag *d, struct graph_edge *e, size_t ne,
    unsigned long *tokid, size_t ntok, const struct game_limits *lim,
    struct game_error *err)
{
	size_t	 i, j, n = 0;

	d->ids = xreallocarray(NULL, 2 * ne + ntok, sizeof *d->ids);
	for (i = 0; i < ne; i++) {
		d->ids[n++] = e[i].u;
		d->ids[n++] = e[i].v;
	}
	for (i = 0; i < ntok; i++)
		d->ids[n++] = tokid[i];
	qsort(d->ids, n, sizeof *d->ids, game_ulong_cmp);
	for (i = j = 0; i < n; i++)
		if (j == 0 || d->ids[j - 1] != d->ids[i])
			d->ids[j++] = d->ids[i];
	d->nv = j;
	if (d->nv > lim->max_nodes)
		return (game_set_error(err, GAME_ELIMIT,
		    "graph: %zu distinct nodes exceeds the limit of %zu",
		    d->nv, lim->max_nodes));
	for (i = 0; i < ne; i++) {
		e[i].u = graph_index(d, e[i].u);
		e[i].v = graph_index(d, e[i].v);
	}
	if (ne > 1)
		qsort(e, ne, sizeof *e, graph_edge_cmp);
	for (i = j = 0; i < ne; i++)
		if (j == 0 || graph_edge_cmp(&e[j - 1], &e[i]) != 0)
			e[j++] = e[i];
	d->ne = j;
	if (d->ne > lim->max_edges)
		return (game_set_error(err, GAME_ELIMIT,
		    "graph: %zu distinct edges exceeds the limit of %zu",
		    d->ne, lim->max_edges));
	d->off = xcalloc(d->nv + 1, sizeof *d->off);
	d->adj = xreallocarray(NULL, d->ne > 0 ? d->ne : 1, sizeof *d->adj);
	for (i = 0; i < d->ne; i++) {
		d->off[e[i].u + 1]++;
		d->adj[i] = e[i].v;
	}
	for (i = 0; i < d->nv; i++)
		d->off[i + 1] += d->off[i];
	return (0);
}

/* Fails with a message naming the cycle stack[from..top] back to its start. */
static int
graph_cycle_error(const struct graph_dag *d, const size_t *stack,
    size_t from, size_t top, struct game_error *err)
{
	struct buf	 b;
	size_t		 len = top - from + 1, lo = 0, i, k;

	/* Start at the smallest id, wherever the search entered the cycle. */
	for (i = 1; i < len; i++)
		if (stack[from + i] < stack[from + lo])
			lo = i;
	buf_init(&b);
	for (i = 0; i <= len; i++) {
		if (len > GRAPH_CYCLE_SHOW && i == 8) {
			buf_puts(&b, ">...");
			i = len - 2;
		}
		k = stack[from + (lo + i) % len];
		buf_printf(&b, "%s%lu", i ? ">" : "", d->ids[k]);
	}
	if (len > GRAPH_CYCLE_SHOW)
		game_set_error(err, GAME_ECYCLE,
		    "graph has a cycle of %zu nodes: %s", len, buf_str(&b));
	else
		game_set_error(err, GAME_ECYCLE, "graph has a cycle: %s",
		    buf_str(&b));
	buf_free(&b);
	return (-1);
}

/* Sets v's Grundy value (mex of its successors) and height. */
static void
graph_finish(struct graph_dag *d, size_t v, size_t *mark)
{
	size_t		 e, w, deg = d->off[v + 1] - d->off[v], h = 0;
	unsigned	 x;

	for (e = d->off[v]; e < d->off[v + 1]; e++) {
		w = d->adj[e];
		if (d->sg[w] <= deg)
			mark[d->sg[w]] = v + 1;
		if (d->height[w] + 1 > h)
			h = d->height[w] + 1;
	}
	for (x = 0; mark[x] == v + 1; x++)
		;
	d->sg[v] = x;
	d->height[v] = h;
}

/*
 * Computes Grundy values and heights in reverse topological order by an
 * iterative depth-first search (no recursion: paths may be 10^5 long); a
 * successor still on the stack closes a cycle.  O(V + E).
 */
static int
graph_solve(struct graph_dag *d, struct game_error *err)
{
	unsigned char	*color;		/* 0 new, 1 open, 2 done */
	size_t		*stack, *next, *mark, sp, r, v, w, j;
	int		 rv = 0;

	d->sg = xcalloc(d->nv, sizeof *d->sg);
	d->height = xcalloc(d->nv, sizeof *d->height);
	color = xcalloc(d->nv, 1);
	stack = xreallocarray(NULL, d->nv, sizeof *stack);
	next = xreallocarray(NULL, d->nv, sizeof *next);
	mark = xcalloc(d->nv + 1, sizeof *mark);
	for (r = 0; r < d->nv && rv == 0; r++) {
		if (color[r] != 0)
			continue;
		sp = 0;
		stack[sp++] = r;
		color[r] = 1;
		next[r] = d->off[r];
		while (sp > 0) {
			v = stack[sp - 1];
			if (next[v] == d->off[v + 1]) {
				graph_finish(d, v, mark);
				color[v] = 2;
				sp--;
				continue;
			}
			w = d->adj[next[v]++];
			if (color[w] == 0) {
				stack[sp++] = w;
				color[w] = 1;
				next[w] = d->off[w];
			} else if (color[w] == 1) {
				for (j = sp - 1; stack[j] != w; j--)
					;
				rv = graph_cycle_error(d, stack, j, sp - 1,
				    err);
				break;
			}
		}
	}
	free(color);
	free(stack);
	free(next);
	free(mark);
	return (rv);
}

/* Marks in on[] the nodes that lie on an edge; returns how many. */
static size_t
graph_edge_nodes(const struct graph_dag *d, unsigned char *on)
{
	size_t	 u, e, n = 0;

	for (u = 0; u < d->nv; u++)
		for (e = d->off[u]; e < d->off[u + 1]; e++)
			on[u] = on[d->adj[e]] = 1;
	for (u = 0; u < d->nv; u++)
		n += on[u];
	return (n);
}

/* Appends the cache key: the canonical edge list "U>V,U>V,...". */
static void
graph_key(void *arg, struct buf *key)
{
	const struct graph_dag *d = arg;
	size_t	 u, e;

	for (u = 0; u < d->nv; u++)
		for (e = d->off[u]; e < d->off[u + 1]; e++)
			buf_printf(key, "%s%lu>%lu", e ? "," : "", d->ids[u],
			    d->ids[d->adj[e]]);
}

/*
 * Loads Grundy values and heights from a cached blob (game-table.c): the
 * number of nodes on an edge, then (SG, height) of each in ascending id
 * order; other nodes (tokens off every edge) are sinks.  Trusts it only if
 * every node's pair is what graph_finish derives from its successors' pairs:
 * heights then drop along every edge, so the graph is acyclic and the
 * values are right.  Returns -1, with sg and height freed, otherwise.
 */
static int
graph_load(void *arg, const struct buf *blob)
{
	struct graph_dag *d = arg;
	const unsigned char *p, *end;
	unsigned char	*on;
	uint64_t	 n, sg, h;
	size_t		*mark, v;
	unsigned	 osg;
	size_t		 oh;
	int		 rv = -1;

	on = xcalloc(d->nv > 0 ? d->nv : 1, 1);
	mark = xcalloc(d->nv + 1, sizeof *mark);
	d->sg = xcalloc(d->nv, sizeof *d->sg);
	d->height = xcalloc(d->nv, sizeof *d->height);
	if (game_table_open(blob, &p, &end) != 0 ||
	    game_table_getv(&p, end, &n) != 0 ||
	    n != graph_edge_nodes(d, on))
		goto out;
	for (v = 0; v < d->nv; v++) {
		if (!on[v])
			continue;
		if (game_table_getv(&p, end, &sg) != 0 ||
		    game_table_getv(&p, end, &h) != 0 ||
		    sg > d->off[v + 1] - d->off[v] || h >= d->nv)
			goto out;
		d->sg[v] = (unsigned)sg;
		d->height[v] = (size_t)h;
	}
	if (p != end)
		goto out;
	for (v = 0; v < d->nv; v++) {
		osg = d->sg[v];
		oh = d->height[v];
		graph_finish(d, v, mark);
		if (d->sg[v] != osg || d->height[v] != oh)
			goto out;
	}
	rv = 0;
out:
	if (rv != 0) {
		free(d->sg);
		free(d->height);
		d->sg = NULL;
		d->height = NULL;
	}
	free(on);
	free(mark);
	return (rv);
}

/* Solves the graph afresh. */
static int
graph_make_build(void *arg, struct game_error *err)
{
	return (graph_solve(arg, err));
}

/* Writes, for each node on an edge by id, its Grundy value and height. */
static void
graph_make_save(void *arg, struct buf *blob, struct buf *meta)
{
	const struct graph_dag *d = arg;
	unsigned char	*on;
	size_t		 v, n;

	on = xcalloc(d->nv, 1);
	n = graph_edge_nodes(d, on);
	game_table_putv(blob, n);
	for (v = 0; v < d->nv; v++)
		if (on[v]) {
			game_table_putv(blob, d->sg[v]);
			game_table_putv(blob, d->height[v]);
		}
	free(on);
	buf_printf(meta, "nodes=%zu edges=%zu", n, d->ne);
}

static const struct game_table_ops graph_make_ops = {
	.kind = "graph",
	.key = graph_key,
	.load = graph_load,
	.build = graph_make_build,
	.save = graph_make_save,
};

/*
 * Solves the graph: from the cache when it holds a sound table for these
 * edges, else by graph_solve (and then stored).
 */
static int
graph_solve_cached(struct graph_dag *d, const struct game_limits *lim,
    struct game_error *err)
{
	if (d->ne == 0)
		return (graph_solve(d, err));
	return (game_table_cached(lim->tables, &graph_make_ops, d, err));
}

/* Drops one reference to a graph, freeing it with the last. */
static void
graph_dag_unref(struct graph_dag *d)
{
	if (d == NULL || atomic_fetch_sub(&d->refs, 1) != 1)
		return;
	free(d->ids);
	free(d->off);
	free(d->adj);
	free(d->sg);
	free(d->height);
	free(d);
}

/* Parses the tokens: at least one, each a node id. */
static int
graph_parse_tokens(unsigned long **tp, size_t *np, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	char		 what[64];
	unsigned long	*t;
	size_t		 i, n = (size_t)argc;

	if (argc <= 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "missing position: give the node of at least one token"));
	if (n > lim->max_piles)
		return (game_set_error(err, GAME_ELIMIT,
		    "%zu tokens exceeds the limit of %zu", n, lim->max_piles));
	t = xreallocarray(NULL, n, sizeof *t);
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof what, "token %zu", i + 1);
		if (game_parse_ulong(&t[i], argv[i], what, 0, GRAPH_ID_MAX,
		    err) != 0) {
			free(t);
			return (-1);
		}
	}
	*tp = t;
	*np = n;
	return (0);
}

/* Parses graph [edges=U>V,...] NODE... */
static int
graph_parse(void **stp, int argc, char **argv, const struct game_limits *lim,
    struct game_error *err)
{
	struct game_key	 keys[] = { { "edges", NULL } };
	struct graph_edge *e = NULL;
	struct graph_dag *d;
	struct graph	*st;
	unsigned long	*tokid = NULL;
	size_t		 ne = 0, ntok = 0, i;
	int		 pos, rv = -1;

	if (game_parse_keys("graph", argc, argv, keys, 1, &pos, err) != 0)
		return (-1);
	if (keys[0].val != NULL &&
	    graph_parse_edges(&e, &ne, keys[0].val, err) != 0)
		return (-1);
	if (graph_parse_tokens(&tokid, &ntok, argc - pos, argv + pos, lim,
	    err) != 0) {
		free(e);
		return (-1);
	}
	d = xcalloc(1, sizeof *d);
	atomic_init(&d->refs, 1);
	if (graph_build(d, e, ne, tokid, ntok, lim, err) != 0 ||
	    graph_solve_cached(d, lim, err) != 0) {
		graph_dag_unref(d);
		goto out;
	}
	st = xcalloc(1, sizeof *st);
	st->dag = d;
	st->n = ntok;
	st->tok = xreallocarray(NULL, ntok, sizeof *st->tok);
	for (i = 0; i < ntok; i++)
		st->tok[i] = graph_index(d, tokid[i]);
	*stp = st;
	rv = 0;
out:
	free(e);
	free(tokid);
	return (rv);
}

/* Returns a copy sharing the graph. */
static void *
graph_clone(const void *p)
{
	const struct graph *st = p;
	struct graph	*c = xcalloc(1, sizeof *c);

	atomic_fetch_add(&st->dag->refs, 1);
	c->dag = st->dag;
	c->n = st->n;
	c->tok = xreallocarray(NULL, st->n, sizeof *c->tok);
	memcpy(c->tok, st->tok, st->n * sizeof *c->tok);
	return (c);
}

/* Frees the state and drops its reference to the graph. */
static void
graph_free(void *p)
{
	struct graph	*st = p;

	graph_dag_unref(st->dag);
	free(st->tok);
	free(st);
}

/* Prints graph [edges=U>V,...] NODE... with edges sorted by (u, v). */
static void
graph_print(const void *p, struct buf *b)
{
	const struct graph *st = p;
	const struct graph_dag *d = st->dag;
	size_t		 u, e, i;

	buf_puts(b, "graph ");
	if (d->ne > 0) {
		buf_puts(b, "edges=");
		for (u = 0; u < d->nv; u++)
			for (e = d->off[u]; e < d->off[u + 1]; e++)
				buf_printf(b, "%s%lu>%lu", e ? "," : "",
				    d->ids[u], d->ids[d->adj[e]]);
		buf_putc(b, ' ');
	}
	for (i = 0; i < st->n; i++)
		buf_printf(b, "%s%lu", i ? " " : "", d->ids[st->tok[i]]);
}

/* Checks a move: token i slides along an edge to node v. */
static int
graph_check(const void *p, const struct game_move *m, struct game_error *err)
{
	const struct graph *st = p;
	const struct graph_dag *d = st->dag;
	const struct game_change *c = &m->ch[0];
	unsigned long	 u;

	if (m->n != 1)
		return (game_set_error(err, GAME_EILLEGAL,
		    "a move moves exactly one token, this one changes %zu",
		    m->n));
	if (c->idx < 1 || c->idx > st->n)
		return (game_set_error(err, GAME_EILLEGAL,
		    "token %zu out of range: %zu token%s", c->idx, st->n,
		    st->n == 1 ? "" : "s"));
	u = d->ids[st->tok[c->idx - 1]];
	if (!mpz_fits_ulong_p(c->val) || mpz_cmp_ui(c->val, GRAPH_ID_MAX) > 0)
		return (game_set_error(err, GAME_EILLEGAL,
		    "no edge %lu>N: node ids are at most %lu", u,
		    GRAPH_ID_MAX));
	if (!graph_has_edge(d, st->tok[c->idx - 1],
	    graph_index(d, mpz_get_ui(c->val))))
		return (game_set_error(err, GAME_EILLEGAL, "no edge %lu>%lu",
		    u, mpz_get_ui(c->val)));
	return (0);
}

/* Applies a checked move. */
static void
graph_apply(void *p, const struct game_move *m)
{
	struct graph	*st = p;

	st->tok[m->ch[0].idx - 1] = graph_index(st->dag,
	    mpz_get_ui(m->ch[0].val));
}

/* Sets back to the move that undoes m: the token back to its node's id. */
static int
graph_inverse(const void *p, const struct game_move *m,
    struct game_move *back)
{
	const struct graph *st = p;
	size_t		 i = m->ch[0].idx;

	back->n = 0;
	game_move_add_ui(back, m->ch[0].comp, i, st->dag->ids[st->tok[i - 1]]);
	return (0);
}

/* Returns 1 when every token sits on a sink. */
static int
graph_terminal(const void *p)
{
	const struct graph *st = p;
	const struct graph_dag *d = st->dag;
	size_t		 i;

	for (i = 0; i < st->n; i++)
		if (d->off[st->tok[i]] != d->off[st->tok[i] + 1])
			return (0);
	return (1);
}

/* Returns the Grundy value of token i's node. */
static unsigned long
graph_part_sg(const void *p, size_t i)
{
	const struct graph *st = p;

	return (st->dag->sg[st->tok[i]]);
}

/* Sets g to the XOR of the tokens' Grundy values. */
static int
graph_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct graph *st = p;

	(void)err;
	mpz_set_ui(g, game_partsum_xor(st, st->n, graph_part_sg));
	return (0);
}

/* Appends every move of token i to a successor w with SG(w) = want. */
static void
graph_part_to(const void *p, size_t i, unsigned long want,
    struct game_moveset *ms)
{
	const struct graph *st = p;
	const struct graph_dag *d = st->dag;
	size_t		 e, u = st->tok[i];

	for (e = d->off[u]; e < d->off[u + 1]; e++)
		if (d->sg[d->adj[e]] == want)
			game_move_add_ui(game_moveset_add(ms), 0, i + 1,
			    d->ids[d->adj[e]]);
}

/* Appends every move (token i to w) with SG(w) = SG(node_i) ^ X ^ target. */
static int
graph_to_grundy(const void *p, const mpz_t target, struct game_moveset *ms,
    struct game_error *err)
{
	const struct graph *st = p;

	(void)err;
	game_partsum_to_grundy(st, st->n, graph_part_sg, graph_part_to, target,
	    ms);
	return (0);
}

/*
 * Appends the engine's fallback moves: every move to a node of the greatest
 * height, which keeps the game longest.
 */
static void
graph_policy(const void *p, struct game_moveset *ms)
{
	const struct graph *st = p;
	const struct graph_dag *d = st->dag;
	size_t		 i, e, u, best = 0;
	int		 any = 0;

	for (i = 0; i < st->n; i++) {
		u = st->tok[i];
		for (e = d->off[u]; e < d->off[u + 1]; e++)
			if (!any || d->height[d->adj[e]] > best) {
				best = d->height[d->adj[e]];
				any = 1;
			}
	}
	for (i = 0; i < st->n && any; i++) {
		u = st->tok[i];
		for (e = d->off[u]; e < d->off[u + 1]; e++)
			if (d->height[d->adj[e]] == best)
				game_move_add_ui(game_moveset_add(ms), 0,
				    i + 1, d->ids[d->adj[e]]);
	}
}

/* Appends "node SG" for the first count nodes on an edge, by id. */
static int
graph_table(const void *p, unsigned long count, struct buf *out,
    struct game_error *err)
{
	const struct graph *st = p;
	const struct graph_dag *d = st->dag;
	unsigned char	*on;
	unsigned long	 n = 0;
	size_t		 v;

	(void)err;
	on = xcalloc(d->nv > 0 ? d->nv : 1, 1);
	graph_edge_nodes(d, on);
	for (v = 0; v < d->nv && n < count; v++)
		if (on[v]) {
			buf_printf(out, "%lu %u\n", d->ids[v], d->sg[v]);
			n++;
		}
	free(on);
	return (0);
}

const struct game_family game_graph = {
	.name = "graph",
	.flags = GAME_F_HEAVY_PARSE,
	.usage = "graph [edges=U>V,...] NODE...",
	.summary = "tokens on a DAG: slide one token along an edge",
	.parse = graph_parse,
	.clone = graph_clone,
	.free = graph_free,
	.print = graph_print,
	.check = graph_check,
	.apply = graph_apply,
	.inverse = graph_inverse,
	.terminal = graph_terminal,
	.grundy = graph_grundy,
	.to_grundy = graph_to_grundy,
	.policy = graph_policy,
	.table = graph_table,
};
