/*
 * test-word.c: the solver's machine-word fast path (game-word.h, issue 28
 * §1) at its boundary: numbers around 2^63 and 2^64, values whose XOR,
 * difference or decimal form is computed by words on one side of the
 * boundary and by GMP on the other.  Every result is checked against the
 * same computation done here with GMP alone.  Built twice: test-word with
 * the fast path, test-word-off with the core's files that use it compiled
 * with GAME_WORD_OFF (GMP everywhere), so that both paths meet the same
 * checks and so each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "solver/game-word.h"

/* Decimal values at and around the word boundary. */
static const char *const edge[] = {
	"0", "1", "2", "3", "7", "4294967295", "4294967296",
	"9223372036854775806", "9223372036854775807", "9223372036854775808",
	"9999999999999999999", "10000000000000000000",
	"18446744073709551614", "18446744073709551615",
	"18446744073709551616", "18446744073709551617",
	"36893488147419103231", "36893488147419103232",
	"340282366920938463463374607431768211455",
	"340282366920938463463374607431768211456",
};
#define NEDGE	(sizeof edge / sizeof edge[0])

/* The primitives against GMP, on every pair of edge values. */
static void
test_word_primitives(void **state)
{
	mpz_t	 a, b, c, lazy;
	uint64_t v;
	size_t	 i, j;
	char	*s;

	(void)state;
	mpz_inits(a, b, c, NULL);
	for (i = 0; i < NEDGE; i++) {
		mpz_set_str(a, edge[i], 10);
		if (game_word_get(a, &v)) {
			assert_true(GAME_WORD);
			assert_true(mpz_sizeinbase(a, 2) <= 64);
			mpz_import(c, 1, -1, sizeof v, 0, 0, &v);
			assert_int_equal(mpz_cmp(a, c), 0);
		} else
			assert_true(!GAME_WORD || mpz_sizeinbase(a, 2) > 64);
		for (j = 0; j < NEDGE; j++) {
			mpz_set_str(b, edge[j], 10);
			assert_int_equal(game_word_cmp(a, b),
			    mpz_cmp(a, b) < 0 ? -1 : mpz_cmp(a, b) > 0);
			/* A copy over a number of any size, then back. */
			mpz_set(c, b);
			game_word_copy(c, a);
			assert_int_equal(mpz_cmp(c, a), 0);
			game_word_copy(c, b);
			assert_int_equal(mpz_cmp(c, b), 0);
			if (game_word_get(b, &v)) {
				assert_int_equal(game_word_cmp_u(a, v),
				    mpz_cmp(a, b) < 0 ? -1 : mpz_cmp(a, b) > 0);
				mpz_set(c, a);
				game_word_set(c, v);
				assert_int_equal(mpz_cmp(c, b), 0);
			}
		}
		/* A lazily initialised integer takes any GMP operation. */
		game_word_init(lazy);
		assert_int_equal(mpz_sgn(lazy), 0);
		mpz_add(lazy, lazy, a);
		mpz_mul(lazy, lazy, lazy);
		mpz_mul(c, a, a);
		assert_int_equal(mpz_cmp(lazy, c), 0);
		game_word_clear(lazy);
		game_word_init(lazy);
		if (game_word_get(a, &v)) {
			game_word_set(lazy, v);
			assert_int_equal(mpz_cmp(lazy, a), 0);
			/* Overflows a word in place: GMP carries on. */
			mpz_add(lazy, lazy, lazy);
			mpz_mul_2exp(c, a, 1);
			assert_int_equal(mpz_cmp(lazy, c), 0);
		}
		game_word_clear(lazy);
		/* buf_mpz against mpz_get_str. */
		{
			struct buf	 out;

			buf_init(&out);
			buf_puts(&out, "x");
			buf_mpz(&out, a);
			s = mpz_get_str(NULL, 10, a);
			assert_string_equal(buf_str(&out) + 1, s);
			free(s);
			buf_free(&out);
		}
	}
	mpz_clears(a, b, c, NULL);
}

/* game_parse_num on every length around 19 and 20 digits. */
static void
test_word_parse(void **state)
{
	static const char *const tok[] = { "0", "00", "0000000000000000001",
	    "00000000000000000001", "1844674407370955161",
	    "9999999999999999999", "09999999999999999999",
	    "18446744073709551615", "18446744073709551616",
	    "99999999999999999999", "000000000000000000018446744073709551617" };
	struct game_error err;
	mpz_t	 z, ref;
	size_t	 i;

	(void)state;
	mpz_inits(z, ref, NULL);
	for (i = 0; i < sizeof tok / sizeof tok[0]; i++) {
		mpz_set_ui(z, 12345);
		assert_int_equal(game_parse_num(z, tok[i], "pile", tu_limits(),
		    &err), 0);
		mpz_set_str(ref, tok[i], 10);
		assert_int_equal(mpz_cmp(z, ref), 0);
	}
	for (i = 0; i < NEDGE; i++) {
		game_word_init(z);	/* as a move's value starts */
		assert_int_equal(game_parse_num(z, edge[i], "v", tu_limits(),
		    &err), 0);
		mpz_set_str(ref, edge[i], 10);
		assert_int_equal(mpz_cmp(z, ref), 0);
		game_word_clear(z);
		mpz_init(z);
	}
	mpz_clears(z, ref, NULL);
}

/*
 * The winning moves of Nim computed here by GMP (a_i -> a_i ^ X where
 * that is lower), as the engine prints them, sorted.
 */
static void
ref_wins(mpz_t *a, size_t n, struct tu_strs *out)
{
	mpz_t	 x, t;
	size_t	 i;
	char	*s;

	mpz_inits(x, t, NULL);
	for (i = 0; i < n; i++)
		mpz_xor(x, x, a[i]);
	for (i = 0; i < n; i++) {
		mpz_xor(t, a[i], x);
		if (mpz_cmp(t, a[i]) < 0) {
			s = mpz_get_str(NULL, 10, t);
			tu_strs_add(out, "%zu=%s", i + 1, s);
			free(s);
		}
	}
	tu_strs_sort(out);
	mpz_clears(x, t, NULL);
}

/* One Nim position of edge piles: everything the fast path serves. */
static void
check_nim(const size_t *pick, size_t n)
{
	struct game_moveset ms;
	struct game_error err;
	struct tu_strs	 got, want;
	struct game	 g, h;
	struct buf	 line, pos;
	mpz_t		 a[4], x, one;
	size_t		 i;
	int		 out;

	buf_init(&line);
	buf_init(&pos);
	mpz_inits(x, one, NULL);
	mpz_set_ui(one, 1);
	buf_puts(&line, "nim");
	for (i = 0; i < n; i++) {
		mpz_init_set_str(a[i], edge[pick[i]], 10);
		mpz_xor(x, x, a[i]);
		buf_printf(&line, " %s", edge[pick[i]]);
	}
	tu_parse(&g, "%s", buf_str(&line));
	tu_print_is(&g, buf_str(&line));
	out = game_outcome(&g, &err);
	assert_int_equal(out, mpz_sgn(x) != 0 ? GAME_N : GAME_P);
	{
		mpz_t	 gv;

		mpz_init(gv);
		assert_int_equal(game_grundy(&g, gv, &err), 0);
		assert_int_equal(mpz_cmp(gv, x), 0);
		mpz_clear(gv);
	}
	tu_strs_init(&got);
	tu_strs_init(&want);
	tu_winning(&g, &got);
	ref_wins(a, n, &want);
	assert_true(tu_strs_eq(&got, &want, "nim winning"));
	tu_strs_free(&got);
	tu_strs_free(&want);
	/* The policy: one token off each non-empty pile. */
	game_moveset_init(&ms);
	g.fam->policy(g.st, &ms);
	tu_strs_init(&got);
	tu_strs_init(&want);
	tu_moveset_strs(&ms, &got);
	for (i = 0; i < n; i++)
		if (mpz_sgn(a[i]) != 0) {
			char	*s;

			mpz_sub(x, a[i], one);
			s = mpz_get_str(NULL, 10, x);
			tu_strs_add(&want, "%zu=%s", i + 1, s);
			free(s);
		}
	tu_strs_sort(&got);
	tu_strs_sort(&want);
	assert_true(tu_strs_eq(&got, &want, "nim policy"));
	tu_strs_free(&got);
	tu_strs_free(&want);
	/* Each policy move: legal, the position after as GMP says, undone. */
	for (i = 0; i < ms.n; i++) {
		struct game_move back;
		size_t		 k = ms.v[i].mv.ch[0].idx - 1;

		game_clone(&h, &g);
		assert_int_equal(game_check(&h, &ms.v[i].mv, &err), 0);
		game_move_init(&back);
		assert_int_equal(game_inverse(&h, &ms.v[i].mv, &back), 0);
		assert_int_equal(game_outcome_after(&h, &ms.v[i].mv, &err),
		    game_outcome_after(&g, &ms.v[i].mv, &err));
		assert_int_equal(game_play(&h, &ms.v[i].mv, &err), 0);
		mpz_sub(x, a[k], one);
		assert_int_equal(mpz_cmp(((struct game_piles *)h.st)->v[k],
		    x), 0);
		/* Raising a pile is illegal, on both sides of 2^64. */
		mpz_add(back.ch[0].val, x, one);
		mpz_add(back.ch[0].val, back.ch[0].val, one);
		back.n = 1;
		back.ch[0].idx = k + 1;
		assert_int_equal(game_check(&h, &back, &err), -1);
		assert_int_equal(err.code, GAME_EILLEGAL);
		/* The move back restores the pile (apply, as undo does). */
		game_move_clear(&back);
		game_move_init(&back);
		assert_int_equal(game_inverse(&g, &ms.v[i].mv, &back), 0);
		h.fam->apply(h.st, &back);
		buf_reset(&pos);
		game_print(&h, &pos);
		assert_string_equal(buf_str(&pos), buf_str(&line));
		game_move_clear(&back);
		game_free(&h);
	}
	assert_int_equal(game_terminal(&g), ms.n == 0);
	game_moveset_clear(&ms);
	game_free(&g);
	for (i = 0; i < n; i++)
		mpz_clear(a[i]);
	mpz_clears(x, one, NULL);
	buf_free(&line);
	buf_free(&pos);
}

/* Every pair and a spread of triples of edge piles. */
static void
test_word_nim(void **state)
{
	size_t	 p[3], i, j, k;

	(void)state;
	for (i = 0; i < NEDGE; i++)
		for (j = 0; j < NEDGE; j++) {
			p[0] = i;
			p[1] = j;
			check_nim(p, 2);
			for (k = (i + j) % 5; k < NEDGE; k += 5) {
				p[2] = k;
				check_nim(p, 3);
			}
		}
}

/* Misere Nim and a sum at the boundary: the same verdicts as GMP's. */
static void
test_word_misere_sum(void **state)
{
	struct game_error err;
	struct game	 g;
	struct tu_strs	 got;

	(void)state;
	/* One big pile and an odd number of ones: the big one to 0. */
	tu_parse(&g, "nim misere=1 1 18446744073709551616");
	assert_int_equal(game_outcome(&g, &err), GAME_N);
	tu_strs_init(&got);
	tu_winning(&g, &got);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0], "2=0");
	tu_strs_free(&got);
	game_free(&g);
	tu_parse(&g, "nim misere=1 1 1 18446744073709551615");
	tu_strs_init(&got);
	tu_winning(&g, &got);
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0], "3=1");
	tu_strs_free(&got);
	game_free(&g);
	tu_parse(&g, "sum nim 18446744073709551615 + nim 18446744073709551616");
	tu_strs_init(&got);
	tu_winning(&g, &got);
	/* X = 2^65 - 1: only the 2^64 pile can go to 2^64 ^ X = 2^64 - 1. */
	assert_int_equal(got.n, 1);
	assert_string_equal(got.v[0], "2.1=18446744073709551615");
	tu_strs_free(&got);
	game_free(&g);
}

TU_MAIN("word",
    cmocka_unit_test(test_word_primitives),
    cmocka_unit_test(test_word_parse),
    cmocka_unit_test(test_word_nim),
    cmocka_unit_test(test_word_misere_sum))
