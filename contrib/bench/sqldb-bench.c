/*
 * sqldb-bench.c: insert commits per second through sqldb (src/db/sqldb.h) on
 * each database named, in the same run (BENCHMARKS.md, issue 15):
 *   single      one row per transaction (autocommit), as many commits;
 *   grouped     GROUP rows per transaction (BEGIN, GROUP steps, COMMIT);
 *   pipelined   the same in libpq's pipeline mode (sqldb_batch_begin with
 *               pipeline; on SQLite the same as grouped).
 * Each row is a games-like row of about 120 bytes.  SQLite is opened as the
 * store opens it (WAL, synchronous=FULL).
 *
 * Every round runs each mode on each database in turn (the machine's
 * other loads spread over all); the median of the rounds is printed.
 *
 * usage: sqldb-bench [-n SINGLE] [-g GROUP] [-r ROWS] [-k ROUNDS] URL...
 *   e.g. tests/e2e/pgcluster.sh run sh -c \
 *            './contrib/bench/sqldb-bench /tmp/b.db "$SQLDB_PG_URL"'
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/sqldb.h"

static double
now_s(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + ts.tv_nsec / 1e9);
}

static void
die(struct sqldb *db, const char *what)
{
	fprintf(stderr, "sqldb-bench: %s: %s\n", what, sqldb_errmsg(db));
	exit(1);
}

/* Inserts row k with s; dies on failure. */
static void
insert(struct sqldb *db, struct sqldb_stmt *s, long k)
{
	char	 pos[160];

	snprintf(pos, sizeof pos, "nim %ld %ld %ld 17 23 29 31 37 41 43 47 "
	    "53 59 61 67 71 73 79 83 89 97", k, k * 3, k * 7);
	if (sqldb_bind_int64(s, 1, k) == -1 ||
	    sqldb_bind_text(s, 2, "2026-11-22T23:00:00.000Z") == -1 ||
	    sqldb_bind_text(s, 3, pos) == -1 ||
	    sqldb_bind_int64(s, 4, k % 1000) == -1 ||
	    sqldb_step(s) == -1)
		die(db, "insert");
	sqldb_reset(s);
}

/* Rows per second, mode 0 single, 1 grouped, 2 pipelined. */
static double
run(struct sqldb *db, struct sqldb_stmt *s, int mode, long rows, long group,
    long *next)
{
	double	 t0 = now_s();
	long	 i, j;

	for (i = 0; i < rows; i += group) {
		if (mode > 0 && sqldb_batch_begin(db, mode == 2) == -1)
			die(db, "begin");
		for (j = 0; j < group && i + j < rows; j++)
			insert(db, s, (*next)++);
		if (mode > 0 && sqldb_batch_commit(db) == -1)
			die(db, "commit");
	}
	return (rows / (now_s() - t0));
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/* Opens url and makes the table; returns the prepared insert. */
static struct sqldb_stmt *
setup(const char *url, struct sqldb **dbp)
{
	struct sqldb	*db;
	struct sqldb_stmt *s;
	char		 err[512];

	if (sqldb_open(url, &db, err, sizeof err) == -1) {
		fprintf(stderr, "sqldb-bench: %s\n", err);
		exit(1);
	}
	if (sqldb_backend(db) == SQLDB_SQLITE && sqldb_exec(db,
	    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL") == -1)
		die(db, "pragma");
	if (sqldb_exec(db, "DROP TABLE IF EXISTS bench; CREATE TABLE bench "
	    "(id BIGINT PRIMARY KEY, at TEXT NOT NULL, pos TEXT NOT NULL, "
	    "ms BIGINT NOT NULL)") == -1)
		die(db, "create");
	if (sqldb_prepare(db, "INSERT INTO bench (id, at, pos, ms) VALUES "
	    "(?, ?, ?, ?)", 0, &s) == -1)
		die(db, "prepare");
	*dbp = db;
	return (s);
}

#define MAXDB		4
#define MAXROUNDS	15

int
main(int argc, char **argv)
{
	static const char *const modes[] = { "single", "grouped",
	    "pipelined" };
	static double	 rate[MAXDB][3][MAXROUNDS];
	struct sqldb	*db[MAXDB];
	struct sqldb_stmt *st[MAXDB];
	long		 single = 500, rows = 10000, group = 100, n, g;
	long		 next[MAXDB];
	int		 c, k, ndb, i, mode, rounds = 5;
	double		*v;

	while ((c = getopt(argc, argv, "n:g:r:k:")) != -1) {
		switch (c) {
		case 'n':
			single = atol(optarg);
			break;
		case 'g':
			group = atol(optarg);
			break;
		case 'r':
			rows = atol(optarg);
			break;
		case 'k':
			rounds = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	ndb = argc - optind;
	if (ndb < 1 || ndb > MAXDB || single < 1 || group < 1 ||
	    rows < group || rounds < 1 || rounds > MAXROUNDS)
		goto usage;
	for (i = 0; i < ndb; i++) {
		st[i] = setup(argv[optind + i], &db[i]);
		next[i] = 1;
	}
	/* Interleaved: each round runs every mode on every database. */
	for (k = 0; k < rounds; k++)
		for (i = 0; i < ndb; i++)
			for (mode = 0; mode < 3; mode++) {
				n = mode == 0 ? single : rows;
				g = mode == 0 ? 1 : group;
				rate[i][mode][k] = run(db[i], st[i], mode, n,
				    g, &next[i]);
			}
	printf("%d rounds, interleaved; median (min..max) rows/s, and "
	    "commits/s at the median\n", rounds);
	for (i = 0; i < ndb; i++) {
		for (mode = 0; mode < 3; mode++) {
			v = rate[i][mode];
			qsort(v, (size_t)rounds, sizeof *v, cmp_double);
			g = mode == 0 ? 1 : group;
			printf("%-10s %-9s per-txn=%-4ld rows/s=%.0f "
			    "(%.0f..%.0f) commits/s=%.0f\n",
			    sqldb_backend_name(db[i]), modes[mode], g,
			    v[rounds / 2], v[0], v[rounds - 1],
			    v[rounds / 2] / g);
		}
		sqldb_finalize(st[i]);
		sqldb_close(db[i]);
	}
	return (0);

usage:
	fprintf(stderr, "usage: sqldb-bench [-n SINGLE] [-g GROUP] "
	    "[-r ROWS] [-k ROUNDS] URL...\n");
	return (2);
}
