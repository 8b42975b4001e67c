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

/* sp: what the store needs besides the above. */

/*
 * The SQLite connection (a sqlite3 *) under db, NULL on PostgreSQL: only
 * for the SQLite-only settings of the store (PRAGMAs journal_mode,
 * synchronous, query_only, max_page_count; the WAL hook and checkpoints;
 * the read-only check), always behind a test of sqldb_backend().
 */
void	*sqldb_sqlite_handle(struct sqldb *);
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
/* Does url name a PostgreSQL database (else an SQLite path)? */
int	 sqldb_url_is_pg(const char *);

#endif /* SQLDB_H */
