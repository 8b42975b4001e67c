/*
 * test-graph.c: tokens on a DAG against an independent brute force (a
 * memoised game-tree search over token tuples, with no Sprague-Grundy
 * theory), plus long and wide graphs, cycles and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Most nodes and tokens of a random DAG. */
#define RDAG_MAXV	12
#define RDAG_MAXK	3

/* A small random DAG: node ids and an adjacency matrix over indices. */
struct rdag {
	int		 nv;
	unsigned long	 id[RDAG_MAXV];
	char		 adj[RDAG_MAXV][RDAG_MAXV];
	int		 height[RDAG_MAXV];
};

/* Returns the next number of a fixed pseudo-random sequence. */
static unsigned long
rng_next(unsigned long long *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((unsigned long)(*s >> 33));
}

/* Returns the longest path from v to a sink (memoised in d->height). */
static int
rdag_height(struct rdag *d, int v)
{
	int	 w, h;

	if (d->height[v] >= 0)
		return (d->height[v]);
	d->height[v] = 0;
	for (w = 0; w < d->nv; w++)
		if (d->adj[v][w] && (h = rdag_height(d, w) + 1) > d->height[v])
			d->height[v] = h;
	return (d->height[v]);
}

/*
 * Builds a random DAG: nodes in a random topological order with random ids
 * (some huge, so that id order and topological order differ), edges from
 * earlier to later nodes.  Writes the edges in a shuffled order with some
 * duplicates, as "edges=U>V,..." (empty if none).
 */
static void
rdag_make(struct rdag *d, unsigned long long *s, struct buf *edges)
{
	struct tu_strs	 e;
	unsigned long	 id;
	size_t		 i, j;
	char		*t;
	int		 u, v, dup, dens;

	d->nv = 1 + (int)(rng_next(s) % RDAG_MAXV);
	dens = 15 + (int)(rng_next(s) % 60);
	for (u = 0; u < d->nv; u++) {
		do {
			id = rng_next(s) % 4 == 0 ? rng_next(s) % 2147483648UL :
			    rng_next(s) % 40;
			for (dup = 0, v = 0; v < u; v++)
				dup |= d->id[v] == id;
		} while (dup);
		d->id[u] = id;
		d->height[u] = -1;
	}
	memset(d->adj, 0, sizeof d->adj);
	tu_strs_init(&e);
	for (u = 0; u < d->nv; u++)
		for (v = u + 1; v < d->nv; v++)
			if ((int)(rng_next(s) % 100) < dens) {
				d->adj[u][v] = 1;
				tu_strs_add(&e, "%lu>%lu", d->id[u], d->id[v]);
				if (rng_next(s) % 8 == 0)
					tu_strs_add(&e, "%lu>%lu", d->id[u],
					    d->id[v]);
			}
	for (i = e.n; i > 1; i--) {
		j = rng_next(s) % i;
		t = e.v[i - 1];
		e.v[i - 1] = e.v[j];
		e.v[j] = t;
	}
	buf_reset(edges);
	for (i = 0; i < e.n; i++)
		buf_printf(edges, "%s%s", i ? "," : "edges=", e.v[i]);
	tu_strs_free(&e);
	for (u = 0; u < d->nv; u++)
		rdag_height(d, u);
}

/* Raw rules of k tokens on d: move one token along an edge. */
static int
graph_options(const int *a, int k, struct tu_opt *o, void *arg)
{
	const struct rdag *d = arg;
	int	 i, w, n = 0;

	for (i = 0; i < k; i++)
		for (w = 0; w < d->nv; w++) {
			if (!d->adj[a[i]][w])
				continue;
			memcpy(o[n].next, a, (size_t)k * sizeof *a);
			o[n].next[i] = w;
			snprintf(o[n].name, sizeof o[n].name, "%d=%lu", i + 1,
			    d->id[w]);
			n++;
		}
	return (n);
}

/* Lists the engine's policy from a: the moves to the greatest height. */
static void
policy_moves(const struct rdag *d, const int *a, int k, struct tu_strs *out)
{
	struct tu_opt	*o;
	int		 n, i, j, best = -1;

	o = malloc(TU_MAXOPT * sizeof *o);
	n = graph_options(a, k, o, (void *)d);
	for (i = 0; i < n; i++)
		for (j = 0; j < k; j++)
			if (o[i].next[j] != a[j] && d->height[o[i].next[j]] >
			    best)
				best = d->height[o[i].next[j]];
	for (i = 0; i < n; i++)
		for (j = 0; j < k; j++)
			if (o[i].next[j] != a[j] && d->height[o[i].next[j]] ==
			    best)
				tu_strs_add(out, "%s", o[i].name);
	free(o);
	tu_strs_sort(out);
}

/* Compares to_grundy(t) (t >= 0) or the policy (t < 0) with the brute. */
static void
check_moves(const struct game *g, struct tu_brute *br, const int *a, int t,
    const char *ctx)
{
	struct game_moveset ms;
	struct tu_strs	 fast, want;

	if (t >= 0) {
		tu_brute_to_grundy(br, a, g, t, ctx, NULL);
		return;
	}
	game_moveset_init(&ms);
	tu_strs_init(&fast);
	tu_strs_init(&want);
	game_graph.policy(g->st, &ms);
	policy_moves(br->arg, a, br->k, &want);
	tu_moveset_strs(&ms, &fast);
	if (!tu_strs_eq(&fast, &want, ctx))
		fail();
	game_moveset_clear(&ms);
	tu_strs_free(&fast);
	tu_strs_free(&want);
}

/* Checks every placement of k tokens on d against the brute force. */
static void
check_dag(struct rdag *d, const char *edges, int k)
{
	struct tu_brute	 br;
	struct buf	 line;
	struct game	 g;
	int		 a[TU_MAXK] = { 0 }, bd[TU_MAXK], i, t, stuck;

	tu_brute_init(&br, k, graph_options, d);
	for (i = 0; i < k; i++)
		bd[i] = d->nv - 1;
	buf_init(&line);
	do {
		buf_reset(&line);
		buf_printf(&line, "graph %s", edges);
		for (stuck = 1, i = 0; i < k; i++) {
			buf_printf(&line, " %lu", d->id[a[i]]);
			stuck &= d->height[a[i]] == 0;
		}
		tu_parse(&g, "%s", buf_str(&line));
		assert_int_equal(game_terminal(&g), stuck);
		tu_brute_check(&br, a, &g);
		for (t = -1; t <= 3; t++)
			if (t != 0)
				check_moves(&g, &br, a, t, buf_str(&line));
		/* The canonical form round-trips. */
		tu_reparse(&g);
		game_free(&g);
	} while (tu_next(a, k, bd));
	buf_free(&line);
	tu_brute_free(&br);
}

/* Forty random DAGs with one to three tokens on every placement. */
static void
test_graph_brute(void **state)
{
	unsigned long long s = 20240601;
	struct rdag	 d;
	struct buf	 edges;
	int		 n, k;

	(void)state;
	buf_init(&edges);
	for (n = 0; n < 40; n++) {
		rdag_make(&d, &s, &edges);
		for (k = 1; k <= RDAG_MAXK; k++)
			check_dag(&d, buf_str(&edges), k);
	}
	buf_free(&edges);
}

/* Checks that g's policy moves are the one move given. */
static void
policy_is(const struct game *g, const char *move, const char *what)
{
	struct game_moveset ms;
	struct tu_strs	 got, want;

	tu_strs_init(&got);
	tu_strs_init(&want);
	game_moveset_init(&ms);
	g->fam->policy(g->st, &ms);
	tu_moveset_strs(&ms, &got);
	game_moveset_clear(&ms);
	tu_strs_add(&want, "%s", move);
	assert_true(tu_strs_eq(&got, &want, what));
	tu_strs_free(&got);
	tu_strs_free(&want);
}

/* A path of 100,000 nodes (deep search, no recursion), its cycle and limit. */
static void
test_graph_big(void **state)
{
	struct game_error err;
	struct game	 g;
	struct buf	 b;
	mpz_t		 gv;
	int		 i;

	(void)state;
	mpz_init(gv);
	buf_init(&b);
	/* 0>1>...>99999: SG(i) = (99999 - i) mod 2, height 99999 - i. */
	buf_puts(&b, "graph edges=0>1");
	for (i = 1; i < 99999; i++)
		buf_printf(&b, ",%d>%d", i, i + 1);
	buf_puts(&b, " 0 1 99999");
	tu_parse(&g, "%s", buf_str(&b));
	tu_check_wins(&g, GAME_N, 1, "1=1", "2=2", NULL);
	policy_is(&g, "1=1", "path policy");
	tu_play(&g, "1=1");
	tu_play_fail(&g, "3=0", GAME_EILLEGAL);
	game_free(&g);
	/* The same path written backwards (99999>99998>...>0). */
	buf_reset(&b);
	buf_puts(&b, "graph edges=1>0");
	for (i = 1; i < 99999; i++)
		buf_printf(&b, ",%d>%d", i + 1, i);
	buf_puts(&b, " 99999 99998");
	tu_parse(&g, "%s", buf_str(&b));
	assert_int_equal(game_grundy(&g, gv, &err), 0);
	assert_int_equal(mpz_get_ui(gv), 1);
	game_free(&g);
	/* One more node is one too many for the default limits. */
	buf_puts(&b, " 100000");
	tu_parse_fail(GAME_ELIMIT, "%s", buf_str(&b));
	/* The path closed into a cycle. */
	buf_reset(&b);
	buf_puts(&b, "graph edges=99999>0");
	for (i = 0; i < 99999; i++)
		buf_printf(&b, ",%d>%d", i, i + 1);
	buf_puts(&b, " 0");
	assert_int_equal(game_parse_line(&g, buf_str(&b), tu_limits(), &err),
	    -1);
	assert_int_equal(err.code, GAME_ECYCLE);
	assert_string_equal(err.msg, "graph has a cycle of 100000 nodes: "
	    "0>1>2>3>4>5>6>7>...>99998>99999>0");
	buf_free(&b);
	mpz_clear(gv);
}

/* Wide graphs: a star of 100,000 nodes, the complete DAG on 450. */
static void
test_graph_wide(void **state)
{
	struct tu_strs	 wins;
	struct game	 g;
	struct buf	 b;
	int		 i, j;

	(void)state;
	buf_init(&b);
	/* A star: 0 -> 1..99999, every move from 0 wins. */
	buf_reset(&b);
	buf_puts(&b, "graph edges=0>1");
	for (i = 2; i < 100000; i++)
		buf_printf(&b, ",0>%d", i);
	buf_puts(&b, " 0");
	tu_parse(&g, "%s", buf_str(&b));
	tu_strs_init(&wins);
	for (i = 1; i < 100000; i++)
		tu_strs_add(&wins, "1=%d", i);
	tu_check(&g, GAME_N, 1, &wins);
	tu_strs_free(&wins);
	game_free(&g);
	/* The complete DAG on 450 nodes (101,025 edges): SG(i) = 449 - i. */
	buf_reset(&b);
	buf_puts(&b, "graph edges=");
	for (i = 0; i < 450; i++)
		for (j = i + 1; j < 450; j++)
			buf_printf(&b, "%s%d>%d", i || j > 1 ? "," : "", i, j);
	buf_puts(&b, " 0 1 7");
	tu_parse(&g, "%s", buf_str(&b));
	/*
	 * X = 449 ^ 448 ^ 442 = 443: token 1 to SG 449 ^ 443 = 122 (node 327),
	 * token 2 to SG 448 ^ 443 = 123 (node 326), token 3 to SG 1 (448).
	 */
	tu_check_wins(&g, GAME_N, 443, "1=327", "2=326", "3=448", NULL);
	policy_is(&g, "1=1", "complete policy");
	game_free(&g);
	buf_free(&b);
}

/* The ring n-1>0, 0>1, ..., n-2>n-1 must be refused with msg. */
static void
ring_fails(int n, const char *msg)
{
	struct buf	 b;
	int		 i;

	buf_init(&b);
	buf_printf(&b, "graph edges=%d>0", n - 1);
	for (i = 0; i < n - 1; i++)
		buf_printf(&b, ",%d>%d", i, i + 1);
	buf_puts(&b, " 5");
	tu_parse_fail_msg(tu_limits(), buf_str(&b), GAME_ECYCLE, msg);
	buf_free(&b);
}

/* Cycles are named; they start at their smallest node. */
static void
test_graph_cycles(void **state)
{
	const struct game_limits *dl = tu_limits();
	struct game	 g;

	(void)state;
	tu_parse_fails_msg(dl, GAME_ECYCLE,
	    "graph edges=1>1 1", "graph has a cycle: 1>1",
	    "graph edges=0>1,2>2 0", "graph has a cycle: 2>2",
	    "graph edges=1>2,2>1 7", "graph has a cycle: 1>2>1",
	    "graph edges=1>2,2>3,3>1 1", "graph has a cycle: 1>2>3>1",
	    "graph edges=0>7,7>4,4>7 0", "graph has a cycle: 4>7>4",
	    "graph edges=9>5,5>3,3>9,0>9 0", "graph has a cycle: 3>9>5>3",
	    NULL);
	ring_fails(20,
	    "graph has a cycle of 20 nodes: 0>1>2>3>4>5>6>7>...>18>19>0");
	ring_fails(12, "graph has a cycle: 0>1>2>3>4>5>6>7>8>9>10>11>0");
	/* A diamond is no cycle. */
	tu_parse(&g, "graph edges=0>1,0>2,1>3,2>3 0");
	game_free(&g);
}

/* Bad input gives a specific error and never crashes. */
static void
test_graph_bad(void **state)
{
	const struct game_limits *dl = tu_limits();
	struct game	 g;

	(void)state;
	tu_parse_fails_msg(dl, GAME_ESYNTAX,
	    "graph edges=1> 1", "edge '1>': missing the node after '>'",
	    "graph edges=>2 1", "edge '>2': missing the node before '>'",
	    "graph edges=a>b 1", "edge 'a>b': the node before '>' is not",
	    "graph edges=1>b 1", "edge '1>b': the node after '>' is not",
	    "graph edges=1-2 1", "edge '1-2': expected U>V",
	    "graph edges=1>2>3 1", "'1>2>3'",
	    "graph edges=-1>2 1", "'-1>2'",
	    "graph edges=1>2,,2>3 1", "edge 2 is empty",
	    "graph edges=1>2, 1", "edge 2 is empty",
	    NULL);
	tu_parse_fail_msg(dl, "graph edges=1>2147483648 1", GAME_ELIMIT,
	    "exceeds the largest node id 2147483647");
	tu_parse_fail_msg(dl, "graph edges=99999999999999999999999>1 1",
	    GAME_ELIMIT, "exceeds the largest node id");
	tu_parse_fails(GAME_ESYNTAX,
	    "graph edges= 1",
	    "graph edge=1>2 1",
	    "graph edges=1>2 edges=2>3 1",
	    NULL);
	tu_parse_fails_msg(dl, GAME_ESYNTAX,
	    "graph edges=0>1", "missing position",
	    "graph", "missing position",
	    "graph edges=0>1 x", "token 1",
	    "graph edges=0>1 0 -1", "token 2",
	    "graph edges=0>1 0 1.5", "token 2",
	    NULL);
	tu_parse_fail_msg(dl, "graph 2147483648", GAME_ELIMIT, "token 1");
	tu_parse_fail(GAME_ESYNTAX, "graph 1 edges=1>2");
	tu_parse(&g, "graph edges=3>5,3>4,5>4 3 7");
	tu_move_fails_msg(&g,
	    "1=6", "no edge 3>6",
	    "1=7", "no edge 3>7",
	    "1=3", "no edge 3>3",
	    "2=4", "no edge 7>4",
	    "3=4", "token 3 out of range: 2 tokens",
	    "1=99999999999999999999", "no edge 3>",
	    NULL);
	tu_plays(&g, GAME_EILLEGAL, "1=6", "3=4", "1=5 2=4", NULL);
	tu_plays(&g, GAME_ESYNTAX, "1=-5", "0=5", "1.1=5", NULL);
	tu_play(&g, "1=5");
	tu_move_fail_msg(&g, "1=3", "no edge 5>3");
	tu_play(&g, "1=4");
	assert_int_equal(game_terminal(&g), 1);
	tu_play_fail(&g, "1=5", GAME_EILLEGAL);
	game_free(&g);
	tu_parse(&g, "graph edges=4>5 4");
	tu_move_fail_msg(&g, "2=5", "token 2 out of range: 1 token");
	game_free(&g);
}

/* The limits: nodes (tokens count too), edges after folding, tokens. */
static void
test_graph_limits(void **state)
{
	struct game_limits lim = *tu_limits();

	(void)state;
	lim.max_nodes = 3;
	tu_parse_fails_msg(&lim, GAME_ELIMIT,
	    "graph edges=0>1,1>2,2>3 0",
	    "4 distinct nodes exceeds the limit of 3",
	    "graph edges=0>1,1>2 5", "4 distinct nodes",
	    NULL);
	tu_parse_ok(&lim, "graph edges=0>1,1>2 2 0 1");
	lim = *tu_limits();
	lim.max_edges = 2;
	tu_parse_fail_msg(&lim, "graph edges=0>1,1>2,0>2 0", GAME_ELIMIT,
	    "3 distinct edges exceeds the limit of 2");
	tu_parse_ok(&lim, "graph edges=0>1,0>1,1>2,1>2 0");
	lim = *tu_limits();
	lim.max_piles = 2;
	tu_parse_fail_msg(&lim, "graph 0 0 0", GAME_ELIMIT, "3 tokens");
}

/* Canonical forms, isolated tokens, clones sharing the graph. */
static void
test_graph_print(void **state)
{
	const char	*in[] = { "graph edges=1>2,0>2,0>1,0>1 0 0",
	    "graph 007 3", "graph edges=10>9,9>100,2>10 2 55",
	    "graph edges=0>1 1" };
	const char	*out[] = { "graph edges=0>1,0>2,1>2 0 0",
	    "graph 7 3", "graph edges=2>10,9>100,10>9 2 55",
	    "graph edges=0>1 1" };
	struct tu_strs	 none;
	struct game	 g, h;

	(void)state;
	tu_roundtrip(in, out, sizeof in / sizeof in[0]);
	/* Tokens on nodes outside every edge are stuck. */
	tu_parse(&g, "graph 4 4 9");
	assert_int_equal(game_terminal(&g), 1);
	tu_strs_init(&none);
	tu_check(&g, GAME_P, 0, &none);
	tu_strs_free(&none);
	game_free(&g);
	/* A clone shares the graph, not the tokens, and outlives g. */
	tu_parse(&g, "graph edges=0>1,1>2 0 1");
	tu_clone_play(&h, &g, "1=1", "graph edges=0>1,1>2 0 1",
	    "graph edges=0>1,1>2 1 1");
	game_free(&g);
	tu_print_is(&h, "graph edges=0>1,1>2 1 1");
	tu_play(&h, "2=2");
	tu_play(&h, "1=2");
	assert_int_equal(game_terminal(&h), 1);
	game_free(&h);
}

TU_MAIN("graph",
    cmocka_unit_test(test_graph_brute),
    cmocka_unit_test(test_graph_big),
    cmocka_unit_test(test_graph_wide),
    cmocka_unit_test(test_graph_cycles),
    cmocka_unit_test(test_graph_bad),
    cmocka_unit_test(test_graph_limits),
    cmocka_unit_test(test_graph_print))
