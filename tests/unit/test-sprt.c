/*
 * test-sprt.c: the SPRT against fastchess's own test values
 * (app/tests/sprt_test.cpp at Disservin/fastchess 74deac2), against
 * results printed by OpenBench and fastchess, against independent brute
 * maximizations of the constrained likelihood (logistic model, trinomial
 * and pentanomial; normalized model, trinomial), Wald's bounds, verdicts
 * along sequences of pairs, and refusals.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "teststat.h"
#include "stats/sprt.h"

/* Starts a test that must be accepted. */
static void
init_ok(struct sprt *t, enum sprt_model m, double e0, double e1, double a,
    double b)
{
	assert_int_equal(sprt_init(t, m, e0, e1, a, b), SPRT_OK);
}

/* The LLR of W/L/D (fastchess's Stats(wins, losses, draws) order). */
static double
llr_wdl(const struct sprt *t, uint64_t w, uint64_t l, uint64_t d)
{
	struct matchstat_wdl	 x = { w, l, d };
	double			 llr = NAN;

	assert_int_equal(sprt_llr_wdl(t, &x, &llr), 0);
	return (llr);
}

/* The LLR of pentanomial counts in fastchess's Stats() order. */
static double
llr_penta(const struct sprt *t, uint64_t ll, uint64_t ld, uint64_t wl,
    uint64_t dd, uint64_t wd, uint64_t ww)
{
	struct matchstat_penta	 x = { ll, ld, wl, dd, wd, ww };
	double			 llr = NAN;

	assert_int_equal(sprt_llr_penta(t, &x, &llr), 0);
	return (llr);
}

/*
 * fastchess's cases (values printed to two decimals; checked here to half
 * a unit of the last digit, but for the two extreme ones where fastchess's
 * coarser iteration gives 120.56 and 111.82: those to fastchess's own
 * tolerance, 1%).  The comments give the values of this Python, the same
 * formulas written apart from sprt.c with bisection to the last bit:
 *
 *   def bis(f,lo,hi):
 *       for i in range(300):
 *           m=(lo+hi)/2
 *           if m==lo or m==hi: break
 *           if f(m)>0: lo=m
 *           else: hi=m
 *       return (lo+hi)/2
 *   def mle_log(a,ph,s):
 *       th=bis(lambda x: sum(p*(ai-s)/(1+x*(ai-s)) for ai,p in zip(a,ph)),
 *           -1/(a[-1]-s), -1/(a[0]-s))
 *       return [p/(1+th*(ai-s)) for ai,p in zip(a,ph)]
 *   def mle_norm(a,ph,t):
 *       p=[1/len(a)]*len(a)
 *       for it in range(100):
 *           mu=sum(x*y for x,y in zip(a,p))
 *           sg=sqrt(sum(y*(x-mu)**2 for x,y in zip(a,p)))
 *           phi=[x-.5-.5*t*sg*(1+((x-mu)/sg)**2) for x in a]
 *           th=bis(lambda x: sum(q*f/(1+x*f) for q,f in zip(ph,phi)),
 *               -1/max(phi), -1/min(phi))
 *           new=[q/(1+th*f) for q,f in zip(ph,phi)]
 *           d=max(abs(x-y) for x,y in zip(new,p)); p=new
 *           if d<1e-13: break
 *       return p
 *   then, with zero counts as 1e-3, ph the frequencies, N their total,
 *   s = 1/(1+10**(-elo/400)), t = elo/(800/log(10)) (times sqrt(2) for
 *   pairs): LLR = N*sum(ph*(log(p1)-log(p0))).
 */
static void
test_fastchess(void **state)
{
	struct sprt	 t;

	(void)state;
	init_ok(&t, SPRT_NORMALIZED, 0, 2, 0.05, 0.05);
	near(llr_wdl(&t, 36433, 36027, 68692), 0.92, 0.005, "nt1");
	near(llr_wdl(&t, 36433, 36027, 68692), 0.923293, 0.000001, "nt1 x");
	init_ok(&t, SPRT_NORMALIZED, -1.75, 0.25, 0.05, 0.05);
	near(llr_wdl(&t, 10871, 10650, 20431), 2.30, 0.005, "nt2");
	near(llr_wdl(&t, 10871, 10650, 20431), 2.297500, 0.000001, "nt2 x");
	init_ok(&t, SPRT_NORMALIZED, 0, 10, 0.05, 0.05);
	near(llr_wdl(&t, 4250, 0, 0), 120.56, 1.2056, "nt3");
	near(llr_wdl(&t, 4250, 0, 0), 120.548268, 0.000001, "nt3 x");
	init_ok(&t, SPRT_LOGISTIC, 0.5, 2.5, 0.05, 0.05);
	near(llr_wdl(&t, 21404, 21184, 40708), -1.57, 0.005, "lt1");
	near(llr_wdl(&t, 21404, 21184, 40708), -1.571889, 0.000001, "lt1 x");
	init_ok(&t, SPRT_LOGISTIC, 0, 2, 0.05, 0.05);
	near(llr_wdl(&t, 57433, 57030, 106593), -2.59, 0.005, "lt2");
	near(llr_wdl(&t, 57433, 57030, 106593), -2.593024, 0.000001, "lt2 x");

	init_ok(&t, SPRT_NORMALIZED, 0, 2, 0.05, 0.05);
	near(llr_penta(&t, 365, 16618, 36029, 200, 16974, 390), 2.25, 0.005,
	    "np1");
	near(llr_penta(&t, 365, 16618, 36029, 200, 16974, 390), 2.250368,
	    0.000001, "np1 x");
	init_ok(&t, SPRT_NORMALIZED, -1.75, 0.25, 0.05, 0.05);
	near(llr_penta(&t, 127, 4883, 10311, 401, 5150, 104), 3.01, 0.005,
	    "np2");
	near(llr_penta(&t, 127, 4883, 10311, 401, 5150, 104), 3.010154,
	    0.000001, "np2 x");
	init_ok(&t, SPRT_NORMALIZED, 0, 5, 0.05, 0.05);
	near(llr_penta(&t, 0, 0, 0, 0, 0, 5550), 111.82, 1.1182, "np3");
	near(llr_penta(&t, 0, 0, 0, 0, 0, 5550), 111.797555, 0.000001,
	    "np3 x");
	init_ok(&t, SPRT_LOGISTIC, 0.5, 2.5, 0.05, 0.05);
	near(llr_penta(&t, 223, 9863, 20279, 1000, 10037, 246), -3.07, 0.005,
	    "lp1");
	near(llr_penta(&t, 223, 9863, 20279, 1000, 10037, 246), -3.074126,
	    0.000001, "lp1 x");
	init_ok(&t, SPRT_LOGISTIC, 0, 2, 0.05, 0.05);
	near(llr_penta(&t, 871, 26175, 55003, 980, 26678, 821), -4.98, 0.005,
	    "lp2");
	near(llr_penta(&t, 871, 26175, 55003, 980, 26678, 821), -4.978673,
	    0.000001, "lp2 x");
}

/* Wald's bounds: log(beta / (1 - alpha)) and log((1 - beta) / alpha). */
static void
test_bounds(void **state)
{
	struct sprt	 t;

	(void)state;
	init_ok(&t, SPRT_LOGISTIC, 0, 5, 0.05, 0.05);
	near(t.lower, -2.944439, 0.0000005, "lower 5%");  /* log(1/19) */
	near(t.upper, 2.944439, 0.0000005, "upper 5%");
	init_ok(&t, SPRT_NORMALIZED, -3, 1, 0.01, 0.1);
	near(t.lower, log(0.1 / 0.99), 1e-15, "lower");
	near(t.upper, log(0.9 / 0.01), 1e-15, "upper");
	assert_int_equal(sprt_verdict(&t, t.upper), SPRT_H1);
	assert_int_equal(sprt_verdict(&t, nextafter(t.upper, 0)),
	    SPRT_CONTINUE);
	assert_int_equal(sprt_verdict(&t, t.lower), SPRT_H0);
	assert_int_equal(sprt_verdict(&t, nextafter(t.lower, 0)),
	    SPRT_CONTINUE);
}

/* sum ph log q, -inf outside the simplex. */
static double
loglik(const double *ph, const double *q, int k)
{
	double	 s = 0;
	int	 i;

	for (i = 0; i < k; i++) {
		if (!(q[i] > 0))
			return (-INFINITY);
		s += ph[i] * log(q[i]);
	}
	return (s);
}

/*
 * Brute force, no Lagrange multiplier: the maximum of sum ph log q over
 * distributions q on scores a[] (0 = a[0] < ... < a[k-1] = 1) with mean
 * s, by cyclic coordinate ascent over q[1..k-2] (q[0] and q[k-1] follow
 * from the two constraints), each coordinate by ternary search on the
 * concave section.
 */
static double
brute_max(const double *a, const double *ph, int k, double s)
{
	double	 q[5], lo, hi, m1, m2, f1, f2, r0, r1;
	int	 i, j, sweep, it;

	for (i = 0; i < k; i++)
		q[i] = 1.0 / k;
	for (sweep = 0; sweep < 3000; sweep++)
		for (j = 1; j < k - 1; j++) {
			/* q[k-1] = s - sum a q and q[0] = 1 - s - sum
			 * (1 - a) q over the middle ones. */
			r1 = s;
			r0 = 1 - s;
			for (i = 1; i < k - 1; i++)
				if (i != j) {
					r1 -= a[i] * q[i];
					r0 -= (1 - a[i]) * q[i];
				}
			lo = 0;
			hi = fmin(r1 / a[j], r0 / (1 - a[j]));
			for (it = 0; it < 100; it++) {
				m1 = lo + (hi - lo) / 3;
				m2 = hi - (hi - lo) / 3;
				q[j] = m1;
				q[k - 1] = r1 - a[j] * m1;
				q[0] = r0 - (1 - a[j]) * m1;
				f1 = loglik(ph, q, k);
				q[j] = m2;
				q[k - 1] = r1 - a[j] * m2;
				q[0] = r0 - (1 - a[j]) * m2;
				f2 = loglik(ph, q, k);
				if (f1 < f2)
					lo = m1;
				else
					hi = m2;
			}
			q[j] = (lo + hi) / 2;
			q[k - 1] = r1 - a[j] * q[j];
			q[0] = r0 - (1 - a[j]) * q[j];
		}
	return (loglik(ph, q, k));
}

/* The logistic LLR by brute force from counts c[] of scores a[]. */
static double
brute_llr(const double *a, const uint64_t *c, int k, double e0, double e1)
{
	double	 ph[5], n = 0, s0 = 1 / (1 + pow(10, -e0 / 400));
	double	 s1 = 1 / (1 + pow(10, -e1 / 400));
	int	 i;

	for (i = 0; i < k; i++) {
		ph[i] = c[i] == 0 ? 1e-3 : (double)c[i];
		n += ph[i];
	}
	for (i = 0; i < k; i++)
		ph[i] /= n;
	return (n * (brute_max(a, ph, k, s1) - brute_max(a, ph, k, s0)));
}

/* The logistic model against the brute maximization. */
static void
test_logistic_brute(void **state)
{
	static const double	 a3[3] = { 0, 0.5, 1 };
	static const double	 a5[5] = { 0, 0.25, 0.5, 0.75, 1 };
	static const uint64_t	 tri[][3] = { { 21184, 40708, 21404 },
	    { 3, 0, 7 }, { 10, 4, 2 }, { 0, 0, 12 }, { 500, 20, 480 } };
	static const uint64_t	 pen[][5] = { { 223, 9863, 21279, 10037, 246 },
	    { 1, 2, 3, 4, 5 }, { 0, 0, 0, 0, 40 }, { 7, 0, 1, 0, 9 } };
	struct sprt		 t;
	struct matchstat_wdl	 w;
	struct matchstat_penta	 p;
	double			 llr, want;
	size_t			 i;

	(void)state;
	init_ok(&t, SPRT_LOGISTIC, -5, 15, 0.05, 0.1);
	for (i = 0; i < sizeof tri / sizeof tri[0]; i++) {
		w = (struct matchstat_wdl){ tri[i][2], tri[i][0], tri[i][1] };
		assert_int_equal(sprt_llr_wdl(&t, &w, &llr), 0);
		want = brute_llr(a3, tri[i], 3, -5, 15);
		near(llr, want, 1e-6 * fmax(1, fabs(want)), "trinomial");
	}
	for (i = 0; i < sizeof pen / sizeof pen[0]; i++) {
		p = (struct matchstat_penta){ pen[i][0], pen[i][1], pen[i][2],
		    0, pen[i][3], pen[i][4] };
		assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
		want = brute_llr(a5, pen[i], 5, -5, 15);
		near(llr, want, 1e-6 * fmax(1, fabs(want)), "pentanomial");
	}
}

/* The trinomial normalized constraint at w = P(win), d = P(draw):
 * mu - 1/2 - t sigma. */
static double
tri_f(double w, double d, double t)
{
	double	 mu = w + d / 2, var = w + d / 4 - mu * mu;

	return (mu - 0.5 - t * sqrt(fmax(var, 0)));
}

/* sum ph log p at the distribution with draw rate d meeting the
 * constraint (t >= 0), or -inf: w by bisection, increasing in w. */
static double
tri_value(const double *ph, double d, double t)
{
	double	 lo = fmax(0, 0.5 - d / 2), hi = 1 - d, m, q[3];
	int	 i;

	if (tri_f(hi, d, t) < 0)
		return (-INFINITY);
	for (i = 0; i < 200; i++) {
		m = (lo + hi) / 2;
		if (tri_f(m, d, t) < 0)
			lo = m;
		else
			hi = m;
	}
	q[2] = (lo + hi) / 2;
	q[1] = d;
	q[0] = 1 - d - q[2];
	return (loglik(ph, q, 3));
}

/*
 * Brute force for the normalized model, trinomial: the maximum of sum ph
 * log q over (L, D, W) with (mu - 1/2) / sigma = t.  For t >= 0 the
 * constraint leaves one free variable, the draw rate d in (0, 1/(1 +
 * t^2)], and fixes w: scan d on 4,000 points (dense near 0), then a
 * golden-section refinement around the best.  t < 0 by symmetry.
 */
static double
brute_norm(const double *ph, double t)
{
	double	 mirror[3] = { ph[2], ph[1], ph[0] };
	double	 dmax = 1 / (1 + t * t), best = -INFINITY, bd = 0, d, v;
	double	 lo, hi, m1, m2;
	int	 j;

	if (t < 0)
		return (brute_norm(mirror, -t));
	for (j = 1; j < 4000; j++) {
		d = dmax * pow(j / 4000.0, 4);
		if ((v = tri_value(ph, d, t)) > best) {
			best = v;
			bd = d;
		}
	}
	lo = bd / 1.2;
	hi = fmin(bd * 1.2, dmax * (1 - 1e-15));
	for (j = 0; j < 200; j++) {
		m1 = lo + (hi - lo) / 3;
		m2 = hi - (hi - lo) / 3;
		if (tri_value(ph, m1, t) < tri_value(ph, m2, t))
			lo = m1;
		else
			hi = m2;
	}
	return (fmax(best, tri_value(ph, (lo + hi) / 2, t)));
}

/*
 * The maximum of sum ph log q over the distributions q of scores a[0..k)
 * with mean mu and second moment s2 (linear constraints: a concave
 * maximization).  q[i] = ph[i] / (1 + b x[i] + c y[i]) with x = a - mu,
 * y = a^2 - s2; (b, c) minimizes the convex dual -sum ph log(1 + b x +
 * c y): damped Newton steps from (0, 0), kept where every denominator
 * stays positive.  -inf if it does not converge.
 */
static double
moment_max(const double *a, const double *ph, int k, double mu, double s2)
{
	double	 b = 0, c = 0, x[5], y[5], q[5], d, g1, g2, h11, h12, h22;
	double	 det, db, dc, st, f, nf;
	int	 i, it, ok;

	for (i = 0; i < k; i++) {
		x[i] = a[i] - mu;
		y[i] = a[i] * a[i] - s2;
	}
	for (it = 0; it < 200; it++) {
		g1 = g2 = h11 = h12 = h22 = f = 0;
		for (i = 0; i < k; i++) {
			d = 1 + b * x[i] + c * y[i];
			f -= ph[i] * log(d);
			g1 -= ph[i] * x[i] / d;
			g2 -= ph[i] * y[i] / d;
			h11 += ph[i] * x[i] * x[i] / (d * d);
			h12 += ph[i] * x[i] * y[i] / (d * d);
			h22 += ph[i] * y[i] * y[i] / (d * d);
		}
		if (fabs(g1) + fabs(g2) < 1e-15)
			break;
		det = h11 * h22 - h12 * h12;
		if (!(det > 0))
			return (-INFINITY);
		db = -(h22 * g1 - h12 * g2) / det;
		dc = -(h11 * g2 - h12 * g1) / det;
		for (st = 1; st > 1e-12; st /= 2) {
			for (ok = 1, nf = 0, i = 0; i < k && ok; i++) {
				d = 1 + (b + st * db) * x[i] + (c + st * dc) * y[i];
				ok = d > 0;
				if (ok)
					nf -= ph[i] * log(d);
			}
			if (ok && nf <= f)
				break;
		}
		if (st <= 1e-12)
			break;
		b += st * db;
		c += st * dc;
	}
	for (i = 0; i < k; i++) {
		q[i] = ph[i] / (1 + b * x[i] + c * y[i]);
		if (!(q[i] > 0))
			return (-INFINITY);
	}
	/* Off the constraints (no convergence): not a candidate. */
	for (d = 0, f = 0, i = 0; i < k; i++) {
		d += q[i] * x[i];
		f += q[i] * y[i];
	}
	if (fabs(d) > 1e-9 || fabs(f) > 1e-9)
		return (-INFINITY);
	return (loglik(ph, q, k));
}

/*
 * Brute force for the normalized model with any number of outcomes: the
 * profile over the mean mu (sigma = (mu - 1/2) / t then fixed, t > 0),
 * each point the exact moment_max, scanned on 20,000 points of (1/2, 1)
 * and refined by golden section around the best.  Independent of
 * sprt.c's fixed point and of its roots.
 */
static double
brute_norm_k(const double *a, const double *ph, int k, double t)
{
	double	 best = -INFINITY, bm = 0.75, mu, v, lo, hi, m1, m2, sg;
	int	 j;

	for (j = 1; j < 20000; j++) {
		mu = 0.5 + 0.5 * j / 20000.0;
		sg = (mu - 0.5) / t;
		if ((v = moment_max(a, ph, k, mu, sg * sg + mu * mu)) > best) {
			best = v;
			bm = mu;
		}
	}
	lo = bm - 0.5 / 20000.0;
	hi = bm + 0.5 / 20000.0;
	for (j = 0; j < 100; j++) {
		m1 = lo + (hi - lo) / 3;
		m2 = hi - (hi - lo) / 3;
		sg = (m1 - 0.5) / t;
		v = moment_max(a, ph, k, m1, sg * sg + m1 * m1);
		sg = (m2 - 0.5) / t;
		if (v < moment_max(a, ph, k, m2, sg * sg + m2 * m2))
			lo = m1;
		else
			hi = m2;
	}
	sg = ((lo + hi) / 2 - 0.5) / t;
	return (fmax(best, moment_max(a, ph, k, (lo + hi) / 2,
	    sg * sg + (lo + hi) * (lo + hi) / 4)));
}

/*
 * Issue 26: normalized 0/400 on ten pairs (1, 1, 5, 2, 1: ll, ld, wl +
 * dd, wd, ww).  The fixed point from the uniform distribution settles
 * under H1 on a local maximum (LLR -8.864); the global one gives -8.262.
 * Checked against brute_norm_k, and H0 (t = 0, mu = 1/2, a linear
 * constraint) against the logistic brute force at score 1/2.
 */
static void
test_normalized_global(void **state)
{
	static const double a5[5] = { 0, 0.25, 0.5, 0.75, 1 };
	static const uint64_t cs[][5] = {
		{ 1, 1, 5, 2, 1 }, { 4, 0, 3, 2, 3 }, { 0, 1, 2, 3, 4 },
		{ 2, 0, 1, 0, 7 }, { 5, 2, 2, 1, 0 },
	};
	struct sprt		 t;
	struct matchstat_penta	 p;
	double			 ph[5], n, llr, want, t1;
	size_t			 i;
	int			 j;

	(void)state;
	init_ok(&t, SPRT_NORMALIZED, 0, 400, 0.05, 0.05);
	t1 = sqrt(2) * 400 / (800 / M_LN10);
	for (i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		p = (struct matchstat_penta){ cs[i][0], cs[i][1], cs[i][2], 0,
		    cs[i][3], cs[i][4] };
		assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
		for (n = 0, j = 0; j < 5; j++)
			n += ph[j] = cs[i][j] == 0 ? 1e-3 : (double)cs[i][j];
		for (j = 0; j < 5; j++)
			ph[j] /= n;
		want = n * (brute_norm_k(a5, ph, 5, t1) -
		    brute_max(a5, ph, 5, 0.5));
		near(llr, want, 1e-6 * fmax(1, fabs(want)), "global");
		if (i == 0)
			near(llr, -8.262, 5e-4, "issue 26");
	}
}

/*
 * The normalized model (trinomial) against the brute force, on ordinary
 * and one-sided samples with hypotheses up to 1000 Elo away: where
 * fastchess's iteration from the uniform distribution fails, the
 * continuation must still give the maximum.
 */
static void
test_normalized_brute(void **state)
{
	static const struct {
		uint64_t	 c[3];		/* L, D, W */
		double		 e0, e1;
	} cs[] = {
		{ { 100, 0, 0 }, 0, 1000 }, { { 100, 0, 0 }, -1000, 300 },
		{ { 100, 0, 0 }, 0, 50 }, { { 0, 0, 100 }, -300, 0 },
		{ { 3, 1, 40 }, -500, 0 }, { { 40, 5, 3 }, 0, 700 },
		{ { 0, 0, 4250 }, 0, 10 }, { { 0, 100, 0 }, -1000, 1000 },
		{ { 1, 0, 0 }, -1000, 1000 }, { { 50, 1, 400 }, -5, 60 },
		{ { 400, 400, 400 }, -1000, -400 }, { { 3, 0, 400 }, -1000, 5 },
		{ { 0, 3, 50 }, -400, 400 }, { { 3, 1, 0 }, 5, 400 },
		{ { 36027, 68692, 36433 }, 0, 2 }, { { 0, 0, 0 }, -60, 60 },
	};
	struct sprt		 t;
	struct matchstat_wdl	 w;
	double			 ph[3], n, llr, want, k = 800 / M_LN10;
	size_t			 i;
	int			 j;

	(void)state;
	for (i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		init_ok(&t, SPRT_NORMALIZED, cs[i].e0, cs[i].e1, 0.05, 0.05);
		w = (struct matchstat_wdl){ cs[i].c[2], cs[i].c[0],
		    cs[i].c[1] };
		assert_int_equal(sprt_llr_wdl(&t, &w, &llr), 0);
		for (n = 0, j = 0; j < 3; j++)
			n += ph[j] = cs[i].c[j] == 0 ? 1e-3 :
			    (double)cs[i].c[j];
		for (j = 0; j < 3; j++)
			ph[j] /= n;
		want = n * (brute_norm(ph, cs[i].e1 / k) -
		    brute_norm(ph, cs[i].e0 / k));
		near(llr, want, 1e-6 * fmax(1, fabs(want)), "normalized");
	}
}

/*
 * Adds pairs won (r = MATCHSTAT_WIN) or lost twice until the test stops
 * (or 1000 pairs), the LLR moving the same way with every pair; returns
 * the verdict, with the counts in p and the last LLR in llr.
 */
static enum sprt_verdict
run_pairs(const struct sprt *t, enum matchstat_res r,
    struct matchstat_penta *p, double *llr)
{
	enum sprt_verdict	 v = SPRT_CONTINUE;
	double			 prev = r == MATCHSTAT_WIN ? -INFINITY :
				    INFINITY;

	memset(p, 0, sizeof *p);
	while (v == SPRT_CONTINUE && p->ww + p->ll < 1000) {
		assert_int_equal(matchstat_penta_add(p, r, r), 0);
		assert_int_equal(sprt_llr_penta(t, p, llr), 0);
		assert_true(r == MATCHSTAT_WIN ? *llr > prev : *llr < prev);
		prev = *llr;
		v = sprt_verdict(t, *llr);
	}
	return (v);
}

/*
 * A perfect player against a random one, pair after pair (every pair
 * won twice), logistic elo0 = 0, elo1 = 10, 5% / 5%: the test stops at
 * the first pair whose LLR reaches log(19) (104 pairs), and the brute
 * force agrees at the stopping pair and the one before.  Every pair lost
 * goes to H0; the normalized model with H1 far out (500 Elo), one-sided
 * all the way, goes to H1 too.
 */
static void
test_sequence(void **state)
{
	static const double	 a5[5] = { 0, 0.25, 0.5, 0.75, 1 };
	struct sprt		 t;
	struct matchstat_penta	 p;
	uint64_t		 c[5] = { 0, 0, 0, 0, 0 };
	double			 llr;

	(void)state;
	init_ok(&t, SPRT_LOGISTIC, 0, 10, 0.05, 0.05);
	assert_int_equal(run_pairs(&t, MATCHSTAT_WIN, &p, &llr), SPRT_H1);
	assert_int_equal(p.ww, 104);
	c[4] = p.ww;
	near(llr, brute_llr(a5, c, 5, 0, 10), 1e-6, "stop");
	assert_true(llr >= t.upper);
	c[4] = p.ww - 1;
	assert_true(brute_llr(a5, c, 5, 0, 10) < t.upper);
	assert_int_equal(run_pairs(&t, MATCHSTAT_LOSS, &p, &llr), SPRT_H0);
	init_ok(&t, SPRT_NORMALIZED, 0, 500, 0.05, 0.05);
	assert_int_equal(run_pairs(&t, MATCHSTAT_WIN, &p, &llr), SPRT_H1);
	/* No sample yet: every count is 1e-3, so the LLR is that of 0.005
	 * pseudo-pairs, next to 0. */
	memset(&p, 0, sizeof p);
	assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
	assert_int_equal(sprt_verdict(&t, llr), SPRT_CONTINUE);
	near(llr, 0, 0.01, "empty");
}

/* One published result: pentanomial counts (LL, LD, WL+DD, WD, WW), the
 * hypotheses and beta (alpha 0.05), and the printed Elo, +/- and LLR. */
struct published {
	const char	*what;
	uint64_t	 c[5];
	double		 e0, e1, beta;
	double		 elo, err, llr;
};

/*
 * Results printed by other runners, checked at their printed precision.
 * OpenBench SPRT summaries quoted in Yoshie2000/PlentyChess pull requests
 * (https://github.com/Yoshie2000/PlentyChess/pull/334, /229, /296), e.g.
 * "Elo | 4.20 +- 3.43 (95%) ... LLR | 2.90 (-2.25, 2.89) [-3.00, 1.00]
 * ... Penta | [5, 942, 2469, 1050, 5]": normalized pentanomial LLR,
 * alpha 0.05, beta 0.1.  And a fastchess result block from
 * https://github.com/Disservin/fastchess/issues/807: "Elo: -168.40 +/-
 * 73.37, nElo: -170.08 +/- 62.16, LOS: 0.00 % ... Ptnml(0-2): [30, 6,
 * 18, 0, 6]" (no SPRT there).
 */
static void
test_published(void **state)
{
	static const struct published	 pub[] = {
		{ "PlentyChess 334 LTC", { 5, 942, 2469, 1050, 5 }, -3, 1, 0.1,
		    4.20, 3.43, 2.90 },
		{ "PlentyChess 334 STC", { 214, 8992, 19871, 9102, 235 }, 0,
		    2.5, 0.1, 0.69, 1.25, 0.16 },
		{ "PlentyChess 229", { 24, 609, 1406, 767, 42 }, 0, 3, 0.1,
		    11.84, 4.83, 2.91 },
		{ "PlentyChess 296 STC", { 78, 4150, 9069, 4080, 85 }, 0, 3,
		    0.1, -0.56, 1.84, -2.26 },
	};
	struct matchstat_penta	 p;
	struct matchstat_elo	 e;
	struct sprt		 t;
	double			 llr;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof pub / sizeof pub[0]; i++) {
		p = (struct matchstat_penta){ pub[i].c[0], pub[i].c[1],
		    pub[i].c[2], 0, pub[i].c[3], pub[i].c[4] };
		assert_int_equal(matchstat_elo_penta(&p, &e), 0);
		near(e.elo, pub[i].elo, 0.005, pub[i].what);
		near(e.elo_err, pub[i].err, 0.005, pub[i].what);
		init_ok(&t, SPRT_NORMALIZED, pub[i].e0, pub[i].e1, 0.05,
		    pub[i].beta);
		near(t.lower, -2.25, 0.005, "lower");
		near(t.upper, 2.89, 0.005, "upper");
		assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
		near(llr, pub[i].llr, 0.005, pub[i].what);
	}
	/* fastchess issue 807. */
	p = (struct matchstat_penta){ 30, 6, 18, 0, 0, 6 };
	assert_int_equal(matchstat_elo_penta(&p, &e), 0);
	near(e.elo, -168.40, 0.005, "fastchess 807 elo");
	near(e.elo_err, 73.37, 0.005, "fastchess 807 err");
	near(e.nelo, -170.08, 0.005, "fastchess 807 nelo");
	/* fastchess printed 62.16 (z/sqrt(2N)); the delta method's: */
	near(e.nelo_err, 84.40, 0.005, "fastchess 807 nelo err");
	near(e.los * 100, 0.00, 0.005, "fastchess 807 los");
	near(e.score, 0.275, 1e-12, "fastchess 807 points 27.50 %");
}

/* Every refusal, and a refused test leaves the struct alone. */
static void
test_refusals(void **state)
{
	struct sprt	 t, keep;

	(void)state;
	memset(&t, 0x5a, sizeof t);
	keep = t;
	assert_int_equal(sprt_init(&t, SPRT_LOGISTIC, 5, 5, 0.05, 0.05),
	    SPRT_E_ELO);
	assert_int_equal(sprt_init(&t, SPRT_LOGISTIC, NAN, 5, 0.05, 0.05),
	    SPRT_E_ELO);
	assert_int_equal(sprt_init(&t, SPRT_LOGISTIC, 0, 1001, 0.05, 0.05),
	    SPRT_E_RANGE);
	assert_int_equal(sprt_init(&t, SPRT_LOGISTIC, 0, 5, 0, 0.05),
	    SPRT_E_ALPHA);
	assert_int_equal(sprt_init(&t, SPRT_LOGISTIC, 0, 5, 0.05, 1),
	    SPRT_E_BETA);
	assert_int_equal(sprt_init(&t, SPRT_LOGISTIC, 0, 5, 0.5, 0.5),
	    SPRT_E_SUM);
	assert_int_equal(sprt_init(&t, (enum sprt_model)0, 0, 5, 0.05, 0.05),
	    SPRT_E_MODEL);
	assert_memory_equal(&t, &keep, sizeof t);
	assert_string_equal(sprt_strerror(SPRT_E_SUM),
	    "alpha + beta must be less than 1");
}

TU_MAIN("sprt",
    cmocka_unit_test(test_fastchess),
    cmocka_unit_test(test_published),
    cmocka_unit_test(test_bounds),
    cmocka_unit_test(test_logistic_brute),
    cmocka_unit_test(test_normalized_brute),
    cmocka_unit_test(test_normalized_global),
    cmocka_unit_test(test_sequence),
    cmocka_unit_test(test_refusals))
