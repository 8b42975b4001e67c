/*
 * test-nim.c: Nim and misere Nim against an independent brute force (a
 * memoised game-tree search with no theory), plus huge piles and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Raw rules: lower one pile to any smaller size. */
static int
nim_options(const int *a, int k, struct tu_opt *o, void *arg)
{
	int	 i, v, n = 0;

	(void)arg;
	for (i = 0; i < k; i++)
		for (v = 0; v < a[i]; v++) {
			memcpy(o[n].next, a, (size_t)k * sizeof *a);
			o[n].next[i] = v;
			snprintf(o[n].name, sizeof o[n].name, "%d=%d", i + 1,
			    v);
			n++;
		}
	return (n);
}

/* Checks every position with k piles <= bound. */
static void
check_all(int k, int bound, int misere)
{
	struct tu_brute	 br;

	tu_brute_init(&br, k, nim_options, NULL);
	br.misere = misere;
	tu_brute_check_all(&br, bound, misere ? "nim misere=1" : "nim");
	tu_brute_free(&br);
}

/* Every small position with the bounds of games.md §2, in one play. */
static void
check_bounds(int misere)
{
	static const int bounds[][2] = { { 1, 30 }, { 2, 20 }, { 3, 12 },
	    { 4, 8 }, { 5, 6 } };
	size_t		 i;

	for (i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
		check_all(bounds[i][0], bounds[i][1], misere);
}

/* Normal play on every small position. */
static void
test_nim_brute(void **state)
{
	(void)state;
	check_bounds(0);
}

/* Misere play on every small position. */
static void
test_misere_brute(void **state)
{
	(void)state;
	check_bounds(1);
}

/* Piles of 2,000 digits: every winning move is legal and zeroes the XOR. */
static void
test_nim_huge(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct game	 g;
	struct buf	 line;
	gmp_randstate_t	 rs;
	size_t		 i, t;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 12345);
	buf_init(&line);
	for (t = 0; t < 20; t++) {
		buf_reset(&line);
		buf_puts(&line, "nim");
		for (i = 0; i < 4 + t % 3; i++)
			tu_put_random(&line, rs, 6700);
		tu_parse(&g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		/* Independent check: after each, the XOR of all piles is 0. */
		tu_winning_each(&g, &ms, tu_grundy_zero, NULL);
		assert_int_equal(game_outcome(&g, &err),
		    ms.n > 0 ? GAME_N : GAME_P);
		/* Bouton: the number of winning moves is odd when X != 0. */
		if (ms.n > 0)
			assert_int_equal(ms.n % 2, 1);
		game_moveset_clear(&ms);
		game_free(&g);
	}
	buf_free(&line);
	gmp_randclear(rs);
}

/* Bad input gives a specific error and never crashes. */
static void
test_nim_bad(void **state)
{
	struct game	 g;

	(void)state;
	tu_parse_fails(GAME_ESYNTAX,
	    "nim -3 4",
	    "nim 3 x4",
	    "nim 3 +4",
	    "nim",
	    "nim foo=1 3",
	    "nim misere=1 misere=0 3",
	    "nim misere=2 3",
	    "nim 3 misere=1",
	    "nimm 3",
	    NULL);
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
	tu_plays(&g, GAME_ESYNTAX, "1.1=0", "1=0 1=1", "junk", NULL);
	tu_play(&g, "1=1");
	game_free(&g);
	tu_play_fail_at("nim 0 0", "1=0", GAME_EILLEGAL);
}

/* Canonical forms round-trip through the parser. */
static void
test_nim_roundtrip(void **state)
{
	const char	*in[] = { "nim 3 4 5", "nim misere=1 1 1 2",
	    "nim misere=0 007 0", "nim 0" };
	const char	*out[] = { "nim 3 4 5", "nim misere=1 1 1 2",
	    "nim 7 0", "nim 0" };

	(void)state;
	tu_roundtrip(in, out, sizeof in / sizeof in[0]);
}

TU_MAIN("nim",
    cmocka_unit_test(test_nim_brute),
    cmocka_unit_test(test_misere_brute),
    cmocka_unit_test(test_nim_huge),
    cmocka_unit_test(test_nim_bad),
    cmocka_unit_test(test_nim_roundtrip))
