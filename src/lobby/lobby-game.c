/*
 * lobby-game.c: the live games of the lobby (PROTOCOL.md §13).
 *
 * A live game (struct lgame) has two seats; seat 1 moves first.  A seat
 * holds an account (or "conn:ID" for an anonymous client, or the engine)
 * and, while its client is connected, that client.  The server drives each
 * human seat with commands of its own (new, play, genmove, gameover),
 * which lobby-queue.c queues until they are answered.
 *
 * Clocks: a seat's clock runs from the moment its genmove left for the
 * socket (the first send stamp after it was queued, lobby_tx_time; the
 * moment it was queued if none comes) until its answer reached the
 * server's socket (the receive stamp, lobby_rx_time), whether or not the
 * client is still connected; a timer fires at remaining + grace and ends
 * the game on time.  Times are nanoseconds on the lobby's clock, what is
 * left on a clock microseconds; the messages give milliseconds.  A
 * disconnected seat can be taken back with its resume token.
 *
 * A game's end goes to the log first, which rates it as it commits it;
 * gameover is sent, tournaments are updated, and the game is freed only
 * once the log has it (lg_logged, deferred back to the loop from the
 * store's writer thread).
 * Games lie below tournaments: a game's end reaches its tournament, and
 * a freed seat the tournaments' scheduler, through the hooks lobby_new
 * installs (struct lobby's tour_game_over and game_freed), never by a
 * call into lobby-tour.c.
 */
#include <sys/queue.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/log.h"
#include "proto/proto.h"
#include "solver/referee.h"
#include "store/store.h"
#include "lib/util.h"

/* Fills a resume token with random hex digits. */
static void
lobby_token(char *tok)
{
	unsigned char	 r[LOBBY_TOKEN_LEN / 2];
	static const char hex[] = "0123456789abcdef";
	size_t		 i, got = 0;
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) != -1) {
		while (got < sizeof r &&
		    (n = read(fd, r + got, sizeof r - got)) > 0)
			got += (size_t)n;
		close(fd);
	}
	if (got < sizeof r)
		fatalx("event=token-failed what=/dev/urandom");
	for (i = 0; i < sizeof r; i++) {
		tok[2 * i] = hex[r[i] >> 4];
		tok[2 * i + 1] = hex[r[i] & 15];
	}
	tok[LOBBY_TOKEN_LEN] = '\0';
}

/* The names of a game's states, for the log. */
static const char *const lg_state_names[] = { LG_STATES(ENUM_X_NAME) };

static void	 lg_finish(struct lgame *, int, const char *);

/* Moves a game to a new state: the one place that changes it. */
void
lg_enter(struct lgame *g, enum lg_state s)
{
	log_debug("game=%lld state=\"%s -> %s\"", (long long)g->id,
	    ENUM_NAME(lg_state_names, g->state, "logged"),
	    ENUM_NAME(lg_state_names, s, "logged"));
	g->state = s;
}

/* Returns 1 once a game has ended (it may wait for the log). */
int
lg_over(const struct lgame *g)
{
	return (g->state != LG_PLAYING);
}

/* Returns the milliseconds left on a seat's clock at now (ms). */
uint64_t
lg_clock(const struct lgame *g, int seat, uint64_t now)
{
	const struct lplayer *p = &g->p[seat - 1];
	uint64_t	 used;

	if (lg_over(g) || seat != g->to_move || p->engine)
		return (p->clock_us / 1000);
	used = now * 1000000 > g->turn_start ?
	    (now * 1000000 - g->turn_start) / 1000 : 0;
	return (referee_clock_after(p->clock_us, used, 0) / 1000);
}

/* Sends a seat its game: the position now, and genmove if it moves. */
void
lg_send_new(struct lgame *g, int seat)
{
	struct lobby_client *lc = g->p[seat - 1].lc;
	struct buf	 pos;

	buf_init(&pos);
	game_print(&g->game, &pos);
	lc_command(lc, LCMD_NEW, g->id, 0, "new %s", buf_str(&pos));
	buf_free(&pos);
}

/* Asks the seat to move the genmove of the current turn. */
void
lg_send_genmove(struct lgame *g)
{
	struct lobby_client *lc = g->p[g->to_move - 1].lc;
	uint64_t	 now = lobby_clock_now(g->lb);

	if (lc == NULL)
		return;
	lc_command(lc, LCMD_GENMOVE, g->id, g->serial,
	    "genmove time1=%llu time2=%llu",
	    (unsigned long long)lg_clock(g, 1, now),
	    (unsigned long long)lg_clock(g, 2, now));
}

/* Sends the game-start event to a seated client. */
void
lg_send_start(struct lgame *g, int seat)
{
	struct buf	 tc;

	buf_init(&tc);
	proto_tc_print(&tc, g->base_ms, g->inc_ms);
	lc_event(g->p[seat - 1].lc, "start %lld %s %s you=%d token=%s tc=%s "
	    "rated=%d %s", (long long)g->id, g->p[0].name, g->p[1].name, seat,
	    g->p[seat - 1].token, buf_str(&tc), g->rated, g->start);
	buf_free(&tc);
}

/* The clock of the seat to move ran out. */
static void
lg_timer_cb(void *arg)
{
	struct lgame	*g = arg;
	struct lobby	*lb = g->lb;
	uint64_t	 now = lobby_clock_ns(lb), end;

	if (lg_over(g))
		return;
	end = g->turn_start + (g->p[g->to_move - 1].clock_us +
	    lb->conf.grace_ms * 1000) * 1000;
	if (now <= end) {
		/* The clock started later than armed (its send stamp). */
		lb->clock.arm(lb->clock.arg, g->timer,
		    (end - now) / 1000000 + 1);
		return;
	}
	if (!g->lag_checked && now > end + LOBBY_LAG_MS * 1000000) {
		/*
		 * The loop was late: an answer that reached the socket in
		 * time may wait among this round's reads.  Decide after them.
		 */
		g->lag_checked = 1;
		lb->clock.arm(lb->clock.arg, g->timer, 0);
		return;
	}
	log_info("game=%lld event=timeout seat=%d player=%s", (long long)g->id,
	    g->to_move, g->p[g->to_move - 1].name);
	lg_finish(g, 3 - g->to_move, "timeout");
}

/*
 * Starts the clock of the seat to move (a human) and arms the timer: for
 * now, the clock starts as its genmove is queued; the send stamp that
 * shows the genmove left moves the start there (lobby_tx_time).
 */
static void
lg_clock_start(struct lgame *g)
{
	struct lobby	*lb = g->lb;
	struct lplayer	*p = &g->p[g->to_move - 1];

	g->turn_start = lobby_clock_ns(lb);
	g->tx_wait = p->lc != NULL ? p->lc->connid : 0;
	g->lag_checked = 0;
	lb->clock.arm(lb->clock.arg, g->timer,
	    (p->clock_us + 999) / 1000 + lb->conf.grace_ms + 1);
}

/*
 * Applies a checked move of the seat to move: charges its clock (used
 * µs), logs the move with the server's delay of its turn (delay_us, -1
 * for none: the engine), tells the opponent and the spectators, and goes
 * on to the next turn.
 */
static void
lg_apply(struct lgame *g, const struct game_move *m, enum store_mark mark,
    uint64_t used, long delay_us)
{
	struct lplayer	*p = &g->p[g->to_move - 1], *o;
	struct store_move sm;
	struct game_error err;
	struct buf	 mv, pos, line;
	uint64_t	 now;
	int		 seat = g->to_move;
	size_t		 i;

	if (!p->engine)
		p->clock_us = referee_clock_after(p->clock_us, used, g->inc_ms);
	p->illegal = 0;
	g->lb->clock.cancel(g->lb->clock.arg, g->timer);
	buf_init(&mv);
	buf_init(&pos);
	buf_init(&line);
	game_play_print(&g->game, m, &mv, &pos, &err);
	g->ply++;
	g->log_bytes += mv.len + pos.len;
	for (i = 0; i < 2; i++)		/* its seats' budgets, if they are in */
		if (g->p[i].lc != NULL)
			(void)budget_charge(g->p[i].lc->bud,
			    g->lb->conf.budget, BUDGET_LOG, mv.len + pos.len,
			    lobby_clock_ns(g->lb), NULL);
	g->to_move = 3 - seat;
	if (g->logged) {
		sm.ply = g->ply;
		sm.player = seat;
		sm.move = buf_str(&mv);
		sm.position = buf_str(&pos);
		sm.time_ms = (unsigned long)(used / 1000);
		sm.mark = mark;
		sm.has_delay = delay_us >= 0;
		sm.delay_us = delay_us >= 0 ? (unsigned long)delay_us : 0;
		store_move_us(g->lb->store, g->id, &sm,
		    p->engine ? -1 : (long long)used);
	}
	now = lobby_clock_ns(g->lb);
	g->turn_start = now;		/* clocks read right in the messages */
	o = &g->p[g->to_move - 1];
	if (o->lc != NULL)
		lc_command(o->lc, LCMD_PLAY, g->id, 0,
		    "play %s time1=%llu time2=%llu", buf_str(&mv),
		    (unsigned long long)(g->p[0].clock_us / 1000),
		    (unsigned long long)(g->p[1].clock_us / 1000));
	if (g->nwatchers > 0) {	/* one line for every spectator */
		buf_printf(&line, "event move %lld %lu %d %s time1=%llu "
		    "time2=%llu\n", (long long)g->id, g->ply, seat,
		    buf_str(&mv), (unsigned long long)(g->p[0].clock_us / 1000),
		    (unsigned long long)(g->p[1].clock_us / 1000));
		for (i = 0; i < g->nwatchers; i++)
			lc_send_line(g->watchers[i], &line);
	}
	lobby_feed_move(g, seat, buf_str(&mv), buf_str(&pos), mark, used);
	buf_free(&mv);
	buf_free(&pos);
	buf_free(&line);
	lg_turn(g);
}

/* An engine move computed on a worker for a tournament game. */
struct lg_ejob {
	TAILQ_ENTRY(lg_ejob) entry;	/* lb->ejobs: every one in flight */
	struct lobby	*lb;
	struct lgame	*g;		/* NULL: the game went meanwhile */
	uint64_t	 serial;	/* the turn it is for */
	struct game	 pos;		/* the worker's copy */
	gmp_randstate_t	 rs;
	struct game_move m;
	enum referee_mark mark;
	struct game_error err;
	int		 rv;
};

/* Frees an engine move's job. */
static void
lg_ejob_free(struct lg_ejob *j)
{
	game_free(&j->pos);
	game_move_clear(&j->m);
	gmp_randclear(j->rs);
	free(j);
}

/*
 * Shutdown, the workers joined: frees every engine job in flight (their
 * calls back never come).
 */
void
lg_engine_drop(struct lobby *lb)
{
	struct lg_ejob	*j;

	while ((j = TAILQ_FIRST(&lb->ejobs)) != NULL) {
		TAILQ_REMOVE(&lb->ejobs, j, entry);
		if (j->g != NULL)
			j->g->ejob = NULL;
		lg_ejob_free(j);
	}
}

/* The worker's part: the engine's move on the copy. */
static void
lg_engine_work(void *arg)
{
	struct lg_ejob	*j = arg;

	j->rv = referee_engine_move(&j->pos, j->rs, NULL, &j->m, &j->mark, &j->err);
}

/* Back on the loop: plays the move if its game and turn are still on. */
static void
lg_engine_done(void *arg)
{
	struct lg_ejob	*j = arg;
	struct lgame	*g = j->g;

	TAILQ_REMOVE(&j->lb->ejobs, j, entry);
	if (g != NULL) {
		g->ejob = NULL;
		if (lg_over(g) || g->serial != j->serial)
			;	/* ended (an abort) meanwhile */
		else if (j->rv != 0) {
			log_warnx("game=%lld event=engine-failed msg=\"%s\"",
			    (long long)g->id, j->err.msg);
			lg_finish(g, 3 - g->to_move, "resign");
		} else
			lg_apply(g, &j->m, (enum store_mark)j->mark, 0, -1);
	}
	lg_ejob_free(j);
}

/* Hands the engine's move in game g to a worker (lb->io.work). */
static void
lg_engine_submit(struct lgame *g)
{
	struct lg_ejob	*j = xcalloc(1, sizeof *j);

	j->lb = g->lb;
	j->g = g;
	j->serial = g->serial;
	game_move_init(&j->m);
	gmp_randinit_default(j->rs);
	gmp_randseed_ui(j->rs, gmp_urandomb_ui(g->lb->rs, 32));
	if (game_clone(&j->pos, &g->game) != 0) {
		lg_ejob_free(j);
		lg_finish(g, 3 - g->to_move, "resign");
		return;
	}
	g->ejob = j;
	TAILQ_INSERT_TAIL(&g->lb->ejobs, j, entry);
	lobby_work(g->lb, lg_engine_work, lg_engine_done, j);
}

/*
 * Ends a game that reached max-plies or max-game-bytes by the solver's
 * verdict (referee_bounded); returns 1 then.
 */
static int
lg_bounded(struct lgame *g)
{
	struct referee_bound b;
	const char	*reason;
	char		 det[REFEREE_DETAIL_MAX];
	int		 winner;

	b.max_plies = g->lb->conf.max_plies;
	b.max_bytes = g->lb->conf.max_game_bytes;
	b.plies = g->ply;
	b.bytes = g->log_bytes;
	if (!referee_bounded(&g->game, g->to_move, &b, &winner, &reason, det))
		return (0);
	lg_finish_detail(g, winner, reason, det);
	return (1);
}

/*
 * Starts the next turn: ends a finished game, lets the engine move, or
 * starts the mover's clock and asks it for a move.
 */
void
lg_turn(struct lgame *g)
{
	struct game_error err;
	struct game_move m;
	enum referee_mark mark;
	struct lplayer	*p;
	const char	*reason;
	int		 winner;

	if (lg_over(g))
		return;
	if (referee_over(&g->game, g->to_move, &winner, &reason)) {
		lg_finish(g, winner, reason);
		return;
	}
	if (lg_bounded(g))
		return;
	if (g->unseated)	/* lg_start_away: both seated, or a deadline */
		return;
	g->serial++;
	p = &g->p[g->to_move - 1];
	if (p->engine && g->lb->io.work != NULL) {
		lg_engine_submit(g);	/* off the loop, in every game */
		return;
	}
	if (p->engine) {
		game_move_init(&m);
		if (referee_engine_move(&g->game, g->lb->rs, NULL, &m, &mark,
		    &err) != 0) {
			log_warnx("game=%lld event=engine-failed msg=\"%s\"",
			    (long long)g->id, err.msg);
			game_move_clear(&m);
			lg_finish(g, 3 - g->to_move, "resign");
			return;
		}
		lg_apply(g, &m, (enum store_mark)mark, 0, -1);
		game_move_clear(&m);
		return;
	}
	lg_clock_start(g);
	lg_send_genmove(g);
}

/* Fills a seat for a client, the engine (lc NULL, engine 1) or nobody. */
static void
lg_seat(struct lgame *g, int seat, struct lobby_client *lc, int engine)
{
	struct lplayer	*p = &g->p[seat - 1];

	p->clock_us = g->base_ms * 1000;
	p->engine = engine;
	if (engine) {
		lobby_copy(p->name, "engine", sizeof p->name);
		return;
	}
	if (lc == NULL && g->lb->away != NULL) {	/* lg_start_away: the
							 * account is away */
		lobby_copy(p->name, g->lb->away, sizeof p->name);
		p->account = 1;
		g->unseated = 1;
		lobby_token(p->token);
		return;
	}
	if (lc->game != NULL)
		fatalx("event=bug what=seat-taken conn=%llu game=%lld",
		    (unsigned long long)lc->connid, (long long)lc->game->id);
	p->lc = lc;
	lc->game = g;
	lc->seat = seat;
	if (lc->name[0] != '\0') {
		lobby_copy(p->name, lc->name, sizeof p->name);
		p->account = 1;
	} else
		snprintf(p->name, sizeof p->name, "%s:%llu",
		    lc->anon[0] != '\0' ? lc->anon : "conn",
		    (unsigned long long)lc->connid);
	lobby_token(p->token);
}

/*
 * Starts a game on a start position (taken over by the game) between two
 * seats: a client each, or the engine (NULL with engine set for that
 * seat).  Logs it, sends both seats their start, and plays the first turn.
 */
struct lgame *
lg_start(struct lobby *lb, struct game *start, struct lobby_client *c1,
    struct lobby_client *c2, int engine_seat, uint64_t base, uint64_t inc,
    int rated, struct ltour *t, size_t slot)
{
	struct lgame	*g;
	struct store_game sg;
	struct buf	 pos, tc;
	int		 s;

	if (c1 != NULL && c1 == c2)
		fatalx("event=bug what=same-client-both-seats");
	g = xcalloc(1, sizeof *g);
	g->lb = lb;
	g->game = *start;
	memset(start, 0, sizeof *start);
	g->to_move = 1;
	g->base_ms = base;
	g->inc_ms = inc;
	g->rated = rated;
	g->tour = t;
	g->slot = slot;
	g->timer = lb->clock.timer_new(lb->clock.arg, lg_timer_cb, g);
	buf_init(&pos);
	game_print(&g->game, &pos);
	g->start = xstrdup(buf_str(&pos));
	buf_free(&pos);
	lg_seat(g, 1, c1, engine_seat == 1);
	lg_seat(g, 2, c2, engine_seat == 2);
	if (lb->store != NULL) {
		buf_init(&tc);
		proto_tc_print(&tc, base, inc);
		memset(&sg, 0, sizeof sg);
		sg.family = g->game.fam->name;
		sg.game = g->start;
		sg.player1 = g->p[0].name;
		sg.player2 = g->p[1].name;
		sg.rated = rated;
		sg.tc = buf_str(&tc);
		sg.tournament = t != NULL ? t->def.id : 0;
		sg.slot = (unsigned int)slot;
		g->id = store_game_begin(lb->store, &sg);
		buf_free(&tc);
	}
	if (g->id > 0)
		g->logged = 1;
	else
		g->id = ++lb->next_gid;
	g->prev_rx = lobby_clock_ns(lb);	/* the first turn's cause */
	TAILQ_INSERT_TAIL(&lb->games, g, entry);
	log_info("game=%lld event=start player1=%s player2=%s rated=%d "
	    "start=\"%s\"", (long long)g->id, g->p[0].name, g->p[1].name,
	    rated, g->start);
	for (s = 1; s <= 2; s++)
		if (g->p[s - 1].lc != NULL) {
			lg_send_start(g, s);
			lg_send_new(g, s);
		}
	lg_turn(g);
	return (g);
}

/*
 * Starts a game between c1 and c2 whose NULL seat is account away, not
 * connected here (a seek paired with another node's): its first turn
 * waits until both seats are taken (lg_seated), or lg_turn after a
 * deadline of its caller.
 */
struct lgame *
lg_start_away(struct lobby *lb, const char *away, struct game *start,
    struct lobby_client *c1, struct lobby_client *c2, uint64_t base,
    uint64_t inc, int rated)
{
	struct lgame	*g;

	lb->away = away;
	g = lg_start(lb, start, c1, c2, 0, base, inc, rated, NULL, 0);
	lb->away = NULL;
	return (g);
}

/*
 * A seat of game g was taken (resume): while g waits for its players
 * (lg_start_away), starts its first turn once both are seated.  Returns 1
 * when it did (the genmove is sent), 0 otherwise.
 */
int
lg_seated(struct lgame *g)
{
	if (!g->unseated || g->p[0].lc == NULL || g->p[1].lc == NULL)
		return (0);
	g->unseated = 0;
	log_info("game=%lld event=joined", (long long)g->id);
	lg_turn(g);
	return (1);
}

/*
 * A live game restored from the log (lobby-restore.c), filled in by the
 * caller: id, game, start, ply, to_move, time control, rated, tournament
 * and slot, and each seat's name, account or engine, and clock.  Both
 * seats are absent: they get new tokens; the game's turn starts now, the
 * clock of the seat to move running as for a disconnected seat.
 */
void
lg_restored(struct lobby *lb, struct lgame *g)
{
	int		 s;

	g->lb = lb;
	g->logged = 1;
	g->timer = lb->clock.timer_new(lb->clock.arg, lg_timer_cb, g);
	for (s = 0; s < 2; s++)
		if (!g->p[s].engine)
			lobby_token(g->p[s].token);
	g->prev_rx = lobby_clock_ns(lb);
	TAILQ_INSERT_TAIL(&lb->games, g, entry);
	lg_turn(g);
}

/* Frees a game that has ended and been logged. */
void
lg_free(struct lgame *g)
{
	if (g->ejob != NULL)	/* its answer is dropped when it comes */
		g->ejob->g = NULL;
	TAILQ_REMOVE(&g->lb->games, g, entry);
	g->lb->clock.timer_free(g->lb->clock.arg, g->timer);
	game_free(&g->game);
	free(g->start);
	free(g->detail);
	free(g->watchers);
	if (g->rec != NULL)
		store_record_free(g->rec);
	free(g->rec);
	if (g->nd != NULL)
		g->lb->nops->game_free(g);
	free(g);
}

/*
 * The log has the game's end (or failed to write it): tell the players
 * and the spectators, rate it, count it for its tournament, free it.
 */
static void
lg_logged(void *arg)
{
	struct lgame	*g = arg;
	struct lobby	*lb = g->lb;
	const char	*res = g->winner == 1 ? "first" : g->winner == 2 ?
			    "second" : "-";
	const char	*sp = g->detail != NULL ? " " : "";
	const char	*det = g->detail != NULL ? g->detail : "";
	size_t		 i;
	int		 s;

	lg_enter(g, LG_LOGGED);
	if (g->nd != NULL && lb->nops->game_lost(g)) {	/* no result here */
		lg_free(g);
		lb->game_freed(lb);
		return;
	}
	for (s = 1; s <= 2; s++) {
		struct lobby_client *lc = g->p[s - 1].lc;

		if (lc == NULL)
			continue;
		if (g->logged && !g->log_ok)
			lc_event(lc, "unlogged %lld the game log could not "
			    "write this result", (long long)g->id);
		lc_command(lc, LCMD_GAMEOVER, g->id, 0, "gameover %s %s%s%s",
		    res, g->reason, sp, det);
		lc->game = NULL;
		lc->seat = 0;
		if (lb->nops != NULL)	/* a draining node: event redirect */
			lb->nops->game_over(lc);
	}
	for (i = 0; i < g->nwatchers; i++) {
		if (g->logged && !g->log_ok)
			lc_event(g->watchers[i], "unlogged %lld the game log "
			    "could not write this result", (long long)g->id);
		lc_event(g->watchers[i], "gameover %lld %s %s%s%s",
		    (long long)g->id, res, g->reason, sp, det);
		lc_unwatch(g->watchers[i], g->id);
	}
	lobby_feed_end(g);
	/* The log rated the game as it committed its end (store-rating.c). */
	if (g->tour != NULL)
		lb->tour_game_over(lb, g->tour, g->slot, g->winner);
	log_info("game=%lld event=over result=%s reason=%s plies=%lu",
	    (long long)g->id, res, g->reason, g->ply);
	lg_free(g);
	lb->game_freed(lb);
}

/* The store's writer committed a game's end (writer thread). */
static void
lg_logged_cb(void *arg, int ok)
{
	struct lgame	*g = arg;

	if (!ok)
		log_warnx("game=%lld event=log-failed what=game-end",
		    (long long)g->id);
	g->log_ok = ok;
	g->lb->io.defer(g->lb->io.arg, lg_logged, g);
}

/* Ends a game: the winner is a seat; the rest follows once it is logged. */
static void
lg_finish(struct lgame *g, int winner, const char *reason)
{
	lg_finish_detail(g, winner, reason, NULL);
}

/*
 * lg_finish with a line of detail (copied; NULL for none), which goes to
 * the players and spectators after the reason, and into the record.
 * winner 0 ends the game without a result (an admin's abort).
 */
void
lg_finish_detail(struct lgame *g, int winner, const char *reason,
    const char *detail)
{
	if (lg_over(g))
		return;
	lg_enter(g, LG_ENDING);
	g->winner = winner;
	g->reason = reason;
	g->detail = detail != NULL ? xstrdup(detail) : NULL;
	g->lb->clock.cancel(g->lb->clock.arg, g->timer);
	if (g->logged)
		store_game_end_detail(g->lb->store, g->id, winner == 1 ?
		    STORE_RESULT_FIRST : winner == 2 ? STORE_RESULT_SECOND :
		    STORE_RESULT_NONE, reason, g->detail, STORE_FINISHED,
		    lg_logged_cb, g);
	else {
		/* No log: still never free the game under the caller. */
		g->lb->io.defer(g->lb->io.arg, lg_logged, g);
	}
}

/* Returns the game with an id, or NULL. */
struct lgame *
lobby_game(struct lobby *lb, int64_t id)
{
	struct lgame	*g;

	TAILQ_FOREACH(g, &lb->games, entry)
		if (g->id == id)
			return (g);
	return (NULL);
}

/*
 * Returns the id of a live game the account is seated in (even if away),
 * or 0.
 */
int64_t
lobby_playing(struct lobby *lb, const char *name)
{
	struct lgame	*g;

	TAILQ_FOREACH(g, &lb->games, entry)
		if ((g->p[0].account && strcmp(g->p[0].name, name) == 0) ||
		    (g->p[1].account && strcmp(g->p[1].name, name) == 0))
			return (g->id);
	return (0);
}

/*
 * The id of the game account name may not be paired past here: the live
 * game it is seated in (lobby_playing), else on a node one elsewhere (the
 * game it was told of at login, live on another node or waiting for a
 * takeover); 0 when it may start one (the tournament scheduler and the
 * claim of a seek across nodes ask this).
 */
int64_t
lobby_busy(struct lobby *lb, const char *name)
{
	int64_t		 gid;

	if ((gid = lobby_playing(lb, name)) != 0 || lb->nops == NULL)
		return (gid);
	return (lb->nops->busy(lb, name));
}

/* Sends lc the event live line of seat s of game g. */
void
lc_event_live(struct lobby_client *lc, struct lgame *g, int s)
{
	struct buf	 tc;

	buf_init(&tc);
	proto_tc_print(&tc, g->base_ms, g->inc_ms);
	lc_event(lc, "live %lld %s %s you=%d tc=%s rated=%d %s",
	    (long long)g->id, g->p[0].name, g->p[1].name, s, buf_str(&tc),
	    g->rated, g->start);
	buf_free(&tc);
}

/* Tells the other seat and the spectators that a seat left or came back. */
void
lg_tell_seat(struct lgame *g, int seat, const char *what)
{
	struct lobby_client *o = g->p[2 - seat].lc;
	size_t		 i;

	if (o != NULL)
		lc_event(o, "%s %lld %d", what, (long long)g->id, seat);
	for (i = 0; i < g->nwatchers; i++)
		lc_event(g->watchers[i], "%s %lld %d", what, (long long)g->id,
		    seat);
}

/* Logs a refused move of the seat to move (every illegal-move policy). */
static void
lg_refused(struct lgame *g, const char *text, const char *why,
    uint64_t used, long delay)
{
	struct store_refused r;
	char		 move[REFEREE_QUOTE_MAX + 1];

	if (!g->logged)
		return;
	referee_cut(move, text);
	memset(&r, 0, sizeof r);
	r.ply = g->ply + 1;
	r.player = g->to_move;
	r.move = move;
	r.reason = why;
	r.time_ms = (unsigned long)(used / 1000);
	r.has_delay = delay >= 0;
	r.delay_us = delay >= 0 ? (unsigned long)delay : 0;
	store_refused(g->lb->store, g->id, &r);
}

/*
 * Returns the microseconds the seat to move used on its answer, and sets
 * *stop to when its clock stopped: when the answer reached the server's
 * socket (the receive stamp of the latest read, which holds it), not when
 * the loop got to it, so a busy server does not bill the player; without
 * a stamp, now.  The clock started when the genmove left (turn_start), so
 * a quick answer stamped before it costs 0.
 */
static uint64_t
lg_used(const struct lgame *g, uint64_t *stop)
{
	const struct lplayer *p = &g->p[g->to_move - 1];
	uint64_t	 rx = p->lc != NULL ? p->lc->rx_ns : 0;

	*stop = rx != 0 ? rx : lobby_clock_ns(g->lb);
	return (*stop > g->turn_start ? (*stop - g->turn_start) / 1000 : 0);
}

/*
 * Parses and checks an answer as a move of the seat to move; bad says why
 * an answer that breaks the protocol is no move.  Returns 0, or -1 with
 * err.
 */
static int
lg_parse_move(struct lgame *g, const char *text, const char *bad,
    struct game_move *m, struct game_error *err)
{
	return (referee_parse_move(&g->game, text, bad, &g->lb->conf.lim, m,
	    err));
}

/*
 * A refused move of the seat to move: logged, then asked again
 * (illegal_move = retry, a few times) or lost.
 */
static void
lg_illegal(struct lgame *g, const char *text, const char *why,
    uint64_t used, long delay)
{
	struct lplayer	*p = &g->p[g->to_move - 1];
	struct buf	 d;

	log_info("game=%lld event=illegal seat=%d move=\"%.64s\" "
	    "why=\"%s\"", (long long)g->id, g->to_move, text, why);
	lg_refused(g, text, why, used, delay);
	if (g->lb->conf.illegal_retry && p->illegal < LOBBY_RETRIES &&
	    p->lc != NULL) {
		p->illegal++;
		lc_event(p->lc, "illegal %lld %.200s %s", (long long)g->id,
		    text, why);
		g->serial++;
		lg_send_genmove(g);
		return;
	}
	buf_init(&d);
	referee_illegal_detail(&d, text, why);
	lg_finish_detail(g, 3 - g->to_move, "illegal-move", buf_str(&d));
	buf_free(&d);
}

/*
 * A genmove answer from the seat to move: resign, illegal or a move; bad
 * says why an answer that breaks the protocol (several lines, too long)
 * is no move.
 */
void
lg_answer_move(struct lgame *g, int ok, const char *text, const char *bad)
{
	struct lplayer	*p = &g->p[g->to_move - 1];
	struct game_error err;
	struct game_move m;
	uint64_t	 stop, used = lg_used(g, &stop);
	long		 delay;

	/*
	 * The server's own part of the turn: from the arrival of what caused
	 * it (the previous answer, or the game's start) to the clock's start.
	 */
	delay = g->turn_start > g->prev_rx ?
	    (long)((g->turn_start - g->prev_rx) / 1000) : 0;
	g->tx_wait = 0;
	if (used > p->clock_us + g->lb->conf.grace_ms * 1000) {
		lg_finish(g, 3 - g->to_move, "timeout");
		return;
	}
	if (!ok || strcmp(text, "resign") == 0) {
		lg_finish(g, 3 - g->to_move, "resign");
		return;
	}
	game_move_init(&m);
	if (lg_parse_move(g, text, bad, &m, &err) != 0)
		lg_illegal(g, text, err.msg, used, delay);
	else {
		g->prev_rx = stop;
		lg_apply(g, &m, (enum store_mark)referee_mark(&g->game, &m),
		    used, delay);
	}
	game_move_clear(&m);
}
