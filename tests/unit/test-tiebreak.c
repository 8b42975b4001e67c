/*
 * test-tiebreak.c: the crosstable and the standings: cases worked by
 * hand (Sonneborn-Berger, head-to-head against SB, a cycle sharing a
 * rank, head-to-head skipped when the level players have not all met, a
 * player with no game last), and random tournaments against keys
 * recomputed from the raw list of games.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "stats/tiebreak.h"

/* Plays a game; r is the first player's result as W, D or L. */
static void
play(struct xtable *x, size_t a, size_t b, char r)
{
	assert_int_equal(xtable_add(x, a, b, r == 'W' ? XTABLE_WIN :
	    r == 'D' ? XTABLE_DRAW : XTABLE_LOSS), 0);
}

/*
 * Starts a crosstable of n players and plays the games listed as "A-BR"
 * separated by single spaces (one-digit players, R as in play).
 */
static void
play_games(struct xtable *x, size_t n, const char *games)
{
	const char	*p;

	assert_int_equal(xtable_init(x, n), 0);
	for (p = games; *p != '\0'; p += p[4] == '\0' ? 4 : 5)
		play(x, (size_t)(p[0] - '0'), (size_t)(p[2] - '0'), p[3]);
}

/*
 * Fills s with the standings of x and checks the order of players and
 * their ranks and score ranks.
 */
static void
expect(const struct xtable *x, struct standing *s, const size_t *who,
    const unsigned *rank, const unsigned *srank)
{
	size_t	 i;

	tiebreak_standings(x, s);
	for (i = 0; i < x->n; i++) {
		assert_int_equal(s[i].player, who[i]);
		assert_int_equal(s[i].rank, rank[i]);
		assert_int_equal(s[i].score_rank, srank[i]);
	}
}

/*
 * A round robin of 4: 0-1 W, 0-2 D, 0-3 L, 1-2 W, 1-3 W, 2-3 W.
 * Points 1.5, 2, 1.5, 1.  0 and 2 drew (head-to-head 1 each); SB in
 * quarters: 0 = 2*4 (beat 1) + 1*3 (drew 2) = 11, 2 = 1*3 + 2*2 = 7.
 */
static void
test_round_robin(void **state)
{
	static const size_t	 who[] = { 1, 0, 2, 3 };
	static const unsigned	 rank[] = { 1, 2, 3, 4 }, sr[] = { 1, 2, 2, 4 };
	struct xtable		 x;
	struct standing		 s[4];

	(void)state;
	play_games(&x, 4, "0-1W 0-2D 0-3L 1-2W 1-3W 2-3W");
	expect(&x, s, who, rank, sr);
	assert_true(s[1].half == 3 && s[1].h2h == 1 && s[1].sb == 11);
	assert_true(s[2].half == 3 && s[2].h2h == 1 && s[2].sb == 7);
	assert_true(s[0].h2h == -1 && s[3].h2h == -1);
	assert_true(xtable_get(&x, 2, 0)->half == 1 &&
	    xtable_get(&x, 3, 0)->half == 2 && xtable_get(&x, 0, 3)->half == 0);
	assert_true(x.player[0].wins == 1 && x.player[0].draws == 1 &&
	    x.player[0].losses == 1 && x.player[0].games == 3);
	xtable_free(&x);
}

/*
 * Head-to-head before SB: 5 players, 0-1 W, 0-2 L, 0-3 W, 0-4 L, 1-2 L,
 * 1-3 W, 1-4 L, 2-3 D, 2-4 L, 3-4 D; points in halves 4, 2, 5, 2, 7.
 * 1 and 3 have 1 point each; 1 beat 3 but has SB 2*2 = 4 against 3's
 * 1*5 + 1*7 = 12: 1 ranks above 3.
 */
static void
test_h2h_before_sb(void **state)
{
	static const size_t	 who[] = { 4, 2, 0, 1, 3 };
	static const unsigned	 rank[] = { 1, 2, 3, 4, 5 };
	static const unsigned	 sr[] = { 1, 2, 3, 4, 4 };
	static const char	*g = "0-1W 0-2L 0-3W 0-4L 1-2L 1-3W 1-4L 2-3D "
	    "2-4L 3-4D";
	struct xtable		 x;
	struct standing		 s[5];

	(void)state;
	play_games(&x, 5, g);
	expect(&x, s, who, rank, sr);
	assert_true(s[3].h2h == 2 && s[3].sb == 4);
	assert_true(s[4].h2h == 0 && s[4].sb == 12);
	xtable_free(&x);
}

/*
 * A cycle (0 beats 1, 1 beats 2, 2 beats 0): equal on points,
 * head-to-head, SB and wins, so all share rank 1 (listed by index).
 * Then a Swiss round (0 beats 2, 1 beats 3): 0 and 1 level but never
 * met, so no head-to-head; equal SB (0) and wins: shared rank 1, and 2
 * and 3 share rank 3.
 */
static void
test_shared_ranks(void **state)
{
	static const size_t	 who[] = { 0, 1, 2 }, who4[] = { 0, 1, 2, 3 };
	static const unsigned	 one[] = { 1, 1, 1 }, r4[] = { 1, 1, 3, 3 };
	struct xtable		 x;
	struct standing		 s[4];

	(void)state;
	play_games(&x, 3, "0-1W 1-2W 2-0W");
	expect(&x, s, who, one, one);
	assert_true(s[0].h2h == 2 && s[0].sb == 4);
	xtable_free(&x);
	play_games(&x, 4, "0-2W 3-1L");
	expect(&x, s, who4, r4, r4);
	assert_true(s[0].h2h == -1 && s[1].h2h == -1);
	xtable_free(&x);
}

/*
 * A player with no game is last, even with a bye's point: 4 players, 0
 * beats 1 and 2 draws 1, 3 only has a bye.  1 and 2 have half a point
 * (equal head-to-head, SB 1 quarter each, no win: rank 2 shared), 3 one
 * point, yet 3 is last.
 */
static void
test_no_game_last(void **state)
{
	static const size_t	 who[] = { 0, 1, 2, 3 };
	static const unsigned	 rank[] = { 1, 2, 2, 4 };
	struct xtable		 x;
	struct standing		 s[4];

	(void)state;
	play_games(&x, 4, "0-1W 2-1D");
	assert_int_equal(xtable_bye(&x, 3, 2), 0);
	expect(&x, s, who, rank, rank);
	assert_true(s[3].half == 2 && s[3].games == 0);
	/* Refusals change nothing. */
	assert_int_equal(xtable_add(&x, 1, 1, XTABLE_WIN), -1);
	assert_int_equal(xtable_add(&x, 0, 4, XTABLE_WIN), -1);
	assert_int_equal(xtable_add(&x, 0, 1, (enum xtable_res)3), -1);
	assert_int_equal(xtable_bye(&x, 3, 3), -1);
	assert_int_equal(xtable_bye(&x, 4, 1), -1);
	assert_true(x.player[0].games == 1 && x.player[1].games == 2 &&
	    x.player[3].half == 2 && x.player[3].byes == 1);
	xtable_free(&x);
	assert_int_equal(xtable_init(&x, 0), -1);
	assert_int_equal(xtable_init(&x, XTABLE_MAX + 1), -1);
}

/* A raw game for the brute force. */
struct raw {
	int	 a, b, r;	/* r: a's halves */
};

/* One player's keys recomputed from the raw games. */
struct key {
	int	 played;
	long	 half, h2h, sb, wins;
};

/* Tells whether i and j have a game in the raw list. */
static int
raw_met(const struct raw *g, int ng, int i, int j)
{
	int	 t;

	for (t = 0; t < ng; t++)
		if ((g[t].a == i && g[t].b == j) ||
		    (g[t].a == j && g[t].b == i))
			return (1);
	return (0);
}

/* Tells whether i and j are level: both played or not, equal points. */
static int
raw_level(const struct key *k, int i, int j)
{
	return (k[i].played == k[j].played && k[i].half == k[j].half);
}

/* Recomputes every key from the game list (no crosstable). */
static void
brute_keys(const struct raw *g, int ng, const int *bye, int n,
    struct key *k)
{
	int	 i, j, m, t, all, size;

	memset(k, 0, (size_t)n * sizeof *k);
	for (i = 0; i < n; i++)
		k[i].half = bye[i];
	for (t = 0; t < ng; t++) {
		k[g[t].a].played = k[g[t].b].played = 1;
		k[g[t].a].half += g[t].r;
		k[g[t].b].half += 2 - g[t].r;
		k[g[t].a].wins += g[t].r == 2;
		k[g[t].b].wins += g[t].r == 0;
	}
	for (t = 0; t < ng; t++) {
		k[g[t].a].sb += g[t].r * k[g[t].b].half;
		k[g[t].b].sb += (2 - g[t].r) * k[g[t].a].half;
	}
	for (i = 0; i < n; i++) {
		all = k[i].played;
		for (size = 0, j = 0; j < n; j++) {
			size += raw_level(k, i, j);
			for (m = 0; m < n; m++)
				if (j != m && raw_level(k, i, j) &&
				    raw_level(k, i, m) && !raw_met(g, ng, j, m))
					all = 0;
		}
		k[i].h2h = all && size >= 2 ? 0 : -1;
		for (t = 0; k[i].h2h >= 0 && t < ng; t++) {
			if (g[t].a == i && raw_level(k, i, g[t].b))
				k[i].h2h += g[t].r;
			if (g[t].b == i && raw_level(k, i, g[t].a))
				k[i].h2h += 2 - g[t].r;
		}
	}
}

/*
 * -1 if a ranks strictly above b, 1 if below, 0 if equal on all: the
 * keys as a vector, larger is better, compared left to right.
 */
static int
key_cmp(const struct key *a, const struct key *b)
{
	long	 va[5] = { a->played, a->half, a->h2h, a->sb, a->wins };
	long	 vb[5] = { b->played, b->half, b->h2h, b->sb, b->wins };
	int	 i;

	for (i = 0; i < 5; i++)
		if (va[i] != vb[i])
			return (va[i] > vb[i] ? -1 : 1);
	return (0);
}

/* Checks one random tournament's standings against the brute keys. */
static void
check_random(uint32_t *seed, int n)
{
	struct raw	 g[40];
	int		 bye[8] = { 0 }, ng, t, i, j, better, sbetter;
	int		 draws, a, b, r;
	struct key	 k[8];
	struct xtable	 x;
	struct standing	 s[8];

	*seed = *seed * 1103515245u + 12345u;
	draws = (int)((*seed >> 8) % 40);
	assert_int_equal(xtable_init(&x, (size_t)n), 0);
	for (ng = 0, t = 0; t < draws; t++) {
		*seed = *seed * 1103515245u + 12345u;
		a = (int)((*seed >> 8) % (uint32_t)n);
		b = (int)((*seed >> 12) % (uint32_t)(n - 1));
		b += b >= a;
		r = (int)((*seed >> 20) % 3);
		/* Player n - 1 never plays: it only gets byes. */
		if (a == n - 1 || b == n - 1) {
			bye[n - 1] += 1;
			assert_int_equal(xtable_bye(&x, (size_t)n - 1, 1), 0);
			continue;
		}
		g[ng++] = (struct raw){ a, b, r };
		assert_int_equal(xtable_add(&x, (size_t)a, (size_t)b,
		    (enum xtable_res)r), 0);
	}
	brute_keys(g, ng, bye, n, k);
	tiebreak_standings(&x, s);
	for (i = 0; i < n; i++) {
		struct key	*ki = &k[s[i].player];

		assert_int_equal(s[i].half, ki->half);
		assert_int_equal(s[i].h2h, ki->h2h);
		assert_int_equal(s[i].sb, ki->sb);
		assert_int_equal(s[i].wins, ki->wins);
		if (i > 0) {
			j = key_cmp(&k[s[i - 1].player], ki);
			assert_true(j < 0 || (j == 0 &&
			    s[i - 1].player < s[i].player));
		}
		for (better = sbetter = 0, j = 0; j < n; j++) {
			better += key_cmp(&k[j], ki) < 0;
			sbetter += k[j].played > ki->played ||
			    (k[j].played == ki->played && k[j].half > ki->half);
		}
		assert_int_equal(s[i].rank, better + 1);
		assert_int_equal(s[i].score_rank, sbetter + 1);
	}
	xtable_free(&x);
}

/* 20,000 random tournaments of 2 to 8 players. */
static void
test_random(void **state)
{
	uint32_t	 seed = 7;
	int		 i;

	(void)state;
	for (i = 0; i < 20000; i++)
		check_random(&seed, 2 + i % 7);
}

TU_MAIN("tiebreak",
    cmocka_unit_test(test_round_robin),
    cmocka_unit_test(test_h2h_before_sb),
    cmocka_unit_test(test_shared_ranks),
    cmocka_unit_test(test_no_game_last),
    cmocka_unit_test(test_random))
