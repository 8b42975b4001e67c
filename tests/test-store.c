/*
 * test-store.c: the SQLite store: migrations from every older version,
 * the newer-version refusal, the record, history, stats and tables, group
 * commit and the bounded queue, and the bad states (read-only, full,
 * locked, corrupt).  Last, a child process is killed with SIGKILL while it
 * writes games: every game it was told was committed must be there, whole.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "testutil.h"

#include "buf.h"
#include "clock.h"
#include "cmd-log.h"
#include "log.h"
#include "store.h"

#define REC_MAXMOVES	256

/* The temporary directory of this run; one file name per test. */
struct fixture {
	char		 dir[256];
	char		 path[300];
};

/* A done callback's report. */
struct done {
	int		 called;
	int		 ok;
};

/* One parsed "move" line of a record. */
struct rec_move {
	unsigned long	 ply;
	int		 player;
	char		 move[256];
	char		 mark[16];
	unsigned long	 time_ms;
};

/* A record parsed back from store_record's text. */
struct rec {
	int64_t		 id;
	char		 start[256];
	char		 p1[64];
	char		 p2[64];
	char		 started[32];
	char		 ended[32];
	char		 result[16];
	char		 reason[64];
	char		 status[16];
	size_t		 nmoves;
	struct rec_move	 mv[REC_MAXMOVES];
};

/* Appends game id's record as the record command gives it; as store_record. */
static int
text_record(struct store *st, int64_t id, struct buf *b)
{
	struct store_record r;
	int		 rv;

	if ((rv = store_record(st, id, &r)) == 1)
		cmd_log_record(b, &r);
	store_record_free(&r);
	return (rv);
}

/* Appends the history command's text for n games; as store_history. */
static int
text_history(struct store *st, unsigned int n, struct buf *b)
{
	struct store_history h;
	int		 rv;

	if ((rv = store_history(st, n, &h)) == 0)
		cmd_log_history(b, &h);
	store_history_free(&h);
	return (rv);
}

/* Appends the stats command's text; as store_stats. */
static int
text_stats(struct store *st, struct buf *b)
{
	struct store_stats ss;
	int		 rv;

	if ((rv = store_stats(st, &ss)) == 0)
		cmd_log_stats(b, &ss);
	store_stats_free(&ss);
	return (rv);
}

/* Returns monotonic milliseconds. */
static long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Creates the temporary directory and names the test's database. */
static int
setup(void **state)
{
	struct fixture	*fx;

	fx = calloc(1, sizeof *fx);
	if (fx == NULL)
		return (-1);
	if (tu_tmpdir(fx->dir, sizeof fx->dir, "test-store") != 0) {
		free(fx);
		return (-1);
	}
	snprintf(fx->path, sizeof fx->path, "%s/grundy.db", fx->dir);
	*state = fx;
	return (0);
}

/* Removes the temporary directory. */
static int
teardown(void **state)
{
	struct fixture	*fx = *state;

	tu_empty_dir(fx->dir);
	rmdir(fx->dir);
	free(fx);
	return (0);
}

/* Records a done callback (runs on the writer thread). */
static void
done_cb(void *arg, int ok)
{
	struct done	*d = arg;

	d->called++;
	d->ok = ok;
}

/* Opens a store or fails the test with its message. */
static struct store *
open_ok(const char *path, const struct store_config *cf)
{
	struct store_config def;
	struct store	*st;
	char		 err[512];

	if (cf == NULL) {
		store_config_default(&def);
		cf = &def;
	}
	err[0] = '\0';
	st = store_open_config(path, cf, err, sizeof err);
	if (st == NULL)
		fail_msg("store_open %s: %s", path, err);
	return (st);
}

/* Opens a store that must fail; checks that err contains want. */
static void
open_fails(const char *path, int busy_ms, const char *want)
{
	struct store_config cf;
	struct store	*st;
	char		 err[512];

	store_config_default(&cf);
	cf.busy_ms = busy_ms;
	err[0] = '\0';
	st = store_open_config(path, &cf, err, sizeof err);
	if (st != NULL) {
		store_close(st);
		fail_msg("store_open %s succeeded, expected \"%s\"", path,
		    want);
	}
	if (strstr(err, want) == NULL)
		fail_msg("store_open %s: \"%s\" does not say \"%s\"", path, err,
		    want);
	print_message("refused as expected: %s\n", err);
}

/* Runs one SQL text on a raw connection; fails the test on error. */
static void
raw_exec(sqlite3 *db, const char *sql)
{
	char	*e = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &e) != SQLITE_OK)
		fail_msg("%s: %s", sql, e != NULL ? e : "?");
}

/* Returns the first column of one row of sql as an integer. */
static int64_t
raw_int(const char *path, const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*s;
	int64_t		 v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return (v);
}

/* Checks that PRAGMA integrity_check says ok. */
static void
integrity_ok(const char *path)
{
	sqlite3		*db;
	sqlite3_stmt	*s;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "ok");
	sqlite3_finalize(s);
	sqlite3_close(db);
}

/* Copies the token of line that starts at *p into out (bounded). */
static void
rec_word(const char **p, char *out, size_t len)
{
	size_t	 n = strcspn(*p, " ");

	assert_true(n < len);
	memcpy(out, *p, n);
	out[n] = '\0';
	*p += n;
	if (**p == ' ')
		(*p)++;
}

/* Parses one "move PLY PLAYER MOVE MARK TIME_MS DELAY_US" line. */
static void
rec_move_parse(const char *line, struct rec_move *m)
{
	const char	*sp1, *sp2, *s;
	char		*end, copy[4096], *d;
	size_t		 n;

	/* DELAY_US: "-" (unknown: the store's callers here give none). */
	assert_true(strlen(line) < sizeof copy);
	snprintf(copy, sizeof copy, "%s", line);
	d = strrchr(copy, ' ');
	assert_non_null(d);
	assert_string_equal(d + 1, "-");
	*d = '\0';
	s = copy;
	m->ply = strtoul(s, &end, 10);
	assert_true(*end == ' ');
	m->player = (int)strtol(end + 1, &end, 10);
	assert_true(*end == ' ');
	s = end + 1;
	sp2 = strrchr(s, ' ');
	assert_non_null(sp2);
	m->time_ms = strtoul(sp2 + 1, &end, 10);
	assert_true(*end == '\0');
	for (sp1 = sp2 - 1; sp1 > s && *sp1 != ' '; sp1--)
		;
	assert_true(sp1 > s);
	n = (size_t)(sp2 - sp1 - 1);
	assert_true(n < sizeof m->mark);
	memcpy(m->mark, sp1 + 1, n);
	m->mark[n] = '\0';
	n = (size_t)(sp1 - s);
	assert_true(n < sizeof m->move);
	memcpy(m->move, s, n);
	m->move[n] = '\0';
}

/* Parses a record's text, checking its layout. */
static void
rec_parse(const char *text, struct rec *r)
{
	char		*copy, *line, *save = NULL;
	const char	*p;
	int		 n = 0;

	memset(r, 0, sizeof *r);
	copy = strdup(text);
	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++) {
		if (n == 0) {
			assert_int_equal(strncmp(line, "game ", 5), 0);
			r->id = strtoll(line + 5, NULL, 10);
		} else if (n == 1) {
			assert_int_equal(strncmp(line, "start ", 6), 0);
			snprintf(r->start, sizeof r->start, "%s", line + 6);
		} else if (n == 2) {
			assert_int_equal(strncmp(line, "players ", 8), 0);
			p = line + 8;
			rec_word(&p, r->p1, sizeof r->p1);
			rec_word(&p, r->p2, sizeof r->p2);
			assert_true(*p == '\0');
		} else if (n == 3) {
			assert_int_equal(strncmp(line, "started ", 8), 0);
			snprintf(r->started, sizeof r->started, "%s", line + 8);
		} else if (strncmp(line, "move ", 5) == 0) {
			assert_true(r->nmoves < REC_MAXMOVES);
			assert_true(r->ended[0] == '\0');
			rec_move_parse(line + 5, &r->mv[r->nmoves++]);
		} else if (strncmp(line, "ended ", 6) == 0) {
			snprintf(r->ended, sizeof r->ended, "%s", line + 6);
		} else if (strncmp(line, "result ", 7) == 0) {
			p = line + 7;
			rec_word(&p, r->result, sizeof r->result);
			rec_word(&p, r->reason, sizeof r->reason);
			assert_true(*p == '\0');
		} else if (strncmp(line, "status ", 7) == 0) {
			snprintf(r->status, sizeof r->status, "%s", line + 7);
		} else
			fail_msg("unexpected record line: %s", line);
	}
	free(copy);
	assert_true(r->status[0] != '\0');
}

/* Reads game id's record and parses it; fails if it is missing. */
static void
rec_read(struct store *st, int64_t id, struct rec *r)
{
	struct buf	 b;

	buf_init(&b);
	assert_int_equal(text_record(st, id, &b), 1);
	rec_parse(buf_str(&b), r);
	buf_free(&b);
	assert_int_equal(r->id, id);
}

/* Returns 1 if s looks like 2025-11-21T05:38:00.123Z. */
static int
iso_ok(const char *s)
{
	const char	*pat = "dddd-dd-ddTdd:dd:dd.dddZ";
	size_t		 i;

	if (strlen(s) != strlen(pat))
		return (0);
	for (i = 0; pat[i] != '\0'; i++) {
		if (pat[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != pat[i])
			return (0);
	}
	return (1);
}

/* A game to write: start, players, moves (two-change moves included). */
struct script {
	const char	*family;
	const char	*start;
	const char	*p1, *p2;
	size_t		 n;
	struct {
		const char	*move, *pos;
		enum store_mark	 mark;
		unsigned long	 ms;
	}		 mv[8];
	enum store_result result;
	const char	*reason;
};

static const struct script scripts[] = {
	{ "nim", "nim 3 4 5", "conn:17", "engine", 4, {
		{ "1=1", "nim 1 4 5", STORE_KEPT_WIN, 12 },
		{ "2=1", "nim 1 1 5", STORE_NO_WIN, 0 },
		{ "3=1", "nim 1 1 1", STORE_THREW_WIN, 4031 },
		{ "3=0", "nim 1 1 0", STORE_KEPT_WIN, 1 },
	    }, STORE_RESULT_SECOND, "no-legal-move" },
	{ "wythoff", "wythoff K=3 t=5 30 40", "engine", "conn:3", 2, {
		{ "1=0 2=2", "wythoff K=3 t=5 0 2", STORE_KEPT_WIN, 3 },
		{ "2=1", "wythoff K=3 t=5 0 1", STORE_NO_WIN, 77 },
	    }, STORE_RESULT_FIRST, "resign" },
	{ "sum", "sum nim 3 4 + wythoff 3 5", "conn:17", "engine", 1, {
		{ "2.1=0 2.2=2", "sum nim 3 4 + wythoff 0 2", STORE_THREW_WIN,
		    5 },
	    }, STORE_RESULT_NONE, "disconnect" },
};

/* Writes script sc as a game through the asynchronous API. */
static int64_t
script_write(struct store *st, const struct script *sc,
    enum store_status status, struct done *d)
{
	struct store_game g;
	struct store_move m;
	int64_t		 id;
	size_t		 i;

	memset(&g, 0, sizeof g);
	g.family = sc->family;
	g.game = sc->start;
	g.player1 = sc->p1;
	g.player2 = sc->p2;
	id = store_game_begin(st, &g);
	assert_true(id > 0);
	memset(&m, 0, sizeof m);
	for (i = 0; i < sc->n; i++) {
		m.ply = i + 1;
		m.player = (int)(i % 2) + 1;
		m.move = sc->mv[i].move;
		m.position = sc->mv[i].pos;
		m.time_ms = sc->mv[i].ms;
		m.mark = sc->mv[i].mark;
		store_move(st, id, &m);
	}
	store_game_end(st, id, sc->result, sc->reason, status, done_cb, d);
	return (id);
}

/* Checks a parsed record against the script that wrote it. */
static void
script_check(const struct script *sc, const struct rec *r,
    const char *status)
{
	size_t	 i;

	assert_string_equal(r->start, sc->start);
	assert_string_equal(r->p1, sc->p1);
	assert_string_equal(r->p2, sc->p2);
	assert_true(iso_ok(r->started));
	assert_true(iso_ok(r->ended));
	assert_true(strcmp(r->started, r->ended) <= 0);
	assert_string_equal(r->result, sc->result == STORE_RESULT_NONE ? "-" :
	    store_result_name(sc->result));
	assert_string_equal(r->reason, sc->reason);
	assert_string_equal(r->status, status);
	assert_int_equal(r->nmoves, sc->n);
	for (i = 0; i < sc->n; i++) {
		assert_int_equal(r->mv[i].ply, i + 1);
		assert_int_equal(r->mv[i].player, (int)(i % 2) + 1);
		assert_string_equal(r->mv[i].move, sc->mv[i].move);
		assert_string_equal(r->mv[i].mark,
		    store_mark_name(sc->mv[i].mark));
		assert_int_equal(r->mv[i].time_ms, sc->mv[i].ms);
	}
}

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

/*
 * The reads return data: every field of a record, a history and the
 * statistics, typed, as written (league fields, time control, delays,
 * refused moves, the end's detail).
 */
static void
test_read_data(void **state)
{
	struct store	*st;
	struct store_game g;
	struct store_move m1 = { 1, 1, "1=1", "nim 1 4", 55, STORE_THREW_WIN,
			    1, 1234 };
	struct store_move m2 = { 2, 2, "2=4", "nim 1 0", 7, STORE_NO_WIN, 0,
			    0 };
	struct store_refused rf = { 2, 2, "2=9", "pile 2: no such value", 40,
			    1, 77 };
	struct store_record r;
	struct store_history h;
	struct store_stats ss;
	int64_t		 id, id2, before;
	char		 now[STORE_TIME_LEN];

	(void)state;
	store_now(now, sizeof now);
	before = store_time_parse(now);
	st = open_ok(":memory:", NULL);
	memset(&g, 0, sizeof g);
	g.family = "nim";
	g.game = "nim 2 4";
	g.player1 = "alice";
	g.player2 = "bob";
	g.rated = 1;
	g.tc = "60000+500";
	g.tournament = 0;
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
	assert_int_equal(store_flush(st), 0);

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

	/* A live game: no end, no result, no time control. */
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
	store_close(st);
}

/* Round trip on one database: write the scripts, read the records back. */
static void
roundtrip(const char *path)
{
	struct store	*st;
	struct done	 d[3];
	struct rec	 r;
	int64_t		 id[3];
	size_t		 i;

	memset(d, 0, sizeof d);
	st = open_ok(path, NULL);
	for (i = 0; i < 3; i++)
		id[i] = script_write(st, &scripts[i], i == 2 ? STORE_ABANDONED :
		    STORE_FINISHED, &d[i]);
	assert_int_equal(store_flush(st), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(d[i].called, 1);
		assert_int_equal(d[i].ok, 1);
		assert_int_equal(id[i], (int64_t)i + 1);
		rec_read(st, id[i], &r);
		script_check(&scripts[i], &r, i == 2 ? "abandoned" :
		    "finished");
	}
	store_close(st);
}

/* An in-memory database: write games, read them back. */
static void
test_memory(void **state)
{
	struct buf	 b;
	struct store	*st;

	roundtrip(":memory:");
	/* Each open is a new, empty database. */
	st = open_ok(":memory:", NULL);
	buf_init(&b);
	assert_int_equal(text_record(st, 1, &b), 0);
	assert_int_equal(text_history(st, 10, &b), 0);
	assert_int_equal(b.len, 0);
	buf_free(&b);
	store_close(st);
}

/* A file database: the records survive a reopen; ids continue. */
static void
test_file(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 1", "a", "b", 0, NULL, 0, 0 };
	struct rec	 r;
	size_t		 i;

	roundtrip(fx->path);
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
	    (int64_t)store_nmigrations);
	st = open_ok(fx->path, NULL);
	for (i = 0; i < 3; i++) {
		rec_read(st, (int64_t)i + 1, &r);
		script_check(&scripts[i], &r, i == 2 ? "abandoned" :
		    "finished");
	}
	assert_int_equal(store_game_begin(st, &g), 4);
	store_close(st);
	tu_empty_dir(fx->dir);
}

/* WAL is on for files, and the moves are in the moves table. */
static void
test_wal(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	sqlite3		*db;
	sqlite3_stmt	*s;
	struct done	 d = { 0, 0 };

	st = open_ok(fx->path, NULL);
	script_write(st, &scripts[0], STORE_FINISHED, &d);
	store_flush(st);
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
	store_close(st);
	tu_empty_dir(fx->dir);
}

/* Migrating from each older version, including empty, to the newest. */
static void
test_migrate_each(void **state)
{
	struct fixture	*fx = *state;
	char		 err[512];
	int		 v;

	for (v = 0; v < (int)store_nmigrations; v++) {
		tu_empty_dir(fx->dir);
		assert_int_equal(store_migrate_file(fx->path, store_migrations,
		    store_nmigrations, v, err, sizeof err), 0);
		assert_int_equal(raw_int(fx->path, "PRAGMA user_version"), v);
		roundtrip(fx->path);
		assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
		    (int64_t)store_nmigrations);
	}
	tu_empty_dir(fx->dir);
}

/* The mechanism with more files than ship: order, atomicity, errors. */
static void
test_migrate_synthetic(void **state)
{
	struct fixture	*fx = *state;
	struct store_migration list[8];
	size_t		 n = store_nmigrations, i;
	char		 err[512];
	int		 v;

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
		tu_empty_dir(fx->dir);
		assert_int_equal(store_migrate_file(fx->path, list, n + 2, v,
		    err, sizeof err), 0);
		assert_int_equal(raw_int(fx->path, "PRAGMA user_version"), v);
		assert_int_equal(store_migrate_file(fx->path, list, n + 2,
		    (int)n + 2, err, sizeof err), 0);
		assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
		    (int64_t)n + 2);
		assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM extra "
		    "WHERE a = 1 AND b = 'x'"), 1);
	}

	/* A failing migration leaves nothing of itself behind. */
	tu_empty_dir(fx->dir);
	list[n + 1].sql = "CREATE TABLE half (a);\nTHIS IS NOT SQL;";
	assert_int_equal(store_migrate_file(fx->path, list, n + 2, (int)n,
	    err, sizeof err), 0);
	assert_int_equal(store_migrate_file(fx->path, list, n + 2,
	    (int)n + 2, err, sizeof err), -1);
	assert_non_null(strstr(err, "migration 901-extra.sql failed"));
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
	    (int64_t)n);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM "
	    "sqlite_schema WHERE name IN ('extra', 'half')"), 0);

	/* A list out of order is refused. */
	list[n].version = (int)n + 5;
	assert_int_equal(store_migrate_file(fx->path, list, n + 1, (int)n + 1,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "out of order"));
	tu_empty_dir(fx->dir);
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
	sqlite3		*db;
	char		 err[512];

	tu_empty_dir(fx->dir);
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, 1, err, sizeof err), 0);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	raw_exec(db, "INSERT INTO games (id, family, game, player1, player2,"
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
	sqlite3_close(db);

	st = open_ok(fx->path, NULL);		/* migrates, abandons game 2 */
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
	    (int64_t)store_nmigrations);
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
	    "player conn:1 moves 2 optimal 0 kept-win 0 threw-win 1\n"
	    "player engine moves 3 optimal 100 kept-win 3 threw-win 0\n");
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
	tu_empty_dir(fx->dir);
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
	sqlite3		*db;
	char		 err[512];
	int64_t		 id;

	tu_empty_dir(fx->dir);
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, 3, err, sizeof err), 0);
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"), 3);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	raw_exec(db, "INSERT INTO accounts (name, hash, created_at) VALUES"
	    " ('alice', '$y$x', '2025-11-21T05:38:00.000Z');"
	    "INSERT INTO games (id, family, game, player1, player2,"
	    " started_at, ended_at, result, reason, status) VALUES"
	    " (1, 'nim', 'nim 3 4', 'conn:1', 'engine',"
	    " '2025-11-21T05:38:00.123Z', '2025-11-21T05:38:01.000Z',"
	    " 'second', 'no-legal-move', 'finished');"
	    "INSERT INTO move_runs (game_id, first_ply, moves) VALUES"
	    " (1, 1, '[[1,\"1=1\",\"nim 1 4\",12,1],"
	    "[2,\"2=1\",\"nim 1 1\",0,0]]');");
	sqlite3_close(db);

	st = open_ok(fx->path, NULL);
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"), 4);
	buf_init(&b);
	assert_int_equal(text_record(st, 1, &b), 1);
	assert_non_null(strstr(buf_str(&b),
	    "move 1 1 1=1 threw-win 12 -\nmove 2 2 2=1 kept-win 0 -\n"));
	assert_non_null(strstr(buf_str(&b),
	    "result second no-legal-move\nstatus finished\n"));

	/* A new game: delays, a refused move, a detail. */
	memset(&g, 0, sizeof g);
	g.family = "nim";
	g.game = "nim 2";
	g.player1 = "anon:3:7";
	g.player2 = "alice";
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
	    "move 1 1 1=1 threw-win 55 1234\n"
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
	tu_empty_dir(fx->dir);
}

/*
 * Moves are written in runs: a long game spans several rows, a gap in the
 * plies starts a new run, a flush makes a live game's moves visible, and
 * quotes and backslashes survive the JSON.
 */
static void
test_runs(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 500", "conn:1", "engine", 0, NULL,
	    0, 0 };
	struct store_move m = { 0, 1, "1=\"x\\", "nim \"0\" \\", 2,
			    STORE_NO_WIN };
	struct done	 d = { 0, 0 };
	struct rec	 r;
	int64_t		 id;
	unsigned long	 i;

	st = open_ok(fx->path, NULL);
	id = store_game_begin(st, &g);
	for (i = 1; i <= 100; i++) {
		m.ply = i;
		m.player = (int)((i + 1) % 2) + 1;
		store_move(st, id, &m);
	}
	assert_int_equal(store_flush(st), 0);	/* live, all 100 visible */
	rec_read(st, id, &r);
	assert_int_equal(r.nmoves, 100);
	assert_string_equal(r.status, "live");
	for (i = 102; i <= 160; i++) {		/* ply 101 is missing */
		m.ply = i;
		m.player = (int)((i + 1) % 2) + 1;
		m.mark = i % 3 == 0 ? STORE_KEPT_WIN : STORE_THREW_WIN;
		store_move(st, id, &m);
	}
	store_game_end(st, id, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    done_cb, &d);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d.ok, 1);
	rec_read(st, id, &r);
	assert_int_equal(r.nmoves, 159);
	assert_int_equal(r.mv[99].ply, 100);
	assert_int_equal(r.mv[100].ply, 102);
	assert_int_equal(r.mv[158].ply, 160);
	assert_string_equal(r.mv[158].move, "1=\"x\\");
	assert_string_equal(r.mv[158].mark, "threw-win");
	assert_int_equal(r.mv[158].player, 2);
	store_close(st);
	/* Runs: 1-64, 65-100 (the flush), 102-160. */
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM move_runs"),
	    3);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " position = 'nim \"0\" \\' AND time_ms = 2"), 159);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " mark = 'kept-win' AND ply % 3 = 0 AND ply > 101"), 20);
	integrity_ok(fx->path);
	tu_empty_dir(fx->dir);
}

/* A database newer than the binary is refused with a clear message. */
static void
test_newer(void **state)
{
	struct fixture	*fx = *state;
	sqlite3		*db;
	char		 sql[64], want[128];

	store_close(open_ok(fx->path, NULL));
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	snprintf(sql, sizeof sql, "PRAGMA user_version = %zu",
	    store_nmigrations + 1);
	raw_exec(db, sql);
	sqlite3_close(db);
	snprintf(want, sizeof want, "database version %zu is newer than this "
	    "grundyd (%zu): upgrade grundyd", store_nmigrations + 1,
	    store_nmigrations);
	open_fails(fx->path, 1000, want);
	/* Nothing was changed. */
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
	    (int64_t)store_nmigrations + 1);
	tu_empty_dir(fx->dir);
}

/* History lines, newest first, and the stats. */
static void
test_history_stats(void **state)
{
	struct store	*st;
	struct done	 d[4];
	struct buf	 b;
	struct store_game g = { "nim", "nim 2", "bob smith", "engine", 0, NULL,
	    0, 0 };
	const char	*want_hist, *want_stats;
	char		*p;
	size_t		 i;

	memset(d, 0, sizeof d);
	st = open_ok(":memory:", NULL);
	for (i = 0; i < 3; i++)
		script_write(st, &scripts[i], i == 2 ? STORE_ABANDONED :
		    STORE_FINISHED, &d[i]);
	store_game_begin(st, &g);		/* live, no moves */
	assert_int_equal(store_flush(st), 0);

	buf_init(&b);
	assert_int_equal(text_history(st, 3, &b), 0);
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
	    "player conn:17 moves 3 optimal 33 kept-win 1 threw-win 2\n"
	    "player conn:3 moves 1 optimal - kept-win 0 threw-win 0\n"
	    "player engine moves 3 optimal 100 kept-win 2 threw-win 0\n";
	assert_string_equal(buf_str(&b), want_stats);
	buf_free(&b);
	store_close(st);
}

/* Names with blanks and texts with newlines cannot break the format. */
static void
test_sanitize(void **state)
{
	struct store	*st;
	struct store_game g = { "nim", "nim\n3 4", "a b\tc", "", 0, NULL, 0, 0 };
	struct store_move m = { 1, 1, "1=0\n", "nim 0 4", 1, STORE_KEPT_WIN };
	struct done	 d = { 0, 0 };
	struct rec	 r;
	int64_t		 id;

	st = open_ok(":memory:", NULL);
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
	store_close(st);
}

/* Bad writes fail alone: unknown game, duplicate ply, bad player. */
static void
test_bad_writes(void **state)
{
	struct store	*st;
	struct store_game g = { "nim", "nim 3", "a", "b", 0, NULL, 0, 0 };
	struct store_move m = { 1, 1, "1=0", "nim 0", 1, STORE_KEPT_WIN };
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 }, d3 = { 0, 0 };
	struct store_counters c;
	struct rec	 r;
	int64_t		 a, b;

	st = open_ok(":memory:", NULL);
	store_game_end(st, 999, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d1);
	a = store_game_begin(st, &g);
	store_move(st, a, &m);
	store_move(st, a, &m);			/* ply 1 again */
	store_game_end(st, a, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d2);
	b = store_game_begin(st, &g);
	store_move(st, b, &m);
	store_game_end(st, b, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d3);
	store_flush(st);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);
	assert_int_equal(d2.called, 1);
	assert_int_equal(d2.ok, 0);		/* incomplete */
	assert_int_equal(d3.called, 1);
	assert_int_equal(d3.ok, 1);		/* unharmed */
	rec_read(st, a, &r);
	assert_int_equal(r.nmoves, 1);
	assert_string_equal(r.status, "finished");
	store_counters(st, &c);
	assert_true(c.failed >= 3);
	store_close(st);
}

/* Tables: put, get, replace, missing, binary data, unknown kind. */
static void
test_tables(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
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
	st = open_ok(fx->path, NULL);
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
	store_close(st);

	/* Reused after a restart. */
	st = open_ok(fx->path, NULL);
	buf_reset(&data);
	assert_int_equal(store_table_get(st, "wythoff-sg", "K=1 t=1 n=1024",
	    NULL, &data), 1);
	assert_int_equal(data.len, nbig);
	assert_memory_equal(data.data, big, nbig);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM tables"), 4);
	store_close(st);
	buf_free(&meta);
	buf_free(&data);
	free(big);
	tu_empty_dir(fx->dir);
}

/* Games left live by a crash are abandoned at the next open. */
static void
test_abandon(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 3", "conn:1", "engine", 0, NULL, 0, 0 };
	struct store_move m = { 1, 1, "1=2", "nim 2", 5, STORE_KEPT_WIN };
	struct rec	 r;
	int64_t		 a, b;

	st = open_ok(fx->path, NULL);
	a = store_game_begin(st, &g);
	store_move(st, a, &m);
	store_close(st);			/* as if the server died */
	st = open_ok(fx->path, NULL);
	rec_read(st, a, &r);
	assert_string_equal(r.status, "abandoned");
	assert_string_equal(r.reason, "interrupted");
	assert_string_equal(r.result, "-");
	assert_string_equal(r.ended, "-");
	assert_int_equal(r.nmoves, 1);
	/* Games of this run are not touched by a later call. */
	b = store_game_begin(st, &g);
	assert_int_equal(store_abandon_live(st), 0);
	rec_read(st, b, &r);
	assert_string_equal(r.status, "live");
	store_close(st);
	tu_empty_dir(fx->dir);
}

/* Group commit: a burst of writes takes far fewer transactions. */
static void
test_batching(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 5000", "conn:1", "engine", 0, NULL, 0, 0 };
	struct store_move m = { 0, 1, "1=0", "nim 0", 1, STORE_KEPT_WIN };
	struct store_counters c;
	struct done	 d = { 0, 0 };
	int64_t		 id;
	unsigned long	 i, n = 3000;

	st = open_ok(fx->path, NULL);
	store_counters(st, &c);
	assert_int_equal(c.batches, 1);		/* store_abandon_live */
	id = store_game_begin(st, &g);
	for (i = 1; i <= n; i++) {
		m.ply = i;
		m.player = (int)(i % 2) + 1;
		store_move(st, id, &m);
	}
	store_game_end(st, id, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, &d);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d.ok, 1);
	store_counters(st, &c);
	assert_int_equal(c.items, n + 3);
	assert_int_equal(c.failed, 0);
	assert_int_equal(c.dropped, 0);
	print_message("batching: %" PRIu64 " writes in %" PRIu64
	    " transactions\n", c.items, c.batches);
	assert_true(c.batches * 4 < c.items);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves"),
	    (int64_t)n);
	store_close(st);
	tu_empty_dir(fx->dir);
}

/* Read-only databases are refused at open. */
static void
test_readonly(void **state)
{
	struct fixture	*fx = *state;
	char		 uri[400];

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
	tu_empty_dir(fx->dir);
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

/* A full disk: failed callbacks, then back to work once there is room. */
static void
test_full(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 9", "conn:1", "engine", 0, NULL, 0, 0 };
	struct store_move m = { 1, 1, "1=0", NULL, 1, STORE_KEPT_WIN };
	struct store_counters c;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 }, d3 = { 0, 0 };
	struct rec	 r;
	char		*big;
	int64_t		 a, b;
	size_t		 nbig = 256 * 1024;

	big = big_text(nbig);
	st = open_ok(fx->path, NULL);
	/* No room to grow: the cap drops to the current size. */
	store_set_max_pages(st, 1);
	a = store_game_begin(st, &g);
	m.position = big;
	store_move(st, a, &m);
	store_game_end(st, a, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, &d1);
	store_table_put(st, "graph", "g", NULL, big, nbig);
	store_flush(st);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);
	store_counters(st, &c);
	assert_true(c.failed > 0);

	/* Still full: a second game fails the same way, nothing crashes. */
	b = store_game_begin(st, &g);
	store_move(st, b, &m);
	store_game_end(st, b, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, &d2);
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
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE "
	    "length(position) > 1000"), 0);
	integrity_ok(fx->path);
	free(big);
	tu_empty_dir(fx->dir);
}

/*
 * A full disk (issue 11): while the last write failed store_failing says
 * so and queues a probe; the log finds out by itself that it can write
 * again, and a game whose end was lost is marked abandoned, log-failed.
 */
static void
test_full_probe(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct store_game g = { "nim", "nim 9", "conn:1", "engine", 0, NULL, 0, 0 };
	struct store_move m = { 1, 1, "1=0", NULL, 1, STORE_KEPT_WIN };
	struct done	 d1 = { 0, 0 };
	char		*big, sql[128];
	int64_t		 b;
	size_t		 nbig = 256 * 1024;
	int		 i;

	big = big_text(nbig);
	st = open_ok(fx->path, NULL);
	assert_int_equal(store_failing(st), 0);
	b = store_game_begin(st, &g);
	store_flush(st);			/* its row is on disk */
	store_set_max_pages(st, 1);
	m.position = big;
	store_move(st, b, &m);
	store_game_end(st, b, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, &d1);
	store_flush(st);
	assert_int_equal(d1.ok, 0);
	assert_int_equal(store_failing(st), 1);
	store_set_max_pages(st, 0);
	/* The probe (at most one a second) finds the room by itself. */
	for (i = 0; i < 300 && store_failing(st); i++)
		usleep(10000);
	assert_int_equal(store_failing(st), 0);
	store_flush(st);
	store_close(st);
	snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM games WHERE id = %lld"
	    " AND status = 'abandoned' AND reason = 'log-failed'",
	    (long long)b);
	assert_int_equal(raw_int(fx->path, sql), 1);
	free(big);
	tu_empty_dir(fx->dir);
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
	tu_empty_dir(fx->dir);
}

/*
 * A handshake with the writer thread (store_set_hook): at the point
 * `where` of the first batch that reaches it, the writer says so and waits
 * until the test lets it go on.
 */
struct gate {
	pthread_mutex_t	 mtx;
	pthread_cond_t	 cond;
	enum store_hook	 where;
	int		 armed;		/* the next batch at where stops */
	int		 stopped;	/* the writer waits at the gate */
	int		 go;		/* the test lets it go on */
};

/* The hook: stops the writer at the gate once (writer thread). */
static void
gate_hook(void *arg, enum store_hook where)
{
	struct gate	*g = arg;

	pthread_mutex_lock(&g->mtx);
	if (g->armed && where == g->where) {
		g->armed = 0;
		g->stopped = 1;
		pthread_cond_broadcast(&g->cond);
		while (!g->go)
			pthread_cond_wait(&g->cond, &g->mtx);
	}
	pthread_mutex_unlock(&g->mtx);
}

/* Arms the gate on st at where. */
static void
gate_arm(struct gate *g, struct store *st, enum store_hook where)
{
	memset(g, 0, sizeof *g);
	pthread_mutex_init(&g->mtx, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->where = where;
	g->armed = 1;
	store_set_hook(st, gate_hook, g);
}

/* Waits until the writer stands at the gate. */
static void
gate_wait(struct gate *g)
{
	pthread_mutex_lock(&g->mtx);
	while (!g->stopped)
		pthread_cond_wait(&g->cond, &g->mtx);
	pthread_mutex_unlock(&g->mtx);
}

/* Lets the writer go on. */
static void
gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->mtx);
	g->go = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->mtx);
}

/* Removes the hook from st and frees the gate's locks. */
static void
gate_free(struct gate *g, struct store *st)
{
	store_set_hook(st, NULL, NULL);
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->mtx);
}

/*
 * The queue is bounded: a stuck writer makes it refuse, not grow.  The
 * writer is held at the start of the batch with the game's start, so the
 * queue is empty then: the first run of 64 moves gets in, and the rest of
 * the 200 moves (64 + 64 + 8) are refused.
 */
static void
test_queue_bound(void **state)
{
	struct fixture	*fx = *state;
	struct store_config cf;
	struct store	*st;
	struct store_game g = { "nim", "nim 200", "conn:1", "engine", 0, NULL, 0, 0 };
	struct store_move m = { 0, 1, "1=0", "nim 0", 1, STORE_KEPT_WIN };
	struct store_counters c;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 };
	struct gate	 gt;
	int64_t		 id;
	unsigned long	 i;

	store_config_default(&cf);
	cf.queue_max = 10;
	st = open_ok(fx->path, &cf);
	gate_arm(&gt, st, STORE_HOOK_BATCH);
	id = store_game_begin(st, &g);
	gate_wait(&gt);
	for (i = 1; i <= 200; i++) {
		m.ply = i;
		store_move(st, id, &m);
	}
	store_game_end(st, id, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d1);
	store_counters(st, &c);
	assert_int_equal(c.dropped, 136);
	gate_open(&gt);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);		/* its record is incomplete */
	store_counters(st, &c);
	assert_int_equal(c.dropped, 136);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves"), 64);
	/* Once the writer is free again, all is well. */
	script_write(st, &scripts[0], STORE_FINISHED, &d2);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d2.ok, 1);
	gate_free(&gt, st);
	store_close(st);
	tu_empty_dir(fx->dir);
}

/* Garbage and damaged files are refused with a clear message. */
static void
test_corrupt(void **state)
{
	struct fixture	*fx = *state;
	char		 junk[8192];
	size_t		 i;
	int		 fd;

	for (i = 0; i < sizeof junk; i++)
		junk[i] = (char)(i * 31 + 7);
	fd = open(fx->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd != -1);
	assert_int_equal(write(fd, junk, sizeof junk), sizeof junk);
	close(fd);
	open_fails(fx->path, 1000, "file is not a database");
	tu_empty_dir(fx->dir);

	/* A valid header over a damaged schema page. */
	store_close(open_ok(fx->path, NULL));
	fd = open(fx->path, O_WRONLY);
	assert_true(fd != -1);
	assert_int_equal(pwrite(fd, junk, 1000, 100), 1000);
	close(fd);
	open_fails(fx->path, 1000, "corrupt");
	tu_empty_dir(fx->dir);
}

/* Reads go on while the writer writes (WAL), and see whole games. */
struct reader_arg {
	struct store	*st;
	int		 stop;
	int		 errors;
	unsigned long	 reads;
};

/* Returns the number of moves of the script that starts at start. */
static size_t
script_moves(const char *start)
{
	size_t	 i;

	for (i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
		if (strcmp(scripts[i].start, start) == 0)
			return (scripts[i].n);
	}
	return ((size_t)-1);
}

/* Reads records and stats until told to stop (reader thread). */
static void *
reader_main(void *arg)
{
	struct reader_arg *ra = arg;
	struct buf	 b;
	struct rec	 r;
	int64_t		 id;
	int		 rc;

	buf_init(&b);
	while (!__atomic_load_n(&ra->stop, __ATOMIC_ACQUIRE)) {
		for (id = 1; id <= 22; id++) {
			buf_reset(&b);
			rc = text_record(ra->st, id, &b);
			if (rc == -1)
				ra->errors++;
			if (rc != 1)
				continue;
			rec_parse(b.data, &r);
			/* A finished game is whole. */
			if (strcmp(r.status, "finished") == 0 &&
			    r.nmoves != script_moves(r.start))
				ra->errors++;
		}
		buf_reset(&b);
		if (text_stats(ra->st, &b) == -1)
			ra->errors++;
		ra->reads++;
	}
	buf_free(&b);
	return (NULL);
}

/*
 * Concurrent reads during writes.  First exactly: the writer is held in
 * the middle of a transaction (its writes done, not committed) while
 * this thread reads: it sees the committed game whole and nothing of the
 * uncommitted one, and the writer then commits.  Then a reader thread
 * reads in a loop while 20 games are written: no read fails, and every
 * finished game it sees is whole.
 */
static void
test_concurrent_reads(void **state)
{
	struct fixture	*fx = *state;
	struct reader_arg ra;
	struct gate	 gt;
	struct buf	 b;
	struct rec	 r;
	pthread_t	 t;
	struct done	 d[22];
	int64_t		 id1, id2;
	int		 i;

	memset(&ra, 0, sizeof ra);
	memset(d, 0, sizeof d);
	ra.st = open_ok(fx->path, NULL);
	id1 = script_write(ra.st, &scripts[0], STORE_FINISHED, &d[20]);
	assert_int_equal(store_flush(ra.st), 0);
	gate_arm(&gt, ra.st, STORE_HOOK_WRITTEN);
	id2 = script_write(ra.st, &scripts[1], STORE_FINISHED, &d[21]);
	gate_wait(&gt);
	rec_read(ra.st, id1, &r);
	script_check(&scripts[0], &r, "finished");
	buf_init(&b);
	assert_int_equal(text_record(ra.st, id2, &b), 0);
	assert_int_equal(text_stats(ra.st, &b), 0);
	assert_string_equal(buf_str(&b), "games 1\nmoves 4\n"
	    "player conn:17 moves 2 optimal 50 kept-win 1 threw-win 1\n"
	    "player engine moves 2 optimal 100 kept-win 1 threw-win 0\n");
	buf_free(&b);
	assert_int_equal(d[21].called, 0);
	gate_open(&gt);
	assert_int_equal(store_flush(ra.st), 0);
	assert_int_equal(d[21].ok, 1);
	rec_read(ra.st, id2, &r);
	script_check(&scripts[1], &r, "finished");
	gate_free(&gt, ra.st);

	assert_int_equal(pthread_create(&t, NULL, reader_main, &ra), 0);
	for (i = 0; i < 20; i++) {
		script_write(ra.st, &scripts[0], STORE_FINISHED, &d[i]);
		if (i % 4 == 0)
			store_flush(ra.st);
	}
	store_flush(ra.st);
	__atomic_store_n(&ra.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_int_equal(ra.errors, 0);
	for (i = 0; i < 20; i++)
		assert_int_equal(d[i].ok, 1);
	store_close(ra.st);
	tu_empty_dir(fx->dir);
}

/* A child's game whose end was reported: where to say so. */
struct child_done {
	int		 fd;
	int64_t		 id;
};

/* Reports a committed game to the parent (child's writer thread). */
static void
child_done_cb(void *arg, int ok)
{
	struct child_done *cd = arg;

	if (ok && write(cd->fd, &cd->id, sizeof cd->id) != sizeof cd->id)
		_exit(4);
	free(cd);
}

/* Writes games forever (the child); game id has id % 5 + 1 moves. */
static void
child_load(const char *path, int fd)
{
	struct store	*st;
	struct store_game g = { "nim", "nim 9 9", "conn:1", "engine", 0, NULL, 0, 0 };
	struct store_move m = { 0, 1, "1=0", "nim 0 9", 3, STORE_KEPT_WIN };
	struct child_done *cd;
	char		 err[512];
	int64_t		 id, k;
	int		 i;

	if ((st = store_open(path, err, sizeof err)) == NULL)
		_exit(2);
	for (i = 0; i < 1000000; i++) {
		id = store_game_begin(st, &g);
		for (k = 1; k <= id % 5 + 1; k++) {
			m.ply = (unsigned long)k;
			m.player = (int)((k + 1) % 2) + 1;
			store_move(st, id, &m);
		}
		if ((cd = malloc(sizeof *cd)) == NULL)
			_exit(3);
		cd->fd = fd;
		cd->id = id;
		store_game_end(st, id, STORE_RESULT_FIRST, "no-legal-move",
		    STORE_FINISHED, child_done_cb, cd);
		if (i % 16 == 15)
			store_flush(st);
	}
	_exit(0);
}

/*
 * Durability: kill -9 a writing child; every game whose done callback
 * said ok is in the database, finished and whole.
 */
static void
test_durability(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct rec	 r;
	int64_t		*ids, id;
	size_t		 n = 0, cap = 16384, i;
	ssize_t		 got;
	long		 t0;
	pid_t		 pid;
	int		 fds[2], status, killed = 0;

	ids = calloc(cap, sizeof *ids);
	assert_non_null(ids);
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		close(fds[0]);
		child_load(fx->path, fds[1]);
	}
	close(fds[1]);
	t0 = now_ms();
	for (;;) {
		got = read(fds[0], &id, sizeof id);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		assert_int_equal(got, sizeof id);
		if (n < cap)
			ids[n++] = id;
		if (!killed && (n >= 400 || now_ms() - t0 > 5000)) {
			kill(pid, SIGKILL);
			killed = 1;
		}
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	print_message("durability: %zu games reported committed before "
	    "SIGKILL\n", n);
	assert_true(n >= 100);

	st = open_ok(fx->path, NULL);
	for (i = 0; i < n; i++) {
		rec_read(st, ids[i], &r);
		assert_string_equal(r.status, "finished");
		assert_string_equal(r.result, "first");
		assert_int_equal(r.nmoves, ids[i] % 5 + 1);
	}
	store_close(st);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games "
	    "WHERE status = 'live'"), 0);
	integrity_ok(fx->path);
	free(ids);
	tu_empty_dir(fx->dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_time_text),
		cmocka_unit_test(test_log_time),
		cmocka_unit_test(test_read_data),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_wal),
		cmocka_unit_test(test_migrate_each),
		cmocka_unit_test(test_migrate_synthetic),
		cmocka_unit_test(test_migrate_v1_data),
		cmocka_unit_test(test_migrate_v3_data),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_newer),
		cmocka_unit_test(test_history_stats),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_bad_writes),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_abandon),
		cmocka_unit_test(test_batching),
		cmocka_unit_test(test_readonly),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_locked),
		cmocka_unit_test(test_full_probe),
		cmocka_unit_test(test_queue_bound),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_concurrent_reads),
		cmocka_unit_test(test_durability),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
