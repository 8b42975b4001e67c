/*
 * node-bench.c: the cost of the multi-node primitives (issue 15 §2,
 * BENCHMARKS.md) on each database named, in the same run:
 *   acquire   lease_acquire of a new game (one transaction each);
 *   renew     lease_renew (one statement, autocommit);
 *   fence     a transaction with lease_fence and one small INSERT,
 *             against the same transaction without the fence;
 *   renew_all lease_renew_all of the OPS leases (one statement), in ms;
 *   notify    PostgreSQL only: from sqldb_notify (autocommit) on one
 *             connection to sqldb_notify_next on another (poll), in µs.
 * SQLite is opened as the store opens it (WAL, synchronous=FULL).  Every
 * round runs each database in turn; the median of the rounds is printed.
 *
 * usage: node-bench [-n OPS] [-k ROUNDS] URL...
 *   e.g. tests/e2e/pgcluster.sh run sh -c \
 *            './contrib/bench/node-bench /tmp/n.db "$SQLDB_PG_URL"'
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nodestore/lease.h"
#include "nodestore/node.h"
#include "db/sqldb.h"
#include "store/store.h"

#define NMEAS	6		/* acquire, renew, fence, plain, notify,
				 * renew_all */
#define T0	1700000000000LL
#define TTL	60000

static const char *const names[NMEAS] = { "acquire/s", "renew/s",
    "fenced write/s", "plain write/s", "notify us", "renew_all ms" };

/* Seconds on the monotonic clock. */
static double
now_s(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		return (0);
	return ((double)ts.tv_sec + ts.tv_nsec / 1e9);
}

/* Exits with db's failure during what, and its class. */
static void
die(struct sqldb *db, const char *what)
{
	const char	*cls = sqldb_err_names[sqldb_errclass(db)];

	fprintf(stderr, "node-bench: %s (%s): %s\n", what, cls,
	    sqldb_errmsg(db));
	exit(1);
}

/* A fresh database at the last migration. */
static struct sqldb *
fresh(const char *url)
{
	const struct sqldb_migration *l;
	struct sqldb	*db;
	char		 err[512];
	size_t		 n;
	int		 pg = strncmp(url, "postgres", 8) == 0;

	if (!pg) {
		unlink(url);
		for (n = 0; n < 2; n++) {
			snprintf(err, sizeof err, "%s-%s", url, n ? "wal" :
			    "shm");
			unlink(err);
		}
	}
	if (sqldb_open(url, &db, err, sizeof err) == -1) {
		fprintf(stderr, "node-bench: %s: %s\n", url, err);
		exit(1);
	}
	if (sqldb_exec(db, pg ? "SET client_min_messages = warning; "
	    "DROP SCHEMA public CASCADE; CREATE SCHEMA public" :
	    "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL") == -1)
		die(db, "reset");
	l = pg ? sqldb_pg_migrations : store_migrations;
	n = pg ? sqldb_pg_nmigrations : store_nmigrations;
	if (sqldb_migrate(db, l, n, (int)n, err, sizeof err) == -1) {
		fprintf(stderr, "node-bench: migrate: %s\n", err);
		exit(1);
	}
	return (db);
}

static int
cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* One round on url: m[0..NMEAS-1] (notify: -1 on SQLite). */
static void
round1(const char *url, long ops, double *m)
{
	struct sqldb	*db = fresh(url), *l = NULL;
	struct sqldb_note note;
	struct lease	 le;
	struct pollfd	 pfd;
	double		 t, sum;
	int64_t		 node, v;
	long		 i;
	int		 k;

	if (node_register(db, "bench:1", T0, TTL, &node) == -1)
		die(db, "register");
	t = now_s();
	for (i = 1; i <= ops; i++)
		if (lease_acquire(db, i, node, TTL, T0, &le) != LEASE_OK)
			die(db, "acquire");
	m[0] = ops / (now_s() - t);
	t = now_s();
	for (i = 1; i <= ops; i++) {
		le.game = i, le.node = node, le.epoch = 1;
		if (lease_renew(db, &le, TTL, T0 + 1) != LEASE_OK)
			die(db, "renew");
	}
	m[1] = ops / (now_s() - t);
	t = now_s();
	if (lease_renew_all(db, node, TTL, T0 + 2, &v) == -1 || v != ops)
		die(db, "renew_all");
	m[5] = (now_s() - t) * 1e3;
	if (sqldb_exec(db, "CREATE TABLE bench_w (k BIGINT)") == -1)
		die(db, "create");
	for (k = 0; k < 2; k++) {
		t = now_s();
		for (i = 1; i <= ops; i++) {
			v = i;
			if (sqldb_begin(db) == -1 || (k == 0 &&
			    lease_fence(db, i, node, 1) != LEASE_OK) ||
			    sqldb_cached_run(db, "INSERT INTO bench_w (k) "
			    "VALUES (?)", &v, 1) != 1 || sqldb_commit(db) == -1)
				die(db, "fenced transaction");
		}
		m[2 + k] = ops / (now_s() - t);
	}
	m[4] = -1;
	if (sqldb_backend(db) == SQLDB_PG) {
		if (sqldb_open(url, &l, note.payload, sizeof note.payload) ==
		    -1) {
			fprintf(stderr, "node-bench: %s\n", note.payload);
			exit(1);
		}
		if (sqldb_listen(l, "game_1") != 0)
			die(l, "listen");
		for (i = 0, sum = 0; i < ops; i++) {
			t = now_s();
			if (sqldb_notify(db, "game_1", "game 1 ply 1") != 0)
				die(db, "notify");
			while ((k = sqldb_notify_next(l, &note)) ==
			    SQLDB_DONE) {
				pfd.fd = sqldb_notify_fd(l);
				pfd.events = POLLIN;
				poll(&pfd, 1, 1000);
			}
			if (k == -1)
				die(l, "notify_next");
			sum += now_s() - t;
		}
		m[4] = sum / ops * 1e6;
		sqldb_close(l);
	}
	sqldb_close(db);
}

int
main(int argc, char **argv)
{
	double		*all, med[NMEAS];
	long		 ops = 2000;
	int		 rounds = 5, c, u, r, j, nu;

	while ((c = getopt(argc, argv, "n:k:")) != -1)
		switch (c) {
		case 'n':
			ops = strtol(optarg, NULL, 10);
			break;
		case 'k':
			rounds = (int)strtol(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	argv += optind;
	nu = argc - optind;
	if (nu < 1 || ops < 1 || rounds < 1)
		goto usage;
	if ((all = calloc((size_t)nu * NMEAS * rounds, sizeof *all)) == NULL)
		return (1);
	for (r = 0; r < rounds; r++)
		for (u = 0; u < nu; u++)
			round1(argv[u], ops, &all[((size_t)u * NMEAS) *
			    rounds + (size_t)r * NMEAS]);
	for (u = 0; u < nu; u++) {
		printf("%s (%ld ops, median of %d rounds)\n",
		    strncmp(argv[u], "postgres", 8) == 0 ? "postgresql" :
		    "sqlite", ops, rounds);
		for (j = 0; j < NMEAS; j++) {
			double v[64];

			for (r = 0; r < rounds && r < 64; r++)
				v[r] = all[((size_t)u * NMEAS) * rounds +
				    (size_t)r * NMEAS + j];
			qsort(v, (size_t)r, sizeof v[0], cmp);
			med[j] = v[r / 2];
			if (med[j] >= 0)
				printf("  %-15s %10.1f\n", names[j], med[j]);
		}
	}
	free(all);
	return (0);

usage:
	fprintf(stderr, "usage: node-bench [-n OPS] [-k ROUNDS] URL...\n");
	return (2);
}
