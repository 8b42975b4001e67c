/*
 * sprt.c: the SPRT's generalized log-likelihood ratio as fastchess
 * computes it (app/src/matchmaking/sprt/sprt.cpp), from Michel Van den
 * Bergh's notes: the maximum-likelihood distribution with a given
 * expected score (logistic model: "Comparing the approximations for the
 * generalized log likelihood ratio of a multinomial distribution",
 * Proposition 1.1) or with a given normalized Elo (normalized model:
 * "Comments on normalized Elo", section 4.1).  The one-dimensional roots
 * are found by bisection to the last bit (fastchess uses ITP to 1e-3 or
 * 1e-7); where the normalized model's iteration fails (one-sided samples,
 * hypotheses far out), t is reached by continuation, and its maximum is
 * the best of every stationary point (mle_normalized).  Pure arithmetic:
 * no I/O, no globals.  doc/STATS.md.
 */
#include <math.h>
#include <stddef.h>

#include "stats/matchstat.h"
#include "stats/sprt.h"
#include "lib/util.h"

/* At most 5 outcomes (pentanomial). */
#define SPRT_K		5
/* The normalized model's fixed-point iteration: at most this many
 * steps, until no probability moves by more than SPRT_MLE_EPS (near
 * 1e-12 the bisection's rounding stops the progress). */
#define SPRT_MLE_ITER	1000
#define SPRT_MLE_EPS	1e-10
/* The normalized model's continuation: at most this many steps. */
#define SPRT_STEPS	64
/* The normalized model's scan for stationary points: this many
 * intervals of the mean; the fixed point wins a tie within SPRT_TIE. */
#define SPRT_SCAN	512
#define SPRT_TIE	1e-13
/* Halvings of theta's bracket: to the last bit of a double, or enough
 * for the scan's signs (a bracket of width 1e3 to 1e-16). */
#define SPRT_BITS	2000
#define SPRT_COARSE	64
/* A count of 0 is taken as this (fastchess's regularization). */
#define SPRT_ZERO	1e-3

/* Checks the parameters and fills the test; SPRT_OK or the reason. */
enum sprt_err
sprt_init(struct sprt *t, enum sprt_model model, double elo0, double elo1,
    double alpha, double beta)
{
	if (model != SPRT_LOGISTIC && model != SPRT_NORMALIZED)
		return (SPRT_E_MODEL);
	if (!isfinite(elo0) || !isfinite(elo1) || elo0 >= elo1)
		return (SPRT_E_ELO);
	if (fabs(elo0) > SPRT_MAX_ELO || fabs(elo1) > SPRT_MAX_ELO)
		return (SPRT_E_RANGE);
	if (!(alpha > 0 && alpha < 1))
		return (SPRT_E_ALPHA);
	if (!(beta > 0 && beta < 1))
		return (SPRT_E_BETA);
	if (alpha + beta >= 1)
		return (SPRT_E_SUM);
	t->model = model;
	t->elo0 = elo0;
	t->elo1 = elo1;
	t->alpha = alpha;
	t->beta = beta;
	t->lower = log(beta / (1 - alpha));
	t->upper = log((1 - beta) / alpha);
	return (SPRT_OK);
}

static const char *const sprt_errors[] = { SPRT_ERRORS(ENUM_X_NAME) };

/* Returns the message of a refusal. */
const char *
sprt_strerror(enum sprt_err e)
{
	return (ENUM_NAME(sprt_errors, e, "unknown error"));
}

/*
 * Solves sum ph[i] x[i] / (1 + theta x[i]) = 0 for theta in the interval
 * (-1 / max x, -1 / min x) where every 1 + theta x[i] is positive; the
 * sum decreases there from +inf to -inf: at most maxit halvings (to the
 * last bit: SPRT_BITS).  Returns -1 if min x >= 0 or max x <= 0 (no such
 * interval).
 */
static int
solve_theta(const double *x, const double *ph, int k, double *theta,
    int maxit)
{
	double	 u = x[0], v = x[0], lo, hi, mid, h;
	int	 i, it;

	for (i = 1; i < k; i++) {
		u = fmin(u, x[i]);
		v = fmax(v, x[i]);
	}
	if (!(u < 0 && v > 0))
		return (-1);
	lo = -1 / v;
	hi = -1 / u;
	for (it = 0; it < maxit; it++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		for (h = 0, i = 0; i < k; i++)
			h += ph[i] * x[i] / (1 + mid * x[i]);
		if (h > 0)
			lo = mid;
		else
			hi = mid;
	}
	*theta = lo + (hi - lo) / 2;
	return (0);
}

/* The ML distribution with expected score s (logistic model). */
static int
mle_logistic(const double *a, const double *ph, int k, double s, double *p)
{
	double	 x[SPRT_K] = { 0 }, theta;	/* zeroed: gcc cannot see k > 0 */
	int	 i;

	for (i = 0; i < k; i++)
		x[i] = a[i] - s;
	if (solve_theta(x, ph, k, &theta, SPRT_BITS) == -1)
		return (-1);
	for (i = 0; i < k; i++)
		p[i] = ph[i] / (1 + theta * x[i]);
	return (0);
}

/* The fixed-point iteration of the normalized model from p. */
static int
iterate_normalized(const double *a, const double *ph, int k, double t,
    double *p)
{
	double	 phi[SPRT_K], mu, var, sigma, z, theta, np, diff;
	int	 i, it;

	for (it = 0; it < SPRT_MLE_ITER; it++) {
		for (mu = 0, i = 0; i < k; i++)
			mu += a[i] * p[i];
		for (var = 0, i = 0; i < k; i++)
			var += p[i] * (a[i] - mu) * (a[i] - mu);
		sigma = sqrt(var);
		for (i = 0; i < k; i++) {
			z = (a[i] - mu) / sigma;
			phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
		}
		if (!(sigma > 0) ||
		    solve_theta(phi, ph, k, &theta, SPRT_BITS) == -1)
			return (-1);
		for (diff = 0, i = 0; i < k; i++) {
			np = ph[i] / (1 + theta * phi[i]);
			diff = fmax(diff, fabs(np - p[i]));
			p[i] = np;
		}
		if (diff < SPRT_MLE_EPS)
			return (0);
	}
	return (-1);
}

/*
 * The fixed point of the normalized model from the uniform distribution,
 * as fastchess does.  Far from t = 0 in one-sided samples (a perfect
 * player against a random one) that iteration can fail; then t is
 * reached by continuation: the solutions for t/m, 2t/m, .. t, each
 * iteration started from the previous solution, with m = 2, 4, .. 64.
 */
static int
fixed_normalized(const double *a, const double *ph, int k, double t,
    double *p)
{
	int	 i, j, m;

	for (m = 1; m <= SPRT_STEPS; m *= 2) {
		for (i = 0; i < k; i++)
			p[i] = 1.0 / k;
		for (j = 1; j <= m; j++)
			if (iterate_normalized(a, ph, k, t * j / m, p) == -1)
				break;
		if (j > m)
			return (0);
	}
	return (-1);
}

/*
 * The stationary points of the normalized model as roots of one
 * function of the mean mu (t != 0): sigma = (mu - 1/2) / t, the weights
 * phi[i] of the fixed-point iteration at (mu, sigma), theta solving the
 * secular equation, p[i] = ph[i] / (1 + theta phi[i]); then g(mu) = mean
 * of p - mu.  At a root p's mean is mu and (the constraint, which p
 * meets) its standard deviation sigma: a fixed point of the iteration,
 * and every fixed point is such a root.  theta to maxit halvings (the
 * scan's signs need SPRT_COARSE).  Returns -1 where p is not defined
 * (sigma <= 0, phi of one sign).
 */
static int
mean_gap(const double *a, const double *ph, int k, double t, double mu,
    double *p, double *g, int maxit)
{
	double	 phi[SPRT_K] = { 0 }, sigma = (mu - 0.5) / t, z, theta, m;
	int	 i;

	if (!(sigma > 0))
		return (-1);
	for (i = 0; i < k; i++) {
		z = (a[i] - mu) / sigma;
		phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
	}
	if (solve_theta(phi, ph, k, &theta, maxit) == -1)
		return (-1);
	for (m = 0, i = 0; i < k; i++) {
		p[i] = ph[i] / (1 + theta * phi[i]);
		if (!(p[i] > 0))
			return (-1);
		m += a[i] * p[i];
	}
	*g = m - mu;
	return (0);
}

/* sum ph[i] log p[i]: what the ML distribution maximizes. */
static double
loglik(const double *ph, const double *p, int k)
{
	double	 v = 0;
	int	 i;

	for (i = 0; i < k; i++)
		v += ph[i] * log(p[i]);
	return (v);
}

/*
 * Bisects g's bracket [lo, hi] (signs differing) to its root, then keeps
 * that point's distribution in best (its value *bv) if it is better.
 */
static void
root_candidate(const double *a, const double *ph, int k, double t,
    double lo, double glo, double hi, double *best, double *bv)
{
	double	 q[SPRT_K], mid, g, v;
	int	 i, it;

	for (it = 0; it < 200; it++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi ||
		    mean_gap(a, ph, k, t, mid, q, &g, SPRT_COARSE) == -1)
			break;
		if ((g > 0) == (glo > 0))
			lo = mid;
		else
			hi = mid;
	}
	if (mean_gap(a, ph, k, t, lo + (hi - lo) / 2, q, &g, SPRT_BITS) == -1)
		return;
	v = loglik(ph, q, k);
	if (v > *bv) {
		*bv = v;
		for (i = 0; i < k; i++)
			best[i] = q[i];
	}
}

/*
 * The ML distribution with (mu - 1/2) / sigma = t (normalized model).
 * The likelihood on that constraint can have several local maxima, and
 * the fixed-point iteration settles on one of them, not always the
 * highest (normalized 0/400 on a dozen pairs).  So the maximum is taken
 * over every stationary point: the fixed point (fastchess's, kept on a
 * tie so that the figures stay fastchess's to the last bit) and each
 * root of mean_gap, bracketed on SPRT_SCAN points of mu dense near both
 * ends of its range (1/2, 1) or (0, 1/2) and bisected.  t = 0 is the
 * linear constraint mu = 1/2: the logistic model's exact solution.
 */
static int
mle_normalized(const double *a, const double *ph, int k, double t, double *p)
{
	double	 q[SPRT_K], bv = -INFINITY, mu, g, pmu = 0, pg = 0, u;
	int	 j, have = 0;

	if (t == 0)
		return (mle_logistic(a, ph, k, 0.5, p));
	if (fixed_normalized(a, ph, k, t, p) == 0)
		bv = loglik(ph, p, k) + SPRT_TIE;
	for (j = 1; j < SPRT_SCAN; j++) {
		u = (1 - cos(M_PI * j / SPRT_SCAN)) / 4;
		mu = t > 0 ? 0.5 + u : 0.5 - u;
		if (mean_gap(a, ph, k, t, mu, q, &g, SPRT_COARSE) == -1) {
			have = 0;
			continue;
		}
		if (have && (g > 0) != (pg > 0))
			root_candidate(a, ph, k, t, pmu, pg, mu, p, &bv);
		have = 1;
		pmu = mu;
		pg = g;
	}
	return (isfinite(bv) ? 0 : -1);
}

/*
 * The LLR of counts c[] of outcomes scoring a[]: zero counts become
 * SPRT_ZERO, each hypothesis gets its ML distribution p0 and p1, and
 * LLR = N sum ph[i] log(p1[i] / p0[i]) with N the regularized total.
 * h0 and h1 are the hypotheses as expected scores (logistic) or as t.
 */
static int
llr_of(const struct sprt *t, const double *a, const uint64_t *c, int k,
    double h0, double h1, double *out)
{
	double	 ph[SPRT_K], p0[SPRT_K], p1[SPRT_K], n = 0, sum = 0;
	int	 i, rc;

	for (i = 0; i < k; i++) {
		ph[i] = c[i] == 0 ? SPRT_ZERO : (double)c[i];
		n += ph[i];
	}
	for (i = 0; i < k; i++)
		ph[i] /= n;
	if (t->model == SPRT_LOGISTIC)
		rc = mle_logistic(a, ph, k, h0, p0) == 0 &&
		    mle_logistic(a, ph, k, h1, p1) == 0 ? 0 : -1;
	else
		rc = mle_normalized(a, ph, k, h0, p0) == 0 &&
		    mle_normalized(a, ph, k, h1, p1) == 0 ? 0 : -1;
	if (rc == -1)
		return (-1);
	for (i = 0; i < k; i++)
		sum += ph[i] * (log(p1[i]) - log(p0[i]));
	if (!isfinite(sum))
		return (-1);
	*out = n * sum;
	return (0);
}

/* The logistic expected score of an Elo difference. */
static double
elo_to_score(double elo)
{
	return (1 / (1 + pow(10, -elo / 400)));
}

/*
 * The LLR of a sample under the test's model: logistic, or normalized with
 * the normalized Elo per game scaled by the sample's spread.
 */
static int
llr_sample(const struct sprt *t, const struct matchstat_sample *s,
    double *llr)
{
	const double	 k = MATCHSTAT_NELO_SCALE, spread = s->spread;

	if (t->model == SPRT_LOGISTIC)
		return (llr_of(t, s->a, s->c, s->k, elo_to_score(t->elo0),
		    elo_to_score(t->elo1), llr));
	return (llr_of(t, s->a, s->c, s->k, spread * t->elo0 / k,
	    spread * t->elo1 / k, llr));
}

/*
 * The LLR of trinomial counts (per game); -1 if the ML distributions
 * cannot be computed (then *llr is left alone).
 */
int
sprt_llr_wdl(const struct sprt *t, const struct matchstat_wdl *w,
    double *llr)
{
	struct matchstat_sample	 s;

	matchstat_wdl_sample(w, &s);
	return (llr_sample(t, &s, llr));
}

/*
 * The LLR of pentanomial counts (per pair, a pair scoring 0, 1/4, 1/2,
 * 3/4 or 1); the normalized Elo is per game, so t = sqrt 2 nelo / (800 /
 * ln 10) for a pair.  -1 as sprt_llr_wdl.
 */
int
sprt_llr_penta(const struct sprt *t, const struct matchstat_penta *p,
    double *llr)
{
	struct matchstat_sample	 s;

	matchstat_penta_sample(p, &s);
	return (llr_sample(t, &s, llr));
}

/* The verdict for an LLR: H1 at or above the upper bound, H0 at or below
 * the lower one. */
enum sprt_verdict
sprt_verdict(const struct sprt *t, double llr)
{
	if (llr >= t->upper)
		return (SPRT_H1);
	if (llr <= t->lower)
		return (SPRT_H0);
	return (SPRT_CONTINUE);
}

const char *
sprt_verdict_name(enum sprt_verdict v)
{
	return (v == SPRT_H1 ? "H1" : v == SPRT_H0 ? "H0" : "continue");
}
