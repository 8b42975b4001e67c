/*
 * glicko2.c: Glicko-2 rating updates, following step by step Mark E.
 * Glickman, "Example of the Glicko-2 system" (2013), including the
 * Illinois algorithm of its step 5 for the new volatility.  Pure
 * arithmetic: no I/O, no globals.  doc/STATS.md lists the formulas.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "lib/buf.h"
#include "stats/glicko2.h"

/* At most this many Illinois steps (it converges in a few dozen). */
#define GLICKO2_MAX_ITER	1000

/* Per-player sums of one rating period (steps 3 and 4). */
struct glicko2_acc {
	double		 vinv;		/* sum g^2 E (1 - E) */
	double		 dsum;		/* sum g (s - E) */
	size_t		 n;		/* games */
};

/* Fills Glickman's suggested constants and lichess's provisional RD. */
void
glicko2_params_default(struct glicko2_params *p)
{
	p->tau = GLICKO2_TAU;
	p->epsilon = GLICKO2_EPSILON;
	p->max_rd = GLICKO2_INIT_RD;
	p->provisional_rd = GLICKO2_PROVISIONAL_RD;
	p->init.r = GLICKO2_INIT_RATING;
	p->init.rd = GLICKO2_INIT_RD;
	p->init.sigma = GLICKO2_INIT_SIGMA;
}

/* Tells whether a rating is usable: finite, RD and volatility positive. */
static int
rating_ok(const struct glicko2_rating *x)
{
	return (isfinite(x->r) && isfinite(x->rd) && isfinite(x->sigma) &&
	    x->rd > 0 && x->sigma > 0);
}

/* Tells whether the constants are usable. */
static int
params_ok(const struct glicko2_params *p)
{
	return (isfinite(p->tau) && p->tau > 0 && isfinite(p->epsilon) &&
	    p->epsilon > 0 && isfinite(p->max_rd) && p->max_rd > 0 &&
	    isfinite(p->provisional_rd));
}

/* Tells whether a score is one of 0, 0.5 and 1. */
static int
score_ok(double s)
{
	return (s == 0.0 || s == 0.5 || s == 1.0);
}

/* Glickman's g(phi). */
static double
g_of(double phi)
{
	return (1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI)));
}

/* Adds one game against an opponent (Glicko scale) to the sums. */
static void
acc_add(struct glicko2_acc *acc, double mu, double r, double rd, double s)
{
	double	 muj = (r - GLICKO2_INIT_RATING) / GLICKO2_SCALE;
	double	 g = g_of(rd / GLICKO2_SCALE);
	double	 e = 1.0 / (1.0 + exp(-g * (mu - muj)));

	acc->vinv += g * g * e * (1.0 - e);
	acc->dsum += g * (s - e);
	acc->n++;
}

/* Glickman's f(x) of step 5. */
static double
vol_f(double x, double delta2, double phi2, double v, double a, double tau)
{
	double	 ex = exp(x), d = phi2 + v + ex;

	return (ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) -
	    (x - a) / (tau * tau));
}

/*
 * Step 5: the new volatility by the Illinois algorithm (regula falsi
 * with the retained end's value halved).  Returns -1 if it does not
 * converge within GLICKO2_MAX_ITER steps.
 */
static int
new_sigma(const struct glicko2_params *p, double sigma, double phi,
    double v, double delta, double *out, int *iters)
{
	double	 a = log(sigma * sigma), delta2 = delta * delta;
	double	 phi2 = phi * phi, tau = p->tau, A, B, C, fA, fB, fC;
	int	 k, i;

	A = a;
	if (delta2 > phi2 + v)
		B = log(delta2 - phi2 - v);
	else {
		for (k = 1; k < GLICKO2_MAX_ITER; k++)
			if (vol_f(a - k * tau, delta2, phi2, v, a, tau) >= 0)
				break;
		if (k == GLICKO2_MAX_ITER)
			return (-1);
		B = a - k * tau;
	}
	fA = vol_f(A, delta2, phi2, v, a, tau);
	fB = vol_f(B, delta2, phi2, v, a, tau);
	for (i = 0; fabs(B - A) > p->epsilon; i++) {
		if (i == GLICKO2_MAX_ITER || !isfinite(fA) || !isfinite(fB))
			return (-1);
		C = A + (A - B) * fA / (fB - fA);
		fC = vol_f(C, delta2, phi2, v, a, tau);
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else
			fA = fA / 2.0;
		B = C;
		fB = fC;
	}
	*out = exp(A / 2.0);
	*iters = i;
	return (0);
}

/* Steps 3 to 8 from the sums of a period; a player with no game only
 * grows the deviation (step 6 with sigma' = sigma). */
static int
finish(const struct glicko2_params *p, const struct glicko2_rating *in,
    const struct glicko2_acc *acc, struct glicko2_rating *out,
    struct glicko2_trace *tr)
{
	double	 mu = (in->r - GLICKO2_INIT_RATING) / GLICKO2_SCALE;
	double	 phi = in->rd / GLICKO2_SCALE, v = 0, delta = 0;
	double	 sigma = in->sigma, phistar, phinew = 0, munew = mu;
	int	 iters = 0;

	if (acc->n > 0) {
		v = 1.0 / acc->vinv;
		delta = v * acc->dsum;
		if (!isfinite(v) || new_sigma(p, in->sigma, phi, v, delta,
		    &sigma, &iters) == -1)
			return (-1);
		phistar = sqrt(phi * phi + sigma * sigma);
		phinew = 1.0 / sqrt(1.0 / (phistar * phistar) + 1.0 / v);
		munew = mu + phinew * phinew * acc->dsum;
	} else
		phinew = sqrt(phi * phi + sigma * sigma);
	if (tr != NULL) {
		tr->v = v;
		tr->delta = delta;
		tr->mu = munew;
		tr->phi = phinew;
		tr->iterations = iters;
	}
	out->r = GLICKO2_SCALE * munew + GLICKO2_INIT_RATING;
	out->rd = fmin(GLICKO2_SCALE * phinew, p->max_rd);
	out->sigma = sigma;
	return (rating_ok(out) ? 0 : -1);
}

/*
 * Rates one player over one rating period of n games (n may be 0), each
 * against the opponent's rating before the period.  Fills out (which may
 * be in) and, if tr is not NULL, the intermediate quantities.  Returns -1
 * and leaves out alone on invalid input.
 */
int
glicko2_update(const struct glicko2_params *p, const struct glicko2_rating *in,
    const struct glicko2_game *games, size_t n, struct glicko2_rating *out,
    struct glicko2_trace *tr)
{
	struct glicko2_acc	 acc = { 0, 0, 0 };
	struct glicko2_rating	 o, opp;
	double			 mu;
	size_t			 i;

	if (!params_ok(p) || !rating_ok(in))
		return (-1);
	mu = (in->r - GLICKO2_INIT_RATING) / GLICKO2_SCALE;
	for (i = 0; i < n; i++) {
		opp.r = games[i].r;
		opp.rd = games[i].rd;
		opp.sigma = 1;
		if (!rating_ok(&opp) || !score_ok(games[i].score))
			return (-1);
		acc_add(&acc, mu, opp.r, opp.rd, games[i].score);
	}
	if (finish(p, in, &acc, &o, tr) == -1)
		return (-1);
	*out = o;
	return (0);
}

/*
 * Rates a whole period: n players with ratings in[], the period's games
 * between them; every update uses the ratings before the period, and a
 * player with no game has only the deviation grown.  Fills out[0..n)
 * (which may be in).  Returns -1 and leaves out alone on invalid input
 * (a bad rating, an index out of range, a player against itself, a score
 * not 0, 0.5 or 1).
 */
int
glicko2_period(const struct glicko2_params *p, const struct glicko2_rating *in,
    size_t n, const struct glicko2_result *games, size_t ngames,
    struct glicko2_rating *out)
{
	struct glicko2_acc	*acc;
	struct glicko2_rating	*tmp;
	const struct glicko2_result *g;
	size_t			 i;
	int			 rc = -1;

	if (!params_ok(p))
		return (-1);
	for (i = 0; i < n; i++)
		if (!rating_ok(&in[i]))
			return (-1);
	for (i = 0; i < ngames; i++) {
		g = &games[i];
		if (g->a >= n || g->b >= n || g->a == g->b ||
		    !score_ok(g->score_a))
			return (-1);
	}
	acc = xcalloc(n == 0 ? 1 : n, sizeof *acc);
	tmp = xcalloc(n == 0 ? 1 : n, sizeof *tmp);
	for (i = 0; i < ngames; i++) {
		g = &games[i];
		acc_add(&acc[g->a], (in[g->a].r - GLICKO2_INIT_RATING) /
		    GLICKO2_SCALE, in[g->b].r, in[g->b].rd, g->score_a);
		acc_add(&acc[g->b], (in[g->b].r - GLICKO2_INIT_RATING) /
		    GLICKO2_SCALE, in[g->a].r, in[g->a].rd, 1.0 - g->score_a);
	}
	for (i = 0; i < n; i++)
		if (finish(p, &in[i], &acc[i], &tmp[i], NULL) == -1)
			goto out;
	for (i = 0; i < n; i++)
		out[i] = tmp[i];
	rc = 0;
out:
	free(acc);
	free(tmp);
	return (rc);
}

/* Tells whether a rating is provisional: its RD at or above the
 * threshold (lichess: deviation >= provisionalDeviation). */
int
glicko2_provisional(const struct glicko2_params *p,
    const struct glicko2_rating *x)
{
	return (x->rd >= p->provisional_rd);
}
