/*
 * node-ops.c: the node module's door (issue 24 §2).  The lobby reaches
 * node mode only through the lobby_node_ops it fills here, set once on
 * the lobby when the daemon becomes a node (lobby_set_node, by the node
 * thread of server-node.c) or when a drain starts (a single node may
 * drain too: lobby_node_drain); until then lb->nops is NULL and the
 * lobby runs as a single node.  Every operation below does nothing on a
 * single node but what the drain asks.
 *
 * It calls the files of the module it gathers (lobby-node.c,
 * lobby-where.c, lobby-lease.c, lobby-xnode.c, lobby-xhold.c,
 * lobby-xwatch.c, lobby-xtour.c) and lobby-queue.c; server-node.c and
 * cmd-node.c call it.
 */
#include <stdlib.h>

#include "node/lnode-int.h"
#include "node/lobby-xnode.h"
#include "lib/util.h"

/* The node's state, freed after the lobby's games (lobby_free). */
static void
nops_free(struct lobby *lb)
{
	lwhere_free(lb);
	lobby_lease_free(lb);
	lobby_xtour_free(lb);
	lobby_xtread_free(lb);
	free(lb->nd);
	lb->nd = NULL;
	lb->nops = NULL;
}

/* A connection leaves: the games of other nodes it follows, its reads. */
static void
nops_detach(struct lobby_client *lc)
{
	lobby_xunwatch(lc, 0);
	if (lc->nd == NULL)	/* attached before a single node's drain */
		return;
	free(lc->nd->where);
	lobby_where_live_drop(lc);
	free(lc->nd);
	lc->nd = NULL;
}

/* A connection comes: its node state. */
static void
nops_attach(struct lobby_client *lc)
{
	lc->nd = xcalloc(1, sizeof *lc->nd);
}

/*
 * After the nlive event live lines of a login: the account's games on
 * other nodes, a drain's redirect, the scheduler of its tournaments.
 */
static void
nops_login(struct lobby_client *lc, size_t nlive)
{
	nlive += lwhere_login(lc);
	lnode_login(lc, nlive);		/* a draining node: event redirect */
	lobby_xtour_login(lc);		/* a tournament's: its scheduler */
}

/* A published seek is dropped: its row is deleted on a worker. */
static void
nops_seek_gone(struct lobby *lb, struct lseek *sk)
{
	if (sk->nd != NULL && sk->nd->xrow != 0 && lnd(lb)->xnode != NULL)
		(void)lobby_xnode_unpublish(lb, sk);
}

/* A seek is freed: its node state goes. */
static void
nops_seek_free(struct lseek *sk)
{
	free(sk->nd);
	sk->nd = NULL;
}

/* A seek opened: its node state, then its row in table seeks. */
static void
nops_publish(struct lobby *lb, struct lseek *sk)
{
	if (sk->nd == NULL)
		sk->nd = xcalloc(1, sizeof *sk->nd);
	lobby_xnode_publish(lb, sk);
}

/* Whether lc pairs with sk here (a seek of no row: yes). */
static int
nops_may_pair(struct lobby_client *lc, struct lseek *sk)
{
	return (sk->nd == NULL || lobby_xnode_may_pair(lc, sk));
}

/* watch of a game not live here: another node's, or 1 if none follows. */
static int
nops_watch(struct lobby_client *lc, int64_t id, struct lobby_live *lv,
    struct buf *err)
{
	if (lnd(lc->lb)->xwatch == NULL)
		return (1);
	return (lobby_xwatch(lc, id, lv, err));
}

/* Whether this node starts tournament games now (not while draining). */
static int
nops_schedules(struct lobby *lb)
{
	if (lnode_draining(lb))		/* a draining node: no new game */
		return (0);
	return (lobby_xtour_schedules(lb));
}

static const struct lobby_node_ops nops = {
	.free = nops_free,
	.attach = nops_attach,
	.detach = nops_detach,
	.login = nops_login,
	.game_over = lnode_game_over,
	.refuse = lobby_drain_refuse,
	.elsewhere = lwhere_busy,
	.busy = lwhere_held,
	.resume = lwhere_resume,
	.may_pair = nops_may_pair,
	.publish = nops_publish,
	.seek_gone = nops_seek_gone,
	.seek_free = nops_seek_free,
	.watch = nops_watch,
	.unwatch = lobby_xunwatch,
	.watch_here = lobby_xwatch_pre_drop,
	.tour_fresh = lobby_xtour_fresh,
	.tour_batch = lobby_xtour_batch,
	.tour_read_id = lobby_xtour_read_id,
	.tour_pre_apply = lobby_xtour_pre_apply,
	.tour_pre_free = lobby_xtour_pre_free,
	.schedules = nops_schedules,
	.tour_busy = lobby_xtour_busy,
	.called = lobby_xtour_called,
	.uncall = lobby_xtour_uncall,
	.slot_elsewhere = lobby_xtour_remote,
	.slot_here = lobby_xtour_here,
	.tour_free = lobby_xtour_tour_free,
	.restored = lwhere_restored,
	.game_moved = lnode_game_moved,
	.game_lost = lnode_game_lost,
	.game_free = lnode_game_free,
};

/* Node mode on: the lobby calls the operations above from now on. */
static void
lnode_attach(struct lobby *lb)
{
	if (lb->nd == NULL)
		lb->nd = xcalloc(1, sizeof *lb->nd);
	lb->nops = &nops;
}

/*
 * The node this lobby is: its id in the node registry and the HOST:PORT
 * it advertises for redirects (the node thread, before the daemon serves).
 */
void
lobby_set_node(struct lobby *lb, int64_t id, const char *addr)
{
	lnode_attach(lb);
	lb->nd->node_id = id;
	lobby_copy(lb->nd->node_addr, addr != NULL ? addr : "",
	    sizeof(lb->nd->node_addr));
}

/* node drain HOST:PORT: a single node drains too (lobby-node.c). */
int
lobby_node_drain(struct lobby_client *lc, const char *to, struct buf *err)
{
	lnode_attach(lc->lb);
	return (lnode_drain(lc, to, err));
}
