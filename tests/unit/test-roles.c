/*
 * test-roles.c: roles are granted, never claimed (issue 25 §5,
 * PROTOCOL.md §13.1): migration 014 from version 13 (existing accounts
 * become players, the role is checked), and league_grant / league_role,
 * on SQLite (a temporary file) and on PostgreSQL (a throwaway cluster:
 * run without SQLDB_PG_URL, this program runs itself again under
 * pgcluster.sh run), with test-node.c's helpers (testnode.h).
 */
#include <stdio.h>
#include <string.h>

#include "league/league.h"
#include "db/sqldb.h"
#include "store/store.h"
#include "testutil.h"
#define TG_NAME "test-roles"
#include "testgroup.h"
#include "testnode.h"

static struct league *
league(void)
{
	struct league_limits lim = { 3, 30, 4 };
	struct league	*lg;
	char		 err[512];

	if ((lg = league_open(url(), &lim, err, sizeof err)) == NULL)
		fail_msg("league_open: %s", err);
	return (lg);
}

/* Migration 014 from version 13: every existing account is a player,
 * whatever its name; a role other than player or admin is refused. */
static void
t_migrate14(void **state)
{
	const struct sqldb_migration *l;
	struct sqldb	*db = fresh_at(13);
	char		 err[512];
	size_t		 n;

	(void)state;
	ok(db, sqldb_exec(db, "INSERT INTO accounts (name, hash, created_at)"
	    " VALUES ('boss', '$y$x', 't'), ('pat', '$y$y', 't')"));
	l = migrations(&n);
	assert_int_equal(sqldb_migrate(db, l, n, 14, err, sizeof err), 0);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM accounts WHERE "
	    "role = 'player'"), 2);
	assert_int_equal(sqldb_exec(db, "UPDATE accounts SET role = 'root' "
	    "WHERE name = 'pat'"), -1);
	assert_int_equal(sqldb_errclass(db), SQLDB_CONSTRAINT);
	ok(db, sqldb_exec(db, "INSERT INTO accounts (name, hash, created_at)"
	    " VALUES ('carl', '$y$z', 't')"));
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM accounts WHERE "
	    "role = 'player'"), 3);
	sqldb_close(db);
}

/* Granted by the operator: a new account, an existing one (its password
 * replaced, enabled again), a revocation; refusals change nothing. */
static void
t_grant(void **state)
{
	struct sqldb	*db = fresh();
	struct league	*lg = league();
	char		 err[512];

	(void)state;
	assert_int_equal(league_register(lg, "pat", "password1", err,
	    sizeof err), 0);
	assert_int_equal(league_register(lg, "Boss", "password1", err,
	    sizeof err), 0);
	assert_int_equal(league_role(lg, "pat"), 0);
	assert_int_equal(league_role(lg, "nobody"), 0);
	/* New. */
	assert_int_equal(league_grant(lg, "root", "rootpass1", 1, err,
	    sizeof err), 1);
	assert_int_equal(league_role(lg, "root"), 1);
	assert_int_equal(league_login(lg, "root", "rootpass1", 1, err,
	    sizeof err), 0);
	/* Existing and disabled: the operator's password, enabled. */
	assert_int_equal(league_disable(lg, "pat", "spam", err, sizeof err), 0);
	assert_int_equal(league_grant(lg, "pat", "operator1", 1, err,
	    sizeof err), 0);
	assert_int_equal(league_role(lg, "pat"), 1);
	assert_int_equal(league_login(lg, "pat", "password1", 2, err,
	    sizeof err), -1);
	assert_int_equal(league_login(lg, "pat", "operator1", 3, err,
	    sizeof err), 0);
	/* Refused, nothing changed: a look-alike, a bad password, a bad
	 * name, revoking nobody. */
	assert_int_equal(league_grant(lg, "boss", "password1", 1, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "look-alike"));
	assert_int_equal(league_role(lg, "Boss"), 0);
	assert_int_equal(league_grant(lg, "new", "short", 1, err,
	    sizeof err), -1);
	assert_int_equal(league_exists(lg, "new"), 0);
	assert_int_equal(league_grant(lg, "engine", "password1", 1, err,
	    sizeof err), -1);
	assert_int_equal(league_grant(lg, "nobody", NULL, 0, err,
	    sizeof err), -1);
	assert_string_equal(err, "no account nobody");
	/* Revoked: a player, the password kept. */
	assert_int_equal(league_grant(lg, "pat", NULL, 0, err, sizeof err), 0);
	assert_int_equal(league_role(lg, "pat"), 0);
	assert_int_equal(league_login(lg, "pat", "operator1", 4, err,
	    sizeof err), 0);
	assert_int_equal(int1(db, "SELECT COUNT(*) FROM accounts WHERE "
	    "role = 'admin'"), 1);
	league_close(lg);
	sqldb_close(db);
}

TP_MAIN("roles",
    BOTH(t_migrate14),
    BOTH(t_grant))
