/*
 * test-ratings.c: Glicko-2 against the worked example of Glickman's
 * "Example of the Glicko-2 system" (2013), every intermediate quantity
 * at the precision printed there (and exactly where the paper rounds its
 * intermediates), the volatility against an independent
 * bisection, rating periods, provisional ratings and refusals; and the
 * daemon's one-game period (rtable.c, PROTOCOL.md §13.7) against
 * hand-computed cases.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "teststat.h"
#include "stats/glicko2.h"
#include "stats/rtable.h"

/* Glickman 2013: the player (1500, 200, 0.06), tau 0.5, three games. */
static const struct glicko2_rating example_player = { 1500, 200, 0.06 };
static const struct glicko2_game example_games[] = {
	{ 1400, 30, 1 }, { 1550, 100, 0 }, { 1700, 300, 0 },
};

/*
 * The worked example.  Glickman prints v = 1.7785, Delta = -0.4834,
 * sigma' = 0.05999, mu' = -0.2069, phi' = 0.8722, r' = 1464.06 and
 * RD' = 151.52, computed with intermediates rounded to 3 or 4 decimals
 * (E = 0.639, 0.432, 0.303).  In exact arithmetic (this Python, written
 * apart from glicko2.c, bisecting f):
 *
 *   from math import *
 *   S=173.7178; mu=0; phi=200/S; sig=0.06; tau=0.5; vinv=ds=0
 *   for r,rd,s in [(1400,30,1),(1550,100,0),(1700,300,0)]:
 *       mj=(r-1500)/S; pj=rd/S; g=1/sqrt(1+3*pj*pj/pi**2)
 *       E=1/(1+exp(-g*(mu-mj))); vinv+=g*g*E*(1-E); ds+=g*(s-E)
 *   v=1/vinv; d=v*ds; a=log(sig**2)
 *   f=lambda x: exp(x)*(d*d-phi*phi-v-exp(x))/(2*(phi*phi+v+exp(x))**2) \
 *       -(x-a)/tau**2
 *   lo,hi=-50.0,10.0
 *   for i in range(300):
 *       m=(lo+hi)/2
 *       if f(m)>0: lo=m
 *       else: hi=m
 *   s2=exp(lo/2); ps=sqrt(phi*phi+s2*s2); pn=1/sqrt(1/ps**2+1/v)
 *   mn=mu+pn*pn*ds; print(v,d,s2,mn,pn,S*mn+1500,S*pn)
 *
 * prints v = 1.778977, Delta = -0.483933, sigma' = 0.05999598,
 * mu' = -0.206941, phi' = 0.872199, r' = 1464.0507, RD' = 151.5165.
 * mu', phi' and RD' match the paper at its printed precision, sigma'
 * within one unit of its last digit (0.05999 printed, 0.0599960 exact);
 * v, Delta and r' differ from it in the last printed digit only through
 * the paper's rounding, so they are checked against the exact values
 * and against the paper's within one unit of its last digit.
 */
static void
test_glickman_example(void **state)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 out;
	struct glicko2_trace	 tr;

	(void)state;
	glicko2_params_default(&p);
	p.tau = 0.5;
	assert_int_equal(glicko2_update(&p, &example_player, example_games, 3,
	    &out, &tr), 0);
	/* Steps 3 and 4. */
	near(tr.v, 1.778977, 0.0000005, "v exact");
	near(tr.v, 1.7785, 0.0005, "v paper");
	near(tr.delta, -0.483933, 0.0000005, "delta exact");
	near(tr.delta, -0.4834, 0.0006, "delta paper");
	/* Steps 5 and 7, at the paper's precision. */
	near(out.sigma, 0.05999, 0.00001, "sigma' paper");
	near(out.sigma, 0.05999598, 0.000000005, "sigma' exact");
	near(tr.mu, -0.2069, 0.00005, "mu' paper");
	near(tr.phi, 0.8722, 0.00005, "phi' paper");
	/* Step 8. */
	near(out.r, 1464.0507, 0.00005, "r' exact");
	near(out.r, 1464.06, 0.01, "r' paper");
	near(out.rd, 151.52, 0.005, "RD' paper");
	near(out.rd, 151.5165, 0.00005, "RD' exact");
	assert_true(tr.iterations > 0);
	/* In place. */
	out = example_player;
	assert_int_equal(glicko2_update(&p, &out, example_games, 3, &out,
	    NULL), 0);
	near(out.r, 1464.0507, 0.00005, "r' in place");
}

/* Glickman's f(x) of step 5, written again here from the paper. */
static double
f_indep(double x, double delta, double phi, double v, double sigma,
    double tau)
{
	double	 a = log(sigma * sigma);

	return (exp(x) * (delta * delta - phi * phi - v - exp(x)) /
	    (2 * pow(phi * phi + v + exp(x), 2)) - (x - a) / (tau * tau));
}

/*
 * The volatility of the example by plain bisection of f (an independent
 * root finder, 200 halvings of [-50, 10]: f is decreasing), against the
 * Illinois result; then the whole update rebuilt from that root.
 */
static void
test_volatility_bisection(void **state)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 out;
	struct glicko2_trace	 tr;
	double			 lo = -50, hi = 10, mid, phi = 200 / 173.7178;
	double			 sigma, phistar, phinew;
	int			 i;

	(void)state;
	glicko2_params_default(&p);
	assert_int_equal(glicko2_update(&p, &example_player, example_games, 3,
	    &out, &tr), 0);
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (f_indep(mid, tr.delta, phi, tr.v, 0.06, 0.5) > 0)
			lo = mid;
		else
			hi = mid;
	}
	sigma = exp(lo / 2);
	near(out.sigma, sigma, 1e-7, "sigma by bisection");
	phistar = sqrt(phi * phi + sigma * sigma);
	phinew = 1 / sqrt(1 / (phistar * phistar) + 1 / tr.v);
	near(out.rd, 173.7178 * phinew, 1e-4, "RD from bisection");
}

/* A player with no game keeps r and sigma; only RD grows (step 6). */
static void
test_no_game(void **state)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 out, old = { 1500, 340, 0.06 };
	int			 i;

	(void)state;
	glicko2_params_default(&p);
	assert_int_equal(glicko2_update(&p, &example_player, NULL, 0, &out,
	    NULL), 0);
	assert_true(out.r == 1500 && out.sigma == 0.06);
	near(out.rd, 173.7178 * sqrt(pow(200 / 173.7178, 2) + 0.0036), 1e-9,
	    "RD grown");
	/* Never above max_rd (350 by default). */
	assert_int_equal(glicko2_update(&p, &old, NULL, 0, &out, NULL), 0);
	assert_true(out.rd > 340);
	/* 350^2 - 340^2 = 6900 and each period adds (0.06 * 173.7178)^2
	 * = 108.6 to RD^2: capped after 64 periods. */
	for (i = 0; i < 62; i++)
		assert_int_equal(glicko2_update(&p, &out, NULL, 0, &out, NULL),
		    0);
	assert_true(out.rd < 350);
	assert_int_equal(glicko2_update(&p, &out, NULL, 0, &out, NULL), 0);
	near(out.rd, 350, 0, "RD capped");
	assert_int_equal(glicko2_update(&p, &out, NULL, 0, &out, NULL), 0);
	near(out.rd, 350, 0, "RD stays capped");
}

/*
 * A period rates everyone from the ratings before it: the same as one
 * glicko2_update per player with the opponents' old ratings; a draw
 * between two equal players changes neither rating.
 */
static void
test_period(void **state)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 in[4] = { { 1500, 200, 0.06 },
	    { 1400, 30, 0.06 }, { 1550, 100, 0.06 }, { 1700, 300, 0.06 } };
	struct glicko2_rating	 out[4], one;
	struct glicko2_result	 res[] = { { 0, 1, 1 }, { 2, 0, 1 },
	    { 0, 3, 0 } };
	struct glicko2_game	 g2[] = { { 1500, 200, 0 } };
	struct glicko2_rating	 eq[2] = { { 1600, 80, 0.06 },
	    { 1600, 80, 0.06 } };
	struct glicko2_result	 draw[] = { { 0, 1, 0.5 } };

	(void)state;
	glicko2_params_default(&p);
	assert_int_equal(glicko2_period(&p, in, 4, res, 3, out), 0);
	near(out[0].r, 1464.0507, 0.00005, "period r'");
	near(out[0].rd, 151.5165, 0.00005, "period RD'");
	/* Player 1 lost to player 0 (1500, 200). */
	g2[0].score = 0;
	assert_int_equal(glicko2_update(&p, &in[1], g2, 1, &one, NULL), 0);
	assert_true(one.r == out[1].r && one.rd == out[1].rd &&
	    one.sigma == out[1].sigma);
	assert_true(out[1].r < 1400 && out[2].r > 1550 && out[3].r > 1700);
	/* A draw between equals. */
	assert_int_equal(glicko2_period(&p, eq, 2, draw, 1, eq), 0);
	near(eq[0].r, 1600, 1e-9, "draw r a");
	near(eq[1].r, 1600, 1e-9, "draw r b");
	assert_true(eq[0].rd < 80 && eq[0].rd == eq[1].rd);
}

/* Provisional: RD at or above 110 (lichess: deviation >= 110). */
static void
test_provisional(void **state)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 x = { 1500, 110, 0.06 };

	(void)state;
	glicko2_params_default(&p);
	assert_true(glicko2_provisional(&p, &x));
	x.rd = nextafter(110, 109);
	assert_false(glicko2_provisional(&p, &x));
	assert_true(glicko2_provisional(&p, &p.init));
}

/* Bad input is refused and the output left alone. */
static void
test_refusals(void **state)
{
	struct glicko2_params	 p;
	struct glicko2_rating	 in[2] = { { 1500, 200, 0.06 },
	    { 1500, 200, 0.06 } }, out[2], bad;
	struct glicko2_game	 g = { 1500, 200, 0.7 };
	struct glicko2_result	 self = { 0, 0, 1 }, range = { 0, 2, 1 },
				 score = { 0, 1, 0.25 };

	(void)state;
	glicko2_params_default(&p);
	memset(out, 0x5a, sizeof out);
	assert_int_equal(glicko2_update(&p, &in[0], &g, 1, &out[0], NULL), -1);
	g.score = 1;
	g.rd = 0;
	assert_int_equal(glicko2_update(&p, &in[0], &g, 1, &out[0], NULL), -1);
	bad = in[0];
	bad.sigma = NAN;
	assert_int_equal(glicko2_update(&p, &bad, NULL, 0, &out[0], NULL), -1);
	assert_int_equal(glicko2_period(&p, in, 2, &self, 1, out), -1);
	assert_int_equal(glicko2_period(&p, in, 2, &range, 1, out), -1);
	assert_int_equal(glicko2_period(&p, in, 2, &score, 1, out), -1);
	p.tau = 0;
	assert_int_equal(glicko2_period(&p, in, 2, NULL, 0, out), -1);
	assert_true(out[0].r != 1500 && out[1].r != 1500);
}

/*
 * The daemon's rating of one game (rtable_rate: one period for each of
 * the two players, against the other's rating and RD from before the
 * game), against hand-computed cases.  Two new players (1500, RD 350,
 * sigma 0.06), the first wins: mu = 0, phi = 350/173.7178 = 2.014761,
 * g(phi) = 1/sqrt(1 + 3 phi^2/pi^2) = 0.669069, E = 1/2,
 * v = 1/(g^2 E (1 - E)) = 8.935475, Delta = v g (1 - E) = 2.989226;
 * Delta^2 = 8.9354 < phi^2 + v = 12.9947, and f(x) is 0 at x = ln 0.06^2
 * within 1e-6 (sigma' = 0.060000); phi* = sqrt(phi^2 + 0.06^2) = 2.015655,
 * phi' = 1/sqrt(1/phi*^2 + 1/v) = 1.671215, mu' = phi'^2 g (1 - E) =
 * 0.934337, so r' = 1500 + 173.7178 mu' = 1662.3109 and RD' = 173.7178
 * phi' = 290.3190; the loser mirrors it: 1337.6891, same RD.  Then
 * 1700/60 loses to 1400/200 (both sigma 0.06): the favourite goes to
 * 1685.5717 (RD 60.4943), the underdog to 1564.1115 (RD 185.3157)
 * (Python, bisecting f for sigma', as the comment of
 * test_glickman_example).
 */
/* Checks a rating against hand-computed r', RD' and sigma'. */
static void
near_g(const struct glicko2_rating *g, double r, double rd, double sigma,
    const char *what)
{
	near(g->r, r, 0.00005, what);
	near(g->rd, rd, 0.00005, what);
	near(g->sigma, sigma, 0.0000005, what);
}

static void
test_one_game(void **state)
{
	struct rtable	 t;
	struct rtable_entry *a, *b;

	(void)state;
	rtable_init(&t);
	rtable_rate(&t, "a", "b", 1);
	a = rtable_find(&t, "a");
	b = rtable_find(&t, "b");
	near_g(&a->g, 1662.3109, 290.3190, 0.06, "new winner");
	near_g(&b->g, 1337.6891, 290.3190, 0.06, "new loser");
	assert_int_equal(a->games, 1);
	assert_int_equal(b->games, 1);
	assert_true(rtable_provisional(&a->g));

	/* The favourite loses. */
	rtable_get(&t, "fav")->g = (struct glicko2_rating){ 1700, 60, 0.06 };
	rtable_get(&t, "dog")->g = (struct glicko2_rating){ 1400, 200, 0.06 };
	rtable_rate(&t, "fav", "dog", 2);
	a = rtable_find(&t, "fav");
	b = rtable_find(&t, "dog");
	near_g(&a->g, 1685.5717, 60.4943, 0.060005, "favourite");
	near_g(&b->g, 1564.1115, 185.3157, 0.060005, "underdog");
	assert_false(rtable_provisional(&a->g));
	assert_true(rtable_provisional(&b->g));
	/* lichess's rule: RD at or above 110 (deviation >= 110). */
	assert_true(rtable_provisional(&(struct glicko2_rating){ 1500, 110,
	    0.06 }));
	assert_false(rtable_provisional(&(struct glicko2_rating){ 1500,
	    109.999999, 0.06 }));
	rtable_free(&t);
}

TU_MAIN("ratings",
    cmocka_unit_test(test_glickman_example),
    cmocka_unit_test(test_volatility_bisection),
    cmocka_unit_test(test_no_game),
    cmocka_unit_test(test_period),
    cmocka_unit_test(test_provisional),
    cmocka_unit_test(test_refusals),
    cmocka_unit_test(test_one_game))
