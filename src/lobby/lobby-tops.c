/*
 * lobby-tops.c: what `tournament show` reports of a tournament
 * (PROTOCOL.md §13.6), and the look-ups of the admin's changes
 * (lobby-tchange.c).  The schedule itself is lobby-tour.c's.
 */
#include <sys/queue.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/log.h"
#include "lib/util.h"

/* Returns the tournament with a name, or NULL with err. */
struct ltour *
lobby_tour_named(struct lobby *lb, const char *name, struct buf *err)
{
	struct ltour	*t = lobby_tour(lb, name);

	if (t == NULL)
		buf_printf(err, "no tournament %.32s", name);
	return (t);
}

/* Returns a running or paused tournament, or NULL with err. */
struct ltour *
lobby_tour_live(struct lobby *lb, const char *name, struct buf *err)
{
	struct ltour	*t = lobby_tour(lb, name);

	if (t == NULL || (t->def.status != LEAGUE_T_RUNNING &&
	    t->def.status != LEAGUE_T_PAUSED)) {
		buf_printf(err, "no running tournament %.32s", name);
		return (NULL);
	}
	return (t);
}

/* Fills a pending game of tournament show. */
static void
lobby_tour_pend(struct lobby *lb, const struct ltour *t, size_t i,
    struct lobby_tpend *p)
{
	const struct lslot *s = &t->slots[i];
	struct lobby_client *c;
	uint64_t	 now = lobby_clock_now(lb), due;

	memset(p, 0, sizeof *p);
	p->slot = i;
	p->game = s->round + 1;
	p->p[0] = t->def.players[s->a];
	p->p[1] = t->def.players[s->b];
	p->where[0] = lobby_tour_seat(lb, p->p[0], &c);
	p->where[1] = lobby_tour_seat(lb, p->p[1], &c);
	p->after = !ltour_pair_ready(t, i);
	if (!p->after && s->waiting != 0 && t->def.forfeit_s != 0) {
		due = s->waiting + (uint64_t)t->def.forfeit_s * 1000;
		p->forfeit = 1;
		p->forfeit_ms = due > now ? due - now : 0;
	}
}

/* Where a player of a pending game is, in tournament show and its JSON. */
const char *
lobby_tour_where(int w)
{
	return (w > 0 ? "ready" : w == 0 ? "busy" : "absent");
}

/*
 * tournament show NAME (anyone): the tournament's definition, counts, the
 * first LOBBY_SHOW_PENDING pending games and whom each waits for, and its
 * SPRT.
 */
int
lobby_tour_show(struct lobby_client *lc, const char *name,
    struct lobby_tshow *sh, struct buf *err)
{
	struct ltour	*t;
	size_t		 i;

	if (lc->lb->nops != NULL)	/* a node: from the log */
		lc->lb->nops->tour_fresh(lc->lb, name);
	memset(sh, 0, sizeof *sh);
	if ((t = lobby_tour_named(lc->lb, name, err)) == NULL)
		return (-1);
	sh->def = &t->def;
	sh->tour = t;
	sh->round = t->round;
	if (t->def.format == LEAGUE_SWISS)
		sh->block = t->npairings * t->def.games_per_pair;
	sh->byes = t->byes;
	for (i = 0; i < t->nslots; i++) {
		sh->total += t->slots[i].state != LSLOT_VOID;
		switch (t->slots[i].state) {
		case LSLOT_DONE:
			sh->played++;
			sh->forfeits += t->slots[i].forfeit != 0;
			break;
		case LSLOT_PLAYING:
			sh->playing++;
			break;
		case LSLOT_STOPPED:
			sh->stopped++;
			break;
		case LSLOT_PENDING:
			if (sh->npend < LOBBY_SHOW_PENDING)
				lobby_tour_pend(lc->lb, t, i,
				    &sh->pend[sh->npend++]);
			/* FALLTHROUGH */
		case LSLOT_UNPAIRED:
			sh->pending++;
			break;
		case LSLOT_VOID:
			break;
		}
	}
	if (t->def.has_sprt) {
		sh->has_llr = t->sprt.has_llr;
		sh->llr = t->sprt.llr;
		sh->lower = t->sprt.test.lower;
		sh->upper = t->sprt.test.upper;
		sh->pairs = t->sprt.pairs;
		sh->penta[0] = t->sprt.penta.ll;
		sh->penta[1] = t->sprt.penta.ld;
		sh->penta[2] = t->sprt.penta.wl + t->sprt.penta.dd;
		sh->penta[3] = t->sprt.penta.wd;
		sh->penta[4] = t->sprt.penta.ww;
		sh->verdict = t->sprt.verdict == SPRT_H0 ? 1 :
		    t->sprt.verdict == SPRT_H1 ? 2 : 0;
	}
	return (0);
}

/* Hands out the games of a Swiss tournament's paired rounds. */
void
lobby_tour_rounds(const struct lobby_tshow *sh,
    void (*fn)(void *, const struct lobby_tgame *), void *arg)
{
	const struct ltour *t = sh->tour;
	const struct lslot *s;
	struct lobby_tgame g;
	size_t		 block, i;

	if (t == NULL || (block = sh->block) == 0)
		return;
	for (i = 0; i < t->nslots && i < (size_t)t->round * block; i++) {
		s = &t->slots[i];
		if (s->state == LSLOT_VOID || s->state == LSLOT_UNPAIRED)
			continue;
		memset(&g, 0, sizeof g);
		g.round = (unsigned int)(i / block) + 1;
		g.slot = i;
		g.game = s->round + 1;
		g.p[0] = t->def.players[s->a];
		g.p[1] = t->def.players[s->b];
		g.state = lslot_state_name(s->state);
		g.winner = s->state == LSLOT_DONE ? s->winner : 0;
		g.forfeit = s->state == LSLOT_DONE && s->forfeit;
		fn(arg, &g);
	}
}
