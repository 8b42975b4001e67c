/*
 * http-html.c: the pages as HTML the server renders (PROTOCOL.md §14.1),
 * readable without JavaScript: the one HTML escaper, the one page frame
 * with the one navigation, the pages' templates of web/ filled in, and
 * the same data the JSON API gives rendered as HTML tables: live games,
 * tournaments, their rounds and standings, ratings (the lobby's, on the
 * loop), logged games, records and a player's figures (the log's, on a
 * worker).  No HTML is made anywhere else.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>

#include "server/http.h"
#include "server/http-int.h"
#include "league/export.h"
#include "league/league.h"
#include "lib/jsonread.h"
#include "lobby/lobby.h"
#include "lobby/lobby-results.h"
#include "solver/game.h"
#include "stats/results.h"
#include "stats/results-json.h"
#include "store/store.h"

/* The navigation of every page: one definition. */
static const struct {
	const char	*href, *key, *label;
} html_nav[] = {
	{ "/live", "live", "live games" },
	{ "/games", "games", "games" },
	{ "/tournaments", "tournaments", "tournaments" },
	{ "/ratings", "ratings", "ratings" },
};

/*
 * Appends the n bytes at s with & < > " ' escaped, for text and attribute
 * values alike: the one HTML escaper.
 */
static void
html_esc_n(struct buf *b, const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		switch (s[i]) {
		case '&':
			buf_puts(b, "&amp;");
			break;
		case '<':
			buf_puts(b, "&lt;");
			break;
		case '>':
			buf_puts(b, "&gt;");
			break;
		case '"':
			buf_puts(b, "&quot;");
			break;
		case '\'':
			buf_puts(b, "&#39;");
			break;
		default:
			buf_putc(b, s[i]);
		}
}

/* The same for a string (NULL: nothing). */
void
html_esc(struct buf *b, const char *s)
{
	if (s != NULL)
		html_esc_n(b, s, strlen(s));
}

/* Appends a URL part: percent-encoded, then escaped. */
static void
html_url(struct buf *b, const char *s)
{
	char	*e = evhttp_encode_uri(s != NULL ? s : "");

	html_esc(b, e != NULL ? e : "");
	free(e);
}

/* The page's head, header and navigation (cur: the current nav key). */
void
html_begin(struct buf *b, const char *title, const char *cur)
{
	size_t	 i;

	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\"><meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n<title>");
	html_esc(b, title);
	buf_puts(b, " \xc2\xb7 Grundy</title><link rel=\"stylesheet\" "
	    "href=\"/static/style.css\"></head>\n<body><header>"
	    "<a href=\"/\">Grundy</a><nav id=\"nav\">");
	for (i = 0; i < sizeof html_nav / sizeof html_nav[0]; i++)
		buf_printf(b, "<a href=\"%s\"%s>%s</a>", html_nav[i].href,
		    cur != NULL && strcmp(cur, html_nav[i].key) == 0 ?
		    " class=\"current\" aria-current=\"page\"" : "",
		    html_nav[i].label);
	buf_puts(b, "</nav></header>\n<main>\n");
}

/* The page's end, with its scripts (names of web/, NULL-terminated). */
void
html_end(struct buf *b, const char *const *scripts)
{
	buf_puts(b, "</main>\n");
	for (; scripts != NULL && *scripts != NULL; scripts++)
		buf_printf(b, "<script src=\"/static/%s\"></script>",
		    *scripts);
	buf_puts(b, "\n</body>\n</html>\n");
}

/*
 * Appends the template of web/ named name, each "<!--grundy:KEY-->" in it
 * replaced by what fill writes for KEY.  Returns 0, or -1 if there is no
 * such template.
 */
int
html_template(struct buf *b, const char *name,
    void (*fill)(void *, const char *, struct buf *), void *arg)
{
	static const char mark[] = "<!--grundy:";
	const char	*p, *end, *m, *k;
	char		 key[32];
	size_t		 i;

	for (i = 0; i < web_nassets; i++)
		if (strcmp(web_assets[i].path, name) == 0)
			break;
	if (i == web_nassets)
		return (-1);
	p = (const char *)web_assets[i].data;
	end = p + web_assets[i].len;
	while (p < end) {
		m = memmem(p, (size_t)(end - p), mark, sizeof mark - 1);
		if (m == NULL) {
			buf_add(b, p, (size_t)(end - p));
			break;
		}
		buf_add(b, p, (size_t)(m - p));
		k = m + sizeof mark - 1;
		p = memmem(k, (size_t)(end - k), "-->", 3);
		if (p == NULL || (size_t)(p - k) >= sizeof key) {
			p = k;		/* not a marker: as text */
			buf_add(b, m, (size_t)(k - m));
			continue;
		}
		snprintf(key, sizeof key, "%.*s", (int)(p - k), k);
		fill(arg, key, b);
		p += 3;
	}
	return (0);
}

/* A complete page with an error message (a 404's): the same frame. */
void
html_error_page(struct buf *b, const char *title, const char *msg)
{
	html_begin(b, title, NULL);
	buf_puts(b, "<h1>");
	html_esc(b, title);
	buf_puts(b, "</h1>\n<p class=\"error\" id=\"error\">");
	html_esc(b, msg);
	buf_puts(b, "</p>\n");
	html_end(b, NULL);
}

/* A player's name, linked to its page when it is an account's. */
static void
html_player(struct buf *b, const char *name)
{
	if (name == NULL || strcmp(name, "engine") == 0 ||
	    strcmp(name, "-") == 0 || strchr(name, ':') != NULL) {
		buf_puts(b, "<span class=\"player\">");
		html_esc(b, name);
		buf_puts(b, "</span>");
		return;
	}
	buf_puts(b, "<a class=\"player\" href=\"/player/");
	html_url(b, name);
	buf_puts(b, "\">");
	html_esc(b, name);
	buf_puts(b, "</a>");
}

/* A tournament's name, linked to its page. */
static void
html_tour(struct buf *b, const char *name)
{
	if (name == NULL)
		return;
	buf_puts(b, "<a href=\"/tournament/");
	html_url(b, name);
	buf_puts(b, "\">");
	html_esc(b, name);
	buf_puts(b, "</a>");
}

/* A time control as "60+1 s", or "no clock". */
static void
html_tc(struct buf *b, int has, uint64_t base, uint64_t inc)
{
	if (!has) {
		buf_puts(b, "no clock");
		return;
	}
	buf_printf(b, "%g", (double)base / 1000);
	if (inc != 0)
		buf_printf(b, "+%g", (double)inc / 1000);
	buf_puts(b, " s");
}

/* A game's link and players: the first two cells of a games row. */
static void
html_game_cells(struct buf *b, int64_t id, const char *p1, const char *p2)
{
	buf_printf(b, "<tr><td><a href=\"/game/%lld\">%lld</a></td><td>",
	    (long long)id, (long long)id);
	html_player(b, p1);
	buf_puts(b, " \xe2\x80\x93 ");
	html_player(b, p2);
	buf_puts(b, "</td>");
}

/* The live games table being written. */
struct html_live {
	struct buf	*b;
	size_t		 n, max;
};

/* One live game's row. */
static void
html_live_row(void *arg, const struct lobby_live *v)
{
	struct html_live *l = arg;
	struct buf	 pos;

	if (l->n++ >= l->max)
		return;
	html_game_cells(l->b, v->id, v->player[0], v->player[1]);
	buf_printf(l->b, "<td class=\"n\">%lu</td><td>", v->ply);
	html_tc(l->b, v->base_ms != 0 || v->inc_ms != 0, v->base_ms,
	    v->inc_ms);
	buf_puts(l->b, "</td><td class=\"spec\">");
	buf_init(&pos);
	game_print(v->position, &pos);
	html_esc(l->b, buf_str(&pos));
	buf_free(&pos);
	buf_puts(l->b, "</td><td>");
	html_tour(l->b, v->tour);
	buf_puts(l->b, "</td></tr>\n");
}

/*
 * The live games (of tournament tour, or all), oldest first, at most max
 * rows and a line counting the others; what GET /api/games/live gives.
 */
void
html_live_games(struct lobby *lb, const char *tour, size_t max,
    struct buf *b)
{
	struct html_live l;
	size_t		 at = b->len;

	l.b = b;
	l.n = 0;
	l.max = max;
	buf_puts(b, "<table class=\"games\"><thead><tr><th>game</th>"
	    "<th>players</th><th class=\"n\">ply</th><th>tc</th>"
	    "<th>position</th><th>tournament</th></tr></thead><tbody>\n");
	(void)lobby_web_games(lb, tour, html_live_row, &l);
	if (l.n == 0) {
		b->len = at;
		buf_puts(b, "<p class=\"empty\">no game is being played</p>");
		return;
	}
	buf_puts(b, "</tbody></table>\n");
	if (l.n > max)
		buf_printf(b, "<p class=\"legend\">and %zu more</p>\n",
		    l.n - max);
}

/* One tournament's row. */
static void
html_tour_row(void *arg, const struct lobby_tshow *sh)
{
	struct buf	*b = arg;
	const struct league_tournament *d = sh->def;

	buf_puts(b, "<tr><td>");
	html_tour(b, d->name);
	buf_printf(b, "</td><td>%s</td><td>%s</td><td class=\"spec\">",
	    league_format_name(d->format), lobby_tour_status(d->status));
	html_esc(b, d->game);
	buf_printf(b, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu of "
	    "%zu</td></tr>\n", d->nplayers, sh->played, sh->total);
}

/* Every tournament, in creation order (GET /api/tournaments). */
void
html_tours(struct lobby *lb, struct buf *b)
{
	size_t	 at;

	buf_puts(b, "<table class=\"tours\"><thead><tr><th>name</th>"
	    "<th>format</th><th>status</th><th>game</th><th class=\"n\">"
	    "players</th><th class=\"n\">played</th></tr></thead><tbody>\n");
	at = b->len;
	lobby_web_tours(lb, html_tour_row, b);
	if (b->len == at)
		buf_puts(b, "<tr><td colspan=\"6\" class=\"empty\">no "
		    "tournament</td></tr>\n");
	buf_puts(b, "</tbody></table>\n");
}

/* The ratings, best first, at most limit (GET /api/ratings). */
void
html_ratings(struct lobby *lb, size_t limit, struct buf *b)
{
	struct lobby_rating_row *v;
	size_t		 n, i;

	lobby_web_ratings(lb, &v, &n);
	if (n == 0) {
		buf_puts(b, "<p class=\"empty\">no rated game yet</p>\n");
		free(v);
		return;
	}
	buf_puts(b, "<table class=\"ratings\"><thead><tr><th class=\"n\">"
	    "</th><th>player</th><th class=\"n\">rating</th><th class=\"n\">"
	    "RD</th><th class=\"n\">games</th></tr></thead><tbody>\n");
	for (i = 0; i < n && i < limit; i++) {
		buf_printf(b, "<tr><td class=\"n\">%zu</td><td>", i + 1);
		html_player(b, v[i].name);
		/* A provisional rating is marked "?", as lichess does. */
		buf_printf(b, "</td><td class=\"n\">%.1f%s</td><td class=\"n\">"
		    "%.1f</td><td class=\"n\">%lu</td></tr>\n", v[i].r,
		    v[i].provisional ? "?" : "", v[i].rd, v[i].games);
	}
	buf_puts(b, "</tbody></table>\n");
	if (n > limit)
		buf_printf(b, "<p class=\"legend\">the best %zu of %zu "
		    "rated players</p>\n", limit, n);
	free(v);
}

/* A logged game's result in words: "alice wins (no-legal-move)". */
static void
html_result(struct buf *b, const struct store_gameinfo *g)
{
	const char	*who = g->result == STORE_RESULT_FIRST ? g->player1 :
			    g->result == STORE_RESULT_SECOND ? g->player2 : NULL;

	if (g->status == STORE_LIVE) {
		buf_puts(b, "<span class=\"live\">live</span>");
		return;
	}
	if (who == NULL) {
		html_esc(b, g->reason != NULL ? g->reason :
		    store_status_name(g->status));
		return;
	}
	html_esc(b, who);
	buf_puts(b, " wins");
	if (g->reason != NULL) {
		buf_puts(b, " (");
		html_esc(b, g->reason);
		buf_putc(b, ')');
	}
}

/*
 * The first n games of h as a table (worker: tournaments' names from the
 * log); what GET /api/games gives.  block: the games are a Swiss
 * tournament's, slot / block + 1 their round (lobby_tshow), else 0.
 */
void
html_games(struct store *st, const struct store_history *h, size_t n,
    size_t block, struct buf *b)
{
	const struct store_gameinfo *g;
	char		*tour, t[STORE_TIME_LEN];
	size_t		 i;

	if (h->n == 0 || n == 0) {
		buf_puts(b, "<p class=\"empty\">no game</p>\n");
		return;
	}
	buf_puts(b, "<table class=\"games\"><thead><tr><th>game</th>"
	    "<th>players</th><th>result</th><th>game spec</th>"
	    "<th>tournament</th><th>started</th></tr></thead><tbody>\n");
	for (i = 0; i < h->n && i < n; i++) {
		g = &h->games[i];
		html_game_cells(b, g->id, g->player1, g->player2);
		buf_puts(b, "<td>");
		html_result(b, g);
		buf_puts(b, "</td><td class=\"spec\">");
		html_esc(b, g->game);
		buf_puts(b, "</td><td>");
		tour = store_tour_name(st, g->tournament);
		html_tour(b, tour);
		if (tour != NULL && block != 0)
			buf_printf(b, " <span class=\"legend\">round %zu</span>",
			    (size_t)g->slot / block + 1);
		else if (tour != NULL)
			buf_printf(b, " <span class=\"legend\">slot %u</span>",
			    g->slot);
		free(tour);
		buf_puts(b, "</td><td>");
		if (g->started_ms != STORE_TIME_NONE) {
			store_time_text(g->started_ms, t, sizeof t);
			html_esc(b, t);
		}
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</tbody></table>\n");
}

/* A tournament's time control and options in words, as the page had them. */
static void
html_tour_options(struct buf *b, const struct lobby_tshow *sh)
{
	const struct league_tournament *d = sh->def;
	size_t		 i, k = 0;

	if (d->format == LEAGUE_SWISS || d->format == LEAGUE_ARENA)
		buf_printf(b, "round %u of %u \xc2\xb7 ", sh->round,
		    d->rounds);
	buf_puts(b, d->forfeit_s != 0 ? "" : "no forfeit deadline");
	if (d->forfeit_s != 0)
		buf_printf(b, "forfeit after %u s", d->forfeit_s);
	/* The seed tells the random starts to come: shown at the end. */
	if (d->status == LEAGUE_T_FINISHED || d->status == LEAGUE_T_CANCELLED)
		buf_printf(b, " \xc2\xb7 seed <span id=\"seed\">%llu</span>",
		    (unsigned long long)d->seed);
	else
		buf_puts(b, " \xc2\xb7 seed hidden until the end");
	for (i = 0; i < d->nplayers; i++)
		if (d->wround[i] != 0) {
			buf_puts(b, k++ == 0 ? " \xc2\xb7 withdrawn: " : ", ");
			html_esc(b, d->players[i]);
		}
	buf_printf(b, " \xc2\xb7 %zu playing, %zu pending, %zu stopped, %zu "
	    "forfeits", sh->playing, sh->pending, sh->stopped, sh->forfeits);
}

/* The rounds table being written. */
struct html_rounds {
	const struct lobby_tshow *sh;
	struct buf	*b;
	unsigned int	 cur;
};

/* Closes the open round's row (its bye), opens those up to r. */
static void
html_rounds_to(struct html_rounds *c, unsigned int r)
{
	const struct league_tournament *d = c->sh->def;
	size_t		 bye;

	while (c->cur < r || (r == 0 && c->cur > 0)) {
		if (c->cur > 0) {
			bye = c->sh->byes != NULL ? c->sh->byes[c->cur - 1] :
			    SIZE_MAX;
			buf_puts(c->b, "</td><td>");
			if (bye < d->nplayers)
				html_player(c->b, d->players[bye]);
			else
				buf_puts(c->b, "none");
			buf_puts(c->b, "</td></tr>\n");
		}
		if (r == 0)
			break;
		buf_printf(c->b, "<tr><td class=\"n\">%u</td><td>", ++c->cur);
	}
}

/* One game of a round: "A – B 1-0". */
static void
html_rounds_game(void *arg, const struct lobby_tgame *g)
{
	struct html_rounds *c = arg;

	html_rounds_to(c, g->round);
	buf_puts(c->b, "<span class=\"pairing\">");
	html_player(c->b, g->p[0]);
	buf_puts(c->b, " \xe2\x80\x93 ");
	html_player(c->b, g->p[1]);
	buf_printf(c->b, " <b>%s</b></span> ", g->winner == 0 ? g->state :
	    g->forfeit ? (g->winner == 1 ? "+\xe2\x80\x93" :
	    "\xe2\x80\x93+") : g->winner == 1 ? "1\xe2\x80\x93" "0" :
	    "0\xe2\x80\x93" "1");
}

/* A Swiss tournament's rounds: pairings with results, and byes. */
static void
html_tour_rounds(struct buf *b, const struct lobby_tshow *sh)
{
	struct html_rounds c;

	if (sh->def->format != LEAGUE_SWISS) {
		buf_puts(b, "<p class=\"empty\">no rounds: every pairing is "
		    "scheduled from the start</p>\n");
		return;
	}
	if (sh->round == 0) {
		buf_puts(b, "<p class=\"empty\">no round paired yet</p>\n");
		return;
	}
	memset(&c, 0, sizeof c);
	c.sh = sh;
	c.b = b;
	buf_puts(b, "<table class=\"rounds\"><thead><tr><th class=\"n\">round"
	    "</th><th>pairings and results</th><th>bye</th></tr></thead>"
	    "<tbody>\n");
	lobby_tour_rounds(sh, html_rounds_game, &c);
	html_rounds_to(&c, sh->round);
	html_rounds_to(&c, 0);
	buf_puts(b, "</tbody></table>\n");
}

static void	 html_tour_results(struct lobby *, const char *, int,
		    struct buf *);

/* The download links of a tournament: its exports. */
static void
html_tour_downloads(struct buf *b, const char *name)
{
	static const char *const what[][2] = {
		{ "format=csv&table=standings", "standings (CSV)" },
		{ "format=csv&table=games", "games (CSV)" },
		{ "format=csv&table=crosstable", "crosstable (CSV)" },
		{ "format=json", "everything (JSON)" },
	};
	size_t	 i;

	buf_puts(b, "download: ");
	for (i = 0; i < sizeof what / sizeof what[0]; i++) {
		buf_printf(b, "%s<a class=\"download\" download href=\"/api/"
		    "export?tournament=", i > 0 ? " \xc2\xb7 " : "");
		html_url(b, name);
		buf_puts(b, "&amp;");
		html_esc(b, what[i][0]);
		buf_printf(b, "\">%s</a>", what[i][1]);
	}
}

/*
 * Writes part key of tournament name's page from the lobby (`tournament
 * show`'s data): name, meta, options, pct, progress, downloads, rounds,
 * live.  Nothing if there is no such tournament.
 */
void
html_tour_part(struct lobby *lb, const char *name, const char *key,
    struct buf *b)
{
	struct lobby_tshow sh;
	const struct league_tournament *d;

	if (lobby_web_show(lb, name, &sh) != 0)
		return;
	d = sh.def;
	if (strcmp(key, "name") == 0)
		html_esc(b, d->name);
	else if (strcmp(key, "meta") == 0) {
		buf_printf(b, "%s \xc2\xb7 %s \xc2\xb7 %u games per pairing "
		    "\xc2\xb7 ", league_format_name(d->format),
		    lobby_tour_status(d->status), d->games_per_pair);
		html_tc(b, d->base_ms != 0 || d->inc_ms != 0, d->base_ms,
		    d->inc_ms);
		buf_puts(b, d->random ? " \xc2\xb7 random starts under "
		    "<span class=\"spec\">" : " \xc2\xb7 <span class=\"spec\">");
		html_esc(b, d->game);
		buf_puts(b, "</span>");
	} else if (strcmp(key, "options") == 0)
		html_tour_options(b, &sh);
	else if (strcmp(key, "pct") == 0)
		buf_printf(b, "%zu", sh.total != 0 ? 100 * sh.played /
		    sh.total : 0);
	else if (strcmp(key, "progress") == 0)
		buf_printf(b, "played %zu of %zu games", sh.played, sh.total);
	else if (strcmp(key, "downloads") == 0)
		html_tour_downloads(b, d->name);
	else if (strcmp(key, "rounds") == 0)
		html_tour_rounds(b, &sh);
	else if (strcmp(key, "live") == 0)
		html_live_games(lb, name, HTTP_PAGE_LIVE, b);
	else if (strcmp(key, "standings") == 0 || strcmp(key, "cross") == 0)
		html_tour_results(lb, name, strcmp(key, "cross") == 0, b);
}

/* An optimal-move rate as `player` prints it: "97.5%", "-". */
static void
html_rate(struct buf *b, int64_t kept, int64_t threw)
{
	int64_t	 t;

	if (kept + threw <= 0) {
		buf_putc(b, '-');
		return;
	}
	t = kept * 1000 / (kept + threw);
	buf_printf(b, "%lld.%lld%%", (long long)(t / 10), (long long)(t % 10));
}

/* A player's rating and figures, the cards of its page. */
void
html_player_figures(struct buf *b, const struct league_player *p,
    const struct lobby_rating_row *rt)
{
	buf_puts(b, "<div class=\"grid\">\n<section><h2>Rating</h2>"
	    "<div class=\"big\" id=\"rating\">");
	if (rt == NULL || rt->games == 0)
		buf_puts(b, "unrated");
	else
		buf_printf(b, "%ld \xc2\xb1 %ld%s", lround(rt->r), lround(rt->rd),
		    rt->provisional ? " provisional" : "");
	buf_printf(b, "</div><div id=\"record\">%lu rated games; %lld games: "
	    "%lld wins, %lld losses</div></section>\n", rt != NULL ?
	    rt->games : 0, (long long)p->games, (long long)p->wins,
	    (long long)p->losses);
	buf_puts(b, "<section><h2>Optimal moves</h2><div class=\"big\" "
	    "id=\"optimal\">");
	html_rate(b, p->kept, p->threw);
	buf_printf(b, "</div><div id=\"moves\">%lld of %lld moves from a won "
	    "position kept the win (%lld moves in all); %lld games with a "
	    "thrown win</div></section>\n</div>\n", (long long)p->kept,
	    (long long)(p->kept + p->threw), (long long)p->moves,
	    (long long)p->threw_win_games);
}

/* Where a player first threw a win: a table, or "no game thrown". */
void
html_throws(struct buf *b, const struct league_player *p)
{
	unsigned int	 lo, hi;
	size_t		 i;

	if (p->threw_win_games == 0) {
		buf_puts(b, "<p class=\"empty\">no game thrown</p>\n");
		return;
	}
	buf_puts(b, "<table class=\"throws\"><thead><tr><th>own move</th>"
	    "<th class=\"n\">games</th></tr></thead><tbody>\n");
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++) {
		results_throw_bounds(i, &lo, &hi);
		if (hi == 0)
			buf_printf(b, "<tr><td>%u+</td>", lo);
		else if (hi == lo)
			buf_printf(b, "<tr><td>%u</td>", lo);
		else
			buf_printf(b, "<tr><td>%u-%u</td>", lo, hi);
		buf_printf(b, "<td class=\"n\">%lld</td></tr>\n",
		    (long long)p->first_throw[i]);
	}
	buf_puts(b, "</tbody></table>\n");
}

/*
 * A logged game as the page shows it without JavaScript: its summary,
 * the moves with their marks and the refused moves (what GET
 * /api/games/ID gives).
 */
void
html_record(struct buf *b, const struct store_record *rec, const char *tour)
{
	const struct store_gameinfo *g = &rec->game;
	size_t		 i;

	buf_puts(b, "<p class=\"summary\">");
	html_player(b, g->player1);
	buf_puts(b, " \xe2\x80\x93 ");
	html_player(b, g->player2);
	buf_puts(b, " \xc2\xb7 <span class=\"spec\">");
	html_esc(b, g->game);
	buf_puts(b, "</span> \xc2\xb7 ");
	html_result(b, g);
	if (tour != NULL) {
		buf_puts(b, " \xc2\xb7 ");
		html_tour(b, tour);
		buf_printf(b, " slot %u", g->slot);
	}
	buf_puts(b, "</p>\n<table class=\"moves\"><thead><tr><th>ply</th>"
	    "<th>player</th><th>move</th><th>mark</th><th>position</th>"
	    "</tr></thead><tbody>\n");
	for (i = 0; i < rec->nmoves; i++) {
		const struct store_rmove *m = &rec->moves[i];

		buf_printf(b, "<tr><td>%llu</td><td>%d</td><td class=\"move\">",
		    (unsigned long long)m->ply, m->player);
		html_esc(b, m->move);
		buf_printf(b, "</td><td>%s</td><td class=\"spec\">",
		    store_mark_name(m->mark));
		html_esc(b, m->position);
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</tbody></table>\n");
	if (rec->nrefused == 0)
		return;
	buf_puts(b, "<h3>Refused moves</h3>\n<table class=\"refused\"><thead>"
	    "<tr><th>ply</th><th>player</th><th>move</th><th>reason</th>"
	    "</tr></thead><tbody>\n");
	for (i = 0; i < rec->nrefused; i++) {
		const struct store_rrefused *x = &rec->refused[i];

		buf_printf(b, "<tr><td>%llu</td><td>%d</td><td class=\"move\">",
		    (unsigned long long)x->ply, x->player);
		html_esc(b, x->move);
		buf_puts(b, "</td><td>");
		html_esc(b, x->reason);
		buf_puts(b, "</td></tr>\n");
	}
	buf_puts(b, "</tbody></table>\n");
}

/* A JSON value of a table's cell as text: null "-", numbers as given. */
static void
html_json_cell(struct buf *b, const struct jsonr *v)
{
	switch (v->type) {
	case JSONR_NULL:
		buf_putc(b, '-');
		break;
	case JSONR_BOOL:
		buf_puts(b, v->b ? "yes" : "no");
		break;
	case JSONR_NUM:
	case JSONR_STR:
		html_esc(b, v->str);
		break;
	default:
		buf_puts(b, "\xe2\x80\xa6");
		break;
	}
}

/*
 * A JSON array of objects (the API's standings) as a table: a column per
 * member of the first object, in its order, whatever they are; "name"
 * linked to the player.
 */
static void
html_json_table(struct buf *b, const char *cls, const struct jsonr *a)
{
	const struct jsonr *o, *v;
	size_t		 i, k;

	if (a->type != JSONR_ARR || a->n == 0 ||
	    a->items[0].type != JSONR_OBJ) {
		buf_puts(b, "<p class=\"empty\">no player</p>\n");
		return;
	}
	buf_printf(b, "<table class=\"%s\"><thead><tr>", cls);
	for (k = 0; k < a->items[0].n; k++) {
		buf_puts(b, "<th>");
		html_esc(b, a->items[0].keys[k]);
		buf_puts(b, "</th>");
	}
	buf_puts(b, "</tr></thead><tbody>\n");
	for (i = 0; i < a->n; i++) {
		o = &a->items[i];
		buf_puts(b, "<tr>");
		for (k = 0; k < a->items[0].n; k++) {
			buf_puts(b, "<td>");
			v = jsonr_get(o, a->items[0].keys[k]);
			if (v != NULL && v->type == JSONR_STR &&
			    strcmp(a->items[0].keys[k], "name") == 0)
				html_player(b, v->str);
			else if (v != NULL)
				html_json_cell(b, v);
			buf_puts(b, "</td>");
		}
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</tbody></table>\n");
}

/*
 * A tournament's standings, the very JSON of /api/tournaments/NAME
 * (results_json_standings) as a table, and its crosstable.
 */
static void
html_tour_results(struct lobby *lb, const char *name, int cross,
    struct buf *b)
{
	struct lobby_tresults tr;
	const struct xtable_cell *c;
	struct buf	 err, js;
	struct json	 j;
	struct jsonr	 a;
	char		 e[128];
	size_t		 i, k;

	buf_init(&err);
	if (lobby_tour_results(lb, name, &tr, &err) != 0) {
		buf_free(&err);
		return;
	}
	buf_free(&err);
	if (!cross) {
		buf_init(&js);
		json_init(&j, &js);
		results_json_standings(&j, &tr.r);
		if (jsonr_parse(js.data, js.len, &a, e, sizeof e) == 0) {
			html_json_table(b, "standings", &a);
			jsonr_free(&a);
		}
		buf_free(&js);
		results_free(&tr.r);
		return;
	}
	buf_puts(b, "<table class=\"crosstable\"><thead><tr><th></th>");
	for (k = 0; k < tr.r.n; k++)
		buf_printf(b, "<th>%zu</th>", k + 1);
	buf_puts(b, "</tr></thead><tbody>\n");
	for (i = 0; i < tr.r.n; i++) {
		buf_printf(b, "<tr><td>%zu ", i + 1);
		html_player(b, tr.r.names[i]);
		buf_puts(b, "</td>");
		for (k = 0; k < tr.r.n; k++) {
			c = k != i ? xtable_get(&tr.r.xt, i, k) : NULL;
			if (k == i)
				buf_puts(b, "<td>\xe2\x80\x94</td>");
			else if (c == NULL || c->games == 0)
				buf_puts(b, "<td></td>");
			else {
				buf_puts(b, "<td>");
				export_num(b, -1, (double)c->half / 2.0);
				buf_printf(b, "/%u</td>", (unsigned)c->games);
			}
		}
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</tbody></table>\n");
	results_free(&tr.r);
}

/* The head of the table of live games on other nodes. */
void
html_elsewhere_head(struct buf *b)
{
	buf_puts(b, "<table class=\"games\"><thead><tr><th>game</th>"
	    "<th>players</th><th class=\"n\">ply</th><th>tc</th>"
	    "<th>game spec</th><th>tournament</th><th>node</th></tr></thead>"
	    "<tbody>\n");
}

/*
 * A row of that table: a game of the log refereed on another node, its
 * last logged ply and node (0: its lease is not held now).
 */
void
html_elsewhere(struct buf *b, const struct store_gameinfo *g,
    const char *tour, uint64_t ply, int64_t node)
{
	html_game_cells(b, g->id, g->player1, g->player2);
	buf_printf(b, "<td class=\"n\">%llu</td><td>",
	    (unsigned long long)ply);
	html_tc(b, g->has_tc, g->tc_base_ms, g->tc_inc_ms);
	buf_puts(b, "</td><td class=\"spec\">");
	html_esc(b, g->game);
	buf_puts(b, "</td><td>");
	html_tour(b, tour);
	if (node != 0)
		buf_printf(b, "</td><td>node %lld</td></tr>\n",
		    (long long)node);
	else
		buf_puts(b, "</td><td>taken over</td></tr>\n");
}
