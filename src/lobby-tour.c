/*
 * lobby-tour.c: tournaments on the lobby (PROTOCOL.md §13): their
 * schedules, loading them back at start, starting every game whose two
 * players are ready, and counting results.
 */

#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league.h"
#include "lobby.h"
#include "lobby-int.h"
#include "log.h"
#include "util.h"

/* The names of a tournament game's states, for the log. */
static const char *const lslot_state_names[] = {
	[LSLOT_PENDING] = "pending",
	[LSLOT_PLAYING] = "playing",
	[LSLOT_DONE] = "done",
};

/* Moves a tournament's game to a new state: the one place that does. */
void
lslot_enter(struct ltour *t, size_t slot, enum lslot_state s)
{
	log_debug("tournament=%s slot=%zu state=\"%s -> %s\"", t->def.name,
	    slot, ENUM_NAME(lslot_state_names, t->slots[slot].state, "done"),
	    ENUM_NAME(lslot_state_names, s, "done"));
	t->slots[slot].state = s;
}

/* Returns the text of a tournament's status (LEAGUE_T_*): the league's. */
const char *
lobby_tour_status(int s)
{
	const char	*name = league_tstatus_name((enum league_tstatus)s);

	return (name != NULL ? name : "cancelled");
}

/*
 * Moves a tournament to a new state, in memory (the caller stores it):
 * the one place that does.
 */
void
ltour_enter(struct ltour *t, enum league_tstatus s)
{
	log_debug("tournament=%s state=\"%s -> %s\"", t->def.name,
	    lobby_tour_status(t->def.status), lobby_tour_status(s));
	t->def.status = s;
}

/* Records a finished tournament game and closes a complete tournament. */
void
lobby_tour_result(struct lobby *lb, struct ltour *t, size_t slot, int winner)
{
	size_t	 i;

	t->slots[slot].winner = winner;
	lslot_enter(t, slot, LSLOT_DONE);
	if (t->def.status != LEAGUE_T_RUNNING)
		return;			/* cancelled meanwhile: stays so */
	for (i = 0; i < t->nslots; i++)
		if (t->slots[i].state != LSLOT_DONE)
			return;
	ltour_enter(t, LEAGUE_T_FINISHED);
	if (league_tournament_status(lb->league, t->def.id,
	    LEAGUE_T_FINISHED) != 0)
		log_warnx("tournament=%s event=status-failed",
		    t->def.name);
	log_info("tournament=%s event=finished games=%zu", t->def.name,
	    t->nslots);
}

/*
 * A tournament's game ended and is logged (the lobby's tour_game_over
 * hook, from lobby-game.c): a result counts (slots[].a is seat 1: the
 * winner is a (1) or b (2)); a game without one (aborted) is replayed.
 */
void
lobby_tour_game_over(struct lobby *lb, struct ltour *t, size_t slot,
    int winner)
{
	if (t->slots[slot].state != LSLOT_PLAYING)
		return;
	if (winner != 0)
		lobby_tour_result(lb, t, slot, winner);
	else			/* replayed */
		lslot_enter(t, slot, LSLOT_PENDING);
}

/* Builds the schedule of a tournament. */
void
lobby_tour_slots(struct ltour *t)
{
	struct league_tournament *d = &t->def;
	size_t		 i, j, n = d->nplayers, pairs, p, k;
	size_t		(*pv)[2];

	pairs = d->format == LEAGUE_GAUNTLET ? n - 1 : n * (n - 1) / 2;
	pv = xreallocarray(NULL, pairs, sizeof *pv);
	p = 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (d->format == LEAGUE_GAUNTLET && i != 0)
				continue;
			pv[p][0] = i;
			pv[p][1] = j;
			p++;
		}
	t->nslots = pairs * d->games_per_pair;
	t->slots = xreallocarray(NULL, t->nslots, sizeof *t->slots);
	/* Round by round, so that different pairings can play at once. */
	for (k = 0; k < d->games_per_pair; k++)
		for (p = 0; p < pairs; p++) {
			struct lslot *s = &t->slots[k * pairs + p];

			memset(s, 0, sizeof *s);
			s->a = pv[p][k % 2];
			s->b = pv[p][1 - k % 2];
			s->pairing = p;
			s->round = (unsigned int)k;
		}
	free(pv);
}

/* Returns a connection of an account free to start a game, or NULL. */
static struct lobby_client *
lobby_free_client(struct lobby *lb, const char *name, int need_ready)
{
	struct lobby_client *lc, *best = NULL;

	TAILQ_FOREACH(lc, &lb->clients, entry)
		if (strcmp(lc->name, name) == 0 && lc->game == NULL &&
		    (lc->ready || !need_ready))
			best = lc;		/* the newest */
	return (best);
}

/* Makes the start position of a tournament slot. */
static int
lobby_tour_start(struct lobby *lb, struct ltour *t, struct lslot *s,
    struct game *out, struct game_error *err)
{
	struct game	 tmpl;
	gmp_randstate_t	 rs;
	int		 rv;

	if (game_parse_line(&tmpl, t->def.game, &lb->conf.lim, err) != 0)
		return (-1);
	if (!t->def.random) {
		*out = tmpl;
		return (0);
	}
	/* The same start for both seats of a pairing: rounds 2k, 2k+1. */
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, (unsigned long)(t->def.seed * 1000003ULL +
	    s->pairing * 1009ULL + s->round / 2));
	rv = lobby_draw_start(&tmpl, rs, &lb->conf.lim, out, err);
	gmp_randclear(rs);
	game_free(&tmpl);
	return (rv);
}

/* Starts every tournament game whose two players are ready and free. */
void
lobby_schedule(struct lobby *lb)
{
	struct lobby_client *a, *b;
	struct game_error err;
	struct game	 start;
	struct ltour	*t;
	size_t		 i;

	TAILQ_FOREACH(t, &lb->tours, entry) {
		if (t->def.status != LEAGUE_T_RUNNING)
			continue;
		for (i = 0; i < t->nslots; i++) {
			struct lslot *s = &t->slots[i];

			if (s->state != LSLOT_PENDING)
				continue;
			if (lobby_playing(lb, t->def.players[s->a]) ||
			    lobby_playing(lb, t->def.players[s->b]))
				continue;
			a = lobby_free_client(lb, t->def.players[s->a], 1);
			b = lobby_free_client(lb, t->def.players[s->b], 1);
			if (a == NULL || b == NULL)
				continue;
			if (lobby_tour_start(lb, t, s, &start, &err) != 0) {
				log_warnx("tournament=%s event=start-failed "
				    "msg=\"%s\"", t->def.name, err.msg);
				continue;
			}
			lslot_enter(t, i, LSLOT_PLAYING);
			lc_drop_seek(a);
			lc_drop_seek(b);
			lg_start(lb, &start, a, b, 0, t->def.base_ms,
			    t->def.inc_ms, 1, t, i);
		}
	}
}

/*
 * Loads every tournament and what it has played: running ones resume,
 * the others answer standings.
 */
int
lobby_load_tours(struct lobby *lb, char *err, size_t errlen)
{
	struct league_tournament *v = NULL;
	struct league_tgame *tg = NULL;
	struct ltour	*t;
	size_t		 n = 0, ng, i, j;

	if (league_tournaments(lb->league, 1, &v, &n) != 0) {
		snprintf(err, errlen, "cannot read the tournaments");
		return (-1);
	}
	for (i = 0; i < n; i++) {
		t = xcalloc(1, sizeof *t);
		t->def = v[i];
		lobby_tour_slots(t);
		TAILQ_INSERT_TAIL(&lb->tours, t, entry);
		if (league_tournament_games(lb->league, t->def.id, &tg,
		    &ng) != 0) {
			free(v);
			snprintf(err, errlen, "cannot read the games of "
			    "tournament %s", t->def.name);
			return (-1);
		}
		for (j = 0; j < ng; j++)
			if (tg[j].finished && tg[j].slot < t->nslots &&
			    tg[j].result != 0) {
				t->slots[tg[j].slot].winner = tg[j].result;
				lslot_enter(t, tg[j].slot, LSLOT_DONE);
			}
		free(tg);
		tg = NULL;
		for (j = 0; j < t->nslots && t->slots[j].state == LSLOT_DONE;
		    j++)
			;
		if (j == t->nslots && t->def.status == LEAGUE_T_RUNNING) {
			/* Every game counted, but the end was never stored. */
			ltour_enter(t, LEAGUE_T_FINISHED);
			if (league_tournament_status(lb->league, t->def.id,
			    LEAGUE_T_FINISHED) != 0)
				log_warnx("tournament=%s event=status-failed",
				    t->def.name);
		}
		log_info("tournament=%s event=loaded status=%s games=%zu",
		    t->def.name, lobby_tour_status(t->def.status), t->nslots);
	}
	free(v);
	return (0);
}

/* Returns the running tournament with a name, or NULL. */
struct ltour *
lobby_tour(struct lobby *lb, const char *name)
{
	struct ltour	*t;

	TAILQ_FOREACH(t, &lb->tours, entry)
		if (strcmp(t->def.name, name) == 0)
			return (t);
	return (NULL);
}
