/*
 * test-swiss.c: a round-robin's pairings in order (rr_pairing); Swiss
 * pairing.  Dutch cases worked by hand, then whole random tournaments of
 * 1 to 12 players, every round checked by brute force: each player
 * paired once or given the bye, no rematch, the bye as rule 2 says, the
 * pairs those of the first rematch-free pairing in rule 3's order (found
 * by a plain backtracking search over every pairing, group pairs counted
 * by enumeration), no pair across score groups when each group can pair
 * within itself, the seats as rule 4 says, and a refusal exactly when no
 * pairing without rematch exists (every matching enumerated).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "stats/blossom.h"
#include "stats/swiss.h"

#define NMAX	12

/* A field: the players and who met whom. */
struct field {
	size_t			 n;
	struct swiss_player	 pl[NMAX];
	unsigned char		 met[NMAX * NMAX];
};

/* Pairs a field that must pair; returns the bye. */
static size_t
pair_ok(const struct field *f, struct swiss_pair *out)
{
	size_t	 bye = 12345;

	assert_int_equal(swiss_pair(f->pl, f->n, f->met, out, &bye),
	    SWISS_OK);
	return (bye);
}

/* Checks the pairs against expected (first, second) seats. */
static void
expect(const struct swiss_pair *out, const size_t (*want)[2], size_t np)
{
	size_t	 i;

	for (i = 0; i < np; i++) {
		assert_int_equal(out[i].first, want[i][0]);
		assert_int_equal(out[i].second, want[i][1]);
	}
}

/*
 * Round 1 of 8: top half against bottom half, 1-5, 2-6, 3-7, 4-8 (seeds
 * 0-4, ...), the higher seed first on odd boards, second on even ones.
 */
static void
test_round_one(void **state)
{
	static const size_t	 want[4][2] = { { 0, 4 }, { 5, 1 }, { 2, 6 },
	    { 7, 3 } };
	struct field		 f;
	struct swiss_pair	 out[4];

	(void)state;
	memset(&f, 0, sizeof f);
	f.n = 8;
	assert_int_equal(pair_ok(&f, out), SWISS_NO_BYE);
	expect(out, want, 4);
}

/*
 * Score groups: six players with 1, 1, 1, 0, 0, 0 points.  The group of
 * three pairs its top two (S1 = {0}, S2 = {1, 2}) and floats 2 down to
 * meet 3; then 4-5.  Seats: 0 sat second last time, so first now.
 */
static void
test_score_groups(void **state)
{
	static const size_t	 want[3][2] = { { 0, 1 }, { 3, 2 }, { 4, 5 } };
	struct field		 f;
	struct swiss_pair	 out[3];
	size_t			 i;

	(void)state;
	memset(&f, 0, sizeof f);
	f.n = 6;
	for (i = 0; i < 3; i++)
		f.pl[i].half = 2;
	f.pl[0].last = -1;
	f.pl[0].colour = 0;
	f.pl[2].colour = 1;	/* 2 had the first seat once more */
	assert_int_equal(pair_ok(&f, out), SWISS_NO_BYE);
	expect(out, want, 3);
}

/*
 * Rematches: four players level, 0 met 2: Dutch 0-2 is out, so 0-3 and
 * 1-2.  If instead 1 met 3, 0-2 is possible but leaves 1-3: 0-3 again.
 * Then an odd field of five level players where 4 (the lowest seed)
 * had the bye: the bye goes to 3.
 */
static void
test_rematch_bye(void **state)
{
	static const size_t	 want[2][2] = { { 0, 3 }, { 2, 1 } };
	static const size_t	 want8[4][2] = { { 0, 3 }, { 2, 1 }, { 4, 6 },
	    { 7, 5 } };
	struct field		 f;
	struct swiss_pair	 out[2], out8[4];
	size_t			 i;

	(void)state;
	memset(&f, 0, sizeof f);
	f.n = 4;
	f.met[0 * 4 + 2] = f.met[2 * 4 + 0] = 1;
	assert_int_equal(pair_ok(&f, out), SWISS_NO_BYE);
	expect(out, want, 2);
	memset(&f, 0, sizeof f);
	f.n = 4;
	f.met[1 * 4 + 3] = f.met[3 * 4 + 1] = 1;
	assert_int_equal(pair_ok(&f, out), SWISS_NO_BYE);
	expect(out, want, 2);
	/* A lower group: 0-2 would still let 1 and 3 float down, but 0-3
	 * keeps the group's pairs: 0-3, 1-2, 4-6, 5-7. */
	memset(&f, 0, sizeof f);
	f.n = 8;
	for (i = 0; i < 4; i++)
		f.pl[i].half = 2;
	f.met[1 * 8 + 3] = f.met[3 * 8 + 1] = 1;
	assert_int_equal(pair_ok(&f, out8), SWISS_NO_BYE);
	expect(out8, want8, 4);
	memset(&f, 0, sizeof f);
	f.n = 5;
	f.pl[4].had_bye = 1;
	assert_int_equal(pair_ok(&f, out), 3);
	/* One player: the bye.  None, too many: refused. */
	f.n = 1;
	assert_int_equal(pair_ok(&f, out), 0);
	assert_int_equal(swiss_pair(f.pl, 0, f.met, out, &f.n), SWISS_E_SIZE);
	assert_int_equal(swiss_pair(f.pl, SWISS_MAX + 1, f.met, out, &f.n),
	    SWISS_E_SIZE);
	assert_string_equal(swiss_strerror(SWISS_E_NOPAIRING),
	    "every pairing of this round has a rematch");
}

static int ranks_above(const struct field *, size_t, size_t);

/* Rounds where the score-group property applied. */
static int		 groups_checked;

/* Memo of brute_mu for one field: -1 unknown. */
static signed char	 mu_memo[1 << NMAX];

/* The largest matching among the vertices of set of the graph adj (bit
 * y of adj[x]: an edge x-y), by enumeration; memo (or NULL) holds -1 for
 * the sets not known yet. */
static int
enum_mu(const unsigned *adj, size_t n, unsigned set, signed char *memo)
{
	int	 best, c;
	size_t	 p, q;

	if (set == 0)
		return (0);
	if (memo != NULL && memo[set] >= 0)
		return (memo[set]);
	for (p = 0; !(set & 1u << p); p++)
		continue;
	best = enum_mu(adj, n, set & ~(1u << p), memo);
	for (q = p + 1; q < n; q++)
		if ((set & 1u << q) && (adj[p] >> q & 1)) {
			c = 1 + enum_mu(adj, n, set & ~(1u << p) & ~(1u << q),
			    memo);
			best = c > best ? c : best;
		}
	if (memo != NULL)
		memo[set] = (signed char)best;
	return (best);
}

/* The graph "may meet" of the field under check, for brute_mu. */
static unsigned		 field_adj[NMAX];

/* The most rematch-free pairs among the players of set (enumerated). */
static int
brute_mu(const struct field *f, unsigned set)
{
	return (enum_mu(field_adj, f->n, set, mu_memo));
}

/* Tells whether p and q of the group grp may meet and leave grp's others
 * one pair less than grp had. */
static int
keeps(const struct field *f, unsigned grp, size_t p, size_t q)
{
	return (!f->met[p * f->n + q] &&
	    brute_mu(f, grp & ~(1u << p) & ~(1u << q)) + 1 == brute_mu(f, grp));
}

/*
 * The first rematch-free pairing of the players in set in rule 3's order,
 * by plain backtracking (no matching theory): fills pairs[0..) top-down
 * and returns 1, or 0 if there is none.
 */
static int
brute_first(const struct field *f, unsigned set, struct swiss_pair *pairs)
{
	size_t		 r[NMAX], cand[NMAX], m = 0, k, nc = 0, i, j, t;
	unsigned	 grp;
	int		 pass;

	if (set == 0)
		return (1);
	/* The players of set by rank (selection sort). */
	for (i = 0; i < f->n; i++)
		if (set & 1u << i)
			r[m++] = i;
	for (i = 0; i < m; i++)
		for (j = i + 1; j < m; j++)
			if (ranks_above(f, r[j], r[i])) {
				t = r[i];
				r[i] = r[j];
				r[j] = t;
			}
	/* r[0] is the top player; r[0..k) its score group, as a set. */
	for (k = 1; k < m && f->pl[r[k]].half == f->pl[r[0]].half; k++)
		continue;
	for (grp = 0, i = 0; i < k; i++)
		grp |= 1u << r[i];
	/* Dutch order, the group-keeping members first, then lower. */
	for (pass = 0; pass < 2; pass++) {
		for (i = k / 2; i < k && k > 1; i++)
			if (keeps(f, grp, r[0], r[i]) == (pass == 0))
				cand[nc++] = r[i];
		for (i = k / 2; i >= 2; i--)
			if (keeps(f, grp, r[0], r[i - 1]) == (pass == 0))
				cand[nc++] = r[i - 1];
	}
	for (i = k; i < m; i++)
		cand[nc++] = r[i];
	for (i = 0; i < nc; i++) {
		if (f->met[r[0] * f->n + cand[i]])
			continue;
		pairs[0].first = r[0];
		pairs[0].second = cand[i];
		if (brute_first(f, set & ~(1u << r[0]) & ~(1u << cand[i]),
		    pairs + 1))
			return (1);
	}
	return (0);
}

/* The bye by rule 2, by brute force; n (no one) if no pairing exists. */
static size_t
brute_bye(const struct field *f)
{
	unsigned	 all = (1u << f->n) - 1;
	size_t		 b, best;
	int		 pass;

	for (pass = 0; pass < 2; pass++) {
		best = f->n;
		for (b = 0; b < f->n; b++) {
			if ((f->pl[b].had_bye != 0) != (pass == 1) ||
			    2 * (size_t)brute_mu(f, all & ~(1u << b)) !=
			    f->n - 1)
				continue;
			/* Lowest score, then highest index. */
			if (best == f->n || f->pl[b].half < f->pl[best].half ||
			    (f->pl[b].half == f->pl[best].half && b > best))
				best = b;
		}
		if (best < f->n)
			return (best);
	}
	return (f->n);
}

/* Tells whether player i ranks above player j: score, then seed. */
static int
ranks_above(const struct field *f, size_t i, size_t j)
{
	return (f->pl[i].half > f->pl[j].half || (f->pl[i].half ==
	    f->pl[j].half && i < j));
}

/* The higher-ranked player of a pair. */
static size_t
higher(const struct field *f, const struct swiss_pair *pr)
{
	return (ranks_above(f, pr->first, pr->second) ? pr->first :
	    pr->second);
}

/* Checks the seats of one pair on board (0-based) by rule 4. */
static void
check_seats(const struct field *f, const struct swiss_pair *pr, size_t board)
{
	const struct swiss_player	*a = &f->pl[pr->first];
	const struct swiss_player	*b = &f->pl[pr->second];
	int				 first_higher;

	if (a->colour != b->colour) {
		assert_true(a->colour < b->colour);
		return;
	}
	if (a->last != b->last) {
		assert_true(a->last < b->last);
		return;
	}
	first_higher = ranks_above(f, pr->first, pr->second);
	assert_int_equal(first_higher, board % 2 == 0);
}

/*
 * The score-group property: if every score group of the players in set
 * can be paired within itself without rematch, no pair crosses groups.
 */
static void
check_groups(const struct field *f, unsigned set, const struct swiss_pair *out)
{
	unsigned	 g;
	size_t		 i, j, size;

	for (i = 0; i < f->n; i++) {
		if (!(set & 1u << i))
			continue;
		for (g = 0, size = 0, j = 0; j < f->n; j++)
			if ((set & 1u << j) && f->pl[j].half == f->pl[i].half) {
				g |= 1u << j;
				size++;
			}
		if (size % 2 || 2 * (size_t)brute_mu(f, g) != size)
			return;
	}
	for (i = 0; i < f->n / 2; i++)
		assert_int_equal(f->pl[out[i].first].half,
		    f->pl[out[i].second].half);
	groups_checked++;
}

/* Checks one round against the brute force; returns 0 if the round was
 * (rightly) refused. */
static int
check_round(const struct field *f, struct swiss_pair *out, size_t *bye)
{
	unsigned	 all = (1u << f->n) - 1, seen = 0;
	size_t		 i, j, want_bye;
	struct swiss_pair again[NMAX / 2], first[NMAX / 2];
	size_t		 bye2;
	enum swiss_err	 e;

	memset(mu_memo, -1, sizeof mu_memo);
	for (i = 0; i < f->n; i++)
		for (field_adj[i] = 0, j = 0; j < f->n; j++)
			if (j != i && !f->met[i * f->n + j])
				field_adj[i] |= 1u << j;
	want_bye = f->n % 2 ? brute_bye(f) : SWISS_NO_BYE;
	e = swiss_pair(f->pl, f->n, f->met, out, bye);
	if ((f->n % 2 && want_bye == f->n) ||
	    (f->n % 2 == 0 && 2 * (size_t)brute_mu(f, all) != f->n)) {
		assert_int_equal(e, SWISS_E_NOPAIRING);
		return (0);
	}
	assert_int_equal(e, SWISS_OK);
	assert_int_equal(*bye, want_bye);
	if (*bye != SWISS_NO_BYE)
		seen |= 1u << *bye;
	for (i = 0; i < f->n / 2; i++) {
		assert_false(seen & (1u << out[i].first | 1u << out[i].second));
		assert_true(out[i].first != out[i].second);
		seen |= 1u << out[i].first | 1u << out[i].second;
		assert_false(f->met[out[i].first * f->n + out[i].second]);
		check_seats(f, &out[i], i);
		/* Boards by the rank of the higher-ranked player. */
		if (i > 0)
			assert_true(ranks_above(f, higher(f, &out[i - 1]),
			    higher(f, &out[i])));
	}
	assert_int_equal(seen, all);
	assert_true(brute_first(f, *bye == SWISS_NO_BYE ? all :
	    all & ~(1u << *bye), first));
	for (i = 0; i < f->n / 2; i++)
		assert_true((out[i].first == first[i].first &&
		    out[i].second == first[i].second) ||
		    (out[i].first == first[i].second &&
		    out[i].second == first[i].first));
	check_groups(f, *bye == SWISS_NO_BYE ? all : all & ~(1u << *bye),
	    out);
	/* Deterministic. */
	assert_int_equal(swiss_pair(f->pl, f->n, f->met, again, &bye2),
	    SWISS_OK);
	assert_int_equal(bye2, *bye);
	assert_memory_equal(again, out, f->n / 2 * sizeof *out);
	return (1);
}

/* Plays a paired round with pseudo-random results. */
static void
play_round(struct field *f, const struct swiss_pair *out, size_t bye,
    uint32_t *seed)
{
	size_t	 i, a, b;
	uint32_t r;

	if (bye != SWISS_NO_BYE) {
		f->pl[bye].half += 2;
		f->pl[bye].had_bye = 1;
	}
	for (i = 0; i < f->n / 2; i++) {
		a = out[i].first;
		b = out[i].second;
		*seed = *seed * 1664525u + 1013904223u;
		r = (*seed >> 16) % 5;		/* draws are rarer */
		f->pl[a].half += r < 2 ? 2 : r == 2 ? 1 : 0;
		f->pl[b].half += r < 2 ? 0 : r == 2 ? 1 : 2;
		f->met[a * f->n + b] = f->met[b * f->n + a] = 1;
		f->pl[a].colour++;
		f->pl[b].colour--;
		f->pl[a].last = 1;
		f->pl[b].last = -1;
	}
}

/* Random tournaments of 1 to 12 players, every round brute-checked
 * until no pairing without rematch is left. */
static void
test_random_tournaments(void **state)
{
	struct field		 f;
	struct swiss_pair	 out[NMAX / 2];
	size_t			 bye, round;
	uint32_t		 seed = 99;
	int			 t, refused = 0;

	(void)state;
	for (t = 0; t < 1200; t++) {
		memset(&f, 0, sizeof f);
		f.n = 1 + (size_t)t % NMAX;
		for (round = 0; round < f.n + 1; round++) {
			if (!check_round(&f, out, &bye)) {
				refused++;
				break;
			}
			play_round(&f, out, bye, &seed);
		}
	}
	/* Some tournaments ran out of pairings (checked above). */
	assert_true(refused > 0);
}

/*
 * 20,000 random fields of 1 to 12 players: two or three score levels,
 * random meetings (up to about half the pairs), byes and colours, each
 * checked as a round.
 */
static void
test_random_fields(void **state)
{
	struct field		 f;
	struct swiss_pair	 out[NMAX / 2];
	size_t			 bye, i, j;
	uint32_t		 x = 4242, density;
	int			 t, paired = 0;

	(void)state;
	for (t = 0; t < 20000; t++) {
		memset(&f, 0, sizeof f);
		f.n = 1 + (size_t)t % NMAX;
		x = x * 1664525u + 1013904223u;
		density = (x >> 16) % 60;
		for (i = 0; i < f.n; i++) {
			x = x * 1664525u + 1013904223u;
			f.pl[i].half = (x >> 8) % (2 + t % 2) * 2;
			f.pl[i].had_bye = (x >> 12) % 4 == 0;
			f.pl[i].colour = (int)((x >> 14) % 3) - 1;
			f.pl[i].last = (int)((x >> 18) % 3) - 1;
			for (j = 0; j < i; j++) {
				x = x * 1664525u + 1013904223u;
				f.met[i * f.n + j] = f.met[j * f.n + i] =
				    (x >> 16) % 100 < density;
			}
		}
		paired += check_round(&f, out, &bye);
	}
	assert_true(paired > 10000 && groups_checked > 1000);
}

/* A random graph for the matching test: adjacency bits. */
struct graph {
	size_t		 n;
	unsigned	 adj[NMAX];
};

/* The callback: an edge of the graph. */
static int
graph_edge(void *arg, size_t x, size_t y)
{
	const struct graph	*g = arg;

	return ((g->adj[x] >> y) & 1);
}

/* Checks that the matching is one: mates mutual, alive, adjacent. */
static void
check_matching(const struct blossom *b, const struct graph *g)
{
	size_t	 x, y;

	for (x = 0; x < g->n; x++) {
		if ((y = b->match[x]) == BLOSSOM_NONE || !b->alive[x])
			continue;
		assert_true(b->alive[y] && b->match[y] == x);
		assert_true(g->adj[x] >> y & 1);
	}
}

/*
 * Edmonds' matching on 5,000 random graphs of 1 to 12 vertices: maximum
 * (against enumeration), then still maximum after taking out a vertex and
 * a pair, and blossom_restore undoes a drop.
 */
static void
test_blossom(void **state)
{
	struct graph	 g;
	struct blossom	 b;
	uint32_t	 x = 77;
	size_t		 i, j, pairs;
	unsigned	 all;
	int		 t;

	(void)state;
	for (t = 0; t < 5000; t++) {
		memset(&g, 0, sizeof g);
		g.n = 1 + (size_t)t % NMAX;
		for (i = 0; i < g.n; i++)
			for (j = 0; j < i; j++) {
				x = x * 1664525u + 1013904223u;
				if ((x >> 16) % 100 < 15 + (uint32_t)t % 50) {
					g.adj[i] |= 1u << j;
					g.adj[j] |= 1u << i;
				}
			}
		all = (1u << g.n) - 1;
		blossom_init(&b, g.n, graph_edge, &g);
		pairs = blossom_maximize(&b);
		check_matching(&b, &g);
		assert_int_equal(pairs, enum_mu(g.adj, g.n, all, NULL));
		i = (size_t)t % g.n;
		j = (i + 1 + (size_t)t / 7 % g.n) % g.n;
		blossom_save(&b);
		assert_int_equal(blossom_drop(&b, i, BLOSSOM_NONE),
		    enum_mu(g.adj, g.n, all & ~(1u << i), NULL));
		check_matching(&b, &g);
		blossom_restore(&b);
		assert_int_equal(blossom_pairs(&b), pairs);
		assert_int_equal(blossom_alive(&b), g.n);
		if (j != i) {
			assert_int_equal(blossom_drop(&b, i, j), enum_mu(g.adj,
			    g.n, all & ~(1u << i) & ~(1u << j), NULL));
			check_matching(&b, &g);
			assert_int_equal(blossom_alive(&b), g.n - 2);
		}
		blossom_free(&b);
	}
}

/* Checks rr_pairing(lo, hi, gauntlet) against want, n pairs in order. */
static void
rr_is(size_t lo, size_t hi, int gauntlet, const size_t (*want)[2], size_t n)
{
	size_t	 k, a, b;

	assert_int_equal(rr_pairing(lo, hi, gauntlet, 0, NULL, NULL), n);
	for (k = 0; k < n + 1; k++) {
		a = b = 99;
		assert_int_equal(rr_pairing(lo, hi, gauntlet, k, &a, &b), n);
		assert_int_equal(a, k < n ? want[k][0] : 99);
		assert_int_equal(b, k < n ? want[k][1] : 99);
	}
}

/*
 * A round-robin's pairings, in schedule order: a whole one, late
 * entries' blocks, a gauntlet's and its late entries', empty ones.
 */
static void
test_round_robin(void **state)
{
	static const size_t all[][2] = {
		{ 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 }
	};
	static const size_t two[][2] = {
		{ 0, 3 }, { 0, 4 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 },
		{ 3, 4 }
	};
	static const size_t one[][2] = { { 0, 4 }, { 1, 4 }, { 2, 4 },
		{ 3, 4 } };
	static const size_t gauntlet[][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 } };

	(void)state;
	rr_is(0, 4, 0, all, 6);
	rr_is(3, 5, 0, two, 7);
	rr_is(4, 5, 0, one, 4);
	rr_is(0, 4, 1, gauntlet, 3);
	rr_is(3, 5, 1, two, 2);
	rr_is(0, 1, 0, all, 0);
	rr_is(0, 0, 1, all, 0);
}

TU_MAIN("swiss",
    cmocka_unit_test(test_round_robin),
    cmocka_unit_test(test_round_one),
    cmocka_unit_test(test_score_groups),
    cmocka_unit_test(test_rematch_bye),
    cmocka_unit_test(test_random_tournaments),
    cmocka_unit_test(test_random_fields),
    cmocka_unit_test(test_blossom))
