/*
 * sqldb-sqlite.c: sqldb's SQLite back end.  A thin layer: SQLite already
 * has prepared statements with ? placeholders; this adds the error
 * classes, BEGIN IMMEDIATE, and PRAGMA user_version for the migrations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/sqldb-int.h"

/* How long a connection waits for another's lock before SQLDB_BUSY. */
#define SQLDB_SQLITE_BUSY_MS	5000

/*
 * The VFS of every SQLite connection opened from now on: NULL (the
 * default, "unix": the WAL index in the shared-memory file DB-shm, mapped,
 * so that other processes may read the database), or "unix-excl" (the
 * first connection of the process takes an exclusive POSIX lock on the
 * database for the process, which its other connections share, and the
 * WAL index lives in heap memory: no -shm map, whose pages can raise
 * SIGBUS when the file cannot be written).  Set once, before any open.
 */
static const char *lite_vfs;

#define LITE(db)	((sqlite3 *)(db)->be)
#define LSTMT(s)	((sqlite3_stmt *)(s)->be)

/* Records SQLite's failure rc on db; returns -1. */
static int
lite_fail(struct sqldb *db, int rc)
{
	enum sqldb_err	 e;

	db->native = rc;
	switch (rc & 0xff) {
	case SQLITE_CONSTRAINT:
		e = SQLDB_CONSTRAINT;
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		e = SQLDB_BUSY;
		break;
	case SQLITE_FULL:
		e = SQLDB_FULL;
		break;
	default:
		e = SQLDB_OTHER;
		break;
	}
	return (sqldb_fail(db, e, "%s", db->be != NULL ?
	    sqlite3_errmsg(LITE(db)) : sqlite3_errstr(rc)));
}

/* Runs one statement without parameters or rows; returns 0, or -1. */
static int
lite_exec(struct sqldb *db, const char *sql)
{
	char	*msg = NULL;
	int	 rc;

	if ((rc = sqlite3_exec(LITE(db), sql, NULL, NULL, &msg)) !=
	    SQLITE_OK) {
		lite_fail(db, rc);
		if (msg != NULL)
			snprintf(db->errmsg, sizeof db->errmsg, "%s", msg);
		sqlite3_free(msg);
		return (-1);
	}
	return (0);
}

/*
 * Makes every SQLite database opened from now on this process's alone
 * (on 1: the "unix-excl" VFS, the WAL index in heap memory) or shared with
 * other processes (0: the default VFS).  Returns 0, or -1 if SQLite lacks
 * unix-excl.  Call it before any open, with no other thread using sqldb.
 */
int
sqldb_sqlite_exclusive(int on)
{
	if (on && sqlite3_vfs_find("unix-excl") == NULL)
		return (-1);
	lite_vfs = on ? "unix-excl" : NULL;
	return (0);
}

static int
lite_open(struct sqldb *db, const char *path)
{
	sqlite3	*h = NULL;
	int	 rc;

	rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX,
	    lite_vfs);
	db->be = h;
	if (rc != SQLITE_OK) {
		lite_fail(db, rc);
		return (sqldb_fail(db, db->err, "%s: cannot open: %s", path,
		    h != NULL ? sqlite3_errmsg(h) : sqlite3_errstr(rc)));
	}
	sqlite3_extended_result_codes(h, 1);
	sqlite3_busy_timeout(h, SQLDB_SQLITE_BUSY_MS);
	/* As PostgreSQL: foreign keys are always checked. */
	return (lite_exec(db, "PRAGMA foreign_keys = ON"));
}

static int
lite_busy(struct sqldb *db, int ms)
{
	sqlite3_busy_timeout(LITE(db), ms);
	return (0);
}

static void
lite_close(struct sqldb *db)
{
	sqlite3_close(LITE(db));
}

static int
lite_prepare(struct sqldb_stmt *s, const char *sql)
{
	sqlite3_stmt	*h;
	int		 rc;

	if ((rc = sqlite3_prepare_v2(LITE(s->db), sql, -1, &h, NULL)) !=
	    SQLITE_OK)
		return (lite_fail(s->db, rc));
	s->be = h;
	return (0);
}

static void
lite_finalize(struct sqldb_stmt *s)
{
	sqlite3_finalize(LSTMT(s));
}

static int
lite_bind(struct sqldb_stmt *s, int i, int kind, int64_t iv, double dv,
    const void *p, size_t n)
{
	int	 rc;

	switch (kind) {
	case 'i':
		rc = sqlite3_bind_int64(LSTMT(s), i, iv);
		break;
	case 'd':
		rc = sqlite3_bind_double(LSTMT(s), i, dv);
		break;
	case 't':
		rc = sqlite3_bind_text64(LSTMT(s), i, p, n, SQLITE_TRANSIENT,
		    SQLITE_UTF8);
		break;
	case 'b':
		rc = sqlite3_bind_blob64(LSTMT(s), i, p, n, SQLITE_TRANSIENT);
		break;
	default:
		rc = sqlite3_bind_null(LSTMT(s), i);
		break;
	}
	return (rc == SQLITE_OK ? 0 : lite_fail(s->db, rc));
}

static int
lite_step(struct sqldb_stmt *s)
{
	struct sqldb	*db = s->db;
	int		 rc;

	rc = sqlite3_step(LSTMT(s));
	if (rc == SQLITE_ROW)
		return (SQLDB_ROW);
	if (rc != SQLITE_DONE) {
		/* The statement's own code, then reset for the next run. */
		rc = sqlite3_reset(LSTMT(s));
		lite_fail(db, rc);
		db->in_txn = !sqlite3_get_autocommit(LITE(db));
		return (-1);
	}
	db->changes = sqlite3_changes(LITE(db));
	if (s->flags & SQLDB_RETURNING_ID)
		db->last_id = sqlite3_last_insert_rowid(LITE(db));
	return (SQLDB_DONE);
}

static void
lite_reset(struct sqldb_stmt *s)
{
	sqlite3_reset(LSTMT(s));
	sqlite3_clear_bindings(LSTMT(s));
}

static int
lite_column_count(struct sqldb_stmt *s)
{
	return (sqlite3_column_count(LSTMT(s)));
}

static int
lite_column_null(struct sqldb_stmt *s, int i)
{
	return (sqlite3_column_type(LSTMT(s), i) == SQLITE_NULL);
}

static int64_t
lite_column_int64(struct sqldb_stmt *s, int i)
{
	return (sqlite3_column_int64(LSTMT(s), i));
}

static double
lite_column_double(struct sqldb_stmt *s, int i)
{
	return (sqlite3_column_double(LSTMT(s), i));
}

static const char *
lite_column_text(struct sqldb_stmt *s, int i)
{
	return ((const char *)sqlite3_column_text(LSTMT(s), i));
}

static const void *
lite_column_blob(struct sqldb_stmt *s, int i, size_t *n)
{
	const void	*p;

	p = sqlite3_column_blob(LSTMT(s), i);
	*n = (size_t)sqlite3_column_bytes(LSTMT(s), i);
	return (p != NULL ? p : "");
}

static int
lite_txn(struct sqldb *db, const char *what)
{
	int	 r;

	if (strcmp(what, "ROLLBACK") == 0 &&
	    sqlite3_get_autocommit(LITE(db))) {
		db->in_txn = 0;
		return (0);
	}
	/* The writer takes the write lock at once, as the store does. */
	r = lite_exec(db, strcmp(what, "BEGIN") == 0 ? "BEGIN IMMEDIATE" :
	    what);
	db->in_txn = !sqlite3_get_autocommit(LITE(db));
	return (r);
}

/* SQLite has no pipeline: a batch is a transaction. */
static int
lite_batch_begin(struct sqldb *db, int pipeline)
{
	(void)pipeline;
	return (lite_txn(db, "BEGIN"));
}

static int
lite_batch_commit(struct sqldb *db)
{
	return (lite_txn(db, "COMMIT"));
}

static int
lite_version(struct sqldb *db, int *v, int locked)
{
	sqlite3_stmt	*h;
	int		 rc;

	(void)locked;	/* BEGIN IMMEDIATE already holds the write lock */
	if ((rc = sqlite3_prepare_v2(LITE(db), "PRAGMA user_version", -1, &h,
	    NULL)) != SQLITE_OK)
		return (lite_fail(db, rc));
	rc = sqlite3_step(h);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(h, 0);
	sqlite3_finalize(h);
	return (rc == SQLITE_ROW ? 0 : lite_fail(db, rc));
}

static int
lite_set_version(struct sqldb *db, int v)
{
	char	 sql[64];

	/* PRAGMA takes no parameters; the value is an int we own. */
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
	return (lite_exec(db, sql));
}

const struct sqldb_ops sqldb_sqlite_ops = {
	.backend = SQLDB_SQLITE,
	.name = "sqlite",
	.open = lite_open,
	.close = lite_close,
	.exec = lite_exec,
	.busy = lite_busy,
	.prepare = lite_prepare,
	.finalize = lite_finalize,
	.bind = lite_bind,
	.step = lite_step,
	.reset = lite_reset,
	.column_count = lite_column_count,
	.column_null = lite_column_null,
	.column_int64 = lite_column_int64,
	.column_double = lite_column_double,
	.column_text = lite_column_text,
	.column_blob = lite_column_blob,
	.txn = lite_txn,
	.batch_begin = lite_batch_begin,
	.batch_commit = lite_batch_commit,
	.version = lite_version,
	.set_version = lite_set_version,
};
