/*
 * store.h: grundyd's SQLite storage: the game log (games and their moves)
 * and the cache of precomputed tables.
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
 * grundyd per database.  Text formats: see store_history, store_record and
 * store_stats in store.c.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct store;

/* Settings for store_open_config; store_config_default fills them. */
struct store_config {
	int		 busy_ms;	/* wait for a lock (5000 ms) */
	size_t		 queue_max;	/* queued writes, then drop (65536) */
	unsigned long	 max_pages;	/* size cap in pages, 0: none */
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

/* How a move treated a win: kept it, threw it, or there was none. */
enum store_mark {
	STORE_KEPT_WIN = 0,
	STORE_THREW_WIN,
	STORE_NO_WIN,
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

/* A game's status in the log. */
enum store_status {
	STORE_LIVE = 0,
	STORE_FINISHED,
	STORE_ABANDONED,
};

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

/* SQLite helpers shared with league.c (any thread, any connection). */
struct sqlite3;
void	 store_now(char *, size_t);
int	 store_connect(const char *, int, int, struct sqlite3 **);
int	 store_exec1(struct sqlite3 *, const char *, char *, size_t);

int64_t	 store_game_begin(struct store *, const struct store_game *);
void	 store_move(struct store *, int64_t, const struct store_move *);
void	 store_game_end(struct store *, int64_t, enum store_result,
	    const char *, enum store_status, void (*)(void *, int), void *);
void	 store_game_end_detail(struct store *, int64_t, enum store_result,
	    const char *, const char *, enum store_status,
	    void (*)(void *, int), void *);
void	 store_refused(struct store *, int64_t, const struct store_refused *);
void	 store_set_table_limits(struct store *, size_t, size_t);
int	 store_failing(struct store *);
#define STORE_FAILING_MSG "the game log cannot write (disk full?): new " \
	"logged games are refused until it can; analysis still works"
void	 store_table_put(struct store *, const char *, const char *,
	    const char *, const void *, size_t);

int	 store_history(struct store *, unsigned int, struct buf *);
int	 store_record(struct store *, int64_t, struct buf *);
int	 store_stats(struct store *, struct buf *);
int	 store_table_get(struct store *, const char *, const char *,
	    struct buf *, struct buf *);

const char *store_mark_name(enum store_mark);
const char *store_result_name(enum store_result);
const char *store_status_name(enum store_status);

/*
 * The embedded migrations (migrations.c, generated by db/embed.sh from
 * db/NNN-*.sql): versions 1..store_nmigrations in order.
 */
struct store_migration {
	int		 version;
	const char	*name;
	const char	*sql;
};
extern const struct store_migration store_migrations[];
extern const size_t store_nmigrations;

/* For tests and tools: brings a database file to version upto of list. */
int	 store_migrate_file(const char *, const struct store_migration *,
	    size_t, int, char *, size_t);

#endif /* STORE_H */
