/*
 * lobby-xnode.c: matchmaking across nodes (issue 15 §2, PROTOCOL.md
 * §13.3, doc/NODES.md).  Only on a node of a shared PostgreSQL database
 * (lobby_xnode_start); on a single SQLite node none of this runs.
 *
 * A node has four connections of its own: xtour's announcement's (a
 * worker's, one at a time), the seek jobs' (lobby-xseek.c), the seek
 * preparations' (lobby-xhold.c), and one that LISTENs to channel lobby
 * (its socket watched by libevent; made again by sqldb when lost, then
 * every local seek is tried again: what a missed notification said is in
 * the table).  The listening connection's own statements (LISTEN and
 * UNLISTEN of a watched game's channel, a reconnection) run on a worker,
 * one at a time in the order asked (xnode_listen_ch); meanwhile the
 * loop leaves it alone and reads what came once the statement is done.
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

/*
 * One statement of the listening connection, run on a worker (the loop
 * never waits for the database): LISTEN or UNLISTEN a channel, or make
 * sure it is connected (its socket; a lost one is made again there).
 */
enum xlisten_op { XL_LISTEN, XL_UNLISTEN, XL_FD };

struct xlisten {
	struct xlisten	*next;
	struct lxnode	*xn;
	enum xlisten_op	 op;
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	int		 rc;		/* sqldb's, or the socket */
	char		 err[160];
	void		(*done)(struct lobby *, const char *, int);
};

static void	xlisten_pump(struct lxnode *);

/* Every notification that came on the listener's connection. */
static void
xnode_drain(struct lxnode *xn)
{
	struct sqldb_note n;
	int		 r;

	while ((r = sqldb_notify_next(xn->ldb, &n)) == SQLDB_ROW)
		xnode_note(xn, &n);
	if (r < 0) {		/* lost: the tick listens again */
		log_warnx("event=xnode-listen error=\"%s\"",
		    sqldb_errmsg(xn->ldb));
		event_free(xn->rd);
		xn->rd = NULL;
	}
}

/* The listener's socket is readable. */
static void
xnode_read_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	xnode_drain(arg);
}

/* On a worker: statement l on ldb (nothing else uses ldb meanwhile). */
static void
xlisten_work(void *arg)
{
	struct xlisten	*l = arg;
	struct sqldb	*ldb = l->xn->ldb;

	if (l->op == XL_LISTEN)
		l->rc = sqldb_listen(ldb, l->ch);
	else if (l->op == XL_UNLISTEN)
		l->rc = sqldb_unlisten(ldb, l->ch);
	else
		l->rc = sqldb_notify_fd(ldb);
	if (l->rc < 0)
		snprintf(l->err, sizeof l->err, "%s", sqldb_errmsg(ldb));
}

/* The socket l found (XL_FD): watched; what was missed is caught up. */
static void
xlisten_watch(struct lxnode *xn, const struct xlisten *l)
{
	if (l->rc < 0)
		return;		/* unreachable: the next tick */
	xn->rd = event_new(xn->base, l->rc, EV_READ | EV_PERSIST,
	    xnode_read_cb, xn);
	event_add(xn->rd, NULL);
	/* What a notification missed meanwhile said is in the table. */
	xnode_paired(xn, 0);
	xnode_scan(xn, 0);
	lobby_xwatch_catch_up(xn->lb);
}

/* Back on the loop: ldb is the loop's again; the next statement. */
static void
xlisten_done(void *arg)
{
	struct xlisten	*l = arg;
	struct lxnode	*xn = l->xn;

	xn->lrun = NULL;
	if (l->op == XL_FD)
		xlisten_watch(xn, l);
	else {
		if (l->rc < 0)
			log_warnx("event=xnode-%s channel=%s error=\"%s\"",
			    l->op == XL_LISTEN ? "listen" : "unlisten", l->ch,
			    l->err);
		if (xn->rd != NULL) {	/* what came meanwhile */
			event_add(xn->rd, NULL);
			xnode_drain(xn);
		}
		if (l->done != NULL)
			l->done(xn->lb, l->ch, l->rc);
	}
	free(l);
	xlisten_pump(xn);
}

/* Starts the next statement of ldb if none runs. */
static void
xlisten_pump(struct lxnode *xn)
{
	struct xlisten	*l;

	if (xn->lrun != NULL || (l = xn->lq) == NULL)
		return;
	xn->lq = l->next;
	xn->lrun = l;
	if (xn->rd != NULL)	/* the worker's until xlisten_done */
		event_del(xn->rd);
	lobby_work(xn->lb, xlisten_work, xlisten_done, l);
}

/* Queues statement op of channel ch (done, if any, on the loop after). */
static void
xlisten_add(struct lxnode *xn, enum xlisten_op op, const char *ch,
    void (*done)(struct lobby *, const char *, int))
{
	struct xlisten	*l, **lp;

	if (xn->closing)
		return;
	l = xcalloc(1, sizeof *l);
	l->xn = xn;
	l->op = op;
	snprintf(l->ch, sizeof l->ch, "%s", ch != NULL ? ch : "");
	l->done = done;
	for (lp = &xn->lq; *lp != NULL; lp = &(*lp)->next)
		;
	*lp = l;
	xlisten_pump(xn);
}

/*
 * LISTEN (on) or UNLISTEN channel ch on the listening connection, on a
 * worker, in the order asked; done(lb, ch, rc) on the loop after it
 * (rc: sqldb_listen's or sqldb_unlisten's).
 */
static void
xnode_listen_ch(struct lobby *lb, const char *ch, int on,
    void (*done)(struct lobby *, const char *, int))
{
	if (lnd(lb)->xnode != NULL)
		xlisten_add(lnd(lb)->xnode, on ? XL_LISTEN : XL_UNLISTEN, ch,
		    done);
}

/* (Re)watches the listener's socket (found on a worker); after a loss,
 * catches up. */
static void
xnode_listen(struct lxnode *xn)
{
	struct xlisten	*l;

	if (xn->rd != NULL)
		return;
	if (xn->lrun != NULL && xn->lrun->op == XL_FD)
		return;
	for (l = xn->lq; l != NULL; l = l->next)
		if (l->op == XL_FD)
			return;
	xlisten_add(xn, XL_FD, NULL, NULL);
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
	lobby_xwatch_init(lb, xn->db, xnode_listen_ch);
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
	struct xlisten	*l;
	struct xjob	*j;

	if (xn == NULL)
		return;
	xn->closing = 1;	/* the watches' UNLISTENs go with ldb */
	lobby_xwatch_free(lb);
	free(xn->lrun);		/* the workers are joined */
	while ((l = xn->lq) != NULL) {
		xn->lq = l->next;
		free(l);
	}
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
