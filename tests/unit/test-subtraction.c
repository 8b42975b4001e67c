/*
 * test-subtraction.c: subtraction games against an independent brute force
 * (a mex table over explicit options for one pile, a memoised game-tree
 * search for sums), plus huge piles, the table cap and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Length of the brute-force Grundy tables. */
#define BRUTE_N		3000

/* A set S with its brute-force Grundy table and period. */
struct bset {
	int		 k;
	int		 s[16];		/* ascending */
	unsigned char	 g[BRUTE_N];
	int		 pre, per;
};

/* Fills in g[n] = mex{g[n - s]} for n < BRUTE_N: no period theory. */
static void
bset_brute(struct bset *b)
{
	unsigned char	 seen[32];
	int		 n, i, v;

	for (n = 0; n < BRUTE_N; n++) {
		memset(seen, 0, sizeof seen);
		for (i = 0; i < b->k; i++)
			if (b->s[i] <= n)
				seen[b->g[n - b->s[i]]] = 1;
		for (v = 0; seen[v]; v++)
			;
		b->g[n] = (unsigned char)v;
	}
}

/*
 * Finds the smallest period p of the table's tail and the smallest
 * preperiod for it.  A p is accepted only if a whole window of max S values
 * repeats inside the table (which proves periodicity); returns 0 if found.
 */
static int
bset_period(struct bset *b)
{
	int	 p, i, smax = b->s[b->k - 1];

	for (p = 1; p < BRUTE_N; p++) {
		for (i = BRUTE_N - p - 1; i >= 0 && b->g[i] == b->g[i + p]; i--)
			;
		if (i + 1 + p + smax <= BRUTE_N) {
			b->pre = i + 1;
			b->per = p;
			return (0);
		}
	}
	return (-1);
}

/* Sets up S from a bit mask over {1..16}. */
static void
bset_from_mask(struct bset *b, unsigned mask)
{
	int	 i;

	b->k = 0;
	for (i = 0; i < 16; i++)
		if (mask & (1U << i))
			b->s[b->k++] = i + 1;
	bset_brute(b);
	if (bset_period(b) != 0) {
		print_error("no period within %d values\n", BRUTE_N);
		fail();
	}
}

/* Writes S as "2,5,7". */
static const char *
bset_str(const struct bset *b, char *out, size_t len)
{
	size_t	 o = 0;
	int	 i;

	out[0] = '\0';
	for (i = 0; i < b->k; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%d", i ? "," : "",
		    b->s[i]);
	return (out);
}

/* Returns SG(n) for any n by the test's own reduction of n. */
static unsigned
bset_sg(const struct bset *b, const mpz_t n)
{
	mpz_t		 r;
	unsigned	 v;

	if (mpz_cmp_ui(n, BRUTE_N) < 0)
		return (b->g[mpz_get_ui(n)]);
	mpz_init(r);
	mpz_sub_ui(r, n, (unsigned long)b->pre);
	mpz_fdiv_r_ui(r, r, (unsigned long)b->per);
	v = b->g[b->pre + (int)mpz_get_ui(r)];
	mpz_clear(r);
	return (v);
}

/* Returns the Grundy value the core computes for the single pile n. */
static unsigned long
core_sg(const char *set, const mpz_t n)
{
	struct game_error err;
	struct game	 g;
	char		*line;
	mpz_t		 v;
	unsigned long	 r;

	if (gmp_asprintf(&line, "subtraction S=%s %Zd", set, n) < 0)
		abort();
	tu_parse(&g, "%s", line);
	free(line);
	mpz_init(v);
	assert_int_equal(game_grundy(&g, v, &err), 0);
	r = mpz_get_ui(v);
	mpz_clear(v);
	game_free(&g);
	return (r);
}

/*
 * Checks one set: SG(n) for n <= 300 and a sample up to BRUTE_N, a huge n,
 * and that the core's preperiod + period equals the brute force's (the
 * table cap max_table = pre + per is just enough).
 */
static void
check_set(const struct bset *b, int step, gmp_randstate_t rs)
{
	struct game_limits lim = *tu_limits();
	struct game_error err;
	struct game	 g;
	char		 s[128], line[256];
	mpz_t		 n;
	int		 i;

	bset_str(b, s, sizeof s);
	mpz_init(n);
	for (i = 0; i < BRUTE_N; i += i < 300 ? 1 : step) {
		mpz_set_ui(n, (unsigned long)i);
		/* The periodic formula holds over the whole table... */
		if (i >= b->pre)
			assert_int_equal(b->g[i],
			    b->g[b->pre + (i - b->pre) % b->per]);
		/* ...and the core agrees with the direct table. */
		if (core_sg(s, n) != b->g[i]) {
			print_error("S={%s} n=%d: core %lu, brute %u\n", s, i,
			    core_sg(s, n), b->g[i]);
			fail();
		}
	}
	for (i = 0; i < 3; i++) {
		mpz_urandomb(n, rs, 3400 + 7 * (unsigned long)i);
		mpz_setbit(n, 3400);
		assert_int_equal(core_sg(s, n), bset_sg(b, n));
	}
	lim.max_table = (size_t)(b->pre + b->per);
	snprintf(line, sizeof line, "subtraction S=%s 5", s);
	assert_int_equal(game_parse_line(&g, line, &lim, &err), 0);
	game_free(&g);
	lim.max_table--;
	assert_int_equal(game_parse_line(&g, line, &lim, &err), -1);
	assert_int_equal(err.code, GAME_ELIMIT);
	assert_non_null(strstr(err.msg, "max_table"));
	mpz_clear(n);
}

/* Every non-empty S in {1..8}, then every S in {1..10} more sparsely. */
static void
test_sub_brute_sets(void **state)
{
	struct bset	*b = malloc(sizeof *b);
	gmp_randstate_t	 rs;
	unsigned	 mask;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 7);
	for (mask = 1; mask < 1U << 8; mask++) {
		bset_from_mask(b, mask);
		check_set(b, 1, rs);
	}
	for (mask = 1U << 8; mask < 1U << 10; mask++) {
		bset_from_mask(b, mask);
		check_set(b, 97, rs);
	}
	gmp_randclear(rs);
	free(b);
}

/* Random sets S in {1..16} of 2 to 5 elements (seeded). */
static void
test_sub_brute_random(void **state)
{
	struct bset	*b = malloc(sizeof *b);
	gmp_randstate_t	 rs;
	unsigned	 mask;
	int		 t, i, bits;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 11);
	for (t = 0; t < 60; t++) {
		do {
			mask = (unsigned)gmp_urandomb_ui(rs, 16);
			for (bits = 0, i = 0; i < 16; i++)
				bits += (mask >> i) & 1;
		} while (bits < 2 || bits > 5);
		bset_from_mask(b, mask);
		check_set(b, 13, rs);
	}
	gmp_randclear(rs);
	free(b);
}

/* The table of games.md §7: preperiod, period and one period of values. */
static void
test_sub_spec_table(void **state)
{
	static const struct {
		unsigned	 mask;
		int		 pre, per;
		const char	*vals;
	} rows[] = {
		{ 0x3, 0, 3, "012" },
		{ 0x5, 0, 2, "01" },
		{ 0x6, 0, 5, "00112" },
		{ 0xd, 0, 7, "0101232" },
		{ 0x52, 0, 22, "0011021322031001122332" },
		{ 0x182, 21, 11, "00112001122" },
		{ 0x2c4, 30, 15, "020101014123232" },
	};
	struct bset	*b = malloc(sizeof *b);
	gmp_randstate_t	 rs;
	char		 s[64];
	mpz_t		 n;
	size_t		 r;
	int		 i;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 3);
	mpz_init(n);
	for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		bset_from_mask(b, rows[r].mask);
		assert_int_equal(b->pre, rows[r].pre);
		assert_int_equal(b->per, rows[r].per);
		bset_str(b, s, sizeof s);
		for (i = 0; i < b->per; i++) {
			assert_int_equal(b->g[b->pre + i],
			    rows[r].vals[i] - '0');
			/* The same value a googol of periods later. */
			mpz_ui_pow_ui(n, 10, 100);
			mpz_mul_ui(n, n, (unsigned long)b->per);
			mpz_add_ui(n, n, (unsigned long)(b->pre + i));
			assert_int_equal(core_sg(s, n), rows[r].vals[i] - '0');
		}
		check_set(b, 1, rs);
	}
	mpz_clear(n);
	gmp_randclear(rs);
	free(b);
}

/* Raw rules of a sum of piles under S: remove s in S from one pile. */
static int
bsum_options(const int *a, int k, struct tu_opt *o, void *arg)
{
	const struct bset *b = arg;
	int	 i, j, n = 0;

	for (i = 0; i < k; i++)
		for (j = 0; j < b->k && b->s[j] <= a[i]; j++) {
			memcpy(o[n].next, a, (size_t)k * sizeof *a);
			o[n].next[i] -= b->s[j];
			snprintf(o[n].name, sizeof o[n].name, "%d=%d", i + 1,
			    o[n].next[i]);
			n++;
		}
	return (n);
}

/* Checks to_grundy for targets 1-4, which sums rely on, at a. */
static void
check_to_grundy(struct tu_brute *br, const int *a, const struct game *g,
    const char *ctx)
{
	int	 t;

	for (t = 1; t <= 4; t++)
		tu_brute_to_grundy(br, a, g, t, ctx, NULL);
}

/* Checks every sum of k piles <= bound under S against the brute force. */
static void
check_sums(const struct bset *b, int k, int bound)
{
	struct tu_brute	 br;
	struct buf	 line;
	struct game	 g;
	char		 s[64];
	int		 a[TU_MAXK] = { 0 }, bd[TU_MAXK], i;

	tu_brute_init(&br, k, bsum_options, (void *)b);
	for (i = 0; i < k; i++)
		bd[i] = bound;
	buf_init(&line);
	bset_str(b, s, sizeof s);
	do {
		buf_reset(&line);
		buf_printf(&line, "subtraction S=%s", s);
		for (i = 0; i < k; i++)
			buf_printf(&line, " %d", a[i]);
		tu_parse(&g, "%s", buf_str(&line));
		assert_int_equal(game_terminal(&g), a[0] < b->s[0] &&
		    (k < 2 || a[1] < b->s[0]) && (k < 3 || a[2] < b->s[0]));
		tu_brute_check(&br, a, &g);
		check_to_grundy(&br, a, &g, buf_str(&line));
		game_free(&g);
	} while (tu_next(a, k, bd));
	buf_free(&line);
	tu_brute_free(&br);
}

/* Sums of 1-3 piles <= 18 for seven sets (games.md §7 bounds). */
static void
test_sub_sums(void **state)
{
	static const unsigned masks[] = { 0x3, 0x5, 0x6, 0xd, 0x52, 0x182,
	    0x2c4 };
	struct bset	*b = malloc(sizeof *b);
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof masks / sizeof masks[0]; i++) {
		bset_from_mask(b, masks[i]);
		check_sums(b, 1, 60);
		check_sums(b, 2, 18);
		check_sums(b, 3, 18);
	}
	free(b);
}

/* A huge position: S, its piles and their XOR by the test's own table. */
struct huge_pos {
	const struct bset *b;
	mpz_t		*p;
	unsigned	 x;
};

/*
 * After move m, h's Grundy value is 0, and so is the XOR by the test's own
 * table (independent of the solver).
 */
static void
huge_move_zero(const struct game *h, const struct game_move *m, void *arg)
{
	const struct huge_pos *hp = arg;
	size_t		 j = m->ch[0].idx - 1;

	tu_grundy_zero(h, m, NULL);
	assert_int_equal(hp->x ^ bset_sg(hp->b, hp->p[j]) ^
	    bset_sg(hp->b, m->ch[0].val), 0);
}

/*
 * Checks the sum of the k huge piles p under S (b, written s), whose
 * Grundy values XOR to x by the test's own table, against the solver.
 */
static void
check_huge_pos(const struct bset *b, const char *s, mpz_t *p, size_t k,
    unsigned x)
{
	struct huge_pos	 hm = { b, p, x };
	struct game_moveset ms;
	struct tu_strs	 wins;
	struct game	 g;
	struct buf	 line;
	mpz_t		 v;
	unsigned	 y;
	size_t		 i, j;
	char		*str;

	mpz_init(v);
	buf_init(&line);
	buf_printf(&line, "subtraction S=%s", s);
	for (i = 0; i < k; i++) {
		buf_putc(&line, ' ');
		buf_mpz(&line, p[i]);
	}
	tu_parse(&g, "%s", buf_str(&line));
	/* The complete winning set, by the test's own SG. */
	tu_strs_init(&wins);
	for (i = 0; i < k; i++)
		for (j = 0; j < (size_t)b->k; j++) {
			mpz_sub_ui(v, p[i], (unsigned long)b->s[j]);
			y = x ^ bset_sg(b, p[i]) ^ bset_sg(b, v);
			if (y != 0)
				continue;
			str = mpz_get_str(NULL, 10, v);
			tu_strs_add(&wins, "%zu=%s", i + 1, str);
			free(str);
		}
	tu_check(&g, x != 0 ? GAME_N : GAME_P, (long)x, &wins);
	tu_strs_free(&wins);
	game_moveset_init(&ms);
	tu_winning_each(&g, &ms, huge_move_zero, &hm);
	assert_int_equal(ms.n == 0, x == 0);
	game_moveset_clear(&ms);
	game_free(&g);
	buf_free(&line);
	mpz_clear(v);
}

/*
 * Piles of more than 1000 digits: the core's Grundy value and complete
 * winning-move set match the test's own reduction modulo the period, and
 * every winning move is legal and leads to Grundy value 0.
 */
static void
test_sub_huge(void **state)
{
	static const unsigned masks[] = { 0x52, 0x182, 0x2c4, 0xd, 0x8a41,
	    0x4c25, 0x3 };
	struct bset	*b = malloc(sizeof *b);
	gmp_randstate_t	 rs;
	mpz_t		 p[4];
	unsigned	 x;
	size_t		 m, i, j, t, k;
	char		 s[64];

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 99);
	for (i = 0; i < 4; i++)
		mpz_init(p[i]);
	for (m = 0; m < sizeof masks / sizeof masks[0]; m++) {
		bset_from_mask(b, masks[m]);
		bset_str(b, s, sizeof s);
		for (t = 0; t < 12; t++) {
			k = 2 + t % 3;
			x = 0;
			for (i = 0; i < k; i++) {
				mpz_urandomb(p[i], rs, 3400);
				mpz_setbit(p[i], 3400);
				x ^= bset_sg(b, p[i]);
			}
			/* Every other position: try to make it P. */
			for (j = 0; t % 2 == 1 && x != 0 && j < 128; j++) {
				x ^= bset_sg(b, p[0]);
				mpz_add_ui(p[0], p[0], 1);
				x ^= bset_sg(b, p[0]);
			}
			check_huge_pos(b, s, p, k, x);
		}
	}
	for (i = 0; i < 4; i++)
		mpz_clear(p[i]);
	gmp_randclear(rs);
	free(b);
}

/* Bad input gives a specific error and never crashes. */
static void
test_sub_bad(void **state)
{
	struct game_limits lim = *tu_limits();
	const struct game_limits *dl = tu_limits();
	struct game	 g;

	(void)state;
	tu_parse_fail_msg(dl, "subtraction 3 4", GAME_ESYNTAX, "missing S=");
	tu_parse_fail_msg(dl, "subtraction 3 S=1,2", GAME_ESYNTAX, "missing S=");
	tu_parse_fails(GAME_ESYNTAX,
	    "subtraction S= 3",
	    "subtraction S=1 S=2 3",
	    "subtraction T=1 3",
	    NULL);
	tu_parse_fails_msg(dl, GAME_ESYNTAX,
	    "subtraction S=2,,3 4", "S element 2 is empty",
	    "subtraction S=,2 4", "S element 1 is empty",
	    "subtraction S=2, 4", "S element 2 is empty",
	    "subtraction S=2,x 4", "'x'",
	    "subtraction S=2a 4", "'2a'",
	    "subtraction S=-1 4", "'-1'",
	    "subtraction S=+2 4", "'+2'",
	    "subtraction S=2;3 4", "'2;3'",
	    "subtraction S=0 4", "at least 1",
	    "subtraction S=2,00 4", "at least 1",
	    NULL);
	tu_parse_fail_msg(dl, "subtraction S=4097 4", GAME_ELIMIT,
	    "exceeds the limit of 4096");
	tu_parse_fail_msg(dl, "subtraction S=3,184467440737095516160000 4",
	    GAME_ELIMIT, "exceeds the limit");
	tu_parse_fails(GAME_ESYNTAX,
	    "subtraction S=1,2",
	    "subtraction S=1,2 x",
	    "subtraction S=1,2 -3",
	    NULL);
	lim.max_set = 3;
	tu_parse_fail_msg(&lim, "subtraction S=1,2,3,4 5", GAME_ELIMIT,
	    "more than 3 distinct");
	tu_parse_ok(&lim, "subtraction S=3,1,1,2,2,3,3 5");
	/* {3,7,8,10}: preperiod 30 + period 15 = 45 entries. */
	lim = *dl;
	lim.max_table = 44;
	tu_parse_fail_msg(&lim, "subtraction S=3,7,8,10 5", GAME_ELIMIT,
	    "cap of 44 entries (max_table)");
	tu_parse_fail_msg(&lim, "subtraction S=3,7,8,10 5", GAME_ELIMIT,
	    "S={3,7,8,10}");
	lim.max_table = 45;
	tu_parse_ok(&lim, "subtraction S=3,7,8,10 5");
	lim.max_digits = 10;
	tu_parse_fail_msg(&lim, "subtraction S=3 12345678901", GAME_ELIMIT,
	    "pile 1");

	tu_parse(&g, "subtraction S=7,2,5 10 11");
	tu_move_fails_msg(&g,
	    "1=9", "removal 1 is not in S={2,5,7}",
	    "2=7", "removal 4 is not in S={2,5,7}",
	    "1=0", "removal 10 is not in S={2,5,7}",
	    "3=1", "out of range",
	    NULL);
	tu_plays(&g, GAME_EILLEGAL, "1=9", "1=10", "1=12", "3=1",
	    "1=8 2=9", NULL);
	tu_plays(&g, GAME_ESYNTAX, "1=-2", "0=8", "1.1=8", NULL);
	tu_play(&g, "1=8");
	tu_play(&g, "2=4");
	tu_play(&g, "1=1");
	tu_play(&g, "2=2");
	tu_play(&g, "2=0");
	assert_int_equal(game_terminal(&g), 1);
	tu_play_fail(&g, "1=0", GAME_EILLEGAL);
	game_free(&g);
	tu_parse(&g, "subtraction S=1,9 123456789012345678901234567890 3");
	tu_move_fail_msg(&g, "1=1", "removal from pile 1 exceeds the largest "
	    "element 9 of S={1,9}");
	tu_play(&g, "1=123456789012345678901234567881");
	game_free(&g);
}

/* Canonical forms round-trip; the engine's policy removes min S. */
static void
test_sub_print_policy(void **state)
{
	const char	*in[] = { "subtraction S=7,2,5,2 10 011",
	    "subtraction S=0004 0", "subtraction S=3,1 1 2 3" };
	const char	*out[] = { "subtraction S=2,5,7 10 11",
	    "subtraction S=4 0", "subtraction S=1,3 1 2 3" };
	struct game_moveset ms;
	struct tu_strs	 a, want;
	struct game	 g, h;

	(void)state;
	tu_roundtrip(in, out, sizeof in / sizeof in[0]);
	tu_parse(&g, "subtraction S=5,3 2 7 3 4");
	game_moveset_init(&ms);
	g.fam->policy(g.st, &ms);
	tu_strs_init(&a);
	tu_strs_init(&want);
	tu_moveset_strs(&ms, &a);
	tu_strs_add(&want, "2=4");
	tu_strs_add(&want, "3=0");
	tu_strs_add(&want, "4=1");
	tu_strs_sort(&a);
	tu_strs_sort(&want);
	assert_true(tu_strs_eq(&a, &want, "policy"));
	tu_strs_free(&a);
	tu_strs_free(&want);
	game_moveset_clear(&ms);
	/* A clone shares the table but not the piles, and outlives g. */
	tu_clone_play(&h, &g, "2=2", "subtraction S=3,5 2 7 3 4",
	    "subtraction S=3,5 2 2 3 4");
	game_free(&g);
	tu_print_is(&h, "subtraction S=3,5 2 2 3 4");
	game_moveset_init(&ms);
	h.fam->policy(h.st, &ms);
	assert_int_equal(ms.n, 2);
	game_moveset_clear(&ms);
	game_free(&h);
	tu_parse(&g, "subtraction S=3,5 2 1 0");
	assert_int_equal(game_terminal(&g), 1);
	game_moveset_init(&ms);
	g.fam->policy(g.st, &ms);
	assert_int_equal(ms.n, 0);
	game_moveset_clear(&ms);
	game_free(&g);
}

TU_MAIN("subtraction",
    cmocka_unit_test(test_sub_spec_table),
    cmocka_unit_test(test_sub_brute_sets),
    cmocka_unit_test(test_sub_brute_random),
    cmocka_unit_test(test_sub_sums),
    cmocka_unit_test(test_sub_huge),
    cmocka_unit_test(test_sub_bad),
    cmocka_unit_test(test_sub_print_policy))
