/*
 * test-sqldb.c: the SQL driver layer (src/sqldb*.c, issue 15 §1) on both
 * back ends: the same tests on SQLite (a temporary file) and on PostgreSQL
 * (a throwaway cluster, tests/e2e/pgcluster.sh: run without SQLDB_PG_URL, this
 * program runs itself again under pgcluster.sh run, which starts the
 * cluster and stops it at the end whatever happens).  The tests on
 * PostgreSQL only are in test-sqldb-pg.c; the helpers in testsqldb.h.
 */
#include <ctype.h>
#include <pthread.h>
#include <math.h>
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
#define TS_NAME "test-sqldb"
#include "testsqldb.h"

/* The back end's spelling of a blob and of an automatic id. */
static const char *
blob_t(void)
{
	return (backend == SQLDB_PG ? "BYTEA" : "BLOB");
}

static const char *
auto_id(void)
{
	return (backend == SQLDB_PG ? "BIGSERIAL PRIMARY KEY" :
	    "INTEGER PRIMARY KEY");
}

static void
make_t(struct sqldb *db)
{
	char	 sql[256];

	snprintf(sql, sizeof sql, "CREATE TABLE t (id %s, i BIGINT, "
	    "d DOUBLE PRECISION, s TEXT, b %s)", auto_id(), blob_t());
	exec_ok(db, sql);
}

/* Every type, 64-bit extremes, blobs with NULs, NULLs: back exactly. */
static void
t_types(void **state)
{
	static const int64_t ints[] = { INT64_MIN, INT64_MIN + 1, -1, 0, 1,
	    INT64_MAX - 1, INT64_MAX };
	static const double dbls[] = { 0.1, 1.0 / 3, -1e308, 5e-324,
	    2.2250738585072014e-308, 1e300 * 10, 123456789.125 };
	/* (not -0.0: SQLite stores it as the integer 0) */
	unsigned char	 blob[300];
	struct sqldb	*db = fresh();
	struct sqldb_stmt *ins, *sel;
	const void	*p;
	size_t		 i, n;
	char		 text[64];

	(void)state;
	for (i = 0; i < sizeof blob; i++)
		blob[i] = (unsigned char)(i * 7 % 256);
	blob[0] = blob[100] = blob[299] = 0;
	make_t(db);
	ins = prep(db, "INSERT INTO t (i, d, s, b) VALUES (?, ?, ?, ?)",
	    SQLDB_RETURNING_ID);
	for (i = 0; i < nitems(ints); i++) {
		snprintf(text, sizeof text, "'q\"?%zu é", i);
		ok(db, sqldb_bind_int64(ins, 1, ints[i]));
		ok(db, sqldb_bind_double(ins, 2, dbls[i]));
		ok(db, sqldb_bind_text(ins, 3, text));
		ok(db, sqldb_bind_blob(ins, 4, blob, i * 50));
		assert_int_equal(sqldb_step(ins), SQLDB_DONE);
		assert_int_equal(sqldb_last_id(db), (int64_t)i + 1);
		sqldb_reset(ins);
	}
	/* A row of NULLs (bind_text of NULL is a NULL). */
	ok(db, sqldb_bind_null(ins, 1));
	ok(db, sqldb_bind_null(ins, 2));
	ok(db, sqldb_bind_text(ins, 3, NULL));
	ok(db, sqldb_bind_null(ins, 4));
	assert_int_equal(sqldb_step(ins), SQLDB_DONE);
	sqldb_finalize(ins);

	sel = prep(db, "SELECT i, d, s, b, '?' FROM t ORDER BY id", 0);
	for (i = 0; i < nitems(ints); i++) {
		assert_int_equal(sqldb_step(sel), SQLDB_ROW);
		assert_int_equal(sqldb_column_count(sel), 5);
		assert_true(sqldb_column_int64(sel, 0) == ints[i]);
		if (sqldb_column_double(sel, 1) != dbls[i])
			fail_msg("double %zu: %.17g, not %.17g", i,
			    sqldb_column_double(sel, 1), dbls[i]);
		snprintf(text, sizeof text, "'q\"?%zu é", i);
		assert_string_equal(sqldb_column_text(sel, 2), text);
		p = sqldb_column_blob(sel, 3, &n);
		assert_int_equal(n, i * 50);
		assert_memory_equal(p, blob, n);
		/* A ? inside quotes is no placeholder. */
		assert_string_equal(sqldb_column_text(sel, 4), "?");
		assert_false(sqldb_column_null(sel, 0));
	}
	assert_int_equal(sqldb_step(sel), SQLDB_ROW);
	for (i = 0; i < 4; i++)
		assert_true(sqldb_column_null(sel, (int)i));
	assert_null(sqldb_column_text(sel, 2));
	assert_int_equal(sqldb_column_int64(sel, 0), 0);
	(void)sqldb_column_blob(sel, 3, &n);
	assert_int_equal(n, 0);
	assert_int_equal(sqldb_step(sel), SQLDB_DONE);
	sqldb_finalize(sel);
	sqldb_close(db);
}

/* "?N" numbered, "?" in order, comments, reuse with new bindings. */
static void
t_placeholders(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s;
	int		 k;

	(void)state;
	s = prep(db, "SELECT CAST(?2 AS TEXT), CAST(?1 AS TEXT), "
	    "CAST(?2 AS TEXT) -- not ?3\n /* nor ? */ ;", 0);
	for (k = 0; k < 3; k++) {
		ok(db, sqldb_bind_text(s, 1, k == 1 ? "x" : "a"));
		ok(db, sqldb_bind_text(s, 2, "b"));
		assert_int_equal(sqldb_step(s), SQLDB_ROW);
		assert_string_equal(sqldb_column_text(s, 0), "b");
		assert_string_equal(sqldb_column_text(s, 1), k == 1 ? "x" :
		    "a");
		assert_string_equal(sqldb_column_text(s, 2), "b");
		assert_int_equal(sqldb_step(s), SQLDB_DONE);
		sqldb_reset(s);
	}
	sqldb_finalize(s);
	s = prep(db, "SELECT CAST(? AS BIGINT) + CAST(? AS BIGINT)", 0);
	ok(db, sqldb_bind_int64(s, 1, 40));
	ok(db, sqldb_bind_int64(s, 2, 2));
	assert_int_equal(sqldb_step(s), SQLDB_ROW);
	assert_int_equal(sqldb_column_int64(s, 0), 42);
	sqldb_finalize(s);
	/* A syntax error shows at prepare, an unknown table too. */
	assert_int_equal(sqldb_prepare(db, "SELEC 1", 0, &s), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_OTHER);
	assert_int_equal(sqldb_prepare(db, "SELECT * FROM nosuch", 0, &s), -1);
	/* Numbers out of range. */
	assert_int_equal(sqldb_prepare(db, "SELECT ?0", 0, &s), -1);
	assert_int_equal(sqldb_prepare(db, "SELECT ?99999999999", 0, &s), -1);
	s = prep(db, "SELECT CAST(? AS TEXT)", 0);
	assert_int_equal(sqldb_bind_text(s, 2, "x"), -1);
	sqldb_finalize(s);
	sqldb_close(db);
}

/* Unique, check, not null and foreign key: SQLDB_CONSTRAINT. */
static void
t_constraint(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_stmt *p, *c;

	(void)state;
	exec_ok(db, "CREATE TABLE p (k BIGINT PRIMARY KEY, "
	    "v BIGINT NOT NULL CHECK (v >= 0))");
	exec_ok(db, "CREATE TABLE c (k BIGINT NOT NULL REFERENCES p (k))");
	p = prep(db, "INSERT INTO p (k, v) VALUES (?, ?)", 0);
	c = prep(db, "INSERT INTO c (k) VALUES (?)", 0);
	ok(db, sqldb_bind_int64(p, 1, 1));
	ok(db, sqldb_bind_int64(p, 2, 5));
	assert_int_equal(sqldb_step(p), SQLDB_DONE);
	sqldb_reset(p);
	ok(db, sqldb_bind_int64(p, 1, 1));
	ok(db, sqldb_bind_int64(p, 2, 5));
	step_fails(p, db, SQLDB_CONSTRAINT);		/* unique */
	ok(db, sqldb_bind_int64(p, 1, 2));
	ok(db, sqldb_bind_int64(p, 2, -1));
	step_fails(p, db, SQLDB_CONSTRAINT);		/* check */
	ok(db, sqldb_bind_int64(p, 1, 2));
	ok(db, sqldb_bind_null(p, 2));
	step_fails(p, db, SQLDB_CONSTRAINT);		/* not null */
	ok(db, sqldb_bind_int64(c, 1, 9));
	step_fails(c, db, SQLDB_CONSTRAINT);		/* foreign key */
	ok(db, sqldb_bind_int64(c, 1, 1));
	assert_int_equal(sqldb_step(c), SQLDB_DONE);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM p"), 1);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM c"), 1);
	sqldb_finalize(p);
	sqldb_finalize(c);
	sqldb_close(db);
}

/* Commit keeps, rollback undoes, a failure inside rolls back whole. */
static void
t_txn(void **state)
{
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s;
	int		 k;

	(void)state;
	s = table_p(db);
	for (k = 0; k < 3; k++) {
		ok(db, sqldb_begin(db));
		assert_true(sqldb_in_transaction(db));
		assert_int_equal(sqldb_begin(db), -1);	/* no nesting */
		put_k(db, s, 10 + k);
		if (k == 2) {	/* a duplicate: the whole is undone */
			ok(db, sqldb_bind_int64(s, 1, 10 + k));
			step_fails(s, db, SQLDB_CONSTRAINT);
		}
		ok(db, k == 1 ? sqldb_commit(db) : sqldb_rollback(db));
		assert_false(sqldb_in_transaction(db));
	}
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM p"), 1);
	assert_int_equal(int1(db, "SELECT k FROM p"), 11);
	assert_int_equal(sqldb_commit(db), -1);	/* none open */
	ok(db, sqldb_rollback(db));		/* none: no failure */
	/* Changes of the last statement. */
	exec_ok(db, "INSERT INTO p (k) VALUES (20), (21), (22)");
	sqldb_finalize(s);
	s = prep(db, "UPDATE p SET k = k + 100 WHERE k >= ?", 0);
	ok(db, sqldb_bind_int64(s, 1, 20));
	assert_int_equal(sqldb_step(s), SQLDB_DONE);
	assert_int_equal(sqldb_changes(db), 3);
	sqldb_finalize(s);
	sqldb_close(db);
}

/* A row locked by another connection's transaction: SQLDB_BUSY after
 * the busy timeout; once it ends, the retry goes through. */
static void
t_busy(void **state)
{
	struct sqldb	*a = fresh(), *b;
	struct sqldb_stmt *sa, *sb;
	int		 k, r;

	(void)state;
	exec_ok(a, "CREATE TABLE p (k BIGINT PRIMARY KEY)");
	b = second();
	ok(b, sqldb_busy_timeout(b, 20));
	sa = prep(a, "INSERT INTO p (k) VALUES (1)", 0);
	sb = prep(b, "INSERT INTO p (k) VALUES (1)", 0);
	ok(a, sqldb_begin(a));
	assert_int_equal(sqldb_step(sa), SQLDB_DONE);
	sqldb_reset(sa);
	for (k = 0; k < 2; k++) {
		/* SQLite: BEGIN IMMEDIATE waits; PostgreSQL: the insert. */
		r = sqldb_begin(b);
		if (r == 0)
			r = sqldb_step(sb);
		sqldb_reset(sb);
		if (k == 0) {
			assert_int_equal(r, -1);
			if (sqldb_errclass(b) != SQLDB_BUSY)
				fail_msg("%s: %s", sqldb_err_names[
				    sqldb_errclass(b)], sqldb_errmsg(b));
			ok(b, sqldb_rollback(b));
			ok(a, sqldb_rollback(a));	/* a gives way */
		} else {
			assert_int_equal(r, SQLDB_DONE);
			ok(b, sqldb_commit(b));
		}
	}
	assert_int_equal(int1(a, "SELECT COUNT(*) FROM p"), 1);
	sqldb_finalize(sa);
	sqldb_finalize(sb);
	sqldb_close(b);
	sqldb_close(a);
}

/* From empty to the last; again (nothing); newer refused; a failing
 * migration leaves the ones before it committed and itself undone. */
static void
t_migrate(void **state)
{
	struct sqldb_migration bad[2];
	const struct sqldb_migration *l;
	struct sqldb	*db = fresh();
	char		 err[512];
	size_t		 n;
	int		 v;

	(void)state;
	l = list(&n);
	/* Every db/NNN migration has its db/pg/NNN twin. */
	assert_int_equal(sqldb_pg_nmigrations, store_nmigrations);
	assert_int_equal(n, store_nmigrations);
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, 0);
	if (sqldb_migrate(db, l, n, (int)n, err, sizeof err) == -1)
		fail_msg("%s", err);
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, (int)n);
	if (sqldb_migrate(db, l, n, (int)n, err, sizeof err) == -1)
		fail_msg("%s", err);
	assert_int_equal(int1(db, "SELECT seq FROM ratings_checkpoint"), 0);
	/* A database newer than the binary. */
	assert_int_equal(sqldb_migrate(db, l, n - 1, (int)n - 1, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "newer than"));
	sqldb_close(db);

	db = fresh();
	bad[0] = (struct sqldb_migration){ 1, "001-a.sql",
	    "CREATE TABLE a (x BIGINT)" };
	bad[1] = (struct sqldb_migration){ 2, "002-b.sql",
	    "CREATE TABLE b (x BIGINT); INSERT INTO nosuch VALUES (1)" };
	assert_int_equal(sqldb_migrate(db, bad, 2, 2, err, sizeof err), -1);
	assert_non_null(strstr(err, "002-b.sql"));
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, 1);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM a"), 0);
	assert_int_equal(sqldb_exec(db, "SELECT * FROM b"), -1);
	sqldb_close(db);
}

/* Runs sql with text parameters (NULL-terminated), expecting class e. */
static void
run_texts(struct sqldb *db, enum sqldb_err e, const char *sql, ...)
{
	struct sqldb_stmt *s = prep(db, sql, 0);
	const char	*t;
	va_list		 ap;
	int		 i = 1;

	va_start(ap, sql);
	while ((t = va_arg(ap, const char *)) != NULL)
		ok(db, sqldb_bind_text(s, i++, t));
	va_end(ap);
	if (e == SQLDB_OK)
		assert_int_equal(sqldb_step(s), SQLDB_DONE);
	else
		step_fails(s, db, e);
	sqldb_finalize(s);
}

/*
 * The migrated schemas behave alike with the store's rows: a game and a
 * run of moves read back through the view moves, one row per move; the
 * checks (JSON of a run, status, the unique rating_seq) refuse with
 * SQLDB_CONSTRAINT; tournaments and daemon_starts number their rows.
 */
static void
t_schema_rows(void **state)
{
	const struct sqldb_migration *l;
	struct sqldb	*db = fresh();
	struct sqldb_stmt *s;
	char		 err[512];
	size_t		 n;

	(void)state;
	l = list(&n);
	if (sqldb_migrate(db, l, n, (int)n, err, sizeof err) == -1)
		fail_msg("%s", err);
	exec_ok(db, "INSERT INTO games (id, family, game, player1, player2, "
	    "started_at, rated, status, rating_seq) VALUES (7, 'nim', 'nim 3 "
	    "4', 'alice', 'bob', '2026-11-22T23:00:00.000Z', 1, 'finished', "
	    "1)");
	run_texts(db, SQLDB_OK, "INSERT INTO move_runs (game_id, first_ply, "
	    "moves) VALUES (7, 3, ?)", "[[1, \"1:1\", \"nim 2 4\", 15, 0], "
	    "[2, \"2:2\", \"nim 2 2\", 9, 2, 350]]", NULL);
	s = prep(db, "SELECT ply, player, move, position, time_ms, mark, "
	    "delay_us FROM moves WHERE game_id = ? ORDER BY ply", 0);
	ok(db, sqldb_bind_int64(s, 1, 7));
	assert_int_equal(sqldb_step(s), SQLDB_ROW);
	assert_int_equal(sqldb_column_int64(s, 0), 3);
	assert_int_equal(sqldb_column_int64(s, 1), 1);
	assert_string_equal(sqldb_column_text(s, 2), "1:1");
	assert_string_equal(sqldb_column_text(s, 3), "nim 2 4");
	assert_int_equal(sqldb_column_int64(s, 4), 15);
	assert_string_equal(sqldb_column_text(s, 5), "kept-win");
	assert_true(sqldb_column_null(s, 6));
	assert_int_equal(sqldb_step(s), SQLDB_ROW);
	assert_int_equal(sqldb_column_int64(s, 0), 4);
	assert_string_equal(sqldb_column_text(s, 5), "no-win");
	assert_int_equal(sqldb_column_int64(s, 6), 350);
	assert_int_equal(sqldb_step(s), SQLDB_DONE);
	sqldb_finalize(s);
	run_texts(db, SQLDB_CONSTRAINT, "INSERT INTO move_runs (game_id, "
	    "first_ply, moves) VALUES (7, 5, ?)", "[[1, \"x\"", NULL);
	run_texts(db, SQLDB_CONSTRAINT, "UPDATE games SET status = ?",
	    "bogus", NULL);
	run_texts(db, SQLDB_CONSTRAINT, "INSERT INTO games (id, family, game, "
	    "player1, player2, started_at, rating_seq) VALUES (8, 'nim', "
	    "'nim 1', 'a', 'b', ?, 1)", "2026-11-22T23:00:00.000Z", NULL);
	s = prep(db, "INSERT INTO daemon_starts (started_at) VALUES (?)",
	    SQLDB_RETURNING_ID);
	for (n = 1; n <= 2; n++) {
		ok(db, sqldb_bind_text(s, 1, "2026-11-22T23:00:00.000Z"));
		assert_int_equal(sqldb_step(s), SQLDB_DONE);
		assert_int_equal(sqldb_last_id(db), (int64_t)n);
		sqldb_reset(s);
	}
	sqldb_finalize(s);
	s = prep(db, "INSERT INTO tournaments (name, format, game, base_ms, "
	    "inc_ms, games_per_pair, seed, players, created_at) VALUES "
	    "(?, 'roundrobin', 'nim 3', 1000, 0, 2, ?, 'a,b', 'now')",
	    SQLDB_RETURNING_ID);
	ok(db, sqldb_bind_text(s, 1, "cup"));
	ok(db, sqldb_bind_int64(s, 2, INT64_MIN));	/* a uint64_t seed */
	assert_int_equal(sqldb_step(s), SQLDB_DONE);
	assert_int_equal(sqldb_last_id(db), 1);
	sqldb_finalize(s);
	assert_true(int1(db, "SELECT seed FROM tournaments") == INT64_MIN);
	sqldb_close(db);
}

struct racer {
	pthread_barrier_t *go;
	int		 r;
	char		 err[512];
};

/* Opens its own connection and migrates, at the barrier's signal. */
static void *
racer(void *arg)
{
	struct racer	*rc = arg;
	struct sqldb	*db = second();
	const struct sqldb_migration *l;
	size_t		 n;

	l = list(&n);
	pthread_barrier_wait(rc->go);
	rc->r = sqldb_migrate(db, l, n, (int)n, rc->err, sizeof rc->err);
	sqldb_close(db);
	return (NULL);
}

/* Several daemons migrating one empty database at once (issue 15's
 * nodes starting together): each migration runs once, all succeed. */
static void
t_migrate_race(void **state)
{
	pthread_barrier_t go;
	pthread_t	 t[3];
	struct racer	 rc[3];
	struct sqldb	*db = fresh();
	int		 i, v;

	(void)state;
	pthread_barrier_init(&go, NULL, 3);
	for (i = 0; i < 3; i++) {
		rc[i].go = &go;
		assert_int_equal(pthread_create(&t[i], NULL, racer, &rc[i]), 0);
	}
	for (i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		if (rc[i].r != 0)
			fail_msg("racer %d: %s", i, rc[i].err);
	}
	pthread_barrier_destroy(&go);
	ok(db, sqldb_version(db, &v));
	assert_int_equal(v, (int)store_nmigrations);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM ratings_checkpoint"),
	    1);
	sqldb_close(db);
}

/* K inserts in one batch, piped: none visible before the commit, all
 * after; a failing one rolls the whole batch back. */
static void
batch(int pipeline)
{
	struct sqldb	*db = fresh(), *other;
	struct sqldb_stmt *s;
	const int	 K = 300;	/* over SQLDB_PG_PIPELINE_MAX */
	int		 k, round;
	char		 name[32];

	exec_ok(db, "CREATE TABLE p (k BIGINT PRIMARY KEY, s TEXT NOT NULL)");
	other = second();
	s = prep(db, "INSERT INTO p (k, s) VALUES (?, ?)", 0);
	for (round = 0; round < 2; round++) {
		ok(db, sqldb_batch_begin(db, pipeline));
		for (k = 0; k < K; k++) {
			snprintf(name, sizeof name, "row %d", k);
			/* Round 1 repeats key 0 half-way: all undone. */
			ok(db, sqldb_bind_int64(s, 1, round == 1 && k == K /
			    2 ? 0 : round * K + k));
			ok(db, sqldb_bind_text(s, 2, name));
			if (sqldb_step(s) == -1) {
				/* SQLite (and PostgreSQL unpiped) at once. */
				assert_int_equal(sqldb_errclass(db),
				    SQLDB_CONSTRAINT);
				assert_false(pipeline && backend == SQLDB_PG);
				sqldb_reset(s);
				ok(db, sqldb_rollback(db));
				break;
			}
			sqldb_reset(s);
		}
		if (backend == SQLDB_PG)
			assert_int_equal(int1(other, "SELECT COUNT(*) FROM p"),
			    round == 0 ? 0 : K);
		if (round == 0)
			ok(db, sqldb_batch_commit(db));
		else if (sqldb_in_transaction(db)) {
			assert_int_equal(sqldb_batch_commit(db), -1);
			assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
		}
		assert_false(sqldb_in_transaction(db));
		assert_int_equal(int1(other, "SELECT COUNT(*) FROM p"), K);
	}
	/* The connection and its statements still work. */
	ok(db, sqldb_bind_int64(s, 1, -1));
	ok(db, sqldb_bind_text(s, 2, "after"));
	assert_int_equal(sqldb_step(s), SQLDB_DONE);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM p"), K + 1);
	sqldb_finalize(s);
	sqldb_close(other);
	sqldb_close(db);
}

static void
t_batch(void **state)
{
	(void)state;
	batch(0);
}

static void
t_pipeline(void **state)
{
	(void)state;
	batch(1);
}

TP_MAIN("sqldb",
    BOTH(t_types),
    BOTH(t_placeholders),
    BOTH(t_constraint),
    BOTH(t_txn),
    BOTH(t_busy),
    BOTH(t_migrate),
    BOTH(t_schema_rows),
    BOTH(t_migrate_race),
    BOTH(t_batch),
    BOTH(t_pipeline))
