/*
 * test-bash.c: Bash's game against an independent brute force, huge piles
 * and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Raw rules: remove 1..m tokens from one pile. */
static int
bash_options(const int *a, int k, struct tu_opt *o, void *arg)
{
	int	 m = *(int *)arg, i, c, n = 0;

	for (i = 0; i < k; i++)
		for (c = 1; c <= m && c <= a[i]; c++) {
			memcpy(o[n].next, a, (size_t)k * sizeof *a);
			o[n].next[i] -= c;
			snprintf(o[n].name, sizeof o[n].name, "%d=%d", i + 1,
			    a[i] - c);
			n++;
		}
	return (n);
}

/* Checks every position of k piles <= bound for parameter m. */
static void
check_bash(int m, int k, int bound)
{
	struct tu_brute	 br;
	char		 prefix[32];

	tu_brute_init(&br, k, bash_options, &m);
	snprintf(prefix, sizeof prefix, "bash m=%d", m);
	tu_brute_check_all(&br, bound, prefix);
	tu_brute_free(&br);
}

/* games.md §1 bounds: m <= 12, n <= 300; and sums of two piles. */
static void
test_bash_brute(void **state)
{
	int	 m;

	(void)state;
	for (m = 1; m <= 12; m++) {
		check_bash(m, 1, 300);
		check_bash(m, 2, 30);
	}
}

/* Huge piles and m: the winning move is unique and leaves n mod (m+1) = 0. */
static void
test_bash_huge(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct game	 g;
	struct buf	 line;
	gmp_randstate_t	 rs;
	mpz_t		 n, m, r;
	int		 t;

	(void)state;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 7);
	mpz_inits(n, m, r, NULL);
	buf_init(&line);
	for (t = 0; t < 30; t++) {
		mpz_urandomb(n, rs, 4000);
		mpz_urandomb(m, rs, t % 2 ? 3400 : 40);
		mpz_add_ui(m, m, 1);
		buf_reset(&line);
		buf_puts(&line, "bash m=");
		buf_mpz(&line, m);
		buf_putc(&line, ' ');
		buf_mpz(&line, n);
		tu_parse(&g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		assert_int_equal(game_winning(&g, &ms, &err), 0);
		mpz_add_ui(m, m, 1);
		mpz_fdiv_r(r, n, m);
		/* Independent: winning iff n mod (m+1) != 0, removing r. */
		assert_int_equal(ms.n, mpz_sgn(r) != 0 ? 1 : 0);
		if (ms.n == 1) {
			mpz_sub(r, n, r);
			assert_int_equal(mpz_cmp(ms.v[0].mv.ch[0].val, r), 0);
			assert_int_equal(game_play(&g, &ms.v[0].mv, &err), 0);
			assert_int_equal(game_outcome(&g, &err), GAME_P);
		}
		game_moveset_clear(&ms);
		game_free(&g);
	}
	buf_free(&line);
	mpz_clears(n, m, r, NULL);
	gmp_randclear(rs);
}

/* Bad input and illegal moves. */
static void
test_bash_bad(void **state)
{
	struct game	 g;

	(void)state;
	tu_parse_fails(GAME_ESYNTAX,
	    "bash 20",
	    "bash m=0 20",
	    "bash m=-1 20",
	    "bash m=3 m=4 20",
	    "bash m=3 k=4 20",
	    "bash m=3",
	    "bash m=3 2x",
	    NULL);
	tu_parse(&g, "bash m=3 20");
	tu_plays(&g, GAME_EILLEGAL, "1=16", "1=20", "1=21", "2=19", NULL);
	tu_play(&g, "1=17");
	game_free(&g);
}

TU_MAIN("bash",
    cmocka_unit_test(test_bash_brute),
    cmocka_unit_test(test_bash_huge),
    cmocka_unit_test(test_bash_bad))
