/*
 * test-results.c: results.c against cases worked by hand (the game pairs
 * of PROTOCOL.md §13.10: the same start in the same tournament, one game
 * with each seat, in id order; the referee's figures; standings with a
 * shared rank, head-to-head and a player without a game) and against an
 * independent computation (the pairing and the Elo interval and LOS of a
 * random list of results, recomputed here from the raw list).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/results.h"
#include "teststat.h"

/* A game: id, first and second player, start, tournament, winner. */
static struct store_rgame
game(int64_t id, const char *p1, const char *p2, const char *start,
    int64_t tour, int winner)
{
	return ((struct store_rgame){ .id = id, .player1 = p1, .player2 = p2,
	    .start = start, .tournament = tour, .winner = winner });
}

/* A game of a list: first and second player, start, tournament, winner. */
struct gdef {
	const char	*p1, *p2, *start;
	int64_t		 tour;
	int		 winner;
};

/* Fills g[0..n) from the list d, with ids 1..n in its order. */
static void
games(struct store_rgame *g, const struct gdef *d, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		g[i] = game((int64_t)i + 1, d[i].p1, d[i].p2, d[i].start,
		    d[i].tour, d[i].winner);
}

/*
 * Checks a pair's counts without draws: wins, losses, the pairs ll, wl
 * and ww (none with a draw), and the unpaired games.
 */
static void
pair_is(const struct results_pair *p, uint64_t wins, uint64_t losses,
    uint64_t ll, uint64_t wl, uint64_t ww, size_t unpaired)
{
	assert_int_equal(p->wdl.wins, wins);
	assert_int_equal(p->wdl.losses, losses);
	assert_int_equal(p->wdl.draws, 0);
	assert_int_equal(p->penta.ll, ll);
	assert_int_equal(p->penta.wl, wl);
	assert_int_equal(p->penta.ww, ww);
	assert_int_equal(p->penta.ld + p->penta.dd + p->penta.wd, 0);
	assert_int_equal(p->unpaired, unpaired);
}

/* Elo of a score, computed here: -400 log10(1/s - 1). */
static double
elo_of(double s)
{
	return (-400.0 * log10(1.0 / s - 1.0));
}

/*
 * A against B (first player listed first), ids in order:
 *   1 A-B s1 A wins, 2 B-A s1 A wins        -> pair s1: WW
 *   3 A-B s2 A wins, 4 A-B s2 B wins, 5 B-A s2 B wins
 *                                          -> 3 with 5: WL; 4 unpaired
 *   6 B-A s1 in tournament 7, B wins        -> unpaired (other tournament)
 *   7 A-B s3 B wins, 8 B-A s3 B wins        -> LL
 * A: 3 wins, 5 losses; pairs ww 1, wl 1, ll 1; 2 unpaired.
 */
static void
test_pairs_by_hand(void **state)
{
	static const struct gdef d[] = {
		{ "A", "B", "s1", 0, 1 }, { "B", "A", "s1", 0, 2 },
		{ "A", "B", "s2", 0, 1 }, { "A", "B", "s2", 0, 2 },
		{ "B", "A", "s2", 0, 1 }, { "B", "A", "s1", 7, 1 },
		{ "A", "B", "s3", 0, 2 }, { "B", "A", "s3", 0, 1 },
	};
	struct store_rgame g[8];
	struct results	 r;
	struct results_pair p, q;
	double		 s, var, se, z = 1.959963984540054;

	(void)state;
	games(g, d, 8);
	assert_int_equal(results_build(NULL, 0, g, 8, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.names[0], "A");
	assert_int_equal(results_pair_get(&r, 0, 1, &p), 0);
	pair_is(&p, 3, 5, 1, 1, 1, 2);
	/* The interval and LOS of 3 of 8, recomputed here. */
	s = 3.0 / 8.0;
	var = s * (1 - s);
	se = sqrt(var / 8);
	near(p.elo.score, s, 1e-12, "score");
	near(p.elo.elo, elo_of(s), 1e-9, "elo");
	near(p.elo.elo_lo, elo_of(s - z * se), 1e-9, "elo lo");
	near(p.elo.elo_hi, elo_of(s + z * se), 1e-9, "elo hi");
	near(p.elo.los, 0.5 * erfc(-(s - 0.5) / se / sqrt(2.0)), 1e-12,
	    "los");
	/* Pairs scoring 1, 1/2, 0: elo 0, LOS 1/2. */
	assert_true(p.has_penta_elo);
	near(p.penta_elo.elo, 0.0, 1e-9, "pair elo");
	near(p.penta_elo.los, 0.5, 1e-12, "pair los");
	/* From B's side: the mirror. */
	assert_int_equal(results_pair_get(&r, 1, 0, &q), 0);
	pair_is(&q, 5, 3, 1, 1, 1, 2);
	near(q.elo.elo, -p.elo.elo, 1e-9, "mirror elo");
	/* The crosstable: A 3 points of 8 against B. */
	assert_int_equal(xtable_get(&r.xt, 0, 1)->half, 6);
	assert_int_equal(xtable_get(&r.xt, 1, 0)->games, 8);
	results_free(&r);
}

/* The referee's figures: optimal-move rate, first throws, conversion. */
static void
test_referee_by_hand(void **state)
{
	struct store_rgame g[3];
	struct results	 r;
	struct results_pair p;
	const struct results_ref *a;
	uint64_t	 t;

	(void)state;
	/* 1: A won, 3 moves, 2 kept: a won position converted. */
	g[0] = game(1, "A", "B", "s", 0, 1);
	g[0].marked = 1;
	g[0].seat[0] = (struct store_rseat){ 3, 2, 0, 0 };
	g[0].seat[1] = (struct store_rseat){ 2, 0, 0, 0 };
	/* 2: A (second) won after throwing a win at its move 3. */
	g[1] = game(2, "B", "A", "s", 0, 2);
	g[1].marked = 1;
	g[1].seat[0] = (struct store_rseat){ 4, 1, 2, 2 };
	g[1].seat[1] = (struct store_rseat){ 4, 1, 1, 3 };
	/* 3: A threw a win at its first move and lost. */
	g[2] = game(3, "A", "B", "t", 0, 2);
	g[2].marked = 1;
	g[2].seat[0] = (struct store_rseat){ 2, 0, 1, 1 };
	g[2].seat[1] = (struct store_rseat){ 2, 2, 0, 0 };
	assert_int_equal(results_build(NULL, 0, g, 3, &r), 0);
	a = &r.ref[0];
	assert_int_equal(a->games, 3);
	assert_int_equal(a->moves, 9);
	assert_int_equal(a->kept, 3);
	assert_int_equal(a->threw, 2);
	assert_int_equal(a->throw_games, 2);
	assert_int_equal(a->first_throw[0], 1);	/* move 1 */
	assert_int_equal(a->first_throw[2], 1);	/* move 3 */
	assert_int_equal(a->first_throw_sum, 4);
	assert_int_equal(a->won_games, 3);
	assert_int_equal(a->converted, 2);
	/* B: won positions in games 2 (lost) and 3 (won). */
	assert_int_equal(r.ref[1].won_games, 2);
	assert_int_equal(r.ref[1].converted, 1);
	assert_int_equal(r.ref[1].first_throw[1], 1);	/* move 2 */
	assert_int_equal(results_optimal_tenths(a->kept, a->threw, &t), 0);
	assert_int_equal(t, 600);
	/* The pair's figures are the same games: the same numbers. */
	assert_int_equal(results_pair_get(&r, 1, 0, &p), 0);
	assert_int_equal(p.ref[1].kept, 3);
	assert_int_equal(p.ref[0].won_games, 2);
	results_free(&r);
}

/*
 * The one optimal-move rate: none without a won position; `stats`'s
 * integer percent is the tenths rounded down; the buckets of `player`.
 */
static void
test_optimal_rate(void **state)
{
	uint64_t	 k, n, t;

	(void)state;
	assert_int_equal(results_optimal_tenths(0, 0, &t), -1);
	assert_true(results_optimal_rate(0, 0) < 0);
	assert_int_equal(results_optimal_tenths(2, 1, &t), 0);
	assert_int_equal(t, 666);
	for (n = 1; n <= 60; n++)
		for (k = 0; k <= n; k++) {
			assert_int_equal(results_optimal_tenths(k, n - k, &t),
			    0);
			assert_int_equal(t / 10, k * 100 / n);
			near(results_optimal_rate(k, n - k), (double)k / n,
			    1e-15, "rate");
		}
	assert_int_equal(results_throw_bucket(1), 0);
	assert_int_equal(results_throw_bucket(5), 4);
	assert_int_equal(results_throw_bucket(6), 5);
	assert_int_equal(results_throw_bucket(10), 5);
	assert_int_equal(results_throw_bucket(11), 6);
	assert_int_equal(results_throw_bucket(20), 6);
	assert_int_equal(results_throw_bucket(21), 7);
	assert_int_equal(results_throw_bucket(100000), 7);
}

/* Finds name's line in the standings. */
static const struct standing *
line_of(const struct results *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->names[r->st[i].player], name) == 0)
			return (&r->st[i]);
	fail_msg("no %s in the standings", name);
	return (NULL);
}

/*
 * A cycle A > B > C > A, each beating D, E without a game: A, B and C
 * level on points, head-to-head, SB and wins share rank 1; D 4; E last.
 * Then a head-to-head case: A and B level, A beat B; C and D level, D
 * beat C: A, B, D, C.
 */
static void
test_standings_ties(void **state)
{
	static const char *const names[] = { "A", "B", "C", "D", "E" };
	static const struct gdef cycle[] = {
		{ "A", "B", "x", 1, 1 }, { "B", "C", "x", 1, 1 },
		{ "C", "A", "x", 1, 1 }, { "A", "D", "x", 1, 1 },
		{ "D", "B", "x", 1, 2 }, { "C", "D", "x", 1, 1 },
	}, h2h[] = {
		{ "A", "B", "x", 1, 1 }, { "A", "C", "x", 1, 2 },
		{ "B", "C", "x", 1, 1 }, { "A", "D", "x", 1, 1 },
		{ "B", "D", "x", 1, 1 }, { "C", "D", "x", 1, 2 },
	};
	struct store_rgame g[6];
	struct results	 r;

	(void)state;
	games(g, cycle, 6);
	assert_int_equal(results_build(names, 5, g, 6, &r), 0);
	assert_int_equal(line_of(&r, "A")->rank, 1);
	assert_int_equal(line_of(&r, "B")->rank, 1);
	assert_int_equal(line_of(&r, "C")->rank, 1);
	assert_int_equal(line_of(&r, "A")->tb[0], 2);	/* DE: 1 point */
	assert_int_equal(line_of(&r, "A")->tb[1], 8);	/* SB: 2 * B's 2 pts */
	assert_int_equal(line_of(&r, "D")->rank, 4);
	assert_int_equal(line_of(&r, "E")->rank, 5);
	assert_string_equal(r.names[r.st[4].player], "E");
	assert_int_equal(r.games, 6);
	results_free(&r);

	games(g, h2h, 6);
	assert_int_equal(results_build(names, 4, g, 6, &r), 0);
	assert_string_equal(r.names[r.st[0].player], "A");
	assert_string_equal(r.names[r.st[1].player], "B");
	assert_string_equal(r.names[r.st[2].player], "D");
	assert_string_equal(r.names[r.st[3].player], "C");
	assert_int_equal(r.st[1].rank, 2);
	assert_int_equal(r.st[3].rank, 4);
	assert_int_equal(r.st[0].tb[0], 2);
	assert_int_equal(r.st[1].tb[0], 0);
	results_free(&r);
}

/*
 * 400 random games of A and B over 6 starts and 3 tournaments, random
 * seats and winners: the pentanomial counts against a pairing written
 * here (per start and tournament, the A-first games and the B-first
 * games each in id order, zipped), the trinomial counts against a count.
 */
static void
test_pairs_random(void **state)
{
	static const char *const starts[] = { "n1", "n2", "n3", "n4", "n5",
	    "n6" };
	enum { N = 400 };
	struct store_rgame g[N];
	struct results	 r;
	struct results_pair p;
	uint64_t	 cnt[3] = { 0, 0, 0 }, wins = 0, paired = 0;
	int		 aw[N], used[N];
	size_t		 i, j;
	int		 seed;

	(void)state;
	for (seed = 1; seed <= 5; seed++) {
		srand((unsigned)seed);
		memset(cnt, 0, sizeof cnt);
		wins = paired = 0;
		for (i = 0; i < N; i++) {
			int a_first = rand() % 2;

			g[i] = game((int64_t)i + 1, a_first ? "A" : "B",
			    a_first ? "B" : "A", starts[rand() % 6],
			    rand() % 3, 1 + rand() % 2);
			aw[i] = (g[i].winner == 1) == a_first;
			wins += (uint64_t)aw[i];
			used[i] = 0;
		}
		/* Pair: a game with the next unused of the other seat. */
		for (i = 0; i < N; i++) {
			size_t k = 0, m;
			int first = strcmp(g[i].player1, "A") == 0;

			if (used[i])
				continue;
			/* i is the k-th unused game of its seat and key. */
			for (j = 0; j < i; j++)
				if (g[j].tournament == g[i].tournament &&
				    strcmp(g[j].start, g[i].start) == 0 &&
				    (strcmp(g[j].player1, "A") == 0) == first)
					k++;
			/* The k-th game of the other seat, same key. */
			for (j = 0, m = 0; j < N; j++) {
				if (g[j].tournament != g[i].tournament ||
				    strcmp(g[j].start, g[i].start) != 0 ||
				    (strcmp(g[j].player1, "A") == 0) == first)
					continue;
				if (m++ == k)
					break;
			}
			if (j == N)
				continue;
			used[i] = used[j] = 1;
			cnt[aw[i] + aw[j]]++;
			paired += 2;
		}
		assert_int_equal(results_build(NULL, 0, g, N, &r), 0);
		assert_int_equal(results_pair_get(&r, 0, 1, &p), 0);
		pair_is(&p, wins, N - wins, cnt[0], cnt[1], cnt[2],
		    N - paired);
		results_free(&r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_by_hand),
		cmocka_unit_test(test_referee_by_hand),
		cmocka_unit_test(test_optimal_rate),
		cmocka_unit_test(test_standings_ties),
		cmocka_unit_test(test_pairs_random),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
