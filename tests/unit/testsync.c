/*
 * testsync.c: the flag handshake of testsync.h.
 */
#include <pthread.h>

#include "testsync.h"

/* Sets *flag to v under mtx and wakes every waiter on cv. */
void
tsync_set(pthread_mutex_t *mtx, pthread_cond_t *cv, int *flag, int v)
{
	pthread_mutex_lock(mtx);
	*flag = v;
	pthread_cond_broadcast(cv);
	pthread_mutex_unlock(mtx);
}

/* Waits on cv until *flag (guarded by mtx) is set. */
void
tsync_wait(pthread_mutex_t *mtx, pthread_cond_t *cv, const int *flag)
{
	pthread_mutex_lock(mtx);
	while (!*flag)
		pthread_cond_wait(cv, mtx);
	pthread_mutex_unlock(mtx);
}
