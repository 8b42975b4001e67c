/*
 * league.c: accounts, tournaments and play statistics (league.h): the
 * connection and its helpers.
 *
 * One SQLite connection of its own (synchronous=FULL, like the store's
 * writer), used under one mutex, with every statement prepared at open.
 * The store has created and migrated the schema; league_open only opens
 * the file, so an in-memory database (which exists only inside the
 * store's connection) cannot hold accounts.
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

#include <sqlite3.h>

#include "buf.h"
#include "league-int.h"
#include "log.h"
#include "store.h"

/* The finished games of player ?1, with the seat the player had. */
#define LEAGUE_SQL_SEATS						\
	"WITH g AS (SELECT id,"						\
	" CASE WHEN player1 = ?1 THEN 1 ELSE 2 END AS seat FROM games"	\
	" WHERE (player1 = ?1 OR player2 = ?1) AND status = 'finished')"

const char *const league_sql[LEAGUE_S_N] = {
	"BEGIN",
	"COMMIT",
	"ROLLBACK",
	/* Refuses look-alikes: names that differ only in case. */
	"INSERT INTO accounts (name, hash, created_at) SELECT ?1, ?2, ?3"
	" WHERE NOT EXISTS (SELECT 1 FROM accounts"
	" WHERE name = ?1 COLLATE NOCASE)",
	"SELECT hash, disabled FROM accounts WHERE name = ?",
	"SELECT 1 FROM accounts WHERE name = ?",
	"INSERT INTO tournaments (name, format, status, game, random, base_ms,"
	" inc_ms, games_per_pair, seed, players, created_at, rounds,"
	" forfeit_s, sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, nstart)"
	" VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
	" ?)",
	"UPDATE tournaments SET status = ? WHERE id = ?",
	"UPDATE tournaments SET sprt_verdict = ? WHERE id = ?",
	"UPDATE tournaments SET players = ?, withdrawn = ? WHERE id = ?",
	"SELECT id, name, format, status, game, random, base_ms, inc_ms,"
	" games_per_pair, seed, players, rounds, forfeit_s, sprt_elo0,"
	" sprt_elo1, sprt_alpha, sprt_beta, sprt_verdict, nstart, withdrawn"
	" FROM tournaments"
	" WHERE ?1 OR status IN ('running', 'paused') ORDER BY id",
	"SELECT id, slot, status, result, player1, player2 FROM games"
	" WHERE tournament_id = ? ORDER BY id",
	"SELECT id, player1, player2, result FROM games"
	" WHERE rating_seq IS NOT NULL ORDER BY rating_seq",
	/* Games, wins, losses. */
	"SELECT COUNT(*), COALESCE(SUM(result = CASE WHEN player1 = ?1"
	" THEN 'first' ELSE 'second' END), 0),"
	" COALESCE(SUM(result = CASE WHEN player1 = ?1"
	" THEN 'second' ELSE 'first' END), 0) FROM games"
	" WHERE (player1 = ?1 OR player2 = ?1) AND status = 'finished'",
	/* Moves, kept-win moves, threw-win moves. */
	LEAGUE_SQL_SEATS
	" SELECT COUNT(*), COALESCE(SUM(m.mark = 'kept-win'), 0),"
	" COALESCE(SUM(m.mark = 'threw-win'), 0)"
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

/* Describes a failed SQLite call in err, naming the usual causes. */
void
league_dberr(struct league *lg, char *err, size_t errlen, int rc,
    const char *what)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		snprintf(err, errlen, "%s: cannot %s: database is locked by "
		    "another process (waited %d ms)", lg->path, what,
		    LEAGUE_BUSY_MS);
		break;
	case SQLITE_READONLY:
		snprintf(err, errlen, "%s: cannot %s: database is read-only",
		    lg->path, what);
		break;
	case SQLITE_FULL:
		snprintf(err, errlen, "%s: cannot %s: disk full (or the size "
		    "cap reached)", lg->path, what);
		break;
	default:
		snprintf(err, errlen, "%s: cannot %s: %s", lg->path, what,
		    sqlite3_errmsg(lg->db));
		break;
	}
	log_warnx("league=%s event=db-error what=\"%s\" code=%d error=\"%s\"",
	    lg->path, what, rc, sqlite3_errmsg(lg->db));
}

/* Logs a failed SQLite call where no message goes back; returns -1. */
int
league_dbfail(struct league *lg, int rc, const char *what)
{
	char	 err[512];

	league_dberr(lg, err, sizeof err, rc, what);
	return (-1);
}

/*
 * Ends a read of the rows v[0..*np) by s, begun with lg->mtx locked:
 * resets s, logs what failed unless rc is SQLITE_DONE, and unlocks.  On
 * that error frees v and sets *np to 0.  Returns v, or NULL on the error.
 */
void *
league_rows_end(struct league *lg, sqlite3_stmt *s, int rc, const char *what,
    void *v, size_t *np)
{
	store_done(s);
	if (rc != SQLITE_DONE)
		league_dbfail(lg, rc, what);
	pthread_mutex_unlock(&lg->mtx);
	if (rc == SQLITE_DONE)
		return (v);
	free(v);
	*np = 0;
	return (NULL);
}

/* Binds a text (copied by SQLite: it may be freed before the step). */
int
league_bind(sqlite3_stmt *s, int i, const char *t)
{
	return (sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT));
}

/* Returns a column as text, "" when NULL. */
const char *
league_col(sqlite3_stmt *s, int i)
{
	const unsigned char *t;

	t = sqlite3_column_text(s, i);
	return (t != NULL ? (const char *)t : "");
}

/* Frees the statements, the connection and the league. */
static void
league_free(struct league *lg)
{
	int	 i;

	for (i = 0; i < LEAGUE_S_N; i++)
		sqlite3_finalize(lg->s[i]);
	sqlite3_close(lg->db);
	pthread_mutex_destroy(&lg->mtx);
	free(lg->fails);
	free(lg->path);
	free(lg);
}

/*
 * Opens the league on the database file at path, which the store has
 * migrated.  Returns NULL with err filled in on failure.
 */
struct league *
league_open(const char *path, const struct league_limits *limits,
    char *err, size_t errlen)
{
	struct league	*lg;
	const char	*fname;
	int		 rc, i;

	lg = xcalloc(1, sizeof *lg);
	lg->path = xstrdup(path);
	lg->limits = *limits;
	pthread_mutex_init(&lg->mtx, NULL);

	rc = store_connect(path, SQLITE_OPEN_READWRITE, LEAGUE_BUSY_MS,
	    &lg->db);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    lg->db != NULL ? sqlite3_errmsg(lg->db) :
		    sqlite3_errstr(rc));
		goto fail;
	}
	fname = sqlite3_db_filename(lg->db, "main");
	if (fname == NULL || *fname == '\0') {
		snprintf(err, errlen, "%s: accounts need a database file, not "
		    "an in-memory database", path);
		goto fail;
	}
	if ((rc = store_exec1(lg->db, "PRAGMA synchronous = FULL", NULL, 0)) !=
	    SQLITE_OK ||
	    (rc = store_exec1(lg->db, "PRAGMA foreign_keys = ON", NULL, 0)) !=
	    SQLITE_OK) {
		league_dberr(lg, err, errlen, rc, "configure the connection");
		goto fail;
	}
	for (i = 0; i < LEAGUE_S_N; i++) {
		rc = sqlite3_prepare_v2(lg->db, league_sql[i], -1, &lg->s[i],
		    NULL);
		if (rc != SQLITE_OK) {
			snprintf(err, errlen, "%s: cannot prepare the league's "
			    "queries (is the schema migrated?): %s", path,
			    sqlite3_errmsg(lg->db));
			goto fail;
		}
	}
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
league_result(sqlite3_stmt *s, int i)
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
	char		 when[32], err[256];
	sqlite3_stmt	*s = NULL;
	int64_t		 id = -1;
	int		 rc;

	store_now(when, sizeof when);
	pthread_mutex_lock(&lg->mtx);
	rc = sqlite3_prepare_v2(lg->db, "INSERT INTO daemon_starts"
	    " (started_at) VALUES (?)", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		league_bind(s, 1, when);
		if ((rc = sqlite3_step(s)) == SQLITE_DONE) {
			rc = SQLITE_OK;
			id = sqlite3_last_insert_rowid(lg->db);
		}
	}
	if (rc != SQLITE_OK)
		league_dberr(lg, err, sizeof err, rc, "record the start");
	sqlite3_finalize(s);
	pthread_mutex_unlock(&lg->mtx);
	return (id);
}
