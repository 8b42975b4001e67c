/*
 * lobby-tchange.c: the admin's changes of a running tournament
 * (PROTOCOL.md §13.6): cancel, pause and resume, add and withdraw a
 * player.  The loop never waits for the database (§13.12): a change is
 * checked on the loop (lobby_tour_change, from the command's
 * preparation, cmd-prep.c), stored on a worker (lobby_tour_change_store)
 * and applied on the loop (lobby_tour_change_apply) as the command runs.
 * A store that failed changes nothing.  A change that no longer holds
 * when it is applied (the tournament ended or changed meanwhile) is
 * refused then, and the lobby's state, the truth, is written again
 * (lobby-tstore.c) over the stored change.
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/log.h"

/* The names of the changes (lobby.h's LOBBY_TC_*), for the log. */
static const char *const tchange_names[] = {
	"cancelled", "paused", "resumed", "added", "withdrawn",
};

/* Checks a withdrawal of c->player from t (below). */
static int
tchange_withdraw(struct ltour *t, struct lobby_tchange *c, struct buf *err)
{
	size_t	 i;

	if ((i = ltour_player(t, c->player)) == SIZE_MAX) {
		buf_printf(err, "%.32s does not play in %s", c->player,
		    c->name);
		return (-1);
	}
	if (t->def.wround[i] != 0) {
		buf_printf(err, "%s is withdrawn already", c->player);
		return (-1);
	}
	if (c->roster == NULL) {	/* the first check */
		c->roster = ltour_roster_copy(t, 0);
		c->roster->wround[i] = t->round + 1;
	}
	return (0);
}

/* Checks an addition of c->player to t (below). */
static int
tchange_add(struct ltour *t, struct lobby_tchange *c, struct buf *err)
{
	const struct league_tournament *d = &t->def;
	struct league_tournament *r;

	if (d->format == LEAGUE_SWISS || d->has_sprt) {
		buf_printf(err, "%s takes no new player: %s", c->name,
		    d->has_sprt ? "an SPRT match" : "a Swiss tournament");
		return (-1);
	}
	if (!league_player_ok(c->player)) {
		buf_printf(err, "bad player name: 1..%d characters of A-Z a-z "
		    "0-9 _ - .", LEAGUE_NAME_MAX);
		return (-1);
	}
	if (ltour_player(t, c->player) != SIZE_MAX) {
		buf_printf(err, "%.32s is a player of %s already", c->player,
		    c->name);
		return (-1);
	}
	if (d->nplayers >= LOBBY_ARENA_PAIRINGS * 2) {
		buf_puts(err, "too many players (limit 64)");
		return (-1);
	}
	if (c->roster == NULL) {		/* the first check */
		r = c->roster = ltour_roster_copy(t, 1);
		r->players[r->nplayers] = xstrdup(c->player);
		r->wround[r->nplayers++] = 0;
	}
	return (0);
}

/*
 * On the loop: checks change c (op, name and player set) against the
 * lobby and sets what to store (the status, or the roster).  Returns 0,
 * or -1 with the refusal in err.
 */
int
lobby_tour_change(struct lobby_client *lc, struct lobby_tchange *c,
    struct buf *err)
{
	struct ltour	*t;
	int		 pause = c->op == LOBBY_TC_PAUSE;

	if (c->op == LOBBY_TC_PAUSE || c->op == LOBBY_TC_RESUME) {
		if ((t = lobby_tour_named(lc->lb, c->name, err)) == NULL)
			return (-1);
		if (t->def.status != (pause ? LEAGUE_T_RUNNING :
		    LEAGUE_T_PAUSED)) {
			buf_printf(err, "tournament %s is %s", t->def.name,
			    lobby_tour_status(t->def.status));
			return (-1);
		}
		c->status = pause ? LEAGUE_T_PAUSED : LEAGUE_T_RUNNING;
	} else if ((t = lobby_tour_live(lc->lb, c->name, err)) == NULL)
		return (-1);
	c->id = t->def.id;
	switch (c->op) {
	case LOBBY_TC_CANCEL:
		c->status = LEAGUE_T_CANCELLED;
		return (0);
	case LOBBY_TC_WITHDRAW:
		return (tchange_withdraw(t, c, err));
	case LOBBY_TC_ADD:
		return (tchange_add(t, c, err));
	default:
		return (0);
	}
}

/* On a worker: stores the change checked (c->rc, c->msg). */
void
lobby_tour_change_store(struct lobby *lb, struct lobby_tchange *c)
{
	c->msg[0] = '\0';
	if (c->op == LOBBY_TC_ADD || c->op == LOBBY_TC_WITHDRAW) {
		c->rc = league_tournament_roster(lb->league, c->roster,
		    c->msg, sizeof c->msg);
		return;
	}
	if ((c->rc = league_tournament_status(lb->league, c->id,
	    (enum league_tstatus)c->status)) != 0)
		snprintf(c->msg, sizeof c->msg, c->op == LOBBY_TC_CANCEL ?
		    "cannot store the cancellation" :
		    "cannot store the tournament's state");
}

/* Applies a roster stored: t's players and withdrawals become r's. */
static void
tchange_set_roster(struct lobby *lb, struct ltour *t,
    struct lobby_tchange *c)
{
	struct league_tournament *d = &t->def, *r = c->roster;
	size_t		 i;

	if (c->op == LOBBY_TC_WITHDRAW) {
		i = ltour_player(t, c->player);
		d->wround[i] = r->wround[i];
		ltour_withdrawn_stop(t);
		ltour_after_result(lb, t);
		return;
	}
	d->players = xreallocarray(d->players, d->nplayers + 1,
	    sizeof *d->players);
	d->wround = xreallocarray(d->wround, d->nplayers + 2,
	    sizeof *d->wround);
	d->players[d->nplayers] = xstrdup(c->player);
	d->wround[d->nplayers++] = 0;
	if (d->format != LEAGUE_ARENA)
		ltour_rr_block(t, d->nplayers - 1, d->nplayers);
}

/*
 * On the loop, once stored: applies change c.  Returns 0, or -1 with the
 * refusal in err (a failed store; or the change no longer holds: then
 * the lobby's state is written again).
 */
int
lobby_tour_change_apply(struct lobby_client *lc, struct lobby_tchange *c,
    struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct ltour	*t;
	size_t		 i;

	if (c->rc != 0) {
		buf_puts(err, c->msg);
		return (-1);
	}
	if (lobby_tour_change(lc, c, err) != 0) {
		log_warnx("tournament=%s event=change-raced op=%s",
		    c->name, tchange_names[c->op]);
		TAILQ_FOREACH(t, &lb->tours, entry)
			if (t->def.id == c->id) {
				ltour_store_status(t, t->def.status);
				ltour_store_roster(t);
			}
		return (-1);
	}
	t = lobby_tour(lb, c->name);
	if (c->op == LOBBY_TC_ADD || c->op == LOBBY_TC_WITHDRAW)
		tchange_set_roster(lb, t, c);
	else
		ltour_enter(t, (enum league_tstatus)c->status);
	if (c->op == LOBBY_TC_RESUME)
		ltour_check_done(lb, t);
	if (c->op == LOBBY_TC_PAUSE)	/* a deadline runs again after */
		for (i = 0; i < t->nslots; i++)
			lslot_unwait(lb, t, i);
	if (c->op != LOBBY_TC_CANCEL && c->op != LOBBY_TC_PAUSE)
		lobby_schedule(lb);
	if (c->op == LOBBY_TC_ADD || c->op == LOBBY_TC_WITHDRAW)
		log_info("tournament=%s event=%s player=%s by=%s", c->name,
		    tchange_names[c->op], c->player, lc->name);
	else
		log_info("tournament=%s event=%s by=%s", c->name,
		    tchange_names[c->op], lc->name);
	return (0);
}

/* Frees what a change holds (its roster), keeping op, name, player. */
void
lobby_tour_change_free(struct lobby_tchange *c)
{
	league_tournament_free(c->roster);
	free(c->roster);
	c->roster = NULL;
}
