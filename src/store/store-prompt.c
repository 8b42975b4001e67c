/*
 * store-prompt.c: a game's moves written at once.  A live game's moves
 * wait in its run for up to STORE_RUN_AGE_NS (store.c); a game that is
 * followed through the database (the caller knows: lobby-feed.c) has its
 * run queued after each move instead, so that its commit, and what the
 * batch ops add to it (store-int.h), comes within the writer's gathering
 * (STORE_GATHER_NS) rather than a second later.
 */
#include <pthread.h>

#include "store/store.h"
#include "store/store-int.h"

/* Queues game id's pending run now, if it has one (any thread). */
void
store_run_now(struct store *st, int64_t id)
{
	pthread_mutex_lock(&st->mtx);
	store_runs_queue(st, id);
	pthread_mutex_unlock(&st->mtx);
}
