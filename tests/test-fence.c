/*
 * test-fence.c: the store's writer on a node (src/store-fence.c, issue 15
 * §2, doc/NODES.md "Fencing"): it takes a game's lease before its first
 * write, fences every later one, releases the lease with the end; a game
 * whose lease another node took gets none of its writes, its end is
 * reported as not written, and the lost callback hears of it once.  On
 * SQLite (a temporary file), where a second connection plays the other
 * node; the lease's expiry is passed as the caller's now, so nothing
 * waits.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "lease.h"
#include "node.h"
#include "sqldb.h"
#include "store.h"
#include "testpg.h"
#include "testutil.h"

#define TTL	60000		/* ms: no lease expires by itself here */

struct heard {
	pthread_mutex_t	 mtx;
	int64_t		 lost[8];
	int		 nlost;
	int		 end_calls;
	int		 end_ok;
};

static void
on_lost(void *arg, int64_t game)
{
	struct heard	*h = arg;

	pthread_mutex_lock(&h->mtx);
	if (h->nlost < 8)
		h->lost[h->nlost] = game;
	h->nlost++;
	pthread_mutex_unlock(&h->mtx);
}

static void
on_end(void *arg, int ok)
{
	struct heard	*h = arg;

	pthread_mutex_lock(&h->mtx);
	h->end_calls++;
	h->end_ok = ok;
	pthread_mutex_unlock(&h->mtx);
}

static const struct store_move m1 = { 1, 1, "1=1", "nim 1 4", 5,
    STORE_NO_WIN, 0, 0 };
static const struct store_move m2 = { 2, 2, "2=3", "nim 1 1", 5,
    STORE_NO_WIN, 0, 0 };

static int64_t
begin(struct store *st)
{
	struct store_game g;

	memset(&g, 0, sizeof g);
	g.family = "nim";
	g.game = "nim 2 4";
	g.player1 = "alice";
	g.player2 = "bob";
	return (store_game_begin(st, &g));
}

/* The moves and status of a game in the log. */
static size_t
logged(struct store *st, int64_t id, enum store_status *status)
{
	struct store_record r;
	size_t		 n;

	assert_int_equal(store_record(st, id, &r), 1);
	n = r.nmoves;
	*status = r.game.status;
	store_record_free(&r);
	return (n);
}

static void
t_fence(void **state)
{
	struct heard	 h = { .mtx = PTHREAD_MUTEX_INITIALIZER };
	struct store	*st;
	struct sqldb	*db;
	struct lease	 l;
	enum store_status status;
	char		 path[64], err[512];
	int64_t		 n1, n2, gid, gid2, now = (int64_t)clock_wall_ms();

	(void)state;
	assert_int_equal(tp_lite_file(path, sizeof path, "test-fence"), 0);
	st = store_open(path, err, sizeof err);
	assert_non_null(st);
	assert_int_equal(sqldb_open(path, &db, err, sizeof err), 0);
	assert_int_equal(node_register(db, "127.0.0.1:1", now, TTL, &n1), 0);
	assert_int_equal(node_register(db, "127.0.0.1:2", now, TTL, &n2), 0);
	store_set_node(st, n1, TTL, on_lost, &h);

	/* The lease before the first write; the moves fenced and written. */
	gid = begin(st);
	store_move(st, gid, &m1);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(lease_get(db, gid, now, &l), LEASE_HELD);
	assert_int_equal(l.node, n1);
	assert_int_equal(l.epoch, 1);
	assert_int_equal(store_lease_get(st, gid), 1);
	assert_int_equal(logged(st, gid, &status), 1);

	/* Node 2 takes the game over after its expiry (its now is later). */
	assert_int_equal(lease_acquire(db, gid, n2, TTL, now + 2 * TTL, &l),
	    LEASE_OK);
	assert_int_equal(l.epoch, 2);

	/* Node 1's next move and its end are fenced out: not written. */
	store_move(st, gid, &m2);
	store_game_end(st, gid, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    on_end, &h);
	(void)store_flush(st);
	assert_int_equal(h.end_calls, 1);
	assert_int_equal(h.end_ok, 0);		/* never reported durable */
	assert_int_equal(h.nlost, 1);		/* once, for both writes */
	assert_int_equal(h.lost[0], gid);
	assert_int_equal(logged(st, gid, &status), 1);
	assert_int_equal(status, STORE_LIVE);
	assert_int_equal(store_lease_get(st, gid), 0);
	assert_int_equal(lease_get(db, gid, now, &l), LEASE_HELD);
	assert_int_equal(l.node, n2);		/* not released by node 1 */
	assert_int_equal(l.epoch, 2);

	/* A game whose lease another node holds already is never begun. */
	assert_int_equal(lease_acquire(db, gid + 1, n2, TTL, now, &l),
	    LEASE_OK);
	gid2 = begin(st);
	assert_int_equal(gid2, gid + 1);
	store_move(st, gid2, &m1);
	(void)store_flush(st);
	assert_int_equal(h.nlost, 2);
	assert_int_equal(h.lost[1], gid2);
	assert_int_equal(store_lease_get(st, gid2), 0);

	/* A game that ends normally releases its lease (epoch 1). */
	gid = begin(st);
	store_move(st, gid, &m1);
	store_game_end(st, gid, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    on_end, &h);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(h.end_calls, 2);
	assert_int_equal(h.end_ok, 1);
	assert_int_equal(h.nlost, 2);
	assert_int_equal(lease_get(db, gid, now, &l), LEASE_RELEASED);
	assert_int_equal(l.node, n1);
	assert_int_equal(l.epoch, 1);
	assert_int_equal(store_lease_get(st, gid), 0);

	sqldb_close(db);
	store_close(st);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fence),
	};

	return (cmocka_run_group_tests_name("fence", tests, NULL, NULL));
}
