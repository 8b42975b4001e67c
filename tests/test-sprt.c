/*
 * test-sprt.c: the SPRT against fastchess's own test values
 * (app/tests/sprt_test.cpp at Disservin/fastchess 74deac2), against an
 * independent brute maximization of the constrained likelihood
 * (logistic model, trinomial and pentanomial), Wald's bounds, verdicts
 * along a sequence of pairs, and refusals.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "teststat.h"
#include "sprt.h"

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

/*
 * A perfect player against a random one, pair after pair (every pair
 * won twice), logistic elo0 = 0, elo1 = 10, 5% / 5%: the test stops at
 * the first pair whose LLR reaches log(19); the LLR grows with every pair
 * and the brute force agrees at the stopping pair and the one before.
 */
static void
test_sequence(void **state)
{
	static const double	 a5[5] = { 0, 0.25, 0.5, 0.75, 1 };
	struct sprt		 t;
	struct matchstat_penta	 p;
	uint64_t		 c[5] = { 0, 0, 0, 0, 0 };
	double			 llr, prev = -INFINITY;
	enum sprt_verdict	 v = SPRT_CONTINUE;

	(void)state;
	init_ok(&t, SPRT_LOGISTIC, 0, 10, 0.05, 0.05);
	memset(&p, 0, sizeof p);
	while (v == SPRT_CONTINUE && p.ww < 1000) {
		assert_int_equal(matchstat_penta_add(&p, MATCHSTAT_WIN,
		    MATCHSTAT_WIN), 0);
		assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
		assert_true(llr > prev);
		prev = llr;
		v = sprt_verdict(&t, llr);
	}
	assert_int_equal(v, SPRT_H1);
	c[4] = p.ww;
	near(llr, brute_llr(a5, c, 5, 0, 10), 1e-6, "stop");
	assert_true(llr >= t.upper);
	c[4] = p.ww - 1;
	assert_true(brute_llr(a5, c, 5, 0, 10) < t.upper);
	/* The other way: every pair lost goes to H0. */
	memset(&p, 0, sizeof p);
	v = SPRT_CONTINUE;
	while (v == SPRT_CONTINUE && p.ll < 1000) {
		assert_int_equal(matchstat_penta_add(&p, MATCHSTAT_LOSS,
		    MATCHSTAT_LOSS), 0);
		assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
		v = sprt_verdict(&t, llr);
	}
	assert_int_equal(v, SPRT_H0);
	/* No sample yet: every count is 1e-3, so the LLR is next to 0. */
	memset(&p, 0, sizeof p);
	assert_int_equal(sprt_llr_penta(&t, &p, &llr), 0);
	assert_int_equal(sprt_verdict(&t, llr), SPRT_CONTINUE);
	near(llr, 0, 1e-3, "empty");
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
    cmocka_unit_test(test_bounds),
    cmocka_unit_test(test_logistic_brute),
    cmocka_unit_test(test_sequence),
    cmocka_unit_test(test_refusals))
