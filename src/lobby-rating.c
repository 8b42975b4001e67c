/*
 * lobby-rating.c: the Elo ratings of the accounts, as the game log keeps
 * them: the store's writer rates each rated game in the transaction that
 * commits its end, before the players are told the result, and
 * checkpoints the ratings there (store-rating.c).  Any thread reads them.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "elo.h"
#include "league.h"
#include "lobby.h"
#include "lobby-int.h"
#include "store.h"

/*
 * Returns 1 and a player's rounded rating and rated games, or 0 if it has
 * none (any thread).
 */
int
lobby_rating(struct lobby *lb, const char *name, long *r, unsigned long *n)
{
	double	 x;

	*r = (long)LOBBY_ELO_START;
	*n = 0;
	if (lb->store == NULL || !store_rating(lb->store, name, &x, n))
		return (0);
	*r = lround(x);
	return (1);
}

/* Every rated player, unordered, in *v (free it) and *n (any thread). */
void
lobby_rating_rows(struct lobby *lb, struct lobby_rating_row **v, size_t *n)
{
	struct elo	 e;
	size_t		 i;

	elo_init(&e);
	if (lb->store != NULL)
		store_ratings(lb->store, &e);
	*n = e.n;
	*v = xreallocarray(NULL, *n + 1, sizeof **v);
	for (i = 0; i < *n; i++) {
		lobby_copy((*v)[i].name, e.v[i].name, sizeof (*v)[i].name);
		(*v)[i].r = e.v[i].r;
		(*v)[i].games = e.v[i].games;
	}
	elo_free(&e);
}
