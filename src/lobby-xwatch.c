/*
 * lobby-xwatch.c: spectating across nodes (issue 15 §2, PROTOCOL.md
 * §13.5, doc/NODES.md).  `watch GAME_ID` on a node that does not own the
 * game (its lease is held by another node): the node LISTENs on channel
 * game_ID (lobby-xnode.c's listening connection) before it reads the game
 * from the log, then, at each notification of the owner's writer ('game
 * ID ply N', 'game ID over', sent in the transaction that commits them:
 * store-notify.c), reads the log again and sends its spectators every
 * committed move after the last one they got, then the end: the same
 * `event move` and `event gameover` lines a local spectator gets, in
 * order, none twice.  The clocks in them are replayed from the log (the
 * base, the increment and each move's time in µs, as the owner keeps
 * them); `watch` answers the clocks as of the last committed move.
 * After a lost listening connection (sqldb listens again by itself), every
 * watched game is read again.  A node follows at most XWATCH_MAX games of
 * other nodes (one channel each on a connection), for its spectators and
 * for the web's feeds (lobby-xfeed.c).
 *
 * So that the owner writes such a game's moves at once instead of in
 * runs of up to a second (store-prompt.c), the following node NOTIFYs
 * lobby 'watch ID' when it starts following the game and every
 * XWATCH_ANNOUNCE_MS while it does (a new owner after a takeover, or an
 * owner whose listening connection was lost, learns it again); the owner
 * (lobby_xwatch_wanted) marks the game until its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lease.h"
#include "lobby.h"
#include "lobby-int.h"
#include "lobby-xwatch.h"
#include "json.h"
#include "log.h"
#include "record.h"
#include "sqldb.h"
#include "util.h"

#define XWATCH_ANNOUNCE_MS	5000

static void
xwatch_channel(int64_t id, char *ch, size_t len)
{
	snprintf(ch, len, "game_%lld", (long long)id);
}

/* Frees watch w (and drops its channel). */
static void
xwatch_drop(struct lobby *lb, size_t i)
{
	struct lxwatch	*xw = lb->xwatch;
	struct xwatch	*w = &xw->w[i];
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	size_t		 k;

	for (k = 0; k < w->n; k++)
		lc_unwatch(w->lcs[k], w->id);
	xwatch_channel(w->id, ch, sizeof ch);
	if (sqldb_unlisten(xw->ldb, ch) < 0)
		log_warnx("event=xwatch-unlisten game=%lld error=\"%s\"",
		    (long long)w->id, sqldb_errmsg(xw->ldb));
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

	for (i = w->ply; i < r->nmoves; i++) {
		m = &r->moves[i];
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

/* Reads watched game i from the log and sends what is new. */
static void
xwatch_catch_up(struct lobby *lb, size_t i)
{
	struct xwatch	*w = &lb->xwatch->w[i];
	struct store_record r;

	if (store_record(lb->store, w->id, &r) != 1) {
		log_warnx("event=xwatch-read game=%lld", (long long)w->id);
		return;
	}
	if (xwatch_apply(lb, w, &r, 1))
		xwatch_drop(lb, i);
	store_record_free(&r);
}

/* Returns the watch of game id, or NULL. */
struct xwatch *
lobby_xwatch_find(struct lobby *lb, int64_t id)
{
	struct lxwatch	*xw = lb->xwatch;
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
		xwatch_drop(lb, (size_t)(w - lb->xwatch->w));
}

/* Drops w if nobody follows it any more. */
void
lobby_xwatch_release(struct lobby *lb, struct xwatch *w)
{
	if (w->n == 0 && !w->feed)
		xwatch_drop(lb, (size_t)(w - lb->xwatch->w));
}

/* Tells the owner of game id that this node follows it (NOTIFY lobby). */
static void
xwatch_announce(struct lobby *lb, int64_t id)
{
	char		 pay[40];

	snprintf(pay, sizeof pay, "watch %lld", (long long)id);
	if (sqldb_notify(lb->xdb, "lobby", pay) < 0)
		log_warnx("event=xwatch-announce game=%lld error=\"%s\"",
		    (long long)id, sqldb_errmsg(lb->xdb));
}

static void
xwatch_announce_cb(void *arg)
{
	struct lobby	*lb = arg;
	struct lxwatch	*xw = lb->xwatch;
	size_t		 i;

	for (i = 0; i < xw->n; i++)
		xwatch_announce(lb, xw->w[i].id);
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
	if (!g->xwatched)
		log_info("game=%lld event=followed", (long long)id);
	g->xwatched = 1;
	store_run_now(lb->store, id);
}

/* A notification on a game_ID channel (lobby-xnode.c). */
void
lobby_xwatch_note(struct lobby *lb, const char *channel)
{
	struct lxwatch	*xw = lb->xwatch;
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
	struct lxwatch	*xw = lb->xwatch;
	size_t		 i;

	if (xw == NULL)
		return;
	for (i = xw->n; i > 0; i--)
		xwatch_catch_up(lb, i - 1);
}

/*
 * A new watch of game id, owned by another node, brought up to the log's
 * record r without sending anything (the caller frees r).  Returns 0, -1
 * with err if it is not live on another node, or -2 with err if it cannot
 * be followed now (r freed).
 */
static int
xwatch_new(struct lobby *lb, int64_t id, struct store_record *r,
    struct buf *err)
{
	struct lxwatch	*xw = lb->xwatch;
	struct xwatch	*w;
	struct lease	 l;
	struct buf	 sum;
	struct json	 j;
	char		 ch[SQLDB_CHANNEL_MAX + 1];
	int		 s;

	memset(r, 0, sizeof *r);
	if (lease_get(lb->xdb, id, (int64_t)clock_wall_ms(), &l) != 1 ||
	    l.state != LEASE_HELD || l.node == lb->node_id) {
		buf_printf(err, "no live game %lld", (long long)id);
		return (-1);
	}
	if (xw->n >= XWATCH_MAX) {
		buf_printf(err, "this node follows %d games of other nodes "
		    "(limit)", XWATCH_MAX);
		return (-2);
	}
	xwatch_channel(id, ch, sizeof ch);
	if (sqldb_listen(xw->ldb, ch) < 0) {	/* before the read: no gap */
		buf_printf(err, "game %lld: cannot follow it: %s",
		    (long long)id, sqldb_errmsg(xw->ldb));
		return (-2);
	}
	if ((s = store_record(lb->store, id, r)) != 1 ||
	    r->game.status != STORE_LIVE) {
		store_record_free(r);
		sqldb_unlisten(xw->ldb, ch);
		if (s == 0)	/* leased, its begin not yet committed */
			buf_printf(err, "game %lld is starting on another "
			    "node: try again", (long long)id);
		else
			buf_printf(err, "no live game %lld", (long long)id);
		return (-1);
	}
	w = &xw->w[xw->n++];
	memset(w, 0, sizeof *w);
	w->id = id;
	w->inc_us = r->game.tc_inc_ms * 1000;
	w->base_ms = r->game.tc_base_ms;
	w->rated = r->game.rated;
	w->family = xstrdup(r->game.family);
	if (r->game.tournament != 0)
		w->tour = store_tour_name(lb->store, r->game.tournament);
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
	xwatch_announce(lb, id);
	return (0);
}

/*
 * Follows game id of another node (new, or already followed) into *wp;
 * *r is its record as of now (the caller frees it; moves after the
 * watch's ply not yet sent).  Returns 0, or xwatch_new's -1 or -2 with
 * err.
 */
int
lobby_xwatch_follow(struct lobby *lb, int64_t id, struct xwatch **wp,
    struct store_record *r, struct buf *err)
{
	int		 rc;

	if (lb->xwatch == NULL) {
		buf_printf(err, "no live game %lld", (long long)id);
		return (-1);
	}
	if ((*wp = lobby_xwatch_find(lb, id)) != NULL) {
		if (store_record(lb->store, id, r) != 1) {
			store_record_free(r);
			buf_printf(err, "game %lld: cannot read it",
			    (long long)id);
			return (-2);
		}
		return (0);
	}
	if ((rc = xwatch_new(lb, id, r, err)) != 0)
		return (rc);
	*wp = &lb->xwatch->w[lb->xwatch->n - 1];
	return (0);
}

/*
 * watch GAME_ID of a game this node does not have (lobby_watch): follows
 * it across nodes.  *lv is the game as of its last committed move (it
 * borrows the watch's memory, as lobby_watch's does).  Returns 0, or -1
 * with err.
 */
int
lobby_xwatch(struct lobby_client *lc, int64_t id, struct lobby_live *lv,
    struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lxwatch	*xw = lb->xwatch;
	struct game_error gerr;
	struct store_record r;
	struct xwatch	*w;
	size_t		 i;

	if ((w = lobby_xwatch_find(lb, id)) == NULL) {
		if (lc->nwatch >= LOBBY_MAX_WATCH) {
			buf_printf(err, "you watch %d games already (limit)",
			    LOBBY_MAX_WATCH);
			return (-1);
		}
		if (xwatch_new(lb, id, &r, err) != 0)
			return (-1);
		store_record_free(&r);
		w = &xw->w[xw->n - 1];
	}
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
	struct lxwatch	*xw = lc->lb->xwatch;
	struct xwatch	*w;
	size_t		 i, k;

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

/* Starts spectating across nodes on listening connection ldb. */
void
lobby_xwatch_init(struct lobby *lb, struct sqldb *db, struct sqldb *ldb)
{
	lb->xwatch = xcalloc(1, sizeof *lb->xwatch);
	lb->xwatch->ldb = ldb;
	lb->xdb = db;
	lb->xwatch->announce = lb->clock.timer_new(lb->clock.arg,
	    xwatch_announce_cb, lb);
	lb->clock.arm(lb->clock.arg, lb->xwatch->announce, XWATCH_ANNOUNCE_MS);
}

void
lobby_xwatch_free(struct lobby *lb)
{
	if (lb->xwatch == NULL)
		return;
	while (lb->xwatch->n > 0)
		xwatch_drop(lb, 0);
	lb->clock.timer_free(lb->clock.arg, lb->xwatch->announce);
	free(lb->xwatch);
	lb->xwatch = NULL;
	lb->xdb = NULL;
}
