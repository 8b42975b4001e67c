/*
 * sqldb.c: the SQL driver layer's front (sqldb.h): the choice of back end
 * from the URL, the calls that every back end shares, the migration
 * runner over both back ends, and the calls of sqldb.h's "sp:" block,
 * which the store needs besides the common interface: the SQLite handle
 * for its SQLite-only settings, the back end's own failure code, and read
 * transactions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "db/sqldb-int.h"
#include "db/sqldb-nd.h"
#include "lib/util.h"

/* Does url name a PostgreSQL database (sqldb.h, sp: block)? */
int
sqldb_url_is_pg(const char *url)
{
	return (strncmp(url, "postgresql://", 13) == 0 ||
	    strncmp(url, "postgres://", 11) == 0);
}

/*
 * Opens the database that url names (see sqldb.h).  Returns 0 with *dbp
 * set, or -1 with err filled in (and *dbp NULL).
 */
int
sqldb_open(const char *url, struct sqldb **dbp, char *err, size_t errlen)
{
	struct sqldb	*db;

	*dbp = NULL;
	if ((db = calloc(1, sizeof *db)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return (-1);
	}
	db->ops = sqldb_url_is_pg(url) ? &sqldb_pg_ops : &sqldb_sqlite_ops;
	if (db->ops->open(db, url) == -1) {
		snprintf(err, errlen, "%s", db->errmsg);
		sqldb_close(db);
		return (-1);
	}
	*dbp = db;
	return (0);
}

void
sqldb_close(struct sqldb *db)
{
	if (db == NULL)
		return;
	if (db->nd != NULL) {
		while (db->nd->ncache > 0)
			sqldb_finalize(db->nd->cache[--db->nd->ncache].s);
		free(db->nd);
	}
	db->ops->close(db);
	free(db);
}

enum sqldb_backend
sqldb_backend(const struct sqldb *db)
{
	return (db->ops->backend);
}

const char *
sqldb_backend_name(const struct sqldb *db)
{
	return (db->ops->name);
}

enum sqldb_err
sqldb_errclass(const struct sqldb *db)
{
	return (db->err);
}

const char *
sqldb_errmsg(const struct sqldb *db)
{
	return (db->errmsg);
}

/* Sets the lock wait in milliseconds (>= 0); returns 0, or -1. */
int
sqldb_busy_timeout(struct sqldb *db, int ms)
{
	sqldb_ok(db);
	sqldb_guard(db, "lock_timeout");
	if (ms < 0)
		return (sqldb_fail(db, SQLDB_OTHER, "negative busy timeout"));
	return (db->ops->busy(db, ms));
}

int
sqldb_exec(struct sqldb *db, const char *sql)
{
	sqldb_ok(db);
	sqldb_guard(db, sql);
	return (db->ops->exec(db, sql));
}

/* Prepares sql (flags: SQLDB_RETURNING_ID); returns 0, or -1. */
int
sqldb_prepare(struct sqldb *db, const char *sql, int flags,
    struct sqldb_stmt **sp)
{
	struct sqldb_stmt *s;

	*sp = NULL;
	sqldb_ok(db);
	if ((s = calloc(1, sizeof *s)) == NULL)
		return (sqldb_fail(db, SQLDB_OTHER, "out of memory"));
	s->db = db;
	s->flags = flags;
	snprintf(s->head, sizeof s->head, "%s", sql);
	sqldb_guard(db, sql);
	if (db->ops->prepare(s, sql) == -1) {
		free(s);
		return (-1);
	}
	*sp = s;
	return (0);
}

void
sqldb_finalize(struct sqldb_stmt *s)
{
	if (s == NULL)
		return;
	s->db->ops->finalize(s);
	free(s);
}

int
sqldb_bind_int64(struct sqldb_stmt *s, int i, int64_t v)
{
	return (s->db->ops->bind(s, i, 'i', v, 0, NULL, 0));
}

int
sqldb_bind_double(struct sqldb_stmt *s, int i, double v)
{
	return (s->db->ops->bind(s, i, 'd', 0, v, NULL, 0));
}

/* Binds a text (copied), or NULL. */
int
sqldb_bind_text(struct sqldb_stmt *s, int i, const char *t)
{
	if (t == NULL)
		return (sqldb_bind_null(s, i));
	return (s->db->ops->bind(s, i, 't', 0, 0, t, strlen(t)));
}

/* Binds a blob (copied; any bytes, NULs included). */
int
sqldb_bind_blob(struct sqldb_stmt *s, int i, const void *p, size_t n)
{
	return (s->db->ops->bind(s, i, 'b', 0, 0, n > 0 ? p : "", n));
}

int
sqldb_bind_null(struct sqldb_stmt *s, int i)
{
	return (s->db->ops->bind(s, i, 'n', 0, 0, NULL, 0));
}

int
sqldb_step(struct sqldb_stmt *s)
{
	sqldb_ok(s->db);
	sqldb_guard(s->db, s->head);
	return (s->db->ops->step(s));
}

void
sqldb_reset(struct sqldb_stmt *s)
{
	s->db->ops->reset(s);
}

int
sqldb_column_count(struct sqldb_stmt *s)
{
	return (s->db->ops->column_count(s));
}

int
sqldb_column_null(struct sqldb_stmt *s, int i)
{
	return (s->db->ops->column_null(s, i));
}

int64_t
sqldb_column_int64(struct sqldb_stmt *s, int i)
{
	return (s->db->ops->column_int64(s, i));
}

double
sqldb_column_double(struct sqldb_stmt *s, int i)
{
	return (s->db->ops->column_double(s, i));
}

const char *
sqldb_column_text(struct sqldb_stmt *s, int i)
{
	return (s->db->ops->column_text(s, i));
}

const void *
sqldb_column_blob(struct sqldb_stmt *s, int i, size_t *n)
{
	return (s->db->ops->column_blob(s, i, n));
}

int
sqldb_begin(struct sqldb *db)
{
	sqldb_ok(db);
	if (db->in_txn)
		return (sqldb_fail(db, SQLDB_OTHER, "already in a "
		    "transaction"));
	sqldb_guard(db, "BEGIN");
	return (db->ops->txn(db, "BEGIN"));
}

int
sqldb_commit(struct sqldb *db)
{
	sqldb_ok(db);
	if (!db->in_txn)
		return (sqldb_fail(db, SQLDB_OTHER, "no transaction to "
		    "commit"));
	sqldb_guard(db, "COMMIT");
	return (db->ops->txn(db, "COMMIT"));
}

/* Rolls back the transaction or batch, if any (none is no failure). */
int
sqldb_rollback(struct sqldb *db)
{
	sqldb_ok(db);
	sqldb_guard(db, "ROLLBACK");
	return (db->ops->txn(db, "ROLLBACK"));
}

int
sqldb_in_transaction(const struct sqldb *db)
{
	return (db->in_txn);
}

int64_t
sqldb_last_id(const struct sqldb *db)
{
	return (db->last_id);
}

int64_t
sqldb_changes(const struct sqldb *db)
{
	return (db->changes);
}

int
sqldb_batch_begin(struct sqldb *db, int pipeline)
{
	sqldb_ok(db);
	if (db->in_txn)
		return (sqldb_fail(db, SQLDB_OTHER, "already in a "
		    "transaction"));
	sqldb_guard(db, "BEGIN (batch)");
	return (db->ops->batch_begin(db, pipeline));
}

int
sqldb_batch_commit(struct sqldb *db)
{
	sqldb_ok(db);
	if (!db->in_txn)
		return (sqldb_fail(db, SQLDB_OTHER, "no batch to commit"));
	sqldb_guard(db, "COMMIT (batch)");
	return (db->ops->batch_commit(db));
}

/* Reads the version of the migrations the database has into *v. */
int
sqldb_version(struct sqldb *db, int *v)
{
	sqldb_ok(db);
	sqldb_guard(db, "version");
	return (db->ops->version(db, v, 0));
}

/* Applies migration m (version i + 1) in its own transaction, unless a
 * concurrent runner did; returns 0, or -1 with err filled in. */
static int
sqldb_migrate1(struct sqldb *db, const struct sqldb_migration *m, size_t n,
    char *err, size_t errlen)
{
	int	 v;

	if (sqldb_begin(db) == -1) {
		snprintf(err, errlen, "cannot start migration %s: %s",
		    m->name, sqldb_errmsg(db));
		return (-1);
	}
	/* Read again under the transaction's lock. */
	if (db->ops->version(db, &v, 1) == -1) {
		snprintf(err, errlen, "cannot read the version: %s",
		    sqldb_errmsg(db));
		goto fail;
	}
	if (v < 0 || (size_t)v > n) {
		snprintf(err, errlen, "database version %d is newer than "
		    "this grundyd (%zu): upgrade grundyd", v, n);
		goto fail;
	}
	if (v < m->version) {
		if (v != m->version - 1) {
			snprintf(err, errlen, "migration %s: database at "
			    "version %d", m->name, v);
			goto fail;
		}
		/* The schema script is the binary's own text, no values. */
		if (sqldb_exec(db, m->sql) == -1) {
			snprintf(err, errlen, "migration %s failed: %s",
			    m->name, sqldb_errmsg(db));
			goto fail;
		}
		if (db->ops->set_version(db, m->version) == -1) {
			snprintf(err, errlen, "cannot record version %d: %s",
			    m->version, sqldb_errmsg(db));
			goto fail;
		}
	}
	if (sqldb_commit(db) == -1) {
		snprintf(err, errlen, "cannot commit migration %s: %s",
		    m->name, sqldb_errmsg(db));
		goto fail;
	}
	return (0);

fail:
	sqldb_rollback(db);
	return (-1);
}

/*
 * Brings the database to version upto of list[0..n-1], each migration in
 * its own transaction; a version newer than the list is refused.  Returns
 * 0, or -1 with err filled in (the migrations before stay committed).
 */
int
sqldb_migrate(struct sqldb *db, const struct sqldb_migration *list,
    size_t n, int upto, char *err, size_t errlen)
{
	int	 v, i;

	if (upto < 0 || (size_t)upto > n) {
		snprintf(err, errlen, "no migration %d", upto);
		return (-1);
	}
	if (sqldb_version(db, &v) == -1) {
		snprintf(err, errlen, "cannot read the version: %s",
		    sqldb_errmsg(db));
		return (-1);
	}
	if (v < 0 || (size_t)v > n) {
		snprintf(err, errlen, "database version %d is newer than "
		    "this grundyd (%zu): upgrade grundyd", v, n);
		return (-1);
	}
	for (i = v; i < upto; i++) {
		if (list[i].version != i + 1) {
			snprintf(err, errlen, "migration %s is out of order "
			    "(version %d, expected %d)", list[i].name,
			    list[i].version, i + 1);
			return (-1);
		}
		if (sqldb_migrate1(db, &list[i], n, err, errlen) == -1)
			return (-1);
	}
	if (v < upto)
		log_info("sqldb=%s event=migrated from=%d to=%d",
		    sqldb_backend_name(db), v, upto);
	return (0);
}

/* The SQLite connection under db, or NULL on PostgreSQL (sp: block). */
void *
sqldb_sqlite_handle(struct sqldb *db)
{
	return (db->ops->backend == SQLDB_SQLITE ? db->be : NULL);
}

/* The back end's own code of the last failure (sp: block). */
int
sqldb_native_code(const struct sqldb *db)
{
	return (db->native);
}

/* Begins a read-only transaction on one snapshot (sp: block). */
int
sqldb_begin_read(struct sqldb *db)
{
	const char	*sql = "BEGIN";

	if (db->in_txn)
		return (sqldb_begin(db));	/* refuses, and says why */
	if (db->ops->backend == SQLDB_PG)
		sql = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";
	sqldb_ok(db);
	sqldb_guard(db, sql);
	if (db->ops->exec(db, sql) == -1)
		return (-1);
	db->in_txn = 1;
	return (0);
}
