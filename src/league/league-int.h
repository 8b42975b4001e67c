/*
 * league-int.h: the league's internals, shared by the files of
 * src/league/: the handle, its locks and the SQL glue over sqldb.  Not
 * for other callers.
 */
#ifndef LEAGUE_INT_H
#define LEAGUE_INT_H

#include <crypt.h>
#include <pthread.h>
#include <stdint.h>

#include "league/league.h"
#include "db/sqldb.h"

#define LEAGUE_BUSY_MS		5000
#define LEAGUE_FAILS_MAX	4096	/* names in the failed-login table */
#define LEAGUE_REASON_LEN	256	/* a disabled account's reason, read */
#define LEAGUE_PREFIX		"$y$"	/* yescrypt */

/* The prepared statements. */
enum {
	LEAGUE_S_REGISTER,
	LEAGUE_S_HASH,
	LEAGUE_S_EXISTS,
	LEAGUE_S_T_CREATE,
	LEAGUE_S_T_STATUS,
	LEAGUE_S_T_VERDICT,
	LEAGUE_S_T_ROSTER,
	LEAGUE_S_T_BYES,
	LEAGUE_S_T_LIST,
	LEAGUE_S_T_GAMES,
	LEAGUE_S_RATED,
	LEAGUE_S_P_GAMES,
	LEAGUE_S_P_MOVES,
	LEAGUE_S_P_THROWS,
	LEAGUE_S_T_GET,
	LEAGUE_S_N
};

/* The shared login locks' statements (league-locks.c; PostgreSQL only). */
enum {
	LEAGUE_L_CHECK,
	LEAGUE_L_PUBLISH,
	LEAGUE_L_EXPIRE,
	LEAGUE_L_CLEAR,
	LEAGUE_L_N
};

/* Their SQL, by LEAGUE_S_* (league.c). */
extern const char *const league_sql[LEAGUE_S_N];

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
	char		*path;		/* for messages: no password */
	struct sqldb	*db;
	struct sqldb_stmt *s[LEAGUE_S_N];
	struct sqldb_stmt *lk[LEAGUE_L_N];	/* NULL on SQLite */
	char		 node[17];	/* names this handle in login_locks */
	pthread_mutex_t	 mtx;		/* everything here */
	struct league_limits limits;
	char		 dummy[CRYPT_GENSALT_OUTPUT_SIZE]; /* unknown names */
	struct league_fail *fails;
	size_t		 nfails;
};

/* league.c */
void	 league_dberr(struct league *, char *, size_t, const char *);
int	 league_dbfail(struct league *, const char *);
void	*league_rows_end(struct league *, struct sqldb_stmt *, int,
	    const char *, void *, size_t *);
int	 league_step(struct sqldb_stmt *);
const char *league_col(struct sqldb_stmt *, int);
int	 league_result(struct sqldb_stmt *, int);

/* league-account.c */
int	 league_exists_locked(struct league *, const char *);
int	 league_acct_update(struct league *, const char *, const char *,
	    const char *, const char *, char *, size_t);

/* league-locks.c */
int	 league_locks_init(struct league *, char *, size_t);
void	 league_locks_free(struct league *);
uint64_t league_locks_left(struct league *, const char *, const char *,
	    int *);
void	 league_locks_publish(struct league *, const char *, const char *,
	    unsigned int);
void	 league_locks_clear(struct league *, const char *);

#endif /* LEAGUE_INT_H */
