/*
 * http-stream.c: the replies proportional to stored data (PROTOCOL.md
 * §14.3's record as JSON and as its file, §14.4's feed of a finished
 * game), streamed.  A worker reads the record a page of moves at a time
 * and formats about HTTP_CHUNK bytes (rpager.c: bounded whatever the
 * game's length); the loop hands them to evhttp as one chunk of
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
#include "league/rpager.h"
#include "server/server-int.h"
#include "store/store.h"

struct hstrm {
	struct rpager	 pager;		/* the record and where it is */
	const char	*type;		/* the reply's Content-Type */
	int		 started;	/* the reply's head is sent */
	int		 last;		/* the chunk made is the last */
	int		 cut;		/* the log failed after the first */
};

/* Frees a streamed reply's state (with its request). */
static void
hstrm_free(struct hreq *r)
{
	struct hstrm	*s = r->strm;

	if (s == NULL)
		return;
	rpager_free(&s->pager);
	free(s);
	r->strm = NULL;
}

/*
 * Worker: the next chunk of r's reply into r->body (empty), about
 * HTTP_CHUNK bytes, or r's error (before the first chunk).  An error of
 * the log after it cuts the reply (the client sees it end early).
 */
void
http_stream_work(struct hreq *r)
{
	struct hstrm	*s = r->strm;
	struct buf	 msg;
	int		 rc;

	rc = rpager_next(&s->pager, &r->body, HTTP_CHUNK);
	s->last = rc <= 0;
	s->cut = rc < 0 && s->started;
	if (rc >= 0 || s->started)
		return;
	buf_reset(&r->body);
	buf_init(&msg);
	if (rc == RPAGER_SINCE) {
		buf_printf(&r->body, "bad parameter since: a ply from 0 to %"
		    PRIu64, s->pager.nmoves);
		r->status = 400;
	} else {
		buf_printf(&msg, "no game %lld", (long long)r->id);
		http_fail(r, rc == RPAGER_FAIL ? 503 : 404, rc == RPAGER_FAIL ?
		    "the game log cannot be read" : buf_str(&msg));
	}
	buf_free(&msg);
}

/* The client took the last chunk (evhttp's callback): make the next. */
static void
hstrm_drained(struct evhttp_connection *evcon, void *arg)
{
	struct hreq	*r = arg;

	(void)evcon;
	if (!r->waiting)
		return;		/* its next chunk is being made already */
	r->waiting = 0;
	if (r->charged > HTTP_CHUNK) {
		http_inflight_done(r->hc, r->charged - HTTP_CHUNK);
		r->charged = HTTP_CHUNK;
	}
	if (http_submit_more(r) != 0) {
		r->waiting = 1;
		http_close(r->hc);	/* frees r (http_stream_closed) */
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
	int		 last = s->last;

	if (s->cut) {
		http_close(r->hc);	/* no end: the client sees it cut */
		return;
	}
	if (!s->started && r->status == 400) {
		http_error(r->req, 400, "%s", buf_str(&r->body));
		return;
	}
	if (!s->started && r->status != 200) {
		http_json(r->req, r->status, &r->body);
		return;
	}
	if (last && s->pager.ops == &rpager_json_ops) {
		s->pager.j.b = &r->body;
		json_key(&s->pager.j, "live");
		if (!http_live_game(r->h->srv->lobby, r->id, &s->pager.j))
			json_null(&s->pager.j);
		json_end_obj(&s->pager.j);
		buf_putc(&r->body, '\n');
	}
	if (!s->started) {
		if (s->pager.ops == &rpager_file_ops) {
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
 * Streams game r->id's record formatted by ops (a feed's: after ply
 * r->since, as r->ndjson says) as a reply of Content-Type type, once
 * HTTP_CHUNK bytes are charged to max-http-inflight: its work and done
 * are http_stream_work and http_stream_done unless set (a node's feed
 * decides first).  Returns 0, or -1 after answering 503 (r freed).
 */
int
http_stream(struct hreq *r, const struct rpager_ops *ops, const char *type)
{
	struct hstrm	*s;

	if (http_inflight_admit(r->hc, r->req, HTTP_CHUNK) != 0) {
		http_hreq_free(r);
		return (-1);
	}
	r->charged = HTTP_CHUNK;
	s = xcalloc(1, sizeof *s);
	rpager_init(&s->pager, r->h->srv->store, r->id, ops, r->since);
	s->pager.ndjson = r->ndjson;
	s->type = type;
	r->strm = s;
	r->cleanup = hstrm_free;
	if (r->work == NULL)
		r->work = http_stream_work;
	if (r->done == NULL)
		r->done = http_stream_done;
	return (http_submit(r));
}
