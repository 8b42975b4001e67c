/*
 * http-json.c: the game log's data as the JSON of PROTOCOL.md §14 (game
 * summaries, records, a finished game's feed), written on the workers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http-int.h"
#include "league/rpager.h"
#include "record/record.h"
#include "server/server-int.h"
#include "store/store.h"

/* Writes a game summary (§14.2) of gi, a struct store_gameinfo. */
static void
http_summary(struct json *j, const void *gi, const char *tour)
{
	record_summary_json(j, gi, tour);
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

/* Writes the moves of a record, from ply since + 1 (worker). */
static void
http_move_json(struct json *j, const struct store_record *rec, size_t i)
{
	record_move_json(j, rec, i);
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
 * A logged game's feed (§14.4), a page at a time (worker): the game
 * event; the moves of each page of its record; unless it is still live
 * in the log, its end after its last ply.
 */
static void
http_record_events_head(struct rpager *p, struct buf *out)
{
	struct buf	 b;
	struct json	 j;

	buf_init(&b);
	json_init(&j, &b);
	json_obj(&j);
	json_kstr(&j, "type", "game");
	json_key(&j, "game");
	http_summary(&j, &p->head.game, p->tour);
	json_knull(&j, "live");
	json_end_obj(&j);
	http_event(out, p->ndjson, NULL, "game", &b);
	buf_free(&b);
}

static void
http_record_events_moves(struct rpager *p, const struct store_record *rec,
    struct buf *out)
{
	struct buf	 b;
	struct json	 j;
	char		 id[24];
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < rec->nmoves; i++) {
		json_init(&j, &b);
		http_move_json(&j, rec, i);
		json_kstr(&j, "type", "move");
		json_kint(&j, "id", p->id);
		json_knull(&j, "clock_ms");
		json_end_obj(&j);
		snprintf(id, sizeof id, "%" PRIu64, rec->moves[i].ply);
		http_event(out, p->ndjson, id, "move", &b);
	}
	buf_free(&b);
}

static void
http_record_events_end(struct rpager *p, struct buf *out)
{
	const struct store_gameinfo *g = &p->head.game;
	struct buf	 b;
	struct json	 j;

	if (g->status == STORE_LIVE)
		return;
	buf_init(&b);
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
	json_kuint(&j, "plies", p->nmoves);
	json_kbool(&j, "logged", 1);
	json_end_obj(&j);
	http_event(out, p->ndjson, "end", "end", &b);
	buf_free(&b);
}

const struct rpager_ops http_feed_ops = {
	http_record_events_head, http_record_events_moves, NULL, NULL,
	http_record_events_end, 0
};

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
 * On a worker: reads game r->id's record and its tournament's name (NULL
 * if none), hands them to use, then frees them; or answers r with the
 * error (404, 503).
 */
void
http_with_record(struct hreq *r, void (*use)(struct hreq *,
    const struct store_record *, const char *))
{
	struct store	*st = r->h->srv->store;
	struct store_record rec;
	struct buf	 msg;
	char		*tour;
	int		 rc;

	if ((rc = store_record(st, r->id, &rec)) <= 0) {
		buf_init(&msg);
		buf_printf(&msg, "no game %lld", (long long)r->id);
		http_fail(r, rc < 0 ? 503 : 404, rc < 0 ?
		    "the game log cannot be read" : buf_str(&msg));
		buf_free(&msg);
		return;
	}
	tour = store_tour_name(st, rec.game.tournament);
	use(r, &rec, tour);
	free(tour);
	store_record_free(&rec);
}
