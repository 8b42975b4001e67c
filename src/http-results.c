/*
 * http-results.c: the results endpoints of the JSON API (PROTOCOL.md
 * §14.3): GET /api/pairs?a=A&b=B[&tournament=NAME], a pair's statistics
 * from the log, read on a worker (results-read.c), the same data as
 * `pairstats`.
 */
#include <sys/queue.h>

#include <stdio.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "http-int.h"
#include "lobby.h"
#include "results.h"
#include "results-json.h"
#include "server-int.h"
#include "store.h"
#include "store-results.h"

/* GET /api/pairs, on a worker: a in r->name, b in r->tour. */
static void
http_pairs_work(struct hreq *r)
{
	struct store_rfilter f;
	struct results	 res;
	struct results_pair p;
	char		 err[128];

	memset(&f, 0, sizeof f);
	f.a = r->name;
	f.b = r->tour;
	f.tournament = r->id;
	f.since_ms = f.until_ms = STORE_TIME_NONE;
	f.max = RESULTS_MAX_GAMES;
	if (results_read(r->h->srv->store, &f, &res, err, sizeof err) != 0) {
		http_fail(r, strncmp(err, "more", 4) == 0 ? 413 : 503, err);
		return;
	}
	results_pair_named(&res, f.a, f.b, &p);
	json_obj(&r->j);
	results_json_pair(&r->j, f.a, f.b, &p);
	json_end_obj(&r->j);
	buf_putc(&r->body, '\n');
	results_free(&res);
}

/* GET /api/pairs?a=A&b=B[&tournament=NAME]. */
void
http_pairs(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const struct evkeyvalq *q)
{
	struct hreq	*r;
	char		 a[HTTP_NAME_MAX + 1], b[HTTP_NAME_MAX + 1];
	char		 tour[HTTP_NAME_MAX + 1];
	int		 ha, hb, ht;
	int64_t		 id = 0;

	if (http_param_name(req, q, "a", a, &ha) != 0 ||
	    http_param_name(req, q, "b", b, &hb) != 0 ||
	    http_param_name(req, q, "tournament", tour, &ht) != 0)
		return;
	if (!ha || !hb || strcmp(a, b) == 0) {
		http_error(req, 400, "parameters a and b: two different "
		    "players");
		return;
	}
	if (h->srv->store == NULL) {
		http_error(req, 503, "the game log is off (--db off)");
		return;
	}
	if (ht && (id = lobby_web_tour_id(h->srv->lobby, tour)) == 0) {
		http_error(req, 404, "no tournament %s", tour);
		return;
	}
	r = http_hreq(h, hc, req);
	memcpy(r->name, a, sizeof r->name);
	memcpy(r->tour, b, sizeof r->tour);
	r->id = id;
	r->work = http_pairs_work;
	http_submit(r);
}
