/*
 * http-catchup.c: the events of a live game's feed (PROTOCOL.md §14.4) as
 * JSON, and a feed's catch-up from the log: the moves after the ply it
 * resumes from up to the ply the daemon keeps events from, formatted a
 * chunk at a time on a worker (rpager.c) with the clocks the lobby had
 * (replayed from the first move), so that a feed resuming far behind
 * holds one chunk, not the game.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http-int.h"
#include "league/rpager.h"
#include "lobby/lobby.h"
#include "store/store.h"

/* Appends an event to out: SSE (with "id: ID" if any), or NDJSON. */
void
http_feed_append(struct buf *out, int ndjson, const char *id,
    const char *type, const char *json)
{
	if (ndjson) {
		buf_printf(out, "%s\n", json);
		return;
	}
	if (id != NULL)
		buf_printf(out, "id: %s\n", id);
	buf_printf(out, "event: %s\ndata: %s\n\n", type, json);
}

/* Opens an event's JSON object in b: its type and game id. */
void
http_feed_event_head(struct json *j, struct buf *b, const char *type,
    int64_t id)
{
	json_init(j, b);
	json_obj(j);
	json_kstr(j, "type", type);
	json_kint(j, "id", id);
}

/* Writes a move event's JSON. */
void
http_feed_move_json(const struct lobby_feed *lf, struct buf *b)
{
	struct json	 j;

	http_feed_event_head(&j, b, "move", lf->id);
	json_kuint(&j, "ply", lf->ply);
	json_kint(&j, "player", lf->player);
	json_kstr(&j, "move", lf->move);
	json_kstr(&j, "position", lf->position);
	json_kstr(&j, "mark", lf->mark);
	json_kuint(&j, "time_ms", lf->time_ms);
	json_key(&j, "clock_ms");
	json_arr(&j);
	json_uint(&j, lf->clock_ms[0]);
	json_uint(&j, lf->clock_ms[1]);
	json_end_arr(&j);
	json_end_obj(&j);
}

/* A feed's catch-up from the log, between its chunks. */
struct hcatch {
	struct rpager	 pager;
	unsigned long	 since;		/* the moves after it are sent */
	uint64_t	 clock[2];	/* the seats' clocks (µs), replayed */
	int		 engine[2];	/* a seat the engine plays */
	int		 flushed;	/* the log's queue was written */
};

static void
hcatch_head(struct rpager *p, struct buf *out)
{
	struct hcatch	*c = p->arg;
	const struct store_gameinfo *g = &p->head.game;

	(void)out;
	c->engine[0] = strcmp(g->player1, "engine") == 0;
	c->engine[1] = strcmp(g->player2, "engine") == 0;
	c->clock[0] = c->clock[1] = g->tc_base_ms * 1000;
}

/* A page of moves: every one's clock, the events of those after since. */
static void
hcatch_moves(struct rpager *p, const struct store_record *r,
    struct buf *out)
{
	struct hcatch	*c = p->arg;
	struct lobby_feed lf;
	struct buf	 b;
	char		 id[24];
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < r->nmoves; i++) {
		const struct store_rmove *m = &r->moves[i];

		lobby_feed_clock(c->engine, p->head.game.tc_inc_ms * 1000,
		    c->clock, m);
		if (m->ply <= c->since)
			continue;
		memset(&lf, 0, sizeof lf);
		lf.id = p->id;
		lf.ply = (unsigned long)m->ply;
		lf.player = m->player;
		lf.move = m->move;
		lf.position = m->position;
		lf.mark = store_mark_name(m->mark);
		lf.time_ms = m->time_ms;
		lf.clock_ms[0] = c->clock[0] / 1000;
		lf.clock_ms[1] = c->clock[1] / 1000;
		buf_reset(&b);
		http_feed_move_json(&lf, &b);
		snprintf(id, sizeof id, "%lu", lf.ply);
		http_feed_append(out, p->ndjson, id, "move", buf_str(&b));
	}
	buf_free(&b);
}

static void
hcatch_tail(struct rpager *p, struct buf *out)
{
	(void)p;
	(void)out;
}

static const struct rpager_ops hcatch_ops = {
	hcatch_head, hcatch_moves, NULL, NULL, hcatch_tail, 0
};

/*
 * A catch-up of game id from the log st: the moves after since up to
 * ply upto, as events (NDJSON or SSE).
 */
struct hcatch *
hcatch_new(struct store *st, int64_t id, unsigned long since,
    unsigned long upto, int ndjson)
{
	struct hcatch	*c;

	c = xcalloc(1, sizeof *c);
	rpager_init(&c->pager, st, id, &hcatch_ops, 0);
	c->pager.arg = c;
	c->pager.ndjson = ndjson;
	c->pager.upto = upto;
	c->since = since;
	return (c);
}

/*
 * Appends the next chunk of c to out (worker); the first waits until the
 * log has written what is queued (the lobby hands a move to the log
 * before the feed sees it).  Returns 1 while more is to come, 0 after
 * the last, or RPAGER_* (RPAGER_SHORT: the log lacks the moves).
 */
int
hcatch_next(struct hcatch *c, struct buf *out)
{
	if (!c->flushed && store_flush(c->pager.st) != 0)
		return (RPAGER_FAIL);
	c->flushed = 1;
	return (rpager_next(&c->pager, out, HTTP_CHUNK));
}

void
hcatch_free(struct hcatch *c)
{
	if (c == NULL)
		return;
	rpager_free(&c->pager);
	free(c);
}
