/*
 * sqldb.h: one small SQL interface over SQLite and PostgreSQL (libpq), for
 * the store (issue 15 §1).  Shaped by what the store does: prepared
 * statements with ? placeholders, typed binds and column getters, scripts,
 * transactions, the last inserted id, and group commit.
 *
 * Opening: a URL that starts with "postgresql://" or "postgres://" is
 * handed to libpq (every libpq parameter works, several hosts and
 * target_session_attrs=read-write included); anything else is an SQLite
 * path (or "file:" URI, or ":memory:").
 *
 * Placeholders: "?" (numbered in order) and "?N" (the store uses both);
 * on PostgreSQL they are rewritten to $1, $2, ... outside quotes and
 * comments, and each statement is prepared once per connection (PQprepare
 * under a name of its own, again after a reconnection).
 *
 * Results: functions return 0 on success and -1 on failure, with
 * sqldb_errclass() and sqldb_errmsg() describing the failure;
 * sqldb_step() returns SQLDB_ROW, SQLDB_DONE or -1.  After a failure
 * inside a transaction the only portable call is sqldb_rollback()
 * (PostgreSQL aborts the transaction; SQLite may not).  A commit that
 * fails with SQLDB_CONN is in doubt: the server may have committed it
 * before the connection went (the caller must not report it as durable,
 * nor as lost, without reading it back).
 *
 * Opening a PostgreSQL URL connects at once and fails if the database is
 * unreachable; a connection lost later is made again by the next call.
 *
 * Not thread-safe: one connection per thread (as the store has now).
 */
#ifndef SQLDB_H
#define SQLDB_H

#include <stddef.h>
#include <stdint.h>

enum sqldb_backend {
	SQLDB_SQLITE,
	SQLDB_PG,
};

/* What went wrong, as far as a caller acts on it. */
enum sqldb_err {
	SQLDB_OK,
	SQLDB_CONSTRAINT,	/* unique, check, not null, foreign key */
	SQLDB_BUSY,		/* locked, serialization failure, deadlock:
				 * roll back and retry */
	SQLDB_CONN,		/* connection lost or database unreachable:
				 * the next call reconnects */
	SQLDB_FULL,		/* disk full or size cap */
	SQLDB_OTHER,
};
extern const char *const sqldb_err_names[SQLDB_OTHER + 1];

#define SQLDB_ROW	1
#define SQLDB_DONE	0

/* The reconnection's backoff: doubles from MIN after each failed attempt,
 * up to MAX; each attempt is bounded by libpq's connect_timeout (seconds,
 * SQLDB_CONNECT_TIMEOUT unless the URL names one). */
#define SQLDB_BACKOFF_MIN_MS	50
#define SQLDB_BACKOFF_MAX_MS	2000
#define SQLDB_CONNECT_TIMEOUT	"5"

/* Flags of sqldb_prepare. */
#define SQLDB_RETURNING_ID	0x1	/* an INSERT whose table has an "id"
					 * column: sqldb_last_id() gives the
					 * id it inserted (RETURNING id on
					 * PostgreSQL) */

struct sqldb;
struct sqldb_stmt;

int	 sqldb_open(const char *, struct sqldb **, char *, size_t);
void	 sqldb_close(struct sqldb *);
enum sqldb_backend sqldb_backend(const struct sqldb *);
const char *sqldb_backend_name(const struct sqldb *);

enum sqldb_err sqldb_errclass(const struct sqldb *);
const char *sqldb_errmsg(const struct sqldb *);

/*
 * How long a statement waits for another connection's lock before it
 * fails with SQLDB_BUSY (SQLite: the busy timeout, 5000 ms by default;
 * PostgreSQL: lock_timeout, none by default, kept across reconnections).
 */
int	 sqldb_busy_timeout(struct sqldb *, int);

/* Runs a script of statements without parameters (schemas). */
int	 sqldb_exec(struct sqldb *, const char *);

int	 sqldb_prepare(struct sqldb *, const char *, int,
	    struct sqldb_stmt **);
void	 sqldb_finalize(struct sqldb_stmt *);
/* Parameters count from 1, as in SQLite. */
int	 sqldb_bind_int64(struct sqldb_stmt *, int, int64_t);
int	 sqldb_bind_double(struct sqldb_stmt *, int, double);
int	 sqldb_bind_text(struct sqldb_stmt *, int, const char *);
int	 sqldb_bind_blob(struct sqldb_stmt *, int, const void *, size_t);
int	 sqldb_bind_null(struct sqldb_stmt *, int);
int	 sqldb_step(struct sqldb_stmt *);
/* Ends the statement's run and clears its bindings. */
void	 sqldb_reset(struct sqldb_stmt *);

/* Columns count from 0, as in SQLite; valid until the next step/reset.
 * A NULL reads as 0, 0.0, a NULL text, an empty blob. */
int	 sqldb_column_count(struct sqldb_stmt *);
int	 sqldb_column_null(struct sqldb_stmt *, int);
int64_t	 sqldb_column_int64(struct sqldb_stmt *, int);
double	 sqldb_column_double(struct sqldb_stmt *, int);
const char *sqldb_column_text(struct sqldb_stmt *, int);
const void *sqldb_column_blob(struct sqldb_stmt *, int, size_t *);

int	 sqldb_begin(struct sqldb *);
int	 sqldb_commit(struct sqldb *);
int	 sqldb_rollback(struct sqldb *);
int	 sqldb_in_transaction(const struct sqldb *);
int64_t	 sqldb_last_id(const struct sqldb *);
/* Rows changed by the last statement run to its end. */
int64_t	 sqldb_changes(const struct sqldb *);

/*
 * Group commit: sqldb_batch_begin(db, pipeline) opens a transaction in
 * which write statements (no rows, no SQLDB_RETURNING_ID) are stepped as
 * usual; sqldb_batch_commit() commits them all as one.  With pipeline set,
 * PostgreSQL queues them in libpq's pipeline mode (one round trip for the
 * whole batch), and a step's failure is reported by sqldb_batch_commit()
 * instead, which then rolls the whole batch back; SQLite ignores it.
 * sqldb_rollback() abandons a batch.
 */
int	 sqldb_batch_begin(struct sqldb *, int);
int	 sqldb_batch_commit(struct sqldb *);

/*
 * Numbered migrations (db/NNN-*.sql for SQLite, db/pg/NNN-*.sql for
 * PostgreSQL, embedded by db/embed.sh): sqldb_migrate brings the database
 * to version upto, each migration in its own transaction with the version
 * it reaches (PRAGMA user_version on SQLite, as the store does; the table
 * schema_version on PostgreSQL).  A database newer than the list is
 * refused.  Returns 0, or -1 with err filled in.
 */
struct sqldb_migration {
	int		 version;
	const char	*name;
	const char	*sql;
};
extern const struct sqldb_migration sqldb_pg_migrations[];
extern const size_t sqldb_pg_nmigrations;

int	 sqldb_version(struct sqldb *, int *);
int	 sqldb_migrate(struct sqldb *, const struct sqldb_migration *, size_t,
	    int, char *, size_t);

/*
 * The loop guard (sqldb-guard.c; issue 25 §4): sqldb_loop_enter names the
 * calling thread the server's event loop; with GRUNDY_LOOP_DB=log (or
 * abort) in the environment, every statement that thread runs is then
 * reported (event=loop-db, with the call stack), or aborts.
 * sqldb_loop_leave ends it.
 */
void	 sqldb_loop_enter(void);
void	 sqldb_loop_leave(void);

/* sp: what the store needs besides the above. */

/*
 * The SQLite connection (a sqlite3 *) under db, NULL on PostgreSQL: only
 * for the SQLite-only settings of the store (PRAGMAs journal_mode,
 * synchronous, query_only, max_page_count; the WAL hook and checkpoints;
 * the read-only check), always behind a test of sqldb_backend().
 */
void	*sqldb_sqlite_handle(struct sqldb *);
/* SQLite only: this process's alone, the WAL index in heap memory. */
int	 sqldb_sqlite_exclusive(int);
/* The back end's own code of the last failure: SQLite's extended result
 * code (for errors in words: not a database, corrupt, read-only); 0 on
 * PostgreSQL, whose SQLSTATE is in sqldb_errmsg(). */
int	 sqldb_native_code(const struct sqldb *);
/*
 * Starts a read transaction whose reads agree with each other: SQLite's
 * deferred BEGIN (no write lock), PostgreSQL's REPEATABLE READ, READ
 * ONLY.  End it with sqldb_commit() or sqldb_rollback().
 */
int	 sqldb_begin_read(struct sqldb *);
/* nd: */
/*
 * A statement prepared once for the connection's life, for the modules
 * that run a few statements often (node.c, lease.c, the locks and
 * notifications below): sql must be a string of static storage (a
 * literal), the same text always with the same flags; at most
 * SQLDB_CACHE_MAX of them per connection.  Reset it after each use, never
 * finalize it: sqldb_close() does.  Returns 0 with *sp set, or -1.
 */
#define SQLDB_CACHE_MAX		32
int	 sqldb_cached(struct sqldb *, const char *, int, struct sqldb_stmt **);

/* Runs the cached statement sql (sqldb_cached) with the int64 values
 * v[0..n-1] as its parameters, to its end; returns the rows it changed,
 * or -1.  sqldb_cached_rows also calls fn(s, i, arg) (fn may be NULL)
 * for each of the first max rows it returns (i from 0), and sets *nrows
 * to their number (at most max); it returns 0, or -1. */
int64_t	 sqldb_cached_run(struct sqldb *, const char *, const int64_t *, int);
int	 sqldb_cached_rows(struct sqldb *, const char *, const int64_t *, int,
	    size_t, void (*)(struct sqldb_stmt *, size_t, void *), void *,
	    size_t *);

/* Records a caller's refusal (SQLDB_OTHER with its message) as the
 * connection's last failure, for the modules that report through
 * sqldb_errmsg (node.c, lease.c); returns -1. */
int	 sqldb_refuse(struct sqldb *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Rolls back after a failure, keeping that failure (class and message)
 * as the connection's last; returns -1. */
int	 sqldb_abort(struct sqldb *);

/*
 * The elected scheduler (issue 15 §2): a lock named by a 64-bit key, held
 * by this connection's session (PostgreSQL: pg_try_advisory_lock, session
 * level, so a node that dies, its connection closed, frees it).
 * sqldb_try_lock() returns 1 when this connection holds the lock (taken
 * now, or still held: calling it again neither stacks nor waits), 0 when
 * another session holds it, -1 on failure.  A connection lost, and made
 * again, no longer holds its locks: the next sqldb_try_lock() tells.
 * sqldb_unlock() returns 1 when it released the lock, 0 when this session
 * did not hold it, -1 on failure.  SQLite: one node, always granted (1),
 * and unlock answers 1.
 */
int	 sqldb_try_lock(struct sqldb *, int64_t);
int	 sqldb_unlock(struct sqldb *, int64_t);

/*
 * Notifications across nodes (PostgreSQL's LISTEN/NOTIFY).  A channel is
 * 1 to SQLDB_CHANNEL_MAX bytes of [a-z0-9_], not starting with a digit; a
 * payload at most SQLDB_PAYLOAD_MAX bytes (PostgreSQL's limit: shorter
 * than 8000 bytes), without NUL.  Both are checked before anything is
 * sent, on both back ends.
 *
 * sqldb_listen(db, channel) outside a transaction; a connection listens
 * to at most SQLDB_LISTEN_MAX channels, and listens to them again when it
 * reconnects (notifications sent while it was away are lost: on a
 * SQLDB_CONN failure the caller reads what it shows from the tables
 * again).  sqldb_notify(db, channel, payload) is a bound
 * pg_notify($1, $2): in a transaction (or a batch) it is delivered at
 * COMMIT, and not at all on a rollback.  Use a connection of its own for
 * listening: a notification arrives between transactions.
 *
 * sqldb_notify_fd(db): the socket to watch for reading (reconnecting
 * first if the connection was lost; -1 while unreachable); it changes
 * with each reconnection, so take it again after any SQLDB_CONN failure.
 * sqldb_notify_next(db, n): reads what arrived without blocking and gives
 * one notification: SQLDB_ROW (n filled in, in the order they were
 * committed), SQLDB_DONE (none now), -1 (SQLDB_CONN: connection lost).
 *
 * SQLite: one node, nothing crosses processes: sqldb_listen and
 * sqldb_notify check their arguments and return 1 ("one node: deliver it
 * yourself"), sqldb_notify_fd fails (-1, SQLDB_OTHER, saying so) and
 * sqldb_notify_next answers SQLDB_DONE.  PostgreSQL returns 0.
 */
#define SQLDB_CHANNEL_MAX	63
#define SQLDB_PAYLOAD_MAX	7999
#define SQLDB_LISTEN_MAX	64

struct sqldb_note {
	char		 channel[SQLDB_CHANNEL_MAX + 1];
	char		 payload[SQLDB_PAYLOAD_MAX + 1];
	int		 self;		/* sent by this same connection */
};

int	 sqldb_listen(struct sqldb *, const char *);
int	 sqldb_unlisten(struct sqldb *, const char *);
int	 sqldb_notify(struct sqldb *, const char *, const char *);
int	 sqldb_notify_fd(struct sqldb *);
int	 sqldb_notify_next(struct sqldb *, struct sqldb_note *);
/* Does url name a PostgreSQL database (else an SQLite path)? */
int	 sqldb_url_is_pg(const char *);

#endif /* SQLDB_H */
