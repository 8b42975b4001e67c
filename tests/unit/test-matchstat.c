/*
 * test-matchstat.c: match statistics against fastchess's own test values
 * (app/tests/elo_test.cpp at Disservin/fastchess 74deac2), a case worked
 * by hand, and an independent computation from a result list (sample
 * mean and variance over the games themselves, LOS by integrating the
 * normal density); pentanomial counts from a known sequence.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "teststat.h"
#include "stats/matchstat.h"

/*
 * fastchess's EloWDL tests: Stats(wins, losses, draws), values printed
 * to two decimals (LOS as a percentage), checked here to half a unit of
 * the last printed digit.  The exact values, from this Python written
 * apart from matchstat.c, are in the comments:
 *
 *   z=1.959963984540054; e=lambda s: -400*log10(1/s-1)
 *   n=w+l+d; s=(w+d/2)/n; var=(w/n)*(1-s)**2+(d/n)*(.5-s)**2+(l/n)*s*s
 *   lo=s-z*sqrt(var/n); hi=s+z*sqrt(var/n)
 *   elo=e(s); err=(e(hi)-e(lo))/2; nelo=(s-.5)/sqrt(var)*800/log(10)
 *   los=(1-erf(-(s-.5)/sqrt(2*var/n)))/2
 *
 * The nElo's +/- is not fastchess's z/sqrt(n)*800/ln 10 (printed in the
 * comments, 34.48 for case 3) but the delta method's (fishtest's
 * sensitivity_conf; doc/STATS.md), from the central moments m3, m4:
 *
 *   t=(s-.5)/sqrt(var); vt=1-t*m3/var**1.5+.25*t*t*(m4/var**2-1)
 *   nelo_err=z*sqrt(vt/n)*800/log(10)	(pairs: / sqrt(2) as nelo)
 */
static void
test_fastchess_wdl(void **state)
{
	struct matchstat_wdl	 w;
	struct matchstat_elo	 e;

	(void)state;
	/* EloWDL 1: -20.76 +/- 40.13 nElo, LOS 15.53 %, score 0.477. */
	w = (struct matchstat_wdl){ 76, 89, 123 };
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	assert_true(e.n == 288 && !e.degenerate);
	near(e.nelo, -20.76, 0.005, "wdl1 nelo");	/* -20.7564 */
	near(e.nelo_err, 40.229, 0.0005, "wdl1 nelo err");	/* fc 40.13 */
	near(e.los * 100, 15.53, 0.005, "wdl1 los");	/* 15.5326 */
	near(e.score, 0.477, 0.0005, "wdl1 score");	/* 0.477431 */
	near(e.elo, -15.6935, 0.00005, "wdl1 elo");
	near(e.elo_err, 30.4580, 0.00005, "wdl1 err");
	/* EloWDL 2: 40.70 +/- 30.43, nElo 49.77 +/- 36.77, LOS 99.60 %. */
	w = (struct matchstat_wdl){ 136, 96, 111 };
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	near(e.nelo, 49.77, 0.005, "wdl2 nelo");	/* 49.7684 */
	near(e.nelo_err, 37.3845, 0.00005, "wdl2 nelo err");	/* fc 36.77 */
	near(e.elo, 40.70, 0.005, "wdl2 elo");	/* 40.7025 */
	near(e.elo_err, 30.43, 0.005, "wdl2 err");	/* 30.4272 */
	near(e.elo_lo, 10.5868, 0.00005, "wdl2 lo");
	near(e.elo_hi, 71.4412, 0.00005, "wdl2 hi");
	near(e.los * 100, 99.60, 0.005, "wdl2 los");	/* 99.6010 */
	near(e.score, 0.558, 0.0005, "wdl2 score");	/* 0.558309 */
	/* EloWDL 3: nElo -508.44 +/- 34.48, score 0.087. */
	w = (struct matchstat_wdl){ 34, 356, 0 };
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	near(e.nelo, -508.44, 0.005, "wdl3 nelo");	/* -508.4353 */
	near(e.nelo_err, 108.3254, 0.00005, "wdl3 nelo err"); /* fc 34.48 */
	near(e.score, 0.087, 0.0005, "wdl3 score");	/* 0.087179 */
}

/*
 * fastchess's EloPentanomial tests: Stats(ll, ld, wl, dd, wd, ww) and the
 * printed figures, each checked to half a unit of its last digit (exact
 * values in the comments; LOS as a percentage).  The nElo's +/- is the
 * delta method's (fastchess printed 28.28, 10.96 and 2.65).
 */
static const struct penta_case {
	struct matchstat_penta	 p;
	uint64_t		 n;
	double			 nelo, nelo_err, elo, elo_err, los, score;
} penta_cases[] = {
	/* 1: 57.9356 29.2329 55.5798 27.6534 99.9970 0.579310 */
	{ { 34, 54, 31, 32, 64, 75 }, 290,
	    57.94, 29.23, 55.58, 27.65, 100.00, 0.579 },
	/* 2: -9.1729 10.9813 -8.6427 10.3342 5.0470 0.487565 */
	{ { 332, 433, 457, 41, 333, 334 }, 1930,
	    -9.17, 10.98, -8.64, 10.33, 5.05, 0.488 },
	/* 3: -19.0128 2.6864 -21.0435 2.9453 (LOS 0.00) 0.469753 */
	{ { 7895, 8757, 5485, 200, 568, 9999 }, 32904,
	    -19.01, 2.69, -21.04, 2.95, 0.00, 0.470 },
};

static void
test_fastchess_penta(void **state)
{
	const struct penta_case	*c;
	struct matchstat_elo	 e;
	char			 what[32];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof penta_cases / sizeof penta_cases[0]; i++) {
		c = &penta_cases[i];
		snprintf(what, sizeof what, "p%zu", i + 1);
		assert_int_equal(matchstat_elo_penta(&c->p, &e), 0);
		assert_true(e.n == c->n);
		near(e.nelo, c->nelo, 0.005, what);
		near(e.nelo_err, c->nelo_err, 0.005, what);
		near(e.elo, c->elo, 0.005, what);
		near(e.elo_err, c->elo_err, 0.005, what);
		near(e.los * 100, c->los, 0.005, what);
		near(e.score, c->score, 0.0005, what);
	}
}

/*
 * By hand: 60 wins, 40 losses.  score 0.6, variance per game
 * 0.6 * 0.4^2 + 0.4 * 0.6^2 = 0.24, standard error sqrt(0.24 / 100) =
 * 0.0489898; interval 0.6 -+ 1.959964 * 0.0489898 = [0.503981, 0.696019];
 * Elo -400 log10(1/0.6 - 1) = 70.4365, ends 2.7669 and 143.9092, so
 * +/- 70.5712; LOS = Phi(0.1 / 0.0489898) = Phi(2.041241) = 0.979387.
 */
static void
test_by_hand(void **state)
{
	struct matchstat_wdl	 w = { 60, 40, 0 };
	struct matchstat_elo	 e;

	(void)state;
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	near(e.score, 0.6, 1e-12, "score");
	near(e.variance, 0.24, 1e-12, "variance");
	near(e.elo, 70.4365, 0.00005, "elo");
	near(e.elo_lo, 2.7669, 0.00005, "lo");
	near(e.elo_hi, 143.9092, 0.00005, "hi");
	near(e.elo_err, 70.5712, 0.00005, "err");
	near(e.los, 0.979387, 0.0000005, "los");
	assert_int_equal(matchstat_wdl_games(&w), 100);
	near(matchstat_wdl_points(&w), 60, 0, "points");
}

/* Degenerate samples and the ends of the scale. */
static void
test_degenerate(void **state)
{
	struct matchstat_wdl	 w = { 10, 0, 0 }, none = { 0, 0, 0 };
	struct matchstat_penta	 p = { 0, 0, 0, 7, 0, 0 }, pnone;
	struct matchstat_elo	 e;

	(void)state;
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	assert_true(e.degenerate && isinf(e.elo) && e.elo > 0);
	assert_true(e.elo_lo == e.elo && e.elo_hi == e.elo);
	assert_true(e.elo_err == 0 && e.los == 1 && e.score == 1);
	w = (struct matchstat_wdl){ 0, 3, 0 };
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	assert_true(e.degenerate && isinf(e.elo) && e.elo < 0 && e.los == 0);
	/* Seven drawn pairs: no spread, Elo 0, LOS 1/2. */
	assert_int_equal(matchstat_elo_penta(&p, &e), 0);
	assert_true(e.degenerate && e.elo == 0 && e.los == 0.5 &&
	    e.nelo == 0 && e.nelo_err == 0);
	assert_true(!signbit(e.elo) && !signbit(e.elo_lo) &&
	    !signbit(e.elo_hi));
	/* 9 wins, 1 loss: the interval's top is beyond a score of 1. */
	w = (struct matchstat_wdl){ 9, 1, 0 };
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	assert_true(!e.degenerate && isfinite(e.elo) && isfinite(e.elo_lo));
	assert_true(isinf(e.elo_hi) && isinf(e.elo_err));
	/* Nothing to measure. */
	assert_int_equal(matchstat_elo_wdl(&none, &e), -1);
	memset(&pnone, 0, sizeof pnone);
	assert_int_equal(matchstat_elo_penta(&pnone, &e), -1);
	near(matchstat_score_to_elo(0.5), 0, 0, "elo of 1/2");
	/* Even: +0, not -0 (printed "-0.0" by pairstats, CSV, JSON). */
	assert_true(!signbit(matchstat_score_to_elo(0.5)));
}

/* A small deterministic generator for the result lists. */
static uint32_t
lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return (*x >> 8);
}

/*
 * The nElo's interval against a simulation: 20,000 matches of 100
 * draw-free pairs drawn from a lopsided law (LL 2%, WL 28%, WW 70%, a
 * score of 0.84).  The spread of their nElo estimates is measured, and
 * nelo_err / z at the law itself must be within 10% of it: the delta
 * method gives 47.4 against a simulated 48.6 (a Python simulation apart
 * from this one agrees), where z/sqrt(2N)*800/ln 10 gave 24.6, half.
 */
static void
test_nelo_simulated(void **state)
{
	struct matchstat_penta	 law = { 2, 0, 28, 0, 0, 70 }, p;
	struct matchstat_elo	 e;
	uint32_t		 x = 12345, u;
	double			 sum = 0, sum2 = 0, mean, sd;
	int			 i, j, m = 0;

	(void)state;
	for (i = 0; i < 20000; i++) {
		memset(&p, 0, sizeof p);
		for (j = 0; j < 100; j++) {
			u = lcg(&x) % 100;
			if (u < 2)
				p.ll++;
			else if (u < 30)
				p.wl++;
			else
				p.ww++;
		}
		assert_int_equal(matchstat_elo_penta(&p, &e), 0);
		if (e.degenerate)
			continue;
		sum += e.nelo;
		sum2 += e.nelo * e.nelo;
		m++;
	}
	assert_true(m > 19000);
	mean = sum / m;
	sd = sqrt((sum2 - m * mean * mean) / (m - 1));
	assert_int_equal(matchstat_elo_penta(&law, &e), 0);
	print_message("nelo: simulated sd %.2f, delta method %.2f\n", sd,
	    e.nelo_err / MATCHSTAT_Z95);
	near(e.nelo_err / MATCHSTAT_Z95 / sd, 1.0, 0.10, "nelo sd ratio");
}

/* The standard normal CDF by Simpson's rule on [-12, x] (no erf). */
static double
phi_simpson(double x)
{
	int	 i, n = 20000;
	double	 a = -12, h = (x - a) / n, s = 0, t;

	for (i = 0; i <= n; i++) {
		t = a + i * h;
		s += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) *
		    exp(-t * t / 2);
	}
	return (s * h / 3 / sqrt(2 * M_PI));
}

/*
 * A known sequence: starts 5 7 5 9 7 5 9 3 5 with A's results W L D W
 * W L L D W: start 5 pairs games 1 and 3 (W, D: wd) and games 6 and 9
 * (L, W: wl); start 7 games 2 and 5 (L, W: wl); start 9 games 4 and 7
 * (W, L: wl); game 8 (start 3) is alone.
 */
static void
test_pairs_known(void **state)
{
	static const uint64_t	 st[] = { 5, 7, 5, 9, 7, 5, 9, 3, 5 };
	static const char	 res[] = "WLDWWLLDW";
	static const enum matchstat_res every[7][2] = {
	    { MATCHSTAT_WIN, MATCHSTAT_WIN }, { MATCHSTAT_DRAW, MATCHSTAT_WIN },
	    { MATCHSTAT_LOSS, MATCHSTAT_WIN },
	    { MATCHSTAT_DRAW, MATCHSTAT_DRAW },
	    { MATCHSTAT_DRAW, MATCHSTAT_LOSS },
	    { MATCHSTAT_LOSS, MATCHSTAT_LOSS },
	    { MATCHSTAT_LOSS, MATCHSTAT_DRAW } };
	struct matchstat_game	 g[9];
	struct matchstat_penta	 p, keep;
	size_t			 i, left;

	(void)state;
	for (i = 0; i < 9; i++) {
		g[i].start = st[i];
		g[i].res = res[i] == 'W' ? MATCHSTAT_WIN : res[i] == 'D' ?
		    MATCHSTAT_DRAW : MATCHSTAT_LOSS;
	}
	assert_int_equal(matchstat_pairs(g, 9, &p, &left), 0);
	assert_int_equal(left, 1);
	assert_true(p.ww == 0 && p.wd == 1 && p.wl == 3 && p.dd == 0 &&
	    p.ld == 0 && p.ll == 0);
	/* Every category. */
	memset(&p, 0, sizeof p);
	for (i = 0; i < 7; i++)
		assert_int_equal(matchstat_penta_add(&p, every[i][0],
		    every[i][1]), 0);
	assert_true(p.ww == 1 && p.wd == 1 && p.wl == 1 && p.dd == 1 &&
	    p.ld == 2 && p.ll == 1);
	assert_int_equal(matchstat_penta_pairs(&p), 7);
	/* A bad result changes nothing. */
	keep = p;
	assert_int_equal(matchstat_penta_add(&p, MATCHSTAT_WIN,
	    (enum matchstat_res)3), -1);
	assert_memory_equal(&p, &keep, sizeof p);
	g[4].res = (enum matchstat_res)7;
	assert_int_equal(matchstat_pairs(g, 9, &p, &left), -1);
	assert_memory_equal(&p, &keep, sizeof p);
	assert_int_equal(matchstat_pairs(NULL, 0, &p, &left), 0);
	assert_true(matchstat_penta_pairs(&p) == 0 && left == 0);
}

/*
 * 2,000 pseudo-random paired games (starts 0..999, each played twice,
 * the second game after a random gap): the pentanomial counts against a
 * linear scan for each start's two games, and score, variance, Elo and
 * LOS against the sample mean and variance of the per-pair scores and
 * a Simpson integral of the normal density.
 */
static void
test_pairs_independent(void **state)
{
	enum { N = 1000 };
	static struct matchstat_game	 g[2 * N];
	static double			 ps[N];
	struct matchstat_penta		 p, q;
	struct matchstat_game		 t;
	struct matchstat_wdl		 w = { 0, 0, 0 };
	struct matchstat_elo		 e;
	uint32_t			 x = 12345;
	size_t				 i, j, k, left, first;
	double				 mean = 0, var = 0, pts;

	(void)state;
	for (i = 0; i < 2 * N; i++) {
		g[i].start = i / 2;
		g[i].res = (enum matchstat_res)(lcg(&x) % 100 < 45 ? 2 :
		    lcg(&x) % 100 < 30 ? 1 : 0);
		assert_int_equal(matchstat_wdl_add(&w, g[i].res), 0);
	}
	for (i = 0; i < 2 * N; i++) {	/* shuffle */
		j = lcg(&x) % (2 * N);
		t = g[i];
		g[i] = g[j];
		g[j] = t;
	}
	assert_int_equal(matchstat_pairs(g, 2 * N, &p, &left), 0);
	assert_int_equal(left, 0);
	memset(&q, 0, sizeof q);
	for (k = 0; k < N; k++) {
		first = SIZE_MAX;
		for (i = 0; i < 2 * N; i++) {
			if (g[i].start != k)
				continue;
			if (first == SIZE_MAX) {
				first = i;
				continue;
			}
			pts = (g[first].res + g[i].res) / 4.0;
			ps[k] = pts;
			if (pts == 0.5 && g[i].res == MATCHSTAT_DRAW)
				q.dd++;
			else if (pts == 0.5)
				q.wl++;
			else
				*(pts == 0 ? &q.ll : pts == 0.25 ? &q.ld :
				    pts == 0.75 ? &q.wd : &q.ww) += 1;
		}
		mean += ps[k] / N;
	}
	assert_memory_equal(&p, &q, sizeof p);
	for (k = 0; k < N; k++)
		var += (ps[k] - mean) * (ps[k] - mean) / N;
	assert_int_equal(matchstat_elo_penta(&p, &e), 0);
	near(e.score, mean, 1e-12, "pair mean");
	near(e.variance, var, 1e-12, "pair variance");
	near(e.elo, -400 * log10(1 / mean - 1), 1e-9, "pair elo");
	near(e.elo_hi, -400 * log10(1 / (mean + 1.959963984540054 *
	    sqrt(var / N)) - 1), 1e-9, "pair elo hi");
	near(e.los, phi_simpson((mean - 0.5) / sqrt(var / N)), 1e-9,
	    "pair los");
	/* The same games as a trinomial sample. */
	assert_int_equal(matchstat_elo_wdl(&w, &e), 0);
	near(e.score * 2 * N, matchstat_wdl_points(&w), 1e-9, "wdl points");
	near(e.score, mean, 1e-12, "wdl mean = pair mean");
}

TU_MAIN("matchstat",
    cmocka_unit_test(test_fastchess_wdl),
    cmocka_unit_test(test_fastchess_penta),
    cmocka_unit_test(test_by_hand),
    cmocka_unit_test(test_degenerate),
    cmocka_unit_test(test_nelo_simulated),
    cmocka_unit_test(test_pairs_known),
    cmocka_unit_test(test_pairs_independent))
