/*
 * lobby-rating.c: Elo ratings of the accounts, replayed from the log at
 * start and updated by each rated game's logged result (any thread reads
 * them, under the lobby's rating lock).
 */

#include <sys/queue.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league.h"
#include "lobby.h"
#include "lobby-int.h"
#include "log.h"

/* Returns a rating entry, added at the start rating if missing (locked). */
static struct lrating *
lobby_rating_get(struct lobby *lb, const char *name)
{
	size_t	 i;

	for (i = 0; i < lb->nratings; i++)
		if (strcmp(lb->ratings[i].name, name) == 0)
			return (&lb->ratings[i]);
	lb->ratings = xreallocarray(lb->ratings, lb->nratings + 1,
	    sizeof *lb->ratings);
	memset(&lb->ratings[lb->nratings], 0, sizeof *lb->ratings);
	lobby_copy(lb->ratings[lb->nratings].name, name,
	    sizeof lb->ratings[0].name);
	lb->ratings[lb->nratings].r = LOBBY_ELO_START;
	return (&lb->ratings[lb->nratings++]);
}

/* Applies one rated result to the Elo ratings (winner: 1 or 2). */
void
lobby_rate(struct lobby *lb, const char *p1, const char *p2, int winner)
{
	struct lrating	*a, *b;
	double		 ea, sa;

	pthread_mutex_lock(&lb->rmtx);
	/* Adding b may move the array: add both first, then look up. */
	(void)lobby_rating_get(lb, p1);
	b = lobby_rating_get(lb, p2);
	a = lobby_rating_get(lb, p1);
	ea = 1.0 / (1.0 + pow(10.0, (b->r - a->r) / 400.0));
	sa = winner == 1 ? 1.0 : 0.0;
	a->r += LOBBY_ELO_K * (sa - ea);
	b->r -= LOBBY_ELO_K * (sa - ea);
	a->games++;
	b->games++;
	pthread_mutex_unlock(&lb->rmtx);
}

/*
 * Returns 1 and a player's rounded rating and rated games, or 0 if it has
 * none (any thread).
 */
int
lobby_rating(struct lobby *lb, const char *name, long *r, unsigned long *n)
{
	size_t	 i;
	int	 found = 0;

	*r = (long)LOBBY_ELO_START;
	*n = 0;
	pthread_mutex_lock(&lb->rmtx);
	for (i = 0; i < lb->nratings; i++)
		if (strcmp(lb->ratings[i].name, name) == 0) {
			*r = lround(lb->ratings[i].r);
			*n = lb->ratings[i].games;
			found = 1;
		}
	pthread_mutex_unlock(&lb->rmtx);
	return (found);
}

/* Replays the rated games of the log into the ratings. */
int
lobby_load_ratings(struct lobby *lb, char *err, size_t errlen)
{
	struct league_rgame *v = NULL;
	size_t		 n = 0, i;

	if (league_rated_games(lb->league, &v, &n) != 0) {
		snprintf(err, errlen, "cannot read the rated games");
		return (-1);
	}
	for (i = 0; i < n; i++)
		lobby_rate(lb, v[i].player1, v[i].player2, v[i].result);
	free(v);
	log_info("event=ratings games=%zu players=%zu", n, lb->nratings);
	return (0);
}
