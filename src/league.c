/*
 * league.c: accounts, tournaments and play statistics (league.h).
 *
 * One SQLite connection of its own (synchronous=FULL, like the store's
 * writer), used under one mutex, with every statement prepared at open.
 * The store has created and migrated the schema; league_open only opens
 * the file, so an in-memory database (which exists only inside the
 * store's connection) cannot hold accounts.
 *
 * Passwords are hashed with yescrypt (libcrypt) outside the mutex, so a
 * login does not hold up the other calls for tens of milliseconds.  A
 * login for a name without an account hashes against a dummy setting of
 * the same cost, so the time taken does not tell whether the name exists.
 *
 * Failed logins are counted per (name, source address) in a table in
 * memory (under the mutex): after limits.failures failures in a row the
 * name is locked for that address only, for limits.lockout_s seconds on
 * the caller's clock (now_ms); once the lock has run out the count starts
 * again from zero.  A success forgets the pair.  So a stranger who fails
 * on purpose locks only himself out, never the owner logging in from
 * elsewhere.  Each address also has an entry of its own (name ""): after
 * limits.addr_failures failures for any names within lockout_s seconds,
 * every login from that address is refused for lockout_s seconds (a
 * success does not clear it, so one's own account cannot reset it).  The
 * table holds at most LEAGUE_FAILS_MAX entries: a new one replaces the
 * least recently failed one that is not locked (or, if all are locked,
 * the least recently failed of all).  The check is made before the hash,
 * so concurrent logins may each get one attempt past the limit.
 */
#include <sys/types.h>

#include <crypt.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sqlite3.h>

#include "buf.h"
#include "league.h"
#include "log.h"
#include "store.h"

#define LEAGUE_BUSY_MS		5000
#define LEAGUE_FAILS_MAX	4096	/* names in the failed-login table */
#define LEAGUE_PREFIX		"$y$"	/* yescrypt */

/* The prepared statements. */
enum {
	LEAGUE_S_BEGIN,
	LEAGUE_S_COMMIT,
	LEAGUE_S_ROLLBACK,
	LEAGUE_S_REGISTER,
	LEAGUE_S_HASH,
	LEAGUE_S_EXISTS,
	LEAGUE_S_T_CREATE,
	LEAGUE_S_T_STATUS,
	LEAGUE_S_T_LIST,
	LEAGUE_S_T_GAMES,
	LEAGUE_S_RATED,
	LEAGUE_S_P_GAMES,
	LEAGUE_S_P_MOVES,
	LEAGUE_S_P_THROWS,
	LEAGUE_S_N
};

/* The finished games of player ?1, with the seat the player had. */
#define LEAGUE_SQL_SEATS						\
	"WITH g AS (SELECT id,"						\
	" CASE WHEN player1 = ?1 THEN 1 ELSE 2 END AS seat FROM games"	\
	" WHERE (player1 = ?1 OR player2 = ?1) AND status = 'finished')"

static const char *const league_sql[LEAGUE_S_N] = {
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
	" inc_ms, games_per_pair, seed, players, created_at)"
	" VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)",
	"UPDATE tournaments SET status = ? WHERE id = ?",
	"SELECT id, name, format, status, game, random, base_ms, inc_ms,"
	" games_per_pair, seed, players FROM tournaments"
	" WHERE ?1 OR status = 'running' ORDER BY id",
	"SELECT id, slot, status, result, player1, player2 FROM games"
	" WHERE tournament_id = ? ORDER BY id",
	"SELECT id, player1, player2, result FROM games"
	" WHERE rated = 1 AND status = 'finished' AND result IS NOT NULL"
	" ORDER BY ended_at, id",
	/* Games, wins, losses. */
	"SELECT COUNT(*), COALESCE(SUM(result = CASE WHEN player1 = ?1"
	" THEN 'first' ELSE 'second' END), 0),"
	" COALESCE(SUM(result = CASE WHEN player1 = ?1"
	" THEN 'second' ELSE 'first' END), 0) FROM games"
	" WHERE (player1 = ?1 OR player2 = ?1) AND status = 'finished'",
	/* Moves, optimal moves. */
	LEAGUE_SQL_SEATS
	" SELECT COUNT(*), COALESCE(SUM(m.mark <> 'threw-win'), 0)"
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
};

/* One (name, address)'s failed logins; name "" for the address's. */
struct league_fail {
	char		 name[LEAGUE_NAME_MAX + 1];
	char		 addr[LEAGUE_ADDR_MAX];
	uint64_t	 first_ms;	/* the address's: window start */
	unsigned int	 count;		/* failures in a row */
	uint64_t	 until_ms;	/* locked until then; 0: not locked */
	uint64_t	 last_ms;	/* the last failure */
};

struct league {
	char		*path;
	sqlite3		*db;
	sqlite3_stmt	*s[LEAGUE_S_N];
	pthread_mutex_t	 mtx;		/* everything here */
	struct league_limits limits;
	char		 dummy[CRYPT_GENSALT_OUTPUT_SIZE]; /* unknown names */
	struct league_fail *fails;
	size_t		 nfails;
};

/* Describes a failed SQLite call in err, naming the usual causes. */
static void
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
static int
league_dbfail(struct league *lg, int rc, const char *what)
{
	char	 err[512];

	league_dberr(lg, err, sizeof err, rc, what);
	return (-1);
}

/* Runs a bound statement to completion and resets it; an SQLite code. */
static int
league_step(sqlite3_stmt *s)
{
	int	 rc;

	rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return (rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc);
}

/* Resets a statement after reading its rows. */
static void
league_done(sqlite3_stmt *s)
{
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

/* Binds a text (copied by SQLite: it may be freed before the step). */
static int
league_bind(sqlite3_stmt *s, int i, const char *t)
{
	return (sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT));
}

/* Returns a column as text, "" when NULL. */
static const char *
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

/*
 * Returns 1 if the name is a valid account (or tournament) name: 1..32
 * characters of A-Z a-z 0-9 _ - ., and neither "engine" (in any case) nor
 * "-", which the protocol uses for "none".
 */
int
league_name_ok(const char *name)
{
	const char	*p;
	size_t		 n = 0;

	if (name == NULL)
		return (0);
	for (p = name; *p != '\0'; p++, n++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    *p == '.')
			continue;
		return (0);
	}
	if (n < 1 || n > LEAGUE_NAME_MAX)
		return (0);
	if (strcasecmp(name, "engine") == 0 || strcmp(name, "-") == 0)
		return (0);
	return (1);
}

/*
 * Checks a password's form; returns NULL, or what is wrong with it.  The
 * caller passes the password as the client sent it, before the line
 * preprocessing (which cuts at '#' and drops control characters).
 */
const char *
league_pass_bad(const char *pass)
{
	const char	*p;
	size_t		 n;

	if (pass == NULL)
		return ("no password");
	n = strlen(pass);
	if (n < LEAGUE_PASS_MIN)
		return ("password too short: at least 8 bytes");
	if (n > LEAGUE_PASS_MAX)
		return ("password too long: at most 128 bytes");
	for (p = pass; *p != '\0'; p++) {
		if (*p == '#' || (*p > 0 && *p < ' ') || *p == 127)
			return ("bad password: # and control characters are "
			    "not allowed");
		if (*p <= ' ' || *p > '~')
			return ("bad password: only printable ASCII without "
			    "spaces");
	}
	return (NULL);
}

/* Hashes pass with setting into out; returns 0, or -1 (errno set). */
static int
league_hash(const char *pass, const char *setting, char *out, size_t len)
{
	struct crypt_data *cd;
	const char	*h;
	int		 r = -1;

	cd = xcalloc(1, sizeof *cd);	/* about 32 KB: not on the stack */
	h = crypt_rn(pass, setting, cd, sizeof *cd);
	if (h != NULL && h[0] != '*' && strlen(h) < len) {
		memcpy(out, h, strlen(h) + 1);
		r = 0;
	} else if (h != NULL)
		errno = EINVAL;
	explicit_bzero(cd, sizeof *cd);
	free(cd);
	return (r);
}

/* Hashes pass with a new salt; returns 0, or -1 with err filled in. */
static int
league_new_hash(const char *pass, char *hash, size_t len, char *err,
    size_t errlen)
{
	char	 setting[CRYPT_GENSALT_OUTPUT_SIZE];

	if (crypt_gensalt_rn(LEAGUE_PREFIX, 0, NULL, 0, setting,
	    sizeof setting) == NULL || setting[0] == '*' ||
	    league_hash(pass, setting, hash, len) != 0) {
		snprintf(err, errlen, "cannot hash the password: %s",
		    strerror(errno));
		return (-1);
	}
	return (0);
}

/* Compares two hashes in time that does not depend on where they differ. */
static int
league_hash_eq(const char *a, const char *b)
{
	size_t		 la = strlen(a), lb = strlen(b), i;
	unsigned char	 d = 0;

	if (la != lb)
		return (0);
	for (i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return (d == 0);
}

/* Looks up (name, addr) in the failed-login table (mtx held). */
static struct league_fail *
league_fail_find(struct league *lg, const char *name, const char *addr)
{
	size_t	 i;

	for (i = 0; i < lg->nfails; i++) {
		if (strcmp(lg->fails[i].name, name) == 0 &&
		    strcmp(lg->fails[i].addr, addr) == 0)
			return (&lg->fails[i]);
	}
	return (NULL);
}

/* Returns the entry for (name, addr), made anew if need be (mtx held). */
static struct league_fail *
league_fail_get(struct league *lg, const char *name, const char *addr,
    uint64_t now)
{
	struct league_fail *f, *old = NULL, *oldlocked = NULL;
	size_t		 i;

	if ((f = league_fail_find(lg, name, addr)) != NULL)
		return (f);
	if (lg->fails == NULL)
		lg->fails = xcalloc(LEAGUE_FAILS_MAX, sizeof *lg->fails);
	if (lg->nfails < LEAGUE_FAILS_MAX)
		f = &lg->fails[lg->nfails++];
	else {
		for (i = 0; i < lg->nfails; i++) {
			f = &lg->fails[i];
			if (f->until_ms > now) {
				if (oldlocked == NULL ||
				    f->last_ms < oldlocked->last_ms)
					oldlocked = f;
			} else if (old == NULL || f->last_ms < old->last_ms)
				old = f;
		}
		f = old != NULL ? old : oldlocked;
	}
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->addr, sizeof f->addr, "%s", addr);
	return (f);
}

/* Forgets the failures of (name, addr) (mtx held). */
static void
league_fail_clear(struct league *lg, const char *name, const char *addr)
{
	struct league_fail *f;

	if ((f = league_fail_find(lg, name, addr)) != NULL)
		*f = lg->fails[--lg->nfails];
}

/* Forgets one entry of name's, from any address; 1 if any (mtx held). */
static int
league_fail_name_clear(struct league *lg, const char *name)
{
	size_t	 i;

	for (i = 0; i < lg->nfails; i++)
		if (strcmp(lg->fails[i].name, name) == 0) {
			lg->fails[i] = lg->fails[--lg->nfails];
			return (1);
		}
	return (0);
}

/*
 * Returns the milliseconds (name, addr) stays locked, 0 if it is not (mtx
 * held).  A lock that has run out is lifted, and the count starts again.
 */
static uint64_t
league_fail_locked(struct league *lg, const char *name, const char *addr,
    uint64_t now)
{
	struct league_fail *f;

	if ((f = league_fail_find(lg, name, addr)) == NULL || f->until_ms == 0)
		return (0);
	if (f->until_ms > now)
		return (f->until_ms - now);
	f->until_ms = 0;
	f->count = 0;
	return (0);
}

/*
 * Counts a failed login for (name, addr), locking the pair at the limit,
 * and for the address, locking it at its own limit (mtx held).
 */
static void
league_fail_add(struct league *lg, const char *name, const char *addr,
    uint64_t now)
{
	struct league_fail *f;
	uint64_t	 window = (uint64_t)lg->limits.lockout_s * 1000;

	f = league_fail_get(lg, name, addr, now);
	f->count++;
	f->last_ms = now;
	if (lg->limits.failures != 0 && lg->limits.lockout_s != 0 &&
	    f->count >= lg->limits.failures) {
		f->until_ms = now + window;
		log_info("league=%s event=login-locked name=%s addr=%s "
		    "failures=%u seconds=%u", lg->path, name, addr, f->count,
		    lg->limits.lockout_s);
	}
	if (lg->limits.addr_failures == 0 || lg->limits.lockout_s == 0)
		return;
	f = league_fail_get(lg, "", addr, now);
	if (f->count == 0 || now - f->first_ms >= window) {
		f->count = 0;		/* a new window */
		f->first_ms = now;
	}
	f->count++;
	f->last_ms = now;
	if (f->count >= lg->limits.addr_failures) {
		f->until_ms = now + window;
		log_info("league=%s event=login-address-locked addr=%s "
		    "failures=%u seconds=%u", lg->path, addr, f->count,
		    lg->limits.lockout_s);
	}
}

/* Returns 1 if an account exists, 0 if not, or an SQLite error (mtx). */
static int
league_exists_locked(struct league *lg, const char *name, int *rcp)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_EXISTS];
	int		 rc, found = 0;

	league_bind(s, 1, name);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		found = 1;
	else if (rc != SQLITE_DONE)
		found = -1;
	*rcp = rc;
	league_done(s);
	return (found);
}

/*
 * Creates the account name with password.  Returns 0, or -1 with err
 * filled in (a bad name or password, a taken name, a database error).
 */
int
league_register(struct league *lg, const char *name, const char *pass,
    char *err, size_t errlen)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_REGISTER];
	char		 hash[CRYPT_OUTPUT_SIZE], when[32];
	const char	*bad;
	int		 rc, found;

	if (!league_name_ok(name)) {
		snprintf(err, errlen, "bad account name: 1..%d characters of "
		    "A-Z a-z 0-9 _ - ., not engine", LEAGUE_NAME_MAX);
		return (-1);
	}
	if ((bad = league_pass_bad(pass)) != NULL) {
		snprintf(err, errlen, "%s", bad);
		return (-1);
	}

	/* Spare the hash when the name is plainly taken. */
	pthread_mutex_lock(&lg->mtx);
	found = league_exists_locked(lg, name, &rc);
	if (found == -1)
		league_dberr(lg, err, errlen, rc, "look up the account");
	pthread_mutex_unlock(&lg->mtx);
	if (found == -1)
		return (-1);
	if (found == 1) {
		snprintf(err, errlen, "name %s is taken", name);
		return (-1);
	}

	if (league_new_hash(pass, hash, sizeof hash, err, errlen) != 0)
		return (-1);
	store_now(when, sizeof when);

	pthread_mutex_lock(&lg->mtx);
	league_bind(s, 1, name);
	league_bind(s, 2, hash);
	league_bind(s, 3, when);
	rc = league_step(s);
	if (rc == SQLITE_OK && sqlite3_changes(lg->db) == 0) {
		rc = SQLITE_CONSTRAINT_PRIMARYKEY;
		snprintf(err, errlen, "name %s is taken: an account with the "
		    "same name in another case exists (look-alike)", name);
	} else if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		snprintf(err, errlen, "name %s is taken", name);
	else if (rc != SQLITE_OK)
		league_dberr(lg, err, errlen, rc, "store the account");
	pthread_mutex_unlock(&lg->mtx);
	explicit_bzero(hash, sizeof hash);
	if (rc != SQLITE_OK)
		return (-1);
	log_info("league=%s event=registered name=%s", lg->path, name);
	return (0);
}

/* league_login_from an unknown address ("-"). */
int
league_login(struct league *lg, const char *name, const char *pass,
    uint64_t now, char *err, size_t errlen)
{
	return (league_login_from(lg, name, pass, "-", now, err, errlen));
}

/*
 * Checks name and password, from source address addr, at time now_ms (any
 * monotonic clock in milliseconds).  Returns 0 if they are right; -1 if
 * they are wrong, the pair or the address is locked, or the account is
 * disabled, with err filled in ("wrong name or password" whether the name
 * exists or not); -2 on a database error, with err filled in.
 */
int
league_login_from(struct league *lg, const char *name, const char *pass,
    const char *addr, uint64_t now, char *err, size_t errlen)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_HASH];
	char		 stored[CRYPT_OUTPUT_SIZE], got[CRYPT_OUTPUT_SIZE];
	char		 disabled[256];
	uint64_t	 left;
	int		 rc, named, known = 0, ok = 0, off = 0;

	named = league_name_ok(name);
	pthread_mutex_lock(&lg->mtx);
	if ((left = league_fail_locked(lg, "", addr, now)) != 0) {
		pthread_mutex_unlock(&lg->mtx);
		snprintf(err, errlen, "too many failed logins from your "
		    "address: retry in %" PRIu64 " s", (left + 999) / 1000);
		return (-1);
	}
	if (named && (left = league_fail_locked(lg, name, addr, now)) != 0) {
		pthread_mutex_unlock(&lg->mtx);
		snprintf(err, errlen, "too many failed logins for %s: retry "
		    "in %" PRIu64 " s", name, (left + 999) / 1000);
		return (-1);
	}
	if (named) {
		league_bind(s, 1, name);
		if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			if ((size_t)sqlite3_column_bytes(s, 0) < sizeof stored) {
				snprintf(stored, sizeof stored, "%s",
				    league_col(s, 0));
				known = 1;
				off = sqlite3_column_type(s, 1) != SQLITE_NULL;
				snprintf(disabled, sizeof disabled, "%s",
				    league_col(s, 1));
			} else
				log_warnx("league=%s event=bad-hash name=%s",
				    lg->path, name);
		} else if (rc != SQLITE_DONE) {
			league_dberr(lg, err, errlen, rc, "look up the "
			    "account");
			league_done(s);
			pthread_mutex_unlock(&lg->mtx);
			return (-2);
		}
		league_done(s);
	}
	pthread_mutex_unlock(&lg->mtx);

	/* Hash even for a name without an account: the same time. */
	if (league_pass_bad(pass) == NULL) {
		if (league_hash(pass, known ? stored : lg->dummy, got,
		    sizeof got) == 0)
			ok = known && league_hash_eq(got, stored);
		else if (known)
			log_warnx("league=%s event=bad-hash name=%s", lg->path,
			    name);
	}
	explicit_bzero(stored, sizeof stored);
	explicit_bzero(got, sizeof got);

	pthread_mutex_lock(&lg->mtx);
	if (ok)
		league_fail_clear(lg, name, addr);
	else
		league_fail_add(lg, named ? name : "-", addr, now);
	pthread_mutex_unlock(&lg->mtx);
	if (!ok) {
		snprintf(err, errlen, "wrong name or password");
		return (-1);
	}
	if (off) {
		/* Told only to whoever knows the password. */
		snprintf(err, errlen, "account %s is disabled: %s", name,
		    disabled);
		return (-1);
	}
	return (0);
}

/* Returns 1 if the account exists, 0 if not, -1 on a database error. */
int
league_exists(struct league *lg, const char *name)
{
	int	 rc, found;

	if (!league_name_ok(name))
		return (0);
	pthread_mutex_lock(&lg->mtx);
	found = league_exists_locked(lg, name, &rc);
	if (found == -1)
		league_dbfail(lg, rc, "look up the account");
	pthread_mutex_unlock(&lg->mtx);
	return (found);
}

/* Returns the text of a format. */
static const char *
league_format_name(enum league_format f)
{
	switch (f) {
	case LEAGUE_ROUNDROBIN:
		return ("roundrobin");
	case LEAGUE_GAUNTLET:
		return ("gauntlet");
	}
	return (NULL);
}

/* Returns the text of a tournament status. */
static const char *
league_tstatus_name(enum league_tstatus st)
{
	switch (st) {
	case LEAGUE_T_RUNNING:
		return ("running");
	case LEAGUE_T_FINISHED:
		return ("finished");
	case LEAGUE_T_CANCELLED:
		return ("cancelled");
	}
	return (NULL);
}

/* Checks a tournament before it is stored; returns 0 or -1 with err. */
static int
league_tournament_check(const struct league_tournament *t, char *err,
    size_t errlen)
{
	size_t	 i, j;

	if (!league_name_ok(t->name)) {
		snprintf(err, errlen, "bad tournament name: 1..%d characters "
		    "of A-Z a-z 0-9 _ - .", LEAGUE_NAME_MAX);
		return (-1);
	}
	if (league_format_name(t->format) == NULL) {
		snprintf(err, errlen, "bad tournament format");
		return (-1);
	}
	if (t->game == NULL || *t->game == '\0') {
		snprintf(err, errlen, "a tournament needs a game");
		return (-1);
	}
	if (t->games_per_pair < 1 ||
	    t->games_per_pair > (unsigned int)INT32_MAX) {
		snprintf(err, errlen, "games per pairing must be 1 or more");
		return (-1);
	}
	if (t->base_ms > (uint64_t)INT64_MAX ||
	    t->inc_ms > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "time control too large");
		return (-1);
	}
	if (t->nplayers < 2) {
		snprintf(err, errlen, "a tournament needs at least 2 players");
		return (-1);
	}
	for (i = 0; i < t->nplayers; i++) {
		if (!league_name_ok(t->players[i])) {
			snprintf(err, errlen, "bad player name: 1..%d "
			    "characters of A-Z a-z 0-9 _ - .",
			    LEAGUE_NAME_MAX);
			return (-1);
		}
		for (j = 0; j < i; j++) {
			if (strcmp(t->players[i], t->players[j]) == 0) {
				snprintf(err, errlen, "player %s is listed "
				    "twice", t->players[i]);
				return (-1);
			}
		}
	}
	return (0);
}

/*
 * Stores a new tournament, running, and sets t->id and t->status.  Every
 * player must have an account.  Returns 0, or -1 with err filled in.
 */
int
league_tournament_create(struct league *lg, struct league_tournament *t,
    char *err, size_t errlen)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_T_CREATE];
	struct buf	 players;
	char		 when[32];
	size_t		 i;
	int		 rc = SQLITE_OK, found, r = -1;

	if (league_tournament_check(t, err, errlen) != 0)
		return (-1);
	buf_init(&players);
	for (i = 0; i < t->nplayers; i++) {
		if (i != 0)
			buf_putc(&players, ',');
		buf_puts(&players, t->players[i]);
	}
	store_now(when, sizeof when);

	/* The checks and the insert in one transaction. */
	pthread_mutex_lock(&lg->mtx);
	if ((rc = league_step(lg->s[LEAGUE_S_BEGIN])) != SQLITE_OK) {
		league_dberr(lg, err, errlen, rc, "create the tournament");
		goto out;
	}
	for (i = 0; i < t->nplayers; i++) {
		found = league_exists_locked(lg, t->players[i], &rc);
		if (found == -1) {
			league_dberr(lg, err, errlen, rc, "look up the "
			    "players");
			goto out;
		}
		if (found == 0) {
			snprintf(err, errlen, "no account %s", t->players[i]);
			goto out;
		}
	}
	league_bind(s, 1, t->name);
	league_bind(s, 2, league_format_name(t->format));
	league_bind(s, 3, t->game);
	sqlite3_bind_int(s, 4, t->random != 0);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)t->base_ms);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)t->inc_ms);
	sqlite3_bind_int64(s, 7, t->games_per_pair);
	sqlite3_bind_int64(s, 8, (sqlite3_int64)t->seed);	/* bits kept */
	league_bind(s, 9, buf_str(&players));
	league_bind(s, 10, when);
	rc = league_step(s);
	if (rc == SQLITE_CONSTRAINT_UNIQUE) {
		snprintf(err, errlen, "tournament %s exists", t->name);
		goto out;
	}
	if (rc != SQLITE_OK) {
		league_dberr(lg, err, errlen, rc, "store the tournament");
		goto out;
	}
	t->id = sqlite3_last_insert_rowid(lg->db);
	if ((rc = league_step(lg->s[LEAGUE_S_COMMIT])) != SQLITE_OK) {
		league_dberr(lg, err, errlen, rc, "commit the tournament");
		goto out;
	}
	t->status = LEAGUE_T_RUNNING;
	r = 0;
out:
	if (!sqlite3_get_autocommit(lg->db))
		league_step(lg->s[LEAGUE_S_ROLLBACK]);
	pthread_mutex_unlock(&lg->mtx);
	buf_free(&players);
	if (r == 0)
		log_info("league=%s event=tournament-created id=%" PRId64
		    " name=%s players=%zu", lg->path, t->id, t->name,
		    t->nplayers);
	return (r);
}

/*
 * Sets a tournament's status.  Returns 0, or -1 if there is no such
 * tournament or on a database error (logged).
 */
int
league_tournament_status(struct league *lg, int64_t id,
    enum league_tstatus status)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_T_STATUS];
	const char	*name;
	int		 rc, n = 0;

	if ((name = league_tstatus_name(status)) == NULL)
		return (-1);
	pthread_mutex_lock(&lg->mtx);
	league_bind(s, 1, name);
	sqlite3_bind_int64(s, 2, id);
	if ((rc = league_step(s)) == SQLITE_OK)
		n = sqlite3_changes(lg->db);
	else
		league_dbfail(lg, rc, "update the tournament");
	pthread_mutex_unlock(&lg->mtx);
	return (n == 1 ? 0 : -1);
}

/* Frees what a tournament owns (its game and players), not t itself. */
void
league_tournament_free(struct league_tournament *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nplayers; i++)
		free(t->players[i]);
	free(t->players);
	free(t->game);
	t->players = NULL;
	t->nplayers = 0;
	t->game = NULL;
}

/* Frees an array of n tournaments from league_tournaments. */
void
league_tournaments_free(struct league_tournament *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		league_tournament_free(&v[i]);
	free(v);
}

/* Fills t from a row of LEAGUE_S_T_LIST. */
static void
league_tournament_row(sqlite3_stmt *s, struct league_tournament *t)
{
	const char	*p, *q, *f, *st;
	size_t		 n;

	memset(t, 0, sizeof *t);
	t->id = sqlite3_column_int64(s, 0);
	snprintf(t->name, sizeof t->name, "%s", league_col(s, 1));
	f = league_col(s, 2);
	t->format = strcmp(f, "gauntlet") == 0 ? LEAGUE_GAUNTLET :
	    LEAGUE_ROUNDROBIN;
	st = league_col(s, 3);
	if (strcmp(st, "finished") == 0)
		t->status = LEAGUE_T_FINISHED;
	else if (strcmp(st, "cancelled") == 0)
		t->status = LEAGUE_T_CANCELLED;
	else
		t->status = LEAGUE_T_RUNNING;
	t->game = xstrdup(league_col(s, 4));
	t->random = sqlite3_column_int(s, 5) != 0;
	t->base_ms = (uint64_t)sqlite3_column_int64(s, 6);
	t->inc_ms = (uint64_t)sqlite3_column_int64(s, 7);
	t->games_per_pair = (unsigned int)sqlite3_column_int64(s, 8);
	t->seed = (uint64_t)sqlite3_column_int64(s, 9);
	for (p = league_col(s, 10); *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		n = (size_t)(q - p);
		t->players = xreallocarray(t->players, t->nplayers + 1,
		    sizeof *t->players);
		t->players[t->nplayers] = xmalloc(n + 1);
		memcpy(t->players[t->nplayers], p, n);
		t->players[t->nplayers][n] = '\0';
		t->nplayers++;
	}
}

/*
 * Reads the tournaments, by id: every one if all is set, else the running
 * ones.  Sets *vp and *np (free with league_tournaments_free).  Returns 0,
 * or -1 on a database error (logged).
 */
int
league_tournaments(struct league *lg, int all, struct league_tournament **vp,
    size_t *np)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_T_LIST];
	struct league_tournament *v = NULL;
	size_t		 n = 0;
	int		 rc;

	pthread_mutex_lock(&lg->mtx);
	sqlite3_bind_int(s, 1, all != 0);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		v = xreallocarray(v, n + 1, sizeof *v);
		league_tournament_row(s, &v[n++]);
	}
	league_done(s);
	if (rc != SQLITE_DONE)
		league_dbfail(lg, rc, "read the tournaments");
	pthread_mutex_unlock(&lg->mtx);
	if (rc != SQLITE_DONE) {
		league_tournaments_free(v, n);
		*vp = NULL;
		*np = 0;
		return (-1);
	}
	*vp = v;
	*np = n;
	return (0);
}

/* Returns a result column as 1 (first), 2 (second) or 0 (none). */
static int
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
 * Reads every game of tournament id (finished, abandoned or live), by id.
 * Sets *vp (free it) and *np.  Returns 0, or -1 on a database error.
 */
int
league_tournament_games(struct league *lg, int64_t id,
    struct league_tgame **vp, size_t *np)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_T_GAMES];
	struct league_tgame *v = NULL, *g;
	size_t		 n = 0;
	int		 rc;

	pthread_mutex_lock(&lg->mtx);
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		v = xreallocarray(v, n + 1, sizeof *v);
		g = &v[n++];
		memset(g, 0, sizeof *g);
		g->game_id = sqlite3_column_int64(s, 0);
		g->slot = (unsigned int)sqlite3_column_int64(s, 1);
		g->finished = strcmp(league_col(s, 2), "finished") == 0;
		g->result = league_result(s, 3);
		snprintf(g->player1, sizeof g->player1, "%s",
		    league_col(s, 4));
		snprintf(g->player2, sizeof g->player2, "%s",
		    league_col(s, 5));
	}
	league_done(s);
	if (rc != SQLITE_DONE)
		league_dbfail(lg, rc, "read the tournament's games");
	pthread_mutex_unlock(&lg->mtx);
	if (rc != SQLITE_DONE) {
		free(v);
		*vp = NULL;
		*np = 0;
		return (-1);
	}
	*vp = v;
	*np = n;
	return (0);
}

/*
 * Reads every finished rated game with a result, in the order they ended
 * (then by id).  Sets *vp (free it) and *np.  Returns 0, or -1 on a
 * database error.
 */
int
league_rated_games(struct league *lg, struct league_rgame **vp, size_t *np)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_RATED];
	struct league_rgame *v = NULL, *g;
	size_t		 n = 0, cap = 0;
	int		 rc;

	pthread_mutex_lock(&lg->mtx);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		g = &v[n++];
		memset(g, 0, sizeof *g);
		g->game_id = sqlite3_column_int64(s, 0);
		snprintf(g->player1, sizeof g->player1, "%s",
		    league_col(s, 1));
		snprintf(g->player2, sizeof g->player2, "%s",
		    league_col(s, 2));
		g->result = league_result(s, 3);
	}
	league_done(s);
	if (rc != SQLITE_DONE)
		league_dbfail(lg, rc, "read the rated games");
	pthread_mutex_unlock(&lg->mtx);
	if (rc != SQLITE_DONE) {
		free(v);
		*vp = NULL;
		*np = 0;
		return (-1);
	}
	*vp = v;
	*np = n;
	return (0);
}

/* Steps a one-row statement of player name into a[0..n-1]; SQLite code. */
static int
league_row(sqlite3_stmt *s, const char *name, int64_t *a, int n)
{
	int	 rc, i;

	league_bind(s, 1, name);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			a[i] = sqlite3_column_int64(s, i);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	league_done(s);
	return (rc);
}

/*
 * Gives the bounds of first-throw bucket i (< LEAGUE_THROW_BUCKETS): the
 * player's move numbers lo..hi, hi 0 for no upper bound.
 */
void
league_throw_bucket(size_t i, unsigned int *lo, unsigned int *hi)
{
	static const unsigned int bounds[LEAGUE_THROW_BUCKETS + 1] = {
		1, 2, 3, 4, 5, 6, 11, 21, 0
	};

	*lo = bounds[i];
	*hi = bounds[i + 1] != 0 ? bounds[i + 1] - 1 : 0;
}

/* Reads the first-throw histogram of name into p (mtx); an SQLite code. */
static int
league_throws(struct league *lg, const char *name, struct league_player *p)
{
	sqlite3_stmt	*s = lg->s[LEAGUE_S_P_THROWS];
	int64_t		 b;
	int		 rc;

	league_bind(s, 1, name);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		b = sqlite3_column_int64(s, 0);
		if (b >= 1 && b <= LEAGUE_THROW_BUCKETS)
			p->first_throw[b - 1] += sqlite3_column_int64(s, 1);
		p->threw_win_games += sqlite3_column_int64(s, 1);
	}
	league_done(s);
	return (rc == SQLITE_DONE ? SQLITE_OK : rc);
}

/*
 * Reads an account's statistics over its finished games into p (§13.7 of
 * PROTOCOL.md): optimal counts the moves marked kept-win or no-win;
 * first_throw counts the games in which the player threw a win by the
 * player's own move number (1: its first move of the game) of the first
 * such move.  Returns 0; -1 if there is no such account, with err "no
 * account NAME" or "bad account name"; -2 on a database error, with err
 * filled in.
 */
int
league_player(struct league *lg, const char *name, struct league_player *p,
    char *err, size_t errlen)
{
	int64_t		 g[3] = { 0, 0, 0 }, m[2] = { 0, 0 };
	int		 rc, found = 0;

	memset(p, 0, sizeof *p);
	if (!league_name_ok(name)) {
		snprintf(err, errlen, "bad account name");
		return (-1);
	}
	pthread_mutex_lock(&lg->mtx);
	if ((rc = league_step(lg->s[LEAGUE_S_BEGIN])) != SQLITE_OK)
		goto done;
	if ((found = league_exists_locked(lg, name, &rc)) != 1)
		goto done;
	if ((rc = league_row(lg->s[LEAGUE_S_P_GAMES], name, g, 3)) !=
	    SQLITE_OK ||
	    (rc = league_row(lg->s[LEAGUE_S_P_MOVES], name, m, 2)) !=
	    SQLITE_OK)
		goto done;
	rc = league_throws(lg, name, p);
done:
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
		league_dberr(lg, err, errlen, rc, "read the statistics");
	else
		rc = SQLITE_OK;
	if (!sqlite3_get_autocommit(lg->db))
		league_step(lg->s[LEAGUE_S_COMMIT]);
	pthread_mutex_unlock(&lg->mtx);
	if (rc != SQLITE_OK)
		return (-2);
	if (found != 1) {
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	snprintf(p->name, sizeof p->name, "%s", name);
	p->games = g[0];
	p->wins = g[1];
	p->losses = g[2];
	p->moves = m[0];
	p->optimal = m[1];
	return (0);
}

/*
 * Runs one UPDATE of accounts "SET ... WHERE name = ?2" with text ?1 (NULL
 * allowed) under the mutex.  Returns 0, or -1 with err filled in ("no
 * account NAME" when no row changed).
 */
static int
league_acct_update(struct league *lg, const char *sql, const char *v,
    const char *name, const char *what, char *err, size_t errlen)
{
	sqlite3_stmt	*s = NULL;
	int		 rc, n = 0;

	pthread_mutex_lock(&lg->mtx);
	rc = sqlite3_prepare_v2(lg->db, sql, -1, &s, NULL);
	if (rc == SQLITE_OK) {
		if (v != NULL)
			league_bind(s, 1, v);
		league_bind(s, 2, name);
		rc = sqlite3_step(s);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		n = sqlite3_changes(lg->db);
	}
	if (rc != SQLITE_OK)
		league_dberr(lg, err, errlen, rc, what);
	else if (n == 0)
		snprintf(err, errlen, "no account %s", name);
	sqlite3_finalize(s);
	pthread_mutex_unlock(&lg->mtx);
	return (rc == SQLITE_OK && n > 0 ? 0 : -1);
}

/*
 * Sets the password of account name to pass (checked like a new one).
 * Returns 0, or -1 with err filled in.
 */
int
league_reset(struct league *lg, const char *name, const char *pass,
    char *err, size_t errlen)
{
	char		 hash[CRYPT_OUTPUT_SIZE];
	const char	*bad;
	int		 r;

	if (!league_name_ok(name)) {
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	if ((bad = league_pass_bad(pass)) != NULL) {
		snprintf(err, errlen, "%s", bad);
		return (-1);
	}
	if (league_new_hash(pass, hash, sizeof hash, err, errlen) != 0)
		return (-1);
	r = league_acct_update(lg, "UPDATE accounts SET hash = ?1"
	    " WHERE name = ?2", hash, name, "store the password", err, errlen);
	explicit_bzero(hash, sizeof hash);
	if (r == 0) {
		/* The old password's failures no longer mean anything. */
		pthread_mutex_lock(&lg->mtx);
		while (league_fail_name_clear(lg, name))
			;
		pthread_mutex_unlock(&lg->mtx);
		log_info("league=%s event=password-set name=%s", lg->path,
		    name);
	}
	return (r);
}

/*
 * passwd: changes the password of name from old to pass.  old is checked
 * as a login from addr at now (failures count the same).  Returns 0, or -1
 * with err filled in, or -2 on a database error.
 */
int
league_passwd(struct league *lg, const char *name, const char *old,
    const char *pass, const char *addr, uint64_t now, char *err,
    size_t errlen)
{
	const char	*bad;
	int		 r;

	if ((bad = league_pass_bad(pass)) != NULL) {
		snprintf(err, errlen, "new %s", bad);
		return (-1);
	}
	if ((r = league_login_from(lg, name, old, addr, now, err,
	    errlen)) != 0)
		return (r);
	return (league_reset(lg, name, pass, err, errlen));
}

/*
 * Disables account name with reason (a line of text), or enables it again
 * (reason NULL).  Returns 0, or -1 with err filled in.
 */
int
league_disable(struct league *lg, const char *name, const char *reason,
    char *err, size_t errlen)
{
	if (!league_name_ok(name)) {
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	if (league_acct_update(lg, "UPDATE accounts SET disabled = ?1"
	    " WHERE name = ?2", reason, name, "update the account", err,
	    errlen) != 0)
		return (-1);
	log_info("league=%s event=%s name=%s reason=\"%s\"", lg->path,
	    reason != NULL ? "disabled" : "enabled", name,
	    reason != NULL ? reason : "");
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
