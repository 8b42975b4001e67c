/*
 * http-api.c: the JSON endpoints of PROTOCOL.md §14.3 and /metrics
 * (§14.5).  Live data (live games, tournaments, ratings) comes from the
 * lobby on the loop (lobby-web.c); every read of the game log or the
 * accounts runs on a worker (http_submit), which writes the JSON there.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "server/http-int.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lib/metrics.h"
#include "league/rpager.h"
#include "record/record.h"
#include "stats/results-json.h"
#include "server/server-int.h"
#include "store/store.h"

#define HTTP_GAMES_MAX		200	/* limit of /api/games */
#define HTTP_GAMES_DEFAULT	50
#define HTTP_TOUR_GAMES		500	/* a tournament's games listed */
#define HTTP_RATINGS_MAX	1000
#define HTTP_RATINGS_DEFAULT	100
#define HTTP_HISTORY_MAX	200	/* points of a rating history */
#define HTTP_RECENT		20	/* a player's recent games */
/* GET /api/games, on a worker. */
static void
http_games_work(struct hreq *r)
{
	struct store_hfilter f;
	struct store_history h;
	struct buf	 next;

	memset(&f, 0, sizeof f);
	f.player = r->has_name ? r->name : NULL;
	f.tournament_id = r->id;
	memcpy(f.since, r->since_time, sizeof f.since);
	memcpy(f.until, r->until_time, sizeof f.until);
	f.result = r->result[0] != '\0' ? r->result : NULL;
	f.before = r->before;
	f.limit = r->limit + 1;
	if (store_history_page(r->h->srv->store, &f, &h) != 0) {
		http_fail(r, 503, "the game log cannot be read");
		return;
	}
	json_obj(&r->j);
	json_key(&r->j, "games");
	http_games_json(r->h->srv->store, &r->j, &h, r->limit);
	json_key(&r->j, "next");
	if (h.n > r->limit) {
		buf_init(&next);
		buf_puts(&next, "/api/games?");
		if (r->has_name)
			http_url_param(&next, "player", r->name);
		if (r->has_tour)
			http_url_param(&next, "tournament", r->tour);
		if (r->since_time[0] != '\0')
			http_url_param(&next, "since", r->since_time);
		if (r->until_time[0] != '\0')
			http_url_param(&next, "until", r->until_time);
		if (r->result[0] != '\0')
			http_url_param(&next, "result", r->result);
		buf_printf(&next, "before=%lld&limit=%u",
		    (long long)h.games[r->limit - 1].id, r->limit);
		json_str(&r->j, buf_str(&next));
		buf_free(&next);
	} else
		json_null(&r->j);
	json_end_obj(&r->j);
	buf_putc(&r->body, '\n');
	store_history_free(&h);
}

/* Refuses what needs the game log when it is off; -1 if refused. */
static int
http_need_store(struct http *h, struct evhttp_request *req)
{
	if (h->srv->store != NULL)
		return (0);
	http_error(req, 503, "the game log is off (--db off)");
	return (-1);
}

/* Returns 1 if key is absent, or empty in a form (an empty field). */
static int
http_param_none(const struct evkeyvalq *q, const char *key, int form)
{
	const char	*t = evhttp_find_header(q, key);

	return (t == NULL || (form && *t == '\0'));
}

/* Reads the parameter key=DATE into out ("" if absent); -1: 400. */
static int
http_param_time(struct evhttp_request *req, const struct evkeyvalq *q,
    const char *key, int form, char *out, size_t len)
{
	const char	*t = evhttp_find_header(q, key);

	out[0] = '\0';
	if (http_param_none(q, key, form))
		return (0);
	if (strlen(t) > 32 || store_time_arg(t, out, len) != 0) {
		http_error(req, 400, "bad parameter %s: YYYY-MM-DD or "
		    "YYYY-MM-DDTHH:MM:SS.mmmZ", key);
		return (-1);
	}
	return (0);
}

/*
 * Reads the filters of /api/games and /games into r (form: the page's
 * form, whose empty fields are no filter); -1 after a 400.
 */
int
http_games_args(struct http *h, struct evhttp_request *req,
    const struct evkeyvalq *q, struct hreq *r, int form)
{
	unsigned long	 limit = HTTP_GAMES_DEFAULT, before = 0;
	const char	*res = evhttp_find_header(q, "result");

	if ((!http_param_none(q, "player", form) && http_param_name(req, q,
	    "player", r->name, &r->has_name) != 0) ||
	    (!http_param_none(q, "tournament", form) && http_param_name(req,
	    q, "tournament", r->tour, &r->has_tour) != 0) ||
	    http_param_time(req, q, "since", form, r->since_time,
	    sizeof r->since_time) != 0 ||
	    http_param_time(req, q, "until", form, r->until_time,
	    sizeof r->until_time) != 0 ||
	    http_param_uint(req, q, "before", 1, INT64_MAX, &before) < 0 ||
	    http_param_uint(req, q, "limit", 1, HTTP_GAMES_MAX, &limit) < 0)
		return (-1);
	if (http_param_none(q, "result", form))
		res = "";
	else if (strcmp(res, "first") != 0 && strcmp(res, "second") != 0) {
		http_error(req, 400, "bad parameter result: first or second");
		return (-1);
	}
	snprintf(r->result, sizeof r->result, "%s", res);
	r->before = (int64_t)before;
	r->limit = (unsigned int)limit;
	r->id = r->has_tour ? lobby_web_tour_id(h->srv->lobby, r->tour) : 0;
	return (0);
}

/* GET /api/games?player=&tournament=&since=&until=&result=&before=&limit=. */
static void
http_games(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const struct evkeyvalq *q)
{
	struct hreq	*r;
	struct buf	 empty;

	if (http_need_store(h, req) != 0)
		return;
	r = http_hreq(h, hc, req);
	if (http_games_args(h, req, q, r, 0) != 0) {
		http_hreq_free(r);
		return;
	}
	if (r->has_tour && r->id == 0) {
		buf_init(&empty);
		buf_puts(&empty, "{\"games\":[],\"next\":null}\n");
		http_json(req, 200, &empty);
		buf_free(&empty);
		http_hreq_free(r);
		return;
	}
	r->work = http_games_work;
	http_submit(r);
}

/* GET /api/tournaments/NAME: the logged games, on a worker. */
static void
http_tour_work(struct hreq *r)
{
	struct store_history h;

	json_key(&r->j, "games");
	if (r->h->srv->store == NULL || store_games(r->h->srv->store, NULL,
	    r->id, 0, HTTP_TOUR_GAMES, &h) != 0) {
		http_fail(r, 503, "the game log cannot be read");
		return;
	}
	http_games_json(r->h->srv->store, &r->j, &h, h.n);
	json_end_obj(&r->j);
	buf_putc(&r->body, '\n');
	store_history_free(&h);
}

/* GET /api/tournaments/NAME: the lobby's part now, then the games. */
static void
http_tour(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *name)
{
	struct hreq	*r = http_hreq(h, hc, req);

	json_obj(&r->j);
	if (http_tour_json(h->srv->lobby, name, &r->j) != 0) {
		http_error(req, 404, "no tournament %s", name);
		http_hreq_free(r);
		return;
	}
	r->id = lobby_web_tour_id(h->srv->lobby, name);
	r->work = http_tour_work;
	http_submit(r);
}

/* Writes a player's statistics (members; worker). */
static void
http_player_stats(struct json *j, const struct league_player *p)
{
	uint64_t	 games[LEAGUE_THROW_BUCKETS];
	size_t		 i;

	json_kint(j, "games", p->games);
	json_kint(j, "wins", p->wins);
	json_kint(j, "losses", p->losses);
	json_kint(j, "moves", p->moves);
	json_kint(j, "optimal", p->kept);
	json_kint(j, "threw_win", p->threw);
	results_json_optimal(j, (uint64_t)p->kept, (uint64_t)p->threw);
	json_kint(j, "threw_win_games", p->threw_win_games);
	json_key(j, "first_throw");
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++)
		games[i] = (uint64_t)p->first_throw[i];
	results_json_throws(j, games);
}

/* GET /api/players/NAME, on a worker. */
static void
http_player_work(struct hreq *r)
{
	struct server	*srv = r->h->srv;
	struct league_player p;
	struct store_history h;
	struct lobby_rating_row rt;
	char		 err[256];
	int		 rc, has;

	if ((rc = league_player(srv->league, r->name, &p, err,
	    sizeof err)) != 0) {
		if (rc == -1)
			snprintf(err, sizeof err, "no player %s", r->name);
		http_fail(r, rc == -1 ? 404 : 503, err);
		return;
	}
	json_obj(&r->j);
	json_kstr(&r->j, "name", p.name[0] != '\0' ? p.name : r->name);
	has = lobby_rating_get(srv->lobby, r->name, &rt);
	json_key(&r->j, "rating");
	if (has)
		json_num1(&r->j, (double)lround(rt.r));
	else
		json_null(&r->j);
	json_key(&r->j, "rd");
	if (has)
		json_num1(&r->j, (double)lround(rt.rd));
	else
		json_null(&r->j);
	json_kbool(&r->j, "provisional", rt.provisional);
	json_kuint(&r->j, "rated_games", rt.games);
	http_player_stats(&r->j, &p);
	json_key(&r->j, "rating_history");
	if (http_rating_history(srv->league, r->name, HTTP_HISTORY_MAX,
	    &r->j) != 0)
		json_null(&r->j);
	json_key(&r->j, "recent");
	if (store_games(srv->store, r->name, 0, 0, HTTP_RECENT, &h) == 0) {
		http_games_json(srv->store, &r->j, &h, h.n);
		store_history_free(&h);
	} else
		json_null(&r->j);
	json_end_obj(&r->j);
	buf_putc(&r->body, '\n');
}

/* GET /api/players/NAME. */
static void
http_player(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *name)
{
	struct hreq	*r;

	if (h->srv->league == NULL || h->srv->store == NULL) {
		http_error(req, 503, "the game log is off (--db off)");
		return;
	}
	r = http_hreq(h, hc, req);
	snprintf(r->name, sizeof r->name, "%s", name);
	r->work = http_player_work;
	http_submit(r);
}

/* Answers a JSON value the lobby writes now (lists). */
static void
http_now(struct evhttp_request *req, struct buf *b)
{
	buf_putc(b, '\n');
	http_json(req, 200, b);
	buf_free(b);
}

/* GET /metrics. */
static void
http_metrics(struct http *h, struct evhttp_request *req)
{
	struct metrics_gauges g;
	struct buf	 b;

	memset(&g, 0, sizeof g);
	g.connections = h->srv->nconns;
	g.live_games = lobby_web_nlive(h->srv->lobby);
	g.log_queue = h->srv->store != NULL ?
	    store_queue_depth(h->srv->store) : 0;
	g.http_connections = h->nconns;
	g.http_streams = h->nstreams;
	g.http_exports = h->nexports;
	g.http_inflight = h->inflight;
	buf_init(&b);
	metrics_print(&b, &g);
	http_reply(req, 200, "text/plain; version=0.0.4; charset=utf-8",
	    b.data, b.len);
	buf_free(&b);
}

/* GET /api/games/ID[/feed]. */
static void
http_game(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *rest, const struct evkeyvalq *q)
{
	char		 id[24];
	const char	*slash = strchr(rest, '/');
	size_t		 n = slash != NULL ? (size_t)(slash - rest) :
			    strlen(rest);
	int64_t		 gid;
	struct hreq	*r;
	int		 file = slash != NULL && strcmp(slash, "/record") == 0;

	if (slash != NULL && !file && strcmp(slash, "/feed") != 0) {
		http_error(req, 404, "no such API path");
		return;
	}
	snprintf(id, sizeof id, "%.*s", (int)(n < sizeof id ? n : 0), rest);
	if (http_param_id(req, id, "game id", &gid) != 0)
		return;
	if (slash != NULL && !file) {
		hfeed_open(h, hc, req, gid, q);
		return;
	}
	if (http_need_store(h, req) != 0)
		return;
	r = http_hreq(h, hc, req);
	r->id = gid;
	(void)http_stream(r, file ? &rpager_file_ops : &rpager_json_ops, file ?
	    "text/plain; charset=utf-8" : "application/json; charset=utf-8");
}

/* Routes /api/... and /metrics. */
void
http_api(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *path, const struct evkeyvalq *q)
{
	struct buf	 b;
	struct json	 j;
	char		 name[HTTP_NAME_MAX + 1];
	unsigned long	 limit = HTTP_RATINGS_DEFAULT;

	buf_init(&b);
	json_init(&j, &b);
	if (strcmp(path, "/metrics") == 0)
		http_metrics(h, req);
	else if (strcmp(path, "/api/games/live") == 0)
		http_live(h, hc, req, 0);
	else if (strcmp(path, "/api/games") == 0)
		http_games(h, hc, req, q);
	else if (strncmp(path, "/api/games/", 11) == 0)
		http_game(h, hc, req, path + 11, q);
	else if (strcmp(path, "/api/tournaments") == 0) {
		json_obj(&j);
		json_key(&j, "tournaments");
		http_tours_json(h->srv->lobby, &j);
		json_end_obj(&j);
		http_now(req, &b);
	} else if (strncmp(path, "/api/tournaments/", 17) == 0 &&
	    strchr(path + 17, '/') == NULL) {
		if (http_segment(req, path + 17, name) == 0)
			http_tour(h, hc, req, name);
	} else if (strncmp(path, "/api/players/", 13) == 0 &&
	    strchr(path + 13, '/') == NULL) {
		if (http_segment(req, path + 13, name) == 0)
			http_player(h, hc, req, name);
	} else if (strcmp(path, "/api/ratings") == 0) {
		if (http_param_uint(req, q, "limit", 1, HTTP_RATINGS_MAX,
		    &limit) >= 0) {
			json_obj(&j);
			json_key(&j, "ratings");
			http_ratings_json(h->srv->lobby, limit, &j);
			json_end_obj(&j);
			http_now(req, &b);
		}
	} else if (strcmp(path, "/api/pairs") == 0)
		http_pairs(h, hc, req, q);
	else if (strcmp(path, "/api/export") == 0)
		http_export(h, hc, req, q);
	else if (strcmp(path, "/api/tv/feed") == 0)
		hfeed_tv(h, hc, req);
	else
		http_error(req, 404, "no such API path");
	buf_free(&b);
}
