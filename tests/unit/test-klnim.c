/*
 * test-klnim.c: K-L-Nim against an independent brute force (a memoised
 * game-tree search over the raw rules with the player to move in the state,
 * no theory), terminal positions, bad input and canonical forms.  The huge
 * numbers, one_winning and the max_moves cap are in test-klnim-huge.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NPMAX	8		/* most piles in a test position */

/*
 * Raw rules over np piles and the mover (a[np], 1 or 2): take any number
 * of tokens from one pile except exactly k (mover 1) or l (mover 2).
 */
static int
kl_options(const int *a, int n, struct tu_opt *o, void *arg)
{
	const int	*kl = arg;
	int		 np = n - 1, turn = a[np], i, v, c = 0;

	for (i = 0; i < np; i++)
		for (v = 0; v < a[i]; v++) {
			if (a[i] - v == kl[turn - 1])
				continue;
			memcpy(o[c].next, a, (size_t)n * sizeof *a);
			o[c].next[i] = v;
			o[c].next[np] = 3 - turn;
			snprintf(o[c].name, sizeof o[c].name, "%d=%d", i + 1, v);
			c++;
		}
	return (c);
}

/* Returns 1 if the mover wins after the move i=v from a (mover at a[np]). */
static int
wins_after(struct tu_brute *br, const int *a, int i, int v)
{
	int	 b[TU_MAXK];

	memcpy(b, a, (size_t)br->k * sizeof *a);
	b[i] = v;
	b[br->k - 1] = 3 - a[br->k - 1];
	return (!tu_brute_win(br, b));
}

/* Expands a move set of single-change moves with small values. */
static void
ms_strs(const struct game_moveset *ms, struct tu_strs *out)
{
	const struct game_moveset_ent *e;
	unsigned long	 v, hi;
	size_t		 i;

	for (i = 0; i < ms->n; i++) {
		e = &ms->v[i];
		assert_int_equal(e->mv.n, 1);
		v = mpz_get_ui(e->mv.ch[0].val);
		hi = e->ranged ? mpz_get_ui(e->hi) : v;
		for (; v <= hi; v++)
			tu_strs_add(out, "%zu=%lu", e->mv.ch[0].idx, v);
	}
	tu_strs_sort(out);
}

/*
 * Checks one_winning at a small position: in an N-position a legal move
 * after which the brute force says the opponent loses, i.e. a member of the
 * complete winning set; in a P-position GAME_EILLEGAL.
 */
static void
check_one(struct tu_brute *br, const int *a, const struct game *g)
{
	const int	*kl = br->arg;
	struct game_error err;
	struct game_move mv;
	int		 np = br->k - 1, i, v;

	game_move_init(&mv);
	game_move_add_ui(&mv, 0, 9, 9);	/* stale content is replaced */
	memset(&err, 0, sizeof err);
	if (!tu_brute_win(br, a)) {
		assert_int_equal(g->fam->one_winning(g->st, &mv, &err), -1);
		assert_int_equal(err.code, GAME_EILLEGAL);
		assert_non_null(strstr(err.msg, "no winning move"));
		game_move_clear(&mv);
		return;
	}
	assert_int_equal(g->fam->one_winning(g->st, &mv, &err), 0);
	assert_int_equal(mv.n, 1);
	assert_int_equal(mv.ch[0].comp, 0);
	assert_true(mv.ch[0].idx >= 1 && mv.ch[0].idx <= (size_t)np);
	assert_true(mpz_fits_slong_p(mv.ch[0].val));
	assert_int_equal(game_check(g, &mv, &err), 0);
	i = (int)mv.ch[0].idx - 1;
	v = (int)mpz_get_si(mv.ch[0].val);
	assert_true(v >= 0 && v < a[i]);
	assert_int_not_equal(a[i] - v, kl[a[np] - 1]);
	assert_true(wins_after(br, a, i, v));
	game_move_clear(&mv);
}

/*
 * Returns the number of moves a canonical winning set of the small position
 * a stands for, asserting that each is legal (game_check) and that the
 * brute force says the opponent then loses.  Canonical sets list every
 * move once, so with the brute-force count this proves the set complete.
 */
static int
check_listed(struct tu_brute *br, const int *a, const struct game *g,
    const struct game_moveset *ms, const char *line)
{
	const struct game_moveset_ent *e;
	struct game_error err;
	struct game_move mv;
	unsigned long	 v, hi;
	size_t		 j;
	int		 i, n = 0;

	game_move_init(&mv);
	for (j = 0; j < ms->n; j++) {
		e = &ms->v[j];
		i = (int)e->mv.ch[0].idx - 1;
		assert_true(i >= 0 && i < br->k - 1);
		v = mpz_get_ui(e->mv.ch[0].val);
		hi = e->ranged ? mpz_get_ui(e->hi) : v;
		for (; v <= hi; v++, n++) {
			game_move_clear(&mv);
			game_move_init(&mv);
			game_move_add_ui(&mv, 0, (size_t)i + 1, v);
			if (game_check(g, &mv, &err) != 0) {
				print_error("%s: winning move %d=%lu is "
				    "illegal: %s\n", line, i + 1, v, err.msg);
				fail();
			}
			if (!wins_after(br, a, i, (int)v)) {
				print_error("%s: move %d=%lu is listed but "
				    "does not win\n", line, i + 1, v);
				fail();
			}
		}
	}
	game_move_clear(&mv);
	return (n);
}

/* Checks the policy at a: the smallest legal removal from every pile. */
static void
check_policy(struct tu_brute *br, const int *a, const struct game *g,
    const char *line)
{
	const int	*kl = br->arg;
	struct game_moveset ms;
	struct tu_strs	 want, got;
	int		 i, c;

	game_moveset_init(&ms);
	g->fam->policy(g->st, &ms);
	c = kl[a[br->k - 1] - 1] == 1 ? 2 : 1;
	tu_strs_init(&want);
	tu_strs_init(&got);
	for (i = 0; i < br->k - 1; i++)
		if (a[i] >= c)
			tu_strs_add(&want, "%d=%d", i + 1, a[i] - c);
	tu_strs_sort(&want);
	ms_strs(&ms, &got);
	if (!tu_strs_eq(&got, &want, line))
		fail();
	assert_int_equal(ms.n == 0, game_terminal(g));
	tu_strs_free(&want);
	tu_strs_free(&got);
	game_moveset_clear(&ms);
}

/* Checks to_grundy at a: every move to a position of the target value. */
static void
check_to_grundy(struct tu_brute *br, const int *a, const struct game *g,
    const char *line)
{
	const int	*kl = br->arg;
	struct game_moveset ms;
	struct game_error err;
	mpz_t		 target;
	int		 t;

	mpz_init(target);
	game_moveset_init(&ms);
	for (t = 0; t < 5; t++) {
		game_moveset_reset(&ms);
		mpz_set_ui(target, (unsigned long)t);
		if (kl[0] != kl[1]) {
			memset(&err, 0, sizeof err);
			assert_int_equal(g->fam->to_grundy(g->st, target, &ms,
			    &err), -1);
			assert_int_equal(err.code, GAME_ENOGRUNDY);
			break;
		}
		tu_brute_to_grundy(br, a, g, t, line, ms_strs);
	}
	mpz_clear(target);
	game_moveset_clear(&ms);
}

/*
 * Checks one small position a (mover a[np]) against the brute force:
 * outcome, Grundy value, the complete winning set (canonical, every listed
 * move legal and winning, as many as the brute force finds), one_winning,
 * policy and to_grundy.
 */
static void
check_pos(struct tu_brute *br, const int *a, struct buf *line)
{
	const int	*kl = br->arg;
	struct game_moveset ms;
	struct game_error err;
	struct tu_strs	 all, wins;
	struct game	 g;
	int		 np = br->k - 1, i, win, nmoves, nlisted;
	mpz_t		 target;

	buf_reset(line);
	buf_printf(line, "klnim k=%d l=%d turn=%d", kl[0], kl[1], a[np]);
	for (i = 0; i < np; i++)
		buf_printf(line, " %d", a[i]);
	tu_parse(&g, "%s", buf_str(line));
	tu_strs_init(&all);
	tu_strs_init(&wins);
	nmoves = tu_brute_options(br, a, &all);
	tu_brute_wins(br, a, &wins);
	win = tu_brute_win(br, a);
	assert_int_equal(win, wins.n > 0);
	assert_int_equal(game_outcome(&g, &err), win ? GAME_N : GAME_P);
	assert_int_equal(game_terminal(&g), nmoves == 0);
	assert_int_equal(game_mover(&g), a[np]);
	mpz_init(target);
	if (kl[0] == kl[1]) {
		assert_int_equal(game_grundy(&g, target, &err), 0);
		assert_int_equal(mpz_cmp_si(target, tu_brute_sg(br, a)), 0);
	} else
		assert_int_equal(game_grundy(&g, target, &err), -1);
	mpz_clear(target);

	/* The winning set: canonical (sorted maximal disjoint ranges). */
	game_moveset_init(&ms);
	assert_int_equal(game_winning(&g, &ms, &err), 0);
	tu_check_canonical(&ms, kl[0] != kl[1]);
	nlisted = check_listed(br, a, &g, &ms, buf_str(line));
	if (nlisted != (int)wins.n) {
		print_error("%s: %d winning moves listed, brute %zu\n",
		    buf_str(line), nlisted, wins.n);
		fail();
	}
	check_one(br, a, &g);
	check_policy(br, a, &g, buf_str(line));
	check_to_grundy(br, a, &g, buf_str(line));
	tu_strs_free(&all);
	tu_strs_free(&wins);
	game_moveset_clear(&ms);
	game_free(&g);
}

/* Checks every position with np piles <= bound, both movers. */
static void
check_all(int k, int l, int np, int bound)
{
	struct tu_brute	 br;
	struct buf	 line;
	int		 kl[2] = { k, l }, a[TU_MAXK] = { 0 }, bd[TU_MAXK], i;

	tu_brute_init(&br, np + 1, kl_options, kl);
	for (i = 0; i < np; i++)
		bd[i] = bound;
	buf_init(&line);
	do {
		a[np] = 1;
		check_pos(&br, a, &line);
		a[np] = 2;
		check_pos(&br, a, &line);
	} while (tu_next(a, np, bd));
	buf_free(&line);
	tu_brute_free(&br);
}

/* Checks one (k, l) pair with the bounds of games.md §8. */
static void
check_pair(int k, int l)
{
	check_all(k, l, 1, 30);
	check_all(k, l, 2, 18);
	check_all(k, l, 3, 12);
	check_all(k, l, 4, 8);
}

/* k != l: every pair up to 5 and a few larger ones. */
static void
test_klnim_partizan_brute(void **state)
{
	static const int extra[][2] = { { 3, 7 }, { 7, 3 }, { 2, 9 },
	    { 9, 2 }, { 5, 8 }, { 8, 5 }, { 1, 6 }, { 6, 11 } };
	size_t		 i;
	int		 k, l;

	(void)state;
	for (k = 1; k <= 5; k++)
		for (l = 1; l <= 5; l++)
			if (k != l)
				check_pair(k, l);
	for (i = 0; i < sizeof extra / sizeof extra[0]; i++)
		check_pair(extra[i][0], extra[i][1]);
	/* Five piles for the smallest pairs. */
	check_all(1, 2, 5, 5);
	check_all(2, 1, 5, 5);
	check_all(2, 3, 5, 5);
}

/* k == l: impartial, Grundy values by mex over sums of up to 4 piles. */
static void
test_klnim_impartial_brute(void **state)
{
	int	 k;

	(void)state;
	for (k = 1; k <= 6; k++)
		check_pair(k, k);
}

/* The mover with no legal move loses, even with tokens left. */
static void
test_klnim_terminal(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct tu_strs	 none;
	struct game	 g;

	(void)state;
	tu_strs_init(&none);
	game_moveset_init(&ms);

	/* Player 1 may not remove 1: the 1-piles are stuck. */
	tu_parse(&g, "klnim k=1 l=2 1 1 1");
	assert_true(game_terminal(&g));
	tu_check(&g, GAME_P, -1, &none);
	g.fam->policy(g.st, &ms);
	assert_int_equal(ms.n, 0);
	tu_play_fail(&g, "1=0", GAME_EILLEGAL);
	game_free(&g);

	/* Player 2 may remove 1: not over, and he wins by parity. */
	tu_parse(&g, "klnim k=1 l=2 turn=2 1 1 1");
	assert_false(game_terminal(&g));
	assert_int_equal(game_outcome(&g, &err), GAME_N);
	tu_play(&g, "2=0");
	assert_true(game_terminal(&g));
	game_free(&g);

	/* k = l = 1: stuck for both players; Grundy value 0. */
	tu_parse(&g, "klnim k=1 l=1 turn=2 1 0 1");
	assert_true(game_terminal(&g));
	tu_check(&g, GAME_P, 0, &none);
	game_free(&g);

	/* All piles empty. */
	tu_parse(&g, "klnim k=3 l=2 turn=2 0 0");
	assert_true(game_terminal(&g));
	tu_check(&g, GAME_P, -1, &none);
	game_moveset_reset(&ms);
	g.fam->policy(g.st, &ms);
	assert_int_equal(ms.n, 0);
	game_free(&g);

	/* Forbidden 1 with a pile of 2: the only move is 2 -> 0. */
	tu_parse(&g, "klnim k=1 l=5 1 2 1");
	assert_false(game_terminal(&g));
	game_moveset_reset(&ms);
	g.fam->policy(g.st, &ms);
	assert_int_equal(ms.n, 1);
	tu_play_fail(&g, "2=1", GAME_EILLEGAL);
	tu_play(&g, "2=0");
	assert_int_equal(game_mover(&g), 2);
	game_free(&g);

	game_moveset_clear(&ms);
	tu_strs_free(&none);
}

/* Bad input gives a specific error and never crashes. */
static void
test_klnim_bad(void **state)
{
	struct game_limits lim;

	(void)state;
	tu_parse_fails(GAME_ESYNTAX,
	    "klnim 3 4",
	    "klnim k=2 3 4",
	    "klnim l=2 3 4",
	    "klnim k=2 l=3",
	    "klnim k=2 l=3 turn=1",
	    "klnim",
	    "klnim k=2 l=3 m=1 3",
	    "klnim k=2 k=2 l=3 3",
	    "klnim k=2 l=3 l=3 3",
	    "klnim k=2 l=3 turn=1 turn=2 3",
	    "klnim k=2 l=3 turn=0 3",
	    "klnim k=2 l=3 turn=3 3",
	    "klnim k=2 l=3 turn=01 3",
	    "klnim k=2 l=3 turn=x 3",
	    "klnim k=2 l=3 turn= 3",
	    "klnim k= l=3 3",
	    "klnim k=-2 l=3 3",
	    "klnim k=2 l=-3 3",
	    "klnim k=0 l=3 3",
	    "klnim k=2 l=000 3",
	    "klnim k=2x l=3 3",
	    "klnim k=+2 l=3 3",
	    "klnim k=2 l=3 -3",
	    "klnim k=2 l=3 3 x",
	    "klnim k=2 l=3 3 4.5",
	    "klnim k=2 3 l=3 4",
	    "klnim k=2 l=3 3 turn=2",
	    "klnim K=2 l=3 3",
	    NULL);

	lim = *tu_limits();
	lim.max_digits = 10;
	tu_parse_fails_msg(&lim, GAME_ELIMIT,
	    "klnim k=12345678901 l=3 3", "k",
	    "klnim k=2 l=12345678901 3", "",
	    "klnim k=2 l=3 1 12345678901", "pile 2",
	    NULL);
	tu_parse_ok(&lim, "klnim k=2 l=3 1 1234567890");
	lim.max_piles = 2;
	tu_parse_fail_msg(&lim, "klnim k=2 l=3 1 2 3", GAME_ELIMIT, "");
}

/* Illegal moves: nothing changes; partizan positions have no Grundy value. */
static void
test_klnim_bad_moves(void **state)
{
	struct game_error err;
	struct game	 g;

	(void)state;
	tu_parse(&g, "klnim k=3 l=2 5 6 7");
	tu_play_fail(&g, "1=2", GAME_EILLEGAL);		/* P1 removes k */
	tu_play_fail(&g, "3=4", GAME_EILLEGAL);
	tu_move_fail_msg(&g, "2=3", "player 1 may not remove exactly 3");
	tu_play_fail(&g, "1=5", GAME_EILLEGAL);		/* not lowered */
	tu_play_fail(&g, "1=6", GAME_EILLEGAL);		/* raised */
	tu_play_fail(&g, "4=1", GAME_EILLEGAL);		/* no pile 4 */
	tu_play_fail(&g, "0=1", GAME_ESYNTAX);
	tu_play_fail(&g, "1=-1", GAME_ESYNTAX);
	tu_play_fail(&g, "1=x", GAME_ESYNTAX);
	tu_play_fail(&g, "1=0 2=0", GAME_EILLEGAL);	/* two changes */
	tu_play_fail(&g, "1=0 1=1", GAME_ESYNTAX);
	tu_play_fail(&g, "1.1=0", GAME_ESYNTAX);
	tu_play_fail(&g, "junk", GAME_ESYNTAX);
	tu_play(&g, "1=3");				/* P1 removes 2 */
	assert_int_equal(game_mover(&g), 2);
	tu_play_fail(&g, "3=5", GAME_EILLEGAL);		/* P2 removes l */
	tu_play_fail(&g, "2=4", GAME_EILLEGAL);
	tu_play(&g, "2=3");				/* P2 removes 3 */
	assert_int_equal(game_mover(&g), 1);
	tu_play_fail(&g, "3=4", GAME_EILLEGAL);		/* P1 removes k */
	tu_play(&g, "3=5");
	game_free(&g);

	/* Huge forbidden amount: still refused, with a short message. */
	tu_parse(&g, "klnim k=5 l=100000000000000000000000000000 turn=2 "
	    "100000000000000000000000000001");
	tu_play_fail(&g, "1=1", GAME_EILLEGAL);
	tu_play(&g, "1=0");
	game_free(&g);

	/* Partizan positions have no Grundy value and cannot be summed. */
	tu_parse(&g, "klnim k=2 l=3 5");
	{
		mpz_t	 v;

		mpz_init(v);
		assert_int_equal(game_grundy(&g, v, &err), -1);
		assert_int_equal(err.code, GAME_ENOGRUNDY);
		mpz_clear(v);
	}
	game_free(&g);
}

/* Canonical forms round-trip through the parser. */
static void
test_klnim_roundtrip(void **state)
{
	const char	*in[] = { "klnim k=2 l=3 5 6 7",
	    "klnim l=3 k=2 turn=2 5 6 7", "klnim turn=1 k=007 l=0010 0 00",
	    "klnim k=4 l=4 turn=2 9",
	    "klnim k=123456789012345678901234567890 l=1 "
	    "98765432109876543210987654321098765" };
	const char	*out[] = { "klnim k=2 l=3 turn=1 5 6 7",
	    "klnim k=2 l=3 turn=2 5 6 7", "klnim k=7 l=10 turn=1 0 0",
	    "klnim k=4 l=4 turn=2 9",
	    "klnim k=123456789012345678901234567890 l=1 turn=1 "
	    "98765432109876543210987654321098765" };
	struct game	 g, h;

	(void)state;
	tu_roundtrip(in, out, sizeof in / sizeof in[0]);
	/* A move flips the turn in the printed form; clones are independent. */
	tu_parse(&g, "klnim k=2 l=3 5 6 7");
	tu_clone_play(&h, &g, "1=4", "klnim k=2 l=3 turn=1 5 6 7",
	    "klnim k=2 l=3 turn=2 4 6 7");
	game_free(&g);
	game_free(&h);
}

TU_MAIN("klnim",
    cmocka_unit_test(test_klnim_partizan_brute),
    cmocka_unit_test(test_klnim_impartial_brute),
    cmocka_unit_test(test_klnim_terminal),
    cmocka_unit_test(test_klnim_bad),
    cmocka_unit_test(test_klnim_bad_moves),
    cmocka_unit_test(test_klnim_roundtrip))
