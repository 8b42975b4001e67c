/*
 * lobby-feed.c: what the lobby tells the web front end (lobby.h's
 * struct lobby_feed): every move of a refereed game, and each end once the
 * log has it; and the counters of moves and ends (metrics.h).  Called
 * from lobby-game.c where it tells the spectators.
 */
#include <string.h>

#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/metrics.h"
#include "store/store.h"

/* Sets the hook (NULL: none); the server's, on the loop. */
void
lobby_set_feed(struct lobby *lb, void (*fn)(void *,
    const struct lobby_feed *), void *arg)
{
	lb->feed = fn;
	lb->feed_arg = arg;
}

/*
 * Sends a move to the hook: game id's ply, by seat, mv leaving pos, its
 * mark's name, the time used (ms) and both clocks after it (ms).
 */
void
lobby_feed_send_move(struct lobby *lb, int64_t id, unsigned long ply,
    int seat, const char *mv, const char *pos, const char *mark,
    uint64_t time_ms, const uint64_t *clock_ms)
{
	struct lobby_feed f;

	if (lb->feed == NULL)
		return;
	memset(&f, 0, sizeof f);
	f.id = id;
	f.ply = ply;
	f.player = seat;
	f.move = mv;
	f.position = pos;
	f.mark = mark;
	f.time_ms = time_ms;
	f.clock_ms[0] = clock_ms[0];
	f.clock_ms[1] = clock_ms[1];
	lb->feed(lb->feed_arg, &f);
}

/*
 * Advances the clocks c (µs, both seats) over logged move m as lg_apply
 * charged them: the mover's time, then the increment (inc_us); an engine
 * seat (engine[seat - 1]) has no clock.
 */
void
lobby_feed_clock(const int *engine, uint64_t inc_us, uint64_t *c,
    const struct store_rmove *m)
{
	uint64_t	*t = &c[m->player - 1];

	if (engine[m->player - 1])
		return;
	*t = m->time_us >= *t ? 0 : *t - m->time_us;
	*t += inc_us;
}

/*
 * A move was applied: seat moved mv, leaving pos; it used used µs.  A
 * game that another node follows has the move written at once.
 */
void
lobby_feed_move(struct lgame *g, int seat, const char *mv, const char *pos,
    int mark, uint64_t used)
{
	uint64_t	 c[2];

	metrics_inc(M_MOVES);
	if (g->nd != NULL)	/* node mode: followed elsewhere? */
		g->lb->nops->game_moved(g);
	c[0] = g->p[0].clock_us / 1000;
	c[1] = g->p[1].clock_us / 1000;
	lobby_feed_send_move(g->lb, g->id, g->ply, seat, mv, pos,
	    store_mark_name((enum store_mark)mark), used / 1000, c);
}

/* The game's end is logged (or the log failed): its last event. */
void
lobby_feed_end(struct lgame *g)
{
	struct lobby_feed f;

	metrics_label(MF_GAMES_ENDED, g->reason);
	if (g->lb->feed == NULL)
		return;
	memset(&f, 0, sizeof f);
	f.id = g->id;
	f.end = 1;
	f.ply = g->ply;
	f.winner = g->winner;
	f.winner_name = g->winner == 1 || g->winner == 2 ?
	    g->p[g->winner - 1].name : NULL;
	f.reason = g->reason;
	f.detail = g->detail;
	f.logged = g->logged && g->log_ok;
	f.clock_ms[0] = g->p[0].clock_us / 1000;
	f.clock_ms[1] = g->p[1].clock_us / 1000;
	g->lb->feed(g->lb->feed_arg, &f);
}
