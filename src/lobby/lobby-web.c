/*
 * lobby-web.c: the lobby's live data as JSON for the HTTP API
 * (PROTOCOL.md §14): live games, the featured game, tournaments with their
 * standings and crosstable, ratings (on the loop, from the lobby's memory
 * only), and a player's rating history (any thread: a replay of the rated
 * games of the league).
 */
#include <sys/queue.h>

#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "stats/rtable.h"
#include "lobby/lobby-results.h"
#include "stats/results-json.h"
#include "store/store.h"

/* Writes a time control, or null. */
static void
lweb_tc(struct json *j, uint64_t base, uint64_t inc)
{
	json_obj(j);
	json_kuint(j, "base_ms", base);
	json_kuint(j, "inc_ms", inc);
	json_end_obj(j);
}

/* Writes a live game (PROTOCOL.md §14.2, "the live game"). */
static void
lweb_live(struct lgame *g, uint64_t now, struct json *j)
{
	struct buf	 pos;

	buf_init(&pos);
	game_print(&g->game, &pos);
	json_obj(j);
	json_kint(j, "id", g->id);
	json_kstr(j, "family", g->game.fam->name);
	json_kstr(j, "start", g->start);
	json_kstr(j, "position", buf_str(&pos));
	json_kstr(j, "player1", g->p[0].name);
	json_kstr(j, "player2", g->p[1].name);
	json_kuint(j, "ply", g->ply);
	json_kint(j, "to_move", g->to_move);
	json_kbool(j, "rated", g->rated);
	json_key(j, "tc");
	lweb_tc(j, g->base_ms, g->inc_ms);
	json_key(j, "clock_ms");
	json_arr(j);
	json_uint(j, lg_clock(g, 1, now));
	json_uint(j, lg_clock(g, 2, now));
	json_end_arr(j);
	json_kstr(j, "tournament", g->tour != NULL ? g->tour->def.name : NULL);
	json_kuint(j, "watchers", g->nwatchers);
	json_end_obj(j);
	buf_free(&pos);
}

/* Returns live game id (not over), or NULL. */
static struct lgame *
lweb_find(struct lobby *lb, int64_t id)
{
	struct lgame	*g = lobby_game(lb, id);

	return (g != NULL && !lg_over(g) ? g : NULL);
}

/* Writes live game id and returns 1, or writes nothing and returns 0. */
int
lobby_web_game(struct lobby *lb, int64_t id, struct json *j)
{
	struct lgame	*g;

	if ((g = lweb_find(lb, id)) == NULL)
		return (0);
	lweb_live(g, lobby_clock_now(lb), j);
	return (1);
}

/*
 * Writes game id of the lobby (live, or ending until its end is logged)
 * as a game summary (§14.2; the lobby does not know the start time: null)
 * and returns 1, or returns 0.
 */
int
lobby_web_summary(struct lobby *lb, int64_t id, struct json *j)
{
	struct lgame	*g;

	if ((g = lobby_game(lb, id)) == NULL)
		return (0);
	json_obj(j);
	json_kint(j, "id", g->id);
	json_kstr(j, "family", g->game.fam->name);
	json_kstr(j, "start", g->start);
	json_kstr(j, "player1", g->p[0].name);
	json_kstr(j, "player2", g->p[1].name);
	json_kstr(j, "status", "live");
	json_knull(j, "result");
	json_knull(j, "winner");
	json_knull(j, "reason");
	json_knull(j, "detail");
	json_kbool(j, "rated", g->rated);
	json_key(j, "tc");
	lweb_tc(j, g->base_ms, g->inc_ms);
	json_kstr(j, "tournament", g->tour != NULL ? g->tour->def.name : NULL);
	json_kuint_if(j, "slot", g->tour != NULL, g->slot);
	json_knull(j, "started");
	json_knull(j, "ended");
	json_end_obj(j);
	return (1);
}

/* Writes the live games (of tournament tour, or all), oldest first. */
size_t
lobby_web_games(struct lobby *lb, const char *tour, struct json *j)
{
	struct lgame	*g;
	uint64_t	 now = lobby_clock_now(lb);
	size_t		 n = 0;

	json_arr(j);
	TAILQ_FOREACH(g, &lb->games, entry) {
		if (lg_over(g) || (tour != NULL && (g->tour == NULL ||
		    strcmp(g->tour->def.name, tour) != 0)))
			continue;
		lweb_live(g, now, j);
		n++;
	}
	json_end_arr(j);
	return (n);
}

/* Returns the number of live games. */
size_t
lobby_web_nlive(struct lobby *lb)
{
	struct lgame	*g;
	size_t		 n = 0;

	TAILQ_FOREACH(g, &lb->games, entry)
		n += !lg_over(g);
	return (n);
}

/* A player's rating for the featured game: LOBBY_ELO_START without one. */
static double
lweb_rating(struct lobby *lb, const char *name)
{
	long		 r;
	unsigned long	 n;

	(void)lobby_rating(lb, name, &r, &n);
	return ((double)r);
}

/*
 * The featured game: the live game whose players have the highest summed
 * rating, the most recent on a tie; 0 if none is live.
 */
int64_t
lobby_web_featured(struct lobby *lb)
{
	struct lgame	*g;
	int64_t		 best = 0;
	double		 r, bestr = 0;

	TAILQ_FOREACH(g, &lb->games, entry) {
		if (lg_over(g))
			continue;
		r = lweb_rating(lb, g->p[0].name) + lweb_rating(lb,
		    g->p[1].name);
		if (best == 0 || r > bestr || (r == bestr && g->id > best)) {
			best = g->id;
			bestr = r;
		}
	}
	return (best);
}

/* Returns a tournament's id, 0 if there is none of that name. */
int64_t
lobby_web_tour_id(struct lobby *lb, const char *name)
{
	struct ltour	*t = lobby_tour(lb, name);

	return (t != NULL ? t->def.id : 0);
}

/*
 * Writes v as `tournament show` prints it (fix3: "%.3f", else "%g"), or
 * null if not finite.
 */
static void
lweb_knumf(struct json *j, const char *key, int fix3, double v)
{
	char		 b[64];
	int		 n;

	json_key(j, key);
	n = fix3 ? snprintf(b, sizeof b, "%.3f", v) :
	    snprintf(b, sizeof b, "%g", v);
	if (!isfinite(v) || n <= 0 || (size_t)n >= sizeof b)
		json_null(j);
	else
		json_raw(j, b, (size_t)n);
}

/*
 * Calls lobby_tour_show (§13.6) for the web: an anonymous client, who
 * sees what `tournament show` shows a player.  Returns 0, or -1.
 */
static int
lweb_show(struct lobby *lb, const char *name, struct lobby_tshow *sh)
{
	struct lobby_client lc;
	struct buf	 err;
	int		 rc;

	memset(&lc, 0, sizeof lc);
	lc.lb = lb;
	buf_init(&err);
	rc = lobby_tour_show(&lc, name, sh, &err);
	buf_free(&err);
	return (rc);
}

/* Writes a tournament's options (§14.3 "options"), as `show` has them. */
static void
lweb_tour_options(const struct league_tournament *d, struct json *j)
{
	json_key(j, "options");
	json_obj(j);
	json_kuint_if(j, "rounds", d->format == LEAGUE_SWISS ||
	    d->format == LEAGUE_ARENA, d->rounds);
	json_kuint(j, "forfeit_s", d->forfeit_s);
	/* The seed tells the random starts to come: shown at the end only. */
	json_kuint_if(j, "seed", d->status == LEAGUE_T_FINISHED ||
	    d->status == LEAGUE_T_CANCELLED, d->seed);
	json_key(j, "sprt");
	if (d->has_sprt) {
		json_obj(j);
		lweb_knumf(j, "elo0", 0, d->sprt_elo0);
		lweb_knumf(j, "elo1", 0, d->sprt_elo1);
		lweb_knumf(j, "alpha", 0, d->sprt_alpha);
		lweb_knumf(j, "beta", 0, d->sprt_beta);
		json_end_obj(j);
	} else
		json_null(j);
	json_end_obj(j);
}

/* Writes a tournament's definition, options and progress (members only). */
static void
lweb_tour_def(const struct lobby_tshow *sh, struct json *j)
{
	const struct league_tournament *d = sh->def;
	size_t		 i;

	json_kint(j, "id", d->id);
	json_kstr(j, "name", d->name);
	json_key(j, "format");
	json_str(j, league_format_name(d->format));
	json_kstr(j, "status", lobby_tour_status(d->status));
	json_kstr(j, "game", d->game);
	json_kbool(j, "random", d->random);
	json_key(j, "tc");
	lweb_tc(j, d->base_ms, d->inc_ms);
	json_kuint(j, "games_per_pair", d->games_per_pair);
	lweb_tour_options(d, j);
	json_key(j, "players");
	json_arr(j);
	for (i = 0; i < d->nplayers; i++)
		json_str(j, d->players[i]);
	json_end_arr(j);
	json_kuint(j, "played", sh->played);
	json_kuint(j, "total", sh->total);
}

/* Writes every tournament, in creation order. */
void
lobby_web_tours(struct lobby *lb, struct json *j)
{
	struct ltour	*t;
	struct lobby_tshow sh;

	json_arr(j);
	if (lb->nops != NULL)	/* a node: every one from the log */
		lb->nops->tour_batch(lb, 1);
	TAILQ_FOREACH(t, &lb->tours, entry) {
		if (lweb_show(lb, t->def.name, &sh) != 0)
			continue;
		json_obj(j);
		lweb_tour_def(&sh, j);
		json_end_obj(j);
	}
	if (lb->nops != NULL)
		lb->nops->tour_batch(lb, 0);
	json_end_arr(j);
}

/* Writes the pending games `tournament show` lists (§14.3 "pending"). */
static void
lweb_tour_pending(const struct lobby_tshow *sh, struct json *j)
{
	size_t		 i;

	json_key(j, "pending");
	json_arr(j);
	for (i = 0; i < sh->npend; i++) {
		const struct lobby_tpend *p = &sh->pend[i];

		json_obj(j);
		json_kuint(j, "slot", p->slot);
		json_kuint(j, "game", p->game);
		json_kstr(j, "player1", p->p[0]);
		json_kstr(j, "player2", p->p[1]);
		json_kbool(j, "first_game", p->after);
		json_key(j, "where");
		if (p->after)
			json_null(j);
		else {
			json_arr(j);
			json_str(j, lobby_tour_where(p->where[0]));
			json_str(j, lobby_tour_where(p->where[1]));
			json_end_arr(j);
		}
		json_kuint_if(j, "forfeit_in_s", p->forfeit,
		    (p->forfeit_ms + 999) / 1000);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_kuint(j, "pending_more", sh->pending - sh->npend);
}

/* Writes the SPRT's state (§14.3 "sprt_state"), or null without one. */
static void
lweb_tour_sprt(const struct lobby_tshow *sh, struct json *j)
{
	size_t		 i;

	json_key(j, "sprt_state");
	if (!sh->def->has_sprt) {
		json_null(j);
		return;
	}
	json_obj(j);
	lweb_knumf(j, "lower", 1, sh->lower);
	lweb_knumf(j, "upper", 1, sh->upper);
	json_kuint(j, "pairs", sh->pairs);
	json_key(j, "penta");
	json_arr(j);
	for (i = 0; i < 5; i++)
		json_uint(j, sh->penta[i]);
	json_end_arr(j);
	if (sh->has_llr)
		lweb_knumf(j, "llr", 1, sh->llr);
	else
		json_knull(j, "llr");
	json_kstr(j, "verdict", sprt_verdict_name((enum sprt_verdict)sh->verdict));
	json_end_obj(j);
}

/* Writes the rest of `tournament show` (§14.3): state, counts, waits. */
static void
lweb_tour_state(const struct lobby_tshow *sh, struct json *j)
{
	const struct league_tournament *d = sh->def;
	size_t		 i;

	json_kuint_if(j, "paired", d->format == LEAGUE_SWISS ||
	    d->format == LEAGUE_ARENA, sh->round);
	json_key(j, "withdrawn");
	json_arr(j);
	for (i = 0; i < d->nplayers; i++)
		if (d->wround[i] != 0)
			json_str(j, d->players[i]);
	json_end_arr(j);
	json_key(j, "byes");
	if (sh->byes != NULL) {
		json_arr(j);
		for (i = 0; i < sh->round; i++)
			json_str(j, sh->byes[i] < d->nplayers ?
			    d->players[sh->byes[i]] : NULL);
		json_end_arr(j);
	} else
		json_null(j);
	json_kuint(j, "playing", sh->playing);
	json_kuint(j, "pending_games", sh->pending);
	json_kuint(j, "stopped", sh->stopped);
	json_kuint(j, "forfeits", sh->forfeits);
	lweb_tour_pending(sh, j);
	lweb_tour_sprt(sh, j);
}

/*
 * Writes a tournament's members but its logged games (§14.3): the
 * definition, `tournament show`'s state, standings, crosstable and live
 * games.  Returns 0, or -1 if there is no tournament of that name
 * (nothing written).
 */
int
lobby_web_tour(struct lobby *lb, const char *name, struct json *j)
{
	struct lobby_tshow sh;
	struct lobby_tresults tr;
	struct buf	 err;

	if (lweb_show(lb, name, &sh) != 0)
		return (-1);
	buf_init(&err);
	if (lobby_tour_results(lb, name, &tr, &err) != 0) {
		buf_free(&err);
		return (-1);
	}
	buf_free(&err);
	lweb_tour_def(&sh, j);
	lweb_tour_state(&sh, j);
	json_key(j, "standings");
	results_json_standings(j, &tr.r);
	json_key(j, "crosstable");
	results_json_crosstable(j, &tr.r);
	results_free(&tr.r);
	json_key(j, "live");
	(void)lobby_web_games(lb, name, j);
	return (0);
}

/* Writes the ratings, best first, at most limit, as `ratings`. */
void
lobby_web_ratings(struct lobby *lb, size_t limit, struct json *j)
{
	struct lobby_client lc;
	struct lobby_rating_row *v;
	size_t		 n, i;

	memset(&lc, 0, sizeof lc);
	lc.lb = lb;
	lobby_ratings(&lc, &v, &n);
	json_arr(j);
	for (i = 0; i < n && i < limit; i++) {
		json_obj(j);
		json_kuint(j, "rank", i + 1);
		json_kstr(j, "name", v[i].name);
		json_knum1(j, "rating", v[i].r);
		json_knum1(j, "rd", v[i].rd);
		json_kbool(j, "provisional", v[i].provisional);
		json_kuint(j, "games", v[i].games);
		json_end_obj(j);
	}
	json_end_arr(j);
	free(v);
}

/*
 * Writes a player's rating and RD after each of its rated games, oldest
 * first, the last max of them: a replay of the league's rated games
 * through the one Glicko-2 update (rtable.c), rounded as `player` shows
 * them (any thread; the work is proportional to the log: call it off the
 * loop).  Returns 0, or -1 if the league cannot be read (nothing
 * written).
 */
int
lobby_web_history(struct league *lg, const char *name, size_t max,
    struct json *j)
{
	struct league_rgame *v = NULL;
	struct rtable	 e;
	struct rtable_entry *p;
	int64_t		*gid;
	double		*r, *rd;
	size_t		 n = 0, i, k = 0, first;

	if (league_rated_games(lg, &v, &n) != 0)
		return (-1);
	rtable_init(&e);
	gid = xcalloc(n + 1, sizeof *gid);
	r = xcalloc(n + 1, sizeof *r);
	rd = xcalloc(n + 1, sizeof *rd);
	for (i = 0; i < n; i++) {
		rtable_rate(&e, v[i].player1, v[i].player2, v[i].result);
		if (strcmp(v[i].player1, name) != 0 &&
		    strcmp(v[i].player2, name) != 0)
			continue;
		p = rtable_find(&e, name);
		r[k] = (double)lround(p->g.r);
		rd[k] = (double)lround(p->g.rd);
		gid[k++] = v[i].game_id;
	}
	first = k > max ? k - max : 0;
	json_arr(j);
	for (i = first; i < k; i++) {
		json_obj(j);
		json_kint(j, "game", gid[i]);
		json_knum1(j, "rating", r[i]);
		json_knum1(j, "rd", rd[i]);
		json_end_obj(j);
	}
	json_end_arr(j);
	rtable_free(&e);
	free(gid);
	free(r);
	free(rd);
	free(v);
	return (0);
}
