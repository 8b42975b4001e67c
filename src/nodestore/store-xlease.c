/*
 * store-xlease.c: a game's lease read on the store's read connection
 * (issue 15 §2), for work that must not wait for the database on the
 * event loop: a watch or web feed of another node's game (lobby-xwatch.c)
 * reads it on a worker (the tournament scheduler's tick reads its
 * tournaments' live games so: store_tour_live, store-read.c); and a
 * NOTIFY on that connection.
 */
#include <pthread.h>
#include <string.h>

#include "nodestore/nodestore.h"
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
