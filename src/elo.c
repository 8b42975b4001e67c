/*
 * elo.c: Elo ratings of named players (elo.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "elo.h"

/* An empty table. */
void
elo_init(struct elo *e)
{
	memset(e, 0, sizeof *e);
}

/* Frees the table's memory and empties it. */
void
elo_free(struct elo *e)
{
	size_t	 i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].name);
	free(e->v);
	free(e->index);
	elo_init(e);
}

/* FNV-1a of a name, for the index. */
static size_t
elo_hash(const char *name)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	return ((size_t)h);
}

/* Returns the index slot of name: its entry, or the empty slot for it. */
static size_t *
elo_slot(const struct elo *e, const char *name)
{
	size_t	 mask = e->index_cap - 1, i = elo_hash(name) & mask;

	while (e->index[i] != 0 && strcmp(e->v[e->index[i] - 1].name,
	    name) != 0)
		i = (i + 1) & mask;
	return (&e->index[i]);
}

/* Returns a player's entry, or NULL. */
struct elo_entry *
elo_find(const struct elo *e, const char *name)
{
	size_t	*slot;

	if (e->index_cap == 0)
		return (NULL);
	slot = elo_slot(e, name);
	return (*slot != 0 ? &e->v[*slot - 1] : NULL);
}

/* Doubles the index (kept at most half full) and reinserts every entry. */
static void
elo_reindex(struct elo *e)
{
	size_t	 i;

	free(e->index);
	e->index_cap = e->index_cap == 0 ? 64 : e->index_cap * 2;
	e->index = xcalloc(e->index_cap, sizeof *e->index);
	for (i = 0; i < e->n; i++)
		*elo_slot(e, e->v[i].name) = i + 1;
}

/*
 * Returns a player's entry, added at the start rating if missing.  Adding
 * one may move the others.
 */
struct elo_entry *
elo_get(struct elo *e, const char *name)
{
	struct elo_entry *p;

	if ((p = elo_find(e, name)) != NULL)
		return (p);
	if (e->n == e->cap) {
		e->cap = e->cap == 0 ? 64 : e->cap * 2;
		e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	p = &e->v[e->n++];
	p->name = xstrdup(name);
	p->r = ELO_START;
	p->games = 0;
	if (2 * e->n > e->index_cap)
		elo_reindex(e);
	else
		*elo_slot(e, p->name) = e->n;
	return (p);
}

/* Applies one result to two ratings (winner: 1 for a, 2 for b). */
void
elo_update(double *a, double *b, int winner)
{
	double	 ea, sa;

	ea = 1.0 / (1.0 + pow(10.0, (*b - *a) / 400.0));
	sa = winner == 1 ? 1.0 : 0.0;
	*a += ELO_K * (sa - ea);
	*b -= ELO_K * (sa - ea);
}

/* Applies one result between p1 and p2 to the table (winner: 1 or 2). */
void
elo_rate(struct elo *e, const char *p1, const char *p2, int winner)
{
	struct elo_entry *a, *b;

	/* Adding b may move the array: add both first, then look up. */
	(void)elo_get(e, p1);
	b = elo_get(e, p2);
	a = elo_get(e, p1);
	elo_update(&a->r, &b->r, winner);
	a->games++;
	b->games++;
}

/* Makes dst (initialised) a copy of src. */
void
elo_copy(struct elo *dst, const struct elo *src)
{
	size_t	 i;
	struct elo_entry *p;

	elo_free(dst);
	for (i = 0; i < src->n; i++) {
		p = elo_get(dst, src->v[i].name);
		p->r = src->v[i].r;
		p->games = src->v[i].games;
	}
}
