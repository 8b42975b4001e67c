/*
 * store-xlease.c: a game's lease read on the store's read connection
 * (issue 15 §2), for work that must not wait for the database on the
 * event loop: a watch or web feed of another node's game (lobby-xwatch.c)
 * reads it on a worker; so do the tournament scheduler's tick its
 * tournaments' live games (lobby-xtour.c).
 */
#include <pthread.h>
#include <string.h>

#include "store/lease.h"
#include "store/store-int.h"
#include "store/store.h"

/* lease_get of game at now on the read connection (rmtx): its state, or
 * -1. */
int
store_lease_read(struct store *st, int64_t game, int64_t now,
    struct lease *l)
{
	int	 rc;

	pthread_mutex_lock(&st->rmtx);
	rc = lease_get(st->rdb, game, now, l);
	pthread_mutex_unlock(&st->rmtx);
	return (rc);
}

/*
 * The live games of tournament tour in the log into ids and slots (at
 * most max), on the read connection (rmtx): their number, or -1.
 */
int
store_tour_live(struct store *st, int64_t tour, int64_t *ids,
    int64_t *slots, int max)
{
	struct sqldb_stmt *s;
	int		 n = 0, r = SQLDB_DONE;

	pthread_mutex_lock(&st->rmtx);
	if (sqldb_cached(st->rdb, "SELECT id, slot FROM games WHERE "
	    "tournament_id = ? AND status = 'live' ORDER BY id", 0, &s) != 0) {
		pthread_mutex_unlock(&st->rmtx);
		return (-1);
	}
	sqldb_bind_int64(s, 1, tour);
	while (n < max && (r = sqldb_step(s)) == SQLDB_ROW) {
		ids[n] = sqldb_column_int64(s, 0);
		slots[n++] = sqldb_column_int64(s, 1);
	}
	sqldb_reset(s);
	pthread_mutex_unlock(&st->rmtx);
	return (r == -1 ? -1 : n);
}

/* sqldb_notify on the read connection (rmtx), outside a transaction:
 * 0, or -1. */
int
store_read_notify(struct store *st, const char *channel, const char *payload)
{
	int	 rc;

	pthread_mutex_lock(&st->rmtx);
	rc = sqldb_notify(st->rdb, channel, payload);
	pthread_mutex_unlock(&st->rmtx);
	return (rc < 0 ? -1 : 0);
}
