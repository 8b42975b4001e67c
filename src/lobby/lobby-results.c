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

/* The tie-breaks of t: its own, or its format's default. */
void
lobby_tour_tb(const struct league_tournament *d, struct tb_list *l)
{
	if (d->tb.n > 0)
		*l = d->tb;
	else
		tb_list_default(d->format == LEAGUE_SWISS, l);
}

/*
 * The unplayed rounds of t's players into r (tiebreak.h): each Swiss
 * round's bye, a game of each round a withdrawn player was not paired in
 * any more, and each game stopped by a withdrawal (absent for the
 * withdrawn, unplayed without points for the other).  ltour_slot_round
 * (lobby-tour.c) gives each slot's round.
 */
static void
lobby_tour_unplayed(const struct ltour *t, struct lobby_tresults *tr)
{
	const struct league_tournament *d = &t->def;
	const struct lslot *s;
	size_t		 i, p;
	unsigned int	 r, k;

	for (i = 0; i < t->nslots; i++) {
		s = &t->slots[i];
		if (s->state != LSLOT_STOPPED || s->a >= d->nplayers ||
		    s->b >= d->nplayers || (d->wround[s->a] == 0 &&
		    d->wround[s->b] == 0))
			continue;
		r = ltour_slot_round(t, i);
		if (d->wround[s->a] != 0)
			results_absent(&tr->r, s->a, r);
		else
			(void)xtable_unit(&tr->r.xt, s->a, r, 0, 0);
		if (d->wround[s->b] != 0)
			results_absent(&tr->r, s->b, r);
		else
			(void)xtable_unit(&tr->r.xt, s->b, r, 0, 0);
	}
	for (r = 0; t->byes != NULL && r < t->round; r++) {
		if (t->byes[r] != SWISS_NO_BYE)
			results_bye(&tr->r, t->byes[r], r + 1,
			    d->games_per_pair);
		for (p = 0; p < d->nplayers; p++)
			for (k = 0; d->wround[p] != 0 && d->wround[p] - 1 <= r &&
			    k < d->games_per_pair; k++)
				results_absent(&tr->r, p, r + 1);
	}
}

/*
 * Fills tr with tournament name's status, games played and scheduled,
 * and the results of its finished games (free tr->r with results_free),
 * forfeits, byes and withdrawals included, ranked by its tie-breaks.
 * Returns 0, or -1 with the reason in err.
 */
int
lobby_tour_results(struct lobby *lb, const char *name,
    struct lobby_tresults *tr, struct buf *err)
{
	struct ltour	*t;
	struct store_rgame *g;
	const struct lslot *s;
	struct tb_list	 l;
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
		g[n].forfeit = s->forfeit;
		g[n].round = ltour_slot_round(t, i);
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
	lobby_tour_unplayed(t, tr);
	lobby_tour_tb(&t->def, &l);
	results_rank(&tr->r, &l);
	return (0);
}
