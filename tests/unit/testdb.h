/*
 * testdb.h: what the store and league tests share: a temporary directory
 * with one database file, raw SQLite reads, opening a store, the records
 * parsed back from their protocol text, and the scripted games.
 */
#ifndef TESTDB_H
#define TESTDB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "lib/buf.h"
#include "store/store.h"

struct league;

#define REC_MAXMOVES	256
#define PASS		"correct-horse"	/* the league tests' password */

/* The temporary directory of this run and its database; what is open. */
struct fixture {
	char		 dir[256];
	char		 path[300];
	struct store	*st;
	struct league	*lg;
};

/* A done callback's report. */
struct done {
	int		 called;
	int		 ok;
};

/* One parsed "move" line of a record. */
struct rec_move {
	unsigned long	 ply;
	int		 player;
	char		 move[256];
	char		 mark[16];
	unsigned long	 time_ms;
};

/* A record parsed back from store_record's text. */
struct rec {
	int64_t		 id;
	char		 start[256];
	char		 p1[64];
	char		 p2[64];
	char		 started[32];
	char		 ended[32];
	char		 result[16];
	char		 reason[64];
	char		 status[16];
	size_t		 nmoves;
	struct rec_move	 mv[REC_MAXMOVES];
};

/* A game to write: start, players, moves (two-change moves included). */
struct script {
	const char	*family;
	const char	*start;
	const char	*p1, *p2;
	size_t		 n;
	struct {
		const char	*move, *pos;
		enum store_mark	 mark;
		unsigned long	 ms;
	}		 mv[8];
	enum store_result result;
	const char	*reason;
};

#define NSCRIPTS	3
extern const struct script scripts[NSCRIPTS];

/*
 * The back end: SQLite files, or the PostgreSQL database that SQLDB_PG_URL
 * names (make check runs the store's tests again under tests/e2e/pgcluster.sh;
 * fx->path is then that URL).  tdb_reset empties the test's database.  A
 * test about an SQLite-only feature starts with TDB_SQLITE_ONLY(why): on
 * PostgreSQL it is a TAP skip that says why; TDB_PG_ONLY the other way.
 */
const char *tdb_pg(void);
struct fixture;
void	 tdb_reset(struct fixture *);
int64_t	 tdb_version(const char *);
#define TDB_PG_ONLY(why) do {						\
	if (tdb_pg() == NULL) {						\
		print_message("# PostgreSQL only: %s\n", (why));		\
		skip();							\
	}								\
} while (0)
#define TDB_SQLITE_ONLY(why) do {					\
	if (tdb_pg() != NULL) {						\
		print_message("# SQLite only: %s\n", (why));		\
		skip();							\
	}								\
} while (0)

/* The fixture (cmocka set-up and tear-down). */
int	 tdb_setup(void **, const char *);
int	 tdb_teardown(void **);
int	 tdb_clean(void **);
int	 tdb_setup_store(void **);
int	 tdb_setup_league(void **);
/*
 * A store test's own fixture: tdb_open_file or tdb_open_memory opens a
 * store as fx->st, and tdb_close closes it after the test even when an
 * assertion failed, so that a failed test leaves no writer thread behind.
 */
int	 tdb_open_file(void **);
int	 tdb_open_memory(void **);
int	 tdb_close(void **);
struct store *tdb_reopen(struct fixture *);
#define TDB_FILE_TEST(f)						\
	cmocka_unit_test_setup_teardown(f, tdb_open_file, tdb_close)
#define TDB_MEMORY_TEST(f)						\
	cmocka_unit_test_setup_teardown(f, tdb_open_memory, tdb_close)

/* The store: reads as protocol text, opening, raw SQL, records, scripts. */
int	 text_record(struct store *, int64_t, struct buf *);
int	 text_stats(struct store *, struct buf *);
long long now_ms(void);
struct store_game nim_game(const char *, const char *, const char *);
struct store_game engine_game(const char *);
void	 done_cb(void *, int);
struct store *open_ok(const char *, const struct store_config *);
void	 open_fails(const char *, int, const char *);
void	 raw_exec(sqlite3 *, const char *);
void	 raw_file_exec(const char *, const char *);
int64_t	 raw_int(const char *, const char *);
void	 integrity_ok(const char *);
void	 rec_parse(const char *, struct rec *);
void	 rec_read(struct store *, int64_t, struct rec *);
int	 iso_ok(const char *);
int64_t	 script_write(struct store *, const struct script *,
	    enum store_status, struct done *);
void	 script_check(const struct script *, const struct rec *,
	    const char *);
size_t	 script_moves(const char *);
void	 roundtrip(const char *);
/* The league: store and league open, one text column, an account. */
void	 open_both(struct fixture *, unsigned int, unsigned int);
void	 raw_text(const char *, const char *, char *, size_t);
void	 reg_ok(struct league *, const char *);

/*
 * The main() of a store test program: its tests share one directory,
 * which tdb_clean empties before each test that has no set-up of its own.
 */
#define TDB_STORE_MAIN(...)						\
int									\
main(void)								\
{									\
	struct CMUnitTest tests[] = { __VA_ARGS__ };			\
	size_t		  i;						\
									\
	for (i = 0; i < sizeof tests / sizeof tests[0]; i++)		\
		if (tests[i].setup_func == NULL)			\
			tests[i].setup_func = tdb_clean;		\
	return (cmocka_run_group_tests(tests, tdb_setup_store,		\
	    tdb_teardown));						\
}

#endif /* TESTDB_H */
