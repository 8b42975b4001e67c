/*
 * test-nim.c: Nim and misere Nim against an independent brute force (a
 * memoised game-tree search with no theory), plus huge piles and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Brute-force table over k piles each <= bound. */
struct brute {
	int		 k, bound, misere;
	size_t		 size;
	signed char	*win;		/* -1 unknown, 0 P, 1 N */
	int		*sg;		/* normal play only */
};

/* Decodes index into piles. */
static void
brute_decode(const struct brute *br, size_t idx, int *a)
{
	int	 i;

	for (i = 0; i < br->k; i++) {
		a[i] = (int)(idx % (size_t)(br->bound + 1));
		idx /= (size_t)(br->bound + 1);
	}
}

/* Encodes piles into an index. */
static size_t
brute_encode(const struct brute *br, const int *a)
{
	size_t	 idx = 0;
	int	 i;

	for (i = br->k - 1; i >= 0; i--)
		idx = idx * (size_t)(br->bound + 1) + (size_t)a[i];
	return (idx);
}

/* Solves position idx by trying every move (recursion on smaller piles). */
static void
brute_solve(struct brute *br, size_t idx)
{
	int	 a[8], i, v, old, anyp = 0, moves = 0;
	char	 seen[512];
	size_t	 j;

	if (br->win[idx] >= 0)
		return;
	brute_decode(br, idx, a);
	memset(seen, 0, sizeof seen);
	for (i = 0; i < br->k; i++) {
		old = a[i];
		for (v = 0; v < old; v++) {
			a[i] = v;
			j = brute_encode(br, a);
			brute_solve(br, j);
			moves++;
			if (br->win[j] == 0)
				anyp = 1;
			if (!br->misere)
				seen[br->sg[j]] = 1;
		}
		a[i] = old;
	}
	if (moves == 0)
		br->win[idx] = br->misere ? 1 : 0;
	else
		br->win[idx] = anyp;
	if (!br->misere) {
		for (v = 0; seen[v]; v++)
			;
		br->sg[idx] = v;
	}
}

/* Checks every position with k piles <= bound. */
static void
check_all(int k, int bound, int misere)
{
	struct brute	 br;
	struct tu_strs	 wins;
	struct buf	 line;
	struct game	 g;
	size_t		 idx, j;
	int		 a[8], i, v, old;

	br.k = k;
	br.bound = bound;
	br.misere = misere;
	br.size = 1;
	for (i = 0; i < k; i++)
		br.size *= (size_t)(bound + 1);
	br.win = malloc(br.size);
	memset(br.win, -1, br.size);
	br.sg = calloc(br.size, sizeof *br.sg);
	buf_init(&line);
	for (idx = 0; idx < br.size; idx++) {
		brute_solve(&br, idx);
		brute_decode(&br, idx, a);
		buf_reset(&line);
		buf_puts(&line, misere ? "nim misere=1" : "nim");
		for (i = 0; i < k; i++)
			buf_printf(&line, " %d", a[i]);
		tu_parse(&g, "%s", buf_str(&line));
		tu_strs_init(&wins);
		for (i = 0; i < k; i++) {
			old = a[i];
			for (v = 0; v < old; v++) {
				a[i] = v;
				j = brute_encode(&br, a);
				if (br.win[j] == 0)
					tu_strs_add(&wins, "%d=%d", i + 1, v);
			}
			a[i] = old;
		}
		tu_check(&g, br.win[idx], misere ? -1 : br.sg[idx], &wins);
		tu_strs_free(&wins);
		game_free(&g);
	}
	buf_free(&line);
	free(br.win);
	free(br.sg);
}

/* Normal play on every small position (games.md §2 bounds). */
static void
test_nim_brute(void **state)
{
	(void)state;
	check_all(1, 30, 0);
	check_all(2, 20, 0);
	check_all(3, 12, 0);
	check_all(4, 8, 0);
	check_all(5, 6, 0);
}

/* Misere play on every small position. */
static void
test_misere_brute(void **state)
{
	(void)state;
	check_all(1, 30, 1);
	check_all(2, 20, 1);
	check_all(3, 12, 1);
	check_all(4, 8, 1);
	check_all(5, 6, 1);
}

/* Piles of 2,000 digits: every winning move is legal and zeroes the XOR. */
static void
test_nim_huge(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct game	 g, h;
	struct buf	 line;
	gmp_randstate_t	 rs;
	mpz_t		 p, x;
	size_t		 i, t;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 12345);
	mpz_inits(p, x, NULL);
	buf_init(&line);
	for (t = 0; t < 20; t++) {
		buf_reset(&line);
		buf_puts(&line, "nim");
		for (i = 0; i < 4 + t % 3; i++) {
			mpz_urandomb(p, rs, 6700);
			buf_putc(&line, ' ');
			buf_mpz(&line, p);
		}
		tu_parse(&g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		assert_int_equal(game_winning(&g, &ms, &err), 0);
		assert_int_equal(game_outcome(&g, &err),
		    ms.n > 0 ? GAME_N : GAME_P);
		/* Bouton: the number of winning moves is odd when X != 0. */
		if (ms.n > 0)
			assert_int_equal(ms.n % 2, 1);
		for (i = 0; i < ms.n; i++) {
			game_clone(&h, &g);
			assert_int_equal(game_play(&h, &ms.v[i].mv, &err), 0);
			/* Independent check: XOR of all piles is zero. */
			assert_int_equal(game_grundy(&h, x, &err), 0);
			assert_int_equal(mpz_sgn(x), 0);
			game_free(&h);
		}
		game_moveset_clear(&ms);
		game_free(&g);
	}
	buf_free(&line);
	mpz_clears(p, x, NULL);
	gmp_randclear(rs);
}

/* Bad input gives a specific error and never crashes. */
static void
test_nim_bad(void **state)
{
	struct game	 g;

	(void)state;
	tu_parse_fail(GAME_ESYNTAX, "nim -3 4");
	tu_parse_fail(GAME_ESYNTAX, "nim 3 x4");
	tu_parse_fail(GAME_ESYNTAX, "nim 3 +4");
	tu_parse_fail(GAME_ESYNTAX, "nim");
	tu_parse_fail(GAME_ESYNTAX, "nim foo=1 3");
	tu_parse_fail(GAME_ESYNTAX, "nim misere=1 misere=0 3");
	tu_parse_fail(GAME_ESYNTAX, "nim misere=2 3");
	tu_parse_fail(GAME_ESYNTAX, "nim 3 misere=1");
	tu_parse_fail(GAME_ESYNTAX, "nimm 3");
	{
		struct game_limits lim = *tu_limits();
		struct game_error err;

		lim.max_digits = 100;
		assert_int_equal(game_parse_line(&g, "nim 3 1234567890"
		    "12345678901234567890123456789012345678901234567890123456789"
		    "01234567890123456789012345678901234567890", &lim, &err),
		    -1);
		assert_int_equal(err.code, GAME_ELIMIT);
		assert_non_null(strstr(err.msg, "pile 2"));
		lim.max_piles = 2;
		assert_int_equal(game_parse_line(&g, "nim 1 2 3", &lim, &err),
		    -1);
		assert_int_equal(err.code, GAME_ELIMIT);
	}
	tu_parse(&g, "nim 3 4 5");
	tu_play_fail(&g, "4=1", GAME_EILLEGAL);
	tu_play_fail(&g, "0=1", GAME_ESYNTAX);
	tu_play_fail(&g, "1=3", GAME_EILLEGAL);
	tu_play_fail(&g, "1=7", GAME_EILLEGAL);
	tu_play_fail(&g, "1=-1", GAME_ESYNTAX);
	tu_play_fail(&g, "1=0 2=0", GAME_EILLEGAL);
	tu_play_fail(&g, "1.1=0", GAME_ESYNTAX);
	tu_play_fail(&g, "1=0 1=1", GAME_ESYNTAX);
	tu_play_fail(&g, "junk", GAME_ESYNTAX);
	tu_play(&g, "1=1");
	game_free(&g);
	tu_parse(&g, "nim 0 0");
	tu_play_fail(&g, "1=0", GAME_EILLEGAL);
	game_free(&g);
}

/* Canonical forms round-trip through the parser. */
static void
test_nim_roundtrip(void **state)
{
	const char	*in[] = { "nim 3 4 5", "nim misere=1 1 1 2",
	    "nim misere=0 007 0", "nim 0" };
	const char	*out[] = { "nim 3 4 5", "nim misere=1 1 1 2",
	    "nim 7 0", "nim 0" };
	struct game	 g, h;
	struct buf	 a, b;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		buf_init(&a);
		buf_init(&b);
		tu_parse(&g, "%s", in[i]);
		game_print(&g, &a);
		assert_string_equal(buf_str(&a), out[i]);
		tu_parse(&h, "%s", buf_str(&a));
		game_print(&h, &b);
		assert_string_equal(buf_str(&a), buf_str(&b));
		game_free(&g);
		game_free(&h);
		buf_free(&a);
		buf_free(&b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nim_brute),
		cmocka_unit_test(test_misere_brute),
		cmocka_unit_test(test_nim_huge),
		cmocka_unit_test(test_nim_bad),
		cmocka_unit_test(test_nim_roundtrip),
	};

	return (cmocka_run_group_tests_name("nim", tests, NULL, NULL));
}
