/*
 * test-sum.c: disjunctive sums against an independent brute force over the
 * product game (each component's raw rules, no Sprague-Grundy theory), huge
 * components, and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Component kinds the brute force knows the raw rules of. */
enum kind { NIM, BASH, STAIR, SUB, WYT, KL, GRAPH };

/* A component: kind, parameter, coordinates used and their bound. */
struct comp {
	enum kind	 kind;
	int		 param;		/* m, S bitmask, t, k */
	int		 ncoord;
	int		 bound;
};

/* A sum under test. */
struct sumdef {
	int		 ncomp;
	struct comp	 c[4];
};

/* The DAG of the graph component: node -> successor bitmask. */
static const int graph_succ[6] = { 0x16, 0x0c, 0x08, 0x00, 0x28, 0x08 };
#define GRAPH_EDGES	"0>1,0>2,0>4,1>2,1>3,2>3,4>3,4>5,5>3"

/* Adds an option of component ci by name: ci.i=v, and ci.j=w if j > 0. */
static void
opt_add(struct tu_opt *o, int *n, int ci, int i, int v, int j, int w)
{
	if (j < 0)
		snprintf(o[*n].name, sizeof o[*n].name, "%d.%d=%d", ci, i, v);
	else
		snprintf(o[*n].name, sizeof o[*n].name, "%d.%d=%d %d.%d=%d",
		    ci, i, v, ci, j, w);
	(*n)++;
}

/* Raw rules of every component of the sum. */
static int
sum_options(const int *a, int k, struct tu_opt *o, void *arg)
{
	const struct sumdef *sd = arg;
	const struct comp *c;
	int	 base = 0, n = 0, ci, x, y, v, w, d, s;

	for (ci = 0; ci < sd->ncomp; base += sd->c[ci].ncoord, ci++) {
		c = &sd->c[ci];
		x = a[base];
		y = c->ncoord > 1 ? a[base + 1] : 0;
		switch (c->kind) {
		case NIM:
		case KL:
		case BASH:
		case SUB:
			for (v = 0; v < x; v++) {
				d = x - v;
				if (c->kind == BASH && d > c->param)
					continue;
				if (c->kind == KL && d == c->param)
					continue;
				if (c->kind == SUB && (d >= 31 ||
				    !(c->param & (1 << d))))
					continue;
				opt_add(o, &n, ci + 1, 1, v, -1, 0);
			}
			break;
		case STAIR:
			for (d = 1; d <= x; d++)
				opt_add(o, &n, ci + 1, 1, x - d, -1, 0);
			for (d = 1; d <= y; d++)
				opt_add(o, &n, ci + 1, 1, x + d, 2,
				    y - d);
			break;
		case WYT:
			for (v = 0; v < x; v++)
				opt_add(o, &n, ci + 1, 1, v, -1, 0);
			for (w = 0; w < y; w++)
				opt_add(o, &n, ci + 1, 2, w, -1, 0);
			for (v = 0; v < x; v++)
				for (w = 0; w < y; w++) {
					s = (x - v) - (y - w);
					if (s < 0)
						s = -s;
					if (s < c->param)
						opt_add(o, &n, ci + 1, 1,
						    v, 2, w);
				}
			break;
		case GRAPH:
			for (v = 0; v < 6; v++)
				if (graph_succ[x] & (1 << v))
					opt_add(o, &n, ci + 1, 1, v, -1,
					    0);
			break;
		}
	}
	/* Build the next positions from the names (component-local). */
	for (d = 0; d < n; d++) {
		int cc, i1, v1, i2, v2, off = 0, m;

		memcpy(o[d].next, a, (size_t)k * sizeof *a);
		m = sscanf(o[d].name, "%d.%d=%d %*d.%d=%d", &cc, &i1, &v1,
		    &i2, &v2);
		for (ci = 0; ci < cc - 1; ci++)
			off += sd->c[ci].ncoord;
		o[d].next[off + i1 - 1] = v1;
		if (m == 5)
			o[d].next[off + i2 - 1] = v2;
	}
	return (n);
}

/* Prints the sum's position a in the public notation. */
static void
sum_line(const struct sumdef *sd, const int *a, struct buf *b)
{
	const struct comp *c;
	int	 ci, base = 0, s, first;

	buf_puts(b, "sum");
	for (ci = 0; ci < sd->ncomp; base += sd->c[ci].ncoord, ci++) {
		c = &sd->c[ci];
		buf_puts(b, ci ? " + " : " ");
		switch (c->kind) {
		case NIM:
			buf_printf(b, "nim %d", a[base]);
			break;
		case BASH:
			buf_printf(b, "bash m=%d %d", c->param, a[base]);
			break;
		case STAIR:
			buf_printf(b, "staircase %d %d", a[base], a[base + 1]);
			break;
		case SUB:
			buf_puts(b, "subtraction S=");
			for (s = 1, first = 1; s < 31; s++)
				if (c->param & (1 << s)) {
					buf_printf(b, "%s%d", first ? "" : ",",
					    s);
					first = 0;
				}
			buf_printf(b, " %d", a[base]);
			break;
		case WYT:
			if (c->param == 1)
				buf_printf(b, "wythoff %d %d", a[base],
				    a[base + 1]);
			else
				buf_printf(b, "wythoff t=%d %d %d", c->param,
				    a[base], a[base + 1]);
			break;
		case KL:
			buf_printf(b, "klnim k=%d l=%d %d", c->param, c->param,
			    a[base]);
			break;
		case GRAPH:
			buf_printf(b, "graph edges=%s %d", GRAPH_EDGES,
			    a[base]);
			break;
		}
	}
}

/* Checks every position of a sum with coordinates up to their bounds. */
static void
check_sum(const struct sumdef *sd)
{
	struct tu_brute	 br;
	struct tu_strs	 wins;
	struct game	 g;
	struct buf	 line;
	int		 a[TU_MAXK] = { 0 }, bound[TU_MAXK], k = 0, ci, j, i, sg;

	for (ci = 0; ci < sd->ncomp; ci++)
		for (j = 0; j < sd->c[ci].ncoord; j++)
			bound[k++] = sd->c[ci].bound;
	tu_brute_init(&br, k, sum_options, (void *)sd);
	buf_init(&line);
	for (;;) {
		sg = tu_brute_sg(&br, a);
		tu_strs_init(&wins);
		tu_brute_wins(&br, a, &wins);
		buf_reset(&line);
		sum_line(sd, a, &line);
		tu_parse(&g, "%s", buf_str(&line));
		tu_check(&g, sg != 0, sg, &wins);
		tu_strs_free(&wins);
		game_free(&g);
		for (i = 0; i < k && ++a[i] > bound[i]; i++)
			a[i] = 0;
		if (i == k)
			break;
	}
	buf_free(&line);
	tu_brute_free(&br);
}

/* Sums of every summable family against the product-game brute force. */
static void
test_sum_brute(void **state)
{
	const struct sumdef defs[] = {
		{ 3, { { NIM, 0, 1, 7 }, { BASH, 2, 1, 9 }, { WYT, 1, 2, 6 } } },
		{ 3, { { STAIR, 0, 2, 4 }, { SUB, (1 << 2) | (1 << 5) |
		    (1 << 7), 1, 15 }, { GRAPH, 0, 1, 5 } } },
		{ 3, { { KL, 2, 1, 12 }, { WYT, 2, 2, 5 }, { NIM, 0, 1, 5 } } },
		{ 2, { { SUB, (1 << 1) | (1 << 3) | (1 << 4), 1, 20 },
		    { KL, 3, 1, 20 } } },
		{ 2, { { GRAPH, 0, 1, 5 }, { GRAPH, 0, 1, 5 } } },
		/* Wythoff components of one r share a Grundy table. */
		{ 3, { { WYT, 2, 2, 4 }, { WYT, 3, 2, 5 }, { WYT, 2, 2, 5 } } },
		{ 2, { { WYT, 1, 2, 7 }, { WYT, 1, 2, 4 } } },
		/* The third shares the second's table, not the first's. */
		{ 3, { { WYT, 3, 2, 5 }, { WYT, 2, 2, 4 }, { WYT, 2, 2, 5 } } },
	};
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof defs / sizeof defs[0]; i++)
		check_sum(&defs[i]);
}

/*
 * Asserts that the Grundy value of h, a sum of nim, bash and staircase (in
 * that order), is 0 by the test's own rules applied to its printed form.
 */
static void
sum_text_zero(const struct game *h, const struct game_move *mv, void *arg)
{
	struct buf	 pos;
	char		*p, *tok;
	int		 part = 0, idx = 0;
	mpz_t		 m, y, v, x;

	(void)mv;
	(void)arg;
	mpz_inits(m, y, v, x, NULL);
	buf_init(&pos);
	game_print(h, &pos);
	p = strdup(buf_str(&pos));
	for (tok = strtok(p, " "); tok; tok = strtok(NULL, " ")) {
		if (strcmp(tok, "+") == 0 || strcmp(tok, "sum") == 0)
			continue;
		if (strcmp(tok, "nim") == 0 || strcmp(tok, "bash") == 0 ||
		    strcmp(tok, "staircase") == 0) {
			part++;
			idx = 0;
			continue;
		}
		if (strncmp(tok, "m=", 2) == 0) {
			mpz_set_str(m, tok + 2, 10);
			continue;
		}
		mpz_set_str(y, tok, 10);
		idx++;
		if (part == 2) {
			mpz_add_ui(v, m, 1);
			mpz_fdiv_r(y, y, v);
		} else if (part == 3 && idx % 2 == 0)
			continue;
		mpz_xor(x, x, y);
	}
	assert_int_equal(mpz_sgn(x), 0);
	free(p);
	buf_free(&pos);
	mpz_clears(m, y, v, x, NULL);
}

/*
 * Huge components: every winning move is legal and leaves XOR 0, computed
 * independently from the printed position (Nim XOR, n mod (m+1), odd steps).
 */
static void
test_sum_huge(void **state)
{
	struct game_moveset ms;
	struct game	 g;
	struct buf	 line;
	gmp_randstate_t	 rs;
	mpz_t		 m;
	size_t		 i;
	int		 t;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 2024);
	mpz_init(m);
	buf_init(&line);
	for (t = 0; t < 20; t++) {
		buf_reset(&line);
		buf_puts(&line, "sum nim");
		for (i = 0; i < 3; i++)
			tu_put_random(&line, rs, 3400);
		mpz_urandomb(m, rs, 3400);
		buf_puts(&line, " + bash m=");
		buf_mpz(&line, m);
		tu_put_random(&line, rs, 3500);
		buf_puts(&line, " + staircase");
		for (i = 0; i < 3; i++)
			tu_put_random(&line, rs, 3400);
		tu_parse(&g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		tu_winning_each(&g, &ms, sum_text_zero, NULL);
		game_moveset_clear(&ms);
		game_free(&g);
	}
	buf_free(&line);
	mpz_clear(m);
	gmp_randclear(rs);
}

/* Bad sums and bad sum moves. */
static void
test_sum_bad(void **state)
{
	struct game_limits lim = *tu_limits();
	struct game_error err;
	struct game	 g;

	(void)state;
	tu_parse_fails(GAME_ESYNTAX,
	    "sum",
	    "sum nim 3 + + nim 4",
	    "sum nim 3 +",
	    "sum nim 3 + sum nim 4",
	    "sum nim misere=1 3 + nim 4",
	    "sum klnim k=2 l=3 3 + nim 4",
	    "sum chess 3",
	    "sum nim 3 + nim x",
	    NULL);
	lim.max_wythoff = 20;
	assert_int_equal(game_parse_line(&g, "sum nim 3 + wythoff 3 500",
	    &lim, &err), -1);
	assert_int_equal(err.code, GAME_ELIMIT);
	lim.max_components = 2;
	assert_int_equal(game_parse_line(&g, "sum nim 3 + nim 4 + nim 5",
	    &lim, &err), -1);
	assert_int_equal(err.code, GAME_ELIMIT);
	tu_parse(&g, "sum nim 3 4 + bash m=3 10");
	tu_play_fail(&g, "1=0", GAME_ESYNTAX);
	tu_play_fail(&g, "3.1=0", GAME_EILLEGAL);
	tu_play_fail(&g, "0.1=0", GAME_ESYNTAX);
	tu_plays(&g, GAME_EILLEGAL, "1.1=0 2.1=9", "2.1=5", "1.3=0", NULL);
	tu_plays(&g, GAME_OK, "2.1=8", "1.2=3", NULL);
	game_free(&g);
}

TU_MAIN("sum",
    cmocka_unit_test(test_sum_brute),
    cmocka_unit_test(test_sum_huge),
    cmocka_unit_test(test_sum_bad))
