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

/* lobby-lease.c (calls lobby-game.c, lobby-tour.c, lobby-feed.c,
 * lobby-queue.c) */
void	 lobby_lease_free(struct lobby *);

/* lobby-node.c (calls lobby-queue.c): a node's drain */
int	 lnode_draining(const struct lobby *);
void	 lnode_game_over(struct lobby_client *);
void	 lnode_login(struct lobby_client *, size_t);
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
int	 lobby_xnode_seated(struct lgame *);

/* lobby-xwatch.c (calls lobby-queue.c): spectating across nodes */
void	 lobby_xwatch_init(struct lobby *, struct sqldb *, struct sqldb *);
void	 lobby_xwatch_free(struct lobby *);
void	 lobby_xwatch_note(struct lobby *, const char *);
void	 lobby_xwatch_catch_up(struct lobby *);
int	 lobby_xwatch(struct lobby_client *, int64_t, struct lobby_live *,
	    struct buf *);
void	 lobby_xunwatch(struct lobby_client *, int64_t);
void	 lobby_xwatch_pre_drop(struct lobby_client *);
void	 lobby_xwatch_wanted(struct lobby *, int64_t);

/* lobby-xtour.c (calls lobby-tour.c, lobby-game.c, lobby-queue.c):
 * tournaments across nodes */
void	 lobby_xtour_free(struct lobby *);
void	 lobby_xtour_leader(struct lobby *, int);
int	 lobby_xtour_note(struct lobby *, const char *);
void	 lobby_xtour_fresh(struct lobby *, const char *);
void	 lobby_xtour_fresh_id(struct lobby *, int64_t);
void	 lobby_xtour_batch(struct lobby *, int);
void	 lobby_xtour_login(struct lobby_client *);
int	 lobby_xtour_schedules(struct lobby *);
int	 lobby_xtour_busy(struct lobby *, const char *);
int	 lobby_xtour_called(struct lobby *, struct lslot *);

#endif /* LNODE_INT_H */
