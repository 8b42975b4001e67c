/*
 * testsqldb.h: the helpers of the SQL driver's tests on both back ends
 * (test-sqldb.c, test-sqldb-pg.c): the group's back end and temporary
 * SQLite file, fresh and second connections, statements, one integer of
 * a query, the migrations as the store gets them, the setups (ON(be, f)).
 * Define TS_NAME (the temporary file's name) before including it, once
 * per program; static inline: each program uses some.
 */
#ifndef TESTSQLDB_H
#define TESTSQLDB_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "db/sqldb.h"
#include "store/store.h"
#include "testpg.h"
#include "testutil.h"

static enum sqldb_backend backend;	/* of the group running */
static char lite_path[64];

/* Opens a fresh, empty database of the group's back end. */
static inline struct sqldb *
fresh(void)
{
	struct sqldb	*db;
	char		 err[512];
	const char	*url;

	if (backend == SQLDB_SQLITE) {
		unlink(lite_path);
		url = lite_path;
	} else
		url = getenv("SQLDB_PG_URL");
	if (sqldb_open(url, &db, err, sizeof err) == -1)
		fail_msg("open %s: %s", url, err);
	assert_int_equal(sqldb_backend(db), backend);
	if (backend == SQLDB_PG && sqldb_exec(db, "SET client_min_messages "
	    "= warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public") ==
	    -1)
		fail_msg("reset: %s", sqldb_errmsg(db));
	return (db);
}

/* Opens a second connection to the same database. */
static inline struct sqldb *
second(void)
{
	struct sqldb	*db;
	char		 err[512];
	const char	*url;

	url = backend == SQLDB_SQLITE ? lite_path : getenv("SQLDB_PG_URL");
	if (sqldb_open(url, &db, err, sizeof err) == -1)
		fail_msg("open %s: %s", url, err);
	return (db);
}

static inline void
ok(struct sqldb *db, int r)
{
	if (r == -1)
		fail_msg("%s", sqldb_errmsg(db));
}

static inline void
exec_ok(struct sqldb *db, const char *sql)
{
	if (sqldb_exec(db, sql) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
}

static inline struct sqldb_stmt *
prep(struct sqldb *db, const char *sql, int flags)
{
	struct sqldb_stmt *s;

	if (sqldb_prepare(db, sql, flags, &s) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	return (s);
}

/* One integer: the first column of the first row of sql. */
static inline int64_t
int1(struct sqldb *db, const char *sql)
{
	struct sqldb_stmt *s = prep(db, sql, 0);
	int64_t		 v;

	if (sqldb_step(s) != SQLDB_ROW)
		fail_msg("%s: no row: %s", sql, sqldb_errmsg(db));
	v = sqldb_column_int64(s, 0);
	assert_int_equal(sqldb_step(s), SQLDB_DONE);
	sqldb_finalize(s);
	return (v);
}

/* Runs s expecting a failure of class e, then resets it. */
static inline void
step_fails(struct sqldb_stmt *s, struct sqldb *db, enum sqldb_err e)
{
	assert_int_equal(sqldb_step(s), -1);
	if (sqldb_errclass(db) != e)
		fail_msg("class %s, not %s: %s",
		    sqldb_err_names[sqldb_errclass(db)], sqldb_err_names[e],
		    sqldb_errmsg(db));
	assert_true(sqldb_errmsg(db)[0] != '\0');
	sqldb_reset(s);
}

/* Makes table p (k) and returns its prepared insert of one k. */
static inline struct sqldb_stmt *
table_p(struct sqldb *db)
{
	exec_ok(db, "CREATE TABLE p (k BIGINT PRIMARY KEY)");
	return (prep(db, "INSERT INTO p (k) VALUES (?)", 0));
}

/* Runs table_p's insert s of k, which succeeds. */
static inline void
put_k(struct sqldb *db, struct sqldb_stmt *s, int64_t k)
{
	ok(db, sqldb_bind_int64(s, 1, k));
	assert_int_equal(sqldb_step(s), SQLDB_DONE);
	sqldb_reset(s);
}

/* The migrations of the group's back end, as the store gets them. */
static inline const struct sqldb_migration *
list(size_t *n)
{
	static struct sqldb_migration *lite;
	size_t		 i;

	if (backend == SQLDB_PG) {
		*n = sqldb_pg_nmigrations;
		return (sqldb_pg_migrations);
	}
	if (lite == NULL) {
		lite = calloc(store_nmigrations, sizeof *lite);
		assert_non_null(lite);
		for (i = 0; i < store_nmigrations; i++) {
			lite[i].version = store_migrations[i].version;
			lite[i].name = store_migrations[i].name;
			lite[i].sql = store_migrations[i].sql;
		}
	}
	*n = store_nmigrations;
	return (lite);
}

static inline int
lite_setup(void **state)
{
	(void)state;
	backend = SQLDB_SQLITE;
	return (tp_lite_file(lite_path, sizeof lite_path, TS_NAME));
}

/* PostgreSQL's tests: the SQLite file is for t_schema_same. */
static inline int
pg_setup(void **state)
{
	if (lite_setup(state) == -1)
		return (-1);
	backend = SQLDB_PG;
	return (0);
}

static inline int
teardown(void **state)
{
	(void)state;
	unlink(lite_path);
	return (0);
}

/* One test on one back end, named after both. */
#define ON(be, f) { #be ": " #f, f, be##_setup, teardown, NULL }
#define BOTH(f)	ON(lite, f), ON(pg, f)	/* f on each back end */

#endif /* TESTSQLDB_H */
