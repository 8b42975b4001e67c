/*
 * lobby-xnode.c: matchmaking across nodes (issue 15 §2, PROTOCOL.md
 * §13.3, doc/NODES.md).  Only on a node of a shared PostgreSQL database
 * (lobby_xnode_start); on a single SQLite node none of this runs.
 *
 * A node has four connections of its own: the loop's (xwatch's UNLISTEN,
 * xtour's announcement), the seek jobs' (lobby-xseek.c), the seek
 * preparations' (lobby-xhold.c), and one that LISTENs to channel lobby
 * (its socket watched by libevent; made again by sqldb when lost, then
 * every local seek is tried again: what a missed notification said is in
 * the table).
 *
 * A local seek that pairs with no local one is published (table seeks,
 * NOTIFY lobby 'seek ID').  On 'seek N' a node tries each local published
 * seek with id >= N: in one transaction it locks its own row (still
 * unclaimed), picks the oldest compatible row of another node with a
 * smaller id (FOR UPDATE SKIP LOCKED; its own node's too: two published
 * seeks of one node pair so), deletes its own row and marks the other
 * claimed (owner_id; a row of its own node is deleted).  The newer seek's node always claims, and a
 * row is claimed at most once (the lock and owner_id), so exactly one
 * node pairs each seek.  The claiming node starts the game with the other
 * seat away (its lease is the node thread's: the store's writer takes it
 * before the game's first write), writes the game id into the claimed row and
 * NOTIFYs lobby 'paired ID'; the other node sends its player `event
 * redirect HOST:PORT GAME_ID` and deletes the row.  The clocks start when
 * both players are seated, or XNODE_JOIN_MS after the start, whichever
 * comes first; from then on the usual absence rules hold (an away
 * player's clock runs).
 *
 * None of the seek path's statements runs on the loop (lobby-xseek.c's
 * jobs, lobby-xhold.c's preparations); here: the notifications, the
 * tick (retries, holds given back, joins), start and end.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "node/lobby-xnode.h"
#include "lib/log.h"
#include "nodestore/node.h"
#include "db/sqldb.h"
#include "lib/util.h"

/* One notification of channel lobby. */
static void
xnode_note(struct lxnode *xn, const struct sqldb_note *n)
{
	long long	 id;
	char		 c;

	if (strcmp(n->channel, "lobby") != 0) {
		lobby_xwatch_note(xn->lb, n->channel);
		return;
	}
	if (lobby_xtour_note(xn->lb, n->payload))
		return;
	if (sscanf(n->payload, "seek %lld%c", &id, &c) == 1)
		xnode_scan(xn, id);
	else if (sscanf(n->payload, "paired %lld%c", &id, &c) == 1)
		xnode_paired(xn, id);
	else if (sscanf(n->payload, "watch %lld%c", &id, &c) == 1)
		lobby_xwatch_wanted(xn->lb, id);
}

static void	xnode_listen(struct lxnode *);

/* The listener's socket is readable: every notification that came. */
static void
xnode_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lxnode	*xn = arg;
	struct sqldb_note n;
	int		 r;

	(void)fd;
	(void)what;
	while ((r = sqldb_notify_next(xn->ldb, &n)) == SQLDB_ROW)
		xnode_note(xn, &n);
	if (r < 0) {		/* lost: the tick listens again */
		log_warnx("event=xnode-listen error=\"%s\"",
		    sqldb_errmsg(xn->ldb));
		event_free(xn->rd);
		xn->rd = NULL;
	}
}

/* (Re)watches the listener's socket; after a loss, catches up. */
static void
xnode_listen(struct lxnode *xn)
{
	int		 fd;

	if (xn->rd != NULL)
		return;
	if ((fd = sqldb_notify_fd(xn->ldb)) < 0)
		return;		/* unreachable: the next tick */
	xn->rd = event_new(xn->base, fd, EV_READ | EV_PERSIST, xnode_read_cb,
	    xn);
	event_add(xn->rd, NULL);
	/* What a notification missed meanwhile said is in the table. */
	xnode_paired(xn, 0);
	xnode_scan(xn, 0);
	lobby_xwatch_catch_up(xn->lb);
}

/* Starts the clocks of the games paired here whose away player did not
 * come in time; forgets those that started or ended. */
static void
xnode_games(struct lxnode *xn)
{
	struct lobby	*lb = xn->lb;
	struct lgame	*g;
	struct xgame	*x;
	size_t		 i = 0;
	uint64_t	 now = lobby_clock_now(lb);

	while (i < xn->ngames) {
		x = &xn->games[i];
		g = lobby_game(lb, x->game);
		if (g == NULL || lg_over(g) || !g->unseated) {
			xn->games[i] = xn->games[--xn->ngames];
			continue;
		}
		if (now >= x->join_by) {
			log_info("game=%lld event=join-timeout",
			    (long long)g->id);
			g->unseated = 0;
			lg_turn(g);
			xn->games[i] = xn->games[--xn->ngames];
			continue;
		}
		i++;
	}
}

static void
xnode_tick_cb(void *arg)
{
	struct lxnode	*xn = arg;
	struct lobby	*lb = xn->lb;
	struct lseek	*sk;

	xnode_listen(xn);
	xhold_sweep(xn);
	xnode_requeue(xn);
	xhold_orphans(xn);
	if (xn->catch_up) {
		xn->catch_up = 0;
		xnode_paired(xn, 0);
	}
	if (xn->retry) {	/* that claim may have failed: try again */
		xn->retry = 0;
		xnode_scan(xn, 0);
	}
	TAILQ_FOREACH(sk, &lb->seeks, entry)	/* not published yet */
		if (sk->nd->xstate == LSEEK_LOCAL && sk->lc->name[0] != '\0' &&
		    xn->nqueued < XNODE_QUEUE_MAX)
			xnode_publish(xn, sk);
	xnode_games(xn);
	lb->clock.arm(lb->clock.arg, xn->tick, XNODE_TICK_MS);
}

/*
 * Makes lb, a node of the shared database url (PostgreSQL: lobby_set_node
 * was called by the node thread, server-node.c), match seeks across
 * nodes: listens to channel lobby.  Returns 0, or -1 with err.
 */
int
lobby_xnode_start(struct lobby *lb, struct event_base *base, const char *url,
    char *err, size_t errlen)
{
	struct lxnode	*xn;

	if (lnd(lb)->node_id == 0) {
		snprintf(err, errlen, "not a node");
		return (-1);
	}
	if (lb->io.work == NULL) {	/* a job's end must not run at once */
		snprintf(err, errlen, "no workers");
		return (-1);
	}
	xn = xcalloc(1, sizeof *xn);
	xn->lb = lb;
	xn->base = base;
	TAILQ_INIT(&xn->todo);
	TAILQ_INIT(&xn->failed);
	pthread_mutex_init(&xn->pmtx, NULL);
	pthread_mutex_init(&xn->hmtx, NULL);
	if (sqldb_open(url, &xn->db, err, errlen) != 0 ||
	    sqldb_open(url, &xn->jdb, err, errlen) != 0 ||
	    sqldb_open(url, &xn->pdb, err, errlen) != 0 ||
	    sqldb_open(url, &xn->ldb, err, errlen) != 0)
		goto fail;
	/* A preparation waits for a lock a second at most (then it holds
	 * nothing): it holds a worker, and a claim of this node, whose end
	 * needs one, may hold the row it waits for. */
	if (sqldb_busy_timeout(xn->pdb, XHOLD_LOCK_MS) != 0) {
		snprintf(err, errlen, "lock_timeout: %s",
		    sqldb_errmsg(xn->pdb));
		goto fail;
	}
	/* A job too (it holds a worker of the shared pool): a job that
	 * failed is tried again by the tick (xjob_done). */
	if (sqldb_busy_timeout(xn->jdb, XJOB_LOCK_MS) != 0) {
		snprintf(err, errlen, "lock_timeout: %s",
		    sqldb_errmsg(xn->jdb));
		goto fail;
	}
	if (sqldb_listen(xn->ldb, "lobby") != 0) {
		snprintf(err, errlen, "listen: %s", sqldb_errmsg(xn->ldb));
		goto fail;
	}
	lb->nd->xnode = xn;
	lobby_xwatch_init(lb, xn->db, xn->ldb);
	xn->tick = lb->clock.timer_new(lb->clock.arg, xnode_tick_cb, xn);
	lb->clock.arm(lb->clock.arg, xn->tick, XNODE_TICK_MS);
	xnode_listen(xn);
	log_info("event=node id=%lld addr=%s", (long long)lnd(lb)->node_id,
	    lnd(lb)->node_addr);
	return (0);
fail:
	if (xn->db != NULL)
		sqldb_close(xn->db);
	if (xn->jdb != NULL)
		sqldb_close(xn->jdb);
	if (xn->pdb != NULL)
		sqldb_close(xn->pdb);
	pthread_mutex_destroy(&xn->pmtx);
	pthread_mutex_destroy(&xn->hmtx);
	if (xn->ldb != NULL)
		sqldb_close(xn->ldb);
	free(xn);
	return (-1);
}

/* Frees the node's part of lb (lobby_free). */
void
lobby_xnode_free(struct lobby *lb)
{
	struct lxnode	*xn = lnd(lb)->xnode;
	struct xjob	*j;

	if (xn == NULL)
		return;
	lobby_xwatch_free(lb);
	/* The workers are joined: a job that ran has no end now (its open
	 * transaction goes with jdb; the node's rows went when it stopped). */
	if (xn->running != NULL)
		xjob_free(xn->running);
	while ((j = TAILQ_FIRST(&xn->todo)) != NULL) {
		TAILQ_REMOVE(&xn->todo, j, entry);
		xjob_free(j);
	}
	while ((j = TAILQ_FIRST(&xn->failed)) != NULL) {
		TAILQ_REMOVE(&xn->failed, j, entry);
		xjob_free(j);
	}
	if (xn->rd != NULL)
		event_free(xn->rd);
	lb->clock.timer_free(lb->clock.arg, xn->tick);
	sqldb_close(xn->db);
	sqldb_close(xn->jdb);
	sqldb_close(xn->pdb);
	sqldb_close(xn->ldb);
	xhold_free(xn);
	free(xn->orphans);
	pthread_mutex_destroy(&xn->pmtx);
	pthread_mutex_destroy(&xn->hmtx);
	free(xn->games);
	free(xn);
	lb->nd->xnode = NULL;
}
