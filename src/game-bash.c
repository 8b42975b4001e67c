/*
 * game-bash.c: Bash's game (games.md §1).  One pile n, parameter m: a move
 * removes 1..m tokens.  SG(n) = n mod (m+1).  Several piles are a sum.
 */
#include <stdlib.h>

#include "game.h"

/* Bash state: m and the piles. */
struct bash {
	struct game_piles pl;		/* first: see game_piles_apply */
	mpz_t		 m;
	mpz_t		 m1;		/* m + 1 */
};

/* Frees the state. */
static void
bash_free(void *p)
{
	struct bash	*st = p;

	mpz_clears(st->m, st->m1, NULL);
	game_piles_clear(&st->pl);
	free(st);
}

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
	if (game_piles_parse(&st->pl, argc - pos, argv + pos,
	    "pile", lim, err) != 0)
		goto fail;
	*stp = st;
	return (0);
fail:
	bash_free(st);
	return (-1);
}

/* Returns a deep copy. */
static void *
bash_clone(const void *p)
{
	const struct bash *st = p;
	struct bash	*c = xcalloc(1, sizeof *c);

	mpz_init_set(c->m, st->m);
	mpz_init_set(c->m1, st->m1);
	game_piles_copy(&c->pl, &st->pl);
	return (c);
}

/* Prints bash m=M PILE... */
static void
bash_print(const void *p, struct buf *b)
{
	const struct bash *st = p;

	buf_puts(b, "bash m=");
	buf_mpz(b, st->m);
	buf_putc(b, ' ');
	game_piles_print(st->pl.v, st->pl.n, b);
}

/* Checks a move: one pile lowered by 1..m. */
static int
bash_check(const void *p, const struct game_move *m, struct game_error *err)
{
	const struct bash *st = p;
	mpz_t		 c;
	int		 i, bad;

	mpz_init(c);
	if ((i = game_check_removal(m, st->pl.n, st->pl.v, "pile", c,
	    err)) < 0) {
		mpz_clear(c);
		return (-1);
	}
	bad = mpz_cmp(c, st->m) > 0;
	mpz_clear(c);
	if (bad)
		return (game_set_error(err, GAME_EILLEGAL,
		    "pile %d: a move removes at most m tokens", i + 1));
	return (0);
}

/* Sets g to the XOR of n_i mod (m+1). */
static int
bash_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct bash *st = p;
	mpz_t		 r;
	size_t		 i;

	(void)err;
	mpz_init(r);
	mpz_set_ui(g, 0);
	for (i = 0; i < st->pl.n; i++) {
		mpz_fdiv_r(r, st->pl.v[i], st->m1);
		mpz_xor(g, g, r);
	}
	mpz_clear(r);
	return (0);
}

/*
 * Appends every move to Grundy value target.  Pile i must reach residue
 * want = (n_i mod (m+1)) ^ X ^ target < m+1 by removing 1..m, and the unique
 * candidate is n_i - ((n_i - want) mod (m+1)).
 */
static int
bash_to_grundy(const void *p, const mpz_t target, struct game_moveset *ms,
    struct game_error *err)
{
	const struct bash *st = p;
	mpz_t		 x, r, want, c, v;
	size_t		 i;

	mpz_inits(x, r, want, c, v, NULL);
	bash_grundy(p, x, err);
	mpz_xor(x, x, target);
	for (i = 0; i < st->pl.n; i++) {
		mpz_fdiv_r(r, st->pl.v[i], st->m1);
		mpz_xor(want, r, x);
		if (mpz_cmp(want, st->m1) >= 0)
			continue;
		/* Removal c in 1..m with (n - c) mod (m+1) == want. */
		mpz_sub(c, r, want);
		mpz_fdiv_r(c, c, st->m1);
		if (mpz_sgn(c) == 0 || mpz_cmp(c, st->pl.v[i]) > 0)
			continue;
		mpz_sub(v, st->pl.v[i], c);
		game_moveset_add1(ms, i + 1, v);
	}
	mpz_clears(x, r, want, c, v, NULL);
	return (0);
}

/* Appends the engine's fallback moves: remove one token from any pile. */
static void
bash_policy(const void *p, struct game_moveset *ms)
{
	const struct bash *st = p;

	game_policy_remove(st->pl.v, st->pl.n, 1, ms);
}

const struct game_family game_bash = {
	.name = "bash",
	.usage = "bash m=M PILE...",
	.summary = "Bash's game: remove 1 to m tokens from one pile",
	.parse = bash_parse,
	.clone = bash_clone,
	.free = bash_free,
	.print = bash_print,
	.check = bash_check,
	.apply = game_piles_apply,
	.terminal = game_piles_empty,
	.grundy = bash_grundy,
	.to_grundy = bash_to_grundy,
	.policy = bash_policy,
};
