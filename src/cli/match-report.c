/*
 * match-report.c: what `grundy match` prints (match.h): a progress line
 * on stderr every --report-every game pairs and at the end, and the final
 * report on stdout: per pairing the games, the pentanomial in fastchess's
 * five buckets, Elo and nElo with their 95% intervals, LOS, draw and
 * pair ratios and the results by seat; then a table of the engines whose
 * columns are listed in engine_cols (one entry per column: add one there
 * to report more).  doc/grundy.1 shows the report, doc/STATS.md defines
 * its figures.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/match.h"

/*
 * The Elo estimate of a pairing: from its pairs (pentanomial) when it
 * has any, else from its games.  Returns 0, or -1 with no games.
 */
static int
match_elo(const struct matchstat_wdl *w, const struct matchstat_penta *p,
    struct matchstat_elo *e)
{
	if (matchstat_penta_pairs(p) > 0)
		return (matchstat_elo_penta(p, e));
	if (matchstat_wdl_games(w) > 0)
		return (matchstat_elo_wdl(w, e));
	return (-1);
}

/* The SPRT's LLR on pairing 0 (runs of two engines); also match-out.c's. */
double
match_llr(const struct match *m)
{
	double	 llr = 0;

	if (sprt_llr_penta(&m->sprt, &m->tally[0].penta, &llr) != 0)
		llr = 0;
	return (llr);
}

/* Writes an Elo figure: a number, or "+inf"/"-inf". */
static void
elo_text(char *tmp, size_t len, double v)
{
	if (isinf(v))
		snprintf(tmp, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(tmp, len, "%.1f", v);
}

/* Writes a ratio a/b: "inf" when only b is 0, "-" when both are. */
static void
ratio_text(char *tmp, size_t len, uint64_t a, uint64_t b)
{
	if (b > 0)
		snprintf(tmp, len, "%.2f", (double)a / (double)b);
	else
		snprintf(tmp, len, "%s", a > 0 ? "inf" : "-");
}

/* A share in percent, or 0 of nothing. */
static double
pct(uint64_t a, uint64_t n)
{
	return (n > 0 ? 100.0 * (double)a / (double)n : 0);
}

/*
 * The progress line on stderr: games, W-L-D, Elo and nElo with their
 * +-, the pentanomial and the LLR.  A progress point is each complete
 * pair (or game without a mate); the line is printed at every
 * --report-every-th point, and at the end (final) if points were left
 * unprinted.
 */
void
match_progress(struct match *m, int final)
{
	const struct match_tally *t = &m->tally[0];
	const struct matchstat_penta *p = &t->penta;
	struct matchstat_elo e;
	char		 elo[32];

	if (m->quiet)
		return;
	if (!final) {
		m->unreported++;
		if (m->report_every == 0 || m->unreported < m->report_every)
			return;
	} else if (m->unreported == 0)
		return;
	m->unreported = 0;
	fprintf(stderr, "match: games %zu/%zu", m->ndone, m->ngames);
	if (m->neng == 2) {
		fprintf(stderr, "  %s-%s %llu-%llu-%llu", m->eng[0].name,
		    m->eng[1].name, (unsigned long long)t->wdl.wins,
		    (unsigned long long)t->wdl.losses,
		    (unsigned long long)t->wdl.draws);
		if (match_elo(&t->wdl, p, &e) == 0) {
			elo_text(elo, sizeof elo, e.elo);
			fprintf(stderr, "  score %.1f%%  Elo %s +/- %.1f",
			    100 * e.score, elo, e.elo_err);
			elo_text(elo, sizeof elo, e.nelo);
			fprintf(stderr, "  nElo %s +/- %.1f", elo, e.nelo_err);
		}
		fprintf(stderr, "  ptnml [%llu %llu %llu %llu %llu]",
		    (unsigned long long)p->ll, (unsigned long long)p->ld,
		    (unsigned long long)(p->wl + p->dd),
		    (unsigned long long)p->wd, (unsigned long long)p->ww);
		if (m->has_sprt)
			fprintf(stderr, "  LLR %.2f [%.2f, %.2f]", match_llr(m),
			    m->sprt.lower, m->sprt.upper);
	}
	fputc('\n', stderr);
}

/*
 * The estimate lines of a pairing: Elo and nElo with their intervals and
 * LOS.  A sample of no spread has no interval: "a sweep" when every game
 * was won (or lost), else "no spread" (every pair, or game, scored the
 * same, as when every pair was drawn or won once each way).
 */
static void
report_estimate(const struct match_tally *t)
{
	struct matchstat_elo e;
	char		 v[32], lo[32], hi[32];
	const char	*unit;

	if (match_elo(&t->wdl, &t->penta, &e) != 0)
		return;
	elo_text(v, sizeof v, e.elo);
	if (e.degenerate) {
		unit = matchstat_penta_pairs(&t->penta) > 0 ? "pair" : "game";
		if (e.score == 0 || e.score == 1)
			printf("  Elo %s: a sweep, LOS %.1f%%\n", v,
			    100 * e.los);
		else
			printf("  Elo %s, nElo %s: no spread (every %s scored "
			    "%g), no interval, LOS %.1f%%\n", v, e.nelo == 0 ?
			    "0.0" : e.nelo > 0 ? "+inf" : "-inf", unit,
			    e.score, 100 * e.los);
		return;
	}
	elo_text(lo, sizeof lo, e.elo_lo);
	elo_text(hi, sizeof hi, e.elo_hi);
	printf("  Elo %s +/- %.1f (95%%: %s to %s), LOS %.1f%%\n", v,
	    e.elo_err, lo, hi, 100 * e.los);
	printf("  nElo %.1f +/- %.1f (95%%: %.1f to %.1f)\n", e.nelo,
	    e.nelo_err, e.nelo - e.nelo_err, e.nelo + e.nelo_err);
}

/* One pairing's section of the final report. */
static void
report_pairing(const struct match *m, size_t k)
{
	const struct match_tally *t = &m->tally[k];
	const struct matchstat_penta *p = &t->penta;
	const struct matchstat_wdl *w = &t->wdl, *st;
	uint64_t	 n = matchstat_wdl_games(w), np;
	char		 pr[32], wd[32];
	size_t		 a, b, i;

	match_pairing(m, k, &a, &b);
	np = matchstat_penta_pairs(p);
	printf("%s vs %s: games %llu, W-L-D %llu-%llu-%llu, points %.1f "
	    "(%.1f%%)\n", m->eng[a].name, m->eng[b].name,
	    (unsigned long long)n, (unsigned long long)w->wins,
	    (unsigned long long)w->losses, (unsigned long long)w->draws,
	    matchstat_wdl_points(w), n > 0 ?
	    100 * matchstat_wdl_points(w) / (double)n : 0);
	printf("  Ptnml(0-2) [LL LD WL+DD WD WW]: [%llu %llu %llu %llu %llu]"
	    " (WL %llu, DD %llu), %zu unpaired\n",
	    (unsigned long long)p->ll, (unsigned long long)p->ld,
	    (unsigned long long)(p->wl + p->dd), (unsigned long long)p->wd,
	    (unsigned long long)p->ww, (unsigned long long)p->wl,
	    (unsigned long long)p->dd, t->unpaired);
	report_estimate(t);
	ratio_text(pr, sizeof pr, p->ww + p->wd, p->ll + p->ld);
	ratio_text(wd, sizeof wd, p->wl, p->dd);
	printf("  draw ratio %.1f%% of games, %.1f%% of pairs drawn (DD); "
	    "pairs ratio %s, WL/DD %s\n", pct(w->draws, n), pct(p->dd, np),
	    pr, wd);
	for (i = 0; i < 2; i++) {
		st = &t->seat[i];
		printf("  %s %s: games %llu, W-L-D %llu-%llu-%llu, points "
		    "%.1f%%\n", m->eng[a].name, i == 0 ? "first" : "second",
		    (unsigned long long)matchstat_wdl_games(st),
		    (unsigned long long)st->wins,
		    (unsigned long long)st->losses,
		    (unsigned long long)st->draws, matchstat_wdl_games(st) >
		    0 ? 100 * matchstat_wdl_points(st) /
		    (double)matchstat_wdl_games(st) : 0);
	}
	if (m->has_sprt && k == 0)
		printf("  SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f "
		    "[%.2f, %.2f], %s\n", m->sprt.elo0, m->sprt.elo1,
		    m->sprt.alpha, m->sprt.beta, match_llr(m), m->sprt.lower,
		    m->sprt.upper, m->verdict == SPRT_H1 ? "H1 accepted" :
		    m->verdict == SPRT_H0 ? "H0 accepted" : "no verdict");
}

/* A cell of the engines' table: engine e's figure in tmp. */
typedef void	 engine_cell(const struct match_engine *, char *, size_t);

/* Mean clock time per move in milliseconds, "-" with no timed move. */
static void
cell_ms_move(const struct match_engine *e, char *tmp, size_t len)
{
	if (e->timed_moves == 0)
		snprintf(tmp, len, "-");
	else
		snprintf(tmp, len, "%.3f", (double)e->think_us / 1000.0 /
		    (double)e->timed_moves);
}

/* Mean wall time per measured move (ms), "-" where none was measured. */
static void
cell_wall_move(const struct match_engine *e, char *tmp, size_t len)
{
	if (e->cost_moves == 0)
		snprintf(tmp, len, "-");
	else
		snprintf(tmp, len, "%.3f", (double)e->wall_us / 1000.0 /
		    (double)e->cost_moves);
}

/* Mean CPU time per measured move (ms), "-" where none was measured. */
static void
cell_cpu_move(const struct match_engine *e, char *tmp, size_t len)
{
	if (e->cpu_moves == 0)
		snprintf(tmp, len, "-");
	else
		snprintf(tmp, len, "%.3f", (double)e->cpu_us / 1000.0 /
		    (double)e->cpu_moves);
}

/* Peak memory of one of its processes (MiB), "-" where not measured. */
static void
cell_peak(const struct match_engine *e, char *tmp, size_t len)
{
	if (e->peak_bytes == 0)
		snprintf(tmp, len, "-");
	else
		snprintf(tmp, len, "%.1f", (double)e->peak_bytes / 1048576.0);
}

/*
 * The columns of the engines' table, in order: a counter of struct
 * match_engine (its offset), or a figure computed by cell.
 */
#define COUNTER(h, f)	{ h, offsetof(struct match_engine, f), NULL }
static const struct engine_col {
	const char	*head;
	size_t		 off;
	engine_cell	*cell;
} engine_cols[] = {
	COUNTER("crashes", crashes),
	COUNTER("timeouts", timeouts),
	COUNTER("illegal", illegal),
	COUNTER("slow", slow_starts),
	COUNTER("starts", starts),
	COUNTER("limits", limits),
	COUNTER("moves", timed_moves),
	{ "ms/move", 0, cell_ms_move },
	COUNTER("measured", cost_moves),
	{ "wall/move", 0, cell_wall_move },
	{ "cpu/move", 0, cell_cpu_move },
	{ "peak-mem", 0, cell_peak },
};
#undef COUNTER

/* The final report on stdout: every pairing, then every engine. */
void
match_table(const struct match *m, int interrupted)
{
	char		 tmp[32];
	size_t		 k, c;

	printf("%s after %zu of %zu games%s\n", interrupted ?
	    "Interrupted" : "Results", m->ndone, m->ngames,
	    m->verdict != SPRT_CONTINUE ? " (stopped by the SPRT)" : "");
	for (k = 0; k < m->npairings; k++)
		report_pairing(m, k);
	printf("%-16s", "engine");
	for (c = 0; c < nitems(engine_cols); c++)
		printf(" %9s", engine_cols[c].head);
	putchar('\n');
	for (k = 0; k < m->neng; k++) {
		printf("%-16s", m->eng[k].name);
		for (c = 0; c < nitems(engine_cols); c++) {
			if (engine_cols[c].cell != NULL)
				engine_cols[c].cell(&m->eng[k], tmp,
				    sizeof tmp);
			else
				snprintf(tmp, sizeof tmp, "%llu",
				    (unsigned long long)*(const uint64_t *)
				    (const void *)((const char *)&m->eng[k] +
				    engine_cols[c].off));
			printf(" %9s", tmp);
		}
		putchar('\n');
	}
	fflush(stdout);
}
