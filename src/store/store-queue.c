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
#include <string.h>

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

/* The bytes an item holds (its strings and data), for qbytes. */
static size_t
store_item_bytes(const struct store_item *it)
{
	size_t	 n = sizeof *it + it->len;
	int	 i;

	for (i = 0; i < 4; i++)
		if (it->s[i] != NULL)
			n += strlen(it->s[i]) + 1;
	if (it->tc != NULL)
		n += strlen(it->tc) + 1;
	return (n);
}

/*
 * 1 if n more bytes would pass the queue's byte cap (mtx held): pending
 * runs, the queue and the batch being written count (PROTOCOL.md §12).
 */
int
store_bytes_full(const struct store *st, size_t n)
{
	return (st->qbytes + n > st->queue_bytes);
}

/*
 * 1 while the queue is past half its cap in items or bytes (mtx held):
 * new logged games are refused then, so that the games already running
 * have the other half for their moves and ends.
 */
int
store_queue_busy(const struct store *st)
{
	return (st->qlen >= st->queue_max / 2 ||
	    st->qbytes >= st->queue_bytes / 2);
}

/* Refuses an item (mtx held): frees it, damages its game; returns 0. */
static uint64_t
store_refuse(struct store *st, struct store_item *it, const char *why)
{
	st->cnt.dropped += it->w;
	if (it->op == STORE_OP_BEGIN || it->op == STORE_OP_RUN)
		store_damage(st, it->id);
	if (st->qstate == STORE_Q_ACCEPTING)
		log_warnx("store=%s event=queue-full queued=%zu bytes=%zu "
		    "cap=%s action=dropping-writes", st->name, st->qlen,
		    st->qbytes, why);
	store_qstate_set(st, STORE_Q_DROPPING);
	st->dropped_now += it->w;
	st->qbytes -= it->bytes;	/* a run's, charged as it grew */
	store_item_free(it);
	return (0);
}

/*
 * Does store_push with mtx held.  A run (STORE_OP_RUN) comes with its
 * bytes already charged (it->bytes, store-moves.c); any other item is
 * charged here.  Beyond must, the queue refuses an item past queue_max
 * items or queue_bytes bytes.
 */
uint64_t
store_push_locked(struct store *st, struct store_item *it, int must)
{
	uint64_t	 seq;
	size_t		 add = 0;

	if (it->w == 0)
		it->w = 1;
	if (it->op != STORE_OP_RUN)
		add = store_item_bytes(it);
	if (!must && st->qlen >= st->queue_max)
		return (store_refuse(st, it, "items"));
	if (!must && add > 0 && store_bytes_full(st, add))
		return (store_refuse(st, it, "bytes"));
	it->bytes += add;
	st->qbytes += add;
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
