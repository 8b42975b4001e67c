/*
 * store-xlease.c: a game's lease read on the store's read connection
 * (issue 15 §2), for work that must not wait for the database on the
 * event loop: a watch or web feed of another node's game (lobby-xwatch.c)
 * reads it on a worker.
 */
#include <pthread.h>
#include <string.h>

#include "lease.h"
#include "store-int.h"
#include "store.h"

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
