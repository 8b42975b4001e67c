/*
 * matchstat.c: match statistics for a pair of players: counts, score,
 * the Elo difference with its 95% interval, normalized Elo and LOS, from
 * trinomial (per game) or pentanomial (per game pair) counts.  The
 * formulas are fastchess's (app/src/matchmaking/elo/elo_wdl.cpp and
 * elo_pentanomial.cpp); doc/STATS.md lists them.  Pure: no I/O, no
 * globals.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/buf.h"
#include "stats/matchstat.h"
#include "lib/util-sort.h"

/* Tells whether r is a result. */
static int
res_ok(enum matchstat_res r)
{
	return (r == MATCHSTAT_LOSS || r == MATCHSTAT_DRAW ||
	    r == MATCHSTAT_WIN);
}

/* Adds one game's result; -1 and nothing changed if r is not one. */
int
matchstat_wdl_add(struct matchstat_wdl *w, enum matchstat_res r)
{
	switch (r) {
	case MATCHSTAT_WIN:
		w->wins++;
		return (0);
	case MATCHSTAT_DRAW:
		w->draws++;
		return (0);
	case MATCHSTAT_LOSS:
		w->losses++;
		return (0);
	}
	return (-1);
}

/* Returns the number of games. */
uint64_t
matchstat_wdl_games(const struct matchstat_wdl *w)
{
	return (w->wins + w->losses + w->draws);
}

/* Returns A's points: a win 1, a draw 1/2. */
double
matchstat_wdl_points(const struct matchstat_wdl *w)
{
	return ((double)w->wins + (double)w->draws / 2.0);
}

/* Adds one pair of games (A's results in either order); -1 and nothing
 * changed if a or b is not a result. */
int
matchstat_penta_add(struct matchstat_penta *p, enum matchstat_res a,
    enum matchstat_res b)
{
	if (!res_ok(a) || !res_ok(b))
		return (-1);
	switch ((int)a + (int)b) {
	case 0:
		p->ll++;
		break;
	case 1:
		p->ld++;
		break;
	case 2:
		if (a == MATCHSTAT_DRAW)
			p->dd++;
		else
			p->wl++;
		break;
	case 3:
		p->wd++;
		break;
	default:
		p->ww++;
		break;
	}
	return (0);
}

/* Returns the number of pairs. */
uint64_t
matchstat_penta_pairs(const struct matchstat_penta *p)
{
	return (p->ll + p->ld + p->wl + p->dd + p->wd + p->ww);
}

/* Orders games by start (util_index_sort: then in the sequence's order). */
static int
pair_cmp(size_t i, size_t j, void *arg)
{
	const struct matchstat_game	*g = arg;

	if (g[i].start != g[j].start)
		return (g[i].start < g[j].start ? -1 : 1);
	return (0);
}

/*
 * Counts the pentanomial pairs of a sequence of n games: the games of one
 * start pair in the order played (the first with the second, the third
 * with the fourth, ...).  Fills p (overwriting it) and *unpaired with the
 * number of games left without a partner.  Returns -1 on a result that
 * is not an enum matchstat_res, leaving p alone.
 */
int
matchstat_pairs(const struct matchstat_game *g, size_t n,
    struct matchstat_penta *p, size_t *unpaired)
{
	struct matchstat_penta	 out = { 0, 0, 0, 0, 0, 0 };
	size_t			*ix, i, left = 0;

	for (i = 0; i < n; i++)
		if (!res_ok(g[i].res))
			return (-1);
	ix = xcalloc(n == 0 ? 1 : n, sizeof *ix);
	util_index_sort(ix, n, pair_cmp, (void *)g);
	for (i = 0; i < n; ) {
		if (i + 1 < n && g[ix[i]].start == g[ix[i + 1]].start) {
			(void)matchstat_penta_add(&out, g[ix[i]].res,
			    g[ix[i + 1]].res);
			i += 2;
		} else {
			left++;
			i++;
		}
	}
	free(ix);
	*p = out;
	*unpaired = left;
	return (0);
}

/* The logistic Elo difference of a score: -400 log10(1/s - 1), with
 * +-INFINITY at and beyond 1 and 0. */
double
matchstat_score_to_elo(double s)
{
	if (s >= 1.0)
		return (INFINITY);
	if (s <= 0.0)
		return (-INFINITY);
	/* + 0.0: an even score is 0, not -0 (printed "-0.0"). */
	return (-400.0 * log10(1.0 / s - 1.0) + 0.0);
}

/*
 * The variance of one sample's share of t = (s - 1/2) / sigma, by the
 * delta method (fishtest's sensitivity_conf): with the central moments
 * var, m3 and m4 of one sample, t's estimate from N samples has variance
 * (1 - t g + t^2 (kappa + 2) / 4) / N, where g = m3 / var^1.5 is the
 * skewness and kappa = m4 / var^2 - 3 the excess kurtosis.  Rounding
 * alone can make it negative: then 0.
 */
static double
nelo_var(double s, double var, double m3, double m4)
{
	double	 t = (s - 0.5) / sqrt(var), v;

	v = 1.0 - t * m3 / (var * sqrt(var)) +
	    0.25 * t * t * (m4 / (var * var) - 1.0);
	return (v > 0 ? v : 0);
}

/* Fills e from the sample sm; -1 if it is empty. */
static int
elo_from(const struct matchstat_sample *sm, struct matchstat_elo *e)
{
	const double	*a = sm->a;
	const uint64_t	*c = sm->c;
	uint64_t	 n = sm->n;
	double		 spread = sm->spread;
	double		 s = 0, var = 0, m3 = 0, m4 = 0, sd, lo, hi, d, pi;
	int		 i, k = sm->k;

	if (n == 0)
		return (-1);
	for (i = 0; i < k; i++)
		s += a[i] * ((double)c[i] / (double)n);
	for (i = 0; i < k; i++) {
		d = a[i] - s;
		pi = (double)c[i] / (double)n;
		var += pi * d * d;
		m3 += pi * d * d * d;
		m4 += pi * d * d * d * d;
	}
	e->n = n;
	e->score = s;
	e->variance = var;
	e->elo = matchstat_score_to_elo(s);
	sd = sqrt(var / (double)n);
	e->degenerate = var == 0;
	if (e->degenerate) {
		e->elo_lo = e->elo_hi = e->elo;
		e->elo_err = 0;
		e->nelo_err = 0;
		e->nelo = s == 0.5 ? 0 : s > 0.5 ? INFINITY : -INFINITY;
		e->los = s == 0.5 ? 0.5 : s > 0.5 ? 1 : 0;
		return (0);
	}
	lo = s - MATCHSTAT_Z95 * sd;
	hi = s + MATCHSTAT_Z95 * sd;
	e->elo_lo = matchstat_score_to_elo(lo);
	e->elo_hi = matchstat_score_to_elo(hi);
	e->elo_err = (e->elo_hi - e->elo_lo) / 2.0;
	e->nelo = (s - 0.5) / (spread * sqrt(var)) * MATCHSTAT_NELO_SCALE;
	e->nelo_err = MATCHSTAT_Z95 * sqrt(nelo_var(s, var, m3, m4) /
	    (double)n) / spread * MATCHSTAT_NELO_SCALE;
	e->los = (1.0 - erf(-(s - 0.5) / sqrt(2.0 * var / (double)n))) / 2.0;
	return (0);
}

/* Sets s to the trinomial sample of w. */
void
matchstat_wdl_sample(const struct matchstat_wdl *w, struct matchstat_sample *s)
{
	static const double	 a[3] = { 0, 0.5, 1 };

	s->k = 3;
	s->a = a;
	s->c[0] = w->losses;
	s->c[1] = w->draws;
	s->c[2] = w->wins;
	s->n = matchstat_wdl_games(w);
	s->spread = 1.0;
}

/* Sets s to the pentanomial sample of p. */
void
matchstat_penta_sample(const struct matchstat_penta *p,
    struct matchstat_sample *s)
{
	static const double	 a[5] = { 0, 0.25, 0.5, 0.75, 1 };

	s->k = 5;
	s->a = a;
	s->c[0] = p->ll;
	s->c[1] = p->ld;
	s->c[2] = p->wl + p->dd;
	s->c[3] = p->wd;
	s->c[4] = p->ww;
	s->n = matchstat_penta_pairs(p);
	s->spread = M_SQRT2;
}

/* The statistics of trinomial counts; -1 if there is no game. */
int
matchstat_elo_wdl(const struct matchstat_wdl *w, struct matchstat_elo *e)
{
	struct matchstat_sample	 s;

	matchstat_wdl_sample(w, &s);
	return (elo_from(&s, e));
}

/* The statistics of pentanomial counts; -1 if there is no pair. */
int
matchstat_elo_penta(const struct matchstat_penta *p, struct matchstat_elo *e)
{
	struct matchstat_sample	 s;

	matchstat_penta_sample(p, &s);
	return (elo_from(&s, e));
}
