/*
 * eloref.h: a reference Elo replay for the tests (test-lobby-rating.c,
 * test-store-rating.c), independent of elo.c: plain arrays searched
 * linearly, its own formula (start 1500, K = 32).  Header-only.
 */
#ifndef ELOREF_H
#define ELOREF_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ELOREF_MAX	700

struct eloref {
	char		 name[ELOREF_MAX][16];
	double		 r[ELOREF_MAX];
	unsigned long	 games[ELOREF_MAX];
	size_t		 n;
};

/* Returns a player's index, added at 1500 if missing. */
static inline size_t
eloref_get(struct eloref *f, const char *name)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->name[i], name) == 0)
			return (i);
	assert_true(f->n < ELOREF_MAX);
	snprintf(f->name[f->n], sizeof f->name[0], "%s", name);
	f->r[f->n] = 1500.0;
	f->games[f->n] = 0;
	return (f->n++);
}

/* Applies one result (winner 1: p1 won, 2: p2 won). */
static inline void
eloref_rate(struct eloref *f, const char *p1, const char *p2, int winner)
{
	size_t	 a = eloref_get(f, p1), b = eloref_get(f, p2);
	double	 ea = 1.0 / (1.0 + pow(10.0, (f->r[b] - f->r[a]) / 400.0));
	double	 d = 32.0 * ((winner == 1 ? 1.0 : 0.0) - ea);

	f->r[a] += d;
	f->r[b] -= d;
	f->games[a]++;
	f->games[b]++;
}

#endif /* ELOREF_H */
