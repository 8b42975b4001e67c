/*
 * http-lobby.c: the lobby's live data (lobby-web.c hands it out as
 * structs) and a player's rating history as the JSON of PROTOCOL.md §14:
 * live games and their summaries, tournaments with their standings and
 * crosstable, ratings.  On the loop, but the rating history (a replay of
 * the league's rated games: on a worker).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http-int.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-results.h"
#include "solver/game.h"
#include "stats/results-json.h"
#include "stats/sprt.h"

/* Writes a time control. */
static void
hlobby_tc(struct json *j, uint64_t base, uint64_t inc)
{
	json_obj(j);
	json_kuint(j, "base_ms", base);
	json_kuint(j, "inc_ms", inc);
	json_end_obj(j);
}

/* Writes a live game (§14.2, "the live game"). */
static void
hlobby_live(void *arg, const struct lobby_live *v)
{
	struct json	*j = arg;
	struct buf	 pos;

	buf_init(&pos);
	game_print(v->position, &pos);
	json_obj(j);
	json_kint(j, "id", v->id);
	json_kstr(j, "family", v->family);
	json_kstr(j, "start", v->start);
	json_kstr(j, "position", buf_str(&pos));
	json_kstr(j, "player1", v->player[0]);
	json_kstr(j, "player2", v->player[1]);
	json_kuint(j, "ply", v->ply);
	json_kint(j, "to_move", v->to_move);
	json_kbool(j, "rated", v->rated);
	json_key(j, "tc");
	hlobby_tc(j, v->base_ms, v->inc_ms);
	json_key(j, "clock_ms");
	json_arr(j);
	json_uint(j, v->clock_ms[0]);
	json_uint(j, v->clock_ms[1]);
	json_end_arr(j);
	json_kstr(j, "tournament", v->tour);
	json_kuint(j, "watchers", v->watchers);
	json_end_obj(j);
	buf_free(&pos);
}

/* Writes live game id and returns 1, or writes nothing and returns 0. */
int
http_live_game(struct lobby *lb, int64_t id, struct json *j)
{
	struct lobby_live v;

	if (!lobby_web_game(lb, id, &v))
		return (0);
	hlobby_live(j, &v);
	return (1);
}

/*
 * Writes game id of the lobby (live, or ending until its end is logged)
 * as a game summary (§14.2; the lobby does not know the start time: null)
 * and returns 1, or returns 0.
 */
int
http_live_summary(struct lobby *lb, int64_t id, struct json *j)
{
	struct lobby_live v;

	if (!lobby_web_summary(lb, id, &v))
		return (0);
	json_obj(j);
	json_kint(j, "id", v.id);
	json_kstr(j, "family", v.family);
	json_kstr(j, "start", v.start);
	json_kstr(j, "player1", v.player[0]);
	json_kstr(j, "player2", v.player[1]);
	json_kstr(j, "status", "live");
	json_knull(j, "result");
	json_knull(j, "winner");
	json_knull(j, "reason");
	json_knull(j, "detail");
	json_kbool(j, "rated", v.rated);
	json_key(j, "tc");
	hlobby_tc(j, v.base_ms, v.inc_ms);
	json_kstr(j, "tournament", v.tour);
	json_kuint_if(j, "slot", v.tour != NULL, v.slot);
	json_knull(j, "started");
	json_knull(j, "ended");
	json_end_obj(j);
	return (1);
}

/* Writes the live games (of tournament tour, or all), oldest first. */
void
http_live_games(struct lobby *lb, const char *tour, struct json *j)
{
	json_arr(j);
	(void)lobby_web_games(lb, tour, hlobby_live, j);
	json_end_arr(j);
}

/*
 * Writes v as `tournament show` prints it (fix3: "%.3f", else "%g"), or
 * null if not finite.
 */
static void
hlobby_knumf(struct json *j, const char *key, int fix3, double v)
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

/* Writes a tournament's options (§14.3 "options"), as `show` has them. */
static void
hlobby_tour_options(const struct league_tournament *d, struct json *j)
{
	struct tb_list	 tb;
	char		 tbs[TB_TEXT_MAX];
	char		 seed[24];

	json_key(j, "options");
	json_obj(j);
	json_kuint_if(j, "rounds", d->format == LEAGUE_SWISS ||
	    d->format == LEAGUE_ARENA, d->rounds);
	json_kuint(j, "forfeit_s", d->forfeit_s);
	lobby_tour_tb(d, &tb);
	tb_list_text(&tb, tbs, sizeof tbs);
	json_kstr(j, "tiebreaks", tbs);
	/* The seed tells the random starts to come: shown at the end only. */
	/* A string: any of 2^64, exact in every client (§14.2). */
	json_key(j, "seed");
	if (d->status == LEAGUE_T_FINISHED ||
	    d->status == LEAGUE_T_CANCELLED) {
		snprintf(seed, sizeof seed, "%llu",
		    (unsigned long long)d->seed);
		json_str(j, seed);
	} else
		json_null(j);
	json_key(j, "sprt");
	if (d->has_sprt) {
		json_obj(j);
		hlobby_knumf(j, "elo0", 0, d->sprt_elo0);
		hlobby_knumf(j, "elo1", 0, d->sprt_elo1);
		hlobby_knumf(j, "alpha", 0, d->sprt_alpha);
		hlobby_knumf(j, "beta", 0, d->sprt_beta);
		json_end_obj(j);
	} else
		json_null(j);
	json_end_obj(j);
}

/* Writes a tournament's definition, options and progress (members only). */
static void
hlobby_tour_def(const struct lobby_tshow *sh, struct json *j)
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
	hlobby_tc(j, d->base_ms, d->inc_ms);
	json_kuint(j, "games_per_pair", d->games_per_pair);
	hlobby_tour_options(d, j);
	json_key(j, "players");
	json_arr(j);
	for (i = 0; i < d->nplayers; i++)
		json_str(j, d->players[i]);
	json_end_arr(j);
	json_kuint(j, "played", sh->played);
	json_kuint(j, "total", sh->total);
}

/* Writes one tournament of the list: its definition and progress. */
static void
hlobby_tour_item(void *arg, const struct lobby_tshow *sh)
{
	struct json	*j = arg;

	json_obj(j);
	hlobby_tour_def(sh, j);
	json_end_obj(j);
}

/* Writes every tournament, in creation order. */
void
http_tours_json(struct lobby *lb, struct json *j)
{
	json_arr(j);
	lobby_web_tours(lb, hlobby_tour_item, j);
	json_end_arr(j);
}

/* Writes the pending games `tournament show` lists (§14.3 "pending"). */
static void
hlobby_tour_pending(const struct lobby_tshow *sh, struct json *j)
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
hlobby_tour_sprt(const struct lobby_tshow *sh, struct json *j)
{
	size_t		 i;

	json_key(j, "sprt_state");
	if (!sh->def->has_sprt) {
		json_null(j);
		return;
	}
	json_obj(j);
	hlobby_knumf(j, "lower", 1, sh->lower);
	hlobby_knumf(j, "upper", 1, sh->upper);
	json_kuint(j, "pairs", sh->pairs);
	json_key(j, "penta");
	json_arr(j);
	for (i = 0; i < 5; i++)
		json_uint(j, sh->penta[i]);
	json_end_arr(j);
	if (sh->has_llr)
		hlobby_knumf(j, "llr", 1, sh->llr);
	else
		json_knull(j, "llr");
	json_kstr(j, "verdict", sprt_verdict_name((enum sprt_verdict)sh->verdict));
	json_end_obj(j);
}

/* The rounds of a Swiss tournament as they are written (§14.3 "rounds"). */
struct hlobby_rounds {
	const struct lobby_tshow *sh;
	struct json	*j;
	unsigned int	 cur;		/* the round whose object is open */
};

/* Opens the rounds up to r, closing each one before. */
static void
hlobby_rounds_to(struct hlobby_rounds *c, unsigned int r)
{
	const struct league_tournament *d = c->sh->def;
	size_t		 bye;

	while (c->cur < r) {
		if (c->cur > 0) {
			json_end_arr(c->j);
			json_end_obj(c->j);
		}
		bye = c->sh->byes != NULL ? c->sh->byes[c->cur] : SIZE_MAX;
		json_obj(c->j);
		json_kuint(c->j, "round", ++c->cur);
		json_kstr(c->j, "bye", bye < d->nplayers ? d->players[bye] :
		    NULL);
		json_key(c->j, "games");
		json_arr(c->j);
	}
}

/* One game of a round. */
static void
hlobby_rounds_game(void *arg, const struct lobby_tgame *g)
{
	struct hlobby_rounds *c = arg;

	hlobby_rounds_to(c, g->round);
	json_obj(c->j);
	json_kuint(c->j, "slot", g->slot);
	json_kuint(c->j, "game", g->game);
	json_kstr(c->j, "player1", g->p[0]);
	json_kstr(c->j, "player2", g->p[1]);
	json_kstr(c->j, "state", g->state);
	json_key(c->j, "result");
	json_str(c->j, g->winner == 1 ? "first" : g->winner == 2 ? "second" :
	    NULL);
	json_kbool(c->j, "forfeit", g->forfeit);
	json_end_obj(c->j);
}

/* Writes "rounds": a Swiss tournament's paired rounds, else null. */
static void
hlobby_tour_rounds(const struct lobby_tshow *sh, struct json *j)
{
	struct hlobby_rounds c;

	json_key(j, "rounds");
	if (sh->def->format != LEAGUE_SWISS) {
		json_null(j);
		return;
	}
	memset(&c, 0, sizeof c);
	c.sh = sh;
	c.j = j;
	json_arr(j);
	lobby_tour_rounds(sh, hlobby_rounds_game, &c);
	hlobby_rounds_to(&c, sh->round);
	if (c.cur > 0) {
		json_end_arr(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* Writes the rest of `tournament show` (§14.3): state, counts, waits. */
static void
hlobby_tour_state(const struct lobby_tshow *sh, struct json *j)
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
	hlobby_tour_rounds(sh, j);
	json_kuint(j, "playing", sh->playing);
	json_kuint(j, "pending_games", sh->pending);
	json_kuint(j, "stopped", sh->stopped);
	json_kuint(j, "forfeits", sh->forfeits);
	hlobby_tour_pending(sh, j);
	hlobby_tour_sprt(sh, j);
}

/*
 * Writes a tournament's members but its logged games (§14.3): the
 * definition, `tournament show`'s state, standings, crosstable and live
 * games.  Returns 0, or -1 if there is no tournament of that name
 * (nothing written).
 */
int
http_tour_json(struct lobby *lb, const char *name, struct json *j)
{
	struct lobby_tshow sh;
	struct lobby_tresults tr;
	struct buf	 err;

	if (lobby_web_show(lb, name, &sh) != 0)
		return (-1);
	buf_init(&err);
	if (lobby_tour_results(lb, name, &tr, &err) != 0) {
		buf_free(&err);
		return (-1);
	}
	buf_free(&err);
	hlobby_tour_def(&sh, j);
	hlobby_tour_state(&sh, j);
	json_key(j, "standings");
	results_json_standings(j, &tr.r);
	json_key(j, "crosstable");
	results_json_crosstable(j, &tr.r);
	results_free(&tr.r);
	json_key(j, "live");
	http_live_games(lb, name, j);
	return (0);
}

/* Writes the ratings, best first, at most limit, as `ratings`. */
void
http_ratings_json(struct lobby *lb, size_t limit, struct json *j)
{
	struct lobby_rating_row *v;
	size_t		 n, i;

	lobby_web_ratings(lb, &v, &n);
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
 * first, the last max of them (league_rating_history: on a worker).
 * Returns 0, or -1 if the league cannot be read (nothing written).
 */
int
http_rating_history(struct league *lg, const char *name, size_t max,
    struct json *j)
{
	struct league_rpoint *v;
	size_t		 n, i;

	if (league_rating_history(lg, name, max, &v, &n) != 0)
		return (-1);
	json_arr(j);
	for (i = 0; i < n; i++) {
		json_obj(j);
		json_kint(j, "game", v[i].game_id);
		json_knum1(j, "rating", v[i].r);
		json_knum1(j, "rd", v[i].rd);
		json_end_obj(j);
	}
	json_end_arr(j);
	free(v);
	return (0);
}
