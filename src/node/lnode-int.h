/*
 * lnode-int.h: what the files of the node module (src/node/) share: the
 * lobby's side of node mode, several daemons on one PostgreSQL (issue 15,
 * doc/NODES.md).  The lobby reaches it only through lobby_node_ops
 * (lobby-int.h), which node-ops.c fills; the files here call the lobby's
 * files (lobby-int.h) and each other downward, without a cycle.
 */
#ifndef LNODE_INT_H
#define LNODE_INT_H

#include "lobby/lobby-int.h"
#include "node/lnode.h"

/*
 * A lobby's node state (lb->nd): allocated when node mode starts
 * (node-ops.c), with lb->nops; NULL on a single node.  Read it through
 * lnd(lb), all zero on a single node (lnode_none, lobby-node.c); write it
 * only where node mode is on.
 */
/* A LISTEN (on 1) or UNLISTEN of a channel, done(lb, ch, rc) after. */
typedef void	 lnode_listen_fn(struct lobby *, const char *, int,
		    void (*)(struct lobby *, const char *, int));

struct nd_lobby {
	/* The node this lobby is (lobby_set_node). */
	int64_t		 node_id;
	char		 node_addr[256];
	int		 leader;	/* holds the scheduler's lock */
	struct llease	*lease;		/* lost games (lobby-lease.c) */
	struct {			/* node drain (lobby-node.c) */
		char	 to[PROTO_ADDR_MAX + 1];	/* "": not draining */
		uint64_t redirected;	/* event redirect sent since */
	} drain;
	/* Matchmaking across nodes (lobby-xnode.c), or NULL. */
	struct lxnode	*xnode;
	/* Spectating across nodes (lobby-xwatch.c), or NULL. */
	struct lxwatch	*xwatch;
	/* Tournaments across nodes (lobby-xtour.c), or NULL; the scheduler's
	 * announcements published, for the forfeit waits (lobby-tour.c). */
	struct lxtour	*xtour;
	struct lxtread	*xtread;	/* a follower's reads (lobby-xtread.c) */
	uint64_t	 xtour_seq;
	int		 xtour_stale;	/* a new scheduler's read failed: it
					 * does not schedule yet */
	/* The players of tournament games live in the log but refereed
	 * elsewhere (remote slots): busy (lobby_xtour_schedules). */
	char		(*xbusy)[LEAGUE_NAME_MAX + 1];
	size_t		 nxbusy;
	struct sqldb	*xdb;		/* lobby-xnode.c's, for leases */
	struct lwhere	*where;		/* games waiting for a takeover
					 * (lobby-where.c), or NULL */
};

/*
 * An open seek's life cycle across nodes (lobby-xseek.c, xseek_set): its
 * row in table seeks, and the one job of it on the node's queue.  A seek
 * freed (paired, withdrawn, gone) has none.  Names for xseek_set's log.
 */
#define LSEEK_XSTATES(X)						\
	/* no row: this node only (one node; no room or database yet) */ \
	X(LSEEK_LOCAL, "local")						\
	/* its INSERT queued or running (xrow -1) */			\
	X(LSEEK_PUBLISHING, "publishing")				\
	/* row xrow, no job */						\
	X(LSEEK_PUBLISHED, "published")					\
	/* its claim queued or running */				\
	X(LSEEK_CLAIMING, "claiming")					\
	/* a game started (here or elsewhere) */			\
	X(LSEEK_PAIRED, "paired")					\
	/* dropped: its row is deleted on a worker */			\
	X(LSEEK_WITHDRAWN, "withdrawn")
enum lseek_x { LSEEK_XSTATES(ENUM_X_ID) };

/* An open seek's node state (sk->nd), made when it opens (publish). */
struct nd_seek {
	int64_t		 xrow;		/* published (lobby-xnode.c), -1 while
					 * publishing, or 0 */
	enum lseek_x	 xstate;	/* lobby-xnode.c's xseek_set only */
};

/* A connection's node state (lc->nd), made when it attaches. */
struct nd_client {
	int64_t		 xtold;		/* the scheduler node it was sent to
					 * (lobby-xtour.c), 0: none */
	struct store_where *where;	/* its login's games elsewhere */
	size_t		 nwhere;	/* (lobby-where.c) */
	struct xwatch_pre *xpre;	/* watch's game read on a worker
					 * (lobby-xwatch.c) */
	struct store_elsewhere *xlive;	/* games live's, read on a worker
					 * (lobby-where.c) */
};

/* A running tournament's node state (t->nd), made when first needed:
 * its slots', as many as t's (lobby-xtour.c). */
struct nd_slot {
	uint64_t	 xseq;		/* the announcement its forfeit wait
					 * needs; 0: none */
	int64_t		 remote;	/* playing: a live game of the log not
					 * refereed here */
};
struct nd_tour {
	uint64_t	 xfresh;	/* read from the log then */
	struct nd_slot	*slots;
	size_t		 nslots;
};

/* A live game's node state (g->nd), made when first needed. */
struct nd_game {
	int		 lease_lost;	/* this node lost its lease
					 * (lobby-lease.c) */
	int		 xwatched;	/* followed by another node: each move
					   written at once (lobby-xwatch.c) */
};

extern const struct nd_lobby lnode_none;

/* lb's node state to read: a single node's is all zero (lnode_none). */
static inline const struct nd_lobby *
lnd(const struct lobby *lb)
{
	return (lb->nd != NULL ? lb->nd : &lnode_none);
}

/* lobby-lease.c (calls lobby-game.c, lobby-tour.c, lobby-feed.c,
 * lobby-queue.c) */
void	 lobby_lease_free(struct lobby *);

/* lobby-node.c (calls lobby-queue.c): a node's drain */
int	 lnode_draining(const struct lobby *);
void	 lnode_game_over(struct lobby_client *);
void	 lnode_login(struct lobby_client *, size_t);
struct nd_game *lnd_game(struct lgame *);
void	 lnode_game_moved(struct lgame *);
int	 lnode_game_lost(const struct lgame *);
void	 lnode_game_free(struct lgame *);
int	 lnode_drain(struct lobby_client *, const char *, struct buf *);

/* lobby-where.c: an account's games on other nodes (calls lobby-game.c,
 * lobby-queue.c) */
size_t	 lwhere_login(struct lobby_client *);
void	 lwhere_restored(struct lobby *, struct lgame *);
int	 lwhere_busy(struct lobby_client *, struct buf *);
int64_t	 lwhere_held(struct lobby *, const char *);
int	 lwhere_resume(struct lobby_client *, int64_t, struct buf *);
void	 lwhere_free(struct lobby *);

/* lobby-xnode.c (calls lobby-game.c, lobby-pair.c, lobby-queue.c):
 * matchmaking across nodes */
void	 lobby_xnode_publish(struct lobby *, struct lseek *);
int	 lobby_xnode_may_pair(struct lobby_client *, struct lseek *);

/* lobby-xwatch.c (calls lobby-queue.c): spectating across nodes; its
 * channels are listened to through listen (lobby-xnode.c's) */
void	 lobby_xwatch_init(struct lobby *, struct sqldb *, lnode_listen_fn *);
void	 lobby_xwatch_free(struct lobby *);
void	 lobby_xwatch_note(struct lobby *, const char *);
void	 lobby_xwatch_catch_up(struct lobby *);
int	 lobby_xwatch(struct lobby_client *, int64_t, struct lobby_live *,
	    struct buf *);
void	 lobby_xunwatch(struct lobby_client *, int64_t);
void	 lobby_xwatch_pre_drop(struct lobby_client *);
void	 lobby_where_live_drop(struct lobby_client *);
void	 lobby_xwatch_wanted(struct lobby *, int64_t);

/* What a worker read of one tournament (lobby_xtour_got_read), for
 * xtour_sync. */
struct xtour_got {
	int64_t		 id;
	int		 rc;		/* 0, or -1: a database error */
	struct league_tgame *tg;	/* its games */
	size_t		 ng;
	int64_t		*ids;		/* its live games and their slots */
	int64_t		*slots;
	int		 nlive;
};

/* lobby-xtour.c (calls lobby-tour.c, lobby-game.c, lobby-queue.c):
 * tournaments across nodes */
void	 lobby_xtour_free(struct lobby *);
void	 lobby_xtour_leader(struct lobby *, int);
int	 lobby_xtour_note(struct lobby *, const char *);
int	 lobby_xtour_follower(const struct lobby *);
int	 lobby_xtour_apply(struct lobby *, struct league_tournament *,
	    const struct xtour_got *);
int	 lobby_xtour_is_fresh(struct lobby *, const struct ltour *);
void	 lobby_xtour_got_read(struct lobby *, struct xtour_got *);
void	 lobby_xtour_got_free(struct xtour_got *, size_t);

/* lobby-xtread.c (calls lobby-xtour.c, lobby-queue.c): a follower's reads
 * of the tournaments, on a worker */
void	 lobby_xtour_fresh(struct lobby *, const char *);
struct xtour_pre *lobby_xtour_read_id(struct lobby *, int64_t);
void	 lobby_xtour_batch(struct lobby *, int);
void	 lobby_xtread_free(struct lobby *);
void	 lobby_xtour_login(struct lobby_client *);
int	 lobby_xtour_schedules(struct lobby *);
int	 lobby_xtour_busy(struct lobby *, const char *);
int	 lobby_xtour_called(struct lobby *, struct ltour *, size_t);
void	 lobby_xtour_uncall(struct ltour *, size_t);
int64_t	 lobby_xtour_remote(const struct ltour *, size_t);
void	 lobby_xtour_here(struct ltour *, size_t);
void	 lobby_xtour_tour_free(struct ltour *);

#endif /* LNODE_INT_H */
