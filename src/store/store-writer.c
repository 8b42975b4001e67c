/*
 * store-writer.c: the store's writer thread (see store.c): it takes the
 * queued writes (store-queue.c) in batches of one transaction each (group
 * commit), queues the runs of moves that are due (store-moves.c), and
 * handles failures, the done callbacks and the checkpoints.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "store/store-int.h"
#include "lib/util.h"

/* The SQL of the writer's statements, by STORE_W_*. */
const char *const store_wsql[STORE_W_N] = {
	"INSERT INTO games (id, family, game, player1, player2, started_at,"
	" status, rated, tc, tournament_id, slot)"
	" VALUES (?, ?, ?, ?, ?, ?, 'live', ?, ?, ?, ?)",
	"INSERT INTO move_runs (game_id, first_ply, moves) VALUES (?, ?, ?)",
	"UPDATE games SET ended_at = ?, result = ?, reason = ?, status = ?,"
	" detail = ? WHERE id = ?",
	/* seq: the order of storing, which the trimming evicts by. */
	"INSERT INTO tables (kind, key, created_at, meta, data, seq)"
	" VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1"
	" FROM tables)) ON CONFLICT (kind, key) DO UPDATE SET"
	" created_at = excluded.created_at, meta = excluded.meta,"
	" data = excluded.data, seq = excluded.seq",
	"UPDATE games SET status = 'abandoned', reason = 'interrupted'"
	" WHERE status = 'live' AND id <= ?",
	"INSERT INTO refused_moves (game_id, seq, ply, player, move, reason,"
	" time_ms, delay_us) VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1"
	" FROM refused_moves WHERE game_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7)",
	/* A game whose end was lost: marked only if still live (a commit in
	 * doubt may have kept its end after all). */
	"UPDATE games SET ended_at = ?, result = ?, reason = ?, status = ?,"
	" detail = ? WHERE id = ? AND status = 'live'",
};

/*
 * Waits until everything queued so far is committed or has failed, and
 * has had its callbacks.  Returns 0 if the last batch committed.  Must not
 * be called from a done callback.
 */
int
store_flush(struct store *st)
{
	uint64_t	 seq;
	int		 ok;

	pthread_mutex_lock(&st->mtx);
	store_runs_queue(st, -1);
	seq = st->seq;
	if (st->done_seq < seq) {
		st->urgent = 1;
		pthread_cond_signal(&st->work);
	}
	while (st->done_seq < seq)
		pthread_cond_wait(&st->done, &st->mtx);
	ok = st->last_ok;
	pthread_mutex_unlock(&st->mtx);
	return (ok ? 0 : -1);
}

/*
 * The refusal of a new logged game while store_failing (PROTOCOL.md §3,
 * item 6), naming the cause the writer knows: its queue past half of
 * max-queue-bytes or of its items while it can write; on SQLite (or no store)
 * always STORE_FAILING_MSG; on PostgreSQL the database unreachable (the
 * last batch lost its connection, or no game id could be drawn), its disk
 * full, or another error (logged).  Each starts "the game log cannot
 * write (" (grundy bot retries its seek on that).
 */
const char *
store_failing_msg(struct store *st)
{
	int		 cls, busy;

	if (st == NULL)
		return (STORE_FAILING_MSG);
	pthread_mutex_lock(&st->mtx);
	busy = st->last_ok && !(st->pg && st->nids == 0 && st->ids_failed) &&
	    store_queue_busy(st);
	cls = st->last_ok ? SQLDB_CONN : st->last_cls;	/* else: the ids */
	pthread_mutex_unlock(&st->mtx);
	if (busy)
		return (STORE_BUSY_MSG);
	if (!st->pg)
		return (STORE_FAILING_MSG);
	if (cls == SQLDB_CONN)
		return (STORE_FAILING_WHY("its database is unreachable: "
		    "reconnecting"));
	if (cls == SQLDB_FULL)
		return (STORE_FAILING_WHY("its database's disk is full"));
	return (STORE_FAILING_WHY("a database error: see the server's log"));
}

/* Copies the writer's counters. */
void
store_counters(struct store *st, struct store_counters *c)
{
	pthread_mutex_lock(&st->mtx);
	*c = st->cnt;
	pthread_mutex_unlock(&st->mtx);
}

/* The writer thread's states, for logs. */
static const char *const store_tstate_names[] = {
	STORE_TSTATES(ENUM_X_NAME)
};

/* Changes the writer thread's state (mtx held), logging old -> new. */
void
store_tstate_set(struct store *st, enum store_tstate to)
{
	store_state_log(st, "thread", store_tstate_names, st->tstate, to);
	st->tstate = to;
}

/* The writer's states, for logs. */
static const char *const store_wstate_names[] = {
	STORE_WSTATES(ENUM_X_NAME)
};

/* Changes the writer's state (writer thread), logging old -> new. */
static void
store_wstate_set(struct store *st, enum store_wstate to)
{
	if (st->wstate == to)
		return;
	store_state_log(st, "writer", store_wstate_names, st->wstate, to);
	st->wstate = to;
}

/* Evicts the oldest stored tables beyond the caps (the writer's). */
static int
store_tables_trim(struct store *st, size_t max, size_t bytes)
{
	struct sqldb_stmt *s;
	int		 rc;
	int64_t		 n;

	if (sqldb_prepare(st->wdb, "DELETE FROM tables WHERE (kind, key) IN"
	    " (SELECT kind, key FROM (SELECT kind, key,"
	    " ROW_NUMBER() OVER w AS k,"
	    " SUM(LENGTH(key) + COALESCE(LENGTH(data), 0)) OVER w AS b"
	    " FROM tables WINDOW w AS (ORDER BY seq DESC)) AS t"
	    " WHERE k > ?1 OR b > ?2)", 0, &s) == -1)
		return (-1);
	sqldb_bind_int64(s, 1, max > 0 ? (int64_t)max : INT64_MAX);
	sqldb_bind_int64(s, 2, bytes > 0 ? (int64_t)bytes : INT64_MAX);
	rc = store_do(s);
	n = sqldb_changes(st->wdb);
	sqldb_finalize(s);
	if (rc == 0 && n > 0)
		log_info("store=%s event=table-evict tables=%" PRId64,
		    st->name, n);
	return (rc);
}

/* Inserts a game's row (a BEGIN item). */
static int
store_exec_begin(struct store *st, struct store_item *it)
{
	struct sqldb_stmt *s = st->ws[STORE_W_GAME];

	sqldb_bind_int64(s, 1, it->id);
	sqldb_bind_text(s, 2, it->s[0]);
	sqldb_bind_text(s, 3, it->s[1]);
	sqldb_bind_text(s, 4, it->s[2]);
	sqldb_bind_text(s, 5, it->s[3]);
	sqldb_bind_text(s, 6, it->when);
	sqldb_bind_int64(s, 7, it->rated);
	sqldb_bind_text(s, 8, it->tc);
	if (it->tournament != 0) {
		sqldb_bind_int64(s, 9, it->tournament);
		sqldb_bind_int64(s, 10, it->slot);
	} else {
		/* Statements are reused: clear an earlier game's. */
		sqldb_bind_null(s, 9);
		sqldb_bind_null(s, 10);
	}
	return (store_do(s));
}

/* An END item for a game that has no row. */
#define STORE_NOTFOUND	1

/* Ends a game's row (an END item); STORE_NOTFOUND if there is none. */
static int
store_exec_end(struct store *st, struct store_item *it)
{
	struct sqldb_stmt *s = st->ws[it->lost ? STORE_W_LOST : STORE_W_END];
	int		 rc;

	sqldb_bind_text(s, 1, it->status == STORE_LIVE ? NULL : it->when);
	sqldb_bind_text(s, 2, store_result_name(it->result));
	sqldb_bind_text(s, 3, it->s[0]);
	sqldb_bind_text(s, 4, store_status_name(it->status));
	sqldb_bind_text(s, 5, it->s[1]);
	sqldb_bind_int64(s, 6, it->id);
	rc = store_do(s);
	if (rc == 0 && sqldb_changes(st->wdb) == 0) {
		if (!it->lost)
			return (STORE_NOTFOUND);
		log_info("store=%s event=game-not-marked game=%" PRId64
		    " detail=\"not live in the log: never begun there, or"
		    " its end committed after all\"", st->name, it->id);
	}
	return (rc);
}

/* Stores a table (a TABLE item) and trims the cache to its caps. */
static int
store_exec_table(struct store *st, struct store_item *it)
{
	struct sqldb_stmt *s = st->ws[STORE_W_TABLE];
	int		 rc;

	sqldb_bind_text(s, 1, it->s[0]);
	sqldb_bind_text(s, 2, it->s[1]);
	sqldb_bind_text(s, 3, it->when);
	sqldb_bind_text(s, 4, it->s[2]);
	if (it->data != NULL)
		sqldb_bind_blob(s, 5, it->data, it->len);
	else
		sqldb_bind_null(s, 5);
	rc = store_do(s);
	if (rc == 0 && (it->n > 0 || it->id > 0))
		rc = store_tables_trim(st, it->n, (size_t)it->id);
	return (rc);
}

/* Inserts a refused move (a REFUSED item). */
static int
store_exec_refused(struct store *st, struct store_item *it)
{
	struct sqldb_stmt *s = st->ws[STORE_W_REFUSED];

	sqldb_bind_int64(s, 1, it->id);
	sqldb_bind_int64(s, 2, (int64_t)it->ply);
	sqldb_bind_int64(s, 3, (int64_t)it->n);
	sqldb_bind_text(s, 4, it->s[0]);
	sqldb_bind_text(s, 5, it->s[1]);
	sqldb_bind_int64(s, 6, (int64_t)it->len);
	if (it->rated)
		sqldb_bind_int64(s, 7, it->tournament);
	else
		sqldb_bind_null(s, 7);
	return (store_do(s));
}

/*
 * Runs one item inside the batch's transaction.  Returns 0, -1 on a
 * database error or STORE_NOTFOUND; *alone is set if the failure concerns
 * this item only.
 */
static int
store_exec_item(struct store *st, struct store_item *it, int *alone)
{
	struct sqldb_stmt *s;
	int		 rc = 0;

	*alone = 0;
	switch (it->op) {
	case STORE_OP_BEGIN:
		rc = store_exec_begin(st, it);
		break;
	case STORE_OP_RUN:
		s = st->ws[STORE_W_MOVE];
		sqldb_bind_int64(s, 1, it->id);
		sqldb_bind_int64(s, 2, (int64_t)it->ply);
		sqldb_bind_text(s, 3, it->s[0]);
		rc = store_do(s);
		break;
	case STORE_OP_END:
		if ((rc = store_exec_end(st, it)) == STORE_NOTFOUND) {
			*alone = 1;
			return (rc);
		}
		break;
	case STORE_OP_TABLE:
		rc = store_exec_table(st, it);
		break;
	case STORE_OP_ABANDON:
		s = st->ws[STORE_W_ABANDON];
		sqldb_bind_int64(s, 1, it->id);
		rc = store_do(s);
		if (rc == 0)
			*it->count = (int)sqldb_changes(st->wdb);
		break;
	case STORE_OP_PAGES:
		break;		/* done before the transaction */
	case STORE_OP_REFUSED:
		rc = store_exec_refused(st, it);
		break;
	case STORE_OP_PROBE:
		rc = store_probe_write(st->wdb);
		break;
	}
	if (rc == -1 && store_fails_alone(st->wdb))
		*alone = 1;
	return (rc);
}

static const char *const store_op_names[] = {
	[STORE_OP_BEGIN] = "game-begin",
	[STORE_OP_RUN] = "moves",
	[STORE_OP_END] = "game-end",
	[STORE_OP_TABLE] = "table",
	[STORE_OP_ABANDON] = "abandon",
	[STORE_OP_PAGES] = "max-pages",
	[STORE_OP_REFUSED] = "refused-move",
	[STORE_OP_PROBE] = "probe",
};

/* Returns the name of an item's kind, for logs. */
static const char *
store_op_name(enum store_op op)
{
	return (ENUM_NAME(store_op_names, op, "?"));
}

/* Logs a write failure, at most one line per second. */
static void
store_log_fail(struct store *st, const char *what, int64_t id, int rc,
    const char *msg, size_t n)
{
	struct timespec	 ts;
	char		 game[32] = "-", line[512], *p;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (st->fail_logged == ts.tv_sec && st->fail_logged != 0) {
		st->fail_quiet++;
		return;
	}
	/* One line (PostgreSQL's messages have a DETAIL line). */
	snprintf(line, sizeof line, "%s", msg);
	for (p = line; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	msg = line;
	if (id != 0)
		snprintf(game, sizeof game, "%" PRId64, id);
	log_warnx("store=%s event=write-failed what=%s game=%s writes=%zu "
	    "error=\"%s\" code=%d suppressed=%" PRIu64, st->name, what, game,
	    n, msg, rc, st->fail_quiet);
	st->fail_logged = ts.tv_sec;
	st->fail_quiet = 0;
}

/*
 * The log writes again: the games whose result was lost (their rows are
 * still 'live') are ended as abandoned with reason log-failed, so they
 * are neither left live nor later taken for interrupted (mtx held).
 */
static void
store_mark_lost(struct store *st)
{
	struct store_item *it;
	size_t		 i;

	for (i = 0; i < st->nlost; i++) {
		it = store_item_new(STORE_OP_END, st->lost[i]);
		it->result = STORE_RESULT_NONE;
		it->status = STORE_ABANDONED;
		it->s[0] = xstrdup("log-failed");
		it->lost = 1;
		store_push_locked(st, it, 1);
		log_warnx("store=%s event=game-marked game=%" PRId64
		    " status=abandoned reason=log-failed", st->name,
		    st->lost[i]);
	}
	st->nlost = 0;
}

/* Logs that a batch committed after failures, at most once per second. */
static void
store_log_recovered(struct store *st)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (st->recover_logged == ts.tv_sec && st->recover_logged != 0)
		return;
	log_info("store=%s event=write-recovered suppressed=%" PRIu64,
	    st->name, st->fail_quiet);
	st->recover_logged = ts.tv_sec;
	st->fail_quiet = 0;
}

/* Calls the test hook, if any, at point where of a batch. */
static void
store_hook_call(struct store *st, enum store_hook where)
{
	void		 (*hook)(void *, enum store_hook);
	void		*arg;

	pthread_mutex_lock(&st->mtx);
	hook = st->hook;
	arg = st->hook_arg;
	pthread_mutex_unlock(&st->mtx);
	if (hook != NULL)
		hook(arg, where);
}

/*
 * Runs a batch's items in its transaction (but those that failed alone
 * before), with the ratings of the games it ends: sets their ok, adds the
 * failed ones to *nfail.  Returns 0, -1 if the batch fails, or 1 if an
 * item failed alone on PostgreSQL, which aborts the whole transaction: the
 * batch must run again without it.
 */
static int
store_batch_items(struct store *st, struct store_items *b, size_t *nfail)
{
	struct store_item *it;
	int		 rc, alone;

	STAILQ_FOREACH(it, b, entry) {
		if (it->skip)
			continue;
		rc = store_exec_item(st, it, &alone);
		it->ok = rc == 0;
		if (rc == 0 && it->op == STORE_OP_END)
			rc = store_ratings_end(st, it->id, it->result,
			    it->status);
		if (rc == 0 && it->op == STORE_OP_END && st->bops != NULL &&
		    st->bops->end != NULL)
			st->bops->end(st->bops_arg, st, it);
		if (rc == 0)
			continue;
		if (!alone)
			return (-1);
		/* Its game's end, later in the batch, is unrated. */
		if (it->op == STORE_OP_BEGIN || it->op == STORE_OP_RUN)
			store_damage_now(st, it->id);
		*nfail += it->w;
		store_log_fail(st, store_op_name(it->op), it->id,
		    rc == STORE_NOTFOUND ? 12 : store_code(st->wdb),
		    rc == STORE_NOTFOUND ? "no such game" :
		    sqldb_errmsg(st->wdb), it->w);
		if (rc == -1 && st->pg) {
			it->skip = 1;
			return (1);
		}
	}
	return (0);
}

/*
 * Can the batch go in libpq's pipeline mode (one round trip for all)?
 * Only if no statement returns rows or needs its count of changed rows:
 * games begun, runs of moves, refused moves (and what the batch ops'
 * start queues first: store_batch_ops).
 */
static int
store_batch_plain(struct store *st, struct store_items *b)
{
	struct store_item *it;

	if (!st->pg)
		return (0);
	STAILQ_FOREACH(it, b, entry) {
		if (it->op != STORE_OP_BEGIN && it->op != STORE_OP_RUN &&
		    it->op != STORE_OP_REFUSED && it->op != STORE_OP_PAGES)
			return (0);
	}
	return (1);
}

/*
 * After a COMMIT that failed with the connection (PostgreSQL): did it
 * commit?  Reads back the first item that tells (a game begun, ended, a
 * run of moves): 1 committed, 0 not, -1 unknown (the database still
 * unreachable, or nothing to tell by).
 */
static int
store_batch_landed(struct store *st, struct store_items *b)
{
	struct sqldb_stmt *s;
	struct store_item *it;
	const char	*sql, *t;
	int		 rc, r = -1;

	STAILQ_FOREACH(it, b, entry) {
		if (it->skip)
			continue;
		if (it->op == STORE_OP_BEGIN || (it->op == STORE_OP_END &&
		    it->status != STORE_LIVE))
			sql = "SELECT status FROM games WHERE id = ?";
		else if (it->op == STORE_OP_RUN)
			sql = "SELECT 'run' FROM move_runs WHERE game_id = ?"
			    " AND first_ply = ?";
		else
			continue;
		if (sqldb_prepare(st->wdb, sql, 0, &s) == -1)
			return (-1);
		sqldb_bind_int64(s, 1, it->id);
		if (it->op == STORE_OP_RUN)
			sqldb_bind_int64(s, 2, (int64_t)it->ply);
		if ((rc = sqldb_step(s)) == SQLDB_ROW) {
			t = sqldb_column_text(s, 0);
			r = it->op != STORE_OP_END || (t != NULL &&
			    strcmp(t, store_status_name(it->status)) == 0);
		} else if (rc == SQLDB_DONE)
			r = 0;
		sqldb_finalize(s);
		return (r);
	}
	return (-1);
}

/* The batch ops' start of a try of batch b (pipe: pipelined): 0 or -1. */
static int
store_bops_start(struct store *st, struct store_items *b, int pipe)
{
	if (st->bops == NULL || st->bops->start == NULL)
		return (0);
	return (st->bops->start(st->bops_arg, st, b, pipe));
}

/*
 * Runs a batch's writes in one transaction, with the ratings of the games
 * it ends: sets every item's ok, adds the writes to *n and the failed ones
 * to *nfail, *locked if it holds vmtx (store_ratings_commit).  Returns 1 if
 * the batch committed.
 */
static int
store_batch_exec(struct store *st, struct store_items *b, size_t *n,
    size_t *nfail, int *locked)
{
	struct store_item *it;
	int		 rc, pipe, committing = 0, landed;

	/* The size cap is a setting, not data: it applies whatever happens. */
	STAILQ_FOREACH(it, b, entry) {
		*n += it->w;
		if (it->op == STORE_OP_PAGES &&
		    store_max_pages(st->wdb, it->n) == -1)
			store_log_fail(st, "max-pages", 0, store_code(st->wdb),
			    sqldb_errmsg(st->wdb), 1);
	}
	pipe = store_batch_plain(st, b);
	for (;;) {
		if ((rc = sqldb_batch_begin(st->wdb, pipe)) == 0 &&
		    (rc = store_bops_start(st, b, pipe)) == 0 &&
		    (rc = store_batch_items(st, b, nfail)) == 1) {
			/* PostgreSQL: again, without the item that failed. */
			sqldb_rollback(st->wdb);
			store_ratings_done(st, 0, 0);
			continue;
		}
		if (rc == 0)
			rc = store_ratings_write(st);
		if (rc == 0 && st->bops != NULL && st->bops->commit != NULL)
			rc = st->bops->commit(st->bops_arg, st, b);
		if (rc == 0) {
			store_hook_call(st, STORE_HOOK_WRITTEN);
			*locked = st->pend.n > 0;
			store_ratings_commit(st);
			metrics_commit_start();
			rc = sqldb_batch_commit(st->wdb);
			metrics_commit_done();
			committing = 1;
		}
		if (rc == 0)
			return (1);
		if (committing && sqldb_errclass(st->wdb) == SQLDB_CONN)
			break;		/* in doubt: read it back, below */
		/* A pipeline says that a write failed, not which: find it
		 * (or which item the batch ops' start refuses). */
		if (!pipe || !(store_fails_alone(st->wdb) || (st->bops != NULL &&
		    st->bops->start != NULL)))
			break;
		pipe = 0;
	}
	store_log_fail(st, "batch", 0, store_code(st->wdb),
	    sqldb_errmsg(st->wdb), *n);
	st->wcls = sqldb_errclass(st->wdb);	/* store_failing_msg */
	STAILQ_FOREACH(it, b, entry) {
		if (it->op == STORE_OP_ABANDON)
			store_fail_note(it->fail, st->wdb);
	}
	if (committing && sqldb_errclass(st->wdb) == SQLDB_CONN) {
		/* The server may have committed before the connection went. */
		sqldb_rollback(st->wdb);
		landed = store_batch_landed(st, b);
		log_warnx("store=%s event=commit-in-doubt outcome=%s", st->name,
		    landed == 1 ? "committed" : landed == 0 ? "not-committed" :
		    "unknown");
		if (landed == 1)
			return (1);
	}
	sqldb_rollback(st->wdb);
	*nfail = *n;
	STAILQ_FOREACH(it, b, entry) {
		it->ok = 0;
		if (it->op == STORE_OP_ABANDON)
			*it->count = -1;
	}
	return (0);
}

/*
 * After a batch: notes the games whose end was lost or whose writes
 * failed, and counts (mtx held).  A game end is ok only if all of its
 * game's writes were.
 */
static void
store_batch_settle(struct store *st, struct store_items *b, int committed,
    size_t n, size_t nfail)
{
	struct store_item *it;

	if (committed && st->nlost > 0)
		store_mark_lost(st);
	STAILQ_FOREACH(it, b, entry) {
		if (it->op == STORE_OP_END && !committed &&
		    it->status != STORE_LIVE) {
			/*
			 * Its end is lost (or the marking itself failed: a
			 * probe may commit while the disk is still nearly
			 * full): mark the game on the next commit.
			 */
			st->lost = xreallocarray(st->lost, st->nlost + 1,
			    sizeof *st->lost);
			st->lost[st->nlost++] = it->id;
		}
		if (it->op == STORE_OP_BEGIN || it->op == STORE_OP_RUN) {
			if (!it->ok)
				store_damage(st, it->id);
		} else if (it->op == STORE_OP_END) {
			if (store_damaged(st, it->id, 1) && it->ok) {
				it->ok = 0;
				nfail++;
				log_warnx("store=%s event=game-incomplete "
				    "game=%" PRId64, st->name, it->id);
			}
		}
	}
	st->cnt.batches++;
	st->cnt.items += n;
	st->cnt.failed += nfail;
}

/*
 * Runs one batch in one transaction and then the done callbacks.  Sets
 * every item's ok.  Returns 1 if the batch committed.
 */
static int
store_batch(struct store *st, struct store_items *b)
{
	struct store_item *it;
	size_t		 n = 0, nfail = 0, freed = 0;
	int		 rc, committed, locked = 0;
	char		 msg[256];

	store_hook_call(st, STORE_HOOK_BATCH);
	if (st->shared)
		pthread_mutex_lock(&st->rmtx);
	if (st->bops != NULL && st->bops->begin != NULL)
		st->bops->begin(st->bops_arg, st, b);
	committed = store_batch_exec(st, b, &n, &nfail, &locked);
	/* The ratings are live before any callback runs. */
	store_ratings_done(st, committed, locked);
	if (st->shared)
		pthread_mutex_unlock(&st->rmtx);
	if (committed && st->wstate == STORE_WS_FAILING)
		store_log_recovered(st);
	store_wstate_set(st, committed ? STORE_WS_WRITING : STORE_WS_FAILING);

	pthread_mutex_lock(&st->mtx);
	store_batch_settle(st, b, committed, n, nfail);
	pthread_mutex_unlock(&st->mtx);
	if (st->bops != NULL && st->bops->after != NULL)
		st->bops->after(st->bops_arg, st, b, committed);

	while ((it = STAILQ_FIRST(b)) != NULL) {
		STAILQ_REMOVE_HEAD(b, entry);
		if (it->cb != NULL)
			it->cb(it->arg, it->ok);
		freed += it->bytes;
		store_item_free(it);
	}
	pthread_mutex_lock(&st->mtx);
	st->qbytes -= freed;
	pthread_mutex_unlock(&st->mtx);

	/* The replies are out: now the checkpoint, if the WAL is big. */
	if ((rc = store_checkpoint(st, msg, sizeof msg)) != 0)
		store_log_fail(st, "checkpoint", 0, rc, msg, 0);
	return (committed);
}

/*
 * For tests: the writer thread calls hook(arg, where) at the start of
 * every batch (STORE_HOOK_BATCH: its items are off the queue) and once
 * its writes are done, before its COMMIT (STORE_HOOK_WRITTEN), holding
 * no lock of the store (but the reads' for an in-memory database).  NULL
 * removes it.
 */
void
store_set_hook(struct store *st, void (*hook)(void *, enum store_hook),
    void *arg)
{
	pthread_mutex_lock(&st->mtx);
	st->hook = hook;
	st->hook_arg = arg;
	pthread_mutex_unlock(&st->mtx);
}

/*
 * Makes ops, with arg, take part in the writer's batches (store-int.h):
 * call once, before any write.  ops->free(arg) runs at store_free.
 */
void
store_set_batch_ops(struct store *st, const struct store_batch_ops *ops,
    void *arg)
{
	st->bops = ops;
	st->bops_arg = arg;
}

/* The arg of the batch ops if they are ops, else NULL. */
void *
store_batch_arg(struct store *st, const struct store_batch_ops *ops)
{
	return (st->bops == ops ? st->bops_arg : NULL);
}

/*
 * Runs the writer thread: takes every queued item as one batch.  A batch
 * that nobody waits on may gather for up to STORE_GATHER_NS first, so that
 * a stream of moves costs few transactions; a game end, a flush or a full
 * batch cuts the wait short.
 */
void *
store_writer(void *arg)
{
	struct store	*st = arg;
	struct store_items b;
	struct store_run *r;
	struct timespec	 until;
	uint64_t	 last;
	int64_t		 wait;
	int		 ok;

	pthread_mutex_lock(&st->mtx);
	for (;;) {
		store_runs_age(st, (int64_t)clock_mono_ns());
		if (store_ids_due(st)) {
			pthread_mutex_unlock(&st->mtx);
			store_ids_fill(st);
			pthread_mutex_lock(&st->mtx);
		}
		while (STAILQ_EMPTY(&st->queue) && !st->ids_want &&
		    st->tstate != STORE_T_QUITTING) {
			st->idle = 1;
			if ((r = TAILQ_FIRST(&st->ages)) == NULL)
				pthread_cond_wait(&st->work, &st->mtx);
			else {
				/* Sleep until the oldest run is due. */
				wait = r->born + STORE_RUN_AGE_NS -
				    (int64_t)clock_mono_ns();
				if (wait < 0)
					wait = 0;
				clock_gettime(CLOCK_REALTIME, &until);
				wait += until.tv_nsec;
				until.tv_sec += (time_t)(wait / 1000000000LL);
				until.tv_nsec = (long)(wait % 1000000000LL);
				pthread_cond_timedwait(&st->work, &st->mtx,
				    &until);
			}
			st->idle = 0;
			store_runs_age(st, (int64_t)clock_mono_ns());
		}
		if (STAILQ_EMPTY(&st->queue)) {
			if (st->ids_want && st->tstate != STORE_T_QUITTING)
				continue;	/* refill the game ids */
			break;
		}
		if (!st->urgent && st->tstate != STORE_T_QUITTING &&
		    st->qlen < STORE_GATHER_MAX) {
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += STORE_GATHER_NS;
			if (until.tv_nsec >= 1000000000L) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000L;
			}
			while (!st->urgent && st->tstate != STORE_T_QUITTING &&
			    st->qlen < STORE_GATHER_MAX &&
			    pthread_cond_timedwait(&st->work, &st->mtx,
			    &until) == 0)
				;
		}
		st->urgent = 0;
		STAILQ_INIT(&b);
		STAILQ_CONCAT(&b, &st->queue);
		st->qlen = 0;
		last = st->seq;
		pthread_mutex_unlock(&st->mtx);

		ok = store_batch(st, &b);

		pthread_mutex_lock(&st->mtx);
		st->done_seq = last;
		st->last_ok = ok;
		st->last_cls = st->wcls;
		pthread_cond_broadcast(&st->done);
	}
	pthread_mutex_unlock(&st->mtx);
	return (NULL);
}
