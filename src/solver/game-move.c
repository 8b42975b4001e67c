/*
 * game-move.c: moves and move sets, shared by every family.
 */
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "solver/game-word.h"

/* Appends a GMP integer in decimal; one that fits a word without GMP. */
void
buf_mpz(struct buf *b, const mpz_t z)
{
	uint64_t v;
	size_t	 n;

	if (game_word_get(z, &v)) {
		buf_putu(b, v);
		return;
	}
	n = mpz_sizeinbase(z, 10) + 2;

	buf_grow(b, n);
	mpz_get_str(b->data + b->len, 10, z);
	b->len += strlen(b->data + b->len);
}

/* Initialises an empty move. */
void
game_move_init(struct game_move *m)
{
	size_t	 i;

	m->n = 0;
	for (i = 0; i < GAME_MOVE_MAX; i++) {
		m->ch[i].comp = 0;
		m->ch[i].idx = 0;
		game_word_init(m->ch[i].val);
	}
}

/* Frees a move's numbers. */
void
game_move_clear(struct game_move *m)
{
	size_t	 i;

	for (i = 0; i < GAME_MOVE_MAX; i++)
		game_word_clear(m->ch[i].val);
	m->n = 0;
}

/* Copies src into the initialised move dst. */
void
game_move_copy(struct game_move *dst, const struct game_move *src)
{
	size_t	 i;

	dst->n = src->n;
	for (i = 0; i < GAME_MOVE_MAX; i++) {
		dst->ch[i].comp = src->ch[i].comp;
		dst->ch[i].idx = src->ch[i].idx;
		if (i < src->n || mpz_sgn(dst->ch[i].val) != 0)
			game_word_copy(dst->ch[i].val, src->ch[i].val);
	}
}

/*
 * Moves src into the initialised move dst: the numbers are exchanged (as
 * mpz_swap does, without the call), not copied; src keeps dst's old ones.
 */
void
game_move_take(struct game_move *dst, struct game_move *src)
{
	__mpz_struct	 t;
	size_t		 i;

	dst->n = src->n;
	for (i = 0; i < GAME_MOVE_MAX; i++) {
		dst->ch[i].comp = src->ch[i].comp;
		dst->ch[i].idx = src->ch[i].idx;
		t = *dst->ch[i].val;
		*dst->ch[i].val = *src->ch[i].val;
		*src->ch[i].val = t;
	}
}

/* Appends a change (comp, idx) for the caller to set; at most GAME_MOVE_MAX. */
static struct game_change *
game_move_next(struct game_move *m, size_t comp, size_t idx)
{
	struct game_change *c;

	if (m->n >= GAME_MOVE_MAX)
		abort();
	c = &m->ch[m->n++];
	c->comp = comp;
	c->idx = idx;
	return (c);
}

/* Appends a change (comp, idx) := val; the caller respects GAME_MOVE_MAX. */
void
game_move_add(struct game_move *m, size_t comp, size_t idx, const mpz_t val)
{
	game_word_copy(game_move_next(m, comp, idx)->val, val);
}

/* Appends a change with a small value. */
void
game_move_add_ui(struct game_move *m, size_t comp, size_t idx,
    unsigned long val)
{
	game_word_set(game_move_next(m, comp, idx)->val, val);
}

/* Prints one change as IDX=VAL or COMP.IDX=VAL. */
static void
game_change_print(const struct game_change *c, struct buf *b)
{
	if (c->comp != 0) {
		buf_putu(b, c->comp);
		buf_putc(b, '.');
	}
	buf_putu(b, c->idx);
	buf_putc(b, '=');
	buf_mpz(b, c->val);
}

/* Prints a move in the public notation. */
void
game_move_print(const struct game_move *m, struct buf *b)
{
	size_t	 i;

	for (i = 0; i < m->n; i++) {
		if (i > 0)
			buf_putc(b, ' ');
		game_change_print(&m->ch[i], b);
	}
}

/* Orders moves by their changes as a set, for canonical listings. */
int
game_move_cmp(const struct game_move *a, const struct game_move *b)
{
	const struct game_change *ca[GAME_MOVE_MAX], *cb[GAME_MOVE_MAX], *t;
	size_t	 i;
	int	 c;

	/* Compare sorted by (comp, idx) so that change order does not matter. */
	for (i = 0; i < GAME_MOVE_MAX; i++) {
		ca[i] = &a->ch[i];
		cb[i] = &b->ch[i];
	}
	if (a->n == 2 && (ca[0]->comp > ca[1]->comp ||
	    (ca[0]->comp == ca[1]->comp && ca[0]->idx > ca[1]->idx)))
		t = ca[0], ca[0] = ca[1], ca[1] = t;
	if (b->n == 2 && (cb[0]->comp > cb[1]->comp ||
	    (cb[0]->comp == cb[1]->comp && cb[0]->idx > cb[1]->idx)))
		t = cb[0], cb[0] = cb[1], cb[1] = t;
	for (i = 0; i < a->n && i < b->n; i++) {
		if (ca[i]->comp != cb[i]->comp)
			return (ca[i]->comp < cb[i]->comp ? -1 : 1);
		if (ca[i]->idx != cb[i]->idx)
			return (ca[i]->idx < cb[i]->idx ? -1 : 1);
		if ((c = game_word_cmp(ca[i]->val, cb[i]->val)) != 0)
			return (c);
	}
	if (a->n != b->n)
		return (a->n < b->n ? -1 : 1);
	return (0);
}

/* Initialises an empty move set. */
void
game_moveset_init(struct game_moveset *ms)
{
	ms->n = 0;
	ms->cap = 0;
	ms->v = NULL;
}

/* Frees a move set and every entry. */
void
game_moveset_clear(struct game_moveset *ms)
{
	size_t	 i;

	for (i = 0; i < ms->cap; i++) {
		game_move_clear(&ms->v[i].mv);
		game_word_clear(ms->v[i].hi);
	}
	free(ms->v);
	game_moveset_init(ms);
}

/* Empties a move set, keeping its storage. */
void
game_moveset_reset(struct game_moveset *ms)
{
	ms->n = 0;
}

/* Appends an empty, unranged entry and returns its move to fill in. */
struct game_move *
game_moveset_add(struct game_moveset *ms)
{
	size_t	 i, ncap;

	if (ms->n == ms->cap) {
		ncap = ms->cap == 0 ? 8 : ms->cap * 2;
		ms->v = xreallocarray(ms->v, ncap, sizeof *ms->v);
		for (i = ms->cap; i < ncap; i++) {
			game_move_init(&ms->v[i].mv);
			game_word_init(ms->v[i].hi);
		}
		ms->cap = ncap;
	}
	ms->v[ms->n].mv.n = 0;
	ms->v[ms->n].ranged = 0;
	return (&ms->v[ms->n++].mv);
}

/* Appends the single-change move idx := val. */
void
game_moveset_add1(struct game_moveset *ms, size_t idx, const mpz_t val)
{
	game_move_add(game_moveset_add(ms), 0, idx, val);
}

/* Appends the moves idx := v for every v in [lo, hi] (nothing if empty). */
void
game_moveset_add_range(struct game_moveset *ms, size_t idx, const mpz_t lo,
    const mpz_t hi)
{
	struct game_moveset_ent *e;
	int	 c = mpz_cmp(lo, hi);

	if (c > 0)
		return;
	game_moveset_add1(ms, idx, lo);
	if (c == 0)
		return;
	e = &ms->v[ms->n - 1];
	e->ranged = 1;
	mpz_set(e->hi, hi);
}

/* Counts the individual moves a set stands for. */
void
game_moveset_count(const struct game_moveset *ms, mpz_t count)
{
	size_t	 i;

	mpz_set_ui(count, 0);
	for (i = 0; i < ms->n; i++) {
		if (ms->v[i].ranged) {
			mpz_add(count, count, ms->v[i].hi);
			mpz_sub(count, count, ms->v[i].mv.ch[0].val);
		}
		mpz_add_ui(count, count, 1);
	}
}

/* Compares two entries for qsort. */
static int
game_moveset_ent_cmp(const void *a, const void *b)
{
	const struct game_moveset_ent *ea = a, *eb = b;

	return (game_move_cmp(&ea->mv, &eb->mv));
}

/* Sorts a move set into canonical order. */
void
game_moveset_sort(struct game_moveset *ms)
{
	if (ms->n > 1)
		qsort(ms->v, ms->n, sizeof *ms->v, game_moveset_ent_cmp);
}

/* Prints one entry; a ranged entry prints as IDX=LO..HI. */
void
game_moveset_ent_print(const struct game_moveset_ent *e, struct buf *b)
{
	game_move_print(&e->mv, b);
	if (e->ranged) {
		buf_puts(b, "..");
		buf_mpz(b, e->hi);
	}
}

/* Tags entries [from, n) with sum component comp. */
void
game_moveset_set_comp(struct game_moveset *ms, size_t from, size_t comp)
{
	size_t	 i, j;

	for (i = from; i < ms->n; i++)
		for (j = 0; j < ms->v[i].mv.n; j++)
			ms->v[i].mv.ch[j].comp = comp;
}
