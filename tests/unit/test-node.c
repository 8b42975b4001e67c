/*
 * test-node.c: several nodes on one database (issue 15 §2): the node
 * registry (src/store/node.c), the leases of live games
 * (src/store/lease.c), the elected scheduler's lock and the notifications
 * (src/db/sqldb-nd.c), and migration 009.  On SQLite (one node, a
 * temporary file) and on PostgreSQL, where several connections act as
 * several nodes (a throwaway cluster, tests/e2e/pgcluster.sh: run without
 * SQLDB_PG_URL, this program runs itself again under pgcluster.sh run).
 * Time is virtual: every call takes the caller's now; the only real waits
 * are bounded polls for what another connection or the server does.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nodestore/lease.h"
#include "nodestore/node.h"
#include "db/sqldb.h"
#include "store/store.h"
#include "testutil.h"
#define TG_NAME "test-node"
#include "testgroup.h"
#include "testnode.h"
#include "lib/util.h"

/* Migration 009 from version 8: the tables come, a
 * game of before stays; 8 has no nodes table. */
static void
t_migrate9(void **state)
{
	const struct sqldb_migration *l;
	struct sqldb	*db;
	char		 err[512];
	size_t		 n;
	int		 v;

	(void)state;
	db = fresh_at(8);
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, 8);
	assert_int_equal(sqldb_exec(db, "SELECT COUNT(*) FROM nodes"), -1);
	ok(db, sqldb_exec(db, "INSERT INTO games (id, family, game, player1, "
	    "player2, started_at) VALUES (41, 'nim', '3', 'a', 'b', "
	    "'2026-01-01T00:00:00.000Z')"));
	l = migrations(&n);
	assert_true(n >= 9);
	assert_int_equal(sqldb_migrate(db, l, n, 9, err, sizeof err), 0);
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, 9);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM games WHERE id = 41"),
	    1);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM nodes"), 0);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM leases"), 0);
	/* The checks came too. */
	assert_int_equal(sqldb_exec(db, "INSERT INTO nodes (addr, "
	    "started_ms, heartbeat_ms, expires_ms) VALUES ('', 0, 0, 0)"), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	assert_int_equal(sqldb_exec(db, "INSERT INTO leases VALUES "
	    "(41, 999, 1, 'held', 0, 1)"), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	sqldb_close(db);
}

/* Migration 011 (issue 15 §2: seeks across nodes) from version 10: the
 * table seeks comes empty, with its checks and its reference to nodes. */
static void
t_migrate11(void **state)
{
	const struct sqldb_migration *l;
	struct sqldb	*db = fresh_at(10);
	char		 err[512];
	size_t		 n;
	int		 v;

	(void)state;
	assert_int_equal(sqldb_exec(db, "SELECT COUNT(*) FROM seeks"), -1);
	(void)reg(db, "node-a:7000");
	l = migrations(&n);
	assert_true(n >= 11);
	assert_int_equal(sqldb_migrate(db, l, n, 11, err, sizeof err), 0);
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, 11);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM nodes"), 1);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM seeks"), 0);
	ok(db, sqldb_exec(db, "INSERT INTO seeks (node_id, player, spec, "
	    "random, rated, base_ms, inc_ms, created_ms) SELECT id, 'a', "
	    "'nim 3', 0, 1, 60000, 0, 1 FROM nodes"));
	assert_int_equal(sqldb_exec(db, "INSERT INTO seeks (node_id, player, "
	    "spec, random, rated, base_ms, inc_ms, created_ms) SELECT id, 'a', "
	    "'nim 3', 2, 1, 60000, 0, 1 FROM nodes"), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM seeks WHERE owner_id "
	    "IS NULL AND game_id IS NULL"), 1);
	sqldb_close(db);
}

static void
t_addr(void **state)
{
	static const char *const good[] = { "a:1", "node-2.example.org:7000",
	    "10.0.0.1:65535", "[::1]:7000", "[fe80::1:2]:1" };
	static const char *const bad[] = { "", ":7000", "host", "host:",
	    "host:0", "host:65536", "host:123456", "host:7x", "ho st:1",
	    "h\n:1", "[::1:7000", "[]:1", "[x::1]:1", "a:b:1", "host:-1" };
	char	 big[NODE_ADDR_MAX + 2];
	size_t	 i;

	(void)state;
	for (i = 0; i < nitems(good); i++)
		if (!node_addr_ok(good[i]))
			fail_msg("refused %s", good[i]);
	for (i = 0; i < nitems(bad); i++)
		if (node_addr_ok(bad[i]))
			fail_msg("took %s", bad[i]);
	memset(big, 'a', sizeof big);
	strcpy(big + NODE_ADDR_MAX - 5, ":7000");
	assert_true(node_addr_ok(big));
	big[0] = '\0';
	memset(big, 'a', NODE_ADDR_MAX - 4);
	strcpy(big + NODE_ADDR_MAX - 4, ":7000");
	assert_false(node_addr_ok(big));
}

/* Register, beat, expire and list on the virtual clock; refusals. */
static void
t_registry(void **state)
{
	struct node_info list[4], ni;
	struct sqldb	*db = fresh();
	int64_t		 a, b, id;
	size_t		 n;

	(void)state;
	a = reg(db, "node-a:7000");
	b = reg(db, "[::1]:7001");
	assert_true(a > 0 && b > 0 && a != b);
	assert_int_equal(node_register(db, "bad addr:1", T0, TTL, &id), -1);
	assert_non_null(strstr(sqldb_errmsg(db), "bad node address"));
	assert_int_equal(node_register(db, "x:1", T0, 0, &id), -1);
	assert_non_null(strstr(sqldb_errmsg(db), "ttl"));
	assert_int_equal(node_register(db, "x:1", -1, TTL, &id), -1);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM nodes"), 2);

	assert_int_equal(node_alive(db, a, T0 + TTL - 1), 1);
	assert_int_equal(node_alive(db, a, T0 + TTL), 0);
	assert_int_equal(node_alive(db, 9999, T0), 0);
	ok(db, node_heartbeat(db, b, T0 + 5000, TTL));
	assert_int_equal(node_heartbeat(db, 9999, T0, TTL), -1);
	assert_non_null(strstr(sqldb_errmsg(db), "no node 9999"));

	ok(db, node_list(db, T0 + TTL, list, nitems(list), &n));
	assert_int_equal(n, 1);
	assert_int_equal(list[0].id, b);
	assert_string_equal(list[0].addr, "[::1]:7001");
	assert_int_equal(list[0].started_ms, T0);
	assert_int_equal(list[0].heartbeat_ms, T0 + 5000);
	assert_int_equal(list[0].expires_ms, T0 + 5000 + TTL);
	ok(db, node_list(db, T0, list, nitems(list), &n));
	assert_int_equal(n, 2);
	assert_int_equal(list[0].id, a);
	ok(db, node_list(db, T0, list, 1, &n));
	assert_int_equal(n, 1);
	assert_int_equal(node_list(db, T0, list, NODE_LIST_MAX + 1, &n), -1);

	/* A dead node beats again: alive again, same id. */
	ok(db, node_heartbeat(db, a, T0 + 60000, TTL));
	assert_int_equal(node_alive(db, a, T0 + 60001), 1);
	assert_int_equal(node_get(db, a, &ni), 1);
	assert_string_equal(ni.addr, "node-a:7000");
	assert_int_equal(node_get(db, 9999, &ni), 0);
	sqldb_close(db);
}

static void
expect_lease(struct sqldb *db, int64_t game, int64_t now,
    enum lease_state st, int64_t node, int64_t epoch)
{
	struct lease	 l;

	assert_int_equal(lease_get(db, game, now, &l), (int)st);
	assert_int_equal(l.node, node);
	assert_int_equal(l.epoch, epoch);
}

/* The life cycle on the virtual clock, from one connection. */
static void
t_lease_cycle(void **state)
{
	struct sqldb	*db = fresh();
	struct lease	 la, lb, lt;
	int64_t		 a, b, games[4], t;
	size_t		 n;

	(void)state;
	a = reg(db, "a:1");
	b = reg(db, "b:1");
	expect_lease(db, 7, T0, LEASE_NONE, 0, 0);
	assert_int_equal(lease_acquire(db, 7, a, TTL, T0, &la), LEASE_OK);
	assert_int_equal(la.epoch, 1);
	assert_int_equal(la.expires_ms, T0 + TTL);
	expect_lease(db, 7, T0, LEASE_HELD, a, 1);

	/* Another node: taken, and told by whom. */
	assert_int_equal(lease_acquire(db, 7, b, TTL, T0 + 1, &lt),
	    LEASE_TAKEN);
	assert_int_equal(lt.node, a);
	assert_int_equal(lt.epoch, 1);
	/* Its holder again: renewed, same epoch. */
	assert_int_equal(lease_acquire(db, 7, a, TTL, T0 + 2, &lt), LEASE_OK);
	assert_int_equal(lt.epoch, 1);
	assert_int_equal(lt.expires_ms, T0 + 2 + TTL);

	t = T0 + 5000;
	assert_int_equal(lease_renew(db, &la, TTL, t), LEASE_OK);
	assert_int_equal(la.expires_ms, t + TTL);
	ok(db, lease_expired(db, t + TTL - 1, games, nitems(games), &n));
	assert_int_equal(n, 0);
	/* Expired: listed, renew refused (lost), still no takeover. */
	ok(db, lease_expired(db, t + TTL, games, nitems(games), &n));
	assert_int_equal(n, 1);
	assert_int_equal(games[0], 7);
	expect_lease(db, 7, t + TTL, LEASE_EXPIRED, a, 1);
	lt = la;
	assert_int_equal(lease_renew(db, &lt, TTL, t + TTL), LEASE_LOST);
	assert_int_equal(lt.expires_ms, la.expires_ms);

	/* B takes over: epoch 2; A's renew, release and fence are lost. */
	t += TTL;
	assert_int_equal(lease_acquire(db, 7, b, TTL, t, &lb), LEASE_OK);
	assert_int_equal(lb.epoch, 2);
	assert_int_equal(lb.node, b);
	assert_int_equal(lease_renew(db, &la, TTL, t), LEASE_LOST);
	assert_int_equal(lease_release(db, &la), LEASE_LOST);
	ok(db, sqldb_begin(db));
	assert_int_equal(lease_fence(db, 7, a, 1), LEASE_LOST);
	assert_int_equal(lease_fence(db, 7, b, 1), LEASE_LOST);
	assert_int_equal(lease_fence(db, 7, b, 2), LEASE_OK);
	ok(db, sqldb_rollback(db));
	assert_int_equal(lease_fence(db, 7, b, 2), -1);	/* no transaction */
	ok(db, lease_expired(db, t, games, nitems(games), &n));
	assert_int_equal(n, 0);

	/* Released: its epoch stays; the next holder gets epoch 3. */
	assert_int_equal(lease_release(db, &lb), LEASE_OK);
	expect_lease(db, 7, t, LEASE_RELEASED, b, 2);
	assert_int_equal(lease_release(db, &lb), LEASE_LOST);
	assert_int_equal(lease_renew(db, &lb, TTL, t), LEASE_LOST);
	assert_int_equal(lease_acquire(db, 7, a, TTL, t, &la), LEASE_OK);
	assert_int_equal(la.epoch, 3);

	/* Refusals change nothing. */
	assert_int_equal(lease_acquire(db, 8, a, 0, t, &lt), -1);
	assert_int_equal(lease_acquire(db, 8, a, LEASE_TTL_MAX + 1, t, &lt),
	    -1);
	assert_int_equal(lease_acquire(db, 0, a, TTL, t, &lt), -1);
	assert_int_equal(lease_acquire(db, 8, 9999, TTL, t, &lt), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	assert_false(sqldb_in_transaction(db));
	expect_lease(db, 8, t, LEASE_NONE, 0, 0);
	assert_int_equal(lease_expired(db, t, games, LEASE_LIST_MAX + 1, &n),
	    -1);
	sqldb_close(db);
}

/* A node renews all its live leases at once; an expired one, or
 * another node's, is not renewed. */
/*
 * tp: the store's writer's calls for several games at once.
 * lease_acquire_all in one transaction: games 1 and 2 new (epoch 1),
 * 3 held by b (0: taken), 4 expired from b (epoch 2); lease_release_all
 * in a's transaction: 1 and 4 at their epochs, 2 at a wrong one (not
 * released); nothing changes when the transaction rolls back.
 */
static void
t_many(void **state)
{
	struct sqldb	*db = fresh();
	struct lease	 l;
	int64_t		 a, b, games[4] = { 1, 2, 3, 4 }, ep[4];
	int64_t		 rg[3] = { 1, 2, 4 }, re[3] = { 1, 2, 2 };
	int		 done[3];

	(void)state;
	a = reg(db, "a:1");
	b = reg(db, "b:1");
	assert_int_equal(lease_acquire(db, 3, b, TTL, T0 + TTL, &l), LEASE_OK);
	assert_int_equal(lease_acquire(db, 4, b, TTL, T0, &l), LEASE_OK);
	ok(db, lease_acquire_all(db, a, TTL, T0 + TTL, games, 4, ep));
	assert_int_equal(ep[0], 1);
	assert_int_equal(ep[1], 1);
	assert_int_equal(ep[2], 0);
	assert_int_equal(ep[3], 2);
	expect_lease(db, 2, T0 + TTL, LEASE_HELD, a, 1);
	expect_lease(db, 3, T0 + TTL, LEASE_HELD, b, 1);
	expect_lease(db, 4, T0 + TTL, LEASE_HELD, a, 2);
	assert_int_equal(lease_release_all(db, a, rg, re, 3, done), -1);
	assert_false(sqldb_in_transaction(db));		/* refused */

	ok(db, sqldb_begin(db));
	assert_int_equal(lease_release_all(db, a, rg, re, 3, done), 2);
	assert_int_equal(done[0], 1);
	assert_int_equal(done[1], 0);
	assert_int_equal(done[2], 1);
	ok(db, sqldb_rollback(db));
	expect_lease(db, 1, T0 + TTL, LEASE_HELD, a, 1);
	ok(db, sqldb_begin(db));
	assert_int_equal(lease_release_all(db, a, rg, re, 3, done), 2);
	ok(db, sqldb_commit(db));
	expect_lease(db, 1, T0 + TTL, LEASE_RELEASED, a, 1);
	expect_lease(db, 2, T0 + TTL, LEASE_HELD, a, 1);
	expect_lease(db, 4, T0 + TTL, LEASE_RELEASED, a, 2);
	sqldb_close(db);
}

static void
t_renew_all(void **state)
{
	struct sqldb	*db = fresh();
	struct lease	 l;
	int64_t		 a, b, n, g;

	(void)state;
	a = reg(db, "a:1");
	b = reg(db, "b:1");
	for (g = 1; g <= 3; g++)
		assert_int_equal(lease_acquire(db, g, a, TTL, T0, &l),
		    LEASE_OK);
	assert_int_equal(lease_acquire(db, 3, a, TTL, T0 + 5000, &l),
	    LEASE_OK);				/* game 3: until T0+15000 */
	assert_int_equal(lease_acquire(db, 4, b, TTL, T0, &l), LEASE_OK);
	/* At T0+12000 games 1 and 2 have expired, 3 has not. */
	ok(db, lease_renew_all(db, a, TTL, T0 + 12000, &n));
	assert_int_equal(n, 1);
	expect_lease(db, 1, T0 + 12000, LEASE_EXPIRED, a, 1);
	expect_lease(db, 2, T0 + 12000, LEASE_EXPIRED, a, 1);
	assert_int_equal(lease_get(db, 3, T0 + 21999, &l), LEASE_HELD);
	assert_int_equal(l.expires_ms, T0 + 22000);
	/* B's lease was not touched, and has expired. */
	expect_lease(db, 4, T0 + 12000, LEASE_EXPIRED, b, 1);
	ok(db, lease_renew_all(db, b, TTL, T0 + 12000, &n));
	assert_int_equal(n, 0);
	assert_int_equal(lease_renew_all(db, a, 0, T0, &n), -1);
	sqldb_close(db);
}

/* Inserts k into table w in db's transaction or batch. */
static void
put(struct sqldb *db, int64_t k)
{
	if (sqldb_cached_run(db, "INSERT INTO w (k) VALUES (?)", &k, 1) == -1)
		fail_msg("insert: %s", sqldb_errmsg(db));
}

/* db's fence of (game 5, node, epoch), as lease_fence (batch 0),
 * lease_fence_batch (1) or lease_fence_held (2, tp: the store's writer's
 * fence of a batch's games): LEASE_OK or LEASE_LOST (with its message). */
static int
fence(struct sqldb *db, int batch, int64_t node, int64_t epoch)
{
	int64_t	 game = 5;
	int	 held = -1, r;

	if (batch == 2) {
		r = lease_fence_held(db, node, &game, &epoch, 1, &held);
		assert_int_equal(r, held);
		return (held ? LEASE_OK : LEASE_LOST);
	}
	if (!batch)
		return (lease_fence(db, 5, node, epoch));
	if (lease_fence_batch(db, 5, node, epoch) == 0)
		return (LEASE_OK);
	assert_non_null(strstr(sqldb_errmsg(db), "lease lost: game 5"));
	return (LEASE_LOST);
}

/*
 * The fence holds, for lease_fence (batch 0) or lease_fence_batch: game 5
 * leased to A (epoch 1); while A's transaction has passed its fence, B's
 * takeover of the expired lease waits (here: fails busy after a lock
 * wait of 100 ms) until A commits; then B takes it (epoch 2) and sees
 * A's write, and A's next fence (its epoch stale) is refused.  With
 * lease_fence_batch, also in pipelined batches: the holder's commits, a
 * stale one fails at its commit (at once on SQLite), its write undone.
 */
static void
fence_test(int batch)
{
	struct sqldb	*a = fresh(), *b = conn();
	struct lease	 la, lb;
	int64_t		 na = reg(a, "a:1"), nb = reg(a, "b:1");

	ok(b, sqldb_busy_timeout(b, 100));
	ok(a, sqldb_exec(a, "CREATE TABLE w (k BIGINT)"));
	assert_int_equal(lease_acquire(a, 5, na, TTL, T0, &la), LEASE_OK);
	ok(a, sqldb_batch_begin(a, batch != 2));
	if (batch)
		assert_int_equal(fence(a, batch, na, 1), LEASE_OK);
	put(a, 1);
	ok(a, sqldb_batch_commit(a));

	ok(a, sqldb_begin(a));
	assert_int_equal(fence(a, batch, na, 1), LEASE_OK);
	put(a, 2);
	assert_int_equal(lease_acquire(b, 5, nb, TTL, T0 + TTL, &lb), -1);
	assert_int_equal(sqldb_errclass(b), SQLDB_BUSY);
	assert_false(sqldb_in_transaction(b));
	ok(a, sqldb_commit(a));
	assert_int_equal(lease_acquire(b, 5, nb, TTL, T0 + TTL, &lb),
	    LEASE_OK);
	assert_int_equal(lb.epoch, 2);
	assert_int_equal(int1(b, "SELECT COUNT(*) FROM w"), 2);

	ok(a, sqldb_begin(a));
	assert_int_equal(fence(a, batch, na, 1), LEASE_LOST);
	ok(a, sqldb_rollback(a));
	assert_int_equal(lease_fence(a, 5, na, 1), -1);	/* no transaction */
	if (batch == 1 && backend == SQLDB_PG) {
		ok(a, sqldb_batch_begin(a, 1));
		ok(a, lease_fence_batch(a, 5, na, 1));
		put(a, 3);
		assert_int_equal(sqldb_batch_commit(a), -1);
		assert_non_null(strstr(sqldb_errmsg(a), "lease lost: game 5"));
		assert_false(sqldb_in_transaction(a));
	}
	ok(b, sqldb_batch_begin(b, batch == 1));
	assert_int_equal(fence(b, batch, nb, 2), LEASE_OK);
	put(b, 4);
	ok(b, sqldb_batch_commit(b));
	assert_int_equal(int1(a, "SELECT COUNT(*) FROM w WHERE k IN (1, 2, "
	    "4)"), 3);
	assert_int_equal(int1(a, "SELECT COUNT(*) FROM w"), 3);
	sqldb_close(b);
	sqldb_close(a);
}

static void
t_fence(void **state)
{
	(void)state;
	fence_test(0);
}

static void
t_fence_pipelined(void **state)
{
	(void)state;
	fence_test(1);
}

static void
t_fence_held(void **state)
{
	(void)state;
	fence_test(2);
}

/* Two nodes race for one game, each on its own connection and thread,
 * released together by a barrier. */
struct racer {
	pthread_barrier_t *bar;
	struct sqldb	*db;
	int64_t		 game, node, now;
	int		 r;
	struct lease	 l;
};

static void *
race1(void *arg)
{
	struct racer	*rc = arg;

	pthread_barrier_wait(rc->bar);
	rc->r = lease_acquire(rc->db, rc->game, rc->node, TTL, rc->now,
	    &rc->l);
	return (NULL);
}

/* Runs both racers on game at now; returns the winner's index. */
static int
race(struct racer *rc, int64_t game, int64_t now, int64_t epoch)
{
	pthread_barrier_t bar;
	pthread_t	 th[2];
	int		 i, w;

	pthread_barrier_init(&bar, NULL, 2);
	for (i = 0; i < 2; i++) {
		rc[i].bar = &bar;
		rc[i].game = game;
		rc[i].now = now;
		assert_int_equal(pthread_create(&th[i], NULL, race1, &rc[i]),
		    0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&bar);
	for (i = 0; i < 2; i++)
		if (rc[i].r == -1)
			fail_msg("racer %d: %s", i, sqldb_errmsg(rc[i].db));
	/* Exactly one holds it, at the epoch expected; the other is told. */
	assert_int_not_equal(rc[0].r, rc[1].r);
	w = rc[0].r == LEASE_OK ? 0 : 1;
	assert_int_equal(rc[w].r, LEASE_OK);
	assert_int_equal(rc[1 - w].r, LEASE_TAKEN);
	assert_int_equal(rc[w].l.epoch, epoch);
	assert_int_equal(rc[1 - w].l.node, rc[w].node);
	assert_int_equal(rc[1 - w].l.epoch, epoch);
	return (w);
}

#define ROUNDS	40

static void
t_race(void **state)
{
	struct racer	 rc[2];
	struct sqldb	*db = fresh();
	int		 wins[2] = { 0, 0 }, k, w;
	int64_t		 g;

	(void)state;
	memset(rc, 0, sizeof rc);
	rc[0].db = conn();
	rc[1].db = conn();
	rc[0].node = reg(db, "a:1");
	rc[1].node = reg(db, "b:1");
	for (k = 0; k < ROUNDS; k++) {
		g = 100 + k;
		/* A new game, then the takeover of its expired lease. */
		w = race(rc, g, T0, 1);
		wins[w]++;
		w = race(rc, g, T0 + TTL, 2);
		wins[w]++;
		expect_lease(db, g, T0 + TTL, LEASE_HELD, rc[w].node, 2);
	}
	assert_int_equal(wins[0] + wins[1], 2 * ROUNDS);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM leases"), ROUNDS);
	assert_int_equal(int1(db, "SELECT MAX(epoch) FROM leases"), 2);
	sqldb_close(rc[0].db);
	sqldb_close(rc[1].db);
	sqldb_close(db);
}

#define KEY	0x5c4ed01e00000001LL	/* the scheduler's lock */

/* Polls sqldb_try_lock on db until it answers want, for 30 s at most. */
static void
lock_until(struct sqldb *db, int want)
{
	struct timespec	 ts = { 0, 5 * 1000 * 1000 };
	int64_t		 deadline = mono_ms() + 30000;
	int		 r;

	while ((r = sqldb_try_lock(db, KEY)) != want) {
		if (mono_ms() > deadline)
			fail_msg("try_lock: %d, not %d (%s)", r, want,
			    sqldb_errmsg(db));
		nanosleep(&ts, NULL);
	}
}

/* SQLite: one node, always granted. */
static void
t_lock_lite(void **state)
{
	struct sqldb	*a = fresh(), *b = conn();

	(void)state;
	assert_int_equal(sqldb_try_lock(a, KEY), 1);
	assert_int_equal(sqldb_try_lock(b, KEY), 1);
	assert_int_equal(sqldb_unlock(a, KEY), 1);
	sqldb_close(b);
	sqldb_close(a);
}

/* Elected by an advisory lock: one holder; a closed or killed
 * connection frees it; a lost connection knows it lost it. */
static void
t_lock_pg(void **state)
{
	struct sqldb	*a = fresh(), *b = conn(), *c = conn();
	char		 sql[128];
	int64_t		 pid;

	(void)state;
	assert_int_equal(sqldb_try_lock(a, KEY), 1);
	assert_int_equal(sqldb_try_lock(a, KEY), 1);	/* not stacked */
	assert_int_equal(sqldb_try_lock(b, KEY), 0);
	assert_int_equal(sqldb_try_lock(b, KEY + 1), 1); /* another key */
	assert_int_equal(sqldb_unlock(b, KEY + 1), 1);
	assert_int_equal(sqldb_try_lock(b, -KEY), 1);
	assert_int_equal(sqldb_unlock(b, -KEY), 1);
	assert_int_equal(sqldb_unlock(a, KEY), 1);	/* once is enough */
	assert_int_equal(sqldb_unlock(a, KEY), 0);
	assert_int_equal(sqldb_try_lock(b, KEY), 1);
	assert_int_equal(sqldb_try_lock(a, KEY), 0);

	/* B's node dies, its connection closed: A takes over. */
	sqldb_close(b);
	lock_until(a, 1);
	assert_int_equal(sqldb_try_lock(c, KEY), 0);

	/* A's connection is killed: C takes over; A, back, is not elected. */
	pid = int1(a, "SELECT pg_backend_pid()");
	snprintf(sql, sizeof sql, "SELECT CAST(pg_terminate_backend(%lld) "
	    "AS INTEGER)",
	    (long long)pid);
	assert_int_equal(int1(c, sql), 1);
	lock_until(c, 1);
	lock_until(a, 0);
	assert_int_not_equal(int1(a, "SELECT pg_backend_pid()"), pid);
	sqldb_close(c);
	lock_until(a, 1);
	sqldb_close(a);
}

/* Waits for the next notification on l, for 30 s at most. */
static void
next_note(struct sqldb *l, struct sqldb_note *n)
{
	struct pollfd	 pfd;
	int64_t		 deadline = mono_ms() + 30000, left;
	int		 r;

	while ((r = sqldb_notify_next(l, n)) == SQLDB_DONE) {
		if ((left = deadline - mono_ms()) <= 0)
			fail_msg("no notification in 30 s");
		pfd.fd = sqldb_notify_fd(l);
		pfd.events = POLLIN;
		assert_true(pfd.fd >= 0);
		poll(&pfd, 1, (int)left);
	}
	if (r == -1)
		fail_msg("notify_next: %s", sqldb_errmsg(l));
}

/* The next notification on l is payload p on channel c. */
static void
expect_note(struct sqldb *l, const char *c, const char *p)
{
	struct sqldb_note n;

	next_note(l, &n);
	assert_string_equal(n.channel, c);
	assert_string_equal(n.payload, p);
}

/* Sends a marker from m and expects it to be the very next one on l:
 * nothing else was delivered before it. */
static void
marker(struct sqldb *l, struct sqldb *m, const char *p)
{
	ok(m, sqldb_notify(m, "game_7", p));
	expect_note(l, "game_7", p);
}

/*
 * One connection listens, another notifies in a transaction: nothing
 * before COMMIT (a marker sent after the notifications but committed
 * first comes first), then exactly the payloads, in order; a rollback
 * sends nothing; the limits are checked before anything is sent.
 */
static void
t_notify_pg(void **state)
{
	struct sqldb	*l = fresh(), *n = conn(), *m = conn();
	struct sqldb_note note;
	char		*big;

	(void)state;
	assert_int_equal(sqldb_listen(l, "game_7"), 0);
	assert_int_equal(sqldb_listen(l, "game_7"), 0);	/* once */
	assert_int_equal(sqldb_listen(l, "lobby"), 0);
	assert_int_equal(sqldb_notify_next(l, &note), SQLDB_DONE);

	ok(n, sqldb_begin(n));
	ok(n, sqldb_notify(n, "game_7", "game 7 ply 1"));
	ok(n, sqldb_notify(n, "game_7", "game 7 ply 2"));
	ok(n, sqldb_notify(n, "lobby", "seek 3"));
	marker(l, m, "marker 1");
	assert_int_equal(sqldb_notify_next(l, &note), SQLDB_DONE);
	ok(n, sqldb_commit(n));
	expect_note(l, "game_7", "game 7 ply 1");
	expect_note(l, "game_7", "game 7 ply 2");
	expect_note(l, "lobby", "seek 3");
	marker(l, m, "marker 2");

	/* A rollback sends nothing; a pipelined batch sends at commit. */
	ok(n, sqldb_begin(n));
	ok(n, sqldb_notify(n, "game_7", "rolled back"));
	ok(n, sqldb_rollback(n));
	ok(n, sqldb_batch_begin(n, 1));
	ok(n, sqldb_notify(n, "game_7", "game 7 ply 3"));
	ok(n, sqldb_batch_commit(n));
	expect_note(l, "game_7", "game 7 ply 3");
	marker(l, m, "marker 3");

	/* The payload's limit, in bytes: 7999 goes, 8000 is refused before
	 * it is sent (the marker comes next); bad channels refused. */
	big = malloc(SQLDB_PAYLOAD_MAX + 2);
	assert_non_null(big);
	memset(big, 'p', SQLDB_PAYLOAD_MAX + 1);
	big[SQLDB_PAYLOAD_MAX + 1] = '\0';
	assert_int_equal(sqldb_notify(n, "game_7", big), -1);
	assert_non_null(strstr(sqldb_errmsg(n), "over 7999 bytes"));
	big[SQLDB_PAYLOAD_MAX] = '\0';
	ok(n, sqldb_notify(n, "game_7", big));
	expect_note(l, "game_7", big);
	assert_int_equal(sqldb_notify(n, "Game7", "x"), -1);
	assert_int_equal(sqldb_notify(n, "7game", "x"), -1);
	assert_int_equal(sqldb_notify(n, "", "x"), -1);
	assert_int_equal(sqldb_notify(n, "game\"; drop", "x"), -1);
	assert_int_equal(sqldb_listen(l, "a-b"), -1);
	memset(big, 'c', SQLDB_CHANNEL_MAX + 1);
	big[SQLDB_CHANNEL_MAX + 1] = '\0';
	assert_int_equal(sqldb_listen(l, big), -1);
	big[SQLDB_CHANNEL_MAX] = '\0';
	assert_int_equal(sqldb_listen(l, big), 0);
	free(big);
	marker(l, m, "marker 4");

	/* Its own notifications say so; unlisten stops them. */
	ok(l, sqldb_notify(l, "lobby", "mine"));
	next_note(l, &note);
	assert_string_equal(note.payload, "mine");
	assert_true(note.self);
	ok(l, sqldb_unlisten(l, "lobby"));
	ok(m, sqldb_notify(m, "lobby", "unheard"));
	marker(l, m, "marker 5");
	sqldb_close(m);
	sqldb_close(n);
	sqldb_close(l);
}

/* The listening connection is killed: it says so, reconnects, listens
 * to its channels again, and hears what comes after. */
static void
t_notify_reconnect(void **state)
{
	struct sqldb	*l = fresh(), *m = conn();
	struct sqldb_note note;
	char		 sql[128];
	int64_t		 pid, deadline = mono_ms() + 30000;
	int		 r;

	(void)state;
	ok(l, sqldb_listen(l, "game_7"));
	pid = int1(l, "SELECT pg_backend_pid()");
	snprintf(sql, sizeof sql, "SELECT CAST(pg_terminate_backend(%lld) "
	    "AS INTEGER)",
	    (long long)pid);
	assert_int_equal(int1(m, sql), 1);
	/* The end of the connection arrives: poll until it is read. */
	while ((r = sqldb_notify_next(l, &note)) == SQLDB_DONE) {
		struct pollfd pfd = { sqldb_notify_fd(l), POLLIN, 0 };

		if (mono_ms() > deadline)
			fail_msg("the lost connection went unnoticed");
		poll(&pfd, 1, 100);
	}
	assert_int_equal(r, -1);
	assert_int_equal(sqldb_errclass(l), SQLDB_CONN);
	assert_int_equal(sqldb_notify_next(l, &note), -1);
	assert_true(sqldb_notify_fd(l) >= 0);		/* reconnected */
	assert_int_not_equal(int1(l, "SELECT pg_backend_pid()"), pid);
	marker(l, m, "after");
	sqldb_close(m);
	sqldb_close(l);
}

/* The bounds of a connection's state: SQLDB_CACHE_MAX statements, and
 * (PostgreSQL) SQLDB_LISTEN_MAX channels; beyond, refused, and nothing
 * changes. */
static void
t_limits(void **state)
{
	static char	 sql[SQLDB_CACHE_MAX + 1][48];
	char		 chan[32];
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s;
	int		 i;

	(void)state;
	/* SQLDB_CACHE_MAX statements, then a refusal. */
	for (i = 0; i <= SQLDB_CACHE_MAX; i++) {
		snprintf(sql[i], sizeof sql[i], "SELECT %d", i);
		if (sqldb_cached(db, sql[i], 0, &s) == -1)
			break;
		assert_non_null(s);
	}
	assert_int_equal(i, SQLDB_CACHE_MAX);
	assert_non_null(strstr(sqldb_errmsg(db), "cached statements"));
	assert_int_equal(sqldb_cached(db, sql[0], 0, &s), 0);	/* kept */
	assert_int_equal(sqldb_step(s), SQLDB_ROW);
	assert_int_equal(sqldb_column_int64(s, 0), 0);
	sqldb_reset(s);
	for (i = 0; backend == SQLDB_PG && i <= SQLDB_LISTEN_MAX; i++) {
		snprintf(chan, sizeof chan, "c%d", i);
		if (sqldb_listen(db, chan) == -1)
			break;
	}
	if (backend == SQLDB_PG) {
		assert_int_equal(i, SQLDB_LISTEN_MAX);
		assert_non_null(strstr(sqldb_errmsg(db), "already listening"));
		assert_int_equal(int1(db, "SELECT COUNT(*) FROM "
		    "pg_listening_channels()"), SQLDB_LISTEN_MAX);
	}
	sqldb_close(db);
}

/* SQLite: one node: the calls check their arguments and say so. */
static void
t_notify_lite(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_note note;
	char		 big[SQLDB_PAYLOAD_MAX + 2];

	(void)state;
	assert_int_equal(sqldb_listen(db, "game_7"), 1);
	assert_int_equal(sqldb_notify(db, "game_7", "x"), 1);
	memset(big, 'p', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(sqldb_notify(db, "game_7", big), -1);
	assert_int_equal(sqldb_notify(db, "Game", "x"), -1);
	assert_int_equal(sqldb_notify_fd(db), -1);
	assert_non_null(strstr(sqldb_errmsg(db), "one node"));
	assert_int_equal(sqldb_notify_next(db, &note), SQLDB_DONE);
	sqldb_close(db);
}

/* Each test on the back end its initial state names (NULL: SQLite),
 * with a temporary SQLite file either way (unused on PostgreSQL). */

TP_MAIN("node",
    cmocka_unit_test(t_addr),
    BOTH(t_migrate9),
    BOTH(t_migrate11),
    BOTH(t_registry),
    BOTH(t_lease_cycle),
    BOTH(t_renew_all),
    BOTH(t_many),
    BOTH(t_fence),
    BOTH(t_fence_pipelined),
    BOTH(t_fence_held),
    BOTH(t_race),
    LITE(t_lock_lite),
    LITE(t_notify_lite),
    PG(t_lock_pg),
    PG(t_notify_pg),
    PG(t_notify_reconnect),
    BOTH(t_limits))
