/*
 * game-hist.c: the undo history (game.h).  A position is saved as the move
 * back to it (the family's inverse, computed before the move is applied),
 * so a move costs no copy of the game; a move its family cannot invert gets
 * a copy.  The entries form a ring whose move numbers stay initialised from
 * one move to the next: once they have grown to a position's size, saving
 * a move allocates nothing.  The ring grows with use (doubling, from 16
 * slots) up to the cap, so a short game does not hold a long history's
 * slots.
 */
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "solver/game-word.h"

/* Sets back to the move that undoes m in g (not yet applied); 0, or -1. */
int
game_inverse(const struct game *g, const struct game_move *m,
    struct game_move *back)
{
	if (g->fam->inverse != NULL)
		return (g->fam->inverse(g->st, m, back));
	return (game_piles_inverse(g->st, m, back));
}

/*
 * game_outcome_after for a family with the piles' inverse when the piles
 * m changes hold words: the move back holds them as read-only integers
 * on the stack (as mpz_roinit_n makes them), so no number is allocated.
 * Returns 1 with *out set, or 0 if it does not apply.
 */
static int
game_outcome_after_word(struct game *g, const struct game_move *m,
    int *out, struct game_error *err)
{
	const struct game_piles *pl = g->st;
	struct game_move back;
	mp_limb_t	 old[GAME_MOVE_MAX];
	uint64_t	 v;
	size_t		 i;

	if (!GAME_WORD || g->fam->inverse != NULL)
		return (0);
	for (i = 0; i < m->n; i++)
		if (!game_word_get(pl->v[m->ch[i].idx - 1], &v))
			return (0);
	back.n = m->n;
	for (i = 0; i < m->n; i++) {
		(void)game_word_get(pl->v[m->ch[i].idx - 1], &v);
		back.ch[i].comp = m->ch[i].comp;
		back.ch[i].idx = m->ch[i].idx;
		(void)game_word_roinit(back.ch[i].val, &old[i], v);
	}
	g->fam->apply(g->st, m);
	*out = game_outcome(g, err);
	g->fam->apply(g->st, &back);
	return (1);
}

/*
 * Returns the outcome (GAME_P, GAME_N or -1 with err) of the position
 * after the checked move m, without a copy of g when its family can
 * invert m: plays m, asks, and plays the move back, so g is as before.
 */
int
game_outcome_after(struct game *g, const struct game_move *m,
    struct game_error *err)
{
	struct game_move back;
	struct game	 c;
	int		 out;

	if (game_outcome_after_word(g, m, &out, err))
		return (out);
	game_move_init(&back);
	if (game_inverse(g, m, &back) == 0) {
		g->fam->apply(g->st, m);
		out = game_outcome(g, err);
		g->fam->apply(g->st, &back);
	} else {
		game_clone(&c, g);
		c.fam->apply(c.st, m);
		out = game_outcome(&c, err);
		game_free(&c);
	}
	game_move_clear(&back);
	return (out);
}

/* Initialises an empty history. */
void
game_hist_init(struct game_hist *h)
{
	memset(h, 0, sizeof *h);
}

/* Drops entry e's position (its numbers stay for the next). */
static void
game_hist_drop(struct game_hist_ent *e)
{
	if (e->copy.fam != NULL)
		game_free(&e->copy);
}

/* Drops every position, keeping the allocations. */
void
game_hist_clear(struct game_hist *h)
{
	size_t	 i;

	for (i = 0; i < h->n; i++)
		game_hist_drop(&h->v[(h->first + i) % h->slots]);
	h->first = 0;
	h->n = 0;
}

/* Frees the history. */
void
game_hist_free(struct game_hist *h)
{
	size_t	 i;

	game_hist_clear(h);
	for (i = 0; i < h->slots; i++)
		game_move_clear(&h->v[i].back);
	free(h->v);
	game_hist_init(h);
}

/*
 * Makes the ring hold slots >= 1 entries, keeping the newest positions
 * when it shrinks (the caps can change on SIGHUP), and the numbers of as
 * many old entries as fit.  Slot i of the old ring holds its rank-th
 * oldest.
 */
static void
game_hist_resize(struct game_hist *h, size_t slots)
{
	struct game_hist_ent *v = xreallocarray(NULL, slots, sizeof *v);
	size_t	 drop = h->n > slots ? h->n - slots : 0, i, j = 0, rank;

	for (i = drop; i < h->n; i++)
		v[j++] = h->v[(h->first + i) % h->slots];
	for (i = 0; i < h->slots; i++) {
		rank = (i + h->slots - h->first) % h->slots;
		if (rank >= drop && rank < h->n)
			continue;		/* moved above */
		game_hist_drop(&h->v[i]);
		if (j < slots)
			v[j++] = h->v[i];
		else
			game_move_clear(&h->v[i].back);
	}
	for (; j < slots; j++) {
		v[j].copy.fam = NULL;
		v[j].copy.st = NULL;
		game_move_init(&v[j].back);
	}
	free(h->v);
	h->v = v;
	h->slots = slots;
	h->first = 0;
	h->n -= drop;
}

/*
 * Saves position g, before the checked move m is applied to it, with tag,
 * dropping the oldest beyond cap positions (cap 0: none is kept).
 */
void
game_hist_push(struct game_hist *h, size_t cap, const struct game *g,
    const struct game_move *m, int tag)
{
	struct game_hist_ent *e;
	size_t	 grow;

	if (cap == 0) {
		game_hist_clear(h);
		return;
	}
	if (h->slots > cap)		/* the cap shrank */
		game_hist_resize(h, cap);
	if (h->n == cap) {		/* full: the oldest goes */
		game_hist_drop(&h->v[h->first]);
		h->first = (h->first + 1) % h->slots;
		h->n--;
	} else if (h->n == h->slots) {	/* room below the cap: grow */
		grow = h->slots < 16 ? 16 : 2 * h->slots;
		game_hist_resize(h, grow < cap ? grow : cap);
	}
	e = &h->v[(h->first + h->n) % h->slots];
	if (game_inverse(g, m, &e->back) != 0)
		game_clone(&e->copy, g);
	e->tag = tag;
	h->n++;
}

/*
 * Takes g, the position after the moves saved, back to the newest saved
 * position and sets *tag to its tag; -1 if there is none.
 */
int
game_hist_pop(struct game_hist *h, struct game *g, int *tag)
{
	struct game_hist_ent *e;

	if (h->n == 0)
		return (-1);
	e = &h->v[(h->first + h->n - 1) % h->slots];
	if (e->copy.fam != NULL) {
		game_free(g);
		*g = e->copy;
		e->copy.fam = NULL;
		e->copy.st = NULL;
	} else
		g->fam->apply(g->st, &e->back);
	*tag = e->tag;
	h->n--;
	return (0);
}
