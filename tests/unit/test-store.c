/*
 * test-store.c: the store's reads and texts: the time formats, every
 * field of a record, a history and the stats as data and as protocol
 * text, round trips on memory and file databases, WAL, sanitized names,
 * and the tables.  The migrations, the writer and the bad states are in
 * test-store-migrate.c, test-store-writer.c and test-store-fail.c.
 */
#include <sys/types.h>

#include <time.h>
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
#include "lib/clock.h"
#include "cmd/cmd-history.h"
#include "lib/log.h"
#include "store/store.h"

/* Times: the log's text form round-trips; anything else is refused. */
static void
test_times(void **state)
{
	static const char *const bad[] = {
		"2025-11-21T05:38:00.123", "2025-11-21 05:38:00.123Z",
		"2025-02-30T05:38:00.123Z", "2025-11-21T24:00:00.000Z",
		"2025-11-21T05:38:00.123Zx", "+025-11-21T05:38:00.123Z", "",
		NULL
	};
	char		 t[STORE_TIME_LEN];
	size_t		 i;

	(void)state;
	assert_int_equal(store_time_parse("1970-01-01T00:00:00.000Z"), 0);
	assert_int_equal(store_time_parse("2025-11-21T05:38:00.123Z"),
	    INT64_C(1763703480123));
	assert_int_equal(store_time_parse("1969-12-31T23:59:59.999Z"), -1);
	store_time_text(INT64_C(1763703480123), t, sizeof t);
	assert_string_equal(t, "2025-11-21T05:38:00.123Z");
	store_time_text(-1, t, sizeof t);
	assert_string_equal(t, "1969-12-31T23:59:59.999Z");
	for (i = 0; bad[i] != NULL; i++)
		assert_true(store_time_parse(bad[i]) == STORE_TIME_NONE);
	assert_true(store_time_parse(NULL) == STORE_TIME_NONE);
	store_now(t, sizeof t);
	assert_true(store_time_parse(t) != STORE_TIME_NONE);
}

/* The text of ms as log.c wrote it before clock_time_text: strftime. */
static void
time_text_strftime(int64_t ms, char *out, size_t len)
{
	struct tm	 tm;
	time_t		 sec = (time_t)(ms / 1000);
	char		 when[32];

	assert_non_null(gmtime_r(&sec, &tm));
	assert_true(strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm) > 0);
	snprintf(out, len, "%s.%03dZ", when, (int)(ms % 1000));
}

/*
 * The one formatter of times (clock.c), used by the store and the log,
 * gives the bytes strftime gives, for years 1970..9999: the corners
 * (leap days, centuries, the last millisecond) and 100,000 times drawn
 * by a fixed generator.
 */
static void
test_time_text(void **state)
{
	static const int64_t corners[] = {
		0, 999, 86399999, INT64_C(951782400000), /* 2000-02-29 */
		INT64_C(4107542400000),			/* 2100-03-01 */
		INT64_C(946684799999),			/* 1999-12-31 */
		INT64_C(1709164800123),			/* 2024-02-29 */
		INT64_C(253402300799999),		/* 9999-12-31 */
	};
	char		 t[CLOCK_TIME_LEN], want[64];
	uint64_t	 x = 88172645463325252ULL;
	int64_t		 ms;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof corners / sizeof corners[0]; i++) {
		clock_time_text(corners[i], t, sizeof t);
		time_text_strftime(corners[i], want, sizeof want);
		assert_string_equal(t, want);
	}
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ms = (int64_t)(x % UINT64_C(253402300800000));
		clock_time_text(ms, t, sizeof t);
		time_text_strftime(ms, want, sizeof want);
		assert_string_equal(t, want);
		store_time_text(ms, t, sizeof t);
		assert_string_equal(t, want);
	}
}

/*
 * A log line begins with the time now in that form, as the store's
 * store_now gives it: "ts=2025-11-21T05:38:00.123Z level=info ".
 */
static void
test_log_time(void **state)
{
	char		 path[] = "/tmp/grundy-test-log.XXXXXX", line[256];
	char		 t[STORE_TIME_LEN];
	int64_t		 before, after, at;
	FILE		*f;
	int		 fd, saved;

	(void)state;
	assert_true((fd = mkstemp(path)) != -1);
	unlink(path);
	fflush(stderr);
	assert_true((saved = dup(STDERR_FILENO)) != -1);
	assert_true(dup2(fd, STDERR_FILENO) != -1);
	store_now(t, sizeof t);
	before = store_time_parse(t);
	log_info("test=log-time");
	store_now(t, sizeof t);
	after = store_time_parse(t);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) != -1);
	close(saved);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(f = fdopen(fd, "r"));
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_int_equal(strlen(line), strlen("ts=") + STORE_TIME_LEN - 1 +
	    strlen(" level=info test=log-time\n"));
	assert_memory_equal(line, "ts=", 3);
	assert_string_equal(line + 3 + STORE_TIME_LEN - 1,
	    " level=info test=log-time\n");
	line[3 + STORE_TIME_LEN - 1] = '\0';
	at = store_time_parse(line + 3);
	assert_true(at != STORE_TIME_NONE);
	assert_true(before <= at && at <= after);
}

/* Writes the games test_read_data reads: returns the finished one's id. */
static int64_t
read_data_write(struct store *st)
{
	struct store_game g;
	struct store_move m1 = { 1, 1, "1=1", "nim 1 4", 55, STORE_THREW_WIN,
			    1, 1234 };
	struct store_move m2 = { 2, 2, "2=4", "nim 1 0", 7, STORE_NO_WIN, 0,
			    0 };
	struct store_refused rf = { 2, 2, "2=9", "pile 2: no such value", 40,
			    1, 77 };
	int64_t		 id, id2;

	g = nim_game("nim 2 4", "alice", "bob");
	g.rated = 1;
	g.tc = "60000+500";
	id = store_game_begin(st, &g);
	store_move(st, id, &m1);
	store_refused(st, id, &rf);
	store_move(st, id, &m2);
	store_game_end_detail(st, id, STORE_RESULT_SECOND, "illegal-move",
	    "a detail", STORE_FINISHED, NULL, NULL);
	g.rated = 0;
	g.tc = NULL;
	g.player1 = "conn:9";
	id2 = store_game_begin(st, &g);
	assert_int_equal(id2, id + 1);
	assert_int_equal(store_flush(st), 0);
	return (id);
}

/* Checks every field of the finished game's record, written since before. */
static void
read_data_record(struct store *st, int64_t id, int64_t before)
{
	struct store_record r;

	assert_int_equal(store_record(st, id, &r), 1);
	assert_int_equal(r.game.id, id);
	assert_string_equal(r.game.family, "nim");
	assert_string_equal(r.game.game, "nim 2 4");
	assert_string_equal(r.game.player1, "alice");
	assert_string_equal(r.game.player2, "bob");
	assert_true(r.game.started_ms >= before);
	assert_true(r.game.ended_ms >= r.game.started_ms);
	assert_int_equal(r.game.status, STORE_FINISHED);
	assert_int_equal(r.game.result, STORE_RESULT_SECOND);
	assert_string_equal(r.game.reason, "illegal-move");
	assert_string_equal(r.game.detail, "a detail");
	assert_int_equal(r.game.rated, 1);
	assert_int_equal(r.game.has_tc, 1);
	assert_int_equal(r.game.tc_base_ms, 60000);
	assert_int_equal(r.game.tc_inc_ms, 500);
	assert_int_equal(r.game.tournament, 0);
	assert_int_equal(r.nmoves, 2);
	assert_int_equal(r.moves[0].ply, 1);
	assert_int_equal(r.moves[0].player, 1);
	assert_string_equal(r.moves[0].move, "1=1");
	assert_string_equal(r.moves[0].position, "nim 1 4");
	assert_int_equal(r.moves[0].mark, STORE_THREW_WIN);
	assert_int_equal(r.moves[0].time_ms, 55);
	assert_int_equal(r.moves[0].has_delay, 1);
	assert_int_equal(r.moves[0].delay_us, 1234);
	assert_int_equal(r.moves[1].mark, STORE_NO_WIN);
	assert_int_equal(r.moves[1].has_delay, 0);
	assert_int_equal(r.nrefused, 1);
	assert_int_equal(r.refused[0].ply, 2);
	assert_int_equal(r.refused[0].player, 2);
	assert_string_equal(r.refused[0].move, "2=9");
	assert_string_equal(r.refused[0].reason, "pile 2: no such value");
	assert_int_equal(r.refused[0].time_ms, 40);
	assert_int_equal(r.refused[0].has_delay, 1);
	assert_int_equal(r.refused[0].delay_us, 77);
	store_record_free(&r);
	assert_null(r.moves);
	store_record_free(&r);			/* twice is harmless */
}

/* Checks the live game's record (id2) and that the next id is missing. */
static void
read_data_live(struct store *st, int64_t id2)
{
	struct store_record r;

	assert_int_equal(store_record(st, id2, &r), 1);
	assert_true(r.game.ended_ms == STORE_TIME_NONE);
	assert_int_equal(r.game.status, STORE_LIVE);
	assert_int_equal(r.game.result, STORE_RESULT_NONE);
	assert_null(r.game.reason);
	assert_null(r.game.detail);
	assert_int_equal(r.game.has_tc, 0);
	assert_int_equal(r.game.rated, 0);
	assert_int_equal(r.nmoves, 0);
	assert_int_equal(r.nrefused, 0);
	store_record_free(&r);
	assert_int_equal(store_record(st, id2 + 1, &r), 0);
	assert_int_equal(r.nmoves, 0);
}

/* Checks the history and the statistics of the two games. */
static void
read_data_history_stats(struct store *st, int64_t id, int64_t id2)
{
	struct store_history h;
	struct store_stats ss;

	assert_int_equal(store_history(st, 10, &h), 0);
	assert_int_equal(h.n, 2);
	assert_int_equal(h.games[0].id, id2);
	assert_string_equal(h.games[0].player1, "conn:9");
	assert_int_equal(h.games[1].id, id);
	assert_int_equal(h.games[1].result, STORE_RESULT_SECOND);
	assert_int_equal(h.games[1].tc_inc_ms, 500);
	store_history_free(&h);
	assert_int_equal(store_history(st, 1, &h), 0);
	assert_int_equal(h.n, 1);
	store_history_free(&h);

	assert_int_equal(store_stats(st, &ss), 0);
	assert_int_equal(ss.games, 2);
	assert_int_equal(ss.moves, 2);
	assert_int_equal(ss.nplayers, 2);
	assert_string_equal(ss.players[0].name, "alice");
	assert_int_equal(ss.players[0].moves, 1);
	assert_int_equal(ss.players[0].kept_win, 0);
	assert_int_equal(ss.players[0].threw_win, 1);
	assert_string_equal(ss.players[1].name, "bob");
	assert_int_equal(ss.players[1].threw_win, 0);
	store_stats_free(&ss);
}

/*
 * The reads return data: every field of a record, a history and the
 * statistics, typed, as written (league fields, time control, delays,
 * refused moves, the end's detail).  A live game: no end, no result, no
 * time control.
 */
static void
test_read_data(void **state)
{
	struct fixture	*fx = *state;
	int64_t		 id, before;
	char		 now[STORE_TIME_LEN];

	store_now(now, sizeof now);
	before = store_time_parse(now);
	id = read_data_write(fx->st);
	read_data_record(fx->st, id, before);
	read_data_live(fx->st, id + 1);
	read_data_history_stats(fx->st, id, id + 1);
}

/*
 * store_record_since (a follower's catch-up, lobby-xwatch.c): the moves
 * after a ply only, whatever the runs they were written in (a flush
 * after 30 moves, 70 in all: several runs), in order, none missing;
 * after the last: none.
 */
static void
test_record_since(void **state)
{
	struct fixture	*fx = *state;
	struct store_game g;
	struct store_move m;
	struct store_record r;
	static const unsigned long after[] = { 0, 1, 2, 29, 30, 31, 63, 64,
	    65, 69, 70, 500 };
	char		 mv[24];
	int64_t		 id;
	size_t		 i, k, want;

	g = nim_game("nim 100", "alice", "bob");
	id = store_game_begin(fx->st, &g);
	for (i = 1; i <= 70; i++) {
		memset(&m, 0, sizeof m);
		snprintf(mv, sizeof mv, "1=%zu", 100 - i);
		m.ply = i;
		m.player = i % 2 == 1 ? 1 : 2;
		m.move = mv;
		m.position = "nim 1";
		m.mark = STORE_NO_WIN;
		store_move(fx->st, id, &m);
		if (i == 30)
			assert_int_equal(store_flush(fx->st), 0);
	}
	assert_int_equal(store_flush(fx->st), 0);
	for (k = 0; k < sizeof after / sizeof after[0]; k++) {
		assert_int_equal(store_record_since(fx->st, id, after[k], &r),
		    1);
		assert_int_equal(r.game.status, STORE_LIVE);
		want = after[k] >= 70 ? 0 : 70 - after[k];
		assert_int_equal(r.nmoves, want);
		for (i = 0; i < r.nmoves; i++) {
			snprintf(mv, sizeof mv, "1=%lu", 100 - (after[k] + 1 +
			    i));
			assert_int_equal(r.moves[i].ply, after[k] + 1 + i);
			assert_string_equal(r.moves[i].move, mv);
		}
		assert_int_equal(r.nrefused, 0);
		store_record_free(&r);
	}
	assert_int_equal(store_record_since(fx->st, id + 1, 0, &r), 0);
	assert_int_equal(store_record(fx->st, id, &r), 1);
	assert_int_equal(r.nmoves, 70);
	store_record_free(&r);
}

/* An in-memory database: write games, read them back. */
static void
test_memory(void **state)
{
	struct fixture	*fx = *state;
	struct store_history h;
	struct buf	 b;
	struct store	*st = fx->st;

	roundtrip(":memory:");
	/* Each open is a new, empty database. */
	buf_init(&b);
	assert_int_equal(text_record(st, 1, &b), 0);
	assert_int_equal(b.len, 0);
	assert_int_equal(store_history(st, 10, &h), 0);
	assert_int_equal(h.n, 0);
	store_history_free(&h);
	buf_free(&b);
}

/*
 * A file database: the records survive a reopen; ids continue (SQLite:
 * the next one; PostgreSQL: a later one of the sequence, whose ids taken
 * ahead by the last run are not reused).
 */
static void
test_file(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 1", "a", "b", 0, NULL, 0, 0 };
	struct rec	 r;
	size_t		 i;
	int64_t		 id;

	roundtrip(fx->path);
	assert_int_equal(raw_int(fx->path, tdb_pg() != NULL ?
	    "SELECT version FROM schema_version" : "PRAGMA user_version"),
	    (int64_t)store_nmigrations);
	st = open_ok(fx->path, NULL);
	for (i = 0; i < 3; i++) {
		rec_read(st, (int64_t)i + 1, &r);
		script_check(&scripts[i], &r, i == 2 ? "abandoned" :
		    "finished");
	}
	id = store_game_begin(st, &g);
	if (tdb_pg() != NULL)
		assert_true(id > 3);
	else
		assert_int_equal(id, 4);
	store_close(st);
}

/* WAL is on for files, and the moves are in the moves table. */
static void
test_wal(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	sqlite3		*db;
	sqlite3_stmt	*s;
	struct done	 d = { 0, 0 };
	char		 pos[64];

	script_write(st, &scripts[0], STORE_FINISHED, &d);
	store_flush(st);
	raw_text(fx->path, "SELECT position FROM moves WHERE game_id = 1 AND"
	    " ply = 3", pos, sizeof pos);
	assert_string_equal(pos, "nim 1 1 1");
	TDB_SQLITE_ONLY("the write-ahead log is SQLite's");
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_finalize(s);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT position FROM moves "
	    "WHERE game_id = 1 AND ply = 3", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0),
	    "nim 1 1 1");
	sqlite3_finalize(s);
	sqlite3_close(db);
}

/* History lines, newest first, and the stats. */
static void
test_history_stats(void **state)
{
	struct fixture	*fx = *state;
	struct store_history h;
	struct store	*st = fx->st;
	struct done	 d[4];
	struct buf	 b;
	struct store_game g = { "nim", "nim 2", "bob smith", "engine", 0, NULL,
	    0, 0 };
	const char	*want_hist, *want_stats;
	char		*p;
	size_t		 i;

	memset(d, 0, sizeof d);
	for (i = 0; i < 3; i++)
		script_write(st, &scripts[i], i == 2 ? STORE_ABANDONED :
		    STORE_FINISHED, &d[i]);
	store_game_begin(st, &g);		/* live, no moves */
	assert_int_equal(store_flush(st), 0);

	buf_init(&b);
	assert_int_equal(store_history(st, 3, &h), 0);
	cmd_history_games(&b, &h);	/* the history command's text */
	store_history_free(&h);
	/* Drop the start times (the last word) before comparing. */
	for (p = b.data; (p = strstr(p, " 20")) != NULL; ) {
		memmove(p, p + 25, strlen(p + 25) + 1);
		b.len -= 25;
	}
	want_hist =
	    "4 nim live - - bob_smith engine\n"
	    "3 sum abandoned - disconnect conn:17 engine\n"
	    "2 wythoff finished first resign engine conn:3\n";
	assert_string_equal(b.data, want_hist);

	/*
	 * conn:17: game 1 plies 1 (kept) and 3 (threw), game 3 ply 1
	 * (threw); engine: game 1 plies 2 (no-win) and 4 (kept), game 2
	 * ply 1 (kept); conn:3: game 2 ply 2 (no-win).
	 */
	buf_reset(&b);
	assert_int_equal(text_stats(st, &b), 0);
	want_stats =
	    "games 4\n"
	    "moves 7\n"
	    "player conn:17 moves 3 optimal 33.3% kept-win 1 threw-win 2\n"
	    "player conn:3 moves 1 optimal - kept-win 0 threw-win 0\n"
	    "player engine moves 3 optimal 100.0% kept-win 2 threw-win 0\n";
	assert_string_equal(buf_str(&b), want_stats);
	buf_free(&b);
}

/* Names with blanks and texts with newlines cannot break the format. */
static void
test_sanitize(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct store_game g = { "nim", "nim\n3 4", "a b\tc", "", 0, NULL, 0, 0 };
	struct store_move m = { 1, 1, "1=0\n", "nim 0 4", 1,
	    STORE_KEPT_WIN, 0, 0 };
	struct done	 d = { 0, 0 };
	struct rec	 r;
	int64_t		 id;

	id = store_game_begin(st, &g);
	store_move(st, id, &m);
	store_game_end(st, id, STORE_RESULT_FIRST, "no legal move",
	    STORE_FINISHED, done_cb, &d);
	store_flush(st);
	assert_int_equal(d.ok, 1);
	rec_read(st, id, &r);
	assert_string_equal(r.start, "nim 3 4");
	assert_string_equal(r.p1, "a_b_c");
	assert_string_equal(r.p2, "-");
	assert_string_equal(r.mv[0].move, "1=0 ");
	assert_string_equal(r.reason, "no_legal_move");
}

/* Tables: put, get, replace, missing, binary data, unknown kind. */
static void
test_tables(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct buf	 meta, data;
	const char	 bin[] = { 'a', '\0', 'b', '\377', '\0' };
	unsigned char	*big;
	size_t		 i, nbig = 1 << 20;

	big = malloc(nbig);
	assert_non_null(big);
	for (i = 0; i < nbig; i++)
		big[i] = (unsigned char)(i * 7);
	buf_init(&meta);
	buf_init(&data);
	store_table_put(st, "subtraction", "S=2,5,7", "preperiod=0 period=7",
	    bin, sizeof bin);
	store_table_put(st, "wythoff-p", "K=3 t=5 n=100", NULL, "1 2\n3 5\n",
	    8);
	store_table_put(st, "graph", "edges=0>1", "nodes=2", NULL, 0);
	store_table_put(st, "wythoff-sg", "K=1 t=1 n=1024", "n=1024", big,
	    nbig);
	store_table_put(st, "bogus", "k", "m", "d", 1);
	store_flush(st);
	assert_int_equal(store_table_get(st, "subtraction", "S=2,5,7", &meta,
	    &data), 1);
	assert_string_equal(buf_str(&meta), "preperiod=0 period=7");
	assert_int_equal(data.len, sizeof bin);
	assert_memory_equal(data.data, bin, sizeof bin);
	buf_reset(&meta);
	buf_reset(&data);
	assert_int_equal(store_table_get(st, "wythoff-p", "K=3 t=5 n=100",
	    &meta, &data), 1);
	assert_int_equal(meta.len, 0);
	assert_string_equal(buf_str(&data), "1 2\n3 5\n");
	buf_reset(&data);
	assert_int_equal(store_table_get(st, "graph", "edges=0>1", NULL,
	    &data), 1);
	assert_int_equal(data.len, 0);
	assert_int_equal(store_table_get(st, "graph", "edges=1>0", NULL,
	    NULL), 0);
	assert_int_equal(store_table_get(st, "bogus", "k", NULL, NULL), 0);

	/* Replace. */
	store_table_put(st, "subtraction", "S=2,5,7", "v2", "new", 3);
	store_flush(st);
	buf_reset(&meta);
	buf_reset(&data);
	assert_int_equal(store_table_get(st, "subtraction", "S=2,5,7", &meta,
	    &data), 1);
	assert_string_equal(buf_str(&meta), "v2");
	assert_string_equal(buf_str(&data), "new");

	/* Reused after a restart. */
	st = tdb_reopen(fx);
	buf_reset(&data);
	assert_int_equal(store_table_get(st, "wythoff-sg", "K=1 t=1 n=1024",
	    NULL, &data), 1);
	assert_int_equal(data.len, nbig);
	assert_memory_equal(data.data, big, nbig);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM tables"), 4);
	buf_free(&meta);
	buf_free(&data);
	free(big);
}

TDB_STORE_MAIN(
    cmocka_unit_test(test_times),
    cmocka_unit_test(test_time_text),
    cmocka_unit_test(test_log_time),
    TDB_MEMORY_TEST(test_read_data),
    TDB_MEMORY_TEST(test_record_since),
    TDB_MEMORY_TEST(test_memory),
    cmocka_unit_test(test_file),
    TDB_FILE_TEST(test_wal),
    TDB_MEMORY_TEST(test_history_stats),
    TDB_MEMORY_TEST(test_sanitize),
    TDB_FILE_TEST(test_tables))
