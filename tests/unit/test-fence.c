/*
 * test-fence.c: the store's writer on a node (src/store/store-fence.c,
 * issue 15 §2, doc/NODES.md "Fencing"): it takes a game's lease before its
 * first write, fences every later one, releases the lease with the end; a
 * game whose lease another node took gets none of its writes, its end is
 * reported as not written, and the lost callback hears of it once.  On
 * SQLite (a temporary file), where a second connection plays the other
 * node; the lease's expiry is passed as the caller's now, so nothing
 * waits.
 *
 * tp: the batch's costs, counted exactly (store_fence_stats): the leases
 * of a batch's new games in one transaction, one fence statement per
 * batch try, the leases released with their ends; a pipelined batch
 * (PostgreSQL) that finds a lease lost at its commit runs again without
 * the pipeline and writes the other games' items.  On SQLite and on a
 * throwaway PostgreSQL cluster (tests/e2e/pgcluster.sh), where the fence's
 * lock is also shown: a takeover tried while a batch's writes are done
 * but not committed waits for it (here: fails busy), in a pipelined batch
 * and in one that runs a statement at a time.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "nodestore/nodestore.h"
#include "nodestore/node.h"
#include "db/sqldb.h"
#include "store/store.h"
#include "testutil.h"
#include "testsync.h"
#define TG_NAME "test-fence"
#include "testgroup.h"

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

/* A node's store on url (node n1; n2 the other node), its lost games
 * told to h, and db, a connection of its own. */
static struct store *
node_store(const char *url, struct sqldb **db, int64_t *n1, int64_t *n2,
    struct heard *h)
{
	struct store	*st;
	char		 err[512];
	int64_t		 now = (int64_t)clock_wall_ms();

	st = store_open(url, err, sizeof err);
	assert_non_null(st);
	assert_int_equal(sqldb_open(url, db, err, sizeof err), 0);
	assert_int_equal(node_register(*db, "127.0.0.1:1", now, TTL, n1), 0);
	assert_int_equal(node_register(*db, "127.0.0.1:2", now, TTL, n2), 0);
	store_set_node(st, *n1, TTL, on_lost, h);
	return (st);
}

static void
t_fence(void **state)
{
	struct heard	 h = { .mtx = PTHREAD_MUTEX_INITIALIZER };
	struct store	*st;
	struct sqldb	*db;
	struct lease	 l;
	enum store_status status;
	char		 path[64];
	int64_t		 n1, n2, gid, gid2, now = (int64_t)clock_wall_ms();

	(void)state;
	assert_int_equal(tp_lite_file(path, sizeof path, "test-fence"), 0);
	st = node_store(path, &db, &n1, &n2, &h);

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

/* The database of the group running, emptied. */
static const char *
fresh_url(void)
{
	struct sqldb	*db;
	const char	*url;
	char		 err[512];

	if (backend == SQLDB_SQLITE) {
		unlink(lite_path);
		return (lite_path);
	}
	url = getenv("SQLDB_PG_URL");
	if (sqldb_open(url, &db, err, sizeof err) == -1)
		fail_msg("open %s: %s", url, err);
	if (sqldb_exec(db, "SET client_min_messages = warning; "
	    "DROP SCHEMA public CASCADE; CREATE SCHEMA public") == -1)
		fail_msg("reset: %s", sqldb_errmsg(db));
	sqldb_close(db);
	return (url);
}

/* Holds the writer at the start of its batches while closed (the hook),
 * and tries a takeover at a batch's WRITTEN point when asked. */
struct gate {
	pthread_mutex_t	 mtx;
	pthread_cond_t	 cv;
	int		 closed;
	int		 held;		/* the writer waits at the gate */
	struct sqldb	*other;		/* takeover: node 2's connection */
	int		 arm_next;	/* ... in the batch after the held one */
	int		 armed;
	int64_t		 game, node, now;
	int		 tried, result;
	enum sqldb_err	 err;
};

static void
gate_hook(void *arg, enum store_hook where)
{
	struct gate	*g = arg;
	struct lease	 l;

	pthread_mutex_lock(&g->mtx);
	if (where == STORE_HOOK_WRITTEN && g->armed && !g->tried) {
		g->tried = 1;
		g->result = lease_acquire(g->other, g->game, g->node, TTL,
		    g->now, &l);
		g->err = sqldb_errclass(g->other);
	}
	if (where == STORE_HOOK_BATCH) {
		g->armed = g->arm_next && g->other != NULL;
		g->arm_next = 0;
		g->held = 1;
		pthread_cond_broadcast(&g->cv);
		while (g->closed)
			pthread_cond_wait(&g->cv, &g->mtx);
		g->held = 0;
	}
	pthread_mutex_unlock(&g->mtx);
}

/* Closes the gate; a refused move of game (a write of its own) then
 * takes the writer to it: what is queued next makes one batch. */
static void
gate_close(struct gate *g, struct store *st, int64_t game)
{
	struct store_refused r = { 1, 1, "x", "illegal", 5, 0, 0 };

	pthread_mutex_lock(&g->mtx);
	g->closed = 1;
	pthread_mutex_unlock(&g->mtx);
	store_refused(st, game, &r);
	tsync_wait(&g->mtx, &g->cv, &g->held);
}

static void
gate_open(struct gate *g)
{
	tsync_set(&g->mtx, &g->cv, &g->closed, 0);
}

/* The rows (at most 1) of cached statement sql on v. */
static int64_t
count1(struct sqldb *db, const char *sql, int64_t v)
{
	size_t	 rows;

	if (sqldb_cached_rows(db, sql, &v, 1, 1, NULL, NULL, &rows) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	return ((int64_t)rows);
}

/* The refused moves of game in the log. */
static int64_t
refused(struct sqldb *db, int64_t game)
{
	struct sqldb_stmt *s;
	int64_t		 n;

	if (sqldb_prepare(db, "SELECT COUNT(*) FROM refused_moves WHERE "
	    "game_id = ?", 0, &s) == -1)
		fail_msg("%s", sqldb_errmsg(db));
	sqldb_bind_int64(s, 1, game);
	assert_int_equal(sqldb_step(s), SQLDB_ROW);
	n = sqldb_column_int64(s, 0);
	sqldb_finalize(s);
	return (n);
}

static void
expect_stats(struct store *st, uint64_t fences, uint64_t txns,
    uint64_t acquired, uint64_t released)
{
	struct store_fence_stats c;

	store_fence_stats(st, &c);
	assert_int_equal(c.fences, fences);
	assert_int_equal(c.lease_txns, txns);
	assert_int_equal(c.acquired, acquired);
	assert_int_equal(c.released, released);
}

static void
t_batch(void **state)
{
	struct heard	 h = { .mtx = PTHREAD_MUTEX_INITIALIZER };
	struct gate	 g = { .mtx = PTHREAD_MUTEX_INITIALIZER,
	    .cv = PTHREAD_COND_INITIALIZER };
	struct store_refused r = { 1, 1, "y", "illegal", 5, 0, 0 };
	struct store	*st;
	struct sqldb	*db;
	struct lease	 l;
	const char	*url;
	int64_t		 n1, n2, g0, g1, g2, g3, now = (int64_t)clock_wall_ms();
	int		 pg = backend == SQLDB_PG;

	(void)state;
	url = fresh_url();
	st = node_store(url, &db, &n1, &n2, &h);
	store_set_hook(st, gate_hook, &g);
	g0 = begin(st);
	assert_int_equal(store_flush(st), 0);
	expect_stats(st, 0, 1, 1, 0);		/* one lease, nothing fenced */

	/*
	 * One batch: three games begun, two of them ended after a move, a
	 * refused move of the third: their three leases in one transaction,
	 * one fence for the three, two leases released with their ends.
	 */
	gate_close(&g, st, g0);
	g1 = begin(st);
	g2 = begin(st);
	g3 = begin(st);
	store_move(st, g1, &m1);
	store_game_end(st, g1, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    on_end, &h);
	store_move(st, g2, &m1);
	store_game_end(st, g2, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    on_end, &h);
	store_refused(st, g3, &r);
	gate_open(&g);
	assert_int_equal(store_flush(st), 0);
	expect_stats(st, 2, 2, 4, 2);
	assert_int_equal(h.end_calls, 2);
	assert_int_equal(h.end_ok, 1);
	assert_int_equal(lease_get(db, g1, now, &l), LEASE_RELEASED);
	assert_int_equal(lease_get(db, g2, now, &l), LEASE_RELEASED);
	assert_int_equal(lease_get(db, g3, now, &l), LEASE_HELD);
	assert_int_equal(store_lease_get(st, g1), 0);
	assert_int_equal(store_lease_get(st, g2), 0);
	assert_int_equal(store_lease_get(st, g3), 1);
	assert_int_equal(refused(db, g3), 1);
	assert_int_equal(refused(db, g0), 1);

	/* Refused moves only (PostgreSQL: pipelined), one fence each. */
	gate_close(&g, st, g0);
	store_refused(st, g3, &r);
	store_refused(st, g0, &r);
	gate_open(&g);
	assert_int_equal(store_flush(st), 0);
	expect_stats(st, 4, 2, 4, 2);
	assert_int_equal(refused(db, g3), 2);
	assert_int_equal(refused(db, g0), 3);

	/*
	 * Node 2 takes g3 over.  The next batch: the pipeline's fence fails
	 * the commit, the batch runs again a statement at a time (a second
	 * fence), which skips g3's write and commits g0's.
	 */
	assert_int_equal(lease_acquire(db, g3, n2, TTL, now + 2 * TTL, &l),
	    LEASE_OK);
	gate_close(&g, st, g0);
	store_refused(st, g3, &r);
	store_refused(st, g0, &r);
	gate_open(&g);
	(void)store_flush(st);
	expect_stats(st, pg ? 7 : 6, 2, 4, 2);
	assert_int_equal(refused(db, g3), 2);
	assert_int_equal(refused(db, g0), 5);
	assert_int_equal(h.nlost, 1);
	assert_int_equal(h.lost[0], g3);
	assert_int_equal(store_lease_get(st, g3), 0);
	assert_int_equal(count1(db, "SELECT 1 FROM leases WHERE game_id = ? "
	    "AND epoch = 2 AND state = 'held'", g3), 1);

	store_set_hook(st, NULL, NULL);
	sqldb_close(db);
	store_close(st);
}

/*
 * The fence's lock at the store's level: node 2's takeover of the game
 * (expired by its clock), tried from the writer's hook once the batch's
 * writes are done but not committed.  table: the batch also stores a
 * table, so that it runs a statement at a time: its fence has run and
 * holds the lease's row, so the takeover waits for the commit (here:
 * fails busy, lock_timeout), the log has the write, and the takeover
 * succeeds after the commit; without FOR SHARE the takeover would win
 * inside the hook and the write commit after it.  Else (refused moves
 * only) the batch is pipelined: libpq may not have sent its statements
 * yet, so either the takeover waits as above, or it wins and the batch's
 * commit fails on its fence, and then none of the game's writes is
 * committed and the game is lost: never both a takeover and the write.
 */
static void
share_test(int table)
{
	struct heard	 h = { .mtx = PTHREAD_MUTEX_INITIALIZER };
	struct gate	 g = { .mtx = PTHREAD_MUTEX_INITIALIZER,
	    .cv = PTHREAD_COND_INITIALIZER };
	struct store_refused r = { 1, 1, "y", "illegal", 5, 0, 0 };
	struct store	*st;
	struct sqldb	*db, *other;
	struct lease	 l;
	const char	*url;
	char		 err[512];
	int64_t		 n1, n2, gid, now = (int64_t)clock_wall_ms();

	url = fresh_url();
	st = node_store(url, &db, &n1, &n2, &h);
	assert_int_equal(sqldb_open(url, &other, err, sizeof err), 0);
	assert_int_equal(sqldb_busy_timeout(other, 200), 0);
	gid = begin(st);
	assert_int_equal(store_flush(st), 0);

	store_set_hook(st, gate_hook, &g);
	g.other = other;
	g.game = gid;
	g.node = n2;
	g.now = now + 2 * TTL;
	gate_close(&g, st, gid);
	pthread_mutex_lock(&g.mtx);
	g.arm_next = 1;
	pthread_mutex_unlock(&g.mtx);
	if (table)
		store_table_put(st, "graph", "k", "m", "d", 1);
	store_refused(st, gid, &r);
	gate_open(&g);
	(void)store_flush(st);
	assert_int_equal(g.tried, 1);
	if (table || g.result == -1) {
		assert_int_equal(g.result, -1);	/* it waited for the commit */
		assert_int_equal(g.err, SQLDB_BUSY);
		assert_int_equal(refused(db, gid), 2);
		assert_int_equal(h.nlost, 0);
		assert_int_equal(lease_acquire(other, gid, n2, TTL, now +
		    2 * TTL, &l), LEASE_OK);
	} else {
		assert_int_equal(g.result, LEASE_OK);	/* it won: not written */
		assert_int_equal(refused(db, gid), 1);
		assert_int_equal(h.nlost, 1);
		assert_int_equal(lease_get(db, gid, now, &l), LEASE_HELD);
		assert_int_equal(l.node, n2);
	}
	assert_int_equal(l.epoch, 2);

	store_set_hook(st, NULL, NULL);
	sqldb_close(other);
	sqldb_close(db);
	store_close(st);
}

static void
t_share_pipelined(void **state)
{
	(void)state;
	share_test(0);
}

static void
t_share_statements(void **state)
{
	(void)state;
	share_test(1);
}

TP_MAIN("fence",
    cmocka_unit_test(t_fence),
    BOTH(t_batch),
    PG(t_share_pipelined),
    PG(t_share_statements))
