/*
 * store-rverify.c: `verify ratings` (PROTOCOL.md §13.9): replays every
 * rated game of the log, on a connection of its own and off the event
 * loop, and compares the result with the checkpoint (table ratings) and the
 * live ratings, both as of the same instant as the replay's snapshot.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "stats/rtable.h"
#include "store/store-int.h"

/* Notes one mismatch of a player: expected x, found y (NULL: none). */
static void
store_rv_add(struct store_rverify *rv, const char *name, const char *where,
    const struct rtable_entry *x, const struct rtable_entry *y)
{
	struct store_rmismatch *m;

	rv->v = xreallocarray(rv->v, rv->n + 1, sizeof *rv->v);
	m = &rv->v[rv->n++];
	memset(m, 0, sizeof *m);
	m->name = xstrdup(name);
	m->where = where;
	if ((m->has_expected = x != NULL)) {
		m->expected = x->g;
		m->expected_games = x->games;
	}
	if ((m->has_found = y != NULL)) {
		m->found = y->g;
		m->found_games = y->games;
	}
}

/* Compares the replay with one source, both ways (exact doubles). */
static void
store_rv_cmp(struct store_rverify *rv, const struct rtable *exp,
    const struct rtable *got, const char *where)
{
	const struct rtable_entry *x, *y;
	size_t		 i;

	for (i = 0; i < exp->n; i++) {
		x = &exp->v[i];
		y = rtable_find(got, x->name);
		if (y == NULL || y->g.r != x->g.r || y->g.rd != x->g.rd ||
		    y->g.sigma != x->g.sigma || y->games != x->games)
			store_rv_add(rv, x->name, where, x, y);
	}
	for (i = 0; i < got->n; i++)
		if (rtable_find(exp, got->v[i].name) == NULL)
			store_rv_add(rv, got->v[i].name, where, NULL,
			    &got->v[i]);
}

/*
 * Starts a read transaction on db at an instant when the live ratings
 * agree with the committed log (vmtx), and copies them into live.  On
 * PostgreSQL the live ratings are first brought up to the snapshot's
 * checkpoint (the games other nodes rated since).
 */
static int
store_rv_snapshot(struct store *st, struct sqldb *db, struct rtable *live,
    int64_t *seq)
{
	int64_t	 game;
	int	 rc;

	pthread_mutex_lock(&st->vmtx);
	if ((rc = sqldb_begin_read(db)) == 0)
		rc = store_rt_mark(db, 0, seq, &game);
	if (rc == 0)
		rc = store_rt_verify_sync(st, db, *seq);
	if (rc == 0)
		store_ratings(st, live);
	pthread_mutex_unlock(&st->vmtx);
	return (rc);
}

/* Does the replay and the comparisons on db; returns 0, or -1. */
static int
store_rv_run(struct store *st, struct sqldb *db, struct store_rverify *rv)
{
	struct rtable	 exp, ckpt, live;
	int64_t		 last = 0, game;
	int		 rc;

	rtable_init(&exp);
	rtable_init(&ckpt);
	rtable_init(&live);
	if ((rc = store_rv_snapshot(st, db, &live, &rv->checkpoint_seq)) ==
	    0 &&
	    (rc = store_rt_replay(db, 0, &exp, NULL, NULL, &last, &game,
	    &rv->games)) == 0 &&
	    (rc = store_rt_rows(db, &ckpt)) == 0) {
		rv->log_seq = last;
		rv->players = exp.n;
		store_rv_cmp(rv, &exp, &ckpt, "checkpoint");
		store_rv_cmp(rv, &exp, &live, "live");
	}
	if (sqldb_in_transaction(db))
		sqldb_commit(db);
	rtable_free(&exp);
	rtable_free(&ckpt);
	rtable_free(&live);
	return (rc);
}

/*
 * Replays every rated game of the log (slow on a big log: never on the
 * event loop) and compares the ratings with the checkpoint and the live
 * ones: rv gets the mismatches (free with store_rverify_free), the games
 * and players, and the seq of the checkpoint and of the log's last rated
 * game.  Returns 0, or -1 if the log cannot be read.
 */
int
store_ratings_verify(struct store *st, struct store_rverify *rv)
{
	struct sqldb	*db;
	char		 err[512];
	int		 rc;

	memset(rv, 0, sizeof *rv);
	if (st->shared) {
		/* In memory: the reads' connection is the writer's. */
		pthread_mutex_lock(&st->rmtx);
		rc = store_rv_run(st, st->rdb, rv);
		pthread_mutex_unlock(&st->rmtx);
	} else {
		rc = store_open_ro(st->path, st->busy_ms, &db, err,
		    sizeof err);
		if (rc == 0)
			rc = store_rv_run(st, db, rv);
		sqldb_close(db);
	}
	if (rc != 0) {
		store_rverify_free(rv);
		return (-1);
	}
	return (0);
}

/* Frees a verification's mismatches. */
void
store_rverify_free(struct store_rverify *rv)
{
	namev_free(rv->v, rv->n, sizeof *rv->v,
	    offsetof(struct store_rmismatch, name));
	rv->v = NULL;
	rv->n = 0;
}
