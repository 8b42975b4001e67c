/*
 * solver-bench.c: the solver core's benchmark (`make bench`).  It prints
 * figures, never asserts them.  Every Wythoff-family time is given as a
 * ratio to one exact floor(n*phi) = (n + isqrt(5n^2)) div 2 on numbers of
 * the same size, measured in the same run, so the figures are comparable
 * across machines.
 *
 * usage: solver-bench [MAXDIGITS]   (default 1000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver/engine.h"

/* Returns monotonic time in seconds as a GMP-free pair (ns). */
static long long
bench_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

/* Prints a/b with two decimals, in integer arithmetic. */
static void
bench_ratio(long long a, long long b)
{
	long long	 r = b > 0 ? (a * 100 + b / 2) / b : 0;

	printf(" %7lld.%02lldx", r / 100, r % 100);
}

/* Prints nanoseconds as milliseconds with three decimals. */
static void
bench_ms(long long ns)
{
	printf(" %8lld.%03lldms", ns / 1000000, ns / 1000 % 1000);
}

/* Sets n to a random number of exactly d decimal digits. */
static void
bench_random(mpz_t n, gmp_randstate_t rs, unsigned long d)
{
	mpz_t	 lo;

	mpz_init(lo);
	mpz_ui_pow_ui(lo, 10, d - 1);
	mpz_mul_ui(n, lo, 9);
	mpz_urandomm(n, rs, n);
	mpz_add(n, n, lo);
	mpz_clear(lo);
}

/* Sets line to a Nim game of n random piles of d digits. */
static void
bench_nim_line(struct buf *line, gmp_randstate_t rs, size_t n,
    unsigned long d)
{
	mpz_t	 x;
	size_t	 i;

	mpz_init(x);
	buf_reset(line);
	buf_puts(line, "nim");
	for (i = 0; i < n; i++) {
		bench_random(x, rs, d);
		buf_putc(line, ' ');
		buf_mpz(line, x);
	}
	mpz_clear(x);
}

/* Returns the nanoseconds of one floor(n*phi), best of reps. */
static long long
bench_phi(const mpz_t n, int reps)
{
	long long	 t, best = -1;
	mpz_t		 s;
	int		 i;

	mpz_init(s);
	for (i = 0; i < reps; i++) {
		t = bench_now();
		mpz_mul(s, n, n);
		mpz_mul_ui(s, s, 5);
		mpz_sqrt(s, s);
		mpz_add(s, s, n);
		mpz_fdiv_q_2exp(s, s, 1);
		t = bench_now() - t;
		if (best < 0 || t < best)
			best = t;
	}
	mpz_clear(s);
	return (best);
}

/* Returns the nanoseconds of the full winning-move set of g, best of reps. */
static long long
bench_winning(const struct game *g, int reps, size_t *nmoves)
{
	struct game_moveset ms;
	struct game_error err;
	long long	 t, best = -1;
	int		 i;

	game_moveset_init(&ms);
	for (i = 0; i < reps; i++) {
		game_moveset_reset(&ms);
		t = bench_now();
		if (game_winning(g, &ms, &err) != 0) {
			fprintf(stderr, "solver-bench: %s\n", err.msg);
			exit(1);
		}
		t = bench_now() - t;
		if (best < 0 || t < best)
			best = t;
	}
	*nmoves = ms.n;
	game_moveset_clear(&ms);
	return (best);
}

/* Returns the nanoseconds of the outcome (P/N) of g, best of reps. */
static long long
bench_outcome(const struct game *g, int reps)
{
	struct game_error err;
	long long	 t, best = -1;
	int		 i;

	for (i = 0; i < reps; i++) {
		t = bench_now();
		game_outcome(g, &err);
		t = bench_now() - t;
		if (best < 0 || t < best)
			best = t;
	}
	return (best);
}

/*
 * Appends the piles x y to the game text in line, then prints a table row:
 * outcome and winning-move times as ratios to tphi.
 */
static void
bench_row(struct buf *line, const mpz_t x, const mpz_t y,
    const struct game_limits *lim, int reps, long long tphi,
    const char *label, unsigned long d)
{
	struct game_error err;
	struct game	 g;
	long long	 tout, twin;
	size_t		 nm;

	buf_mpz(line, x);
	buf_putc(line, ' ');
	buf_mpz(line, y);
	if (game_parse_line(&g, buf_str(line), lim, &err)) {
		fprintf(stderr, "solver-bench: %s\n", err.msg);
		exit(1);
	}
	tout = bench_outcome(&g, reps);
	twin = bench_winning(&g, reps, &nm);
	printf("%-20s %9lu", label, d);
	bench_ms(tphi);
	bench_ratio(tout, tphi);
	bench_ratio(twin, tphi);
	printf(" %6zu\n", nm);
	fflush(stdout);
	game_free(&g);
}

/* Returns the best time of parsing (and so valuing) a sum, in ns. */
static long long
bench_sum(const char *text, const struct game_limits *lim)
{
	struct game_error err;
	struct game	 g;
	long long	 t, best = -1;
	int		 i;

	for (i = 0; i < 5; i++) {
		t = bench_now();
		if (game_parse_line(&g, text, lim, &err) != 0) {
			fprintf(stderr, "solver-bench: %s\n", err.msg);
			exit(1);
		}
		t = bench_now() - t;
		game_free(&g);
		if (best < 0 || t < best)
			best = t;
	}
	return (best);
}

/*
 * Prints what saving a position for undo costs per move, in ns: a copy
 * (game_clone, and its free when it leaves the history) against the move
 * back in the history's ring (game_hist_push), for the engine's move.
 */
static void
bench_hist(const char *text, const struct game_limits *lim)
{
	enum { N = 1000 };
	static struct game copies[N];
	struct game_error err;
	struct game_hist h;
	struct game_move m;
	struct game	 g;
	enum engine_why	 why;
	long long	 t, tc = -1, th = -1;
	int		 r, i;

	if (game_parse_line(&g, text, lim, &err) != 0) {
		fprintf(stderr, "solver-bench: %s\n", err.msg);
		exit(1);
	}
	game_move_init(&m);
	if (engine_choose(&g, NULL, &m, &why, &err) != 0) {
		fprintf(stderr, "solver-bench: %s\n", err.msg);
		exit(1);
	}
	game_hist_init(&h);
	for (r = 0; r < 5; r++) {
		t = bench_now();
		for (i = 0; i < N; i++)
			game_clone(&copies[i], &g);
		for (i = 0; i < N; i++)
			game_free(&copies[i]);
		t = bench_now() - t;
		tc = tc < 0 || t < tc ? t : tc;
		game_hist_clear(&h);
		t = bench_now();
		for (i = 0; i < N; i++)
			game_hist_push(&h, N, &g, &m, 1);
		t = bench_now() - t;
		th = th < 0 || t < th ? t : th;
	}
	printf("Undo history, %.40s%s: per move, copy %lld ns, move back "
	    "%lld ns\n", text, strlen(text) > 40 ? "..." : "", tc / N, th / N);
	game_hist_free(&h);
	game_move_clear(&m);
	game_free(&g);
}

int
main(int argc, char **argv)
{
	const char	*fams[] = { "wythoff", "wythoff t=2", "wythoff t=7",
	    "wythoff K=3 t=5", "wythoff K=10 t=33" };
	struct game_limits lim;
	struct game_error err;
	struct game	 g;
	struct buf	 line;
	gmp_randstate_t	 rs;
	unsigned long	 maxd = 1000000, d;
	long long	 tphi, tout, twin, t;
	size_t		 f, nm, i;
	mpz_t		 x, y, tz;
	int		 reps;

	if (argc > 1)
		maxd = strtoul(argv[1], NULL, 10);
	game_limits_default(&lim);
	lim.max_digits = 2000000;
	lim.max_piles = 2000000;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 42);
	mpz_inits(x, y, tz, NULL);
	buf_init(&line);
	printf("Wythoff family: time / one floor(n*phi) at the same size "
	    "(best of several runs)\n");
	printf("%-20s %9s %14s %11s %11s %6s\n", "game", "digits",
	    "floor(n*phi)", "outcome", "winning", "moves");
	for (d = 1000; d <= maxd; d *= 10) {
		reps = d >= 1000000 ? 3 : d >= 100000 ? 5 : 20;
		bench_random(x, rs, d);
		tphi = bench_phi(x, reps);
		for (f = 0; f < sizeof fams / sizeof fams[0]; f++) {
			bench_random(x, rs, d);
			bench_random(y, rs, d);
			buf_reset(&line);
			buf_printf(&line, "%s ", fams[f]);
			bench_row(&line, x, y, &lim, reps, tphi, fams[f], d);
		}
	}

	/* t as long as a part of the piles: r = t, D = t^2 + 4. */
	printf("\nt-Wythoff with long t: time / one floor(n*phi) at the "
	    "piles' size\n");
	printf("%-20s %9s %14s %11s %11s %6s\n", "t digits", "digits",
	    "floor(n*phi)", "outcome", "winning", "moves");
	for (d = 1000; d <= maxd && d <= 100000; d *= 10) {
		static const unsigned long tdiv[] = { 100, 10, 3, 2, 0 };
		unsigned long td;
		char	 label[32];

		reps = d >= 100000 ? 5 : 20;
		bench_random(x, rs, d);
		tphi = bench_phi(x, reps);
		for (f = 0; f < sizeof tdiv / sizeof tdiv[0]; f++) {
			td = tdiv[f] != 0 ? d / tdiv[f] : d - 10;
			bench_random(x, rs, d);
			bench_random(y, rs, d);
			buf_reset(&line);
			buf_puts(&line, "wythoff t=");
			bench_random(tz, rs, td);
			buf_mpz(&line, tz);
			buf_putc(&line, ' ');
			snprintf(label, sizeof label, "%lu", td);
			bench_row(&line, x, y, &lim, reps, tphi, label, d);
		}
	}

	/* A sum of 64 t-Wythoff components of one t, piles below 600. */
	buf_reset(&line);
	buf_puts(&line, "sum");
	for (i = 0; i < 64; i++) {
		buf_printf(&line, "%s wythoff t=3 %lu %lu", i ? " +" : "",
		    gmp_urandomm_ui(rs, 201), gmp_urandomm_ui(rs, 201));
	}
	t = bench_sum(buf_str(&line), &lim);
	tout = bench_sum("sum wythoff t=3 200 200", &lim);
	printf("\nSum of 64 t-Wythoff components (t=3, piles <= 200), parse "
	    "with every Grundy value:");
	bench_ms(t);
	printf("\n  one component at 200 200 (one table):");
	bench_ms(tout);
	printf("\n  ratio");
	bench_ratio(t, tout);
	printf("\n");

	/* 64 components of six parameters reducing to three r = ceil(t/K). */
	buf_reset(&line);
	buf_puts(&line, "sum");
	for (i = 0; i < 64; i++) {
		static const char *const par[] = { "t=2", "t=3", "K=2 t=4",
		    "K=3 t=9", "t=4", "K=2 t=7" };
		unsigned long k = i % 6 == 2 || i % 6 == 5 ? 2 :
		    i % 6 == 3 ? 3 : 1;

		buf_printf(&line, "%s wythoff %s %lu %lu", i ? " +" : "",
		    par[i % 6], k * gmp_urandomm_ui(rs, 201),
		    k * gmp_urandomm_ui(rs, 201));
	}
	t = bench_sum(buf_str(&line), &lim);
	printf("Sum of 64 components, six parameters, three r (2, 3, 4; "
	    "quotients <= 200):");
	bench_ms(t);
	printf("\n  ratio to one component at 200 200");
	bench_ratio(t, tout);
	printf("\n");

	/* The undo history: saving a position, as a copy or as the move back. */
	bench_hist("nim 5 17 44", &lim);
	bench_nim_line(&line, rs, 1000, 20);
	bench_hist(buf_str(&line), &lim);
	bench_hist("wythoff t=3 123456789012345678901234567890 "
	    "98765432109876543210987654321", &lim);

	/* Nim: 10^5 piles of 100 digits. */
	bench_nim_line(&line, rs, 100000, 100);
	t = bench_now();
	if (game_parse_line(&g, buf_str(&line), &lim, &err) != 0) {
		fprintf(stderr, "solver-bench: %s\n", err.msg);
		return (1);
	}
	t = bench_now() - t;
	tout = bench_outcome(&g, 5);
	twin = bench_winning(&g, 5, &nm);
	bench_random(x, rs, 100);
	tphi = bench_phi(x, 50);
	printf("\nNim, 100000 piles of 100 digits (%zu winning moves):\n",
	    nm);
	printf("  parse");
	bench_ms(t);
	printf("\n  outcome");
	bench_ms(tout);
	bench_ratio(tout, tphi);
	printf(" of one 100-digit floor(n*phi)\n  winning");
	bench_ms(twin);
	bench_ratio(twin, tphi);
	printf(" of one 100-digit floor(n*phi)\n");
	game_free(&g);
	buf_free(&line);
	mpz_clears(x, y, tz, NULL);
	gmp_randclear(rs);
	return (0);
}
