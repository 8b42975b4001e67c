/*
 * store-fence.c: the leases of the games this node referees, as the
 * store's writer uses them (issue 15 §2, doc/NODES.md "Fencing").  Only
 * on a node (store_set_node: a PostgreSQL store with the node thread of
 * node-run.c); a single node (SQLite) never calls it and nothing here
 * runs.
 *
 * The writer acquires a game's lease (lease_acquire, its own transaction)
 * before the batch that writes the game's begin, so before its first
 * move; every later write for the game (moves, refused moves, the end) is
 * fenced: the batch runs without pipeline and calls lease_fence(game,
 * node, epoch) before the write, in the same transaction.  A game whose
 * lease could not be acquired, or whose fence is refused, is lost: none
 * of its writes runs, its end is reported as not written (never as
 * durable), and the lost callback (the node thread) learns the game id
 * once, after the batch.  A committed end releases the lease (its own
 * transaction, just after the commit).
 *
 * The table of (game, epoch) is sorted by game, under its own mutex: the
 * writer, the node thread (store_leases, store_lease_set) and the loop
 * (store_lease_drop) use it.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "lease.h"
#include "log.h"
#include "store-int.h"
#include "util.h"

struct store_flease {
	int64_t		 game;
	int64_t		 epoch;
};

struct store_fence {
	pthread_mutex_t	 mtx;		/* v, n, cap */
	int64_t		 node;
	int64_t		 ttl;		/* ms */
	void		 (*lost)(void *, int64_t);
	void		*arg;
	struct store_flease *v;
	size_t		 n, cap;
	int64_t		*gone;		/* lost in this batch (the writer's) */
	size_t		 ngone, capgone;
};

/*
 * Makes the store a node's: node is its id in the registry, ttl_ms its
 * leases' validity; lost(arg, game) is called on the writer thread, after
 * a batch, for each game it found lost.  Call once, before any game.
 */
void
store_set_node(struct store *st, int64_t node, int64_t ttl_ms,
    void (*lost)(void *, int64_t), void *arg)
{
	struct store_fence *f;

	f = xcalloc(1, sizeof *f);
	pthread_mutex_init(&f->mtx, NULL);
	f->node = node;
	f->ttl = ttl_ms;
	f->lost = lost;
	f->arg = arg;
	st->fence = f;
}

/* Frees the table (store_free). */
void
store_fence_free(struct store *st)
{
	struct store_fence *f = st->fence;

	if (f != NULL) {
		free(f->v);
		free(f->gone);
		pthread_mutex_destroy(&f->mtx);
		free(f);
	}
	st->fence = NULL;
}

/* The index of game in the table, or where it goes (mtx held). */
static size_t
store_fence_find(const struct store_fence *f, int64_t game)
{
	size_t	 lo = 0, hi = f->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->v[mid].game < game)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* Records that this node holds game's lease at epoch (any thread). */
void
store_lease_set(struct store *st, int64_t game, int64_t epoch)
{
	struct store_fence *f = st->fence;
	size_t		 i;

	if (f == NULL)
		return;
	pthread_mutex_lock(&f->mtx);
	i = store_fence_find(f, game);
	if (i < f->n && f->v[i].game == game)
		f->v[i].epoch = epoch;
	else {
		if (f->n == f->cap) {
			f->cap = f->cap ? f->cap * 2 : 64;
			f->v = xreallocarray(f->v, f->cap, sizeof *f->v);
		}
		memmove(f->v + i + 1, f->v + i, (f->n - i) * sizeof *f->v);
		f->v[i].game = game;
		f->v[i].epoch = epoch;
		f->n++;
	}
	pthread_mutex_unlock(&f->mtx);
}

/* Game's epoch in the table, or 0; drop: forgets it too (any thread). */
static int64_t
store_lease_find(struct store *st, int64_t game, int drop)
{
	struct store_fence *f = st->fence;
	int64_t		 epoch = 0;
	size_t		 i;

	if (f == NULL)
		return (0);
	pthread_mutex_lock(&f->mtx);
	i = store_fence_find(f, game);
	if (i < f->n && f->v[i].game == game) {
		epoch = f->v[i].epoch;
		if (drop) {
			memmove(f->v + i, f->v + i + 1, (f->n - i - 1) *
			    sizeof *f->v);
			f->n--;
		}
	}
	pthread_mutex_unlock(&f->mtx);
	return (epoch);
}

/* Forgets game's lease; returns its epoch, or 0 if it had none. */
int64_t
store_lease_drop(struct store *st, int64_t game)
{
	return (store_lease_find(st, game, 1));
}

/* Game's epoch in the table, or 0. */
int64_t
store_lease_get(struct store *st, int64_t game)
{
	return (store_lease_find(st, game, 0));
}

/*
 * A copy of the table, for the node thread: *games and *epochs (to
 * free), sorted by game; returns their number.
 */
size_t
store_leases(struct store *st, int64_t **games, int64_t **epochs)
{
	struct store_fence *f = st->fence;
	size_t		 i, n;

	*games = *epochs = NULL;
	if (f == NULL)
		return (0);
	pthread_mutex_lock(&f->mtx);
	n = f->n;
	if (n > 0) {
		*games = xreallocarray(NULL, n, sizeof **games);
		*epochs = xreallocarray(NULL, n, sizeof **epochs);
		for (i = 0; i < n; i++) {
			(*games)[i] = f->v[i].game;
			(*epochs)[i] = f->v[i].epoch;
		}
	}
	pthread_mutex_unlock(&f->mtx);
	return (n);
}

/* Notes game as lost in this batch, once (the writer). */
static void
store_fence_gone(struct store_fence *f, int64_t game)
{
	size_t	 i;

	for (i = 0; i < f->ngone; i++)
		if (f->gone[i] == game)
			return;
	if (f->ngone == f->capgone) {
		f->capgone = f->capgone ? f->capgone * 2 : 16;
		f->gone = xreallocarray(f->gone, f->capgone,
		    sizeof *f->gone);
	}
	f->gone[f->ngone++] = game;
}

/*
 * Before a batch's transaction: acquires the lease of every game it
 * begins.  A game whose lease is refused or fails is lost: its begin is
 * skipped (not ok).
 */
void
store_fence_begin(struct store *st, struct store_items *b)
{
	struct store_fence *f = st->fence;
	struct store_item *it;
	struct lease	 l;
	int		 rc;

	if (f == NULL)
		return;
	STAILQ_FOREACH(it, b, entry) {
		if (it->op != STORE_OP_BEGIN)
			continue;
		rc = lease_acquire(st->wdb, it->id, f->node, f->ttl,
		    (int64_t)clock_wall_ms(), &l);
		if (rc == LEASE_OK) {
			store_lease_set(st, it->id, l.epoch);
			continue;
		}
		log_warnx("store=%s event=lease-refused game=%" PRId64
		    " what=%s", st->name, it->id, rc == LEASE_TAKEN ?
		    "taken" : sqldb_errmsg(st->wdb));
		it->skip = 1;
		store_fence_gone(f, it->id);
	}
}

/*
 * In the batch's transaction, before an item's write: 0 to write it, 1
 * when its game is lost (the item is skipped, not ok), -1 when the fence
 * failed (the batch fails as for any write).
 */
int
store_fence_item(struct store *st, struct store_item *it)
{
	struct store_fence *f = st->fence;
	int64_t		 epoch;
	int		 rc;

	if (f == NULL || (it->op != STORE_OP_RUN && it->op != STORE_OP_END &&
	    it->op != STORE_OP_REFUSED))
		return (0);
	if ((epoch = store_lease_get(st, it->id)) == 0)
		rc = LEASE_LOST;
	else if ((rc = lease_fence(st->wdb, it->id, f->node, epoch)) == -1)
		return (-1);
	if (rc == LEASE_OK)
		return (0);
	log_warnx("store=%s event=fenced game=%" PRId64 " epoch=%" PRId64
	    " op=%d", st->name, it->id, epoch, (int)it->op);
	it->skip = 1;
	it->ok = 0;
	store_fence_gone(f, it->id);
	return (1);
}

/* Releases the lease of a game that ended (its end committed). */
static void
store_fence_release(struct store *st, int64_t game)
{
	struct lease	 l;

	memset(&l, 0, sizeof l);
	l.game = game;
	l.node = st->fence->node;
	if ((l.epoch = store_lease_drop(st, game)) == 0)
		return;
	if (lease_release(st->wdb, &l) != LEASE_OK)
		log_warnx("store=%s event=lease-release game=%" PRId64
		    " error=\"%s\"", st->name, game, sqldb_errmsg(st->wdb));
}

/*
 * After a batch: releases the leases of the games it ended (if it
 * committed), then tells the lost callback of the games found lost.
 */
void
store_fence_after(struct store *st, struct store_items *b, int committed)
{
	struct store_item *it;
	size_t		 i;

	if (st->fence == NULL)
		return;
	STAILQ_FOREACH(it, b, entry)
		if (committed && it->op == STORE_OP_END && it->ok)
			store_fence_release(st, it->id);
	for (i = 0; i < st->fence->ngone; i++) {
		(void)store_lease_drop(st, st->fence->gone[i]);
		if (st->fence->lost != NULL)
			st->fence->lost(st->fence->arg, st->fence->gone[i]);
	}
	st->fence->ngone = 0;
}
