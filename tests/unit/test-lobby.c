/*
 * test-lobby.c: the lobby's pure helpers: time-control parsing, the
 * option keys of seek and challenge, and the seeded generator of fair
 * random starts (PROTOCOL.md §13.3), checked against independent rules
 * (nim: XOR of the piles; bash: XOR of the piles mod m+1) and for every
 * family against the solver.  The networked parts are tested end to end
 * by tests/e2e/play.py and tests/e2e/lobbycmd.py, and the clocks on a
 * virtual clock by test-lobby-clock.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "lobby/lobby.h"
#include "proto/proto.h"

/* Time controls: absolute, Fischer, and every malformed form. */
static void
test_parse_tc(void **state)
{
	static const char *bad[] = {
		"", "0", "+5", "5+", "5+x", "x", "-5", "5 ", "5+-1",
		"86400001", "1000+86400001", "99999999999999999999", "5++5",
	};
	uint64_t	 b, i;
	size_t		 k;

	(void)state;
	assert_int_equal(proto_parse_tc("60000", &b, &i), 0);
	assert_true(b == 60000 && i == 0);
	assert_int_equal(proto_parse_tc("300000+2000", &b, &i), 0);
	assert_true(b == 300000 && i == 2000);
	assert_int_equal(proto_parse_tc("1+0", &b, &i), 0);
	assert_true(b == 1 && i == 0);
	assert_int_equal(proto_parse_tc("86400000", &b, &i), 0);
	for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		b = i = 7;
		if (proto_parse_tc(bad[k], &b, &i) == 0)
			fail_msg("time control '%s' accepted", bad[k]);
		assert_true(b == 7 && i == 7);
	}
}

/*
 * Options among game tokens: a KEY=VALUE token matches its key exactly, up
 * to the first '=' (values may be empty or hold '='); any other token,
 * a key's prefix or extension included, is the game's.
 */
static void
test_option_keys(void **state)
{
	static const char *const keys[] = { "players", "games", "tc" };
	static const struct {
		const char	*arg;
		int		 want;		/* lobby_opt, or -1 */
		const char	*val;
	} opts[] = {
		{ "tc=5000", LOBBY_OPT_TC, "5000" },
		{ "tc=", LOBBY_OPT_TC, "" },
		{ "tc=1=2", LOBBY_OPT_TC, "1=2" },
		{ "rated=0", LOBBY_OPT_RATED, "0" },
		{ "random=x", LOBBY_OPT_RANDOM, "x" },
		{ "opponent=engine", LOBBY_OPT_OPPONENT, "engine" },
		{ "seat=2", LOBBY_OPT_SEAT, "2" },
		{ "tcx=5", -1, NULL }, { "t=5", -1, NULL },
		{ "Tc=5", -1, NULL }, { "=5", -1, NULL }, { "tc", -1, NULL },
		{ "nim", -1, NULL }, { "max=3", -1, NULL }, { "", -1, NULL },
	};
	const char	*v;
	size_t		 k;

	(void)state;
	for (k = 0; k < sizeof opts / sizeof opts[0]; k++) {
		v = NULL;
		if (lobby_offer_opt(opts[k].arg, &v) != opts[k].want)
			fail_msg("'%s' is not option %d", opts[k].arg,
			    opts[k].want);
		if (opts[k].val != NULL && (v == NULL ||
		    strcmp(v, opts[k].val) != 0))
			fail_msg("'%s': value '%s'", opts[k].arg, v);
		if (opts[k].val == NULL && v != NULL)
			fail_msg("'%s': value set", opts[k].arg);
	}
	v = NULL;
	assert_int_equal(lobby_key("games=3", keys, 3, &v), 1);
	assert_string_equal(v, "3");
	assert_int_equal(lobby_key("players=a,b", keys, 3, &v), 0);
	assert_string_equal(v, "a,b");
	assert_int_equal(lobby_key("game=3", keys, 3, &v), -1);
	assert_int_equal(lobby_key("games=3", keys, 0, &v), -1);
}

/* Returns the piles of a printed nim/bash position after the keys. */
static int
piles_of(const char *text, unsigned long *p, int max)
{
	char	*copy = xstrdup(text), *tok, *save;
	int	 n = 0;

	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save))
		if (tok[0] >= '0' && tok[0] <= '9' && n < max)
			p[n++] = strtoul(tok, NULL, 10);
	free(copy);
	return (n);
}

/* Draws from a template n times; checks bounds and the N outcome. */
static void
draw_many(const char *tmpl, unsigned long m, int draws, size_t *distinct)
{
	struct game_error err;
	struct game	 t, g;
	struct tu_strs	 seen;
	struct buf	 b;
	gmp_randstate_t	 rs;
	unsigned long	 bound[16], p[16], x;
	int		 nb, np, i, k;

	tu_parse(&t, "%s", tmpl);
	nb = piles_of(tmpl, bound, 16);
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 42);
	tu_strs_init(&seen);
	buf_init(&b);
	for (i = 0; i < draws; i++) {
		if (lobby_draw_start(&t, rs, tu_limits(), &g, &err) != 0)
			fail_msg("%s: %s", tmpl, err.msg);
		buf_reset(&b);
		game_print(&g, &b);
		assert_false(game_terminal(&g));
		assert_int_equal(game_outcome(&g, &err), GAME_N);
		if (m > 0) {
			/* Independent: nim XOR (m = 0 means no bash). */
			np = piles_of(buf_str(&b), p, 16);
			assert_int_equal(np, nb);
			for (x = 0, k = 0; k < np; k++) {
				assert_true(p[k] <= bound[k]);
				x ^= m == ~0UL ? p[k] : p[k] % (m + 1);
			}
			assert_true(x != 0);
		}
		tu_strs_add(&seen, "%s", buf_str(&b));
		game_free(&g);
	}
	tu_strs_sort(&seen);
	for (*distinct = 0, k = 0; k < (int)seen.n; k++)
		if (k == 0 || strcmp(seen.v[k], seen.v[k - 1]) != 0)
			(*distinct)++;
	tu_strs_free(&seen);
	buf_free(&b);
	gmp_randclear(rs);
	game_free(&t);
}

/* Random starts are N-positions within the template's bounds. */
static void
test_draw_start(void **state)
{
	static const char *others[] = {
		"wythoff 20 30", "wythoff K=2 t=3 40 40", "staircase 5 5 5",
		"subtraction S=2,5,7 40 40", "klnim k=2 l=3 turn=1 9 9",
		"graph edges=0>1,1>2,2>3,0>3 3 3", "nim misere=1 3 3 3",
		"sum nim 7 7 + bash m=3 10 + wythoff 9 9",
	};
	size_t		 d, k;

	(void)state;
	draw_many("nim 9 9 9", ~0UL, 300, &d);
	assert_true(d >= 50);
	draw_many("bash m=3 20 20", 3, 300, &d);
	assert_true(d >= 50);
	for (k = 0; k < sizeof others / sizeof others[0]; k++) {
		draw_many(others[k], 0, 50, &d);
		assert_true(d >= 2);
	}
}

/* The same seed draws the same starts; a template with no N fails. */
static void
test_draw_seeded(void **state)
{
	struct game_error err;
	struct game	 t, g1, g2;
	gmp_randstate_t	 r1, r2;
	int		 i;

	(void)state;
	tu_parse(&t, "nim 50 50 50 50");
	gmp_randinit_default(r1);
	gmp_randinit_default(r2);
	gmp_randseed_ui(r1, 7);
	gmp_randseed_ui(r2, 7);
	for (i = 0; i < 20; i++) {
		assert_int_equal(lobby_draw_start(&t, r1, tu_limits(), &g1,
		    &err), 0);
		assert_int_equal(lobby_draw_start(&t, r2, tu_limits(), &g2,
		    &err), 0);
		tu_print_same(&g1, &g2);
		game_free(&g1);
		game_free(&g2);
	}
	game_free(&t);
	/* Every draw of nim 0 0 is over: refused with a reason. */
	tu_parse(&t, "nim 0 0");
	assert_int_equal(lobby_draw_start(&t, r1, tu_limits(), &g1, &err), -1);
	assert_non_null(strstr(err.msg, "no fair start"));
	game_free(&t);
	gmp_randclear(r1);
	gmp_randclear(r2);
}

TU_MAIN("lobby",
    cmocka_unit_test(test_parse_tc),
    cmocka_unit_test(test_option_keys),
    cmocka_unit_test(test_draw_start),
    cmocka_unit_test(test_draw_seeded))
