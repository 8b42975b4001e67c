/*
 * rating-bench.c: the cost of the ratings across nodes (BENCHMARKS.md,
 * issue 15 §2), through the store's own interface:
 *   end     a rated game's end, committed and rated (store_game_end, then
 *           store_flush: the writer's batch with the game's rating, its
 *           checkpoint and, on PostgreSQL, the nodes' rating lock);
 *   sync    store_ratings_sync with nothing new (what every `ratings`,
 *           `player` and login read costs: on PostgreSQL one read of the
 *           checkpoint's seq);
 *   catchup store_ratings_sync after a second store on the same database
 *           (another node) rated K games: the replay of K games.
 * Each figure is the median (and the 90th percentile) of its runs, in
 * microseconds.  The games are `nim 1`, one move, among 16 players.
 *
 * usage: rating-bench [-n GAMES] [-s SYNCS] [-k K] PATH|URL
 *   e.g. tests/e2e/pgcluster.sh run sh -c \
 *            './contrib/bench/rating-bench /tmp/r.db; \
 *             ./contrib/bench/rating-bench "$SQLDB_PG_URL"'
 * (catchup runs on PostgreSQL only: one SQLite file has one writer).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/clock.h"
#include "store/store.h"

/* The monotonic clock in microseconds (clock.c's). */
static double
now_us(void)
{
	return ((double)clock_mono_ns() / 1e3);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* Prints the median and 90th percentile of v[0..n-1]. */
static void
report(const char *what, const char *where, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	printf("%-8s %-10s runs %6d  median %9.1f us  p90 %9.1f us\n", what,
	    where, n, v[n / 2], v[n * 9 / 10]);
}

/* The done callback: nothing to do (store_flush waits). */
static void
done(void *arg, int ok)
{
	if (!ok)
		*(int *)arg = 1;
}

/* Begins game k (rated, one move) and flushes it; returns its id. */
static int64_t
begin(struct store *st, long k)
{
	static const struct store_move m = { 1, 1, "1=0", "nim 0", 3,
			    STORE_KEPT_WIN, 0, 0 };
	struct store_game g;
	char		 p1[16], p2[16];
	int64_t		 id;

	snprintf(p1, sizeof p1, "p%ld", k % 16);
	snprintf(p2, sizeof p2, "p%ld", (k * 7 + 3) % 16 == k % 16 ?
	    (k + 1) % 16 : (k * 7 + 3) % 16);
	memset(&g, 0, sizeof g);
	g.family = "nim";
	g.game = "nim 1";
	g.player1 = p1;
	g.player2 = p2;
	g.rated = 1;
	if ((id = store_game_begin(st, &g)) <= 0) {
		fprintf(stderr, "rating-bench: cannot begin a game\n");
		exit(1);
	}
	store_move(st, id, &m);
	if (store_flush(st) != 0) {
		fprintf(stderr, "rating-bench: flush failed\n");
		exit(1);
	}
	return (id);
}

/* Ends game id (won by k's parity) and waits until it is committed. */
static void
end(struct store *st, int64_t id, long k)
{
	int	 failed = 0;

	store_game_end(st, id, k % 2 ? STORE_RESULT_FIRST :
	    STORE_RESULT_SECOND, "no-legal-move", STORE_FINISHED, done,
	    &failed);
	if (store_flush(st) != 0 || failed) {
		fprintf(stderr, "rating-bench: a game's end failed\n");
		exit(1);
	}
}

static struct store *
open_or_die(const char *url)
{
	struct store	*st;
	char		 err[1024];

	if ((st = store_open(url, err, sizeof err)) == NULL) {
		fprintf(stderr, "rating-bench: %s\n", err);
		exit(1);
	}
	return (st);
}

int
main(int argc, char **argv)
{
	struct store	*st, *other;
	double		*v, t;
	long		 games = 300, syncs = 2000, k_other = 10, i, j;
	const char	*url, *where;
	int		 c, pg;
	int64_t		 id;

	while ((c = getopt(argc, argv, "n:s:k:")) != -1) {
		switch (c) {
		case 'n':
			games = strtol(optarg, NULL, 10);
			break;
		case 's':
			syncs = strtol(optarg, NULL, 10);
			break;
		case 'k':
			k_other = strtol(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc || games < 10 || syncs < 10 || k_other < 1)
		goto usage;
	url = argv[optind];
	pg = strncmp(url, "postgres", 8) == 0;
	where = pg ? "postgresql" : "sqlite";
	st = open_or_die(url);
	v = calloc((size_t)(games > syncs ? games : syncs), sizeof *v);
	if (v == NULL)
		return (1);

	for (i = 0; i < games; i++) {
		id = begin(st, i);
		t = now_us();
		end(st, id, i);
		v[i] = now_us() - t;
	}
	report("end", where, v, (int)games);

	for (i = 0; i < syncs; i++) {
		t = now_us();
		if (store_ratings_sync(st) != 0)
			return (1);
		v[i] = now_us() - t;
	}
	report("sync", where, v, (int)syncs);

	if (pg) {
		other = open_or_die(url);
		for (i = 0; i < games / 10; i++) {
			for (j = 0; j < k_other; j++)
				end(other, begin(other, games + i * k_other + j),
				    j);
			t = now_us();
			if (store_ratings_sync(st) != 0)
				return (1);
			v[i] = now_us() - t;
		}
		report("catchup", where, v, (int)(games / 10));
		printf("(catchup: the replay of %ld games another store "
		    "rated)\n", k_other);
		store_close(other);
	}
	free(v);
	store_close(st);
	return (0);

usage:
	fprintf(stderr, "usage: rating-bench [-n GAMES>=10] [-s SYNCS>=10] "
	    "[-k K] PATH|URL\n");
	return (2);
}
