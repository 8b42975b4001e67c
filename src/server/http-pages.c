/*
 * http-pages.c: the pages of PROTOCOL.md §14.1, rendered by the server
 * (http-html.c) from the data the JSON API gives, so that they read
 * without JavaScript; their scripts then keep them live.  The lobby's
 * data is rendered on the loop; every read of the log or the accounts
 * runs on a worker (http_submit), whose HTML the loop puts in the page.
 * Every list is bounded (a page of games, the first rows of a table).
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "server/http-int.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "record/record.h"
#include "server/server-int.h"
#include "stats/results.h"
#include "store/store.h"

#define HPAGE_INDEX_MAX	20		/* ... on the front page */
#define HPAGE_RECENT	15		/* recent results on the front page */
#define HPAGE_TOUR_GAMES 50		/* a tournament's latest games */
#define HPAGE_PLAYER_GAMES 20		/* a player's latest games */
#define HPAGE_RATINGS	100		/* ratings listed by default */
#define HPAGE_RATINGS_MAX 1000


/* Sends a page (status 200 or 404). */
static void
hpage_send(struct evhttp_request *req, int status, struct buf *b)
{
	http_reply(req, status, "text/html; charset=utf-8", b->data, b->len);
}

/* Sends a page that says what was not found (404). */
static void
hpage_404(struct evhttp_request *req, const char *title, const char *msg)
{
	struct buf	 b;

	buf_init(&b);
	html_error_page(&b, title, msg);
	hpage_send(req, 404, &b);
	buf_free(&b);
}

/* The front page's parts: the lobby's now, the recent results read. */
static void
hpage_index_fill(void *arg, const char *key, struct buf *b)
{
	struct hreq	*r = arg;
	struct lobby	*lb = r->h->srv->lobby;

	if (strcmp(key, "live") == 0)
		html_live_games(lb, NULL, HPAGE_INDEX_MAX, b);
	else if (strcmp(key, "tours") == 0)
		html_tours(lb, b);
	else if (strcmp(key, "top") == 0)
		html_ratings(lb, 10, b);
	else if (strcmp(key, "results") == 0)
		buf_add(b, r->body.data, r->body.len);
}

/* /, on a worker: the recent results. */
static void
hpage_index_work(struct hreq *r)
{
	struct store_history h;

	if (r->h->srv->store == NULL)
		buf_puts(&r->body, "<p class=\"empty\">the game log is off</p>");
	else if (store_history(r->h->srv->store, HPAGE_RECENT, &h) == 0) {
		html_games(r->h->srv->store, &h, h.n, 0, &r->body);
		store_history_free(&h);
	} else
		buf_puts(&r->body, "<p class=\"error\">the game log cannot be "
		    "read</p>");
}

/* /, back on the loop. */
static void
hpage_index_done(struct hreq *r)
{
	struct buf	 b;

	buf_init(&b);
	html_begin(&b, "Live", "home");
	(void)html_template(&b, "index.html", hpage_index_fill, r);
	html_end(&b, NULL);
	hpage_send(r->req, 200, &b);
	buf_free(&b);
}

/* /ratings?limit=N. */
static void
hpage_ratings(struct http *h, struct evhttp_request *req,
    const struct evkeyvalq *q)
{
	unsigned long	 limit = HPAGE_RATINGS;
	struct buf	 b;

	if (http_param_uint(req, q, "limit", 1, HPAGE_RATINGS_MAX,
	    &limit) < 0)
		return;
	buf_init(&b);
	html_begin(&b, "Ratings", "ratings");
	buf_puts(&b, "<h1>Ratings</h1>\n<p class=\"legend\">Glicko-2; a "
	    "provisional rating (RD over 110) is marked ?.</p>\n");
	html_ratings(h->srv->lobby, limit, &b);
	html_end(&b, NULL);
	hpage_send(req, 200, &b);
	buf_free(&b);
}

/* /tournaments. */
static void
hpage_tours(struct http *h, struct evhttp_request *req)
{
	struct buf	 b;

	buf_init(&b);
	html_begin(&b, "Tournaments", "tournaments");
	buf_puts(&b, "<h1>Tournaments</h1>\n");
	html_tours(h->srv->lobby, &b);
	html_end(&b, NULL);
	hpage_send(req, 200, &b);
	buf_free(&b);
}

/* One field of the games' filter form. */
static void
hpage_field(struct buf *b, const char *label, const char *name,
    const char *type, const char *value)
{
	buf_printf(b, "<label>%s <input name=\"%s\" type=\"%s\" value=\"",
	    label, name, type);
	html_esc(b, value);
	buf_puts(b, "\"></label> ");
}

/* The games' filter form, filled with the filters in force. */
static void
hpage_games_form(struct buf *b, const struct hreq *r)
{
	static const char *const res[] = { "", "first", "second" };
	static const char *const lab[] = { "any", "first player won",
		"second player won" };
	size_t		 i;

	buf_puts(b, "<form class=\"filters\" method=\"get\" "
	    "action=\"/games\">");
	hpage_field(b, "player", "player", "text", r->has_name ? r->name :
	    "");
	hpage_field(b, "tournament", "tournament", "text", r->has_tour ?
	    r->tour : "");
	hpage_field(b, "from", "since", "date", r->since_time[0] != '\0' ?
	    r->since_arg : "");
	hpage_field(b, "before", "until", "date", r->until_time[0] != '\0' ?
	    r->until_arg : "");
	buf_puts(b, "<label>result <select name=\"result\">");
	for (i = 0; i < 3; i++)
		buf_printf(b, "<option value=\"%s\"%s>%s</option>", res[i],
		    strcmp(r->result, res[i]) == 0 ? " selected" : "",
		    lab[i]);
	buf_puts(b, "</select></label> <button type=\"submit\">show"
	    "</button></form>\n");
}

/* /games, on a worker: a page of the log's games. */
static void
hpage_games_work(struct hreq *r)
{
	struct store_hfilter f;
	struct store_history h;
	struct buf	 q;

	memset(&f, 0, sizeof f);
	f.player = r->has_name ? r->name : NULL;
	f.tournament_id = r->id;
	memcpy(f.since, r->since_time, sizeof f.since);
	memcpy(f.until, r->until_time, sizeof f.until);
	f.result = r->result[0] != '\0' ? r->result : NULL;
	f.before = r->before;
	f.limit = r->limit + 1;
	if (r->has_tour && r->id == 0)		/* no such tournament */
		memset(&h, 0, sizeof h);
	else if (store_history_page(r->h->srv->store, &f, &h) != 0) {
		r->status = 503;
		buf_puts(&r->body, "<p class=\"error\">the game log cannot be "
		    "read</p>\n");
		return;
	}
	html_games(r->h->srv->store, &h, r->limit, 0, &r->body);
	if (h.n > r->limit) {
		buf_init(&q);
		buf_puts(&q, "/games?");
		if (r->has_name)
			http_url_param(&q, "player", r->name);
		if (r->has_tour)
			http_url_param(&q, "tournament", r->tour);
		if (r->since_time[0] != '\0')
			http_url_param(&q, "since", r->since_arg);
		if (r->until_time[0] != '\0')
			http_url_param(&q, "until", r->until_arg);
		if (r->result[0] != '\0')
			http_url_param(&q, "result", r->result);
		buf_printf(&q, "before=%lld&limit=%u",
		    (long long)h.games[r->limit - 1].id, r->limit);
		buf_puts(&r->body, "<p><a id=\"next\" rel=\"next\" href=\"");
		html_esc(&r->body, buf_str(&q));
		buf_puts(&r->body, "\">older games</a></p>\n");
		buf_free(&q);
	}
	store_history_free(&h);
}

/* /games, back on the loop. */
static void
hpage_games_done(struct hreq *r)
{
	struct buf	 b;

	buf_init(&b);
	html_begin(&b, "Games", "games");
	buf_puts(&b, "<h1>Games</h1>\n");
	hpage_games_form(&b, r);
	buf_add(&b, r->body.data, r->body.len);
	html_end(&b, NULL);
	hpage_send(r->req, r->status, &b);
	buf_free(&b);
}

/* /games?player=&tournament=&since=&until=&result=&before=&limit=. */
static void
hpage_games(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const struct evkeyvalq *q)
{
	struct hreq	*r;
	const char	*v;

	if (h->srv->store == NULL) {
		http_error(req, 503, "the game log is off (--db off)");
		return;
	}
	r = http_hreq(h, hc, req);
	if (http_games_args(h, req, q, r, 1) != 0) {
		http_hreq_free(r);
		return;
	}
	if ((v = evhttp_find_header(q, "since")) != NULL)
		snprintf(r->since_arg, sizeof r->since_arg, "%s", v);
	if ((v = evhttp_find_header(q, "until")) != NULL)
		snprintf(r->until_arg, sizeof r->until_arg, "%s", v);
	r->work = hpage_games_work;
	r->done = hpage_games_done;
	http_submit(r);
}

/* /tournament/NAME, on a worker: its latest games (a Swiss tournament's
 * with their rounds). */
static void
hpage_tour_work(struct hreq *r)
{
	struct store_history h;

	if (store_games(r->h->srv->store, NULL, r->id, 0, HPAGE_TOUR_GAMES,
	    &h) == 0) {
		html_games(r->h->srv->store, &h, h.n, r->block, &r->body);
		store_history_free(&h);
	} else
		buf_puts(&r->body, "<p class=\"error\">the game log cannot be "
		    "read</p>\n");
}

/* /tournament/NAME's parts. */
static void
hpage_tour_fill(void *arg, const char *key, struct buf *b)
{
	struct hreq	*r = arg;

	if (strcmp(key, "games") == 0)
		buf_add(b, r->body.data, r->body.len);
	else
		html_tour_part(r->h->srv->lobby, r->tour, key, b);
}

/* /tournament/NAME, back on the loop (404 if it went meanwhile). */
static void
hpage_tour_done(struct hreq *r)
{
	struct buf	 b, msg;

	if (lobby_web_tour_id(r->h->srv->lobby, r->tour) == 0) {
		buf_init(&msg);
		buf_printf(&msg, "no tournament %s", r->tour);
		hpage_404(r->req, "No such tournament", buf_str(&msg));
		buf_free(&msg);
		return;
	}
	buf_init(&b);
	html_begin(&b, r->tour, "tournaments");
	(void)html_template(&b, "tournament.html", hpage_tour_fill, r);
	html_end(&b, NULL);
	hpage_send(r->req, 200, &b);
	buf_free(&b);
}

/* /tournament/NAME. */
static void
hpage_tour(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *name)
{
	struct lobby_tshow sh;
	struct hreq	*r;
	struct buf	 msg;

	if (lobby_web_tour_id(h->srv->lobby, name) == 0) {
		buf_init(&msg);
		buf_printf(&msg, "no tournament %s", name);
		hpage_404(req, "No such tournament", buf_str(&msg));
		buf_free(&msg);
		return;
	}
	r = http_hreq(h, hc, req);
	snprintf(r->tour, sizeof r->tour, "%s", name);
	r->id = lobby_web_tour_id(h->srv->lobby, name);
	if (lobby_web_show(h->srv->lobby, name, &sh) == 0)
		r->block = sh.block;	/* the worker's games' rounds */
	if (h->srv->store == NULL) {	/* the lobby's parts only */
		hpage_tour_done(r);
		http_hreq_free(r);
		return;
	}
	r->work = hpage_tour_work;
	r->done = hpage_tour_done;
	http_submit(r);
}

/* /player/NAME's parts (worker). */
static void
hpage_player_fill(void *arg, const char *key, struct buf *b)
{
	struct hreq	*r = arg;

	if (strcmp(key, "player") == 0)
		buf_add(b, r->body.data, r->body.len);
	else if (strcmp(key, "recent") == 0)
		buf_add(b, r->extra.data, r->extra.len);
	else if (strcmp(key, "throws") == 0)
		buf_add(b, r->extra2.data, r->extra2.len);
	else if (strcmp(key, "name") == 0)
		html_esc(b, r->name);
}

/* /player/NAME, on a worker: the account's figures, or 404. */
static void
hpage_player_work(struct hreq *r)
{
	struct server	*srv = r->h->srv;
	struct league_player p;
	struct lobby_rating_row rt;
	struct store_history h;
	char		 err[256];
	int		 rc;

	if ((rc = league_player(srv->league, r->name, &p, err,
	    sizeof err)) != 0) {
		if (rc == -1)
			snprintf(err, sizeof err, "no player %s", r->name);
		r->status = rc == -1 ? 404 : 503;
		buf_puts(&r->body, err);
		return;
	}
	if (p.name[0] != '\0')
		snprintf(r->name, sizeof r->name, "%s", p.name);
	memset(&rt, 0, sizeof rt);
	html_player_figures(&r->body, &p,
	    lobby_rating_get(srv->lobby, r->name, &rt) ? &rt : NULL);
	html_throws(&r->extra2, &p);
	if (store_games(srv->store, r->name, 0, 0, HPAGE_PLAYER_GAMES,
	    &h) == 0) {
		html_games(srv->store, &h, h.n, 0, &r->extra);
		store_history_free(&h);
	}
}

/* /player/NAME, back on the loop. */
static void
hpage_player_done(struct hreq *r)
{
	struct buf	 b;

	if (r->status != 200) {
		if (r->status == 404)
			hpage_404(r->req, "No such player", buf_str(&r->body));
		else
			http_error(r->req, r->status, "%s", buf_str(&r->body));
		return;
	}
	buf_init(&b);
	html_begin(&b, r->name, "ratings");
	(void)html_template(&b, "player.html", hpage_player_fill, r);
	html_end(&b, NULL);
	hpage_send(r->req, 200, &b);
	buf_free(&b);
}

/* /player/NAME. */
static void
hpage_player(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *name)
{
	struct hreq	*r;

	if (h->srv->league == NULL || h->srv->store == NULL) {
		http_error(req, 503, "the game log is off (--db off)");
		return;
	}
	r = http_hreq(h, hc, req);
	snprintf(r->name, sizeof r->name, "%s", name);
	r->work = hpage_player_work;
	r->done = hpage_player_done;
	http_submit(r);
}

/* /game/ID's record, read on a worker. */
static void
hpage_game_rec(struct hreq *r, const struct store_record *rec,
    const char *tour)
{
	html_record(&r->body, rec, tour);
}

static void
hpage_game_work(struct hreq *r)
{
	http_with_record(r, hpage_game_rec);
}

/* /game/ID's parts. */
static void
hpage_game_fill(void *arg, const char *key, struct buf *b)
{
	struct hreq	*r = arg;

	if (strcmp(key, "record") == 0 && r->status == 200)
		buf_add(b, r->body.data, r->body.len);
	else if (strcmp(key, "id") == 0)
		buf_printf(b, "%lld", (long long)r->id);
}

/*
 * /game/ID, back on the loop: the page, or 404 if neither the log nor
 * the lobby has the game (a game just begun may not be logged yet).
 */
static void
hpage_game_done(struct hreq *r)
{
	struct buf	 b, msg;
	char		 title[40];

	if (r->status != 200 && (r->status != 404 ||
	    !lobby_web_summary(r->h->srv->lobby, r->id, &(struct lobby_live){
	    0 }))) {
		if (r->status == 404) {
			buf_init(&msg);
			buf_printf(&msg, "no game %lld", (long long)r->id);
			hpage_404(r->req, "No such game", buf_str(&msg));
			buf_free(&msg);
		} else
			http_json(r->req, r->status, &r->body);
		return;
	}
	buf_init(&b);
	snprintf(title, sizeof title, "Game %lld", (long long)r->id);
	html_begin(&b, title, NULL);
	(void)html_template(&b, "game.html", hpage_game_fill, r);
	html_end(&b, NULL);
	hpage_send(r->req, 200, &b);
	buf_free(&b);
}

/* /game/ID. */
static void
hpage_game(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *id)
{
	struct hreq	*r;
	int64_t		 gid;

	if (http_param_id(req, id, "game id", &gid) != 0)
		return;
	if (h->srv->store == NULL) {
		http_error(req, 503, "the game log is off (--db off)");
		return;
	}
	r = http_hreq(h, hc, req);
	r->id = gid;
	r->work = hpage_game_work;
	r->done = hpage_game_done;
	http_submit(r);
}

/*
 * Routes a page's path; returns 0, or -1 if it is not a page's.  seg is
 * the decoded segment after /game/, /tournament/ or /player/.
 */
int
http_pages(struct http *h, struct hconn *hc, struct evhttp_request *req,
    const char *path, const struct evkeyvalq *q)
{
	char		 name[HTTP_NAME_MAX + 1];
	struct hreq	*r;

	if (strcmp(path, "/") == 0) {
		r = http_hreq(h, hc, req);
		r->work = hpage_index_work;
		r->done = hpage_index_done;
		http_submit(r);
	} else if (strcmp(path, "/live") == 0)
		http_live(h, hc, req, 1);
	else if (strcmp(path, "/games") == 0)
		hpage_games(h, hc, req, q);
	else if (strcmp(path, "/ratings") == 0)
		hpage_ratings(h, req, q);
	else if (strcmp(path, "/tournaments") == 0)
		hpage_tours(h, req);
	else if (strncmp(path, "/game/", 6) == 0 &&
	    strchr(path + 6, '/') == NULL)
		hpage_game(h, hc, req, path + 6);
	else if (strncmp(path, "/tournament/", 12) == 0 &&
	    strchr(path + 12, '/') == NULL) {
		if (http_segment(req, path + 12, name) == 0)
			hpage_tour(h, hc, req, name);
	} else if (strncmp(path, "/player/", 8) == 0 &&
	    strchr(path + 8, '/') == NULL) {
		if (http_segment(req, path + 8, name) == 0)
			hpage_player(h, hc, req, name);
	} else
		return (-1);
	return (0);
}
