/*
 * http-json.c: the game log's data as the JSON of PROTOCOL.md §14 (game
 * summaries, records, a finished game's feed), written on the workers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http-int.h"
#include "server-int.h"
#include "store.h"

/* Writes a time control from a game of the log, or null. */
static void
http_tc(struct json *j, const struct store_gameinfo *g)
{
	if (!g->has_tc) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_kuint(j, "base_ms", g->tc_base_ms);
	json_kuint(j, "inc_ms", g->tc_inc_ms);
	json_end_obj(j);
}

/* Writes a time of the log, or null. */
static void
http_time(struct json *j, int64_t ms)
{
	char	 t[STORE_TIME_LEN];

	if (ms == STORE_TIME_NONE) {
		json_null(j);
		return;
	}
	store_time_text(ms, t, sizeof t);
	json_str(j, t);
}

/* Writes a game summary (§14.2) of gi, a struct store_gameinfo. */
void
http_summary(struct json *j, const void *gi, const char *tour)
{
	const struct store_gameinfo *g = gi;

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
	http_tc(j, g);
	json_kstr(j, "tournament", tour);
	json_key(j, "slot");
	if (g->tournament != 0)
		json_uint(j, g->slot);
	else
		json_null(j);
	json_key(j, "started");
	http_time(j, g->started_ms);
	json_key(j, "ended");
	http_time(j, g->ended_ms);
	json_end_obj(j);
}

/* Writes a list of games with their tournaments' names (worker). */
void
http_games_json(struct store *st, struct json *j,
    const struct store_history *h, size_t n)
{
	char	*tour;
	size_t	 i;

	json_arr(j);
	for (i = 0; i < h->n && i < n; i++) {
		tour = store_tour_name(st, h->games[i].tournament);
		http_summary(j, &h->games[i], tour);
		free(tour);
	}
	json_end_arr(j);
}

/* Opens a move's object (or a refused move's): its ply, player and text. */
static void
http_ply_open(struct json *j, uint64_t ply, int player, const char *move)
{
	json_obj(j);
	json_kuint(j, "ply", ply);
	json_kint(j, "player", player);
	json_kstr(j, "move", move);
}

/* Writes "delay_us": a delay in microseconds, or null if unknown. */
static void
http_kdelay(struct json *j, int has, uint64_t us)
{
	json_key(j, "delay_us");
	if (has)
		json_uint(j, us);
	else
		json_null(j);
}

/* Writes the moves of a record, from ply since + 1 (worker). */
void
http_move_json(struct json *j, const struct store_record *rec, size_t i)
{
	const struct store_rmove *m = &rec->moves[i];

	http_ply_open(j, m->ply, m->player, m->move);
	json_kstr(j, "position", m->position);
	json_kstr(j, "mark", store_mark_name(m->mark));
	json_kuint(j, "time_ms", m->time_ms);
	json_kuint(j, "time_us", m->time_us);
	http_kdelay(j, m->has_delay, m->delay_us);
}

/* Writes a record's refused moves (worker). */
void
http_refused_json(struct json *j, const struct store_record *rec)
{
	const struct store_rrefused *f;
	size_t		 i;

	json_arr(j);
	for (i = 0; i < rec->nrefused; i++) {
		f = &rec->refused[i];
		http_ply_open(j, f->ply, f->player, f->move);
		json_kstr(j, "reason", f->reason);
		json_kuint(j, "time_ms", f->time_ms);
		http_kdelay(j, f->has_delay, f->delay_us);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/*
 * Writes a record's members "game" (its summary, tour its tournament's
 * name), "moves" and "refused" (/api/games/ID, /api/export; worker).
 */
void
http_record_json(struct json *j, const struct store_record *rec,
    const char *tour)
{
	size_t		 i;

	json_key(j, "game");
	http_summary(j, &rec->game, tour);
	json_key(j, "moves");
	json_arr(j);
	for (i = 0; i < rec->nmoves; i++) {
		http_move_json(j, rec, i);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "refused");
	http_refused_json(j, rec);
}

/* Appends one feed event (SSE or NDJSON) of a finished game's JSON. */
static void
http_event(struct buf *out, int ndjson, const char *id, const char *type,
    struct buf *json)
{
	if (ndjson)
		buf_printf(out, "%s\n", buf_str(json));
	else if (id != NULL)
		buf_printf(out, "id: %s\nevent: %s\ndata: %s\n\n", id, type,
		    buf_str(json));
	else
		buf_printf(out, "event: %s\ndata: %s\n\n", type,
		    buf_str(json));
	buf_reset(json);
}

/*
 * Writes a logged game's feed (§14.4): the game event, its moves after
 * since and, unless it is still live in the log, its end (worker).
 */
void
http_record_events(struct buf *out, const struct store_record *rec,
    const char *tour, unsigned long since, int ndjson)
{
	const struct store_gameinfo *g = &rec->game;
	struct buf	 b;
	struct json	 j;
	char		 id[24];
	size_t		 i;

	buf_init(&b);
	json_init(&j, &b);
	json_obj(&j);
	json_kstr(&j, "type", "game");
	json_key(&j, "game");
	http_summary(&j, g, tour);
	json_knull(&j, "live");
	json_end_obj(&j);
	http_event(out, ndjson, NULL, "game", &b);
	for (i = since; i < rec->nmoves; i++) {
		json_init(&j, &b);
		http_move_json(&j, rec, i);
		json_kstr(&j, "type", "move");
		json_kint(&j, "id", g->id);
		json_knull(&j, "clock_ms");
		json_end_obj(&j);
		snprintf(id, sizeof id, "%" PRIu64, rec->moves[i].ply);
		http_event(out, ndjson, id, "move", &b);
	}
	if (g->status != STORE_LIVE) {
		json_init(&j, &b);
		json_obj(&j);
		json_kstr(&j, "type", "end");
		json_kint(&j, "id", g->id);
		json_key(&j, "result");
		json_str(&j, g->result == STORE_RESULT_NONE ? NULL :
		    store_result_name(g->result));
		json_key(&j, "winner");
		json_str(&j, g->result == STORE_RESULT_FIRST ? g->player1 :
		    g->result == STORE_RESULT_SECOND ? g->player2 : NULL);
		json_kstr(&j, "reason", g->reason);
		json_kstr(&j, "detail", g->detail);
		json_kuint(&j, "plies", rec->nmoves);
		json_kbool(&j, "logged", 1);
		json_end_obj(&j);
		http_event(out, ndjson, "end", "end", &b);
	}
	buf_free(&b);
}

/* Sets an error as the reply of a worker's request. */
void
http_fail(struct hreq *r, int status, const char *msg)
{
	buf_reset(&r->body);
	json_init(&r->j, &r->body);
	json_obj(&r->j);
	json_kstr(&r->j, "error", msg);
	json_kint(&r->j, "status", status);
	json_end_obj(&r->j);
	r->status = status;
}

/*
 * Reads game r->id's record and its tournament's name (free both) on a
 * worker.  Returns 0, or -1 with the error (404, 503) as r's reply.
 */
int
http_read_record(struct hreq *r, struct store_record *rec, char **tour)
{
	struct store	*st = r->h->srv->store;
	struct buf	 msg;
	int		 rc;

	if ((rc = store_record(st, r->id, rec)) <= 0) {
		buf_init(&msg);
		buf_printf(&msg, "no game %lld", (long long)r->id);
		http_fail(r, rc < 0 ? 503 : 404, rc < 0 ?
		    "the game log cannot be read" : buf_str(&msg));
		buf_free(&msg);
		return (-1);
	}
	*tour = store_tour_name(st, rec->game.tournament);
	return (0);
}
