/*
 * swiss.c: the pairings of swiss.h: a round-robin's in order, and Swiss
 * pairing (the rule is in swiss.h).  The pairing is built
 * top-down, and every choice is checked against maximum matchings of the
 * "may still meet" graph (blossom.c): one of every player still to pair,
 * so that no choice leads into a dead end, and one of the current score
 * group, so that a choice keeps as many pairs inside the group as it
 * can.  A round is refused only when no pairing without rematch exists.
 * Pure: no I/O, no globals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/blossom.h"
#include "lib/buf.h"
#include "stats/swiss.h"
#include "lib/util.h"
#include "lib/util-sort.h"

#define NONE	BLOSSOM_NONE

/*
 * Returns the number of pairings of a round-robin block, and sets *a and
 * *b to pairing k (if k is below that number; a NULL: only the number):
 * every pair (i, j), i < j
 * < hi, with j >= lo (the players lo..hi-1 against each other and against
 * those before them; lo 0: a whole round-robin), ordered by i, then j;
 * with gauntlet, only the pairs of player 0.
 */
size_t
rr_pairing(size_t lo, size_t hi, int gauntlet, size_t k, size_t *a,
    size_t *b)
{
	size_t	 i, from, n, np = 0;

	for (i = 0; i < hi && (i == 0 || !gauntlet); i++) {
		from = i + 1 > lo ? i + 1 : lo;
		n = from < hi ? hi - from : 0;
		if (a != NULL && k >= np && k - np < n) {
			*a = i;
			*b = from + (k - np);
		}
		np += n;
	}
	return (np);
}

/*
 * One pairing.  Vertices are positions in order (by rank).  all matches
 * every player still to pair (perfectly, once the bye is chosen); grp
 * the current score group's players still to pair (maximum), grp_half
 * being that group's score.
 */
struct swiss_search {
	const struct swiss_player *pl;
	const unsigned char	*met;
	size_t			 n;
	size_t			*order;		/* the block of the arrays */
	struct blossom		 all, grp;
	uint32_t		 grp_half;
	int			 grp_set;
	size_t			*cand, *tmp;	/* scratch, n each */
	unsigned char		*keep;		/* scratch, n */
};

/* Ranks two players by score (util_index_sort: then by seed). */
static int
rank_cmp(size_t i, size_t j, void *arg)
{
	const struct swiss_player	*pl = arg;

	if (pl[i].half != pl[j].half)
		return (pl[i].half > pl[j].half ? -1 : 1);
	return (0);
}

/* Tells whether the players at positions x and y have not met. */
static int
may_meet(void *arg, size_t x, size_t y)
{
	const struct swiss_search	*s = arg;
	size_t				 i = s->order[x], j = s->order[y];

	return (!s->met[i * s->n + j] && !s->met[j * s->n + i]);
}

/* The score of the player at position x. */
static uint32_t
half_at(const struct swiss_search *s, size_t x)
{
	return (s->pl[s->order[x]].half);
}

/*
 * Takes a and b (b may be NONE: a's bye) out of the players to pair if
 * the others can then all be paired.  Returns 1 done, or 0 with nothing
 * changed.
 */
static int
take_out(struct swiss_search *s, size_t a, size_t b)
{
	blossom_save(&s->all);
	if (2 * blossom_drop(&s->all, a, b) == blossom_alive(&s->all))
		return (1);
	blossom_restore(&s->all);
	return (0);
}

/*
 * Chooses the bye by rule 2: the first candidate, lowest rank first,
 * without a bye then with one, whose removal leaves the others
 * matchable.  Returns its position or NONE.
 */
static size_t
choose_bye(struct swiss_search *s)
{
	size_t	 x, b;
	int	 pass;

	for (pass = 0; pass < 2; pass++)
		for (x = s->n; x > 0; x--) {
			b = x - 1;
			if ((s->pl[s->order[b]].had_bye != 0) == (pass == 1) &&
			    take_out(s, b, NONE))
				return (b);
		}
	return (NONE);
}

/* Makes grp the matching of p's score group if it is another one. */
static void
group_for(struct swiss_search *s, size_t p)
{
	size_t	 x;

	if (s->grp_set && s->grp_half == half_at(s, p))
		return;
	s->grp_set = 1;
	s->grp_half = half_at(s, p);
	for (x = 0; x < s->n; x++) {
		s->grp.alive[x] = s->all.alive[x] &&
		    half_at(s, x) == s->grp_half;
		s->grp.match[x] = NONE;
	}
	blossom_maximize(&s->grp);
}

/* Tells whether pairing p with q (both of the group) leaves the group's
 * others as many pairs among themselves as before, less this one. */
static int
keeps_group(struct swiss_search *s, size_t p, size_t q)
{
	size_t	 before = blossom_pairs(&s->grp), after;

	blossom_save(&s->grp);
	after = blossom_drop(&s->grp, p, q);
	blossom_restore(&s->grp);
	return (after + 1 == before);
}

/* Lists p's score group (p first) into s->tmp, then the others of it in
 * Dutch order, g(k/2) .. g(k-1), g(k/2-1) .. g1, into s->cand; returns
 * their count, k - 1. */
static size_t
dutch(struct swiss_search *s, size_t p)
{
	size_t	*g = s->tmp, k = 0, x, h, i;

	for (x = p; x < s->n && half_at(s, x) == half_at(s, p); x++)
		if (s->all.alive[x])
			g[k++] = x;
	h = k / 2;
	for (i = 1; i < k; i++)
		s->cand[i - 1] = i <= k - h ? g[h + i - 1] : g[k - i];
	return (k == 0 ? 0 : k - 1);
}

/*
 * Finds p's partner by rule 3: the first, among the group's members
 * whose pairing with p keeps the group's pairs (Dutch order), then the
 * group's other members (Dutch order), then the lower scores by rank,
 * who is new to p and after whom everyone left can still be paired.
 * Takes both out and returns the partner; NONE cannot happen, as p's
 * mate in the perfect matching qualifies.
 */
static size_t
partner(struct swiss_search *s, size_t p)
{
	size_t	 nd = dutch(s, p), i, q;

	for (i = 0; i < nd; i++) {
		q = s->cand[i];
		s->keep[i] = may_meet(s, p, q) && keeps_group(s, p, q);
		if (s->keep[i] && take_out(s, p, q))
			return (q);
	}
	for (i = 0; i < nd; i++) {
		q = s->cand[i];
		if (!s->keep[i] && may_meet(s, p, q) && take_out(s, p, q))
			return (q);
	}
	for (q = p + 1; q < s->n; q++)
		if (s->all.alive[q] && half_at(s, q) != half_at(s, p) &&
		    may_meet(s, p, q) && take_out(s, p, q))
			return (q);
	return (NONE);
}

/* Rule 4: tells whether a (ranked above b) takes the first seat on board
 * (0-based). */
static int
a_first(const struct swiss_player *a, const struct swiss_player *b,
    size_t board)
{
	if (a->colour != b->colour)
		return (a->colour < b->colour);
	if (a->last != b->last)
		return (a->last < b->last);
	return (board % 2 == 0);
}

/* Pairs the players left top-down (rule 3) into out, by board. */
static void
pair_down(struct swiss_search *s, struct swiss_pair *out)
{
	size_t	 p, q, board = 0, a, b;

	for (p = 0; p < s->n; p++) {
		if (!s->all.alive[p])
			continue;
		group_for(s, p);
		q = partner(s, p);
		(void)blossom_drop(&s->grp, p,
		    half_at(s, q) == s->grp_half ? q : NONE);
		a = s->order[p];
		b = s->order[q];
		if (a_first(&s->pl[a], &s->pl[b], board)) {
			out[board].first = a;
			out[board].second = b;
		} else {
			out[board].first = b;
			out[board].second = a;
		}
		board++;
	}
}

/* Allocates the search of n players. */
static void
search_init(struct swiss_search *s, const struct swiss_player *pl, size_t n,
    const unsigned char *met)
{
	memset(s, 0, sizeof *s);
	s->pl = pl;
	s->met = met;
	s->n = n;
	/* One block: order, cand and tmp, then keep. */
	s->order = xcalloc(n, 3 * sizeof *s->order + 1);
	s->cand = s->order + n;
	s->tmp = s->cand + n;
	s->keep = (unsigned char *)(s->tmp + n);
	util_index_sort(s->order, n, rank_cmp, (void *)pl);
	blossom_init(&s->all, n, may_meet, s);
	blossom_init(&s->grp, n, may_meet, s);
}

/* Frees the search. */
static void
search_free(struct swiss_search *s)
{
	free(s->order);
	blossom_free(&s->all);
	blossom_free(&s->grp);
}

/*
 * Pairs n players (pl[i] is seed i) for a round; met[i * n + j] is
 * nonzero if i and j have played each other.  Fills out[0..n/2) and *bye
 * (SWISS_NO_BYE when n is even).  Returns SWISS_OK, or the reason with
 * out and *bye left alone.
 */
enum swiss_err
swiss_pair(const struct swiss_player *pl, size_t n, const unsigned char *met,
    struct swiss_pair *out, size_t *bye)
{
	struct swiss_search	 s;
	size_t			 b = NONE;
	enum swiss_err		 e = SWISS_E_NOPAIRING;

	if (n == 0 || n > SWISS_MAX)
		return (SWISS_E_SIZE);
	search_init(&s, pl, n, met);
	if (2 * blossom_maximize(&s.all) != n - n % 2)
		goto out;
	if (n % 2 == 1 && (b = choose_bye(&s)) == NONE)
		goto out;
	pair_down(&s, out);
	*bye = b == NONE ? SWISS_NO_BYE : s.order[b];
	e = SWISS_OK;
out:
	search_free(&s);
	return (e);
}

static const char *const swiss_errors[] = { SWISS_ERRORS(ENUM_X_NAME) };

/* Returns the message of a refusal. */
const char *
swiss_strerror(enum swiss_err e)
{
	return (ENUM_NAME(swiss_errors, e, "unknown error"));
}
