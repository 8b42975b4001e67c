/*
 * test-tiebreak.c: the crosstable and the standings by FIDE's tie-breaks
 * (C.07; doc/STATS.md): two tournaments with byes, forfeits and a
 * withdrawal computed by hand (the computation per player in the
 * comments), direct encounter applied again within a still-tied group,
 * shared ranks, the lists, and random tournaments of games, byes,
 * forfeits and absences against a second implementation that walks the
 * rounds.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "stats/tiebreak.h"

/*
 * Records the units listed as "R:A-BX" separated by spaces (round R,
 * one-digit players): X is W, D or L (a game, A moved first, A's
 * result), F (A won by forfeit against B), or for "R:A-bye" a bye and
 * "R:A-abs" a round absent.
 */
static void
units(struct xtable *x, size_t n, const char *list)
{
	const char	*p;
	unsigned int	 r;
	size_t		 a, b;

	assert_int_equal(xtable_init(x, n), 0);
	for (p = list; *p != '\0'; p += p[strcspn(p, " ")] == ' ' ?
	    strcspn(p, " ") + 1 : strcspn(p, " ")) {
		r = (unsigned int)(p[0] - '0');
		a = (size_t)(p[2] - '0');
		if (strncmp(p + 4, "bye", 3) == 0) {
			assert_int_equal(xtable_bye(x, a, r, 2), 0);
			continue;
		}
		if (strncmp(p + 4, "abs", 3) == 0) {
			assert_int_equal(xtable_unit(x, a, r, 0, 1), 0);
			continue;
		}
		b = (size_t)(p[4] - '0');
		if (p[5] == 'F')
			assert_int_equal(xtable_forfeit(x, a, b, r), 0);
		else
			assert_int_equal(xtable_add(x, a, b, p[5] == 'W' ?
			    XTABLE_WIN : p[5] == 'D' ? XTABLE_DRAW :
			    XTABLE_LOSS, r), 0);
	}
}

/* A list from its text, which must parse. */
static struct tb_list
list_of(const char *s)
{
	struct tb_list	 l;
	char		 err[128];

	assert_int_equal(tb_list_parse(s, &l, err, sizeof err), 0);
	return (l);
}

/*
 * Ranks x by list l (key NULL: ties by index) and checks the order of
 * players, their ranks, and each one's tie-breaks: want[p][k] is player
 * p's k-th tie-break in its unit (halves, quarters, a count).
 */
static void
expect(const struct xtable *x, const char *l, const size_t *who,
    const unsigned *rank, const int64_t want[][TB_MAX])
{
	struct tb_list	 tl = list_of(l);
	struct standing	 s[8];
	size_t		 i;
	unsigned int	 k;

	assert_true(x->n <= 8);
	tiebreak_standings(x, &tl, NULL, s);
	for (i = 0; i < x->n; i++) {
		if (s[i].player != who[i] || s[i].rank != rank[i])
			fail_msg("line %zu: player %zu rank %u, expected "
			    "player %zu rank %u", i, s[i].player, s[i].rank,
			    who[i], rank[i]);
		for (k = 0; k < tl.n; k++)
			if (s[i].tb[k] != want[s[i].player][k])
				fail_msg("player %zu %s: %lld, expected %lld",
				    s[i].player, tb_name(tl.k[k]),
				    (long long)s[i].tb[k],
				    (long long)want[s[i].player][k]);
	}
}

/*
 * A Swiss of five players, three rounds, a bye each round and a forfeit:
 *   R1: P0 beats P1, P2 draws P3, P4 bye.
 *   R2: P0 beats P2, P1 wins by forfeit against absent P4, P3 bye.
 *   R3: P4 beats P0, P1 beats P3, P2 bye.
 * Points: P0 2 (W W L), P1 2 (L, forfeit win, W), P2 1.5 (D L bye),
 * P3 1.5 (D bye L), P4 2 (bye, forfeit loss, W).  P4's forfeit (a VUR)
 * is followed by a game, so no score is adjusted (16.3).
 *
 * Buchholz, each game's opponent's points, each unplayed round the
 * player's own (16.4):
 *   P0: P1 2 + P2 1.5 + P4 2 = 5.5.    P1: P0 2 + P3 1.5 + own 2 = 5.5.
 *   P2: P3 1.5 + P0 2 + own 1.5 = 5.   P3: P2 1.5 + P1 2 + own 1.5 = 5.
 *   P4: P0 2 + own 2 (bye) + own 2 (forfeit) = 6.
 * Cut-1, a VUR's contribution first, else the least:
 *   P0: 5.5 - 1.5 = 4.  P1: 5.5 - 1.5 = 4.  P2, P3: 5 - 1.5 = 3.5.
 *   P4: 6 - 2 (its forfeit loss) = 4.
 * Sonneborn-Berger, points scored times the opponent's (own for an
 * unplayed round):
 *   P0: 1 x 2 + 1 x 1.5 + 0 = 3.5.     P1: 0 + 1 x 1.5 + 1 x 2 = 3.5.
 *   P2: .5 x 1.5 + 0 + 1 x 1.5 = 2.25. P3: .5 x 1.5 + 1 x 1.5 + 0 = 2.25.
 *   P4: 1 x 2 (bye) + 0 + 1 x 2 = 4.
 * Wins (rounds scoring a win, played or not): P0 2, P1 2, P2 1, P3 1,
 * P4 2.  Games won: 2, 1, 0, 0, 1.
 * Ranking by bh-c1, bh, de, sb, win (the Swiss default): P0, P1, P4 on
 * 2 points tie on BH-C1 (4); BH puts P4 first (6); P0 and P1 still tied
 * (5.5): DE between them, P0 beat P1.  P2 and P3 on 1.5 tie on BH-C1
 * 3.5, BH 5, DE .5 each, SB 2.25 and wins 1: shared rank 4.  DE of
 * {P0, P1, P4} would not apply (P1 and P4 met only by forfeit), so DE is
 * "-" (-1) for P4; P0 1, P1 0; P2 and P3 .5.
 */
static void
test_fide_swiss(void **state)
{
	static const size_t	 who[] = { 4, 0, 1, 2, 3 };
	static const unsigned	 rank[] = { 1, 2, 3, 4, 4 };
	/* bh-c1, bh, de, sb, win, won: halves, halves, halves, quarters */
	static const int64_t	 want[5][TB_MAX] = {
		{ 8, 11, 2, 14, 2, 2 }, { 8, 11, 0, 14, 2, 1 },
		{ 7, 10, 1, 9, 1, 0 }, { 7, 10, 1, 9, 1, 0 },
		{ 8, 12, -1, 16, 2, 1 },
	};
	struct tb_list		 def;
	struct xtable		 x;
	char			 t[TB_TEXT_MAX];

	(void)state;
	units(&x, 5, "1:0-1W 1:2-3D 1:4-bye 2:0-2W 2:1-4F 2:3-bye 3:4-0W "
	    "3:1-3W 3:2-bye");
	tb_list_default(1, &def);
	tb_list_text(&def, t, sizeof t);
	assert_string_equal(t, "bh-c1,bh,de,sb,win");
	expect(&x, "bh-c1,bh,de,sb,win,won", who, rank, want);
	assert_true(x.player[1].fwins == 1 && x.player[4].flosses == 1 &&
	    x.player[1].games == 2 && x.player[4].games == 1 &&
	    xtable_get(&x, 1, 4)->games == 0);
	xtable_free(&x);
}

/*
 * A round-robin of four, P3 absent for its last game (a forfeit, then
 * nothing: a withdrawal):
 *   R1: P0 beats P3, P1 beats P2.   R2: P2 beats P0, P3 beats P1.
 *   R3: P0 beats P1, P2 wins by forfeit against P3.
 * Points: P0 2, P1 1, P2 2 (one of them the forfeit), P3 1.  P3's VUR
 * is its last round: for its opponents P3 counts 1 + .5 = 1.5 (16.3).
 * Buchholz: P0: P3 1.5 + P2 2 + P1 1 = 4.5.  P1: P2 2 + P3 1.5 + P0 2 =
 * 5.5.  P2: P1 1 + P0 2 + own 2 = 5.  P3: P0 2 + P1 1 + own 1 = 4.
 * Cut-1: P0 4.5 - 1 = 3.5; P1 5.5 - 1.5 = 4; P2 5 - 1 = 4; P3 cuts its
 * forfeit loss: 4 - 1 = 3.
 * Sonneborn-Berger: P0: 1 x 1.5 + 0 + 1 x 1 = 2.5.  P1: 1 x 2 = 2.
 * P2: 1 x 2 (beat P0) + 1 x 2 (forfeit: own points) = 4.  P3: 1 x 1 = 1.
 * Wins: P0 2, P1 1, P2 2, P3 1.
 * Ranking by de, sb, win: P0 and P2 on 2: DE, P2 beat P0: P2, P0.  P1
 * and P3 on 1: P3 beat P1: P3, P1.  The forfeit is no encounter: had P3
 * and P2 been level, DE would not apply to them.
 */
static void
test_fide_round_robin(void **state)
{
	static const size_t	 who[] = { 2, 0, 3, 1 };
	static const unsigned	 rank[] = { 1, 2, 3, 4 };
	/* de, sb, win, bh, bh-c1 */
	static const int64_t	 want[4][TB_MAX] = {
		{ 0, 10, 2, 9, 7 }, { 0, 8, 1, 11, 8 },
		{ 2, 16, 2, 10, 8 }, { 2, 4, 1, 8, 6 },
	};
	struct xtable		 x;

	(void)state;
	units(&x, 4, "1:0-3W 1:1-2W 2:2-0W 2:3-1W 3:0-1W 3:2-3F");
	expect(&x, "de,sb,win,bh,bh-c1", who, rank, want);
	/*
	 * P3's forfeit in round 2, then a game (beat P1): no adjustment.
	 * P0 (beat P3, beat P1, lost to P2): BH P3 1 + P1 1 + P2 2 = 4
	 * points, SB 1 x 1 + 1 x 1 = 2 (8 quarters).
	 */
	xtable_free(&x);
	units(&x, 4, "1:0-3W 1:1-2W 2:2-3F 2:0-1W 3:3-1W 3:2-0W");
	assert_int_equal(tiebreak_value(&x, 0, TB_BH), 2 + 2 + 4);
	assert_int_equal(tiebreak_value(&x, 0, TB_SB), 2 * 2 + 2 * 2);
	xtable_free(&x);
}

/*
 * Direct encounter applied again (6.3): P0 .. P3 level on 2 points, all
 * met: P0 beat P1 and P2, lost to P3; P1 beat P3 and P2; P2 beat P3 and
 * P4; P3 beat P0 and P5.  DE in the group of four: P0 2, P1 2, P2 1, P3
 * 1; again within {P0, P1}: P0 beat P1 (1 to 0); within {P2, P3}: P2
 * beat P3.  P4 and P5 (0 points, never met: no DE) share rank 5.  The
 * key lists ties in reverse, so without the second DE P1 would come
 * first, sharing rank 1 with P0.
 */
static void
test_de_again(void **state)
{
	static const size_t	 key[6] = { 5, 4, 3, 2, 1, 0 };
	struct tb_list		 l = list_of("de");
	struct xtable		 x;
	struct standing		 s[6];
	static const size_t	 who[] = { 0, 1, 2, 3, 5, 4 };
	static const unsigned	 rank[] = { 1, 2, 3, 4, 5, 5 };
	size_t			 i;

	(void)state;
	units(&x, 6, "1:0-1W 1:2-3W 2:0-2W 2:1-3W 3:3-0W 3:1-2W 4:2-4W "
	    "4:3-5W");
	tiebreak_standings(&x, &l, key, s);
	for (i = 0; i < 6; i++) {
		assert_int_equal(s[i].player, who[i]);
		assert_int_equal(s[i].rank, rank[i]);
	}
	/* The DE shown is the last one applied: within the pair. */
	assert_int_equal(s[0].tb[0], 2);
	assert_int_equal(s[1].tb[0], 0);
	xtable_free(&x);
}

/*
 * Shared ranks and the order of ties: a cycle (0 beats 1, 1 beats 2, 2
 * beats 0) is equal on everything but the seats: one rank, listed by
 * key.  Then P0
 * beats P1 and wins by forfeit against P3 (4 halves), P2 has a bye (2,
 * SB 1 x its own 1 point: 4 quarters), P1 beats P4 (2, SB 1 x 0), P4
 * lost its game (0: it took part), P3 only lost by forfeit (0, never
 * took part): P3 last, below P4.  Lists: parse, refuse, write back.
 */
static void
test_shared_and_lists(void **state)
{
	static const size_t	 key[3] = { 2, 0, 1 };
	struct tb_list		 l = list_of("de,sb,win,bh,bh-c1,won");
	struct xtable		 x;
	struct standing		 s[5];
	char			 err[128], t[TB_TEXT_MAX];

	(void)state;
	units(&x, 3, "1:0-1W 2:1-2W 3:0-2L");
	tiebreak_standings(&x, &l, key, s);
	assert_true(s[0].player == 1 && s[1].player == 2 &&
	    s[2].player == 0);
	assert_true(s[0].rank == 1 && s[1].rank == 1 && s[2].rank == 1);
	/* Moving second: P0 never, P1 once (lost), P2 twice (won once). */
	assert_true(tiebreak_value(&x, 0, TB_BPG) == 0 &&
	    tiebreak_value(&x, 1, TB_BPG) == 1 &&
	    tiebreak_value(&x, 2, TB_BPG) == 2 &&
	    tiebreak_value(&x, 1, TB_BWG) == 0 &&
	    tiebreak_value(&x, 2, TB_BWG) == 1);
	xtable_free(&x);
	units(&x, 5, "1:0-1W 1:2-bye 2:0-3F 2:1-4W");
	l = list_of("sb");
	tiebreak_standings(&x, &l, NULL, s);
	assert_true(s[0].player == 0 && s[1].player == 2 &&
	    s[2].player == 1 && s[3].player == 4 && s[4].player == 3);
	assert_true(s[1].tb[0] == 4 && s[2].tb[0] == 0);
	assert_true(s[3].rank == 4 && s[4].rank == 5 &&
	    s[4].score_rank == 5 && s[3].score_rank == 4);
	assert_int_equal(x.player[3].half, 0);
	xtable_free(&x);
	assert_int_equal(tb_list_parse("de,sb,de", &l, err, sizeof err), -1);
	assert_non_null(strstr(err, "twice"));
	assert_int_equal(tb_list_parse("bh-c2", &l, err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown tie-break bh-c2"));
	assert_int_equal(tb_list_parse("", &l, err, sizeof err), -1);
	l = list_of("win,bh-c1");
	tb_list_text(&l, t, sizeof t);
	assert_string_equal(t, "win,bh-c1");
	tb_list_default(0, &l);
	tb_list_text(&l, t, sizeof t);
	assert_string_equal(t, "de,sb,win");
	/* Refusals change nothing. */
	assert_int_equal(xtable_init(&x, 2), 0);
	assert_int_equal(xtable_add(&x, 1, 1, XTABLE_WIN, 1), -1);
	assert_int_equal(xtable_add(&x, 0, 2, XTABLE_WIN, 1), -1);
	assert_int_equal(xtable_add(&x, 0, 1, (enum xtable_res)3, 1), -1);
	assert_int_equal(xtable_bye(&x, 1, 1, 3), -1);
	assert_int_equal(xtable_forfeit(&x, 1, 1, 1), -1);
	assert_int_equal(xtable_unit(&x, 2, 1, 0, 1), -1);
	assert_true(x.player[0].games == 0 && x.player[1].half == 0 &&
	    x.nvurs == 0);
	xtable_free(&x);
	assert_int_equal(xtable_init(&x, 0), -1);
	assert_int_equal(xtable_init(&x, XTABLE_MAX + 1), -1);
}

/* One unit of the second implementation: a player's round. */
struct round_unit {
	int	 kind;		/* 0 game, 1 bye, 2 forfeit, 3 absent */
	int	 opp;		/* a game's or forfeit's opponent */
	int	 half;		/* the player's points in it, halves */
	int	 second;	/* a game: moved second */
};

#define RN	8	/* players at most */
#define RR	9	/* rounds at most */

/*
 * The second implementation, from each player's rounds in order
 * u[p][0..nr): scores, 16.3's adjusted scores (a draw for each VUR after
 * the last other unit), BH, BH-C1, SB, WIN, WON, BPG, BWG by the
 * regulations' words, round by round.
 */
static int64_t
walk(struct round_unit u[RN][RR], const int *nr, int n, int p,
    enum tb_kind k)
{
	int64_t	 sc[RN], adj[RN], v = 0, least = INT64_MAX, c;
	int	 i, r, last, vur = 0;

	for (i = 0; i < n; i++) {
		sc[i] = 0;
		for (r = 0; r < nr[i]; r++)
			sc[i] += u[i][r].half;
		for (last = -1, r = 0; r < nr[i]; r++)
			if (!(u[i][r].kind == 3 || (u[i][r].kind == 2 &&
			    u[i][r].half == 0)))
				last = r;
		adj[i] = sc[i] + (nr[i] - 1 - last);
	}
	for (r = 0; r < nr[p]; r++) {
		struct round_unit *x = &u[p][r];
		int	 played = x->kind == 0;
		int	 isvur = x->kind == 3 || (x->kind == 2 && x->half == 0);

		c = played ? adj[x->opp] : sc[p];
		switch (k) {
		case TB_BH:
		case TB_BHC1:
			v += c;
			if (c < least)
				least = c;
			vur |= isvur;
			break;
		case TB_SB:
			v += x->half * c;
			break;
		case TB_WIN:
			v += x->half == 2;
			break;
		case TB_WON:
			v += played && x->half == 2;
			break;
		case TB_BPG:
			v += played && x->second;
			break;
		case TB_BWG:
			v += played && x->second && x->half == 2;
			break;
		default:
			break;
		}
	}
	if (k == TB_BHC1 && nr[p] > 0)
		v -= vur ? sc[p] : least;
	return (v);
}

/*
 * Random Swiss-like tournaments: each round pairs the players in a
 * random order, the pairs playing (W, D, L) or a forfeit, an odd one
 * out getting a bye, some rounds a player absent.  Every tie-break of
 * every player against walk(), and the order of a list without DE:
 * sorted by (took part, points, the list), ranks shared exactly among
 * equals.
 */
static void
test_random(void **state)
{
	struct round_unit u[RN][RR];
	struct tb_list	 l = list_of("bh-c1,sb,win,bh,won,bpg,bwg");
	struct xtable	 x;
	struct standing	 s[RN];
	uint32_t	 seed = 11;
	int		 nr[RN], perm[RN], it, n, rounds, r, i, j, a, b, t, o;
	unsigned int	 k;

	(void)state;
	for (it = 0; it < 5000; it++) {
#define RND(m)	(seed = seed * 1103515245u + 12345u, \
		    (int)((seed >> 8) % (uint32_t)(m)))
		n = 2 + RND(RN - 1);
		rounds = 1 + RND(RR);
		memset(nr, 0, sizeof nr);
		assert_int_equal(xtable_init(&x, (size_t)n), 0);
		for (r = 1; r <= rounds; r++) {
			for (i = 0; i < n; i++)
				perm[i] = i;
			for (i = n - 1; i > 0; i--) {
				j = RND(i + 1);
				t = perm[i];
				perm[i] = perm[j];
				perm[j] = t;
			}
			for (i = 0; i < n; i++) {
				a = perm[i];
				if (RND(8) == 0) {	/* absent */
					u[a][nr[a]++] = (struct round_unit){
					    3, 0, 0, 0 };
					assert_int_equal(xtable_unit(&x,
					    (size_t)a, (unsigned)r, 0, 1), 0);
					continue;
				}
				if (i + 1 == n || RND(10) == 0) {
					u[a][nr[a]++] = (struct round_unit){
					    1, 0, 2, 0 };
					assert_int_equal(xtable_bye(&x,
					    (size_t)a, (unsigned)r, 2), 0);
					continue;
				}
				b = perm[++i];
				o = RND(7);
				if (o == 6) {		/* a beat absent b */
					u[a][nr[a]++] = (struct round_unit){
					    2, b, 2, 0 };
					u[b][nr[b]++] = (struct round_unit){
					    2, a, 0, 0 };
					assert_int_equal(xtable_forfeit(&x,
					    (size_t)a, (size_t)b, (unsigned)r),
					    0);
					continue;
				}
				o %= 3;		/* a's result in halves */
				u[a][nr[a]++] = (struct round_unit){ 0, b, o,
				    0 };
				u[b][nr[b]++] = (struct round_unit){ 0, a,
				    2 - o, 1 };
				assert_int_equal(xtable_add(&x, (size_t)a,
				    (size_t)b, (enum xtable_res)o,
				    (unsigned)r), 0);
			}
		}
		for (i = 0; i < n; i++)
			for (k = TB_BH; k < TB_NKINDS; k++)
				if (tiebreak_value(&x, (size_t)i, k) !=
				    walk(u, nr, n, i, k))
					fail_msg("run %d player %d %s: %lld, "
					    "walked %lld", it, i, tb_name(k),
					    (long long)tiebreak_value(&x,
					    (size_t)i, k), (long long)walk(u,
					    nr, n, i, k));
		tiebreak_standings(&x, &l, NULL, s);
		for (i = 1; i < n; i++) {
			const struct standing *p = &s[i - 1], *q = &s[i];
			int	 c = 0;

			for (k = 0; k < l.n && c == 0; k++)
				c = p->tb[k] > q->tb[k] ? -1 :
				    p->tb[k] < q->tb[k];
			if (p->half != q->half)
				continue;	/* points first: checked */
			assert_true(c <= 0);
			assert_true((c == 0) == (q->rank == p->rank));
			if (c == 0)
				assert_true(p->player < q->player);
		}
		xtable_free(&x);
	}
}

TU_MAIN("tiebreak",
    cmocka_unit_test(test_fide_swiss),
    cmocka_unit_test(test_fide_round_robin),
    cmocka_unit_test(test_de_again),
    cmocka_unit_test(test_shared_and_lists),
    cmocka_unit_test(test_random))
