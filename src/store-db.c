/*
 * store-db.c: the SQLite helpers of the store and the league (any thread,
 * any connection): opening a connection, one-shot statements, binding and
 * stepping, errors in words, and the schema migrations; and the opening of
 * the store's two connections (store.c).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "clock.h"
#include "log.h"
#include "store-int.h"
#include "util.h"

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

/*
 * Describes a failed SQLite call in err, naming the usual operational
 * causes in words: not a database, corrupt, read-only, locked, full.
 */
void
store_error(char *err, size_t errlen, const char *path, sqlite3 *db,
    int rc, const char *what, int busy_ms)
{
	const char	*msg = db != NULL ? sqlite3_errmsg(db) :
			    sqlite3_errstr(rc);
	int		 e;

	switch (rc & 0xff) {
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
		e = db != NULL ? sqlite3_system_errno(db) : 0;
		snprintf(err, errlen, "%s: cannot %s: %s%s%s", path, what, msg,
		    e != 0 ? ": " : "", e != 0 ? strerror(e) : "");
		break;
	default:
		snprintf(err, errlen, "%s: cannot %s: %s", path, what, msg);
		break;
	}
}

/* Runs one statement with no parameters; returns an SQLite code (any
 * first column of its first row goes to out, if given). */
int
store_exec1(sqlite3 *db, const char *sql, char *out, size_t outlen)
{
	sqlite3_stmt	*stmt;
	const unsigned char *t;
	int		 rc;

	if ((rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL)) != SQLITE_OK)
		return (rc);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW && out != NULL) {
		t = sqlite3_column_text(stmt, 0);
		snprintf(out, outlen, "%s", t != NULL ? (const char *)t : "");
	}
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(stmt);
	return (rc);
}

/* Reads PRAGMA user_version into *v; returns an SQLite code. */
static int
store_user_version(sqlite3 *db, int *v)
{
	char	 out[32];
	int	 rc;

	if ((rc = store_exec1(db, "PRAGMA user_version", out,
	    sizeof out)) == SQLITE_OK)
		*v = atoi(out);
	return (rc);
}

/*
 * Brings the database to version upto of list in one transaction, or
 * leaves it as it was.  A version newer than the list is refused.
 */
int
store_migrate(sqlite3 *db, const char *path, const struct sqldb_migration
    *list, size_t n, int upto, int busy_ms, char *err, size_t errlen)
{
	char	 sql[64], *emsg = NULL;
	int	 rc, v, i;

	if ((rc = store_exec1(db, "BEGIN IMMEDIATE", NULL, 0)) != SQLITE_OK) {
		store_error(err, errlen, path, db, rc, "start the migration",
		    busy_ms);
		return (-1);
	}
	if ((rc = store_user_version(db, &v)) != SQLITE_OK) {
		store_error(err, errlen, path, db, rc, "read the version",
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
		if ((rc = sqlite3_exec(db, list[i].sql, NULL, NULL,
		    &emsg)) != SQLITE_OK) {
			if ((rc & 0xff) == SQLITE_ERROR)
				snprintf(err, errlen, "%s: migration %s "
				    "failed: %s", path, list[i].name,
				    emsg != NULL ? emsg : sqlite3_errstr(rc));
			else
				store_error(err, errlen, path, db, rc,
				    "migrate the schema", busy_ms);
			sqlite3_free(emsg);
			goto fail;
		}
		/* PRAGMA takes no parameters; the value is an int we own. */
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", i + 1);
		if ((rc = store_exec1(db, sql, NULL, 0)) != SQLITE_OK) {
			store_error(err, errlen, path, db, rc,
			    "record the version", busy_ms);
			goto fail;
		}
	}
	if ((rc = store_exec1(db, "COMMIT", NULL, 0)) != SQLITE_OK) {
		store_error(err, errlen, path, db, rc, "commit the migration",
		    busy_ms);
		goto fail;
	}
	if (v < upto)
		log_info("store=%s event=migrated from=%d to=%d", path, v,
		    upto);
	return (0);

fail:
	if (!sqlite3_get_autocommit(db))
		store_exec1(db, "ROLLBACK", NULL, 0);
	return (-1);
}

/* Opens a connection and sets its busy timeout; returns an SQLite code. */
int
store_connect(const char *path, int flags, int busy_ms, sqlite3 **dbp)
{
	int	 rc;

	rc = sqlite3_open_v2(path, dbp, flags | SQLITE_OPEN_URI |
	    SQLITE_OPEN_FULLMUTEX, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_extended_result_codes(*dbp, 1);
	sqlite3_busy_timeout(*dbp, busy_ms);
	return (SQLITE_OK);
}

/* Sets the connection's size cap in pages (0: none). */
int
store_max_pages(sqlite3 *db, unsigned long n)
{
	char	 sql[64];

	if (n == 0 || n > STORE_PAGES_NONE)
		n = STORE_PAGES_NONE;
	/* PRAGMA takes no parameters; the value is a number. */
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lu", n);
	return (store_exec1(db, sql, NULL, 0));
}

/*
 * For tests and tools: opens the database file at path and migrates it to
 * version upto of list.  Returns 0, or -1 with err filled in.
 */
int
store_migrate_file(const char *path, const struct sqldb_migration *list,
    size_t n, int upto, char *err, size_t errlen)
{
	sqlite3	*db = NULL;
	int	 rc, r = -1;

	if (upto < 0 || (size_t)upto > n) {
		snprintf(err, errlen, "%s: no migration %d", path, upto);
		return (-1);
	}
	rc = store_connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	    STORE_BUSY_MS, &db);
	if (rc != SQLITE_OK)
		store_error(err, errlen, path, db, rc, "open", STORE_BUSY_MS);
	else
		r = store_migrate(db, path, list, n, upto, STORE_BUSY_MS, err,
		    errlen);
	sqlite3_close(db);
	return (r);
}

/*
 * Prepares the n statements sql[] on db into stmt[]; returns an SQLite
 * code (on failure the statements before stay prepared, for the caller to
 * finalize).
 */
int
store_prepare(sqlite3 *db, const char *const *sql, size_t n,
    sqlite3_stmt **stmt)
{
	size_t	 i;
	int	 rc;

	for (i = 0; i < n; i++) {
		if ((rc = sqlite3_prepare_v2(db, sql[i], -1, &stmt[i],
		    NULL)) != SQLITE_OK)
			return (rc);
	}
	return (SQLITE_OK);
}

/* Binds a text, or NULL. */
int
store_bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (s == NULL)
		return (sqlite3_bind_null(stmt, i));
	return (sqlite3_bind_text(stmt, i, s, -1, SQLITE_STATIC));
}

/* Runs a bound statement to completion and resets it; an SQLite code. */
int
store_step(sqlite3_stmt *stmt)
{
	int	 rc;

	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return (rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc);
}

/* Resets a statement after reading its rows, and clears its bindings. */
void
store_done(sqlite3_stmt *stmt)
{
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
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

/* Sets the game ids' counter from MAX(id); returns an SQLite code. */
static int
store_max_id(struct store *st)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	rc = sqlite3_prepare_v2(st->wdb, "SELECT COALESCE(MAX(id), 0) FROM "
	    "games", -1, &stmt, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		st->open_id = sqlite3_column_int64(stmt, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(stmt);
	st->next_id = st->open_id;
	return (rc);
}

/*
 * Opens the writer's connection: WAL, synchronous=FULL, the size cap,
 * the migrations, the last game id (the writes are prepared by
 * store-writer.c).  Returns 0, or -1 with err filled in.
 */
int
store_open_writer(struct store *st, const struct store_config *cf,
    char *err, size_t errlen)
{
	const char	*fname, *what = "configure";
	char		 mode[32];
	int		 rc;

	rc = store_connect(st->path, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, st->busy_ms, &st->wdb);
	if (rc != SQLITE_OK) {
		what = "open";
		goto fail;
	}
	if (sqlite3_db_readonly(st->wdb, "main") == 1) {
		rc = SQLITE_READONLY;
		what = "open";
		goto fail;
	}
	fname = sqlite3_db_filename(st->wdb, "main");
	st->shared = fname == NULL || *fname == '\0';
	if (!st->shared) {
		rc = store_exec1(st->wdb, "PRAGMA journal_mode = WAL", mode,
		    sizeof mode);
		if (rc != SQLITE_OK) {
			what = "read the database";
			goto fail;
		}
		if (strcmp(mode, "wal") != 0)
			log_warnx("store=%s event=no-wal journal_mode=%s",
			    st->path, mode);
		/* PRAGMA takes no parameters; the value is a constant. */
		rc = store_exec1(st->wdb, "PRAGMA journal_size_limit = "
		    STORE_WAL_LIMIT, NULL, 0);
		if (rc != SQLITE_OK)
			goto fail;
		/* Replaces the automatic checkpoint: see the top. */
		sqlite3_wal_hook(st->wdb, store_wal_hook, st);
	}
	if ((rc = store_exec1(st->wdb, "PRAGMA synchronous = FULL", NULL,
	    0)) != SQLITE_OK ||
	    (rc = store_exec1(st->wdb, "PRAGMA foreign_keys = ON", NULL,
	    0)) != SQLITE_OK ||
	    (rc = store_max_pages(st->wdb, cf->max_pages)) != SQLITE_OK)
		goto fail;
	if (store_migrate(st->wdb, st->path, store_migrations,
	    store_nmigrations, (int)store_nmigrations, st->busy_ms, err,
	    errlen) == -1)
		return (-1);
	if ((rc = store_max_id(st)) != SQLITE_OK) {
		what = "read the games";
		goto fail;
	}
	return (0);

fail:
	store_error(err, errlen, st->path, st->wdb, rc, what, st->busy_ms);
	return (-1);
}

/*
 * Opens the reads' connection (query only; the writer's for an in-memory
 * database); store-read.c prepares the reads.  Returns 0, or -1 with err
 * filled in.
 */
int
store_open_reader(struct store *st, char *err, size_t errlen)
{
	int	 rc;

	if (st->shared)
		st->rdb = st->wdb;
	else {
		rc = store_connect(st->path, SQLITE_OPEN_READWRITE,
		    st->busy_ms, &st->rdb);
		if (rc == SQLITE_OK)
			rc = store_exec1(st->rdb, "PRAGMA query_only = 1", NULL,
			    0);
		if (rc != SQLITE_OK) {
			store_error(err, errlen, st->path, st->rdb, rc,
			    "open for reading", st->busy_ms);
			return (-1);
		}
	}
	return (0);
}
