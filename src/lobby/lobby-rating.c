/*
 * lobby-rating.c: the Glicko-2 ratings of the accounts, as the game log
 * keeps them: the store's writer rates each rated game in the transaction
 * that commits its end, before the players are told the result, and
 * checkpoints the ratings there (store-rating.c).  Any thread reads them.
 * With several nodes on one PostgreSQL, each read first brings the node's
 * ratings up to the games every node rated (store_ratings_sync: one read of
 * the last rating_seq), so every node answers the same (PROTOCOL.md §13.7).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/rtable.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "store/store.h"

/* Fills a row from a rating (the name apart). */
static void
lrating_fill(struct lobby_rating_row *row, const struct glicko2_rating *g,
    unsigned long games)
{
	row->r = g->r;
	row->rd = g->rd;
	row->provisional = rtable_provisional(g);
	row->games = games;
}

/*
 * On a worker: brings the node's ratings up to the games every node rated
 * (store_ratings_sync; SQLite: nothing to do), before a read on the loop
 * (the ratings command's preparation, the ratings pages).
 */
void
lobby_ratings_sync(struct lobby *lb)
{
	if (lb->store != NULL)
		(void)store_ratings_sync(lb->store);
}

/*
 * Returns 1 and a player's rating, RD, provisional mark and rated games
 * in row, or 0 if it has none: then row has the start (1500, RD 350,
 * provisional, 0 games).  With sync, the node's ratings are brought up to
 * every node's games first (a read of the log: never on the loop).
 */
static int
lrating_get(struct lobby *lb, const char *name, struct lobby_rating_row *row,
    int sync)
{
	struct glicko2_rating g;
	unsigned long	 n = 0;
	int		 has;

	if (sync)
		lobby_ratings_sync(lb);
	has = lb->store != NULL && store_rating(lb->store, name, &g, &n);
	if (!has) {
		g.r = GLICKO2_INIT_RATING;
		g.rd = GLICKO2_INIT_RD;
		g.sigma = GLICKO2_INIT_SIGMA;
		n = 0;
	}
	lobby_copy(row->name, name, sizeof row->name);
	lrating_fill(row, &g, n);
	return (has);
}

/* lrating_get, synced: on a worker (login, player, the pages' reads). */
int
lobby_rating_get(struct lobby *lb, const char *name,
    struct lobby_rating_row *row)
{
	return (lrating_get(lb, name, row, 1));
}

/* A player's rating as the node has it, no read of the log (the loop:
 * the featured game of the web's feeds). */
double
lobby_rating_live(struct lobby *lb, const char *name)
{
	struct lobby_rating_row row;

	return (lrating_get(lb, name, &row, 0) ? (double)lround(row.r) :
	    (double)LOBBY_RATING_START);
}

/*
 * Returns 1 and a player's rounded rating and rated games, or 0 if it has
 * none (any thread).
 */
int
lobby_rating(struct lobby *lb, const char *name, long *r, unsigned long *n)
{
	struct lobby_rating_row row;
	int		 has;

	has = lobby_rating_get(lb, name, &row);
	*r = has ? lround(row.r) : (long)LOBBY_RATING_START;
	*n = row.games;
	return (has);
}

/*
 * Every rated player, unordered, in *v (free it) and *n, as the node has
 * them (any thread; no read of the log: the caller syncs first).
 */
void
lobby_rating_rows(struct lobby *lb, struct lobby_rating_row **v, size_t *n)
{
	struct rtable	 e;
	size_t		 i;

	rtable_init(&e);
	if (lb->store != NULL)
		store_ratings(lb->store, &e);
	*n = e.n;
	*v = xreallocarray(NULL, *n + 1, sizeof **v);
	for (i = 0; i < *n; i++) {
		lobby_copy((*v)[i].name, e.v[i].name, sizeof (*v)[i].name);
		lrating_fill(&(*v)[i], &e.v[i].g, e.v[i].games);
	}
	rtable_free(&e);
}
