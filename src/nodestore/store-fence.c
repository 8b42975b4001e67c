/*
 * store-fence.c: the leases of the games this node referees, as the
 * store's writer uses them (issue 15 §2, doc/NODES.md "Fencing"), as its
 * batch ops (store-int.h).  Only on a node (store_set_node: a PostgreSQL
 * store with a node thread); a single node (SQLite) never calls it and
 * nothing here runs.
 *
 * The writer acquires the leases of a batch's new games (lease_acquire_all,
 * one transaction for all of them) before the batch that writes their
 * begins, so before their first move.  In the batch's transaction, before
 * any write, it fences every game the batch writes for (moves, refused
 * moves, ends) once, in one statement: lease_fence_held when the batch
 * runs a statement at a time (the games not held are skipped), or, when
 * the batch goes in libpq's pipeline, lease_fence_all queued first, which
 * makes the commit fail if any lease is lost; the writer then runs the
 * batch again without the pipeline, where lease_fence_held names the lost
 * games.  A game whose lease could not be acquired, or whose fence is
 * refused, is lost: none of its writes runs, its end is reported as not
 * written (never as durable), and the lost callback (the node thread)
 * learns the game id once, after the batch.  The ends written release
 * their games' leases in the same transaction (lease_release_all, one
 * statement just before the commit); a game leaves the table when its
 * end is written (so that the node thread never takes the released lease
 * for a lost one) and comes back if the batch fails.
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

#include "lib/clock.h"
#include "lib/log.h"
#include "nodestore/nodestore.h"
#include "store/store-int.h"
#include "lib/util.h"

struct store_flease {
	int64_t		 game;
	int64_t		 epoch;
};

struct store_fence {
	pthread_mutex_t	 mtx;		/* v, n, cap, stats */
	int64_t		 node;
	int64_t		 ttl;		/* ms */
	void		 (*lost)(void *, int64_t);
	void		*arg;
	struct store_flease *v;
	size_t		 n, cap;
	int64_t		*gone;		/* lost in this batch (the writer's) */
	size_t		 ngone, capgone;
	/* The games the batch writes for (the writer's): sorted, distinct,
	 * with their epochs; rel[i]: its lease released in the batch. */
	int64_t		*bg, *be;
	int		*rel;
	size_t		 nbg, capbg;
	struct store_fence_stats stats;
};

static void	 store_fence_begin(void *, struct store *,
		    struct store_items *);
static int	 store_fence_batch(void *, struct store *, struct store_items *,
		    int);
static void	 store_fence_end(void *, struct store *, struct store_item *);
static int	 store_fence_commit(void *, struct store *,
		    struct store_items *);
static void	 store_fence_after(void *, struct store *, struct store_items *,
		    int);
static void	 store_fence_free(void *);

/* The writer's batch ops of a node's store. */
static const struct store_batch_ops store_fence_ops = {
	.begin = store_fence_begin,
	.start = store_fence_batch,
	.end = store_fence_end,
	.commit = store_fence_commit,
	.after = store_fence_after,
	.free = store_fence_free
};

/* The table of store st, or NULL if the store is not a node's. */
static struct store_fence *
store_fence_of(struct store *st)
{
	return (store_batch_arg(st, &store_fence_ops));
}

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
	store_set_batch_ops(st, &store_fence_ops, f);
}

/* Frees table arg (store_free). */
static void
store_fence_free(void *arg)
{
	struct store_fence *f = arg;

	free(f->v);
	free(f->gone);
	free(f->bg);
	free(f->be);
	free(f->rel);
	pthread_mutex_destroy(&f->mtx);
	free(f);
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
	struct store_fence *f = store_fence_of(st);
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
	struct store_fence *f = store_fence_of(st);
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
	struct store_fence *f = store_fence_of(st);
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

/* Copies the fence's counters (zeros if the store is not a node's). */
void
store_fence_stats(struct store *st, struct store_fence_stats *c)
{
	struct store_fence *f = store_fence_of(st);

	memset(c, 0, sizeof *c);
	if (f == NULL)
		return;
	pthread_mutex_lock(&f->mtx);
	*c = f->stats;
	pthread_mutex_unlock(&f->mtx);
}

/* Adds to the counters: fence statements, lease transactions, leases
 * acquired, released. */
static void
store_fence_count(struct store_fence *f, uint64_t fences, uint64_t txns,
    uint64_t acquired, uint64_t released)
{
	pthread_mutex_lock(&f->mtx);
	f->stats.fences += fences;
	f->stats.lease_txns += txns;
	f->stats.acquired += acquired;
	f->stats.released += released;
	pthread_mutex_unlock(&f->mtx);
}

/* Is it a write for its game that the fence guards? */
static int
store_fenced_op(const struct store_item *it)
{
	return (it->op == STORE_OP_RUN || it->op == STORE_OP_END ||
	    it->op == STORE_OP_REFUSED);
}

/* Game is lost: skips its fenced writes in the batch, notes it (the
 * writer). */
static void
store_fence_lose(struct store *st, struct store_fence *f,
    struct store_items *b, int64_t game, int64_t epoch)
{
	struct store_item *it;

	log_warnx("store=%s event=fenced game=%" PRId64 " epoch=%" PRId64,
	    st->name, game, epoch);
	STAILQ_FOREACH(it, b, entry)
		if (it->id == game && store_fenced_op(it)) {
			it->skip = 1;
			it->ok = 0;
		}
	store_fence_gone(f, game);
}

static int
store_fence_cmp(const void *a, const void *b)
{
	int64_t	 x = *(const int64_t *)a, y = *(const int64_t *)b;

	return ((x > y) - (x < y));
}

/*
 * Before a batch's transaction: acquires the leases of the games it
 * begins, all in one transaction.  A game whose lease is refused or
 * fails is lost: its begin is skipped (not ok).
 */
static void
store_fence_new(struct store *st, struct store_fence *f,
    struct store_items *b)
{
	struct store_item *it;
	int64_t		*games, *epochs;
	size_t		 i = 0, n = 0, got = 0;
	int		 rc;

	STAILQ_FOREACH(it, b, entry)
		n += it->op == STORE_OP_BEGIN && !it->skip;
	if (n == 0)
		return;
	games = xreallocarray(NULL, n, sizeof *games);
	epochs = xreallocarray(NULL, n, sizeof *epochs);
	STAILQ_FOREACH(it, b, entry)
		if (it->op == STORE_OP_BEGIN && !it->skip)
			games[i++] = it->id;
	qsort(games, n, sizeof *games, store_fence_cmp);
	rc = lease_acquire_all(st->wdb, f->node, f->ttl,
	    (int64_t)clock_wall_ms(), games, n, epochs);
	for (i = 0; i < n; i++) {
		if (epochs[i] != 0) {
			store_lease_set(st, games[i], epochs[i]);
			got++;
			continue;
		}
		log_warnx("store=%s event=lease-refused game=%" PRId64
		    " what=\"%s\"", st->name, games[i], rc == 0 ? "taken" :
		    sqldb_errmsg(st->wdb));
		STAILQ_FOREACH(it, b, entry)
			if (it->op == STORE_OP_BEGIN && it->id == games[i])
				it->skip = 1;
		store_fence_gone(f, games[i]);
	}
	store_fence_count(f, 0, 1, got, 0);
	free(games);
	free(epochs);
}

/*
 * Before a batch's transaction: the distinct games it writes for (f->bg,
 * their epochs in f->be); a game this node has no lease of is lost at
 * once.
 */
static void
store_fence_games(struct store *st, struct store_fence *f,
    struct store_items *b)
{
	struct store_item *it;
	size_t		 i, n = 0;
	int64_t		 epoch;

	STAILQ_FOREACH(it, b, entry)
		n += store_fenced_op(it) && !it->skip;
	if (n > f->capbg) {
		f->capbg = n;
		f->bg = xreallocarray(f->bg, n, sizeof *f->bg);
		f->be = xreallocarray(f->be, n, sizeof *f->be);
		f->rel = xreallocarray(f->rel, n, sizeof *f->rel);
	}
	f->nbg = 0;
	STAILQ_FOREACH(it, b, entry)
		if (store_fenced_op(it) && !it->skip)
			f->bg[f->nbg++] = it->id;
	if (f->nbg > 1)
		qsort(f->bg, f->nbg, sizeof *f->bg, store_fence_cmp);
	for (i = n = 0; i < f->nbg; i++) {
		if (n > 0 && f->bg[n - 1] == f->bg[i])
			continue;
		if ((epoch = store_lease_get(st, f->bg[i])) == 0) {
			store_fence_lose(st, f, b, f->bg[i], 0);
			continue;
		}
		f->rel[n] = 0;
		f->be[n] = epoch;
		f->bg[n++] = f->bg[i];
	}
	f->nbg = n;
}

/*
 * Before a batch's transaction: acquires the leases of the games it
 * begins (one transaction), and lists the games it writes for, to fence.
 */
static void
store_fence_begin(void *arg, struct store *st, struct store_items *b)
{
	store_fence_new(st, arg, b);
	store_fence_games(st, arg, b);
}

/*
 * In the batch's transaction, before its writes: fences the batch's games
 * in one statement.  pipe: the batch is pipelined (lease_fence_all: a
 * lost lease fails the commit); else lease_fence_held, and the games not
 * held are lost (their writes skipped).  Returns 0, or -1 when the fence
 * failed (the batch fails as for any write).
 */
static int
store_fence_batch(void *arg, struct store *st, struct store_items *b,
    int pipe)
{
	struct store_fence *f = arg;
	int		*held;
	size_t		 i, n;

	if (f->nbg == 0)
		return (0);
	for (i = 0; i < f->nbg; i++)	/* an earlier try's releases */
		if (f->rel[i]) {
			store_lease_set(st, f->bg[i], f->be[i]);
			f->rel[i] = 0;
		}
	store_fence_count(f, 1, 0, 0, 0);
	if (pipe)
		return (lease_fence_all(st->wdb, f->node, f->bg, f->be,
		    f->nbg));
	held = xreallocarray(NULL, f->nbg, sizeof *held);
	if (lease_fence_held(st->wdb, f->node, f->bg, f->be, f->nbg,
	    held) == -1) {
		free(held);
		return (-1);
	}
	for (i = n = 0; i < f->nbg; i++) {
		if (!held[i]) {
			store_fence_lose(st, f, b, f->bg[i], f->be[i]);
			continue;
		}
		f->bg[n] = f->bg[i];
		f->be[n] = f->be[i];
		f->rel[n++] = f->rel[i];
	}
	f->nbg = n;
	free(held);
	return (0);
}

/* The index of game in the batch's games, or f->nbg. */
static size_t
store_fence_bfind(const struct store_fence *f, int64_t game)
{
	int64_t	*p;

	if (f->nbg == 0)
		return (0);
	p = bsearch(&game, f->bg, f->nbg, sizeof *f->bg, store_fence_cmp);
	return (p == NULL ? f->nbg : (size_t)(p - f->bg));
}

/*
 * In the batch's transaction, after an end was written: its game's lease
 * is to be released with it (store_fence_commit), and the game leaves the
 * table now.
 */
static void
store_fence_end(void *arg, struct store *st, struct store_item *it)
{
	struct store_fence *f = arg;
	size_t		 i;

	if ((i = store_fence_bfind(f, it->id)) == f->nbg ||
	    f->rel[i])
		return;
	(void)store_lease_drop(st, it->id);
	f->rel[i] = 1;
}

/*
 * In the batch's transaction, just before its commit: releases the leases
 * of the games whose end it wrote, in one statement (the fence holds
 * their rows).  Returns 0, or -1 if that failed (the batch fails).
 */
static int
store_fence_release(struct store *st, struct store_fence *f)
{
	int64_t		*g, *e, r;
	int		*done;
	size_t		 i, n = 0;

	for (i = 0; i < f->nbg; i++)
		n += f->rel[i] != 0;
	if (n == 0)
		return (0);
	g = xreallocarray(NULL, n, sizeof *g);
	e = xreallocarray(NULL, n, sizeof *e);
	done = xreallocarray(NULL, n, sizeof *done);
	for (i = n = 0; i < f->nbg; i++)
		if (f->rel[i]) {
			g[n] = f->bg[i];
			e[n++] = f->be[i];
		}
	if ((r = lease_release_all(st->wdb, f->node, g, e, n, done)) != -1)
		for (i = 0; i < n; i++)
			if (!done[i])	/* not after a fence that held */
				log_warnx("store=%s event=lease-release game=%"
				    PRId64 " error=\"not held\"", st->name,
				    g[i]);
	free(g);
	free(e);
	free(done);
	return (r == -1 ? -1 : 0);
}

/*
 * Just before the batch's commit: the leases of the ended games released
 * (store_fence_release), then the NOTIFYs of its writes to the other
 * nodes' spectators, delivered at the commit.  Returns 0, or -1.
 */
static int
store_fence_commit(void *arg, struct store *st, struct store_items *b)
{
	if (store_fence_release(st, arg) != 0)
		return (-1);
	return (store_notify_batch(st, b));
}

/*
 * After a batch: puts back in the table the games whose release did not
 * commit, counts the releases that did, then tells the lost callback of
 * the games found lost.
 */
static void
store_fence_after(void *arg, struct store *st, struct store_items *b,
    int committed)
{
	struct store_fence *f = arg;
	uint64_t	 released = 0;
	size_t		 i;

	(void)b;
	for (i = 0; i < f->nbg; i++) {
		if (!f->rel[i])
			continue;
		if (committed)
			released++;
		else
			store_lease_set(st, f->bg[i], f->be[i]);
	}
	store_fence_count(f, 0, 0, 0, released);
	f->nbg = 0;
	for (i = 0; i < f->ngone; i++) {
		(void)store_lease_drop(st, f->gone[i]);
		if (f->lost != NULL)
			f->lost(f->arg, f->gone[i]);
	}
	f->ngone = 0;
}
