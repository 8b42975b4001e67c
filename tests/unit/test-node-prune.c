/*
 * test-node-prune.c: pruning the rows of dead nodes (issue 15 §2,
 * doc/NODES.md): migration 012, node_prune and node_revive, on SQLite (a
 * temporary file) and on PostgreSQL (a throwaway cluster: run without
 * SQLDB_PG_URL, this program runs itself again under pgcluster.sh run),
 * as test-node.c, whose helpers it shares (testnode.h).  Time is virtual.
 */
#include <stdio.h>

#include "nodestore/lease.h"
#include "nodestore/node.h"
#include "db/sqldb.h"
#include "store/store.h"
#include "testutil.h"
#define TG_NAME "test-node-prune"
#include "testgroup.h"
#include "testnode.h"

/* Migration 012 from version 11: the leases stay, a released lease may
 * forget its holder, a held one may not. */
static void
t_migrate12(void **state)
{
	const struct sqldb_migration *l;
	struct sqldb	*db = fresh_at(11);
	struct lease	 x;
	char		 err[512];
	size_t		 n;
	int64_t		 a = reg(db, "node-a:7000");

	(void)state;
	assert_int_equal(lease_acquire(db, 1, a, TTL, T0, &x), LEASE_OK);
	assert_int_equal(lease_acquire(db, 2, a, TTL, T0, &x), LEASE_OK);
	ok(db, lease_release(db, &x));
	assert_int_equal(sqldb_exec(db, "UPDATE leases SET node_id = NULL "
	    "WHERE game_id = 2"), -1);
	l = migrations(&n);
	assert_int_equal(sqldb_migrate(db, l, n, 12, err, sizeof err), 0);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM leases WHERE "
	    "node_id IS NOT NULL AND epoch = 1"), 2);
	ok(db, sqldb_exec(db, "UPDATE leases SET node_id = NULL WHERE "
	    "game_id = 2"));
	assert_int_equal(sqldb_exec(db, "UPDATE leases SET node_id = NULL "
	    "WHERE game_id = 1"), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	assert_int_equal(lease_get(db, 1, T0, &x), LEASE_HELD);
	sqldb_close(db);
}

/* Registers addr at the virtual time at, alive for one TTL. */
static int64_t
reg_at(struct sqldb *db, const char *addr, int64_t at)
{
	int64_t	 id;

	ok(db, node_register(db, addr, at, TTL, &id));
	return (id);
}

/* node_prune(db, self, before, max): the number of rows it deleted. */
static size_t
pruned(struct sqldb *db, int64_t self, int64_t before, size_t max)
{
	size_t	 n = 99;

	ok(db, node_prune(db, self, before, max, &n));
	return (n);
}

/*
 * Nodes dead since T0 + TTL, pruned at T0 + 12 TTL with a delay of 10
 * TTL: the one holding an expired lease waits for its takeover, the one
 * that claimed a seek for its row's end; the others go, their released
 * leases kept (epochs never repeat) without them, their seeks gone.
 */
static void
t_prune(void **state)
{
	struct sqldb	*db = fresh();
	struct lease	 x;
	int64_t		 now = T0 + 12 * TTL, before = now - 10 * TTL;
	int64_t		 a, b, c, d, e, f;
	char		 sql[512];

	(void)state;
	a = reg(db, "a:1"), b = reg(db, "b:1"), c = reg(db, "c:1");
	d = reg(db, "d:1"), e = reg(db, "e:1");
	f = reg_at(db, "f:1", now - 5 * TTL);	/* dead, not long enough */
	ok(db, node_heartbeat(db, a, now, TTL));
	assert_int_equal(lease_acquire(db, 1, b, TTL, T0, &x), LEASE_OK);
	assert_int_equal(lease_acquire(db, 2, c, TTL, T0, &x), LEASE_OK);
	ok(db, lease_release(db, &x));
	assert_int_equal(lease_acquire(db, 3, d, TTL, T0, &x), LEASE_OK);
	assert_int_equal(lease_acquire(db, 3, a, TTL, now, &x), LEASE_OK);
	/* a's seek claimed by e, d's own seek. */
	snprintf(sql, sizeof sql, "INSERT INTO seeks (node_id, player, spec, "
	    "random, rated, base_ms, inc_ms, created_ms, owner_id) VALUES "
	    "(%lld, 'p', 'nim 3', 0, 1, 60000, 0, 1, %lld), (%lld, 'q', "
	    "'nim 3', 0, 1, 60000, 0, 1, NULL)", (long long)a, (long long)e,
	    (long long)d);
	ok(db, sqldb_exec(db, sql));
	assert_int_equal(node_prune(db, a, before, 0, &(size_t){ 0 }), -1);
	assert_int_equal(node_prune(db, a, before, NODE_PRUNE_MAX + 1,
	    &(size_t){ 0 }), -1);
	assert_int_equal(pruned(db, a, before, NODE_PRUNE_MAX), 2);	/* c, d */
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM nodes"), 4);
	assert_int_equal(node_get(db, c, &(struct node_info){ 0 }), 0);
	assert_int_equal(node_get(db, d, &(struct node_info){ 0 }), 0);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM seeks"), 1);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM leases WHERE "
	    "game_id = 2 AND node_id IS NULL AND epoch = 1"), 1);
	/* The released lease is taken again at the next epoch. */
	assert_int_equal(lease_acquire(db, 2, a, TTL, now, &x), LEASE_OK);
	assert_int_equal(x.epoch, 2);
	assert_int_equal(pruned(db, a, before, NODE_PRUNE_MAX), 0);
	/* b's game taken over, e's claimed seek gone: they go too. */
	assert_int_equal(lease_acquire(db, 1, a, TTL, now, &x), LEASE_OK);
	assert_int_equal(x.epoch, 2);
	assert_int_equal(pruned(db, a, before, NODE_PRUNE_MAX), 1);
	ok(db, sqldb_exec(db, "DELETE FROM seeks"));
	assert_int_equal(pruned(db, a, before, NODE_PRUNE_MAX), 1);
	assert_int_equal(node_get(db, e, &(struct node_info){ 0 }), 0);
	/* Never self, f once dead long enough; at most max per call. */
	(void)reg_at(db, "g:1", T0), (void)reg_at(db, "h:1", T0);
	assert_int_equal(pruned(db, a, now + 100 * TTL, 2), 2);
	assert_int_equal(pruned(db, a, now + 100 * TTL, 2), 1);
	assert_int_equal(node_get(db, f, &(struct node_info){ 0 }), 0);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM nodes"), 1);
	assert_int_equal(node_alive(db, a, now), 1);
	sqldb_close(db);
}

/* A pruned node that comes back: its row again, the same id, once. */
static void
t_revive(void **state)
{
	struct sqldb	*db = fresh();
	struct node_info ni;
	int64_t		 a = reg(db, "a:1"), now = T0 + 20 * TTL;

	(void)state;
	assert_int_equal(pruned(db, 99, now - 10 * TTL, 1), 1);
	assert_int_equal(node_heartbeat(db, a, now, TTL), -1);
	assert_int_equal(node_revive(db, a, "a:1", T0, now, TTL), 1);
	assert_int_equal(node_revive(db, a, "a:1", T0, now, TTL), 0);
	assert_int_equal(node_get(db, a, &ni), 1);
	assert_string_equal(ni.addr, "a:1");
	assert_true(ni.started_ms == T0 && ni.expires_ms == now + TTL);
	ok(db, node_heartbeat(db, a, now + 1, TTL));
	assert_int_equal(node_revive(db, a, "bad addr", T0, now, TTL), -1);
	/* A new node never gets a revived id again. */
	assert_true(reg(db, "b:1") > a);
	sqldb_close(db);
}

/* Each test on both back ends, as test-node.c's. */
TP_MAIN("node-prune",
    BOTH(t_migrate12),
    BOTH(t_prune),
    BOTH(t_revive))
