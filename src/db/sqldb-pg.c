/*
 * sqldb-pg.c: sqldb's PostgreSQL back end, over libpq.
 *
 * Statements: the ? placeholders are rewritten to $N, and each statement
 * is prepared (PQprepare, under the name "sN" of its own) on the current
 * connection when first run there: at sqldb_prepare if the database is
 * reachable, else at its first step, and again after a reconnection (the
 * connection's generation, gen, tells).  Parameters are sent as text,
 * except blobs (binary, so that any byte goes through); rows come back as
 * text, bytea decoded.
 *
 * A lost connection: the call that finds it fails with SQLDB_CONN (but
 * an idle connection the server closed is found before anything is sent,
 * and a dead one at BEGIN: both connect again at once, nothing being in
 * doubt); the next call reconnects (PQconnectdb on the same URL, so libpq
 * chooses among several hosts again), at most once per backoff period,
 * which doubles from SQLDB_BACKOFF_MIN_MS to SQLDB_BACKOFF_MAX_MS while the
 * database stays unreachable.  A transaction open when the connection was
 * lost is gone: every call but sqldb_rollback then fails until the caller
 * rolls back, so that nothing runs outside the transaction it meant.
 *
 * Batches in pipeline mode (sqldb_batch_begin with pipeline): BEGIN, the
 * statements and COMMIT are queued and sent together; the results are read
 * at the commit (and every SQLDB_PG_PIPELINE_MAX results on the way, so
 * that neither side's buffers fill up).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "lib/log.h"
#include "db/sqldb-int.h"
#include "db/sqldb-nd.h"

#define SQLDB_PG_PIPELINE_MAX	256	/* queued results before a sync */
#define PG_BYTEA_OID		17
/* The advisory lock of the migrations' table (any constant of ours). */
#define SQLDB_PG_MIGRATE_LOCK	"7559015"


struct pgdb {
	PGconn		*conn;
	char		*url;
	unsigned int	 gen;		/* connections made so far */
	unsigned int	 nstmts;	/* statements named so far */
	int		 lost_txn;	/* the transaction went with a conn */
	int		 pipeline;	/* in a batch in pipeline mode */
	int		 backoff_ms;
	int64_t		 next_try_ms;
	int		 busy_ms;	/* lock_timeout; 0: none */
	/* the pipeline's queued results: the statement of each prepare
	 * (NULL for the other commands) */
	struct sqldb_stmt **queue;
	size_t		 nqueue, queue_cap;
	enum sqldb_err	 qerr;		/* its first failure */
	char		 qmsg[512];
};

struct pgstmt {
	char		*sql;		/* rewritten */
	char		 name[24];
	int		 nparams;
	unsigned int	 gen;		/* prepared on this connection */
	char		**vals;
	int		*lens, *fmts;
	PGresult	*res;
	int		 row, nrows;
	int		 ran;
	struct pgblob	*blobs;		/* decoded bytea of the current row */
};

struct pgblob {
	unsigned char	*p;
	size_t		 n;
};

#define PG(db)		((struct pgdb *)(db)->be)
#define PSTMT(s)	((struct pgstmt *)(s)->be)

static int64_t
pg_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* The class of an SQLSTATE (NULL: a failure on the client's side). */
static enum sqldb_err
pg_class(const char *state)
{
	if (state == NULL)
		return (SQLDB_OTHER);
	if (strncmp(state, "23", 2) == 0)
		return (SQLDB_CONSTRAINT);
	if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
	    strcmp(state, "55P03") == 0)
		return (SQLDB_BUSY);
	/* connection exceptions, shutdown, cannot connect now */
	if (strncmp(state, "08", 2) == 0 || strncmp(state, "57P", 3) == 0)
		return (SQLDB_CONN);
	/* Read-only (a standby): lost, so that the next call connects again
	 * and target_session_attrs=read-write finds the primary. */
	if (strcmp(state, "25006") == 0)
		return (SQLDB_CONN);
	if (strcmp(state, "53100") == 0)
		return (SQLDB_FULL);
	return (SQLDB_OTHER);
}

/* Notes a lost connection: the next call reconnects. */
static void
pg_lost(struct sqldb *db)
{
	struct pgdb	*p = PG(db);

	if (p->conn != NULL) {
		log_warnx("sqldb=postgresql event=connection-lost");
		PQfinish(p->conn);
		p->conn = NULL;
	}
	if (db->in_txn)
		p->lost_txn = 1;
	p->pipeline = 0;
	p->nqueue = 0;
}

/*
 * Records the failure of res (or of the connection, res NULL) on db;
 * a lost connection is noted.  Returns -1.
 */
static int
pg_fail(struct sqldb *db, const PGresult *res, const char *what)
{
	struct pgdb	*p = PG(db);
	const char	*msg, *state;
	enum sqldb_err	 e;

	state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) :
	    NULL;
	e = pg_class(state);
	msg = res != NULL ? PQresultErrorMessage(res) : "";
	if (*msg == '\0' && p->conn != NULL)
		msg = PQerrorMessage(p->conn);
	/*
	 * No SQLSTATE: libpq's own failure, which is the connection's (the
	 * status may still say CONNECTION_OK after the server closed it).
	 */
	if (state == NULL || e == SQLDB_CONN || p->conn == NULL ||
	    PQstatus(p->conn) == CONNECTION_BAD) {
		sqldb_fail(db, SQLDB_CONN, "database connection lost (%s): %s",
		    what, *msg != '\0' ? msg : "no answer");
		pg_lost(db);
		return (-1);
	}
	return (sqldb_fail(db, e, "%s", msg));
}

/* The server's notices and warnings go to the log, not to stderr. */
static void
pg_notice(void *arg, const char *msg)
{
	size_t	 n = strlen(msg);

	(void)arg;
	while (n > 0 && msg[n - 1] == '\n')
		n--;
	log_info("sqldb=postgresql event=notice msg=\"%.*s\"", (int)n, msg);
}

static int	pg_exec_raw(struct sqldb *, const char *, const char *);
static int	pg_relisten(struct sqldb *);

/* Sets the connection's lock_timeout to p->busy_ms. */
static int
pg_set_busy(struct sqldb *db)
{
	char	 sql[64];

	/* The value is an int we own. */
	snprintf(sql, sizeof sql, "SET lock_timeout = %d", PG(db)->busy_ms);
	return (pg_exec_raw(db, sql, "set lock_timeout"));
}

/* Connects to p->url; returns 0, or -1 (SQLDB_CONN). */
static int
pg_connect(struct sqldb *db)
{
	struct pgdb	*p = PG(db);
	/* connect_timeout first: the URL's own, if any, comes after it. */
	const char	*keys[] = { "connect_timeout", "dbname", NULL };
	const char	*vals[] = { SQLDB_CONNECT_TIMEOUT, p->url, NULL };

	p->conn = PQconnectdbParams(keys, vals, 1);
	if (p->conn == NULL)
		return (sqldb_fail(db, SQLDB_CONN, "out of memory"));
	if (PQstatus(p->conn) != CONNECTION_OK) {
		sqldb_fail(db, SQLDB_CONN, "database unreachable: %s",
		    PQerrorMessage(p->conn));
		PQfinish(p->conn);
		p->conn = NULL;
		return (-1);
	}
	PQsetNoticeProcessor(p->conn, pg_notice, NULL);
	p->gen++;
	p->backoff_ms = 0;
	if (p->busy_ms > 0 && pg_set_busy(db) == -1)
		return (-1);
	return (pg_relisten(db));
}

/*
 * Makes sure db has a connection, reconnecting at most once per backoff
 * period; fails while a lost transaction is not rolled back.  Returns 0,
 * or -1.
 */
static int
pg_ready(struct sqldb *db)
{
	struct pgdb	*p = PG(db);
	int64_t		 now;

	if (p->lost_txn)
		return (sqldb_fail(db, SQLDB_CONN, "the transaction was lost "
		    "with the database connection: roll back"));
	/* An idle connection the server closed: lost, nothing in doubt. */
	if (p->conn != NULL && !db->in_txn && !p->pipeline &&
	    sqldb_pgn_closed(p->conn, db->nd))
		pg_lost(db);
	if (p->conn != NULL)
		return (0);
	now = pg_now_ms();
	if (p->backoff_ms > 0 && now < p->next_try_ms)
		return (sqldb_fail(db, SQLDB_CONN, "database unreachable "
		    "(next attempt in %" PRId64 " ms)", p->next_try_ms - now));
	if (pg_connect(db) == 0) {
		if (p->gen > 1)
			log_info("sqldb=postgresql event=reconnected");
		return (0);
	}
	p->backoff_ms = p->backoff_ms == 0 ? SQLDB_BACKOFF_MIN_MS :
	    p->backoff_ms * 2;
	if (p->backoff_ms > SQLDB_BACKOFF_MAX_MS)
		p->backoff_ms = SQLDB_BACKOFF_MAX_MS;
	p->next_try_ms = now + p->backoff_ms;
	return (-1);
}

static int
pg_open(struct sqldb *db, const char *url)
{
	struct pgdb	*p;

	if ((p = calloc(1, sizeof *p)) == NULL || (p->url = strdup(url)) ==
	    NULL) {
		free(p);
		return (sqldb_fail(db, SQLDB_OTHER, "out of memory"));
	}
	db->be = p;
	return (pg_connect(db));
}

static void
pg_close(struct sqldb *db)
{
	struct pgdb	*p = PG(db);

	if (p == NULL)
		return;
	if (p->conn != NULL)
		PQfinish(p->conn);
	free(p->queue);
	free(p->url);
	free(p);
}

/* Runs sql (no parameters) on the connection; returns 0, or -1. */
static int
pg_exec_raw(struct sqldb *db, const char *sql, const char *what)
{
	PGresult	*res;
	ExecStatusType	 st;

	res = PQexec(PG(db)->conn, sql);
	st = PQresultStatus(res);
	/* A script of comments only (a placeholder migration) is empty. */
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ||
	    st == PGRES_EMPTY_QUERY) {
		PQclear(res);
		return (0);
	}
	pg_fail(db, res, what);
	PQclear(res);
	return (-1);
}

static int
pg_busy(struct sqldb *db, int ms)
{
	PG(db)->busy_ms = ms;
	if (PG(db)->pipeline)
		return (sqldb_fail(db, SQLDB_OTHER, "not in a batch"));
	if (pg_ready(db) == -1)
		return (-1);
	return (pg_set_busy(db));
}

static int
pg_exec(struct sqldb *db, const char *sql)
{
	if (PG(db)->pipeline)
		return (sqldb_fail(db, SQLDB_OTHER, "no script in a batch"));
	if (pg_ready(db) == -1)
		return (-1);
	return (pg_exec_raw(db, sql, "exec"));
}

/*
 * Rewrites the placeholders of sql ("?" in order, "?N" numbered) to $N
 * outside quotes and comments; returns the new text (malloc) with *np the
 * number of parameters, or NULL.  RETURNING id is appended on request.
 */
static char *
pg_rewrite(const char *sql, int returning, int *np)
{
	size_t	 n = strlen(sql), o = 0;
	char	*out, q = 0;
	long	 seq = 0, max = 0, k;

	/* "?" becomes at most "$" and 10 digits; ample room. */
	if ((out = malloc(n * 11 + 32)) == NULL)
		return (NULL);
	for (; *sql != '\0'; sql++) {
		if (q == '-' || q == '*') {
			if ((q == '-' && *sql == '\n') ||
			    (q == '*' && sql[0] == '*' && sql[1] == '/')) {
				if (q == '*')
					out[o++] = *sql++;
				q = 0;
			}
		} else if (q != 0) {
			if (*sql == q)
				q = 0;	/* '' re-enters at once: fine */
		} else if (*sql == '\'' || *sql == '"')
			q = *sql;
		else if (sql[0] == '-' && sql[1] == '-')
			q = '-';
		else if (sql[0] == '/' && sql[1] == '*')
			q = '*';
		else if (*sql == '?') {
			if (sql[1] >= '0' && sql[1] <= '9') {
				k = strtol(sql + 1, (char **)&sql, 10);
				sql--;
			} else
				k = ++seq;
			if (k < 1 || k > 65535) {
				free(out);
				return (NULL);
			}
			o += (size_t)sprintf(out + o, "$%ld", k);
			max = k > max ? k : max;
			continue;
		}
		out[o++] = *sql;
	}
	while (o > 0 && (out[o - 1] == ';' || out[o - 1] == ' ' ||
	    out[o - 1] == '\n' || out[o - 1] == '\t'))
		o--;
	if (returning)
		o += (size_t)sprintf(out + o, " RETURNING id");
	out[o] = '\0';
	*np = (int)max;
	return (out);
}

/* Prepares s on the current connection; returns 0, or -1. */
static int
pg_prepare_now(struct sqldb_stmt *s)
{
	struct pgdb	*p = PG(s->db);
	struct pgstmt	*ps = PSTMT(s);
	PGresult	*res;
	int		 r = 0;

	res = PQprepare(p->conn, ps->name, ps->sql, ps->nparams, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		r = pg_fail(s->db, res, "prepare");
	else
		ps->gen = p->gen;
	PQclear(res);
	return (r);
}

static void
pg_stmt_free(struct pgstmt *ps)
{
	free(ps->vals);
	free(ps->lens);
	free(ps->fmts);
	free(ps->sql);
	free(ps);
}

static int
pg_prepare(struct sqldb_stmt *s, const char *sql)
{
	struct pgdb	*p = PG(s->db);
	struct pgstmt	*ps;

	if ((ps = calloc(1, sizeof *ps)) == NULL)
		return (sqldb_fail(s->db, SQLDB_OTHER, "out of memory"));
	s->be = ps;
	ps->sql = pg_rewrite(sql, s->flags & SQLDB_RETURNING_ID,
	    &ps->nparams);
	if (ps->sql == NULL) {
		free(ps);
		return (sqldb_fail(s->db, SQLDB_OTHER, "bad placeholder, or "
		    "out of memory"));
	}
	snprintf(ps->name, sizeof ps->name, "s%u", ++p->nstmts);
	if (ps->nparams > 0 && ((ps->vals = calloc((size_t)ps->nparams,
	    sizeof *ps->vals)) == NULL || (ps->lens = calloc((size_t)
	    ps->nparams, sizeof *ps->lens)) == NULL || (ps->fmts = calloc(
	    (size_t)ps->nparams, sizeof *ps->fmts)) == NULL))
		goto fail;
	/* Now if reachable (errors show at once), else at the first step. */
	if (p->conn == NULL || p->pipeline || p->lost_txn ||
	    pg_prepare_now(s) == 0 || s->db->err == SQLDB_CONN) {
		sqldb_ok(s->db);
		return (0);
	}
	pg_stmt_free(ps);
	return (-1);

fail:
	pg_stmt_free(ps);
	return (sqldb_fail(s->db, SQLDB_OTHER, "out of memory"));
}

/* Frees the current row's decoded blobs. */
static void
pg_free_blobs(struct pgstmt *ps)
{
	int	 i, n;

	if (ps->blobs == NULL)
		return;
	n = PQnfields(ps->res);
	for (i = 0; i < n; i++)
		PQfreemem(ps->blobs[i].p);
	free(ps->blobs);
	ps->blobs = NULL;
}

/* Ends the statement's run; the bindings stay unless clear. */
static void
pg_end(struct sqldb_stmt *s, int clear)
{
	struct pgstmt	*ps = PSTMT(s);
	int		 i;

	pg_free_blobs(ps);
	PQclear(ps->res);
	ps->res = NULL;
	ps->ran = 0;
	ps->row = ps->nrows = 0;
	for (i = 0; clear && i < ps->nparams; i++) {
		free(ps->vals[i]);
		ps->vals[i] = NULL;
		ps->lens[i] = ps->fmts[i] = 0;
	}
}

static void
pg_reset(struct sqldb_stmt *s)
{
	pg_end(s, 1);
}

static void
pg_finalize(struct sqldb_stmt *s)
{
	struct pgstmt	*ps = PSTMT(s);
	struct pgdb	*p = PG(s->db);
	char		 sql[48];

	pg_end(s, 1);
	/* Free the server's copy when idle (the name is ours: no value). */
	if (p->conn != NULL && ps->gen == p->gen && !p->pipeline &&
	    !s->db->in_txn) {
		snprintf(sql, sizeof sql, "DEALLOCATE %s", ps->name);
		PQclear(PQexec(p->conn, sql));
	}
	pg_stmt_free(ps);
}

static int
pg_bind(struct sqldb_stmt *s, int i, int kind, int64_t iv, double dv,
    const void *v, size_t n)
{
	struct pgstmt	*ps = PSTMT(s);
	char		 num[40], *copy = NULL;

	if (i < 1 || i > ps->nparams)
		return (sqldb_fail(s->db, SQLDB_OTHER, "parameter %d out of "
		    "range (1..%d)", i, ps->nparams));
	if (n > INT32_MAX)
		return (sqldb_fail(s->db, SQLDB_OTHER, "parameter %d too "
		    "long", i));
	if (kind == 'i')
		n = (size_t)snprintf(num, sizeof num, "%" PRId64, iv);
	else if (kind == 'd') {
		if (isnan(dv))
			n = (size_t)snprintf(num, sizeof num, "NaN");
		else if (isinf(dv))
			n = (size_t)snprintf(num, sizeof num, "%sInfinity",
			    dv < 0 ? "-" : "");
		else	/* 17 digits: the exact double back */
			n = (size_t)snprintf(num, sizeof num, "%.17g", dv);
	}
	if (kind == 'i' || kind == 'd')
		v = num;
	if (kind != 'n') {
		if ((copy = malloc(n + 1)) == NULL)
			return (sqldb_fail(s->db, SQLDB_OTHER, "out of "
			    "memory"));
		memcpy(copy, v, n);
		copy[n] = '\0';
	}
	if (ps->res != NULL || ps->ran)
		pg_end(s, 0);
	free(ps->vals[i - 1]);
	ps->vals[i - 1] = copy;
	ps->lens[i - 1] = (int)n;
	ps->fmts[i - 1] = kind == 'b';
	return (0);
}

/* Queues one more result of the pipeline (the prepare of s, or NULL). */
static int
pg_push(struct sqldb *db, struct sqldb_stmt *s)
{
	struct pgdb	 *p = PG(db);
	struct sqldb_stmt **q;
	size_t		  cap;

	if (p->nqueue == p->queue_cap) {
		cap = p->queue_cap == 0 ? 64 : p->queue_cap * 2;
		if ((q = reallocarray(p->queue, cap, sizeof *q)) == NULL)
			return (sqldb_fail(db, SQLDB_OTHER, "out of memory"));
		p->queue = q;
		p->queue_cap = cap;
	}
	p->queue[p->nqueue++] = s;
	return (0);
}

/* Notes the first failure of the pipeline's results. */
static void
pg_note(struct pgdb *p, PGresult *res, struct sqldb_stmt *s)
{
	ExecStatusType	 st = PQresultStatus(res);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return;
	if (s != NULL)		/* its prepare did not happen */
		PSTMT(s)->gen = 0;
	if (st == PGRES_PIPELINE_ABORTED || p->qerr != SQLDB_OK)
		return;
	p->qerr = pg_class(PQresultErrorField(res, PG_DIAG_SQLSTATE));
	snprintf(p->qmsg, sizeof p->qmsg, "%s", PQresultErrorMessage(res));
}

/*
 * Sends a sync and reads every queued result up to it, noting the first
 * failure in p->qerr.  Returns 0, or -1 if the connection was lost.
 */
static int
pg_drain(struct sqldb *db)
{
	struct pgdb	*p = PG(db);
	PGresult	*res;
	size_t		 i;

	if (PQpipelineSync(p->conn) != 1)
		return (pg_fail(db, NULL, "pipeline sync"));
	for (i = 0; i < p->nqueue; i++) {
		if ((res = PQgetResult(p->conn)) == NULL)
			return (pg_fail(db, NULL, "pipeline"));
		pg_note(p, res, p->queue[i]);
		PQclear(res);
		/* Each command's results end with a NULL. */
		while ((res = PQgetResult(p->conn)) != NULL) {
			pg_note(p, res, p->queue[i]);
			PQclear(res);
		}
	}
	p->nqueue = 0;
	res = PQgetResult(p->conn);
	if (PQresultStatus(res) != PGRES_PIPELINE_SYNC) {
		PQclear(res);
		return (pg_fail(db, NULL, "pipeline sync"));
	}
	PQclear(res);
	if (PQstatus(p->conn) == CONNECTION_BAD)
		return (pg_fail(db, NULL, "pipeline"));
	return (0);
}

/* Queues s's run (and its prepare if needed) in the pipeline. */
static int
pg_queue(struct sqldb_stmt *s)
{
	struct sqldb	*db = s->db;
	struct pgdb	*p = PG(db);
	struct pgstmt	*ps = PSTMT(s);

	if (s->flags & SQLDB_RETURNING_ID)
		return (sqldb_fail(db, SQLDB_OTHER, "no RETURNING id in a "
		    "pipeline"));
	if (ps->gen != p->gen) {
		if (PQsendPrepare(p->conn, ps->name, ps->sql, ps->nparams,
		    NULL) != 1 || pg_push(db, s) == -1)
			return (pg_fail(db, NULL, "queue"));
		ps->gen = p->gen;
	}
	if (PQsendQueryPrepared(p->conn, ps->name, ps->nparams,
	    (const char *const *)ps->vals, ps->lens, ps->fmts, 0) != 1 ||
	    pg_push(db, NULL) == -1)
		return (pg_fail(db, NULL, "queue"));
	ps->ran = 1;
	if (p->nqueue >= SQLDB_PG_PIPELINE_MAX && pg_drain(db) == -1)
		return (-1);
	return (SQLDB_DONE);
}

/* Runs s (prepared on this connection first if need be). */
static int
pg_run(struct sqldb_stmt *s)
{
	struct sqldb	*db = s->db;
	struct pgdb	*p = PG(db);
	struct pgstmt	*ps = PSTMT(s);
	PGresult	*res;
	ExecStatusType	 st;

	if (pg_ready(db) == -1 || (ps->gen != p->gen &&
	    pg_prepare_now(s) == -1))
		return (-1);
	res = PQexecPrepared(p->conn, ps->name, ps->nparams,
	    (const char *const *)ps->vals, ps->lens, ps->fmts, 0);
	st = PQresultStatus(res);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		pg_fail(db, res, "run");
		PQclear(res);
		return (-1);
	}
	ps->ran = 1;
	db->changes = strtoll(PQcmdTuples(res), NULL, 10);
	if ((s->flags & SQLDB_RETURNING_ID) && PQntuples(res) == 1)
		db->last_id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	else if (st == PGRES_TUPLES_OK && PQntuples(res) > 0) {
		ps->res = res;
		ps->nrows = PQntuples(res);
		ps->row = 0;
		return (SQLDB_ROW);
	}
	PQclear(res);
	return (SQLDB_DONE);
}

static int
pg_step(struct sqldb_stmt *s)
{
	struct pgstmt	*ps = PSTMT(s);

	if (!ps->ran)
		return (PG(s->db)->pipeline ? pg_queue(s) : pg_run(s));
	pg_free_blobs(ps);
	if (ps->res != NULL && ps->row + 1 < ps->nrows) {
		ps->row++;
		return (SQLDB_ROW);
	}
	return (SQLDB_DONE);
}

static int
pg_column_count(struct sqldb_stmt *s)
{
	return (PSTMT(s)->res != NULL ? PQnfields(PSTMT(s)->res) : 0);
}

static int
pg_column_null(struct sqldb_stmt *s, int i)
{
	struct pgstmt	*ps = PSTMT(s);

	return (ps->res == NULL || i < 0 || i >= PQnfields(ps->res) ||
	    PQgetisnull(ps->res, ps->row, i));
}

static int64_t
pg_column_int64(struct sqldb_stmt *s, int i)
{
	if (pg_column_null(s, i))
		return (0);
	return (strtoll(PQgetvalue(PSTMT(s)->res, PSTMT(s)->row, i), NULL,
	    10));
}

static double
pg_column_double(struct sqldb_stmt *s, int i)
{
	if (pg_column_null(s, i))
		return (0);
	return (strtod(PQgetvalue(PSTMT(s)->res, PSTMT(s)->row, i), NULL));
}

static const char *
pg_column_text(struct sqldb_stmt *s, int i)
{
	if (pg_column_null(s, i))
		return (NULL);
	return (PQgetvalue(PSTMT(s)->res, PSTMT(s)->row, i));
}

static const void *
pg_column_blob(struct sqldb_stmt *s, int i, size_t *n)
{
	struct pgstmt	*ps = PSTMT(s);
	const char	*t;

	*n = 0;
	if (pg_column_null(s, i))
		return ("");
	t = PQgetvalue(ps->res, ps->row, i);
	if (PQftype(ps->res, i) != PG_BYTEA_OID) {
		*n = (size_t)PQgetlength(ps->res, ps->row, i);
		return (t);
	}
	if (ps->blobs == NULL && (ps->blobs = calloc((size_t)
	    PQnfields(ps->res), sizeof *ps->blobs)) == NULL)
		return (NULL);
	if (ps->blobs[i].p == NULL && (ps->blobs[i].p = PQunescapeBytea(
	    (const unsigned char *)t, &ps->blobs[i].n)) == NULL)
		return (NULL);
	*n = ps->blobs[i].n;
	return (ps->blobs[i].p);
}

/* Ends a batch in pipeline mode: commit (or roll back) what was queued. */
static int
pg_pipeline_end(struct sqldb *db, const char *what)
{
	struct pgdb	*p = PG(db);
	int		 r;

	if (PQsendQueryParams(p->conn, what, 0, NULL, NULL, NULL, NULL, 0) !=
	    1 || pg_push(db, NULL) == -1)
		return (pg_fail(db, NULL, what));
	if (pg_drain(db) == -1)
		return (-1);
	PQexitPipelineMode(p->conn);
	p->pipeline = 0;
	db->in_txn = 0;
	r = 0;
	if (p->qerr != SQLDB_OK && strcmp(what, "COMMIT") == 0)
		r = sqldb_fail(db, p->qerr, "batch rolled back: %s", p->qmsg);
	/* After a failure the transaction is still open, aborted. */
	if (PQtransactionStatus(p->conn) != PQTRANS_IDLE)
		PQclear(PQexec(p->conn, "ROLLBACK"));
	if (p->qerr == SQLDB_CONN)	/* a standby's: connect again */
		pg_lost(db);
	return (r);
}

static int
pg_rollback(struct sqldb *db)
{
	struct pgdb	*p = PG(db);

	if (p->lost_txn || p->conn == NULL) {
		p->lost_txn = 0;
		db->in_txn = 0;
		return (0);
	}
	if (p->pipeline)
		return (pg_pipeline_end(db, "ROLLBACK"));
	db->in_txn = 0;
	if (PQtransactionStatus(p->conn) == PQTRANS_IDLE)
		return (0);
	return (pg_exec_raw(db, "ROLLBACK", "roll back"));
}

static int
pg_txn(struct sqldb *db, const char *what)
{
	struct pgdb	*p = PG(db);

	if (strcmp(what, "ROLLBACK") == 0)
		return (pg_rollback(db));
	if (pg_ready(db) == -1)
		return (-1);
	if (strcmp(what, "BEGIN") == 0) {
		/* A connection found dead at BEGIN held no transaction:
		 * nothing is in doubt, so connect again (once) and begin. */
		if (pg_exec_raw(db, "BEGIN", "begin") == -1 &&
		    (db->err != SQLDB_CONN || pg_ready(db) == -1 ||
		    pg_exec_raw(db, "BEGIN", "begin") == -1))
			return (-1);
		db->in_txn = 1;
		return (0);
	}
	if (p->pipeline)
		return (pg_pipeline_end(db, "COMMIT"));
	/* PostgreSQL answers COMMIT of an aborted transaction with a
	 * ROLLBACK: say so. */
	if (PQtransactionStatus(p->conn) == PQTRANS_INERROR) {
		pg_rollback(db);
		return (sqldb_fail(db, SQLDB_OTHER, "transaction aborted by "
		    "an earlier failure: rolled back"));
	}
	if (pg_exec_raw(db, "COMMIT", "commit") == -1)
		return (-1);
	db->in_txn = 0;
	return (0);
}

static int
pg_batch_begin(struct sqldb *db, int pipeline)
{
	struct pgdb	*p = PG(db);

	if (!pipeline)
		return (pg_txn(db, "BEGIN"));
	if (pg_ready(db) == -1)
		return (-1);
	if (PQenterPipelineMode(p->conn) != 1)
		return (sqldb_fail(db, SQLDB_OTHER, "cannot enter pipeline "
		    "mode: %s", PQerrorMessage(p->conn)));
	p->pipeline = 1;
	p->nqueue = 0;
	p->qerr = SQLDB_OK;
	db->in_txn = 1;
	if (PQsendQueryParams(p->conn, "BEGIN", 0, NULL, NULL, NULL, NULL,
	    0) != 1 || pg_push(db, NULL) == -1)
		return (pg_fail(db, NULL, "begin"));
	return (0);
}

static int
pg_batch_commit(struct sqldb *db)
{
	return (pg_txn(db, "COMMIT"));
}

/* Reads one integer (the first column of the first row) of sql. */
static int
pg_int(struct sqldb *db, const char *sql, int *v)
{
	PGresult	*res;
	int		 r = 0;

	res = PQexec(PG(db)->conn, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		r = pg_fail(db, res, "read the version");
	else
		*v = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return (r);
}

/*
 * The migrations' version: one row of table schema_version, made on the
 * first call; locked (FOR UPDATE) inside a migration's transaction, so
 * that two daemons migrating at once take turns.
 */
static int
pg_version(struct sqldb *db, int *v, int locked)
{
	if (pg_ready(db) == -1)
		return (-1);
	if (locked)
		return (pg_int(db, "SELECT version FROM schema_version WHERE "
		    "id = 1 FOR UPDATE", v));
	/*
	 * Daemons starting together: one makes it, under a lock.  Without
	 * PostgreSQL's NOTICE that it exists already, which every start
	 * but the first would log (client_min_messages, this transaction
	 * only).
	 */
	if (!db->in_txn && pg_exec_raw(db, "BEGIN; "
	    "SET LOCAL client_min_messages = warning; "
	    "SELECT pg_advisory_xact_lock(" SQLDB_PG_MIGRATE_LOCK "); "
	    "CREATE TABLE IF NOT EXISTS schema_version ("
	    "id INTEGER PRIMARY KEY CHECK (id = 1), "
	    "version INTEGER NOT NULL CHECK (version >= 0)); "
	    "INSERT INTO schema_version (id, version) VALUES (1, 0) "
	    "ON CONFLICT DO NOTHING; COMMIT", "make schema_version") == -1) {
		if (PG(db)->conn != NULL && PQtransactionStatus(PG(db)->conn) !=
		    PQTRANS_IDLE)
			PQclear(PQexec(PG(db)->conn, "ROLLBACK"));
		return (-1);
	}
	return (pg_int(db, "SELECT version FROM schema_version WHERE id = 1",
	    v));
}

static int
pg_set_version(struct sqldb *db, int v)
{
	char	 sql[80];

	/* The value is an int we own. */
	snprintf(sql, sizeof sql, "UPDATE schema_version SET version = %d "
	    "WHERE id = 1", v);
	return (pg_exec_raw(db, sql, "record the version"));
}

/* nd: listens again to the channels of db->nd on a new connection. */
static int
pg_relisten(struct sqldb *db)
{
	struct pgdb	*p = PG(db);
	char		 msg[512];

	if (sqldb_pgn_listen_all(p->conn, db->nd, msg, sizeof msg) == 0)
		return (0);
	sqldb_fail(db, SQLDB_CONN, "%s", msg);
	PQfinish(p->conn);
	p->conn = NULL;
	return (-1);
}

/* nd: the socket of the notifications, reconnecting first if need be. */
static int
pg_notify_fd(struct sqldb *db)
{
	if (PG(db)->pipeline)
		return (sqldb_fail(db, SQLDB_OTHER, "not in a batch"));
	if (pg_ready(db) == -1)
		return (-1);
	return (PQsocket(PG(db)->conn));
}

/* nd: one notification that arrived: SQLDB_ROW, SQLDB_DONE, or -1. */
static int
pg_notify_next(struct sqldb *db, struct sqldb_note *n)
{
	struct pgdb	*p = PG(db);
	int		 r;

	if (p->conn == NULL)
		return (sqldb_fail(db, SQLDB_CONN, "database connection lost: "
		    "take the notifications' socket again"));
	if (p->pipeline)
		return (sqldb_fail(db, SQLDB_OTHER, "not in a batch"));
	if ((r = sqldb_pgn_next(p->conn, n)) == -1)
		return (pg_fail(db, NULL, "notifications"));
	return (r);
}

const struct sqldb_ops sqldb_pg_ops = {
	.backend = SQLDB_PG,
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.busy = pg_busy,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.bind = pg_bind,
	.step = pg_step,
	.reset = pg_reset,
	.column_count = pg_column_count,
	.column_null = pg_column_null,
	.column_int64 = pg_column_int64,
	.column_double = pg_column_double,
	.column_text = pg_column_text,
	.column_blob = pg_column_blob,
	.txn = pg_txn,
	.batch_begin = pg_batch_begin,
	.batch_commit = pg_batch_commit,
	.version = pg_version,
	.set_version = pg_set_version,
	.notify_fd = pg_notify_fd,
	.notify_next = pg_notify_next,
};
