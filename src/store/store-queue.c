/*
 * store-queue.c: the store's queue of writes (see store.c): items made,
 * queued and freed, the queue's bound and its state, waiting for an item
 * to be finished, and the damaged games.  The runs of moves
 * (store-moves.c) and the calls of store.c push to it; the writer thread
 * (store-writer.c) takes from it.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/buf.h"
#include "lib/log.h"
#include "store/store-int.h"

/* Waits until item seq and everything before it are finished. */
void
store_wait(struct store *st, uint64_t seq)
{
	pthread_mutex_lock(&st->mtx);
	if (st->done_seq < seq) {
		st->urgent = 1;
		pthread_cond_signal(&st->work);
	}
	while (st->done_seq < seq)
		pthread_cond_wait(&st->done, &st->mtx);
	pthread_mutex_unlock(&st->mtx);
}

/* Returns 1 if game id is damaged (mtx held); remove also forgets it. */
int
store_damaged(struct store *st, int64_t id, int remove)
{
	size_t	 i;

	for (i = 0; i < st->ndamaged; i++) {
		if (st->damaged[i] != id)
			continue;
		if (remove)
			st->damaged[i] = st->damaged[--st->ndamaged];
		return (1);
	}
	return (0);
}

/* Marks game id damaged (mtx held). */
void
store_damage(struct store *st, int64_t id)
{
	if (store_damaged(st, id, 0))
		return;
	if (st->ndamaged == st->damaged_cap) {
		st->damaged_cap = st->damaged_cap == 0 ? 16 :
		    st->damaged_cap * 2;
		st->damaged = xreallocarray(st->damaged, st->damaged_cap,
		    sizeof *st->damaged);
	}
	st->damaged[st->ndamaged++] = id;
}

/* Marks game id damaged (takes mtx). */
void
store_damage_now(struct store *st, int64_t id)
{
	pthread_mutex_lock(&st->mtx);
	store_damage(st, id);
	pthread_mutex_unlock(&st->mtx);
}

/* Frees an item. */
void
store_item_free(struct store_item *it)
{
	int	 i;

	for (i = 0; i < 4; i++)
		free(it->s[i]);
	free(it->tc);
	free(it->data);
	free(it);
}

/*
 * Queues an item and wakes the writer; returns its sequence number.
 * Unless must is set, the item is refused when the queue is full: it is
 * freed, its game damaged, and 0 returned.  The writer may free the item
 * as soon as it is queued.
 */
uint64_t
store_push(struct store *st, struct store_item *it, int must)
{
	uint64_t	 seq;

	pthread_mutex_lock(&st->mtx);
	seq = store_push_locked(st, it, must);
	pthread_mutex_unlock(&st->mtx);
	return (seq);
}

/* The queue's states, for logs. */
static const char *const store_qstate_names[] = {
	STORE_QSTATES(ENUM_X_NAME)
};

/*
 * Logs a change of one of st's life cycles (the queue's, the writer's, its
 * thread's): "store=NAME CYCLE OLD -> NEW", names indexed by the states.
 */
void
store_state_log(const struct store *st, const char *cycle,
    const char *const *names, int from, int to)
{
	log_debug("store=%s %s %s -> %s", st->name, cycle, names[from],
	    names[to]);
}

/* Changes the queue's state (mtx held), logging old -> new. */
static void
store_qstate_set(struct store *st, enum store_qstate to)
{
	if (st->qstate == to)
		return;
	store_state_log(st, "queue", store_qstate_names, st->qstate, to);
	st->qstate = to;
}

/* Does store_push with mtx held. */
uint64_t
store_push_locked(struct store *st, struct store_item *it, int must)
{
	uint64_t	 seq;

	if (it->w == 0)
		it->w = 1;
	if (!must && st->qlen >= st->queue_max) {
		st->cnt.dropped += it->w;
		if (it->op == STORE_OP_BEGIN || it->op == STORE_OP_RUN)
			store_damage(st, it->id);
		if (st->qstate == STORE_Q_ACCEPTING)
			log_warnx("store=%s event=queue-full queued=%zu "
			    "action=dropping-writes", st->name, st->qlen);
		store_qstate_set(st, STORE_Q_DROPPING);
		st->dropped_now += it->w;
		store_item_free(it);
		return (0);
	}
	if (st->qstate == STORE_Q_DROPPING) {
		log_warnx("store=%s event=queue-recovered dropped=%" PRIu64,
		    st->name, st->dropped_now);
		store_qstate_set(st, STORE_Q_ACCEPTING);
		st->dropped_now = 0;
	}
	seq = it->seq = ++st->seq;
	STAILQ_INSERT_TAIL(&st->queue, it, entry);
	st->qlen += it->w;
	/*
	 * Wake the writer when it sleeps on an empty queue, or at once for a
	 * game end (its reply waits for the commit); other writes ride along
	 * in the batch the writer is gathering.
	 */
	if (it->op == STORE_OP_END)
		st->urgent = 1;
	if (st->idle || st->urgent)
		pthread_cond_signal(&st->work);
	return (seq);
}

/* Returns a new item of kind op for game id. */
struct store_item *
store_item_new(enum store_op op, int64_t id)
{
	struct store_item *it;

	it = xcalloc(1, sizeof *it);
	it->op = op;
	it->id = id;
	store_now(it->when, sizeof it->when);
	return (it);
}
