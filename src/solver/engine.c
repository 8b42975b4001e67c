/*
 * engine.c: the engine's move.  In an N-position it plays a winning move; in
 * a P-position it plays the family's fallback policy (the smallest removal,
 * which keeps the game long).  Deterministic by default: the first move in
 * canonical order.  Given a seeded random state, it picks uniformly among
 * all the equally good moves instead.
 */
#include "solver/engine.h"

/*
 * Picks one move of a non-empty set into out: the first entry's first move,
 * or, with rs, a uniform choice over every individual move of the set.
 */
static void
engine_pick(struct game_moveset *ms, gmp_randstate_t rs,
    struct game_move *out)
{
	const struct game_moveset_ent *e;
	mpz_t	 total, r, size;
	size_t	 i;

	if (rs == NULL) {
		/* The set is emptied next: its first move is taken whole. */
		game_move_take(out, &ms->v[0].mv);
		return;
	}
	mpz_inits(total, r, size, NULL);
	game_moveset_count(ms, total);
	mpz_urandomm(r, rs, total);
	e = &ms->v[0];
	for (i = 0; i < ms->n; i++) {
		e = &ms->v[i];
		mpz_set_ui(size, 1);
		if (e->ranged) {
			mpz_add(size, size, e->hi);
			mpz_sub(size, size, e->mv.ch[0].val);
		}
		if (mpz_cmp(r, size) < 0 || i == ms->n - 1)
			break;
		mpz_sub(r, r, size);
	}
	game_move_copy(out, &e->mv);
	if (e->ranged)
		mpz_add(out->ch[0].val, out->ch[0].val, r);
	mpz_clears(total, r, size, NULL);
}

/*
 * Chooses the engine's move for the player to move into out (initialised).
 * rs is NULL for deterministic play.  Fails if the game is over.
 */
int
engine_choose(const struct game *g, gmp_randstate_t rs, struct game_move *out,
    enum engine_why *why, struct game_error *err)
{
	struct game_moveset ms;
	int	 rv;

	game_moveset_init(&ms);
	rv = engine_choose_in(g, rs, &ms, out, why, err);
	game_moveset_clear(&ms);
	return (rv);
}

/*
 * As engine_choose, with the caller's move set ms as the scratch space
 * (emptied first, its entries' numbers reused): a caller that keeps ms
 * and out across plies makes no allocation and no GMP call a ply on word
 * sized games.  A set grown past ENGINE_SCRATCH_KEEP entries is freed.
 */
int
engine_choose_in(const struct game *g, gmp_randstate_t rs,
    struct game_moveset *ms, struct game_move *out, enum engine_why *why,
    struct game_error *err)
{
	int	 o, rv = 0;

	if (game_terminal(g))
		return (game_set_error(err, GAME_EILLEGAL,
		    "the game is over: the player to move has no legal move"));
	if ((o = game_outcome(g, err)) < 0)
		return (-1);
	game_moveset_reset(ms);
	out->n = 0;		/* a kept move: its numbers are reused */
	if (o == GAME_N && g->fam->one_winning != NULL && rs == NULL) {
		/* Deterministic, and the family can name one move directly. */
		*why = ENGINE_WIN;
		return (g->fam->one_winning(g->st, out, err));
	}
	if (o == GAME_N) {
		if (game_winning(g, ms, err) != 0) {
			game_moveset_clear(ms);
			if (err->code != GAME_ELIMIT ||
			    g->fam->one_winning == NULL)
				return (-1);
			/* Too many to pick among: play the direct one. */
			*why = ENGINE_WIN;
			return (g->fam->one_winning(g->st, out, err));
		}
		if (ms->n == 0) {
			rv = game_set_error(err, GAME_EILLEGAL, "internal "
			    "error: an N-position without a winning move");
			goto out;
		}
		*why = ENGINE_WIN;
	} else {
		g->fam->policy(g->st, ms);
		game_moveset_sort(ms);
		*why = ENGINE_POLICY;
	}
	if (ms->n == 0) {
		rv = game_set_error(err, GAME_EILLEGAL,
		    "the game is over: the player to move has no legal move");
		goto out;
	}
	engine_pick(ms, rs, out);
out:
	if (ms->cap > ENGINE_SCRATCH_KEEP)
		game_moveset_clear(ms);
	else
		game_moveset_reset(ms);
	return (rv);
}
