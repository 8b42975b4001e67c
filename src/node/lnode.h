/*
 * lnode.h: node mode, several grundyd on one PostgreSQL (issue 15,
 * doc/NODES.md): what the server and the commands call of the node
 * module (src/node/).  On a single node these do nothing (or refuse
 * nothing); the lobby itself reaches the module only through its
 * lobby_node_ops (lobby-int.h).
 */
#ifndef LNODE_H
#define LNODE_H

#include <stdint.h>

#include "lobby/lobby.h"

struct buf;
struct json;
struct lobby_prep;

/*
 * Several nodes on one database (issue 15, doc/NODES.md): the node this
 * lobby is, its id from the node registry and the HOST:PORT it
 * advertises for redirects.  Id 0 (the default) is a single node (SQLite),
 * where nothing of the nodes runs.
 */
void	 lobby_set_node(struct lobby *, int64_t, const char *);
/*
 * Matchmaking across the nodes of shared database url (PostgreSQL;
 * lobby-xnode.c, PROTOCOL.md §13.3), once the node thread named the node
 * (lobby_set_node): listens for the other nodes' seeks.  Returns 0, or -1
 * with err.  lobby_xnode_free before lobby_free.
 */
int	 lobby_xnode_start(struct lobby *, struct event_base *, const char *,
	    char *, size_t);
void	 lobby_xnode_free(struct lobby *);

/*
 * nw (lobby-lease.c): this node lost game id's lease: the game stops, no
 * result is sent, its players get `event redirect HOST:PORT GAME_ID`
 * (addr, the new owner) or `event lost GAME_ID` (addr NULL).  And the
 * scheduler's lock, taken (1) or lost (0): lobby_schedule runs only on
 * the node holding it.
 */
void	 lobby_lease_lost(struct lobby *, int64_t, const char *);
void	 lobby_set_leader(struct lobby *, int);
size_t	 lobby_logged_ids(struct lobby *, int64_t *, size_t);

/* On a worker, after a login: the account's live games on other nodes,
 * for lobby_login_live (lobby-where.c; a single node: nothing). */
void	 lobby_where_fetch(struct lobby_client *, const char *);

/*
 * The cluster's live games refereed on other nodes (lobby-where.c), for
 * `games live` and the web's live lists: read on a worker (live: 0, or
 * -1; nothing on a single node), then on the loop mark sets
 * where[i].game to 0 for each game not refereed elsewhere (a game this
 * node referees, or has just ended, is listed from the lobby instead).
 * live_prefetch reads them for `games live` before it runs on the loop
 * (cmd_prep_run), live_take hands them to the command, marked (NULL:
 * none read).
 */
struct store_elsewhere;
int	 lobby_where_cluster(const struct lobby *);
int	 lobby_where_live(struct lobby *, struct store_elsewhere *);
void	 lobby_where_mark(struct lobby *, struct store_elsewhere *);
void	 lobby_where_live_prefetch(struct lobby_client *);
struct store_elsewhere *lobby_where_live_take(struct lobby_client *);

/* A node's drain (lobby-node.c, PROTOCOL.md §13.12; admin). */
struct lobby_node_status {
	const char	*drain_to;	/* HOST:PORT, or NULL: serving */
	uint64_t	 redirected;	/* event redirect sent in this drain */
	size_t		 games;		/* live games (ending ones included) */
	size_t		 players;	/* logged-in connections */
};
int	 lobby_node_drain(struct lobby_client *, const char *, struct buf *);
int	 lobby_node_undrain(struct lobby_client *, struct buf *);
void	 lobby_node_status(struct lobby_client *, struct lobby_node_status *);
/* Refuses a change of a tournament on a node that does not schedule
 * them (lobby-xtour.c, PROTOCOL.md §13.12). */
int	 lobby_xtour_refuse(struct lobby_client *, struct buf *);

/* Refuses a new game while the node drains ("node draining: ..."). */
int	 lobby_drain_refuse(const struct lobby_client *, struct buf *);

/*
 * The web's feed of a live game of another node (lobby-xfeed.c): fetch
 * reads it on a worker (pre_live: live on another node), open follows it
 * (its moves so far go to the feed hook at once, then each as it is
 * committed, then its end) and returns 0, -1 if it is not live on
 * another node (or one node only), or -2 with err if it cannot be
 * followed now (the limit, the database); close stops; web writes its
 * summary as logged (live 0) or its live game (live 1) and returns 1, or
 * returns 0 if it is not followed.
 */
/* lobby-xtread.c: a follower's read of the tournaments before a reader
 * (a command's preparation, a page): made on the loop, read on a worker,
 * applied (and freed) on the loop. */
struct xtour_pre;
struct xtour_pre *lobby_xtour_pre(struct lobby *, const char *);
void	 lobby_xtour_pre_read(struct xtour_pre *);
void	 lobby_xtour_pre_apply(struct xtour_pre *);
void	 lobby_xtour_pre_free(struct xtour_pre *);

struct xwatch_pre;
int	 lobby_xfeed_remote(const struct lobby *);
struct xwatch_pre *lobby_xfeed_fetch(struct lobby *, int64_t);
int	 lobby_xfeed_pre_live(const struct lobby *, const struct xwatch_pre *);
void	 lobby_xfeed_pre_free(struct xwatch_pre *);
int	 lobby_xfeed_open(struct lobby *, struct xwatch_pre *, struct buf *);
/* watch of another node's game: read on a worker first (lobby-xwatch.c). */
int	 lobby_xwatch_needs_fetch(struct lobby_client *, const char *);
void	 lobby_xwatch_prefetch(struct lobby_client *, const char *);
/* seek on a node: its rows held on a worker first (lobby-xhold.c). */
void	 lobby_xnode_prepare(struct lobby_client *, int, char **,
	    const struct lobby_prep *);
void	 lobby_xnode_seek_end(struct lobby_client *);
void	 lobby_xfeed_close(struct lobby *, int64_t);
int	 lobby_xfeed_web(struct lobby *, int64_t, int, struct json *);

/*
 * A live game of this node whose first moves the web's feed lacks (it
 * was restored from the log): its logged moves 1 to PLY (0: to its ply
 * now) to the hook; 0, or -1 if the log does not have them.
 */
int	 lobby_xfeed_backfill(struct lobby *, int64_t, unsigned long);

#endif /* LNODE_H */
