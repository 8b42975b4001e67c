/*
 * league-locks.c: failed-login locks shared by the nodes of one PostgreSQL
 * database (issue 15 §1; PROTOCOL.md §13.1).
 *
 * Each node counts failed logins in its own memory (league-account.c, on
 * the caller's clock).  When a count reaches its limit there, the node
 * also publishes the lock in the table login_locks (migration 010): the
 * (name, address) pair, or the address alone (name ''), the node that
 * locked it, and until when, on the database's clock, so that the nodes'
 * own clocks need not agree.  Before hashing a password every node reads
 * the locks the other nodes published for the name and the address; one
 * that has not run out refuses the login as the node's own lock would.  A
 * new password (league_reset) lifts the name's published locks.  Rows
 * that ran out are deleted when a lock is published.
 *
 * On SQLite (one daemon per database) the locks in memory are all there
 * is: nothing here runs, and no statement is prepared.  league.c opens and
 * closes this part, so it uses none of league.c's helpers (no cycle).
 */
#include <sys/random.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "league/league-int.h"
#include "lib/log.h"

/* The database's clock in milliseconds since the epoch. */
#define LOCKS_NOW	"CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000" \
			" AS BIGINT)"

static const char *const league_locks_sql[LEAGUE_L_N] = {
	/* Another node's locks of (name ?1 or '', address ?2): ms left. */
	"SELECT name, until_ms - " LOCKS_NOW " FROM login_locks"
	" WHERE addr = ?2 AND name IN (?1, '') AND node <> ?3"
	" AND until_ms > " LOCKS_NOW " ORDER BY name",
	"INSERT INTO login_locks (name, addr, node, until_ms)"
	" VALUES (?1, ?2, ?3, " LOCKS_NOW " + ?4)"
	" ON CONFLICT (name, addr) DO UPDATE SET node = excluded.node,"
	" until_ms = excluded.until_ms",
	"DELETE FROM login_locks WHERE until_ms <= " LOCKS_NOW,
	"DELETE FROM login_locks WHERE name = ?1",
};

/* Logs a failed call (the login goes on: the node's own locks hold). */
static void
league_locks_fail(struct league *lg, const char *what)
{
	log_warnx("league=%s event=db-error what=\"%s\" class=%s "
	    "error=\"%s\"", lg->path, what,
	    sqldb_err_names[sqldb_errclass(lg->db)], sqldb_errmsg(lg->db));
}

/* Runs a bound statement to its end and resets it; 0, or -1. */
static int
league_locks_run(struct sqldb_stmt *s)
{
	int	 rc;

	rc = sqldb_step(s);
	sqldb_reset(s);
	return (rc == -1 ? -1 : 0);
}

/* Prepares the statements on PostgreSQL, names the node; 0, or -1. */
int
league_locks_init(struct league *lg, char *err, size_t errlen)
{
	uint64_t	 id;
	int		 i;

	if (sqldb_backend(lg->db) != SQLDB_PG)
		return (0);
	if (getrandom(&id, sizeof id, 0) != sizeof id) {
		snprintf(err, errlen, "cannot name the node: no random bytes");
		return (-1);
	}
	snprintf(lg->node, sizeof lg->node, "%016" PRIx64, id);
	for (i = 0; i < LEAGUE_L_N; i++) {
		if (sqldb_prepare(lg->db, league_locks_sql[i], 0,
		    &lg->lk[i]) == -1) {
			snprintf(err, errlen, "%s: cannot prepare the league's "
			    "queries (is the schema migrated?): %s", lg->path,
			    sqldb_errmsg(lg->db));
			return (-1);
		}
	}
	return (0);
}

/* Frees the statements. */
void
league_locks_free(struct league *lg)
{
	int	 i;

	for (i = 0; i < LEAGUE_L_N; i++)
		sqldb_finalize(lg->lk[i]);
}

/*
 * Returns the milliseconds that another node's lock of (name, addr), or
 * of addr, has left, 0 if none (nor on SQLite, nor on a database error,
 * logged); *byaddr tells which (mtx held).
 */
uint64_t
league_locks_left(struct league *lg, const char *name, const char *addr,
    int *byaddr)
{
	struct sqldb_stmt *s = lg->lk[LEAGUE_L_CHECK];
	uint64_t	 left = 0;
	int		 rc;

	*byaddr = 0;
	if (s == NULL)
		return (0);
	if ((rc = sqldb_bind_text(s, 1, name)) == 0 &&
	    (rc = sqldb_bind_text(s, 2, addr)) == 0 &&
	    (rc = sqldb_bind_text(s, 3, lg->node)) == 0)
		rc = sqldb_step(s);
	if (rc == SQLDB_ROW) {		/* '' first: the address's */
		*byaddr = sqldb_column_null(s, 0) ||
		    *sqldb_column_text(s, 0) == '\0';
		left = (uint64_t)sqldb_column_int64(s, 1);
	} else if (rc == -1)
		league_locks_fail(lg, "read the login locks");
	sqldb_reset(s);
	return (left);
}

/* Publishes this node's lock of (name, addr) for lockout_s (mtx held). */
void
league_locks_publish(struct league *lg, const char *name, const char *addr,
    unsigned int lockout_s)
{
	struct sqldb_stmt *s = lg->lk[LEAGUE_L_PUBLISH];
	int		 rc;

	if (s == NULL)
		return;
	if (league_locks_run(lg->lk[LEAGUE_L_EXPIRE]) == -1)
		league_locks_fail(lg, "delete the old login locks");
	if ((rc = sqldb_bind_text(s, 1, name)) == 0 &&
	    (rc = sqldb_bind_text(s, 2, addr)) == 0 &&
	    (rc = sqldb_bind_text(s, 3, lg->node)) == 0 &&
	    (rc = sqldb_bind_int64(s, 4, (int64_t)lockout_s * 1000)) == 0)
		rc = league_locks_run(s);
	else
		sqldb_reset(s);
	if (rc == -1)
		league_locks_fail(lg, "publish the login lock");
}

/* Lifts every published lock of name (mtx held). */
void
league_locks_clear(struct league *lg, const char *name)
{
	struct sqldb_stmt *s = lg->lk[LEAGUE_L_CLEAR];

	if (s == NULL)
		return;
	if (sqldb_bind_text(s, 1, name) == -1 || league_locks_run(s) == -1) {
		sqldb_reset(s);
		league_locks_fail(lg, "lift the login locks");
	}
}
