/*
 * test-store-migrate.c: the store's migrations: from every older version,
 * the mechanism on a synthetic list (order, atomicity, errors), versions 1,
 * 3, 4 and 5 with data, and the refusal of a database newer than the
 * binary.
 */
#include <sys/types.h>

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
#include "glickoref.h"
#include "store/store.h"

/* Migrating from each older version, including empty, to the newest. */
static void
test_migrate_each(void **state)
{
	struct fixture	*fx = *state;
	char		 err[512];
	int		 v;

	for (v = 0; v < (int)store_nmigrations; v++) {
		tdb_reset(fx);
		assert_int_equal(store_migrate_file(fx->path, store_migrations,
		    store_nmigrations, v, err, sizeof err), 0);
		assert_int_equal(tdb_version(fx->path), v);
		roundtrip(fx->path);
		assert_int_equal(tdb_version(fx->path),
		    (int64_t)store_nmigrations);
	}
	tdb_reset(fx);
}

/* The mechanism with more files than ship: order, atomicity, errors. */
static void
test_migrate_synthetic(void **state)
{
	struct fixture	*fx = *state;
	struct sqldb_migration list[32];
	size_t		 n = store_nmigrations, i;
	char		 err[512];
	int		 v;

	TDB_SQLITE_ONLY("the synthetic migrations are SQLite's SQL, and"
	    " PostgreSQL runs each in a transaction of its own (sqldb_migrate,"
	    " tests/unit/test-sqldb.c)");
	assert_true(n + 2 <= sizeof list / sizeof list[0]);
	for (i = 0; i < n; i++)
		list[i] = store_migrations[i];
	list[n].version = (int)n + 1;
	list[n].name = "900-extra.sql";
	list[n].sql = "CREATE TABLE extra (a INTEGER);\n"
	    "INSERT INTO extra VALUES (1);";
	list[n + 1].version = (int)n + 2;
	list[n + 1].name = "901-extra.sql";
	list[n + 1].sql = "ALTER TABLE extra ADD COLUMN b TEXT;\n"
	    "UPDATE extra SET b = 'x';";

	/* From every version to the last, step by step or at once. */
	for (v = 0; v <= (int)n + 1; v++) {
		tdb_reset(fx);
		assert_int_equal(store_migrate_file(fx->path, list, n + 2, v,
		    err, sizeof err), 0);
		assert_int_equal(tdb_version(fx->path), v);
		assert_int_equal(store_migrate_file(fx->path, list, n + 2,
		    (int)n + 2, err, sizeof err), 0);
		assert_int_equal(tdb_version(fx->path),
		    (int64_t)n + 2);
		assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM extra "
		    "WHERE a = 1 AND b = 'x'"), 1);
	}

	/* A failing migration leaves nothing of itself behind. */
	tdb_reset(fx);
	list[n + 1].sql = "CREATE TABLE half (a);\nTHIS IS NOT SQL;";
	assert_int_equal(store_migrate_file(fx->path, list, n + 2, (int)n,
	    err, sizeof err), 0);
	assert_int_equal(store_migrate_file(fx->path, list, n + 2,
	    (int)n + 2, err, sizeof err), -1);
	assert_non_null(strstr(err, "migration 901-extra.sql failed"));
	assert_int_equal(tdb_version(fx->path),
	    (int64_t)n);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM "
	    "sqlite_schema WHERE name IN ('extra', 'half')"), 0);

	/* A list out of order is refused. */
	list[n].version = (int)n + 5;
	assert_int_equal(store_migrate_file(fx->path, list, n + 1, (int)n + 1,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "out of order"));
	tdb_reset(fx);
}

/* An empty database at version v of the migrations, with sql run on it. */
static void
at_version(struct fixture *fx, int v, const char *sql)
{
	char		 err[512];

	tdb_reset(fx);
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, v, err, sizeof err), 0);
	assert_int_equal(tdb_version(fx->path), v);
	raw_file_exec(fx->path, sql);
}

/* Opens the store on it, which migrates it to the newest version. */
static struct store *
open_latest(struct fixture *fx)
{
	struct store	*st;

	st = open_ok(fx->path, NULL);
	assert_int_equal(tdb_version(fx->path),
	    (int64_t)store_nmigrations);
	return (st);
}

/*
 * Version 1 with data, migrated to the newest: every move is kept (the
 * moves view gives back the version-1 rows), record and stats agree.
 */
static void
test_migrate_v1_data(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct rec	 r;
	struct buf	 b;

	at_version(fx, 1, "INSERT INTO games (id, family, game, player1, player2,"
	    " started_at, ended_at, result, reason, status) VALUES"
	    " (1, 'nim', 'nim 3 4', 'conn:1', 'engine',"
	    " '2025-11-21T05:38:00.123Z', '2025-11-21T05:38:01.000Z',"
	    " 'second', 'no-legal-move', 'finished'),"
	    " (2, 'sum', 'sum nim 3 + nim 4', 'engine', 'conn:2',"
	    " '2025-11-21T05:39:00.000Z', NULL, NULL, NULL, 'live');"
	    "INSERT INTO moves (game_id, ply, player, move, position, time_ms,"
	    " mark) VALUES"
	    " (1, 1, 1, '1=1', 'nim 1 4', 12, 'threw-win'),"
	    " (1, 2, 2, '2=1', 'nim 1 1', 0, 'kept-win'),"
	    " (1, 3, 1, '1=0', 'nim 0 1', 7, 'no-win'),"
	    " (1, 4, 2, '2=0', 'nim 0 0', 1, 'kept-win'),"
	    " (2, 1, 1, '1.1=0 2.1=2', 'say \"hi\" \\ there', 3,"
	    " 'kept-win');");

	st = open_latest(fx);		/* migrates, abandons game 2 */
	rec_read(st, 1, &r);
	assert_int_equal(r.nmoves, 4);
	assert_string_equal(r.mv[0].move, "1=1");
	assert_string_equal(r.mv[0].mark, "threw-win");
	assert_int_equal(r.mv[0].time_ms, 12);
	assert_int_equal(r.mv[3].ply, 4);
	assert_int_equal(r.mv[3].player, 2);
	assert_string_equal(r.status, "finished");
	rec_read(st, 2, &r);
	assert_int_equal(r.nmoves, 1);
	assert_string_equal(r.mv[0].move, "1.1=0 2.1=2");
	assert_string_equal(r.status, "abandoned");
	buf_init(&b);
	assert_int_equal(text_stats(st, &b), 0);
	assert_string_equal(buf_str(&b),
	    "games 2\n"
	    "moves 5\n"
	    "player conn:1 moves 2 optimal 0.0% kept-win 0 threw-win 1\n"
	    "player engine moves 3 optimal 100.0% kept-win 3 threw-win 0\n");
	buf_free(&b);
	store_close(st);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves"), 5);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " game_id = 2 AND ply = 1 AND player = 1 AND time_ms = 3 AND"
	    " mark = 'kept-win' AND position = 'say \"hi\" \\ there'"), 1);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " game_id = 1 AND ply = 3 AND mark = 'no-win' AND"
	    " position = 'nim 0 1'"), 1);
	integrity_ok(fx->path);
	tdb_reset(fx);
}

/*
 * Version 3 with data, migrated to 4: old moves keep their columns and get
 * no delay ("-" in the record), the new tables and columns exist, and new
 * games carry delays, refused moves and the end's detail.
 */
static void
test_migrate_v3_data(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g;
	struct store_move m = { 1, 1, "1=1", "nim 1", 55, STORE_THREW_WIN,
			    1, 1234 };
	struct store_refused rf1 = { 1, 1, "1=\"9\"\\",
			    "pile 1: no such value", 40, 1, 77 };
	struct store_refused rf2 = { 2, 2, "x", "bad move", 3, 0, 0 };
	struct buf	 b;
	int64_t		 id;

	at_version(fx, 3, "INSERT INTO accounts (name, hash, created_at) VALUES"
	    " ('alice', '$y$x', '2025-11-21T05:38:00.000Z');"
	    "INSERT INTO games (id, family, game, player1, player2,"
	    " started_at, ended_at, result, reason, status) VALUES"
	    " (1, 'nim', 'nim 3 4', 'conn:1', 'engine',"
	    " '2025-11-21T05:38:00.123Z', '2025-11-21T05:38:01.000Z',"
	    " 'second', 'no-legal-move', 'finished');"
	    "INSERT INTO move_runs (game_id, first_ply, moves) VALUES"
	    " (1, 1, '[[1,\"1=1\",\"nim 1 4\",12,1],"
	    "[2,\"2=1\",\"nim 1 1\",0,0]]');");

	st = open_latest(fx);
	buf_init(&b);
	assert_int_equal(text_record(st, 1, &b), 1);
	assert_non_null(strstr(buf_str(&b),
	    "move 1 1 1=1 threw-win 12 - 12000\nmove 2 2 2=1 kept-win 0 - 0\n"));
	assert_non_null(strstr(buf_str(&b),
	    "result second no-legal-move\nstatus finished\n"));

	/* A new game: delays, a refused move, a detail. */
	g = nim_game("nim 2", "anon:3:7", "alice");
	id = store_game_begin(st, &g);
	assert_true(id > 1);
	store_refused(st, id, &rf1);
	store_move(st, id, &m);
	store_refused(st, id, &rf2);
	store_game_end_detail(st, id, STORE_RESULT_FIRST, "illegal-move",
	    "\"x\" bad\nmove", STORE_FINISHED, NULL, NULL);
	assert_int_equal(store_flush(st), 0);
	buf_reset(&b);
	assert_int_equal(text_record(st, id, &b), 1);
	assert_non_null(strstr(buf_str(&b),
	    "refused 1 1 40 77 \"1=\\\"9\\\"\\\\\" pile 1: no such value\n"
	    "move 1 1 1=1 threw-win 55 1234 55000\n"
	    "refused 2 2 3 - \"x\" bad move\n"));
	assert_non_null(strstr(buf_str(&b),
	    "result first illegal-move \"x\" bad move\nstatus finished\n"));
	buf_free(&b);
	store_close(st);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " delay_us IS NULL AND game_id = 1"), 2);
	assert_int_equal(raw_int(fx->path, "SELECT delay_us FROM moves WHERE"
	    " game_id = 2 AND ply = 1"), 1234);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM refused_moves"
	    " WHERE game_id = 2"), 2);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM accounts"
	    " WHERE name = 'alice' AND disabled IS NULL"), 1);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM"
	    " daemon_starts"), 0);
	integrity_ok(fx->path);
	tdb_reset(fx);
}

/*
 * A version with rated games (sql), migrated to the newest: the order
 * the store gives them (id:rating_seq), the games as glickoref.h's
 * replay rates them in that order, the checkpoint (seq * 10 + game_id),
 * and whose rating the next start reads back from it.
 */
struct rated {
	int		 version;
	const char	*sql;
	const char	*seq;
	struct {
		const char	*p1, *p2;
		int		 result;
	}		 game[3];
	int64_t		 checkpoint;
	const char	*reopen;
};

/*
 * The first start replays the rated games in m's order with Glicko-2 and
 * writes the checkpoint, with RD and volatility; the next start reads it
 * (the same doubles) and replays nothing.
 */
static void
migrate_rated(struct fixture *fx, const struct rated *m)
{
	struct store	*st;
	struct glickoref *f = xcalloc(1, sizeof *f);
	struct glicko2_rating before, r;
	unsigned long	 n;
	char		 seq[512];
	size_t		 i;

	at_version(fx, m->version, m->sql);
	st = open_latest(fx);
	raw_text(fx->path, tdb_pg() != NULL ? "SELECT string_agg(id || ':' ||"
	    " rating_seq, ',' ORDER BY rating_seq) FROM games" :
	    "SELECT group_concat(id || ':' || rating_seq) FROM "
	    "(SELECT id, rating_seq FROM games WHERE rating_seq IS NOT NULL "
	    "ORDER BY rating_seq)", seq, sizeof seq);
	assert_string_equal(seq, m->seq);
	assert_int_equal(raw_int(fx->path, "SELECT seq * 10 + game_id FROM "
	    "ratings_checkpoint"), m->checkpoint);
	for (i = 0; i < 3; i++)
		glickoref_rate(f, m->game[i].p1, m->game[i].p2,
		    m->game[i].result);
	for (i = 0; i < f->n; i++) {
		assert_int_equal(store_rating(st, f->name[i], &r, &n), 1);
		glickoref_same(f, i, &r, n);
	}
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM ratings "
	    "WHERE rd < 350 AND volatility > 0"), 3);
	assert_int_equal(store_rating(st, m->reopen, &before, &n), 1);
	store_close(st);
	st = open_ok(fx->path, NULL);
	assert_int_equal(store_rating(st, m->reopen, &r, &n), 1);
	assert_true(r.r == before.r && r.rd == before.rd &&
	    r.sigma == before.sigma);
	store_close(st);
	free(f);
	integrity_ok(fx->path);
	tdb_reset(fx);
}

/*
 * Version 4 with rated games (migration 005): the games that counted get
 * their rating_seq in the order the old replay took them (ended_at, then
 * id): 2 and 3 tie (id breaks it), 6 between, 1 last.
 */
static void
test_migrate_v4_data(void **state)
{
	static const struct rated m = { 4,
	    "INSERT INTO games (id, family, game, player1, player2,"
	    " started_at, ended_at, result, reason, status, rated) VALUES"
	    " (1, 'nim', 'nim 1', 'alice', 'bob', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:09.000Z', 'first', 'x', 'finished', 1),"
	    " (2, 'nim', 'nim 1', 'bob', 'carol', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:05.000Z', 'second', 'x', 'finished', 1),"
	    " (3, 'nim', 'nim 1', 'alice', 'carol', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:05.000Z', 'first', 'x', 'finished', 1),"
	    " (4, 'nim', 'nim 1', 'alice', 'bob', '2025-01-01T00:00:00.000Z',"
	    " NULL, NULL, 'interrupted', 'abandoned', 1),"
	    " (5, 'nim', 'nim 1', 'alice', 'bob', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:06.000Z', 'first', 'x', 'finished', 0),"
	    " (6, 'nim', 'nim 1', 'carol', 'alice', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:07.000Z', NULL, 'aborted', 'finished', 1)",
	    "2:1,3:2,1:3",
	    { { "bob", "carol", 2 }, { "alice", "carol", 1 },
	    { "alice", "bob", 1 } }, 31, "carol" };

	migrate_rated(*state, &m);
}

/*
 * Version 5 with rated games and an Elo checkpoint (migration 006): the
 * Elo rows go, and the replay takes the games in rating_seq order (3, 1,
 * 2), not in ended_at's (1, 2, 3).
 */
static void
test_migrate_v5_data(void **state)
{
	static const struct rated m = { 5,
	    "INSERT INTO games (id, family, game, player1, player2,"
	    " started_at, ended_at, result, reason, status, rated, rating_seq)"
	    " VALUES"
	    " (1, 'nim', 'nim 1', 'alice', 'bob', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:01.000Z', 'first', 'x', 'finished', 1, 2),"
	    " (2, 'nim', 'nim 1', 'bob', 'carol', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:02.000Z', 'first', 'x', 'finished', 1, 3),"
	    " (3, 'nim', 'nim 1', 'carol', 'alice', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:03.000Z', 'first', 'x', 'finished', 1, 1),"
	    " (4, 'nim', 'nim 1', 'alice', 'bob', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:04.000Z', 'second', 'x', 'finished', 0, NULL);"
	    "INSERT INTO ratings (name, rating, games) VALUES"
	    " ('alice', 1500.0, 2), ('bob', 1516.0, 2), ('carol', 1484.0, 2);"
	    "UPDATE ratings_checkpoint SET seq = 3, game_id = 2",
	    "3:1,1:2,2:3",
	    { { "carol", "alice", 1 }, { "alice", "bob", 1 },
	    { "bob", "carol", 1 } }, 32, "alice" };

	migrate_rated(*state, &m);
}

/*
 * Version 7 with data, migrated to 8 (db/008-portable-store.sql and its
 * PostgreSQL twin): the table cache gets its order of storing (the old
 * rowid order), so the next store evicts the oldest; game ids go on after
 * the last one; the index on games(started_at) exists.
 */
static void
test_migrate_v7_data(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 1", "a", "b", 0, NULL, 0, 0 };
	char		 t[64];
	int64_t		 id;

	at_version(fx, 7, "INSERT INTO games (id, family, game, player1,"
	    " player2, started_at, status) VALUES"
	    " (41, 'nim', 'nim 1', 'a', 'b', '2026-01-01T00:00:00.000Z',"
	    " 'finished');"
	    "INSERT INTO tables (kind, key, created_at, meta) VALUES"
	    " ('graph', 'k1', '2026-01-01T00:00:00.000Z', 'm1'),"
	    " ('graph', 'k2', '2026-01-01T00:00:00.000Z', 'm2'),"
	    " ('graph', 'k3', '2026-01-01T00:00:00.000Z', 'm3')");
	if (tdb_pg() == NULL)	/* SQLite: k2 stored last (a new rowid) */
		raw_file_exec(fx->path, "INSERT OR REPLACE INTO tables (kind,"
		    " key, created_at, meta) VALUES ('graph', 'k2',"
		    " '2026-01-01T00:00:00.000Z', 'm2')");
	st = open_latest(fx);
	if (tdb_pg() == NULL) {
		raw_text(fx->path, "SELECT group_concat(key, ' ') FROM (SELECT"
		    " key FROM tables ORDER BY seq)", t, sizeof t);
		assert_string_equal(t, "k1 k3 k2");
		assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM"
		    " sqlite_schema WHERE name = 'games_started_at'"), 1);
	} else
		assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM"
		    " pg_indexes WHERE indexname = 'games_started_at'"), 1);
	/* Three rows at most: the next store evicts the oldest. */
	store_set_table_limits(st, 3, 0);
	store_table_put(st, "graph", "k4", "m4", NULL, 0);
	assert_int_equal(store_flush(st), 0);
	raw_text(fx->path, tdb_pg() == NULL ? "SELECT group_concat(key, ' ')"
	    " FROM (SELECT key FROM tables ORDER BY seq)" :
	    "SELECT string_agg(key, ' ' ORDER BY seq) FROM tables", t,
	    sizeof t);
	assert_string_equal(t, tdb_pg() == NULL ? "k3 k2 k4" : "k2 k3 k4");
	id = store_game_begin(st, &g);
	assert_true(id > 41);
	if (tdb_pg() == NULL)
		assert_int_equal(id, 42);
	store_close(st);
	integrity_ok(fx->path);
	tdb_reset(fx);
}

/* A database newer than the binary is refused with a clear message. */
static void
test_newer(void **state)
{
	struct fixture	*fx = *state;
	char		 sql[64], want[128];

	store_close(open_ok(fx->path, NULL));
	snprintf(sql, sizeof sql, tdb_pg() != NULL ? "UPDATE schema_version"
	    " SET version = %zu" : "PRAGMA user_version = %zu",
	    store_nmigrations + 1);
	raw_file_exec(fx->path, sql);
	snprintf(want, sizeof want, "database version %zu is newer than this "
	    "grundyd (%zu): upgrade grundyd", store_nmigrations + 1,
	    store_nmigrations);
	open_fails(fx->path, 1000, want);
	/* Nothing was changed. */
	assert_int_equal(tdb_version(fx->path),
	    (int64_t)store_nmigrations + 1);
	tdb_reset(fx);
}

TDB_STORE_MAIN(
    cmocka_unit_test(test_migrate_each),
    cmocka_unit_test(test_migrate_synthetic),
    cmocka_unit_test(test_migrate_v1_data),
    cmocka_unit_test(test_migrate_v3_data),
    cmocka_unit_test(test_migrate_v4_data),
    cmocka_unit_test(test_migrate_v5_data),
    cmocka_unit_test(test_migrate_v7_data),
    cmocka_unit_test(test_newer))
