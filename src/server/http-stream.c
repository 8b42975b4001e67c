/*
 * http-stream.c: the replies proportional to stored data (PROTOCOL.md
 * §14.3's record as JSON and as its file, §14.4's feed of a finished
 * game), streamed.  A worker reads the record a page of moves at a time
 * (store_record_page: bounded whatever the game's length) and formats
 * about HTTP_CHUNK bytes; the loop hands them to evhttp as one chunk of
 * the reply, and the next chunk is made only once the client has taken
 * this one (evhttp's callback when the connection's output drained).  So
 * what a request holds is one chunk and its cursor, not its record, and
 * a client that does not read holds one chunk.
 *
 * Admission, before any work: HTTP_CHUNK bytes charged to
 * max-http-inflight (503 when full), held while the reply lasts (a
 * bigger chunk is charged its size while it waits) and freed when the
 * last chunk has gone to the kernel or the client left.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "server/http-int.h"
#include "record/record.h"
#include "server/server-int.h"
#include "store/store.h"

#define HSTRM_PAGE	64		/* moves read at a time */
#define HSTRM_RPAGE	256		/* refused moves read at a time */
#define HSTRM_RFILE	(1 << 20)	/* refused moves of a file's page */

enum hstrm_phase {
	HSTRM_HEAD,		/* the game is not read yet */
	HSTRM_MOVES,		/* the moves after ply next */
	HSTRM_REFUSED,		/* JSON: the refused moves after seq rseq */
	HSTRM_END,		/* all formatted */
};

struct hstrm {
	enum hstrm_kind	 kind;
	enum hstrm_phase phase;
	const char	*type;		/* the reply's Content-Type */
	struct store_record head;	/* the game; no moves */
	char		*tour;
	uint64_t	 nmoves;	/* the ply of its last move, read first */
	uint64_t	 next;		/* the moves up to it are formatted */
	int64_t		 rseq;		/* so are the refused ones up to it */
	struct record_clock clock;
	int		 started;	/* the reply's head is sent */
};

/* Frees a streamed reply's state (with its request). */
static void
hstrm_free(struct hreq *r)
{
	struct hstrm	*s = r->strm;

	if (s == NULL)
		return;
	store_record_free(&s->head);
	free(s->tour);
	free(s);
	r->strm = NULL;
}

/* Reads the game (worker): 0, or -1 with r's error. */
static int
hstrm_head(struct hreq *r, struct hstrm *s)
{
	struct store	*st = r->h->srv->store;
	struct buf	 msg;
	int		 rc;

	if ((rc = store_record_head(st, r->id, &s->head, &s->nmoves)) <= 0) {
		buf_init(&msg);
		buf_printf(&msg, "no game %lld", (long long)r->id);
		http_fail(r, rc < 0 ? 503 : 404, rc < 0 ?
		    "the game log cannot be read" : buf_str(&msg));
		buf_free(&msg);
		return (-1);
	}
	if (s->kind == HSTRM_FEED && r->since > s->nmoves) {
		buf_printf(&r->body, "bad parameter since: a ply from 0 to %"
		    PRIu64, s->nmoves);
		r->status = 400;
		return (-1);
	}
	s->tour = store_tour_name(st, s->head.game.tournament);
	record_clock_init(&s->clock, &s->head.game);
	s->phase = HSTRM_MOVES;
	switch (s->kind) {
	case HSTRM_JSON:
		json_obj(&r->j);
		record_json_head(&r->j, &s->head.game, s->tour);
		break;
	case HSTRM_FILE:
		record_file_head(&r->body, &s->head.game, s->nmoves, s->tour);
		break;
	case HSTRM_FEED:
		s->next = r->since;
		http_record_events_head(&r->body, &s->head.game, s->tour,
		    r->ndjson);
		break;
	}
	return (0);
}

/* The moves are all formatted: what follows them. */
static void
hstrm_moves_end(struct hreq *r, struct hstrm *s)
{
	switch (s->kind) {
	case HSTRM_JSON:
		json_end_arr(&r->j);
		json_key(&r->j, "refused");
		json_arr(&r->j);
		s->phase = HSTRM_REFUSED;
		return;
	case HSTRM_FILE:
		buf_puts(&r->body, "end\n");
		break;
	case HSTRM_FEED:
		http_record_events_end(&r->body, &s->head.game, s->nmoves,
		    r->ndjson);
		break;
	}
	s->phase = HSTRM_END;
}

/* Formats one page of the record (worker): 0, or -1 with r's error. */
static int
hstrm_page(struct hreq *r, struct hstrm *s)
{
	const struct store_gameinfo *g = &s->head.game;
	struct store_rpage q;
	struct store_record p;

	memset(&q, 0, sizeof q);
	if (s->phase == HSTRM_MOVES) {
		q.after = s->next;
		q.upto = s->nmoves - s->next > HSTRM_PAGE ?
		    s->next + HSTRM_PAGE : s->nmoves;
		q.max = HSTRM_PAGE;
		if (s->kind == HSTRM_FILE) {
			q.rupto = q.upto < s->nmoves ? q.upto : UINT64_MAX;
			q.rmax = HSTRM_RFILE;
		}
	} else {
		q.rupto = UINT64_MAX;
		q.rmax = HSTRM_RPAGE;
	}
	q.rseq = s->rseq;
	if (store_record_page(r->h->srv->store, r->id, &q, &p) != 0) {
		http_fail(r, 503, "the game log cannot be read");
		return (-1);
	}
	if (p.nrefused > 0)
		s->rseq = p.refused[p.nrefused - 1].seq;
	if (s->phase == HSTRM_REFUSED) {
		record_json_refused(&r->j, &p);
		if (p.nrefused < HSTRM_RPAGE) {
			json_end_arr(&r->j);
			s->phase = HSTRM_END;
		}
	} else {
		if (s->kind == HSTRM_JSON)
			record_json_moves(&r->j, g, &p, &s->clock);
		else if (s->kind == HSTRM_FILE)
			record_file_moves(&r->body, g, &p, &s->clock);
		else
			http_record_events_moves(&r->body, &p, g->id,
			    r->ndjson);
		s->next = q.upto;
		if (s->next >= s->nmoves)
			hstrm_moves_end(r, s);
	}
	store_record_free(&p);
	return (0);
}

/*
 * Worker: the next chunk of r's reply into r->body (empty), about
 * HTTP_CHUNK bytes, or r's error (the first chunk only).
 */
void
http_stream_work(struct hreq *r)
{
	struct hstrm	*s = r->strm;

	if (s->phase == HSTRM_HEAD && hstrm_head(r, s) != 0)
		return;
	while (s->phase != HSTRM_END && r->body.len < HTTP_CHUNK)
		if (hstrm_page(r, s) != 0)
			return;
}

/* The client took the last chunk (evhttp's callback): make the next. */
static void
hstrm_drained(struct evhttp_connection *evcon, void *arg)
{
	struct hreq	*r = arg;

	(void)evcon;
	r->waiting = 0;
	if (r->charged > HTTP_CHUNK) {
		http_inflight_done(r->hc, r->charged - HTTP_CHUNK);
		r->charged = HTTP_CHUNK;
	}
	if (http_submit_more(r) != 0) {
		http_close(r->hc);	/* frees r (http_stream_closed) */
		return;
	}
}

/* Frees a chunk's memory once evhttp is done with it. */
static void
hstrm_chunk_free(const void *data, size_t len, void *arg)
{
	(void)len;
	(void)arg;
	free((void *)(uintptr_t)data);
}

/*
 * Loop: sends the chunk r's worker made (or its error, before the
 * reply's head); the last ends the reply and frees r.
 */
void
http_stream_done(struct hreq *r)
{
	struct hstrm	*s = r->strm;
	struct evbuffer	*b;
	char		 name[40];
	int		 last = s->phase == HSTRM_END;

	if (!s->started && r->status == 400) {
		http_error(r->req, 400, "%s", buf_str(&r->body));
		return;
	}
	if (!s->started && r->status != 200) {
		http_json(r->req, r->status, &r->body);
		return;
	}
	if (last && s->kind == HSTRM_JSON) {
		json_key(&r->j, "live");
		if (!http_live_game(r->h->srv->lobby, r->id, &r->j))
			json_null(&r->j);
		json_end_obj(&r->j);
		buf_putc(&r->body, '\n');
	}
	if (!s->started) {
		if (s->kind == HSTRM_FILE) {
			snprintf(name, sizeof name, "game-%lld.grec",
			    (long long)r->id);
			http_attachment(r->req, name);
		}
		http_send_start(r->req, s->type);
		s->started = 1;
	}
	if (r->head) {
		evhttp_send_reply_end(r->req);
		return;
	}
	if (r->body.len > r->charged) {
		r->hc->inflight += r->body.len - r->charged;
		r->h->inflight += r->body.len - r->charged;
		r->charged = r->body.len;
	}
	/* The chunk moves to evhttp as it is: no second copy. */
	b = evbuffer_new();
	if (r->body.len > 0)
		evbuffer_add_reference(b, r->body.data, r->body.len,
		    hstrm_chunk_free, NULL);
	buf_init(&r->body);
	if (last) {
		http_charge_until_sent(r);
		evhttp_send_reply_chunk(r->req, b);
		evhttp_send_reply_end(r->req);
	} else {
		evhttp_send_reply_chunk_with_cb(r->req, b, hstrm_drained, r);
		r->keep = 1;
		r->waiting = 1;
	}
	evbuffer_free(b);
}

/* The connection closed: a reply waiting for its client goes with it. */
void
http_stream_closed(struct hreq *r)
{
	if (r->waiting)
		http_hreq_free(r);
}

/*
 * Streams r's reply of kind, of Content-Type type (r->id, and r->since
 * and r->ndjson for a feed), once HTTP_CHUNK bytes are charged to max-http-inflight: its
 * work and done are http_stream_work and http_stream_done unless set
 * (a node's feed decides first).  Returns 0, or -1 after answering 503
 * (r freed).
 */
int
http_stream(struct hreq *r, enum hstrm_kind kind, const char *type)
{
	struct hstrm	*s;

	if (http_inflight_admit(r->hc, r->req, HTTP_CHUNK) != 0) {
		http_hreq_free(r);
		return (-1);
	}
	r->charged = HTTP_CHUNK;
	s = xcalloc(1, sizeof *s);
	s->kind = kind;
	s->type = type;
	r->strm = s;
	r->cleanup = hstrm_free;
	if (r->work == NULL)
		r->work = http_stream_work;
	if (r->done == NULL)
		r->done = http_stream_done;
	return (http_submit(r));
}
