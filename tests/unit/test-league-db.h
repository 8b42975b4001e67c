/*
 * test-league-db.h: the league tests' database on either back end (issue
 * 15 §1): SQLite (the fixture's file) or, when SQLDB_PG_URL is set (the
 * tests run again under tests/e2e/pgcluster.sh: tests/e2e/league-pg.sh),
 * PostgreSQL.  A fresh database is empty and migrated to the newest
 * schema; raw reads go through sqldb on the same back end.
 */
#ifndef TEST_LEAGUE_DB_H
#define TEST_LEAGUE_DB_H

#include <stddef.h>
#include <stdint.h>

#include "league/league.h"
#include "db/sqldb.h"

struct fixture;

/* 1 when the tests run on PostgreSQL. */
int	 lgdb_pg(void);
/* The database's URL: the fixture's file, or SQLDB_PG_URL. */
const char *lgdb_url(const struct fixture *);
/* Empties the database (SQLite: removes the file). */
void	 lgdb_reset(const struct fixture *);
/* Migrates the database to version upto (< 0: the newest). */
void	 lgdb_migrate(const struct fixture *, int);
/* Empties the database and migrates it to the newest schema. */
void	 lgdb_fresh(const struct fixture *);
/* Opens a league handle (a node) on the database; fails the test if not. */
struct league *lgdb_league(const struct fixture *, unsigned int,
	    unsigned int);
/* Opens a connection of the test's own; fails the test if not. */
struct sqldb *lgdb_conn(const struct fixture *);
/* Raw SQL on the database (a connection per call). */
void	 lgdb_exec(const struct fixture *, const char *);
int64_t	 lgdb_int(const struct fixture *, const char *);
void	 lgdb_text(const struct fixture *, const char *, char *, size_t);
/* Logs in at now; checks the return and the message ("" for none). */
void	 login_is(struct league *, const char *, const char *, uint64_t,
	    int, const char *);
/* Skips the test on PostgreSQL, saying why (a TAP skip). */
#define LGDB_SQLITE_ONLY(why) do {					\
	if (lgdb_pg()) {						\
		print_message("SQLite only: %s\n", (why));		\
		skip();							\
	}								\
} while (0)
/* Skips the test on SQLite, saying why. */
#define LGDB_PG_ONLY(why) do {						\
	if (!lgdb_pg()) {						\
		print_message("PostgreSQL only: %s\n", (why));		\
		skip();							\
	}								\
} while (0)

#endif /* TEST_LEAGUE_DB_H */
