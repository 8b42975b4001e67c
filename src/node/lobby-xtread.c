/*
 * lobby-xtread.c: a follower's reads of the tournaments (issue 25 §4,
 * PROTOCOL.md §13.12): a node that does not schedule the tournaments
 * answers `standings`, `crosstable`, `tournament show` and the tournament
 * pages from the log, as the scheduler would, and the loop never waits
 * for the database: the read runs on a worker before the command (its
 * preparation, cmd-lobby.c) or the page (http.c), and is applied on the
 * loop just before it runs (lobby_xtour_pre_apply, lobby_xtour_apply).  A
 * read serves XTOUR_FRESH_MS (lobby-xtour.c) for one tournament, or
 * XTREAD_ALL_MS for the list of every tournament.
 *
 * A restore of one of its games reads the tournament on the restore's
 * worker (lobby_xtour_read_id).  A reader of the loop without such a
 * preparation answers from the copy the node has and starts a read in the
 * background (one at a time), which the next answer sees.
 *
 * Calls lobby-xtour.c and lobby-queue.c.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "lib/log.h"

#define XTREAD_ALL_MS	1000	/* a read of every tournament serves so long */

/* A read of the tournaments on a worker: one (by name or id) or all. */
struct xtour_pre {
	struct lobby	*lb;
	char		 name[LEAGUE_NAME_MAX + 1];	/* "": by id, or all */
	int64_t		 id;		/* 0 with name "": every one */
	int		 rc;		/* 0, or -1: a database error */
	struct league_tournament *v;
	size_t		 n;
	struct xtour_got *got;		/* the chosen ones' games */
	size_t		 ngot;
};

/* The follower's state (lnd(lb)->xtread). */
struct lxtread {
	int		 batch;		/* lobby_xtour_batch: every one read */
	uint64_t	 all;		/* lobby_clock_now of the last read of
					 * every tournament applied, 0: none */
	struct xtour_pre *bg;		/* a read in the background */
};

static struct lxtread *
xtread_get(struct lobby *lb)
{
	if (lnd(lb)->xtread == NULL)
		lb->nd->xtread = xcalloc(1, sizeof *lb->nd->xtread);
	return (lnd(lb)->xtread);
}

/* Frees the follower's state (lobby_free; the workers are joined). */
void
lobby_xtread_free(struct lobby *lb)
{
	if (lnd(lb)->xtread == NULL)
		return;
	lobby_xtour_pre_free(lnd(lb)->xtread->bg);
	free(lnd(lb)->xtread);
	lb->nd->xtread = NULL;
}

/* Whether every tournament was read within XTREAD_ALL_MS. */
static int
xtread_all_fresh(struct lobby *lb)
{
	struct lxtread	*x = lnd(lb)->xtread;

	return (x != NULL && x->all != 0 &&
	    lobby_clock_now(lb) - x->all < XTREAD_ALL_MS);
}

/* A read of name (NULL: every tournament) or, name NULL and id not 0, of
 * tournament id. */
static struct xtour_pre *
xtread_new(struct lobby *lb, const char *name, int64_t id)
{
	struct xtour_pre *p = xcalloc(1, sizeof *p);

	p->lb = lb;
	if (name != NULL)
		lobby_copy(p->name, name, sizeof p->name);
	p->id = name != NULL ? 0 : id;
	return (p);
}

/*
 * On the loop: the read that a reader of tournament name (NULL: the list
 * of every one) needs first on a node that does not schedule them, or
 * NULL if it needs none (one node, the scheduler, a copy fresh enough).
 */
struct xtour_pre *
lobby_xtour_pre(struct lobby *lb, const char *name)
{
	if (lb->nd == NULL || !lobby_xtour_follower(lb))
		return (NULL);
	if (name == NULL ? xtread_all_fresh(lb) :
	    xtread_all_fresh(lb) ||
	    lobby_xtour_is_fresh(lb, lobby_tour(lb, name)))
		return (NULL);
	return (xtread_new(lb, name, 0));
}

/* On a worker: the tournaments, then the chosen ones' games. */
void
lobby_xtour_pre_read(struct xtour_pre *p)
{
	size_t	 i;

	p->rc = league_tournaments(p->lb->league, 1, &p->v, &p->n);
	if (p->rc != 0)
		return;
	p->got = xcalloc(p->n + 1, sizeof *p->got);
	for (i = 0; i < p->n; i++)
		if (p->name[0] != '\0' ? strcmp(p->v[i].name, p->name) == 0 :
		    p->id == 0 || p->v[i].id == p->id)
			p->got[p->ngot++].id = p->v[i].id;
	for (i = 0; i < p->ngot; i++)
		lobby_xtour_got_read(p->lb, &p->got[i]);
}

/* Frees a read (NULL: nothing). */
void
lobby_xtour_pre_free(struct xtour_pre *p)
{
	if (p == NULL)
		return;
	league_tournaments_free(p->v, p->n);
	lobby_xtour_got_free(p->got, p->ngot);
	free(p);
}

/*
 * On the loop: makes the tournaments p read the lobby's copies (unless
 * the node schedules them now: its memory is the truth) and frees p.
 */
void
lobby_xtour_pre_apply(struct xtour_pre *p)
{
	struct lobby	*lb;
	size_t		 i, k;
	int		 rv;

	if (p == NULL)
		return;
	lb = p->lb;
	if (!lobby_xtour_follower(lb)) {
		lobby_xtour_pre_free(p);
		return;
	}
	rv = p->rc;
	for (i = 0; rv == 0 && i < p->ngot; i++) {
		for (k = 0; k < p->n && p->v[k].id != p->got[i].id; k++)
			;
		if (k < p->n && lobby_xtour_apply(lb, &p->v[k],
		    &p->got[i]) != 0)
			rv = -1;
	}
	if (rv != 0)
		log_warnx("node=%" PRId64 " event=xtour-read-failed",
		    lnd(lb)->node_id);
	else if (p->name[0] == '\0' && p->id == 0)
		xtread_get(lb)->all = lobby_clock_now(lb) | 1;
	lobby_xtour_pre_free(p);
}

/* On a worker: a read in the background. */
static void
xtread_bg_work(void *arg)
{
	lobby_xtour_pre_read(arg);
}

/* Back on the loop: applied, and the next background read may start. */
static void
xtread_bg_done(void *arg)
{
	struct xtour_pre *p = arg;

	xtread_get(p->lb)->bg = NULL;
	lobby_xtour_pre_apply(p);
}

/* Starts a read in the background unless one runs. */
static void
xtread_bg(struct lobby *lb, const char *name, int64_t id)
{
	struct lxtread	*x = xtread_get(lb);

	if (x->bg != NULL)
		return;
	x->bg = xtread_new(lb, name, id);
	lobby_work(lb, xtread_bg_work, xtread_bg_done, x->bg);
}

/*
 * Before a read of tournament name on the loop (standings, crosstable,
 * show, the pages): nothing to do if the reader's preparation read it;
 * else the copy answers and a read starts in the background.
 */
void
lobby_xtour_fresh(struct lobby *lb, const char *name)
{
	if (!lobby_xtour_follower(lb) || xtread_get(lb)->batch ||
	    xtread_all_fresh(lb) ||
	    lobby_xtour_is_fresh(lb, lobby_tour(lb, name)))
		return;
	xtread_bg(lb, name, 0);
}

/*
 * Before (on 1) a read of every tournament on the loop (the pages'
 * list), and after it (on 0): until then each tournament's own check is
 * skipped; the copies answer (and a read of every one starts in the
 * background if they are older than XTREAD_ALL_MS).
 */
void
lobby_xtour_batch(struct lobby *lb, int on)
{
	if (!lobby_xtour_follower(lb))
		return;
	xtread_get(lb)->batch = on;
	if (on && !xtread_all_fresh(lb))
		xtread_bg(lb, NULL, 0);
}

/*
 * On a worker (any thread): tournament id read from the log, for a
 * restore of one of its games (lobby-restore.c applies it on the loop,
 * where a follower takes it).
 */
struct xtour_pre *
lobby_xtour_read_id(struct lobby *lb, int64_t id)
{
	struct xtour_pre *p = xtread_new(lb, NULL, id);

	lobby_xtour_pre_read(p);
	return (p);
}
