/*
 * test-lobby-clock.c: the lobby's clocks on a virtual clock (clock.h),
 * with no sleeps: a game is lost on time exactly when the clock and the
 * grace are spent, increments are credited per move, a clock stops at
 * the time the answer reached the socket (lobby_rx_time), a seat away
 * keeps its clock running and resume reports what is left, a stalled
 * loop does not cost a player whose answer was in time, a tournament
 * starts its next game when the previous one ends, and replays an aborted
 * one.  The lobby is driven through its public API with fake connections;
 * what it sends them is kept and checked line by line.
 */
#include <sys/types.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "testdb.h"

#include "lib/buf.h"
#include "lib/clock.h"
#include "cmd/cmd-history.h"
#include "cmd/cmd-results.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-results.h"
#include "proto/proto.h"
#include "store/store.h"

#define T0		1000000		/* the virtual clock's start, ms */
#define BASE		1000		/* the games' time control */
#define INC		100
#define GRACE		500		/* clock_grace */
#define NCONN		4
#define NDEFER		64
#define NS(ms)		((uint64_t)(ms) * 1000000)	/* stamps: ns */

/* A fake connection: what the lobby sent it. */
struct fconn {
	struct buf	 out;
	int		 kicked;
};

/* The lobby on a virtual clock, its connections and deferred calls. */
struct fx {
	struct vclock	*vc;
	struct lobby	*lb;
	struct fconn	 conn[NCONN];
	struct lobby_client *lc[NCONN];
	void		 (*dfn[NDEFER])(void *);
	void		*darg[NDEFER];
	size_t		 ndefer;
	struct fixture	*db;		/* with a league: its store, league */
	unsigned long	 id0;		/* fx_setup_game: alice's genmove */
	struct league	*lg;
	void		 (*wfn[NDEFER])(void *);	/* lobby_io.work */
	void		 (*wdone[NDEFER])(void *);
	void		*warg[NDEFER];
	size_t		 nwork;
};

/* lobby_io.send: keeps the bytes. */
static void
fx_send(void *arg, void *conn, const char *data, size_t len)
{
	(void)arg;
	buf_add(&((struct fconn *)conn)->out, data, len);
}

/* lobby_io.defer: queued until fx_pump. */
static void
fx_defer(void *arg, void (*fn)(void *), void *fnarg)
{
	struct fx	*fx = arg;

	assert_true(fx->ndefer < NDEFER);
	fx->dfn[fx->ndefer] = fn;
	fx->darg[fx->ndefer++] = fnarg;
}

/* lobby_io.kick. */
static void
fx_kick(void *arg, void *conn)
{
	(void)arg;
	((struct fconn *)conn)->kicked = 1;
}

/* lobby_io.work: queued until fx_work_run. */
static void
fx_work(void *arg, void (*work)(void *), void (*done)(void *), void *fnarg)
{
	struct fx	*fx = arg;

	assert_true(fx->nwork < NDEFER);
	fx->wfn[fx->nwork] = work;
	fx->wdone[fx->nwork] = done;
	fx->warg[fx->nwork++] = fnarg;
}

/* Runs the queued work, then its calls back on the loop, in order. */
static void
fx_work_run(struct fx *fx)
{
	size_t	 i, n = fx->nwork;

	for (i = 0; i < n; i++)
		fx->wfn[i](fx->warg[i]);
	fx->nwork = 0;
	for (i = 0; i < n; i++)
		fx->wdone[i](fx->warg[i]);
}

/* Runs the deferred calls, as the loop would, until none is left. */
static void
fx_pump(struct fx *fx)
{
	void		 (*fn)(void *);
	void		*arg;
	size_t		 i;

	while (fx->ndefer > 0) {
		fn = fx->dfn[0];
		arg = fx->darg[0];
		for (i = 1; i < fx->ndefer; i++) {
			fx->dfn[i - 1] = fx->dfn[i];
			fx->darg[i - 1] = fx->darg[i];
		}
		fx->ndefer--;
		fn(arg);
	}
}

/*
 * Makes the lobby (with a league: accounts and tournaments; 2: and its
 * games logged).
 */
static struct fx *
fx_new(int with_league)
{
	struct lobby_conf conf;
	struct lobby_io	 io;
	struct clock_ops ops;
	struct fx	*fx;
	void		*db;
	char		 err[512];
	int		 i;

	fx = xcalloc(1, sizeof *fx);
	for (i = 0; i < NCONN; i++)
		buf_init(&fx->conn[i].out);
	if (with_league) {
		assert_int_equal(tdb_setup(&db, "test-lobby-clock"), 0);
		fx->db = db;
		open_both(fx->db, 5, 30);
		fx->lg = fx->db->lg;
	}
	memset(&io, 0, sizeof io);
	io.arg = fx;
	io.send = fx_send;
	io.defer = fx_defer;
	io.kick = fx_kick;
	io.work = fx_work;
	memset(&conf, 0, sizeof conf);
	conf.default_base_ms = 60000;
	conf.grace_ms = GRACE;
	conf.max_seeks = 16;
	conf.max_watchers = 16;
	conf.lim = *tu_limits();
	/* The games are logged with 2; the league is for the tournaments. */
	fx->lb = lobby_new(NULL, with_league == 2 ? fx->db->st : NULL, fx->lg,
	    &io, &conf, err, sizeof err);
	if (fx->lb == NULL)
		fail_msg("lobby_new: %s", err);
	fx->vc = vclock_new(T0);
	vclock_ops(fx->vc, &ops);
	lobby_set_clock(fx->lb, &ops);
	return (fx);
}

/* Frees the lobby, its clock and the connections. */
static void
fx_free(struct fx *fx)
{
	void		*db = fx->db;
	int		 i;

	fx_pump(fx);
	for (i = 0; i < NCONN; i++) {
		if (fx->lc[i] != NULL)
			lobby_detach(fx->lc[i], "end");
		buf_free(&fx->conn[i].out);
	}
	fx_pump(fx);
	lobby_free(fx->lb);
	vclock_free(fx->vc);
	if (db != NULL)
		tdb_teardown(&db);
	free(fx);
}

/* Connects connection i and logs it in as name (admin role or not). */
static void
fx_login(struct fx *fx, int i, const char *name, int admin)
{
	fx->lc[i] = lobby_attach(fx->lb, &fx->conn[i], (uint64_t)i + 1);
	lobby_login(fx->lc[i], name, admin);
}

/* Drops connection i. */
static void
fx_drop(struct fx *fx, int i)
{
	lobby_detach(fx->lc[i], "test");
	fx->lc[i] = NULL;
	buf_reset(&fx->conn[i].out);
}

/* Moves the virtual clock to T0 + at and runs what follows. */
static void
fx_at(struct fx *fx, uint64_t at)
{
	assert_true(T0 + at >= vclock_now(fx->vc));
	vclock_advance(fx->vc, T0 + at - vclock_now(fx->vc));
	fx_pump(fx);
}

/*
 * Takes the first line connection i was sent and checks it; returns the
 * command id of a server command ("ID text"), or 0 for an event.
 */
static unsigned long
fx_expect(struct fx *fx, int i, const char *want)
{
	struct buf	*b = &fx->conn[i].out;
	char		*nl, *line, *text;
	unsigned long	 id = 0;
	size_t		 n;

	if (b->len == 0 || (nl = memchr(b->data, '\n', b->len)) == NULL)
		fail_msg("conn %d: nothing sent, expected \"%s\"", i, want);
	n = (size_t)(nl - b->data);
	line = xmalloc(n + 1);
	memcpy(line, b->data, n);
	line[n] = '\0';
	memmove(b->data, nl + 1, b->len - n - 1);
	b->len -= n + 1;
	b->data[b->len] = '\0';
	text = line;
	if (line[0] >= '0' && line[0] <= '9') {
		id = strtoul(line, &text, 10);
		text++;
	}
	if (strncmp(text, want, strlen(want)) != 0)
		fail_msg("conn %d: sent \"%s\", expected \"%s\"", i, line,
		    want);
	free(line);
	return (id);
}

/* Checks that connection i was sent nothing more. */
static void
fx_quiet(struct fx *fx, int i)
{
	if (fx->conn[i].out.len > 0)
		fail_msg("conn %d: unexpected \"%s\"", i,
		    buf_str(&fx->conn[i].out));
}

/* Answers server command id on connection i with text ("=" answer). */
static void
fx_answer(struct fx *fx, int i, unsigned long id, const char *text)
{
	struct proto_answer a;

	memset(&a, 0, sizeof a);
	a.ok = 1;
	a.has_id = 1;
	a.id = id;
	a.lines = 1;
	buf_init(&a.body);
	buf_puts(&a.body, text);
	assert_int_equal(lobby_answer(fx->lc[i], &a), 1);
	buf_free(&a.body);
	fx_pump(fx);
}

/* Runs a lobby command that must succeed; checks its body's start. */
static void
fx_cmd_ok(int rv, struct buf *body, const char *want)
{
	if (rv != 0)
		fail_msg("command failed: %s", buf_str(body));
	if (strncmp(buf_str(body), want, strlen(want)) != 0)
		fail_msg("body \"%s\", expected \"%s\"", buf_str(body), want);
	buf_reset(body);
}

/*
 * Starts "nim 5 5" with tc BASE+INC at T0: alice (connection 0) seat 1,
 * bob (1) seat 2, by a challenge; returns alice's genmove id.
 */
static unsigned long
fx_game(struct fx *fx)
{
	char		 n0[] = "nim", n1[] = "5", n2[] = "5";
	char		*argv[] = { n0, n1, n2 };
	struct lobby_offer o;
	struct game_limits lim;
	struct game_error gerr;
	struct buf	 body;
	uint64_t	 chid;
	int64_t		 gid;
	unsigned long	 id;

	fx_login(fx, 0, "alice", 0);
	fx_login(fx, 1, "bob", 0);
	buf_init(&body);
	fx_cmd_ok(lobby_ready(fx->lc[1], 1, &body), &body, "");
	/* challenge bob seat=1 tc=1000+100 nim 5 5, as cmd-lobby.c parses it */
	memset(&o, 0, sizeof o);
	o.base_ms = 1000;
	o.inc_ms = 100;
	o.rated = -1;
	o.seat = 1;
	game_limits_default(&lim);
	assert_int_equal(game_parse(&o.game, 3, argv, &lim, &gerr), 0);
	buf_init(&o.spec);
	game_print(&o.game, &o.spec);
	fx_cmd_ok(lobby_challenge(fx->lc[0], "bob", &o, &chid, &body), &body,
	    "");
	assert_int_equal(chid, 1);
	game_free(&o.game);
	buf_free(&o.spec);
	fx_expect(fx, 1, "event challenge 1 alice tc=1000+100 rated=1 seat=2 "
	    "nim 5 5");
	fx_cmd_ok(lobby_accept(fx->lc[1], "1", 1, &gid, &body), &body, "");
	assert_int_equal(gid, 1);
	buf_free(&body);
	fx_expect(fx, 0, "event start 1 alice bob you=1 token=");
	fx_expect(fx, 0, "new nim 5 5");
	id = fx_expect(fx, 0, "genmove time1=1000 time2=1000");
	fx_quiet(fx, 0);
	fx_expect(fx, 1, "event start 1 alice bob you=2 token=");
	fx_expect(fx, 1, "new nim 5 5");
	fx_quiet(fx, 1);
	return (id);
}

/* Set-up of a test that starts with fx_game's game: the fixture in *state. */
static int
fx_setup_game(void **state)
{
	struct fx	*fx = fx_new(0);

	fx->id0 = fx_game(fx);
	*state = fx;
	return (0);
}

/* Tear-down of fx_setup_game. */
static int
fx_teardown(void **state)
{
	fx_free(*state);
	return (0);
}

/* Returns 1 if game 1 is live ("games live" lists it). */
static int
fx_live(struct fx *fx)
{
	struct lobby_live *v;
	size_t		 n;
	int		 live;

	lobby_live_games(fx->lc[1], &v, &n);
	live = n >= 1 && v[0].id == 1 && strcmp(v[0].player[0], "alice") == 0 &&
	    strcmp(v[0].player[1], "bob") == 0;
	free(v);
	return (live);
}

/*
 * Seat i answers server command id with move; the other seat is sent the
 * move and its genmove, both with the clocks times ("time1=.. time2=..").
 * Returns the genmove's id.
 */
static unsigned long
fx_move(struct fx *fx, int i, unsigned long id, const char *move,
    const char *times)
{
	char	 want[128];

	fx_answer(fx, i, id, move);
	snprintf(want, sizeof want, "play %s %s", move, times);
	fx_expect(fx, 1 - i, want);
	snprintf(want, sizeof want, "genmove %s", times);
	return (fx_expect(fx, 1 - i, want));
}

/* Checks that both seats were told the same line next. */
static void
fx_expect_both(struct fx *fx, const char *want)
{
	fx_expect(fx, 0, want);
	fx_expect(fx, 1, want);
}

/* Checks that the game is still live at ms and over at ms + 1. */
static void
fx_lost_at(struct fx *fx, uint64_t ms)
{
	fx_at(fx, ms);
	assert_true(fx_live(fx));
	fx_at(fx, ms + 1);
	assert_false(fx_live(fx));
}

/* A seat that does not answer loses at base + grace + 1 ms, not before. */
static void
test_timeout_exact(void **state)
{
	struct fx	*fx = *state;

	fx_at(fx, BASE + GRACE);
	assert_true(fx_live(fx));
	fx_quiet(fx, 0);
	fx_quiet(fx, 1);
	fx_at(fx, BASE + GRACE + 1);
	assert_false(fx_live(fx));
	fx_expect_both(fx, "gameover second timeout");
}

/*
 * An answer read at base + grace is in time: the clock goes to 0, then
 * the increment; one more millisecond would have lost.
 */
static void
test_grace(void **state)
{
	struct fx	*fx = *state;

	fx_at(fx, BASE + GRACE);
	fx_move(fx, 0, fx->id0, "1=0", "time1=100 time2=1000");
	/*
	 * Alice's timer (100 + grace) is off while bob moves: nothing ends
	 * until bob's, due at 1500 + BASE + GRACE + 1.
	 */
	fx_at(fx, BASE + GRACE + BASE + GRACE);
	assert_true(fx_live(fx));
}

/*
 * Each move charges its time and credits the increment; the next timer
 * is armed for what is left on the mover's clock, plus the grace.
 */
static void
test_increment(void **state)
{
	struct fx	*fx = *state;
	unsigned long	 id = fx->id0;

	fx_at(fx, 300);
	id = fx_move(fx, 0, id, "1=4", "time1=800 time2=1000");
	fx_at(fx, 500);
	id = fx_move(fx, 1, id, "2=4", "time1=800 time2=900");
	fx_at(fx, 500 + 790);
	fx_move(fx, 0, id, "1=3", "time1=110 time2=900");
	/* bob: 900 + grace from 1290; lost at 2691, not at 2690. */
	fx_lost_at(fx, 1290 + 900 + GRACE);
	fx_expect_both(fx, "gameover first timeout");
}

/*
 * The clock stops when the answer reached the socket (lobby_rx_time),
 * not when the lobby processed it; without a stamp, when processed.
 */
static void
test_rx_time(void **state)
{
	struct fx	*fx = *state;
	unsigned long	 id = fx->id0;

	fx_at(fx, 700);
	lobby_rx_time(fx->lc[0], NS(T0 + 300));
	id = fx_move(fx, 0, id, "1=4", "time1=800 time2=1000");
	/* An answer stamped before its genmove was written costs nothing. */
	fx_at(fx, 900);
	lobby_rx_time(fx->lc[1], NS(T0 + 650));
	id = fx_move(fx, 1, id, "2=4", "time1=800 time2=1100");
	/* No stamp (0): charged up to the processing time. */
	fx_at(fx, 1150);
	lobby_rx_time(fx->lc[0], 0);
	fx_move(fx, 0, id, "1=3", "time1=650 time2=1100");
}

/*
 * A seat away keeps its clock running: resume reports what is left and
 * the game is still lost on time at base + grace + 1 ms.
 */
static void
test_resume(void **state)
{
	struct fx	*fx = *state;
	struct buf	 body;
	int64_t		 gid;
	int		 seat;

	fx_at(fx, 100);
	fx_drop(fx, 0);
	fx_expect(fx, 1, "event disconnected 1 1");
	fx_at(fx, 400);
	fx_login(fx, 2, "alice", 0);
	buf_init(&body);
	fx_cmd_ok(lobby_resume(fx->lc[2], "1", &gid, &seat, &body), &body, "");
	assert_int_equal(gid, 1);
	assert_int_equal(seat, 1);
	buf_free(&body);
	fx_expect(fx, 1, "event reconnected 1 1");
	fx_expect(fx, 2, "event start 1 alice bob you=1 token=");
	fx_expect(fx, 2, "new nim 5 5");
	fx_expect(fx, 2, "genmove time1=600 time2=1000");
	fx_lost_at(fx, BASE + GRACE);
	fx_expect(fx, 2, "gameover second timeout");
	fx_expect(fx, 1, "gameover second timeout");
}

/* Nobody comes back: the seat away loses on time all the same. */
static void
test_away_timeout(void **state)
{
	struct fx	*fx = *state;

	fx_drop(fx, 0);
	fx_expect(fx, 1, "event disconnected 1 1");
	fx_lost_at(fx, BASE + GRACE);
	fx_expect(fx, 1, "gameover second timeout");
}

/*
 * The loop was late (stalled): the timer runs after the due time, so an
 * answer read in this round of the loop may have reached the socket in
 * time.  The timer waits one round for it.
 */
static void
test_stalled_loop(void **state)
{
	struct fx	*fx = fx_new(0);
	unsigned long	 id;

	(void)state;
	id = fx_game(fx);
	vclock_stall(fx->vc, BASE + GRACE + 21);
	assert_int_equal(vclock_run(fx->vc), 1);	/* late: re-armed */
	assert_true(fx_live(fx));
	lobby_rx_time(fx->lc[0], NS(T0 + 1400));
	fx_move(fx, 0, id, "1=4", "time1=100 time2=1000");
	assert_int_equal(vclock_run(fx->vc), 0);	/* now bob's */
	assert_true(fx_live(fx));
	fx_free(fx);

	/* No answer in that round: lost on time at the next. */
	fx = fx_new(0);
	fx_game(fx);
	vclock_stall(fx->vc, BASE + GRACE + 21);
	assert_int_equal(vclock_run(fx->vc), 1);
	assert_true(fx_live(fx));
	assert_int_equal(vclock_run(fx->vc), 1);
	fx_pump(fx);
	assert_false(fx_live(fx));
	fx_expect(fx, 0, "gameover second timeout");
	fx_free(fx);

	/*
	 * Run at most LOBBY_LAG_MS (20) after base + grace: not late, no
	 * second round; 1 ms more is late (the first case).
	 */
	fx = fx_new(0);
	fx_game(fx);
	vclock_stall(fx->vc, BASE + GRACE + 20);
	assert_int_equal(vclock_run(fx->vc), 1);
	fx_pump(fx);
	assert_false(fx_live(fx));
	fx_expect(fx, 0, "gameover second timeout");
	fx_free(fx);
}

/* Checks the start of a tournament's standings, as `standings` writes them. */
static void
fx_standings(struct fx *fx, const char *want)
{
	struct lobby_tresults tr;
	struct buf	 body;

	buf_init(&body);
	fx_cmd_ok(lobby_tour_results(fx->lb, "cup", &tr, &body), &body, "");
	buf_printf(&body, "status %s\nplayed %zu of %zu\n",
	    lobby_tour_status(tr.status), tr.played, tr.total);
	cmd_results_standings(&body, &tr.r);
	results_free(&tr.r);
	if (strncmp(buf_str(&body), want, strlen(want)) != 0)
		fail_msg("standings \"%s\", expected \"%s\"", buf_str(&body),
		    want);
	buf_free(&body);
}

/*
 * Checks that a game of the tournament of fx_tour starts, alice first;
 * returns alice's genmove id.
 */
static unsigned long
fx_tour_game(struct fx *fx, int gid)
{
	char		 start[64];
	unsigned long	 id = 0;
	int		 seat;

	for (seat = 1; seat <= 2; seat++) {
		snprintf(start, sizeof start, "event start %d alice bob "
		    "you=%d token=", gid, seat);
		fx_expect(fx, seat - 1, start);
		fx_expect(fx, seat - 1, "new nim 1");
		if (seat == 1)
			id = fx_expect(fx, 0, "genmove time1=1000 "
			    "time2=1000");
	}
	fx_quiet(fx, 0);
	fx_quiet(fx, 1);
	return (id);
}

/*
 * Fills the round robin "cup" of alice and p2 on game, games per pair,
 * tc 1000, seed 1 (the lobby takes d over).
 */
static void
fx_tour_def(struct league_tournament *d, const char *p2, const char *game,
    unsigned int games)
{
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "cup");
	d->format = LEAGUE_ROUNDROBIN;
	d->games_per_pair = games;
	d->base_ms = 1000;
	d->seed = 1;
	d->game = xstrdup(game);
	d->players = xcalloc(2, sizeof *d->players);
	d->players[0] = xstrdup("alice");
	d->players[1] = xstrdup(p2);
	d->nplayers = 2;
}

/*
 * Registers alice and bob, logs them in (connections 0 and 1, ready) and
 * root (2, admin), who creates a round robin "cup" of them with games
 * per pair on "nim 1" with a tc of 1000 (tournament create cup roundrobin
 * players=alice,bob games=GAMES tc=1000 nim 1, as cmd-lobby.c parses it);
 * checks that its first game starts, alice first; returns alice's genmove
 * id.
 */
static unsigned long
fx_tour(struct fx *fx, unsigned int games)
{
	struct league_tournament d;
	struct buf	 body;
	char		 err[256];
	size_t		 nslots;

	assert_int_equal(league_register(fx->lg, "alice", "correct-horse",
	    err, sizeof err), 0);
	assert_int_equal(league_register(fx->lg, "bob", "correct-horse",
	    err, sizeof err), 0);
	fx_login(fx, 0, "alice", 0);
	fx_login(fx, 1, "bob", 0);
	fx_login(fx, 2, "root", 1);
	buf_init(&body);
	fx_cmd_ok(lobby_ready(fx->lc[0], 1, &body), &body, "");
	fx_cmd_ok(lobby_ready(fx->lc[1], 1, &body), &body, "");
	fx_tour_def(&d, "bob", "nim 1", games);
	assert_int_equal(league_tournament_create(fx->lg, &d, err,
	    sizeof err), 0);		/* on a worker in the daemon */
	lobby_tour_add(fx->lc[2], &d, &nslots);
	assert_int_equal(d.id, 1);
	assert_int_equal(nslots, games);
	buf_free(&body);
	return (fx_tour_game(fx, 1));
}

/*
 * A tournament starts its second game (colours swapped) when the first
 * ends, not before; a game lost on time counts like any other.
 */
static void
test_tournament(void **state)
{
	struct fx	*fx = fx_new(1);
	unsigned long	 id;

	(void)state;
	id = fx_tour(fx, 2);
	fx_standings(fx, "status running\nplayed 0 of 2\n");
	fx_at(fx, 200);
	fx_quiet(fx, 0);
	fx_quiet(fx, 1);
	fx_answer(fx, 0, id, "1=0");
	/* The game ended, the log (none here) has it: the next one starts. */
	fx_expect(fx, 1, "play 1=0 time1=800 time2=1000");
	fx_expect_both(fx, "gameover first no-legal-move");
	fx_expect(fx, 0, "event start 2 bob alice you=2 token=");
	fx_expect(fx, 0, "new nim 1");
	fx_quiet(fx, 0);
	fx_expect(fx, 1, "event start 2 bob alice you=1 token=");
	fx_expect(fx, 1, "new nim 1");
	fx_expect(fx, 1, "genmove time1=1000 time2=1000");
	fx_quiet(fx, 1);
	fx_standings(fx, "status running\nplayed 1 of 2\n");
	/* bob does not answer: alice wins the second game on time. */
	fx_at(fx, 200 + BASE + GRACE);
	fx_quiet(fx, 0);
	fx_at(fx, 200 + BASE + GRACE + 1);
	fx_expect_both(fx, "gameover second timeout");
	fx_standings(fx, "status finished\nplayed 2 of 2\ntiebreaks de,sb,win\n1 alice points 2 "
	    "games 2 wins 2 losses 0 de - sb 0 win 2\n2 bob points 0 games 2 "
	    "wins 0 losses 2 de - sb 0 win 0\n");
	fx_free(fx);
}

/*
 * A tournament's game that an admin aborts (no result) is played again,
 * same seats, as soon as it is logged; only the replay counts.
 */
static void
test_tournament_abort(void **state)
{
	struct fx	*fx = fx_new(1);
	struct buf	 body;
	unsigned long	 id;

	(void)state;
	(void)fx_tour(fx, 1);
	buf_init(&body);
	fx_cmd_ok(lobby_end(fx->lc[2], "1", 0, "test", &body), &body, "");
	fx_quiet(fx, 0);		/* not before the log has the end */
	fx_pump(fx);
	fx_expect_both(fx, "gameover - aborted by root: test");
	/* The same game again, alice first: not counted, not finished. */
	id = fx_tour_game(fx, 2);
	fx_standings(fx, "status running\nplayed 0 of 1\n");
	fx_answer(fx, 0, id, "1=0");
	fx_expect(fx, 1, "play 1=0 time1=1000 time2=1000");
	fx_expect_both(fx, "gameover first no-legal-move");
	fx_quiet(fx, 0);
	fx_quiet(fx, 1);
	fx_standings(fx, "status finished\nplayed 1 of 1\ntiebreaks de,sb,win\n1 alice points 1 "
	    "games 1 wins 1 losses 0 de - sb 0 win 1\n2 bob points 0 games 1 "
	    "wins 0 losses 1 de - sb 0 win 0\n");
	buf_free(&body);
	fx_free(fx);
}

/*
 * The engine as a tournament player: its move is handed to a worker
 * (lobby_io.work), not made on the loop, and played when it comes back;
 * one that comes back after its game was aborted is dropped.
 */
static void
test_tournament_engine(void **state)
{
	struct fx	*fx = fx_new(1);
	struct league_tournament d;
	struct buf	 body;
	char		 err[256];
	size_t		 nslots;
	unsigned long	 id;

	(void)state;
	assert_int_equal(league_register(fx->lg, "alice", "correct-horse",
	    err, sizeof err), 0);
	fx_login(fx, 0, "alice", 0);
	fx_login(fx, 2, "root", 1);
	buf_init(&body);
	fx_cmd_ok(lobby_ready(fx->lc[0], 1, &body), &body, "");
	fx_tour_def(&d, "engine", "nim 2 2", 1);
	assert_int_equal(league_tournament_create(fx->lg, &d, err,
	    sizeof err), 0);		/* on a worker in the daemon */
	lobby_tour_add(fx->lc[2], &d, &nslots);
	fx_expect(fx, 0, "event start 1 alice engine you=1 token=");
	fx_expect(fx, 0, "new nim 2 2");
	id = fx_expect(fx, 0, "genmove time1=1000 time2=1000");
	fx_answer(fx, 0, id, "1=0");
	/* The engine's turn: on a worker, nothing played yet. */
	assert_int_equal(fx->nwork, 1);
	fx_quiet(fx, 0);
	/* An abort meanwhile: the late answer is dropped. */
	fx_cmd_ok(lobby_end(fx->lc[2], "1", 0, "test", &body), &body, "");
	fx_pump(fx);
	fx_expect(fx, 0, "gameover - aborted by root: test");
	fx_work_run(fx);
	fx_pump(fx);
	/* The game again (aborted: replayed); this time the move comes. */
	fx_expect(fx, 0, "event start 2 alice engine you=1 token=");
	fx_expect(fx, 0, "new nim 2 2");
	id = fx_expect(fx, 0, "genmove time1=1000 time2=1000");
	fx_quiet(fx, 0);
	fx_answer(fx, 0, id, "1=0");
	assert_int_equal(fx->nwork, 1);
	fx_quiet(fx, 0);
	fx_work_run(fx);
	fx_pump(fx);
	fx_expect(fx, 0, "play 2=0 ");
	fx_expect(fx, 0, "gameover second no-legal-move");
	fx_quiet(fx, 0);
	fx_standings(fx, "status finished\nplayed 1 of 1\ntiebreaks de,sb,win\n1 engine points 1 "
	    "games 1 wins 1 losses 0 de - sb 0 win 1\n2 alice points 0 games 1 "
	    "wins 0 losses 1 de - sb 0 win 0\n");
	buf_free(&body);
	fx_free(fx);
}

/* The virtual clock fires timers at their due time, in order. */
static void
fire(void *arg)
{
	struct buf	*b = arg;

	buf_putc(b, 'x');
}

/* The virtual clock itself: due times, re-arming, cancelling. */
static void
test_vclock(void **state)
{
	struct vclock	*vc = vclock_new(50);
	struct clock_ops ops;
	struct clock_timer *t;
	struct buf	 b;
	uint64_t	 due;

	(void)state;
	buf_init(&b);
	vclock_ops(vc, &ops);
	t = ops.timer_new(ops.arg, fire, &b);
	assert_int_equal(vclock_next(vc, &due), 0);
	ops.arm(ops.arg, t, 10);
	assert_int_equal(vclock_next(vc, &due), 1);
	assert_true(due == 60);
	assert_int_equal(vclock_advance(vc, 9), 0);
	assert_true(ops.now(ops.arg) == 59);
	assert_int_equal(vclock_advance(vc, 1), 1);
	assert_int_equal(vclock_advance(vc, 100), 0);
	ops.arm(ops.arg, t, 5);
	ops.arm(ops.arg, t, 20);	/* re-armed: the later time holds */
	assert_int_equal(vclock_advance(vc, 19), 0);
	ops.cancel(ops.arg, t);
	assert_int_equal(vclock_advance(vc, 100), 0);
	assert_string_equal(buf_str(&b), "x");
	ops.timer_free(ops.arg, t);
	vclock_free(vc);
	buf_free(&b);
}

/*
 * Checks the move lines of game 1's record: "move PLY ..." from the
 * first one on, each line of want a move's "MARK TIME_MS DELAY_US
 * TIME_US" after its "move PLY PLAYER MOVE ".
 */
static void
fx_record_moves(struct fx *fx, const char *want)
{
	struct buf	 b;
	const char	*m;

	assert_int_equal(store_flush(fx->db->st), 0);
	buf_init(&b);
	assert_int_equal(cmd_history_record(fx->db->st, 1, &b), 1);
	if ((m = strstr(buf_str(&b), "\nmove ")) == NULL ||
	    strncmp(m + 1, want, strlen(want)) != 0)
		fail_msg("record \"%s\", expected moves \"%s\"", buf_str(&b),
		    want);
	buf_free(&b);
}

/*
 * The clock starts when the genmove left (the first send stamp after it
 * was queued, lobby_tx_time), not when it was queued, and stops at the
 * answer's receive stamp: the charged time is rx - tx to the
 * microsecond, and the record has it (TIME_US) next to the server's own
 * delay of the turn, from the previous answer's receive stamp (the game's
 * start for the first move) to the genmove's send stamp (DELAY_US).
 * Later send stamps (other output) and the other seat's stamps do not
 * move a clock's start, and a send stamp moves it by at most 20 ms.
 */
static void
test_tx_time(void **state)
{
	struct fx	*fx = fx_new(2);
	unsigned long	 id;

	(void)state;
	id = fx_game(fx);		/* alice's genmove queued at T0 */
	lobby_tx_time(fx->lc[1], NS(T0 + 1));	/* bob's output: no effect */
	lobby_tx_time(fx->lc[0], NS(T0 + 3) + 456000);	/* it left */
	lobby_tx_time(fx->lc[0], NS(T0 + 4));	/* later output */
	fx_at(fx, 10);
	lobby_rx_time(fx->lc[0], NS(T0 + 4) + 690000);
	/* 1000 - 1.234 + 100 ms left */
	id = fx_move(fx, 0, id, "1=4", "time1=1098 time2=1000");
	lobby_tx_time(fx->lc[1], NS(T0 + 10) + 70000);
	lobby_tx_time(fx->lc[0], NS(T0 + 11));
	lobby_tx_time(fx->lc[1], NS(T0 + 12));
	fx_at(fx, 20);
	lobby_rx_time(fx->lc[1], NS(T0 + 12) + 500000);
	id = fx_move(fx, 1, id, "2=4", "time1=1098 time2=1097");
	/*
	 * Left 50 ms after it was queued (at 20): it waited on its client (a
	 * full socket), so the clock starts 20 ms (LOBBY_TX_MAX_MS) after.
	 */
	lobby_tx_time(fx->lc[0], NS(T0 + 70));
	fx_at(fx, 80);
	lobby_rx_time(fx->lc[0], NS(T0 + 80));
	fx_move(fx, 0, id, "1=3", "time1=1158 time2=1097");
	fx_record_moves(fx, "move 1 1 1=4 no-win 1 3456 1234\n"
	    "move 2 2 2=4 kept-win 2 5380 2430\n"
	    "move 3 1 1=3 no-win 40 27500 40000\n");
	fx_free(fx);
}

/*
 * A genmove held while its client's command runs has not left: a send
 * stamp meanwhile does not start the clock; without any stamp the clock
 * runs from when the genmove was queued, and an answer stamped before
 * that costs 0.
 */
static void
test_tx_held(void **state)
{
	struct fx	*fx = fx_new(2);
	struct buf	 out;
	unsigned long	 id;

	(void)state;
	id = fx_game(fx);
	lobby_hold(fx->lc[0]);
	lobby_tx_time(fx->lc[0], NS(T0 + 2));	/* held: not sent */
	buf_init(&out);
	lobby_release(fx->lc[0], &out);
	buf_free(&out);
	fx_at(fx, 9);
	lobby_rx_time(fx->lc[0], NS(T0 + 7) + 1000);
	id = fx_move(fx, 0, id, "1=4", "time1=1092 time2=1000");
	fx_at(fx, 30);
	lobby_rx_time(fx->lc[1], NS(T0 + 8));	/* before its genmove */
	fx_move(fx, 1, id, "2=4", "time1=1092 time2=1100");
	fx_record_moves(fx, "move 1 1 1=4 no-win 7 0 7001\n"
	    "move 2 2 2=4 kept-win 0 1999 0\n");
	fx_free(fx);
}

/*
 * A move logged without microseconds (store_move: a §8 match, or a
 * move logged before they were kept) reads as TIME_MS * 1000; one with
 * them and no delay has DELAY_US "-".
 */
static void
test_record_us(void **state)
{
	static const struct {
		const char	*move, *position;
		unsigned long	 time_ms;
		enum store_mark	 mark;
		long		 delay_us;	/* -1: none */
		long long	 time_us;	/* -1: store_move */
	} mv[] = {
		{ "1=4", "nim 4 5", 12, STORE_NO_WIN, -1, -1 },
		{ "2=4", "nim 4 4", 3, STORE_KEPT_WIN, -1, 3999 },
		{ "1=3", "nim 3 4", 3, STORE_NO_WIN, 17, -1 },
	};
	struct fx	*fx = fx_new(2);
	struct store_game sg;
	struct store_move sm;
	size_t		 i;

	(void)state;
	memset(&sg, 0, sizeof sg);
	sg.family = "nim";
	sg.game = "nim 5 5";
	sg.player1 = "alice";
	sg.player2 = "engine";
	assert_int_equal(store_game_begin(fx->db->st, &sg), 1);
	for (i = 0; i < sizeof mv / sizeof mv[0]; i++) {
		memset(&sm, 0, sizeof sm);
		sm.ply = i + 1;
		sm.player = (int)(i % 2) + 1;
		sm.move = mv[i].move;
		sm.position = mv[i].position;
		sm.time_ms = mv[i].time_ms;
		sm.mark = mv[i].mark;
		sm.has_delay = mv[i].delay_us >= 0;
		sm.delay_us = mv[i].delay_us >= 0 ?
		    (unsigned long)mv[i].delay_us : 0;
		if (mv[i].time_us >= 0)
			store_move_us(fx->db->st, 1, &sm, mv[i].time_us);
		else
			store_move(fx->db->st, 1, &sm);
	}
	fx_record_moves(fx, "move 1 1 1=4 no-win 12 - 12000\n"
	    "move 2 2 2=4 kept-win 3 - 3999\n"
	    "move 3 1 1=3 no-win 3 17 3000\n");
	fx_free(fx);
}

/* A test that starts with fx_game's game. */
#define GAME_TEST(f)	cmocka_unit_test_setup_teardown(f, fx_setup_game, \
			    fx_teardown)

TU_MAIN("lobby-clock",
    cmocka_unit_test(test_vclock),
    GAME_TEST(test_timeout_exact),
    GAME_TEST(test_grace),
    GAME_TEST(test_increment),
    GAME_TEST(test_rx_time),
    cmocka_unit_test(test_tx_time),
    cmocka_unit_test(test_tx_held),
    cmocka_unit_test(test_record_us),
    GAME_TEST(test_resume),
    GAME_TEST(test_away_timeout),
    cmocka_unit_test(test_stalled_loop),
    cmocka_unit_test(test_tournament),
    cmocka_unit_test(test_tournament_abort),
    cmocka_unit_test(test_tournament_engine))
