/*
 * game-nim.c: Nim in normal play (Bouton) and misere play (games.md §2).
 * Position: piles a_1..a_n.  Move: lower one pile.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "solver/game-word.h"

/* Nim state: the piles and the play convention. */
struct nim {
	struct game_piles pl;		/* first: see game_piles_apply */
	int		 misere;	/* 1: the last mover loses */
};

/* Cloned, freed and printed by game_layout_clone, _free and _print. */
static const struct game_layout nim_layout = { sizeof (struct nim), 1, {
    { "misere", offsetof(struct nim, misere), GAME_FIELD_INT } } };

/* Parses nim [misere=0|1] PILE... */
static int
nim_parse(void **stp, int argc, char **argv, const struct game_limits *lim,
    struct game_error *err)
{
	struct game_key	 keys[] = { { "misere", NULL } };
	struct nim	*st;
	int		 pos;

	if (game_parse_keys("nim", argc, argv, keys, 1, &pos, err) != 0)
		return (-1);
	if (keys[0].val != NULL && strcmp(keys[0].val, "0") != 0 &&
	    strcmp(keys[0].val, "1") != 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "nim: misere '%.40s': must be 0 or 1", keys[0].val));
	st = xcalloc(1, sizeof *st);
	st->misere = keys[0].val != NULL && keys[0].val[0] == '1';
	return (game_piles_finish(&nim_layout, st, stp, argc - pos, argv + pos,
	    "pile", lim, err));
}

/* Checks a move: one pile, lowered. */
static int
nim_check(const void *p, const struct game_move *m, struct game_error *err)
{
	const struct nim *st = p;

	return (game_check_single(m, st->pl.n, st->pl.v, "pile", err) < 0 ?
	    -1 : 0);
}

/* Sets x to the XOR of all piles. */
static void
nim_xor(const struct nim *st, mpz_t x)
{
	game_pilesum_xor(st, &st->pl, NULL, x);
}

/* Counts piles >= 2 (big) and piles == 1 (ones); big gets the last big. */
static size_t
nim_census(const struct nim *st, size_t *ones, size_t *big)
{
	size_t	 i, nbig = 0;

	*ones = 0;
	for (i = 0; i < st->pl.n; i++) {
		if (game_word_cmp_u(st->pl.v[i], 1) > 0) {
			nbig++;
			*big = i;
		} else if (mpz_sgn(st->pl.v[i]) != 0)
			(*ones)++;
	}
	return (nbig);
}

/* Returns the outcome; misere Nim follows §2's rule for piles <= 1. */
static int
nim_outcome(const void *p, struct game_error *err)
{
	const struct nim *st = p;
	size_t		 ones, big;
	uint64_t	 w;
	mpz_t		 x;
	int		 out;

	(void)err;
	if (st->misere && nim_census(st, &ones, &big) == 0)
		return (ones % 2 == 1 ? GAME_P : GAME_N);
	if (game_piles_xor_word(&st->pl, &w))
		return (w != 0 ? GAME_N : GAME_P);
	mpz_init(x);
	nim_xor(st, x);
	out = mpz_sgn(x) != 0 ? GAME_N : GAME_P;
	mpz_clear(x);
	return (out);
}

/* Sets g to the XOR of the piles (normal play only). */
static int
nim_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct nim *st = p;

	if (st->misere)
		return (game_set_error(err, GAME_ENOGRUNDY,
		    "misere Nim has no Grundy value: misere play does not "
		    "add up by XOR"));
	nim_xor(st, g);
	return (0);
}

/* Appends the move of pile idx, holding a, to pile t, if t is lower. */
static void
nim_pile_to(const void *p, size_t idx, const mpz_t a, const mpz_t t,
    struct game_moveset *ms)
{
	(void)p;
	if (game_word_cmp(t, a) < 0)
		game_moveset_add1(ms, idx, t);
}

/* Appends every move to Grundy value target: a_i -> a_i ^ X ^ target. */
static int
nim_to_grundy(const void *p, const mpz_t target, struct game_moveset *ms,
    struct game_error *err)
{
	const struct nim *st = p;
	uint64_t	 x, t, a = 0;
	size_t		 i;

	if (st->misere)
		return (nim_grundy(p, NULL, err));
	if (game_piles_xor_word(&st->pl, &x) && game_word_get(target, &t)) {
		/* Every pile fits a word: a_i -> a_i ^ X ^ target by words. */
		x ^= t;
		for (i = 0; i < st->pl.n; i++) {
			(void)game_word_get(st->pl.v[i], &a);
			if ((a ^ x) < a)
				game_move_add_ui(game_moveset_add(ms), 0,
				    i + 1, (unsigned long)(a ^ x));
		}
		return (0);
	}
	game_pilesum_to_grundy(st, &st->pl, NULL, nim_pile_to, target, ms);
	return (0);
}

/* Appends every winning move (§2, misere cases a-c). */
static int
nim_winning(const void *p, struct game_moveset *ms, struct game_error *err)
{
	const struct nim *st = p;
	size_t		 ones, big = 0, nbig, i;
	mpz_t		 zero;

	if (!st->misere || (nbig = nim_census(st, &ones, &big)) >= 2) {
		game_word_init(zero);
		nim_to_grundy(&(struct nim){ st->pl, 0 }, zero, ms,
		    err);
		game_word_clear(zero);
		return (0);
	}
	if (nbig == 1) {
		/* Leave an odd number of 1-piles. */
		game_move_add_ui(game_moveset_add(ms), 0, big + 1,
		    ones % 2 == 0 ? 1 : 0);
		return (0);
	}
	if (ones > 0 && ones % 2 == 0)
		for (i = 0; i < st->pl.n; i++)
			if (mpz_sgn(st->pl.v[i]) != 0)
				game_move_add_ui(game_moveset_add(ms), 0,
				    i + 1, 0);
	return (0);
}

const struct game_family game_nim = {
	.name = "nim",
	.usage = "nim [misere=0|1] PILE...",
	.summary = "Nim: lower one pile; misere=1: the last mover loses",
	.parse = nim_parse,
	.layout = &nim_layout,
	.check = nim_check,
	.apply = game_piles_apply,
	.terminal = game_piles_empty,
	.outcome = nim_outcome,
	.grundy = nim_grundy,
	.winning = nim_winning,
	.to_grundy = nim_to_grundy,
	.policy = game_piles_policy,
};
