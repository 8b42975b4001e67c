/*
 * lobby-where.c: a player's live games on other nodes (issue 15 §2,
 * PROTOCOL.md §13.12 "At login", doc/NODES.md "Redirects").  Only on a
 * node of a shared PostgreSQL store (lb->nd->node_id != 0): on a single
 * node nothing here runs.
 *
 * At a login the account's live games are read with their leases on the
 * login's worker (lobby_where_fetch: the store's read connection, never
 * the loop), and right after the reply and its `event live` lines each
 * game not live here gets (lwhere_login):
 *   - `event redirect HOST:PORT GAME_ID` when another live node holds its
 *     lease: its owner;
 *   - `event takeover GAME_ID you=SEAT` otherwise (the lease expired, its
 *     holder is dead or missed a beat, or this node took it and is
 *     restoring it): the game waits for a takeover, and the account may
 *     start no game meanwhile (lwhere_busy: `? you are playing game N
 *     ...`).
 * Either way the account is kept (a bounded set) while it is logged in
 * here, unseated, for at most LWHERE_WAIT_MS: every LWHERE_TICK_MS a
 * worker reads its games' leases again, and when another live node holds
 * one, other than the node it was last sent to, its connections here get
 * `event redirect HOST:PORT GAME_ID` (a redirect to a node that died, and
 * whose game another node took, is so followed by one to the taker); when
 * none does (its holder died, or this node is restoring it) the account
 * waits for the takeover as if told `event takeover` (lwhere_busy); a
 * game restored here gives its players logged in here `event live`
 * (lwhere_restored, from lobby-restore.c).
 *
 * It calls lobby-game.c (lobby_game) and lobby-queue.c; node-ops.c (the
 * lobby's login, busy, resume and restore) calls it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "lib/log.h"
#include "proto/proto.h"
#include "nodestore/store-where.h"
#include "lib/util.h"

#define LWHERE_TICK_MS	500	/* the waiting games' leases read again */
#define LWHERE_WAIT_MS	120000	/* an account told takeover is kept */
#define LWHERE_MAX	1024	/* accounts kept, the oldest dropped */

/* An account told `event takeover GAME_ID`. */
struct lwait {
	int64_t		 game;
	char		 name[LEAGUE_NAME_MAX + 1];
	uint64_t	 until;		/* lobby_clock_now */
	int64_t		 holder;	/* last redirected to; 0: waiting */
};

/* One read of the waiting games' leases, on a worker. */
struct lwhere_job {
	struct lobby	*lb;
	struct store	*st;
	int64_t		 now;		/* wall ms */
	size_t		 n;
	int64_t		 ids[STORE_WHERE_MAX];
	int		 rc[STORE_WHERE_MAX];
	struct store_where w[STORE_WHERE_MAX];
};

struct lwhere {
	struct lwait	*v;		/* oldest first */
	size_t		 n;
	struct clock_timer *tick;
	int		 armed;
	struct lwhere_job *job;		/* in flight, or NULL */
	size_t		 next;		/* the next read starts at v[next] */
};

/*
 * On the login's worker: reads the live games of account name and their
 * leases into lc->nd->where, for lwhere_login (lc's connection is busy
 * with the login: nothing else touches it meanwhile).
 */
void
lobby_where_fetch(struct lobby_client *lc, const char *name)
{
	struct lobby	*lb = lc->lb;

	if (lc->nd == NULL)		/* a single node */
		return;
	free(lc->nd->where);
	lc->nd->where = NULL;
	lc->nd->nwhere = 0;
	if (lnd(lb)->node_id == 0 || lb->store == NULL || name[0] == '\0')
		return;
	(void)store_where_player(lb->store, name, (int64_t)clock_wall_ms(),
	    &lc->nd->where, &lc->nd->nwhere);
}

/* Drops the waiting entries of game (all of them: game 0). */
static void
lwhere_drop(struct lwhere *w, int64_t game)
{
	size_t	 i, n = 0;

	for (i = 0; i < w->n; i++)
		if (game != 0 && w->v[i].game != game)
			w->v[n++] = w->v[i];
	w->n = n;
}

static void	lwhere_tick(void *);

/*
 * Keeps account name, told of game (redirected to node holder, or 0:
 * takeover), for LWHERE_WAIT_MS.
 */
static void
lwhere_wait(struct lobby *lb, int64_t game, const char *name,
    int64_t holder)
{
	struct lwhere	*w = lnd(lb)->where;
	struct lwait	*e = NULL;
	size_t		 i;

	if (w == NULL) {
		w = lb->nd->where = xcalloc(1, sizeof *w);
		w->v = xreallocarray(NULL, LWHERE_MAX, sizeof *w->v);
		w->tick = lb->clock.timer_new(lb->clock.arg, lwhere_tick, lb);
	}
	for (i = 0; i < w->n && e == NULL; i++)
		if (w->v[i].game == game && strcmp(w->v[i].name, name) == 0)
			e = &w->v[i];
	if (e == NULL && w->n == LWHERE_MAX) {
		memmove(&w->v[0], &w->v[1], (w->n - 1) * sizeof w->v[0]);
		w->n--;
	}
	if (e == NULL) {
		e = &w->v[w->n++];
		e->game = game;
		lobby_copy(e->name, name, sizeof e->name);
	}
	e->until = lobby_clock_now(lb) + LWHERE_WAIT_MS;
	e->holder = holder;
	if (!w->armed && lb->io.work != NULL) {
		lb->clock.arm(lb->clock.arg, w->tick, LWHERE_TICK_MS);
		w->armed = 1;
	}
}

static int
lwhere_name_cmp(const void *a, const void *b)
{
	return (strcmp((*(const struct lwait *const *)a)->name,
	    (*(const struct lwait *const *)b)->name));
}

/*
 * Marks here[i] for each kept account w->v[i] logged in here and unseated:
 * one pass over the clients, each name looked up among the kept ones
 * sorted by name (not every kept one against every client).
 */
static void
lwhere_here(struct lobby *lb, char *here)
{
	struct lwhere	*w = lnd(lb)->where;
	const struct lwait *by[LWHERE_MAX], **p, *kp;
	struct lwait	 key;
	struct lobby_client *lc;
	size_t		 i;

	for (i = 0; i < w->n; i++) {
		by[i] = &w->v[i];
		here[i] = 0;
	}
	qsort(by, w->n, sizeof by[0], lwhere_name_cmp);
	kp = &key;
	TAILQ_FOREACH(lc, &lb->clients, entry) {
		if (lc->game != NULL || lc->name[0] == '\0')
			continue;
		lobby_copy(key.name, lc->name, sizeof key.name);
		if ((p = bsearch(&kp, by, w->n, sizeof by[0],
		    lwhere_name_cmp)) == NULL)
			continue;
		while (p > by && strcmp(p[-1]->name, lc->name) == 0)
			p--;	/* the first of its games */
		for (; p < by + w->n && strcmp((*p)->name, lc->name) == 0; p++)
			here[*p - w->v] = 1;
	}
}

/*
 * Game is held by live node holder at addr: the accounts kept for it that
 * were not sent there yet get "event redirect ADDR GAME" on their
 * unseated connections here.
 */
static void
lwhere_redirect(struct lobby *lb, int64_t game, int64_t holder,
    const char *addr)
{
	struct lwhere	*w = lnd(lb)->where;
	struct lobby_client *lc;
	size_t		 i;

	for (i = 0; i < w->n; i++) {
		if (w->v[i].game != game || w->v[i].holder == holder)
			continue;
		w->v[i].holder = holder;
		TAILQ_FOREACH(lc, &lb->clients, entry)
			if (lc->game == NULL &&
			    strcmp(lc->name, w->v[i].name) == 0)
				lc_event(lc, "redirect %s %" PRId64, addr,
				    game);
		log_info("game=%" PRId64 " event=redirect-waiting name=%s "
		    "to=%s", game, w->v[i].name, addr);
	}
}

/* No live node but this one (restoring it) holds game now: its accounts
 * wait for the takeover (lwhere_busy). */
static void
lwhere_unheld(struct lwhere *w, int64_t game)
{
	size_t	 i;

	for (i = 0; i < w->n; i++)
		if (w->v[i].game == game)
			w->v[i].holder = 0;
}

/* The worker's part: each waiting game's lease. */
static void
lwhere_job_work(void *arg)
{
	struct lwhere_job *j = arg;
	size_t		 i;

	for (i = 0; i < j->n; i++)
		j->rc[i] = store_where_game(j->st, j->ids[i], j->now,
		    &j->w[i]);
}

/* On the loop: redirects to a new live owner; drops ended games and
 * those restored here. */
static void
lwhere_job_done(void *arg)
{
	struct lwhere_job *j = arg;
	size_t		 i;

	lnd(j->lb)->where->job = NULL;
	for (i = 0; i < j->n; i++)
		if (j->rc[i] == 0 || lobby_game(j->lb, j->ids[i]) != NULL)
			lwhere_drop(lnd(j->lb)->where, j->ids[i]);
		else if (j->rc[i] == 1 && j->w[i].held && j->w[i].alive &&
		    j->w[i].holder != lnd(j->lb)->node_id &&
		    j->w[i].addr[0] != '\0')
			lwhere_redirect(j->lb, j->ids[i], j->w[i].holder,
			    j->w[i].addr);
		else if (j->rc[i] == 1)
			lwhere_unheld(lnd(j->lb)->where, j->ids[i]);
	free(j);
}

/* Starts a read of the waiting games' leases (one game once each). */
static void
lwhere_job_start(struct lobby *lb)
{
	struct lwhere	*w = lnd(lb)->where;
	struct lwhere_job *j;
	size_t		 c, i, k;

	j = xcalloc(1, sizeof *j);
	j->lb = lb;
	j->st = lb->store;
	j->now = (int64_t)clock_wall_ms();
	/* From where the last read stopped, so that no game starves. */
	if (w->next >= w->n)
		w->next = 0;
	for (c = 0; c < w->n && j->n < STORE_WHERE_MAX; c++) {
		i = (w->next + c) % w->n;
		for (k = 0; k < j->n && j->ids[k] != w->v[i].game; k++)
			;
		if (k == j->n)
			j->ids[j->n++] = w->v[i].game;
	}
	w->next = (w->next + c) % w->n;
	w->job = j;
	lobby_work(lb, lwhere_job_work, lwhere_job_done, j);
}

/* Every LWHERE_TICK_MS while an account waits: expiry, then a read. */
static void
lwhere_tick(void *arg)
{
	struct lobby	*lb = arg;
	struct lwhere	*w = lnd(lb)->where;
	uint64_t	 now = lobby_clock_now(lb);
	size_t		 i, n = 0;
	char		 here[LWHERE_MAX];

	w->armed = 0;
	lwhere_here(lb, here);
	for (i = 0; i < w->n; i++)	/* gone, seated or too old: dropped */
		if (w->v[i].until > now && here[i])
			w->v[n++] = w->v[i];
	w->n = n;
	if (w->n == 0)
		return;
	if (w->job == NULL)
		lwhere_job_start(lb);
	lb->clock.arm(lb->clock.arg, w->tick, LWHERE_TICK_MS);
	w->armed = 1;
}

/*
 * Right after a login's reply and its event live lines: each live game of
 * the account not live here (lobby_where_fetch read them) gets event
 * redirect (another live node holds it) or event takeover (it waits for
 * a takeover).  Returns the number of events sent.
 */
size_t
lwhere_login(struct lobby_client *lc)
{
	struct lobby	*lb = lc->lb;
	struct store_where *r;
	size_t		 i, k = 0;

	if (lc->nd == NULL)	/* came before a single node's drain */
		return (0);
	for (i = 0; i < lc->nd->nwhere; i++) {
		r = &lc->nd->where[i];
		if (r->seat == 0 || lobby_game(lb, r->game) != NULL)
			continue;	/* here: event live said it */
		k++;
		if (r->held && r->alive && r->holder != lnd(lb)->node_id &&
		    r->addr[0] != '\0') {
			lc_event(lc, "redirect %s %" PRId64, r->addr, r->game);
			lwhere_wait(lb, r->game, lc->name, r->holder);
			continue;
		}
		lc_event(lc, "takeover %" PRId64 " you=%d", r->game, r->seat);
		log_info("conn=%llu game=%" PRId64 " event=takeover-waiting "
		    "name=%s holder=%" PRId64 " held=%d alive=%d",
		    (unsigned long long)lc->connid, r->game, lc->name,
		    r->holder, r->held, r->alive);
		lwhere_wait(lb, r->game, lc->name, 0);
	}
	free(lc->nd->where);
	lc->nd->where = NULL;
	lc->nd->nwhere = 0;
	return (k);
}

/*
 * Game g was restored here (lobby-restore.c told its players): its
 * accounts wait for it no more.
 */
void
lwhere_restored(struct lobby *lb, struct lgame *g)
{
	if (lnd(lb)->where != NULL)
		lwhere_drop(lnd(lb)->where, g->id);
}

/* The entry of account name waiting for a takeover (of game, or any:
 * 0), or with held, also one whose game another live node holds; NULL
 * if none. */
static struct lwait *
lwhere_find(struct lobby *lb, const char *name, int64_t game, int held)
{
	struct lwhere	*w = lnd(lb)->where;
	uint64_t	 now;
	size_t		 i;

	if (w == NULL || name[0] == '\0')
		return (NULL);
	now = lobby_clock_now(lb);
	for (i = 0; i < w->n; i++)
		if (w->v[i].until > now && (held || w->v[i].holder == 0) &&
		    (game == 0 || w->v[i].game == game) &&
		    strcmp(w->v[i].name, name) == 0)
			return (&w->v[i]);
	return (NULL);
}

/*
 * The game account name was told of at login, live on another node or
 * waiting for a takeover, or 0 (lobby_busy asks it past lobby_playing).
 */
int64_t
lwhere_held(struct lobby *lb, const char *name)
{
	struct lwait	*e;

	return ((e = lwhere_find(lb, name, 0, 1)) != NULL ? e->game : 0);
}

/*
 * Refuses a new game to an account whose game is live on another node
 * or waits for a takeover: 0, or -1 with err.
 */
int
lwhere_busy(struct lobby_client *lc, struct buf *err)
{
	struct lwait	*e;

	if ((e = lwhere_find(lc->lb, lc->name, 0, 1)) == NULL)
		return (0);
	if (e->holder != 0)
		buf_printf(err, "you are playing game %" PRId64 " on another "
		    "node: resume it there (event redirect)", e->game);
	else
		buf_printf(err, "you are playing game %" PRId64 ": it is being "
		    "taken over (wait for event live or event redirect)",
		    e->game);
	return (-1);
}

/*
 * resume GAME_ID of a game not live here: -1 with err when it waits for a
 * takeover (the account was told), else 0.
 */
int
lwhere_resume(struct lobby_client *lc, int64_t game, struct buf *err)
{
	if (game <= 0 || lwhere_find(lc->lb, lc->name, game, 0) == NULL)
		return (0);
	buf_printf(err, "game %" PRId64 " is being taken over: try again "
	    "after event live or event redirect", game);
	return (-1);
}

/* Frees the waiting set (lobby_free: the workers are joined). */
void
lwhere_free(struct lobby *lb)
{
	struct lwhere	*w = lnd(lb)->where;

	if (w == NULL)
		return;
	lb->clock.timer_free(lb->clock.arg, w->tick);
	free(w->job);
	free(w->v);
	free(w);
	lb->nd->where = NULL;
}

/* Whether the lobby is a node of several (a shared store). */
int
lobby_where_cluster(const struct lobby *lb)
{
	return (lb->nd != NULL && lnd(lb)->node_id != 0 && lb->store != NULL);
}

/*
 * On a worker: the live games of the log with their leases (a single
 * node: none).  Returns 0, or -1 if the log cannot be read.
 */
int
lobby_where_live(struct lobby *lb, struct store_elsewhere *e)
{
	memset(e, 0, sizeof *e);
	if (!lobby_where_cluster(lb))
		return (0);
	return (store_where_live(lb->store, (int64_t)clock_wall_ms(), e));
}

/*
 * On the loop: marks each game of e not refereed elsewhere (a game of
 * this lobby, live or ending, or held by this node): its where[].game 0.
 */
void
lobby_where_mark(struct lobby *lb, struct store_elsewhere *e)
{
	size_t	 i;

	for (i = 0; e->games != NULL && i < e->games->n; i++)
		if (lobby_game(lb, e->games->games[i].id) != NULL ||
		    (e->where[i].held &&
		    e->where[i].holder == lnd(lb)->node_id))
			e->where[i].game = 0;
}

/* On a worker, before `games live` runs on the loop (cf. watch). */
void
lobby_where_live_prefetch(struct lobby_client *lc)
{
	struct store_elsewhere *e;

	if (lc->nd == NULL)
		return;
	lobby_where_live_drop(lc);
	e = xcalloc(1, sizeof *e);
	if (lobby_where_live(lc->lb, e) != 0) {
		free(e);
		return;
	}
	lc->nd->xlive = e;
}

/*
 * On the loop: hands out what lobby_where_live_prefetch read, marked
 * (lobby_where_mark; free it with store_elsewhere_free, then free), or
 * NULL.
 */
struct store_elsewhere *
lobby_where_live_take(struct lobby_client *lc)
{
	struct store_elsewhere *e;

	if (lc->nd == NULL || (e = lc->nd->xlive) == NULL)
		return (NULL);
	lc->nd->xlive = NULL;
	lobby_where_mark(lc->lb, e);
	return (e);
}

/* Frees what was read and never taken (a connection leaves). */
void
lobby_where_live_drop(struct lobby_client *lc)
{
	struct store_elsewhere *e = lobby_where_live_take(lc);

	if (e != NULL)
		store_elsewhere_free(e);
	free(e);
}
