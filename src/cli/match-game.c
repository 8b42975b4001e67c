/*
 * match-game.c: the games of `grundy match` (match.h) and its loop: every
 * slot plays one game at a time with its two engine processes; one poll
 * loop serves every slot, so no game waits on another (at concurrency 1,
 * while only the mover has anything to say, a read that blocks on its
 * pipe stands for the poll: mg_wait).  Moves are judged
 * by the daemon's referee (referee.c); clocks run on the monotonic clock
 * (clock.c) from the moment a genmove is written to the moment its answer
 * is read, or with clock=cpu on the CPU time of the mover's process tree
 * (ptree.h) over that interval, under a wall bound; the engine not on move
 * is then frozen (unless --ponder).  Every move's cost (wall and CPU
 * time, peak memory) goes into the record and the engine's totals.
 */
#include <sys/time.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "cli/match.h"
#include "record/record.h"
#include "solver/referee.h"

/* mg_poll's who[] of a process's stderr: MG_ERR + its index. */
#define MG_ERR		(1 << 20)

static volatile sig_atomic_t match_interrupted, mg_woken;

static void	 mg_turn(struct mslot *);
static void	 mg_begin(struct mslot *);

static void
match_on_sigint(int sig)
{
	(void)sig;
	match_interrupted = 1;
}

/* SIGALRM (mg_wait's timer) or SIGCHLD (an engine ended): wakes mg_wait. */
static void
match_on_wake(int sig)
{
	(void)sig;
	mg_woken = 1;
}

/* Changes a slot's game state: the one place that does. */
static void
mg_set(struct mslot *s, enum mg_state st)
{
	s->state = st;
}

/* The process in a seat. */
static struct mproc *
mg_proc(struct mslot *s, int seat)
{
	return (&s->proc[s->seat_proc[seat - 1]]);
}

/*
 * Ends the game of a slot: winner a seat or 0 (a draw); fault the seat
 * whose engine misbehaved (its process is killed, and started again for
 * the next game), 0 for none, 3 for both.
 */
static void
mg_end(struct mslot *s, int winner, const char *reason, const char *detail,
    int fault)
{
	struct match	*m = s->m;
	struct match_result *r = &m->res[s->gi];
	const char	*res = winner == 1 ? "first" : winner == 2 ? "second" :
			    "-";
	int		 seat;

	r->winner = winner;
	r->reason = reason;
	r->detail = detail != NULL ? xstrdup(detail) : NULL;
	r->plies = s->plies;
	r->ms = (clock_mono_ns() - s->started) / 1000000;
	r->timed = 1;
	for (seat = 1; seat <= 2; seat++) {
		mp_freeze(mg_proc(s, seat), 0);
		if (fault == seat || fault == 3)
			mp_kill(mg_proc(s, seat));
		else
			mp_send(mg_proc(s, seat), 0, 0, "gameover %s %s%s%s",
			    res, reason, detail != NULL ? " " : "",
			    detail != NULL ? detail : "");
	}
	match_record(m, s);
	game_free(&s->game);
	mg_set(s, MG_IDLE);
	r->done = 1;
	m->ndone++;
	match_after_game(m, s->gi);
}

/* Ends a game lost by the engine of a seat that misbehaved. */
static void
mg_fault(struct mslot *s, int seat, const char *reason, const char *detail)
{
	struct match_engine *e = &s->m->eng[mg_proc(s, seat)->eng];

	if (strcmp(reason, "crash") == 0)
		e->crashes++;
	else if (strcmp(reason, "timeout") == 0)
		e->timeouts++;
	else if (strcmp(reason, "illegal-move") == 0)
		e->illegal++;
	else if (strcmp(reason, "start-timeout") == 0)
		e->slow_starts++;
	else
		e->limits++;
	mg_end(s, 3 - seat, reason, detail, seat);
}

/* Makes sure a slot has processes for engines e1 (seat 1) and e2. */
static int
mg_procs(struct mslot *s, size_t e1, size_t e2)
{
	size_t	 want[2] = { e1, e2 };
	int	 used[2] = { 0, 0 }, seat, k;

	s->seat_proc[0] = s->seat_proc[1] = -1;
	for (seat = 0; seat < 2; seat++)
		for (k = 0; k < 2; k++)
			if (!used[k] && s->proc[k].state == MP_UP &&
			    s->proc[k].eng == want[seat]) {
				used[k] = 1;
				s->seat_proc[seat] = k;
				break;
			}
	for (seat = 0; seat < 2; seat++) {
		if (s->seat_proc[seat] != -1)
			continue;
		k = used[0] ? 1 : 0;
		used[k] = 1;
		s->seat_proc[seat] = k;
		mp_kill(&s->proc[k]);
		s->m->eng[want[seat]].starts++;
		if (mp_spawn(s->m, &s->proc[k], want[seat]) != 0) {
			fprintf(stderr, "grundy match: cannot start %s: %s\n",
			    s->m->eng[want[seat]].name, strerror(errno));
			return (-1);
		}
	}
	return (0);
}

/* The next game to play, or -1 (none left, or the SPRT has stopped). */
static long
mg_next(struct match *m)
{
	size_t	 k;

	if (m->stop || match_interrupted)
		return (-1);
	while (m->next < m->ngames && m->res[m->next].done)
		m->next++;
	if (m->next == m->ngames)
		return (-1);
	k = m->next++;
	return ((long)k);
}

/* Starts the slot's next game, if any: new to both engines. */
static void
mg_begin(struct mslot *s)
{
	struct match	*m = s->m;
	struct game_error err;
	struct buf	 pos;
	size_t		 e1, e2;
	long		 gi;
	int		 seat;

	if ((gi = mg_next(m)) < 0)
		return;
	s->gi = (size_t)gi;
	match_seats(m, s->gi, &e1, &e2);
	if (mg_procs(s, e1, e2) != 0) {
		m->stop = 1;
		m->next = s->gi;
		return;
	}
	if (match_start(m, s->gi, &s->game, &err) != 0) {
		fprintf(stderr, "grundy match: game %zu: %s\n", s->gi,
		    err.msg);
		m->stop = 1;
		return;
	}
	s->to_move = 1;
	s->plies = 0;
	s->serial++;
	s->clock_us[0] = s->clock_us[1] = m->base_ms * 1000;
	s->started = clock_mono_ns();
	s->deadline = s->started + m->start_ms * 1000000;
	s->newok[0] = s->newok[1] = 0;
	s->wall_start = (int64_t)clock_wall_ms();
	match_record_clear(s);
	buf_init(&pos);
	game_print(&s->game, &pos);
	free(m->res[s->gi].start);
	m->res[s->gi].start = xstrdup(buf_str(&pos));
	m->res[s->gi].think_us[0] = m->res[s->gi].think_us[1] = 0;
	mg_set(s, MG_STARTING);
	for (seat = 1; seat <= 2; seat++)
		mp_send(mg_proc(s, seat), 0, s->serial, "new %s",
		    buf_str(&pos));
	buf_free(&pos);
}

/* The solver's verdict on the position: the seat that wins it. */
static int
mg_solver_winner(struct mslot *s)
{
	struct game_error err;

	return (game_outcome(&s->game, &err) == GAME_N ? s->to_move :
	    3 - s->to_move);
}

/*
 * Ends a command with both clocks: " time1=MS time2=MS" and its LF
 * (written without printf: a ply's two commands end so).
 */
static void
mg_times(const struct mslot *s, struct buf *b)
{
	buf_add(b, " time1=", 7);
	buf_putu(b, s->clock_us[0] / 1000);
	buf_add(b, " time2=", 7);
	buf_putu(b, s->clock_us[1] / 1000);
	buf_putc(b, '\n');
}

/* The next turn: the end, an adjudication, or genmove to the mover. */
static void
mg_turn(struct mslot *s)
{
	struct match	*m = s->m;
	struct buf	*b;
	const char	*reason;
	char		 det[64];
	int		 winner;
	uint64_t	 left;

	if (referee_over(&s->game, s->to_move, &winner, &reason)) {
		mg_end(s, winner, reason, NULL, 0);
		return;
	}
	if (m->adjudicate >= 0 && s->plies >= (unsigned long)m->adjudicate) {
		snprintf(det, sizeof det, "by the solver at ply %lu",
		    s->plies);
		mg_end(s, mg_solver_winner(s), "adjudicated", det, 0);
		return;
	}
	s->serial++;
	if (m->cpu_clock && !m->ponder) {
		mp_freeze(mg_proc(s, 3 - s->to_move), 1);
		mp_freeze(mg_proc(s, s->to_move), 0);
	}
	s->turn_start = clock_mono_ns();
	s->has_cpu0 = mp_measured(m, mg_proc(s, s->to_move)) &&
	    mp_cpu_ns(mg_proc(s, s->to_move), &s->cpu0) == 0;
	left = (s->clock_us[s->to_move - 1] + m->grace_ms * 1000) * 1000;
	s->deadline = s->wall_deadline = s->turn_start + left;
	if (m->cpu_clock)
		s->wall_deadline = s->turn_start + m->wall_factor * left +
		    m->wall_margin_ms * 1000000;
	if ((b = mp_cmd(mg_proc(s, s->to_move), 1, s->serial)) != NULL) {
		buf_add(b, "genmove", 7);
		mg_times(s, b);
	}
	(void)mp_flush(mg_proc(s, s->to_move));
}

/* What a turn cost: wall and CPU time (µs), peak memory so far. */
struct mg_cost {
	uint64_t	 wall_us, cpu_us, peak;
	int		 has_cpu, has_peak;
};

/*
 * Measures the mover's turn as its answer is read (process p): frozen
 * first under clock=cpu (nothing it does after is its turn's), then its
 * tree's CPU time since the turn began and its peak memory.
 */
static void
mg_measure(struct mslot *s, struct mproc *p, struct mg_cost *c)
{
	uint64_t	 ns;

	memset(c, 0, sizeof *c);
	if (s->m->cpu_clock && !s->m->ponder)
		mp_freeze(p, 1);
	c->wall_us = p->rx_ns > s->turn_start ? (p->rx_ns - s->turn_start) /
	    1000 : 0;
	if (s->has_cpu0 && mp_cpu_ns(p, &ns) == 0) {
		c->has_cpu = 1;
		c->cpu_us = ns > s->cpu0 ? (ns - s->cpu0) / 1000 : 0;
	}
	c->has_peak = mp_measured(s->m, p) && mp_peak_bytes(p, &c->peak) == 0;
}

/* The time a turn is charged: its CPU time under clock=cpu, else wall. */
static uint64_t
mg_charged(const struct mslot *s, const struct mg_cost *c)
{
	return (s->m->cpu_clock && c->has_cpu ? c->cpu_us : c->wall_us);
}

/* Adds a move's cost to its record line and to its engine's totals. */
static void
mg_cost_add(struct mslot *s, struct store_rmove *r, const struct mg_cost *c)
{
	struct match_engine *e = &s->m->eng[mg_proc(s, r->player)->eng];

	if (!c->has_cpu && !c->has_peak)
		return;		/* not measured: no cost line */
	r->has_cost = 1;
	r->wall_us = c->wall_us;
	r->has_cpu = c->has_cpu;
	r->cpu_us = c->cpu_us;
	r->has_peak = c->has_peak;
	r->peak_bytes = c->peak;
	e->cost_moves++;
	e->wall_us += c->wall_us;
	if (c->has_cpu) {
		e->cpu_moves++;
		e->cpu_us += c->cpu_us;
	}
	if (c->has_peak && c->peak > e->peak_bytes)
		e->peak_bytes = c->peak;
}

/*
 * Applies a legal move of the mover: clock, record, play to the other,
 * queued so that it goes out with the genmove (or gameover) that
 * mg_turn sends the same process: one write a ply.  The move's text and
 * the position after it go into the slot's buffers; they are copied
 * into the game's record only when there is one to write (--records).
 */
static void
mg_apply(struct mslot *s, const struct game_move *mv,
    const struct mg_cost *cost)
{
	uint64_t	 used = mg_charged(s, cost);
	struct game_error err;
	enum referee_mark mark = referee_mark(&s->game, mv);
	uint64_t	*clk = &s->clock_us[s->to_move - 1];
	struct store_rmove rm, *r = &rm;
	struct mproc	*p;
	struct buf	*b;

	*clk = referee_clock_after(*clk, used, s->m->inc_ms);
	buf_reset(&s->text);
	game_move_print(mv, &s->text);
	game_play(&s->game, mv, &err);
	s->plies++;
	if (s->m->records != NULL) {
		if (s->nmv == s->capmv) {
			s->capmv = s->capmv ? 2 * s->capmv : 16;
			s->mv = xreallocarray(s->mv, s->capmv, sizeof *s->mv);
		}
		r = &s->mv[s->nmv++];
	}
	memset(r, 0, sizeof *r);
	r->ply = s->plies;
	r->player = s->to_move;
	r->mark = (enum store_mark)mark;
	r->time_ms = used / 1000;
	r->time_us = used;
	s->m->res[s->gi].think_us[s->to_move - 1] += used;
	mg_cost_add(s, r, cost);
	if (r != &rm) {
		buf_reset(&s->pos);
		game_print(&s->game, &s->pos);
		r->move = xstrdup(buf_str(&s->text));
		r->position = xstrdup(buf_str(&s->pos));
	}
	s->to_move = 3 - s->to_move;
	p = mg_proc(s, s->to_move);
	/* Queued, not written: it goes out with what mg_turn sends p. */
	if ((b = mp_cmd(p, 0, s->serial)) != NULL) {
		buf_add(b, "play ", 5);
		buf_add(b, s->text.data, s->text.len);
		mg_times(s, b);
	}
	mg_turn(s);
	(void)mp_flush(p);	/* as mp_send: the poll loop sees a death */
}

/* A genmove answer of the mover, read at s's proc rx time. */
static void
mg_move(struct mslot *s, struct mproc *p, const struct proto_answer *a)
{
	struct match	*m = s->m;
	const char	*text = a->body.data != NULL ? a->body.data : "";
	const char	*bad = NULL;
	struct game_error err;
	struct game_move *mv = &s->answer;	/* no allocation a ply */
	struct buf	 d;
	struct mg_cost	 cost;
	uint64_t	 used;
	char		 quoted[REFEREE_QUOTE_MAX + 1];

	mg_measure(s, p, &cost);
	used = mg_charged(s, &cost);
	/* A sandboxed engine that ran into a limit loses, move or not. */
	if ((bad = chan_violation(&p->ch, NULL)) != NULL) {
		mg_fault(s, s->to_move, bad, NULL);
		return;
	}
	if (used > s->clock_us[s->to_move - 1] + m->grace_ms * 1000 ||
	    p->rx_ns >= s->wall_deadline) {
		mg_fault(s, s->to_move, "timeout", NULL);
		return;
	}
	if (!a->ok || strcmp(text, "resign") == 0) {
		mg_end(s, 3 - s->to_move, "resign", NULL, 0);
		return;
	}
	if (a->over)
		bad = "answer too long";
	else if (a->lines > 1)
		bad = "answer of several lines";
	if (referee_parse_move(&s->game, bad != NULL ? "-" : text, bad,
	    &m->lim, mv, &err) != 0) {
		memset(&s->ref, 0, sizeof s->ref);
		s->ref.ply = s->plies + 1;
		s->ref.player = s->to_move;
		referee_cut(quoted, bad != NULL ? "-" : text);
		s->ref.move = xstrdup(quoted);
		s->ref.reason = xstrdup(err.msg);
		s->ref.time_ms = used / 1000;
		s->has_ref = 1;
		buf_init(&d);
		referee_illegal_detail(&d, bad != NULL ? "-" : text, err.msg);
		mg_fault(s, s->to_move, "illegal-move", buf_str(&d));
		buf_free(&d);
	} else
		mg_apply(s, mv, &cost);
}

/* A complete answer from a slot's process k. */
static void
mg_answer(struct mslot *s, int k)
{
	struct mproc	*p = &s->proc[k];
	struct proto_answer *a = &p->ans;
	struct mp_cmd	 c;
	size_t		 i;
	int		 seat;

	if (a->has_id) {
		for (i = 0; i < p->nout && p->out[i].id != a->id; i++)
			;
	} else
		i = 0;
	if (i >= p->nout)
		return;		/* unknown, stale or duplicate: dropped */
	c = p->out[i];
	memmove(&p->out[0], &p->out[i + 1], (p->nout - i - 1) *
	    sizeof p->out[0]);
	p->nout -= i + 1;
	if (s->state == MG_IDLE || c.serial != s->serial)
		return;
	seat = s->seat_proc[0] == k ? 1 : 2;
	if (s->state == MG_STARTING && !c.genmove) {
		s->newok[seat - 1] = 1;
		p->fresh = 0;
		if (s->newok[0] && s->newok[1]) {
			mg_set(s, MG_PLAYING);
			mg_turn(s);
		}
	} else if (s->state == MG_PLAYING && c.genmove &&
	    seat == s->to_move)
		mg_move(s, p, a);
}

/*
 * Takes every complete line a slot's process k has written: its answer
 * blocks; any other line (a banner) is ignored.
 */
static void
mg_lines(struct mslot *s, int k)
{
	struct mproc	*p = &s->proc[k];
	enum chan_got	 got;

	while (p->state == MP_UP &&
	    (got = chan_next(&p->ch, &p->ans, &s->line)) != CHAN_NONE)
		if (got == CHAN_ANSWER) {
			mg_answer(s, k);
			proto_answer_reset(&p->ans);
		}
	buf_reset(&s->line);
	if (s->line.cap > 65536)
		buf_free(&s->line);
}

/*
 * A slot's process k closed its output: a crash, or the sandbox limit
 * that ended it.
 */
static void
mg_died(struct mslot *s, int k)
{
	char	 tmp[64];
	const char *limit, *why = mp_death(&s->proc[k], tmp, sizeof tmp,
		    &limit);
	int	 seat = s->seat_proc[0] == k ? 1 : 2;

	if (s->state == MG_IDLE)
		return;
	if (limit != NULL)
		mg_fault(s, seat, limit, NULL);
	else
		mg_fault(s, seat, "crash", why);
}

/*
 * Reads a sandboxed process's stderr; one over its cap loses its game
 * (output-limit), or is stopped between games.
 */
static void
mg_stderr(struct mslot *s, int k)
{
	struct mproc	*p = &s->proc[k];

	if (p->state != MP_UP || chan_read_err(&p->ch) == 0)
		return;
	if (s->state != MG_IDLE)
		mg_fault(s, s->seat_proc[0] == k ? 1 : 2, "output-limit",
		    NULL);
	else
		mp_kill(p);
}

/* Reads from a slot's process k; handles its lines, or its death. */
static void
mg_input(struct mslot *s, int k)
{
	struct mproc	*p = &s->proc[k];
	int		 eof;

	if (p->state != MP_UP)
		return;
	eof = chan_read(&p->ch) != 0;
	p->rx_ns = clock_mono_ns();
	mg_lines(s, k);
	if (eof && p->state == MP_UP)
		mg_died(s, k);
}

/*
 * Under clock=cpu, at a deadline within the wall bound: returns 1 (and
 * the next deadline set) if the mover's CPU time has not run out, 0 if
 * it has or its tree cannot be read.  A single thread's CPU time cannot
 * outrun the wall clock, so the next look is when the CPU time left
 * would be spent at the earliest (threads may overrun it by that much;
 * their answer is judged on its own CPU time).
 */
static int
mg_cpu_left(struct mslot *s)
{
	struct match	*m = s->m;
	uint64_t	 now = clock_mono_ns(), ns, used, left;

	if (!m->cpu_clock || now >= s->wall_deadline || !s->has_cpu0 ||
	    mp_cpu_ns(mg_proc(s, s->to_move), &ns) != 0)
		return (0);
	used = ns > s->cpu0 ? (ns - s->cpu0) / 1000 : 0;
	left = s->clock_us[s->to_move - 1] + m->grace_ms * 1000;
	if (used > left)
		return (0);
	s->deadline = now + (left - used) * 1000 + 1000000;
	if (s->deadline > s->wall_deadline)
		s->deadline = s->wall_deadline;
	return (1);
}

/* The slot's deadline passed: a slow start or a timeout. */
static void
mg_deadline(struct mslot *s)
{
	const char *limit;
	int	 seat, k;

	/* Its reads must not wait: what mg_wait made blocking is not. */
	for (k = 0; k < 2; k++)
		if (s->proc[k].blocking && s->proc[k].state == MP_UP) {
			chan_blocking(&s->proc[k].ch, 0);
			s->proc[k].blocking = 0;
		}
	if (s->state == MG_STARTING) {
		/* Answers that came since the poll count: read them. */
		mg_input(s, 0);
		mg_input(s, 1);
		if (s->state != MG_STARTING || clock_mono_ns() < s->deadline)
			return;
		if (!s->newok[0] && !s->newok[1]) {
			s->m->eng[mg_proc(s, 1)->eng].slow_starts++;
			s->m->eng[mg_proc(s, 2)->eng].slow_starts++;
			mg_end(s, 0, "start-timeout", NULL, 3);
			return;
		}
		seat = s->newok[0] ? 2 : 1;
		mg_fault(s, seat, "start-timeout", NULL);
		return;
	}
	/*
	 * Read what came since the poll first: an answer is judged on its
	 * time as read (a pipe has no arrival stamp), so one read after the
	 * deadline still loses on time.
	 */
	mg_input(s, s->seat_proc[s->to_move - 1]);
	if (s->state == MG_PLAYING && clock_mono_ns() >= s->deadline &&
	    !mg_cpu_left(s)) {
		/* One stuck on a sandbox limit (a fork bomb) loses on it. */
		limit = chan_violation(&mg_proc(s, s->to_move)->ch, NULL);
		mg_fault(s, s->to_move, limit != NULL ? limit : "timeout",
		    NULL);
	}
}

/*
 * After a signal woke the loop: mg_wait's timer, if it rang (or if stop),
 * is stopped (mg_wait arms it again).  Returns 1 if a signal came.
 */
static int
mg_rang(struct match *m, int stop)
{
	static const struct itimerval off;

	if (!mg_woken)
		return (0);
	mg_woken = 0;
	if (m->alarm_at != 0 && (stop || clock_mono_ns() >= m->alarm_at)) {
		setitimer(ITIMER_REAL, &off, NULL);
		m->alarm_at = 0;
	}
	return (1);
}

/*
 * The loop's wait at concurrency 1, where a game is played on the wall
 * clock, neither engine sandboxed (no stderr to watch), nothing to write
 * and nothing awaited from the engine off move: only the mover has
 * anything to say, so a read that blocks on its pipe stands for the poll
 * (a syscall a ply less: the relay's way, BENCHMARKS.md §46).  The turn's
 * deadline is a timer (setitimer, SIGALRM), armed only when it must ring
 * earlier than it is set to: a seat's deadline moves only later from one
 * of its turns to its next, so it is armed a few times a game, and an
 * early ring just arms it again.  It rings again every millisecond until
 * stopped or armed anew, so a ring just before the read is not lost;
 * SIGCHLD (an engine's end) wakes the read too, and the next pass polls:
 * the end of the engine off move is seen as soon as by the poll.
 * Returns 1 if it waited, 0 if the poll is to.
 */
static int
mg_wait(struct match *m)
{
	struct mslot	*s = &m->slots[0];
	struct mproc	*p, *o;
	struct itimerval it;
	uint64_t	 now, us;

	if (mg_rang(m, 0) || m->conc != 1 || s->state != MG_PLAYING ||
	    m->cpu_clock)
		return (0);
	p = mg_proc(s, s->to_move);
	o = mg_proc(s, 3 - s->to_move);
	if (p->state != MP_UP || o->state != MP_UP || p->ch.errfd != -1 ||
	    o->ch.errfd != -1 || chan_pending(&p->ch) > 0 ||
	    chan_pending(&o->ch) > 0 || o->nout > 0 ||
	    (now = clock_mono_ns()) >= s->deadline)
		return (0);
	if (m->alarm_at == 0 || m->alarm_at > s->deadline) {
		memset(&it, 0, sizeof it);
		us = (s->deadline - now + 999) / 1000;
		it.it_value.tv_sec = (time_t)(us / 1000000);
		it.it_value.tv_usec = (suseconds_t)(us % 1000000);
		it.it_interval.tv_usec = 1000;
		if (setitimer(ITIMER_REAL, &it, NULL) != 0)
			return (0);
		m->alarm_at = s->deadline;
	}
	if (!p->blocking) {
		chan_blocking(&p->ch, 1);
		p->blocking = 1;
	}
	if (!mg_woken && !match_interrupted)
		mg_input(s, s->seat_proc[s->to_move - 1]);
	return (1);
}

/* Polls every process once (at most until the nearest deadline). */
static void
mg_poll(struct match *m, struct pollfd *pfd, int *who)
{
	uint64_t	 now = clock_mono_ns(), next = UINT64_MAX;
	size_t		 s, n = 0, i;
	int		 k, ms;
	struct mproc	*p;

	for (s = 0; s < m->conc; s++) {
		if (m->slots[s].state != MG_IDLE && m->slots[s].deadline < next)
			next = m->slots[s].deadline;
		for (k = 0; k < 2; k++) {
			p = &m->slots[s].proc[k];
			if (p->state != MP_UP)
				continue;
			pfd[n].fd = p->ch.rfd;
			pfd[n].events = POLLIN;
			who[n++] = (int)(s * 2 + (size_t)k);
			if (p->ch.errfd != -1) {
				pfd[n].fd = p->ch.errfd;
				pfd[n].events = POLLIN;
				who[n++] = MG_ERR + (int)(s * 2 + (size_t)k);
			}
			if (chan_pending(&p->ch) > 0 && p->ch.wfd != -1) {
				pfd[n].fd = p->ch.wfd;
				pfd[n].events = POLLOUT;
				who[n++] = -(int)(s * 2 + (size_t)k) - 1;
			}
		}
	}
	ms = next == UINT64_MAX ? 1000 : next <= now ? 0 :
	    (int)((next - now) / 1000000 + 1);
	if (poll(pfd, n, ms) < 0 && errno != EINTR)
		return;
	for (i = 0; i < n && !match_interrupted; i++) {
		if (pfd[i].revents == 0)
			continue;
		if (who[i] >= MG_ERR) {
			k = who[i] - MG_ERR;
			if (m->slots[k / 2].proc[k % 2].ch.errfd == pfd[i].fd)
				mg_stderr(&m->slots[k / 2], k % 2);
			continue;
		}
		k = who[i] >= 0 ? who[i] : -who[i] - 1;
		p = &m->slots[k / 2].proc[k % 2];
		if (p->state != MP_UP || (who[i] >= 0 && p->ch.rfd != pfd[i].fd))
			continue;
		if (who[i] >= 0)
			mg_input(&m->slots[k / 2], k % 2);
		else if (mp_flush(p) != 0)
			mg_died(&m->slots[k / 2], k % 2);
	}
}

/*
 * Runs the games: every slot plays games until none is left (or the SPRT
 * stops the run), on one poll loop.  Returns 0 when every game was
 * played or the SPRT decided, 1 if interrupted (SIGINT), -1 on an error.
 */
int
match_run(struct match *m)
{
	struct pollfd	*pfd;
	int		*who;
	size_t		 s, active;
	struct sigaction sa;
	uint64_t	 now;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = match_on_sigint;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* Without SA_RESTART: they interrupt mg_wait's read. */
	sa.sa_handler = match_on_wake;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	pfd = xreallocarray(NULL, m->conc * 6, sizeof *pfd);
	who = xreallocarray(NULL, m->conc * 6, sizeof *who);
	for (;;) {
		active = 0;
		for (s = 0; s < m->conc; s++) {
			if (m->slots[s].state == MG_IDLE)
				mg_begin(&m->slots[s]);
			if (m->slots[s].state != MG_IDLE)
				active++;
		}
		if (active == 0 || match_interrupted)
			break;
		if (!mg_wait(m))
			mg_poll(m, pfd, who);
		now = clock_mono_ns();
		for (s = 0; s < m->conc && !match_interrupted; s++)
			if (m->slots[s].state != MG_IDLE &&
			    m->slots[s].deadline <= now)
				mg_deadline(&m->slots[s]);
	}
	free(pfd);
	free(who);
	mg_woken = 1;
	(void)mg_rang(m, 1);	/* the timer stopped */
	signal(SIGALRM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	for (s = 0; s < m->conc; s++)
		if (m->slots[s].state != MG_IDLE) {
			game_free(&m->slots[s].game);
			mg_set(&m->slots[s], MG_IDLE);
		}
	return (match_interrupted ? 1 : m->stop && m->verdict ==
	    SPRT_CONTINUE ? -1 : 0);
}
