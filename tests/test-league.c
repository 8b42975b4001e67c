/*
 * test-league.c: accounts (names, passwords, hashes, failed-login limits),
 * tournaments, the games the store logs for them, the rated games in
 * replay order, the player statistics against hand-computed figures, and
 * the migration of a version-1 game log.
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

#include "buf.h"
#include "cmd-log.h"
#include "league.h"
#include "store.h"

#define PASS		"correct-horse"
#define T0		1000000		/* a fake monotonic clock, ms */

/* The temporary directory of this run and its database. */
struct fixture {
	char		 dir[256];
	char		 path[300];
	struct store	*st;
	struct league	*lg;
};

/* Creates the temporary directory and names the test's database. */
static int
setup(void **state)
{
	struct fixture	*fx;

	fx = calloc(1, sizeof *fx);
	if (fx == NULL)
		return (-1);
	if (tu_tmpdir(fx->dir, sizeof fx->dir, "test-league") != 0) {
		free(fx);
		return (-1);
	}
	snprintf(fx->path, sizeof fx->path, "%s/grundy.db", fx->dir);
	*state = fx;
	return (0);
}

/* Closes what the test left open and removes the temporary directory. */
static int
teardown(void **state)
{
	struct fixture	*fx = *state;

	league_close(fx->lg);
	store_close(fx->st);
	tu_empty_dir(fx->dir);
	rmdir(fx->dir);
	free(fx);
	return (0);
}

/* Opens the store, then the league, with the given limits. */
static void
open_both(struct fixture *fx, unsigned int failures, unsigned int lockout_s)
{
	struct league_limits lim = { failures, lockout_s };
	char		 err[512];

	err[0] = '\0';
	if ((fx->st = store_open(fx->path, err, sizeof err)) == NULL)
		fail_msg("store_open %s: %s", fx->path, err);
	if ((fx->lg = league_open(fx->path, &lim, err, sizeof err)) == NULL)
		fail_msg("league_open %s: %s", fx->path, err);
}

/* Returns the first column of one row of sql as an integer (-1: none). */
static int64_t
raw_int(const char *path, const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*s;
	int64_t		 v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return (v);
}

/* Copies the first column of one row of sql as text ("(null)": NULL). */
static void
raw_text(const char *path, const char *sql, char *out, size_t len)
{
	sqlite3		*db;
	sqlite3_stmt	*s;
	const unsigned char *t;

	snprintf(out, len, "(none)");
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
	    NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL),
	    SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW) {
		t = sqlite3_column_text(s, 0);
		snprintf(out, len, "%s", t != NULL ? (const char *)t :
		    "(null)");
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
}

/* Registers an account that must succeed. */
static void
reg_ok(struct league *lg, const char *name)
{
	char	 err[512];

	err[0] = '\0';
	if (league_register(lg, name, PASS, err, sizeof err) != 0)
		fail_msg("register %s: %s", name, err);
}

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

/* Logs in at now and checks the return and the message ("" for none). */
static void
login_is(struct league *lg, const char *name, const char *pass,
    uint64_t now, int want, const char *wantmsg)
{
	char	 err[512];
	int	 r;

	err[0] = '\0';
	r = league_login(lg, name, pass, now, err, sizeof err);
	if (r != want || strcmp(err, wantmsg) != 0)
		fail_msg("login %s at %" PRIu64 ": %d \"%s\", expected %d "
		    "\"%s\"", name, now, r, err, want, wantmsg);
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

	open_both(fx, 5, 30);
	assert_int_equal(league_exists(fx->lg, "alice"), 0);
	reg_ok(fx->lg, "alice");
	assert_int_equal(league_exists(fx->lg, "alice"), 1);
	assert_int_equal(league_exists(fx->lg, "Alice"), 0);
	assert_int_equal(league_exists(fx->lg, "engine"), 0);
	login_is(fx->lg, "alice", PASS, T0, 0, "");

	raw_text(fx->path, "SELECT hash FROM accounts WHERE name = 'alice'",
	    hash, sizeof hash);
	assert_int_equal(strncmp(hash, "$y$", 3), 0);
	assert_null(strstr(hash, PASS));
	assert_true(strlen(hash) > 40);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM accounts "
	    "WHERE created_at LIKE '20__-__-__T__:__:__.___Z'"), 1);

	/* Two accounts with one password get different salts. */
	reg_ok(fx->lg, "bob");
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(DISTINCT hash) FROM "
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
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM accounts"),
	    3);

	/* The accounts survive a reopen. */
	league_close(fx->lg);
	store_close(fx->st);
	fx->lg = NULL;
	fx->st = NULL;
	open_both(fx, 5, 30);
	login_is(fx->lg, "alice", PASS, T0, 0, "");
	login_is(fx->lg, "bob", PASS, T0, 0, "");
}

/* A wrong password and an unknown name get the same answer. */
static void
test_wrong(void **state)
{
	struct fixture	*fx = *state;
	char		 e1[512], e2[512], e3[512];

	open_both(fx, 100, 30);
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
	struct league_limits lim = { 2, 10 };
	const char	*wrong = "wrong name or password";
	const char	*lk30 = "too many failed logins for alice: retry in 30 s";

	open_both(fx, 3, 30);
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

	open_both(fx, 3, 30);
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

	open_both(fx, 3, 30);
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

	open_both(fx, 3, 30);
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

/* Fills a tournament definition (players point at static strings). */
static void
tdef(struct league_tournament *t, const char *name, char **players,
    size_t n)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	t->format = LEAGUE_ROUNDROBIN;
	t->game = (char *)"nim 7 7 7";
	t->random = 1;
	t->base_ms = 60000;
	t->inc_ms = 500;
	t->games_per_pair = 2;
	t->seed = UINT64_MAX - 5;
	t->players = players;
	t->nplayers = n;
}

/* Creating a tournament must fail with err containing want. */
static void
tcreate_fails(struct league *lg, struct league_tournament *t,
    const char *want)
{
	char	 err[512];

	err[0] = '\0';
	assert_int_equal(league_tournament_create(lg, t, err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("tournament %s: \"%s\" does not say \"%s\"", t->name,
		    err, want);
}

/* Tournaments: create, list, status, and the refusals. */
static void
test_tournaments(void **state)
{
	struct fixture	*fx = *state;
	char		*abc[] = { (char *)"alice", (char *)"bob",
			    (char *)"carol" };
	char		*bad1[] = { (char *)"alice", (char *)"dave" };
	char		*bad2[] = { (char *)"alice", (char *)"bob",
			    (char *)"alice" };
	char		*bad3[] = { (char *)"alice", (char *)"a b" };
	struct league_tournament t, u, *v;
	size_t		 n;
	char		 err[512];

	open_both(fx, 5, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	reg_ok(fx->lg, "carol");

	tdef(&t, "spring", abc, 3);
	t.status = LEAGUE_T_CANCELLED;		/* ignored: it starts running */
	assert_int_equal(league_tournament_create(fx->lg, &t, err,
	    sizeof err), 0);
	assert_int_equal(t.id, 1);
	assert_int_equal(t.status, LEAGUE_T_RUNNING);
	tdef(&u, "summer", abc + 1, 2);
	u.format = LEAGUE_GAUNTLET;
	u.random = 0;
	u.seed = 7;
	assert_int_equal(league_tournament_create(fx->lg, &u, err,
	    sizeof err), 0);
	assert_int_equal(u.id, 2);

	tdef(&u, "spring", abc, 3);
	tcreate_fails(fx->lg, &u, "tournament spring exists");
	tdef(&u, "x", bad1, 2);
	tcreate_fails(fx->lg, &u, "no account dave");
	tdef(&u, "x", bad2, 3);
	tcreate_fails(fx->lg, &u, "player alice is listed twice");
	tdef(&u, "x", abc, 1);
	tcreate_fails(fx->lg, &u, "at least 2 players");
	tdef(&u, "x", abc, 0);
	tcreate_fails(fx->lg, &u, "at least 2 players");
	tdef(&u, "x", bad3, 2);
	tcreate_fails(fx->lg, &u, "bad player name");
	tdef(&u, "bad name", abc, 2);
	tcreate_fails(fx->lg, &u, "bad tournament name");
	tdef(&u, "x", abc, 2);
	u.games_per_pair = 0;
	tcreate_fails(fx->lg, &u, "games per pairing");
	tdef(&u, "x", abc, 2);
	u.game = NULL;
	tcreate_fails(fx->lg, &u, "needs a game");
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM tournaments"),
	    2);

	/* Both are running; everything comes back as given. */
	assert_int_equal(league_tournaments(fx->lg, 0, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].id, 1);
	assert_string_equal(v[0].name, "spring");
	assert_int_equal(v[0].format, LEAGUE_ROUNDROBIN);
	assert_int_equal(v[0].status, LEAGUE_T_RUNNING);
	assert_string_equal(v[0].game, "nim 7 7 7");
	assert_int_equal(v[0].random, 1);
	assert_int_equal(v[0].base_ms, 60000);
	assert_int_equal(v[0].inc_ms, 500);
	assert_int_equal(v[0].games_per_pair, 2);
	assert_true(v[0].seed == UINT64_MAX - 5);
	assert_int_equal(v[0].nplayers, 3);
	assert_string_equal(v[0].players[0], "alice");
	assert_string_equal(v[0].players[1], "bob");
	assert_string_equal(v[0].players[2], "carol");
	assert_int_equal(v[1].id, 2);
	assert_string_equal(v[1].name, "summer");
	assert_int_equal(v[1].format, LEAGUE_GAUNTLET);
	assert_int_equal(v[1].random, 0);
	assert_true(v[1].seed == 7);
	assert_int_equal(v[1].nplayers, 2);
	assert_string_equal(v[1].players[0], "bob");
	assert_string_equal(v[1].players[1], "carol");
	league_tournaments_free(v, n);

	/* Finish one: only the other runs; all=1 lists both. */
	assert_int_equal(league_tournament_status(fx->lg, 1,
	    LEAGUE_T_FINISHED), 0);
	assert_int_equal(league_tournament_status(fx->lg, 99,
	    LEAGUE_T_FINISHED), -1);
	assert_int_equal(league_tournaments(fx->lg, 0, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "summer");
	league_tournaments_free(v, n);
	assert_int_equal(league_tournament_status(fx->lg, 2,
	    LEAGUE_T_CANCELLED), 0);
	assert_int_equal(league_tournaments(fx->lg, 0, &v, &n), 0);
	assert_int_equal(n, 0);
	league_tournaments_free(v, n);
	assert_int_equal(league_tournaments(fx->lg, 1, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].status, LEAGUE_T_FINISHED);
	assert_int_equal(v[1].status, LEAGUE_T_CANCELLED);
	league_tournaments_free(v, n);

	/* An owned copy frees with league_tournament_free. */
	memset(&u, 0, sizeof u);
	u.game = strdup("nim 1");
	u.players = calloc(2, sizeof *u.players);
	assert_non_null(u.players);
	u.players[0] = strdup("alice");
	u.players[1] = strdup("bob");
	u.nplayers = 2;
	league_tournament_free(&u);
	assert_null(u.players);
	assert_null(u.game);
}

/* Writes a game: seats, plies, status, result; throws by own move. */
struct gspec {
	const char	*p1, *p2;
	unsigned int	 nplies;
	enum store_status status;
	enum store_result result;
	unsigned int	 t1[4];		/* player 1's own moves that threw */
	unsigned int	 t2[4];		/* player 2's */
	int		 rated;
	int64_t		 tournament;
	unsigned int	 slot;
	const char	*tc;
};

/* Returns 1 if k is in the zero-terminated list t. */
static int
in_list(const unsigned int *t, unsigned int k)
{
	size_t	 i;

	for (i = 0; i < 4 && t[i] != 0; i++) {
		if (t[i] == k)
			return (1);
	}
	return (0);
}

/*
 * Writes a game through the store: player 1 moves at odd plies, player 2
 * at even ones; a player's k-th own move threw a win if k is in its list,
 * else it is no-win when k is a multiple of 3 and kept-win otherwise.
 * With end 0 the game is left live.
 */
static int64_t
gwrite(struct store *st, const struct gspec *sp, int end)
{
	struct store_game g;
	struct store_move m;
	char		 mv[32], pos[32];
	unsigned int	 ply, k;
	int64_t		 id;

	memset(&g, 0, sizeof g);
	memset(&m, 0, sizeof m);
	g.family = "nim";
	g.game = "nim 100";
	g.player1 = sp->p1;
	g.player2 = sp->p2;
	g.rated = sp->rated;
	g.tc = sp->tc;
	g.tournament = sp->tournament;
	g.slot = sp->slot;
	id = store_game_begin(st, &g);
	for (ply = 1; ply <= sp->nplies; ply++) {
		memset(&m, 0, sizeof m);
		k = (ply + 1) / 2;
		snprintf(mv, sizeof mv, "1=%u", 100 - ply);
		snprintf(pos, sizeof pos, "nim %u", 100 - ply);
		m.ply = ply;
		m.player = ply % 2 == 1 ? 1 : 2;
		m.move = mv;
		m.position = pos;
		m.time_ms = ply;
		if (in_list(m.player == 1 ? sp->t1 : sp->t2, k))
			m.mark = STORE_THREW_WIN;
		else
			m.mark = k % 3 == 0 ? STORE_NO_WIN : STORE_KEPT_WIN;
		store_move(st, id, &m);
	}
	if (end)
		store_game_end(st, id, sp->result, sp->status == STORE_FINISHED ?
		    "no-legal-move" : "eof", sp->status, NULL, NULL);
	return (id);
}

/* Sleeps a few milliseconds, so that the next end time differs. */
static void
tick(void)
{
	struct timespec	 ts = { 0, 5 * 1000000L };

	nanosleep(&ts, NULL);
}

/* Tournament games and the rated games, in the order they ended. */
static void
test_games(void **state)
{
	struct fixture	*fx = *state;
	char		*ab[] = { (char *)"alice", (char *)"bob" };
	struct league_tournament t;
	struct league_tgame *tg;
	struct league_rgame *rg;
	struct gspec	 sp;
	int64_t		 id[8];
	size_t		 n, i;
	char		 err[512], txt[64];

	open_both(fx, 5, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	tdef(&t, "cup", ab, 2);
	assert_int_equal(league_tournament_create(fx->lg, &t, err,
	    sizeof err), 0);

	/* 1: slot 0, finished (ends last); 2: slot 1, finished. */
	memset(&sp, 0, sizeof sp);
	sp.p1 = "alice";
	sp.p2 = "bob";
	sp.nplies = 3;
	sp.status = STORE_FINISHED;
	sp.result = STORE_RESULT_FIRST;
	sp.rated = 1;
	sp.tc = "60000+500";
	sp.tournament = t.id;
	sp.slot = 0;
	id[0] = gwrite(fx->st, &sp, 0);
	sp.p1 = "bob";
	sp.p2 = "alice";
	sp.slot = 1;
	sp.result = STORE_RESULT_SECOND;
	id[1] = gwrite(fx->st, &sp, 1);
	assert_int_equal(store_flush(fx->st), 0);
	tick();
	/* 3: slot 1 again after 2 was cut off: abandoned, then replayed. */
	sp.slot = 2;
	sp.status = STORE_ABANDONED;
	sp.result = STORE_RESULT_NONE;
	id[2] = gwrite(fx->st, &sp, 1);
	/* 4: slot 3, live. */
	sp.slot = 3;
	id[3] = gwrite(fx->st, &sp, 0);
	/* 5: a free rated game; 6: a free unrated one; 7: rated, no result. */
	memset(&sp, 0, sizeof sp);
	sp.p1 = "bob";
	sp.p2 = "alice";
	sp.nplies = 2;
	sp.status = STORE_FINISHED;
	sp.result = STORE_RESULT_SECOND;
	sp.rated = 1;
	sp.tc = "5000";
	id[4] = gwrite(fx->st, &sp, 1);
	sp.rated = 0;
	sp.p1 = "conn:7";
	sp.p2 = "engine";
	id[5] = gwrite(fx->st, &sp, 1);
	sp.rated = 1;
	sp.p1 = "alice";
	sp.p2 = "bob";
	sp.result = STORE_RESULT_NONE;
	id[6] = gwrite(fx->st, &sp, 1);
	assert_int_equal(store_flush(fx->st), 0);
	tick();
	store_game_end(fx->st, id[0], STORE_RESULT_FIRST, "resign",
	    STORE_FINISHED, NULL, NULL);
	assert_int_equal(store_flush(fx->st), 0);

	/* What the store wrote. */
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games WHERE "
	    "rated = 1"), 6);
	assert_int_equal(raw_int(fx->path, "SELECT slot FROM games WHERE "
	    "id = 2"), 1);
	assert_int_equal(raw_int(fx->path, "SELECT tournament_id FROM games "
	    "WHERE id = 4"), t.id);
	raw_text(fx->path, "SELECT tc FROM games WHERE id = 1", txt,
	    sizeof txt);
	assert_string_equal(txt, "60000+500");
	raw_text(fx->path, "SELECT tournament_id FROM games WHERE id = 5",
	    txt, sizeof txt);
	assert_string_equal(txt, "(null)");
	raw_text(fx->path, "SELECT slot FROM games WHERE id = 5", txt,
	    sizeof txt);
	assert_string_equal(txt, "(null)");
	assert_int_equal(raw_int(fx->path, "SELECT rated FROM games WHERE "
	    "id = 6"), 0);

	/* The tournament's games, by id, whatever their state. */
	assert_int_equal(league_tournament_games(fx->lg, t.id, &tg, &n), 0);
	assert_int_equal(n, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(tg[i].game_id, id[i]);
		assert_int_equal(tg[i].slot, i);
		assert_int_equal(tg[i].finished, i < 2);
		assert_int_equal(tg[i].result, i < 2 ? (int)i + 1 : 0);
	}
	assert_string_equal(tg[0].player1, "alice");
	assert_string_equal(tg[0].player2, "bob");
	assert_string_equal(tg[1].player1, "bob");
	assert_string_equal(tg[1].player2, "alice");
	free(tg);
	assert_int_equal(league_tournament_games(fx->lg, 99, &tg, &n), 0);
	assert_int_equal(n, 0);
	free(tg);

	/* Rated, finished, with a result: 2, 5, then 1 (it ended last). */
	assert_int_equal(league_rated_games(fx->lg, &rg, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(rg[0].game_id, id[1]);
	assert_string_equal(rg[0].player1, "bob");
	assert_string_equal(rg[0].player2, "alice");
	assert_int_equal(rg[0].result, 2);
	assert_int_equal(rg[1].game_id, id[4]);
	assert_int_equal(rg[1].result, 2);
	assert_int_equal(rg[2].game_id, id[0]);
	assert_string_equal(rg[2].player1, "alice");
	assert_int_equal(rg[2].result, 1);
	free(rg);

	/* A zeroed store_game is an unrated game outside tournaments. */
	memset(&sp, 0, sizeof sp);
	sp.p1 = "conn:1";
	sp.p2 = "engine";
	id[7] = gwrite(fx->st, &sp, 0);
	assert_int_equal(store_flush(fx->st), 0);
	raw_text(fx->path, "SELECT rated || ',' || COALESCE(tc, 'null') || ','"
	    " || COALESCE(tournament_id, 'null') || ',' || COALESCE(slot,"
	    " 'null') FROM games WHERE id = 8", txt, sizeof txt);
	assert_string_equal(txt, "0,null,null,null");
}

/* Checks league_player for name: its return and the player command's text. */
static void
player_is(struct league *lg, const char *name, int want, const char *text)
{
	struct league_player p;
	struct buf	 b;
	char		 err[512];
	int		 r;

	buf_init(&b);
	r = league_player(lg, name, &p, err, sizeof err);
	if (r == 0)
		cmd_log_player(&b, &p, 1500);
	else
		buf_puts(&b, err);
	if (r != want || strcmp(buf_str(&b), text) != 0)
		fail_msg("player %s: %d\n%s\nexpected %d\n%s", name, r,
		    buf_str(&b), want, text);
	buf_free(&b);
}

/*
 * The statistics against figures worked out by hand.  Only finished
 * games count.  alice: games 1 (won), 2 (lost), 3 (lost), 5 (won), 6
 * (won), 7 (won); moves 4 + 10 + 1 + 25 + 15 + 2 = 57, of which 8 threw a
 * win, so 49 / 57 = 85.96% is "85.9%"; she threw in games 1 (first at
 * her 3rd move), 2 (7th), 5 (21st), 6 (12th) and 7 (1st).  bob: games 1
 * (lost), 2 (won), 6 (lost), 7 (lost), 9 (won); moves 3 + 10 + 15 + 1 + 2
 * = 31 with 2 throws: 29 / 31 = 93.55%, "93.5%"; first throws at his 1st
 * move (game 1) and 2nd (game 9).
 */
static void
test_player(void **state)
{
	struct fixture	*fx = *state;
	static const int64_t want[LEAGUE_THROW_BUCKETS] = {
		1, 0, 1, 0, 0, 1, 1, 1
	};
	static const unsigned int bounds[LEAGUE_THROW_BUCKETS][2] = {
		{ 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 }, { 6, 10 },
		{ 11, 20 }, { 21, 0 }
	};
	struct league_player p;
	char		 err[256];
	unsigned int	 lo, hi;
	static const struct gspec games[] = {
		{ "alice", "bob", 7, STORE_FINISHED, STORE_RESULT_FIRST,
		    { 3 }, { 1 }, 1, 0, 0, NULL },
		{ "bob", "alice", 20, STORE_FINISHED, STORE_RESULT_FIRST,
		    { 0 }, { 7, 9 }, 1, 0, 0, NULL },
		{ "alice", "carol", 2, STORE_FINISHED, STORE_RESULT_SECOND,
		    { 0 }, { 0 }, 0, 0, 0, NULL },
		{ "alice", "bob", 5, STORE_ABANDONED, STORE_RESULT_NONE,
		    { 1 }, { 1 }, 1, 0, 0, NULL },
		{ "engine", "alice", 50, STORE_FINISHED, STORE_RESULT_SECOND,
		    { 0 }, { 22, 21 }, 0, 0, 0, NULL },
		{ "alice", "bob", 30, STORE_FINISHED, STORE_RESULT_FIRST,
		    { 15, 12 }, { 0 }, 1, 0, 0, NULL },
		{ "alice", "bob", 3, STORE_FINISHED, STORE_RESULT_FIRST,
		    { 1 }, { 0 }, 1, 0, 0, NULL },
		{ "alice", "carol", 1, STORE_LIVE, STORE_RESULT_NONE,
		    { 1 }, { 0 }, 1, 0, 0, NULL },
		{ "bob", "carol", 4, STORE_FINISHED, STORE_RESULT_FIRST,
		    { 2 }, { 0 }, 0, 0, 0, NULL },
	};
	size_t		 i;

	open_both(fx, 5, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	reg_ok(fx->lg, "carol");
	reg_ok(fx->lg, "dave");
	for (i = 0; i < sizeof games / sizeof games[0]; i++)
		gwrite(fx->st, &games[i], games[i].status != STORE_LIVE);
	assert_int_equal(store_flush(fx->st), 0);

	player_is(fx->lg, "alice", 0,
	    "account alice\n"
	    "rating 1500\n"
	    "games 6 wins 4 losses 2\n"
	    "moves 57 optimal 85.9%\n"
	    "threw-win-games 5\n"
	    "first-throw 1:1 2:0 3:1 4:0 5:0 6-10:1 11-20:1 21+:1");
	player_is(fx->lg, "bob", 0,
	    "account bob\n"
	    "rating 1500\n"
	    "games 5 wins 2 losses 3\n"
	    "moves 31 optimal 93.5%\n"
	    "threw-win-games 2\n"
	    "first-throw 1:1 2:1 3:0 4:0 5:0 6-10:0 11-20:0 21+:0");
	/* carol: game 3 (won, ply 2), game 9 (lost, plies 2 and 4). */
	player_is(fx->lg, "carol", 0,
	    "account carol\n"
	    "rating 1500\n"
	    "games 2 wins 1 losses 1\n"
	    "moves 3 optimal 100.0%\n"
	    "threw-win-games 0\n"
	    "first-throw 1:0 2:0 3:0 4:0 5:0 6-10:0 11-20:0 21+:0");
	player_is(fx->lg, "dave", 0,
	    "account dave\n"
	    "rating 1500\n"
	    "games 0 wins 0 losses 0\n"
	    "moves 0 optimal -\n"
	    "threw-win-games 0\n"
	    "first-throw 1:0 2:0 3:0 4:0 5:0 6-10:0 11-20:0 21+:0");
	player_is(fx->lg, "zed", -1, "no account zed");
	player_is(fx->lg, "engine", -1, "bad account name");

	/* The same figures as data. */
	assert_int_equal(league_player(fx->lg, "alice", &p, err, sizeof err),
	    0);
	assert_string_equal(p.name, "alice");
	assert_int_equal(p.games, 6);
	assert_int_equal(p.wins, 4);
	assert_int_equal(p.losses, 2);
	assert_int_equal(p.moves, 57);
	assert_int_equal(p.optimal, 49);
	assert_int_equal(p.threw_win_games, 5);
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++)
		assert_int_equal(p.first_throw[i], want[i]);
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++) {
		league_throw_bucket(i, &lo, &hi);
		assert_int_equal(lo, bounds[i][0]);
		assert_int_equal(hi, bounds[i][1]);
	}
}

/* A version-1 log keeps its games and gets the new columns' defaults. */
static void
test_migrate(void **state)
{
	struct fixture	*fx = *state;
	sqlite3		*db;
	char		 err[512], txt[64];

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

/* The league refuses what it cannot use. */
static void
test_open_fails(void **state)
{
	struct fixture	*fx = *state;
	struct league_limits lim = { 5, 30 };
	struct league	*lg;
	char		 err[512], path[400];

	lg = league_open(":memory:", &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "in-memory"));

	snprintf(path, sizeof path, "%s/missing.db", fx->dir);
	lg = league_open(path, &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "cannot open"));

	/* A version-1 file: no league tables yet. */
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, 1, err, sizeof err), 0);
	lg = league_open(fx->path, &lim, err, sizeof err);
	assert_null(lg);
	assert_non_null(strstr(err, "is the schema migrated?"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test_setup_teardown(test_register, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lockout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lockout_address, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_account_life, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lockout_table, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tournaments, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_games, setup, teardown),
		cmocka_unit_test_setup_teardown(test_player, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_fails, setup,
		    teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
