/*
 * rtable.c: the Glicko-2 ratings of named players (rtable.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "stats/rtable.h"

/* An empty table. */
void
rtable_init(struct rtable *e)
{
	memset(e, 0, sizeof *e);
}

/* Frees the table's memory and empties it. */
void
rtable_free(struct rtable *e)
{
	namev_free(e->v, e->n, sizeof *e->v,
	    offsetof(struct rtable_entry, name));
	free(e->index);
	rtable_init(e);
}

/* FNV-1a of a name, for the index. */
static size_t
rtable_hash(const char *name)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	return ((size_t)h);
}

/* Returns the index slot of name: its entry, or the empty slot for it. */
static size_t *
rtable_slot(const struct rtable *e, const char *name)
{
	size_t	 mask = e->index_cap - 1, i = rtable_hash(name) & mask;

	while (e->index[i] != 0 && strcmp(e->v[e->index[i] - 1].name,
	    name) != 0)
		i = (i + 1) & mask;
	return (&e->index[i]);
}

/* Returns a player's entry, or NULL. */
struct rtable_entry *
rtable_find(const struct rtable *e, const char *name)
{
	size_t	*slot;

	if (e->index_cap == 0)
		return (NULL);
	slot = rtable_slot(e, name);
	return (*slot != 0 ? &e->v[*slot - 1] : NULL);
}

/* Doubles the index (kept at most half full) and reinserts every entry. */
static void
rtable_reindex(struct rtable *e)
{
	size_t	 i;

	free(e->index);
	e->index_cap = e->index_cap == 0 ? 64 : e->index_cap * 2;
	e->index = xcalloc(e->index_cap, sizeof *e->index);
	for (i = 0; i < e->n; i++)
		*rtable_slot(e, e->v[i].name) = i + 1;
}

/*
 * Returns a player's entry, added at Glickman's start (1500, RD 350,
 * volatility 0.06) if missing.  Adding
 * one may move the others.
 */
struct rtable_entry *
rtable_get(struct rtable *e, const char *name)
{
	struct rtable_entry *p;

	if ((p = rtable_find(e, name)) != NULL)
		return (p);
	if (e->n == e->cap) {
		e->cap = e->cap == 0 ? 64 : e->cap * 2;
		e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	p = &e->v[e->n++];
	p->name = xstrdup(name);
	p->g.r = GLICKO2_INIT_RATING;
	p->g.rd = GLICKO2_INIT_RD;
	p->g.sigma = GLICKO2_INIT_SIGMA;
	p->games = 0;
	if (2 * e->n > e->index_cap)
		rtable_reindex(e);
	else
		*rtable_slot(e, p->name) = e->n;
	return (p);
}

/*
 * Applies one result between p1 and p2 to the table (winner: 1 or 2): one
 * rating period for the two of them, each rated against the other's
 * rating and RD from before the game.  An update glicko2_update refuses
 * (it never happens with ratings it computed) leaves that player's rating
 * as it was; the game is counted either way.
 */
void
rtable_rate(struct rtable *e, const char *p1, const char *p2, int winner)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 ra, rb;
	struct glicko2_game	 ga, gb;
	struct rtable_entry	*a, *b;

	/* Adding b may move the array: add both first, then look up. */
	(void)rtable_get(e, p1);
	b = rtable_get(e, p2);
	a = rtable_get(e, p1);
	glicko2_params_default(&p);
	ra = a->g;
	rb = b->g;
	ga.r = rb.r;
	ga.rd = rb.rd;
	ga.score = winner == 1 ? 1.0 : 0.0;
	gb.r = ra.r;
	gb.rd = ra.rd;
	gb.score = 1.0 - ga.score;
	(void)glicko2_update(&p, &ra, &ga, 1, &a->g, NULL);
	(void)glicko2_update(&p, &rb, &gb, 1, &b->g, NULL);
	a->games++;
	b->games++;
}

/* Tells whether a rating is provisional (RD at or above 110, lichess's
 * rule). */
int
rtable_provisional(const struct glicko2_rating *g)
{
	struct glicko2_params	 p;

	glicko2_params_default(&p);
	return (glicko2_provisional(&p, g));
}

/* Makes dst (initialised) a copy of src. */
void
rtable_copy(struct rtable *dst, const struct rtable *src)
{
	size_t	 i;
	struct rtable_entry *p;

	rtable_free(dst);
	for (i = 0; i < src->n; i++) {
		p = rtable_get(dst, src->v[i].name);
		p->g = src->v[i].g;
		p->games = src->v[i].games;
	}
}
