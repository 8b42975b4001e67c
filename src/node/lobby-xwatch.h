/*
 * lobby-xwatch.h: a game of another node that this node follows
 * (lobby-xwatch.c), for its `watch` spectators and for the web's feed
 * (lobby-xfeed.c, which calls lobby-xwatch.c, never the other way
 * round).  Internal to those two files.
 */
#ifndef LOBBY_XWATCH_H
#define LOBBY_XWATCH_H

#include <stdint.h>

#include "solver/game.h"
#include "nodestore/nodestore.h"
#include "db/sqldb.h"
#include "node/lnode-int.h"
#include "store/store.h"

#define XWATCH_MAX	(SQLDB_LISTEN_MAX - 1)	/* channel lobby is one */

struct lobby;
struct lobby_client;

struct xwatch {
	int64_t		 id;
	struct lobby_client **lcs;
	size_t		 n;
	int		 feed;		/* the web's feed follows it too */
	uint64_t	 ply;		/* moves sent */
	uint64_t	 clock_us[2];
	uint64_t	 inc_us;
	uint64_t	 base_ms;
	int		 engine[2];
	int		 rated;
	char		*p[2];
	char		*family;
	char		*tour;		/* its tournament's name, or NULL */
	char		*summary;	/* its summary's JSON (§14.2), as logged */
	char		*start;
	char		*position;	/* after ply */
	struct game	 game;		/* position parsed, for watch's answer */
	int		 busy;		/* a catch-up read is on a worker */
	int		 again;		/* notified meanwhile: read again */
	int		 deaf;		/* its LISTEN failed: tried again */
};

/*
 * What a worker read of a game before this node follows it (the loop
 * never waits for the database): its lease, then, when another node
 * holds it, its record.
 */
struct xwatch_pre {
	int64_t		 id;
	int		 lease;		/* lease state, or -1 */
	struct lease	 l;
	int		 rc;		/* store_record's; 0: not read */
	struct store_record r;
	char		*tour;		/* its tournament's name, or NULL */
};

struct xwatch_job;

struct lxwatch {
	struct xwatch	 w[XWATCH_MAX];
	size_t		 n;
	struct clock_timer *announce;	/* "watch ID" again, now and then */
	struct xwatch_job *jobs;	/* catch-up reads in flight */
	/* LISTEN (on 1) or UNLISTEN a channel on the listening connection,
	 * on a worker in the order asked, done on the loop after: the
	 * matchmaker's, who owns that connection (lobby_xwatch_init). */
	lnode_listen_fn	*listen;
};

struct xwatch *lobby_xwatch_find(struct lobby *, int64_t);
int	 lobby_xwatch_follow(struct lobby *, struct xwatch_pre *,
	    struct xwatch **, struct buf *);
void	 lobby_xwatch_fetch(struct lobby *, int64_t, struct xwatch_pre *);
void	 lobby_xwatch_pre_free(struct xwatch_pre *);
void	 lobby_xwatch_apply(struct lobby *, struct xwatch *,
	    const struct store_record *);
void	 lobby_xwatch_release(struct lobby *, struct xwatch *);
void	 lobby_xwatch_feed_move(struct lobby *, const struct xwatch *,
	    const struct store_rmove *, const uint64_t *);

#endif
