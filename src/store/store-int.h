/*
 * store-int.h: the store's internals, shared by the files of src/store/:
 * the store's structure, its queue of writes, the connections and the
 * writer thread's state.  Outside the store only its tests include it, and
 * a store of a higher layer that takes part in the writer's batches
 * (struct store_batch_ops).  The files call each other without a cycle
 * (tests/layers.py checks it).
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include <sys/queue.h>

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "lib/buf.h"
#include "stats/rtable.h"
#include "db/sqldb.h"
#include "store/store.h"

#define STORE_BUSY_MS		5000
#define STORE_QUEUE_MAX		65536
#define STORE_GATHER_NS		1000000L	/* a batch may gather 1 ms */
#define STORE_GATHER_MAX	4096		/* ... or up to this size */
#define STORE_PAGES_NONE	4294967294UL	/* SQLite's own maximum */
#define STORE_MOVE_SLACK	64		/* a move's bytes beyond its texts */
#define STORE_QUEUE_BYTES	(64UL << 20)	/* max-queue-bytes' default */
#define STORE_RUN_MAX		64		/* moves in one move_runs row */
#define STORE_CKPT_FRAMES	4096		/* checkpoint at 16 MB of WAL */
#define STORE_WAL_LIMIT		"33554432"	/* keep at most 32 MB of WAL */
#define STORE_RUN_AGE_NS	1000000000LL	/* a run waits at most 1 s */
#define STORE_RUN_BUCKETS	1024		/* hash of the pending runs */
#define STORE_IDS_MAX		64		/* PostgreSQL: game ids ahead */
#define STORE_IDS_LOW		32		/* ... refilled below this */
#define STORE_IDS_WAIT_MS	2000L		/* ... or waited for this long */

/* A database failure, kept for an error in words (store_error). */
struct store_fail {
	enum sqldb_err	 cls;
	int		 code;		/* SQLite's extended code, or 0 */
	int		 sysno;		/* SQLite's errno of an I/O error */
	char		 msg[256];
};

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
	struct store_fail *fail;	/* abandon: why it failed */
	size_t		 w;		/* writes it counts for: 1, or moves */
	size_t		 bytes;		/* counted in qbytes until freed */
	int		 ok;
	int		 skip;		/* failed alone: not in a retry */
	int		 lost;		/* end: a lost one marked, if live */
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
	size_t		 charged;	/* its bytes counted in qbytes */
};
LIST_HEAD(store_runs, store_run);
TAILQ_HEAD(store_ages, store_run);

/* The writer's prepared statements. */
enum {
	STORE_W_GAME,
	STORE_W_MOVE,
	STORE_W_END,
	STORE_W_TABLE,
	STORE_W_ABANDON,
	STORE_W_REFUSED,
	STORE_W_LOST,
	STORE_W_N
};

/* The columns of a game, as store_game_row reads them. */
#define STORE_GAME_COLS							\
	"id, family, game, player1, player2, started_at, ended_at,"	\
	" status, result, reason, detail, rated, tc, tournament_id, slot"

/* The reader's prepared statements. */
enum {
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

/* The rating statements (store-rating.c; the writer's connection). */
enum {
	STORE_RT_GAME,
	STORE_RT_SEQ,
	STORE_RT_PUT,
	STORE_RT_MARK,
	STORE_RT_N
};

/* The writer thread's life cycle (store_tstate_set). */
#define STORE_TSTATES(X)						\
	/* not started */						\
	X(STORE_T_NONE, "none")						\
	/* writes the queue */						\
	X(STORE_T_RUNNING, "running")					\
	/* told to quit: writes what is queued, then ends */		\
	X(STORE_T_QUITTING, "quitting")					\
	/* the thread returned and is joined */				\
	X(STORE_T_ENDED, "ended")
enum store_tstate { STORE_TSTATES(ENUM_X_ID) };

/* The queue's states (mtx; store_qstate_set). */
#define STORE_QSTATES(X)						\
	/* takes writes */						\
	X(STORE_Q_ACCEPTING, "accepting")				\
	/* full: refuses writes until one fits again */			\
	X(STORE_Q_DROPPING, "dropping")
enum store_qstate { STORE_QSTATES(ENUM_X_ID) };

/* The writer's states (the writer thread's; store_wstate_set). */
#define STORE_WSTATES(X)						\
	/* its last batch committed */					\
	X(STORE_WS_WRITING, "writing")					\
	/* its last batch failed */					\
	X(STORE_WS_FAILING, "failing")
enum store_wstate { STORE_WSTATES(ENUM_X_ID) };

struct store {
	char		*path;
	char		*name;		/* path, or the URL without password:
					 * for logs and errors */
	struct sqldb	*wdb;		/* the writer's connection */
	struct sqldb	*rdb;		/* the reads'; wdb if shared */
	int		 shared;	/* in-memory: one connection */
	int		 busy_ms;
	size_t		 queue_max;
	size_t		 queue_bytes;	/* cap on qbytes (max-queue-bytes) */
	struct sqldb_stmt *ws[STORE_W_N];
	struct sqldb_stmt *rs[STORE_R_N];
	pthread_mutex_t	 rmtx;		/* the read connection */
	int		 rlost;		/* its last read lost it (rmtx) */

	pthread_t	 thread;
	enum store_tstate tstate;	/* the writer thread (mtx) */
	pthread_mutex_t	 mtx;		/* everything below */
	pthread_cond_t	 work;		/* queue not empty, or quitting */
	int		 idle;		/* the writer waits for an empty queue */
	int		 urgent;	/* someone waits on the queue: commit now */
	pthread_cond_t	 done;		/* done_seq moved */
	struct store_items queue;
	size_t		 qlen;
	size_t		 qbytes;	/* held by pending runs, the queue and
					 * the batch being written */
	uint64_t	 seq;		/* last item queued */
	uint64_t	 done_seq;	/* last item finished */
	int		 last_ok;	/* the last batch committed */
	int		 last_cls;	/* its failure's enum sqldb_err (mtx) */
	int		 wcls;		/* the writer's own copy, unlocked */
	int64_t		 next_id;	/* last game id handed out */
	int		 pg;		/* on PostgreSQL: ids from the pool */
	int64_t		 ids[STORE_IDS_MAX]; /* the pool (store-ids.c) */
	size_t		 nids;
	int		 ids_want;	/* someone waits for a refill */
	int		 ids_failed;	/* the last refill failed */
	uint64_t	 ids_gen;	/* refills attempted */
	uint64_t	 ids_after;	/* done_seq at the last failed one */
	int64_t		 open_id;	/* MAX(id) at open */
	int64_t		*damaged;	/* games with a lost write */
	size_t		 ndamaged;
	size_t		 damaged_cap;
	struct store_runs runs[STORE_RUN_BUCKETS]; /* pending, by game */
	struct store_ages ages;		/* the same, oldest first */
	enum store_qstate qstate;	/* refusing writes or not */
	uint64_t	 dropped_now;	/* ... this many so far */
	struct store_counters cnt;

	/* The writer's own. */
	time_t		 fail_logged;	/* last failure line, monotonic s */
	uint64_t	 fail_quiet;	/* failures not logged since */
	time_t		 recover_logged; /* last recovery line */
	enum store_wstate wstate;	/* the last batch failed or not */
	int		 wal_frames;	/* frames in the WAL (the hook's) */
	/* The table cache's caps (store_set_table_limits; atomic). */
	size_t		 tables_max;	/* rows; 0: no cap */
	size_t		 tables_bytes;	/* bytes of keys and data; 0: none */
	/* Disk full: game ends lost while failing, marked on recovery. */
	int64_t		*lost;		/* (mtx) */
	size_t		 nlost;
	uint64_t	 probe_ns;	/* last probe queued (mtx) */
	void		 (*hook)(void *, enum store_hook); /* tests (mtx) */
	void		*hook_arg;
	const struct store_batch_ops *bops;	/* or NULL */
	void		*bops_arg;

	/* The ratings (store-rating.c). */
	struct sqldb_stmt *rt[STORE_RT_N];
	pthread_mutex_t	 emtx;		/* live, live_seq */
	pthread_mutex_t	 vmtx;		/* the writer: COMMIT to publication */
	struct rtable	 live;		/* the live ratings, as committed */
	int64_t		 live_seq;	/* the last rating_seq they cover */
	int64_t		 rseq;		/* the writer's: last seq handed out */
	int64_t		 rgame;		/* ... and its game */
	struct rtable	 pend;		/* the writer's: the batch's ratings */
	struct sqldb	*sdb;		/* PostgreSQL: store_ratings_sync's
					 * connection (vmtx) */
	int		 rated_begun;	/* a rated game began (atomic) */
};

/* store-db.c */
int	 store_open_writer(struct store *, const struct store_config *,
	    char *, size_t);
int	 store_open_reader(struct store *, char *, size_t);
void	 store_fail_note(struct store_fail *, struct sqldb *);
void	 store_error(char *, size_t, const char *, const struct store_fail *,
	    const char *, int);
void	 store_error_db(char *, size_t, const char *, struct sqldb *,
	    const char *, int);
int	 store_code(struct sqldb *);
int	 store_fails_alone(struct sqldb *);
int	 store_max_pages(struct sqldb *, unsigned long);
int	 store_prepare(struct sqldb *, const char *const *,
	    const char *const *, size_t, struct sqldb_stmt **);
int	 store_do(struct sqldb_stmt *);
int	 store_open_ro(const char *, int, struct sqldb **, char *, size_t);
int	 store_probe_write(struct sqldb *);
int	 store_checkpoint(struct store *, char *, size_t);
/* store-read.c: the SQL of store_history_page (tests EXPLAIN it). */
void	 store_history_sql(struct buf *, const struct store_hfilter *);

/* store-queue.c (below the runs and the writer) */
void	 store_wait(struct store *, uint64_t);
int	 store_damaged(struct store *, int64_t, int);
void	 store_damage(struct store *, int64_t);
void	 store_damage_now(struct store *, int64_t);
struct store_item *store_item_new(enum store_op, int64_t);
void	 store_item_free(struct store_item *);
uint64_t store_push(struct store *, struct store_item *, int);
uint64_t store_push_locked(struct store *, struct store_item *, int);
int	 store_bytes_full(const struct store *, size_t);
int	 store_queue_busy(const struct store *);
void	 store_state_log(const struct store *, const char *,
	    const char *const *, int, int);

/*
 * A store of a higher layer may take part in each batch of the writer
 * (store_set_batch_ops, once, before any write): each member, if not
 * NULL, is called on the writer thread with arg, in this order: begin
 * before the batch's transaction; start first in each try of it (pipe:
 * the try is pipelined, a failure of the commit then tells no more than
 * that: the batch is tried again without the pipeline); end after each
 * game end it wrote; commit just before its COMMIT; after once it is
 * over (committed or not), before the callbacks of its items.  start and
 * commit return 0, or -1 (the try fails as for a failed write); they may
 * skip the items they refuse (skip set, ok 0).  free(arg) at store_free.
 */
struct store_batch_ops {
	void	 (*begin)(void *, struct store *, struct store_items *);
	int	 (*start)(void *, struct store *, struct store_items *, int);
	void	 (*end)(void *, struct store *, struct store_item *);
	int	 (*commit)(void *, struct store *, struct store_items *);
	void	 (*after)(void *, struct store *, struct store_items *, int);
	void	 (*free)(void *);
};
/* store-writer.c */
void	 store_set_batch_ops(struct store *, const struct store_batch_ops *,
	    void *);
void	*store_batch_arg(struct store *, const struct store_batch_ops *);

/* store-moves.c (above the queue) */
char	*store_line(const char *);
void	 store_runs_queue(struct store *, int64_t);
void	 store_runs_age(struct store *, int64_t);

/* store-rating.c (above the queue; store-rverify.c reads with it) */
int	 store_ratings_open(struct store *, char *, size_t);
int	 store_ratings_end(struct store *, int64_t, enum store_result,
	    enum store_status);
int	 store_ratings_write(struct store *);
void	 store_ratings_commit(struct store *);
void	 store_ratings_done(struct store *, int, int);
int	 store_rt_mark(struct sqldb *, int, int64_t *, int64_t *);
int	 store_rt_rows(struct sqldb *, struct rtable *);
int	 store_rt_replay(struct sqldb *, int64_t, struct rtable *,
	    struct rtable *, const struct rtable *, int64_t *, int64_t *,
	    int64_t *);
int	 store_rt_verify_sync(struct store *, struct sqldb *, int64_t);

/* store-ids.c (game ids on PostgreSQL; above the queue) */
int	 store_ids_fill(struct store *);
int	 store_ids_due(struct store *);
int64_t	 store_ids_take(struct store *);

/* store-writer.c (above the runs) */
extern const char *const store_wsql[STORE_W_N];
void	 store_tstate_set(struct store *, enum store_tstate);
void	*store_writer(void *);

/* store-read.c */
extern const char *const store_rsql[STORE_R_N];
extern const char *const store_rsql_pg[STORE_R_N];
void	*store_grow(void *, size_t, size_t);
char	*store_coldup(struct sqldb_stmt *, int);

/* store-db.c: the stored texts of the enums, indexed by them. */
extern const char *const store_mark_names[STORE_NO_WIN + 1];
extern const char *const store_result_names[STORE_RESULT_SECOND + 1];
extern const char *const store_status_names[STORE_ABANDONED + 1];

#endif /* STORE_INT_H */
