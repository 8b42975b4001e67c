/*
 * testdb.c: what the store and league tests share (testdb.h).
 */
#include <sys/types.h>

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
#include "testdb.h"

#include "lib/buf.h"
#include "cmd/cmd-history.h"
#include "league/league.h"
#include "db/sqldb.h"
#include "store/store.h"

/* The PostgreSQL database of this run (SQLDB_PG_URL), or NULL: SQLite. */
const char *
tdb_pg(void)
{
	const char	*u = getenv("SQLDB_PG_URL");

	return (u != NULL && *u != '\0' ? u : NULL);
}

/* Opens path (a file or a PostgreSQL URL) with sqldb; fails the test. */
static struct sqldb *
tdb_sqldb(const char *path)
{
	struct sqldb	*db;
	char		 err[512];

	if (sqldb_open(path, &db, err, sizeof err) == -1)
		fail_msg("sqldb_open %s: %s", path, err);
	return (db);
}

/* Runs a script of SQL on a PostgreSQL URL; fails the test on error. */
static void
tdb_pg_exec(const char *url, const char *sql)
{
	struct sqldb	*db = tdb_sqldb(url);

	if (sqldb_exec(db, sql) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	sqldb_close(db);
}

/* The first column of one row of sql on a URL, as text (NULL: none). */
static void
tdb_pg_text(const char *url, const char *sql, char *out, size_t len,
    const char *none, const char *null)
{
	struct sqldb	*db = tdb_sqldb(url);
	struct sqldb_stmt *s;
	const char	*t;

	snprintf(out, len, "%s", none);
	if (sqldb_prepare(db, sql, 0, &s) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	if (sqldb_step(s) == SQLDB_ROW) {
		t = sqldb_column_text(s, 0);
		snprintf(out, len, "%s", t != NULL ? t : null);
	}
	sqldb_finalize(s);
	sqldb_close(db);
}

/* The version of the migrations the database at path has. */
int64_t
tdb_version(const char *path)
{
	return (raw_int(path, tdb_pg() != NULL ? "SELECT version FROM"
	    " schema_version" : "PRAGMA user_version"));
}

/*
 * Empties the test's database: the temporary directory (SQLite), or every
 * table, view, function and sequence of the PostgreSQL database.
 */
void
tdb_reset(struct fixture *fx)
{
	tu_empty_dir(fx->dir);
	if (tdb_pg() != NULL)
		tdb_pg_exec(fx->path, "SET client_min_messages = warning;"
		    " DROP SCHEMA public CASCADE; CREATE SCHEMA public");
}

/* Appends game id's record as the record command gives it; as store_record. */
int
text_record(struct store *st, int64_t id, struct buf *b)
{
	return (cmd_history_record(st, id, b));
}

/* Appends the stats command's text; as store_stats. */
int
text_stats(struct store *st, struct buf *b)
{
	struct store_stats ss;
	int		 rv;

	if ((rv = store_stats(st, &ss)) == 0)
		cmd_history_stats(b, &ss);
	store_stats_free(&ss);
	return (rv);
}

/* Returns milliseconds on the monotonic clock. */
long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/*
 * A game of nim from start between p1 and p2: unrated, no clock, no
 * tournament.
 */
struct store_game
nim_game(const char *start, const char *p1, const char *p2)
{
	struct store_game g = { "nim", start, p1, p2, 0, NULL, 0, 0 };

	return (g);
}

/* A game of nim from start between conn:1 and the engine (nim_game). */
struct store_game
engine_game(const char *start)
{
	return (nim_game(start, "conn:1", "engine"));
}

/* Creates the temporary directory named for prefix; names the database. */
int
tdb_setup(void **state, const char *prefix)
{
	struct fixture	*fx;

	fx = calloc(1, sizeof *fx);
	if (fx == NULL)
		return (-1);
	if (tu_tmpdir(fx->dir, sizeof fx->dir, prefix) != 0) {
		free(fx);
		return (-1);
	}
	if (tdb_pg() != NULL)
		snprintf(fx->path, sizeof fx->path, "%s", tdb_pg());
	else
		snprintf(fx->path, sizeof fx->path, "%s/grundy.db", fx->dir);
	*state = fx;
	return (0);
}

/* Closes what the test left open and removes the temporary directory. */
int
tdb_teardown(void **state)
{
	struct fixture	*fx = *state;

	league_close(fx->lg);
	store_close(fx->st);
	tu_empty_dir(fx->dir);
	rmdir(fx->dir);
	free(fx);
	return (0);
}

/* Empties the temporary directory (a store test's set-up). */
int
tdb_clean(void **state)
{
	struct fixture	*fx = *state;

	tdb_reset(fx);
	return (0);
}

/* Opens fx->st on path with the default settings; -1 with a message. */
static int
tdb_open(void **state, const char *path)
{
	struct fixture	*fx = *state;
	struct store_config cf;
	char		 err[512];

	tdb_reset(fx);
	store_config_default(&cf);
	err[0] = '\0';
	if ((fx->st = store_open_config(path, &cf, err, sizeof err)) == NULL) {
		print_error("store_open %s: %s\n", path, err);
		return (-1);
	}
	return (0);
}

/* A store test's set-up: an empty directory, a store on its database. */
int
tdb_open_file(void **state)
{
	struct fixture	*fx = *state;

	return (tdb_open(state, fx->path));
}

/* A store test's set-up: an empty directory, a store in memory (on
 * PostgreSQL: on the emptied database). */
int
tdb_open_memory(void **state)
{
	struct fixture	*fx = *state;

	return (tdb_open(state, tdb_pg() != NULL ? fx->path : ":memory:"));
}

/* Their tear-down, also called by a test to close its store early. */
int
tdb_close(void **state)
{
	struct fixture	*fx = *state;

	store_close(fx->st);
	fx->st = NULL;
	return (0);
}

/* Closes the test's store and opens it again (a restart); returns it. */
struct store *
tdb_reopen(struct fixture *fx)
{
	store_close(fx->st);
	fx->st = NULL;			/* closed, should the open fail */
	fx->st = open_ok(fx->path, NULL);
	return (fx->st);
}

/* Records a done callback (runs on the writer thread). */
void
done_cb(void *arg, int ok)
{
	struct done	*d = arg;

	d->called++;
	d->ok = ok;
}

/* Opens a store or fails the test with its message. */
struct store *
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
void
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
void
raw_exec(sqlite3 *db, const char *sql)
{
	char	*e = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &e) != SQLITE_OK)
		fail_msg("%s: %s", sql, e != NULL ? e : "?");
}

/* Runs one SQL text on the database file path; fails the test on error. */
void
raw_file_exec(const char *path, const char *sql)
{
	sqlite3	*db;

	if (tdb_pg() != NULL) {
		tdb_pg_exec(path, sql);
		return;
	}
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	raw_exec(db, sql);
	sqlite3_close(db);
}

/* Returns the first column of one row of sql as an integer. */
int64_t
raw_int(const char *path, const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*s;
	int64_t		 v = -1;
	char		 t[64];

	if (tdb_pg() != NULL) {
		tdb_pg_text(path, sql, t, sizeof t, "-1", "0");
		return (strtoll(t, NULL, 10));
	}
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
void
integrity_ok(const char *path)
{
	sqlite3		*db;
	sqlite3_stmt	*s;

	if (tdb_pg() != NULL)
		return;		/* SQLite's own check */
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

/* Parses one "move PLY PLAYER MOVE MARK TIME_MS DELAY_US TIME_US" line. */
static void
rec_move_parse(const char *line, struct rec_move *m)
{
	const char	*sp1, *sp2, *s;
	char		*end, copy[4096], *d;
	unsigned long	 us;
	size_t		 n;

	/*
	 * TIME_US: TIME_MS * 1000 and DELAY_US "-" (unknown), as the store's
	 * callers here give neither.
	 */
	assert_true(strlen(line) < sizeof copy);
	snprintf(copy, sizeof copy, "%s", line);
	d = strrchr(copy, ' ');
	assert_non_null(d);
	us = strtoul(d + 1, &end, 10);
	assert_true(*end == '\0' && end > d + 1);
	*d = '\0';
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
	assert_true(us == m->time_ms * 1000);
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
void
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
void
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
int
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

const struct script scripts[NSCRIPTS] = {
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
int64_t
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
void
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

/* Returns the number of moves of the script that starts at start. */
size_t
script_moves(const char *start)
{
	size_t	 i;

	for (i = 0; i < NSCRIPTS; i++) {
		if (strcmp(scripts[i].start, start) == 0)
			return (scripts[i].n);
	}
	return ((size_t)-1);
}

/* Round trip on one database: write the scripts, read the records back. */
void
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


/* Opens the store, then the league, with the given limits. */
void
open_both(struct fixture *fx, unsigned int failures, unsigned int lockout_s)
{
	struct league_limits lim = { failures, lockout_s, 0 };
	char		 err[512];

	err[0] = '\0';
	if ((fx->st = store_open(fx->path, err, sizeof err)) == NULL)
		fail_msg("store_open %s: %s", fx->path, err);
	if ((fx->lg = league_open(fx->path, &lim, err, sizeof err)) == NULL)
		fail_msg("league_open %s: %s", fx->path, err);
}

/* Copies the first column of one row of sql as text ("(null)": NULL). */
void
raw_text(const char *path, const char *sql, char *out, size_t len)
{
	sqlite3		*db;
	sqlite3_stmt	*s;
	const unsigned char *t;

	if (tdb_pg() != NULL) {
		tdb_pg_text(path, sql, out, len, "(none)", "(null)");
		return;
	}
	snprintf(out, len, "(none)");
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW) {
		t = sqlite3_column_text(s, 0);
		snprintf(out, len, "%s", t != NULL ? (const char *)t :
		    "(null)");
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
}

/* Registers an account that must succeed. */
void
reg_ok(struct league *lg, const char *name)
{
	char	 err[512];

	err[0] = '\0';
	if (league_register(lg, name, PASS, err, sizeof err) != 0)
		fail_msg("register %s: %s", name, err);
}

/* The group set-up of the store tests. */
int
tdb_setup_store(void **state)
{
	return (tdb_setup(state, "test-store"));
}

/* The set-up of each league test. */
int
tdb_setup_league(void **state)
{
	return (tdb_setup(state, "test-league"));
}
