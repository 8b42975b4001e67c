/*
 * lobby-results.c: a tournament's standings and crosstable from the
 * lobby's memory (lobby-results.h), on the loop.  The work is
 * proportional to the tournament's schedule, which its creation bounds.
 */
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lobby/lobby-results.h"
#include "stats/swiss.h"

/*
 * Fills tr with tournament name's status, games played and scheduled,
 * and the results of its finished games (free tr->r with results_free).
 * Returns 0, or -1 with the reason in err.
 */
int
lobby_tour_results(struct lobby *lb, const char *name,
    struct lobby_tresults *tr, struct buf *err)
{
	struct ltour	*t;
	struct store_rgame *g;
	const struct lslot *s;
	size_t		 i, n = 0;
	int		 rv;

	memset(tr, 0, sizeof *tr);
	if (lb->nops != NULL)	/* a node: from the log */
		lb->nops->tour_fresh(lb, name);
	if ((t = lobby_tour_named(lb, name, err)) == NULL)
		return (-1);
	tr->status = t->def.status;
	g = xcalloc(t->nslots + 1, sizeof *g);
	for (i = 0; i < t->nslots; i++) {
		s = &t->slots[i];
		tr->total += s->state != LSLOT_VOID;	/* arena: unused */
		if (s->state != LSLOT_DONE || s->a >= t->def.nplayers ||
		    s->b >= t->def.nplayers)
			continue;
		g[n].id = (int64_t)i + 1;
		g[n].player1 = t->def.players[s->a];
		g[n].player2 = t->def.players[s->b];
		g[n].tournament = t->def.id;
		g[n++].winner = s->winner;
	}
	tr->played = n;
	rv = results_build((const char *const *)t->def.players,
	    t->def.nplayers, g, n, &tr->r);
	free(g);
	if (rv != 0) {
		buf_printf(err, "tournament %.32s has no players", name);
		return (-1);
	}
	/* A Swiss bye scores every game of its round, as the pairing has it. */
	for (i = 0; t->byes != NULL && i < t->round; i++)
		if (t->byes[i] != SWISS_NO_BYE)
			results_bye(&tr->r, t->byes[i], t->def.games_per_pair);
	return (0);
}
