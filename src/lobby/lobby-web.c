/*
 * lobby-web.c: the lobby's live data for the HTTP API (PROTOCOL.md §14),
 * handed out as structs that the HTTP side writes as JSON (http-lobby.c):
 * live games, the featured game, tournaments as `tournament show` has
 * them, and the ratings (on the loop, from the lobby's memory only).
 */
#include <sys/queue.h>

#include <string.h>

#include "lobby/lobby.h"
#include "lobby/lobby-int.h"

/* Fills v with game g at now (ms), as the web shows it. */
static void
lweb_live(const struct lgame *g, uint64_t now, struct lobby_live *v)
{
	lobby_live_fill(g, v, now);
	v->family = g->game.fam->name;
	v->to_move = g->to_move;
	v->tour = g->tour != NULL ? g->tour->def.name : NULL;
	v->slot = g->slot;
	v->watchers = g->nwatchers;
}

/* Returns live game id (not over), or NULL. */
static struct lgame *
lweb_find(struct lobby *lb, int64_t id)
{
	struct lgame	*g = lobby_game(lb, id);

	return (g != NULL && !lg_over(g) ? g : NULL);
}

/* Fills v with live game id and returns 1, or returns 0. */
int
lobby_web_game(struct lobby *lb, int64_t id, struct lobby_live *v)
{
	struct lgame	*g;

	if ((g = lweb_find(lb, id)) == NULL)
		return (0);
	lweb_live(g, lobby_clock_now(lb), v);
	return (1);
}

/*
 * Fills v with game id of the lobby (live, or ending until its end is
 * logged) for a game summary (§14.2), and returns 1, or returns 0.
 */
int
lobby_web_summary(struct lobby *lb, int64_t id, struct lobby_live *v)
{
	struct lgame	*g;

	if ((g = lobby_game(lb, id)) == NULL)
		return (0);
	lweb_live(g, lobby_clock_now(lb), v);
	return (1);
}

/*
 * Calls fn with each live game (of tournament tour, or all), oldest
 * first; returns their number.
 */
size_t
lobby_web_games(struct lobby *lb, const char *tour,
    void (*fn)(void *, const struct lobby_live *), void *arg)
{
	struct lgame	*g;
	struct lobby_live v;
	uint64_t	 now = lobby_clock_now(lb);
	size_t		 n = 0;

	TAILQ_FOREACH(g, &lb->games, entry) {
		if (lg_over(g) || (tour != NULL && (g->tour == NULL ||
		    strcmp(g->tour->def.name, tour) != 0)))
			continue;
		lweb_live(g, now, &v);
		fn(arg, &v);
		n++;
	}
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

/* A player's rating for the featured game: LOBBY_ELO_START without one
 * (the node's, on the loop: no read of the log). */
static double
lweb_rating(struct lobby *lb, const char *name)
{
	return (lobby_rating_live(lb, name));
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
 * Calls lobby_tour_show (§13.6) for the web: an anonymous client, who
 * sees what `tournament show` shows a player.  Returns 0, or -1.
 */
int
lobby_web_show(struct lobby *lb, const char *name, struct lobby_tshow *sh)
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

/*
 * Calls fn with every tournament as `tournament show` has it, in creation
 * order.
 */
void
lobby_web_tours(struct lobby *lb, void (*fn)(void *,
    const struct lobby_tshow *), void *arg)
{
	struct ltour	*t;
	struct lobby_tshow sh;

	if (lb->nops != NULL)	/* a node: every one from the log */
		lb->nops->tour_batch(lb, 1);
	TAILQ_FOREACH(t, &lb->tours, entry) {
		if (lobby_web_show(lb, t->def.name, &sh) == 0)
			fn(arg, &sh);
	}
	if (lb->nops != NULL)
		lb->nops->tour_batch(lb, 0);
}

/* Sets *v (to free) and *n to the ratings, best first, as `ratings`. */
void
lobby_web_ratings(struct lobby *lb, struct lobby_rating_row **v, size_t *n)
{
	struct lobby_client lc;

	memset(&lc, 0, sizeof lc);
	lc.lb = lb;
	lobby_ratings(&lc, v, n);
}
