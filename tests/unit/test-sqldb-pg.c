/*
 * test-sqldb-pg.c: the SQL driver layer (src/sqldb*.c, issue 15 §1) on
 * PostgreSQL only (a throwaway cluster, tests/e2e/pgcluster.sh: run without
 * SQLDB_PG_URL, this program runs itself again under pgcluster.sh run):
 * the two schemas compared (with a temporary SQLite file), a lost
 * connection and the reconnection, several hosts of which the first is
 * down, a promoted standby.  The tests on both back ends are in
 * test-sqldb.c; the helpers in testsqldb.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/sqldb.h"
#include "store/store.h"
#include "testpg.h"
#include "testutil.h"
#include "lib/util.h"
#define TS_NAME "test-sqldb-pg"
#include "testsqldb.h"

/* Adds "table.column:class" for each column of the schema of db. */
static void
columns(struct sqldb *db, struct tu_strs *out)
{
	struct sqldb_stmt *s;
	const char	*t, *c, *ty, *cls;
	char		 low[64];
	size_t		 i;

	s = prep(db, sqldb_backend(db) == SQLDB_SQLITE ?
	    "SELECT m.name, p.name, p.type, m.type = 'view' FROM "
	    "sqlite_master AS m, pragma_table_info(m.name) AS p "
	    "WHERE m.type IN ('table', 'view') AND "
	    "m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'" :
	    "SELECT c.table_name, c.column_name, c.data_type, "
	    "CAST(t.table_type = 'VIEW' AS INTEGER) FROM "
	    "information_schema.columns AS c JOIN information_schema.tables "
	    "AS t USING (table_schema, table_name) WHERE c.table_schema = "
	    "'public' AND c.table_name <> 'schema_version'", 0);
	while (sqldb_step(s) == SQLDB_ROW) {
		t = sqldb_column_text(s, 0);
		c = sqldb_column_text(s, 1);
		ty = sqldb_column_text(s, 2);
		for (i = 0; ty[i] != '\0' && i + 1 < sizeof low; i++)
			low[i] = (char)tolower((unsigned char)ty[i]);
		low[i] = '\0';
		if (sqldb_column_int64(s, 3))
			cls = "view";	/* SQLite types no view column */
		else if (strstr(low, "int") != NULL)
			cls = "integer";
		else if (strstr(low, "text") != NULL)
			cls = "text";
		else if (strstr(low, "blob") || strstr(low, "bytea"))
			cls = "blob";
		else if (strstr(low, "real") || strstr(low, "double"))
			cls = "real";
		else
			cls = low;
		tu_strs_add(out, "%s.%s:%s", t, c, cls);
	}
	assert_int_equal(sqldb_errclass(db), SQLDB_OK);
	sqldb_finalize(s);
	/* The indexes made by CREATE INDEX (not those of keys). */
	s = prep(db, sqldb_backend(db) == SQLDB_SQLITE ?
	    "SELECT name FROM sqlite_master WHERE type = 'index' AND "
	    "sql IS NOT NULL" :
	    "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
	    "AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'",
	    0);
	while (sqldb_step(s) == SQLDB_ROW)
		tu_strs_add(out, "index %s", sqldb_column_text(s, 0));
	sqldb_finalize(s);
	tu_strs_sort(out);
}

/* After all migrations, both back ends have the same tables, views,
 * columns (names and type classes) and indexes. */
static void
t_schema_same(void **state)
{
	struct tu_strs	 a, b;
	struct sqldb	*pg, *lite;
	const struct sqldb_migration *l;
	char		 err[512];
	size_t		 n;

	(void)state;
	pg = fresh();
	l = list(&n);
	if (sqldb_migrate(pg, l, n, (int)n, err, sizeof err) == -1)
		fail_msg("%s", err);
	backend = SQLDB_SQLITE;
	lite = fresh();
	l = list(&n);
	if (sqldb_migrate(lite, l, n, (int)n, err, sizeof err) == -1)
		fail_msg("%s", err);
	backend = SQLDB_PG;
	tu_strs_init(&a);
	tu_strs_init(&b);
	columns(lite, &a);
	columns(pg, &b);
	assert_true(a.n > 40);
	assert_true(tu_strs_eq(&a, &b, "sqlite vs postgresql"));
	tu_strs_free(&a);
	tu_strs_free(&b);
	sqldb_close(lite);
	sqldb_close(pg);
}

/* Runs the cluster's control script: start or stop [mode]. */
static void
cluster(const char *what)
{
	char	 cmd[1024];

	snprintf(cmd, sizeof cmd, "%s %s %s", getenv("SQLDB_PG_CTL"),
	    strncmp(what, "stop", 4) == 0 ? "stop" : "start",
	    getenv("SQLDB_PG_DIR"));
	if (strcmp(what, "stop immediate") == 0)
		strncat(cmd, " immediate", sizeof cmd - strlen(cmd) - 1);
	if (system(cmd) != 0)
		fail_msg("%s: failed", cmd);
}

static int64_t
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Steps s (an insert of one parameter) until the database answers, for
 * 30 s at most (a loaded machine); returns the tries. */
static int
until_back(struct sqldb *db, struct sqldb_stmt *s, int64_t k)
{
	int64_t		 deadline = now_ms() + 30000;
	int		 r, tries = 0;

	do {
		ok(db, sqldb_bind_int64(s, 1, k));
		r = sqldb_step(s);
		if (r == -1) {
			assert_int_equal(sqldb_errclass(db), SQLDB_CONN);
			usleep(10000);	/* polls, within the deadline */
		}
		sqldb_reset(s);
		tries++;
	} while (r == -1 && now_ms() < deadline);
	if (r != SQLDB_DONE)
		fail_msg("no reconnection in 30 s: %s", sqldb_errmsg(db));
	return (tries);
}

/*
 * The database killed (stop -m immediate) under an open session and a
 * transaction: SQLDB_CONN; the lost transaction refuses everything but a
 * rollback; while down, each call fails at once; once the database is
 * back, a call reconnects and the prepared statement works again.
 */
static void
t_lost(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s, *late;

	(void)state;
	s = table_p(db);
	put_k(db, s, 1);
	ok(db, sqldb_begin(db));
	put_k(db, s, 2);
	cluster("stop immediate");
	ok(db, sqldb_bind_int64(s, 1, 3));
	step_fails(s, db, SQLDB_CONN);
	assert_non_null(strstr(sqldb_errmsg(db), "connection lost"));
	/* The transaction is gone: no commit, no step, until rolled back. */
	assert_int_equal(sqldb_commit(db), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONN);
	ok(db, sqldb_bind_int64(s, 1, 3));
	step_fails(s, db, SQLDB_CONN);
	ok(db, sqldb_rollback(db));
	assert_false(sqldb_in_transaction(db));
	/* Down: a clear failure, of the connection's class. */
	ok(db, sqldb_bind_int64(s, 1, 3));
	step_fails(s, db, SQLDB_CONN);
	assert_non_null(strstr(sqldb_errmsg(db), "unreachable"));
	/* A statement prepared while down is prepared when it first runs. */
	late = prep(db, "SELECT CAST(COUNT(*) AS BIGINT) + ? FROM p", 0);
	cluster("start");
	print_message("# reconnected after %d tries\n", until_back(db, s, 3));
	/* Row 2 went with its transaction; 1 and 3 are there. */
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM p"), 2);
	assert_int_equal(int1(db, "SELECT SUM(k) FROM p"), 4);
	ok(db, sqldb_bind_int64(late, 1, 40));
	assert_int_equal(sqldb_step(late), SQLDB_ROW);
	assert_int_equal(sqldb_column_int64(late, 0), 42);
	sqldb_finalize(late);
	sqldb_finalize(s);
	sqldb_close(db);
}

/* The database killed under a pipelined batch: its commit fails with
 * SQLDB_CONN, none of it is there once the database is back. */
static void
t_lost_batch(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s;
	int		 k;

	(void)state;
	s = table_p(db);
	ok(db, sqldb_batch_begin(db, 1));
	for (k = 1; k <= 10; k++) {
		put_k(db, s, k);
	}
	cluster("stop immediate");
	assert_int_equal(sqldb_batch_commit(db), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONN);
	ok(db, sqldb_rollback(db));
	assert_false(sqldb_in_transaction(db));
	cluster("start");
	print_message("# reconnected after %d tries\n", until_back(db, s,
	    100));
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM p"), 1);
	assert_int_equal(int1(db, "SELECT k FROM p"), 100);
	sqldb_finalize(s);
	sqldb_close(db);
}

/* Two hosts, the first down, target_session_attrs=read-write: libpq
 * finds the second; both down: a clear failure. */
static void
t_multihost(void **state)
{
	struct sqldb	*db;
	const char	*dir = getenv("SQLDB_PG_DIR");
	char		 url[1024], err[512];

	(void)state;
	snprintf(url, sizeof url, "postgresql:///postgres?host=%s/down,%s&"
	    "user=grundy&target_session_attrs=read-write", dir, dir);
	if (sqldb_open(url, &db, err, sizeof err) == -1)
		fail_msg("%s: %s", url, err);
	assert_int_equal(int1(db, "SELECT CAST(pg_is_in_recovery() AS "
	    "INTEGER)"), 0);
	sqldb_close(db);
	snprintf(url, sizeof url, "postgres:///postgres?host=%s/down,%s/down2"
	    "&user=grundy&target_session_attrs=read-write", dir, dir);
	assert_int_equal(sqldb_open(url, &db, err, sizeof err), -1);
	assert_null(db);
	assert_non_null(strstr(err, "unreachable"));
}

/* Ends db's session from other, and waits (5 s at most) until it is
 * gone: the server told db's socket so and closed it. */
static void
terminate(struct sqldb *db, struct sqldb *other)
{
	char	 sql[128];

	snprintf(sql, sizeof sql, "SELECT CAST(pg_terminate_backend(%d, "
	    "5000) AS INTEGER)", (int)int1(db, "SELECT pg_backend_pid()"));
	assert_int_equal(int1(other, sql), 1);
}

/*
 * A promoted standby (issue 15 §1), PostgreSQL only.  The server went
 * away while the connection was idle (a failover: the old primary stopped
 * with it).  The next statement finds the socket closed before it sends
 * anything, connects again and runs there; on a connection that listens
 * (whose socket is its notifications' reader's), BEGIN finds it dead, and
 * since no transaction was open nothing is in doubt: it connects again
 * (listening again) and begins there.
 */
static void
t_stale_begin(void **state)
{
	struct sqldb	*db = fresh(), *other = second();
	struct sqldb_stmt *s = table_p(db);

	(void)state;
	terminate(db, other);
	put_k(db, s, 5);
	ok(db, sqldb_listen(db, "stale"));
	terminate(db, other);
	ok(db, sqldb_begin(db));
	put_k(db, s, 7);
	ok(db, sqldb_commit(db));
	assert_int_equal(int1(other, "SELECT SUM(k) FROM p"), 12);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM "
	    "pg_listening_channels() AS c WHERE c = 'stale'"), 1);
	sqldb_finalize(s);
	sqldb_close(other);
	sqldb_close(db);
}

/*
 * A write refused as read-only (SQLSTATE 25006: the server is a
 * standby) is of the connection's class, and the next call connects
 * again (where target_session_attrs=read-write finds the primary; here
 * a new session, read-write by default).  The same in a pipelined batch.
 */
static void
t_read_only(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s = table_p(db);
	int		 pipe;

	(void)state;
	for (pipe = 0; pipe <= 1; pipe++) {
		exec_ok(db, "SET default_transaction_read_only = on");
		ok(db, sqldb_batch_begin(db, pipe));
		ok(db, sqldb_bind_int64(s, 1, 10 + pipe));
		if (pipe) {
			assert_int_equal(sqldb_step(s), SQLDB_DONE);
			sqldb_reset(s);
			assert_int_equal(sqldb_batch_commit(db), -1);
		} else
			step_fails(s, db, SQLDB_CONN);
		assert_int_equal(sqldb_errclass(db), SQLDB_CONN);
		assert_non_null(strstr(sqldb_errmsg(db), "read-only"));
		ok(db, sqldb_rollback(db));
		put_k(db, s, 20 + pipe);
	}
	assert_int_equal(int1(db, "SELECT SUM(k) FROM p"), 41);
	sqldb_finalize(s);
	sqldb_close(db);
}

TP_MAIN("sqldb-pg",
    ON(pg, t_schema_same),
    ON(pg, t_multihost),
    ON(pg, t_lost),
    ON(pg, t_lost_batch),
    /* a promoted standby */
    ON(pg, t_stale_begin),
    ON(pg, t_read_only))
