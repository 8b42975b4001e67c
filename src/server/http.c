/*
 * http.c: grundyd's HTTP listeners on the server's event loop (libevent's
 * evhttp), their limits (PROTOCOL.md §14.6), the routing of requests to
 * the embedded pages (web/), the JSON API (http-api.c) and the feeds
 * (http-feed.c), and the requests answered off the loop on the server's
 * workers.  Read-only: only GET and HEAD.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "lobby/lobby.h"
#include "node/lnode.h"
#include "proto/conf.h"
#include "server/http.h"
#include "server/http-int.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "server/server-int.h"

/* Returns the hash bucket of a connection. */
static struct hconns *
http_bucket(struct http *h, const struct evhttp_connection *evcon)
{
	return (&h->conns[((uintptr_t)evcon >> 4) % HTTP_BUCKETS]);
}

/* Returns the connection of evcon, or NULL before its first request. */
static struct hconn *
http_conn_find(struct http *h, const struct evhttp_connection *evcon)
{
	struct hconn	*hc;

	LIST_FOREACH(hc, http_bucket(h, evcon), hash)
		if (hc->evcon == evcon)
			return (hc);
	return (NULL);
}

/* The connection closed (evhttp frees it): forget it and its work. */
static void
http_closecb(struct evhttp_connection *evcon, void *arg)
{
	struct hconn	*hc = arg;
	struct http	*h = hc->h;
	struct hreq	*r, *rn;

	if (hc->stream != NULL)
		hfeed_closed(hc->stream);
	for (r = TAILQ_FIRST(&h->reqs); r != NULL; r = rn) {
		rn = TAILQ_NEXT(r, entry);
		if (r->hc == hc) {
			http_req_orphan(r->req);
			r->hc = NULL;
			r->req = NULL;
			http_stream_closed(r);
		}
	}
	h->nexports -= hc->nexports;	/* their replies die with it */
	h->inflight -= hc->inflight;
	LIST_REMOVE(hc, hash);
	if (hc->counted)
		h->nconns--;
	if (hc->first != NULL) {
		event_free(hc->first);
		h->npending--;
	}
	free(hc);
}

/*
 * Knows a connection: its address, its close.  Returns NULL (and knows
 * nothing) if its address, outside trusted-networks, already has
 * max-http-conns-per-ip connections, counted or waiting for their first
 * request: one address cannot take the others' share of max-http-conns.
 * The count walks every connection: bounded by HTTP_BUCKETS and by twice
 * max-http-conns (the counted ones and the waiting ones).
 */
static struct hconn *
http_conn_new(struct http *h, struct evhttp_connection *evcon)
{
	const struct sockaddr *sa;
	struct hconn	*hc, *o;
	size_t		 i, n = 0;

	hc = xcalloc(1, sizeof *hc);
	hc->h = h;
	hc->evcon = evcon;
	sa = evhttp_connection_get_addr(evcon);
	if (sa != NULL && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
		    hc->host, sizeof hc->host);
	else if (sa != NULL && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6,
		    &((const struct sockaddr_in6 *)sa)->sin6_addr, hc->host,
		    sizeof hc->host);
	hc->trusted = sa != NULL && conf_trusted(h->srv->conf, sa);
	for (i = 0; !hc->trusted && i < HTTP_BUCKETS; i++)
		LIST_FOREACH(o, &h->conns[i], hash)
			n += strcmp(o->host, hc->host) == 0;
	if (n >= h->srv->conf->max_http_conns_per_ip) {
		log_info("event=http-refuse reason=max-http-conns-per-ip "
		    "peer=%s conns=%zu", hc->host, n);
		free(hc);
		return (NULL);
	}
	LIST_INSERT_HEAD(http_bucket(h, evcon), hc, hash);
	evhttp_connection_set_closecb(evcon, http_closecb, hc);
	return (hc);
}

/* http-timeout passed before a connection's first request: close it. */
static void
http_first_cb(evutil_socket_t fd, short what, void *arg)
{
	struct hconn	*hc = arg;

	evhttp_connection_free(hc->evcon);	/* frees hc (http_closecb) */
}

/* An accepted connection's bufferevent, until the pass after. */
struct haccept {
	struct http	*h;
	struct bufferevent *bev;
};

/*
 * The loop pass after an accept (evhttp made the connection around the
 * bufferevent of http_bevcb): a connection still open without a request
 * gets http-timeout to send one.  evhttp's own timeout restarts at every
 * read, so a request trickling in a byte at a time would hold its
 * connection, uncounted, for ever.  At most max-http-conns wait so: one
 * more is closed at once (idle connections would take every descriptor,
 * the line protocol's too).
 */
static void
http_accepted_cb(evutil_socket_t fd, short what, void *arg)
{
	struct haccept	*a = arg;
	struct hconn	*hc = NULL;
	struct evhttp_connection *evcon = NULL;
	struct timeval	 tv = { 0, 0 };

	/* NULL once evhttp freed the connection (our reference kept bev). */
	bufferevent_getcb(a->bev, NULL, NULL, NULL, (void **)&evcon);
	if (evcon != NULL && http_conn_find(a->h, evcon) == NULL &&
	    a->h->npending >= a->h->srv->conf->max_http_conns)
		evhttp_connection_free(evcon);	/* a flood: keep the fds */
	else if (evcon != NULL && http_conn_find(a->h, evcon) == NULL &&
	    (hc = http_conn_new(a->h, evcon)) == NULL)
		evhttp_connection_free(evcon);	/* its address's share */
	else if (evcon != NULL && hc != NULL) {
		a->h->npending++;
		tv.tv_sec = (time_t)a->h->srv->conf->http_timeout;
		hc->first = evtimer_new(a->h->srv->base, http_first_cb, hc);
		evtimer_add(hc->first, &tv);
	}
	bufferevent_decref(a->bev);
	free(a);
}

/* Makes each accepted connection's bufferevent (evhttp_set_bevcb). */
static struct bufferevent *
http_bevcb(struct event_base *base, void *arg)
{
	struct haccept	*a;
	struct timeval	 tv = { 0, 0 };

	a = xcalloc(1, sizeof *a);
	a->h = arg;
	if ((a->bev = bufferevent_socket_new(base, -1,
	    BEV_OPT_CLOSE_ON_FREE)) == NULL)
		fatalx("event=http error=\"bufferevent_socket_new failed\"");
	bufferevent_incref(a->bev);
	if (event_base_once(base, -1, EV_TIMEOUT, http_accepted_cb, a,
	    &tv) != 0)
		fatalx("event=http error=\"event_base_once failed\"");
	return (a->bev);
}

/*
 * Counts a connection at its first request; refuses it over
 * max-http-conns (503, then close).  Returns it, or NULL if refused.
 */
static struct hconn *
http_conn(struct http *h, struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct hconn	*hc;
	size_t		 max = h->srv->conf->max_http_conns;

	if ((hc = http_conn_find(h, evcon)) != NULL && hc->counted)
		return (hc);
	if (h->nconns >= max || h->stopping) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Connection", "close");
		http_error(req, 503, "too many HTTP connections: at most %zu "
		    "(max-http-conns)", max);
		return (NULL);
	}
	if (hc == NULL && (hc = http_conn_new(h, evcon)) == NULL) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Connection", "close");
		http_error(req, 503, "too many HTTP connections from your "
		    "address: at most %zu (max-http-conns-per-ip; "
		    "trusted-networks are exempt)",
		    h->srv->conf->max_http_conns_per_ip);
		return (NULL);
	}
	if (hc->first != NULL) {
		event_free(hc->first);
		h->npending--;
	}
	hc->first = NULL;
	hc->counted = 1;
	h->nconns++;
	return (hc);
}

/* Serves an embedded file of web/; 404 if there is none. */
static void
http_asset(struct evhttp_request *req, const char *name)
{
	size_t	 i;

	for (i = 0; i < web_nassets; i++)
		if (strcmp(web_assets[i].path, name) == 0) {
			http_reply(req, 200, web_assets[i].type,
			    (const char *)web_assets[i].data,
			    web_assets[i].len);
			return;
		}
	http_error(req, 404, "no such file");
}

/* Returns 1 if path is prefix followed by one non-empty segment. */
static int
http_page(const char *path, const char *prefix)
{
	size_t	 n = strlen(prefix);

	return (strncmp(path, prefix, n) == 0 && path[n] != '\0' &&
	    strchr(path + n, '/') == NULL);
}

/*
 * The paths that read the lobby's tournaments or ratings on the loop
 * (§14): which tournament (name, "" for the list of every one; NULL:
 * none) and whether the ratings.
 */
static void
http_pre_what(const char *path, char *name, const char **tour, int *rat)
{
	static const char *const list[] = { "/", "/tournaments",
	    "/api/tournaments" };
	static const char *const one[] = { "/tournament/",
	    "/api/tournaments/" };
	char		*d;
	size_t		 i, n;

	*tour = NULL;
	*rat = strcmp(path, "/") == 0 || strcmp(path, "/ratings") == 0 ||
	    strcmp(path, "/api/ratings") == 0;
	for (i = 0; i < sizeof list / sizeof list[0]; i++)
		if (strcmp(path, list[i]) == 0)
			*tour = "";
	for (i = 0; i < sizeof one / sizeof one[0]; i++) {
		n = strlen(one[i]);
		if (strncmp(path, one[i], n) != 0 ||
		    strchr(path + n, '/') != NULL)
			continue;
		/* A bad name is the route's to refuse. */
		if ((d = evhttp_uridecode(path + n, 0, &n)) != NULL &&
		    n > 0 && n <= HTTP_NAME_MAX && strlen(d) == n) {
			memcpy(name, d, n + 1);
			*tour = name;
		}
		free(d);
	}
}

/* On a worker: what the route reads, from the log (http_pre). */
static void
http_pre_work(struct hreq *r)
{
	if (r->xtour != NULL)
		lobby_xtour_pre_read(r->xtour);
	if (r->rsync)
		lobby_ratings_sync(r->h->srv->lobby);
}

static void	http_route_now(struct http *, struct hconn *,
		    struct evhttp_request *, const char *,
		    const struct evkeyvalq *);

/* Back on the loop: the read applied, the request is routed. */
static void
http_pre_done(struct hreq *r)
{
	const struct evhttp_uri *uri;
	const char	*path, *query;
	struct evkeyvalq q;

	lobby_xtour_pre_apply(r->xtour);
	r->xtour = NULL;
	uri = evhttp_request_get_evhttp_uri(r->req);
	if (uri == NULL || (path = evhttp_uri_get_path(uri)) == NULL ||
	    *path == '\0')
		path = "/";
	if ((query = evhttp_uri_get_query(uri)) == NULL)
		query = "";
	TAILQ_INIT(&q);
	if (evhttp_parse_query_str(query, &q) == 0)	/* parsed before */
		http_route_now(r->h, r->hc, r->req, path, &q);
	evhttp_clear_headers(&q);
}

/*
 * Before a path that reads the tournaments or the ratings on the loop
 * (PROTOCOL.md §13.12: the loop never waits for the database): on a node,
 * what it would read from the log is read on a worker first (a
 * follower's tournaments: lobby-xtread.c; the ratings of other nodes'
 * games: lobby_ratings_sync), then the request is routed.  Returns 1 if
 * it went to a worker (or was refused there: 503), else 0.
 */
static int
http_pre(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *path)
{
	struct lobby	*lb = h->srv->lobby;
	struct xtour_pre *x = NULL;
	struct hreq	*r;
	char		 name[HTTP_NAME_MAX + 1];
	const char	*tour;
	int		 rat;

	if (lb == NULL || h->srv->node == NULL)
		return (0);
	http_pre_what(path, name, &tour, &rat);
	if (tour != NULL)
		x = lobby_xtour_pre(lb, tour[0] != '\0' ? tour : NULL);
	if (x == NULL && !rat)
		return (0);
	r = http_hreq(h, hc, req);
	r->xtour = x;
	r->rsync = rat;
	r->work = http_pre_work;
	r->done = http_pre_done;
	(void)http_submit(r);
	return (1);
}

/* Routes a GET or HEAD request by its path. */
static void
http_route(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *path, const struct evkeyvalq *q)
{
	if (http_pre(h, hc, req, path) == 0)
		http_route_now(h, hc, req, path, q);
}

/* Routes a request whose reads of the log are done (http_pre). */
static void
http_route_now(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *path, const struct evkeyvalq *q)
{
	if (http_page(path, "/static/"))
		http_asset(req, path + strlen("/static/"));
	else if (strcmp(path, "/metrics") == 0 ||
	    strncmp(path, "/api/", 5) == 0)
		http_api(h, hc, req, path, q);
	else if (http_pages(h, hc, req, path, q) != 0)
		http_error(req, 404, "no such page");
}

/*
 * Refuses a query that names a parameter twice, or more than
 * HTTP_PARAMS_MAX (the check is quadratic); returns -1 if it did.
 */
static int
http_query_dups(struct evhttp_request *req, const struct evkeyvalq *q)
{
	const struct evkeyval *a, *b;
	int		 n = 0;

	TAILQ_FOREACH(a, q, next)
		if (++n > HTTP_PARAMS_MAX) {
			http_error(req, 400, "bad query string: more than %d "
			    "parameters", HTTP_PARAMS_MAX);
			return (-1);
		}
	TAILQ_FOREACH(a, q, next)
		for (b = TAILQ_NEXT(a, next); b != NULL;
		    b = TAILQ_NEXT(b, next))
			if (strcmp(a->key, b->key) == 0) {
				http_error(req, 400, "bad parameter %.32s: "
				    "given twice", a->key);
				return (-1);
			}
	return (0);
}

/* Applies the limits in force (a reload may have changed them). */
static void
http_limits(struct http *h)
{
	const struct conf *c = h->srv->conf;

	evhttp_set_max_headers_size(h->eh, (ev_ssize_t)c->max_http_request);
	evhttp_set_max_body_size(h->eh, HTTP_BODY_MAX);
	evhttp_set_timeout(h->eh, (int)c->http_timeout);
}

/* Every request: count its connection, check it, route it. */
static void
http_gencb(struct evhttp_request *req, void *arg)
{
	struct http	*h = arg;
	struct hconn	*hc;
	const struct evhttp_uri *uri;
	const char	*path, *query;
	struct evkeyvalq q;
	enum evhttp_cmd_type cmd;

	http_limits(h);
	if ((hc = http_conn(h, req)) == NULL)
		return;
	cmd = evhttp_request_get_command(req);
	if (cmd != EVHTTP_REQ_GET && cmd != EVHTTP_REQ_HEAD) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", "GET, HEAD");
		http_error(req, 405, "method not allowed: only GET and HEAD");
		return;
	}
	uri = evhttp_request_get_evhttp_uri(req);
	if (uri == NULL || (path = evhttp_uri_get_path(uri)) == NULL ||
	    *path == '\0')
		path = "/";
	if ((query = evhttp_uri_get_query(uri)) == NULL)
		query = "";
	if (strstr(query, "%00") != NULL) {	/* would cut a value short */
		http_error(req, 400, "bad query string: %%00 (NUL)");
		return;
	}
	TAILQ_INIT(&q);
	if (evhttp_parse_query_str(query, &q) != 0) {
		http_error(req, 400, "bad query string");
		evhttp_clear_headers(&q);
		return;
	}
	if (http_query_dups(req, &q) == 0)
		http_route(h, hc, req, path, &q);
	evhttp_clear_headers(&q);
}

/* Listens on one configured address. */
static void
http_listen(struct http *h, const char *addr)
{
	struct sockaddr_storage ss;
	struct evconnlistener *l;
	socklen_t	 len = sizeof ss;
	int		 sslen = sizeof ss, port = 0;

	if (conf_parse_addr(addr, &ss, &sslen) != 0)
		fatalx("event=http-listen addr=%s error=\"not ADDR:PORT\"",
		    addr);
	l = evconnlistener_new_bind(h->srv->base, NULL, NULL,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
	    512, (struct sockaddr *)&ss, sslen);
	if (l == NULL)
		fatal("event=http-listen addr=%s", addr);
	if (evhttp_bind_listener(h->eh, l) == NULL)
		fatalx("event=http-listen addr=%s error=\"evhttp\"", addr);
	if (getsockname(evconnlistener_get_fd(l), (struct sockaddr *)&ss,
	    &len) == 0)
		port = ntohs(ss.ss_family == AF_INET6 ?
		    ((struct sockaddr_in6 *)&ss)->sin6_port :
		    ((struct sockaddr_in *)&ss)->sin_port);
	log_info("event=http-listen addr=%s port=%d", addr, port);
}

/* The heartbeat timer: pings the feeds, then re-arms (setting in force). */
static void
http_beat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct http	*h = arg;
	unsigned long	 ms = h->srv->conf->http_heartbeat;
	struct timeval	 tv = { (time_t)(ms / 1000),
			    (suseconds_t)(ms % 1000) * 1000 };

	hfeed_beat(h);
	evtimer_add(h->beat, &tv);
}

/* Drops the feeds marked over the cap (outside the code that found it). */
static void
http_reap_cb(evutil_socket_t fd, short what, void *arg)
{
	hfeed_reap(arg);
}

/* Starts HTTP on the configured addresses; NULL if there are none. */
struct http *
http_start(struct server *srv)
{
	struct http	*h;
	int		 i;

	if (srv->conf->nhttp == 0)
		return (NULL);
	h = xcalloc(1, sizeof *h);
	h->srv = srv;
	TAILQ_INIT(&h->reqs);
	for (i = 0; i < HTTP_BUCKETS; i++)
		LIST_INIT(&h->conns[i]);
	if ((h->eh = evhttp_new(srv->base)) == NULL)
		fatalx("event=http error=\"evhttp_new failed\"");
	evhttp_set_allowed_methods(h->eh, 0xffff);
	evhttp_set_gencb(h->eh, http_gencb, h);
	evhttp_set_bevcb(h->eh, http_bevcb, h);
	http_limits(h);
	for (i = 0; i < srv->conf->nhttp; i++)
		http_listen(h, srv->conf->http[i]);
	h->feed = hfeed_new(h);
	h->beat = evtimer_new(srv->base, http_beat_cb, h);
	h->reap = event_new(srv->base, -1, 0, http_reap_cb, h);
	http_beat_cb(-1, 0, h);
	return (h);
}

/* Shutdown: no new requests; the feeds end. */
void
http_stop(struct http *h)
{
	if (h == NULL)
		return;
	h->stopping = 1;
	hfeed_stop(h);
}

/* Frees everything (after the workers stopped). */
void
http_free(struct http *h)
{
	struct hreq	*r;

	if (h == NULL)
		return;
	hfeed_stop(h);
	evhttp_free(h->eh);		/* closes every connection */
	while ((r = TAILQ_FIRST(&h->reqs)) != NULL)
		http_hreq_free(r);
	hfeed_free(h->feed);
	event_free(h->beat);
	event_free(h->reap);
	free(h);
}
