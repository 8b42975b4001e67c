/*
 * test-core.c: the family-independent parts of the core: move notation,
 * move sets, key parsing, the family registry and the shared formatter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "solver/format.h"

/*
 * Parses a move from a string, as a move of a sum when in_sum, else of a
 * Nim game; returns 0 or -1 with err.
 */
static int
parse_move(struct game_move *m, const char *text, int in_sum,
    struct game_error *err)
{
	char	*s = strdup(text), *argv[8], *p;
	struct game	 g;
	int	 argc = 0, rv;

	tu_parse(&g, "%s", in_sum ? "sum nim 1 + nim 2" : "nim 1 2 3");
	for (p = strtok(s, " "); p != NULL && argc < 8; p = strtok(NULL, " "))
		argv[argc++] = p;
	rv = game_move_parse(&g, m, argc, argv, tu_limits(), err);
	free(s);
	game_free(&g);
	return (rv);
}

/* Move notation: good forms parse and print back; bad forms are refused. */
static void
test_move_parse(void **state)
{
	const char	*good[] = { "2=1", "1=0 2=2", "3=1 2=6", "1.2=3",
	    "2.1=0 2.2=5" };
	const int	 good_sum[] = { 0, 0, 0, 1, 1 };
	const char	*bad[] = { "", "x", "=1", "1=", "1=a", "a=1", "0=1",
	    "1=-1", "1.1=1", "1=1 2=2 3=3", "1=1 1=2", "1=1.5", "+1=1",
	    "9999999999=1" };
	const char	*badsum[] = { "1=1", ".1=1", "0.1=1", "1.=1", "a.1=1" };
	struct game_error err;
	struct game_move m;
	struct buf	 b;
	size_t		 i;

	(void)state;
	game_move_init(&m);
	buf_init(&b);
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_int_equal(parse_move(&m, good[i], good_sum[i], &err),
		    0);
		buf_reset(&b);
		game_move_print(&m, &b);
		assert_string_equal(buf_str(&b), good[i]);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err.msg[0] = '\0';
		assert_int_equal(parse_move(&m, bad[i], 0, &err), -1);
		assert_true(err.msg[0] != '\0');
	}
	for (i = 0; i < sizeof badsum / sizeof badsum[0]; i++)
		assert_int_equal(parse_move(&m, badsum[i], 1, &err), -1);
	buf_free(&b);
	game_move_clear(&m);
}

/* Move sets: ranges count every move, print as LO..HI, sort canonically. */
static void
test_moveset(void **state)
{
	struct game_moveset ms;
	struct buf	 b;
	mpz_t		 lo, hi, c;

	(void)state;
	mpz_inits(lo, hi, c, NULL);
	game_moveset_init(&ms);
	mpz_set_ui(lo, 5);
	mpz_set_str(hi, "100000000000000000000", 10);
	game_moveset_add_range(&ms, 2, lo, hi);
	mpz_set_ui(lo, 3);
	game_moveset_add1(&ms, 1, lo);
	game_moveset_add_range(&ms, 3, hi, lo);		/* empty */
	game_moveset_add_range(&ms, 3, lo, lo);		/* one move */
	assert_int_equal(ms.n, 3);
	game_moveset_count(&ms, c);
	mpz_set_str(hi, "99999999999999999998", 10);	/* 1e20-5+1 + 2 */
	assert_int_equal(mpz_cmp(c, hi), 0);
	game_moveset_sort(&ms);
	buf_init(&b);
	format_moves(&ms, 0, &b);
	assert_string_equal(buf_str(&b),
	    "1=3\n2=5..100000000000000000000\n3=3\n");
	buf_reset(&b);
	format_moves(&ms, 1, &b);
	assert_string_equal(buf_str(&b), "1=3\n");
	buf_free(&b);
	game_moveset_clear(&ms);
	mpz_clears(lo, hi, c, NULL);
}

/* Unknown families and keys name the alternatives. */
static void
test_registry(void **state)
{
	struct game_error err;
	struct game	 g;
	size_t		 i;

	(void)state;
	for (i = 0; game_families[i] != NULL; i++)
		assert_ptr_equal(game_family_find(game_families[i]->name),
		    game_families[i]);
	assert_null(game_family_find("chess"));
	assert_int_equal(game_parse_line(&g, "chess 1 2", tu_limits(), &err),
	    -1);
	assert_non_null(strstr(err.msg, "families: nim, bash"));
	assert_int_equal(game_parse_line(&g, "", tu_limits(), &err), -1);
	assert_int_equal(game_parse_line(&g, "nim x=1 3", tu_limits(), &err),
	    -1);
	assert_non_null(strstr(err.msg, "keys: misere"));
}

/* The shared formatter's exact text. */
static void
test_format(void **state)
{
	struct game_error err;
	struct game	 g;
	struct buf	 b;

	(void)state;
	buf_init(&b);
	tu_parse(&g, "nim 3 4 5");
	assert_int_equal(format_analysis(&g, &b, &err), 0);
	assert_int_equal(format_winning(&g, 0, &b, &err), 0);
	assert_string_equal(buf_str(&b),
	    "outcome N\ngrundy 2\nwinning 1\n1=1\n");
	game_free(&g);
	buf_reset(&b);
	tu_parse(&g, "nim misere=1 1 1");
	assert_int_equal(format_analysis(&g, &b, &err), 0);
	assert_string_equal(buf_str(&b), "outcome N\nwinning 2\n");
	game_free(&g);
	buf_reset(&b);
	format_games(&b);
	assert_non_null(strstr(buf_str(&b), "sum GAME + GAME + ..."));
	buf_free(&b);
}

/* A failed move leaves a cloned game and its source untouched. */
static void
test_clone(void **state)
{
	struct game	 g, h;

	(void)state;
	tu_parse(&g, "nim 3 4 5");
	tu_clone_play(&h, &g, "1=0", "nim 3 4 5", "nim 0 4 5");
	game_free(&g);
	game_free(&h);
}

TU_MAIN("core",
    cmocka_unit_test(test_move_parse),
    cmocka_unit_test(test_moveset),
    cmocka_unit_test(test_registry),
    cmocka_unit_test(test_format),
    cmocka_unit_test(test_clone))
