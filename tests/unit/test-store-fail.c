/*
 * test-store-fail.c: the store in bad states: read-only, full (with the
 * probe that finds room again), locked by another process, and garbage or
 * damaged files.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "testutil.h"
#include "testdb.h"

#include "lib/buf.h"
#include "store/store.h"

/* Read-only databases are refused at open. */
static void
test_readonly(void **state)
{
	struct fixture	*fx = *state;
	char		 uri[400];

	TDB_SQLITE_ONLY("file permissions and read-only files are SQLite's");
	store_close(open_ok(fx->path, NULL));
	snprintf(uri, sizeof uri, "file:%s?mode=ro", fx->path);
	open_fails(uri, 1000, "database is read-only");
	if (geteuid() != 0) {
		assert_int_equal(chmod(fx->path, 0444), 0);
		open_fails(fx->path, 1000, "database is read-only");
		chmod(fx->path, 0644);
	} else
		print_message("readonly: running as root, chmod 0444 does not "
		    "stop writes: tested with mode=ro only\n");
	/* A directory that does not exist. */
	snprintf(uri, sizeof uri, "%s/no/such/dir/x.db", fx->dir);
	open_fails(uri, 1000, "cannot open");
}

/* Returns n sevens, a text too big for a nearly full database. */
static char *
big_text(size_t n)
{
	char	*big = malloc(n + 1);

	assert_non_null(big);
	memset(big, '7', n);
	big[n] = '\0';
	return (big);
}

/* A full disk's test: its store, a game, and a move too big to write. */
struct full {
	const char	*path;		/* the fixture's database */
	struct store	*st;
	struct store_game g;
	struct store_move m;		/* its position is big */
	char		*big;
	size_t		 nbig;
};

/* Opens the store of the fixture in state for a full-disk test. */
static void
full_open(void **state, struct full *f)
{
	static const struct store_move m = { 1, 1, "1=0", NULL, 1,
	    STORE_KEPT_WIN, 0, 0 };
	struct fixture	*fx = *state;

	f->path = fx->path;
	f->nbig = 256 * 1024;
	f->big = big_text(f->nbig);
	f->st = open_ok(f->path, NULL);
	f->g = engine_game("nim 9");
	f->m = m;
	f->m.position = f->big;
}

/* Writes a game of the big move, ended: its id. */
static int64_t
full_game(struct full *f, struct done *d)
{
	int64_t		 id;

	id = store_game_begin(f->st, &f->g);
	store_move(f->st, id, &f->m);
	store_game_end(f->st, id, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, d);
	return (id);
}

/* A full disk: failed callbacks, then back to work once there is room. */
static void
test_full(void **state)
{
	struct full	 f;
	struct store_counters c;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 }, d3 = { 0, 0 };
	struct rec	 r;
	struct store	*st;
	int64_t		 b;

	TDB_SQLITE_ONLY("the size cap (max_page_count) and a full disk are SQLite's; PostgreSQL's failures are its connection's");
	full_open(state, &f);
	st = f.st;
	/* No room to grow: the cap drops to the current size. */
	store_set_max_pages(st, 1);
	full_game(&f, &d1);
	store_table_put(st, "graph", "g", NULL, f.big, f.nbig);
	store_flush(st);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);
	store_counters(st, &c);
	assert_true(c.failed > 0);

	/* Still full: a second game fails the same way, nothing crashes. */
	b = full_game(&f, &d2);
	store_flush(st);
	assert_int_equal(d2.ok, 0);

	/* Room again. */
	store_set_max_pages(st, 0);
	script_write(st, &scripts[0], STORE_FINISHED, &d3);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d3.called, 1);
	assert_int_equal(d3.ok, 1);
	rec_read(st, b + 1, &r);
	script_check(&scripts[0], &r, "finished");
	store_close(st);
	assert_int_equal(raw_int(f.path, "SELECT COUNT(*) FROM moves WHERE "
	    "length(position) > 1000"), 0);
	integrity_ok(f.path);
	free(f.big);
}

/*
 * A full disk (issue 11): while the last write failed store_failing says
 * so and queues a probe; the log finds out by itself that it can write
 * again, and a game whose end was lost is marked abandoned, log-failed.
 */
static void
test_full_probe(void **state)
{
	struct full	 f;
	struct done	 d1 = { 0, 0 };
	struct store	*st;
	char		 sql[128];
	int64_t		 b;
	long long	 until;

	TDB_SQLITE_ONLY("the size cap (max_page_count) is SQLite's");
	full_open(state, &f);
	st = f.st;
	assert_int_equal(store_failing(st), 0);
	b = store_game_begin(st, &f.g);
	store_flush(st);			/* its row is on disk */
	store_set_max_pages(st, 1);
	store_move(st, b, &f.m);
	store_game_end(st, b, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, &d1);
	store_flush(st);
	assert_int_equal(d1.ok, 0);
	assert_int_equal(store_failing(st), 1);
	store_set_max_pages(st, 0);
	/*
	 * The probe (at most one a second) finds the room by itself: a poll
	 * with a 30 s deadline (its writer thread runs late on a loaded
	 * machine; 300 polls of 10 ms were 3 s).
	 */
	until = now_ms() + 30000;
	while (store_failing(st) && now_ms() < until)
		usleep(10000);
	assert_int_equal(store_failing(st), 0);
	store_flush(st);
	store_close(st);
	snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM games WHERE id = %lld"
	    " AND status = 'abandoned' AND reason = 'log-failed'",
	    (long long)b);
	assert_int_equal(raw_int(f.path, sql), 1);
	free(f.big);
}

/* A database locked by another process: clear errors, then recovery. */
static void
test_locked(void **state)
{
	struct fixture	*fx = *state;
	struct store_config cf;
	struct store	*st;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 };
	sqlite3		*db;
	long		 t0, dt;

	TDB_SQLITE_ONLY("a file locked by another process is SQLite's");
	/* A new file held exclusively: open waits busy_ms, then fails. */
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	raw_exec(db, "BEGIN EXCLUSIVE");
	t0 = now_ms();
	open_fails(fx->path, 200, "database is locked by another process "
	    "(waited 200 ms)");
	dt = now_ms() - t0;
	assert_true(dt >= 150 && dt < 3000);
	raw_exec(db, "ROLLBACK");
	sqlite3_close(db);

	/* An existing WAL database with a writer in it. */
	store_close(open_ok(fx->path, NULL));
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	raw_exec(db, "BEGIN IMMEDIATE");
	open_fails(fx->path, 200, "database is locked");
	raw_exec(db, "ROLLBACK");

	/* Locked while running: the batch fails after busy_ms, then works. */
	store_config_default(&cf);
	cf.busy_ms = 200;
	st = open_ok(fx->path, &cf);
	raw_exec(db, "BEGIN IMMEDIATE");
	script_write(st, &scripts[1], STORE_FINISHED, &d1);
	assert_int_equal(store_flush(st), -1);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);
	raw_exec(db, "COMMIT");
	script_write(st, &scripts[1], STORE_FINISHED, &d2);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d2.ok, 1);
	store_close(st);
	sqlite3_close(db);
}

/* Garbage and damaged files are refused with a clear message. */
static void
test_corrupt(void **state)
{
	struct fixture	*fx = *state;
	char		 junk[8192];
	size_t		 i;
	int		 fd;

	TDB_SQLITE_ONLY("a damaged database file is SQLite's");
	for (i = 0; i < sizeof junk; i++)
		junk[i] = (char)(i * 31 + 7);
	fd = open(fx->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd != -1);
	assert_int_equal(write(fd, junk, sizeof junk), sizeof junk);
	close(fd);
	open_fails(fx->path, 1000, "file is not a database");
	tdb_reset(fx);

	/* A valid header over a damaged schema page. */
	store_close(open_ok(fx->path, NULL));
	fd = open(fx->path, O_WRONLY);
	assert_true(fd != -1);
	assert_int_equal(pwrite(fd, junk, 1000, 100), 1000);
	close(fd);
	open_fails(fx->path, 1000, "corrupt");
}

TDB_STORE_MAIN(
    cmocka_unit_test(test_readonly),
    cmocka_unit_test(test_full),
    cmocka_unit_test(test_locked),
    cmocka_unit_test(test_full_probe),
    cmocka_unit_test(test_corrupt))
