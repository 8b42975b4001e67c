/*
 * store.c: the game log and table cache, on sqldb.h: SQLite (the default,
 * one grundyd per file) or PostgreSQL (issue 15).  The SQLite-only parts
 * (WAL and its checkpoints, synchronous=FULL, the page cap, query_only)
 * are in store-db.c behind sqldb_sqlite_handle().
 *
 * Two connections.  The writer connection belongs to one writer thread
 * (after store_open has migrated the schema); the read connection serves
 * the synchronous reads under rmtx.  An in-memory database exists only
 * within its connection, so there the reads use the writer's connection,
 * and the writer holds rmtx around each batch.
 *
 * Writes.  store_game_begin, store_move, store_game_end, store_table_put
 * copy their arguments into an item on a queue (mtx, work) and return.
 * The writer takes everything queued, runs it in one BEGIN IMMEDIATE ...
 * COMMIT (group commit: the next batch collects while this one syncs),
 * then calls the done callbacks of the game ends it contained.  With
 * journal_mode=WAL and synchronous=FULL the COMMIT has reached the disk
 * when the callback runs.
 *
 * Failures.  A write that only concerns itself (a constraint, a game end
 * for an unknown game) fails alone; any other error (disk full, read-only,
 * lock timeout, I/O) rolls the whole batch back.  Failed writes are
 * dropped, never retried, so the queue stays bounded; once the queue holds
 * queue_max items or queue_bytes bytes (pending runs and the batch being
 * written count), moves, game starts and tables are refused (game ends
 * always get in, so that every callback runs); past half of either, new
 * games are refused (store_failing) so that running games keep room.  A game with a failed or
 * refused write is "damaged": its end still reaches the log, but its done
 * callback gets ok=0, because its record is incomplete.  Failures are
 * logged as key=value warnings, at most one line per second.
 *
 * Moves.  A game's moves are kept in memory as a run (a JSON array, see
 * db/003-move-runs.sql) and queued as one write, one row of move_runs: when
 * the run holds STORE_RUN_MAX moves, when the game ends (just before the
 * end, in the same batch), on store_flush and store_close, when a move does
 * not follow the run (its ply), and once the run is STORE_RUN_AGE_NS old.
 * So a crash loses at most the last second of a live game's moves (such a
 * game is marked abandoned at the next start); a game whose result was
 * reported is complete.  A run counts as one write per move in the queue
 * bound and the counters.
 *
 * Checkpoints.  SQLite's automatic checkpoint would run inside a COMMIT,
 * before the done callbacks, so the replies waiting on that commit would
 * wait for the checkpoint too.  Instead a WAL hook counts the frames and
 * the writer runs a PASSIVE checkpoint itself after a batch's callbacks,
 * once the WAL holds STORE_CKPT_FRAMES pages; journal_size_limit trims the
 * WAL file back afterwards.
 *
 * Game ids come from a counter set from MAX(id) at open, so they are
 * known at once, before anything is written.
 *
 * Ratings.  The writer rates each rated game in the transaction that
 * commits its end and checkpoints the ratings there (store-rating.c); a
 * start loads the checkpoint and replays only the games after it.
 *
 * The code: store.c opens and closes the store and queues the writes;
 * each other file of src/store/ holds one concern, named in its opening
 * comment (the writer thread, the queue, the runs of moves, the reads,
 * the ratings, ...).  They call each other without a cycle
 * (tests/layers.py checks it).
 */
#include <sys/queue.h>

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

/* The kinds of precomputed tables. */
static const char *const store_kinds[] = {
	"wythoff-p", "subtraction", "graph", "wythoff-sg", NULL
};

static void	 store_free(struct store *);
static int	 store_abandon(struct store *, struct store_fail *);

/*
 * Prepares the n statements sql[] (the writer's or the reads') on db into
 * stmt[].  Returns 0, or -1 with err filled in.
 */
static int
store_prepare_set(struct store *st, struct sqldb *db, const char *const *sql,
    const char *const *pg, size_t n, struct sqldb_stmt **stmt,
    const char *what, char *err, size_t errlen)
{
	if (store_prepare(db, sql, pg, n, stmt) == -1) {
		store_error_db(err, errlen, st->name, db, what, st->busy_ms);
		return (-1);
	}
	return (0);
}

/*
 * Returns the name of the database for logs and errors: path, or a
 * PostgreSQL URL without its password ("postgresql://u:pw@h" gives
 * "postgresql://u@h").
 */
char *
store_dbname(const char *path)
{
	const char	*p, *at, *colon;
	struct buf	 b;

	if ((p = strstr(path, "://")) == NULL || (at = strchr(p + 3,
	    '@')) == NULL || strchr(p + 3, '/') < at ||
	    (colon = memchr(p + 3, ':', (size_t)(at - (p + 3)))) == NULL)
		return (xstrdup(path));
	buf_init(&b);
	buf_add(&b, path, (size_t)(colon - path));
	buf_puts(&b, at);
	p = xstrdup(buf_str(&b));
	buf_free(&b);
	return ((char *)p);
}

/* Fills in the default settings. */
void
store_config_default(struct store_config *cf)
{
	cf->busy_ms = STORE_BUSY_MS;
	cf->queue_max = STORE_QUEUE_MAX;
	cf->queue_bytes = STORE_QUEUE_BYTES;
	cf->max_pages = 0;
	cf->keep_live = 0;
}

/* Returns a copy of s fit for one token: blanks and controls become '_'. */
static char *
store_word(const char *s)
{
	char	*w, *p;

	if (s == NULL || *s == '\0')
		return (xstrdup("-"));
	w = xstrdup(s);
	for (p = w; *p != '\0'; p++) {
		if ((unsigned char)*p <= ' ' || *p == '\177')
			*p = '_';
	}
	return (w);
}

/*
 * Opens the database at path (a file name, an SQLite "file:" URI, or
 * ":memory:"), migrates it, marks games left live as abandoned and starts
 * the writer.  Returns NULL with err filled in on failure.
 */
struct store *
store_open_config(const char *path, const struct store_config *cf,
    char *err, size_t errlen)
{
	struct store	*st;
	struct store_fail f;
	int		 i, n;

	st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->name = store_dbname(path);
	st->busy_ms = cf->busy_ms > 0 ? cf->busy_ms : 0;
	st->queue_max = cf->queue_max > 0 ? cf->queue_max : 1;
	st->queue_bytes = cf->queue_bytes > 0 ? cf->queue_bytes : 1;
	st->last_ok = 1;
	STAILQ_INIT(&st->queue);
	for (i = 0; i < STORE_RUN_BUCKETS; i++)
		LIST_INIT(&st->runs[i]);
	TAILQ_INIT(&st->ages);
	pthread_mutex_init(&st->mtx, NULL);
	pthread_mutex_init(&st->rmtx, NULL);
	pthread_cond_init(&st->work, NULL);
	pthread_cond_init(&st->done, NULL);
	pthread_mutex_init(&st->emtx, NULL);
	pthread_mutex_init(&st->vmtx, NULL);
	rtable_init(&st->live);
	rtable_init(&st->pend);

	if (store_open_writer(st, cf, err, errlen) != 0 ||
	    store_prepare_set(st, st->wdb, store_wsql, NULL, STORE_W_N, st->ws,
	    "prepare the writes", err, errlen) != 0 ||
	    store_open_reader(st, err, errlen) != 0 ||
	    store_prepare_set(st, st->rdb, store_rsql, store_rsql_pg,
	    STORE_R_N, st->rs, "prepare the reads", err, errlen) != 0 ||
	    store_ratings_open(st, err, errlen) != 0)
		goto fail;
	st->pg = sqldb_backend(st->wdb) == SQLDB_PG;
	if (st->pg && store_ids_fill(st) == -1) {
		store_error_db(err, errlen, st->name, st->wdb, "take game ids",
		    st->busy_ms);
		goto fail;
	}
	if (pthread_create(&st->thread, NULL, store_writer, st) != 0) {
		snprintf(err, errlen, "%s: cannot start the writer thread",
		    path);
		goto fail;
	}
	pthread_mutex_lock(&st->mtx);
	store_tstate_set(st, STORE_T_RUNNING);
	pthread_mutex_unlock(&st->mtx);
	/* takeover on: the lobby restores the live games (lobby-restore.c). */
	if (cf->keep_live)
		n = 0;
	else if ((n = store_abandon(st, &f)) == -1) {
		store_error(err, errlen, st->name, &f, "mark interrupted "
		    "games abandoned", st->busy_ms);
		store_close(st);
		return (NULL);
	}
	if (sqldb_backend(st->wdb) == SQLDB_SQLITE)
		log_info("store=%s event=open version=%zu games=%" PRId64
		    " abandoned=%d wal=%d sqlite=%s", st->name,
		    store_nmigrations, st->open_id, n, !st->shared,
		    sqlite3_libversion());
	else
		log_info("store=%s event=open version=%zu games=%" PRId64
		    " abandoned=%d backend=%s", st->name, store_nmigrations,
		    st->open_id, n, sqldb_backend_name(st->wdb));
	return (st);

fail:
	store_free(st);
	return (NULL);
}

/* Opens the database at path with the default settings. */
struct store *
store_open(const char *path, char *err, size_t errlen)
{
	struct store_config cf;

	store_config_default(&cf);
	return (store_open_config(path, &cf, err, errlen));
}

/* Frees the statements, connections and memory (the writer has ended). */
static void
store_free(struct store *st)
{
	struct store_item *it;
	struct store_run *r;
	int		 i;

	for (i = 0; i < STORE_W_N; i++)
		sqldb_finalize(st->ws[i]);
	for (i = 0; i < STORE_R_N; i++)
		sqldb_finalize(st->rs[i]);
	for (i = 0; i < STORE_RT_N; i++)
		sqldb_finalize(st->rt[i]);
	if (st->bops != NULL && st->bops->free != NULL)
		st->bops->free(st->bops_arg);
	st->bops = NULL;
	if (st->rdb != NULL && st->rdb != st->wdb)
		sqldb_close(st->rdb);
	sqldb_close(st->wdb);
	sqldb_close(st->sdb);
	while ((it = STAILQ_FIRST(&st->queue)) != NULL) {
		STAILQ_REMOVE_HEAD(&st->queue, entry);
		store_item_free(it);
	}
	while ((r = TAILQ_FIRST(&st->ages)) != NULL) {
		TAILQ_REMOVE(&st->ages, r, age);
		LIST_REMOVE(r, hash);
		buf_free(&r->text);
		free(r);
	}
	pthread_mutex_destroy(&st->mtx);
	pthread_mutex_destroy(&st->rmtx);
	pthread_cond_destroy(&st->work);
	pthread_cond_destroy(&st->done);
	pthread_mutex_destroy(&st->emtx);
	pthread_mutex_destroy(&st->vmtx);
	rtable_free(&st->live);
	rtable_free(&st->pend);
	free(st->damaged);
	free(st->lost);
	free(st->path);
	free(st->name);
	free(st);
}

/* Commits everything queued, stops the writer and closes the database. */
void
store_close(struct store *st)
{
	int	 running;

	if (st == NULL)
		return;
	pthread_mutex_lock(&st->mtx);
	if ((running = st->tstate == STORE_T_RUNNING)) {
		store_runs_queue(st, -1);
		store_tstate_set(st, STORE_T_QUITTING);
		pthread_cond_signal(&st->work);
	}
	pthread_mutex_unlock(&st->mtx);
	if (running) {
		pthread_join(st->thread, NULL);
		pthread_mutex_lock(&st->mtx);
		store_tstate_set(st, STORE_T_ENDED);
		pthread_mutex_unlock(&st->mtx);
	}
	log_info("store=%s event=close batches=%" PRIu64 " writes=%" PRIu64
	    " failed=%" PRIu64 " dropped=%" PRIu64, st->name, st->cnt.batches,
	    st->cnt.items, st->cnt.failed, st->cnt.dropped);
	store_free(st);
}

/*
 * Logs a game's start and returns its id, known at once.  The write is
 * queued; an id is returned even if the write is refused.
 */
int64_t
store_game_begin(struct store *st, const struct store_game *g)
{
	struct store_item *it;
	int64_t		 id;

	pthread_mutex_lock(&st->mtx);
	id = st->pg ? store_ids_take(st) : ++st->next_id;
	pthread_mutex_unlock(&st->mtx);
	if (id == 0)
		return (0);	/* no id: the lobby plays it unlogged */
	it = store_item_new(STORE_OP_BEGIN, id);
	it->s[0] = store_word(g->family);
	it->s[1] = store_line(g->game);
	it->s[2] = store_word(g->player1);
	it->s[3] = store_word(g->player2);
	it->tc = g->tc != NULL ? store_word(g->tc) : NULL;
	it->rated = g->rated != 0;
	if (it->rated)	/* before the push: the writer sees it after */
		__atomic_store_n(&st->rated_begun, 1, __ATOMIC_RELEASE);
	it->tournament = g->tournament;
	it->slot = g->slot;
	store_push(st, it, 0);
	return (id);
}

/*
 * Live game id of the log goes on in this run (a restore): a rated one's
 * end may be rated, as a game begun in this run.
 */
void
store_game_resume(struct store *st, int64_t id, int rated)
{
	(void)id;
	if (rated)
		__atomic_store_n(&st->rated_begun, 1, __ATOMIC_RELEASE);
}

/*
 * Logs the end of game id (queued, never refused).  done, if not NULL, is
 * called on the writer thread as done(arg, ok) once the end is committed
 * (ok 1) or has failed or the game's record is incomplete (ok 0).
 */
void
store_game_end(struct store *st, int64_t id, enum store_result result,
    const char *reason, enum store_status status, void (*done)(void *, int),
    void *arg)
{
	store_game_end_detail(st, id, result, reason, NULL, status, done, arg);
}

/*
 * store_game_end with a free-text detail of the end (one line; controls
 * become spaces), or NULL: why a move was illegal, an admin's reason.
 */
void
store_game_end_detail(struct store *st, int64_t id, enum store_result result,
    const char *reason, const char *detail, enum store_status status,
    void (*done)(void *, int), void *arg)
{
	struct store_item *it;

	it = store_item_new(STORE_OP_END, id);
	it->result = result;
	it->status = status;
	it->s[0] = reason != NULL ? store_word(reason) : NULL;
	it->s[1] = detail != NULL ? store_line(detail) : NULL;
	it->cb = done;
	it->arg = arg;
	pthread_mutex_lock(&st->mtx);
	store_runs_queue(st, id);	/* the moves go first, same batch */
	store_push_locked(st, it, 1);
	pthread_mutex_unlock(&st->mtx);
}

/*
 * Logs a refused (illegal) move of game id (queued): the text received
 * (one line) and why it was refused, in table refused_moves.  A move with
 * a bad player or ply 0 is dropped with a warning.
 */
void
store_refused(struct store *st, int64_t id, const struct store_refused *r)
{
	struct store_item *it;

	if ((r->player != 1 && r->player != 2) || r->ply == 0) {
		log_warnx("store=%s event=write-failed what=refused-move game=%"
		    PRId64 " error=\"bad move\"", st->name, id);
		return;
	}
	it = store_item_new(STORE_OP_REFUSED, id);
	it->ply = r->ply;
	it->n = (unsigned long)r->player;
	it->s[0] = store_line(r->move != NULL ? r->move : "");
	it->s[1] = store_line(r->reason != NULL ? r->reason : "");
	it->len = r->time_ms;
	it->rated = r->has_delay;
	it->tournament = (int64_t)r->delay_us;
	store_push(st, it, 0);
}

/* Returns 1 if kind is a known table kind. */
static int
store_kind_ok(const char *kind)
{
	size_t	 i;

	for (i = 0; store_kinds[i] != NULL; i++) {
		if (strcmp(kind, store_kinds[i]) == 0)
			return (1);
	}
	return (0);
}

/*
 * Caps the table cache: at most max rows and bytes bytes of keys and data
 * (0: no cap).  Storing a table evicts the oldest stored ones beyond the
 * caps; a table larger than the byte cap is not stored.  Any thread.
 */
void
store_set_table_limits(struct store *st, size_t max, size_t bytes)
{
	__atomic_store_n(&st->tables_max, max, __ATOMIC_RELAXED);
	__atomic_store_n(&st->tables_bytes, bytes, __ATOMIC_RELAXED);
}

/*
 * Stores (or replaces) the table kind/key with its metadata and data
 * (queued; copied).  data may be NULL for a table that is all metadata.
 */
void
store_table_put(struct store *st, const char *kind, const char *key,
    const char *meta, const void *data, size_t len)
{
	struct store_item *it;
	size_t		 max, bytes;

	if (!store_kind_ok(kind)) {
		log_warnx("store=%s event=table-refused kind=%s", st->name,
		    kind);
		return;
	}
	max = __atomic_load_n(&st->tables_max, __ATOMIC_RELAXED);
	bytes = __atomic_load_n(&st->tables_bytes, __ATOMIC_RELAXED);
	if (bytes > 0 && strlen(key) + len > bytes) {
		log_info("store=%s event=table-refused kind=%s reason=size "
		    "bytes=%zu", st->name, kind, strlen(key) + len);
		return;
	}
	it = store_item_new(STORE_OP_TABLE, 0);
	it->n = max;			/* the caps, for the writer */
	it->id = (int64_t)bytes;
	it->s[0] = xstrdup(kind);
	it->s[1] = xstrdup(key);
	it->s[2] = meta != NULL ? xstrdup(meta) : NULL;
	if (data != NULL) {
		it->data = xmalloc(len);
		memcpy(it->data, data, len);
	}
	it->len = len;
	store_push(st, it, 0);
}

/*
 * Marks the games that a previous run left 'live' as 'abandoned' with
 * reason 'interrupted' and ended_at NULL: when they really ended is not
 * known (moves carry no time stamp), and NULL says so.  Only games that
 * existed at open are touched, so calling it later is harmless.
 * store_open does it.  Returns the number of games, or -1.
 */
int
store_abandon_live(struct store *st)
{
	struct store_fail f;

	return (store_abandon(st, &f));
}

/* Queues the abandon and waits for it; on failure f says why. */
static int
store_abandon(struct store *st, struct store_fail *f)
{
	struct store_item *it;
	int		 count = -1;

	memset(f, 0, sizeof *f);
	it = store_item_new(STORE_OP_ABANDON, st->open_id);
	it->count = &count;
	it->fail = f;
	store_wait(st, store_push(st, it, 1));
	return (count);
}

/*
 * Returns 1 while the log cannot write: the last batch failed.  Then, at
 * most once a second, it queues a probe, a real write (the header's user
 * version), so the log finds out by itself that it can write again even
 * when no game is written meanwhile.  Any thread.
 */
int
store_failing(struct store *st)
{
	struct store_item *it;
	uint64_t	 now;
	int		 failing;

	pthread_mutex_lock(&st->mtx);
	/* PostgreSQL: no game id left, and the database did not give more. */
	failing = !st->last_ok || (st->pg && st->nids == 0 && st->ids_failed);
	now = clock_mono_ns();
	if (failing && now - st->probe_ns >= 1000000000ULL) {
		st->probe_ns = now;
		it = store_item_new(STORE_OP_PROBE, 0);
		store_push_locked(st, it, 1);
	}
	failing = failing || store_queue_busy(st);
	pthread_mutex_unlock(&st->mtx);
	return (failing);
}

/* Sets the database size cap in pages (0: none), from the next batch. */
void
store_set_max_pages(struct store *st, unsigned long n)
{
	struct store_item *it;

	it = store_item_new(STORE_OP_PAGES, 0);
	it->n = n;
	store_push(st, it, 1);
}

/* Returns the path the store was opened with (for a second connection). */
const char *
store_path(const struct store *st)
{
	return (st->path);
}
