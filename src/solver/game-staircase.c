/*
 * game-staircase.c: staircase Nim (games.md §6).  Coins a_1..a_n on steps
 * 1..n; a move slides c >= 1 coins from step s down to step s-1 (step 0 is
 * the ground, where coins are dead).  SG = XOR of the odd steps.
 */
#include <stdlib.h>

#include "solver/game.h"

/* Staircase state: coins per step. */
struct staircase {
	struct game_piles pl;		/* first: see game_piles_apply */
};

/* Cloned, freed and printed by game_layout_clone, _free and _print. */
static const struct game_layout staircase_layout = {
    .size = sizeof (struct staircase) };

/* Parses staircase STEP1 STEP2 ... */
static int
staircase_parse(void **stp, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	struct staircase *st;
	int		 pos;

	if (game_parse_keys("staircase", argc, argv, NULL, 0, &pos, err) != 0)
		return (-1);
	st = xcalloc(1, sizeof *st);
	return (game_piles_finish(&staircase_layout, st, stp, argc - pos,
	    argv + pos, "step", lim, err));
}

/*
 * Checks a move: "1=V" (coins from step 1 to the ground) or "S=V S-1=W"
 * in either order, with the same count leaving step S and landing on S-1.
 */
static int
staircase_check(const void *p, const struct game_move *m,
    struct game_error *err)
{
	const struct staircase *st = p;
	const struct game_change *src, *dst;
	mpz_t		 c, d;
	size_t		 s, i;
	int		 ok;

	for (i = 0; i < m->n; i++)
		if (m->ch[i].idx < 1 || m->ch[i].idx > st->pl.n)
			return (game_set_error(err, GAME_EILLEGAL,
			    "index %zu out of range: the position has %zu "
			    "step%s", m->ch[i].idx, st->pl.n,
			    st->pl.n == 1 ? "" : "s"));
	if (m->n == 1) {
		if (m->ch[0].idx != 1)
			return (game_set_error(err, GAME_EILLEGAL,
			    "coins leaving step %zu land on step %zu: write "
			    "both, as %zu=NEW %zu=NEW", m->ch[0].idx,
			    m->ch[0].idx - 1, m->ch[0].idx, m->ch[0].idx - 1));
		if (game_check_single(m, st->pl.n, st->pl.v, "step", err) < 0)
			return (-1);
		return (0);
	}
	src = &m->ch[0];
	dst = &m->ch[1];
	if (dst->idx > src->idx) {
		src = &m->ch[1];
		dst = &m->ch[0];
	}
	s = src->idx;
	if (dst->idx != s - 1)
		return (game_set_error(err, GAME_EILLEGAL,
		    "steps %zu and %zu are not adjacent: coins move from one "
		    "step to the step just below", dst->idx, s));
	if (mpz_cmp(src->val, st->pl.v[s - 1]) >= 0)
		return (game_set_error(err, GAME_EILLEGAL,
		    "step %zu must lose at least one coin", s));
	mpz_inits(c, d, NULL);
	mpz_sub(c, st->pl.v[s - 1], src->val);
	mpz_sub(d, dst->val, st->pl.v[s - 2]);
	ok = mpz_cmp(c, d) == 0;
	mpz_clears(c, d, NULL);
	if (!ok)
		return (game_set_error(err, GAME_EILLEGAL,
		    "step %zu must gain exactly the coins step %zu loses",
		    s - 1, s));
	return (0);
}

/* Sets g to the XOR of the odd steps. */
static int
staircase_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct staircase *st = p;
	size_t		 i;

	(void)err;
	mpz_set_ui(g, 0);
	for (i = 0; i < st->pl.n; i += 2)
		mpz_xor(g, g, st->pl.v[i]);
	return (0);
}

/*
 * Appends every move to Grundy value target (§6 with X replaced by
 * X ^ target): lower an odd step, or push coins from an even step onto the
 * odd step below it.
 */
static int
staircase_to_grundy(const void *p, const mpz_t target,
    struct game_moveset *ms, struct game_error *err)
{
	const struct staircase *st = p;
	struct game_move *m;
	mpz_t		 y, v, d;
	size_t		 s;

	mpz_inits(y, v, d, NULL);
	staircase_grundy(p, y, err);
	mpz_xor(y, y, target);
	for (s = 1; s <= st->pl.n; s++) {
		if (s % 2 == 1) {
			mpz_xor(v, st->pl.v[s - 1], y);
			if (mpz_cmp(v, st->pl.v[s - 1]) >= 0)
				continue;
			m = game_moveset_add(ms);
			game_move_add(m, 0, s, v);
			if (s > 1) {
				mpz_sub(d, st->pl.v[s - 1], v);
				mpz_add(d, d, st->pl.v[s - 2]);
				game_move_add(m, 0, s - 1, d);
			}
		} else {
			mpz_xor(v, st->pl.v[s - 2], y);
			if (mpz_cmp(v, st->pl.v[s - 2]) <= 0)
				continue;
			mpz_sub(d, v, st->pl.v[s - 2]);
			if (mpz_cmp(d, st->pl.v[s - 1]) > 0)
				continue;
			m = game_moveset_add(ms);
			mpz_sub(d, st->pl.v[s - 1], d);
			game_move_add(m, 0, s, d);
			game_move_add(m, 0, s - 1, v);
		}
	}
	mpz_clears(y, v, d, NULL);
	return (0);
}

/* Appends the engine's fallback moves: slide one coin down from any step. */
static void
staircase_policy(const void *p, struct game_moveset *ms)
{
	const struct staircase *st = p;
	struct game_move *m;
	size_t		 s;

	for (s = 1; s <= st->pl.n; s++) {
		if (mpz_sgn(st->pl.v[s - 1]) == 0)
			continue;
		m = game_moveset_add(ms);
		game_move_add(m, 0, s, st->pl.v[s - 1]);
		mpz_sub_ui(m->ch[0].val, m->ch[0].val, 1);
		if (s > 1) {
			game_move_add(m, 0, s - 1, st->pl.v[s - 2]);
			mpz_add_ui(m->ch[1].val, m->ch[1].val, 1);
		}
	}
}

const struct game_family game_staircase = {
	.name = "staircase",
	.usage = "staircase STEP1 STEP2 ...",
	.summary = "staircase Nim: slide coins from a step to the one below",
	.parse = staircase_parse,
	.layout = &staircase_layout,
	.check = staircase_check,
	.apply = game_piles_apply,
	.terminal = game_piles_empty,
	.grundy = staircase_grundy,
	.to_grundy = staircase_to_grundy,
	.policy = staircase_policy,
};
