/*
 * league-account.c: accounts, passwords and failed logins (league.h).
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

#include "lib/buf.h"
#include "lib/clock.h"
#include "league/league-int.h"
#include "lib/log.h"
#include "lib/metrics.h"

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

/* Returns 1 if the name may play in a tournament: an account or "engine". */
int
league_player_ok(const char *name)
{
	return (league_name_ok(name) || strcmp(name, "engine") == 0);
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
		metrics_inc(M_LOCKOUTS);
		log_info("league=%s event=login-locked name=%s addr=%s "
		    "failures=%u seconds=%u", lg->path, name, addr, f->count,
		    lg->limits.lockout_s);
		league_locks_publish(lg, name, addr, lg->limits.lockout_s);
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
		metrics_inc(M_LOCKOUTS);
		log_info("league=%s event=login-address-locked addr=%s "
		    "failures=%u seconds=%u", lg->path, addr, f->count,
		    lg->limits.lockout_s);
		league_locks_publish(lg, "", addr, lg->limits.lockout_s);
	}
}

/* Returns 1 if an account exists, 0 if not, -1 on a database error (mtx;
 * sqldb_errclass tells). */
int
league_exists_locked(struct league *lg, const char *name)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_EXISTS];
	int		 rc, found = 0;

	if ((rc = sqldb_bind_text(s, 1, name)) == 0)
		rc = sqldb_step(s);
	if (rc == SQLDB_ROW)
		found = 1;
	else if (rc != SQLDB_DONE)
		found = -1;
	sqldb_reset(s);
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
	struct sqldb_stmt *s = lg->s[LEAGUE_S_REGISTER];
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
	found = league_exists_locked(lg, name);
	if (found == -1)
		league_dberr(lg, err, errlen, "look up the account");
	pthread_mutex_unlock(&lg->mtx);
	if (found == -1)
		return (-1);
	if (found == 1) {
		snprintf(err, errlen, "name %s is taken", name);
		return (-1);
	}

	if (league_new_hash(pass, hash, sizeof hash, err, errlen) != 0)
		return (-1);
	clock_now_text(when, sizeof when);

	pthread_mutex_lock(&lg->mtx);
	if ((rc = sqldb_bind_text(s, 1, name)) == 0 &&
	    (rc = sqldb_bind_text(s, 2, hash)) == 0 &&
	    (rc = sqldb_bind_text(s, 3, when)) == 0)
		rc = league_step(s);
	else
		sqldb_reset(s);
	/*
	 * No row (the NOT EXISTS found a name) or a unique violation (an
	 * insert of another node's, not committed when the NOT EXISTS read,
	 * met the primary key or PostgreSQL's index on lower(name)): the name
	 * itself, or a look-alike?  Read back.
	 */
	if ((rc == 0 && sqldb_changes(lg->db) == 0) ||
	    (rc == -1 && sqldb_errclass(lg->db) == SQLDB_CONSTRAINT)) {
		found = league_exists_locked(lg, name);
		rc = found == 1 ? -3 : found == 0 ? -2 : -1;
	}
	if (rc == -2)
		snprintf(err, errlen, "name %s is taken: an account with the "
		    "same name in another case exists (look-alike)", name);
	else if (rc == -3)
		snprintf(err, errlen, "name %s is taken", name);
	else if (rc == -1)
		league_dberr(lg, err, errlen, "store the account");
	pthread_mutex_unlock(&lg->mtx);
	explicit_bzero(hash, sizeof hash);
	if (rc != 0)
		return (-1);
	log_info("league=%s event=registered name=%s", lg->path, name);
	return (0);
}

/*
 * Reads the stored hash of name into stored (CRYPT_OUTPUT_SIZE bytes) and
 * whether the account is disabled, why into disabled (LEAGUE_REASON_LEN
 * bytes).  Returns 1, 0 if there is no such account (or its hash is too
 * long: logged), or -1 on a database error (mtx held).
 */
static int
league_hash_get(struct league *lg, const char *name, char *stored,
    char *disabled, int *off)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_HASH];
	int		 rc, known = 0;

	if ((rc = sqldb_bind_text(s, 1, name)) == 0)
		rc = sqldb_step(s);
	if (rc == SQLDB_ROW && strlen(league_col(s, 0)) >= CRYPT_OUTPUT_SIZE)
		log_warnx("league=%s event=bad-hash name=%s", lg->path, name);
	else if (rc == SQLDB_ROW) {
		snprintf(stored, CRYPT_OUTPUT_SIZE, "%s", league_col(s, 0));
		known = 1;
		*off = !sqldb_column_null(s, 1);
		snprintf(disabled, LEAGUE_REASON_LEN, "%s", league_col(s, 1));
	} else if (rc != SQLDB_DONE)
		known = -1;
	sqldb_reset(s);
	return (known);
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
	char		 stored[CRYPT_OUTPUT_SIZE], got[CRYPT_OUTPUT_SIZE];
	char		 disabled[LEAGUE_REASON_LEN];
	uint64_t	 left;
	int		 named, known = 0, ok = 0, off = 0, byaddr = 0;

	named = league_name_ok(name);
	pthread_mutex_lock(&lg->mtx);
	/* The address's lock, the name's, then another node's (either). */
	if ((left = league_fail_locked(lg, "", addr, now)) != 0)
		byaddr = 1;
	else if (named)
		left = league_fail_locked(lg, name, addr, now);
	if (left == 0)
		left = league_locks_left(lg, named ? name : "", addr, &byaddr);
	if (left != 0) {
		pthread_mutex_unlock(&lg->mtx);
		if (byaddr)
			snprintf(err, errlen, "too many failed logins from "
			    "your address: retry in %" PRIu64 " s",
			    (left + 999) / 1000);
		else
			snprintf(err, errlen, "too many failed logins for %s: "
			    "retry in %" PRIu64 " s", name, (left + 999) / 1000);
		return (-1);
	}
	if (named && (known = league_hash_get(lg, name, stored, disabled,
	    &off)) == -1) {
		league_dberr(lg, err, errlen, "look up the account");
		pthread_mutex_unlock(&lg->mtx);
		return (-2);
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
	int	 found;

	if (!league_name_ok(name))
		return (0);
	pthread_mutex_lock(&lg->mtx);
	found = league_exists_locked(lg, name);
	if (found == -1)
		league_dbfail(lg, "look up the account");
	pthread_mutex_unlock(&lg->mtx);
	return (found);
}

/*
 * Runs one UPDATE of accounts "SET ... WHERE name = ?2" with text ?1 (NULL
 * allowed) under the mutex.  Returns 0, or -1 with err filled in ("no
 * account NAME" when no row changed).
 */
int
league_acct_update(struct league *lg, const char *sql, const char *v,
    const char *name, const char *what, char *err, size_t errlen)
{
	struct sqldb_stmt *s = NULL;
	int		 rc;
	int64_t		 n = 0;

	pthread_mutex_lock(&lg->mtx);
	if ((rc = sqldb_prepare(lg->db, sql, 0, &s)) == 0 &&
	    (rc = sqldb_bind_text(s, 1, v)) == 0 &&
	    (rc = sqldb_bind_text(s, 2, name)) == 0 &&
	    (rc = sqldb_step(s)) == SQLDB_DONE)
		n = sqldb_changes(lg->db);
	if (rc != 0)
		league_dberr(lg, err, errlen, what);
	else if (n == 0)
		snprintf(err, errlen, "no account %s", name);
	sqldb_finalize(s);
	pthread_mutex_unlock(&lg->mtx);
	return (rc == 0 && n > 0 ? 0 : -1);
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
		league_locks_clear(lg, name);
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
