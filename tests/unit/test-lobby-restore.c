/*
 * test-lobby-restore.c: a live game restored from the log (issue 15 §2,
 * lobby-restore.c) on a virtual clock, on SQLite or, with SQLDB_PG_URL,
 * PostgreSQL.  A game is written to the log as a crashed daemon leaves it
 * (begun, moves committed, no end); the store is opened again keeping it
 * live (takeover on) and lobby_restore brings it back.  The clock rule:
 * the seat to move has what its clock held after its last committed move
 * (the charged times replayed, increments, the clamp at 0), and its clock
 * runs from the restore as for a disconnected seat: resume reports it,
 * and an absent seat loses on time at clock + grace exactly.  Moves go on
 * at the next ply; the end is logged once.  A record that does not replay,
 * or an anonymous seat, is abandoned with the reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "testdb.h"

#include "lib/buf.h"
#include "lib/clock.h"
#include "lobby/lobby.h"
#include "proto/proto.h"
#include "solver/referee.h"
#include "store/store.h"

#define T0		5000000		/* the virtual clock's start, ms */
#define GRACE		500		/* clock_grace, ms */
#define NQ		64

/* The lobby on a virtual clock, two connections, the deferred calls. */
struct rfx {
	struct fixture	*db;
	struct vclock	*vc;
	struct lobby	*lb;
	struct buf	 out[2];
	struct lobby_client *lc[2];
	struct {
		void	 (*fn)(void *);
		void	*arg;
	}		 q[NQ];		/* deferred calls, in order */
	size_t		 n;
};

static void
rfx_send(void *arg, void *conn, const char *data, size_t len)
{
	(void)arg;
	buf_add(conn, data, len);
}

static void
rfx_defer(void *arg, void (*fn)(void *), void *fnarg)
{
	struct rfx	*fx = arg;

	if (fx->n == NQ)
		fail_msg("more than %d deferred calls", NQ);
	fx->q[fx->n].fn = fn;
	fx->q[fx->n++].arg = fnarg;
}

/* Runs the deferred calls in order until none is left. */
static void
rfx_pump(struct rfx *fx)
{
	size_t	 i;

	for (i = 0; i < fx->n; i++)
		fx->q[i].fn(fx->q[i].arg);
	fx->n = 0;
}

/* Opens the store keeping live games live: a start with takeover on. */
static void
rfx_store(struct rfx *fx)
{
	struct store_config cf;
	char		 err[512];

	store_config_default(&cf);
	cf.keep_live = 1;
	if ((fx->db->st = store_open_config(fx->db->path, &cf, err,
	    sizeof err)) == NULL)
		fail_msg("store_open %s: %s", fx->db->path, err);
}

static int
rfx_setup(void **state)
{
	struct rfx	*fx = xcalloc(1, sizeof *fx);
	void		*db;

	assert_int_equal(tdb_setup(&db, "test-lobby-restore"), 0);
	fx->db = db;
	tdb_reset(fx->db);
	buf_init(&fx->out[0]);
	buf_init(&fx->out[1]);
	rfx_store(fx);
	*state = fx;
	return (0);
}

static int
rfx_teardown(void **state)
{
	struct rfx	*fx = *state;
	void		*db = fx->db;
	int		 i;

	for (i = 0; i < 2; i++)
		if (fx->lc[i] != NULL)
			lobby_detach(fx->lc[i], "end");
	if (fx->lb != NULL) {
		rfx_pump(fx);
		lobby_free(fx->lb);
		store_flush(fx->db->st);
	}
	if (fx->vc != NULL)
		vclock_free(fx->vc);
	buf_free(&fx->out[0]);
	buf_free(&fx->out[1]);
	tdb_teardown(&db);
	free(fx);
	return (0);
}

/* The daemon's restart: the store again (keeping live games), a lobby. */
static void
rfx_restart(struct rfx *fx)
{
	struct lobby_conf conf = { .default_base_ms = 60000,
	    .grace_ms = GRACE, .max_seeks = 4, .max_watchers = 4 };
	struct lobby_io	 io = { .arg = fx, .send = rfx_send,
	    .defer = rfx_defer };	/* no work: restores run inline */
	struct clock_ops ops;
	char		 err[512];

	assert_int_equal(store_flush(fx->db->st), 0);
	store_close(fx->db->st);
	rfx_store(fx);
	conf.lim = *tu_limits();
	if ((fx->lb = lobby_new(NULL, fx->db->st, NULL, &io, &conf, err,
	    sizeof err)) == NULL)
		fail_msg("lobby_new: %s", err);
	fx->vc = vclock_new(T0);
	vclock_ops(fx->vc, &ops);
	lobby_set_clock(fx->lb, &ops);
}

/*
 * Logs a game of nim 5 5 between p1 and p2 (tc 1000+100) with the moves
 * texts[] and their charged µs, as a crash leaves it: no end.  A move
 * "!POS" is logged with a wrong position after it.  Returns its id.
 */
static int64_t
rfx_log(struct rfx *fx, const char *p1, const char *p2,
    const char *const *texts, const long long *us, size_t n)
{
	struct store_game sg;
	struct store_move sm;
	struct game_error err;
	struct game_move m;
	struct game	 g;
	struct buf	 mv, pos;
	int64_t		 id;
	size_t		 i;

	memset(&sg, 0, sizeof sg);
	sg.family = "nim";
	sg.game = "nim 5 5";
	sg.player1 = p1;
	sg.player2 = p2;
	sg.tc = "1000+100";
	id = store_game_begin(fx->db->st, &sg);
	assert_true(id > 0);
	tu_parse(&g, "nim 5 5");
	buf_init(&mv);
	buf_init(&pos);
	for (i = 0; i < n; i++) {
		game_move_init(&m);
		buf_reset(&mv);
		buf_reset(&pos);
		assert_int_equal(referee_parse_move(&g, texts[i] +
		    (texts[i][0] == '!'), NULL, tu_limits(), &m, &err), 0);
		assert_int_equal(game_play_print(&g, &m, &mv, &pos, &err), 0);
		game_move_clear(&m);
		memset(&sm, 0, sizeof sm);
		sm.ply = i + 1;
		sm.player = (int)(i % 2) + 1;
		sm.move = buf_str(&mv);
		sm.position = texts[i][0] == '!' ? "nim 9 9" : buf_str(&pos);
		sm.time_ms = (unsigned long)(us[i] / 1000);
		sm.mark = STORE_NO_WIN;
		store_move_us(fx->db->st, id, &sm, us[i]);
	}
	buf_free(&mv);
	buf_free(&pos);
	game_free(&g);
	return (id);
}

/* The record of game id as the record command gives it. */
static void
rfx_record(struct rfx *fx, int64_t id, struct buf *b)
{
	buf_reset(b);
	assert_int_equal(store_flush(fx->db->st), 0);
	assert_int_equal(text_record(fx->db->st, id, b), 1);
}

/* Checks that b holds want (a substring), or fails showing b. */
static void
rfx_has(struct buf *b, const char *want)
{
	if (strstr(buf_str(b), want) == NULL)
		fail_msg("expected \"%s\" in:\n%s", want, buf_str(b));
}

/* The id of the genmove b holds. */
static unsigned long
rfx_genmove_id(struct buf *b)
{
	const char	*p = strstr(buf_str(b), " genmove "), *q;

	assert_non_null(p);
	for (q = p; q > buf_str(b) && q[-1] != '\n'; q--)
		;
	return (strtoul(q, NULL, 10));
}

/* Restores game id and runs its end on the loop. */
static void
rfx_restore(struct rfx *fx, int64_t id)
{
	assert_int_equal(lobby_restore(fx->lb, id, 3), 0);
	assert_int_equal(lobby_restore(fx->lb, id, 3), -1);	/* in flight */
	rfx_pump(fx);
}

/*
 * The clock rule: alice 1000 - 300 + 100 = 800, then 1200 charged (in the
 * grace) clamps it to 0 + 100; bob 1000 - 250 + 100 = 850, to move.
 */
static void
test_clock_rule(void **state)
{
	static const char *const mv[] = { "1=4", "2=3", "1=1" };
	static const long long us[] = { 300000, 250000, 1200000 };
	struct rfx	*fx = *state;
	struct proto_answer a;
	struct buf	 rec, err;
	char		 sid[32], want[128];
	int64_t		 id, gid;
	int		 seat;

	id = rfx_log(fx, "alice", "bob", mv, us, 3);
	rfx_restart(fx);
	rfx_restore(fx, id);
	assert_int_equal(lobby_restore(fx->lb, id, 3), -1);	/* live here */
	fx->lc[1] = lobby_attach(fx->lb, &fx->out[1], 2);
	lobby_login(fx->lc[1], "bob", 0);
	lobby_login_live(fx->lc[1]);
	snprintf(want, sizeof want, "event live %lld alice bob you=2 "
	    "tc=1000+100 rated=0 nim 5 5\n", (long long)id);
	rfx_has(&fx->out[1], want);
	/* Absent 200 ms: charged, as for any disconnected seat. */
	vclock_advance(fx->vc, 200);
	buf_init(&err);
	snprintf(sid, sizeof sid, "%lld", (long long)id);
	assert_int_equal(lobby_resume(fx->lc[1], sid, &gid, &seat, &err), 0);
	assert_int_equal(gid, id);
	assert_int_equal(seat, 2);
	rfx_has(&fx->out[1], " new nim 1 3\n");
	rfx_has(&fx->out[1], " genmove time1=100 time2=650\n");
	/* bob moves 100 ms later: 300 charged since the restore. */
	vclock_advance(fx->vc, 100);
	memset(&a, 0, sizeof a);
	a.ok = 1;
	a.has_id = 1;
	a.id = rfx_genmove_id(&fx->out[1]);
	a.lines = 1;
	buf_init(&a.body);
	buf_puts(&a.body, "2=1");
	assert_int_equal(lobby_answer(fx->lc[1], &a), 1);
	buf_free(&a.body);
	/* alice, absent, loses at her 100 + the grace exactly. */
	vclock_advance(fx->vc, 100 + GRACE);
	buf_init(&rec);
	rfx_record(fx, id, &rec);
	rfx_has(&rec, "status live\n");
	vclock_advance(fx->vc, 2);
	rfx_record(fx, id, &rec);
	rfx_pump(fx);
	rfx_has(&rec, "move 3 1 1=1 no-win 1200 - 1200000\n"
	    "move 4 2 2=1 kept-win 300 0 300000\nended ");
	rfx_has(&rec, "result second timeout\nstatus finished\n");
	assert_null(strstr(buf_str(&rec), "move 5 "));
	rfx_has(&fx->out[1], " gameover second timeout\n");
	buf_free(&rec);
	buf_free(&err);
}

/*
 * Logs alice's and bob's two moves mv (charged us), restarts, restores
 * the game and reads its record into rec (initialised here); returns its
 * id.
 */
static int64_t
rfx_two(struct rfx *fx, const char *const *mv, const long long *us,
    struct buf *rec)
{
	int64_t		 id = rfx_log(fx, "alice", "bob", mv, us, 2);

	rfx_restart(fx);
	rfx_restore(fx, id);
	buf_init(rec);
	rfx_record(fx, id, rec);
	rfx_pump(fx);
	return (id);
}

/* A position after a move that differs from the log's: abandoned. */
static void
test_bad_position(void **state)
{
	static const char *const mv[] = { "1=4", "!2=3" };
	static const long long us[] = { 1000, 1000 };
	struct rfx	*fx = *state;
	struct buf	 rec;

	(void)rfx_two(fx, mv, us, &rec);
	rfx_has(&rec, "result - restore-failed ply 2: the position after "
	    "\"2=3\" differs from the log's\nstatus abandoned\n");
	fx->lc[0] = lobby_attach(fx->lb, &fx->out[0], 1);
	lobby_login(fx->lc[0], "alice", 0);
	lobby_login_live(fx->lc[0]);
	assert_null(strstr(buf_str(&fx->out[0]), "event live"));
	buf_free(&rec);
}

/*
 * The crash came between the last move's commit and the end's: the
 * restore ends the game at once, with the referee's result, logged once.
 */
static void
test_over_at_restore(void **state)
{
	static const char *const mv[] = { "1=0", "2=0" };	/* nim 0 0 */
	static const long long us[] = { 1000, 2000 };
	struct buf	 rec;
	int64_t		 id = rfx_two(*state, mv, us, &rec);
	struct rfx	*fx = *state;

	rfx_has(&rec, "move 2 2 2=0 no-win 2 - 2000\nended ");
	rfx_has(&rec, "result second no-legal-move\nstatus finished\n");
	assert_int_equal(lobby_restore(fx->lb, id, 3), 0);	/* not live */
	rfx_pump(fx);
	rfx_record(fx, id, &rec);
	rfx_has(&rec, "result second no-legal-move\nstatus finished\n");
	buf_free(&rec);
}

/* Logs a game with one move (p1's) and no end; returns its id. */
static int64_t
rfx_one(struct rfx *fx, const char *p1)
{
	static const char *const mv[] = { "1=4" };
	static const long long us[] = { 1000 };

	return (rfx_log(fx, p1, "bob", mv, us, 1));
}

/* An anonymous seat cannot resume by account: abandoned, saying so. */
static void
test_anonymous(void **state)
{
	struct rfx	*fx = *state;
	struct buf	 rec;
	int64_t		 id = rfx_one(fx, "anon:17:3");

	rfx_restart(fx);
	rfx_restore(fx, id);
	buf_init(&rec);
	rfx_record(fx, id, &rec);
	rfx_has(&rec, "result - restore-failed seat 1 (anon:17:3) is "
	    "anonymous: it cannot resume by account\nstatus abandoned\n");
	buf_free(&rec);
}

/* A game that is not live is left alone; no log: no restore. */
static void
test_not_live(void **state)
{
	struct rfx	*fx = *state;
	struct buf	 rec;
	int64_t		 id = rfx_one(fx, "alice");

	store_game_end(fx->db->st, id, STORE_RESULT_FIRST, "resign",
	    STORE_FINISHED, NULL, NULL);
	rfx_restart(fx);
	assert_int_equal(lobby_restore(fx->lb, id, 1), 0);
	rfx_pump(fx);
	buf_init(&rec);
	rfx_record(fx, id, &rec);
	rfx_has(&rec, "result first resign\nstatus finished\n");
	assert_int_equal(lobby_restore(fx->lb, 0, 1), -1);
	buf_free(&rec);
}

#define RESTORE_TEST(f)	cmocka_unit_test_setup_teardown(f, rfx_setup, \
			    rfx_teardown)

TU_MAIN("lobby-restore",
    RESTORE_TEST(test_clock_rule),
    RESTORE_TEST(test_over_at_restore),
    RESTORE_TEST(test_bad_position),
    RESTORE_TEST(test_anonymous),
    RESTORE_TEST(test_not_live))
