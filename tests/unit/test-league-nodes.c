/*
 * test-league-nodes.c: two league handles on one database act as two
 * nodes (issue 15 §1): an account registered on one logs in on the other,
 * a tournament created on one reads the same on the other, two
 * registrations of one name at once (exactly one wins, the other is told
 * the name is taken), a registration that meets another connection's
 * uncommitted insert (PostgreSQL), the failed-login locks (shared on
 * PostgreSQL), the statistics of games written with raw SQL read on the
 * other node, and the database restarted under the league (PostgreSQL).
 * On SQLite (two connections on one file) and on PostgreSQL under
 * tests/e2e/league-pg.sh (test-league-db.h).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "testdb.h"
#include "test-league-db.h"

#include "league/league.h"

#define T0		1000000		/* a fake monotonic clock, ms */
#define RACES		8		/* names raced for, per kind */

static struct league *nodeb;		/* the second node */
static struct sqldb *rawdb;		/* a connection of the test's own */

static int
setup(void **state)
{
	struct fixture	*fx;

	if (tdb_setup(state, "test-league-nodes") != 0)
		return (-1);
	fx = *state;
	lgdb_fresh(fx);
	fx->lg = lgdb_league(fx, 3, 30);
	nodeb = lgdb_league(fx, 3, 30);
	return (0);
}

static int
teardown(void **state)
{
	league_close(nodeb);
	nodeb = NULL;
	sqldb_close(rawdb);		/* its transaction, if any, goes */
	rawdb = NULL;
	return (tdb_teardown(state));
}

/* Registered on one node, the account works on the other, both ways. */
static void
t_accounts(void **state)
{
	struct fixture	*fx = *state;
	char		 err[512];

	reg_ok(fx->lg, "alice");
	assert_int_equal(league_exists(nodeb, "alice"), 1);
	login_is(nodeb, "alice", PASS, T0, 0, "");
	reg_ok(nodeb, "bob");
	login_is(fx->lg, "bob", PASS, T0, 0, "");
	assert_int_equal(league_register(nodeb, "alice", PASS, err,
	    sizeof err), -1);
	assert_string_equal(err, "name alice is taken");
	assert_int_equal(league_register(fx->lg, "BOB", PASS, err,
	    sizeof err), -1);
	assert_string_equal(err, "name BOB is taken: an account with the same "
	    "name in another case exists (look-alike)");
	/* A new password and a disabled account hold on the other node. */
	assert_int_equal(league_reset(fx->lg, "bob", "new-pass-1", err,
	    sizeof err), 0);
	login_is(nodeb, "bob", PASS, T0, -1, "wrong name or password");
	login_is(nodeb, "bob", "new-pass-1", T0, 0, "");
	assert_int_equal(league_disable(nodeb, "alice", "cheat", err,
	    sizeof err), 0);
	login_is(fx->lg, "alice", PASS, T0, -1,
	    "account alice is disabled: cheat");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts"), 2);
	/* The daemon starts: one sequence for both nodes. */
	assert_int_equal(league_start(fx->lg), 1);
	assert_int_equal(league_start(nodeb), 2);
	assert_int_equal(league_start(fx->lg), 3);
}

/* On SQLite (one daemon per database) the locks stay in its memory. */
static void
t_lockout_per_node(void **state)
{
	struct fixture	*fx = *state;
	const char	*wrong = "wrong name or password";

	LGDB_SQLITE_ONLY("the nodes of one PostgreSQL database share their "
	    "locks (t_lockout_shared)");
	reg_ok(fx->lg, "alice");
	login_is(fx->lg, "alice", "bad-pass-1", T0, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-2", T0, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-3", T0, -1, wrong);
	login_is(fx->lg, "alice", PASS, T0 + 1, -1,
	    "too many failed logins for alice: retry in 30 s");
	login_is(nodeb, "alice", PASS, T0 + 1, 0, "");
}

/* Logs in on lg from addr; checks the answer starts with want. */
static void
login_from_starts(struct league *lg, const char *name, const char *pass,
    const char *addr, const char *want)
{
	char	 err[512];
	int	 r;

	err[0] = '\0';
	r = league_login_from(lg, name, pass, addr, T0, err, sizeof err);
	if ((*want == '\0' && r != 0) || (*want != '\0' && (r != -1 ||
	    strncmp(err, want, strlen(want)) != 0)))
		fail_msg("login %s from %s: %d \"%s\", expected \"%s...\"",
		    name, addr, r, err, want);
}

/*
 * The nodes of one PostgreSQL database share their locks (PROTOCOL.md
 * §13.1): a name locked on A is locked on B, on the database's clock (S in
 * "retry in S s" is real time here); a new password lifts it; an address
 * locked on A is locked on B; a lock runs out on B too.
 */
static void
t_lockout_shared(void **state)
{
	struct fixture	*fx = *state;
	struct league_limits lim = { 3, 30, 4 }, quick = { 3, 1, 0 };
	const char	*lk = "too many failed logins for alice: retry in ";
	const char	*ip1 = "127.0.0.1", *ip2 = "127.0.0.2";
	struct timespec	 ts = { 0, 50 * 1000 * 1000 };
	char		 err[512];
	int		 i, r = -1;

	LGDB_PG_ONLY("one daemon per SQLite database: no locks to share");
	league_set_limits(fx->lg, &lim);
	league_set_limits(nodeb, &lim);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	for (i = 0; i < 3; i++)
		login_from_starts(fx->lg, "alice", "bad-pass", ip1,
		    "wrong name or password");
	login_from_starts(nodeb, "alice", PASS, ip1, lk);
	login_from_starts(nodeb, "alice", PASS, ip2, "");
	login_from_starts(nodeb, "bob", PASS, ip1, "");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM login_locks"), 1);
	assert_int_equal(league_reset(nodeb, "alice", "new-pass-1", err,
	    sizeof err), 0);
	login_from_starts(nodeb, "alice", "new-pass-1", ip1, "");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM login_locks"), 0);

	/* Four failures from ip2 (for any names) lock the address. */
	for (i = 0; i < 4; i++)
		login_from_starts(fx->lg, i % 2 ? "x1" : "x2", PASS, ip2,
		    "wrong name or password");
	login_from_starts(nodeb, "bob", PASS, ip2,
	    "too many failed logins from your address: retry in ");
	login_from_starts(nodeb, "bob", PASS, ip1, "");

	/* A one-second lock runs out on the other node. */
	league_set_limits(fx->lg, &quick);
	for (i = 0; i < 3; i++)
		login_from_starts(fx->lg, "bob", "bad-pass", ip1,
		    "wrong name or password");
	login_from_starts(nodeb, "bob", PASS, ip1,
	    "too many failed logins for bob: retry in 1 s");
	for (i = 0; i < 600 && r != 0; i++) {	/* 30 s at most */
		nanosleep(&ts, NULL);
		r = league_login_from(nodeb, "bob", PASS, ip1, T0, err,
		    sizeof err);
	}
	if (r != 0)
		fail_msg("bob still locked on B: %s", err);
}

/* Checks that two tournament lists hold the same tournaments. */
static void
tours_same(struct league_tournament *a, size_t na,
    struct league_tournament *b, size_t nb)
{
	size_t	 i, j;

	assert_int_equal(na, nb);
	for (i = 0; i < na; i++) {
		assert_int_equal(a[i].id, b[i].id);
		assert_string_equal(a[i].name, b[i].name);
		assert_int_equal(a[i].format, b[i].format);
		assert_int_equal(a[i].status, b[i].status);
		assert_string_equal(a[i].game, b[i].game);
		assert_int_equal(a[i].random, b[i].random);
		assert_true(a[i].base_ms == b[i].base_ms);
		assert_true(a[i].inc_ms == b[i].inc_ms);
		assert_true(a[i].seed == b[i].seed);
		assert_int_equal(a[i].games_per_pair, b[i].games_per_pair);
		assert_int_equal(a[i].rounds, b[i].rounds);
		assert_int_equal(a[i].has_sprt, b[i].has_sprt);
		assert_true(a[i].sprt_alpha == b[i].sprt_alpha);
		assert_int_equal(a[i].sprt_verdict, b[i].sprt_verdict);
		assert_int_equal(a[i].nplayers, b[i].nplayers);
		for (j = 0; j < a[i].nplayers; j++) {
			assert_string_equal(a[i].players[j], b[i].players[j]);
			assert_int_equal(a[i].wround[j], b[i].wround[j]);
		}
	}
}

/* A tournament made on one node reads the same on the other. */
static void
t_tournament(void **state)
{
	struct fixture	*fx = *state;
	char		*players[] = { (char *)"alice", (char *)"bob",
			    (char *)"engine" };
	struct league_tournament t, *a, *b;
	size_t		 na, nb;
	char		 err[512];

	reg_ok(fx->lg, "alice");
	reg_ok(nodeb, "bob");
	/* The seed's top bit must survive. */
	t = (struct league_tournament){ .name = "cup", .format = LEAGUE_SWISS,
	    .game = (char *)"nim 3 4 5", .random = 1, .base_ms = 60000,
	    .inc_ms = 250, .games_per_pair = 2, .seed = UINT64_MAX - 7,
	    .rounds = 3, .has_sprt = 1, .sprt_elo0 = 0, .sprt_elo1 = 5,
	    .sprt_alpha = 0.05, .sprt_beta = 0.05, .players = players,
	    .nplayers = 3 };
	if (league_tournament_create(fx->lg, &t, err, sizeof err) != 0)
		fail_msg("create: %s", err);
	assert_int_equal(t.id, 1);
	assert_int_equal(league_tournament_create(nodeb, &t, err, sizeof err),
	    -1);
	assert_string_equal(err, "tournament cup exists");
	t.players = (char *[]){ (char *)"alice", (char *)"dave" };
	t.nplayers = 2;
	snprintf(t.name, sizeof t.name, "cup2");
	assert_int_equal(league_tournament_create(nodeb, &t, err, sizeof err),
	    -1);
	assert_string_equal(err, "no account dave");
	snprintf(t.name, sizeof t.name, "cup");
	t.players = players;
	t.nplayers = 3;

	assert_int_equal(league_tournaments(fx->lg, 1, &a, &na), 0);
	assert_int_equal(league_tournaments(nodeb, 1, &b, &nb), 0);
	assert_int_equal(na, 1);
	assert_true(b[0].seed == UINT64_MAX - 7);
	assert_true(b[0].sprt_alpha == 0.05 && b[0].sprt_elo1 == 5);
	assert_true(b[0].base_ms == 60000 && b[0].inc_ms == 250);
	assert_int_equal(b[0].format, LEAGUE_SWISS);
	tours_same(a, na, b, nb);
	league_tournaments_free(a, na);
	league_tournaments_free(b, nb);

	/* Changed on B (status, verdict, a withdrawal): read on A. */
	assert_int_equal(league_tournament_status(nodeb, t.id,
	    LEAGUE_T_PAUSED), 0);
	assert_int_equal(league_tournament_verdict(nodeb, t.id, 2), 0);
	t.wround = (unsigned int[]){ 0, 2, 0 };
	assert_int_equal(league_tournament_roster(nodeb, &t, err, sizeof err),
	    0);
	assert_int_equal(league_tournaments(fx->lg, 0, &a, &na), 0);
	assert_int_equal(na, 1);
	assert_int_equal(a[0].status, LEAGUE_T_PAUSED);
	assert_int_equal(a[0].sprt_verdict, 2);
	assert_int_equal(a[0].wround[1], 2);
	league_tournaments_free(a, na);
	assert_int_equal(league_tournament_status(fx->lg, t.id,
	    LEAGUE_T_FINISHED), 0);
	assert_int_equal(league_tournaments(nodeb, 0, &b, &nb), 0);
	assert_int_equal(nb, 0);		/* not running any more */
	league_tournaments_free(b, nb);
}

/* One racer: waits at the barrier, registers, keeps the answer. */
struct racer {
	struct league	*lg;
	pthread_barrier_t *bar;
	const char	*name;
	int		 r;
	char		 err[512];
};

static void *
race(void *arg)
{
	struct racer	*rc = arg;

	pthread_barrier_wait(rc->bar);
	rc->r = league_register(rc->lg, rc->name, PASS, rc->err,
	    sizeof rc->err);
	return (NULL);
}

/* Races a registration of n1 on node A against n2 on node B. */
static void
race_one(struct fixture *fx, const char *n1, const char *n2,
    const char *lose1, const char *lose2)
{
	pthread_barrier_t bar;
	struct racer	 r[2] = {
		{ fx->lg, &bar, n1, 0, "" }, { nodeb, &bar, n2, 0, "" } };
	pthread_t	 th[2];
	char		 sql[128];
	int		 i;

	pthread_barrier_init(&bar, NULL, 2);
	for (i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, race, &r[i]), 0);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&bar);
	if (r[0].r + r[1].r != -1)
		fail_msg("%s vs %s: %d \"%s\", %d \"%s\"", n1, n2, r[0].r,
		    r[0].err, r[1].r, r[1].err);
	assert_string_equal(r[0].r == 0 ? r[1].err : r[0].err,
	    r[0].r == 0 ? lose2 : lose1);
	snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM accounts WHERE "
	    "lower(name) = lower('%s')", n1);
	assert_int_equal(lgdb_int(fx, sql), 1);
}

/* Two nodes register one name (or look-alikes) at once: one wins. */
static void
t_register_race(void **state)
{
	struct fixture	*fx = *state;
	char		 a[16], b[16], la[160], lb[160];
	int		 i;

	for (i = 0; i < RACES; i++) {
		snprintf(a, sizeof a, "racer%d", i);
		snprintf(la, sizeof la, "name %s is taken", a);
		race_one(fx, a, a, la, la);
	}
	for (i = 0; i < RACES; i++) {
		snprintf(a, sizeof a, "twin%d", i);
		snprintf(b, sizeof b, "TWIN%d", i);
		snprintf(la, sizeof la, "name %s is taken: an account with the "
		    "same name in another case exists (look-alike)", a);
		snprintf(lb, sizeof lb, "name %s is taken: an account with the "
		    "same name in another case exists (look-alike)", b);
		race_one(fx, a, b, la, lb);
	}
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts"),
	    2 * RACES);
}

/* Registers on node A in a thread of its own. */
static void *
reg_thread(void *arg)
{
	struct racer	*rc = arg;

	rc->r = league_register(rc->lg, rc->name, PASS, rc->err,
	    sizeof rc->err);
	return (NULL);
}

/* Waits until a session waits for a lock (polled, 10 s at most); 1 if
 * one did. */
static int
lock_waiter(struct fixture *fx)
{
	struct timespec	 ts = { 0, 10 * 1000 * 1000 };
	int		 i;

	for (i = 0; i < 1000; i++) {
		if (lgdb_int(fx, "SELECT COUNT(*) FROM pg_stat_activity"
		    " WHERE wait_event_type = 'Lock'") == 1)
			return (1);
		nanosleep(&ts, NULL);
	}
	return (0);
}

/*
 * A registration that meets another connection's insert, not committed
 * yet: past the checks, its insert waits for that transaction, and then
 * fails on the unique index; the answer names the case (the same name, or
 * a look-alike, which only the index on lower(name) stops).
 */
static void
t_register_uncommitted(void **state)
{
	struct fixture	*fx = *state;
	static const char *const names[][3] = {
		{ "carol", "carol", "name carol is taken" },
		{ "Dave", "dave", "name dave is taken: an account with the "
		    "same name in another case exists (look-alike)" },
	};
	struct racer	 r;
	struct sqldb_stmt *s;
	pthread_t	 th;
	size_t		 i;
	int		 waited;

	LGDB_PG_ONLY("SQLite has one writer: an insert waits for "
	    "the other's commit before its NOT EXISTS reads");
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		rawdb = lgdb_conn(fx);
		assert_int_equal(sqldb_begin(rawdb), 0);
		assert_int_equal(sqldb_prepare(rawdb, "INSERT INTO accounts (name,"
		    " hash, created_at) VALUES (?, 'x', 'y')", 0, &s), 0);
		assert_int_equal(sqldb_bind_text(s, 1, names[i][0]), 0);
		assert_int_equal(sqldb_step(s), SQLDB_DONE);
		sqldb_finalize(s);
		memset(&r, 0, sizeof r);
		r.lg = fx->lg;
		r.name = names[i][1];
		assert_int_equal(pthread_create(&th, NULL, reg_thread, &r), 0);
		waited = lock_waiter(fx);
		assert_int_equal(sqldb_commit(rawdb), 0);
		pthread_join(th, NULL);
		sqldb_close(rawdb);
		rawdb = NULL;
		if (!waited)
			fail_msg("register %s: did not wait for the insert of "
			    "%s: \"%s\"", names[i][1], names[i][0], r.err);
		assert_int_equal(r.r, -1);
		assert_string_equal(r.err, names[i][2]);
	}
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts"), 2);
}

/*
 * The games, written with raw SQL (the same on both back ends): alice won
 * game 1 against bob (rated second, tournament slot 0), lost game 2 (rated
 * first); game 3 is live (slot 1) and game 4 abandoned: neither counts.
 * Moves as runs: [player, move, position, time_ms, mark (0 kept-win,
 * 1 threw-win, 2 no-win)].
 */
static const char games_sql[] =
    "INSERT INTO games (id, family, game, player1, player2, started_at,"
    " ended_at, result, reason, status, rated, tournament_id, slot,"
    " rating_seq) VALUES"
    " (1, 'nim', 'nim 3', 'alice', 'bob', '2026-01-01T00:00:00.000Z',"
    " '2026-01-01T00:01:00.000Z', 'first', 'no-legal-move', 'finished',"
    " 1, 1, 0, 2),"
    " (2, 'nim', 'nim 3', 'bob', 'alice', '2026-01-01T00:02:00.000Z',"
    " '2026-01-01T00:03:00.000Z', 'first', 'no-legal-move', 'finished',"
    " 1, NULL, NULL, 1),"
    " (3, 'nim', 'nim 3', 'alice', 'carol', '2026-01-01T00:04:00.000Z',"
    " NULL, NULL, NULL, 'live', 1, 1, 1, NULL),"
    " (4, 'nim', 'nim 3', 'carol', 'alice', '2026-01-01T00:05:00.000Z',"
    " NULL, NULL, 'interrupted', 'abandoned', 0, NULL, NULL, NULL);"
    "INSERT INTO move_runs (game_id, first_ply, moves) VALUES"
    " (1, 1, '[[1,\"a\",\"p\",5,0],[2,\"b\",\"p\",5,1],[1,\"c\",\"p\",5,1],"
    "[2,\"d\",\"p\",5,2],[1,\"e\",\"p\",5,0]]'),"
    " (2, 1, '[[1,\"a\",\"p\",5,0],[2,\"b\",\"p\",5,1],"
    "[1,\"c\",\"p\",5,0]]'),"
    " (3, 1, '[[1,\"a\",\"p\",5,1]]'),"
    " (4, 1, '[[1,\"a\",\"p\",5,1],[2,\"b\",\"p\",5,1]]');";

/* Checks one player's statistics against the hand-computed ones. */
static void
player_is(struct league *lg, const char *name, const int64_t want[8])
{
	struct league_player p;
	char		 err[512];
	size_t		 i;

	if (league_player(lg, name, &p, err, sizeof err) != 0)
		fail_msg("player %s: %s", name, err);
	assert_int_equal(p.games, want[0]);
	assert_int_equal(p.wins, want[1]);
	assert_int_equal(p.losses, want[2]);
	assert_int_equal(p.moves, want[3]);
	assert_int_equal(p.kept, want[4]);
	assert_int_equal(p.threw, want[5]);
	assert_int_equal(p.first_throw[0], want[6]);
	assert_int_equal(p.first_throw[1], want[7]);
	for (i = 2; i < LEAGUE_THROW_BUCKETS; i++)
		assert_int_equal(p.first_throw[i], 0);
	assert_int_equal(p.threw_win_games, want[6] + want[7]);
}

/* The games, rated games and statistics, read on the other node. */
static void
t_stats(void **state)
{
	struct fixture	*fx = *state;
	char		*players[] = { (char *)"alice", (char *)"bob",
			    (char *)"carol" };
	static const int64_t alice[8] = { 2, 1, 1, 4, 2, 2, 1, 1 };
	static const int64_t bob[8] = { 2, 1, 1, 4, 2, 1, 1, 0 };
	static const int64_t carol[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	struct league_tournament t;
	struct league_rgame *rg;
	struct league_tgame *tg;
	struct league_player p;
	size_t		 n;
	char		 err[512];

	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	reg_ok(fx->lg, "carol");
	t = (struct league_tournament){ .name = "league",
	    .format = LEAGUE_ROUNDROBIN, .game = (char *)"nim 3",
	    .games_per_pair = 1, .players = players, .nplayers = 3 };
	if (league_tournament_create(fx->lg, &t, err, sizeof err) != 0)
		fail_msg("create: %s", err);
	lgdb_exec(fx, games_sql);

	player_is(nodeb, "alice", alice);
	player_is(nodeb, "bob", bob);
	player_is(fx->lg, "carol", carol);
	assert_int_equal(league_player(nodeb, "nobody", &p, err, sizeof err),
	    -1);
	assert_string_equal(err, "no account nobody");

	assert_int_equal(league_rated_games(nodeb, &rg, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(rg[0].game_id, 2);
	assert_string_equal(rg[0].player1, "bob");
	assert_int_equal(rg[0].result, 1);
	assert_int_equal(rg[1].game_id, 1);
	assert_string_equal(rg[1].player2, "bob");
	free(rg);

	assert_int_equal(league_tournament_games(nodeb, t.id, &tg, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(tg[0].game_id, 1);
	assert_int_equal(tg[0].slot, 0);
	assert_int_equal(tg[0].finished, 1);
	assert_int_equal(tg[0].result, 1);
	assert_int_equal(tg[1].game_id, 3);
	assert_int_equal(tg[1].slot, 1);
	assert_int_equal(tg[1].finished, 0);
	assert_int_equal(tg[1].result, 0);
	assert_string_equal(tg[1].player2, "carol");
	free(tg);
}

/* Stops (mode "immediate") or starts ("start", mode "") the cluster of
 * tests/e2e/pgcluster.sh. */
static void
cluster(const char *what, const char *mode)
{
	char	 cmd[1024];

	snprintf(cmd, sizeof cmd, "%s %s %s %s", getenv("SQLDB_PG_CTL"), what,
	    getenv("SQLDB_PG_DIR"), mode);
	if (system(cmd) != 0)
		fail_msg("%s: failed", cmd);
}

/*
 * The database restarted under the league: while it is down a login, a
 * registration and a tournament list fail with a database error (never a
 * wrong answer); once it is back the league reconnects by itself
 * (polled, 15 s at most) and nothing was lost.
 */
static void
t_db_restart(void **state)
{
	struct fixture	*fx = *state;
	struct league_tournament *v;
	struct timespec	 ts = { 0, 20 * 1000 * 1000 };
	size_t		 n;
	char		 err[512];
	int		 i, r = -2;

	LGDB_PG_ONLY("the PostgreSQL cluster is stopped and started");
	reg_ok(fx->lg, "alice");
	login_is(nodeb, "alice", PASS, T0, 0, "");
	cluster("stop", "immediate");
	assert_int_equal(league_login(fx->lg, "alice", PASS, T0, err,
	    sizeof err), -2);
	assert_string_equal(err, "postgresql: cannot look up the account: "
	    "database unreachable");
	assert_int_equal(league_register(nodeb, "bob", PASS, err, sizeof err),
	    -1);
	assert_string_equal(err, "postgresql: cannot look up the account: "
	    "database unreachable");
	assert_int_equal(league_tournaments(fx->lg, 1, &v, &n), -1);
	assert_int_equal(n, 0);
	cluster("start", "");
	for (i = 0; i < 750 && r == -2; i++) {
		r = league_login(fx->lg, "alice", PASS, T0, err, sizeof err);
		if (r == -2)
			nanosleep(&ts, NULL);
	}
	if (r != 0)
		fail_msg("no login after the restart: %d %s", r, err);
	login_is(nodeb, "alice", PASS, T0, 0, "");
	reg_ok(nodeb, "bob");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts"), 2);
}

#define NODE_TEST(t)	cmocka_unit_test_setup_teardown(t, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		NODE_TEST(t_accounts),
		NODE_TEST(t_lockout_per_node),
		NODE_TEST(t_lockout_shared),
		NODE_TEST(t_tournament),
		NODE_TEST(t_register_race),
		NODE_TEST(t_register_uncommitted),
		NODE_TEST(t_stats),
		NODE_TEST(t_db_restart),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
