/*
 * test-league.c: accounts (names, passwords, hashes, failed-login limits),
 * the migration of a version-1 game log, and the refusals at open.  The
 * tournaments, games and player statistics are in test-league-games.c.
 * On SQLite, and again on PostgreSQL under tests/e2e/league-pg.sh
 * (SQLDB_PG_URL set: test-league-db.h); the SQLite-only tests skip there,
 * saying why.
 */
#include <sys/types.h>

#include <inttypes.h>
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
#include <sqlite3.h>

#include "testutil.h"
#include "testdb.h"
#include "test-league-db.h"

#include "lib/buf.h"
#include "cmd/cmd-history.h"
#include "league/league.h"
#include "store/store.h"

#define T0		1000000		/* a fake monotonic clock, ms */

/* Registers an account that must fail with err containing want. */
static void
reg_fails(struct league *lg, const char *name, const char *pass,
    const char *want)
{
	char	 err[512];

	err[0] = '\0';
	assert_int_equal(league_register(lg, name, pass, err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("register \"%s\": \"%s\" does not say \"%s\"", name,
		    err, want);
}

/* A fresh database of the run's back end, and the league on it. */
static void
open_lg(struct fixture *fx, unsigned int failures, unsigned int lockout_s)
{
	lgdb_fresh(fx);
	fx->lg = lgdb_league(fx, failures, lockout_s);
}

/* Valid and invalid account names. */
static void
test_names(void **state)
{
	static const char *const good[] = {
		"alice", "A", "bob_2", "x.y-z", "Engine2", "conn",
		"abcdefghijklmnopqrstuvwxyz012345", NULL
	};
	static const char *const bad[] = {
		"", "engine", "ENGINE", "-", "conn:17", "a b", "tab\t",
		"new\nline", "caf\xc3\xa9", "a,b", "a/b",
		"abcdefghijklmnopqrstuvwxyz0123456", NULL
	};
	size_t	 i;

	for (i = 0; good[i] != NULL; i++) {
		if (!league_name_ok(good[i]))
			fail_msg("\"%s\" refused", good[i]);
	}
	for (i = 0; bad[i] != NULL; i++) {
		if (league_name_ok(bad[i]))
			fail_msg("\"%s\" accepted", bad[i]);
	}
	assert_false(league_name_ok(NULL));
}

/* Register and log in; the stored hash; refusals. */
static void
test_register(void **state)
{
	struct fixture	*fx = *state;
	char		 hash[512], pass[200];

	open_lg(fx, 5, 30);
	assert_int_equal(league_exists(fx->lg, "alice"), 0);
	reg_ok(fx->lg, "alice");
	assert_int_equal(league_exists(fx->lg, "alice"), 1);
	assert_int_equal(league_exists(fx->lg, "Alice"), 0);
	assert_int_equal(league_exists(fx->lg, "engine"), 0);
	login_is(fx->lg, "alice", PASS, T0, 0, "");

	lgdb_text(fx, "SELECT hash FROM accounts WHERE name = 'alice'",
	    hash, sizeof hash);
	assert_int_equal(strncmp(hash, "$y$", 3), 0);
	assert_null(strstr(hash, PASS));
	assert_true(strlen(hash) > 40);
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts "
	    "WHERE created_at LIKE '20__-__-__T__:__:__.___Z'"), 1);

	/* Two accounts with one password get different salts. */
	reg_ok(fx->lg, "bob");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(DISTINCT hash) FROM "
	    "accounts"), 2);

	reg_fails(fx->lg, "alice", PASS, "name alice is taken");
	reg_fails(fx->lg, "engine", PASS, "bad account name");
	reg_fails(fx->lg, "", PASS, "bad account name");
	reg_fails(fx->lg, "conn:3", PASS, "bad account name");
	reg_fails(fx->lg, "a b", PASS, "bad account name");
	reg_fails(fx->lg, "abcdefghijklmnopqrstuvwxyz0123456", PASS,
	    "bad account name");
	reg_fails(fx->lg, "carol", "short7!", "password too short");
	reg_fails(fx->lg, "carol", "with space", "bad password");
	reg_fails(fx->lg, "carol", "tab\there1", "bad password");
	reg_fails(fx->lg, "carol", "caf\xc3\xa9-caf\xc3\xa9", "bad password");
	memset(pass, 'x', 129);
	pass[129] = '\0';
	reg_fails(fx->lg, "carol", pass, "password too long");
	pass[128] = '\0';
	assert_int_equal(league_register(fx->lg, "carol", pass, hash,
	    sizeof hash), 0);			/* exactly 128 bytes */
	login_is(fx->lg, "carol", pass, T0, 0, "");
	reg_fails(fx->lg, "dave", NULL, "no password");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts"),
	    3);

	/* The accounts survive a reopen. */
	league_close(fx->lg);
	fx->lg = NULL;
	fx->lg = lgdb_league(fx, 5, 30);
	login_is(fx->lg, "alice", PASS, T0, 0, "");
	login_is(fx->lg, "bob", PASS, T0, 0, "");
}

/* A wrong password and an unknown name get the same answer. */
static void
test_wrong(void **state)
{
	struct fixture	*fx = *state;
	char		 e1[512], e2[512], e3[512];

	open_lg(fx, 100, 30);
	reg_ok(fx->lg, "alice");
	assert_int_equal(league_login(fx->lg, "alice", "wrong-password", T0,
	    e1, sizeof e1), -1);
	assert_int_equal(league_login(fx->lg, "nobody", PASS, T0, e2,
	    sizeof e2), -1);
	assert_int_equal(league_login(fx->lg, "engine", PASS, T0, e3,
	    sizeof e3), -1);
	assert_string_equal(e1, "wrong name or password");
	assert_string_equal(e1, e2);
	assert_string_equal(e1, e3);
	login_is(fx->lg, "alice", "short", T0, -1, "wrong name or password");
	login_is(fx->lg, "alice", "", T0, -1, "wrong name or password");
	login_is(fx->lg, "Alice", PASS, T0, -1, "wrong name or password");
	login_is(fx->lg, "alice", PASS, T0, 0, "");
}

/* Failed logins lock a name; the lock runs out; a success resets. */
static void
test_lockout(void **state)
{
	struct fixture	*fx = *state;
	struct league_limits lim = { 2, 10, 0 };
	const char	*wrong = "wrong name or password";
	const char	*lk30 = "too many failed logins for alice: retry in 30 s";

	open_lg(fx, 3, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");

	/* Two failures, a success, two failures: never three in a row. */
	login_is(fx->lg, "alice", "bad-pass-1", T0, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-2", T0 + 1, -1, wrong);
	login_is(fx->lg, "alice", PASS, T0 + 2, 0, "");
	login_is(fx->lg, "alice", "bad-pass-3", T0 + 3, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-4", T0 + 4, -1, wrong);
	login_is(fx->lg, "alice", PASS, T0 + 5, 0, "");

	/* Three in a row lock, even the right password, before hashing. */
	login_is(fx->lg, "alice", "bad-pass-5", T0 + 10, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-6", T0 + 11, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-7", T0 + 12, -1, wrong);
	login_is(fx->lg, "alice", PASS, T0 + 12, -1, lk30);
	login_is(fx->lg, "alice", PASS, T0 + 112, -1, lk30);
	login_is(fx->lg, "alice", PASS, T0 + 12 + 20000, -1,
	    "too many failed logins for alice: retry in 10 s");
	login_is(fx->lg, "alice", PASS, T0 + 12 + 29999, -1,
	    "too many failed logins for alice: retry in 1 s");
	/* Other names are not affected. */
	login_is(fx->lg, "bob", PASS, T0 + 100, 0, "");

	/* The lock runs out, and the count starts again. */
	login_is(fx->lg, "alice", "bad-pass-8", T0 + 12 + 30000, -1, wrong);
	login_is(fx->lg, "alice", PASS, T0 + 12 + 30001, 0, "");
	login_is(fx->lg, "alice", "bad-pass-9", T0 + 40000, -1, wrong);
	login_is(fx->lg, "alice", "bad-pass-a", T0 + 40001, -1, wrong);
	login_is(fx->lg, "alice", PASS, T0 + 40002, 0, "");

	/* Names without an account are limited the same way. */
	login_is(fx->lg, "ghost", PASS, T0, -1, wrong);
	login_is(fx->lg, "ghost", PASS, T0, -1, wrong);
	login_is(fx->lg, "ghost", PASS, T0, -1, wrong);
	login_is(fx->lg, "ghost", PASS, T0 + 500, -1,
	    "too many failed logins for ghost: retry in 30 s");

	/* New limits apply from the next login. */
	league_set_limits(fx->lg, &lim);
	login_is(fx->lg, "bob", "bad-pass-1", T0, -1, wrong);
	login_is(fx->lg, "bob", "bad-pass-2", T0, -1, wrong);
	login_is(fx->lg, "bob", PASS, T0 + 1, -1,
	    "too many failed logins for bob: retry in 10 s");
	login_is(fx->lg, "bob", PASS, T0 + 10000, 0, "");

	/* No limit at all. */
	lim.failures = 0;
	league_set_limits(fx->lg, &lim);
	login_is(fx->lg, "bob", "bad-pass-1", T0, -1, wrong);
	login_is(fx->lg, "bob", "bad-pass-2", T0, -1, wrong);
	login_is(fx->lg, "bob", "bad-pass-3", T0, -1, wrong);
	login_is(fx->lg, "bob", PASS, T0, 0, "");
}

/* league_login_from at now: checks the return and the message. */
static void
login_from_is(struct league *lg, const char *name, const char *pass,
    const char *addr, uint64_t now, int want, const char *wantmsg)
{
	char	 err[512];
	int	 r;

	err[0] = '\0';
	r = league_login_from(lg, name, pass, addr, now, err, sizeof err);
	if (r != want || strcmp(err, wantmsg) != 0)
		fail_msg("login %s from %s at %" PRIu64 ": %d \"%s\", expected "
		    "%d \"%s\"", name, addr, now, r, err, want, wantmsg);
}

/*
 * Lockout per (name, address): a stranger's failures lock the stranger
 * only; the per-address throttle counts failures for any names within
 * the lockout window, and a success does not clear it.
 */
static void
test_lockout_address(void **state)
{
	struct fixture	*fx = *state;
	struct league_limits lim = { 3, 30, 5 };
	const char	*wrong = "wrong name or password";
	const char	*ip2 = "127.0.0.2", *ip1 = "127.0.0.1";

	open_lg(fx, 3, 30);
	league_set_limits(fx->lg, &lim);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	login_from_is(fx->lg, "alice", "bad-pass-1", ip2, T0, -1, wrong);
	login_from_is(fx->lg, "alice", "bad-pass-2", ip2, T0, -1, wrong);
	login_from_is(fx->lg, "alice", "bad-pass-3", ip2, T0, -1, wrong);
	login_from_is(fx->lg, "alice", PASS, ip2, T0 + 1000, -1,
	    "too many failed logins for alice: retry in 29 s");
	/* The owner, elsewhere, is not locked out. */
	login_from_is(fx->lg, "alice", PASS, ip1, T0 + 1000, 0, "");
	/* Two more failures from ip2 for other names: 5 from the address. */
	login_from_is(fx->lg, "nobody", PASS, ip2, T0 + 2000, -1, wrong);
	login_from_is(fx->lg, "bob", "bad-pass-4", ip2, T0 + 3000, -1, wrong);
	login_from_is(fx->lg, "bob", PASS, ip2, T0 + 4000, -1,
	    "too many failed logins from your address: retry in 29 s");
	login_from_is(fx->lg, "bob", PASS, ip1, T0 + 4000, 0, "");
	/* It runs out; failures spread wider than the window never lock. */
	login_from_is(fx->lg, "bob", PASS, ip2, T0 + 33000, 0, "");
	login_from_is(fx->lg, "x1", PASS, ip2, T0 + 40000, -1, wrong);
	login_from_is(fx->lg, "x2", PASS, ip2, T0 + 50000, -1, wrong);
	login_from_is(fx->lg, "x3", PASS, ip2, T0 + 60000, -1, wrong);
	login_from_is(fx->lg, "x4", PASS, ip2, T0 + 71000, -1, wrong);
	login_from_is(fx->lg, "x5", PASS, ip2, T0 + 72000, -1, wrong);
	login_from_is(fx->lg, "bob", PASS, ip2, T0 + 73000, 0, "");
	/* A success does not clear the address's count (2 in this window). */
	login_from_is(fx->lg, "x6", PASS, ip2, T0 + 74000, -1, wrong);
	login_from_is(fx->lg, "x7", PASS, ip2, T0 + 75000, -1, wrong);
	login_from_is(fx->lg, "x8", PASS, ip2, T0 + 75500, -1, wrong);
	login_from_is(fx->lg, "bob", PASS, ip2, T0 + 76000, -1,
	    "too many failed logins from your address: retry in 30 s");
}

/* passwd, reset, disable and enable; the start ids. */
static void
test_account_life(void **state)
{
	struct fixture	*fx = *state;
	char		 err[512];

	open_lg(fx, 3, 30);
	reg_ok(fx->lg, "alice");
	assert_int_equal(league_passwd(fx->lg, "alice", "bad-pass-1",
	    "new-pass-1", "-", T0, err, sizeof err), -1);
	assert_string_equal(err, "wrong name or password");
	assert_int_equal(league_passwd(fx->lg, "alice", PASS, "short", "-",
	    T0, err, sizeof err), -1);
	assert_string_equal(err, "new password too short: at least 8 bytes");
	assert_int_equal(league_passwd(fx->lg, "alice", PASS, "new-pass-1",
	    "-", T0, err, sizeof err), 0);
	login_is(fx->lg, "alice", PASS, T0, -1, "wrong name or password");
	login_is(fx->lg, "alice", "new-pass-1", T0, 0, "");
	assert_int_equal(league_reset(fx->lg, "alice", "new-pass-2", err,
	    sizeof err), 0);
	login_is(fx->lg, "alice", "new-pass-2", T0, 0, "");
	assert_int_equal(league_reset(fx->lg, "nobody", "new-pass-2", err,
	    sizeof err), -1);
	assert_string_equal(err, "no account nobody");
	assert_int_equal(league_disable(fx->lg, "alice", "rude", err,
	    sizeof err), 0);
	login_is(fx->lg, "alice", "new-pass-2", T0, -1,
	    "account alice is disabled: rude");
	login_is(fx->lg, "alice", "wrong-pass", T0, -1,
	    "wrong name or password");
	assert_int_equal(league_disable(fx->lg, "alice", NULL, err,
	    sizeof err), 0);
	login_is(fx->lg, "alice", "new-pass-2", T0, 0, "");
	assert_int_equal(league_disable(fx->lg, "bob", "x", err, sizeof err),
	    -1);
	assert_string_equal(err, "no account bob");
	assert_int_equal(league_start(fx->lg), 1);
	assert_int_equal(league_start(fx->lg), 2);
}

/*
 * The failed-login table is bounded; a flood of other names does not
 * evict a locked one.  Badly formed passwords are not hashed but count.
 */
static void
test_lockout_table(void **state)
{
	struct fixture	*fx = *state;
	char		 name[32];
	int		 i;

	open_lg(fx, 3, 30);
	reg_ok(fx->lg, "alice");
	for (i = 0; i < 3; i++)
		login_is(fx->lg, "alice", "x", T0, -1,
		    "wrong name or password");
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "flood%d", i);
		login_is(fx->lg, name, "x", T0 + 1 + (uint64_t)i, -1,
		    "wrong name or password");
	}
	login_is(fx->lg, "alice", PASS, T0 + 6000, -1,
	    "too many failed logins for alice: retry in 24 s");
	login_is(fx->lg, "alice", PASS, T0 + 30000, 0, "");
}

/* A version-1 log keeps its games and gets the new columns' defaults. */
static void
test_migrate(void **state)
{
	struct fixture	*fx = *state;
	sqlite3		*db;
	char		 err[512], txt[64];

	LGDB_SQLITE_ONLY("the store migrates a version-1 SQLite log");
	assert_true(store_nmigrations >= 2);
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, 1, err, sizeof err), 0);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
	    "INSERT INTO games (id, family, game, player1, player2, started_at,"
	    " ended_at, result, reason, status) VALUES"
	    " (1, 'nim', 'nim 3', 'conn:1', 'engine', '2025-01-01T00:00:00.000Z',"
	    " '2025-01-01T00:00:01.000Z', 'first', 'no-legal-move', 'finished'),"
	    " (2, 'nim', 'nim 4', 'conn:2', 'engine', '2025-01-01T00:00:02.000Z',"
	    " NULL, NULL, NULL, 'live');"
	    "INSERT INTO moves VALUES (1, 1, 1, '1=0', 'nim 0', 5, 'kept-win');",
	    NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"), 1);

	open_both(fx, 5, 30);
	assert_int_equal(raw_int(fx->path, "PRAGMA user_version"),
	    (int64_t)store_nmigrations);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games"), 2);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves"), 1);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games WHERE "
	    "rated = 0 AND tc IS NULL AND tournament_id IS NULL AND slot IS "
	    "NULL"), 2);
	raw_text(fx->path, "SELECT status || ' ' || reason FROM games WHERE "
	    "id = 2", txt, sizeof txt);
	assert_string_equal(txt, "abandoned interrupted");
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM accounts"),
	    0);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM sqlite_schema "
	    "WHERE name IN ('accounts', 'tournaments', 'games_tournament', "
	    "'games_rated')"), 4);
	/* And the league works on it; the old games are unrated. */
	reg_ok(fx->lg, "alice");
	login_is(fx->lg, "alice", PASS, T0, 0, "");
	assert_int_equal(league_rated_games(fx->lg, &(struct league_rgame *){
	    NULL }, &(size_t){ 1 }), 0);
	assert_int_equal(store_game_begin(fx->st, &(struct store_game){
	    "nim", "nim 5", "alice", "engine", 0, NULL, 0, 0 }), 3);
}

/*
 * Migration 010 from version 9: an index on lower(name), which the
 * look-alike check uses; UNIQUE on PostgreSQL, not on SQLite, where a log
 * from before the look-alike rule keeps its look-alikes; the table of the
 * shared login locks, empty.
 */
static void
test_migrate_010(void **state)
{
	struct fixture	*fx = *state;
	struct sqldb	*db;
	struct sqldb_stmt *s;

	lgdb_reset(fx);
	lgdb_migrate(fx, 9);
	lgdb_exec(fx, lgdb_pg() ? "INSERT INTO accounts (name, hash,"
	    " created_at) VALUES ('carol', 'x', 'y')" :
	    "INSERT INTO accounts (name, hash, created_at) VALUES"
	    " ('carol', 'x', 'y'), ('Bob', 'x', 'y'), ('bob', 'x', 'y')");
	lgdb_migrate(fx, 10);
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM accounts"),
	    lgdb_pg() ? 1 : 3);
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM login_locks"), 0);
	db = lgdb_conn(fx);
	if (lgdb_pg()) {
		assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM pg_indexes"
		    " WHERE indexname = 'accounts_name_lower' AND indexdef LIKE"
		    " 'CREATE UNIQUE INDEX %lower(name)%'"), 1);
		assert_int_equal(sqldb_exec(db, "INSERT INTO accounts (name,"
		    " hash, created_at) VALUES ('CAROL', 'x', 'y')"), -1);
		assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	} else {
		assert_int_equal(sqldb_prepare(db, "EXPLAIN QUERY PLAN SELECT 1"
		    " FROM accounts WHERE lower(name) = lower('x')", 0, &s),
		    0);
		assert_int_equal(sqldb_step(s), SQLDB_ROW);
		if (strstr(sqldb_column_text(s, 3), "accounts_name_lower") ==
		    NULL)
			fail_msg("plan: %s", sqldb_column_text(s, 3));
		sqldb_finalize(s);
	}
	sqldb_close(db);
	lgdb_migrate(fx, -1);	/* the league's queries need every column */
	fx->lg = lgdb_league(fx, 5, 30);
	reg_fails(fx->lg, "Carol", PASS, "look-alike");
	reg_ok(fx->lg, "dave");
}

/*
 * Migration 013 (issue 26) from 012, with a tournament: it keeps its
 * row, its tie-breaks NULL (read back as no list: its format's default,
 * lobby_tour_tb); a tournament made after keeps its own list.
 */
static void
test_migrate_013(void **state)
{
	struct fixture	*fx = *state;
	struct league_tournament d, *v;
	char		*players[] = { (char *)"carol", (char *)"dave" };
	char		 err[256], t[TB_TEXT_MAX];
	size_t		 n;

	lgdb_reset(fx);
	lgdb_migrate(fx, 12);
	lgdb_exec(fx, "INSERT INTO accounts (name, hash, created_at) VALUES"
	    " ('carol', 'x', 'y'), ('dave', 'x', 'y');"
	    "INSERT INTO tournaments (name, format, status, game, random,"
	    " base_ms, inc_ms, games_per_pair, seed, players, created_at,"
	    " rounds) VALUES ('old', 'swiss', 'running', 'nim 3', 0, 0, 0, 2,"
	    " 1, 'carol,dave', 'T', 1)");
	lgdb_migrate(fx, 13);
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM tournaments"
	    " WHERE name = 'old' AND tiebreaks IS NULL"), 1);
	lgdb_migrate(fx, -1);
	fx->lg = lgdb_league(fx, 5, 30);
	memset(&d, 0, sizeof d);
	snprintf(d.name, sizeof d.name, "new");
	d.format = LEAGUE_ROUNDROBIN;
	d.game = (char *)"nim 3";
	d.games_per_pair = 2;
	d.players = players;
	d.nplayers = 2;
	assert_int_equal(tb_list_parse("won,bh-c1", &d.tb, err, sizeof err),
	    0);
	assert_int_equal(league_tournament_create(fx->lg, &d, err,
	    sizeof err), 0);
	assert_int_equal(league_tournaments(fx->lg, 0, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "old");
	assert_int_equal(v[0].tb.n, 0);
	tb_list_text(&v[1].tb, t, sizeof t);
	assert_string_equal(t, "won,bh-c1");
	league_tournaments_free(v, n);
}

/*
 * Migration 015 from the schema before it: a tournament made before has
 * no byes nor stopped games stored (NULL); league_tournament_unplayed
 * stores them, and refuses
 * a tournament that does not exist.
 */
static void
test_migrate_015(void **state)
{
	struct fixture	*fx = *state;
	int64_t		 id;

	lgdb_reset(fx);
	lgdb_migrate(fx, 14);
	lgdb_exec(fx, "INSERT INTO accounts (name, hash, created_at) VALUES"
	    " ('carol', 'x', 'y'), ('dave', 'x', 'y'), ('erin', 'x', 'y');"
	    "INSERT INTO tournaments (name, format, status, game, random,"
	    " base_ms, inc_ms, games_per_pair, seed, players, created_at,"
	    " rounds, tiebreaks) VALUES ('old', 'swiss', 'running', 'nim 3',"
	    " 0, 0, 0, 2, 1, 'carol,dave,erin', 'T', 2, 'bh,sb')");
	lgdb_migrate(fx, 15);
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM tournaments"
	    " WHERE name = 'old' AND byes IS NULL AND stopped IS NULL"
	    " AND tiebreaks = 'bh,sb'"), 1);
	id = lgdb_int(fx, "SELECT id FROM tournaments WHERE name = 'old'");
	lgdb_migrate(fx, -1);
	fx->lg = lgdb_league(fx, 5, 30);
	assert_int_equal(league_tournament_unplayed(fx->lg, id,
	    "1:erin,2:dave", "2:carol:erin"), 0);
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM tournaments"
	    " WHERE name = 'old' AND byes = '1:erin,2:dave'"
	    " AND stopped = '2:carol:erin'"), 1);
	assert_int_equal(league_tournament_unplayed(fx->lg, id + 1, "1:erin",
	    ""), -1);
}

/* The league refuses what it cannot use. */
static void
test_open_fails(void **state)
{
	struct fixture	*fx = *state;
	struct league_limits lim = { 5, 30, 0 };
	struct league	*lg;
	char		 err[512], path[400];

	LGDB_SQLITE_ONLY("SQLite files (test_open_fails_pg for PostgreSQL)");
	lg = league_open(":memory:", &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "in-memory"));

	snprintf(path, sizeof path, "%s/missing.db", fx->dir);
	lg = league_open(path, &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "cannot open"));
	assert_int_equal(access(path, F_OK), -1);	/* not created */

	/* A version-1 file: no league tables yet. */
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, 1, err, sizeof err), 0);
	lg = league_open(fx->path, &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "is the schema migrated?"));

	/* A file name with URI characters is a file name. */
	snprintf(path, sizeof path, "%s/a%%20b?c#d.db", fx->dir);
	lgdb_fresh(fx);
	assert_int_equal(rename(fx->path, path), 0);
	lg = league_open(path, &lim, err, sizeof err);
	if (lg == NULL)
		fail_msg("league_open %s: %s", path, err);
	reg_ok(lg, "alice");
	league_close(lg);
	snprintf(path, sizeof path, "/%s/a%%20b?c#d.db", fx->dir);
	lg = league_open(path, &lim, err, sizeof err);	/* "//tmp/..." */
	if (lg == NULL)
		fail_msg("league_open %s: %s", path, err);
	login_is(lg, "alice", PASS, T0, 0, "");
	league_close(lg);
}

/* The same refusals on PostgreSQL: unreachable, not migrated. */
static void
test_open_fails_pg(void **state)
{
	struct league_limits lim = { 5, 30, 0 };
	struct fixture	*fx = *state;
	struct league	*lg;
	char		 err[512];

	LGDB_PG_ONLY("the SQLite refusals are test_open_fails");
	lg = league_open("postgresql:///x?host=/nonexistent&connect_timeout=2",
	    &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "unreachable"));

	lgdb_exec(fx, "SET client_min_messages = warning;"
	    " DROP SCHEMA public CASCADE; CREATE SCHEMA public");
	lg = league_open(lgdb_url(fx), &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "postgresql: cannot prepare the league's "
	    "queries (is the schema migrated?)"));
}

/* Each test but the first on a database of its own. */
#define DB_TEST(t)	cmocka_unit_test_setup_teardown(t, tdb_setup_league, \
			    tdb_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		DB_TEST(test_register),
		DB_TEST(test_wrong),
		DB_TEST(test_lockout),
		DB_TEST(test_lockout_address),
		DB_TEST(test_account_life),
		DB_TEST(test_lockout_table),
		DB_TEST(test_migrate),
		DB_TEST(test_migrate_010),
		DB_TEST(test_migrate_013),
		DB_TEST(test_migrate_015),
		DB_TEST(test_open_fails),
		DB_TEST(test_open_fails_pg),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
