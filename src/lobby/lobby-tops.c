/*
 * lobby-tops.c: a tournament's operations on the lobby (PROTOCOL.md
 * §13.6): pause and resume, add and withdraw a player, and what `tournament
 * show` reports.  The schedule itself is lobby-tour.c's.
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

/*
 * Pauses (no new game starts; games in play finish and count) or resumes
 * a tournament; the state is stored.  Returns 0, or -1 with err.
 */
static int
lobby_tour_pause(struct lobby *lb, struct ltour *t, int pause,
    struct buf *err)
{
	enum league_tstatus to = pause ? LEAGUE_T_PAUSED : LEAGUE_T_RUNNING;

	if (t->def.status != (pause ? LEAGUE_T_RUNNING : LEAGUE_T_PAUSED)) {
		buf_printf(err, "tournament %s is %s", t->def.name,
		    lobby_tour_status(t->def.status));
		return (-1);
	}
	if (league_tournament_status(lb->league, t->def.id, to) != 0) {
		buf_puts(err, "cannot store the tournament's state");
		return (-1);
	}
	ltour_enter(t, to);
	if (!pause) {
		ltour_check_done(lb, t);
		lobby_schedule(lb);
	}
	return (0);
}

/* tournament pause|resume NAME (admin: the caller checks the role). */
int
lobby_tour_set_paused(struct lobby_client *lc, const char *name, int pause,
    struct buf *err)
{
	struct ltour	*t;
	size_t		 i;

	if ((t = lobby_tour_named(lc->lb, name, err)) == NULL ||
	    lobby_tour_pause(lc->lb, t, pause, err) != 0)
		return (-1);
	if (pause)		/* a deadline runs again from the resume */
		for (i = 0; i < t->nslots; i++)
			lslot_unwait(lc->lb, t, i);
	log_info("tournament=%s event=%s by=%s", t->def.name,
	    pause ? "paused" : "resumed", lc->name);
	return (0);
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

/*
 * tournament withdraw NAME PLAYER (admin): the player's games played
 * stand, its games in play finish and count, its games not started are
 * never played, and no later round pairs it.  Stored.
 */
int
lobby_tour_withdraw(struct lobby_client *lc, const char *name,
    const char *player, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct ltour	*t;
	char		 msg[256];
	size_t		 i;

	if ((t = lobby_tour_live(lb, name, err)) == NULL)
		return (-1);
	if ((i = ltour_player(t, player)) == SIZE_MAX) {
		buf_printf(err, "%.32s does not play in %s", player, name);
		return (-1);
	}
	if (t->def.wround[i] != 0) {
		buf_printf(err, "%s is withdrawn already", player);
		return (-1);
	}
	t->def.wround[i] = t->round + 1;
	if (league_tournament_roster(lb->league, &t->def, msg,
	    sizeof msg) != 0) {
		t->def.wround[i] = 0;
		buf_puts(err, msg);
		return (-1);
	}
	log_info("tournament=%s event=withdrawn player=%s by=%s", name,
	    player, lc->name);
	ltour_withdrawn_stop(t);
	ltour_after_result(lb, t);
	lobby_schedule(lb);
	return (0);
}

/*
 * tournament add NAME PLAYER (admin): a round-robin or gauntlet schedules
 * the newcomer's pairings (after the others'); an arena pairs it from its
 * next round.  Stored.
 */
int
lobby_tour_add_player(struct lobby_client *lc, const char *name,
    const char *player, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct league_tournament *d;
	struct ltour	*t;
	char		 msg[256];

	if ((t = lobby_tour_live(lb, name, err)) == NULL)
		return (-1);
	d = &t->def;
	if (d->format == LEAGUE_SWISS || d->has_sprt) {
		buf_printf(err, "%s takes no new player: %s", name,
		    d->has_sprt ? "an SPRT match" : "a Swiss tournament");
		return (-1);
	}
	if (!league_player_ok(player)) {
		buf_printf(err, "bad player name: 1..%d characters of A-Z a-z "
		    "0-9 _ - .", LEAGUE_NAME_MAX);
		return (-1);
	}
	if (ltour_player(t, player) != SIZE_MAX) {
		buf_printf(err, "%.32s is a player of %s already", player,
		    name);
		return (-1);
	}
	if (d->nplayers >= LOBBY_ARENA_PAIRINGS * 2) {
		buf_puts(err, "too many players (limit 64)");
		return (-1);
	}
	d->players = xreallocarray(d->players, d->nplayers + 1,
	    sizeof *d->players);
	d->wround = xreallocarray(d->wround, d->nplayers + 2,
	    sizeof *d->wround);
	d->players[d->nplayers] = xstrdup(player);
	d->wround[d->nplayers++] = 0;
	if (league_tournament_roster(lb->league, d, msg, sizeof msg) != 0) {
		free(d->players[--d->nplayers]);
		buf_puts(err, msg);
		return (-1);
	}
	if (d->format != LEAGUE_ARENA)
		ltour_rr_block(t, d->nplayers - 1, d->nplayers);
	log_info("tournament=%s event=added player=%s by=%s", name, player,
	    lc->name);
	lobby_schedule(lb);
	return (0);
}
