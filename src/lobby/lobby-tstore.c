/*
 * lobby-tstore.c: a tournament's state as the lobby changed it, written
 * to the league on a worker (issue 25 §4: the loop never waits for the
 * database): the end of a tournament (finished), an SPRT's verdict, the
 * byes and stopped games of its unplayed rounds.  The lobby's memory is
 * the truth while it runs; the log follows in the order the lobby
 * changed it: one write at a time, first in, first out.  A failed write
 * is logged (as before, when it ran on the loop) and the next goes on; a
 * restart replays the tournament from its games and writes the same
 * state again.  The writes of the tournaments' load (lobby_new, before
 * the loop) run at once (lobby_tstore_start); those still queued when the
 * daemon stops run in lobby_tstore_free (the workers are joined, the
 * loop is over).
 *
 * Calls the league only.
 */
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/log.h"

enum tstore_kind {
	TSTORE_STATUS,		/* league_tournament_status */
	TSTORE_VERDICT,		/* league_tournament_verdict */
	TSTORE_UNPLAYED,	/* league_tournament_unplayed */
	TSTORE_ROSTER,		/* league_tournament_roster */
};

struct tstore_write {
	STAILQ_ENTRY(tstore_write) entry;
	struct lobby	*lb;
	enum tstore_kind kind;
	int64_t		 id;
	char		 name[LEAGUE_NAME_MAX + 1];
	int		 value;		/* the status or the verdict */
	char		*byes, *stopped;	/* unplayed */
	struct league_tournament *roster;	/* roster */
	int		 rc;
};

struct lobby_tstore {
	STAILQ_HEAD(, tstore_write) todo;
	struct tstore_write *busy;	/* on a worker */
	int		 live;		/* lobby_tstore_start: workers */
};

static void	tstore_next(struct lobby *);
static void	tstore_flush(struct lobby_tstore *);

static void
tstore_free1(struct tstore_write *w)
{
	free(w->byes);
	free(w->stopped);
	league_tournament_free(w->roster);
	free(w->roster);
	free(w);
}

/* On a worker (or, at the end, the caller's thread): the write. */
static void
tstore_work(void *arg)
{
	struct tstore_write *w = arg;
	struct league	*lg = w->lb->league;
	char		 msg[256];

	switch (w->kind) {
	case TSTORE_STATUS:
		w->rc = league_tournament_status(lg, w->id,
		    (enum league_tstatus)w->value);
		break;
	case TSTORE_VERDICT:
		w->rc = league_tournament_verdict(lg, w->id, w->value);
		break;
	case TSTORE_UNPLAYED:
		w->rc = league_tournament_unplayed(lg, w->id, w->byes,
		    w->stopped);
		break;
	case TSTORE_ROSTER:
		w->rc = league_tournament_roster(lg, w->roster, msg,
		    sizeof msg);
		break;
	}
	if (w->rc != 0)
		log_warnx("tournament=%s event=%s-failed", w->name,
		    w->kind == TSTORE_STATUS ? "status" : w->kind ==
		    TSTORE_VERDICT ? "verdict" : w->kind == TSTORE_ROSTER ?
		    "roster" : "unplayed");
}

/* Back on the loop: the next write. */
static void
tstore_done(void *arg)
{
	struct tstore_write *w = arg;
	struct lobby	*lb = w->lb;

	lb->tstore->busy = NULL;
	tstore_free1(w);
	tstore_next(lb);
}

/* Starts the first queued write unless one is on a worker. */
static void
tstore_next(struct lobby *lb)
{
	struct lobby_tstore *q = lb->tstore;
	struct tstore_write *w;

	if (q == NULL || !q->live || q->busy != NULL ||
	    (w = STAILQ_FIRST(&q->todo)) == NULL)
		return;
	STAILQ_REMOVE_HEAD(&q->todo, entry);
	q->busy = w;
	lobby_work(lb, tstore_work, tstore_done, w);
}

/* The lobby's queue, made when first needed. */
static struct lobby_tstore *
tstore_get(struct lobby *lb)
{
	if (lb->tstore == NULL) {
		lb->tstore = xcalloc(1, sizeof *lb->tstore);
		STAILQ_INIT(&lb->tstore->todo);
	}
	return (lb->tstore);
}

/*
 * The lobby is made (lobby_new, before the workers and the loop start):
 * the writes of the tournaments' load run now, on the calling thread;
 * the next ones on workers.
 */
void
lobby_tstore_start(struct lobby *lb)
{
	struct lobby_tstore *q = tstore_get(lb);

	tstore_flush(q);
	q->live = 1;
}

/* Runs the queued writes in order, on the calling thread. */
static void
tstore_flush(struct lobby_tstore *q)
{
	struct tstore_write *w;

	while ((w = STAILQ_FIRST(&q->todo)) != NULL) {
		STAILQ_REMOVE_HEAD(&q->todo, entry);
		tstore_work(w);
		tstore_free1(w);
	}
}

/* Queues a write of tournament t. */
static struct tstore_write *
tstore_new(struct ltour *t, enum tstore_kind kind, int value)
{
	struct lobby	*lb = t->lb;
	struct tstore_write *w;

	(void)tstore_get(lb);
	w = xcalloc(1, sizeof *w);
	w->lb = lb;
	w->kind = kind;
	w->id = t->def.id;
	lobby_copy(w->name, t->def.name, sizeof w->name);
	w->value = value;
	STAILQ_INSERT_TAIL(&lb->tstore->todo, w, entry);
	return (w);
}

/* Stores tournament t's status s (as ltour_enter set it). */
void
ltour_store_status(struct ltour *t, enum league_tstatus s)
{
	(void)tstore_new(t, TSTORE_STATUS, (int)s);
	tstore_next(t->lb);
}

/* Stores the verdict of t's SPRT (1: H0, 2: H1). */
void
ltour_store_verdict(struct ltour *t, int verdict)
{
	(void)tstore_new(t, TSTORE_VERDICT, verdict);
	tstore_next(t->lb);
}

/* Stores the texts of t's unplayed rounds (copied). */
void
ltour_store_texts(struct ltour *t, const char *byes, const char *stopped)
{
	struct tstore_write *w = tstore_new(t, TSTORE_UNPLAYED, 0);

	w->byes = xstrdup(byes);
	w->stopped = xstrdup(stopped);
	tstore_next(t->lb);
}

/* Stores t's players and withdrawals as the lobby has them. */
void
ltour_store_roster(struct ltour *t)
{
	tstore_new(t, TSTORE_ROSTER, 0)->roster = ltour_roster_copy(t, 0);
	tstore_next(t->lb);
}

/*
 * A copy of t's players and withdrawals (a roster to store; free it with
 * league_tournament_free and free), with room for extra more players.
 */
struct league_tournament *
ltour_roster_copy(const struct ltour *t, size_t extra)
{
	struct league_tournament *r = xcalloc(1, sizeof *r);
	size_t		 i;

	r->id = t->def.id;
	lobby_copy(r->name, t->def.name, sizeof r->name);
	r->players = xreallocarray(NULL, t->def.nplayers + extra + 1,
	    sizeof *r->players);
	r->wround = xcalloc(t->def.nplayers + extra + 2, sizeof *r->wround);
	for (i = 0; i < t->def.nplayers; i++) {
		r->players[i] = xstrdup(t->def.players[i]);
		r->wround[i] = t->def.wround[i];
	}
	r->nplayers = t->def.nplayers;
	return (r);
}

/* The daemon stops (the workers are joined): the writes left, in order. */
void
lobby_tstore_free(struct lobby *lb)
{
	struct lobby_tstore *q = lb->tstore;
	struct tstore_write *w;

	if (q == NULL)
		return;
	if ((w = q->busy) != NULL) {	/* its done never came: again
					 * (the same state, written twice) */
		tstore_work(w);
		tstore_free1(w);
	}
	tstore_flush(q);
	free(q);
	lb->tstore = NULL;
}
