/*
 * http-feed.c: the live feeds of PROTOCOL.md §14.4: GET
 * /api/games/ID/feed (Server-Sent Events, or NDJSON) and /api/tv/feed.
 * The lobby's hook (lobby_set_feed) hands every move and end here on the
 * loop; a live game's move events are kept (as JSON) only while feeds
 * follow it, from the ply it had when the first of them came (base): a
 * feed resuming before that gets the moves up to base from the log, read
 * and formatted on a worker (hfeed_catchup_work) and sent in pieces as
 * its client reads, charged to max-http-inflight; then the kept ones.  A
 * game nobody follows keeps nothing here.  A finished game's feed is its
 * record, streamed from the log (http-stream.c).  A feed whose
 * client does not read is dropped at max-http-output.  A live game of
 * another node (a node of a shared database) comes through the same hook
 * once the lobby follows it (lobby_xfeed_open: its moves so far at once,
 * then each as the owner commits it); it is followed while it has feeds.
 * The TV shows this node's own games only.
 */
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>

#include "server/http-int.h"
#include "league/rpager.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "server/server-int.h"
#include "store/store.h"

#define HFEED_BUCKETS	256

/* A followed live game's events: the JSON of each move after base. */
struct fgame {
	LIST_ENTRY(fgame) hash;
	int64_t		 id;
	unsigned long	 base;		/* the ply before moves[0] */
	char		**moves;	/* moves[i]: ply base + i + 1 */
	size_t		 n, cap;
	int		 remote;	/* another node's: followed for its feeds */
	int		 pending;	/* catch-ups on workers (kept for them) */
	LIST_HEAD(, hstream) streams;
};

#define HFEED_PIECE	65536	/* bytes of a catch-up sent at once */
LIST_HEAD(fgames, fgame);

/* An open feed: of one game, or the TV's. */
struct hstream {
	LIST_ENTRY(hstream) entry;	/* on its game's list or the TV's */
	TAILQ_ENTRY(hstream) all;
	struct http	*h;
	struct hconn	*hc;
	struct evhttp_request *req;
	int		 ndjson;
	int		 dropped;	/* over the cap: reaped soon */
	struct fgame	*g;		/* its game, NULL: the TV's */
	size_t		 next;		/* g->moves[next] is the next to send */
	struct buf	 catchup;	/* moves up to g->base from the log */
	size_t		 coff;		/* what of it is sent */
	int		 catching;	/* catchup not all sent yet */
	struct hcatch	*cu;		/* where the next chunk of it comes
					 * from (NULL while on a worker) */
	int		 cu_more;	/* a chunk of it is still to come */
};
TAILQ_HEAD(hstreams, hstream);

struct hfeed {
	struct http	*h;
	struct fgames	 games[HFEED_BUCKETS];
	LIST_HEAD(, hstream) tv;
	struct hstreams	 all;
	int64_t		 featured;	/* the TV's game, 0: none */
	int		 backfill;	/* moves from the log: not the TV's */
};

/* Returns game id's bucket. */
static struct fgames *
fgame_bucket(struct hfeed *f, int64_t id)
{
	return (&f->games[(uint64_t)id % HFEED_BUCKETS]);
}

/* Returns game id's events, or NULL. */
static struct fgame *
fgame_find(struct hfeed *f, int64_t id)
{
	struct fgame	*g;

	LIST_FOREACH(g, fgame_bucket(f, id), hash)
		if (g->id == id)
			return (g);
	return (NULL);
}

/* Returns game id's events, new and empty if there were none. */
static struct fgame *
fgame_get(struct hfeed *f, int64_t id)
{
	struct fgame	*g;

	if ((g = fgame_find(f, id)) != NULL)
		return (g);
	g = xcalloc(1, sizeof *g);
	g->id = id;
	LIST_INIT(&g->streams);
	LIST_INSERT_HEAD(fgame_bucket(f, id), g, hash);
	return (g);
}

static void
fgame_free(struct fgame *g)
{
	LIST_REMOVE(g, hash);
	strv_free(g->moves, g->n);
	free(g);
}

/*
 * Formats an event once for every feed: SSE (with "id: ID" if any) into
 * sse, NDJSON into nd; hs_frame sends the one a feed wants.
 */
static void
hs_format(const char *id, const char *type, const char *json,
    struct buf *sse, struct buf *nd)
{
	buf_reset(sse);
	buf_reset(nd);
	http_feed_append(sse, 0, id, type, json);
	http_feed_append(nd, 1, id, type, json);
}

/*
 * Writes an event straight to a feed's socket when nothing waits before
 * it (one system call instead of the loop's write readiness round), in
 * evhttp's framing (a chunk for HTTP/1.1); what the socket does not take
 * goes to the connection's output.  Returns -1 to leave it to evhttp (a
 * write error, which evhttp then sees).
 */
static int
hs_direct(struct hstream *s, const struct buf *f)
{
	struct bufferevent *bev = evhttp_connection_get_bufferevent(s->hc->evcon);
	struct iovec	 iov[3];
	char		 head[24];
	ssize_t		 w;
	size_t		 i, n = 0, off;

	if (s->req->chunked) {
		/* The chunk's head, "%zx\r\n" without printf (a feed each). */
		i = sizeof head;
		head[--i] = '\n';
		head[--i] = '\r';
		off = f->len;
		do
			head[--i] = "0123456789abcdef"[off & 15];
		while ((off >>= 4) != 0);
		iov[n].iov_base = head + i;
		iov[n++].iov_len = sizeof head - i;
	}
	iov[n].iov_base = f->data;
	iov[n++].iov_len = f->len;
	if (s->req->chunked) {
		iov[n].iov_base = (void *)(uintptr_t)"\r\n";
		iov[n++].iov_len = 2;
	}
	if ((w = writev(bufferevent_getfd(bev), iov, (int)n)) < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return (-1);
		w = 0;
	}
	for (i = 0, off = (size_t)w; i < n; i++) {
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		bufferevent_write(bev, (char *)iov[i].iov_base + off,
		    iov[i].iov_len - off);
		off = 0;
	}
	return (0);
}

/* Sends a formatted event (hs_format) to one feed, minding the cap. */
static void
hs_frame(struct hstream *s, struct buf *sse, struct buf *nd)
{
	struct http	*h = s->h;
	struct evbuffer	*b;
	struct buf	*f = s->ndjson ? nd : sse;

	if (s->dropped)
		return;
	if (http_output(s->hc) > h->srv->conf->max_http_output) {
		s->dropped = 1;
		metrics_inc(M_HTTP_DROPPED);
		event_active(h->reap, EV_TIMEOUT, 0);
		return;
	}
	if (http_output(s->hc) == 0 && hs_direct(s, f) == 0)
		return;
	b = evbuffer_new();
	evbuffer_add(b, f->data, f->len);
	evhttp_send_reply_chunk(s->req, b);
	evbuffer_free(b);
}

/* Sends one event to one feed (formatted for it alone). */
static void
hs_send(struct hstream *s, const char *id, const char *type,
    const char *json)
{
	struct buf	 sse, nd;

	buf_init(&sse);
	buf_init(&nd);
	hs_format(id, type, json, &sse, &nd);
	hs_frame(s, &sse, &nd);
	buf_free(&sse);
	buf_free(&nd);
}

/* Forgets a feed (its connection closed, or the feed ended). */
static void
hs_free(struct hstream *s)
{
	struct hfeed	*f = s->h->feed;

	LIST_REMOVE(s, entry);
	TAILQ_REMOVE(&f->all, s, all);
	s->h->nstreams--;
	http_inflight_done(s->hc, s->catchup.len - s->coff);
	buf_free(&s->catchup);
	hcatch_free(s->cu);
	s->hc->stream = NULL;
	free(s);
}

/*
 * Forgets game g's events once no feed follows it and no catch-up is
 * under way for one (and stops following it if it is another node's).
 */
static void
fgame_release(struct hfeed *f, struct fgame *g)
{
	if (!LIST_EMPTY(&g->streams) || g->pending > 0)
		return;
	if (g->remote)
		lobby_xfeed_close(f->h->srv->lobby, g->id);
	fgame_free(g);
}

/* The connection of a feed closed (http.c's close callback). */
void
hfeed_closed(struct hstream *s)
{
	struct evhttp_request *req = s->req;
	struct hfeed	*f = s->h->feed;
	struct fgame	*g = s->g;

	hs_free(s);
	if (g != NULL)
		fgame_release(f, g);
	http_req_orphan(req);
}

/* Ends a feed: the reply is complete; the connection may go on. */
static void
hs_end(struct hstream *s)
{
	struct evhttp_request *req = s->req;
	struct hconn	*hc = s->hc;
	int		 dropped = s->dropped;

	hs_free(s);
	if (dropped)
		http_close(hc);		/* the reply cannot end well */
	else
		evhttp_send_reply_end(req);
}

/* Writes the game event's JSON: the game now (lobby), live or ending. */
static void
hfeed_game_json(struct http *h, const char *type, int64_t id, struct buf *b)
{
	struct json	 j;

	json_init(&j, b);
	json_obj(&j);
	json_kstr(&j, "type", type);
	json_key(&j, "game");
	if (!http_live_summary(h->srv->lobby, id, &j) &&
	    !lobby_xfeed_web(h->srv->lobby, id, 0, &j))
		json_null(&j);
	json_key(&j, "live");
	if (!http_live_game(h->srv->lobby, id, &j) &&
	    !lobby_xfeed_web(h->srv->lobby, id, 1, &j))
		json_null(&j);
	json_end_obj(&j);
}

/*
 * Refuses a new feed over max-http-streams or, for an untrusted address,
 * max-http-streams-per-ip (503).  Returns -1 if refused.
 */
static int
hfeed_limits(struct http *h, struct hconn *hc, struct evhttp_request *req)
{
	const struct conf *c = h->srv->conf;
	struct hstream	*s;
	size_t		 n = 0;

	if (h->nstreams >= c->max_http_streams) {
		http_error(req, 503, "too many streams: at most %zu "
		    "(max-http-streams)", c->max_http_streams);
		return (-1);
	}
	if (hc->trusted)
		return (0);
	TAILQ_FOREACH(s, &h->feed->all, all)
		n += strcmp(s->hc->host, hc->host) == 0;
	if (n >= c->max_http_streams_per_ip) {
		http_error(req, 503, "too many streams from your address: at "
		    "most %zu (max-http-streams-per-ip)",
		    c->max_http_streams_per_ip);
		return (-1);
	}
	return (0);
}

/* Returns 1 if the client asked for NDJSON. */
static int
hfeed_ndjson(struct evhttp_request *req)
{
	const char	*a = evhttp_find_header(
			    evhttp_request_get_input_headers(req), "Accept");

	return (a != NULL && strstr(a, "application/x-ndjson") != NULL);
}

/* The Content-Type of a feed. */
static const char *
hfeed_type(int ndjson)
{
	return (ndjson ? "application/x-ndjson; charset=utf-8" :
	    "text/event-stream; charset=utf-8");
}

/*
 * A feed's socket: no http-timeout (the heartbeat and the cap instead),
 * and a kernel send buffer of max-http-output, so that what a client does
 * not read stays where the cap sees it (the kernel would take megabytes).
 * What the client sends after its request is read up to max-http-request
 * bytes, then no more (evhttp would buffer it all while the feed lasts).
 */
static void
hs_socket(struct http *h, struct evhttp_request *req)
{
	struct bufferevent *bev = evhttp_connection_get_bufferevent(
	    evhttp_request_get_connection(req));
	int		 sz = (int)h->srv->conf->max_http_output;

	bufferevent_set_timeouts(bev, NULL, NULL);
	bufferevent_setwatermark(bev, EV_READ, 0,
	    h->srv->conf->max_http_request);
	(void)setsockopt(bufferevent_getfd(bev), SOL_SOCKET, SO_SNDBUF, &sz,
	    sizeof sz);
}

/* Starts a feed's reply on hc; NULL for HEAD (answered, no feed). */
static struct hstream *
hs_start(struct http *h, struct hconn *hc, struct evhttp_request *req,
    int ndjson)
{
	struct evkeyvalq *oh = evhttp_request_get_output_headers(req);
	struct hstream	*s;

	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		http_reply(req, 200, hfeed_type(ndjson), NULL, 0);
		return (NULL);
	}
	evhttp_add_header(oh, "Content-Type", hfeed_type(ndjson));
	evhttp_add_header(oh, "Cache-Control", "no-cache");
	evhttp_add_header(oh, "X-Accel-Buffering", "no");
	metrics_label(MF_HTTP, "200");
	evhttp_send_reply_start(req, 200, "OK");
	hs_socket(h, req);
	s = xcalloc(1, sizeof *s);
	s->h = h;
	s->hc = hc;
	s->req = req;
	s->ndjson = ndjson;
	hc->stream = s;
	TAILQ_INSERT_TAIL(&h->feed->all, s, all);
	h->nstreams++;
	return (s);
}

/*
 * Reads where a feed resumes: ?since=PLY, else Last-Event-ID.  Returns 0
 * with *since set, 1 after answering 204 (Last-Event-ID: end), -1 after
 * answering 400.
 */
static int
hfeed_since(struct evhttp_request *req, const struct evkeyvalq *q,
    unsigned long *since)
{
	const char	*t;
	struct evkeyvalq one;
	int		 rc;

	*since = 0;
	if ((rc = http_param_uint(req, q, "since", 0, 1UL << 62, since)) != 0)
		return (rc < 0 ? -1 : 0);
	t = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Last-Event-ID");
	if (t == NULL)
		return (0);
	if (strcmp(t, "end") == 0) {
		http_reply(req, 204, "text/plain; charset=utf-8", NULL, 0);
		return (1);
	}
	TAILQ_INIT(&one);
	evhttp_add_header(&one, "Last-Event-ID", t);
	rc = http_param_uint(req, &one, "Last-Event-ID", 0, 1UL << 62, since);
	evhttp_clear_headers(&one);
	return (rc < 0 ? -1 : 0);
}

static void	 hs_catchup(struct hstream *);
static void	 hs_catchup_more(struct hstream *);
static void	 hfeed_catchup_rc(struct hreq *, int);
static void	 hfeed_cu_free(struct hreq *);

/* A catching-up feed's output drained (evhttp's callback): go on. */
static void
hs_drained(struct evhttp_connection *evcon, void *arg)
{
	hs_catchup(arg);
}

/*
 * Sends a feed the moves it lacks, a piece at a time: while the output
 * waiting for its client is under half of max-http-output; then one more
 * move whose drained output calls this again.  So a feed resuming a long
 * game gets every move without the daemon holding them all for it, and
 * without being dropped at the cap while it reads.
 */
static void
hs_catchup(struct hstream *s)
{
	struct fgame	*g = s->g;
	struct evbuffer	*b;
	struct buf	 sse, nd;
	char		 id[24];
	size_t		 n, half = s->h->srv->conf->max_http_output / 2;

	/* First the moves up to g->base from the log, a piece at a time. */
	while (s->catching && !s->dropped) {
		if (s->catchup.len == 0) {
			if (s->cu != NULL)	/* not on a worker already */
				hs_catchup_more(s);
			return;		/* hs_catchup_back goes on */
		}
		n = s->catchup.len - s->coff;
		if (n > HFEED_PIECE)
			n = HFEED_PIECE;
		b = evbuffer_new();
		evbuffer_add(b, s->catchup.data + s->coff, n);
		s->coff += n;
		http_inflight_done(s->hc, n);
		if (s->coff == s->catchup.len) {
			buf_free(&s->catchup);
			s->coff = 0;
			s->catching = s->cu_more;
		}
		if (http_output(s->hc) + n < half) {
			evhttp_send_reply_chunk(s->req, b);
			evbuffer_free(b);
			continue;
		}
		evhttp_send_reply_chunk_with_cb(s->req, b, hs_drained, s);
		evbuffer_free(b);
		return;
	}
	buf_init(&sse);
	buf_init(&nd);
	while (g != NULL && s->next < g->n && !s->dropped) {
		snprintf(id, sizeof id, "%lu", g->base + s->next + 1);
		hs_format(id, "move", g->moves[s->next++], &sse, &nd);
		if (http_output(s->hc) < half) {
			hs_frame(s, &sse, &nd);
			continue;
		}
		b = evbuffer_new();
		evbuffer_add(b, s->ndjson ? nd.data : sse.data,
		    s->ndjson ? nd.len : sse.len);
		evhttp_send_reply_chunk_with_cb(s->req, b, hs_drained, s);
		evbuffer_free(b);
		break;
	}
	buf_free(&sse);
	buf_free(&nd);
}

/* A catch-up's next chunk, on a worker. */
static void
hs_catchup_work(struct hreq *q)
{
	hfeed_catchup_rc(q, hcatch_next(q->cu, &q->body));
}

/*
 * The next chunk is back (loop): the feed sends it (charged to
 * max-http-inflight, as its first was), or is closed if the log failed
 * (its client resumes).
 */
static void
hs_catchup_back(struct hreq *q)
{
	struct hstream	*s = q->hc->stream;

	if (s == NULL)
		return;
	s->cu = q->cu;
	q->cu = NULL;
	if (q->status != 200) {
		http_close(s->hc);
		return;
	}
	q->hc->inflight += q->body.len;
	q->h->inflight += q->body.len;
	s->catchup = q->body;
	buf_init(&q->body);
	s->coff = 0;
	s->cu_more = q->more;
	s->catching = s->catchup.len > 0 || s->cu_more;
	hs_catchup(s);
}

/*
 * Asks a worker for the catch-up's next chunk, once the client has taken
 * the last (not counted against its address: one at a time per feed).
 */
static void
hs_catchup_more(struct hstream *s)
{
	struct hreq	*q;

	q = http_hreq(s->h, s->hc, s->req);
	q->cu = s->cu;
	s->cu = NULL;
	q->ndjson = s->ndjson;
	q->work = hs_catchup_work;
	q->done = hs_catchup_back;
	q->cleanup = hfeed_cu_free;
	if (http_submit_more(q) != 0) {
		s->cu = q->cu;
		q->cu = NULL;
		http_hreq_free(q);
	}
}

/*
 * Sends a live game's game event and moves after since (at least
 * g->base), and attaches; or, with a catch-up cu (its first chunk of the
 * moves from the log after since up to g->base, charged to
 * max-http-inflight: its bytes are the feed's now, and the catch-up's
 * next chunks), those first.
 */
static void
hfeed_attach(struct http *h, struct hconn *hc, struct evhttp_request *req,
    struct fgame *g, unsigned long since, int ndjson, struct hreq *cu)
{
	struct hstream	*s;
	struct buf	 b;

	if (hfeed_limits(h, hc, req) != 0 ||
	    (s = hs_start(h, hc, req, ndjson)) == NULL) {
		if (cu != NULL)
			http_inflight_done(hc, cu->body.len);
		return;
	}
	buf_init(&b);
	hfeed_game_json(h, "game", g->id, &b);
	hs_send(s, NULL, "game", buf_str(&b));
	buf_free(&b);
	s->g = g;
	s->next = since - g->base;
	if (cu != NULL) {
		s->next = 0;
		s->catchup = cu->body;
		buf_init(&cu->body);
		s->cu = cu->cu;		/* its next chunks */
		cu->cu = NULL;
		s->cu_more = cu->more;
		s->catching = s->catchup.len > 0 || s->cu_more;
	}
	LIST_INSERT_HEAD(&g->streams, s, entry);
	hs_catchup(s);
}

/*
 * Has the lobby send game id's logged moves 1 to upto (0: all it has
 * played) through the hook (lobby_xfeed_backfill), for a game restored
 * from the log; not to the TV.  Returns 0 or -1.
 */
static int
hfeed_backfill(struct hfeed *f, int64_t id, unsigned long upto)
{
	int		 rc;

	f->backfill = 1;
	rc = lobby_xfeed_backfill(f->h->srv->lobby, id, upto);
	f->backfill = 0;
	return (rc);
}

/*
 * Sets *gp to game id's events if it is live here, else to NULL: kept
 * from now on if nobody followed it yet.  Another node's game is looked
 * up on a worker (hfeed_xwork).
 */
static void
hfeed_live(struct http *h, int64_t id, struct fgame **gp)
{
	struct lobby_live v;

	if ((*gp = fgame_find(h->feed, id)) != NULL)
		return;
	if (lobby_web_game(h->srv->lobby, id, &v)) {
		*gp = fgame_get(h->feed, id);
		(*gp)->base = v.ply;	/* the later ones come by the hook */
	}
}

/* Sets r's reply after its catch-up's chunk came back as rc (worker). */
static void
hfeed_catchup_rc(struct hreq *r, int rc)
{
	r->more = rc == 1;
	if (rc == RPAGER_FAIL)
		http_fail(r, 503, "the game log cannot be read");
	else if (rc < 0)
		http_fail(r, 503, "the game log does not have the game's "
		    "moves: try again");
}

/*
 * The moves of a live game from the log after r->since up to its ply
 * r->limit, as feed events with the clocks the lobby had: the first
 * chunk (worker); the feed asks for the next ones as its client reads.
 */
static void
hfeed_catchup_work(struct hreq *r)
{
	hfeed_catchup_rc(r, hcatch_next(r->cu, &r->body));
}

/* Frees the catch-up a request carries (its cleanup). */
static void
hfeed_cu_free(struct hreq *r)
{
	hcatch_free(r->cu);
	r->cu = NULL;
}

static void	 hfeed_serve(struct http *, struct hconn *,
		    struct evhttp_request *, struct fgame *, unsigned long, int);

/*
 * A catch-up is ready (loop): the feed attaches to its game; if the game
 * ended meanwhile, it is served as a finished game's (its record).
 */
static void
hfeed_catchup_done(struct hreq *r)
{
	struct http	*h = r->h;
	struct fgame	*g = fgame_find(h->feed, r->id);
	struct hreq	*f;

	if (g != NULL)
		g->pending--;
	if (r->status != 200)
		http_json(r->req, r->status, &r->body);
	else if (g == NULL) {
		f = http_hreq(h, r->hc, r->req);
		f->id = r->id;
		f->since = r->since;
		f->ndjson = r->ndjson;
		(void)http_stream(f, &http_feed_ops, hfeed_type(r->ndjson));
	} else if (g->base != r->limit) {	/* unfollowed, followed again */
		hfeed_serve(h, r->hc, r->req, g, r->since, r->ndjson);
		return;				/* which releases g */
	} else if (http_inflight_admit(r->hc, r->req, r->body.len) == 0)
		hfeed_attach(h, r->hc, r->req, g, r->since, r->ndjson, r);
	if (g != NULL)
		fgame_release(h->feed, g);
}

/* A catch-up's client left before it was ready: its game may go. */
static void
hfeed_catchup_gone(struct hreq *r)
{
	struct fgame	*g = fgame_find(r->h->feed, r->id);

	if (g == NULL)
		return;
	g->pending--;
	fgame_release(r->h->feed, g);
}

/*
 * Attaches a feed after ply since to the events of game g; before the
 * moves g keeps (g->base), it catches up from the log first.
 */
static void
hfeed_serve(struct http *h, struct hconn *hc, struct evhttp_request *req,
    struct fgame *g, unsigned long since, int ndjson)
{
	struct hreq	*r;

	if (since > g->base + g->n)
		http_error(req, 400, "bad parameter since: a ply from 0 to %lu",
		    g->base + (unsigned long)g->n);
	else if (since >= g->base)
		hfeed_attach(h, hc, req, g, since, ndjson, NULL);
	else if (h->srv->store == NULL)
		http_error(req, 400, "bad parameter since: the moves before "
		    "ply %lu are not kept (the game log is off): a ply from "
		    "%lu to %lu", g->base, g->base, g->base +
		    (unsigned long)g->n);
	else {
		r = http_hreq(h, hc, req);
		r->id = g->id;
		r->since = since;
		r->limit = (unsigned int)g->base;
		r->ndjson = ndjson;
		r->work = hfeed_catchup_work;
		r->done = hfeed_catchup_done;
		r->gone = hfeed_catchup_gone;
		r->cu = hcatch_new(h->srv->store, g->id, since, g->base,
		    ndjson);
		r->cleanup = hfeed_cu_free;
		if (http_submit_big(r) == 0)
			g->pending++;
	}
	fgame_release(h->feed, g);
}

/*
 * On a worker: another node's live game (its lease, then its record), or
 * else the finished game's feed from the log (its first chunk).
 */
static void
hfeed_xwork(struct hreq *r)
{
	struct lobby	*lb = r->h->srv->lobby;

	r->xpre = lobby_xfeed_fetch(lb, r->id);
	if (!lobby_xfeed_pre_live(lb, r->xpre))
		http_stream_work(r);
}

/*
 * On the loop: follows the game another node has (its moves so far to
 * its events), or answers as for a finished game; a game that came here
 * meanwhile is served as this node's.
 */
static void
hfeed_xdone(struct hreq *r)
{
	struct http	*h = r->h;
	struct fgame	*g;
	struct buf	 err;
	int		 rc;

	hfeed_live(h, r->id, &g);
	if (g == NULL && !lobby_xfeed_pre_live(h->srv->lobby, r->xpre)) {
		http_stream_done(r);
		return;
	}
	if (g == NULL) {
		buf_init(&err);
		rc = lobby_xfeed_open(h->srv->lobby, r->xpre, &err);
		if (rc == 0) {
			g = fgame_get(h->feed, r->id);
			g->remote = 1;
		} else if (rc == -2)
			http_error(r->req, 503, "%s", buf_str(&err));
		else
			http_error(r->req, 503, "game %lld ended meanwhile: "
			    "try again", (long long)r->id);
		buf_free(&err);
	}
	if (g != NULL)
		hfeed_serve(h, r->hc, r->req, g, r->since, r->ndjson);
}

/* GET /api/games/ID/feed. */
void
hfeed_open(struct http *h, struct hconn *hc, struct evhttp_request *req,
    int64_t id, const struct evkeyvalq *q)
{
	struct fgame	*g;
	struct hreq	*r;
	unsigned long	 since;

	if (hfeed_since(req, q, &since) != 0)
		return;
	hfeed_live(h, id, &g);
	if (g != NULL) {
		hfeed_serve(h, hc, req, g, since, hfeed_ndjson(req));
		return;
	}
	if (h->srv->store == NULL) {
		http_error(req, 404, "no live game %lld (the game log is off)",
		    (long long)id);
		return;
	}
	r = http_hreq(h, hc, req);
	r->id = id;
	r->since = since;
	r->ndjson = hfeed_ndjson(req);
	if (lobby_xfeed_remote(h->srv->lobby)) {
		r->work = hfeed_xwork;
		r->done = hfeed_xdone;
	}
	(void)http_stream(r, &http_feed_ops, hfeed_type(r->ndjson));
}

/* Sends the featured game (if any) to the TV feeds, or to one. */
static void
hfeed_featured(struct http *h, struct hstream *only)
{
	struct hstream	*s;
	struct buf	 b;

	if (h->feed->featured == 0)
		return;
	buf_init(&b);
	hfeed_game_json(h, "featured", h->feed->featured, &b);
	if (only != NULL)
		hs_send(only, NULL, "featured", buf_str(&b));
	else
		LIST_FOREACH(s, &h->feed->tv, entry)
			hs_send(s, NULL, "featured", buf_str(&b));
	buf_free(&b);
}

/* GET /api/tv/feed. */
void
hfeed_tv(struct http *h, struct hconn *hc, struct evhttp_request *req)
{
	struct hstream	*s;

	if (hfeed_limits(h, hc, req) != 0 ||
	    (s = hs_start(h, hc, req, hfeed_ndjson(req))) == NULL)
		return;
	LIST_INSERT_HEAD(&h->feed->tv, s, entry);
	if (h->feed->featured == 0)
		h->feed->featured = lobby_web_featured(h->srv->lobby);
	hfeed_featured(h, s);
}

/* Writes an end event's JSON. */
static void
hfeed_end_json(const struct lobby_feed *lf, struct buf *b)
{
	struct json	 j;

	http_feed_event_head(&j, b, "end", lf->id);
	json_key(&j, "result");
	json_str(&j, lf->winner == 1 ? "first" : lf->winner == 2 ? "second" :
	    NULL);
	json_kstr(&j, "winner", lf->winner_name);
	json_kstr(&j, "reason", lf->reason);
	json_kstr(&j, "detail", lf->detail);
	json_kuint(&j, "plies", lf->ply);
	json_kbool(&j, "logged", lf->logged);
	json_end_obj(&j);
}

/*
 * A move: keep it, send it to the game's feeds and the TV's.  A move the
 * game's events have is not kept again; before one that comes after a
 * gap (the first move of a game restored from the log), the moves before
 * it are read from the log (hfeed_backfill); without them it is dropped.
 */
static void
hfeed_move(struct hfeed *f, const struct lobby_feed *lf, const char *json)
{
	struct fgame	*g = fgame_find(f, lf->id);	/* NULL: unfollowed */
	struct hstream	*s;
	struct buf	 sse, nd;
	char		 id[24];

	if (g != NULL && lf->ply <= g->base + g->n)
		return;
	if (g != NULL && lf->ply > g->base + g->n + 1 &&
	    (hfeed_backfill(f, lf->id, lf->ply - 1) != 0 ||
	    lf->ply != g->base + g->n + 1)) {
		log_warnx("event=feed-gap game=%lld ply=%lu have=%lu",
		    (long long)lf->id, lf->ply, g->base + (unsigned long)g->n);
		return;
	}
	snprintf(id, sizeof id, "%lu", lf->ply);
	buf_init(&sse);
	buf_init(&nd);
	hs_format(id, "move", json, &sse, &nd);
	if (g != NULL) {
		if (g->n == g->cap) {
			g->cap = g->cap == 0 ? 16 : g->cap * 2;
			g->moves = xreallocarray(g->moves, g->cap,
			    sizeof *g->moves);
		}
		g->moves[g->n++] = xstrdup(json);
		LIST_FOREACH(s, &g->streams, entry)
			if (!s->catching && s->next == g->n - 1) {
				s->next++;	/* else hs_catchup sends it */
				hs_frame(s, &sse, &nd);
			}
	}
	if (f->backfill)
		;
	else if (f->featured == lf->id) {
		hs_format(NULL, "move", json, &sse, &nd);
		LIST_FOREACH(s, &f->tv, entry)
			hs_frame(s, &sse, &nd);
	} else if (f->featured == 0 &&
	    (f->featured = lobby_web_featured(f->h->srv->lobby)) != 0)
		hfeed_featured(f->h, NULL);
	buf_free(&sse);
	buf_free(&nd);
}

/* An end: send it, end the game's feeds, and move the TV on. */
static void
hfeed_end(struct hfeed *f, const struct lobby_feed *lf, const char *json)
{
	struct fgame	*g = fgame_find(f, lf->id);
	struct hstream	*s;

	if (g != NULL) {
		while ((s = LIST_FIRST(&g->streams)) != NULL) {
			if (s->catching || s->next < g->n) {
				/* Still catching up: it resumes from the log. */
				s->dropped = 1;
				hs_end(s);
				continue;
			}
			hs_send(s, "end", "end", json);
			hs_end(s);
		}
		fgame_free(g);
	}
	if (f->featured == lf->id) {
		LIST_FOREACH(s, &f->tv, entry)
			hs_send(s, NULL, "end", json);
		f->featured = lobby_web_featured(f->h->srv->lobby);
		hfeed_featured(f->h, NULL);
	}
}

/*
 * Returns 1 if nobody reads a move of game id: no feed follows the game,
 * and the TV shows another game (or this one to no TV feed).  Such a
 * move's JSON is not built (issue 28 §2); with no featured game the move
 * still goes through hfeed_move, which picks one.
 */
static int
hfeed_unread(struct hfeed *f, int64_t id)
{
	if (fgame_find(f, id) != NULL)
		return (0);
	return (f->backfill || (f->featured != 0 &&
	    (f->featured != id || LIST_EMPTY(&f->tv))));
}

/* The lobby's hook (on the loop): the event's JSON, then its sending. */
static void
hfeed_hook(void *arg, const struct lobby_feed *lf)
{
	struct hfeed	*f = arg;
	struct buf	 b;

	if (!lf->end && hfeed_unread(f, lf->id))
		return;
	buf_init(&b);
	if (lf->end) {
		hfeed_end_json(lf, &b);
		hfeed_end(f, lf, buf_str(&b));
	} else {
		http_feed_move_json(lf, &b);
		hfeed_move(f, lf, buf_str(&b));
	}
	buf_free(&b);
}

/* The heartbeat: a comment (SSE) or an empty line (NDJSON) to each feed. */
void
hfeed_beat(struct http *h)
{
	struct hstream	*s;
	struct buf	 sse, nd;

	buf_init(&sse);
	buf_init(&nd);
	buf_puts(&sse, ": ping\n\n");
	buf_puts(&nd, "\n");
	TAILQ_FOREACH(s, &h->feed->all, all)
		if (s->g == NULL || s->next == s->g->n)	/* not catching up */
			hs_frame(s, &sse, &nd);
	buf_free(&sse);
	buf_free(&nd);
}

/* Drops the feeds over the cap: their connections close. */
void
hfeed_reap(struct http *h)
{
	struct hstream	*s, *next;

	for (s = TAILQ_FIRST(&h->feed->all); s != NULL; s = next) {
		next = TAILQ_NEXT(s, all);
		if (s->dropped)
			http_close(s->hc);	/* hfeed_closed frees s */
	}
}

/* Shutdown: every feed ends now. */
void
hfeed_stop(struct http *h)
{
	struct hstream	*s;

	while ((s = TAILQ_FIRST(&h->feed->all)) != NULL)
		hs_end(s);
}

struct hfeed *
hfeed_new(struct http *h)
{
	struct hfeed	*f;
	size_t		 i;

	f = xcalloc(1, sizeof *f);
	f->h = h;
	for (i = 0; i < HFEED_BUCKETS; i++)
		LIST_INIT(&f->games[i]);
	LIST_INIT(&f->tv);
	TAILQ_INIT(&f->all);
	lobby_set_feed(h->srv->lobby, hfeed_hook, f);
	return (f);
}

void
hfeed_free(struct hfeed *f)
{
	struct fgame	*g;
	size_t		 i;

	lobby_set_feed(f->h->srv->lobby, NULL, NULL);
	for (i = 0; i < HFEED_BUCKETS; i++)
		while ((g = LIST_FIRST(&f->games[i])) != NULL)
			fgame_free(g);
	free(f);
}
