/*
 * sqldb-nd.c: what several nodes on one database need of the SQL driver
 * (issue 15 §2, sqldb.h's "nd:" block): the elected scheduler's lock and
 * the notifications for spectators across nodes.  On PostgreSQL: session
 * advisory locks, LISTEN/NOTIFY (the socket and the reading are the back
 * end's notify_fd and notify_next); on SQLite, one node: the lock is
 * always granted and a notification has no one else to reach.
 *
 * Every statement is bound, except LISTEN and UNLISTEN, which take an
 * identifier, not a value: the channel is checked against [a-z0-9_] first
 * and quoted, so no text of a caller reaches the SQL unchecked.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/sqldb-int.h"
#include "db/sqldb-nd.h"

/* The connection's state, made on first use. */
static struct sqldb_nd *
nd_get(struct sqldb *db)
{
	if (db->nd == NULL && (db->nd = calloc(1, sizeof *db->nd)) == NULL)
		sqldb_fail(db, SQLDB_OTHER, "out of memory");
	return (db->nd);
}

/* A refusal of a module above (sqldb.h); returns -1. */
int
sqldb_refuse(struct sqldb *db, const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[sizeof db->errmsg];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return (sqldb_fail(db, SQLDB_OTHER, "%s", msg));
}

/* Rolls back, keeping the failure that caused it (sqldb.h); -1. */
int
sqldb_abort(struct sqldb *db)
{
	enum sqldb_err	 e = db->err;
	char		 msg[sizeof db->errmsg];

	memcpy(msg, db->errmsg, sizeof msg);
	sqldb_rollback(db);
	return (sqldb_fail(db, e, "%s", msg));
}

/* The statement of sql, prepared once for the connection (sqldb.h). */
int
sqldb_cached(struct sqldb *db, const char *sql, int flags,
    struct sqldb_stmt **sp)
{
	struct sqldb_nd	*nd;
	size_t		 i;

	*sp = NULL;
	if ((nd = nd_get(db)) == NULL)
		return (-1);
	for (i = 0; i < nd->ncache; i++)
		if ((nd->cache[i].sql == sql || strcmp(nd->cache[i].sql, sql)
		    == 0) && nd->cache[i].flags == flags) {
			*sp = nd->cache[i].s;
			return (0);
		}
	if (nd->ncache == SQLDB_CACHE_MAX)
		return (sqldb_fail(db, SQLDB_OTHER, "more than %d cached "
		    "statements", SQLDB_CACHE_MAX));
	if (sqldb_prepare(db, sql, flags, sp) == -1)
		return (-1);
	nd->cache[nd->ncache].sql = sql;
	nd->cache[nd->ncache].flags = flags;
	nd->cache[nd->ncache++].s = *sp;
	return (0);
}

/* Runs s (bound) to its one integer; returns it, or -1. */
static int
nd_int(struct sqldb_stmt *s, int64_t *v)
{
	int	 r;

	r = sqldb_step(s);
	if (r == SQLDB_ROW)
		*v = sqldb_column_int64(s, 0);
	sqldb_reset(s);
	if (r == -1)
		return (-1);
	if (r != SQLDB_ROW)
		return (sqldb_fail(s->db, SQLDB_OTHER, "no row"));
	return (0);
}

/* Runs the cached statement sql, calling fn for its rows (sqldb.h). */
int
sqldb_cached_rows(struct sqldb *db, const char *sql, const int64_t *v, int n,
    size_t max, void (*fn)(struct sqldb_stmt *, size_t, void *), void *arg,
    size_t *nrows)
{
	struct sqldb_stmt *s;
	int		 i, r = 0;

	*nrows = 0;
	if (sqldb_cached(db, sql, 0, &s) == -1)
		return (-1);
	for (i = 0; i < n && r == 0; i++)
		r = sqldb_bind_int64(s, i + 1, v[i]);
	while (r != -1 && (r = sqldb_step(s)) == SQLDB_ROW)
		if (*nrows < max) {
			if (fn != NULL)
				fn(s, *nrows, arg);
			(*nrows)++;
		}
	sqldb_reset(s);
	return (r == -1 ? -1 : 0);
}

/* Runs the cached statement sql with int64 parameters (sqldb.h). */
int64_t
sqldb_cached_run(struct sqldb *db, const char *sql, const int64_t *v, int n)
{
	size_t	 k;

	if (sqldb_cached_rows(db, sql, v, n, 0, NULL, NULL, &k) == -1)
		return (-1);
	return (db->changes);
}

/*
 * Takes the lock named key for this session, unless it already holds it
 * (pg_locks tells: taking it again would stack a second hold).  Returns 1
 * (held by this connection), 0 (by another session), or -1.
 */
int
sqldb_try_lock(struct sqldb *db, int64_t key)
{
	struct sqldb_stmt *s;
	uint64_t	 k = (uint64_t)key;
	int64_t		 v;

	sqldb_ok(db);
	if (db->ops->backend == SQLDB_SQLITE)
		return (1);
	/* A bigint key shows in pg_locks as its halves (classid, objid). */
	if (sqldb_cached(db, "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE "
	    "locktype = 'advisory' AND pid = pg_backend_pid() AND "
	    "classid = ? AND objid = ? AND objsubid = 1 AND granted) "
	    "THEN 1 ELSE CAST(pg_try_advisory_lock(CAST(? AS BIGINT)) AS "
	    "INTEGER) END", 0, &s) == -1)
		return (-1);
	if (sqldb_bind_int64(s, 1, (int64_t)(k >> 32)) == -1 ||
	    sqldb_bind_int64(s, 2, (int64_t)(k & 0xffffffffu)) == -1 ||
	    sqldb_bind_int64(s, 3, key) == -1 || nd_int(s, &v) == -1)
		return (-1);
	return (v == 1);
}

/* Releases the lock named key; returns 1, 0 (not held here), or -1. */
int
sqldb_unlock(struct sqldb *db, int64_t key)
{
	struct sqldb_stmt *s;
	int64_t		 v;

	sqldb_ok(db);
	if (db->ops->backend == SQLDB_SQLITE)
		return (1);
	if (sqldb_cached(db, "SELECT CAST(pg_advisory_unlock(CAST(? AS "
	    "BIGINT)) AS INTEGER)", 0, &s) == -1)
		return (-1);
	if (sqldb_bind_int64(s, 1, key) == -1 || nd_int(s, &v) == -1)
		return (-1);
	return (v == 1);
}

/* Checks a channel's name; returns 0, or -1 with the reason on db. */
static int
nd_channel_ok(struct sqldb *db, const char *c)
{
	size_t	 i, n;

	if (c == NULL || (n = strlen(c)) == 0)
		return (sqldb_fail(db, SQLDB_OTHER, "empty channel name"));
	if (n > SQLDB_CHANNEL_MAX)
		return (sqldb_fail(db, SQLDB_OTHER, "channel name over %d "
		    "bytes", SQLDB_CHANNEL_MAX));
	if (c[0] >= '0' && c[0] <= '9')
		return (sqldb_fail(db, SQLDB_OTHER, "channel name starts "
		    "with a digit"));
	for (i = 0; i < n; i++)
		if (!((c[i] >= 'a' && c[i] <= 'z') ||
		    (c[i] >= '0' && c[i] <= '9') || c[i] == '_'))
			return (sqldb_fail(db, SQLDB_OTHER, "channel name has "
			    "a byte other than a-z, 0-9 and _"));
	return (0);
}

/* The index of channel c in nd's list, or -1. */
static int
nd_find(const struct sqldb_nd *nd, const char *c)
{
	size_t	 i;

	for (i = 0; nd != NULL && i < nd->nchans; i++)
		if (strcmp(nd->chans[i], c) == 0)
			return ((int)i);
	return (-1);
}

/* Runs LISTEN or UNLISTEN of a checked channel; returns 0, or -1. */
static int
nd_listen_sql(struct sqldb *db, const char *verb, const char *c)
{
	char	 sql[32 + SQLDB_CHANNEL_MAX];

	/* An identifier, not a value: checked by nd_channel_ok, quoted. */
	snprintf(sql, sizeof sql, "%s \"%s\"", verb, c);
	return (sqldb_exec(db, sql));
}

/* Checks what listen and unlisten need; returns 0, 1 (SQLite), or -1. */
static int
nd_listen_check(struct sqldb *db, const char *c)
{
	sqldb_ok(db);
	if (nd_channel_ok(db, c) == -1)
		return (-1);
	if (db->ops->notify_next == NULL)
		return (1);
	if (db->in_txn)
		return (sqldb_fail(db, SQLDB_OTHER, "listen outside a "
		    "transaction"));
	return (0);
}

/*
 * Listens to channel c, now and after each reconnection.  Returns 0, 1
 * (SQLite: one node, nothing to listen to), or -1 (nothing changed).
 */
int
sqldb_listen(struct sqldb *db, const char *c)
{
	struct sqldb_nd	*nd;
	int		 r;

	if ((r = nd_listen_check(db, c)) != 0)
		return (r);
	if ((nd = nd_get(db)) == NULL)
		return (-1);
	if (nd_find(nd, c) != -1)
		return (0);
	if (nd->nchans == SQLDB_LISTEN_MAX)
		return (sqldb_fail(db, SQLDB_OTHER, "already listening to %d "
		    "channels", SQLDB_LISTEN_MAX));
	if (nd_listen_sql(db, "LISTEN", c) == -1)
		return (-1);
	snprintf(nd->chans[nd->nchans++], sizeof nd->chans[0], "%s", c);
	return (0);
}

/* Stops listening to channel c; returns 0, 1 (SQLite), or -1. */
int
sqldb_unlisten(struct sqldb *db, const char *c)
{
	struct sqldb_nd	*nd = db->nd;
	int		 i, r;

	if ((r = nd_listen_check(db, c)) != 0)
		return (r);
	if ((i = nd_find(nd, c)) == -1)
		return (0);
	if (nd_listen_sql(db, "UNLISTEN", c) == -1)
		return (-1);
	nd->nchans--;
	memmove(nd->chans[i], nd->chans[i + 1], (nd->nchans - (size_t)i) *
	    sizeof nd->chans[0]);
	return (0);
}

/*
 * Sends payload p on channel c, bound (pg_notify), in the caller's
 * transaction if any.  Returns 0, 1 (SQLite: one node, nothing sent), or
 * -1 (refused before anything was sent, or the database failed).
 */
int
sqldb_notify(struct sqldb *db, const char *c, const char *p)
{
	struct sqldb_stmt *s;
	int		 r;

	sqldb_ok(db);
	if (nd_channel_ok(db, c) == -1)
		return (-1);
	if (p == NULL)
		return (sqldb_fail(db, SQLDB_OTHER, "no payload"));
	if (strlen(p) > SQLDB_PAYLOAD_MAX)
		return (sqldb_fail(db, SQLDB_OTHER, "notification payload "
		    "over %d bytes", SQLDB_PAYLOAD_MAX));
	if (db->ops->notify_next == NULL)
		return (1);
	if (sqldb_cached(db, "SELECT pg_notify(?, ?)", 0, &s) == -1)
		return (-1);
	if (sqldb_bind_text(s, 1, c) == -1 || sqldb_bind_text(s, 2, p) ==
	    -1) {
		sqldb_reset(s);
		return (-1);
	}
	r = sqldb_step(s);
	sqldb_reset(s);
	return (r == -1 ? -1 : 0);
}

/* The socket to watch, or -1 (unreachable; SQLite: none, and says so). */
int
sqldb_notify_fd(struct sqldb *db)
{
	sqldb_ok(db);
	if (db->ops->notify_fd == NULL)
		return (sqldb_fail(db, SQLDB_OTHER, "%s: one node, no "
		    "notifications from other processes", db->ops->name));
	sqldb_guard(db, "notify_fd (connect)");
	return (db->ops->notify_fd(db));
}

/* The next notification: SQLDB_ROW, SQLDB_DONE, or -1. */
int
sqldb_notify_next(struct sqldb *db, struct sqldb_note *n)
{
	sqldb_ok(db);
	if (db->ops->notify_next == NULL)
		return (SQLDB_DONE);
	return (db->ops->notify_next(db, n));
}
