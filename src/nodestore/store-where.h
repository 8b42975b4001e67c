/*
 * store-where.h: where the live games of the log are refereed, across the
 * nodes of one PostgreSQL store (issue 15 §2, doc/NODES.md "Redirects";
 * PROTOCOL.md §13.12): read on the store's read connection, on a worker,
 * for a login (lobby-where.c) and for the games waiting for a takeover.
 */
#ifndef STORE_WHERE_H
#define STORE_WHERE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_WHERE_MAX		64	/* rows read per call */
#define STORE_WHERE_ADDR	256	/* bytes of a node's HOST:PORT + NUL */

struct store;

/* A live game of the log and its lease. */
struct store_where {
	int64_t		 game;
	int		 seat;		/* the account's seat, 0: not asked */
	int64_t		 holder;	/* the lease's node, 0: no lease */
	int		 held;		/* held and not expired at now */
	int		 alive;		/* the holder beat within 2/3 TTL */
	char		 addr[STORE_WHERE_ADDR];	/* the holder's */
};

/*
 * The live games of the log (every node's), in id order, at most
 * STORE_WHERE_LIVE_MAX: each with its lease and its last logged ply.
 */
#define STORE_WHERE_LIVE_MAX	200
struct store_history;
struct store_elsewhere {
	struct store_history *games;	/* newest last */
	struct store_where *where;	/* games->n: each one's lease */
	uint64_t	*ply;		/* games->n: its last logged ply */
};
int	 store_where_live(struct store *, int64_t, struct store_elsewhere *);
void	 store_elsewhere_free(struct store_elsewhere *);

int	 store_where_player(struct store *, const char *, int64_t,
	    struct store_where **, size_t *);
int	 store_where_game(struct store *, int64_t, int64_t,
	    struct store_where *);

#endif /* STORE_WHERE_H */
