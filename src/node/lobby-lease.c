/*
 * lobby-lease.c: the lobby's side of a node's leases and of the elected
 * scheduler (issue 15 §2, doc/NODES.md; PROTOCOL.md §13.12).  The node
 * thread (server-node.c) calls these on the loop, through the lobby's
 * deferred calls; a single node (SQLite) never does.
 *
 * A game whose lease this node lost (its renewal or its fence refused,
 * or its lease never acquired) stops at once: no result is sent, nothing
 * more is written, its seats and spectators are told `event redirect
 * HOST:PORT GAME_ID` (the new owner, when known and alive) or `event lost
 * GAME_ID` (not known yet), and the game is freed.  The accounts of the
 * last LLEASE_KEEP lost games are kept, so that an owner learned later
 * still reaches their players.  The scheduler's lock: lobby_schedule runs
 * only on a single node or while this node holds it (its leader).
 *
 * It calls lobby-game.c (lg_free), lobby-tour.c (lobby_schedule),
 * lobby-feed.c (the web feeds' end: reason lease-lost, no winner) and
 * lobby-queue.c; no file of the lobby calls it (lobby-game.c asks
 * whether a game was lost through lobby_node_ops).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "lib/log.h"

#define LLEASE_KEEP	64	/* lost games whose players are remembered */

struct llost {
	int64_t		 id;
	char		 name[2][LEAGUE_NAME_MAX + 8];
};

struct llease {
	struct llost	 lost[LLEASE_KEEP];	/* a ring */
	size_t		 next;
};

/* The node thread took (1) or lost (0) the scheduler's lock (loop). */
void
lobby_set_leader(struct lobby *lb, int leader)
{
	if (lnd(lb)->leader == leader)
		return;
	lb->nd->leader = leader;
	lobby_xtour_leader(lb, leader);
	log_info("node=%" PRId64 " event=%s", lnd(lb)->node_id, leader ?
	    "scheduler-elected" : "scheduler-lost");
	if (leader)
		lobby_schedule(lb);
}

/* Frees the remembered lost games (lobby_free). */
void
lobby_lease_free(struct lobby *lb)
{
	free(lnd(lb)->lease);
	lb->nd->lease = NULL;
}

/* Tells a client the game's fate: where it went, or that it is gone. */
static void
llease_tell(struct lobby_client *lc, int64_t id, const char *addr)
{
	if (addr != NULL)
		lc_event(lc, "redirect %s %" PRId64, addr, id);
	else
		lc_event(lc, "lost %" PRId64, id);
}

/* The remembered lost game id, or NULL. */
static struct llost *
llease_find(struct lobby *lb, int64_t id)
{
	size_t	 i;

	if (lnd(lb)->lease == NULL)
		return (NULL);
	for (i = 0; i < LLEASE_KEEP; i++)
		if (lnd(lb)->lease->lost[i].id == id)
			return (&lnd(lb)->lease->lost[i]);
	return (NULL);
}

/* Redirects the logged-in clients of a lost game's accounts. */
static void
llease_redirect(struct lobby *lb, const struct llost *l, const char *addr)
{
	struct lobby_client *lc;
	int		 s;

	TAILQ_FOREACH(lc, &lb->clients, entry) {
		if (lc->name[0] == '\0' || lc->game != NULL)
			continue;
		for (s = 0; s < 2; s++)
			if (strcmp(lc->name, l->name[s]) == 0) {
				llease_tell(lc, l->id, addr);
				break;
			}
	}
}

/* Stops a game whose lease is lost: tells, detaches, frees. */
static void
llease_stop(struct lobby *lb, struct lgame *g, const char *addr)
{
	struct llost	*l;
	size_t		 i;
	int		 s;

	if (lnd(lb)->lease == NULL)
		lb->nd->lease = xcalloc(1, sizeof *lb->nd->lease);
	l = &lnd(lb)->lease->lost[lnd(lb)->lease->next];
	lnd(lb)->lease->next = (lnd(lb)->lease->next + 1) % LLEASE_KEEP;
	l->id = g->id;
	for (s = 0; s < 2; s++) {
		lobby_copy(l->name[s], g->p[s].account ? g->p[s].name : "",
		    sizeof l->name[s]);
		if (g->p[s].lc == NULL)
			continue;
		llease_tell(g->p[s].lc, g->id, addr);
		g->p[s].lc->game = NULL;
		g->p[s].lc->seat = 0;
		g->p[s].lc = NULL;
	}
	for (i = 0; i < g->nwatchers; i++) {
		llease_tell(g->watchers[i], g->id, addr);
		lc_unwatch(g->watchers[i], g->id);
	}
	g->nwatchers = 0;
	g->lb->clock.cancel(g->lb->clock.arg, g->timer);
	log_warnx("game=%" PRId64 " event=lease-lost to=%s state=%d", g->id,
	    addr != NULL ? addr : "-", (int)g->state);
	g->winner = 0;		/* the web feeds: over here, no result */
	g->reason = "lease-lost";
	lobby_feed_end(g);
	if (g->state == LG_ENDING) {
		lnd_game(g)->lease_lost = 1;	/* its end's callback frees
						 * it */
		return;
	}
	lg_enter(g, LG_LOGGED);
	lg_free(g);
	lb->game_freed(lb);
}

/* The ids of the live logged games, at most max of them; their number. */
size_t
lobby_logged_ids(struct lobby *lb, int64_t *ids, size_t max)
{
	struct lgame	*g;
	size_t		 n = 0;

	TAILQ_FOREACH(g, &lb->games, entry)
		if (n < max && g->logged && !lg_over(g))
			ids[n++] = g->id;
	return (n);
}

/*
 * This node lost game id's lease (loop): addr is the new owner's
 * HOST:PORT when known and alive, else NULL.  A game still here stops;
 * one already stopped has its players redirected once the owner is known
 * (this node itself when it took the game over again: the game restored
 * here is not stopped).
 */
void
lobby_lease_lost(struct lobby *lb, int64_t id, const char *addr)
{
	struct lgame	*g;
	struct llost	*l;

	if (addr != NULL && strcmp(addr, lnd(lb)->node_addr) == 0) {
		if ((l = llease_find(lb, id)) != NULL)
			llease_redirect(lb, l, addr);
		return;
	}
	if ((g = lobby_game(lb, id)) != NULL &&
	    (g->nd == NULL || !g->nd->lease_lost) &&
	    g->state != LG_LOGGED) {
		llease_stop(lb, g, addr);
		return;
	}
	if (addr != NULL && (l = llease_find(lb, id)) != NULL)
		llease_redirect(lb, l, addr);
}
