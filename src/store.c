/*
 * store.c: the SQLite game log and table cache.
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
 * queue_max items, moves, game starts and tables are refused (game ends
 * always get in, so that every callback runs).  A game with a failed or
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
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "log.h"
#include "store.h"

#define STORE_BUSY_MS		5000
#define STORE_QUEUE_MAX		65536
#define STORE_GATHER_NS		1000000L	/* a batch may gather 1 ms */
#define STORE_GATHER_MAX	4096		/* ... or up to this size */
#define STORE_PAGES_NONE	4294967294UL	/* SQLite's own maximum */
#define STORE_RUN_MAX		64		/* moves in one move_runs row */
#define STORE_CKPT_FRAMES	4096		/* checkpoint at 16 MB of WAL */
#define STORE_WAL_LIMIT		"33554432"	/* keep at most 32 MB of WAL */
#define STORE_RUN_AGE_NS	1000000000LL	/* a run waits at most 1 s */
#define STORE_RUN_BUCKETS	1024		/* hash of the pending runs */

/* Kinds of queued writes. */
enum store_op {
	STORE_OP_BEGIN,		/* s[0..3]: family, game, player1, player2;
				   tc, rated, tournament, slot */
	STORE_OP_RUN,		/* s[0]: JSON moves; ply first, n moves */
	STORE_OP_END,		/* s[0]: reason or NULL */
	STORE_OP_TABLE,		/* s[0..2]: kind, key, meta; data, len */
	STORE_OP_ABANDON,	/* live games with id <= id; count */
	STORE_OP_PAGES,		/* the size cap: n pages */
	STORE_OP_REFUSED,	/* s[0..1]: move, reason; ply; n: player;
				   len: time_ms; rated: delay known,
				   tournament: delay_us */
	STORE_OP_PROBE,		/* a real write: can the log write again? */
};

/* One queued write. */
struct store_item {
	STAILQ_ENTRY(store_item) entry;
	enum store_op	 op;
	uint64_t	 seq;
	int64_t		 id;
	char		*s[4];
	char		 when[32];
	unsigned long	 ply;		/* run: its first ply */
	enum store_result result;
	enum store_status status;
	unsigned long	 n;
	void		*data;
	size_t		 len;
	void		 (*cb)(void *, int);
	void		*arg;
	int		*count;		/* abandon: games, or -1 */
	int		*rcp;		/* abandon: SQLite code */
	size_t		 w;		/* writes it counts for: 1, or moves */
	int		 ok;
	char		*tc;		/* begin: time control or NULL */
	int		 rated;		/* begin: league fields */
	int64_t		 tournament;
	unsigned int	 slot;
};
STAILQ_HEAD(store_items, store_item);

/* A game's moves not queued yet: a run of consecutive plies. */
struct store_run {
	LIST_ENTRY(store_run) hash;
	TAILQ_ENTRY(store_run) age;	/* oldest first */
	int64_t		 id;
	unsigned long	 first_ply;
	unsigned long	 next_ply;
	size_t		 n;		/* moves in text */
	int64_t		 born;		/* monotonic ns of the first move */
	struct buf	 text;		/* "[m1,m2" without the closing ']' */
};
LIST_HEAD(store_runs, store_run);
TAILQ_HEAD(store_ages, store_run);

/* The writer's prepared statements. */
enum {
	STORE_W_BEGIN,
	STORE_W_COMMIT,
	STORE_W_ROLLBACK,
	STORE_W_GAME,
	STORE_W_MOVE,
	STORE_W_END,
	STORE_W_TABLE,
	STORE_W_ABANDON,
	STORE_W_REFUSED,
	STORE_W_N
};
static const char *const store_wsql[STORE_W_N] = {
	"BEGIN IMMEDIATE",
	"COMMIT",
	"ROLLBACK",
	"INSERT INTO games (id, family, game, player1, player2, started_at,"
	" status, rated, tc, tournament_id, slot)"
	" VALUES (?, ?, ?, ?, ?, ?, 'live', ?, ?, ?, ?)",
	"INSERT INTO move_runs (game_id, first_ply, moves) VALUES (?, ?, ?)",
	"UPDATE games SET ended_at = ?, result = ?, reason = ?, status = ?,"
	" detail = ? WHERE id = ?",
	"INSERT OR REPLACE INTO tables (kind, key, created_at, meta, data)"
	" VALUES (?, ?, ?, ?, ?)",
	"UPDATE games SET status = 'abandoned', reason = 'interrupted'"
	" WHERE status = 'live' AND id <= ?",
	"INSERT INTO refused_moves (game_id, seq, ply, player, move, reason,"
	" time_ms, delay_us) VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1"
	" FROM refused_moves WHERE game_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7)",
};

/* The reader's prepared statements. */
enum {
	STORE_R_BEGIN,
	STORE_R_END,
	STORE_R_HISTORY,
	STORE_R_GAME,
	STORE_R_MOVES,
	STORE_R_NGAMES,
	STORE_R_NMOVES,
	STORE_R_PLAYERS,
	STORE_R_TABLE,
	STORE_R_REFUSED,
	STORE_R_N
};
static const char *const store_rsql[STORE_R_N] = {
	"BEGIN",
	"COMMIT",
	"SELECT id, family, status, result, reason, player1, player2,"
	" started_at FROM games ORDER BY id DESC LIMIT ?",
	"SELECT game, player1, player2, started_at, ended_at, result, reason,"
	" status, detail FROM games WHERE id = ?",
	"SELECT ply, player, move, mark, time_ms, delay_us FROM moves"
	" WHERE game_id = ? ORDER BY ply",
	"SELECT COUNT(*) FROM games",
	"SELECT COALESCE(SUM(json_array_length(moves)), 0) FROM move_runs",
	"SELECT CASE m.player WHEN 1 THEN g.player1 ELSE g.player2 END AS who,"
	" COUNT(*), SUM(m.mark = 'kept-win'), SUM(m.mark = 'threw-win')"
	" FROM moves AS m JOIN games AS g ON g.id = m.game_id"
	" GROUP BY who ORDER BY who",
	"SELECT meta, data FROM tables WHERE kind = ? AND key = ?",
	"SELECT ply, player, time_ms, delay_us, move, reason FROM refused_moves"
	" WHERE game_id = ? ORDER BY seq",
};

/* The kinds of precomputed tables. */
static const char *const store_kinds[] = {
	"wythoff-p", "subtraction", "graph", "wythoff-sg", NULL
};

struct store {
	char		*path;
	sqlite3		*wdb;		/* the writer's connection */
	sqlite3		*rdb;		/* the reads'; wdb if shared */
	int		 shared;	/* in-memory: one connection */
	int		 busy_ms;
	size_t		 queue_max;
	sqlite3_stmt	*ws[STORE_W_N];
	sqlite3_stmt	*rs[STORE_R_N];
	pthread_mutex_t	 rmtx;		/* the read connection */

	pthread_t	 thread;
	int		 running;
	pthread_mutex_t	 mtx;		/* everything below */
	pthread_cond_t	 work;		/* queue not empty, or quit */
	int		 idle;		/* the writer waits for an empty queue */
	int		 urgent;	/* someone waits on the queue: commit now */
	pthread_cond_t	 done;		/* done_seq moved */
	struct store_items queue;
	size_t		 qlen;
	uint64_t	 seq;		/* last item queued */
	uint64_t	 done_seq;	/* last item finished */
	int		 last_ok;	/* the last batch committed */
	int		 quit;
	int64_t		 next_id;	/* last game id handed out */
	int64_t		 open_id;	/* MAX(id) at open */
	int64_t		*damaged;	/* games with a lost write */
	size_t		 ndamaged;
	size_t		 damaged_cap;
	struct store_runs runs[STORE_RUN_BUCKETS]; /* pending, by game */
	struct store_ages ages;		/* the same, oldest first */
	int		 dropping;	/* the queue is refusing writes */
	uint64_t	 dropped_now;	/* ... this many so far */
	struct store_counters cnt;

	/* The writer's own. */
	time_t		 fail_logged;	/* last failure line, monotonic s */
	uint64_t	 fail_quiet;	/* failures not logged since */
	time_t		 recover_logged; /* last recovery line */
	int		 failing;	/* the last batch failed */
	int		 wal_frames;	/* frames in the WAL (the hook's) */
	/* The table cache's caps (store_set_table_limits; atomic). */
	size_t		 tables_max;	/* rows; 0: no cap */
	size_t		 tables_bytes;	/* bytes of keys and data; 0: none */
	/* Disk full: game ends lost while failing, marked on recovery. */
	int64_t		*lost;		/* (mtx) */
	size_t		 nlost;
	uint64_t	 probe_ns;	/* last probe queued (mtx) */
};

static void	 store_free(struct store *);
static uint64_t	 store_push(struct store *, struct store_item *, int);
static uint64_t	 store_push_locked(struct store *, struct store_item *, int);
static void	 store_runs_queue(struct store *, int64_t);
static void	 store_wait(struct store *, uint64_t);
static void	*store_writer(void *);
static int	 store_abandon(struct store *, int *);
static int	 store_step(sqlite3_stmt *);

/* Returns the text form of a move mark, or NULL. */
const char *
store_mark_name(enum store_mark m)
{
	switch (m) {
	case STORE_KEPT_WIN:
		return ("kept-win");
	case STORE_THREW_WIN:
		return ("threw-win");
	case STORE_NO_WIN:
		return ("no-win");
	}
	return (NULL);
}

/* Returns the text form of a result, or NULL for none. */
const char *
store_result_name(enum store_result r)
{
	switch (r) {
	case STORE_RESULT_FIRST:
		return ("first");
	case STORE_RESULT_SECOND:
		return ("second");
	case STORE_RESULT_NONE:
		break;
	}
	return (NULL);
}

/* Returns the text form of a status, or NULL. */
const char *
store_status_name(enum store_status s)
{
	switch (s) {
	case STORE_LIVE:
		return ("live");
	case STORE_FINISHED:
		return ("finished");
	case STORE_ABANDONED:
		return ("abandoned");
	}
	return (NULL);
}

/* Fills in the default settings. */
void
store_config_default(struct store_config *cf)
{
	cf->busy_ms = STORE_BUSY_MS;
	cf->queue_max = STORE_QUEUE_MAX;
	cf->max_pages = 0;
}

/* Writes the current UTC time as ISO-8601 with milliseconds. */
void
store_now(char *out, size_t len)
{
	struct timespec	 ts;
	struct tm	 tm;
	char		 when[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%03uZ", when,
	    (unsigned int)(ts.tv_nsec / 1000000) % 1000);
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

/* Returns a copy of s fit for one line: controls become spaces. */
static char *
store_line(const char *s)
{
	char	*w, *p;

	w = xstrdup(s != NULL ? s : "");
	for (p = w; *p != '\0'; p++) {
		if ((unsigned char)*p < ' ' || *p == '\177')
			*p = ' ';
	}
	return (w);
}

/*
 * Describes a failed SQLite call in err, naming the usual operational
 * causes in words: not a database, corrupt, read-only, locked, full.
 */
static void
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
static int
store_migrate(sqlite3 *db, const char *path, const struct store_migration
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
static int
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
store_migrate_file(const char *path, const struct store_migration *list,
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
 * Opens the database at path (a file name, an SQLite "file:" URI, or
 * ":memory:"), migrates it, marks games left live as abandoned and starts
 * the writer.  Returns NULL with err filled in on failure.
 */
struct store *
store_open_config(const char *path, const struct store_config *cf,
    char *err, size_t errlen)
{
	struct store	*st;
	const char	*fname;
	char		 mode[32];
	int		 rc, i, n;
	sqlite3_stmt	*stmt;

	st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->busy_ms = cf->busy_ms > 0 ? cf->busy_ms : 0;
	st->queue_max = cf->queue_max > 0 ? cf->queue_max : 1;
	st->last_ok = 1;
	STAILQ_INIT(&st->queue);
	for (i = 0; i < STORE_RUN_BUCKETS; i++)
		LIST_INIT(&st->runs[i]);
	TAILQ_INIT(&st->ages);
	pthread_mutex_init(&st->mtx, NULL);
	pthread_mutex_init(&st->rmtx, NULL);
	pthread_cond_init(&st->work, NULL);
	pthread_cond_init(&st->done, NULL);

	rc = store_connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	    st->busy_ms, &st->wdb);
	if (rc != SQLITE_OK) {
		store_error(err, errlen, path, st->wdb, rc, "open",
		    st->busy_ms);
		goto fail;
	}
	if (sqlite3_db_readonly(st->wdb, "main") == 1) {
		store_error(err, errlen, path, st->wdb, SQLITE_READONLY, "open",
		    st->busy_ms);
		goto fail;
	}
	fname = sqlite3_db_filename(st->wdb, "main");
	st->shared = fname == NULL || *fname == '\0';
	if (!st->shared) {
		rc = store_exec1(st->wdb, "PRAGMA journal_mode = WAL", mode,
		    sizeof mode);
		if (rc != SQLITE_OK) {
			store_error(err, errlen, path, st->wdb, rc,
			    "read the database", st->busy_ms);
			goto fail;
		}
		if (strcmp(mode, "wal") != 0)
			log_warnx("store=%s event=no-wal journal_mode=%s", path,
			    mode);
		/* PRAGMA takes no parameters; the value is a constant. */
		rc = store_exec1(st->wdb, "PRAGMA journal_size_limit = "
		    STORE_WAL_LIMIT, NULL, 0);
		if (rc != SQLITE_OK) {
			store_error(err, errlen, path, st->wdb, rc,
			    "configure", st->busy_ms);
			goto fail;
		}
		/* Replaces the automatic checkpoint: see the top. */
		sqlite3_wal_hook(st->wdb, store_wal_hook, st);
	}
	if ((rc = store_exec1(st->wdb, "PRAGMA synchronous = FULL", NULL,
	    0)) != SQLITE_OK ||
	    (rc = store_exec1(st->wdb, "PRAGMA foreign_keys = ON", NULL,
	    0)) != SQLITE_OK ||
	    (rc = store_max_pages(st->wdb, cf->max_pages)) != SQLITE_OK) {
		store_error(err, errlen, path, st->wdb, rc, "configure",
		    st->busy_ms);
		goto fail;
	}
	if (store_migrate(st->wdb, path, store_migrations, store_nmigrations,
	    (int)store_nmigrations, st->busy_ms, err, errlen) == -1)
		goto fail;

	rc = sqlite3_prepare_v2(st->wdb, "SELECT COALESCE(MAX(id), 0) FROM "
	    "games", -1, &stmt, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		st->open_id = sqlite3_column_int64(stmt, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_OK) {
		store_error(err, errlen, path, st->wdb, rc, "read the games",
		    st->busy_ms);
		goto fail;
	}
	st->next_id = st->open_id;
	for (i = 0; i < STORE_W_N; i++) {
		rc = sqlite3_prepare_v2(st->wdb, store_wsql[i], -1, &st->ws[i],
		    NULL);
		if (rc != SQLITE_OK) {
			store_error(err, errlen, path, st->wdb, rc,
			    "prepare the writes", st->busy_ms);
			goto fail;
		}
	}

	if (st->shared)
		st->rdb = st->wdb;
	else {
		rc = store_connect(path, SQLITE_OPEN_READWRITE, st->busy_ms,
		    &st->rdb);
		if (rc == SQLITE_OK)
			rc = store_exec1(st->rdb, "PRAGMA query_only = 1", NULL,
			    0);
		if (rc != SQLITE_OK) {
			store_error(err, errlen, path, st->rdb, rc,
			    "open for reading", st->busy_ms);
			goto fail;
		}
	}
	for (i = 0; i < STORE_R_N; i++) {
		rc = sqlite3_prepare_v2(st->rdb, store_rsql[i], -1, &st->rs[i],
		    NULL);
		if (rc != SQLITE_OK) {
			store_error(err, errlen, path, st->rdb, rc,
			    "prepare the reads", st->busy_ms);
			goto fail;
		}
	}

	if (pthread_create(&st->thread, NULL, store_writer, st) != 0) {
		snprintf(err, errlen, "%s: cannot start the writer thread",
		    path);
		goto fail;
	}
	st->running = 1;
	if ((n = store_abandon(st, &rc)) == -1) {
		store_error(err, errlen, path, NULL, rc, "mark interrupted "
		    "games abandoned", st->busy_ms);
		store_close(st);
		return (NULL);
	}
	log_info("store=%s event=open version=%zu games=%" PRId64
	    " abandoned=%d wal=%d sqlite=%s", path, store_nmigrations,
	    st->open_id, n, !st->shared, sqlite3_libversion());
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
	int		 i, j;

	for (i = 0; i < STORE_W_N; i++)
		sqlite3_finalize(st->ws[i]);
	for (i = 0; i < STORE_R_N; i++)
		sqlite3_finalize(st->rs[i]);
	if (st->rdb != NULL && st->rdb != st->wdb)
		sqlite3_close(st->rdb);
	sqlite3_close(st->wdb);
	while ((it = STAILQ_FIRST(&st->queue)) != NULL) {
		STAILQ_REMOVE_HEAD(&st->queue, entry);
		for (j = 0; j < 4; j++)
			free(it->s[j]);
		free(it->tc);
		free(it->data);
		free(it);
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
	free(st->damaged);
	free(st->lost);
	free(st->path);
	free(st);
}

/* Commits everything queued, stops the writer and closes the database. */
void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	if (st->running) {
		pthread_mutex_lock(&st->mtx);
		store_runs_queue(st, -1);
		st->quit = 1;
		pthread_cond_signal(&st->work);
		pthread_mutex_unlock(&st->mtx);
		pthread_join(st->thread, NULL);
		st->running = 0;
	}
	log_info("store=%s event=close batches=%" PRIu64 " writes=%" PRIu64
	    " failed=%" PRIu64 " dropped=%" PRIu64, st->path, st->cnt.batches,
	    st->cnt.items, st->cnt.failed, st->cnt.dropped);
	store_free(st);
}

/* Waits until item seq and everything before it are finished. */
static void
store_wait(struct store *st, uint64_t seq)
{
	pthread_mutex_lock(&st->mtx);
	if (st->done_seq < seq) {
		st->urgent = 1;
		pthread_cond_signal(&st->work);
	}
	while (st->done_seq < seq)
		pthread_cond_wait(&st->done, &st->mtx);
	pthread_mutex_unlock(&st->mtx);
}

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

/* Copies the writer's counters. */
void
store_counters(struct store *st, struct store_counters *c)
{
	pthread_mutex_lock(&st->mtx);
	*c = st->cnt;
	pthread_mutex_unlock(&st->mtx);
}

/* Returns 1 if game id is damaged (mtx held); remove also forgets it. */
static int
store_damaged(struct store *st, int64_t id, int remove)
{
	size_t	 i;

	for (i = 0; i < st->ndamaged; i++) {
		if (st->damaged[i] != id)
			continue;
		if (remove)
			st->damaged[i] = st->damaged[--st->ndamaged];
		return (1);
	}
	return (0);
}

/* Marks game id damaged (mtx held). */
static void
store_damage(struct store *st, int64_t id)
{
	if (store_damaged(st, id, 0))
		return;
	if (st->ndamaged == st->damaged_cap) {
		st->damaged_cap = st->damaged_cap == 0 ? 16 :
		    st->damaged_cap * 2;
		st->damaged = xreallocarray(st->damaged, st->damaged_cap,
		    sizeof *st->damaged);
	}
	st->damaged[st->ndamaged++] = id;
}

/* Frees an item. */
static void
store_item_free(struct store_item *it)
{
	int	 i;

	for (i = 0; i < 4; i++)
		free(it->s[i]);
	free(it->tc);
	free(it->data);
	free(it);
}

/*
 * Queues an item and wakes the writer; returns its sequence number.
 * Unless must is set, the item is refused when the queue is full: it is
 * freed, its game damaged, and 0 returned.  The writer may free the item
 * as soon as it is queued.
 */
static uint64_t
store_push(struct store *st, struct store_item *it, int must)
{
	uint64_t	 seq;

	pthread_mutex_lock(&st->mtx);
	seq = store_push_locked(st, it, must);
	pthread_mutex_unlock(&st->mtx);
	return (seq);
}

/* Does store_push with mtx held. */
static uint64_t
store_push_locked(struct store *st, struct store_item *it, int must)
{
	uint64_t	 seq;

	if (it->w == 0)
		it->w = 1;
	if (!must && st->qlen >= st->queue_max) {
		st->cnt.dropped += it->w;
		if (it->op == STORE_OP_BEGIN || it->op == STORE_OP_RUN)
			store_damage(st, it->id);
		if (!st->dropping)
			log_warnx("store=%s event=queue-full queued=%zu "
			    "action=dropping-writes", st->path, st->qlen);
		st->dropping = 1;
		st->dropped_now += it->w;
		store_item_free(it);
		return (0);
	}
	if (st->dropping) {
		log_warnx("store=%s event=queue-recovered dropped=%" PRIu64,
		    st->path, st->dropped_now);
		st->dropping = 0;
		st->dropped_now = 0;
	}
	seq = it->seq = ++st->seq;
	STAILQ_INSERT_TAIL(&st->queue, it, entry);
	st->qlen += it->w;
	/*
	 * Wake the writer when it sleeps on an empty queue, or at once for a
	 * game end (its reply waits for the commit); other writes ride along
	 * in the batch the writer is gathering.
	 */
	if (it->op == STORE_OP_END)
		st->urgent = 1;
	if (st->idle || st->urgent)
		pthread_cond_signal(&st->work);
	return (seq);
}

/* Returns a new item of kind op for game id. */
static struct store_item *
store_item_new(enum store_op op, int64_t id)
{
	struct store_item *it;

	it = xcalloc(1, sizeof *it);
	it->op = op;
	it->id = id;
	store_now(it->when, sizeof it->when);
	return (it);
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
	id = ++st->next_id;
	pthread_mutex_unlock(&st->mtx);
	it = store_item_new(STORE_OP_BEGIN, id);
	it->s[0] = store_word(g->family);
	it->s[1] = store_line(g->game);
	it->s[2] = store_word(g->player1);
	it->s[3] = store_word(g->player2);
	it->tc = g->tc != NULL ? store_word(g->tc) : NULL;
	it->rated = g->rated != 0;
	it->tournament = g->tournament;
	it->slot = g->slot;
	store_push(st, it, 0);
	return (id);
}

/* Returns monotonic nanoseconds. */
static int64_t
store_mono_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

/* Appends n in decimal. */
static void
store_put_ulong(struct buf *b, unsigned long n)
{
	char	 d[24];
	size_t	 i = sizeof d;

	do {
		d[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n != 0);
	buf_add(b, d + i, sizeof d - i);
}

/* Appends s (NULL: empty) as a JSON string; controls become spaces. */
static void
store_put_json(struct buf *b, const char *s)
{
	const char	*p;
	unsigned char	 c;

	buf_putc(b, '"');
	if (s != NULL) {
		for (p = s; (c = (unsigned char)*p) != '\0'; p++) {
			if (c >= ' ' && c != '"' && c != '\\' && c != '\177')
				continue;
			buf_add(b, s, (size_t)(p - s));
			if (c == '"' || c == '\\') {
				buf_putc(b, '\\');
				buf_putc(b, (char)c);
			} else
				buf_putc(b, ' ');
			s = p + 1;
		}
		buf_add(b, s, (size_t)(p - s));
	}
	buf_putc(b, '"');
}

/* Returns the list of pending runs where game id's would be. */
static struct store_runs *
store_bucket(struct store *st, int64_t id)
{
	return (&st->runs[(uint64_t)id % STORE_RUN_BUCKETS]);
}

/* Returns game id's pending run, or NULL (mtx held). */
static struct store_run *
store_run_find(struct store *st, int64_t id)
{
	struct store_run *r;

	LIST_FOREACH(r, store_bucket(st, id), hash) {
		if (r->id == id)
			return (r);
	}
	return (NULL);
}

/* Queues a pending run as one write and forgets it (mtx held). */
static void
store_run_queue(struct store *st, struct store_run *r)
{
	struct store_item *it;

	LIST_REMOVE(r, hash);
	TAILQ_REMOVE(&st->ages, r, age);
	buf_putc(&r->text, ']');
	it = xcalloc(1, sizeof *it);
	it->op = STORE_OP_RUN;
	it->id = r->id;
	it->ply = r->first_ply;
	it->w = r->n;
	it->s[0] = r->text.data;	/* the item owns the text now */
	free(r);
	store_push_locked(st, it, 0);
}

/* Queues game id's pending run, or every game's for id -1 (mtx held). */
static void
store_runs_queue(struct store *st, int64_t id)
{
	struct store_run *r;

	if (id != -1) {
		if ((r = store_run_find(st, id)) != NULL)
			store_run_queue(st, r);
		return;
	}
	while ((r = TAILQ_FIRST(&st->ages)) != NULL)
		store_run_queue(st, r);
}

/* Queues the runs begun STORE_RUN_AGE_NS or more before now (mtx held). */
static void
store_runs_age(struct store *st, int64_t now)
{
	struct store_run *r;

	while ((r = TAILQ_FIRST(&st->ages)) != NULL &&
	    now - r->born >= STORE_RUN_AGE_NS)
		store_run_queue(st, r);
}

/*
 * Logs one move of game id: adds it to the game's pending run, which is
 * queued when full (see the top of the file).  A move with a bad player
 * or mark, or ply 0, is refused: a failed write, the game damaged.
 */
void
store_move(struct store *st, int64_t id, const struct store_move *m)
{
	struct store_run *r;
	struct buf	*b;

	pthread_mutex_lock(&st->mtx);
	if ((m->player != 1 && m->player != 2) || m->ply == 0 ||
	    store_mark_name(m->mark) == NULL) {
		st->cnt.failed++;
		store_damage(st, id);
		pthread_mutex_unlock(&st->mtx);
		log_warnx("store=%s event=write-failed what=move game=%" PRId64
		    " error=\"bad move\"", st->path, id);
		return;
	}
	if ((r = store_run_find(st, id)) != NULL && r->next_ply != m->ply) {
		store_run_queue(st, r);
		r = NULL;
	}
	if (r == NULL) {
		r = xcalloc(1, sizeof *r);
		r->id = id;
		r->first_ply = r->next_ply = m->ply;
		r->born = store_mono_ns();
		buf_init(&r->text);
		buf_putc(&r->text, '[');
		LIST_INSERT_HEAD(store_bucket(st, id), r, hash);
		TAILQ_INSERT_TAIL(&st->ages, r, age);
		/* An idle writer sets its alarm by the oldest run. */
		if (st->idle && TAILQ_FIRST(&st->ages) == r)
			pthread_cond_signal(&st->work);
	} else
		buf_putc(&r->text, ',');
	b = &r->text;
	buf_putc(b, '[');
	buf_putc(b, (char)('0' + m->player));
	buf_putc(b, ',');
	store_put_json(b, m->move);
	buf_putc(b, ',');
	store_put_json(b, m->position);
	buf_putc(b, ',');
	store_put_ulong(b, m->time_ms);
	buf_putc(b, ',');
	buf_putc(b, (char)('0' + (int)m->mark));
	if (m->has_delay) {
		buf_putc(b, ',');
		store_put_ulong(b, m->delay_us);
	}
	buf_putc(b, ']');
	r->n++;
	r->next_ply++;
	if (r->n >= STORE_RUN_MAX)
		store_run_queue(st, r);
	pthread_mutex_unlock(&st->mtx);
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
		    PRId64 " error=\"bad move\"", st->path, id);
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

/* Evicts the oldest stored tables beyond the caps (the writer's). */
static int
store_tables_trim(struct store *st, size_t max, size_t bytes)
{
	sqlite3_stmt	*s;
	int		 rc, n;

	rc = sqlite3_prepare_v2(st->wdb, "DELETE FROM tables WHERE rowid IN"
	    " (SELECT r FROM (SELECT rowid AS r, ROW_NUMBER() OVER w AS k,"
	    " SUM(LENGTH(key) + COALESCE(LENGTH(data), 0)) OVER w AS b"
	    " FROM tables WINDOW w AS (ORDER BY rowid DESC))"
	    " WHERE k > ?1 OR b > ?2)", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return (rc);
	sqlite3_bind_int64(s, 1, max > 0 ? (sqlite3_int64)max : INT64_MAX);
	sqlite3_bind_int64(s, 2, bytes > 0 ? (sqlite3_int64)bytes :
	    INT64_MAX);
	rc = store_step(s);
	n = sqlite3_changes(st->wdb);
	sqlite3_finalize(s);
	if (rc == SQLITE_OK && n > 0)
		log_info("store=%s event=table-evict tables=%d", st->path, n);
	return (rc);
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
		log_warnx("store=%s event=table-refused kind=%s", st->path,
		    kind);
		return;
	}
	max = __atomic_load_n(&st->tables_max, __ATOMIC_RELAXED);
	bytes = __atomic_load_n(&st->tables_bytes, __ATOMIC_RELAXED);
	if (bytes > 0 && strlen(key) + len > bytes) {
		log_info("store=%s event=table-refused kind=%s reason=size "
		    "bytes=%zu", st->path, kind, strlen(key) + len);
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
	int	 rc;

	return (store_abandon(st, &rc));
}

/* Queues the abandon and waits for it; sets *rc to its SQLite code. */
static int
store_abandon(struct store *st, int *rc)
{
	struct store_item *it;
	int		 count = -1;

	*rc = SQLITE_OK;
	it = store_item_new(STORE_OP_ABANDON, st->open_id);
	it->count = &count;
	it->rcp = rc;
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
	failing = !st->last_ok;
	now = store_mono_ns();
	if (failing && now - st->probe_ns >= 1000000000ULL) {
		st->probe_ns = now;
		it = store_item_new(STORE_OP_PROBE, 0);
		store_push_locked(st, it, 1);
	}
	pthread_mutex_unlock(&st->mtx);
	return (failing);
}

/* The probe: rewrites the header's user_version with its own value. */
static int
store_probe(struct store *st)
{
	sqlite3_stmt	*s;
	char		 sql[64];
	int		 rc, v = 0;

	if ((rc = sqlite3_prepare_v2(st->wdb, "PRAGMA user_version", -1, &s,
	    NULL)) != SQLITE_OK)
		return (rc);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
	return (sqlite3_exec(st->wdb, sql, NULL, NULL, NULL));
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

/* Binds a text, or NULL. */
static int
store_bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (s == NULL)
		return (sqlite3_bind_null(stmt, i));
	return (sqlite3_bind_text(stmt, i, s, -1, SQLITE_STATIC));
}

/* Runs a bound statement to completion and resets it. */
static int
store_step(sqlite3_stmt *stmt)
{
	int	 rc;

	rc = sqlite3_step(stmt);
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return (rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc);
}

/*
 * Runs one item inside the batch's transaction.  Returns an SQLite code;
 * *alone is set if the failure concerns this item only.
 */
static int
store_exec_item(struct store *st, struct store_item *it, int *alone)
{
	sqlite3_stmt	*s;
	int		 rc = SQLITE_OK;

	*alone = 0;
	switch (it->op) {
	case STORE_OP_BEGIN:
		s = st->ws[STORE_W_GAME];
		sqlite3_bind_int64(s, 1, it->id);
		store_bind_text(s, 2, it->s[0]);
		store_bind_text(s, 3, it->s[1]);
		store_bind_text(s, 4, it->s[2]);
		store_bind_text(s, 5, it->s[3]);
		store_bind_text(s, 6, it->when);
		sqlite3_bind_int(s, 7, it->rated);
		store_bind_text(s, 8, it->tc);
		if (it->tournament != 0) {
			sqlite3_bind_int64(s, 9, it->tournament);
			sqlite3_bind_int64(s, 10, it->slot);
		} else {
			/* Statements are reused: clear an earlier game's. */
			sqlite3_bind_null(s, 9);
			sqlite3_bind_null(s, 10);
		}
		rc = store_step(s);
		break;
	case STORE_OP_RUN:
		s = st->ws[STORE_W_MOVE];
		sqlite3_bind_int64(s, 1, it->id);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)it->ply);
		store_bind_text(s, 3, it->s[0]);
		rc = store_step(s);
		break;
	case STORE_OP_END:
		s = st->ws[STORE_W_END];
		store_bind_text(s, 1, it->status == STORE_LIVE ? NULL :
		    it->when);
		store_bind_text(s, 2, store_result_name(it->result));
		store_bind_text(s, 3, it->s[0]);
		store_bind_text(s, 4, store_status_name(it->status));
		store_bind_text(s, 5, it->s[1]);
		sqlite3_bind_int64(s, 6, it->id);
		rc = store_step(s);
		if (rc == SQLITE_OK && sqlite3_changes(st->wdb) == 0) {
			*alone = 1;
			return (SQLITE_NOTFOUND);
		}
		break;
	case STORE_OP_TABLE:
		s = st->ws[STORE_W_TABLE];
		store_bind_text(s, 1, it->s[0]);
		store_bind_text(s, 2, it->s[1]);
		store_bind_text(s, 3, it->when);
		store_bind_text(s, 4, it->s[2]);
		if (it->data != NULL)
			sqlite3_bind_blob64(s, 5, it->data, it->len,
			    SQLITE_STATIC);
		else
			sqlite3_bind_null(s, 5);
		rc = store_step(s);
		if (rc == SQLITE_OK && (it->n > 0 || it->id > 0))
			rc = store_tables_trim(st, it->n, (size_t)it->id);
		break;
	case STORE_OP_ABANDON:
		s = st->ws[STORE_W_ABANDON];
		sqlite3_bind_int64(s, 1, it->id);
		rc = store_step(s);
		if (rc == SQLITE_OK)
			*it->count = sqlite3_changes(st->wdb);
		break;
	case STORE_OP_PAGES:
		break;		/* done before the transaction */
	case STORE_OP_REFUSED:
		s = st->ws[STORE_W_REFUSED];
		sqlite3_bind_int64(s, 1, it->id);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)it->ply);
		sqlite3_bind_int(s, 3, (int)it->n);
		store_bind_text(s, 4, it->s[0]);
		store_bind_text(s, 5, it->s[1]);
		sqlite3_bind_int64(s, 6, (sqlite3_int64)it->len);
		if (it->rated)
			sqlite3_bind_int64(s, 7, it->tournament);
		else
			sqlite3_bind_null(s, 7);
		rc = store_step(s);
		break;
	case STORE_OP_PROBE:
		rc = store_probe(st);
		break;
	}
	switch (rc & 0xff) {
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
	case SQLITE_TOOBIG:
		*alone = 1;
		break;
	}
	return (rc);
}

/* Returns the name of an item's kind, for logs. */
static const char *
store_op_name(enum store_op op)
{
	switch (op) {
	case STORE_OP_BEGIN:
		return ("game-begin");
	case STORE_OP_RUN:
		return ("moves");
	case STORE_OP_END:
		return ("game-end");
	case STORE_OP_TABLE:
		return ("table");
	case STORE_OP_ABANDON:
		return ("abandon");
	case STORE_OP_PAGES:
		return ("max-pages");
	case STORE_OP_REFUSED:
		return ("refused-move");
	case STORE_OP_PROBE:
		return ("probe");
	}
	return ("?");
}

/* Logs a write failure, at most one line per second. */
static void
store_log_fail(struct store *st, const char *what, int64_t id, int rc,
    const char *msg, size_t n)
{
	struct timespec	 ts;
	char		 game[32] = "-";

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (st->fail_logged == ts.tv_sec && st->fail_logged != 0) {
		st->fail_quiet++;
		return;
	}
	if (id != 0)
		snprintf(game, sizeof game, "%" PRId64, id);
	log_warnx("store=%s event=write-failed what=%s game=%s writes=%zu "
	    "error=\"%s\" code=%d suppressed=%" PRIu64, st->path, what, game,
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
		store_push_locked(st, it, 1);
		log_warnx("store=%s event=game-marked game=%" PRId64
		    " status=abandoned reason=log-failed", st->path,
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
	    st->path, st->fail_quiet);
	st->recover_logged = ts.tv_sec;
	st->fail_quiet = 0;
}

/*
 * Runs one batch in one transaction and then the done callbacks.  Sets
 * every item's ok.  Returns 1 if the batch committed.
 */
static int
store_batch(struct store *st, struct store_items *b)
{
	struct store_item *it;
	size_t		 n = 0, nfail = 0;
	int		 rc, alone, committed;

	if (st->shared)
		pthread_mutex_lock(&st->rmtx);
	/* The size cap is a setting, not data: it applies whatever happens. */
	STAILQ_FOREACH(it, b, entry) {
		n += it->w;
		if (it->op == STORE_OP_PAGES &&
		    (rc = store_max_pages(st->wdb, it->n)) != SQLITE_OK)
			store_log_fail(st, "max-pages", 0, rc,
			    sqlite3_errmsg(st->wdb), 1);
	}
	rc = store_step(st->ws[STORE_W_BEGIN]);
	if (rc == SQLITE_OK) {
		STAILQ_FOREACH(it, b, entry) {
			rc = store_exec_item(st, it, &alone);
			it->ok = rc == SQLITE_OK;
			if (rc == SQLITE_OK)
				continue;
			if (!alone)
				break;
			nfail += it->w;
			store_log_fail(st, store_op_name(it->op), it->id, rc,
			    rc == SQLITE_NOTFOUND ? "no such game" :
			    sqlite3_errmsg(st->wdb), it->w);
			rc = SQLITE_OK;
		}
	}
	if (rc == SQLITE_OK)
		rc = store_step(st->ws[STORE_W_COMMIT]);
	committed = rc == SQLITE_OK;
	if (!committed) {
		store_log_fail(st, "batch", 0, rc, sqlite3_errmsg(st->wdb), n);
		if (!sqlite3_get_autocommit(st->wdb))
			store_step(st->ws[STORE_W_ROLLBACK]);
		nfail = n;
		STAILQ_FOREACH(it, b, entry) {
			it->ok = 0;
			if (it->op == STORE_OP_ABANDON) {
				*it->count = -1;
				*it->rcp = rc;
			}
		}
	}
	if (st->shared)
		pthread_mutex_unlock(&st->rmtx);
	if (committed && st->failing)
		store_log_recovered(st);
	st->failing = !committed;

	/* A game end is ok only if all of its game's writes were. */
	pthread_mutex_lock(&st->mtx);
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
				    "game=%" PRId64, st->path, it->id);
			}
		}
	}
	st->cnt.batches++;
	st->cnt.items += n;
	st->cnt.failed += nfail;
	pthread_mutex_unlock(&st->mtx);

	while ((it = STAILQ_FIRST(b)) != NULL) {
		STAILQ_REMOVE_HEAD(b, entry);
		if (it->cb != NULL)
			it->cb(it->arg, it->ok);
		store_item_free(it);
	}

	/* The replies are out: now the checkpoint, if the WAL is big. */
	if (st->wal_frames >= STORE_CKPT_FRAMES) {
		rc = sqlite3_wal_checkpoint_v2(st->wdb, NULL,
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		if (rc != SQLITE_OK && (rc & 0xff) != SQLITE_BUSY)
			store_log_fail(st, "checkpoint", 0, rc,
			    sqlite3_errmsg(st->wdb), 0);
		st->wal_frames = 0;
	}
	return (committed);
}

/*
 * Runs the writer thread: takes every queued item as one batch.  A batch
 * that nobody waits on may gather for up to STORE_GATHER_NS first, so that
 * a stream of moves costs few transactions; a game end, a flush or a full
 * batch cuts the wait short.
 */
static void *
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
		store_runs_age(st, store_mono_ns());
		while (STAILQ_EMPTY(&st->queue) && !st->quit) {
			st->idle = 1;
			if ((r = TAILQ_FIRST(&st->ages)) == NULL)
				pthread_cond_wait(&st->work, &st->mtx);
			else {
				/* Sleep until the oldest run is due. */
				wait = r->born + STORE_RUN_AGE_NS -
				    store_mono_ns();
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
			store_runs_age(st, store_mono_ns());
		}
		if (STAILQ_EMPTY(&st->queue))
			break;
		if (!st->urgent && !st->quit && st->qlen < STORE_GATHER_MAX) {
			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += STORE_GATHER_NS;
			if (until.tv_nsec >= 1000000000L) {
				until.tv_sec++;
				until.tv_nsec -= 1000000000L;
			}
			while (!st->urgent && !st->quit &&
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
		pthread_cond_broadcast(&st->done);
	}
	pthread_mutex_unlock(&st->mtx);
	return (NULL);
}

/* Returns a column as text, "-" when NULL. */
static const char *
store_col(sqlite3_stmt *stmt, int i)
{
	const unsigned char *t;

	t = sqlite3_column_text(stmt, i);
	return (t != NULL ? (const char *)t : "-");
}

/* Logs a failed read; returns -1. */
static int
store_read_fail(struct store *st, const char *what, int rc)
{
	log_warnx("store=%s event=read-failed what=%s error=\"%s\" code=%d",
	    st->path, what, sqlite3_errmsg(st->rdb), rc);
	return (-1);
}

/* Starts a read transaction (rmtx held), so that reads agree. */
static int
store_read_begin(struct store *st)
{
	if (st->shared)
		return (SQLITE_OK);
	return (store_step(st->rs[STORE_R_BEGIN]));
}

/* Ends the read transaction and releases rmtx. */
static void
store_read_end(struct store *st)
{
	if (!st->shared && !sqlite3_get_autocommit(st->rdb))
		store_step(st->rs[STORE_R_END]);
	pthread_mutex_unlock(&st->rmtx);
}

/*
 * Appends the n most recent games, newest first, one line each:
 * "ID FAMILY STATUS RESULT REASON PLAYER1 PLAYER2 STARTED", "-" for
 * none.  Returns 0, or -1 on a database error.
 */
int
store_history(struct store *st, unsigned int n, struct buf *out)
{
	sqlite3_stmt	*s = st->rs[STORE_R_HISTORY];
	int		 rc;

	pthread_mutex_lock(&st->rmtx);
	sqlite3_bind_int64(s, 1, n);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		buf_printf(out, "%" PRId64 " ",
		    (int64_t)sqlite3_column_int64(s, 0));
		buf_puts(out, store_col(s, 1));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 2));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 3));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 4));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 5));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 6));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 7));
		buf_putc(out, '\n');
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLITE_DONE)
		return (store_read_fail(st, "history", rc));
	return (0);
}

/*
 * Appends the record of game id:
 *
 *	game ID
 *	start CANONICAL-GAME
 *	players PLAYER1 PLAYER2
 *	started TIME
 *	move PLY PLAYER MOVE MARK TIME_MS	(one per move, in order)
 *	ended TIME|-
 *	result first|second|- REASON|-
 *	status live|finished|abandoned
 *
 * MOVE may contain blanks (two changes): it is everything between the
 * second and the second-to-last word.  `new START` then `play MOVE` for
 * each move replays the game.  Returns 1, 0 if there is no such game, or
 * -1 on a database error.
 */
/* Appends a delay column: microseconds, or "-" if unknown. */
static void
store_record_delay(struct buf *b, sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		buf_putc(b, '-');
	else
		buf_printf(b, "%" PRId64, (int64_t)sqlite3_column_int64(s, i));
}

/*
 * Appends a refused move of the record: "refused PLY PLAYER TIME_MS
 * DELAY_US MOVE REASON", MOVE as a JSON string (the text received).
 */
static void
store_record_refused(struct buf *b, sqlite3_stmt *f)
{
	buf_printf(b, "refused %" PRId64 " %d %" PRId64 " ",
	    (int64_t)sqlite3_column_int64(f, 0), sqlite3_column_int(f, 1),
	    (int64_t)sqlite3_column_int64(f, 2));
	store_record_delay(b, f, 3);
	buf_putc(b, ' ');
	store_put_json(b, store_col(f, 4));
	buf_printf(b, " %s\n", store_col(f, 5));
}

int
store_record(struct store *st, int64_t id, struct buf *out)
{
	sqlite3_stmt	*g = st->rs[STORE_R_GAME], *m = st->rs[STORE_R_MOVES];
	sqlite3_stmt	*f = st->rs[STORE_R_REFUSED];
	struct buf	 b;
	int64_t		 ply;
	int		 rc, frc, found = 0;

	buf_init(&b);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) != SQLITE_OK)
		goto done;
	sqlite3_bind_int64(g, 1, id);
	if ((rc = sqlite3_step(g)) == SQLITE_ROW) {
		found = 1;
		buf_printf(&b, "game %" PRId64 "\n", id);
		buf_printf(&b, "start %s\n", store_col(g, 0));
		buf_printf(&b, "players %s %s\n", store_col(g, 1),
		    store_col(g, 2));
		buf_printf(&b, "started %s\n", store_col(g, 3));
		sqlite3_bind_int64(m, 1, id);
		sqlite3_bind_int64(f, 1, id);
		frc = sqlite3_step(f);
		while ((rc = sqlite3_step(m)) == SQLITE_ROW) {
			ply = sqlite3_column_int64(m, 0);
			/* The moves refused for this ply come first. */
			while (frc == SQLITE_ROW &&
			    sqlite3_column_int64(f, 0) <= ply) {
				store_record_refused(&b, f);
				frc = sqlite3_step(f);
			}
			buf_printf(&b, "move %" PRId64 " %d ", ply,
			    sqlite3_column_int(m, 1));
			buf_puts(&b, store_col(m, 2));
			buf_printf(&b, " %s %" PRId64 " ", store_col(m, 3),
			    (int64_t)sqlite3_column_int64(m, 4));
			store_record_delay(&b, m, 5);
			buf_putc(&b, '\n');
		}
		while (rc == SQLITE_DONE && frc == SQLITE_ROW) {
			store_record_refused(&b, f);
			frc = sqlite3_step(f);
		}
		if (rc == SQLITE_DONE && frc != SQLITE_DONE)
			rc = frc;
		sqlite3_reset(m);
		sqlite3_clear_bindings(m);
		sqlite3_reset(f);
		sqlite3_clear_bindings(f);
		if (rc == SQLITE_DONE) {
			buf_printf(&b, "ended %s\n", store_col(g, 4));
			buf_printf(&b, "result %s %s", store_col(g, 5),
			    store_col(g, 6));
			if (sqlite3_column_type(g, 8) != SQLITE_NULL)
				buf_printf(&b, " %s", store_col(g, 8));
			buf_printf(&b, "\nstatus %s\n", store_col(g, 7));
		}
	}
	sqlite3_reset(g);
	sqlite3_clear_bindings(g);
done:
	store_read_end(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && rc != SQLITE_OK) {
		buf_free(&b);
		return (store_read_fail(st, "record", rc));
	}
	if (found)
		buf_add(out, b.data, b.len);
	buf_free(&b);
	return (found);
}

/* Reads a COUNT(*) statement into *n; returns an SQLite code. */
static int
store_count(sqlite3_stmt *s, int64_t *n)
{
	int	 rc;

	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*n = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_reset(s);
	return (rc);
}

/*
 * Appends the statistics: "games N", "moves N", then for each player
 * "player NAME moves N optimal PCT kept-win K threw-win T", where PCT is
 * the integer part of 100 K / (K + T) ("-" if K + T is 0): how often the
 * player kept a win it had.  100 means it never threw one.  Returns 0, or
 * -1 on a database error.
 */
int
store_stats(struct store *st, struct buf *out)
{
	sqlite3_stmt	*s = st->rs[STORE_R_PLAYERS];
	struct buf	 b;
	int64_t		 ngames = 0, nmoves = 0, k, t;
	int		 rc;

	buf_init(&b);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) != SQLITE_OK ||
	    (rc = store_count(st->rs[STORE_R_NGAMES], &ngames)) != SQLITE_OK ||
	    (rc = store_count(st->rs[STORE_R_NMOVES], &nmoves)) != SQLITE_OK)
		goto done;
	buf_printf(&b, "games %" PRId64 "\nmoves %" PRId64 "\n", ngames,
	    nmoves);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		k = sqlite3_column_int64(s, 2);
		t = sqlite3_column_int64(s, 3);
		buf_printf(&b, "player %s moves %" PRId64 " optimal ",
		    store_col(s, 0), (int64_t)sqlite3_column_int64(s, 1));
		if (k + t > 0)
			buf_printf(&b, "%" PRId64, k * 100 / (k + t));
		else
			buf_putc(&b, '-');
		buf_printf(&b, " kept-win %" PRId64 " threw-win %" PRId64 "\n",
		    k, t);
	}
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
done:
	store_read_end(st);
	if (rc != SQLITE_OK) {
		buf_free(&b);
		return (store_read_fail(st, "stats", rc));
	}
	buf_add(out, buf_str(&b), b.len);
	buf_free(&b);
	return (0);
}

/*
 * Looks up the table kind/key: appends its metadata to meta and its data
 * to data (either may be NULL).  Returns 1, 0 if there is none, or -1 on
 * a database error.
 */
int
store_table_get(struct store *st, const char *kind, const char *key,
    struct buf *meta, struct buf *data)
{
	sqlite3_stmt	*s = st->rs[STORE_R_TABLE];
	const void	*p;
	int		 rc, found = 0;

	pthread_mutex_lock(&st->rmtx);
	store_bind_text(s, 1, kind);
	store_bind_text(s, 2, key);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		found = 1;
		if (meta != NULL) {
			p = sqlite3_column_text(s, 0);
			buf_add(meta, p != NULL ? p : "",
			    (size_t)sqlite3_column_bytes(s, 0));
		}
		if (data != NULL) {
			p = sqlite3_column_blob(s, 1);
			buf_add(data, p != NULL ? p : "",
			    (size_t)sqlite3_column_bytes(s, 1));
		}
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLITE_DONE)
		return (store_read_fail(st, "table", rc));
	return (found);
}

/* Returns the path the store was opened with (for a second connection). */
const char *
store_path(const struct store *st)
{
	return (st->path);
}
