/*
 * match-out.c: the results of `grundy match` (match.h): statistics per
 * pairing from the games played (matchstat.c, sprt.c), the output file
 * (JSON, written atomically after every game pair), resuming from it, and
 * the record of each game (--records).  match-report.c prints them.
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
	if (r->timed) {
		json_key(&j, "think_us");
		json_arr(&j);
		json_uint(&j, r->think_us[0]);
		json_uint(&j, r->think_us[1]);
		json_end_arr(&j);
	}
	json_end_obj(&j);
}

/*
 * Adds game gi's moves and thinking time to its engines' (a resumed game
 * of a file without think_us adds nothing).  The first seat made
 * (plies + 1) / 2 of the moves, the second plies / 2.
 */
static void
match_time(struct match *m, size_t gi)
{
	const struct match_result *r = &m->res[gi];
	size_t		 s1, s2;

	if (!r->timed)
		return;
	match_seats(m, gi, &s1, &s2);
	m->eng[s1].timed_moves += (r->plies + 1) / 2;
	m->eng[s1].think_us += r->think_us[0];
	m->eng[s2].timed_moves += r->plies / 2;
	m->eng[s2].think_us += r->think_us[1];
}

/*
 * Counts game gi, just played (or read back by --resume), into its
 * pairing's tally: its result, and its pair once both games are in.
 */
static void
match_count(struct match *m, size_t gi)
{
	size_t		 a, b, s1, s2, k = (gi / 2) % m->npairings;
	size_t		 g1 = gi & ~(size_t)1;
	struct match_tally *t = &m->tally[k];

	match_pairing(m, k, &a, &b);
	match_game_json(m, gi);
	matchstat_wdl_add(&t->wdl, match_res_for(m, gi, a));
	match_seats(m, gi, &s1, &s2);
	matchstat_wdl_add(&t->seat[s1 == a ? 0 : 1], match_res_for(m, gi, a));
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
	match_time(m, gi);
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
	match_progress(m, 0);
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
		json_kuint(j, "timed_moves", e->timed_moves);
		json_kuint(j, "think_us", e->think_us);
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

/* An unsigned integer item of an array.  Returns 0, or -1. */
static int
item_uint(const struct jsonr *v, unsigned long long *out)
{
	char	*end;

	if (v->type != JSONR_NUM || v->str[0] == '-')
		return (-1);
	*out = strtoull(v->str, &end, 10);
	return (*end == '\0' ? 0 : -1);
}

/* Takes one game of a results file.  Returns 0, or -1 (why says). */
static int
match_load_game(struct match *m, const struct jsonr *g, char *why,
    size_t len)
{
	unsigned long long gi, plies, ms, t1, t2;
	const struct jsonr *tu;
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
	tu = jsonr_get(g, "think_us");
	if (tu != NULL && tu->type == JSONR_ARR && tu->n == 2 &&
	    item_uint(&tu->items[0], &t1) == 0 &&
	    item_uint(&tu->items[1], &t2) == 0) {
		r->think_us[0] = t1;
		r->think_us[1] = t2;
		r->timed = 1;
	}
	m->ndone++;
	match_count(m, gi);
	match_time(m, gi);
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
