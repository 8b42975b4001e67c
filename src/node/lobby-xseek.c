/*
 * lobby-xseek.c: the seek path across nodes on workers (issue 15 §2,
 * PROTOCOL.md §13.3, doc/NODES.md): a seek's life cycle (xseek_set), its
 * jobs (publish, claim, withdraw, the rows paired elsewhere) and their
 * ends on the loop.
 */
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "node/lobby-xnode.h"
#include "lib/log.h"
#include "nodestore/seeks.h"
#include "nodestore/node.h"
#include "db/sqldb.h"
#include "lib/util.h"

static int64_t
xnode_now(void)
{
	return ((int64_t)clock_wall_ms());
}

static void
xnode_warn(struct lxnode *xn, struct sqldb *db, const char *what)
{
	(void)xn;
	log_warnx("event=xnode-db what=%s error=\"%s\"", what,
	    sqldb_errmsg(db));
}

static const char *const xseek_names[] = { LSEEK_XSTATES(ENUM_X_NAME) };

/* The only place a seek's state across nodes changes. */
void
xseek_set(struct lseek *sk, enum lseek_x to)
{
	if (sk->nd->xstate != to)
		log_info("event=xseek seek=%llu row=%lld state=%s->%s",
		    (unsigned long long)sk->id, (long long)sk->nd->xrow,
		    xseek_names[sk->nd->xstate], xseek_names[to]);
	sk->nd->xstate = to;
}

/* The open seek with id (0: any), whose row is row (0: any), or NULL. */
static struct lseek *
xseek_find(struct lobby *lb, uint64_t id, int64_t row)
{
	struct lseek	*sk;

	TAILQ_FOREACH(sk, &lb->seeks, entry)
		if ((id == 0 || sk->id == id) &&
		    (row == 0 || sk->nd->xrow == row))
			return (sk);
	return (NULL);
}

/* The terms of seek t, for table seeks (t's spec is borrowed). */
static struct seek_terms
xnode_terms(const struct lseek *t)
{
	struct seek_terms st;

	st.spec = t->spec;
	st.random = t->random;
	st.rated = t->rated;
	st.base_ms = t->base_ms;
	st.inc_ms = t->inc_ms;
	return (st);
}

/* Row r of table seeks into the lobby's copy x. */
static void
xnode_row(struct xrow *x, const struct seek_row *r)
{
	x->id = r->id;
	x->owner = r->owner;
	x->game = r->game;
	x->node = r->node;
	lobby_copy(x->player, r->player, sizeof x->player);
}

/* On a worker: publishes j's seek (table seeks, NOTIFY lobby 'seek ID'). */
static int
xwork_publish(struct lxnode *xn, struct xjob *j)
{
	struct seek_terms t = xnode_terms(&j->terms);

	if (seeks_publish(xn->jdb, lnd(xn->lb)->node_id, j->player, &t,
	    xnode_now(), &j->row) != 0) {
		xnode_warn(xn, xn->jdb, "publish");
		return (-1);
	}
	return (1);
}

/*
 * On a worker, the claim's first half (seeks_claim: j's row and the
 * oldest row of a live node it may pair with, locked): returns 1 with
 * j->c the locked candidate and the transaction left open (XJ_CLAIM_END
 * is the next job: the loop decides), 0 when there is nothing to claim,
 * -1 on failure.
 */
static int
xwork_claim(struct lxnode *xn, struct xjob *j)
{
	struct seek_terms t = xnode_terms(&j->terms);
	struct seek_row	 c;
	int		 r;

	memset(&c, 0, sizeof c);
	r = seeks_claim(xn->jdb, j->row, j->player, &t, xnode_now(), &c,
	    &j->retry);
	xnode_row(&j->c, &c);
	return (r);
}

/* On a worker, the claim's second half: 1 committed, 0 rolled back, -1. */
static int
xwork_claim_end(struct lxnode *xn, struct xjob *j)
{
	return (seeks_claim_end(xn->jdb, lnd(xn->lb)->node_id, j->row, j->c.id,
	    j->local, j->commit));
}

/* On a worker: this node's rows paired elsewhere (j->row, or up to 64),
 * each with its owner's address, deleted once read. */
static int
xwork_paired(struct lxnode *xn, struct xjob *j)
{
	struct node_info ni;
	struct seek_row	 r;
	struct xpaired	*p;
	int64_t		 ids[SEEKS_LIST_MAX];
	size_t		 n = 0, i;
	int		 k;

	if ((ids[0] = j->row) != 0)
		n = 1;
	else
		n = seeks_paired_ids(xn->jdb, lnd(xn->lb)->node_id, ids);
	j->p = xcalloc(n > 0 ? n : 1, sizeof *j->p);
	for (i = 0; i < n; i++) {
		p = &j->p[j->np];
		memset(&r, 0, sizeof r);
		if ((k = seeks_paired_read(xn->jdb, ids[i], lnd(xn->lb)->node_id,
		    &r)) < 0) {
			xnode_warn(xn, xn->jdb, "paired-read");
			continue;
		}
		if (k == 0)
			continue;
		xnode_row(&p->p, &r);
		if (node_get(xn->jdb, p->p.owner, &ni) != 1) {
			xnode_warn(xn, xn->jdb, "paired-node");
			continue;
		}
		lobby_copy(p->addr, ni.addr, sizeof p->addr);
		seeks_delete(xn->jdb, ids[i]);
		j->np++;
	}
	return (1);
}

/*
 * On a worker: opens held row j->row (XJ_OPEN: with the seek's terms, as
 * of now; XJ_RESTORE: as it was, created_ms j->game) and NOTIFYs lobby
 * 'seek ID'.  Returns 1, 0 when the row is not held, or -1.
 */
static int
xwork_open(struct lxnode *xn, struct xjob *j)
{
	struct seek_terms t = xnode_terms(&j->terms);
	int		 n;

	if (j->kind == XJ_RESTORE)
		n = seeks_open(xn->jdb, j->row, NULL, j->game);
	else
		n = seeks_open(xn->jdb, j->row, &t, xnode_now());
	if (n < 0)
		xnode_warn(xn, xn->jdb, "open");
	return (n);
}

/* On a worker: job j's statements. */
static void
xjob_work(void *arg)
{
	struct xjob	*j = arg;
	struct lxnode	*xn = j->xn;

	switch (j->kind) {
	case XJ_PUBLISH:
		j->rc = xwork_publish(xn, j);
		break;
	case XJ_CLAIM:
		if ((j->rc = xwork_claim(xn, j)) < 0)
			xnode_warn(xn, xn->jdb, "claim");
		break;
	case XJ_CLAIM_END:
		if ((j->rc = xwork_claim_end(xn, j)) < 0)
			xnode_warn(xn, xn->jdb, "claim");
		break;
	case XJ_UNPUBLISH:
		if ((j->rc = seeks_unpublish(xn->jdb, j->row)) < 0)
			xnode_warn(xn, xn->jdb, "unpublish");
		break;
	case XJ_RELEASE:
		j->rc = 1;
		if (seeks_release(xn->jdb, j->c.id) < 0) {
			xnode_warn(xn, xn->jdb, "release");
			j->rc = -1;	/* the tick tries again */
		}
		break;
	case XJ_GAME:
		if ((j->rc = seeks_set_game(xn->jdb, j->c.id, j->game)) != 1) {
			xnode_warn(xn, xn->jdb, "paired");
			break;		/* < 0: the tick tries again */
		}
		if (seeks_notify(xn->jdb, "paired", j->c.id) < 0) {
			xnode_warn(xn, xn->jdb, "notify");
			j->rc = -1;
		}
		break;
	case XJ_PAIRED:
		j->rc = xwork_paired(xn, j);
		break;
	case XJ_OPEN:
	case XJ_RESTORE:
		j->rc = xwork_open(xn, j);
		break;
	case XJ_SWEEP:		/* lobby-xhold.c's, which calls this file */
		j->rc = j->work(xn, j);
		break;
	}
}

static void	xjob_done(void *);

/*
 * Does kind k count in nqueued (XNODE_QUEUE_MAX)?  A publish, a claim
 * and a read of the rows paired elsewhere do (each left for the tick when
 * the queue is full); a claim's second half and the give-backs (one per
 * row held or claimed: never dropped) do not, so they never keep those
 * out.
 */
static int
xjob_capped(enum xjob_kind k)
{
	return (k == XJ_PUBLISH || k == XJ_CLAIM || k == XJ_PAIRED);
}

/* Runs the next job on a worker if none runs. */
void
xnode_pump(struct lxnode *xn)
{
	struct xjob	*j;

	if (xn->running != NULL || (j = TAILQ_FIRST(&xn->todo)) == NULL)
		return;
	TAILQ_REMOVE(&xn->todo, j, entry);
	if (xjob_capped(j->kind))
		xn->nqueued--;
	xn->running = j;
	lobby_work(xn->lb, xjob_work, xjob_done, j);
}

/* A new job of kind k (for seek sk, or none), queued last or first. */
struct xjob *
xjob_new(struct lxnode *xn, enum xjob_kind k, const struct lseek *sk,
    int64_t row, int first)
{
	struct xjob	*j = xcalloc(1, sizeof *j);

	j->xn = xn;
	j->kind = k;
	j->row = row;
	if (sk != NULL) {
		j->seek = sk->id;
		j->terms.spec = xstrdup(sk->spec);
		j->terms.random = sk->random;
		j->terms.rated = sk->rated;
		j->terms.base_ms = sk->base_ms;
		j->terms.inc_ms = sk->inc_ms;
		lobby_copy(j->player, sk->lc->name, sizeof j->player);
	}
	if (first)
		TAILQ_INSERT_HEAD(&xn->todo, j, entry);
	else
		TAILQ_INSERT_TAIL(&xn->todo, j, entry);
	if (xjob_capped(k))
		xn->nqueued++;
	return (j);
}

void
xjob_free(struct xjob *j)
{
	free(j->terms.spec);
	free(j->p);
	free(j->own);
	free(j->prev);
	free(j->seen);
	free(j);
}

/* Publishes local seek sk on a worker, if the queue has room. */
void
xnode_publish(struct lxnode *xn, struct lseek *sk)
{
	if (xn->nqueued >= XNODE_QUEUE_MAX) {
		log_warnx("event=xnode-queue-full seek=%llu",
		    (unsigned long long)sk->id);
		return;		/* LSEEK_LOCAL: the tick publishes it */
	}
	sk->nd->xrow = -1;
	xseek_set(sk, LSEEK_PUBLISHING);
	xjob_new(xn, XJ_PUBLISH, sk, 0, 0);
	xnode_pump(xn);
}

/* Deletes row (unless claimed) on a worker. */
static void
xnode_unpublish_row(struct lxnode *xn, int64_t row)
{
	xjob_new(xn, XJ_UNPUBLISH, NULL, row, 0);
	xnode_pump(xn);
}

/*
 * Published seek sk is dropped (a withdrawal, its player gone, a new
 * seek): its row is deleted on a worker; if another node claimed it a
 * moment before, the claim wins ('paired' redirects the player).  A seek
 * with a job running leaves that to the job's end.
 */
int
lobby_xnode_unpublish(struct lobby *lb, struct lseek *sk)
{
	struct lxnode	*xn = lnd(lb)->xnode;

	if (sk->nd->xstate == LSEEK_PUBLISHED)
		xnode_unpublish_row(xn, sk->nd->xrow);
	xseek_set(sk, LSEEK_WITHDRAWN);
	return (0);
}

/* Tries to pair published seek sk with an older one, on a worker. */
static void
xnode_claim(struct lxnode *xn, struct lseek *sk)
{
	if (xn->nqueued >= XNODE_QUEUE_MAX) {
		xn->retry = 1;
		return;
	}
	xseek_set(sk, LSEEK_CLAIMING);
	xjob_new(xn, XJ_CLAIM, sk, sk->nd->xrow, 0);
	xnode_pump(xn);
}

/*
 * Tries every local published seek with a row id of at least min (a
 * notification 'seek MIN', this node's own too: a row given back by a
 * preparation is one; 0: all).  A seek whose claim is running may have
 * missed row min: the tick tries again.
 */
void
xnode_scan(struct lxnode *xn, int64_t min)
{
	struct lseek	*sk, *tsk;

	TAILQ_FOREACH_SAFE(sk, &xn->lb->seeks, entry, tsk) {
		if (sk->nd->xstate == LSEEK_PUBLISHED && sk->nd->xrow >= min)
			xnode_claim(xn, sk);
		else if (sk->nd->xstate == LSEEK_CLAIMING &&
		    xn->running != NULL && xn->running->seek == sk->id)
			xn->retry = 1;
	}
}

/* The start position of seek sk's game (a draw for a template). */
static int
xnode_start_pos(struct lobby *lb, const struct lseek *sk, struct game *out)
{
	struct game	 tmpl;
	struct game_error gerr;
	int		 r;

	memset(&tmpl, 0, sizeof tmpl);
	if (game_parse_line(&tmpl, sk->spec, &lb->conf.lim, &gerr) != 0) {
		log_warnx("event=xnode-spec spec=\"%s\" error=\"%s\"",
		    sk->spec, gerr.msg);
		return (-1);
	}
	if (!sk->random) {
		*out = tmpl;
		return (0);
	}
	r = lobby_draw_start(&tmpl, lb->rs, &lb->conf.lim, out, &gerr);
	game_free(&tmpl);
	return (r);
}

/* Remembers the lease of game g, started here for a claim. */
static void
xnode_keep(struct lxnode *xn, struct lgame *g)
{
	struct xgame	*x;

	if (xn->ngames >= XNODE_GAMES_MAX) {
		log_warnx("event=xnode-join game=%lld error=\"too many\"",
		    (long long)g->id);
		return;
	}
	xn->games = xreallocarray(xn->games, xn->ngames + 1,
	    sizeof *xn->games);
	x = &xn->games[xn->ngames];
	memset(x, 0, sizeof *x);
	x->game = g->id;
	x->join_by = lobby_clock_now(xn->lb) + XNODE_JOIN_MS;
	xn->ngames++;
}

/*
 * Seek sk lost its row (deleted by a claim whose other seek is gone): it
 * is published again; a seek whose own claim is queued (not own) is when
 * that claim ends.
 */
static void
xnode_republish(struct lxnode *xn, struct lseek *sk, int own)
{
	sk->nd->xrow = 0;
	if (!own && sk->nd->xstate == LSEEK_CLAIMING)
		return;
	xseek_set(sk, LSEEK_LOCAL);
	xnode_publish(xn, sk);
}

/*
 * On the loop, a claim's candidate is locked: may seek sk take it?  Not
 * on a draining node (no new game), nor when its player or sk's own is
 * busy (a game, or one elsewhere or waiting for a takeover: lobby_busy;
 * an account may seek on one connection while it plays on another); a
 * row of this node only while its seek is still open and its player free.
 */
static int
xnode_may_claim(struct lxnode *xn, struct lseek *sk, struct xjob *j)
{
	struct lobby	*lb = xn->lb;
	struct lseek	*p;
	int64_t		 busy;

	if (sk == NULL)
		return (0);
	if (sk->lc->game != NULL ||
	    (busy = lobby_busy(lb, sk->lc->name)) != 0) {
		/* its own account plays already (another connection) */
		log_info("event=xnode-busy seek=%llu player=%s",
		    (unsigned long long)sk->id, sk->lc->name);
		return (0);
	}
	if (lnode_draining(lb)) {
		log_info("event=xnode-draining seek=%llu row=%lld",
		    (unsigned long long)sk->id, (long long)j->c.id);
		return (0);
	}
	if (j->local)
		return ((p = xseek_find(lb, 0, j->c.id)) != NULL &&
		    p->lc->game == NULL && lobby_busy(lb, p->lc->name) == 0);
	if ((busy = lobby_busy(lb, j->c.player)) != 0)
		log_info("event=xnode-busy row=%lld player=%s game=%lld",
		    (long long)j->c.id, j->c.player, (long long)busy);
	return (busy == 0);
}

/* May client lc's account start a game now (xdone_claim_end)? */
static int
xnode_free(struct lxnode *xn, struct lobby_client *lc)
{
	return (lc->game == NULL && lobby_busy(xn->lb, lc->name) == 0);
}

/* Pairs seeks sk and p of this node, whose rows the claim deleted. */
static void
xnode_pair_here(struct lxnode *xn, struct lseek *sk, struct lseek *p)
{
	struct lobby	*lb = xn->lb;
	struct lobby_client *a = sk->lc, *b = p->lc;
	struct game	 start;
	struct lgame	*g;
	uint64_t	 base = sk->base_ms, inc = sk->inc_ms;
	int		 rated = sk->rated;

	if (xnode_start_pos(lb, sk, &start) != 0) {
		xnode_republish(xn, sk, 1);
		xnode_republish(xn, p, 0);
		return;
	}
	sk->nd->xrow = p->nd->xrow = 0;
	xseek_set(sk, LSEEK_PAIRED);
	xseek_set(p, LSEEK_PAIRED);
	lc_drop_seek(a);
	lc_drop_seek(b);
	if (gmp_urandomm_ui(lb->rs, 2) == 0)
		g = lg_start(lb, &start, a, b, 0, base, inc, rated, NULL, 0);
	else
		g = lg_start(lb, &start, b, a, 0, base, inc, rated, NULL, 0);
	log_info("game=%lld event=xnode-paired-here", (long long)g->id);
}

/* Starts seek sk's game with row j->c of another node, claimed. */
static void
xnode_start(struct lxnode *xn, struct lseek *sk, struct xjob *j)
{
	struct lobby	*lb = xn->lb;
	struct lobby_client *lc = sk->lc;
	struct game	 start;
	struct lgame	*g;
	struct xjob	*k;
	uint64_t	 base = sk->base_ms, inc = sk->inc_ms;
	int		 rated = sk->rated;

	sk->nd->xrow = 0;		/* deleted by the claim */
	if (xnode_start_pos(lb, sk, &start) != 0) {
		k = xjob_new(xn, XJ_RELEASE, NULL, 0, 0);
		k->c = j->c;	/* give the claimed seek back */
		xseek_set(sk, LSEEK_LOCAL);
		return;
	}
	xseek_set(sk, LSEEK_PAIRED);
	lc_drop_seek(lc);
	if (gmp_urandomm_ui(lb->rs, 2) == 0)
		g = lg_start_away(lb, j->c.player, &start, lc, NULL, base, inc,
		    rated);
	else
		g = lg_start_away(lb, j->c.player, &start, NULL, lc, base, inc,
		    rated);
	xnode_keep(xn, g);
	k = xjob_new(xn, XJ_GAME, NULL, 0, 0);
	k->c = j->c;
	k->game = g->id;
	log_info("game=%lld event=xnode-paired row=%lld away=%s",
	    (long long)g->id, (long long)j->c.id, j->c.player);
}

/* On the loop: a claim's first half is done (sk: its seek, or NULL). */
static void
xdone_claim(struct lxnode *xn, struct xjob *j, struct lseek *sk)
{
	struct xjob	*k;

	if (j->retry || j->rc < 0)	/* the tick tries again */
		xn->retry = 1;
	if (j->rc == 1) {	/* the second half runs next, at once */
		j->local = j->c.node == lnd(xn->lb)->node_id;
		k = xjob_new(xn, XJ_CLAIM_END, NULL, j->row, 1);
		k->seek = j->seek;
		k->c = j->c;
		k->local = j->local;
		k->commit = xnode_may_claim(xn, sk, j);
		return;
	}
	if (sk == NULL)
		xnode_unpublish_row(xn, j->row);
	else if (sk->nd->xrow == 0)	/* its row went with a pairing's */
		xnode_republish(xn, sk, 1);
	else
		xseek_set(sk, LSEEK_PUBLISHED);
}

/* On the loop: a claim's second half is done. */
static void
xdone_claim_end(struct lxnode *xn, struct xjob *j, struct lseek *sk)
{
	struct lseek	*p;
	struct xjob	*k;

	if (j->rc != 1) {	/* rolled back: both rows as they were */
		if (j->rc < 0)
			xn->retry = 1;
		j->rc = 0;
		xdone_claim(xn, j, sk);
		return;
	}
	if (j->local) {
		p = xseek_find(xn->lb, 0, j->c.id);
		if (sk != NULL && p != NULL && xnode_free(xn, sk->lc) &&
		    xnode_free(xn, p->lc))
			xnode_pair_here(xn, sk, p);
		else {	/* both rows are gone: each seek left, again */
			if (sk != NULL)
				xnode_republish(xn, sk, 1);
			if (p != NULL)
				xnode_republish(xn, p, 0);
		}
	} else if (sk != NULL && xnode_free(xn, sk->lc) &&
	    lobby_busy(xn->lb, j->c.player) == 0)
		xnode_start(xn, sk, j);
	else {			/* its player left or is busy: give it back */
		if (sk != NULL)
			xnode_republish(xn, sk, 1);	/* its row is gone */
		k = xjob_new(xn, XJ_RELEASE, NULL, 0, 0);
		k->c = j->c;
	}
}

/*
 * On the loop: rows of this node paired by another node.  Redirects each
 * one's player there (the seeking connection, else any of its
 * connections without a game).
 */
static void
xdone_paired(struct lxnode *xn, struct xjob *j)
{
	struct lobby	*lb = xn->lb;
	struct lobby_client *lc, *to;
	struct xpaired	*p;
	size_t		 i;

	for (i = 0; i < j->np; i++) {
		p = &j->p[i];
		to = NULL;
		TAILQ_FOREACH(lc, &lb->clients, entry) {
			if (lc->seek != NULL && lc->seek->nd->xrow == p->p.id) {
				to = lc;
				break;
			}
			if (to == NULL && lc->game == NULL &&
			    strcmp(lc->name, p->p.player) == 0)
				to = lc;
		}
		if (to == NULL)
			continue;
		if (to->seek != NULL && to->seek->nd->xrow == p->p.id) {
			xseek_set(to->seek, LSEEK_PAIRED);
			to->seek->nd->xrow = 0;
		}
		lc_drop_seek(to);
		lc_event(to, "redirect %s %lld", p->addr, (long long)p->p.game);
		log_info("conn=%llu event=redirect name=%s to=%s game=%lld",
		    (unsigned long long)to->connid, to->name, p->addr,
		    (long long)p->p.game);
	}
}

/* On the loop: job j is done; the next one starts. */
static void
xjob_done(void *arg)
{
	struct xjob	*j = arg;
	struct lxnode	*xn = j->xn;
	struct lseek	*sk = j->seek != 0 ? xseek_find(xn->lb, j->seek, 0) :
			    NULL;

	switch (j->kind) {
	case XJ_OPEN:
		if (j->rc != 1)
			xnode_unpublish_row(xn, j->row);
		/* FALLTHROUGH */
	case XJ_PUBLISH:
		if (j->rc == 1 && sk == NULL)
			xnode_unpublish_row(xn, j->row);	/* gone */
		else if (sk != NULL && j->rc == 1) {
			sk->nd->xrow = j->row;
			xseek_set(sk, LSEEK_PUBLISHED);
			log_info("event=seek-published seek=%llu row=%lld "
			    "name=%s", (unsigned long long)sk->id,
			    (long long)sk->nd->xrow, sk->lc->name);
			xnode_claim(xn, sk);	/* older rows: pair now */
		} else if (sk != NULL) {
			sk->nd->xrow = 0;
			xseek_set(sk, LSEEK_LOCAL);	/* the tick again */
		}
		break;
	case XJ_CLAIM:
		xdone_claim(xn, j, sk);
		break;
	case XJ_CLAIM_END:
		xdone_claim_end(xn, j, sk);
		break;
	case XJ_PAIRED:
		xdone_paired(xn, j);
		break;
	case XJ_SWEEP:
		j->done(xn, j);
		break;
	case XJ_UNPUBLISH:
	case XJ_RELEASE:
	case XJ_RESTORE:
	case XJ_GAME:
		if (j->rc < 0) {	/* a row would stay held: again */
			xn->running = NULL;
			TAILQ_INSERT_TAIL(&xn->failed, j, entry);
			xnode_pump(xn);
			return;
		}
		break;
	}
	xn->running = NULL;
	xjob_free(j);
	xnode_pump(xn);
}

/* Each tick: the give-backs that failed are queued again. */
void
xnode_requeue(struct lxnode *xn)
{
	struct xjob	*j;

	TAILQ_FOREACH(j, &xn->failed, entry)
		j->rc = 0;	/* its failure is behind it */
	TAILQ_CONCAT(&xn->todo, &xn->failed, entry);	/* uncapped kinds */
	xnode_pump(xn);
}

/* Reads this node's row id (0: every row) paired by another node. */
void
xnode_paired(struct lxnode *xn, int64_t id)
{
	if (xn->nqueued >= XNODE_QUEUE_MAX) {
		xn->catch_up = 1;	/* the tick reads them all */
		return;
	}
	xjob_new(xn, XJ_PAIRED, NULL, id, 0);
	xnode_pump(xn);
}

