/*
 * test-wythoff.c: Wythoff, t-Wythoff and (K,t)-Wythoff against an independent
 * brute force (a game-tree search over the raw rules R1 of games.md §5, no
 * theory), huge piles against the U_K numeration test of §5, the Grundy
 * table bound, bad input and canonical forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "solver/game-wythoff.h"

/* Brute-force solution of every position x, y <= bound. */
struct brute {
	int		 k, t, bound;
	signed char	*win;		/* 0 P, 1 N */
	int		*sg;		/* the block of the int arrays */
	int		*mx, *my;	/* scratch: move targets */
};

/* Returns the index of position (x, y). */
static size_t
brute_idx(const struct brute *br, int x, int y)
{
	return ((size_t)y * (size_t)(br->bound + 1) + (size_t)x);
}

/*
 * Lists every move of (x, y) by the raw rules: remove iK from x, jK from y,
 * or both with |iK - jK| < t (i, j >= 1).  Single moves come first.
 */
static int
brute_moves(const struct brute *br, int x, int y)
{
	int	 i, j, n = 0;

	for (i = br->k; i <= x; i += br->k) {
		br->mx[n] = x - i;
		br->my[n++] = y;
	}
	for (j = br->k; j <= y; j += br->k) {
		br->mx[n] = x;
		br->my[n++] = y - j;
	}
	for (i = br->k; i <= x; i += br->k)
		for (j = br->k; j <= y; j += br->k)
			if ((i > j ? i - j : j - i) < br->t) {
				br->mx[n] = x - i;
				br->my[n++] = y - j;
			}
	return (n);
}

/* Solves every position; each move lowers a pile, so row order works. */
static void
brute_init(struct brute *br, int k, int t, int bound)
{
	size_t	 cells = (size_t)(bound + 1) * (size_t)(bound + 1);
	size_t	 nmoves = cells + 2 * (size_t)(bound + 1);
	char	 seen[1024];
	int	 x, y, i, n, anyp, v;
	size_t	 j;

	br->k = k;
	br->t = t;
	br->bound = bound;
	br->win = calloc(cells, 1);
	/* One block of ints: sg, then mx and my of nmoves each. */
	br->sg = calloc(cells + 2 * nmoves, sizeof *br->sg);
	br->mx = br->sg + cells;
	br->my = br->mx + nmoves;
	for (y = 0; y <= bound; y++)
		for (x = 0; x <= bound; x++) {
			memset(seen, 0, sizeof seen);
			n = brute_moves(br, x, y);
			anyp = 0;
			for (i = 0; i < n; i++) {
				j = brute_idx(br, br->mx[i], br->my[i]);
				if (br->win[j] == 0)
					anyp = 1;
				seen[br->sg[j]] = 1;
			}
			for (v = 0; seen[v]; v++)
				;
			br->win[brute_idx(br, x, y)] = (signed char)anyp;
			br->sg[brute_idx(br, x, y)] = v;
		}
}

/* Frees the tables. */
static void
brute_free(struct brute *br)
{
	free(br->win);
	free(br->sg);
}

/* Lists the moves of (x, y) to Grundy value g (0: the winning moves). */
static void
brute_to(const struct brute *br, int x, int y, int g, struct tu_strs *out)
{
	int	 i, n;

	n = brute_moves(br, x, y);
	for (i = 0; i < n; i++) {
		if (br->sg[brute_idx(br, br->mx[i], br->my[i])] != g)
			continue;
		if (br->mx[i] == x)
			tu_strs_add(out, "2=%d", br->my[i]);
		else if (br->my[i] == y)
			tu_strs_add(out, "1=%d", br->mx[i]);
		else
			tu_strs_add(out, "1=%d 2=%d", br->mx[i], br->my[i]);
	}
	tu_strs_sort(out);
}

/* Checks to_grundy on g against brute force for targets 0..max + 1. */
static void
check_to_grundy(const struct game *g, const struct brute *br, int x, int y)
{
	struct game_moveset ms;
	struct game_error err;
	struct tu_strs	 fast, slow;
	struct buf	 b, ctx;
	size_t		 i;
	mpz_t		 target;
	int		 tg;

	mpz_init(target);
	buf_init(&b);
	buf_init(&ctx);
	for (tg = 0; tg <= br->sg[brute_idx(br, x, y)] + 1; tg++) {
		mpz_set_ui(target, (unsigned long)tg);
		game_moveset_init(&ms);
		assert_int_equal(game_wythoff.to_grundy(g->st, target, &ms,
		    &err), 0);
		tu_strs_init(&fast);
		for (i = 0; i < ms.n; i++) {
			assert_int_equal(ms.v[i].ranged, 0);
			buf_reset(&b);
			tu_move_str(&ms.v[i].mv, &b);
			tu_strs_add(&fast, "%s", buf_str(&b));
		}
		tu_strs_sort(&fast);
		tu_strs_init(&slow);
		brute_to(br, x, y, tg, &slow);
		buf_reset(&ctx);
		game_print(g, &ctx);
		buf_printf(&ctx, " to_grundy %d", tg);
		if (!tu_strs_eq(&fast, &slow, buf_str(&ctx)))
			fail();
		tu_strs_free(&fast);
		tu_strs_free(&slow);
		game_moveset_clear(&ms);
	}
	buf_free(&b);
	buf_free(&ctx);
	mpz_clear(target);
}

/*
 * Checks every position x, y <= bound of (K,t)-Wythoff: outcome, Grundy
 * value, the complete winning-move set and, if tog, to_grundy.
 */
static void
check_all(int k, int t, int bound, int tog)
{
	struct brute	 br;
	struct tu_strs	 wins;
	struct game	 g;
	size_t		 j;
	int		 x, y;

	brute_init(&br, k, t, bound);
	for (y = 0; y <= bound; y++)
		for (x = 0; x <= bound; x++) {
			j = brute_idx(&br, x, y);
			tu_parse(&g, "wythoff K=%d t=%d %d %d", k, t, x, y);
			tu_strs_init(&wins);
			brute_to(&br, x, y, 0, &wins);
			tu_check(&g, br.win[j], br.sg[j], &wins);
			tu_strs_free(&wins);
			if (tog)
				check_to_grundy(&g, &br, x, y);
			game_free(&g);
		}
	brute_free(&br);
}

/* Classic Wythoff and t-Wythoff (K = 1, t <= 8) on every position <= 72. */
static void
test_wythoff_brute_t(void **state)
{
	int	 t;

	(void)state;
	for (t = 1; t <= 8; t++)
		check_all(1, t, 72, 0);
}

/* (K,t)-Wythoff, K = 1..5, t = 1..12, on every position up to 60. */
static void
test_wythoff_brute_kt(void **state)
{
	int	 k, t;

	(void)state;
	for (k = 1; k <= 5; k++)
		for (t = 1; t <= 12; t++)
			if (k > 1 || t > 8)	/* else done up to 72 */
				check_all(k, t, 60, 0);
}

/* to_grundy against brute force on smaller boards. */
static void
test_wythoff_to_grundy(void **state)
{
	static const int kt[][2] = { { 1, 1 }, { 1, 2 }, { 1, 5 }, { 2, 1 },
	    { 2, 3 }, { 3, 5 }, { 4, 9 } };
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof kt / sizeof kt[0]; i++)
		check_all(kt[i][0], kt[i][1], 30, 1);
}

/* Appends u[n] = r u[n - 1] + u[n - 2] to u (cap entries), growing it. */
static mpz_t *
uk_next(mpz_t *u, size_t *cap, size_t n, const mpz_t r)
{
	if (n == *cap) {
		*cap *= 2;
		u = realloc(u, *cap * sizeof *u);
	}
	mpz_init(u[n]);
	mpz_mul(u[n], r, u[n - 1]);
	mpz_add(u[n], u[n], u[n - 2]);
	return (u);
}

/*
 * Tests (x, y) for a P-position of (K,t)-Wythoff by the numeration system
 * U_K (§5): u_-1 = u_0 = K, u_i = r u_(i-1) + u_(i-2), r = ceil(t / K).
 * With X <= Y the block bases K floor(x / K), K floor(y / K), the position
 * is P iff X = Y = 0, or the greedy representation of X ends in an even
 * number of zeros and Y is its left shift.
 */
static int
uk_is_p(const mpz_t k, const mpz_t t, const mpz_t x, const mpz_t y)
{
	mpz_t	*u, r, bx, by, rem, sh, dg;
	size_t	 n, cap, j, low = 0;
	int	 p;

	mpz_inits(r, bx, by, rem, sh, dg, NULL);
	mpz_cdiv_q(r, t, k);
	mpz_fdiv_q(bx, x, k);
	mpz_mul(bx, bx, k);
	mpz_fdiv_q(by, y, k);
	mpz_mul(by, by, k);
	if (mpz_cmp(bx, by) > 0)
		mpz_swap(bx, by);
	if (mpz_sgn(bx) == 0) {
		p = mpz_sgn(by) == 0;
		mpz_clears(r, bx, by, rem, sh, dg, NULL);
		return (p);
	}
	/* u[j] = u_(j-1); stop once a weight exceeds X, plus one more. */
	cap = 64;
	u = malloc(cap * sizeof *u);
	mpz_init_set(u[0], k);
	mpz_init_set(u[1], k);
	for (n = 2;; n++) {
		u = uk_next(u, &cap, n, r);
		if (mpz_cmp(u[n - 1], bx) > 0)
			break;
	}
	/* Greedy digits d_i at weight u_i = u[i + 1], i = n - 2 .. 0. */
	mpz_set(rem, bx);
	mpz_set_ui(sh, 0);
	for (j = n - 1; j >= 1; j--) {
		mpz_tdiv_qr(dg, rem, rem, u[j]);
		if (mpz_sgn(dg) != 0) {
			assert_true(mpz_cmp(dg, r) <= 0);
			mpz_addmul(sh, dg, u[j + 1]);
			low = j - 1;
		}
	}
	assert_int_equal(mpz_sgn(rem), 0);
	p = low % 2 == 0 && mpz_cmp(sh, by) == 0;
	for (j = 0; j <= n; j++)
		mpz_clear(u[j]);
	free(u);
	mpz_clears(r, bx, by, rem, sh, dg, NULL);
	return (p);
}

/*
 * Builds a P-position (A_n, B_n) of (K,t)-Wythoff from a random legal U_K
 * representation of at least about `digits` decimal digits ending in an
 * even number of zeros: A_n is its value, B_n the value of its left shift.
 */
static void
uk_make_p(const mpz_t k, const mpz_t t, size_t digits, gmp_randstate_t rs,
    mpz_t a, mpz_t b)
{
	mpz_t	*u, *d, r, lim, rp1;
	size_t	 n, cap, i, z;

	mpz_inits(r, lim, rp1, NULL);
	mpz_cdiv_q(r, t, k);
	mpz_add_ui(rp1, r, 1);
	mpz_ui_pow_ui(lim, 10, digits);
	mpz_mul(lim, lim, k);
	/* u[i] = u_i for i >= 0, u_-1 = K. */
	cap = 64;
	u = malloc(cap * sizeof *u);
	mpz_init_set(u[0], k);
	mpz_init(u[1]);
	mpz_mul(u[1], r, k);
	mpz_add(u[1], u[1], k);
	for (n = 2; mpz_cmp(u[n - 1], lim) < 0 || n < 12; n++)
		u = uk_next(u, &cap, n, r);
	/* Digits d_0 .. d_(n-2); the lowest nonzero one is d_z, z even. */
	d = malloc(n * sizeof *d);
	for (i = 0; i < n; i++)
		mpz_init(d[i]);
	z = 2 * gmp_urandomm_ui(rs, 4);
	for (i = n - 1; i-- > z;) {
		if (i + 2 < n && mpz_cmp(d[i + 1], r) == 0)
			mpz_set_ui(d[i], 0);
		else if (i == n - 2 || i == z) {
			mpz_urandomm(d[i], rs, r);
			mpz_add_ui(d[i], d[i], 1);
		} else if (i == z + 1)
			mpz_urandomm(d[i], rs, r);
		else
			mpz_urandomm(d[i], rs, rp1);
	}
	mpz_set_ui(a, 0);
	mpz_set_ui(b, 0);
	for (i = 0; i + 1 < n; i++) {
		mpz_addmul(a, d[i], u[i]);
		mpz_addmul(b, d[i], u[i + 1]);
	}
	for (i = 0; i < n; i++) {
		mpz_clear(u[i]);
		mpz_clear(d[i]);
	}
	free(u);
	free(d);
	mpz_clears(r, lim, rp1, NULL);
}

/*
 * Checks one huge position: the outcome agrees with U_K, and every reported
 * winning move (at most 4, none iff P) is legal and reaches a U_K
 * P-position.  Returns the outcome.
 */
static int
check_huge(const mpz_t k, const mpz_t t, const mpz_t x, const mpz_t y)
{
	struct game_moveset ms;
	struct game_error err;
	struct game	 g, h;
	struct buf	 line;
	mpz_t		 nx, ny;
	size_t		 i, j;
	int		 p, out;

	buf_init(&line);
	buf_puts(&line, "wythoff K=");
	buf_mpz(&line, k);
	buf_puts(&line, " t=");
	buf_mpz(&line, t);
	buf_putc(&line, ' ');
	buf_mpz(&line, x);
	buf_putc(&line, ' ');
	buf_mpz(&line, y);
	tu_parse(&g, "%s", buf_str(&line));
	p = uk_is_p(k, t, x, y);
	out = game_outcome(&g, &err);
	assert_int_equal(out, p ? GAME_P : GAME_N);
	game_moveset_init(&ms);
	assert_int_equal(game_winning(&g, &ms, &err), 0);
	assert_int_equal(ms.n == 0, p);
	assert_true(ms.n <= 4);
	mpz_inits(nx, ny, NULL);
	for (i = 0; i < ms.n; i++) {
		assert_int_equal(ms.v[i].ranged, 0);
		game_clone(&h, &g);
		if (game_play(&h, &ms.v[i].mv, &err) != 0) {
			print_error("%s: illegal winning move: %s\n",
			    buf_str(&line), err.msg);
			fail();
		}
		game_free(&h);
		mpz_set(nx, x);
		mpz_set(ny, y);
		if (ms.v[i].mv.n == 2)
			assert_int_equal(ms.v[i].mv.ch[0].idx, 1);
		for (j = 0; j < ms.v[i].mv.n; j++)
			mpz_set(ms.v[i].mv.ch[j].idx == 1 ? nx : ny,
			    ms.v[i].mv.ch[j].val);
		assert_true(uk_is_p(k, t, nx, ny));
	}
	mpz_clears(nx, ny, NULL);
	game_moveset_clear(&ms);
	game_free(&g);
	buf_free(&line);
	return (out);
}

/*
 * Random piles of about 1,000 digits for (K, t), then P-positions from U_K
 * and offsets from them; returns the number of P-positions made.
 */
static size_t
check_huge_kt(const mpz_t k, const mpz_t t, gmp_randstate_t rs)
{
	static const int off[][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 },
	    { 2, 3 }, { 0, -1 }, { -1, 0 }, { -1, -1 }, { 5, 0 }, { 0, 9 },
	    { -3, 2 }, { 4, 4 } };
	mpz_t		 x, y, a, b, ra, rb;
	size_t		 n, o, np = 0;

	mpz_inits(x, y, a, b, ra, rb, NULL);
	for (n = 0; n < 12; n++) {
		mpz_urandomb(x, rs, 3330 + gmp_urandomm_ui(rs, 300));
		mpz_urandomb(y, rs, 3330 + gmp_urandomm_ui(rs, 300));
		if (n % 3 == 1) {
			/* Close piles: small d, small n. */
			mpz_urandomb(y, rs, 40);
			mpz_add(y, y, x);
		} else if (n % 3 == 2)
			mpz_urandomb(x, rs, 100);
		check_huge(k, t, x, y);
	}
	for (n = 0; n < 6; n++) {
		uk_make_p(k, t, 1000, rs, a, b);
		mpz_urandomm(ra, rs, k);
		mpz_urandomm(rb, rs, k);
		mpz_add(a, a, ra);
		mpz_add(b, b, rb);
		if (n % 2 == 1)
			mpz_swap(a, b);
		assert_int_equal(check_huge(k, t, a, b), GAME_P);
		np++;
		for (o = 0; o < sizeof off / sizeof off[0]; o++) {
			mpz_mul_si(x, k, off[o][0]);
			mpz_add(x, x, a);
			mpz_mul_si(y, k, off[o][1]);
			mpz_add(y, y, b);
			check_huge(k, t, x, y);
		}
	}
	mpz_clears(x, y, a, b, ra, rb, NULL);
	return (np);
}

/*
 * Piles of 1,000+ digits, for small and large t: t of 400 to 1,000 digits
 * (r as long as a third of the piles and more) takes the division form of
 * the winning moves, and in test-wythoff-guard (the fixed-point form
 * everywhere) the other way to e in wythoff_root_init.
 */
static void
test_wythoff_huge(void **state)
{
	static const char *kt[][2] = { { "1", "1" }, { "1", "2" },
	    { "1", "3" }, { "1", "10" }, { "2", "1" }, { "2", "3" },
	    { "3", "5" }, { "5", "12" }, { "7", "2" },
	    { "1", "100000000000000000000001" },
	    { "4", "12345678901234567890123" },
	    { "100000000000000000000", "250000000000000000000" } };
	static const struct { unsigned long k, tdigits; long tadd; } big[] = {
	    { 1, 400, 7 }, { 1, 700, -1 }, { 3, 990, 12345 },
	    { 1, 1000, -3 }, { 2, 1100, 1 } };
	gmp_randstate_t	 rs;
	mpz_t		 k, t;
	size_t		 i, np = 0;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 20240521);
	mpz_inits(k, t, NULL);
	for (i = 0; i < sizeof kt / sizeof kt[0]; i++) {
		mpz_set_str(k, kt[i][0], 10);
		mpz_set_str(t, kt[i][1], 10);
		np += check_huge_kt(k, t, rs);
	}
	for (i = 0; i < sizeof big / sizeof big[0]; i++) {
		mpz_set_ui(k, big[i].k);
		mpz_ui_pow_ui(t, 10, big[i].tdigits);
		if (big[i].tadd < 0)
			mpz_sub_ui(t, t, (unsigned long)-big[i].tadd);
		else
			mpz_add_ui(t, t, (unsigned long)big[i].tadd);
		np += check_huge_kt(k, t, rs);
	}
	assert_true(np > 0);
	mpz_clears(k, t, NULL);
	gmp_randclear(rs);
}

/* The exact P-test on the position reached, another path than winning's. */
static void
lands_on_p(const struct game *h, const struct game_move *m, void *arg)
{
	struct game_error err;

	(void)m;
	(void)arg;
	assert_int_equal(game_outcome(h, &err), GAME_P);
}

/* Piles of 100,000 digits are answered fast; moves are legal and win. */
static void
test_wythoff_100k(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct game	 g;
	struct buf	 line;
	gmp_randstate_t	 rs;
	mpz_t		 x, y;
	size_t		 n;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 77);
	mpz_inits(x, y, NULL);
	buf_init(&line);
	for (n = 0; n < 4; n++) {
		mpz_urandomb(x, rs, 332200);
		mpz_urandomb(y, rs, 332200);
		buf_reset(&line);
		buf_printf(&line, "wythoff t=%zu ", n + 1);
		buf_mpz(&line, x);
		buf_putc(&line, ' ');
		buf_mpz(&line, y);
		tu_parse(&g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		tu_winning_each(&g, &ms, lands_on_p, NULL);
		assert_int_equal(game_outcome(&g, &err),
		    ms.n > 0 ? GAME_N : GAME_P);
		game_moveset_clear(&ms);
		game_free(&g);
	}
	buf_free(&line);
	mpz_clears(x, y, NULL);
	gmp_randclear(rs);
}

/* Asserts that the Grundy value of g is refused with GAME_EBOUND. */
static void
assert_ebound(const struct game *g, const char *needle)
{
	struct game_moveset ms;
	struct game_error err;
	mpz_t		 v;

	mpz_init(v);
	memset(&err, 0, sizeof err);
	assert_int_equal(game_grundy(g, v, &err), -1);
	assert_int_equal(err.code, GAME_EBOUND);
	assert_non_null(strstr(err.msg, needle));
	game_moveset_init(&ms);
	mpz_set_ui(v, 0);
	memset(&err, 0, sizeof err);
	assert_int_equal(game_wythoff.to_grundy(g->st, v, &ms, &err), -1);
	assert_int_equal(err.code, GAME_EBOUND);
	assert_int_equal(ms.n, 0);
	game_moveset_clear(&ms);
	mpz_clear(v);
}

/* Asserts the Grundy value of g. */
static void
assert_grundy(const struct game *g, int want)
{
	struct game_error err;
	mpz_t		 v;

	mpz_init(v);
	assert_int_equal(game_grundy(g, v, &err), 0);
	assert_true(mpz_cmp_si(v, want) == 0);
	mpz_clear(v);
}

/* Grundy values: the table bound, big tables, tables shared by clones. */
static void
test_wythoff_grundy(void **state)
{
	struct game_limits lim = *tu_limits();
	struct game_error err;
	struct brute	 br;
	struct game	 g;
	gmp_randstate_t	 rs;
	int		 i, x, y, t;

	(void)state;
	/* A bound of 10 on pile div K. */
	lim.max_wythoff = 10;
	brute_init(&br, 3, 5, 40);
	assert_int_equal(game_parse_line(&g, "wythoff K=3 t=5 32 30", &lim,
	    &err), 0);
	assert_grundy(&g, br.sg[brute_idx(&br, 32, 30)]);
	game_free(&g);
	assert_int_equal(game_parse_line(&g, "wythoff K=3 t=5 30 33", &lim,
	    &err), 0);
	assert_ebound(&g, "10");
	/* Moving inside the bound makes the value available. */
	tu_play(&g, "2=30");
	assert_grundy(&g, br.sg[brute_idx(&br, 30, 30)]);
	game_free(&g);
	brute_free(&br);
	/* The default bound of 200, with huge piles. */
	tu_parse(&g, "wythoff 201 3");
	assert_ebound(&g, "200");
	game_free(&g);
	tu_parse(&g, "wythoff t=3 5 123456789012345678901234567890123456789"
	    "0123456789");
	assert_ebound(&g, "over 40 digits");
	game_free(&g);
	/* Random positions up to the bound against brute force. */
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 99);
	for (t = 1; t <= 4; t += 3) {
		brute_init(&br, 1, t, 200);
		tu_parse(&g, "wythoff t=%d 200 200", t);
		assert_grundy(&g, br.sg[brute_idx(&br, 200, 200)]);
		game_free(&g);
		for (i = 0; i < 40; i++) {
			x = (int)gmp_urandomm_ui(rs, 201);
			y = (int)gmp_urandomm_ui(rs, 201);
			tu_parse(&g, "wythoff t=%d %d %d", t, x, y);
			assert_grundy(&g, br.sg[brute_idx(&br, x, y)]);
			game_free(&g);
		}
		brute_free(&br);
	}
	gmp_randclear(rs);
}

/* Clones share the Grundy table; each keeps working after the other goes. */
static void
test_wythoff_grundy_clones(void **state)
{
	struct brute	 br;
	struct game	 g, h;
	int		 x, y;

	(void)state;
	brute_init(&br, 2, 3, 60);
	tu_parse(&g, "wythoff K=2 t=3 9 60");
	game_clone(&h, &g);
	assert_grundy(&g, br.sg[brute_idx(&br, 9, 60)]);
	tu_play(&g, "1=5 2=58");
	assert_grundy(&g, br.sg[brute_idx(&br, 5, 58)]);
	game_free(&g);
	assert_grundy(&h, br.sg[brute_idx(&br, 9, 60)]);
	tu_play(&h, "2=50");
	assert_grundy(&h, br.sg[brute_idx(&br, 9, 50)]);
	game_clone(&g, &h);
	game_free(&h);
	tu_play(&g, "1=5");
	assert_grundy(&g, br.sg[brute_idx(&br, 5, 50)]);
	game_free(&g);
	/* A wider table after a narrow one, through an older clone. */
	tu_parse(&g, "wythoff K=2 t=3 60 58");
	game_clone(&h, &g);
	tu_play(&g, "1=2 2=0");
	assert_grundy(&g, br.sg[brute_idx(&br, 2, 0)]);
	assert_grundy(&h, br.sg[brute_idx(&br, 60, 58)]);
	assert_grundy(&g, br.sg[brute_idx(&br, 2, 0)]);
	game_free(&g);
	game_free(&h);
	brute_free(&br);
	for (x = 0; x < 3; x++)
		for (y = 0; y < 3; y++) {
			tu_parse(&g, "wythoff K=3 %d %d", x, y);
			assert_grundy(&g, 0);
			game_free(&g);
		}
}

/* Returns the Grundy table that Wythoff game g holds. */
static const struct wythoff_tab *
wythoff_tab_of(const struct game *g)
{
	return (((const struct wythoff *)g->st)->tab);
}

/*
 * Games share a table with the first earlier one that reduces to the same
 * r = ceil(t / K), whatever lies between (a component used to try only the
 * first earlier one of its family); the shared table serves all of them.
 */
static void
test_wythoff_share(void **state)
{
	static const char *const pos[] = { "wythoff t=3 40 7",
	    "wythoff t=2 3 50", "nim 4", "wythoff K=2 t=4 90 61",
	    "wythoff K=3 t=9 30 33", "wythoff t=5 2 2", "wythoff t=2 0 1" };
	struct game	 g[7];
	struct brute	 br;
	size_t		 i;

	(void)state;
	for (i = 0; i < 7; i++)
		tu_parse(&g[i], "%s", pos[i]);
	game_share_tables(g, 7);
	/* r: 3, 2, -, 2, 3, 5, 2. */
	assert_ptr_equal(wythoff_tab_of(&g[3]), wythoff_tab_of(&g[1]));
	assert_ptr_equal(wythoff_tab_of(&g[6]), wythoff_tab_of(&g[1]));
	assert_ptr_equal(wythoff_tab_of(&g[4]), wythoff_tab_of(&g[0]));
	assert_ptr_not_equal(wythoff_tab_of(&g[1]), wythoff_tab_of(&g[0]));
	assert_ptr_not_equal(wythoff_tab_of(&g[5]), wythoff_tab_of(&g[0]));
	assert_ptr_not_equal(wythoff_tab_of(&g[5]), wythoff_tab_of(&g[1]));
	assert_int_equal(wythoff_tab_of(&g[1])->refs, 3);
	/* One table sized for every sharer, right for each. */
	brute_init(&br, 1, 2, 61);
	assert_grundy(&g[6], br.sg[brute_idx(&br, 0, 1)]);
	assert_int_equal(wythoff_tab_of(&g[1])->cols, 30);
	assert_int_equal(wythoff_tab_of(&g[1])->rows, 50);
	assert_grundy(&g[1], br.sg[brute_idx(&br, 3, 50)]);
	assert_grundy(&g[3], br.sg[brute_idx(&br, 45, 30)]);
	brute_free(&br);
	brute_init(&br, 1, 3, 40);
	assert_grundy(&g[4], br.sg[brute_idx(&br, 10, 11)]);
	assert_grundy(&g[0], br.sg[brute_idx(&br, 40, 7)]);
	brute_free(&br);
	for (i = 0; i < 7; i++)
		game_free(&g[i]);
}

/* Policy, terminal positions and the mover. */
static void
test_wythoff_policy(void **state)
{
	struct game_moveset ms;
	struct game	 g;
	struct buf	 b;

	(void)state;
	buf_init(&b);
	tu_parse(&g, "wythoff K=3 t=5 30 2");
	assert_int_equal(game_terminal(&g), 0);
	assert_int_equal(game_mover(&g), 0);
	game_moveset_init(&ms);
	game_wythoff.policy(g.st, &ms);
	assert_int_equal(ms.n, 1);
	game_move_print(&ms.v[0].mv, &b);
	assert_string_equal(buf_str(&b), "1=27");
	game_moveset_clear(&ms);
	game_free(&g);
	tu_parse(&g, "wythoff K=100000000000000000000 100000000000000000005 "
	    "200000000000000000000");
	game_moveset_init(&ms);
	game_wythoff.policy(g.st, &ms);
	assert_int_equal(ms.n, 2);
	buf_reset(&b);
	game_move_print(&ms.v[0].mv, &b);
	buf_putc(&b, ',');
	game_move_print(&ms.v[1].mv, &b);
	assert_string_equal(buf_str(&b), "1=5,2=100000000000000000000");
	game_moveset_clear(&ms);
	game_free(&g);
	tu_parse(&g, "wythoff K=3 2 1");
	assert_int_equal(game_terminal(&g), 1);
	assert_int_equal(game_outcome(&g, NULL), GAME_P);
	game_moveset_init(&ms);
	game_wythoff.policy(g.st, &ms);
	assert_int_equal(ms.n, 0);
	game_moveset_clear(&ms);
	game_free(&g);
	buf_free(&b);
}

/* Bad input gives a specific error and never crashes. */
static void
test_wythoff_bad(void **state)
{
	struct game_limits lim = *tu_limits();
	struct game_error err;
	struct game	 g;

	(void)state;
	tu_parse_fails(GAME_ESYNTAX,
	    "wythoff -3 4",
	    "wythoff 3 -4",
	    "wythoff 3 x4",
	    "wythoff 3 +4",
	    "wythoff 3 4.0",
	    "wythoff",
	    "wythoff 3",
	    "wythoff K=2 t=3 3",
	    "wythoff 1 2 3",
	    "wythoff 1 2 3 4 5",
	    "wythoff k=2 3 4",
	    "wythoff T=2 3 4",
	    "wythoff K=2 K=3 3 4",
	    "wythoff t=2 t=2 3 4",
	    "wythoff K=0 3 4",
	    "wythoff t=0 3 4",
	    "wythoff t=00 3 4",
	    "wythoff K=-1 3 4",
	    "wythoff t=abc 3 4",
	    "wythoff K= 3 4",
	    "wythoff 3 4 K=2",
	    "wythoff 3 K=2 4",
	    NULL);
	lim.max_digits = 10;
	tu_parse_fails_msg(&lim, GAME_ELIMIT,
	    "wythoff 3 12345678901", "pile 2",
	    "wythoff K=12345678901 3 4", "K",
	    "wythoff t=12345678901 3 4", "",
	    NULL);
	assert_int_equal(game_parse_line(&g, "wythoff 1234567890 0", &lim,
	    &err), 0);
	game_free(&g);
}

/* Illegal moves of every kind: refused, and nothing changes. */
static void
test_wythoff_bad_moves(void **state)
{
	struct game_error err;
	struct game_move m;
	struct game	 g;
	mpz_t		 v;

	(void)state;
	tu_parse(&g, "wythoff K=3 t=5 30 40");
	tu_play_fail(&g, "3=1", GAME_EILLEGAL);
	tu_play_fail(&g, "1=28", GAME_EILLEGAL);	/* 2: not a multiple */
	tu_play_fail(&g, "1=30", GAME_EILLEGAL);	/* not lowered */
	tu_play_fail(&g, "1=33", GAME_EILLEGAL);	/* raised */
	tu_play_fail(&g, "2=40 1=27", GAME_EILLEGAL);
	tu_play_fail(&g, "1=27 2=31", GAME_EILLEGAL);	/* 3, 9: 6 >= 5 */
	tu_play_fail(&g, "1=0 2=0", GAME_EILLEGAL);	/* 30 and 40 */
	tu_play_fail(&g, "1=27 2=38", GAME_EILLEGAL);	/* 2: not 3k */
	tu_play_fail(&g, "1=26 2=34", GAME_EILLEGAL);	/* 4: not 3k */
	tu_play_fail(&g, "1=27 3=34", GAME_EILLEGAL);
	tu_plays(&g, GAME_ESYNTAX, "0=1", "1=-3", "1=27 1=24", "1.1=27",
	    "junk", NULL);
	/* Hand-built moves the parser cannot produce. */
	game_move_init(&m);
	memset(&err, 0, sizeof err);
	assert_int_equal(game_check(&g, &m, &err), -1);
	assert_int_equal(err.code, GAME_EILLEGAL);
	mpz_init_set_ui(v, 27);
	game_move_add(&m, 0, 1, v);
	game_move_add(&m, 0, 1, v);
	memset(&err, 0, sizeof err);
	assert_int_equal(game_check(&g, &m, &err), -1);
	assert_int_equal(err.code, GAME_EILLEGAL);
	assert_non_null(strstr(err.msg, "twice"));
	game_move_clear(&m);
	mpz_clear(v);
	/* The removals 3 and 6 differ by 3 < 5: legal, in either order. */
	tu_play(&g, "2=34 1=27");
	tu_play(&g, "1=24 2=31");
	tu_play(&g, "2=1");
	tu_play_fail(&g, "2=0", GAME_EILLEGAL);
	game_free(&g);
	tu_play_fail_at("wythoff K=3 2 2", "1=0", GAME_EILLEGAL);
	tu_play_fail_at("wythoff 0 0", "1=0", GAME_EILLEGAL);
}

/* Canonical forms round-trip through the parser. */
static void
test_wythoff_roundtrip(void **state)
{
	const char	*in[] = { "wythoff 3 5", "wythoff K=1 t=1 3 5",
	    "wythoff t=2 3 5", "wythoff K=3 t=5 30 40",
	    "wythoff t=05 K=003 030 40", "wythoff K=2 0 0",
	    "wythoff t=1 K=7 1 2" };
	const char	*out[] = { "wythoff 3 5", "wythoff 3 5",
	    "wythoff t=2 3 5", "wythoff K=3 t=5 30 40",
	    "wythoff K=3 t=5 30 40", "wythoff K=2 0 0", "wythoff K=7 1 2" };

	(void)state;
	tu_roundtrip(in, out, sizeof in / sizeof in[0]);
}

TU_MAIN("wythoff",
    cmocka_unit_test(test_wythoff_brute_t),
    cmocka_unit_test(test_wythoff_brute_kt),
    cmocka_unit_test(test_wythoff_to_grundy),
    cmocka_unit_test(test_wythoff_huge),
    cmocka_unit_test(test_wythoff_100k),
    cmocka_unit_test(test_wythoff_grundy),
    cmocka_unit_test(test_wythoff_grundy_clones),
    cmocka_unit_test(test_wythoff_share),
    cmocka_unit_test(test_wythoff_policy),
    cmocka_unit_test(test_wythoff_bad),
    cmocka_unit_test(test_wythoff_bad_moves),
    cmocka_unit_test(test_wythoff_roundtrip))
