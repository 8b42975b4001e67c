/*
 * store-db.c: the store's database plumbing on sqldb.h (store.c): opening
 * the writer's and the reads' connections, SQLite's own settings there
 * (WAL and its hook and checkpoints, synchronous, the page cap, query_only:
 * through sqldb_sqlite_handle(), only on SQLite), errors in words, the
 * schema migrations, and the times as the log stores them.  Also the
 * SQLite helpers that league.c still calls (store.h).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "store/store-int.h"
#include "lib/util.h"

/* Writes the current UTC time as the log stores it. */
void
store_now(char *out, size_t len)
{
	clock_now_text(out, len);
}

/* Returns the days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t
store_days(int64_t y, unsigned int m, unsigned int d)
{
	int64_t		 era, yoe, doy;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	return (era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468);
}

/* Writes ms (milliseconds since the Unix epoch) as the log stores times. */
void
store_time_text(int64_t ms, char *out, size_t len)
{
	clock_time_text(ms, out, len);
}

/* Reads the n-digit decimal at p into *v; returns 0, or -1. */
static int
store_undigits(const char *p, int n, unsigned int *v)
{
	*v = 0;
	while (n-- > 0) {
		if (*p < '0' || *p > '9')
			return (-1);
		*v = *v * 10 + (unsigned int)(*p++ - '0');
	}
	return (0);
}

/*
 * Reads a time as the log stores it; returns milliseconds since the Unix
 * epoch, or STORE_TIME_NONE if s is NULL or not exactly in that form, a
 * real date and time (so that store_time_text gives s back whenever this
 * succeeds).
 */
int64_t
store_time_parse(const char *s)
{
	static const unsigned int mdays[12] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	unsigned int	 y, mo, d, h, mi, sec, ms;

	if (s == NULL || strlen(s) != STORE_TIME_LEN - 1 || s[4] != '-' ||
	    s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
	    s[19] != '.' || s[23] != 'Z' ||
	    store_undigits(s, 4, &y) != 0 || store_undigits(s + 5, 2, &mo) ||
	    store_undigits(s + 8, 2, &d) || store_undigits(s + 11, 2, &h) ||
	    store_undigits(s + 14, 2, &mi) || store_undigits(s + 17, 2, &sec) ||
	    store_undigits(s + 20, 3, &ms))
		return (STORE_TIME_NONE);
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 ||
	    mi > 59 || sec > 59)
		return (STORE_TIME_NONE);
	if (mo == 2 && d == 29 && (y % 4 != 0 ||
	    (y % 100 == 0 && y % 400 != 0)))
		return (STORE_TIME_NONE);
	return ((store_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) *
	    1000 + ms);
}

/* Keeps db's last failure in f, for store_error. */
void
store_fail_note(struct store_fail *f, struct sqldb *db)
{
	sqlite3	*h;

	f->cls = sqldb_errclass(db);
	f->code = sqldb_native_code(db);
	h = sqldb_sqlite_handle(db);
	f->sysno = h != NULL ? sqlite3_system_errno(h) : 0;
	snprintf(f->msg, sizeof f->msg, "%s", sqldb_errmsg(db));
}

/* SQLite's code of a failure of a PostgreSQL store: by its class. */
static int
store_fail_code(const struct store_fail *f)
{
	switch (f->cls) {
	case SQLDB_BUSY:
		return (SQLITE_BUSY);
	case SQLDB_FULL:
		return (SQLITE_FULL);
	default:
		return (f->code);
	}
}

/*
 * Describes a failed database call in err, naming the usual operational
 * causes in words: not a database, corrupt, read-only, locked, full,
 * unreachable.
 */
void
store_error(char *err, size_t errlen, const char *path,
    const struct store_fail *f, const char *what, int busy_ms)
{
	const char	*msg = f->msg;

	if (f->cls == SQLDB_CONN) {
		snprintf(err, errlen, "%s: database unreachable: cannot %s: "
		    "%s", path, what, msg);
		return;
	}
	switch (store_fail_code(f) & 0xff) {
	case SQLITE_NOTADB:
		snprintf(err, errlen, "%s: file is not a database (not an "
		    "SQLite file, or its header is damaged)", path);
		break;
	case SQLITE_CORRUPT:
		snprintf(err, errlen, "%s: database is corrupt (%s): restore "
		    "it from a backup", path, msg);
		break;
	case SQLITE_READONLY:
		snprintf(err, errlen, "%s: database is read-only: grundyd "
		    "needs write access to the file and its directory", path);
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		snprintf(err, errlen, "%s: database is locked by another "
		    "process (waited %d ms)", path, busy_ms);
		break;
	case SQLITE_FULL:
		snprintf(err, errlen, "%s: disk full (or the size cap "
		    "reached): cannot %s", path, what);
		break;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_IOERR:
		snprintf(err, errlen, "%s: cannot %s: %s%s%s", path, what, msg,
		    f->sysno != 0 ? ": " : "",
		    f->sysno != 0 ? strerror(f->sysno) : "");
		break;
	default:
		snprintf(err, errlen, "%s: cannot %s: %s", path, what, msg);
		break;
	}
}

/* store_error of db's last failure. */
void
store_error_db(char *err, size_t errlen, const char *path, struct sqldb *db,
    const char *what, int busy_ms)
{
	struct store_fail f;

	store_fail_note(&f, db);
	store_error(err, errlen, path, &f, what, busy_ms);
}

/* The code of db's last failure for logs: SQLite's, or sqldb's class. */
int
store_code(struct sqldb *db)
{
	int	 c = sqldb_native_code(db);

	return (sqldb_backend(db) == SQLDB_SQLITE && c != 0 ? c :
	    (int)sqldb_errclass(db));
}

/* Does db's last failure concern the statement alone (its values)? */
int
store_fails_alone(struct sqldb *db)
{
	if (sqldb_errclass(db) == SQLDB_CONSTRAINT)
		return (1);
	if (sqldb_backend(db) != SQLDB_SQLITE)
		return (0);
	switch (sqldb_native_code(db) & 0xff) {
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
	case SQLITE_TOOBIG:
		return (1);
	}
	return (0);
}

/* Reads the first column of sql's first row as text into out (SQLite's
 * PRAGMAs); returns 0, or -1. */
static int
store_pragma(struct sqldb *db, const char *sql, char *out, size_t outlen)
{
	struct sqldb_stmt *s;
	const char	*t;
	int		 rc;

	if (sqldb_prepare(db, sql, 0, &s) == -1)
		return (-1);
	if ((rc = sqldb_step(s)) == SQLDB_ROW && out != NULL) {
		t = sqldb_column_text(s, 0);
		snprintf(out, outlen, "%s", t != NULL ? t : "");
	}
	sqldb_finalize(s);
	return (rc == -1 ? -1 : 0);
}

/* Describes a failed migration: a schema error as such, else in words. */
static void
store_migrate_error(char *err, size_t errlen, const char *path,
    struct sqldb *db, const char *name, int busy_ms)
{
	if (sqldb_errclass(db) == SQLDB_OTHER &&
	    (sqldb_native_code(db) & 0xff) == SQLITE_ERROR)
		snprintf(err, errlen, "%s: migration %s failed: %s", path,
		    name, sqldb_errmsg(db));
	else
		store_error_db(err, errlen, path, db, "migrate the schema",
		    busy_ms);
}

/*
 * Brings the database to version upto of list.  SQLite: in one
 * transaction, or leaves it as it was.  PostgreSQL: sqldb_migrate, each
 * migration in its own transaction under the lock that makes nodes
 * starting together take turns.  A version newer than the list is
 * refused.
 */
static int
store_migrate(struct sqldb *db, const char *path, const struct sqldb_migration
    *list, size_t n, int upto, int busy_ms, char *err, size_t errlen)
{
	char	 sql[64], e[512];
	int	 v, i;

	if (sqldb_backend(db) != SQLDB_SQLITE) {
		/* The store's own list has its twin for PostgreSQL. */
		if (list == store_migrations) {
			list = sqldb_pg_migrations;
			n = sqldb_pg_nmigrations;
		}
		if (sqldb_migrate(db, list, n, upto, e, sizeof e) == -1) {
			snprintf(err, errlen, "%s: %s", path, e);
			return (-1);
		}
		return (0);
	}
	if (sqldb_begin(db) == -1) {
		store_error_db(err, errlen, path, db, "start the migration",
		    busy_ms);
		return (-1);
	}
	if (sqldb_version(db, &v) == -1) {
		store_error_db(err, errlen, path, db, "read the version",
		    busy_ms);
		goto fail;
	}
	if (v < 0 || (size_t)v > n) {
		snprintf(err, errlen, "%s: database version %d is newer than "
		    "this grundyd (%zu): upgrade grundyd", path, v, n);
		goto fail;
	}
	for (i = v; i < upto; i++) {
		if (list[i].version != i + 1) {
			snprintf(err, errlen, "%s: migration %s is out of "
			    "order (version %d, expected %d)", path,
			    list[i].name, list[i].version, i + 1);
			goto fail;
		}
		/* The schema script is the binary's own text, no values. */
		if (sqldb_exec(db, list[i].sql) == -1) {
			store_migrate_error(err, errlen, path, db,
			    list[i].name, busy_ms);
			goto fail;
		}
		/* PRAGMA takes no parameters; the value is an int we own. */
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", i + 1);
		if (sqldb_exec(db, sql) == -1) {
			store_error_db(err, errlen, path, db,
			    "record the version", busy_ms);
			goto fail;
		}
	}
	if (sqldb_commit(db) == -1) {
		store_error_db(err, errlen, path, db, "commit the migration",
		    busy_ms);
		goto fail;
	}
	if (v < upto)
		log_info("store=%s event=migrated from=%d to=%d", path, v,
		    upto);
	return (0);

fail:
	sqldb_rollback(db);
	return (-1);
}

/* Sets the connection's size cap in pages (0: none); SQLite only. */
int
store_max_pages(struct sqldb *db, unsigned long n)
{
	char	 sql[64];

	if (sqldb_backend(db) != SQLDB_SQLITE)
		return (0);
	if (n == 0 || n > STORE_PAGES_NONE)
		n = STORE_PAGES_NONE;
	/* PRAGMA takes no parameters; the value is a number. */
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lu", n);
	return (store_pragma(db, sql, NULL, 0));
}

/*
 * Opens a second connection to path for reading only (the reads',
 * verify ratings'): SQLite's query_only.  Returns 0, or -1 with err
 * filled in.
 */
int
store_open_ro(const char *path, int busy_ms, struct sqldb **dbp, char *err,
    size_t errlen)
{
	if (sqldb_open(path, dbp, err, errlen) == -1)
		return (-1);
	if (sqldb_busy_timeout(*dbp, busy_ms) == -1 ||
	    (sqldb_backend(*dbp) == SQLDB_SQLITE &&
	    store_pragma(*dbp, "PRAGMA query_only = 1", NULL, 0) == -1)) {
		store_error_db(err, errlen, path, *dbp, "open for reading",
		    busy_ms);
		sqldb_close(*dbp);
		*dbp = NULL;
		return (-1);
	}
	return (0);
}

/*
 * For tests and tools: opens the database at path (or URL) and migrates
 * it to version upto of list.  Returns 0, or -1 with err filled in.
 */
int
store_migrate_file(const char *path, const struct sqldb_migration *list,
    size_t n, int upto, char *err, size_t errlen)
{
	struct sqldb	*db;
	char		 e[512];
	int		 r = -1;

	if (upto < 0 || (size_t)upto > n) {
		snprintf(err, errlen, "%s: no migration %d", path, upto);
		return (-1);
	}
	if (sqldb_open(path, &db, e, sizeof e) == -1)
		snprintf(err, errlen, "%s", e);
	else if (sqldb_busy_timeout(db, STORE_BUSY_MS) == 0)
		r = store_migrate(db, path, list, n, upto, STORE_BUSY_MS, err,
		    errlen);
	sqldb_close(db);
	return (r);
}

/*
 * Prepares the n statements sql[] on db into stmt[], PostgreSQL's own
 * pg[i] instead where pg is given and pg[i] is not NULL; returns 0, or -1
 * (the statements before stay prepared, for the caller to finalize).
 */
int
store_prepare(struct sqldb *db, const char *const *sql,
    const char *const *pg, size_t n, struct sqldb_stmt **stmt)
{
	const char	*q;
	size_t		 i;

	for (i = 0; i < n; i++) {
		q = pg != NULL && pg[i] != NULL && sqldb_backend(db) ==
		    SQLDB_PG ? pg[i] : sql[i];
		if (sqldb_prepare(db, q, 0, &stmt[i]) == -1)
			return (-1);
	}
	return (0);
}

/* Runs a bound statement to its end and resets it; returns 0, or -1. */
int
store_do(struct sqldb_stmt *s)
{
	int	 rc;

	while ((rc = sqldb_step(s)) == SQLDB_ROW)
		;
	sqldb_reset(s);
	return (rc == -1 ? -1 : 0);
}

/* The probe: a real write that changes nothing (SQLite: the header's
 * user_version rewritten with its own value). */
int
store_probe_write(struct sqldb *db)
{
	char	 out[32], sql[64];

	if (sqldb_backend(db) != SQLDB_SQLITE)
		return (sqldb_exec(db, "UPDATE ratings_checkpoint SET seq = seq"
		    " WHERE id = 1"));
	if (store_pragma(db, "PRAGMA user_version", out, sizeof out) == -1)
		return (-1);
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", atoi(out));
	return (sqldb_exec(db, sql));
}

/* Notes the WAL's size after each commit (the writer's WAL hook). */
static int
store_wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct store	*st = arg;

	(void)db;
	(void)name;
	st->wal_frames = frames;
	return (SQLITE_OK);
}

/*
 * After a batch's callbacks: the checkpoint, if the WAL is big (SQLite).
 * Returns 0, or SQLite's code of a failure with msg filled in.
 */
int
store_checkpoint(struct store *st, char *msg, size_t msglen)
{
	sqlite3	*h;
	int	 rc;

	if (st->wal_frames < STORE_CKPT_FRAMES ||
	    (h = sqldb_sqlite_handle(st->wdb)) == NULL)
		return (0);
	rc = sqlite3_wal_checkpoint_v2(h, NULL, SQLITE_CHECKPOINT_PASSIVE,
	    NULL, NULL);
	st->wal_frames = 0;
	if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY) {
		snprintf(msg, msglen, "%s", sqlite3_errmsg(h));
		return (rc);
	}
	return (0);
}

/* Sets the game ids' counter from MAX(id); returns 0, or -1. */
static int
store_max_id(struct store *st)
{
	struct sqldb_stmt *s;
	int		 rc;

	if (sqldb_prepare(st->wdb, "SELECT COALESCE(MAX(id), 0) FROM games",
	    0, &s) == -1)
		return (-1);
	if ((rc = sqldb_step(s)) == SQLDB_ROW)
		st->open_id = sqldb_column_int64(s, 0);
	sqldb_finalize(s);
	st->next_id = st->open_id;
	return (rc == SQLDB_ROW ? 0 : -1);
}

/*
 * The SQLite-only settings of the writer's connection: WAL with its hook
 * and size limit (a file; in memory the reads share the connection),
 * synchronous=FULL.  Returns 0, or -1 with err filled in.
 */
static int
store_sqlite_writer(struct store *st, sqlite3 *h, char *err, size_t errlen)
{
	const char	*fname, *what = "configure";
	char		 mode[32];
	struct store_fail f;

	if (sqlite3_db_readonly(h, "main") == 1) {
		memset(&f, 0, sizeof f);
		f.cls = SQLDB_OTHER;
		f.code = SQLITE_READONLY;
		store_error(err, errlen, st->name, &f, "open", st->busy_ms);
		return (-1);
	}
	fname = sqlite3_db_filename(h, "main");
	st->shared = fname == NULL || *fname == '\0';
	if (!st->shared) {
		if (store_pragma(st->wdb, "PRAGMA journal_mode = WAL", mode,
		    sizeof mode) == -1) {
			what = "read the database";
			goto fail;
		}
		if (strcmp(mode, "wal") != 0)
			log_warnx("store=%s event=no-wal journal_mode=%s",
			    st->name, mode);
		/* PRAGMA takes no parameters; the value is a constant. */
		if (store_pragma(st->wdb, "PRAGMA journal_size_limit = "
		    STORE_WAL_LIMIT, NULL, 0) == -1)
			goto fail;
		/* Replaces the automatic checkpoint: see the top. */
		sqlite3_wal_hook(h, store_wal_hook, st);
	}
	if (store_pragma(st->wdb, "PRAGMA synchronous = FULL", NULL, 0) == -1)
		goto fail;
	return (0);

fail:
	store_error_db(err, errlen, st->name, st->wdb, what, st->busy_ms);
	return (-1);
}

/*
 * Opens the writer's connection: SQLite's settings (WAL,
 * synchronous=FULL, the size cap), the migrations, the last game id (the
 * writes are prepared by store-writer.c).  Returns 0, or -1 with err
 * filled in.
 */
int
store_open_writer(struct store *st, const struct store_config *cf,
    char *err, size_t errlen)
{
	sqlite3	*h;
	char	 e[512], *p;

	if (sqldb_open(st->path, &st->wdb, e, sizeof e) == -1) {
		for (p = e; *p != '\0'; p++)	/* libpq's lines: one */
			if (*p == '\n' || *p == '\t')
				*p = ' ';
		/* SQLite's names the path; PostgreSQL's not the URL. */
		if (sqldb_url_is_pg(st->path))
			snprintf(err, errlen, "%s: %s", st->name, e);
		else
			snprintf(err, errlen, "%s", e);
		return (-1);
	}
	if (sqldb_busy_timeout(st->wdb, st->busy_ms) == -1) {
		store_error_db(err, errlen, st->name, st->wdb, "configure",
		    st->busy_ms);
		return (-1);
	}
	if ((h = sqldb_sqlite_handle(st->wdb)) != NULL &&
	    store_sqlite_writer(st, h, err, errlen) == -1)
		return (-1);
	if (store_max_pages(st->wdb, cf->max_pages) == -1) {
		store_error_db(err, errlen, st->name, st->wdb, "configure",
		    st->busy_ms);
		return (-1);
	}
	if (store_migrate(st->wdb, st->name, store_migrations,
	    store_nmigrations, (int)store_nmigrations, st->busy_ms, err,
	    errlen) == -1)
		return (-1);
	if (store_max_id(st) == -1) {
		store_error_db(err, errlen, st->name, st->wdb,
		    "read the games", st->busy_ms);
		return (-1);
	}
	return (0);
}

/*
 * Opens the reads' connection (query only; the writer's for an in-memory
 * database); store-read.c prepares the reads.  Returns 0, or -1 with err
 * filled in.
 */
int
store_open_reader(struct store *st, char *err, size_t errlen)
{
	if (st->shared) {
		st->rdb = st->wdb;
		return (0);
	}
	return (store_open_ro(st->path, st->busy_ms, &st->rdb, err, errlen));
}
