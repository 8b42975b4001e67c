/*
 * glickoref.h: a reference Glicko-2 replay for the tests
 * (test-lobby-rating.c, test-store-rating.c, test-store-migrate.c),
 * independent of glicko2.c and rtable.c: plain arrays searched linearly,
 * its own transcription of Glickman's steps ("Example of the Glicko-2
 * system", 2013) for the one-game rating period of PROTOCOL.md §13.7
 * (start 1500, RD 350, volatility 0.06, tau 0.5, epsilon 1e-6, RD capped
 * at 350).  Header-only.  Its doubles may differ from glicko2.c's in the
 * last bits: compare with glickoref_near.
 */
#ifndef GLICKOREF_H
#define GLICKOREF_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/glicko2.h"

#define GLICKOREF_MAX	700
#define GLICKOREF_Q	173.7178	/* 400 / ln 10, as the paper rounds */

struct glickoref {
	char		 name[GLICKOREF_MAX][16];
	double		 r[GLICKOREF_MAX], rd[GLICKOREF_MAX];
	double		 vol[GLICKOREF_MAX];
	unsigned long	 games[GLICKOREF_MAX];
	size_t		 n;
};

/* Returns a player's index, added at the start if missing. */
static inline size_t
glickoref_get(struct glickoref *f, const char *name)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->name[i], name) == 0)
			return (i);
	assert_true(f->n < GLICKOREF_MAX);
	snprintf(f->name[f->n], sizeof f->name[0], "%s", name);
	f->r[f->n] = 1500.0;
	f->rd[f->n] = 350.0;
	f->vol[f->n] = 0.06;
	f->games[f->n] = 0;
	return (f->n++);
}

/* The paper's f(x) of step 5 (d2 = Delta^2, p2 = phi^2). */
static inline double
glickoref_f(double x, double d2, double p2, double v, double a)
{
	double	 e = exp(x);

	return (e * (d2 - p2 - v - e) / (2.0 * (p2 + v + e) * (p2 + v + e)) -
	    (x - a) / 0.25);
}

/*
 * One player's period of one game: rating r, RD rd, volatility vol
 * against an opponent ro, rdo, with score s; the new values in out[3].
 */
static inline void
glickoref_one(double r, double rd, double vol, double ro, double rdo,
    double s, double out[3])
{
	double	 mu = (r - 1500.0) / GLICKOREF_Q, ph = rd / GLICKOREF_Q;
	double	 phj = rdo / GLICKOREF_Q, muj = (ro - 1500.0) / GLICKOREF_Q;
	double	 gj = 1.0 / sqrt(1.0 + 3.0 * phj * phj / (M_PI * M_PI));
	double	 ej = 1.0 / (1.0 + exp(-gj * (mu - muj)));
	double	 v = 1.0 / (gj * gj * ej * (1.0 - ej)), d = v * gj * (s - ej);
	double	 a = log(vol * vol), A = a, B, C, fa, fb, fc, np, ps;
	int	 k = 1;

	if (d * d > ph * ph + v)
		B = log(d * d - ph * ph - v);
	else {
		while (glickoref_f(a - k * 0.5, d * d, ph * ph, v, a) < 0)
			k++;
		B = a - k * 0.5;
	}
	fa = glickoref_f(A, d * d, ph * ph, v, a);
	fb = glickoref_f(B, d * d, ph * ph, v, a);
	while (fabs(B - A) > 0.000001) {
		C = A + (A - B) * fa / (fb - fa);
		fc = glickoref_f(C, d * d, ph * ph, v, a);
		if (fc * fb <= 0) {
			A = B;
			fa = fb;
		} else
			fa /= 2.0;
		B = C;
		fb = fc;
	}
	out[2] = exp(A / 2.0);
	ps = sqrt(ph * ph + out[2] * out[2]);
	np = 1.0 / sqrt(1.0 / (ps * ps) + 1.0 / v);
	out[0] = 1500.0 + GLICKOREF_Q * (mu + np * np * gj * (s - ej));
	out[1] = GLICKOREF_Q * np < 350.0 ? GLICKOREF_Q * np : 350.0;
}

/* Applies one result (winner 1: p1 won, 2: p2 won): one period each. */
static inline void
glickoref_rate(struct glickoref *f, const char *p1, const char *p2,
    int winner)
{
	size_t	 a = glickoref_get(f, p1), b = glickoref_get(f, p2);
	double	 na[3], nb[3];

	glickoref_one(f->r[a], f->rd[a], f->vol[a], f->r[b], f->rd[b],
	    winner == 1 ? 1.0 : 0.0, na);
	glickoref_one(f->r[b], f->rd[b], f->vol[b], f->r[a], f->rd[a],
	    winner == 2 ? 1.0 : 0.0, nb);
	f->r[a] = na[0];
	f->rd[a] = na[1];
	f->vol[a] = na[2];
	f->r[b] = nb[0];
	f->rd[b] = nb[1];
	f->vol[b] = nb[2];
	f->games[a]++;
	f->games[b]++;
}

/* Tells whether x and y agree within tol (absolute). */
static inline int
glickoref_near(double x, double y, double tol)
{
	return (fabs(x - y) <= tol);
}

/*
 * Asserts that g and games, a rating under test, are f's player i's:
 * rating and RD within 1e-6, volatility within 1e-9, the same games.
 */
static inline void
glickoref_same(const struct glickoref *f, size_t i,
    const struct glicko2_rating *g, unsigned long games)
{
	assert_true(glickoref_near(g->r, f->r[i], 1e-6));
	assert_true(glickoref_near(g->rd, f->rd[i], 1e-6));
	assert_true(glickoref_near(g->sigma, f->vol[i], 1e-9));
	assert_int_equal(games, f->games[i]);
}

#endif /* GLICKOREF_H */
