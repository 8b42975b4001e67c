/*
 * game-bash.c: Bash's game (games.md §1).  One pile n, parameter m: a move
 * removes 1..m tokens.  SG(n) = n mod (m+1).  Several piles are a sum.
 */
#include <stddef.h>
#include <stdlib.h>

#include "solver/game.h"

/* Bash state: m and the piles. */
struct bash {
	struct game_piles pl;		/* first: see game_piles_apply */
	mpz_t		 m;
	mpz_t		 m1;		/* m + 1 */
};

/* Cloned, freed and printed by game_layout_clone, _free and _print. */
static const struct game_layout bash_layout = { sizeof (struct bash), 2, {
    { "m", offsetof(struct bash, m), GAME_FIELD_MPZ },
    { NULL, offsetof(struct bash, m1), GAME_FIELD_MPZ } } };

/* Parses bash m=M PILE... */
static int
bash_parse(void **stp, int argc, char **argv, const struct game_limits *lim,
    struct game_error *err)
{
	struct game_key	 keys[] = { { "m", NULL } };
	struct bash	*st;
	int		 pos;

	if (game_parse_keys("bash", argc, argv, keys, 1, &pos, err) != 0)
		return (-1);
	if (keys[0].val == NULL)
		return (game_set_error(err, GAME_ESYNTAX,
		    "bash: missing key m (the most tokens a move removes)"));
	st = xcalloc(1, sizeof *st);
	mpz_inits(st->m, st->m1, NULL);
	if (game_parse_num(st->m, keys[0].val, "bash: m", lim, err) != 0)
		goto fail;
	if (mpz_sgn(st->m) == 0) {
		game_set_error(err, GAME_ESYNTAX, "bash: m must be at least 1");
		goto fail;
	}
	mpz_add_ui(st->m1, st->m, 1);
	return (game_piles_finish(&bash_layout, st, stp, argc - pos,
	    argv + pos, "pile", lim, err));
fail:
	game_layout_free(&bash_layout, st);
	return (-1);
}

/* Checks a move: one pile lowered by 1..m. */
static int
bash_check(const void *p, const struct game_move *m, struct game_error *err)
{
	const struct bash *st = p;
	int		 i, cmp;

	if ((i = game_check_removal_cmp(m, st->pl.n, st->pl.v, "pile", st->m,
	    &cmp, err)) < 0)
		return (-1);
	if (cmp > 0)
		return (game_set_error(err, GAME_EILLEGAL,
		    "pile %d: a move removes at most m tokens", i + 1));
	return (0);
}

/* Sets g to the Grundy value of one pile a: a mod (m+1). */
static void
bash_pile_sg(const void *p, const mpz_t a, mpz_t g)
{
	const struct bash *st = p;

	mpz_fdiv_r(g, a, st->m1);
}

/* Sets g to the XOR of n_i mod (m+1). */
static int
bash_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct bash *st = p;

	(void)err;
	game_pilesum_xor(st, &st->pl, bash_pile_sg, g);
	return (0);
}

/*
 * Appends the move of pile idx, holding a, to Grundy value want < m+1: the
 * unique candidate is a - ((a - want) mod (m+1)), a removal of 1..m.
 */
static void
bash_pile_to(const void *p, size_t idx, const mpz_t a, const mpz_t want,
    struct game_moveset *ms)
{
	const struct bash *st = p;
	mpz_t		 c;

	if (mpz_cmp(want, st->m1) >= 0)
		return;
	mpz_init(c);
	mpz_sub(c, a, want);
	mpz_fdiv_r(c, c, st->m1);
	if (mpz_sgn(c) != 0 && mpz_cmp(c, a) <= 0) {
		mpz_sub(c, a, c);
		game_moveset_add1(ms, idx, c);
	}
	mpz_clear(c);
}

/* Appends every move to Grundy value target. */
static int
bash_to_grundy(const void *p, const mpz_t target, struct game_moveset *ms,
    struct game_error *err)
{
	const struct bash *st = p;

	(void)err;
	game_pilesum_to_grundy(st, &st->pl, bash_pile_sg, bash_pile_to,
	    target, ms);
	return (0);
}

const struct game_family game_bash = {
	.name = "bash",
	.usage = "bash m=M PILE...",
	.summary = "Bash's game: remove 1 to m tokens from one pile",
	.parse = bash_parse,
	.layout = &bash_layout,
	.check = bash_check,
	.apply = game_piles_apply,
	.terminal = game_piles_empty,
	.grundy = bash_grundy,
	.to_grundy = bash_to_grundy,
	.policy = game_piles_policy,
};
