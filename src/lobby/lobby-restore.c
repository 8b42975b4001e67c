/*
 * lobby-restore.c: a live game restored from the log (issue 15 §2,
 * PROTOCOL.md §12 and §13.2): after a takeover by this daemon (its node
 * module's, src/node/), or at a start with takeover on after a crash.
 *
 * A worker reads the game's record (store_record) and replays every
 * committed move with the referee, checking each against the log (ply,
 * seat, legality, the position after it); the clocks are replayed with
 * the recorded charged times (time_us) exactly as lg_apply charged them.
 * Back on the loop the game is created under the same id with both seats
 * held by their accounts but absent (an engine seat stays the engine),
 * and its next turn starts at once (lg_restored): the players resume it
 * by account (event live at login, resume GAME_ID).  At a start with
 * takeover on (lobby_restore_live) the same runs inline, before the
 * daemon listens.
 *
 * The clock rule: the seat to move gets back what its clock held after
 * its last committed move (its value at the start of the interrupted
 * turn), and that turn starts again from the restore.  The log has no
 * time stamp per move, so the time between that move and the crash is
 * not known; the time the game had no referee (the crash, the wait for
 * the takeover, the restart) is the server's, not the player's; and moves the
 * dead referee had not committed are lost for both seats alike.  From
 * the restore on the clock runs as for any disconnected seat (§13.4): a
 * player that does not resume loses on time (clock + clock-grace).
 *
 * A game whose record cannot be read or replayed, or that cannot go on
 * (an anonymous seat cannot resume by account; a tournament slot no
 * longer open), is ended as abandoned with reason restore-failed and a
 * detail that says why: never half restored.
 *
 * Its players logged in here get `event live` for it when it is restored
 * (lobby-where.c, as at a login).
 *
 * It calls lobby-game.c, lobby-tour.c (a slot's state), lobby-where.c and
 * lobby-queue.c;
 * nothing in the lobby calls it but lobby.c (lrestore_drop).
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/log.h"
#include "solver/referee.h"
#include "store/store.h"
#include "lib/util.h"

#define LRESTORE_WHY	400	/* bytes of a failed restore's detail */

/* What the worker found. */
enum lrestore_rc {
	LRESTORE_OK = 0,	/* replayed: pos, ply, clocks */
	LRESTORE_SKIP,		/* no such game, or not live: nothing to do */
	LRESTORE_FAIL,		/* abandon it: why */
};

/* One restore, from lobby_restore to its end on the loop. */
struct lrestore {
	TAILQ_ENTRY(lrestore) entry;	/* lb->restores */
	struct lobby	*lb;
	struct store	*st;
	struct game_limits lim;		/* the worker's copy */
	int64_t		 id, epoch;
	enum lrestore_rc rc;
	char		 why[LRESTORE_WHY];
	struct store_record rec;
	struct game	 pos;		/* the position after the last move */
	char		*start;		/* its canonical start */
	int		 engine[2];
	uint64_t	 clock_us[2];
	unsigned long	 ply;
	uint64_t	 log_bytes;	/* as lg_apply counts them */
	int		 to_move;
	struct xtour_pre *xtour;	/* a node: its tournament, read by
					 * the worker (nops->tour_read_id) */
};

/* Frees a restore. */
static void
lrestore_free(struct lrestore *r)
{
	if (r->xtour != NULL)
		r->lb->nops->tour_pre_free(r->xtour);
	store_record_free(&r->rec);
	game_free(&r->pos);
	free(r->start);
	free(r);
}

/* Sets the reason of a failed restore; returns -1. */
static int
lrestore_fail(struct lrestore *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
lrestore_fail(struct lrestore *r, const char *fmt, ...)
{
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
	r->rc = LRESTORE_FAIL;
	return (-1);
}

/* Checks the seats: accounts or the engine.  Returns 0 or -1 (why). */
static int
lrestore_seats(struct lrestore *r)
{
	const char	*name;
	int		 s;

	for (s = 0; s < 2; s++) {
		name = s == 0 ? r->rec.game.player1 : r->rec.game.player2;
		if (name == NULL || *name == '\0')
			return (lrestore_fail(r, "seat %d has no player", s + 1));
		r->engine[s] = strcmp(name, "engine") == 0;
		if (strchr(name, ':') != NULL)
			return (lrestore_fail(r, "seat %d (%.40s) is anonymous: "
			    "it cannot resume by account", s + 1, name));
		if (strlen(name) > LEAGUE_NAME_MAX)
			return (lrestore_fail(r, "seat %d: name too long",
			    s + 1));
	}
	return (0);
}

/*
 * Replays move i of the record on pos and charges the mover's clock as
 * lg_apply did.  Returns 0, or -1 (why).
 */
static int
lrestore_move(struct lrestore *r, size_t i, struct buf *mv, struct buf *after)
{
	const struct store_rmove *m = &r->rec.moves[i];
	struct game_error err;
	struct game_move gm;
	uint64_t	*c;
	int		 rv = 0;

	if (m->ply != i + 1)
		return (lrestore_fail(r, "ply %" PRIu64 " where ply %zu was "
		    "expected", m->ply, i + 1));
	if (m->player != r->to_move)
		return (lrestore_fail(r, "ply %zu: player %d moved, but seat "
		    "%d was to move", i + 1, m->player, r->to_move));
	game_move_init(&gm);
	buf_reset(mv);
	buf_reset(after);
	if (referee_parse_move(&r->pos, m->move, NULL, &r->lim, &gm,
	    &err) != 0 || game_play_print(&r->pos, &gm, mv, after,
	    &err) != 0)
		rv = lrestore_fail(r, "ply %zu: move \"%.64s\" does not replay:"
		    " %.200s", i + 1, m->move, err.msg);
	else if (m->position == NULL || strcmp(buf_str(after),
	    m->position) != 0)
		rv = lrestore_fail(r, "ply %zu: the position after \"%.64s\" "
		    "differs from the log's", i + 1, m->move);
	game_move_clear(&gm);
	if (rv != 0)
		return (rv);
	if (!r->engine[r->to_move - 1]) {
		c = &r->clock_us[r->to_move - 1];
		*c = m->time_us >= *c ? 0 : *c - m->time_us;
		*c += r->rec.game.tc_inc_ms * 1000;
	}
	r->ply = i + 1;
	r->log_bytes += mv->len + after->len;
	r->to_move = 3 - r->to_move;
	return (0);
}

/*
 * Rebuilds the game from its record: start, every move, the clocks.
 * Returns 0, or -1 (why).
 */
static int
lrestore_replay(struct lrestore *r)
{
	const struct store_gameinfo *gi = &r->rec.game;
	struct game_error err;
	struct buf	 mv, after;
	size_t		 i;
	int		 rv = 0;

	if (!gi->has_tc)
		return (lrestore_fail(r, "the log has no time control"));
	if (lrestore_seats(r) != 0)
		return (-1);
	if (gi->game == NULL || game_parse_line(&r->pos, gi->game, &r->lim,
	    &err) != 0)
		return (lrestore_fail(r, "the start does not parse: %.200s",
		    gi->game == NULL ? "none" : err.msg));
	buf_init(&mv);
	buf_init(&after);
	game_print(&r->pos, &after);
	r->start = xstrdup(buf_str(&after));
	r->clock_us[0] = r->clock_us[1] = gi->tc_base_ms * 1000;
	r->to_move = 1;
	for (i = 0; i < r->rec.nmoves && rv == 0; i++)
		rv = lrestore_move(r, i, &mv, &after);
	buf_free(&mv);
	buf_free(&after);
	return (rv);
}

/* The worker's part: read the record and replay it. */
static void
lrestore_work(void *arg)
{
	struct lrestore	*r = arg;
	int		 rc;

	if ((rc = store_record(r->st, r->id, &r->rec)) < 0) {
		(void)lrestore_fail(r, "the record cannot be read (a database "
		    "error)");
		return;
	}
	if (rc == 0 || r->rec.game.status != STORE_LIVE) {
		r->rc = LRESTORE_SKIP;
		snprintf(r->why, sizeof r->why, rc == 0 ? "no such game" :
		    "not live");
		return;
	}
	if (lrestore_replay(r) == 0)
		r->rc = LRESTORE_OK;
	/* A node: its tournament as the log has it (lrestore_slot). */
	if (r->rc == LRESTORE_OK && r->lb->nops != NULL &&
	    r->rec.game.tournament != 0)
		r->xtour = r->lb->nops->tour_read_id(r->lb,
		    r->rec.game.tournament);
}

/*
 * Gives a tournament game its slot back (PLAYING).  Returns 0, or -1
 * (why) when the tournament or its slot no longer wait for this game.
 */
static int
lrestore_slot(struct lrestore *r, struct ltour **tp, size_t *slot)
{
	const struct store_gameinfo *gi = &r->rec.game;
	struct ltour	*t;

	*tp = NULL;
	*slot = 0;
	if (gi->tournament == 0)
		return (0);
	if (r->xtour != NULL) {	/* a node: the log's (lrestore_work) */
		r->lb->nops->tour_pre_apply(r->xtour);
		r->xtour = NULL;
	}
	TAILQ_FOREACH(t, &r->lb->tours, entry)
		if (t->def.id == gi->tournament)
			break;
	if (t == NULL || (t->def.status != LEAGUE_T_RUNNING &&
	    t->def.status != LEAGUE_T_PAUSED))
		return (lrestore_fail(r, "its tournament is not running"));
	if (gi->slot >= t->nslots ||
	    (t->slots[gi->slot].state != LSLOT_PENDING &&
	    (r->lb->nops == NULL ||
	    r->lb->nops->slot_elsewhere(t, gi->slot) != r->id)))
		return (lrestore_fail(r, "its tournament slot %u is no longer "
		    "open", gi->slot));
	lslot_enter(t, gi->slot, LSLOT_PLAYING);
	if (r->lb->nops != NULL)	/* refereed here now */
		r->lb->nops->slot_here(t, gi->slot);
	*tp = t;
	*slot = gi->slot;
	return (0);
}

/*
 * Game g was restored here: its players logged in here and not seated get
 * event live for it, as at a login.
 */
static void
lrestore_tell(struct lobby *lb, struct lgame *g)
{
	struct lobby_client *lc;
	int		 s;

	TAILQ_FOREACH(lc, &lb->clients, entry)
		for (s = 1; s <= 2; s++)
			if (lc->game == NULL && g->p[s - 1].account &&
			    strcmp(lc->name, g->p[s - 1].name) == 0)
				lc_event_live(lc, g, s);
	if (lb->nops != NULL)
		lb->nops->restored(lb, g);
}

/* Creates the live game of a replayed record (on the loop). */
static void
lrestore_start(struct lrestore *r, struct ltour *t, size_t slot)
{
	const struct store_gameinfo *gi = &r->rec.game;
	struct lobby	*lb = r->lb;
	struct lgame	*g;
	int		 s;

	g = xcalloc(1, sizeof *g);
	g->id = r->id;
	g->game = r->pos;
	memset(&r->pos, 0, sizeof r->pos);
	g->start = r->start;
	r->start = NULL;
	g->ply = r->ply;
	g->log_bytes = r->log_bytes;
	g->to_move = r->to_move;
	g->base_ms = gi->tc_base_ms;
	g->inc_ms = gi->tc_inc_ms;
	g->rated = gi->rated;
	g->tour = t;
	g->slot = slot;
	for (s = 0; s < 2; s++) {
		lobby_copy(g->p[s].name, s == 0 ? gi->player1 : gi->player2,
		    sizeof g->p[s].name);
		g->p[s].engine = r->engine[s];
		g->p[s].account = !r->engine[s];
		g->p[s].clock_us = r->clock_us[s];
	}
	store_game_resume(lb->store, g->id, g->rated);
	log_info("game=%lld event=restored epoch=%lld ply=%lu to_move=%d "
	    "clock1=%llu clock2=%llu player1=%s player2=%s",
	    (long long)g->id, (long long)r->epoch, g->ply, g->to_move,
	    (unsigned long long)(g->p[0].clock_us / 1000),
	    (unsigned long long)(g->p[1].clock_us / 1000), g->p[0].name,
	    g->p[1].name);
	g->rec = xmalloc(sizeof *g->rec);	/* the web feed's backfill */
	*g->rec = r->rec;
	memset(&r->rec, 0, sizeof r->rec);
	lg_restored(lb, g);
	lrestore_tell(lb, g);	/* its players here: event live */
}

/* Ends a game that cannot be restored as abandoned, with why. */
static void
lrestore_abandon(struct lrestore *r)
{
	log_warnx("game=%lld event=restore-failed epoch=%lld why=\"%s\"",
	    (long long)r->id, (long long)r->epoch, r->why);
	store_game_end_detail(r->lb->store, r->id, STORE_RESULT_NONE,
	    "restore-failed", r->why, STORE_ABANDONED, NULL, NULL);
}

/* Back on the loop: the game goes on, or is abandoned with the reason. */
static void
lrestore_done(void *arg)
{
	struct lrestore	*r = arg;
	struct lobby	*lb = r->lb;
	struct ltour	*t;
	size_t		 slot;

	TAILQ_REMOVE(&lb->restores, r, entry);
	if (r->rc == LRESTORE_OK && lobby_game(lb, r->id) != NULL) {
		log_info("game=%lld event=restore-skipped why=\"already live "
		    "here\"", (long long)r->id);
	} else if (r->rc == LRESTORE_OK && lrestore_slot(r, &t, &slot) != 0)
		lrestore_abandon(r);
	else if (r->rc == LRESTORE_OK)
		lrestore_start(r, t, slot);
	else if (r->rc == LRESTORE_SKIP)
		log_info("game=%lld event=restore-skipped why=\"%s\"",
		    (long long)r->id, r->why);
	else
		lrestore_abandon(r);
	lrestore_free(r);
}

/*
 * Starts a restore of live game id at epoch (lobby_restore); inline: at
 * once on the calling thread (a start, before any client).  Returns it, or
 * NULL when it cannot start.
 */
static struct lrestore *
lrestore_new(struct lobby *lb, int64_t id, int64_t epoch)
{
	struct lrestore	*r;

	if (lb->store == NULL || id <= 0 || lobby_game(lb, id) != NULL)
		return (NULL);
	TAILQ_FOREACH(r, &lb->restores, entry)
		if (r->id == id)
			return (NULL);
	r = xcalloc(1, sizeof *r);
	r->lb = lb;
	r->st = lb->store;
	r->lim = lb->conf.lim;
	r->id = id;
	r->epoch = epoch;
	TAILQ_INSERT_TAIL(&lb->restores, r, entry);
	log_info("game=%lld event=restore epoch=%lld", (long long)id,
	    (long long)epoch);
	return (r);
}

/*
 * Restores live game id, held at epoch by this daemon (0: one daemon
 * alone), from the log: the record is read and replayed on a
 * worker, then the game goes on here.  Returns 0 when the restore is
 * under way, -1 when it cannot start (no log, the game is live here or
 * being restored).
 */
int
lobby_restore(struct lobby *lb, int64_t id, int64_t epoch)
{
	struct lrestore	*r;

	if ((r = lrestore_new(lb, id, epoch)) == NULL)
		return (-1);
	if (lb->io.work != NULL)
		lb->io.work(lb->io.arg, lrestore_work, lrestore_done, r);
	else {
		lrestore_work(r);
		lb->io.defer(lb->io.arg, lrestore_done, r);
	}
	return (0);
}

/*
 * takeover on, at a start before the daemon listens: restores every game
 * the log has as live, each at once on this thread (no client can come
 * meanwhile, so none finds its account free and seeks while its game is
 * being read).  Returns 0, or -1 if they cannot be listed.
 */
int
lobby_restore_live(struct lobby *lb)
{
	struct lrestore	*r;
	int64_t		*ids;
	size_t		 n, i;

	if (lb->store == NULL)
		return (0);
	if (store_live_ids(lb->store, &ids, &n) != 0)
		return (-1);
	log_info("event=takeover live=%zu", n);
	for (i = 0; i < n; i++)
		if ((r = lrestore_new(lb, ids[i], 0)) != NULL) {
			lrestore_work(r);
			lrestore_done(r);
		}
	free(ids);
	return (0);
}

/* Shutdown, the workers joined: frees the restores in flight. */
void
lrestore_drop(struct lobby *lb)
{
	struct lrestore	*r;

	while ((r = TAILQ_FIRST(&lb->restores)) != NULL) {
		TAILQ_REMOVE(&lb->restores, r, entry);
		lrestore_free(r);
	}
}
