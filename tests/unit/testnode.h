/*
 * testnode.h: the helpers of the programs that test nodes on one
 * database (test-node.c, test-node-prune.c): a virtual clock's start, a
 * connection to the group's back end (testgroup.h), a fresh database
 * migrated to a version, one integer of a query, a registered node.
 * Include it after testgroup.h; static inline: each program uses some.
 */
#ifndef TESTNODE_H
#define TESTNODE_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "nodestore/node.h"
#include "db/sqldb.h"
#include "store/store.h"
#include "testutil.h"

#define TTL	10000		/* ms, a lease's and a node's */
#define T0	1700000000000LL	/* the virtual clock's start */


static inline int64_t
mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static inline const char *
url(void)
{
	return (backend == SQLDB_SQLITE ? lite_path : getenv("SQLDB_PG_URL"));
}

static inline struct sqldb *
conn(void)
{
	struct sqldb	*db;
	char		 err[512];

	if (sqldb_open(url(), &db, err, sizeof err) == -1)
		fail_msg("open %s: %s", url(), err);
	assert_int_equal(sqldb_backend(db), backend);
	return (db);
}

static inline void
ok(struct sqldb *db, int r)
{
	if (r == -1)
		fail_msg("%s", sqldb_errmsg(db));
}

static inline const struct sqldb_migration *
migrations(size_t *n)
{
	if (backend == SQLDB_PG) {
		*n = sqldb_pg_nmigrations;
		return (sqldb_pg_migrations);
	}
	*n = store_nmigrations;
	return (store_migrations);
}

/* A fresh, empty database migrated to version upto (-1: the last). */
static inline struct sqldb *
fresh_at(int upto)
{
	const struct sqldb_migration *l;
	struct sqldb	*db;
	char		 err[512];
	size_t		 n;

	if (backend == SQLDB_SQLITE)
		unlink(lite_path);
	db = conn();
	/* (A failed test may have left connections: end them first.) */
	if (backend == SQLDB_PG && sqldb_exec(db, "SET client_min_messages "
	    "= warning; SELECT pg_terminate_backend(pid) FROM "
	    "pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = "
	    "current_database(); DROP SCHEMA public CASCADE; "
	    "CREATE SCHEMA public") == -1)
		fail_msg("reset: %s", sqldb_errmsg(db));
	l = migrations(&n);
	if (sqldb_migrate(db, l, n, upto < 0 ? (int)n : upto, err,
	    sizeof err) == -1)
		fail_msg("migrate: %s", err);
	return (db);
}

static inline struct sqldb *
fresh(void)
{
	return (fresh_at(-1));
}

static inline int64_t
int1(struct sqldb *db, const char *sql)
{
	struct sqldb_stmt *s;
	int64_t		 v;

	if (sqldb_prepare(db, sql, 0, &s) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	if (sqldb_step(s) != SQLDB_ROW)
		fail_msg("%s: no row: %s", sql, sqldb_errmsg(db));
	v = sqldb_column_int64(s, 0);
	sqldb_finalize(s);
	return (v);
}

static inline int64_t
reg(struct sqldb *db, const char *addr)
{
	int64_t	 id;

	ok(db, node_register(db, addr, T0, TTL, &id));
	return (id);
}

#endif /* TESTNODE_H */
