/*
 * store.h: grundyd's storage: the game log (games and their moves) and
 * the cache of precomputed tables, in SQLite or PostgreSQL (sqldb.h).
 *
 * Writes are asynchronous: the calls below copy their arguments onto a
 * bounded queue and return at once; one writer thread commits whatever is
 * queued in one transaction per batch (group commit), with synchronous=FULL
 * in WAL mode.  store_move adds to its game's run of moves, queued as one
 * write when full, at the game's end, on flush or close, or within 1 s.  A game's done callback runs on the writer thread after the
 * COMMIT that contains the game's end; it must be quick and must not call
 * store_flush or store_close.  Reads are synchronous, on a second
 * connection, see committed data only and may take a while on a big log:
 * call them off the event loop.  Every function is thread-safe; one
 * grundyd per database.  The reads return data (below); cmd-history.c formats
 * it as protocol text.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "solver/referee.h"
#include "lib/util.h"
#include "stats/glicko2.h"
#include "db/sqldb.h"

struct store;

/* Settings for store_open_config; store_config_default fills them. */
struct store_config {
	int		 busy_ms;	/* wait for a lock (5000 ms) */
	size_t		 queue_max;	/* queued writes, then drop (65536) */
	size_t		 queue_bytes;	/* their bytes, then drop (64 MiB) */
	unsigned long	 max_pages;	/* size cap in pages, 0: none */
	int		 keep_live;	/* takeover on: leave live games live */
	int		 no_ids;	/* a tool's open (--add-admin,
					 * --precompute): on PostgreSQL it
					 * takes no game ids ahead of need */
};

/*
 * A game as it starts; store_game_begin copies every string.  Zero it
 * first: zero league fields mean unrated, no tc, no tournament.
 */
struct store_game {
	const char	*family;	/* "nim", "sum", ... */
	const char	*game;		/* canonical start position */
	const char	*player1;	/* moves first: "conn:17", "engine" */
	const char	*player2;
	int		 rated;		/* 1: a rated game */
	const char	*tc;		/* time control "60000+0", or NULL */
	int64_t		 tournament;	/* tournament id, 0: none */
	unsigned int	 slot;		/* index into its schedule */
};

/*
 * How a move treated a win: kept it, threw it, or there was none; the
 * referee's marks (solver/referee.h), stored as 0, 1 and 2.
 */
enum store_mark {
	STORE_KEPT_WIN = REFEREE_KEPT_WIN,
	STORE_THREW_WIN = REFEREE_THREW_WIN,
	STORE_NO_WIN = REFEREE_NO_WIN,
};

/* One move; store_move copies every string. */
struct store_move {
	unsigned long	 ply;		/* 1 for the game's first move */
	int		 player;	/* 1 or 2; player 1 moved first */
	const char	*move;		/* canonical move text */
	const char	*position;	/* canonical position after the move */
	unsigned long	 time_ms;	/* time the player used */
	enum store_mark	 mark;
	int		 has_delay;	/* delay_us is known */
	unsigned long	 delay_us;	/* the turn's network round trip */
};

/* A refused (illegal) move; store_refused copies every string. */
struct store_refused {
	unsigned long	 ply;		/* the ply it was meant to be */
	int		 player;	/* 1 or 2 */
	const char	*move;		/* the text received */
	const char	*reason;	/* why it was refused */
	unsigned long	 time_ms;
	int		 has_delay;
	unsigned long	 delay_us;
};

/* The winner of a game, if any. */
enum store_result {
	STORE_RESULT_NONE = 0,
	STORE_RESULT_FIRST,
	STORE_RESULT_SECOND,
};

/* A game's status in the log, and its name as stored. */
#define STORE_STATUSES(X)						\
	/* being played (or left by a crash, until restored) */		\
	X(STORE_LIVE, "live")						\
	/* ended by the rules, a resignation, time... */		\
	X(STORE_FINISHED, "finished")					\
	/* ended with no result: shutdown, takeover... */		\
	X(STORE_ABANDONED, "abandoned")
enum store_status { STORE_STATUSES(ENUM_X_ID) };

/* Writer counters, for logs and tests. */
struct store_counters {
	uint64_t	 batches;	/* transactions attempted */
	uint64_t	 items;		/* writes taken off the queue */
	uint64_t	 failed;	/* writes that failed */
	uint64_t	 dropped;	/* writes refused: the queue was full */
};

void	 store_config_default(struct store_config *);
struct store *store_open(const char *, char *, size_t);
struct store *store_open_config(const char *, const struct store_config *,
	    char *, size_t);
void	 store_close(struct store *);
int	 store_flush(struct store *);
int	 store_abandon_live(struct store *);
void	 store_set_max_pages(struct store *, unsigned long);
void	 store_counters(struct store *, struct store_counters *);
const char *store_path(const struct store *);
char	*store_dbname(const char *);

/* Times as the log stores them: "2025-11-21T05:38:00.123Z". */
#define STORE_TIME_LEN	25		/* bytes with the NUL */
void	 store_now(char *, size_t);
void	 store_time_text(int64_t, char *, size_t);
int64_t	 store_time_parse(const char *);

int64_t	 store_game_begin(struct store *, const struct store_game *);
void	 store_move(struct store *, int64_t, const struct store_move *);
void	 store_move_us(struct store *, int64_t, const struct store_move *,
	    long long);
void	 store_game_end(struct store *, int64_t, enum store_result,
	    const char *, enum store_status, void (*)(void *, int), void *);
void	 store_game_end_detail(struct store *, int64_t, enum store_result,
	    const char *, const char *, enum store_status,
	    void (*)(void *, int), void *);
void	 store_refused(struct store *, int64_t, const struct store_refused *);
/* Queues game id's pending run of moves now (store-moves.c). */
void	 store_run_now(struct store *, int64_t);
/*
 * A live game of the log goes on in this run (lobby-restore.c): its end
 * may be rated.  store_live_ids lists the live games of the log, by id
 * (free *ids); returns 0, or -1 on a database error (store-live.c).
 */
void	 store_game_resume(struct store *, int64_t, int);
int	 store_live_ids(struct store *, int64_t **, size_t *);
void	 store_set_table_limits(struct store *, size_t, size_t);
int	 store_failing(struct store *);
#define STORE_FAILING_WHY(why) "the game log cannot write (" why "): new " \
	"logged games are refused until it can; analysis still works"
#define STORE_FAILING_MSG STORE_FAILING_WHY("disk full?")	/* SQLite */
#define STORE_BUSY_MSG STORE_FAILING_WHY("its queue is over half full: " \
	"max-queue-bytes")

const char *store_failing_msg(struct store *);
void	 store_table_put(struct store *, const char *, const char *,
	    const char *, const void *, size_t);

/*
 * The reads: the game log's data model, which the commands (cmd-history.c)
 * format as protocol text and other front ends as they need.  Times are
 * milliseconds since the Unix epoch, UTC (STORE_TIME_NONE: unknown);
 * texts are owned by the struct and freed with it (NULL: none); counts
 * are int64_t, durations uint64_t.
 */
#define STORE_TIME_NONE	INT64_MIN

/* A game of the log: its start, players, end and league fields. */
struct store_gameinfo {
	int64_t		 id;
	char		*family;	/* "nim", "sum", ... */
	char		*game;		/* canonical start position */
	char		*player1;	/* moved first: "conn:17", an account */
	char		*player2;
	int64_t		 started_ms;
	int64_t		 ended_ms;	/* NONE: live, or unknown (interrupted) */
	enum store_status status;
	enum store_result result;	/* NONE: no winner (yet) */
	char		*reason;	/* one word: "resign", "time", ... */
	char		*detail;	/* one line of text explaining the end */
	int		 rated;		/* 1: a rated game */
	int		 has_tc;	/* the game had a time control: */
	uint64_t	 tc_base_ms;	/* ... base and increment */
	uint64_t	 tc_inc_ms;
	int		 tc_cpu;	/* clock=cpu: moves charged CPU time */
	int64_t		 tournament;	/* tournament id, 0: none */
	unsigned int	 slot;		/* index into its schedule */
};

/* One move of a record. */
struct store_rmove {
	uint64_t	 ply;		/* 1 for the game's first move */
	int		 player;	/* 1 or 2; player 1 moved first */
	char		*move;		/* canonical move text */
	char		*position;	/* canonical position after it */
	enum store_mark	 mark;
	uint64_t	 time_ms;	/* thinking time, by the server's clock */
	int		 has_delay;	/* delay_us is known */
	uint64_t	 delay_us;	/* the server's own delay of the turn */
	uint64_t	 time_us;	/* time_ms in µs (old moves: ms * 1000) */
	/*
	 * What the move cost, where the referee measured it (grundy match;
	 * never for the server's games): has_cost 0 for none; then wall_us
	 * the turn's wall time, cpu_us its CPU time (has_cpu) and peak_bytes
	 * the engine's peak memory so far (has_peak).
	 */
	int		 has_cost, has_cpu, has_peak;
	uint64_t	 wall_us, cpu_us, peak_bytes;
};

/* One refused (illegal) move of a record. */
struct store_rrefused {
	uint64_t	 ply;		/* the ply it was meant to be */
	int		 player;	/* 1 or 2 */
	char		*move;		/* the text received */
	char		*reason;	/* why it was refused */
	uint64_t	 time_ms;
	int		 has_delay;
	uint64_t	 delay_us;
	int64_t		 seq;		/* its order among the game's */
};

/* A game's full record (store_record; free with store_record_free). */
struct store_record {
	struct store_gameinfo game;
	struct store_rmove *moves;	/* by ply */
	size_t		 nmoves;
	struct store_rrefused *refused;	/* in the order refused */
	size_t		 nrefused;
};

/* Recent games, newest first (store_history_free). */
struct store_history {
	struct store_gameinfo *games;
	size_t		 n;
};

/* One player's moves over the whole log. */
struct store_pstats {
	char		*name;		/* as logged: "conn:17", an account */
	int64_t		 moves;
	int64_t		 kept_win;	/* moves that kept a win */
	int64_t		 threw_win;	/* moves that threw one */
};

/* The log's statistics (store_stats; free with store_stats_free). */
struct store_stats {
	int64_t		 games;
	int64_t		 moves;
	struct store_pstats *players;	/* by name */
	size_t		 nplayers;
};

/*
 * A filtered page of the log's games, newest first (store_history_page):
 * NULL, 0 or an empty since for a filter not given.
 */
struct store_hfilter {
	const char	*player;	/* either seat */
	const char	*tournament;	/* the tournament's name */
	int64_t		 tournament_id;	/* or its id */
	char		 since[STORE_TIME_LEN];	/* started at or after */
	char		 until[STORE_TIME_LEN];	/* started before */
	const char	*result;	/* "first" or "second", or NULL */
	int64_t		 before;	/* ids below (the cursor) */
	unsigned int	 limit;		/* games at most */
};

int	 store_history(struct store *, unsigned int, struct store_history *);
int	 store_history_page(struct store *, const struct store_hfilter *,
	    struct store_history *);
int	 store_time_arg(const char *, char *, size_t);
void	 store_history_free(struct store_history *);
int	 store_record(struct store *, int64_t, struct store_record *);
void	 store_record_free(struct store_record *);
/* store_record with the moves after a ply only (UINT64_MAX: all), no
 * refused moves; the live games of a tournament. */
int	 store_record_since(struct store *, int64_t, uint64_t,
	    struct store_record *);
/*
 * A record read in pages, so that what is held is bounded whatever the
 * game's length (the HTTP side's streamed replies): store_record_head
 * reads the game and the ply of its last logged move, no moves (1, 0 no
 * such game, -1); store_record_page the moves with after < ply <= upto
 * (at most max) and the refused moves with seq > rseq and ply <= rupto
 * (at most rmax; 0: none), each in order (0, or -1).
 */
struct store_rpage {
	uint64_t	 after, upto;
	size_t		 max;
	int64_t		 rseq;
	uint64_t	 rupto;
	size_t		 rmax;
};
int	 store_record_head(struct store *, int64_t, struct store_record *,
	    uint64_t *);
int	 store_record_page(struct store *, int64_t, const struct store_rpage *,
	    struct store_record *);
int	 store_tour_live(struct store *, int64_t, int64_t *, int64_t *, int);
int	 store_stats(struct store *, struct store_stats *);
void	 store_stats_free(struct store_stats *);
int	 store_table_get(struct store *, const char *, const char *,
	    struct buf *, struct buf *);

/* The HTTP API's reads (store-web.c). */
int	 store_games(struct store *, const char *, int64_t, int64_t,
	    unsigned int, struct store_history *);
char	*store_tour_name(struct store *, int64_t);
size_t	 store_queue_depth(struct store *);

const char *store_mark_name(enum store_mark);
const char *store_result_name(enum store_result);
const char *store_status_name(enum store_status);

/*
 * The embedded migrations (migrations.c, generated by db/embed.sh from
 * db/NNN-*.sql): versions 1..store_nmigrations in order, of sqldb.h's
 * type (db/pg/ is embedded with the same one).
 */
extern const struct sqldb_migration store_migrations[];
extern const size_t store_nmigrations;

/*
 * The Glicko-2 ratings of the log (store-rating.c): each rated game whose end
 * the writer commits is rated in the same transaction, and the ratings are
 * checkpointed there too (table ratings); a start loads the checkpoint and
 * replays only the games after it.  Any thread.
 */
struct rtable;
int	 store_rating(struct store *, const char *, struct glicko2_rating *,
	    unsigned long *);
void	 store_ratings(struct store *, struct rtable *);
/*
 * Before reading ratings that a client sees: on PostgreSQL, brings the
 * live ratings up to the games every node rated (one read of the
 * checkpoint's seq; a replay of the new games, if any).  SQLite: nothing.
 * Returns 0, or -1 if the database could not be read.  Any thread.
 */
int	 store_ratings_sync(struct store *);

/* One player whose ratings disagree: the replay's, and where's. */
struct store_rmismatch {
	char		*name;
	const char	*where;		/* "checkpoint" or "live" */
	int		 has_expected;	/* the replay rated the player */
	struct glicko2_rating expected;
	unsigned long	 expected_games;
	int		 has_found;	/* where has the player */
	struct glicko2_rating found;
	unsigned long	 found_games;
};

/* A full replay compared with the checkpoint and the live ratings. */
struct store_rverify {
	int64_t		 games;		/* rated games replayed */
	size_t		 players;	/* players they rated */
	int64_t		 log_seq;	/* the last game's rating_seq */
	int64_t		 checkpoint_seq; /* the seq the checkpoint covers */
	struct store_rmismatch *v;
	size_t		 n;
};
int	 store_ratings_verify(struct store *, struct store_rverify *);
void	 store_rverify_free(struct store_rverify *);

/* For tests: where the writer thread calls the hook of store_set_hook. */
enum store_hook {
	STORE_HOOK_BATCH,	/* a batch taken off the queue, not begun */
	STORE_HOOK_WRITTEN,	/* its writes done, before its COMMIT */
};
void	 store_set_hook(struct store *, void (*)(void *, enum store_hook),
	    void *);

/* For tests and tools: brings a database file to version upto of list. */
int	 store_migrate_file(const char *, const struct sqldb_migration *,
	    size_t, int, char *, size_t);

#endif /* STORE_H */
