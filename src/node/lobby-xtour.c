/*
 * lobby-xtour.c: tournaments across nodes (issue 15 §2, PROTOCOL.md
 * §13.6 and §13.12, doc/NODES.md).  Only on a node of a shared PostgreSQL
 * database (lb->nd->node_id != 0); on a single node nothing here changes
 * what the lobby does.
 *
 * Every tournament game is played on the scheduler's node, the holder of
 * the scheduler's lock (lb->nd->leader), whose memory of the tournaments
 * is the truth while it holds the lock:
 *
 *   - On taking the lock it reads every running or paused tournament
 *     again from the database, on a worker (xtour_all_start; it schedules
 *     no tournament game until that read succeeded): the games another scheduler
 *     finished count, a slot whose game is live in the log (refereed or
 *     to be taken over by some node) waits for that game (its remote)
 *     instead of starting a second one, and this node's own live games
 *     keep their slots.
 *   - Every XTOUR_TICK_MS it announces itself: NOTIFY lobby 'scheduler
 *     NODE HOST:PORT ROSTER' (XTOUR_NOTE; ROSTER a hash of who plays in
 *     its running tournaments), and reads again the tournaments with
 *     a slot waiting for a remote game, until that game ended in the log.
 *   - It counts its announcements (lb->nd->xtour_seq): a forfeit wait
 *     starts only after one published after the slot became due (its
 *     xseq; lobby-tour.c asks lobby_xtour_called): every node redirects the tournament's players on
 *     that announcement, so no player connected elsewhere loses a game
 *     before being told where to play it.
 *
 * The other nodes learn the scheduler from the announcement (an address
 * heard more than XTOUR_STALE_MS ago is forgotten), and read the players
 * of the running tournaments from the log when ROSTER changed (so neither
 * a login nor an announcement reads the log otherwise).  On each
 * announcement, and at each login, they send
 * `event redirect HOST:PORT` to every logged-in connection, once per
 * scheduler, whose account plays in a running tournament (not withdrawn)
 * and has no live game on this node.  They refuse the commands that
 * change a tournament (the scheduler's memory would not see the change),
 * and answer `standings`, `crosstable`, `tournament show` and the
 * tournament pages from the database, as the scheduler would: read on a
 * worker before the command or page (lobby-xtread.c), applied here
 * (lobby_xtour_apply).
 *
 * Calls lobby-tour.c (the schedule), lobby-game.c, lobby-queue.c
 * (events) and the league; lobby-lease.c (the lock), lobby-xnode.c (the
 * notification), node-ops.c (the lobby's calls: login, schedule, forfeit
 * waits, reads) and cmd-tour.c call it.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "lib/log.h"
#include "db/sqldb.h"
#include "lib/util.h"

#define XTOUR_TICK_MS	1000	/* the scheduler's announcement */
#define XTOUR_STALE_MS	(3 * XTOUR_TICK_MS)	/* then: no scheduler known */
#define XTOUR_NOTE	"scheduler "
#define XTOUR_LIVE_MAX	4096	/* live games of a tournament read */
#define XTOUR_FRESH_MS	XTOUR_TICK_MS	/* a read for answers serves so long */
#define XTOUR_REMOTE_MAX 64	/* tournaments read again per tick */

struct lxtour {
	struct clock_timer *tick;	/* the scheduler's announcement */
	int64_t		 node;		/* the scheduler heard, 0: none */
	char		 addr[PROTO_ADDR_MAX + 1];
	uint64_t	 heard;		/* lobby_clock_now of that */
	/* The players of its running tournaments (not withdrawn), read
	 * again when its announced roster hash changes. */
	uint64_t	 roster;
	int		 have_roster;
	char		(*names)[LEAGUE_NAME_MAX + 1];
	size_t		 nnames;
	struct xtour_job *tick_job;	/* the tick's read, in flight */
	struct xtour_job *all_job;	/* a new scheduler's, in flight */
	unsigned int	 gen;		/* the scheduler's lock taken or lost */
	struct xtour_job *roster_job;	/* the roster's read, in flight */
	struct xtour_say *say;		/* the announcement, in flight */
};

/* The scheduler's announcement, a NOTIFY sent by a worker. */
struct xtour_say {
	struct lobby	*lb;
	struct sqldb	*db;
	char		 pay[PROTO_ADDR_MAX + 64];
	int		 rc;
};

/*
 * A read of the log on a worker (the loop never waits for the
 * database): the tournaments (all: the roster; running or paused: the
 * tick) and, for the tick, the games of those with a slot waiting for a
 * remote game.
 */
struct xtour_job {
	struct lobby	*lb;
	int		 roster;
	int		 all;		/* a new scheduler's (xtour_all_start) */
	unsigned int	 gen;		/* lxtour's when it started */
	int64_t		*mem;		/* all: the tournaments live here */
	size_t		 nmem;
	int		 rc;
	struct league_tournament *v;
	size_t		 n;
	size_t		 ngot;
	struct xtour_got *got;		/* XTOUR_REMOTE_MAX, or all: n */
};

static void	xtour_job_free(struct xtour_job *);

static struct lxtour *
xtour_get(struct lobby *lb)
{
	if (lnd(lb)->xtour == NULL)
		lb->nd->xtour = xcalloc(1, sizeof *lb->nd->xtour);
	return (lnd(lb)->xtour);
}

/* t's node state, made when first needed. */
static struct nd_tour *
xtour_tour(struct ltour *t)
{
	if (t->nd == NULL)
		t->nd = xcalloc(1, sizeof *t->nd);
	return (t->nd);
}

/* The node state of slot i of t, made when first needed. */
static struct nd_slot *
xtour_slot(struct ltour *t, size_t i)
{
	struct nd_tour	*x = xtour_tour(t);

	if (i >= x->nslots) {
		x->slots = xreallocarray(x->slots, t->nslots, sizeof *x->slots);
		memset(x->slots + x->nslots, 0,
		    (t->nslots - x->nslots) * sizeof *x->slots);
		x->nslots = t->nslots;
	}
	return (&x->slots[i]);
}

/* Frees the node's tournament state (lobby_free). */
void
lobby_xtour_free(struct lobby *lb)
{
	free(lnd(lb)->xbusy);
	lb->nd->xbusy = NULL;
	lb->nd->nxbusy = 0;
	if (lnd(lb)->xtour == NULL)
		return;
	if (lnd(lb)->xtour->tick != NULL)
		lb->clock.timer_free(lb->clock.arg, lnd(lb)->xtour->tick);
	/* The workers are joined. */
	xtour_job_free(lnd(lb)->xtour->tick_job);
	xtour_job_free(lnd(lb)->xtour->all_job);
	xtour_job_free(lnd(lb)->xtour->roster_job);
	free(lnd(lb)->xtour->say);
	free(lnd(lb)->xtour->names);
	free(lnd(lb)->xtour);
	lb->nd->xtour = NULL;
}

/* Returns 1 on a node that does not schedule the tournaments now. */
int
lobby_xtour_follower(const struct lobby *lb)
{
	return (lnd(lb)->node_id != 0 && !lnd(lb)->leader);
}

/*
 * Whether this node schedules the tournaments now (lobby_schedule asks):
 * on a node, only the holder of the scheduler's lock once it read them;
 * then the players of the slots waiting for a game live in the log but
 * refereed elsewhere (remote) are busy until it ends there
 * (lobby_xtour_busy).
 */
int
lobby_xtour_schedules(struct lobby *lb)
{
	struct ltour	*t;
	size_t		 i, k, p[2];

	if (lobby_xtour_follower(lb))		/* another node schedules */
		return (0);
	if (lnd(lb)->xtour_stale)	/* a new scheduler: tournaments not
					 * read */
		return (0);
	lb->nd->nxbusy = 0;
	if (lnd(lb)->node_id == 0)
		return (1);
	TAILQ_FOREACH(t, &lb->tours, entry)
		for (i = 0; i < t->nslots; i++) {
			if (t->slots[i].state != LSLOT_PLAYING ||
			    lobby_xtour_remote(t, i) == 0)
				continue;
			p[0] = t->slots[i].a;
			p[1] = t->slots[i].b;
			lb->nd->xbusy = xreallocarray(lb->nd->xbusy,
			    lb->nd->nxbusy + 2, sizeof *lb->nd->xbusy);
			for (k = 0; k < 2; k++)
				lobby_copy(lb->nd->xbusy[lb->nd->nxbusy++],
				    t->def.players[p[k]],
				    sizeof *lb->nd->xbusy);
		}
	return (1);
}

/* Whether account name plays a remote game of a tournament (as above). */
int
lobby_xtour_busy(struct lobby *lb, const char *name)
{
	return (ltour_name_in(lnd(lb)->xbusy, lnd(lb)->nxbusy, name));
}

/*
 * Whether slot s may start its forfeit wait now: on a node (the
 * scheduler), only once an announcement was published after the slot
 * became due, on which every node redirects its players here.
 */
int
lobby_xtour_called(struct lobby *lb, struct ltour *t, size_t i)
{
	struct nd_slot	*s;

	if (lnd(lb)->node_id == 0)
		return (1);
	if ((s = xtour_slot(t, i))->xseq == 0) {
		s->xseq = lnd(lb)->xtour_seq + 1;
		return (0);
	}
	return (lnd(lb)->xtour_seq >= s->xseq);
}

/* Slot i of t: its forfeit wait is off (it waits for no announcement). */
void
lobby_xtour_uncall(struct ltour *t, size_t i)
{
	if (t->nd != NULL && i < t->nd->nslots)
		t->nd->slots[i].xseq = 0;
}

/* The live game of the log slot i of t waits for, refereed elsewhere, or
 * 0. */
int64_t
lobby_xtour_remote(const struct ltour *t, size_t i)
{
	return (t->nd != NULL && i < t->nd->nslots ? t->nd->slots[i].remote :
	    0);
}

/* Slot i of t: its game is refereed here now (lobby-restore.c). */
void
lobby_xtour_here(struct ltour *t, size_t i)
{
	if (t->nd != NULL && i < t->nd->nslots)
		t->nd->slots[i].remote = 0;
}

/* t is freed: its node state goes. */
void
lobby_xtour_tour_free(struct ltour *t)
{
	free(t->nd->slots);
	free(t->nd);
	t->nd = NULL;
}

/*
 * The scheduler heard within XTOUR_STALE_MS, or NULL (with the node id in
 * *node when not NULL).
 */
static const char *
xtour_sched(struct lobby *lb, int64_t *node)
{
	struct lxtour	*x = lnd(lb)->xtour;

	if (x == NULL || x->node == 0 || x->heard == 0 ||
	    lobby_clock_now(lb) - x->heard > XTOUR_STALE_MS)
		return (NULL);
	if (node != NULL)
		*node = x->node;
	return (x->addr);
}

/*
 * Marks the slots of f (just read from the log) that have a game in play:
 * this node's own live games and forfeits on their way to the log (of t,
 * the tournament f replaces), then the log's other live games (remote).
 * Returns 0, or -1 on a database error.
 */
static int
xtour_playing(struct lobby *lb, struct ltour *t, struct ltour *f,
    const struct xtour_got *got)
{
	struct lgame	*g;
	struct lforfeit	*ff;
	int64_t		*ids, *slots;
	int		 n, i;

	TAILQ_FOREACH(g, &lb->games, entry)
		if (g->tour == t && !lg_over(g) && g->slot < f->nslots &&
		    f->slots[g->slot].state == LSLOT_PENDING)
			lslot_enter(f, g->slot, LSLOT_PLAYING);
	TAILQ_FOREACH(ff, &t->forfeits, entry)
		if (ff->slot < f->nslots &&
		    f->slots[ff->slot].state == LSLOT_PENDING)
			lslot_enter(f, ff->slot, LSLOT_PLAYING);
	ids = got->ids;		/* read on a worker */
	slots = got->slots;
	n = got->nlive;
	for (i = 0; i < n; i++)
		if (slots[i] >= 0 && (size_t)slots[i] < f->nslots &&
		    f->slots[slots[i]].state == LSLOT_PENDING &&
		    lobby_game(lb, ids[i]) == NULL) {
			lslot_enter(f, (size_t)slots[i], LSLOT_PLAYING);
			xtour_slot(f, (size_t)slots[i])->remote = ids[i];
		}
	return (n < 0 ? -1 : 0);
}

/*
 * Makes t (in lb->tours, maybe a new one) the tournament d as the log has
 * it (d's contents are taken); a slot still pending keeps its forfeit
 * wait.  Returns 0, or -1 on a database error (t unchanged).
 */
static int
xtour_sync(struct lobby *lb, struct ltour *t, struct league_tournament *d,
    const struct xtour_got *got)
{
	struct ltour	*f;
	struct ltour	 keep;
	size_t		 i;

	f = xcalloc(1, sizeof *f);
	f->def = *d;
	memset(d, 0, sizeof *d);
	f->lb = lb;
	lobby_tour_slots(f);
	lobby_tour_replay_games(f, got->tg, got->ng);	/* read on a worker */
	ltour_withdrawn_stop(f);
	if (xtour_playing(lb, t, f, got) != 0) {
		ltour_free(f);
		return (-1);
	}
	for (i = 0; i < f->nslots && i < t->nslots; i++)
		if (f->slots[i].state == LSLOT_PENDING &&
		    t->slots[i].state == LSLOT_PENDING &&
		    f->slots[i].a == t->slots[i].a &&
		    f->slots[i].b == t->slots[i].b) {
			f->slots[i].waiting = t->slots[i].waiting;
			xtour_slot(f, i)->xseq = xtour_slot(t, i)->xseq;
		}
	/* Swap the schedules; t keeps its place, timer and forfeits. */
	keep = *t;
	t->def = f->def;
	t->slots = f->slots;
	t->nslots = f->nslots;
	t->npairings = f->npairings;
	t->round = f->round;
	t->byes = f->byes;
	t->sprt = f->sprt;
	f->def = keep.def;
	f->slots = keep.slots;
	f->byes = keep.byes;
	t->nd = f->nd;		/* the node state of f's slots */
	f->nd = keep.nd;
	ltour_free(f);
	xtour_tour(t)->xfresh = lobby_clock_now(lb) | 1;
	return (0);
}

/* A new tournament of the lobby, in id (creation) order; xtour_sync fills
 * it. */
static struct ltour *
xtour_new(struct lobby *lb, int64_t id)
{
	struct ltour	*t, *after;

	t = xcalloc(1, sizeof *t);
	t->lb = lb;
	t->def.id = id;
	TAILQ_INIT(&t->forfeits);
	TAILQ_FOREACH(after, &lb->tours, entry)
		if (after->def.id > id)
			break;
	if (after != NULL)
		TAILQ_INSERT_BEFORE(after, t, entry);
	else
		TAILQ_INSERT_TAIL(&lb->tours, t, entry);
	return (t);
}

/*
 * Makes d (read from the log on a worker with its games, got; d's
 * contents are taken) the lobby's copy of its tournament, a new one if the
 * lobby has none.  Returns 0, or -1 if got is a failed read (the lobby
 * unchanged).
 */
int
lobby_xtour_apply(struct lobby *lb, struct league_tournament *d,
    const struct xtour_got *got)
{
	struct ltour	*t;

	if (got->rc != 0)
		return (-1);
	TAILQ_FOREACH(t, &lb->tours, entry)
		if (t->def.id == d->id)
			break;
	if (t != NULL)
		return (xtour_sync(lb, t, d, got));
	t = xtour_new(lb, d->id);
	if (xtour_sync(lb, t, d, got) == 0)
		return (0);
	TAILQ_REMOVE(&lb->tours, t, entry);
	ltour_free(t);
	return (-1);
}

/* Returns 1 if t was read from the log within XTOUR_FRESH_MS. */
int
lobby_xtour_is_fresh(struct lobby *lb, const struct ltour *t)
{
	return (t != NULL && t->nd != NULL && t->nd->xfresh != 0 &&
	    lobby_clock_now(lb) - t->nd->xfresh < XTOUR_FRESH_MS);
}

/* Returns 1 if a status is running or paused. */
static int
xtour_live_status(enum league_tstatus s)
{
	return (s == LEAGUE_T_RUNNING || s == LEAGUE_T_PAUSED);
}

/*
 * On a worker: the games of tournament g->id and its live games in the
 * log, into g (for xtour_sync).
 */
void
lobby_xtour_got_read(struct lobby *lb, struct xtour_got *g)
{
	g->ids = xcalloc(XTOUR_LIVE_MAX, sizeof *g->ids);
	g->slots = xcalloc(XTOUR_LIVE_MAX, sizeof *g->slots);
	g->rc = league_tournament_games(lb->league, g->id, &g->tg, &g->ng);
	if (g->rc == 0 && lb->store != NULL && (g->nlive = store_tour_live(
	    lb->store, g->id, g->ids, g->slots, XTOUR_LIVE_MAX)) < 0)
		g->rc = -1;
}

/* Frees reads got[0..n-1] and got. */
void
lobby_xtour_got_free(struct xtour_got *got, size_t n)
{
	size_t	 i;

	for (i = 0; got != NULL && i < n; i++) {
		free(got[i].tg);
		free(got[i].ids);
		free(got[i].slots);
	}
	free(got);
}

/* Frees a read of the log (lobby_xtour_free: the workers are joined). */
static void
xtour_job_free(struct xtour_job *j)
{
	if (j == NULL)
		return;
	league_tournaments_free(j->v, j->n);
	lobby_xtour_got_free(j->got, j->ngot);
	free(j->mem);
	free(j);
}

/* Whether id is one of ids[0..n-1]. */
static int
xtour_has(const int64_t *ids, size_t n, int64_t id)
{
	while (n-- > 0)
		if (ids[n] == id)
			return (1);
	return (0);
}

/* On a worker: the tournaments, then each one's games and live games. */
static void
xtour_job_work(void *arg)
{
	struct xtour_job *j = arg;
	size_t		 i;

	j->rc = league_tournaments(j->lb->league, !j->roster, &j->v, &j->n);
	if (j->all && j->rc == 0) {	/* live in the log or here */
		j->got = xcalloc(j->n + 1, sizeof *j->got);
		for (i = 0; i < j->n; i++)
			if (xtour_live_status(j->v[i].status) ||
			    xtour_has(j->mem, j->nmem, j->v[i].id))
				j->got[j->ngot++].id = j->v[i].id;
	}
	for (i = 0; j->rc == 0 && i < j->ngot; i++)
		lobby_xtour_got_read(j->lb, &j->got[i]);
}

/* Runs j on a worker, then done on the loop. */
static void
xtour_job_start(struct lobby *lb, struct xtour_job *j, void (*done)(void *))
{
	lobby_work(lb, xtour_job_work, done, j);
}

/* Returns 1 if t has a slot waiting for a game refereed elsewhere. */
static int
xtour_remote(const struct ltour *t)
{
	size_t	 i;

	for (i = 0; i < t->nslots; i++)
		if (t->slots[i].state == LSLOT_PLAYING &&
		    lobby_xtour_remote(t, i) != 0)
			return (1);
	return (0);
}

/* FNV-1a of n bytes into h. */
static uint64_t
xtour_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n-- > 0)
		h = (h ^ *c++) * UINT64_C(0x100000001b3);
	return (h);
}

/*
 * The hash of who plays in the running tournaments (ids, players, their
 * withdrawals), announced: another node reads the players again when it
 * changes.
 */
static uint64_t
xtour_roster_hash(struct lobby *lb)
{
	struct ltour	*t;
	uint64_t	 h = UINT64_C(0xcbf29ce484222325);
	size_t		 i;
	int		 w;

	TAILQ_FOREACH(t, &lb->tours, entry) {
		if (t->def.status != LEAGUE_T_RUNNING)
			continue;
		h = xtour_fnv(h, &t->def.id, sizeof t->def.id);
		for (i = 0; i < t->def.nplayers; i++) {
			w = t->def.wround != NULL && t->def.wround[i] != 0;
			h = xtour_fnv(h, t->def.players[i],
			    strlen(t->def.players[i]) + 1);
			h = xtour_fnv(h, &w, sizeof w);
		}
	}
	return (h);
}

/*
 * On the loop, the tick's read done: each tournament waiting for a remote
 * game as the log has it now (SPRT, its end), then the schedule.
 */
static void
xtour_tick_done(void *arg)
{
	struct xtour_job *j = arg;
	struct lobby	*lb = j->lb;
	struct ltour	*t;
	size_t		 i, k;

	lnd(lb)->xtour->tick_job = NULL;
	for (i = 0; lnd(lb)->leader && j->rc == 0 && i < j->ngot; i++) {
		for (k = 0; k < j->n && j->v[k].id != j->got[i].id; k++)
			;
		TAILQ_FOREACH(t, &lb->tours, entry)
			if (t->def.id == j->got[i].id)
				break;
		if (j->got[i].rc != 0 || k == j->n || t == NULL ||
		    !xtour_live_status(t->def.status) || !xtour_remote(t))
			continue;
		if (xtour_sync(lb, t, &j->v[k], &j->got[i]) == 0)
			ltour_after_result(lb, t);	/* SPRT, end */
	}
	if (j->rc != 0)
		log_warnx("node=%" PRId64 " event=xtour-read-failed",
		    lnd(lb)->node_id);
	if (lnd(lb)->leader)
		lobby_schedule(lb);
	xtour_job_free(j);
}

/* On a worker: the announcement's NOTIFY (the loop never waits for it). */
static void
xtour_say_work(void *arg)
{
	struct xtour_say *a = arg;

	a->rc = sqldb_notify(a->db, "lobby", a->pay);
}

/* Back on the loop: a forfeit wait may start once the others heard it. */
static void
xtour_say_done(void *arg)
{
	struct xtour_say *a = arg;
	struct lobby	*lb = a->lb;

	lnd(lb)->xtour->say = NULL;
	if (a->rc >= 0)
		lb->nd->xtour_seq++;	/* forfeit waits may start */
	else
		log_warnx("node=%" PRId64 " event=xtour-announce-failed",
		    lnd(lb)->node_id);
	free(a);
}

/*
 * On the loop, a new scheduler's read done: every tournament running or
 * paused in the log or in this node's memory (one another scheduler
 * finished or cancelled) as the log has it, then their SPRT and end, and
 * the schedule.  If the database failed (or the lock changed hands
 * meanwhile), the node still does not schedule tournaments
 * (lb->nd->xtour_stale) and the tick reads again.
 */
static void
xtour_all_done(void *arg)
{
	struct xtour_job *j = arg;
	struct lobby	*lb = j->lb;
	struct lxtour	*x = lnd(lb)->xtour;
	struct ltour	*t;
	size_t		 i, k;
	int		 rv = j->rc;

	x->all_job = NULL;
	if (!lnd(lb)->leader || j->gen != x->gen) {
		xtour_job_free(j);
		return;
	}
	for (i = 0; rv == 0 && i < j->ngot; i++)
		if (j->got[i].rc != 0)
			rv = -1;
	for (i = 0; rv == 0 && i < j->ngot; i++) {
		for (k = 0; k < j->n && j->v[k].id != j->got[i].id; k++)
			;
		if (lobby_xtour_apply(lb, &j->v[k], &j->got[i]) != 0)
			rv = -1;
	}
	xtour_job_free(j);
	if ((lb->nd->xtour_stale = rv != 0)) {
		log_warnx("node=%" PRId64 " event=xtour-read-failed "
		    "msg=\"the scheduler waits for the tournaments\"",
		    lnd(lb)->node_id);
		return;
	}
	TAILQ_FOREACH(t, &lb->tours, entry)
		if (xtour_live_status(t->def.status))
			ltour_after_result(lb, t);	/* SPRT, end */
	lobby_schedule(lb);
}

/*
 * A new scheduler (or one whose last read failed) reads every tournament
 * again, on a worker (xtour_all_done), unless such a read is in flight.
 */
static void
xtour_all_start(struct lobby *lb)
{
	struct lxtour	*x = lnd(lb)->xtour;
	struct xtour_job *j;
	struct ltour	*t;

	if (x->all_job != NULL)
		return;
	j = x->all_job = xcalloc(1, sizeof *j);
	j->lb = lb;
	j->all = 1;
	j->gen = x->gen;
	TAILQ_FOREACH(t, &lb->tours, entry)
		if (xtour_live_status(t->def.status)) {
			j->mem = xreallocarray(j->mem, j->nmem + 1,
			    sizeof *j->mem);
			j->mem[j->nmem++] = t->def.id;
		}
	xtour_job_start(lb, j, xtour_all_done);
}

/*
 * The scheduler's tick: announces itself (a NOTIFY on a worker, one at a
 * time: a tick while the last one is still on its way announces nothing),
 * follows remote games (their tournaments read on a worker:
 * xtour_tick_done).
 */
static void
xtour_tick_cb(void *arg)
{
	struct lobby	*lb = arg;
	struct lxtour	*x = lnd(lb)->xtour;
	struct ltour	*t;
	struct xtour_job *j;
	struct xtour_say *a;

	if (!lnd(lb)->leader)
		return;
	if (lb->nd->xtour_stale)
		xtour_all_start(lb);
	if (lb->nd->xdb == NULL)
		log_warnx("node=%" PRId64 " event=xtour-announce-failed",
		    lnd(lb)->node_id);
	else if (x->say == NULL) {
		a = x->say = xcalloc(1, sizeof *a);
		a->lb = lb;
		a->db = lb->nd->xdb;
		snprintf(a->pay, sizeof a->pay, XTOUR_NOTE "%" PRId64
		    " %s %016" PRIx64, lnd(lb)->node_id, lnd(lb)->node_addr,
		    xtour_roster_hash(lb));
		lobby_work(lb, xtour_say_work, xtour_say_done, a);
	}
	j = xcalloc(1, sizeof *j);
	j->lb = lb;
	j->got = xcalloc(XTOUR_REMOTE_MAX, sizeof *j->got);
	TAILQ_FOREACH(t, &lb->tours, entry)
		if (j->ngot < XTOUR_REMOTE_MAX &&
		    xtour_live_status(t->def.status) && xtour_remote(t))
			j->got[j->ngot++].id = t->def.id;
	if (j->ngot > 0 && x->tick_job == NULL) {
		x->tick_job = j;
		xtour_job_start(lb, j, xtour_tick_done);
	} else
		xtour_job_free(j);
	lobby_schedule(lb);
	lb->clock.arm(lb->clock.arg, x->tick, XTOUR_TICK_MS);
}

/*
 * The node took (1) or lost (0) the scheduler's lock (lobby_set_leader,
 * before it schedules): a new scheduler reads the tournaments again (on a
 * worker: it schedules none until that read is done) and announces
 * itself at once.
 */
void
lobby_xtour_leader(struct lobby *lb, int leader)
{
	struct lxtour	*x;

	if (lnd(lb)->node_id == 0)
		return;
	x = xtour_get(lb);
	if (x->tick == NULL)
		x->tick = lb->clock.timer_new(lb->clock.arg, xtour_tick_cb,
		    lb);
	x->gen++;		/* a read in flight is of another term */
	if (!leader) {
		lb->clock.cancel(lb->clock.arg, x->tick);
		return;
	}
	lb->nd->xtour_stale = 1;	/* no scheduling until it is read */
	xtour_all_start(lb);
	x->node = lnd(lb)->node_id;
	lobby_copy(x->addr, lnd(lb)->node_addr, sizeof x->addr);
	lb->clock.arm(lb->clock.arg, x->tick, 0);
}

/*
 * Keeps the players of the running tournaments v[0..n-1] (not
 * withdrawn), read on a worker, in x->names.
 */
static void
xtour_roster(struct lxtour *x, const struct league_tournament *v, size_t n)
{
	size_t		 i, j;

	x->nnames = 0;
	for (i = 0; i < n; i++) {
		if (v[i].status != LEAGUE_T_RUNNING)
			continue;
		for (j = 0; j < v[i].nplayers; j++) {
			if (v[i].wround != NULL && v[i].wround[j] != 0)
				continue;
			x->names = xreallocarray(x->names, x->nnames + 1,
			    sizeof *x->names);
			lobby_copy(x->names[x->nnames++], v[i].players[j],
			    sizeof *x->names);
		}
	}
	x->have_roster = 1;
}

static void	xtour_redirect_to(struct lobby *, struct lobby_client *);

/* On the loop, the roster's read done: the names, then the redirects. */
static void
xtour_roster_done(void *arg)
{
	struct xtour_job *j = arg;
	struct lxtour	*x = lnd(j->lb)->xtour;

	x->roster_job = NULL;
	if (j->rc != 0) {
		log_warnx("node=%" PRId64 " event=xtour-read-failed",
		    lnd(j->lb)->node_id);
		x->have_roster = 0;
		x->nnames = 0;
	} else
		xtour_roster(x, j->v, j->n);
	xtour_redirect_to(j->lb, NULL);
	xtour_job_free(j);
}

/* Returns 1 if lc is a client to tell where the scheduler is. */
static int
xtour_untold(struct lobby *lb, const struct lobby_client *lc, int64_t node)
{
	return (lc->name[0] != '\0' && lc->nd->xtold != node &&
	    lc->game == NULL && lobby_busy(lb, lc->name) == 0);
}

/*
 * Sends the scheduler's address to the logged-in players of running
 * tournaments not told yet (a node that does not schedule): to client
 * only if given (its login), else to every client.
 */
static void
xtour_redirect_to(struct lobby *lb, struct lobby_client *only)
{
	struct lobby_client *lc;
	const char	*addr;
	int64_t		 node = 0;

	if (!lobby_xtour_follower(lb) || (addr = xtour_sched(lb, &node)) == NULL ||
	    !lnd(lb)->xtour->have_roster)
		return;
	for (lc = only != NULL ? only : TAILQ_FIRST(&lb->clients); lc != NULL;
	    lc = only != NULL ? NULL : TAILQ_NEXT(lc, entry)) {
		if (!xtour_untold(lb, lc, node) || !ltour_name_in(
		    lnd(lb)->xtour->names, lnd(lb)->xtour->nnames, lc->name))
			continue;
		lc->nd->xtold = node;
		lc_event(lc, "redirect %s", addr);
		log_info("conn=%llu event=redirect name=%s to=%s why=tournament",
		    (unsigned long long)lc->connid, lc->name, addr);
	}
}


/*
 * A notification of channel lobby that may be the scheduler's
 * announcement (lobby-xnode.c): remembers it and redirects.  Returns 1 if
 * it was one.
 */
int
lobby_xtour_note(struct lobby *lb, const char *payload)
{
	struct lxtour	*x;
	long long	 node;
	unsigned long long roster;
	char		 addr[PROTO_ADDR_MAX + 2];

	if (strncmp(payload, XTOUR_NOTE, strlen(XTOUR_NOTE)) != 0)
		return (0);
	if (sscanf(payload + strlen(XTOUR_NOTE), "%lld %261s %llx", &node,
	    addr, &roster) != 3 || node <= 0 || strlen(addr) > PROTO_ADDR_MAX)
		return (1);
	if (node == lnd(lb)->node_id)
		return (1);
	x = xtour_get(lb);
	x->node = node;
	lobby_copy(x->addr, addr, sizeof x->addr);
	x->heard = lobby_clock_now(lb);
	if (x->heard == 0)
		x->heard = 1;
	if ((!x->have_roster || x->roster != roster) &&
	    x->roster_job == NULL) {
		x->roster_job = xcalloc(1, sizeof *x->roster_job);
		x->roster_job->lb = lb;
		x->roster_job->roster = 1;
		x->roster = roster;
		xtour_job_start(lb, x->roster_job, xtour_roster_done);
	}
	xtour_redirect_to(lb, NULL);
	return (1);
}

/*
 * Refuses a command that changes a tournament on a node that does not
 * schedule them (0: allowed, -1: refused, the reason in err).
 */
int
lobby_xtour_refuse(struct lobby_client *lc, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	const char	*addr;

	if (!lobby_xtour_follower(lb))
		return (0);
	if ((addr = xtour_sched(lb, NULL)) != NULL)
		buf_printf(err, "tournaments are changed on the scheduler's "
		    "node: go to %s", addr);
	else
		buf_puts(err, "no tournament scheduler known now: try again "
		    "shortly");
	return (-1);
}

/* A client logged in: a tournament's player goes to the scheduler (the
 * others were told at the announcement or the roster's read). */
void
lobby_xtour_login(struct lobby_client *lc)
{
	xtour_redirect_to(lc->lb, lc);
}
