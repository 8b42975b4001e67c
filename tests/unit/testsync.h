/*
 * testsync.h: a handshake with another thread (the store's writer at its
 * hook, in test-store-writer.c and test-fence.c): an int flag guarded by a
 * mutex and signalled through a condition variable.
 */
#ifndef TESTSYNC_H
#define TESTSYNC_H

#include <pthread.h>

void	 tsync_set(pthread_mutex_t *, pthread_cond_t *, int *, int);
void	 tsync_wait(pthread_mutex_t *, pthread_cond_t *, const int *);

#endif /* TESTSYNC_H */
