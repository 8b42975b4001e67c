/*
 * test-staircase.c: staircase Nim against an independent brute force,
 * huge numbers and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Raw rules: slide c >= 1 coins from step s to step s-1 (0 = ground). */
static int
stair_options(const int *a, int k, struct tu_opt *o, void *arg)
{
	int	 s, c, n = 0;

	(void)arg;
	for (s = 0; s < k; s++)
		for (c = 1; c <= a[s]; c++) {
			memcpy(o[n].next, a, (size_t)k * sizeof *a);
			o[n].next[s] -= c;
			if (s == 0)
				snprintf(o[n].name, sizeof o[n].name, "1=%d",
				    a[0] - c);
			else {
				o[n].next[s - 1] += c;
				snprintf(o[n].name, sizeof o[n].name,
				    "%d=%d %d=%d", s, a[s - 1] + c, s + 1,
				    a[s] - c);
			}
			n++;
		}
	return (n);
}

/* Checks every position of k steps with <= bound coins each. */
static void
check_stair(int k, int bound)
{
	struct tu_brute	 br;

	tu_brute_init(&br, k, stair_options, NULL);
	tu_brute_check_all(&br, bound, "staircase");
	tu_brute_free(&br);
}

/* games.md §6 bounds. */
static void
test_stair_brute(void **state)
{
	(void)state;
	check_stair(1, 12);
	check_stair(2, 10);
	check_stair(3, 7);
	check_stair(4, 6);
	check_stair(5, 4);
	check_stair(6, 3);
}

/* Independent of the solver: reparses h's printed steps; XOR odd is 0. */
static void
odd_xor_zero(const struct game *h, const struct game_move *m, void *arg)
{
	struct buf	 pos;
	char		*p, *tok;
	int		 step = 0;
	mpz_t		 x, v;

	(void)m;
	(void)arg;
	mpz_inits(x, v, NULL);
	buf_init(&pos);
	game_print(h, &pos);
	p = strdup(buf_str(&pos));
	strtok(p, " ");
	while ((tok = strtok(NULL, " ")) != NULL) {
		step++;
		mpz_set_str(v, tok, 10);
		if (step % 2 == 1)
			mpz_xor(x, x, v);
	}
	assert_int_equal(mpz_sgn(x), 0);
	free(p);
	buf_free(&pos);
	mpz_clears(x, v, NULL);
}

/* Huge steps: each winning move is legal and zeroes the odd-step XOR. */
static void
test_stair_huge(void **state)
{
	struct game_moveset ms;
	struct game	 g;
	struct buf	 line;
	gmp_randstate_t	 rs;
	int		 t, s, n;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 99);
	buf_init(&line);
	for (t = 0; t < 30; t++) {
		n = 2 + t % 6;
		buf_reset(&line);
		buf_puts(&line, "staircase");
		for (s = 0; s < n; s++)
			tu_put_random(&line, rs,
			    3500 + (unsigned)(t * s) % 200);
		tu_parse(&g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		tu_winning_each(&g, &ms, odd_xor_zero, NULL);
		assert_true(ms.n > 0);
		game_moveset_clear(&ms);
		game_free(&g);
	}
	buf_free(&line);
	gmp_randclear(rs);
}

/* Bad input and illegal moves of every kind. */
static void
test_stair_bad(void **state)
{
	struct game	 g;

	(void)state;
	tu_parse_fails(GAME_ESYNTAX,
	    "staircase",
	    "staircase k=1 3",
	    "staircase 3 -1",
	    NULL);
	tu_parse(&g, "staircase 3 0 2 5");
	tu_play_fail(&g, "3=1", GAME_EILLEGAL);		/* no destination */
	tu_play_fail(&g, "3=1 1=4", GAME_EILLEGAL);	/* not adjacent */
	tu_play_fail(&g, "3=1 2=2", GAME_EILLEGAL);	/* counts differ */
	tu_play_fail(&g, "3=3 2=0", GAME_EILLEGAL);	/* no coin leaves */
	tu_play_fail(&g, "2=1 1=2", GAME_EILLEGAL);	/* step 2 is empty */
	tu_play_fail(&g, "5=0 4=10", GAME_EILLEGAL);	/* out of range */
	tu_play_fail(&g, "1=3", GAME_EILLEGAL);		/* not lowered */
	tu_plays(&g, GAME_OK, "3=1 2=1", "1=0", "2=0 1=1", NULL);
	game_free(&g);
}

TU_MAIN("staircase",
    cmocka_unit_test(test_stair_brute),
    cmocka_unit_test(test_stair_huge),
    cmocka_unit_test(test_stair_bad))
