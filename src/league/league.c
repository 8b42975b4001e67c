/*
 * league.c: accounts, tournaments and play statistics (league.h): the
 * connection and its helpers.
 *
 * One connection of its own (sqldb.h: an SQLite file, synchronous=FULL
 * like the store's writer, or a PostgreSQL URL), used under one mutex,
 * with every statement prepared at open.  The store has created and
 * migrated the schema; league_open only opens the database (an SQLite
 * file is never created), so an in-memory database (which exists only
 * inside the store's connection) cannot hold accounts.
 *
 * The code: league.c opens and closes the league, league-account.c has
 * the accounts and logins, league-tour.c the tournaments, league-stats.c
 * the rated games and the play statistics (league-int.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "league/league-int.h"
#include "lib/log.h"

/* The finished games of player ?1, with the seat the player had. */
#define LEAGUE_SQL_SEATS						\
	"WITH g AS (SELECT id,"						\
	" CASE WHEN player1 = ?1 THEN 1 ELSE 2 END AS seat FROM games"	\
	" WHERE (player1 = ?1 OR player2 = ?1) AND status = 'finished')"

const char *const league_sql[LEAGUE_S_N] = {
	/*
	 * Refuses look-alikes: names that differ only in case (names are
	 * ASCII: lower() folds them as COLLATE NOCASE did).  Two nodes that
	 * insert at once both pass the NOT EXISTS; on PostgreSQL the unique
	 * index on lower(name) (db/pg/002) stops the second.
	 */
	"INSERT INTO accounts (name, hash, created_at) SELECT ?1, ?2, ?3"
	" WHERE NOT EXISTS (SELECT 1 FROM accounts"
	" WHERE lower(name) = lower(?1))",
	"SELECT hash, disabled FROM accounts WHERE name = ?",
	"SELECT 1 FROM accounts WHERE name = ?",
	"INSERT INTO tournaments (name, format, status, game, random, base_ms,"
	" inc_ms, games_per_pair, seed, players, created_at, rounds,"
	" forfeit_s, sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, nstart,"
	" tiebreaks)"
	" VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
	" ?, ?)",
	"UPDATE tournaments SET status = ? WHERE id = ?",
	"UPDATE tournaments SET sprt_verdict = ? WHERE id = ?",
	"UPDATE tournaments SET players = ?, withdrawn = ? WHERE id = ?",
	"UPDATE tournaments SET byes = ?, stopped = ? WHERE id = ?",
	"SELECT id, name, format, status, game, random, base_ms, inc_ms,"
	" games_per_pair, seed, players, rounds, forfeit_s, sprt_elo0,"
	" sprt_elo1, sprt_alpha, sprt_beta, sprt_verdict, nstart, withdrawn,"
	" tiebreaks FROM tournaments"
	" WHERE ?1 = 1 OR status IN ('running', 'paused') ORDER BY id",
	"SELECT id, slot, status, result, player1, player2,"
	" CASE WHEN reason = 'forfeit' THEN 1 ELSE 0 END FROM games"
	" WHERE tournament_id = ? ORDER BY id",
	"SELECT id, player1, player2, result FROM games"
	" WHERE rating_seq IS NOT NULL ORDER BY rating_seq",
	/* Games, wins, losses (sums of 0 and 1: no booleans summed). */
	"SELECT COUNT(*), COALESCE(SUM(CASE WHEN result = CASE WHEN"
	" player1 = ?1 THEN 'first' ELSE 'second' END THEN 1 ELSE 0 END),"
	" 0), COALESCE(SUM(CASE WHEN result = CASE WHEN player1 = ?1"
	" THEN 'second' ELSE 'first' END THEN 1 ELSE 0 END), 0) FROM games"
	" WHERE (player1 = ?1 OR player2 = ?1) AND status = 'finished'",
	/* Moves, kept-win moves, threw-win moves. */
	LEAGUE_SQL_SEATS
	" SELECT COUNT(*),"
	" COALESCE(SUM(CASE WHEN m.mark = 'kept-win' THEN 1 ELSE 0 END), 0),"
	" COALESCE(SUM(CASE WHEN m.mark = 'threw-win' THEN 1 ELSE 0 END), 0)"
	" FROM g JOIN moves AS m ON m.game_id = g.id AND m.player = g.seat",
	/* The first-throw histogram: bucket 1..8, games. */
	LEAGUE_SQL_SEATS
	", mv AS (SELECT m.game_id, m.mark,"
	" ROW_NUMBER() OVER (PARTITION BY m.game_id ORDER BY m.ply) AS k"
	" FROM g JOIN moves AS m ON m.game_id = g.id AND m.player = g.seat),"
	" f AS (SELECT MIN(k) AS k FROM mv WHERE mark = 'threw-win'"
	" GROUP BY game_id)"
	" SELECT CASE WHEN k <= 5 THEN k WHEN k <= 10 THEN 6"
	" WHEN k <= 20 THEN 7 ELSE 8 END AS b, COUNT(*) FROM f GROUP BY b",
	"SELECT status FROM tournaments WHERE id = ?",
};

/* Describes the failed database call in err, naming the usual causes. */
void
league_dberr(struct league *lg, char *err, size_t errlen, const char *what)
{
	enum sqldb_err	 e = sqldb_errclass(lg->db);

	switch (e) {
	case SQLDB_BUSY:
		snprintf(err, errlen, "%s: cannot %s: database is locked by "
		    "another process (waited %d ms)", lg->path, what,
		    LEAGUE_BUSY_MS);
		break;
	case SQLDB_FULL:
		snprintf(err, errlen, "%s: cannot %s: disk full (or the size "
		    "cap reached)", lg->path, what);
		break;
	case SQLDB_CONN:
		snprintf(err, errlen, "%s: cannot %s: database unreachable",
		    lg->path, what);
		break;
	default:
		snprintf(err, errlen, "%s: cannot %s: %s", lg->path, what,
		    sqldb_errmsg(lg->db));
		break;
	}
	log_warnx("league=%s event=db-error what=\"%s\" class=%s error=\"%s\"",
	    lg->path, what, sqldb_err_names[e], sqldb_errmsg(lg->db));
}

/* Logs a failed database call where no message goes back; returns -1. */
int
league_dbfail(struct league *lg, const char *what)
{
	char	 err[512];

	league_dberr(lg, err, sizeof err, what);
	return (-1);
}

/*
 * Ends a read of the rows v[0..*np) by s, begun with lg->mtx locked:
 * resets s, logs what failed unless rc is SQLDB_DONE, and unlocks.  On
 * that error frees v and sets *np to 0.  Returns v, or NULL on the error.
 */
void *
league_rows_end(struct league *lg, struct sqldb_stmt *s, int rc,
    const char *what, void *v, size_t *np)
{
	if (rc != SQLDB_DONE)
		league_dbfail(lg, what);
	sqldb_reset(s);
	pthread_mutex_unlock(&lg->mtx);
	if (rc == SQLDB_DONE)
		return (v);
	free(v);
	*np = 0;
	return (NULL);
}

/* Runs a bound statement to its end and resets it; returns 0, or -1. */
int
league_step(struct sqldb_stmt *s)
{
	int	 rc;

	rc = sqldb_step(s);
	sqldb_reset(s);
	return (rc == -1 ? -1 : 0);
}

/* Returns a column as text, "" when NULL. */
const char *
league_col(struct sqldb_stmt *s, int i)
{
	const char	*t;

	t = sqldb_column_text(s, i);
	return (t != NULL ? t : "");
}

/* Frees the statements, the connection and the league. */
static void
league_free(struct league *lg)
{
	int	 i;

	for (i = 0; i < LEAGUE_S_N; i++)
		sqldb_finalize(lg->s[i]);
	league_locks_free(lg);
	sqldb_close(lg->db);
	pthread_mutex_destroy(&lg->mtx);
	free(lg->fails);
	free(lg->path);
	free(lg);
}

/* Does path name a PostgreSQL database (as sqldb_open decides)? */
static int
league_is_pg(const char *path)
{
	return (strncmp(path, "postgresql://", 13) == 0 ||
	    strncmp(path, "postgres://", 11) == 0);
}

/*
 * The SQLite URI that opens the file at path read-write without creating
 * it ("file:" and mode=rw; '%', '?' and '#' escaped); a "file:" URI or
 * ":memory:" as it is.  Returns a string to free.
 */
static char *
league_lite_uri(const char *path)
{
	struct buf	 b;
	const char	*p;
	char		*uri;

	if (strncmp(path, "file:", 5) == 0 || strcmp(path, ":memory:") == 0 ||
	    *path == '\0')
		return (xstrdup(path));
	buf_init(&b);
	/* An empty authority: "//x" stays a path, not a host x. */
	buf_puts(&b, *path == '/' ? "file://" : "file:");
	for (p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			buf_printf(&b, "%%%02X", (unsigned char)*p);
		else
			buf_putc(&b, *p);
	}
	buf_puts(&b, "?mode=rw");
	uri = xstrdup(buf_str(&b));
	buf_free(&b);
	return (uri);
}

/* SQLite: refuses an in-memory database and configures the connection. */
static int
league_lite_setup(struct league *lg, char *err, size_t errlen)
{
	struct sqldb_stmt *s;
	int		 rc, file = 0;

	if (sqldb_prepare(lg->db, "SELECT file FROM pragma_database_list"
	    " WHERE name = 'main'", 0, &s) == -1) {
		league_dberr(lg, err, errlen, "configure the connection");
		return (-1);
	}
	if ((rc = sqldb_step(s)) == SQLDB_ROW)
		file = *league_col(s, 0) != '\0';
	sqldb_finalize(s);
	if (rc == -1) {
		league_dberr(lg, err, errlen, "configure the connection");
		return (-1);
	}
	if (!file) {
		snprintf(err, errlen, "%s: accounts need a database file, not "
		    "an in-memory database", lg->path);
		return (-1);
	}
	if (sqldb_exec(lg->db, "PRAGMA synchronous = FULL") == -1 ||
	    sqldb_exec(lg->db, "PRAGMA foreign_keys = ON") == -1) {
		league_dberr(lg, err, errlen, "configure the connection");
		return (-1);
	}
	return (0);
}

/* Opens lg->db on path (an SQLite file or a PostgreSQL URL). */
static int
league_connect(struct league *lg, const char *path, char *err, size_t errlen)
{
	char	*uri;
	int	 r;

	uri = league_is_pg(path) ? xstrdup(path) : league_lite_uri(path);
	r = sqldb_open(uri, &lg->db, err, errlen);
	free(uri);
	if (r == -1)
		return (-1);
	if (sqldb_busy_timeout(lg->db, LEAGUE_BUSY_MS) == -1) {
		league_dberr(lg, err, errlen, "configure the connection");
		return (-1);
	}
	if (sqldb_backend(lg->db) == SQLDB_SQLITE)
		return (league_lite_setup(lg, err, errlen));
	return (0);
}

/*
 * Opens the league on the database at path (an SQLite file or a
 * postgresql:// URL), which the store has migrated.  Returns NULL with err
 * filled in on failure.
 */
struct league *
league_open(const char *path, const struct league_limits *limits,
    char *err, size_t errlen)
{
	struct league	*lg;
	int		 i;

	lg = xcalloc(1, sizeof *lg);
	/* A URL may hold a password: messages name the back end only. */
	lg->path = xstrdup(league_is_pg(path) ? "postgresql" : path);
	lg->limits = *limits;
	pthread_mutex_init(&lg->mtx, NULL);

	if (league_connect(lg, path, err, errlen) == -1)
		goto fail;
	for (i = 0; i < LEAGUE_S_N; i++) {
		if (sqldb_prepare(lg->db, league_sql[i], i == LEAGUE_S_T_CREATE ?
		    SQLDB_RETURNING_ID : 0, &lg->s[i]) == -1) {
			snprintf(err, errlen, "%s: cannot prepare the league's "
			    "queries (is the schema migrated?): %s", lg->path,
			    sqldb_errmsg(lg->db));
			goto fail;
		}
	}
	if (league_locks_init(lg, err, errlen) == -1)
		goto fail;
	if (crypt_gensalt_rn(LEAGUE_PREFIX, 0, NULL, 0, lg->dummy,
	    sizeof lg->dummy) == NULL || lg->dummy[0] == '*') {
		snprintf(err, errlen, "libcrypt cannot make yescrypt hashes: "
		    "%s", strerror(errno));
		goto fail;
	}
	return (lg);

fail:
	league_free(lg);
	return (NULL);
}

/* Closes the league. */
void
league_close(struct league *lg)
{
	if (lg != NULL)
		league_free(lg);
}

/* Changes the failed-login limits (from the next login). */
void
league_set_limits(struct league *lg, const struct league_limits *limits)
{
	pthread_mutex_lock(&lg->mtx);
	lg->limits = *limits;
	pthread_mutex_unlock(&lg->mtx);
}

/* Returns a result column as 1 (first), 2 (second) or 0 (none). */
int
league_result(struct sqldb_stmt *s, int i)
{
	const char	*r = league_col(s, i);

	if (strcmp(r, "first") == 0)
		return (1);
	if (strcmp(r, "second") == 0)
		return (2);
	return (0);
}

/*
 * Records a start of the daemon; returns its id (1, 2, ...: never twice
 * the same on one database), or -1 on a database error.
 */
int64_t
league_start(struct league *lg)
{
	char		 when[32];
	struct sqldb_stmt *s = NULL;
	int64_t		 id = -1;

	clock_now_text(when, sizeof when);
	pthread_mutex_lock(&lg->mtx);
	if (sqldb_prepare(lg->db, "INSERT INTO daemon_starts (started_at)"
	    " VALUES (?)", SQLDB_RETURNING_ID, &s) == 0 &&
	    sqldb_bind_text(s, 1, when) == 0 && sqldb_step(s) == SQLDB_DONE)
		id = sqldb_last_id(lg->db);
	else
		league_dbfail(lg, "record the start");
	sqldb_finalize(s);
	pthread_mutex_unlock(&lg->mtx);
	return (id);
}
