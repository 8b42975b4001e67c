/*
 * store-ids.c: game ids on PostgreSQL (issue 15 §1).  Several nodes begin
 * games at once, so every id comes from the database's sequence
 * games_id_seq (db/pg/008-portable-store.sql), never from a counter of the
 * node's own.  store_game_begin must return an id at once, on the event
 * loop, so the writer thread keeps a small pool of ids taken ahead of need
 * (STORE_IDS_MAX, refilled below STORE_IDS_LOW, one round trip for all);
 * an empty pool makes store_game_begin wait for the writer's refill, at
 * most STORE_IDS_WAIT_MS.  SQLite keeps its counter from MAX(id) (one
 * grundyd per file).  The pool: ids[0..nids) in decreasing order, the
 * next id last (mtx).
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "lib/log.h"
#include "store/store-int.h"

/* Takes n ids from the sequence, in increasing order. */
static const char store_ids_sql[] =
    "SELECT nextval('games_id_seq') FROM generate_series(1, ?)";

/*
 * Tops the pool up to STORE_IDS_MAX with one query (the writer thread,
 * between batches, or store_open before it starts).  Returns 0, or -1
 * (the pool stays as it was; ids_failed is set until a refill works).
 */
int
store_ids_fill(struct store *st)
{
	struct sqldb_stmt *s;
	int64_t		 got[STORE_IDS_MAX];
	size_t		 want, n = 0, i;
	int		 rc = -1;

	pthread_mutex_lock(&st->mtx);
	st->ids_want = 0;
	want = STORE_IDS_MAX - st->nids;
	pthread_mutex_unlock(&st->mtx);
	if (want == 0)
		return (0);
	if (sqldb_prepare(st->wdb, store_ids_sql, 0, &s) == 0) {
		sqldb_bind_int64(s, 1, (int64_t)want);
		while ((rc = sqldb_step(s)) == SQLDB_ROW && n < want)
			got[n++] = sqldb_column_int64(s, 0);
		sqldb_finalize(s);
	}
	pthread_mutex_lock(&st->mtx);
	if (rc == SQLDB_DONE && n == want) {
		/* The new ids are above the pool's: they go under it. */
		memmove(st->ids + n, st->ids, st->nids * sizeof *st->ids);
		for (i = 0; i < n; i++)
			st->ids[i] = got[n - 1 - i];
		st->nids += n;
		st->ids_failed = 0;
		rc = 0;
	} else {
		if (!st->ids_failed)
			log_warnx("store=%s event=ids-failed error=\"%s\"",
			    st->name, sqldb_errmsg(st->wdb));
		st->ids_failed = 1;
		st->ids_after = st->done_seq;
		rc = -1;
	}
	st->ids_gen++;
	pthread_cond_broadcast(&st->done);
	pthread_mutex_unlock(&st->mtx);
	return (rc);
}

/*
 * Should the writer refill the pool now (mtx held)?  When it is low; after
 * a failed refill, once another batch has been tried (store_failing's
 * probe makes one at most every second while the log fails).
 */
int
store_ids_due(struct store *st)
{
	return (st->pg && (st->ids_want || (!st->no_ids &&
	    st->nids < STORE_IDS_LOW &&
	    (!st->ids_failed || st->ids_after != st->done_seq))));
}

/*
 * Returns the next game id from the pool (mtx held), waiting for the
 * writer's refill if it is empty; 0 if there is none within
 * STORE_IDS_WAIT_MS (the database is unreachable: store_failing says so).
 */
int64_t
store_ids_take(struct store *st)
{
	struct timespec	 until;
	uint64_t	 gen = st->ids_gen;
	long		 ns;

	if (st->nids == 0 && st->tstate == STORE_T_RUNNING) {
		st->ids_want = 1;
		pthread_cond_signal(&st->work);
		clock_gettime(CLOCK_REALTIME, &until);
		ns = until.tv_nsec + STORE_IDS_WAIT_MS * 1000000L;
		until.tv_sec += ns / 1000000000L;
		until.tv_nsec = ns % 1000000000L;
		while (st->nids == 0 && st->ids_gen == gen &&
		    pthread_cond_timedwait(&st->done, &st->mtx, &until) == 0)
			;
	}
	if (st->nids == 0) {
		log_warnx("store=%s event=no-game-id", st->name);
		return (0);
	}
	return (st->ids[--st->nids]);
}
