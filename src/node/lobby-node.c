/*
 * lobby-node.c: a node's drain (PROTOCOL.md §13.12), the lobby's side of
 * `node drain HOST:PORT`, `node undrain` and `node status`
 * (cmd-node.c).  A draining node starts no new game (seek, challenge,
 * accept, ready and the tournament scheduler are refused or halted) and
 * sends `event redirect HOST:PORT` to every logged-in player without a
 * live game: at once, when one logs in, and to each seat as its game
 * ends.  The state is the node state's drain (lb->nd), changed only here.
 * And a live game's node state (struct nd_game).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "lib/log.h"
#include "lib/util.h"
#include "store/store.h"

const struct nd_lobby lnode_none;	/* a single node's state: none */

/* 1 while the node drains: no new game starts. */
int
lnode_draining(const struct lobby *lb)
{
	return (lnd(lb)->drain.to[0] != '\0');
}

/* Refuses a new game on a draining node; returns 0 or -1 with err. */
int
lobby_drain_refuse(const struct lobby_client *lc, struct buf *err)
{
	if (!lnode_draining(lc->lb))
		return (0);
	buf_printf(err, "node draining: go to %s", lnd(lc->lb)->drain.to);
	return (-1);
}

/* Sends a logged-in client the drain's redirect. */
static void
lnode_redirect(struct lobby_client *lc)
{
	struct lobby	*lb = lc->lb;

	lc_event(lc, "redirect %s", lnd(lb)->drain.to);
	lb->nd->drain.redirected++;
	log_info("conn=%llu event=redirect name=%s to=%s",
	    (unsigned long long)lc->connid, lc->name, lnd(lb)->drain.to);
}

/* A seat's game ended (its gameover is sent): redirect it if draining. */
void
lnode_game_over(struct lobby_client *lc)
{
	if (lnode_draining(lc->lb) && lc->name[0] != '\0')
		lnode_redirect(lc);
}

/*
 * lc logged in and was told of its account's nlive live seats (event
 * live): with none, a draining node redirects it at once.
 */
void
lnode_login(struct lobby_client *lc, size_t nlive)
{
	if (nlive == 0 && lc->game == NULL)
		lnode_game_over(lc);
}

static int
lnode_cmp(const void *a, const void *b)
{
	return (strcmp(*(const char *const *)a, *(const char *const *)b));
}

/*
 * Redirects every logged-in client without a live game, but the caller:
 * neither seated on its connection nor by its account (a seat away, to
 * be resumed).  The accounts seated are sorted once, so that this costs
 * O((games + clients) log games).
 */
static void
lnode_redirect_free(struct lobby *lb, const struct lobby_client *caller)
{
	struct lobby_client *lc;
	struct lgame	*g;
	const char	**seated, *key;
	size_t		 n = 0, cap = 0;
	int		 s;

	TAILQ_FOREACH(g, &lb->games, entry)
		cap += 2;
	seated = xreallocarray(NULL, cap + 1, sizeof *seated);
	TAILQ_FOREACH(g, &lb->games, entry)
		for (s = 0; s < 2; s++)
			if (g->p[s].account)
				seated[n++] = g->p[s].name;
	qsort(seated, n, sizeof *seated, lnode_cmp);
	TAILQ_FOREACH(lc, &lb->clients, entry) {
		key = lc->name;
		if (lc == caller || lc->name[0] == '\0' || lc->game != NULL ||
		    bsearch(&key, seated, n, sizeof *seated, lnode_cmp) != NULL)
			continue;
		lnode_redirect(lc);
	}
	free(seated);
}

/*
 * node drain HOST:PORT (to is checked by the caller): starts the drain and
 * redirects the free players at once.  Returns 0, or -1 with err.
 */
int
lnode_drain(struct lobby_client *lc, const char *to, struct buf *err)
{
	struct lobby	*lb = lc->lb;

	if (lnode_draining(lb)) {
		buf_printf(err, "node already draining to %s: node undrain "
		    "first", lnd(lb)->drain.to);
		return (-1);
	}
	if (strlen(to) >= sizeof lnd(lb)->drain.to) {
		buf_printf(err, "node drain: address longer than %zu bytes",
		    sizeof lnd(lb)->drain.to - 1);
		return (-1);
	}
	lobby_copy(lb->nd->drain.to, to, sizeof lb->nd->drain.to);
	lb->nd->drain.redirected = 0;
	log_info("conn=%llu event=node-drain to=%s admin=%s",
	    (unsigned long long)lc->connid, to, lc->name);
	lnode_redirect_free(lb, lc);
	return (0);
}

/* node undrain: ends the drain; new games start again. */
int
lobby_node_undrain(struct lobby_client *lc, struct buf *err)
{
	struct lobby	*lb = lc->lb;

	if (!lnode_draining(lb)) {
		buf_puts(err, "node is not draining");
		return (-1);
	}
	log_info("conn=%llu event=node-undrain to=%s admin=%s redirected=%llu",
	    (unsigned long long)lc->connid, lnd(lb)->drain.to, lc->name,
	    (unsigned long long)lnd(lb)->drain.redirected);
	lb->nd->drain.to[0] = '\0';
	lb->nd->drain.redirected = 0;
	/*
	 * Tournament games held back by the drain may start now: the
	 * scheduler, through the hook of lobby-game.c (no call upward).
	 */
	lb->game_freed(lb);
	return (0);
}

/* node status: the drain, live games and logged-in connections. */
void
lobby_node_status(struct lobby_client *lc, struct lobby_node_status *st)
{
	struct lobby	*lb = lc->lb;
	struct lobby_client *c;
	struct lgame	*g;

	memset(st, 0, sizeof *st);
	st->drain_to = lnode_draining(lb) ? lnd(lb)->drain.to : NULL;
	st->redirected = lnd(lb)->drain.redirected;
	TAILQ_FOREACH(g, &lb->games, entry)
		st->games++;
	TAILQ_FOREACH(c, &lb->clients, entry)
		if (c->name[0] != '\0')
			st->players++;
}

/* Game g's node state, made on its first use (freed by lnode_game_free). */
struct nd_game *
lnd_game(struct lgame *g)
{
	if (g->nd == NULL)
		g->nd = xcalloc(1, sizeof *g->nd);
	return (g->nd);
}

/* A move of g: followed by another node, it is written at once. */
void
lnode_game_moved(struct lgame *g)
{
	if (g->nd->xwatched)
		store_run_now(g->lb->store, g->id);
}

/* Whether g stopped here without a result (its lease went elsewhere). */
int
lnode_game_lost(const struct lgame *g)
{
	return (g->nd->lease_lost);
}

/* g is freed: its node state goes. */
void
lnode_game_free(struct lgame *g)
{
	free(g->nd);
	g->nd = NULL;
}
