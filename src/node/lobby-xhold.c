/*
 * lobby-xhold.c: a seek's rows in table seeks, taken by its preparation
 * on a worker (issue 15 §2, PROTOCOL.md §13.3, doc/NODES.md).
 *
 * A seek runs in two steps (cmd_prep_run, then the command on the loop).
 * On a node the first step, on a worker, also holds rows for it, so that
 * the command on the loop decides at once without a database round trip:
 * the oldest compatible published seek of this node of another account
 * (lobby_seek may then pair with it at once, as on a single node), or
 * else the seek's own row, written now (so a seek is in the table, in
 * order, by the time its reply is sent).  A partner's row held has
 * created_ms 0: no claim takes it, nor does another preparation; a seek's
 * own row has -1 until its command opens it (on a worker, with the time):
 * no claim takes it, but a preparation here may hold it (a seek that
 * follows at once pairs at once, as on one node).  The command then uses
 * them (lobby_xnode_may_pair, lobby_xnode_publish) and gives back what it
 * did not use (lobby_xnode_seek_end: on a worker, the partner's row gets
 * its created_ms again, the own row is deleted); a hold whose command never
 * ran (its connection closed) is given back by the second tick.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "node/lobby-xnode.h"
#include "lib/log.h"
#include "nodestore/seeks.h"
#include "proto/proto.h"
#include "db/sqldb.h"
#include "lib/util.h"

/*
 * The terms of a seek line's options into t (the defaults of lb's
 * settings): -1 for a seek that holds nothing (of the engine, with a seat,
 * or an option the command refuses).
 */
static int
xhold_terms(const struct lobby *lb, int argc, char **argv, struct lseek *t)
{
	const char	*v;
	int		 i, k;

	t->base_ms = lb->conf.default_base_ms;
	t->inc_ms = lb->conf.default_inc_ms;
	t->rated = 1;
	t->random = 0;
	for (i = 0; i < argc; i++) {
		switch ((k = lobby_offer_opt(argv[i], &v))) {
		case LOBBY_OPT_TC:
			if (proto_parse_tc(v, &t->base_ms, &t->inc_ms))
				return (-1);
			break;
		case LOBBY_OPT_RATED:
		case LOBBY_OPT_RANDOM:
			if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
				return (-1);
			*(k == LOBBY_OPT_RATED ? &t->rated : &t->random) =
			    v[0] - '0';
			break;
		case LOBBY_OPT_OPPONENT:
			if (strcmp(v, "any") != 0)
				return (-1);
			break;
		case LOBBY_OPT_SEAT:
			return (-1);
		default:
			break;
		}
	}
	return (0);
}

/* Takes hold h out of the list (its rows were not committed). */
static void
xhold_unlist(struct lxnode *xn, struct xhold *h)
{
	struct xhold	**hp;

	pthread_mutex_lock(&xn->hmtx);
	for (hp = &xn->holds; *hp != NULL && *hp != h; hp = &(*hp)->next)
		;
	if (*hp != NULL)
		*hp = h->next;
	pthread_mutex_unlock(&xn->hmtx);
}

/*
 * The seek's rows, in one transaction on pdb (pmtx held): 0 or -1, h
 * listed in xn->holds on success.  The
 * partner's row is locked waiting (not SKIP LOCKED: a job of this node
 * opening it holds it a moment, and a seek that follows another at once
 * must pair at once, as on one node; a claim that took it leaves no row
 * to hold), XHOLD_LOCK_MS at most (pdb's lock_timeout): then, as on any
 * failure, the seek holds nothing and is published by a job.  Only one
 * preparation waits so (pmtx, tried: the others hold nothing), and a job
 * holds a lock XJOB_LOCK_MS at most per statement (jdb's lock_timeout).
 */
static int
xhold_tx(struct lxnode *xn, const char *name, const struct lseek *t,
    struct xhold *h)
{
	struct seek_terms st = { t->spec, t->random, t->rated, t->base_ms,
			    t->inc_ms };
	struct seek_hold held;

	if (seeks_hold(xn->pdb, lnd(xn->lb)->node_id, name, &st, &held) != 0)
		return (-1);
	h->partner = held.partner;
	h->partner_ms = held.partner_ms;
	h->row = held.row;
	/* listed before its rows are seen (xhold_orphans) */
	pthread_mutex_lock(&xn->hmtx);
	h->next = xn->holds;
	xn->holds = h;
	pthread_mutex_unlock(&xn->hmtx);
	if (seeks_commit(xn->pdb) != 0) {
		xhold_unlist(xn, h);
		return (-1);
	}
	return (0);
}

/*
 * On a worker, after seek line argv's game was prepared into p (its
 * connection lc is busy: the loop does not touch it): holds lc's rows.
 */
void
lobby_xnode_prepare(struct lobby_client *lc, int argc, char **argv,
    const struct lobby_prep *p)
{
	struct lobby	*lb = lc->lb;
	struct lxnode	*xn = lnd(lb)->xnode;
	struct xhold	*h;
	struct lseek	 t;
	struct buf	 spec;

	memset(&t, 0, sizeof t);
	if (xn == NULL || lc->name[0] == '\0' || !p->ok || lc->game != NULL ||
	    xhold_terms(lb, argc, argv, &t) != 0)
		return;
	buf_init(&spec);
	game_print(&p->tmpl, &spec);
	t.spec = (char *)buf_str(&spec);
	h = xcalloc(1, sizeof *h);
	h->connid = lc->connid;
	if (pthread_mutex_trylock(&xn->pmtx) != 0) {
		/* another preparation has pdb (it may wait for a lock):
		 * never wait here, on a worker of the shared pool; the seek
		 * holds nothing and is published by a job */
		log_info("event=xnode-hold-busy conn=%llu",
		    (unsigned long long)lc->connid);
		free(h);
		buf_free(&spec);
		return;
	}
	if (xhold_tx(xn, lc->name, &t, h) != 0) {
		log_warnx("event=xnode-db what=hold error=\"%s\"",
		    sqldb_errmsg(xn->pdb));
		free(h);
		h = NULL;
	}
	pthread_mutex_unlock(&xn->pmtx);
	buf_free(&spec);
}

/* Takes connid's hold out of the list (the newest), or NULL. */
static struct xhold *
xhold_take(struct lxnode *xn, uint64_t connid)
{
	struct xhold	**hp, *h;

	pthread_mutex_lock(&xn->hmtx);
	for (hp = &xn->holds; (h = *hp) != NULL && h->connid != connid;
	    hp = &h->next)
		;
	if (h != NULL)
		*hp = h->next;
	pthread_mutex_unlock(&xn->hmtx);
	return (h);
}

/* Gives back what hold h still has, on a worker, and frees it. */
static void
xhold_release(struct lxnode *xn, struct xhold *h)
{
	struct xjob	*j;

	if (h->partner != 0) {
		j = xjob_new(xn, XJ_RESTORE, NULL, h->partner, 0);
		j->game = h->partner_ms;
	}
	if (h->row != 0)
		xjob_new(xn, XJ_UNPUBLISH, NULL, h->row, 0);
	free(h);
	xnode_pump(xn);
}

/*
 * lobby_seek's check of the open seek sk its seek matched: may lc's seek
 * pair with it at once?  Yes if sk is not published, or if its row is the
 * one lc's preparation holds (no node can claim it); no for any other
 * published seek (it pairs through the table).
 */
int
lobby_xnode_may_pair(struct lobby_client *lc, struct lseek *sk)
{
	struct lxnode	*xn = lnd(lc->lb)->xnode;
	struct xhold	*h;
	int		 ok = 0;

	if (sk->nd->xrow == 0)
		return (1);
	if (xn == NULL || sk->nd->xrow < 0)
		return (0);
	pthread_mutex_lock(&xn->hmtx);
	for (h = xn->holds; h != NULL && h->connid != lc->connid; h = h->next)
		;
	if (h != NULL && h->partner == sk->nd->xrow)
		ok = 1;
	pthread_mutex_unlock(&xn->hmtx);
	/* sk is left as it is until the pairing started: then its drop
	 * deletes the row (lobby_xnode_unpublish, or its claim's end), and
	 * the hold's give-back finds nothing; if the pairing failed, the
	 * give-back opens the row again for sk, still published */
	return (ok);
}

/* The own row connid's preparation holds (lobby_xnode_publish), or 0. */
static int64_t
xhold_take_row(struct lxnode *xn, uint64_t connid)
{
	struct xhold	*h;
	int64_t		 row = 0;

	pthread_mutex_lock(&xn->hmtx);
	for (h = xn->holds; h != NULL && h->connid != connid; h = h->next)
		;
	if (h != NULL) {
		row = h->row;
		h->row = 0;
	}
	pthread_mutex_unlock(&xn->hmtx);
	return (row);
}

/*
 * Publishes local seek sk (lobby_seek: it paired with none here): opens
 * the row its preparation holds, or else writes one, on a worker.
 */
void
lobby_xnode_publish(struct lobby *lb, struct lseek *sk)
{
	struct lxnode	*xn = lnd(lb)->xnode;
	int64_t		 row;

	if (xn == NULL || sk->lc->name[0] == '\0')
		return;
	if ((row = xhold_take_row(xn, sk->lc->connid)) == 0) {
		xnode_publish(xn, sk);
		return;
	}
	sk->nd->xrow = row;
	xseek_set(sk, LSEEK_PUBLISHING);
	xjob_new(xn, XJ_OPEN, sk, row, 0);
	xnode_pump(xn);
}

/* The end of lc's seek command: gives back what its preparation held. */
void
lobby_xnode_seek_end(struct lobby_client *lc)
{
	struct lxnode	*xn = lnd(lc->lb)->xnode;
	struct xhold	*h;

	while (xn != NULL && (h = xhold_take(xn, lc->connid)) != NULL)
		xhold_release(xn, h);
}

/* Each tick: gives back the holds whose command never ran. */
void
xhold_sweep(struct lxnode *xn)
{
	struct xhold	**hp, *h, *old = NULL;

	pthread_mutex_lock(&xn->hmtx);
	for (hp = &xn->holds; (h = *hp) != NULL; ) {
		if (++h->ticks < 2) {
			hp = &h->next;
			continue;
		}
		*hp = h->next;
		h->next = old;
		old = h;
	}
	pthread_mutex_unlock(&xn->hmtx);
	while ((h = old) != NULL) {
		old = h->next;
		log_info("event=xnode-hold-expired conn=%llu",
		    (unsigned long long)h->connid);
		xhold_release(xn, h);
	}
}

/* Frees the holds (the workers are joined; the rows go with the node). */
void
xhold_free(struct lxnode *xn)
{
	struct xhold	*h;

	while ((h = xn->holds) != NULL) {
		xn->holds = h->next;
		free(h);
	}
}

/* Adds row id (> 0) to j's rows owned here. */
static void
xsweep_own(struct xjob *j, int64_t id)
{
	if (id <= 0)
		return;
	j->own = xreallocarray(j->own, j->nown + 1, sizeof *j->own);
	j->own[j->nown++] = id;
}

static int
xsweep_has(const int64_t *v, size_t n, int64_t id)
{
	size_t		 i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return (1);
	return (0);
}

static int	xwork_sweep(struct lxnode *, struct xjob *);
static void	xdone_sweep(struct lxnode *, struct xjob *);

/*
 * Every XSWEEP_TICKS ticks: a job looks for this node's held rows
 * (created_ms 0 or -1) that nothing here owns (a hold, a seek, a job: a
 * give-back that failed is tried again, but a row may still be left, and
 * then no claim nor preparation could ever take it).  What it owns is
 * read here, on the loop; a hold is listed before its rows are committed
 * (xhold_tx), so a row the job sees unowned twice in a row, in two
 * sweeps, is owned by nothing: it is deleted then.
 */
void
xhold_orphans(struct lxnode *xn)
{
	struct xjob	*j, *k;
	struct xhold	*h;
	struct lseek	*sk;

	if (xn->sweeping || ++xn->ticks % XSWEEP_TICKS != 0)
		return;
	j = xjob_new(xn, XJ_SWEEP, NULL, 0, 0);
	j->work = xwork_sweep;
	j->done = xdone_sweep;
	pthread_mutex_lock(&xn->hmtx);
	for (h = xn->holds; h != NULL; h = h->next) {
		xsweep_own(j, h->partner);
		xsweep_own(j, h->row);
	}
	pthread_mutex_unlock(&xn->hmtx);
	TAILQ_FOREACH(sk, &xn->lb->seeks, entry)
		xsweep_own(j, sk->nd->xrow);
	TAILQ_FOREACH(k, &xn->todo, entry) {
		xsweep_own(j, k->row);
		xsweep_own(j, k->c.id);
	}
	TAILQ_FOREACH(k, &xn->failed, entry) {
		xsweep_own(j, k->row);
		xsweep_own(j, k->c.id);
	}
	if ((k = xn->running) != NULL) {
		xsweep_own(j, k->row);
		xsweep_own(j, k->c.id);
	}
	j->prev = xn->orphans;
	j->nprev = xn->norphans;
	xn->orphans = NULL;
	xn->norphans = 0;
	xn->sweeping = 1;
	xnode_pump(xn);
}

/* On a worker: job j's sweep.  Returns 1, or -1. */
static int
xwork_sweep(struct lxnode *xn, struct xjob *j)
{
	int64_t		 ids[XSWEEP_MAX];
	size_t		 n = 0, i;

	if (seeks_held(xn->jdb, lnd(xn->lb)->node_id, ids, XSWEEP_MAX, &n) != 0)
		goto fail;
	j->seen = xcalloc(n > 0 ? n : 1, sizeof *j->seen);
	for (i = 0; i < n; i++) {
		if (xsweep_has(j->own, j->nown, ids[i]))
			continue;
		if (!xsweep_has(j->prev, j->nprev, ids[i])) {
			j->seen[j->nseen++] = ids[i];	/* the next sweep */
			continue;
		}
		if (seeks_drop_held(xn->jdb, ids[i]) < 0)
			goto fail;
		log_warnx("event=xnode-orphan row=%lld deleted",
		    (long long)ids[i]);
	}
	return (1);
fail:
	log_warnx("event=xnode-db what=sweep error=\"%s\"",
	    sqldb_errmsg(xn->jdb));
	return (-1);
}

/* On the loop: the sweep is done; its unowned rows, for the next one. */
static void
xdone_sweep(struct lxnode *xn, struct xjob *j)
{
	xn->sweeping = 0;
	if (j->rc != 1)
		return;
	xn->orphans = j->seen;
	xn->norphans = j->nseen;
	j->seen = NULL;
}
