/*
 * test-league-db.c: the league tests' database on either back end
 * (test-league-db.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-league-db.h"
#include "testdb.h"

#include "store/store.h"

int
lgdb_pg(void)
{
	return (getenv("SQLDB_PG_URL") != NULL);
}

const char *
lgdb_url(const struct fixture *fx)
{
	return (lgdb_pg() ? getenv("SQLDB_PG_URL") : fx->path);
}

struct sqldb *
lgdb_conn(const struct fixture *fx)
{
	struct sqldb	*db;
	char		 err[512];

	if (sqldb_open(lgdb_url(fx), &db, err, sizeof err) == -1)
		fail_msg("open %s: %s", lgdb_url(fx), err);
	return (db);
}

void
lgdb_reset(const struct fixture *fx)
{
	struct sqldb	*db;
	char		 f[400];

	if (!lgdb_pg()) {
		unlink(fx->path);
		snprintf(f, sizeof f, "%s-wal", fx->path);
		unlink(f);
		snprintf(f, sizeof f, "%s-shm", fx->path);
		unlink(f);
		return;
	}
	db = lgdb_conn(fx);
	/* A test that failed with a transaction open: no endless wait. */
	if (sqldb_busy_timeout(db, 10000) == -1 ||
	    sqldb_exec(db, "SET client_min_messages = warning;"
	    " DROP SCHEMA public CASCADE; CREATE SCHEMA public") == -1)
		fail_msg("reset: %s", sqldb_errmsg(db));
	sqldb_close(db);
}

void
lgdb_migrate(const struct fixture *fx, int upto)
{
	struct sqldb	*db;
	char		 err[512];
	const struct sqldb_migration *list = store_migrations;
	size_t		 n = store_nmigrations;

	if (lgdb_pg()) {
		list = sqldb_pg_migrations;
		n = sqldb_pg_nmigrations;
	}
	db = lgdb_conn(fx);
	if (sqldb_migrate(db, list, n, upto < 0 ? (int)n : upto, err,
	    sizeof err) == -1)
		fail_msg("migrate: %s", err);
	sqldb_close(db);
}

void
lgdb_fresh(const struct fixture *fx)
{
	lgdb_reset(fx);
	lgdb_migrate(fx, -1);
}

struct league *
lgdb_league(const struct fixture *fx, unsigned int failures,
    unsigned int lockout_s)
{
	struct league_limits lim = { failures, lockout_s, 0 };
	struct league	*lg;
	char		 err[512];

	err[0] = '\0';
	if ((lg = league_open(lgdb_url(fx), &lim, err, sizeof err)) == NULL)
		fail_msg("league_open: %s", err);
	return (lg);
}

void
lgdb_exec(const struct fixture *fx, const char *sql)
{
	struct sqldb	*db = lgdb_conn(fx);

	if (sqldb_exec(db, sql) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	sqldb_close(db);
}

/* Runs sql on a connection of its own to its first row, as text (NULL:
 * "(null)", no row: "(none)"). */
void
lgdb_text(const struct fixture *fx, const char *sql, char *out, size_t len)
{
	struct sqldb	*db = lgdb_conn(fx);
	struct sqldb_stmt *s;
	const char	*t;
	int		 rc;

	snprintf(out, len, "(none)");
	if (sqldb_prepare(db, sql, 0, &s) == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	if ((rc = sqldb_step(s)) == SQLDB_ROW) {
		t = sqldb_column_text(s, 0);
		snprintf(out, len, "%s", t != NULL ? t : "(null)");
	} else if (rc == -1)
		fail_msg("%s: %s", sql, sqldb_errmsg(db));
	sqldb_finalize(s);
	sqldb_close(db);
}

/* The first column of the first row as an integer (-1: no row). */
int64_t
lgdb_int(const struct fixture *fx, const char *sql)
{
	char	 t[64];

	lgdb_text(fx, sql, t, sizeof t);
	if (strcmp(t, "(none)") == 0)
		return (-1);
	return (strtoll(t, NULL, 10));
}

/* Logs in at now and checks the return and the message ("" for none). */
void
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
