/*
 * lobby-rating.c: Elo ratings of the accounts, replayed from the log at
 * start and updated by each rated game's logged result (any thread reads
 * them, under the lobby's rating lock).
 */

#include <sys/queue.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league.h"
#include "lobby.h"
#include "lobby-int.h"
#include "log.h"

/* FNV-1a of a name, for the ratings' index. */
static size_t
lrating_hash(const char *name)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	return ((size_t)h);
}

/* Returns the index slot of name: its entry, or the empty slot for it. */
static size_t *
lrating_slot(struct lobby *lb, const char *name)
{
	size_t	 mask = lb->rindex_cap - 1, i = lrating_hash(name) & mask;

	while (lb->rindex[i] != 0 &&
	    strcmp(lb->ratings[lb->rindex[i] - 1].name, name) != 0)
		i = (i + 1) & mask;
	return (&lb->rindex[i]);
}

/* Returns a player's rating entry, or NULL (locked). */
static struct lrating *
lobby_rating_find(struct lobby *lb, const char *name)
{
	size_t	*slot;

	if (lb->rindex_cap == 0)
		return (NULL);
	slot = lrating_slot(lb, name);
	return (*slot != 0 ? &lb->ratings[*slot - 1] : NULL);
}

/* Doubles the index (kept at most half full) and reinserts every entry. */
static void
lrating_reindex(struct lobby *lb)
{
	size_t	 i;

	free(lb->rindex);
	lb->rindex_cap = lb->rindex_cap == 0 ? 64 : lb->rindex_cap * 2;
	lb->rindex = xcalloc(lb->rindex_cap, sizeof *lb->rindex);
	for (i = 0; i < lb->nratings; i++)
		*lrating_slot(lb, lb->ratings[i].name) = i + 1;
}

/*
 * Returns a rating entry, added at the start rating if missing (locked).
 * The entries are found through a hash index: a replay of a million games
 * looks each player up in constant time.
 */
static struct lrating *
lobby_rating_get(struct lobby *lb, const char *name)
{
	struct lrating	*e;

	if ((e = lobby_rating_find(lb, name)) != NULL)
		return (e);
	if (lb->nratings == lb->rcap) {
		lb->rcap = lb->rcap == 0 ? 64 : lb->rcap * 2;
		lb->ratings = xreallocarray(lb->ratings, lb->rcap,
		    sizeof *lb->ratings);
	}
	e = &lb->ratings[lb->nratings++];
	memset(e, 0, sizeof *e);
	lobby_copy(e->name, name, sizeof e->name);
	e->r = LOBBY_ELO_START;
	if (2 * lb->nratings > lb->rindex_cap)
		lrating_reindex(lb);
	else
		*lrating_slot(lb, e->name) = lb->nratings;
	return (e);
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
	struct lrating	*e;

	*r = (long)LOBBY_ELO_START;
	*n = 0;
	pthread_mutex_lock(&lb->rmtx);
	if ((e = lobby_rating_find(lb, name)) != NULL) {
		*r = lround(e->r);
		*n = e->games;
	}
	pthread_mutex_unlock(&lb->rmtx);
	return (e != NULL);
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
