/*
 * lobby-xwatch.c: spectating across nodes (issue 15 §2, PROTOCOL.md
 * §13.5, doc/NODES.md).  `watch GAME_ID` on a node that does not own the
 * game (its lease is held by another node): a worker reads its lease and
 * its record (lobby_xwatch_prefetch, before the command runs on the loop:
 * cmd_prep_run); the loop then follows it from that record and LISTENs
 * on channel game_ID (lobby-xnode.c's listening connection, on a worker:
 * lobby-xnode.c's listen), and once the LISTEN is done a first catch-up read
 * brings it up to what was committed before it.  At
 * each notification of the owner's writer ('game ID ply N', 'game ID
 * over', sent in the transaction that commits them: store-notify.c) a
 * worker reads the moves after the last one sent (store_record_since; one
 * read in flight per game, one more if notified meanwhile) and the loop
 * sends its spectators each committed move after the last one they got,
 * then the end: the same `event move` and `event gameover` lines a local
 * spectator gets, in order, none twice.  No database read of a watch is
 * on the loop.  The clocks in them are replayed from the log (the
 * base, the increment and each move's time in µs, as the owner keeps
 * them); `watch` answers the clocks as of the last committed move.
 * After a lost listening connection (sqldb listens again by itself), every
 * watched game is read again.  A node follows at most XWATCH_MAX games of
 * other nodes (one channel each on a connection), for its spectators and
 * for the web's feeds (lobby-xfeed.c).
 *
 * So that the owner writes such a game's moves at once instead of in
 * runs of up to a second (store_run_now, store-moves.c), the following node NOTIFYs
 * lobby 'watch ID' (on a worker) when it starts following the game and
 * every XWATCH_ANNOUNCE_MS while it does (a new owner after a takeover, or an
 * owner whose listening connection was lost, learns it again); the owner
 * (lobby_xwatch_wanted) marks the game until its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nodestore/nodestore.h"
#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "node/lobby-xwatch.h"
#include "lib/json.h"
#include "lib/log.h"
#include "record/record.h"
#include "db/sqldb.h"
#include "lib/util.h"

#define XWATCH_ANNOUNCE_MS	5000
#define XWATCH_SHARE	(XWATCH_MAX / 4)	/* of one address's spectators */

static void
xwatch_channel(int64_t id, char *ch, size_t len)
{
	snprintf(ch, len, "game_%lld", (long long)id);
}

/* Frees watch w (and drops its channel). */
static void
xwatch_drop(struct lobby *lb, size_t i)
{
	struct lxwatch	*xw = lnd(lb)->xwatch;
	struct xwatch	*w = &xw->w[i];
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	size_t		 k;

	for (k = 0; k < w->n; k++)
		lc_unwatch(w->lcs[k], w->id);
	xwatch_channel(w->id, ch, sizeof ch);
	lnd(lb)->xwatch->listen(lb, ch, 0, NULL);	/* on a worker */
	free(w->lcs);
	free(w->p[0]);
	free(w->p[1]);
	free(w->family);
	free(w->tour);
	free(w->summary);
	free(w->start);
	free(w->position);
	game_free(&w->game);
	xw->w[i] = xw->w[--xw->n];
}

/* Sends move m of w to the web's feed hook, with the clocks c (µs) after. */
void
lobby_xwatch_feed_move(struct lobby *lb, const struct xwatch *w,
    const struct store_rmove *m, const uint64_t *c)
{
	uint64_t	 ms[2];

	ms[0] = c[0] / 1000;
	ms[1] = c[1] / 1000;
	lobby_feed_send_move(lb, w->id, (unsigned long)m->ply, m->player,
	    m->move, m->position, store_mark_name(m->mark), m->time_ms, ms);
}

/* Sends w's end, as the log has it (so logged), to the web's feed hook. */
static void
xwatch_feed_end(struct lobby *lb, const struct xwatch *w,
    const struct store_gameinfo *gi)
{
	struct lobby_feed f;

	if (lb->feed == NULL)
		return;
	memset(&f, 0, sizeof f);
	f.id = w->id;
	f.end = 1;
	f.ply = (unsigned long)w->ply;
	f.winner = gi->result == STORE_RESULT_FIRST ? 1 :
	    gi->result == STORE_RESULT_SECOND ? 2 : 0;
	f.winner_name = f.winner != 0 ? w->p[f.winner - 1] : NULL;
	f.reason = gi->reason;
	f.detail = gi->detail;
	f.logged = 1;
	f.clock_ms[0] = w->clock_us[0] / 1000;
	f.clock_ms[1] = w->clock_us[1] / 1000;
	lb->feed(lb->feed_arg, &f);
}

/*
 * Brings watch w up to the log's record r: sends each new move (clocks
 * replayed) and, if the game is over, the end, to its spectators if send
 * and to the web's feed if it follows w (and the game is not this node's
 * now: then the lobby feeds it).  Returns 1 when the game is over (the
 * caller drops the watch), else 0.
 */
static int
xwatch_apply(struct lobby *lb, struct xwatch *w, const struct store_record *r,
    int send)
{
	const struct store_rmove *m;
	const struct store_gameinfo *gi = &r->game;
	const char	*res;
	size_t		 i, k;
	int		 feed = send && w->feed && lobby_game(lb, w->id) == NULL;

	for (i = 0; i < r->nmoves; i++) {
		m = &r->moves[i];
		if (m->ply <= w->ply)
			continue;	/* sent already */
		if (m->ply != w->ply + 1)
			return (0);	/* a gap: the next read has it */
		lobby_feed_clock(w->engine, w->inc_us, w->clock_us, m);
		free(w->position);
		w->position = xstrdup(m->position);
		w->ply = m->ply;
		for (k = 0; send && k < w->n; k++)
			lc_event(w->lcs[k], "move %lld %llu %d %s time1=%llu "
			    "time2=%llu", (long long)w->id,
			    (unsigned long long)m->ply, m->player, m->move,
			    (unsigned long long)(w->clock_us[0] / 1000),
			    (unsigned long long)(w->clock_us[1] / 1000));
		if (feed)
			lobby_xwatch_feed_move(lb, w, m, w->clock_us);
	}
	if (gi->status == STORE_LIVE)
		return (0);
	res = gi->result == STORE_RESULT_FIRST ? "first" :
	    gi->result == STORE_RESULT_SECOND ? "second" : "-";
	for (k = 0; send && k < w->n; k++)
		lc_event(w->lcs[k], "gameover %lld %s %s%s%s", (long long)w->id,
		    res, gi->reason != NULL ? gi->reason : "-",
		    gi->detail != NULL ? " " : "",
		    gi->detail != NULL ? gi->detail : "");
	if (feed)
		xwatch_feed_end(lb, w, gi);
	return (1);
}

/*
 * A catch-up read of a followed game on a worker: its moves after ply
 * `after` only (store_record_since), applied on the loop.
 */
struct xwatch_job {
	struct xwatch_job *next;
	struct lobby	*lb;
	int64_t		 id;
	uint64_t	 after;
	int		 rc;
	struct store_record r;
	size_t		 nann;		/* else: 'watch ID' to these games' */
	int64_t		 ann[XWATCH_MAX];	/* owners (xwatch_announce) */
};

static void	xwatch_catch_up(struct lobby *, size_t);
static void	xwatch_listened(struct lobby *, const char *, int);

static void
xwatch_job_work(void *arg)
{
	struct xwatch_job *j = arg;
	char		 pay[40];
	size_t		 i;

	for (i = 0; i < j->nann; i++) {
		snprintf(pay, sizeof pay, "watch %lld", (long long)j->ann[i]);
		if (store_read_notify(j->lb->store, "lobby", pay) != 0)
			log_warnx("event=xwatch-announce game=%lld",
			    (long long)j->ann[i]);
	}
	if (j->nann == 0)
		j->rc = store_record_since(j->lb->store, j->id, j->after,
		    &j->r);
}

/* On the loop: sends what is new (the watch may be gone: nothing). */
static void
xwatch_job_done(void *arg)
{
	struct xwatch_job *j = arg, **jp;
	struct lobby	*lb = j->lb;
	struct xwatch	*w;
	size_t		 i;

	for (jp = &lnd(lb)->xwatch->jobs; *jp != NULL && *jp != j;
	    jp = &(*jp)->next)
		;
	if (*jp == j)
		*jp = j->next;
	if (j->nann == 0 && (w = lobby_xwatch_find(lb, j->id)) != NULL) {
		i = (size_t)(w - lnd(lb)->xwatch->w);
		w->busy = 0;
		if (j->rc != 1)
			log_warnx("event=xwatch-read game=%lld",
			    (long long)j->id);
		else if (xwatch_apply(lb, w, &j->r, 1)) {
			xwatch_drop(lb, i);
			w = NULL;
		}
		if (w != NULL && w->again) {
			w->again = 0;
			xwatch_catch_up(lb, i);
		}
	}
	store_record_free(&j->r);
	free(j);
}

/* Runs j on a worker, then xwatch_job_done on the loop. */
static void
xwatch_job_start(struct lobby *lb, struct xwatch_job *j)
{
	j->lb = lb;
	j->next = lnd(lb)->xwatch->jobs;
	lnd(lb)->xwatch->jobs = j;
	lobby_work(lb, xwatch_job_work, xwatch_job_done, j);
}

/* Reads watched game i's new moves on a worker, then sends them. */
static void
xwatch_catch_up(struct lobby *lb, size_t i)
{
	struct xwatch	*w = &lnd(lb)->xwatch->w[i];
	struct xwatch_job *j;

	if (w->busy) {
		w->again = 1;
		return;
	}
	j = xcalloc(1, sizeof *j);
	j->id = w->id;
	j->after = w->ply;
	w->busy = 1;
	xwatch_job_start(lb, j);
}

/* Returns the watch of game id, or NULL. */
struct xwatch *
lobby_xwatch_find(struct lobby *lb, int64_t id)
{
	struct lxwatch	*xw = lnd(lb)->xwatch;
	size_t		 i;

	for (i = 0; xw != NULL && i < xw->n; i++)
		if (xw->w[i].id == id)
			return (&xw->w[i]);
	return (NULL);
}

/*
 * Brings w up to record r (new moves and the end to everyone who follows
 * it); drops w if the game is over.
 */
void
lobby_xwatch_apply(struct lobby *lb, struct xwatch *w,
    const struct store_record *r)
{
	if (xwatch_apply(lb, w, r, 1))
		xwatch_drop(lb, (size_t)(w - lnd(lb)->xwatch->w));
}

/* Drops w if nobody follows it any more. */
void
lobby_xwatch_release(struct lobby *lb, struct xwatch *w)
{
	if (w->n == 0 && !w->feed)
		xwatch_drop(lb, (size_t)(w - lnd(lb)->xwatch->w));
}

/*
 * Tells the owners of games ids[0..n-1] that this node follows them
 * (NOTIFY lobby 'watch ID'), on a worker.
 */
static void
xwatch_announce(struct lobby *lb, const int64_t *ids, size_t n)
{
	struct xwatch_job *j;

	if (n == 0)
		return;
	j = xcalloc(1, sizeof *j);
	memcpy(j->ann, ids, n * sizeof *ids);
	j->nann = n;
	xwatch_job_start(lb, j);
}

static void
xwatch_announce_cb(void *arg)
{
	struct lobby	*lb = arg;
	struct lxwatch	*xw = lnd(lb)->xwatch;
	struct xwatch_job *j;
	int64_t		 ids[XWATCH_MAX];
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	size_t		 i;

	for (j = xw->jobs; j != NULL && j->nann == 0; j = j->next)
		;
	for (i = 0; j == NULL && i < xw->n; i++)	/* one at a time */
		ids[i] = xw->w[i].id;
	for (i = 0; i < xw->n; i++)	/* a LISTEN that failed: again */
		if (xw->w[i].deaf) {
			xw->w[i].deaf = 0;
			xwatch_channel(xw->w[i].id, ch, sizeof ch);
			lnd(lb)->xwatch->listen(lb, ch, 1, xwatch_listened);
		}
	xwatch_announce(lb, ids, j == NULL ? xw->n : 0);
	lb->clock.arm(lb->clock.arg, xw->announce, XWATCH_ANNOUNCE_MS);
}

/*
 * A node follows live game id ('watch ID' on channel lobby): if it is
 * this node's, its moves are written at once from now on (the pending
 * ones too) until its end, so that their NOTIFYs come at once.
 */
void
lobby_xwatch_wanted(struct lobby *lb, int64_t id)
{
	struct lgame	*g = lobby_game(lb, id);

	if (g == NULL || !g->logged || lg_over(g))
		return;
	if (g->nd == NULL || !g->nd->xwatched)
		log_info("game=%lld event=followed", (long long)id);
	lnd_game(g)->xwatched = 1;
	store_run_now(lb->store, id);
}

/* A notification on a game_ID channel (lobby-xnode.c). */
void
lobby_xwatch_note(struct lobby *lb, const char *channel)
{
	struct lxwatch	*xw = lnd(lb)->xwatch;
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	size_t		 i;

	if (xw == NULL)
		return;
	for (i = 0; i < xw->n; i++) {
		xwatch_channel(xw->w[i].id, ch, sizeof ch);
		if (strcmp(ch, channel) == 0) {
			xwatch_catch_up(lb, i);
			return;
		}
	}
}

/* After a lost listening connection: every watched game again. */
void
lobby_xwatch_catch_up(struct lobby *lb)
{
	struct lxwatch	*xw = lnd(lb)->xwatch;
	size_t		 i;

	if (xw == NULL)
		return;
	for (i = xw->n; i > 0; i--)
		xwatch_catch_up(lb, i - 1);
}

/*
 * On a worker: reads game id's lease into *p and, when another node
 * holds it, its record (the loop then follows it: xwatch_new).
 */
void
lobby_xwatch_fetch(struct lobby *lb, int64_t id, struct xwatch_pre *p)
{
	lobby_xwatch_pre_free(p);
	p->id = id;
	if (lb->store == NULL)
		return;
	p->lease = store_lease_read(lb->store, id, (int64_t)clock_wall_ms(),
	    &p->l);
	if (p->lease == LEASE_HELD && p->l.node != lnd(lb)->node_id)
		p->rc = store_record(lb->store, id, &p->r);
	if (p->rc == 1 && p->r.game.tournament != 0)
		p->tour = store_tour_name(lb->store, p->r.game.tournament);
}

/* Frees what lobby_xwatch_fetch read (p itself is the caller's). */
void
lobby_xwatch_pre_free(struct xwatch_pre *p)
{
	store_record_free(&p->r);
	free(p->tour);
	memset(p, 0, sizeof *p);
	p->lease = -1;
}

/*
 * Back on the loop, channel ch's LISTEN done (on a worker): the watch
 * (if still there) catches up with what came before it.  A LISTEN that
 * failed is tried again (xwatch_announce_cb); the catch-up reads anyway.
 */
static void
xwatch_listened(struct lobby *lb, const char *ch, int rc)
{
	struct lxwatch	*xw = lnd(lb)->xwatch;
	char		 c[SQLDB_CHANNEL_MAX + 1];
	size_t		 i;

	for (i = 0; xw != NULL && i < xw->n; i++) {
		xwatch_channel(xw->w[i].id, c, sizeof c);
		if (strcmp(c, ch) == 0) {
			xw->w[i].deaf = rc < 0;
			xwatch_catch_up(lb, i);	/* what came before */
			return;
		}
	}
}

/*
 * A new watch of game id, owned by another node, made from p (read on a
 * worker: lobby_xwatch_fetch) without sending anything; the moves
 * committed since p's read (or before the LISTEN) come from a catch-up
 * read.  Returns 0, -1 with err if it is not live on another node, or -2
 * with err if it cannot be followed now.
 */
static int
xwatch_new(struct lobby *lb, int64_t id, struct xwatch_pre *p,
    struct buf *err)
{
	struct lxwatch	*xw = lnd(lb)->xwatch;
	struct store_record *r = &p->r;
	struct xwatch	*w;
	struct buf	 sum;
	struct json	 j;
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	int		 s;

	if (p->id != id) {
		buf_printf(err, "game %lld: cannot follow it now: try again",
		    (long long)id);
		return (-2);
	}
	if (p->lease == LEASE_HELD && p->l.node != lnd(lb)->node_id &&
	    p->rc == 0) {	/* leased, its begin not yet committed */
		buf_printf(err, "game %lld is starting on another node: try "
		    "again", (long long)id);
		return (-1);
	}
	if (p->lease != LEASE_HELD || p->l.node == lnd(lb)->node_id ||
	    p->rc != 1 || r->game.status != STORE_LIVE) {
		buf_printf(err, "no live game %lld", (long long)id);
		return (-1);
	}
	if (xw->n >= XWATCH_MAX) {
		buf_printf(err, "this node follows %d games of other nodes "
		    "(limit)", XWATCH_MAX);
		return (-2);
	}
	w = &xw->w[xw->n++];
	memset(w, 0, sizeof *w);
	w->id = id;
	w->inc_us = r->game.tc_inc_ms * 1000;
	w->base_ms = r->game.tc_base_ms;
	w->rated = r->game.rated;
	w->family = xstrdup(r->game.family);
	w->tour = p->tour;	/* read on the worker */
	p->tour = NULL;
	buf_init(&sum);
	json_init(&j, &sum);
	record_summary_json(&j, &r->game, w->tour);
	w->summary = xstrdup(buf_str(&sum));
	buf_free(&sum);
	for (s = 0; s < 2; s++) {
		w->p[s] = xstrdup(s == 0 ? r->game.player1 : r->game.player2);
		w->engine[s] = strcmp(w->p[s], "engine") == 0;
		w->clock_us[s] = r->game.tc_base_ms * 1000;
	}
	w->start = xstrdup(r->game.game);
	w->position = xstrdup(r->game.game);
	xwatch_apply(lb, w, r, 0);
	xwatch_announce(lb, &id, 1);
	xwatch_channel(id, ch, sizeof ch);
	lnd(lb)->xwatch->listen(lb, ch, 1, xwatch_listened);	/* on a worker */
	return (0);
}

/*
 * Follows game id = p->id of another node (new, or already followed)
 * into *wp; p->r is its record as read on a worker (moves after the
 * watch's ply not yet sent).  Returns 0, or xwatch_new's -1 or -2 with
 * err.
 */
int
lobby_xwatch_follow(struct lobby *lb, struct xwatch_pre *p,
    struct xwatch **wp, struct buf *err)
{
	int		 rc;

	if (lnd(lb)->xwatch == NULL) {
		buf_printf(err, "no live game %lld", (long long)p->id);
		return (-1);
	}
	if ((*wp = lobby_xwatch_find(lb, p->id)) != NULL) {
		if (p->rc != 1 || p->r.nmoves < (*wp)->ply) {
			buf_printf(err, "game %lld: cannot read it now: try "
			    "again", (long long)p->id);
			return (-2);
		}
		return (0);
	}
	if ((rc = xwatch_new(lb, p->id, p, err)) != 0)
		return (rc);
	*wp = &lnd(lb)->xwatch->w[lnd(lb)->xwatch->n - 1];
	return (0);
}

/*
 * Whether `watch GAME_ID` (text id) must first read the game on a worker
 * (lobby_xwatch_prefetch): a game neither live nor followed here, on a
 * node of a shared store.
 */
int
lobby_xwatch_needs_fetch(struct lobby_client *lc, const char *text)
{
	struct lobby	*lb = lc->lb;
	int64_t		 id = lobby_gid(text);

	return (lnd(lb)->xwatch != NULL && id > 0 &&
	    lobby_game(lb, id) == NULL && lobby_xwatch_find(lb, id) == NULL);
}

/*
 * On a worker, before `watch GAME_ID` runs on the loop (the connection
 * is busy with it: nothing else touches lc->nd->xpre meanwhile).
 */
void
lobby_xwatch_prefetch(struct lobby_client *lc, const char *text)
{
	if (lc->nd->xpre == NULL) {
		lc->nd->xpre = xcalloc(1, sizeof *lc->nd->xpre);
		lobby_xwatch_pre_free(lc->nd->xpre);
	}
	lobby_xwatch_fetch(lc->lb, lobby_gid(text), lc->nd->xpre);
}

/* Frees lc's prefetched game (a watch done, or it leaves). */
void
lobby_xwatch_pre_drop(struct lobby_client *lc)
{
	if (lc->nd == NULL || lc->nd->xpre == NULL)
		return;
	lobby_xwatch_pre_free(lc->nd->xpre);
	free(lc->nd->xpre);
	lc->nd->xpre = NULL;
}

/* Whether peers a and b (ADDR:PORT) are of one address. */
static int
xwatch_same_addr(const char *a, const char *b)
{
	const char	*ea = strrchr(a, ':'), *eb = strrchr(b, ':');
	size_t		 na = ea != NULL ? (size_t)(ea - a) : strlen(a);
	size_t		 nb = eb != NULL ? (size_t)(eb - b) : strlen(b);

	return (na == nb && memcmp(a, b, na) == 0);
}

/* The followed games watched by a connection of lc's address. */
static size_t
xwatch_addr_games(const struct lxwatch *xw, const struct lobby_client *lc)
{
	size_t		 i, k, n = 0;

	for (i = 0; i < xw->n; i++)
		for (k = 0; k < xw->w[i].n; k++)
			if (xwatch_same_addr(xw->w[i].lcs[k]->peer, lc->peer)) {
				n++;
				break;
			}
	return (n);
}

/*
 * watch GAME_ID of a game this node does not have (lobby_watch): follows
 * it across nodes, from what a worker read (lobby_xwatch_prefetch).  *lv
 * is the game as of its last committed move (it borrows the watch's
 * memory, as lobby_watch's does).  Returns 0, or -1 with err.
 */
int
lobby_xwatch(struct lobby_client *lc, int64_t id, struct lobby_live *lv,
    struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lxwatch	*xw = lnd(lb)->xwatch;
	struct game_error gerr;
	struct xwatch	*w;
	size_t		 i;
	int		 rc;

	if ((w = lobby_xwatch_find(lb, id)) == NULL) {
		if (lc->nwatch >= LOBBY_MAX_WATCH) {
			buf_printf(err, "you watch %d games already (limit)",
			    LOBBY_MAX_WATCH);
			lobby_xwatch_pre_drop(lc);
			return (-1);
		}
		if ((i = xwatch_addr_games(xw, lc)) >= XWATCH_SHARE) {
			buf_printf(err, "your address watches %zu games of "
			    "other nodes here (limit %d): unwatch one first", i,
			    XWATCH_SHARE);
			lobby_xwatch_pre_drop(lc);
			return (-1);
		}
		if (lc->nd->xpre == NULL) {
			buf_printf(err, "game %lld: cannot follow it now: "
			    "try again", (long long)id);
			return (-1);
		}
		rc = xwatch_new(lb, id, lc->nd->xpre, err);
		lobby_xwatch_pre_drop(lc);
		if (rc != 0)
			return (-1);
		w = &xw->w[xw->n - 1];
	}
	lobby_xwatch_pre_drop(lc);
	game_free(&w->game);
	memset(&w->game, 0, sizeof w->game);
	if (game_parse_line(&w->game, w->position, &lb->conf.lim,
	    &gerr) != 0) {
		buf_printf(err, "game %lld: %s", (long long)id, gerr.msg);
		lobby_xwatch_release(lb, w);
		return (-1);
	}
	for (i = 0; i < w->n && w->lcs[i] != lc; i++)
		;
	if (i == w->n) {
		if (lc->nwatch >= LOBBY_MAX_WATCH ||
		    w->n >= lb->conf.max_watchers) {
			buf_printf(err, "game %lld has %zu spectators (limit)",
			    (long long)id, w->n);
			return (-1);
		}
		w->lcs = xreallocarray(w->lcs, w->n + 1, sizeof *w->lcs);
		w->lcs[w->n++] = lc;
		if (lc->watch == NULL)
			lc->watch = xcalloc(LOBBY_MAX_WATCH,
			    sizeof *lc->watch);
		lc->watch[lc->nwatch++] = id;
	}
	memset(lv, 0, sizeof *lv);
	lv->id = id;
	lv->player[0] = w->p[0];
	lv->player[1] = w->p[1];
	lv->ply = (unsigned long)w->ply;
	lv->start = w->start;
	lv->position = &w->game;
	lv->clock_ms[0] = w->clock_us[0] / 1000;
	lv->clock_ms[1] = w->clock_us[1] / 1000;
	return (0);
}

/* lc stops watching game id (0: every game; it leaves). */
void
lobby_xunwatch(struct lobby_client *lc, int64_t id)
{
	struct lxwatch	*xw = lnd(lc->lb)->xwatch;
	struct xwatch	*w;
	size_t		 i, k;

	if (id == 0)
		lobby_xwatch_pre_drop(lc);
	if (xw == NULL)
		return;
	for (i = xw->n; i > 0; i--) {
		w = &xw->w[i - 1];
		if (id != 0 && w->id != id)
			continue;
		for (k = 0; k < w->n; k++)
			if (w->lcs[k] == lc) {
				lc_unwatch(lc, w->id);
				w->lcs[k] = w->lcs[--w->n];
				break;
			}
		lobby_xwatch_release(lc->lb, w);
	}
}

/* Starts spectating across nodes (its channels: listen's). */
void
lobby_xwatch_init(struct lobby *lb, struct sqldb *db, lnode_listen_fn *listen)
{
	lb->nd->xwatch = xcalloc(1, sizeof *lb->nd->xwatch);
	lb->nd->xwatch->listen = listen;
	lb->nd->xdb = db;
	lnd(lb)->xwatch->announce = lb->clock.timer_new(lb->clock.arg,
	    xwatch_announce_cb, lb);
	lb->clock.arm(lb->clock.arg, lb->nd->xwatch->announce,
	    XWATCH_ANNOUNCE_MS);
}

void
lobby_xwatch_free(struct lobby *lb)
{
	struct xwatch_job *j;

	if (lnd(lb)->xwatch == NULL)
		return;
	while (lnd(lb)->xwatch->n > 0)
		xwatch_drop(lb, 0);
	while ((j = lnd(lb)->xwatch->jobs) != NULL) {	/* workers joined */
		lnd(lb)->xwatch->jobs = j->next;
		store_record_free(&j->r);
		free(j);
	}
	lb->clock.timer_free(lb->clock.arg, lnd(lb)->xwatch->announce);
	free(lnd(lb)->xwatch);
	lb->nd->xwatch = NULL;
	lb->nd->xdb = NULL;
}
