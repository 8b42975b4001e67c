/*
 * lobby-tour.c: tournaments on the lobby (PROTOCOL.md §13.6): their
 * schedules (round-robin and gauntlet blocks, Swiss and arena rounds,
 * game pairs), loading them back at start, starting every game whose two
 * players are ready (the engine always is), forfeit deadlines, counting
 * results, and the SPRT's stop.  Operations: lobby-tops.c; reads of the
 * schedule (pairing input, SPRT): lobby-tinfo.c.
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
#include "proto/proto.h"
#include "lib/util.h"

/* The names of a tournament game's states, for the log. */
static const char *const lslot_state_names[] = {
	LSLOT_STATES(ENUM_X_NAME)
};

/* The name of a tournament game's state. */
const char *
lslot_state_name(enum lslot_state s)
{
	return (ENUM_NAME(lslot_state_names, s, "?"));
}

/* Moves a tournament's game to a new state: the one place that does. */
void
lslot_enter(struct ltour *t, size_t slot, enum lslot_state s)
{
	log_debug("tournament=%s slot=%zu state=\"%s -> %s\"", t->def.name,
	    slot, ENUM_NAME(lslot_state_names, t->slots[slot].state, "?"),
	    ENUM_NAME(lslot_state_names, s, "?"));
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

/* Stops what is left of a tournament whose SPRT decided (H0 or H1). */
static void
ltour_sprt_stop(struct lobby *lb, struct ltour *t)
{
	struct lgame	*g;
	size_t		 i;
	const char	*h = t->sprt.verdict == SPRT_H0 ? "H0" : "H1";

	for (i = 0; i < t->nslots; i++)
		if (t->slots[i].state == LSLOT_PENDING ||
		    t->slots[i].state == LSLOT_UNPAIRED)
			lslot_enter(t, i, LSLOT_STOPPED);
	if (!t->def.sprt_verdict) {
		t->def.sprt_verdict = t->sprt.verdict == SPRT_H0 ? 1 : 2;
		ltour_store_verdict(t, t->def.sprt_verdict);	/* a worker */
		log_info("tournament=%s event=sprt-stop accepted=%s "
		    "llr=%.4f pairs=%llu", t->def.name, h, t->sprt.llr,
		    (unsigned long long)t->sprt.pairs);
	}
	/* Its games still in play end without a result: not counted. */
	TAILQ_FOREACH(g, &lb->games, entry)
		if (g->tour == t && !lg_over(g))
			lg_finish_detail(g, 0, "aborted", h[1] == '0' ?
			    "the SPRT accepted H0" : "the SPRT accepted H1");
}

/*
 * Closes a running tournament with nothing left to play (every slot done
 * or stopped); stores its end.
 */
void
ltour_check_done(struct lobby *lb, struct ltour *t)
{
	size_t	 i;

	if (t->def.status != LEAGUE_T_RUNNING)
		return;			/* paused, cancelled: stays so */
	if (t->def.format == LEAGUE_ARENA && t->round < t->def.rounds)
		return;			/* rounds to come */
	for (i = 0; i < t->nslots; i++)
		if (!lslot_over(&t->slots[i]))
			return;
	ltour_enter(t, LEAGUE_T_FINISHED);
	ltour_store_status(t, LEAGUE_T_FINISHED);	/* on a worker */
	log_info("tournament=%s event=finished games=%zu", t->def.name,
	    t->nslots);
}

/*
 * Sets pairing j of the block of np pairings at slot base: players a and
 * b, a first in its odd-numbered games; every game pending.  Its id
 * (seeding its starts) is base / games_per_pair + j: unique, and the
 * same when the schedule is rebuilt.
 */
static void
ltour_set_pairing(struct ltour *t, size_t base, size_t np, size_t j,
    size_t a, size_t b)
{
	size_t	 k, i;

	for (k = 0; k < t->def.games_per_pair; k++) {
		i = base + k * np + j;
		t->slots[i].a = k % 2 == 0 ? a : b;
		t->slots[i].b = k % 2 == 0 ? b : a;
		t->slots[i].pairing = base / t->def.games_per_pair + j;
		t->slots[i].round = (unsigned int)k;
		t->slots[i].prev = k > 0 ? i - np : 0;
		lslot_enter(t, i, LSLOT_PENDING);
	}
}

/*
 * Slot i's round, 1-based: a Swiss round's block (byes and absences
 * share it), else the slot's place in the schedule (its order).
 */
unsigned int
ltour_slot_round(const struct ltour *t, size_t i)
{
	size_t	 b = t->npairings * t->def.games_per_pair;

	if (t->def.format == LEAGUE_SWISS && b > 0)
		return ((unsigned int)(i / b) + 1);
	return ((unsigned int)i + 1);
}

/*
 * Stores what the games table lacks of t's unplayed rounds (migration
 * 015), for the standings built from the log: the byes of the Swiss
 * rounds paired so far, "R:NAME,...", and the games a withdrawal stopped,
 * "R:A:B,..." (R as ltour_slot_round gives it).  At a load the same texts
 * are written again as the rounds are paired anew.
 */
static void
ltour_store_unplayed(struct ltour *t)
{
	const struct league_tournament *d = &t->def;
	const struct lslot *s;
	struct buf	 b, st;
	unsigned int	 r;
	size_t		 i;

	buf_init(&b);
	buf_init(&st);
	for (r = 0; t->byes != NULL && r < t->round; r++)
		if (t->byes[r] < d->nplayers)
			buf_printf(&b, "%s%u:%s", b.len > 0 ? "," : "", r + 1,
			    d->players[t->byes[r]]);
	for (i = 0; i < t->nslots; i++) {
		s = &t->slots[i];
		if (s->state == LSLOT_STOPPED && s->a < d->nplayers &&
		    s->b < d->nplayers && (d->wround[s->a] != 0 ||
		    d->wround[s->b] != 0))
			buf_printf(&st, "%s%u:%s:%s", st.len > 0 ? "," : "",
			    ltour_slot_round(t, i), d->players[s->a],
			    d->players[s->b]);
	}
	ltour_store_texts(t, buf_str(&b), buf_str(&st));	/* a worker */
	buf_free(&b);
	buf_free(&st);
}

/*
 * Pairs Swiss round t->round into its block of slots; a round that cannot
 * be paired (every pairing has a rematch) stops the tournament there.
 * Returns 0, or -1 if it could not pair.
 */
static int
ltour_pair_round(struct ltour *t)
{
	struct swiss_pair *pv;
	size_t		 n = t->def.nplayers, j, base, bye, i, np, k;
	int		*active;
	char		 err[128];

	pv = xcalloc(n / 2 + 1, sizeof *pv);
	active = xcalloc(n + 1, sizeof *active);
	ltour_active(t, t->round, active);
	if (ltour_pairs(t, active, pv, &np, &bye, err, sizeof err) != 0) {
		log_warnx("tournament=%s event=unpaired round=%u msg=\"%s\"",
		    t->def.name, t->round + 1, err);
		for (i = 0; i < t->nslots; i++)
			if (t->slots[i].state == LSLOT_UNPAIRED)
				lslot_enter(t, i, LSLOT_STOPPED);
		free(pv);
		free(active);
		return (-1);
	}
	base = (size_t)t->round * t->npairings * t->def.games_per_pair;
	for (j = 0; j < np; j++)
		ltour_set_pairing(t, base, t->npairings, j, pv[j].first,
		    pv[j].second);
	/* Fewer players after a withdrawal: pairings left unused. */
	for (j = np; j < t->npairings; j++)
		for (k = 0; k < t->def.games_per_pair; k++)
			lslot_enter(t, base + k * t->npairings + j,
			    LSLOT_VOID);
	t->byes[t->round++] = bye;
	if (bye != SWISS_NO_BYE)
		ltour_store_unplayed(t);
	free(pv);
	free(active);
	log_info("tournament=%s event=paired round=%u", t->def.name,
	    t->round);
	return (0);
}

/* Returns 1 if round r (0-based) has nothing left to play. */
static int
ltour_round_over(const struct ltour *t, unsigned int r)
{
	size_t	 b = t->npairings * t->def.games_per_pair, i;

	for (i = (size_t)r * b; i < (size_t)(r + 1) * b; i++)
		if (!lslot_over(&t->slots[i]))
			return (0);
	return (1);
}

/*
 * Pairs the Swiss rounds due: each one whose round before has nothing
 * left to play (a round of withdrawn players may be over at once).
 */
static void
ltour_pair_due(struct ltour *t)
{
	while (t->def.format == LEAGUE_SWISS && t->round > 0 &&
	    t->round < t->def.rounds && ltour_round_over(t, t->round - 1))
		if (ltour_pair_round(t) != 0)
			break;
}

/*
 * After a result: the next Swiss round once this one is complete, the
 * SPRT after a complete pair, and the end when nothing is left.
 */
void
ltour_after_result(struct lobby *lb, struct ltour *t)
{
	ltour_pair_due(t);
	if (t->def.has_sprt) {
		ltour_sprt_update(t);
		if (t->sprt.verdict != SPRT_CONTINUE)
			ltour_sprt_stop(lb, t);
	}
	ltour_check_done(lb, t);
}

/* Records a finished tournament game and closes a complete tournament. */
static void
lobby_tour_result(struct lobby *lb, struct ltour *t, size_t slot, int winner)
{
	t->slots[slot].winner = winner;
	lslot_enter(t, slot, LSLOT_DONE);
	if (t->def.status == LEAGUE_T_CANCELLED ||
	    t->def.status == LEAGUE_T_FINISHED)
		return;
	ltour_after_result(lb, t);
}

/*
 * A tournament's game ended and is logged (the lobby's tour_game_over
 * hook, from lobby-game.c): a result counts (slots[].a is seat 1: the
 * winner is a (1) or b (2)); a game without one (aborted) is replayed,
 * unless the SPRT stopped the match meanwhile.
 */
void
lobby_tour_game_over(struct lobby *lb, struct ltour *t, size_t slot,
    int winner)
{
	const struct lslot *s = &t->slots[slot];

	if (s->state != LSLOT_PLAYING)
		return;
	if (t->def.has_sprt && t->sprt.verdict != SPRT_CONTINUE) {
		lslot_enter(t, slot, LSLOT_STOPPED);
		ltour_check_done(lb, t);
	} else if (winner != 0)
		lobby_tour_result(lb, t, slot, winner);
	else if (t->def.wround[s->a] != 0 || t->def.wround[s->b] != 0) {
		/* Aborted after a withdrawal: never played again. */
		lslot_enter(t, slot, LSLOT_STOPPED);
		ltour_store_unplayed(t);
		ltour_after_result(lb, t);
	} else			/* replayed */
		lslot_enter(t, slot, LSLOT_PENDING);
}

/*
 * Appends a block of a round-robin or gauntlet: every pairing of players
 * lo..hi-1 with each other and with those before them (a gauntlet: the
 * first player's), in rr_pairing's order, each pairing's games in order,
 * block by block, so that different pairings can play at once.
 */
void
ltour_rr_block(struct ltour *t, size_t lo, size_t hi)
{
	const struct league_tournament *d = &t->def;
	int		 gauntlet = d->format == LEAGUE_GAUNTLET;
	size_t		 j, a, b, np, base = t->nslots;

	np = rr_pairing(lo, hi, gauntlet, 0, NULL, NULL);
	t->nslots += np * d->games_per_pair;
	t->slots = xreallocarray(t->slots, t->nslots + 1, sizeof *t->slots);
	memset(&t->slots[base], 0, (t->nslots - base) * sizeof *t->slots);
	for (j = 0; j < np; j++) {
		(void)rr_pairing(lo, hi, gauntlet, j, &a, &b);
		ltour_set_pairing(t, base, np, j, a, b);
	}
	if (t->npairings == 0)
		t->npairings = np;
}

/*
 * Builds the schedule of a tournament: a round-robin's or a gauntlet's
 * every game, a Swiss tournament's blocks (round 1 paired, the others
 * when the round before is complete); its SPRT.
 */
void
lobby_tour_slots(struct ltour *t)
{
	struct league_tournament *d = &t->def;
	size_t		 i;

	TAILQ_INIT(&t->forfeits);
	if (d->nstart == 0)
		d->nstart = d->nplayers;
	if (d->wround == NULL)
		d->wround = xcalloc(d->nplayers + 1, sizeof *d->wround);
	if (d->format == LEAGUE_SWISS) {
		t->npairings = d->nplayers / 2;
		t->nslots = (size_t)d->rounds * t->npairings *
		    d->games_per_pair;
		t->byes = xcalloc(d->rounds + 1, sizeof *t->byes);
	} else if (d->format == LEAGUE_ARENA) {
		t->npairings = LOBBY_ARENA_PAIRINGS;
		t->nslots = 0;		/* a block per round, as paired */
	} else
		t->nslots = 0;		/* blocks, below */
	t->slots = xcalloc(t->nslots + 1, sizeof *t->slots);
	if (d->has_sprt) {
		/* The parameters were checked when the match was made. */
		(void)sprt_init(&t->sprt.test, SPRT_LOGISTIC, d->sprt_elo0,
		    d->sprt_elo1, d->sprt_alpha, d->sprt_beta);
		t->sprt.verdict = d->sprt_verdict == 1 ? SPRT_H0 :
		    d->sprt_verdict == 2 ? SPRT_H1 : SPRT_CONTINUE;
	}
	if (d->format == LEAGUE_ARENA)
		return;
	if (d->format == LEAGUE_SWISS) {
		for (i = 0; i < t->nslots; i++)
			t->slots[i].state = LSLOT_UNPAIRED;
		(void)ltour_pair_round(t);	/* round 1: no result needed */
		return;
	}
	ltour_rr_block(t, 0, d->nstart);
	for (i = d->nstart; i < d->nplayers; i++)
		ltour_rr_block(t, i, i + 1);
}

/* Frees a tournament of the lobby. */
void
ltour_free(struct ltour *t)
{
	struct lforfeit	*f;

	if (t->timer != NULL)
		t->lb->clock.timer_free(t->lb->clock.arg, t->timer);
	while ((f = TAILQ_FIRST(&t->forfeits)) != NULL) {
		/* Shutdown: its deferred call never runs. */
		TAILQ_REMOVE(&t->forfeits, f, entry);
		free(f);
	}
	if (t->nd != NULL)
		t->lb->nops->tour_free(t);
	league_tournament_free(&t->def);
	free(t->slots);
	free(t->byes);
	free(t);
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

/* Makes the start position of a tournament slot; logs a failure. */
static int
lobby_tour_start(struct lobby *lb, struct ltour *t, struct lslot *s,
    struct game *out)
{
	struct game_error err;
	struct game	 tmpl;
	gmp_randstate_t	 rs;
	int		 rv = -1;

	if (game_parse_line(&tmpl, t->def.game, &lb->conf.lim, &err) != 0)
		goto done;
	if (!t->def.random) {
		*out = tmpl;
		return (0);
	}
	/* The same start for both games of a pair: rounds 2k, 2k+1. */
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, (unsigned long)(t->def.seed * 1000003ULL +
	    s->pairing * 1009ULL + s->round / 2));
	rv = lobby_draw_start(&tmpl, rs, &lb->conf.lim, out, &err);
	gmp_randclear(rs);
	game_free(&tmpl);
done:
	if (rv != 0)
		log_warnx("tournament=%s event=start-failed msg=\"%s\"",
		    t->def.name, err.msg);
	return (rv);
}

/* Returns 1 if a tournament's player is "engine" (the server's solver). */
static int
lobby_tour_engine(const char *name)
{
	return (strcmp(name, "engine") == 0);
}

/* Returns 1 if name is one of the n names of v. */
int
ltour_name_in(char (*v)[LEAGUE_NAME_MAX + 1], size_t n,
    const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return (1);
	return (0);
}

/*
 * Where a player of a pending game stands: 1 and *lc set when it can
 * start (the engine: always, lc NULL), 0 when busy in another game (not
 * absent), -1 when absent (no free, ready connection).
 */
int
lobby_tour_seat(struct lobby *lb, const char *name, struct lobby_client **lc)
{
	*lc = NULL;
	if (lobby_tour_engine(name))
		return (1);
	if (lobby_busy(lb, name) ||
	    (lb->nops != NULL && lb->nops->tour_busy(lb, name)))
		return (0);
	*lc = lobby_free_client(lb, name, 1);
	return (*lc != NULL ? 1 : -1);
}

/* A forfeit's end is in the log (on the loop): it counts. */
static void
lobby_forfeit_logged(void *arg)
{
	struct lforfeit	*f = arg;
	struct ltour	*t = f->t;
	struct lobby	*lb = f->lb;

	TAILQ_REMOVE(&t->forfeits, f, entry);
	if (f->ok && t->slots[f->slot].state == LSLOT_PLAYING)
		t->slots[f->slot].forfeit = 1;
	lobby_tour_game_over(lb, t, f->slot, f->ok ? f->winner : 0);
	free(f);
	lobby_schedule(lb);
}

/* The store's writer committed a forfeit's end (writer thread). */
static void
lobby_forfeit_cb(void *arg, int ok)
{
	struct lforfeit	*f = arg;

	if (!ok)
		log_warnx("tournament=%s event=log-failed what=forfeit",
		    f->t->def.name);
	f->ok = ok;
	f->lb->io.defer(f->lb->io.arg, lobby_forfeit_logged, f);
}

/*
 * Scores slot i as lost by forfeit by its absent seat (1 or 2): logged as
 * a finished game without moves, reason "forfeit", unrated.
 */
static void
lobby_tour_forfeit(struct lobby *lb, struct ltour *t, size_t i, int absent)
{
	struct lslot	*s = &t->slots[i];
	struct game	 start;
	struct store_game sg;
	struct buf	 pos, tc, detail;
	struct lforfeit	*f;
	int64_t		 gid = 0;

	if (lobby_tour_start(lb, t, s, &start) != 0)
		return;
	buf_init(&pos);
	buf_init(&tc);
	buf_init(&detail);
	game_print(&start, &pos);
	proto_tc_print(&tc, t->def.base_ms, t->def.inc_ms);
	buf_printf(&detail, "%s was absent for %u s",
	    t->def.players[absent == 1 ? s->a : s->b], t->def.forfeit_s);
	if (lb->store != NULL) {
		memset(&sg, 0, sizeof sg);
		sg.family = start.fam->name;
		sg.game = buf_str(&pos);
		sg.player1 = t->def.players[s->a];
		sg.player2 = t->def.players[s->b];
		sg.tc = buf_str(&tc);
		sg.tournament = t->def.id;
		sg.slot = (unsigned int)i;
		gid = store_game_begin(lb->store, &sg);
		f = xcalloc(1, sizeof *f);
		f->lb = lb;
		f->t = t;
		f->slot = i;
		f->winner = 3 - absent;
		TAILQ_INSERT_TAIL(&t->forfeits, f, entry);
		/* Counted once the log has it, as a played game's end. */
		lslot_enter(t, i, LSLOT_PLAYING);
		store_game_end_detail(lb->store, gid, absent == 1 ?
		    STORE_RESULT_SECOND : STORE_RESULT_FIRST, "forfeit",
		    buf_str(&detail), STORE_FINISHED, lobby_forfeit_cb, f);
	} else {
		s->forfeit = 1;
		lobby_tour_result(lb, t, i, 3 - absent);
	}
	log_info("tournament=%s event=forfeit slot=%zu game=%lld msg=\"%s\"",
	    t->def.name, i, (long long)gid, buf_str(&detail));
	game_free(&start);
	buf_free(&pos);
	buf_free(&tc);
	buf_free(&detail);
}

/* A tournament's forfeit timer: the scheduler scores what fell due. */
static void
lobby_tour_timer_cb(void *arg)
{
	struct ltour	*t = arg;

	lobby_schedule(t->lb);
}

/* Slot i of t waits for no absent player (its forfeit wait is off). */
void
lslot_unwait(struct lobby *lb, struct ltour *t, size_t i)
{
	t->slots[i].waiting = 0;
	if (lb->nops != NULL)
		lb->nops->uncall(t, i);
}

/*
 * The forfeit deadline of pending slot i, one seat there (present) and
 * the other absent: starts its wait, or scores the forfeit once due;
 * t->next_due keeps the earliest deadline still to come.  Returns 1 if
 * it scored one.
 */
static int
lobby_tour_wait(struct lobby *lb, struct ltour *t, size_t i, int absent)
{
	struct lslot	*s = &t->slots[i];
	uint64_t	 now = lobby_clock_now(lb), due;

	if (t->def.forfeit_s == 0)
		return (0);
	if (s->waiting == 0 && lb->nops != NULL && !lb->nops->called(lb, t, i))
		return (0);		/* node: after its players are told */
	if (s->waiting == 0)
		s->waiting = now == 0 ? 1 : now;
	due = s->waiting + (uint64_t)t->def.forfeit_s * 1000;
	if (now >= due) {
		lobby_tour_forfeit(lb, t, i, absent);
		return (1);
	}
	if (due < t->next_due)
		t->next_due = due;
	return (0);
}

/* Arms t's timer for its earliest forfeit deadline, if any. */
static void
lobby_tour_arm(struct lobby *lb, struct ltour *t)
{
	uint64_t	 now = lobby_clock_now(lb);

	if (t->next_due == UINT64_MAX) {
		if (t->timer != NULL)
			lb->clock.cancel(lb->clock.arg, t->timer);
		return;
	}
	if (t->timer == NULL)
		t->timer = lb->clock.timer_new(lb->clock.arg,
		    lobby_tour_timer_cb, t);
	lb->clock.arm(lb->clock.arg, t->timer, t->next_due > now ?
	    t->next_due - now : 0);
}

/* Starts slot i of t if both its players can; forfeits if due. */
static void
lobby_tour_try(struct lobby *lb, struct ltour *t, size_t i)
{
	struct lslot	*s = &t->slots[i];
	struct lobby_client *a, *b;
	struct game	 start;
	int		 pa, pb, eng;

	pa = lobby_tour_seat(lb, t->def.players[s->a], &a);
	pb = lobby_tour_seat(lb, t->def.players[s->b], &b);
	if (pa == 0 || pb == 0 || (pa < 0 && pb < 0)) {
		lslot_unwait(lb, t, i);	/* nobody waits for an absent one */
		return;
	}
	if (pa < 0 || pb < 0) {
		(void)lobby_tour_wait(lb, t, i, pa < 0 ? 1 : 2);
		return;
	}
	lslot_unwait(lb, t, i);
	if (lobby_tour_start(lb, t, s, &start) != 0)
		return;
	lslot_enter(t, i, LSLOT_PLAYING);
	if (a != NULL)
		lc_drop_seek(a);
	if (b != NULL)
		lc_drop_seek(b);
	eng = a == NULL ? 1 : b == NULL ? 2 : 0;
	lg_start(lb, &start, a, b, eng, t->def.base_ms, t->def.inc_ms, 1, t,
	    i);
}

/* Adds arena round t->round's block: every slot void for now. */
static void
ltour_arena_block(struct ltour *t)
{
	size_t	 b = t->npairings * t->def.games_per_pair, i;

	t->slots = xreallocarray(t->slots, t->nslots + b + 1,
	    sizeof *t->slots);
	memset(&t->slots[t->nslots], 0, b * sizeof *t->slots);
	for (i = t->nslots; i < t->nslots + b; i++)
		t->slots[i].state = LSLOT_VOID;
	t->nslots += b;
	t->round++;
}

/* Sets pairing j of arena round r (0-based): a first in its game 1. */
static void
ltour_arena_set(struct ltour *t, unsigned int r, size_t j, size_t a,
    size_t b)
{
	ltour_set_pairing(t, (size_t)r * t->npairings * t->def.games_per_pair,
	    t->npairings, j, a, b);
}

/*
 * An arena's next round, once the one before is over: pairs every ready
 * player (at least two) free of other games.  Returns 1 if it did.
 */
static int
lobby_arena_round(struct lobby *lb, struct ltour *t)
{
	struct lobby_client *c;
	struct swiss_pair pv[LOBBY_ARENA_PAIRINGS];
	int		 ready[LOBBY_ARENA_PAIRINGS * 2];
	size_t		 i, np, bye;
	char		 err[128];

	if (t->def.format != LEAGUE_ARENA || t->def.status !=
	    LEAGUE_T_RUNNING || t->round >= t->def.rounds || (t->round > 0 &&
	    !ltour_round_over(t, t->round - 1)))
		return (0);
	ltour_active(t, UINT_MAX, ready);
	for (i = 0; i < t->def.nplayers; i++)
		ready[i] = ready[i] && lobby_tour_seat(lb, t->def.players[i],
		    &c) == 1;
	if (ltour_pairs(t, ready, pv, &np, &bye, err, sizeof err) != 0 ||
	    np == 0)
		return (0);
	ltour_arena_block(t);
	for (i = 0; i < np; i++)
		ltour_arena_set(t, t->round - 1, i, pv[i].first,
		    pv[i].second);
	log_info("tournament=%s event=paired round=%u pairs=%zu",
	    t->def.name, t->round, np);
	return (1);
}

/*
 * Starts every tournament game whose two players are ready and free (and
 * whose pair partner before it is done); scores the forfeits due; pairs
 * an arena's next round.
 */
void
lobby_schedule(struct lobby *lb)
{
	struct ltour	*t;
	size_t		 i;

	if (lb->nops != NULL && !lb->nops->schedules(lb))
		return;		/* draining, or another node schedules */
	TAILQ_FOREACH(t, &lb->tours, entry) {
		if (t->def.status != LEAGUE_T_RUNNING)
			continue;
		(void)lobby_arena_round(lb, t);
		t->next_due = UINT64_MAX;
		do {		/* again if a forfeit ended an arena round */
			for (i = 0; i < t->nslots && t->def.status ==
			    LEAGUE_T_RUNNING; i++) {
				if (t->slots[i].state != LSLOT_PENDING ||
				    !ltour_pair_ready(t, i))
					continue;
				lobby_tour_try(lb, t, i);
			}
		} while (lobby_arena_round(lb, t));
		lobby_tour_arm(lb, t);
	}
}

/* Returns the index of a tournament's player, or SIZE_MAX. */
size_t
ltour_player(const struct ltour *t, const char *name)
{
	size_t	 i;

	for (i = 0; i < t->def.nplayers; i++)
		if (strcmp(t->def.players[i], name) == 0)
			return (i);
	return (SIZE_MAX);
}

/*
 * Rebuilds an arena's rounds from its stored games: a round for each
 * block up to the last one with a game, each pairing from a game of it
 * (its seats swapped for an even-numbered game); pairings without a game
 * stay void.
 */
static void
ltour_arena_rebuild(struct ltour *t, const struct league_tgame *tg,
    size_t ng)
{
	size_t		 b = t->npairings * t->def.games_per_pair, j, loc, p,
			 a, z;
	unsigned int	 r;

	for (j = 0; j < ng; j++) {
		r = tg[j].slot / b;
		if (r >= t->def.rounds)
			continue;
		while (t->round <= r)
			ltour_arena_block(t);
		loc = tg[j].slot % b;
		p = loc % t->npairings;
		a = ltour_player(t, tg[j].player1);
		z = ltour_player(t, tg[j].player2);
		if (a == SIZE_MAX || z == SIZE_MAX || a == z ||
		    t->slots[(size_t)r * b + p].state != LSLOT_VOID)
			continue;
		if ((loc / t->npairings) % 2 == 0)
			ltour_arena_set(t, r, p, a, z);
		else
			ltour_arena_set(t, r, p, z, a);
	}
}

/* A withdrawn player's games not started are never played. */
void
ltour_withdrawn_stop(struct ltour *t)
{
	size_t	 i;
	int	 any = 0;

	for (i = 0; i < t->nslots; i++)
		if (t->slots[i].state == LSLOT_PENDING &&
		    (t->def.wround[t->slots[i].a] != 0 ||
		    t->def.wround[t->slots[i].b] != 0)) {
			lslot_enter(t, i, LSLOT_STOPPED);
			any = 1;
		}
	if (any)
		ltour_store_unplayed(t);
}

/*
 * Counts the stored games of a tournament being loaded: every finished
 * one with a result, by slot (a Swiss round is paired once the one
 * before is complete, as it was live).  Returns 0, or -1 on a database
 * error.
 */
static int
lobby_tour_replay(struct lobby *lb, struct ltour *t)
{
	struct league_tgame *tg = NULL;
	size_t		 ng;

	if (league_tournament_games(lb->league, t->def.id, &tg, &ng) != 0)
		return (-1);
	lobby_tour_replay_games(t, tg, ng);
	free(tg);
	return (0);
}

/* lobby_tour_replay's count of games tg[0..ng-1] (read already). */
void
lobby_tour_replay_games(struct ltour *t, const struct league_tgame *tg,
    size_t ng)
{
	int		*res, *fft;
	size_t		 j;

	if (t->def.format == LEAGUE_ARENA)
		ltour_arena_rebuild(t, tg, ng);
	res = xcalloc(t->nslots + 1, sizeof *res);
	fft = xcalloc(t->nslots + 1, sizeof *fft);
	for (j = 0; j < ng; j++)
		if (tg[j].finished && tg[j].slot < t->nslots &&
		    tg[j].result != 0) {
			res[tg[j].slot] = tg[j].result;
			fft[tg[j].slot] = tg[j].forfeit;
		}
	for (;;) {
		for (j = 0; j < t->nslots; j++)
			if (res[j] != 0 && t->slots[j].state ==
			    LSLOT_PENDING) {
				t->slots[j].winner = res[j];
				t->slots[j].forfeit = fft[j];	/* not played */
				lslot_enter(t, j, LSLOT_DONE);
			}
		/* A withdrawal during the last round paired ended it. */
		ltour_withdrawn_stop(t);
		if (t->def.format != LEAGUE_SWISS || t->round >=
		    t->def.rounds || !ltour_round_over(t, t->round - 1) ||
		    ltour_pair_round(t) != 0)
			break;
	}
	free(res);
	free(fft);
	if (t->def.has_sprt)
		ltour_sprt_update(t);
}

/*
 * Loads every tournament and what it has played: running ones resume,
 * the others answer standings.
 */
int
lobby_load_tours(struct lobby *lb, char *err, size_t errlen)
{
	struct league_tournament *v = NULL;
	struct ltour	*t;
	size_t		 n = 0, i;

	if (league_tournaments(lb->league, 1, &v, &n) != 0) {
		snprintf(err, errlen, "cannot read the tournaments");
		return (-1);
	}
	for (i = 0; i < n; i++) {
		t = xcalloc(1, sizeof *t);
		t->def = v[i];
		t->lb = lb;
		lobby_tour_slots(t);
		TAILQ_INSERT_TAIL(&lb->tours, t, entry);
		if (lobby_tour_replay(lb, t) != 0) {
			free(v);
			snprintf(err, errlen, "cannot read the games of "
			    "tournament %s", t->def.name);
			return (-1);
		}
		ltour_withdrawn_stop(t);
		/* Decided, or every game counted, but the end not stored. */
		if (t->def.has_sprt && t->sprt.verdict != SPRT_CONTINUE &&
		    (t->def.status == LEAGUE_T_RUNNING ||
		    t->def.status == LEAGUE_T_PAUSED))
			ltour_sprt_stop(lb, t);
		ltour_check_done(lb, t);
		log_info("tournament=%s event=loaded status=%s games=%zu",
		    t->def.name, lobby_tour_status(t->def.status), t->nslots);
	}
	free(v);
	return (0);
}

/* Returns the tournament with a name, or NULL. */
struct ltour *
lobby_tour(struct lobby *lb, const char *name)
{
	struct ltour	*t;

	TAILQ_FOREACH(t, &lb->tours, entry)
		if (strcmp(t->def.name, name) == 0)
			return (t);
	return (NULL);
}
