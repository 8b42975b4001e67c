/*
 * test-engine.c: the engine's choice: winning moves from N-positions, the
 * documented fallback from P-positions, determinism, seeded randomness and
 * complete engine-vs-engine games for every family.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "solver/engine.h"

/* Start positions: one or more per family, including the notation examples. */
static const char *games[] = {
	"nim 3 4 5", "nim 3 5 6", "nim misere=1 1 1 2", "nim misere=1 4 4 1",
	"bash m=3 20", "bash m=3 22", "wythoff 3 5", "wythoff 9 14",
	"wythoff t=2 3 5", "wythoff K=3 t=5 30 40", "staircase 3 0 2 5",
	"staircase 1 2 3 4", "subtraction S=2,5,7 10 11",
	"subtraction S=1,3,4 9 12 3", "klnim k=2 l=3 turn=1 5 6 7",
	"klnim k=3 l=2 turn=2 4 4 1", "klnim k=2 l=2 turn=1 5 6",
	"klnim k=1 l=2 turn=1 1 1 1", "graph edges=0>1,0>2,1>2 0 0",
	"graph edges=0>1,1>2,2>3,0>3,5>0 5 1 0",
	"sum nim 3 4 + bash m=3 10 + wythoff 3 5",
	"sum staircase 2 3 + subtraction S=2,3 7 + graph edges=1>2 1",
};

/*
 * Plays the engine against itself from line; returns the number of moves
 * and appends them to seq.  Checks each move: legal, and from an
 * N-position it must reach a position lost for the next mover.
 */
static int
selfplay(const char *line, gmp_randstate_t rs, struct buf *seq,
    int *first_wins)
{
	struct game_error err;
	struct game_move m;
	enum engine_why	 why;
	struct game	 g;
	int		 n = 0, o, start;

	tu_parse(&g, "%s", line);
	game_move_init(&m);
	start = game_outcome(&g, &err);
	assert_true(start == GAME_P || start == GAME_N);
	while (!game_terminal(&g)) {
		o = game_outcome(&g, &err);
		assert_int_equal(engine_choose(&g, rs, &m, &why, &err), 0);
		assert_int_equal(why, o == GAME_N ? ENGINE_WIN : ENGINE_POLICY);
		game_move_print(&m, seq);
		buf_putc(seq, ';');
		assert_int_equal(game_play(&g, &m, &err), 0);
		if (o == GAME_N)
			assert_int_equal(game_outcome(&g, &err), GAME_P);
		assert_true(++n < 100000);
	}
	/* Terminal: the mover wins only if the outcome says N (misere). */
	o = game_outcome(&g, &err);
	*first_wins = ((n % 2 == 0) == (o == GAME_N));
	assert_int_equal(engine_choose(&g, rs, &m, &why, &err), -1);
	game_move_clear(&m);
	game_free(&g);
	(void)start;
	return (n);
}

/* Every family: a complete game; the first player wins iff the start is N. */
static void
test_engine_games(void **state)
{
	struct game_error err;
	struct game	 g;
	struct buf	 a, b;
	size_t		 i;
	int		 start, fw, fw2;

	(void)state;
	for (i = 0; i < sizeof games / sizeof games[0]; i++) {
		buf_init(&a);
		buf_init(&b);
		tu_parse(&g, "%s", games[i]);
		start = game_outcome(&g, &err);
		game_free(&g);
		selfplay(games[i], NULL, &a, &fw);
		if (fw != (start == GAME_N))
			fail_msg("%s: first player %s, start %c: %s",
			    games[i], fw ? "won" : "lost",
			    start == GAME_N ? 'N' : 'P', buf_str(&a));
		/* Deterministic by default: the same game twice. */
		selfplay(games[i], NULL, &b, &fw2);
		assert_string_equal(buf_str(&a), buf_str(&b));
		buf_free(&a);
		buf_free(&b);
	}
}

/* Seeded play repeats per seed and differs across seeds. */
static void
test_engine_random(void **state)
{
	gmp_randstate_t	 rs;
	struct buf	 a, b;
	size_t		 i;
	int		 fw, seed, differ = 0;

	(void)state;
	for (i = 0; i < sizeof games / sizeof games[0]; i++) {
		for (seed = 1; seed <= 3; seed++) {
			buf_init(&a);
			buf_init(&b);
			gmp_randinit_default(rs);
			gmp_randseed_ui(rs, (unsigned long)seed);
			selfplay(games[i], rs, &a, &fw);
			gmp_randclear(rs);
			gmp_randinit_default(rs);
			gmp_randseed_ui(rs, (unsigned long)seed);
			selfplay(games[i], rs, &b, &fw);
			gmp_randclear(rs);
			assert_string_equal(buf_str(&a), buf_str(&b));
			buf_free(&a);
			buf_free(&b);
		}
	}
	/* nim 7 7 7 7 is P: the fallback has four equal moves. */
	for (seed = 1; seed <= 8; seed++) {
		buf_init(&a);
		buf_init(&b);
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, (unsigned long)seed);
		selfplay("nim 7 7 7 7", rs, &a, &fw);
		gmp_randclear(rs);
		selfplay("nim 7 7 7 7", NULL, &b, &fw);
		differ += strcmp(buf_str(&a), buf_str(&b)) != 0;
		buf_free(&a);
		buf_free(&b);
	}
	assert_true(differ > 0);
}

/* The fallback from a P-position is the smallest removal, first pile. */
static void
test_engine_policy(void **state)
{
	const char	*in[] = { "nim 3 5 6", "bash m=3 20", "wythoff 3 5",
	    "wythoff K=3 t=5 1 0", "staircase 0 1",
	    "subtraction S=2,5,7 4", "klnim k=1 l=1 turn=1 2 2" };
	const char	*want[] = { "1=2", "1=19", "1=2", NULL,
	    "2=0 1=1", "1=2", "1=0" };
	struct game_error err;
	struct game_move m;
	enum engine_why	 why;
	struct game	 g;
	struct buf	 b;
	size_t		 i;

	(void)state;
	game_move_init(&m);
	buf_init(&b);
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		tu_parse(&g, "%s", in[i]);
		buf_reset(&b);
		if (want[i] == NULL) {
			/* (1,0) with K=3 is terminal: no move is legal. */
			assert_int_equal(game_terminal(&g), 1);
			assert_int_equal(engine_choose(&g, NULL, &m, &why,
			    &err), -1);
		} else {
			assert_int_equal(game_outcome(&g, &err), GAME_P);
			assert_int_equal(engine_choose(&g, NULL, &m, &why,
			    &err), 0);
			assert_int_equal(why, ENGINE_POLICY);
			game_move_print(&m, &b);
			assert_string_equal(buf_str(&b), want[i]);
		}
		game_free(&g);
	}
	buf_free(&b);
	game_move_clear(&m);
}

/*
 * engine_choose_in with a move set and a move kept across plies (as the
 * session keeps them) plays the same games as engine_choose with fresh
 * ones, deterministic and seeded alike, and keeps at most
 * ENGINE_SCRATCH_KEEP entries: a kept entry or move never leaks into the
 * next ply's choice.
 */
static void
test_engine_kept(void **state)
{
	struct game_error err;
	struct game_moveset ms;
	struct game_move kept, m;
	enum engine_why	 why, why2;
	gmp_randstate_t	 ra, rb;
	struct game	 g, h;
	struct buf	 a, b;
	size_t		 i;
	int		 seeded, n;

	(void)state;
	game_moveset_init(&ms);
	game_move_init(&kept);
	buf_init(&a);
	buf_init(&b);
	for (seeded = 0; seeded < 2; seeded++)
		for (i = 0; i < sizeof games / sizeof games[0]; i++) {
			gmp_randinit_default(ra);
			gmp_randinit_default(rb);
			gmp_randseed_ui(ra, 7 + i);
			gmp_randseed_ui(rb, 7 + i);
			tu_parse(&g, "%s", games[i]);
			tu_parse(&h, "%s", games[i]);
			for (n = 0; !game_terminal(&g); n++) {
				assert_true(n < 100000);
				game_move_init(&m);
				assert_int_equal(engine_choose(&g, seeded ?
				    ra : NULL, &m, &why, &err), 0);
				assert_int_equal(engine_choose_in(&h, seeded ?
				    rb : NULL, &ms, &kept, &why2, &err), 0);
				assert_true(ms.cap <= ENGINE_SCRATCH_KEEP);
				assert_int_equal(why, why2);
				buf_reset(&a);
				buf_reset(&b);
				game_move_print(&m, &a);
				game_move_print(&kept, &b);
				assert_string_equal(buf_str(&a), buf_str(&b));
				assert_int_equal(game_play(&g, &m, &err), 0);
				assert_int_equal(game_play(&h, &kept, &err), 0);
				game_move_clear(&m);
			}
			assert_int_equal(game_terminal(&h), 1);
			game_free(&g);
			game_free(&h);
			gmp_randclear(ra);
			gmp_randclear(rb);
		}
	buf_free(&a);
	buf_free(&b);
	game_move_clear(&kept);
	game_moveset_clear(&ms);
}

TU_MAIN("engine",
    cmocka_unit_test(test_engine_games),
    cmocka_unit_test(test_engine_random),
    cmocka_unit_test(test_engine_policy),
    cmocka_unit_test(test_engine_kept))
