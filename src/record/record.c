/*
 * record.c: a game's record as a file anyone can check (PROTOCOL.md
 * §12.1) and as JSON (§14.3), from a struct store_record.  See record.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "record/record.h"
#include "solver/referee.h"
#include "lib/util.h"

/* Returns 1 if seat (1 or 2) of g is the engine, whose clock never runs. */
static int
record_engine(const struct store_gameinfo *g, int seat)
{
	const char	*name = seat == 1 ? g->player1 : g->player2;

	return (name != NULL && strcmp(name, RECORD_ENGINE) == 0);
}

void
record_clock_init(struct record_clock *k, const struct store_gameinfo *g)
{
	k->left[0] = k->left[1] = g->tc_base_ms * 1000;
}

/*
 * The clock after move m of game g (µs), as the referee kept it, k
 * carried from move to move: returns 0 where there is none (no time
 * control, the engine's move).
 */
static int
record_clock_step(const struct store_gameinfo *g, struct record_clock *k,
    const struct store_rmove *m, uint64_t *clock)
{
	int	 p = m->player;

	*clock = 0;
	if (!g->has_tc || (p != 1 && p != 2) || record_engine(g, p))
		return (0);
	k->left[p - 1] = referee_clock_after(k->left[p - 1], m->time_us,
	    g->tc_inc_ms);
	*clock = k->left[p - 1];
	return (1);
}

/* Appends a blank, then a word ("-" for none). */
static void
record_word(struct buf *b, const char *s)
{
	buf_putc(b, ' ');
	buf_puts(b, s != NULL && *s != '\0' ? s : "-");
}

/* Appends "KEY TIME\n" ("-" for none). */
static void
record_time_line(struct buf *b, const char *key, int64_t ms)
{
	char	 t[CLOCK_TIME_LEN];

	buf_puts(b, key);
	if (ms == STORE_TIME_NONE)
		buf_puts(b, " -\n");
	else {
		clock_time_text(ms, t, sizeof t);
		buf_printf(b, " %s\n", t);
	}
}

void
record_file_head(struct buf *b, const struct store_gameinfo *g,
    uint64_t nmoves, const char *tour)
{
	static const char *const keys[] = {
		"family", "start", "player1", "player2"
	};
	const char	*vals[nitems(keys)];
	size_t		 i;

	vals[0] = g->family;
	vals[1] = g->game;
	vals[2] = g->player1;
	vals[3] = g->player2;
	buf_printf(b, "%s %d\ngame %" PRId64 "\n", RECORD_FORMAT,
	    RECORD_VERSION, g->id);
	for (i = 0; i < nitems(keys); i++) {
		buf_puts(b, keys[i]);
		record_word(b, vals[i]);
		buf_putc(b, '\n');
	}
	buf_printf(b, "rated %d\ntc ", g->rated ? 1 : 0);
	if (g->has_tc)
		buf_printf(b, "%" PRIu64 "+%" PRIu64 "%s", g->tc_base_ms,
		    g->tc_inc_ms, g->tc_cpu ? " " RECORD_CLOCK_CPU : "");
	else
		buf_putc(b, '-');
	buf_puts(b, "\ntournament");
	if (g->tournament != 0) {
		record_word(b, tour);
		buf_printf(b, " %u", g->slot);
	} else
		record_word(b, NULL);
	buf_putc(b, '\n');
	record_time_line(b, "started", g->started_ms);
	record_time_line(b, "ended", g->ended_ms);
	buf_puts(b, "result");
	record_word(b, store_result_name(g->result));
	record_word(b, g->reason);
	if (g->detail != NULL && *g->detail != '\0')
		record_word(b, g->detail);
	buf_printf(b, "\nstatus %s\nmoves %" PRIu64 "\n",
	    store_status_name(g->status), nmoves);
}

/* Appends a refused move: "refused PLY PLAYER TIME_MS DELAY_US "MOVE" R". */
static void
record_refused_line(struct buf *b, const struct store_rrefused *f)
{
	buf_printf(b, "refused %" PRIu64 " %d %" PRIu64 " ", f->ply,
	    f->player, f->time_ms);
	if (f->has_delay)
		buf_printf(b, "%" PRIu64 " ", f->delay_us);
	else
		buf_puts(b, "- ");
	json_quote(b, f->move != NULL ? f->move : "");
	record_word(b, f->reason);
	buf_putc(b, '\n');
}

/* Appends a number, or " -" where it is not known. */
static void
record_num(struct buf *b, int has, uint64_t x)
{
	if (has)
		buf_printf(b, " %" PRIu64, x);
	else
		buf_puts(b, " -");
}

/* Appends a move's cost: "cost PLY WALL_US CPU_US|- PEAK_BYTES|-". */
static void
record_cost_line(struct buf *b, const struct store_rmove *m)
{
	if (!m->has_cost)
		return;
	buf_printf(b, "cost %" PRIu64 " %" PRIu64, m->ply, m->wall_us);
	record_num(b, m->has_cpu, m->cpu_us);
	record_num(b, m->has_peak, m->peak_bytes);
	buf_putc(b, '\n');
}

void
record_file_moves(struct buf *b, const struct store_gameinfo *g,
    const struct store_record *r, struct record_clock *k)
{
	const struct store_rmove *m;
	uint64_t	 clock;
	size_t		 i, j = 0;

	for (i = 0; i < r->nmoves; i++) {
		m = &r->moves[i];
		for (; j < r->nrefused && r->refused[j].ply <= m->ply; j++)
			record_refused_line(b, &r->refused[j]);
		buf_printf(b, "move %" PRIu64 " %d %s %" PRIu64 " ", m->ply,
		    m->player, store_mark_name(m->mark), m->time_us);
		if (record_clock_step(g, k, m, &clock))
			buf_printf(b, "%" PRIu64, clock);
		else
			buf_putc(b, '-');
		record_word(b, m->move);
		buf_putc(b, '\n');
		record_cost_line(b, m);
	}
	for (; j < r->nrefused; j++)
		record_refused_line(b, &r->refused[j]);
}

void
record_file(struct buf *b, const struct store_record *r, const char *tour)
{
	struct record_clock k;

	record_clock_init(&k, &r->game);
	record_file_head(b, &r->game, r->nmoves, tour);
	record_file_moves(b, &r->game, r, &k);
	buf_puts(b, "end\n");
}

/* Writes a time control from a game of the log, or null. */
static void
record_tc_json(struct json *j, const struct store_gameinfo *g)
{
	if (!g->has_tc) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_kuint(j, "base_ms", g->tc_base_ms);
	json_kuint(j, "inc_ms", g->tc_inc_ms);
	if (g->tc_cpu)
		json_kstr(j, "clock", "cpu");	/* absent: the wall clock */
	json_end_obj(j);
}

/* Writes a time of the log, or null. */
static void
record_time_json(struct json *j, int64_t ms)
{
	char	 t[CLOCK_TIME_LEN];

	if (ms == STORE_TIME_NONE) {
		json_null(j);
		return;
	}
	clock_time_text(ms, t, sizeof t);
	json_str(j, t);
}

void
record_summary_json(struct json *j, const struct store_gameinfo *g,
    const char *tour)
{
	json_obj(j);
	json_kint(j, "id", g->id);
	json_kstr(j, "family", g->family);
	json_kstr(j, "start", g->game);
	json_kstr(j, "player1", g->player1);
	json_kstr(j, "player2", g->player2);
	json_kstr(j, "status", store_status_name(g->status));
	json_key(j, "result");
	json_str(j, g->result == STORE_RESULT_NONE ? NULL :
	    store_result_name(g->result));
	json_key(j, "winner");
	json_str(j, g->result == STORE_RESULT_FIRST ? g->player1 :
	    g->result == STORE_RESULT_SECOND ? g->player2 : NULL);
	json_kstr(j, "reason", g->reason);
	json_kstr(j, "detail", g->detail);
	json_kbool(j, "rated", g->rated);
	json_key(j, "tc");
	record_tc_json(j, g);
	json_kstr(j, "tournament", tour);
	json_kuint_if(j, "slot", g->tournament != 0, g->slot);
	json_key(j, "started");
	record_time_json(j, g->started_ms);
	json_key(j, "ended");
	record_time_json(j, g->ended_ms);
	json_end_obj(j);
}

/* Opens a move's object (or a refused move's): its ply, player and text. */
static void
record_ply_open(struct json *j, uint64_t ply, int player, const char *move)
{
	json_obj(j);
	json_kuint(j, "ply", ply);
	json_kint(j, "player", player);
	json_kstr(j, "move", move);
}

void
record_move_json(struct json *j, const struct store_record *rec, size_t i)
{
	const struct store_rmove *m = &rec->moves[i];

	record_ply_open(j, m->ply, m->player, m->move);
	json_kstr(j, "position", m->position);
	json_kstr(j, "mark", store_mark_name(m->mark));
	json_kuint(j, "time_ms", m->time_ms);
	json_kuint(j, "time_us", m->time_us);
	json_kuint_if(j, "delay_us", m->has_delay, m->delay_us);
	if (!m->has_cost)
		return;		/* a server's game: the members are absent */
	json_kuint(j, "wall_us", m->wall_us);
	json_kuint_if(j, "cpu_us", m->has_cpu, m->cpu_us);
	json_kuint_if(j, "peak_bytes", m->has_peak, m->peak_bytes);
}

void
record_json_refused(struct json *j, const struct store_record *rec)
{
	const struct store_rrefused *f;
	size_t		 i;

	for (i = 0; i < rec->nrefused; i++) {
		f = &rec->refused[i];
		record_ply_open(j, f->ply, f->player, f->move);
		json_kstr(j, "reason", f->reason);
		json_kuint(j, "time_ms", f->time_ms);
		json_kuint_if(j, "delay_us", f->has_delay, f->delay_us);
		json_end_obj(j);
	}
}

void
record_json_head(struct json *j, const struct store_gameinfo *g,
    const char *tour)
{
	json_kstr(j, "format", RECORD_FORMAT);
	json_kint(j, "version", RECORD_VERSION);
	json_key(j, "game");
	record_summary_json(j, g, tour);
	json_key(j, "moves");
	json_arr(j);
}

void
record_json_moves(struct json *j, const struct store_gameinfo *g,
    const struct store_record *r, struct record_clock *k)
{
	uint64_t	 clock;
	size_t		 i;
	int		 has;

	for (i = 0; i < r->nmoves; i++) {
		has = record_clock_step(g, k, &r->moves[i], &clock);
		record_move_json(j, r, i);
		json_kuint_if(j, "clock_us", has, clock);
		json_end_obj(j);
	}
}

void
record_json_members(struct json *j, const struct store_record *r,
    const char *tour)
{
	struct record_clock k;

	record_clock_init(&k, &r->game);
	record_json_head(j, &r->game, tour);
	record_json_moves(j, &r->game, r, &k);
	json_end_arr(j);
	json_key(j, "refused");
	json_arr(j);
	record_json_refused(j, r);
	json_end_arr(j);
}

void
record_json(struct buf *b, const struct store_record *r, const char *tour)
{
	struct json	 j;

	json_init(&j, b);
	json_obj(&j);
	record_json_members(&j, r, tour);
	json_end_obj(&j);
	buf_putc(b, '\n');
}
