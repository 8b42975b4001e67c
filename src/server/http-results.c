/*
 * http-results.c: the results endpoints of the JSON API (PROTOCOL.md
 * §14.3): GET /api/pairs?a=A&b=B[&tournament=NAME], a pair's statistics
 * from the log, read on a worker (results-read.c), the same data as
 * `pairstats`; GET /api/export, a tournament's or a time span's results
 * and games as one JSON document or one CSV table (export.c).
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "league/export.h"
#include "server/http-int.h"
#include "lobby/lobby.h"
#include "record/record.h"
#include "stats/results.h"
#include "stats/results-json.h"
#include "server/server-int.h"
#include "store/store.h"
#include "store/store-results.h"

/* The most bytes of an export over HTTP (built in memory on a worker). */
#define HTTP_EXPORT_MAX		(64UL << 20)
/*
 * Exports in flight at once, server-wide: each may hold HTTP_EXPORT_MAX
 * from its admission until its reply is handed to the kernel or its
 * connection closes, so that clients that ask and never read hold at most
 * this many times that.  One per address outside trusted-networks.
 */
#define HTTP_EXPORT_SLOTS	4

static void	 http_export_filter(const struct hreq *, struct store_rfilter *);

/* GET /api/pairs, on a worker: a in r->name, b in r->tour. */
static void
http_pairs_work(struct hreq *r)
{
	struct store_rfilter f;
	struct results	 res;
	struct results_pair p;
	char		 err[128];

	http_export_filter(r, &f);
	f.a = r->name;
	f.b = r->tour;
	if (results_read(r->h->srv->store, &f, &res, err, sizeof err) != 0) {
		http_fail(r, strncmp(err, "more", 4) == 0 ? 400 : 503, err);
		return;
	}
	results_pair_named(&res, f.a, f.b, &p);
	json_obj(&r->j);
	results_json_pair(&r->j, f.a, f.b, &p);
	json_end_obj(&r->j);
	buf_putc(&r->body, '\n');
	results_free(&res);
}

/*
 * GET /api/export packs its selection into the request: id the
 * tournament (0: any, -1: outside tournaments), before the start of the
 * span and since its end (ms, STORE_TIME_NONE: none), limit the CSV table
 * + 1 (0: the JSON document).
 */
static void
http_export_filter(const struct hreq *r, struct store_rfilter *f)
{
	memset(f, 0, sizeof *f);
	f->tournament = r->id;
	f->since_ms = r->before;
	f->until_ms = (int64_t)r->since;
	f->max = RESULTS_MAX_GAMES;
}

/* Writes the games of the export, each as /api/games/ID has it. */
static int
http_export_games(struct hreq *r, const struct store_rgames *g)
{
	struct store	*st = r->h->srv->store;
	struct store_record rec;
	char		*tour;
	size_t		 i;

	json_key(&r->j, "games");
	json_arr(&r->j);
	for (i = 0; i < g->n; i++) {
		if (store_record(st, g->v[i].id, &rec) <= 0) {
			http_fail(r, 503, "the game log cannot be read");
			return (-1);
		}
		tour = store_tour_name(st, rec.game.tournament);
		json_obj(&r->j);
		record_json_members(&r->j, &rec, tour);
		json_end_obj(&r->j);
		free(tour);
		store_record_free(&rec);
		if (r->body.len > HTTP_EXPORT_MAX) {
			http_fail(r, 400, "the export is over "
			    "67108864 bytes: choose a narrower set");
			return (-1);
		}
	}
	json_end_arr(&r->j);
	return (0);
}

/* GET /api/export, format=json, on a worker: the whole document. */
static void
http_export_json(struct hreq *r)
{
	struct store_rfilter f;
	struct store_rgames g;
	struct results	 res;
	struct results_pair p;
	char		 err[128];
	size_t		 i;

	http_export_filter(r, &f);
	if (results_read_games(r->h->srv->store, &f, &g, &res, err,
	    sizeof err) != 0) {
		http_fail(r, strncmp(err, "more", 4) == 0 ? 400 : 503, err);
		return;
	}
	json_obj(&r->j);
	json_key(&r->j, "players");
	json_arr(&r->j);
	for (i = 0; i < res.n; i++)
		json_str(&r->j, res.names[i]);
	json_end_arr(&r->j);
	json_key(&r->j, "standings");
	results_json_standings(&r->j, &res);
	json_key(&r->j, "crosstable");
	results_json_crosstable(&r->j, &res);
	json_key(&r->j, "pairs");
	json_arr(&r->j);
	for (i = 0; i < res.npairs; i++) {
		(void)results_pair_get(&res, res.pairs[i].a, res.pairs[i].b,
		    &p);
		json_obj(&r->j);
		results_json_pair(&r->j, res.names[p.a], res.names[p.b], &p);
		json_end_obj(&r->j);
	}
	json_end_arr(&r->j);
	json_key(&r->j, "referee");
	json_arr(&r->j);
	for (i = 0; i < res.n; i++)
		results_json_ref(&r->j, res.names[i], &res.ref[i]);
	json_end_arr(&r->j);
	if (http_export_games(r, &g) == 0) {
		json_end_obj(&r->j);
		buf_putc(&r->body, '\n');
	}
	results_free(&res);
	store_rgames_free(&g);
}

/* GET /api/export, format=csv, on a worker: one table. */
static void
http_export_csv(struct hreq *r)
{
	struct store_rfilter f;
	char		 err[256];

	http_export_filter(r, &f);
	if (export_csv(r->h->srv->store, &f, (enum export_sheet)(r->limit -
	    1), HTTP_EXPORT_MAX, &r->body, err, sizeof err) != 0)
		http_fail(r, strncmp(err, "the game log", 12) == 0 ? 503 :
		    400, err);
}

/* An export's reply was handed to the kernel: its slot is free. */
static void
http_export_sent(struct evhttp_request *req, void *arg)
{
	struct hconn	*hc = arg;

	(void)req;
	hc->nexports--;
	hc->h->nexports--;
}

/*
 * Admits an export (on the loop, before any work): a slot of
 * HTTP_EXPORT_SLOTS, and the only one of its address unless trusted;
 * -1 after answering 503.
 */
static int
http_export_admit(struct http *h, struct hconn *hc,
    struct evhttp_request *req)
{
	const struct hconn *o;
	size_t		 i;

	if (h->nexports >= HTTP_EXPORT_SLOTS) {
		http_error(req, 503, "too many exports in flight (at most %d "
		    "at once): try again later", HTTP_EXPORT_SLOTS);
		return (-1);
	}
	for (i = 0; !hc->trusted && i < HTTP_BUCKETS; i++)
		LIST_FOREACH(o, &h->conns[i], hash)
			if (o->nexports > 0 && strcmp(o->host, hc->host) == 0) {
				http_error(req, 503, "an export from your "
				    "address is in flight: one at a time");
				return (-1);
			}
	hc->nexports++;
	h->nexports++;
	evhttp_request_set_on_complete_cb(req, http_export_sent, hc);
	return (0);
}

/*
 * GET /api/export, back on the loop: a download named r->name (NAME.json,
 * NAME-TABLE.csv), CSV as text/csv.
 */
static void
http_export_done(struct hreq *r)
{
	if (r->status != 200)
		http_json(r->req, r->status, &r->body);
	else
		http_download(r->req, r->limit != 0 ?
		    "text/csv; charset=utf-8" :
		    "application/json; charset=utf-8", r->name, r->body.data,
		    r->body.len);
}

/*
 * Reads the selection of /api/export or /api/pairs into r (need: a
 * tournament or a start is required); -1 after answering 400 or 404.
 */
static int
http_export_args(struct http *h, struct evhttp_request *req,
    const struct evkeyvalq *q, struct hreq *r, int need)
{
	static const char *const keys[] = { "tournament", "since", "until" };
	struct store_rfilter f;
	char		 v[HTTP_NAME_MAX + 1], arg[HTTP_NAME_MAX + 16];
	char		 err[160];
	int		 has, i, sel = 0;

	memset(&f, 0, sizeof f);
	f.since_ms = f.until_ms = STORE_TIME_NONE;
	for (i = 0; i < 3; i++) {
		if (http_param_name(req, q, keys[i], v, &has) != 0)
			return (-1);
		if (!has)
			continue;
		if (i == 0 && strcmp(v, "-") != 0) {
			snprintf(r->tour, sizeof r->tour, "%s", v);
			if ((r->id = lobby_web_tour_id(h->srv->lobby, v)) ==
			    0) {
				http_error(req, 404, "no tournament %s", v);
				return (-1);
			}
			sel = 1;
			continue;
		}
		snprintf(arg, sizeof arg, "%s=%s", keys[i], v);
		if (export_filter_arg(NULL, arg, &f, err, sizeof err) != 0) {
			http_error(req, 400, "%s", err);
			return (-1);
		}
		if (i == 0)
			r->id = -1;
		sel |= i < 2;
	}
	if (need && !sel) {
		http_error(req, 400, "export needs tournament=NAME or "
		    "since=TIME");
		return (-1);
	}
	r->before = f.since_ms;
	r->since = (unsigned long)f.until_ms;
	return (0);
}

/*
 * The request of /api/pairs or /api/export, with its selection read as
 * http_export_args reads it; NULL after answering 503 (the game log is
 * off), 400 or 404.
 */
static struct hreq *
http_results_req(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const struct evkeyvalq *q, int need)
{
	struct hreq	*r;

	if (h->srv->store == NULL) {
		http_error(req, 503, "the game log is off (--db off)");
		return (NULL);
	}
	r = http_hreq(h, hc, req);
	if (http_export_args(h, req, q, r, need) != 0) {
		http_hreq_free(r);
		return (NULL);
	}
	return (r);
}

/* GET /api/pairs?a=A&b=B[&tournament=NAME][&since=TIME][&until=TIME]. */
void
http_pairs(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const struct evkeyvalq *q)
{
	struct hreq	*r;
	char		 a[HTTP_NAME_MAX + 1], b[HTTP_NAME_MAX + 1];
	int		 ha, hb;

	if (http_param_name(req, q, "a", a, &ha) != 0 ||
	    http_param_name(req, q, "b", b, &hb) != 0)
		return;
	if (!ha || !hb || strcmp(a, b) == 0) {
		http_error(req, 400, "parameters a and b: two different "
		    "players");
		return;
	}
	if ((r = http_results_req(h, hc, req, q, 0)) == NULL)
		return;
	memcpy(r->name, a, sizeof r->name);
	memcpy(r->tour, b, sizeof r->tour);
	r->work = http_pairs_work;
	http_submit(r);
}

/*
 * GET /api/export?tournament=NAME|since=TIME[&until=TIME][&format=json|
 * csv&table=TABLE]: built on a worker, at most HTTP_EXPORT_MAX bytes.
 */
void
http_export(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const struct evkeyvalq *q)
{
	const char	*fmt = evhttp_find_header(q, "format");
	const char	*tab = evhttp_find_header(q, "table");
	const char	*base;
	enum export_sheet t = EXPORT_STANDINGS;
	struct hreq	*r;
	int		 csv = fmt != NULL && strcmp(fmt, "csv") == 0;

	if (fmt != NULL && !csv && strcmp(fmt, "json") != 0) {
		http_error(req, 400, "bad parameter format: json or csv");
		return;
	}
	if (csv && (tab == NULL || export_sheet_parse(tab, &t) != 0)) {
		http_error(req, 400, "format=csv needs table=standings, "
		    "crosstable, pairs, referee, games or moves");
		return;
	}
	if ((r = http_results_req(h, hc, req, q, 1)) == NULL)
		return;
	if (http_export_admit(h, hc, req) != 0) {
		http_hreq_free(r);
		return;
	}
	r->limit = csv ? (unsigned int)t + 1 : 0;
	r->work = csv ? http_export_csv : http_export_json;
	r->done = http_export_done;
	base = r->tour[0] != '\0' && strcmp(r->tour, "-") != 0 ? r->tour :
	    "export";
	if (csv)
		snprintf(r->name, sizeof r->name, "%.40s-%.16s.csv", base, tab);
	else
		snprintf(r->name, sizeof r->name, "%.40s.json", base);
	http_submit(r);
}
