/*
 * test-hist.c: the undo history (game-hist.c).  Every family, sums and huge
 * numbers: random games are played with their positions saved both in the
 * history (as moves back) and, as the reference, as full copies; each undo
 * must give exactly the copy's position (printed form, mover, outcome).
 * Also the copy fallback of a family without an inverse, the cap (oldest
 * dropped, shrinking and growing keep the newest), reuse after undo, and
 * the outcome after a move asked without a copy (game_outcome_after).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "solver/engine.h"

#define PLIES	40

/* Returns g's printed form, to be freed. */
static char *
hist_text(const struct game *g)
{
	struct buf	 b;
	char		*s;

	buf_init(&b);
	game_print(g, &b);
	s = strdup(buf_str(&b));
	buf_free(&b);
	return (s);
}

/* Asserts that g and ref are the same position. */
static void
hist_same(const struct game *g, const struct game *ref)
{
	struct game_error e1, e2;
	char		*a = hist_text(g), *b = hist_text(ref);

	assert_string_equal(a, b);
	assert_int_equal(game_mover(g), game_mover(ref));
	assert_int_equal(game_terminal(g), game_terminal(ref));
	assert_int_equal(game_outcome(g, &e1), game_outcome(ref, &e2));
	free(a);
	free(b);
}

/*
 * Asserts that game_outcome_after(g, m) is the outcome of a copy after m,
 * and that g is as before.
 */
static void
hist_after(struct game *g, const struct game_move *m)
{
	struct game_error e1, e2;
	struct game	 c;
	char		*before = hist_text(g), *after;
	int		 mover = game_mover(g);

	game_clone(&c, g);
	assert_int_equal(game_play(&c, m, NULL), 0);
	assert_int_equal(game_outcome_after(g, m, &e1), game_outcome(&c, &e2));
	after = hist_text(g);
	assert_string_equal(after, before);
	assert_int_equal(game_mover(g), mover);
	free(before);
	free(after);
	game_free(&c);
}

/*
 * Sets m to a legal move of g, random: the engine's choice (a winning move
 * or the policy's), or that move with each value lowered at random when
 * that is legal too.  Returns 0, or -1 if g is over.
 */
static int
hist_move(const struct game *g, gmp_randstate_t rs, struct game_move *m)
{
	struct game_error err;
	struct game_move r;
	enum engine_why	 why;
	size_t		 i;

	if (game_terminal(g))
		return (-1);
	assert_int_equal(engine_choose(g, rs, m, &why, &err), 0);
	if (gmp_urandomm_ui(rs, 2) == 0)
		return (0);
	game_move_init(&r);
	game_move_copy(&r, m);
	for (i = 0; i < r.n; i++)
		if (mpz_sgn(r.ch[i].val) > 0)
			mpz_urandomm(r.ch[i].val, rs, r.ch[i].val);
	if (game_check(g, &r, &err) == 0)
		game_move_copy(m, &r);
	game_move_clear(&r);
	return (0);
}

/*
 * Plays up to PLIES random moves from text with cap, saving each position
 * in the history and as a copy, with undos at random between; then undoes
 * every saved move, checking each position against its copy.  Returns how
 * many moves were played.
 */
static int
hist_run(const char *text, size_t cap, unsigned long seed)
{
	struct game	 g, ref[PLIES + 1];
	struct game_hist h;
	struct game_move m;
	gmp_randstate_t	 rs;
	size_t		 n = 0, played = 0;
	int		 tag;

	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, seed);
	game_hist_init(&h);
	game_move_init(&m);
	tu_parse(&g, "%s", text);
	while (played < PLIES && hist_move(&g, rs, &m) == 0) {
		hist_after(&g, &m);
		game_clone(&ref[n++], &g);
		game_hist_push(&h, cap, &g, &m, (int)n);
		assert_int_equal(game_play(&g, &m, NULL), 0);
		played++;
		if (n > cap) {
			/* The oldest copy leaves with the oldest entry. */
			game_free(&ref[0]);
			memmove(&ref[0], &ref[1], (n - 1) * sizeof *ref);
			n--;
		}
		assert_int_equal(h.n, n);
		if (n > 0 && gmp_urandomm_ui(rs, 4) == 0) {
			assert_int_equal(game_hist_pop(&h, &g, &tag), 0);
			hist_same(&g, &ref[--n]);
			game_free(&ref[n]);
		}
	}
	while (n > 0) {
		assert_int_equal(game_hist_pop(&h, &g, &tag), 0);
		n--;
		hist_same(&g, &ref[n]);
		game_free(&ref[n]);
	}
	assert_int_equal(game_hist_pop(&h, &g, &tag), -1);
	game_free(&g);
	game_move_clear(&m);
	game_hist_free(&h);
	gmp_randclear(rs);
	return ((int)played);
}

static const char *const hist_games[] = {
	"nim 5 7 9 12",
	"nim 123456789012345678901234567890123456789 98765432109876543210 7",
	"bash m=3 20 17",
	"wythoff 30 47",
	"wythoff K=3 t=5 100 83",
	"wythoff t=4 98765432109876543210987654321 12345678901234567890123",
	"staircase 3 0 2 5",
	"subtraction S=7,2,5 10 11",
	"subtraction S=1,9 123456789012345678901234567890 3",
	"klnim k=2 l=3 5 6 7",
	"klnim k=3 l=2 turn=2 9 4 8",
	"klnim k=5 l=100000000000000000000000000000 turn=2 "
	    "1000000000000000000000000000000000000 17",
	"graph edges=0>1,0>2,0>4,1>2,1>3,2>3,4>3,4>5,5>3 0 0 4 1",
	"sum nim 3 4 + bash m=3 10 + wythoff t=2 9 12",
	"sum wythoff 8 9 + wythoff K=2 t=3 20 31 + staircase 2 4 1",
	"sum subtraction S=2,5 40 + klnim k=2 l=2 7 9 + "
	    "graph edges=0>1,1>2,0>2 0 0 + nim 123456789012345678901234567890",
};

/* Every family, sums and huge numbers: undo restores each position. */
static void
test_hist_families(void **state)
{
	size_t	 i;
	int	 s;

	(void)state;
	for (i = 0; i < sizeof hist_games / sizeof hist_games[0]; i++)
		for (s = 0; s < 8; s++)
			assert_true(hist_run(hist_games[i], 1000,
			    (unsigned long)(i * 100 + (size_t)s)) > 0);
}

/* The cap: the oldest positions go, the newest stay undoable. */
static void
test_hist_cap(void **state)
{
	size_t	 i, c;

	(void)state;
	for (c = 1; c <= 4; c++)
		for (i = 0; i < 4; i++)
			assert_true(hist_run(hist_games[i], c, 7 * c + i) > 0);
}

/* The inverse of a family that cannot invert its moves. */
static int
hist_no_inverse(const void *st, const struct game_move *m,
    struct game_move *back)
{
	(void)st;
	(void)m;
	(void)back;
	return (-1);
}

/* A move its family cannot invert is saved as a copy; a sum's move back. */
static void
test_hist_copies(void **state)
{
	struct game_family nocopy = game_nim;
	struct game_hist h;
	struct game	 g, s, ref;
	struct game_move m, back;
	int		 tag;

	(void)state;
	nocopy.inverse = hist_no_inverse;
	tu_parse(&g, "nim 5 6");
	g.fam = &nocopy;
	game_move_init(&m);
	game_move_init(&back);
	assert_int_equal(game_inverse(&g, &m, &back), -1);
	game_hist_init(&h);
	game_move_add_ui(&m, 0, 2, 1);
	hist_after(&g, &m);		/* on a copy: nim 5 1 is N */
	game_clone(&ref, &g);
	game_hist_push(&h, 5, &g, &m, 1);
	assert_ptr_not_equal(h.v[0].copy.fam, NULL);
	assert_int_equal(game_play(&g, &m, NULL), 0);
	/* A sum's move back comes from its component, tagged. */
	tu_parse(&s, "sum nim 3 + nim 4");
	m.n = 0;
	game_move_add_ui(&m, 2, 1, 2);
	assert_int_equal(game_inverse(&s, &m, &back), 0);
	assert_int_equal(back.ch[0].comp, 2);
	assert_int_equal(mpz_get_ui(back.ch[0].val), 4);
	m.n = 0;
	game_move_add_ui(&m, 1, 1, 1);
	assert_int_equal(game_inverse(&s, &m, &back), 0);
	assert_int_equal(back.ch[0].comp, 1);
	assert_int_equal(mpz_get_ui(back.ch[0].val), 3);
	game_free(&s);
	/* Back to nim 5 6 from nim 5 1, through the copy. */
	assert_int_equal(game_hist_pop(&h, &g, &tag), 0);
	assert_int_equal(tag, 1);
	hist_same(&g, &ref);
	assert_int_equal(h.n, 0);
	game_free(&g);
	game_free(&ref);
	game_move_clear(&m);
	game_move_clear(&back);
	game_hist_free(&h);
}

/* The ring follows a changed cap: shrinking keeps the newest positions. */
static void
test_hist_resize(void **state)
{
	struct game_hist h;
	struct game	 g;
	struct game_move m;
	char		*t;
	int		 tag, v;

	(void)state;
	game_hist_init(&h);
	game_move_init(&m);
	tu_parse(&g, "nim 100");
	/* 100 -> 99 -> ... -> 94 with cap 4: 97..94 saved, 93 now. */
	for (v = 99; v >= 93; v--) {
		m.n = 0;
		game_move_add_ui(&m, 0, 1, (unsigned long)v);
		game_hist_push(&h, 4, &g, &m, v + 1);
		assert_int_equal(game_play(&g, &m, NULL), 0);
	}
	assert_int_equal(h.n, 4);
	assert_int_equal(h.slots, 4);
	/* Cap 2: 95 and 94 remain; then cap 6 and one more move. */
	m.n = 0;
	game_move_add_ui(&m, 0, 1, 92);
	game_hist_push(&h, 2, &g, &m, 93);
	assert_int_equal(game_play(&g, &m, NULL), 0);
	assert_int_equal(h.n, 2);
	m.n = 0;
	game_move_add_ui(&m, 0, 1, 91);
	game_hist_push(&h, 6, &g, &m, 92);
	assert_int_equal(game_play(&g, &m, NULL), 0);
	assert_int_equal(h.n, 3);
	assert_int_equal(h.slots, 6);
	for (v = 92; v <= 94; v++) {
		assert_int_equal(game_hist_pop(&h, &g, &tag), 0);
		assert_int_equal(tag, v);
		t = hist_text(&g);
		assert_int_equal(atoi(t + 4), v);
		free(t);
	}
	assert_int_equal(game_hist_pop(&h, &g, &tag), -1);
	/* The ring grows when full: 6 slots, then 16, 32 (cap 1000). */
	for (v = 0; v < 17; v++) {
		m.n = 0;
		game_move_add_ui(&m, 0, 1, (unsigned long)(90 - v));
		game_hist_push(&h, 1000, &g, &m, v);
		assert_int_equal(game_play(&g, &m, NULL), 0);
		assert_int_equal(h.slots, v < 6 ? 6 : v < 16 ? 16 : 32);
	}
	while (game_hist_pop(&h, &g, &tag) == 0)
		;
	t = hist_text(&g);
	assert_string_equal(t, "nim 94");
	free(t);
	/* Cap 0 keeps nothing. */
	m.n = 0;
	game_move_add_ui(&m, 0, 1, 5);
	game_hist_push(&h, 0, &g, &m, 1);
	assert_int_equal(h.n, 0);
	game_hist_clear(&h);
	game_free(&g);
	game_move_clear(&m);
	game_hist_free(&h);
}

TU_MAIN("hist",
    cmocka_unit_test(test_hist_families),
    cmocka_unit_test(test_hist_cap),
    cmocka_unit_test(test_hist_copies),
    cmocka_unit_test(test_hist_resize))
