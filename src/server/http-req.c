/*
 * http-req.c: what the HTTP side's files share, calling none of them:
 * replies and JSON errors counted by status, the query parameters'
 * checks, the requests answered on the server's workers, and a
 * connection's output.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "server/http-int.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "nodestore/store-where.h"
#include "lib/metrics.h"
#include "server/server-int.h"

/* The status codes the server answers, as metric labels and reasons. */
static const struct {
	int		 code;
	const char	*text, *reason;
} http_codes[] = {
	{ 200, "200", "OK" },
	{ 204, "204", "No Content" },
	{ 400, "400", "Bad Request" },
	{ 404, "404", "Not Found" },
	{ 405, "405", "Method Not Allowed" },
	{ 500, "500", "Internal Server Error" },
	{ 503, "503", "Service Unavailable" },
};
/* Returns the index of code in http_codes (500's if unknown). */
static size_t
http_code(int code)
{
	size_t	 i;

	for (i = 0; i < sizeof http_codes / sizeof http_codes[0]; i++)
		if (http_codes[i].code == code)
			return (i);
	return (5);
}

/* Sets a reply's headers of type; counts it by status; returns its index. */
static size_t
http_headers(struct evhttp_request *req, int code, const char *type)
{
	struct evkeyvalq *oh = evhttp_request_get_output_headers(req);
	size_t		 c = http_code(code);

	evhttp_add_header(oh, "Content-Type", type);
	evhttp_add_header(oh, "Cache-Control", "no-cache");
	evhttp_add_header(oh, "X-Content-Type-Options", "nosniff");
	metrics_label(MF_HTTP, http_codes[c].text);
	return (c);
}

/* Sends a complete reply of body b (emptied), counted by status. */
static void
http_send(struct evhttp_request *req, int code, const char *type,
    struct evbuffer *b)
{
	size_t		 c = http_headers(req, code, type);

	evhttp_send_reply(req, http_codes[c].code, http_codes[c].reason, b);
}

/* Starts a 200 of type whose body comes in chunks (a streamed reply). */
void
http_send_start(struct evhttp_request *req, const char *type)
{
	size_t		 c = http_headers(req, 200, type);

	evhttp_send_reply_start(req, http_codes[c].code, http_codes[c].reason);
}

/* Sends a complete reply: status, type and body, counted by status. */
void
http_reply(struct evhttp_request *req, int code, const char *type,
    const char *data, size_t len)
{
	struct evbuffer	*b = evbuffer_new();

	if (len > 0)
		evbuffer_add(b, data, len);
	http_send(req, code, type, b);
	evbuffer_free(b);
}

/*
 * Sends a download: a 200 of type whose Content-Disposition names the file
 * name (every byte but [A-Za-z0-9._-] becomes '_', so that the header
 * needs no quoting).
 */
void
http_download(struct evhttp_request *req, const char *type,
    const char *name, const char *data, size_t len)
{
	http_attachment(req, name);
	http_reply(req, 200, type, data, len);
}

/* Names the reply's file: Content-Disposition, the name made safe. */
void
http_attachment(struct evhttp_request *req, const char *name)
{
	struct buf	 h;
	const char	*p;

	buf_init(&h);
	buf_puts(&h, "attachment; filename=\"");
	for (p = name; *p != '\0'; p++)
		buf_putc(&h, (*p >= 'a' && *p <= 'z') || (*p >= 'A' &&
		    *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		    *p == '_' || *p == '-' ? *p : '_');
	buf_putc(&h, '"');
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Disposition", buf_str(&h));
	buf_free(&h);
}

/* Sends a JSON body (b holds one JSON value). */
void
http_json(struct evhttp_request *req, int code, struct buf *b)
{
	http_reply(req, code, "application/json; charset=utf-8", b->data,
	    b->len);
}

/*
 * Charges n bytes of a reply proportional to stored data (a record, a
 * finished feed, a feed's catch-up) to max-http-inflight, the
 * server-wide cap on such bytes not yet handed to the kernel, before
 * they are sent; over it, answers 503 and returns -1.  The connection
 * carries them until http_inflight_done or its close.
 */
int
http_inflight_admit(struct hconn *hc, struct evhttp_request *req, size_t n)
{
	struct http	*h = hc->h;
	size_t		 cap = h->srv->conf->max_http_inflight;

	if (h->inflight + n > cap) {
		http_error(req, 503, "too many bytes of records and feeds in "
		    "flight: %zu waiting, %zu more would pass %zu "
		    "(max-http-inflight): try again later", h->inflight, n,
		    cap);
		return (-1);
	}
	hc->inflight += n;
	h->inflight += n;
	return (0);
}

/* n bytes charged by http_inflight_admit left for the kernel. */
void
http_inflight_done(struct hconn *hc, size_t n)
{
	if (n > hc->inflight)
		n = hc->inflight;
	hc->inflight -= n;
	hc->h->inflight -= n;
}

/* A big reply was handed to the kernel: its bytes are free. */
static void
http_big_sent(struct evhttp_request *req, void *arg)
{
	struct hconn	*hc = arg;

	(void)req;
	http_inflight_done(hc, hc->inflight);
}

/*
 * r's charge to max-http-inflight passes to its connection until its
 * reply is sent (its last chunk is on its way).
 */
void
http_charge_until_sent(struct hreq *r)
{
	r->charged = 0;
	evhttp_request_set_on_complete_cb(r->req, http_big_sent, r->hc);
}

/* Sends {"error": TEXT, "status": CODE} with that status. */
void
http_error(struct evhttp_request *req, int code, const char *fmt, ...)
{
	struct buf	 msg, out;
	struct json	 j;
	va_list		 ap;

	buf_init(&msg);
	buf_init(&out);
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	json_init(&j, &out);
	json_obj(&j);
	json_kstr(&j, "error", buf_str(&msg));
	json_kint(&j, "status", http_codes[http_code(code)].code);
	json_end_obj(&j);
	buf_putc(&out, '\n');
	http_json(req, code, &out);
	buf_free(&msg);
	buf_free(&out);
}

/* Appends "&key=VALUE" (URL-encoded) to a next-page URL. */
void
http_url_param(struct buf *u, const char *key, const char *value)
{
	char	*e = evhttp_encode_uri(value);

	buf_printf(u, "%s=%s&", key, e != NULL ? e : "");
	free(e);
}

/*
 * Decodes the one segment after prefix into out (1 to HTTP_NAME_MAX
 * bytes, no NUL); -1 after answering 400.
 */
int
http_segment(struct evhttp_request *req, const char *seg, char *out)
{
	char	*d;
	size_t	 n;

	if ((d = evhttp_uridecode(seg, 0, &n)) == NULL || n == 0 ||
	    n > HTTP_NAME_MAX || strlen(d) != n) {
		free(d);
		http_error(req, 400, "bad name: 1 to %d bytes", HTTP_NAME_MAX);
		return (-1);
	}
	memcpy(out, d, n + 1);
	free(d);
	return (0);
}

/* Returns the bytes of output a connection has not sent yet. */
size_t
http_output(struct hconn *hc)
{
	struct bufferevent *bev = evhttp_connection_get_bufferevent(hc->evcon);

	return (evbuffer_get_length(bufferevent_get_output(bev)));
}

/* Drops a connection now (its close callback runs). */
void
http_close(struct hconn *hc)
{
	evhttp_connection_free(hc->evcon);
}

/* A request to answer off the loop, tied to its connection. */
struct hreq *
http_hreq(struct http *h, struct hconn *hc, struct evhttp_request *req)
{
	struct hreq	*r;

	r = xcalloc(1, sizeof *r);
	r->h = h;
	r->hc = hc;
	r->req = req;
	r->head = evhttp_request_get_command(req) == EVHTTP_REQ_HEAD;
	snprintf(r->host, sizeof r->host, "%s", hc->host);
	buf_init(&r->body);
	buf_init(&r->extra);
	buf_init(&r->extra2);
	json_init(&r->j, &r->body);
	r->status = 200;
	TAILQ_INSERT_TAIL(&h->reqs, r, entry);
	return (r);
}

void
http_hreq_free(struct hreq *r)
{
	TAILQ_REMOVE(&r->h->reqs, r, entry);
	if (r->cleanup != NULL)
		r->cleanup(r);
	if (r->hc != NULL && r->charged > 0)
		http_inflight_done(r->hc, r->charged);
	if (r->big)
		r->h->nbuilding--;
	lobby_xfeed_pre_free(r->xpre);
	lobby_xtour_pre_free(r->xtour);
	buf_free(&r->body);
	buf_free(&r->extra);
	buf_free(&r->extra2);
	if (r->xlive != NULL)
		store_elsewhere_free(r->xlive);
	free(r->xlive);
	free(r->xoff);
	free(r);
}

/* Worker: the request's work. */
static void
http_job_work(void *arg)
{
	struct hreq	*r = arg;

	r->work(r);
}

/*
 * Loop: the work is done; answer unless the client left.  A big reply is
 * no longer being built: its place among HTTP_BUILDS is given back before
 * done runs, as done may submit the next step of the same request (a
 * feed's catch-up whose game ended meanwhile asks for the record), which
 * was refused with 503 while its own finished build still counted.
 */
static void
http_job_back(void *arg)
{
	struct hreq	*r = arg;

	r->keep = 0;
	if (r->big) {
		r->big = 0;
		r->h->nbuilding--;
	}
	if (r->req != NULL && r->done != NULL)
		r->done(r);
	else if (r->req != NULL)
		http_json(r->req, r->status, &r->body);
	else if (r->gone != NULL)
		r->gone(r);
	if (!r->keep)
		http_hreq_free(r);
}

/* Queues r's work for the workers unless its address has max there. */
static int
http_pool(struct hreq *r, unsigned int max, unsigned int *queued)
{
	struct server	*srv = r->h->srv;
	struct job	*j;

	j = pool_job(http_job_work, http_job_back, r, r->host);
	if (pool_submit(&srv->pool, j, max, queued) != 0) {
		job_free(j);
		return (-1);
	}
	return (0);
}

/*
 * Runs r's work on the server's workers, counted against its address as
 * a heavy command (max-queued-per-ip; 503 over it); then, on the loop,
 * unless the client left (r->req NULL), r->done or the JSON reply of
 * r->status and r->body; then r is freed.  Returns 0, or -1 after
 * answering 503 (r freed, its done never called).
 */
int
http_submit(struct hreq *r)
{
	unsigned int	 queued;

	if (http_pool(r, r->h->srv->conf->max_queued_per_ip, &queued) != 0) {
		http_error(r->req, 503, "busy: %u requests from your address "
		    "are running or waiting (max-queued-per-ip): retry later",
		    queued);
		http_hreq_free(r);
		return (-1);
	}
	return (0);
}

/*
 * Runs r's work again (a streamed reply's next chunk), not counted
 * against its address: r was admitted, and has one job at a time.
 * Returns 0, or -1 (r left to the caller).
 */
int
http_submit_more(struct hreq *r)
{
	unsigned int	 queued;

	return (http_pool(r, UINT_MAX, &queued));
}

/*
 * http_submit for a reply proportional to stored data (a record, a
 * feed's catch-up): admitted only while max-http-inflight is not reached
 * and fewer than HTTP_BUILDS such replies are being built, so that what
 * the workers build at once is bounded too.  Returns 0, or -1 after
 * answering 503 (r freed).
 */
int
http_submit_big(struct hreq *r)
{
	struct http	*h = r->h;
	size_t		 cap = h->srv->conf->max_http_inflight;

	if (h->inflight >= cap || h->nbuilding >= HTTP_BUILDS) {
		http_error(r->req, 503, "too many bytes of records and feeds "
		    "in flight: %zu waiting, %zu being built (max-http-inflight "
		    "%zu, at most %d built at once): try again later",
		    h->inflight, h->nbuilding, cap, HTTP_BUILDS);
		http_hreq_free(r);
		return (-1);
	}
	r->big = 1;
	h->nbuilding++;
	return (http_submit(r));
}

/*
 * Parses a decimal id from 1 to INT64_MAX (digits only); on error answers
 * 400 naming what and returns -1.
 */
int
http_param_id(struct evhttp_request *req, const char *text, const char *what,
    int64_t *id)
{
	uint64_t	 v = 0;
	const char	*p;

	for (p = text; *p >= '0' && *p <= '9' && p - text < 19; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p == text || *p != '\0' || v == 0 || v > INT64_MAX) {
		http_error(req, 400, "bad %s: a decimal from 1 to %" PRId64,
		    what, INT64_MAX);
		return (-1);
	}
	*id = (int64_t)v;
	return (0);
}

/*
 * Reads query parameter key as a decimal from min to max.  Returns 1 with
 * *v set, 0 if absent, or -1 after answering 400.
 */
int
http_param_uint(struct evhttp_request *req, const struct evkeyvalq *q,
    const char *key, unsigned long min, unsigned long max, unsigned long *v)
{
	const char	*t = evhttp_find_header(q, key), *p;
	unsigned long	 n = 0;

	if (t == NULL)
		return (0);
	for (p = t; *p >= '0' && *p <= '9' && p - t < 19; p++)
		n = n * 10 + (unsigned long)(*p - '0');
	if (p == t || *p != '\0' || n < min || n > max) {
		http_error(req, 400, "bad parameter %s: an integer from %lu to "
		    "%lu", key, min, max);
		return (-1);
	}
	*v = n;
	return (1);
}

/*
 * Reads query parameter key as a name of 1 to HTTP_NAME_MAX bytes into
 * out (*has: present).  Returns 0, or -1 after answering 400.
 */
int
http_param_name(struct evhttp_request *req, const struct evkeyvalq *q,
    const char *key, char *out, int *has)
{
	const char	*t = evhttp_find_header(q, key);
	size_t		 n;

	*has = 0;
	if (t == NULL)
		return (0);
	if ((n = strlen(t)) == 0 || n > HTTP_NAME_MAX) {
		http_error(req, 400, "bad parameter %s: 1 to %d bytes", key,
		    HTTP_NAME_MAX);
		return (-1);
	}
	memcpy(out, t, n + 1);
	*has = 1;
	return (0);
}

/*
 * Frees a request its connection left behind: when a client goes away
 * before a request is answered (or a feed ended), evhttp takes the
 * request off the connection (no connection any more) and leaves it to
 * us; while it is still on the connection, the connection frees it.
 */
void
http_req_orphan(struct evhttp_request *req)
{
	if (req != NULL && evhttp_request_get_connection(req) == NULL)
		evhttp_request_free(req);
}
