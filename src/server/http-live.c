/*
 * http-live.c: the live games of GET /api/games/live and of the page
 * /live (PROTOCOL.md §14.1, §14.3): the lobby's, and on a node of
 * several the cluster's refereed elsewhere.  Those are read from the log
 * on a worker (lobby_where_live, at most STORE_WHERE_LIVE_MAX), each
 * rendered there (JSON or an HTML row: their tournaments' names are the
 * log's); back on the loop the lobby marks those it referees itself, and
 * the reply lists the lobby's games, then the others.
 */
#include <stdlib.h>
#include <string.h>

#include "server/http-int.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "nodestore/store-where.h"
#include "record/record.h"
#include "server/server-int.h"
#include "store/store.h"

#define HLIVE_PAGE_MAX	200	/* the lobby's live games on /live */

/* Writes game i of e (worker): JSON, or an HTML row (r->head_html). */
static void
hlive_one(struct hreq *r, const struct store_elsewhere *e, size_t i)
{
	const struct store_gameinfo *g = &e->games->games[i];
	const struct store_where *w = &e->where[i];
	char		*tour = store_tour_name(r->h->srv->store, g->tournament);
	struct json	 j;

	if (r->html)
		html_elsewhere(&r->extra, g, tour, e->ply[i], w->held ?
		    w->holder : 0);
	else {
		json_init(&j, &r->extra);
		json_obj(&j);
		json_key(&j, "game");
		record_summary_json(&j, g, tour);
		json_kuint(&j, "ply", e->ply[i]);
		json_kint_if(&j, "node", w->held, w->holder);
		json_kstr(&j, "node_addr", w->held && w->addr[0] != '\0' ?
		    w->addr : NULL);
		json_end_obj(&j);
	}
	free(tour);
}

/* On a worker: the cluster's live games, each rendered. */
static void
hlive_work(struct hreq *r)
{
	size_t	 i;

	r->xlive = xcalloc(1, sizeof *r->xlive);
	if (lobby_where_live(r->h->srv->lobby, r->xlive) != 0) {
		r->status = 503;
		return;
	}
	r->xoff = xreallocarray(NULL, r->xlive->games->n + 1,
	    sizeof *r->xoff);
	for (i = 0; i < r->xlive->games->n; i++) {
		r->xoff[i] = r->extra.len;
		hlive_one(r, r->xlive, i);
	}
	r->xoff[i] = r->extra.len;
}

/* Appends the games read that are refereed elsewhere (loop); -1: none. */
static int
hlive_others(struct hreq *r, struct buf *b, int json)
{
	size_t	 i, n = 0;

	if (r->xlive == NULL || r->xlive->games == NULL)
		return (-1);
	lobby_where_mark(r->h->srv->lobby, r->xlive);
	for (i = 0; i < r->xlive->games->n; i++)
		if (r->xlive->where[i].game != 0) {
			if (json && n > 0)
				buf_putc(b, ',');
			buf_add(b, r->extra.data + r->xoff[i], r->xoff[i + 1] -
			    r->xoff[i]);
			n++;
		}
	return (n > 0 ? 0 : -1);
}

/* GET /api/games/live, on the loop (after the worker on a node). */
static void
hlive_json_done(struct hreq *r)
{
	struct buf	 b;
	struct json	 j;

	buf_init(&b);
	json_init(&j, &b);
	json_obj(&j);
	json_key(&j, "games");
	http_live_games(r->h->srv->lobby, NULL, &j);
	json_key(&j, "elsewhere");
	json_arr(&j);
	(void)hlive_others(r, &b, 1);
	json_end_arr(&j);
	json_end_obj(&j);
	buf_putc(&b, '\n');
	http_json(r->req, 200, &b);
	buf_free(&b);
}

/* /live, on the loop (after the worker on a node). */
static void
hlive_page_done(struct hreq *r)
{
	static const char *const js[] = { "common.js", "live.js", NULL };
	struct buf	 b;
	size_t		 at;

	buf_init(&b);
	html_begin(&b, "Live games", "live");
	buf_puts(&b, "<h1>Live games</h1>\n<div id=\"status\"></div>\n"
	    "<div id=\"livegames\">");
	html_live_games(r->h->srv->lobby, NULL, HLIVE_PAGE_MAX, &b);
	buf_puts(&b, "</div>\n");
	if (lobby_where_cluster(r->h->srv->lobby)) {
		buf_puts(&b, "<h2>On the other nodes</h2>\n<div id=\"elsewhere\">");
		html_elsewhere_head(&b);
		at = b.len;
		if (hlive_others(r, &b, 0) != 0) {
			b.len = at;
			buf_puts(&b, "<tr><td colspan=\"7\" class=\"empty\">no "
			    "game</td></tr>\n");
		}
		buf_puts(&b, "</tbody></table></div>\n");
	}
	buf_puts(&b, "<p class=\"legend\">With JavaScript this list follows "
	    "GET /api/games/live every 2 seconds.</p>\n");
	html_end(&b, js);
	http_reply(r->req, 200, "text/html; charset=utf-8", b.data, b.len);
	buf_free(&b);
}

/*
 * GET /api/games/live (html 0) or /live (html 1): at once on a single
 * node, after a worker's read of the log on a node of several.
 */
void
http_live(struct http *h, struct hconn *hc, struct evhttp_request *req,
    int html)
{
	struct hreq	*r = http_hreq(h, hc, req);

	r->html = html;
	r->done = html ? hlive_page_done : hlive_json_done;
	if (!lobby_where_cluster(h->srv->lobby)) {
		r->done(r);
		http_hreq_free(r);
		return;
	}
	r->work = hlive_work;
	http_submit(r);
}
