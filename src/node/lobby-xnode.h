/*
 * lobby-xnode.h: what lobby-xnode.c (the node's notifications, its tick,
 * the games it paired), lobby-xseek.c (the seek path's jobs) and
 * lobby-xhold.c (the rows a seek's preparation holds) share.  Matchmaking
 * across nodes: PROTOCOL.md §13.3, doc/NODES.md.
 */
#ifndef LOBBY_XNODE_H
#define LOBBY_XNODE_H

#include <pthread.h>

#include "nodestore/node.h"

#define XNODE_TICK_MS	1000	/* reconnection, joins */
#define XNODE_JOIN_MS	10000	/* the clocks start at the latest then */
#define XNODE_GAMES_MAX	4096	/* games paired here, waiting for a join */
/*
 * The seek path's statements (issue 15's rule: no database round trip on
 * the loop) run on a worker, one job at a time on the node's own
 * connection jdb, and finish on the loop, which finds the seek again by
 * its id (it may be gone: the job then cleans up after it).  A seek has at
 * most one job at once (its state, xseek_set); at most XNODE_QUEUE_MAX
 * publishes, claims and reads wait for their turn (xjob_capped): a seek
 * that finds the queue full stays on its node only (LSEEK_LOCAL) and is
 * published by a later tick.
 */
#define XNODE_QUEUE_MAX	256
#define XHOLD_LOCK_MS	1000	/* a preparation's wait for a lock, at most */
#define XJOB_LOCK_MS	1000	/* a job's wait for a lock, at most */
#define XSWEEP_TICKS	5	/* held rows owned by nothing: looked for */
#define XSWEEP_MAX	64	/* rows looked at per sweep */

/*
 * A game this node paired across nodes.  Its lease is the node thread's
 * (server-node.c: the store's writer takes it before the game's first
 * write, the thread renews it, the committed end releases it): here only
 * the join deadline.
 */
struct xgame {
	int64_t		 game;
	uint64_t	 join_by;	/* lobby_clock_now; 0: joined */
};

struct xjob;
TAILQ_HEAD(xjobs, xjob);

/*
 * Rows a seek's preparation holds (on a worker, lobby-xhold.c) until its
 * command runs on the loop: a published seek of this node it may pair
 * with at once, or else the seek's own row.  A held row has created_ms 0:
 * no claim takes it.
 */
struct xhold {
	struct xhold	*next;
	uint64_t	 connid;	/* the seeking connection */
	int64_t		 partner;	/* a seek's row of this node, or 0 */
	int64_t		 partner_ms;	/* its created_ms, to give it back */
	int64_t		 row;		/* the seek's own row, or 0 */
	unsigned int	 ticks;		/* ticks it waited: 2, released */
};

struct xlisten;

struct lxnode {
	struct lobby	*lb;
	struct event_base *base;
	struct sqldb	*db;		/* the loop's (xwatch, xtour) */
	struct sqldb	*jdb;		/* the seek path's, on a worker */
	struct sqldb	*ldb;		/* LISTEN lobby */
	struct event	*rd;		/* on ldb's socket, or NULL */
	/* ldb's statements (LISTEN, UNLISTEN, a reconnection), one at a
	 * time on a worker (xnode_listen_ch): while one runs, the loop
	 * does not read ldb (rd is off). */
	struct xlisten	*lq;		/* waiting, in order */
	struct xlisten	*lrun;		/* on a worker, or NULL */
	int		 closing;	/* lobby_xnode_free: no more of them */
	struct clock_timer *tick;
	unsigned int	 ticks;
	int		 retry;		/* a claim passed over a locked row */
	int		 catch_up;	/* 'paired' left for the tick */
	struct xjobs	 todo;		/* jobs waiting, nqueued of them */
	size_t		 nqueued;
	struct xjob	*running;	/* on a worker, or NULL */
	struct xjobs	 failed;	/* give-backs to try again (tick) */
	struct sqldb	*pdb;		/* the preparations' (pmtx held) */
	pthread_mutex_t	 pmtx;		/* held while pdb waits: never on
					 * the loop */
	pthread_mutex_t	 hmtx;		/* for holds only: held a moment */
	struct xhold	*holds;
	int64_t		*orphans;	/* held rows no one owned (last sweep) */
	size_t		 norphans;
	int		 sweeping;	/* an XJ_SWEEP is queued or runs */
	struct xgame	*games;
	size_t		 ngames;
};

enum xjob_kind {
	XJ_PUBLISH,	/* INSERT the seek's row, NOTIFY 'seek ID' */
	XJ_CLAIM,	/* begin, lock our row and a candidate: left open */
	XJ_CLAIM_END,	/* commits the claim (commit), or rolls it back */
	XJ_UNPUBLISH,	/* DELETE our row, unless claimed */
	XJ_RELEASE,	/* gives claimed row c back */
	XJ_GAME,	/* writes game into claimed row c, NOTIFY 'paired ID' */
	XJ_PAIRED,	/* reads our rows paired elsewhere (row, or 0: all) */
	XJ_OPEN,	/* opens held row (the seek's terms), NOTIFY 'seek ID' */
	XJ_RESTORE,	/* gives held row back its created_ms, NOTIFY 'seek ID' */
	XJ_SWEEP	/* deletes held rows no one owned in two sweeps */
};

/* A published seek's row: id, owner_id, game_id, player (0: NULL). */
struct xrow {
	int64_t		 id, owner, game, node;
	char		 player[LEAGUE_NAME_MAX + 1];
};

/* A row of this node paired elsewhere, and its owner's address. */
struct xpaired {
	struct xrow	 p;
	char		 addr[NODE_ADDR_MAX + 1];
};

struct xjob {
	TAILQ_ENTRY(xjob) entry;
	struct lxnode	*xn;
	enum xjob_kind	 kind;
	uint64_t	 seek;		/* the local seek's id, or 0 */
	int64_t		 row;		/* our row */
	struct lseek	 terms;		/* a copy (spec owned) */
	char		 player[LEAGUE_NAME_MAX + 1];
	int		 commit;	/* XJ_CLAIM_END */
	int		 local;		/* c is a row of this node */
	int64_t		 game;		/* XJ_GAME; XJ_RESTORE: created_ms */
	int		 rc;		/* 1 done, 0 nothing, -1 failed */
	int		 retry;		/* XJ_CLAIM passed over a locked row */
	struct xrow	 c;		/* the candidate, or the claimed row */
	struct xpaired	*p;		/* XJ_PAIRED */
	size_t		 np;
	int64_t		*own, *prev, *seen;	/* XJ_SWEEP (lobby-xhold.c) */
	size_t		 nown, nprev, nseen;
	int		(*work)(struct lxnode *, struct xjob *);	/* XJ_SWEEP */
	void		(*done)(struct lxnode *, struct xjob *);
};

/* lobby-xseek.c */
struct xjob *xjob_new(struct lxnode *, enum xjob_kind, const struct lseek *,
	    int64_t, int);
void	 xjob_free(struct xjob *);
void	 xnode_pump(struct lxnode *);
void	 xnode_publish(struct lxnode *, struct lseek *);
void	 xnode_scan(struct lxnode *, int64_t);
void	 xnode_paired(struct lxnode *, int64_t);
void	 xnode_requeue(struct lxnode *);
int	 lobby_xnode_unpublish(struct lobby *, struct lseek *);
void	 xseek_set(struct lseek *, enum lseek_x);

/* lobby-xhold.c */
void	 xhold_sweep(struct lxnode *);
void	 xhold_free(struct lxnode *);
void	 xhold_orphans(struct lxnode *);

#endif /* LOBBY_XNODE_H */
