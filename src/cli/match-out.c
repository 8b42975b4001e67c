/*
 * match-out.c: the results of `grundy match` (match.h): statistics per
 * pairing from the games played (matchstat.c, sprt.c), the output file
 * (JSON, written atomically after every game pair), resuming from it, the
 * final table on stdout, the progress line on stderr, and the record of
 * each game (--records).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/json.h"
#include "stats/json-stat.h"
#include "lib/jsonread.h"
#include "cli/match.h"
#include "record/record.h"
#include "lib/util.h"

/* Every reason a game of grundy match can end with. */
static const char *const match_reasons[] = {
	"no-legal-move", "last-token-taken", "resign", "timeout",
	"illegal-move", "adjudicated", "crash", "start-timeout",
	"memory-limit", "process-limit", "forbidden-syscall", "output-limit",
};

/* Returns the static text of a known reason, or NULL. */
static const char *
match_reason(const char *r)
{
	size_t	 i;

	for (i = 0; i < nitems(match_reasons); i++)
		if (strcmp(match_reasons[i], r) == 0)
			return (match_reasons[i]);
	return (NULL);
}

/* Game gi's result from the point of view of engine a. */
static enum matchstat_res
match_res_for(const struct match *m, size_t gi, size_t a)
{
	const struct match_result *r = &m->res[gi];
	size_t		 s1, s2;

	match_seats(m, gi, &s1, &s2);
	if (r->winner == 0)
		return (MATCHSTAT_DRAW);
	return ((r->winner == 1 ? s1 : s2) == a ? MATCHSTAT_WIN :
	    MATCHSTAT_LOSS);
}

/* Appends game gi, just counted, to the JSON list of the games played. */
static void
match_game_json(struct match *m, size_t gi)
{
	const struct match_result *r = &m->res[gi];
	struct json	 j;
	size_t		 s1, s2;

	match_seats(m, gi, &s1, &s2);
	if (m->gjson.len > 0)
		buf_putc(&m->gjson, ',');
	json_init(&j, &m->gjson);
	json_obj(&j);
	json_kuint(&j, "game", gi);
	json_kuint(&j, "pair", gi / 2);
	json_kstr(&j, "start", r->start);
	json_kstr(&j, "first", m->eng[s1].name);
	json_kstr(&j, "second", m->eng[s2].name);
	json_kstr(&j, "result", r->winner == 1 ? "first" :
	    r->winner == 2 ? "second" : "draw");
	json_kstr(&j, "reason", r->reason);
	if (r->detail != NULL)
		json_kstr(&j, "detail", r->detail);
	json_kuint(&j, "plies", r->plies);
	json_kuint(&j, "ms", r->ms);
	json_end_obj(&j);
}

/*
 * Counts game gi, just played (or read back by --resume), into its
 * pairing's tally: its result, and its pair once both games are in.
 */
static void
match_count(struct match *m, size_t gi)
{
	size_t		 a, b, k = (gi / 2) % m->npairings, g1 = gi & ~(size_t)1;
	struct match_tally *t = &m->tally[k];

	match_pairing(m, k, &a, &b);
	match_game_json(m, gi);
	matchstat_wdl_add(&t->wdl, match_res_for(m, gi, a));
	if ((gi ^ 1) < m->ngames && m->res[gi ^ 1].done) {
		matchstat_penta_add(&t->penta, match_res_for(m, g1, a),
		    match_res_for(m, g1 + 1, a));
		t->unpaired--;
	} else
		t->unpaired++;
}

/* The counts of pairing k from its first engine's point of view. */
static void
match_pair_stats(const struct match *m, size_t k, struct matchstat_wdl *w,
    struct matchstat_penta *p, size_t *unpaired)
{
	*w = m->tally[k].wdl;
	*p = m->tally[k].penta;
	*unpaired = m->tally[k].unpaired;
}

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

/* Writes an Elo figure: a number, or "+inf"/"-inf". */
static void
match_elo_text(char *tmp, size_t len, double v)
{
	if (isinf(v))
		snprintf(tmp, len, "%sinf", v > 0 ? "+" : "-");
	else
		snprintf(tmp, len, "%.1f", v);
}

/* The SPRT's LLR on pairing 0 (runs of two engines). */
static double
match_llr(const struct match *m)
{
	struct matchstat_wdl w;
	struct matchstat_penta p;
	size_t		 u;
	double		 llr = 0;

	match_pair_stats(m, 0, &w, &p, &u);
	if (sprt_llr_penta(&m->sprt, &p, &llr) != 0)
		llr = 0;
	return (llr);
}

/* The progress line on stderr: games, score, Elo +- and LLR. */
static void
match_progress(const struct match *m)
{
	struct matchstat_wdl w;
	struct matchstat_penta p;
	struct matchstat_elo e;
	char		 elo[32];
	size_t		 u;

	if (m->quiet)
		return;
	fprintf(stderr, "match: games %zu/%zu", m->ndone, m->ngames);
	if (m->neng == 2) {
		match_pair_stats(m, 0, &w, &p, &u);
		fprintf(stderr, "  %s-%s %llu-%llu-%llu", m->eng[0].name,
		    m->eng[1].name, (unsigned long long)w.wins,
		    (unsigned long long)w.losses, (unsigned long long)w.draws);
		if (match_elo(&w, &p, &e) == 0) {
			match_elo_text(elo, sizeof elo, e.elo);
			fprintf(stderr, "  score %.1f%%  Elo %s +/- %.1f",
			    100 * e.score, elo, e.elo_err);
		}
		if (m->has_sprt)
			fprintf(stderr, "  LLR %.2f [%.2f, %.2f]", match_llr(m),
			    m->sprt.lower, m->sprt.upper);
	}
	fputc('\n', stderr);
}

/*
 * After game gi ended: when its pair is complete (or it has no mate),
 * the SPRT is evaluated (it may stop the run), the output file written
 * and the progress line printed.
 */
void
match_after_game(struct match *m, size_t gi)
{
	size_t	 mate = gi ^ 1;
	enum sprt_verdict v;

	match_count(m, gi);
	if (mate < m->ngames && !m->res[mate].done)
		return;
	if (m->has_sprt && !m->stop) {
		v = sprt_verdict(&m->sprt, match_llr(m));
		if (v != SPRT_CONTINUE) {
			m->stop = 1;
			m->verdict = v;
			m->verdict_pairs = (m->ndone + 1) / 2;
		}
	}
	if (m->out != NULL)
		match_write_out(m, 0);
	match_progress(m);
}

/* A number, or null when it is not finite (an Elo of a clean sweep). */
static void
match_knum(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (isfinite(v))
		json_num4(j, v);
	else
		json_null(j);
}

/*
 * The statistics of pairing k as a JSON object: the results JSON's members
 * (json_stat_pair), then points and the SPRT's state.
 */
static void
match_json_pair(const struct match *m, struct json *j, size_t k)
{
	struct matchstat_wdl w;
	struct matchstat_penta p;
	size_t		 a, b, u;

	match_pairing(m, k, &a, &b);
	match_pair_stats(m, k, &w, &p, &u);
	json_obj(j);
	json_stat_pair(j, m->eng[a].name, m->eng[b].name, &w, &p, u);
	match_knum(j, "points", matchstat_wdl_points(&w));
	if (m->has_sprt && k == 0) {
		json_key(j, "sprt");
		json_obj(j);
		match_knum(j, "elo0", m->sprt.elo0);
		match_knum(j, "elo1", m->sprt.elo1);
		match_knum(j, "alpha", m->sprt.alpha);
		match_knum(j, "beta", m->sprt.beta);
		json_kstr(j, "model", m->sprt.model == SPRT_LOGISTIC ?
		    "logistic" : "normalized");
		match_knum(j, "llr", match_llr(m));
		match_knum(j, "lower", m->sprt.lower);
		match_knum(j, "upper", m->sprt.upper);
		json_kstr(j, "verdict", sprt_verdict_name(m->verdict));
		json_kuint(j, "verdict_pairs", m->verdict_pairs);
		json_end_obj(j);
	}
	json_end_obj(j);
}

/* The run's time control: BASE[+INC], then " clock=cpu" if so. */
static void
match_tc_text(const struct match *m, struct buf *b)
{
	proto_tc_print(b, m->base_ms, m->inc_ms);
	if (m->cpu_clock)
		buf_puts(b, " " RECORD_CLOCK_CPU);
}

/* The run's settings, which --resume checks. */
static void
match_json_config(const struct match *m, struct json *j)
{
	struct buf	 tc;
	size_t		 i;

	buf_init(&tc);
	match_tc_text(m, &tc);
	json_key(j, "config");
	json_obj(j);
	json_kstr(j, "game", m->game_spec);
	json_kbool(j, "random_starts", m->random_starts);
	json_kuint(j, "seed", m->seed);
	json_kuint(j, "games", m->ngames);
	json_kstr(j, "tc", buf_str(&tc));
	json_kint_if(j, "adjudicate", m->adjudicate >= 0, m->adjudicate);
	json_key(j, "engines");
	json_arr(j);
	for (i = 0; i < m->neng; i++)
		json_str(j, m->eng[i].name);
	json_end_arr(j);
	json_end_obj(j);
	buf_free(&tc);
}

/* Every engine's counters, and every game played. */
static void
match_json_games(const struct match *m, struct json *j)
{
	const struct match_engine *e;
	size_t		 i;

	json_key(j, "engines");
	json_arr(j);
	for (i = 0; i < m->neng; i++) {
		e = &m->eng[i];
		json_obj(j);
		json_kstr(j, "name", e->name);
		json_kuint(j, "crashes", e->crashes);
		json_kuint(j, "timeouts", e->timeouts);
		json_kuint(j, "illegal", e->illegal);
		json_kuint(j, "slow_starts", e->slow_starts);
		json_kuint(j, "starts", e->starts);
		json_kuint(j, "limits", e->limits);
		json_kuint(j, "moves_measured", e->cost_moves);
		json_kuint_if(j, "wall_us_per_move", e->cost_moves > 0,
		    e->cost_moves > 0 ? e->wall_us / e->cost_moves : 0);
		json_kuint_if(j, "cpu_us_per_move", e->cpu_moves > 0,
		    e->cpu_moves > 0 ? e->cpu_us / e->cpu_moves : 0);
		json_kuint_if(j, "peak_bytes", e->peak_bytes > 0,
		    e->peak_bytes);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "games");
	json_raw(j, "[", 1);
	buf_add(j->b, m->gjson.data != NULL ? m->gjson.data : "",
	    m->gjson.len);
	buf_putc(j->b, ']');
}

/*
 * Writes the output file: a snapshot made here, written atomically by the
 * writer thread (a temporary file, fsync, rename, fsync of the directory):
 * a reader, or --resume after a crash, sees the previous complete file or
 * the new one.  final waits for it.  Returns 0, or -1 with errno (final).
 */
int
match_write_out(const struct match *m, int final)
{
	struct buf	 b;
	struct json	 j;
	size_t		 k;

	buf_init(&b);
	json_init(&j, &b);
	json_obj(&j);
	json_kint(&j, "version", 2);
	match_json_config(m, &j);
	json_kbool(&j, "finished", final && (m->ndone == m->ngames ||
	    m->verdict != SPRT_CONTINUE));
	json_kuint(&j, "played", m->ndone);
	json_key(&j, "pairings");
	json_arr(&j);
	for (k = 0; k < m->npairings; k++)
		match_json_pair(m, &j, k);
	json_end_arr(&j);
	match_json_games(m, &j);
	json_end_obj(&j);
	buf_putc(&b, '\n');
	match_writer_put((struct match *)m, m->out, &b, 1);
	buf_free(&b);
	return (final ? match_writer_flush((struct match *)m) : 0);
}

/* Checks the settings of a results file against this run's. */
static int
match_load_config(struct match *m, const struct jsonr *cfg,
    char *why, size_t len)
{
	const struct jsonr *en = jsonr_get(cfg, "engines"), *v;
	unsigned long long u, seed = 0;
	struct buf	 tc;
	size_t		 i;
	int		 same;

	buf_init(&tc);
	match_tc_text(m, &tc);
	v = jsonr_get(cfg, "random_starts");
	same = jsonr_str(cfg, "tc") != NULL &&
	    strcmp(jsonr_str(cfg, "tc"), buf_str(&tc)) == 0;
	buf_free(&tc);
	if (jsonr_str(cfg, "game") == NULL ||
	    strcmp(jsonr_str(cfg, "game"), m->game_spec) != 0)
		snprintf(why, len, "another game");
	else if (v == NULL || v->type != JSONR_BOOL || v->b != m->random_starts)
		snprintf(why, len, "another --random-starts");
	else if (jsonr_uint(cfg, "seed", &seed) != 0 ||
	    (m->seed_given && seed != m->seed))
		snprintf(why, len, "another --seed (it has %llu)", seed);
	else if (jsonr_uint(cfg, "games", &u) != 0 || u != m->ngames)
		snprintf(why, len, "another --games (it has %llu)", u);
	else if (!same)
		snprintf(why, len, "another --tc");
	else if (en == NULL || en->type != JSONR_ARR || en->n != m->neng)
		snprintf(why, len, "other engines");
	else {
		for (i = 0; i < m->neng; i++)
			if (en->items[i].type != JSONR_STR ||
			    strcmp(en->items[i].str, m->eng[i].name) != 0)
				break;
		if (i == m->neng) {
			m->seed = seed;	/* without --seed: the file's */
			return (0);
		}
		snprintf(why, len, "other engines");
	}
	return (-1);
}

/* Takes one game of a results file.  Returns 0, or -1 (why says). */
static int
match_load_game(struct match *m, const struct jsonr *g, char *why,
    size_t len)
{
	unsigned long long gi, plies, ms;
	const char	*res = jsonr_str(g, "result"), *start;
	const char	*reason = jsonr_str(g, "reason");
	struct match_result *r;

	start = jsonr_str(g, "start");
	if (jsonr_uint(g, "game", &gi) != 0 || gi >= m->ngames ||
	    jsonr_uint(g, "plies", &plies) != 0 ||
	    jsonr_uint(g, "ms", &ms) != 0 || res == NULL || start == NULL ||
	    reason == NULL || match_reason(reason) == NULL ||
	    (strcmp(res, "first") != 0 && strcmp(res, "second") != 0 &&
	    strcmp(res, "draw") != 0)) {
		snprintf(why, len, "a game that is not one of this run");
		return (-1);
	}
	r = &m->res[gi];
	if (r->done) {
		snprintf(why, len, "game %llu twice", gi);
		return (-1);
	}
	r->done = 1;
	r->start = xstrdup(start);
	r->winner = strcmp(res, "first") == 0 ? 1 :
	    strcmp(res, "second") == 0 ? 2 : 0;
	r->reason = match_reason(reason);
	r->detail = jsonr_str(g, "detail") != NULL ?
	    xstrdup(jsonr_str(g, "detail")) : NULL;
	r->plies = (unsigned long)plies;
	r->ms = ms;
	m->ndone++;
	match_count(m, gi);
	return (0);
}

/* Reads up to MATCH_FILE_MAX bytes of a file.  Returns 0, or -1. */
int
match_read_file(const char *path, struct buf *b, char *why, size_t len)
{
	char	 chunk[65536];
	ssize_t	 n;
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(why, len, "%s", strerror(errno));
		return (-1);
	}
	while ((n = read(fd, chunk, sizeof chunk)) > 0) {
		if (b->len + (size_t)n > MATCH_FILE_MAX) {
			close(fd);
			snprintf(why, len, "over %d bytes", MATCH_FILE_MAX);
			return (-1);
		}
		buf_add(b, chunk, (size_t)n);
	}
	close(fd);
	if (n < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return (-1);
	}
	return (0);
}

/*
 * --resume: takes the games already played from the output file, which
 * must be of a run with the same settings.  A missing file starts afresh.
 * Returns 0, or -1 with a message on stderr.
 */
int
match_load(struct match *m)
{
	struct jsonr	 root;
	const struct jsonr *games;
	struct buf	 b;
	char		 why[160];
	enum sprt_verdict v;
	size_t		 i;
	int		 rv = -1;

	buf_init(&b);
	if (access(m->out, F_OK) != 0 && errno == ENOENT) {
		buf_free(&b);
		return (0);
	}
	if (match_read_file(m->out, &b, why, sizeof why) != 0 ||
	    jsonr_parse(b.data != NULL ? b.data : "", b.len, &root, why,
	    sizeof why) != 0) {
		fprintf(stderr, "grundy match: --resume %s: %s\n", m->out, why);
		buf_free(&b);
		return (-1);
	}
	buf_free(&b);
	games = jsonr_get(&root, "games");
	if (match_load_config(m, jsonr_get(&root, "config"), why,
	    sizeof why) != 0)
		goto out;
	snprintf(why, sizeof why, "no list of games");
	if (games == NULL || games->type != JSONR_ARR)
		goto out;
	for (i = 0; i < games->n; i++)
		if (match_load_game(m, &games->items[i], why, sizeof why) != 0)
			goto out;
	/* A run the SPRT had stopped stays stopped. */
	if (m->has_sprt && (v = sprt_verdict(&m->sprt, match_llr(m))) !=
	    SPRT_CONTINUE) {
		m->stop = 1;
		m->verdict = v;
		m->verdict_pairs = m->ndone / 2;
	}
	rv = 0;
out:
	if (rv != 0)
		fprintf(stderr, "grundy match: --resume %s: %s\n", m->out, why);
	jsonr_free(&root);
	return (rv);
}

/*
 * Prints what an engine's moves cost in this run: moves measured, mean
 * wall and CPU time per move (ms), peak memory of a process (MiB); "-"
 * where nothing was measured.
 */
static void
match_cost_row(const struct match_engine *e)
{
	char	 wall[32] = "-", cpu[32] = "-", peak[32] = "-";

	if (e->cost_moves > 0)
		snprintf(wall, sizeof wall, "%.3f ms", (double)e->wall_us /
		    (double)e->cost_moves / 1000);
	if (e->cpu_moves > 0)
		snprintf(cpu, sizeof cpu, "%.3f ms", (double)e->cpu_us /
		    (double)e->cpu_moves / 1000);
	if (e->peak_bytes > 0)
		snprintf(peak, sizeof peak, "%.1f MiB", (double)e->peak_bytes /
		    1048576);
	printf("%-16s %8llu %12s %12s %10s\n", e->name,
	    (unsigned long long)e->cost_moves, wall, cpu, peak);
}

/* The final table on stdout: every pairing, then every engine. */
void
match_table(const struct match *m, int interrupted)
{
	struct matchstat_wdl w;
	struct matchstat_penta p;
	struct matchstat_elo e;
	const struct match_engine *en;
	char		 elo[32], lo[32], hi[32];
	size_t		 k, a, b, u;

	printf("%s after %zu of %zu games%s\n", interrupted ?
	    "Interrupted" : "Results", m->ndone, m->ngames,
	    m->verdict != SPRT_CONTINUE ? " (stopped by the SPRT)" : "");
	for (k = 0; k < m->npairings; k++) {
		match_pairing(m, k, &a, &b);
		match_pair_stats(m, k, &w, &p, &u);
		printf("%s vs %s: games %llu, W-L-D %llu-%llu-%llu, points "
		    "%.1f\n", m->eng[a].name, m->eng[b].name,
		    (unsigned long long)matchstat_wdl_games(&w),
		    (unsigned long long)w.wins, (unsigned long long)w.losses,
		    (unsigned long long)w.draws, matchstat_wdl_points(&w));
		printf("  pentanomial [LL LD WL DD WD WW]: [%llu %llu %llu "
		    "%llu %llu %llu], %zu unpaired\n",
		    (unsigned long long)p.ll, (unsigned long long)p.ld,
		    (unsigned long long)p.wl, (unsigned long long)p.dd,
		    (unsigned long long)p.wd, (unsigned long long)p.ww, u);
		if (match_elo(&w, &p, &e) == 0) {
			match_elo_text(elo, sizeof elo, e.elo);
			match_elo_text(lo, sizeof lo, e.elo_lo);
			match_elo_text(hi, sizeof hi, e.elo_hi);
			printf("  Elo %s +/- %.1f (95%%: %s to %s), LOS %.1f%%"
			    "%s\n", elo, e.elo_err, lo, hi, 100 * e.los,
			    e.degenerate ? " (a sweep)" : "");
		}
		if (m->has_sprt && k == 0)
			printf("  SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR "
			    "%.2f [%.2f, %.2f], %s\n", m->sprt.elo0,
			    m->sprt.elo1, m->sprt.alpha, m->sprt.beta,
			    match_llr(m), m->sprt.lower, m->sprt.upper,
			    m->verdict == SPRT_H1 ? "H1 accepted" :
			    m->verdict == SPRT_H0 ? "H0 accepted" :
			    "no verdict");
	}
	printf("%-16s %8s %8s %8s %8s %8s %8s\n", "engine", "crashes",
	    "timeouts", "illegal", "slow", "starts", "limits");
	for (k = 0; k < m->neng; k++) {
		en = &m->eng[k];
		printf("%-16s %8llu %8llu %8llu %8llu %8llu %8llu\n", en->name,
		    (unsigned long long)en->crashes,
		    (unsigned long long)en->timeouts,
		    (unsigned long long)en->illegal,
		    (unsigned long long)en->slow_starts,
		    (unsigned long long)en->starts,
		    (unsigned long long)en->limits);
	}
	printf("%-16s %8s %12s %12s %10s\n", "engine", "moves", "wall/move",
	    "cpu/move", "peak-mem");
	for (k = 0; k < m->neng; k++)
		match_cost_row(&m->eng[k]);
	fflush(stdout);
}

/* Frees the record a slot keeps of its game. */
void
match_record_clear(struct mslot *s)
{
	size_t	 i;

	for (i = 0; i < s->nmv; i++) {
		free(s->mv[i].move);
		free(s->mv[i].position);
	}
	s->nmv = 0;
	if (s->has_ref) {
		free(s->ref.move);
		free(s->ref.reason);
	}
	s->has_ref = 0;
}

/*
 * Writes the record of the game a slot just finished into the --records
 * directory as game-NNNNNN.grec (the game's index, from 1), in the record
 * format of PROTOCOL.md §12.1 (record.c), which `grundy verify` checks.
 */
void
match_record(const struct match *m, struct mslot *s)
{
	const struct match_result *r = &m->res[s->gi];
	struct store_record rec;
	struct buf	 path, b;
	size_t		 s1, s2;

	if (m->records == NULL)
		return;
	match_seats(m, s->gi, &s1, &s2);
	memset(&rec, 0, sizeof rec);
	rec.game.id = (int64_t)s->gi + 1;
	rec.game.family = (char *)s->game.fam->name;
	rec.game.game = r->start;
	rec.game.player1 = m->eng[s1].name;
	rec.game.player2 = m->eng[s2].name;
	rec.game.started_ms = s->wall_start;
	rec.game.ended_ms = (int64_t)clock_wall_ms();
	rec.game.status = STORE_FINISHED;
	rec.game.result = r->winner == 1 ? STORE_RESULT_FIRST :
	    r->winner == 2 ? STORE_RESULT_SECOND : STORE_RESULT_NONE;
	rec.game.reason = (char *)r->reason;
	rec.game.detail = r->detail;
	rec.game.has_tc = 1;
	rec.game.tc_cpu = m->cpu_clock;
	rec.game.tc_base_ms = m->base_ms;
	rec.game.tc_inc_ms = m->inc_ms;
	rec.moves = s->mv;
	rec.nmoves = s->nmv;
	rec.refused = s->has_ref ? &s->ref : NULL;
	rec.nrefused = s->has_ref ? 1 : 0;
	buf_init(&b);
	buf_init(&path);
	record_file(&b, &rec, NULL);
	buf_printf(&path, "%s/game-%06zu.grec", m->records, s->gi + 1);
	match_writer_put((struct match *)m, buf_str(&path), &b, 0);
	buf_free(&path);
	buf_free(&b);
}
