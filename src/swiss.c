/*
 * swiss.c: Swiss pairing (the rule is in swiss.h): a depth-first search
 * in Dutch preference order with branch and bound on the sum of score
 * differences.  The bound is the cost of pairing the remaining players
 * neighbour by neighbour in score order, which is the least cost of any
 * pairing of them when rematches are ignored, so the search stops as soon
 * as a pairing meets it.  Pure: no I/O, no globals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "swiss.h"

/* One search. */
struct swiss_search {
	const struct swiss_player *pl;
	const unsigned char	*met;
	size_t			 n;
	size_t			*order;		/* by rank, the bye left out */
	size_t			 m;		/* players in order */
	unsigned char		*used;		/* by position in order */
	size_t			*mate;		/* position -> position */
	size_t			*best;
	size_t			*cand;		/* m per depth */
	uint64_t		 cost, best_cost;
	uint64_t		 steps;
	int			 found, over;
};

/* Ranks two players: score, then seed. */
static int
rank_cmp(const void *a, const void *b, void *arg)
{
	const struct swiss_player	*pl = arg;
	size_t				 i = *(const size_t *)a;
	size_t				 j = *(const size_t *)b;

	if (pl[i].half != pl[j].half)
		return (pl[i].half > pl[j].half ? -1 : 1);
	return (i < j ? -1 : i > j);
}

/* Tells whether the players at positions x and y have met. */
static int
met(const struct swiss_search *s, size_t x, size_t y)
{
	size_t	 i = s->order[x], j = s->order[y];

	return (s->met[i * s->n + j] || s->met[j * s->n + i]);
}

/* The score of the player at position x. */
static uint32_t
half_at(const struct swiss_search *s, size_t x)
{
	return (s->pl[s->order[x]].half);
}

/* The least cost of pairing the unused players, rematches ignored:
 * neighbours in score order. */
static uint64_t
bound(const struct swiss_search *s)
{
	uint64_t	 lb = 0;
	size_t		 x, prev = SIZE_MAX;

	for (x = 0; x < s->m; x++) {
		if (s->used[x])
			continue;
		if (prev == SIZE_MAX)
			prev = x;
		else {
			lb += half_at(s, prev) - half_at(s, x);
			prev = SIZE_MAX;
		}
	}
	return (lb);
}

/*
 * Lists the candidates of position p (the first unused) in Dutch
 * preference order into c; returns their count.
 */
static size_t
candidates(const struct swiss_search *s, size_t p, size_t *c)
{
	size_t	 g[SWISS_MAX], k = 0, nc = 0, x, h;

	for (x = p; x < s->m && half_at(s, x) == half_at(s, p); x++)
		if (!s->used[x])
			g[k++] = x;
	h = k / 2;
	for (x = h; x < k && h > 0; x++)
		c[nc++] = g[x];
	for (x = h; x > 1; x--)
		c[nc++] = g[x - 1];
	for (x = p + 1; x < s->m; x++)
		if (!s->used[x] && half_at(s, x) != half_at(s, p))
			c[nc++] = x;
	return (nc);
}

/* Searches the pairings of the unused players at depth d. */
static void
search(struct swiss_search *s, size_t d)
{
	size_t		 p, i, q, nc, *c = s->cand + d * s->m;
	uint64_t	 dc;

	for (p = 0; p < s->m && s->used[p]; p++)
		continue;
	if (p == s->m) {
		if (!s->found || s->cost < s->best_cost) {
			memcpy(s->best, s->mate, s->m * sizeof *s->mate);
			s->best_cost = s->cost;
			s->found = 1;
		}
		return;
	}
	if (++s->steps > SWISS_BUDGET) {
		s->over = 1;
		return;
	}
	nc = candidates(s, p, c);
	s->used[p] = 1;
	for (i = 0; i < nc && !s->over; i++) {
		q = c[i];
		if (met(s, p, q))
			continue;
		dc = half_at(s, p) - half_at(s, q);
		s->used[q] = 1;
		if (!s->found || s->cost + dc + bound(s) < s->best_cost) {
			s->mate[p] = q;
			s->mate[q] = p;
			s->cost += dc;
			search(s, d + 1);
			s->cost -= dc;
		}
		s->used[q] = 0;
	}
	s->used[p] = 0;
}

/* Pairs order[0..m) (m even); SWISS_OK with s->best filled.  The steps
 * count over every attempt of one swiss_pair. */
static enum swiss_err
pair_rest(struct swiss_search *s)
{
	memset(s->used, 0, s->m);
	s->cost = s->best_cost = 0;
	s->found = s->over = 0;
	search(s, 0);
	if (s->over)
		return (SWISS_E_BUDGET);
	return (s->found ? SWISS_OK : SWISS_E_NOPAIRING);
}

/*
 * Chooses the bye (rule 2) and pairs the others: fills s->order without
 * the bye and *bye.  rank[0..n) holds every player by rank.
 */
static enum swiss_err
choose_bye(struct swiss_search *s, const size_t *rank, size_t *bye)
{
	enum swiss_err	 e = SWISS_E_NOPAIRING;
	size_t		 x, y, z, b;
	int		 pass;

	for (pass = 0; pass < 2; pass++)
		for (x = s->n; x > 0; x--) {
			b = rank[x - 1];
			if ((s->pl[b].had_bye != 0) != (pass == 1))
				continue;
			for (y = z = 0; y < s->n; y++)
				if (rank[y] != b)
					s->order[z++] = rank[y];
			if ((e = pair_rest(s)) != SWISS_E_NOPAIRING) {
				*bye = b;
				return (e);
			}
		}
	return (e);
}

/* Rule 4: tells whether a (ranked above b, on board) takes the first
 * seat. */
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

/* Lists the pairs of s->best by board, with seats (rule 4). */
static void
emit(const struct swiss_search *s, struct swiss_pair *out)
{
	size_t	 x, board = 0, a, b;

	for (x = 0; x < s->m; x++) {
		if (s->best[x] < x)
			continue;
		a = s->order[x];
		b = s->order[s->best[x]];
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
	size_t			*rank, i, b = SWISS_NO_BYE;
	enum swiss_err		 e;

	if (n == 0 || n > SWISS_MAX)
		return (SWISS_E_SIZE);
	memset(&s, 0, sizeof s);
	s.pl = pl;
	s.met = met;
	s.n = n;
	s.m = n - n % 2;
	rank = xcalloc(n, sizeof *rank);
	s.order = xcalloc(n, sizeof *s.order);
	s.used = xcalloc(n, 1);
	s.mate = xcalloc(n, sizeof *s.mate);
	s.best = xcalloc(n, sizeof *s.best);
	s.cand = xcalloc((n / 2 + 1) * n, sizeof *s.cand);
	for (i = 0; i < n; i++)
		rank[i] = i;
	qsort_r(rank, n, sizeof *rank, rank_cmp, (void *)pl);
	if (n % 2 == 1)
		e = choose_bye(&s, rank, &b);
	else {
		memcpy(s.order, rank, n * sizeof *rank);
		e = pair_rest(&s);
	}
	if (e == SWISS_OK) {
		emit(&s, out);
		*bye = b;
	}
	free(rank);
	free(s.order);
	free(s.used);
	free(s.mate);
	free(s.best);
	free(s.cand);
	return (e);
}

/* Returns the message of a refusal. */
const char *
swiss_strerror(enum swiss_err e)
{
	switch (e) {
	case SWISS_OK:
		return ("no error");
	case SWISS_E_SIZE:
		return ("a Swiss round needs 1 to 256 players");
	case SWISS_E_NOPAIRING:
		return ("every pairing of this round has a rematch");
	case SWISS_E_BUDGET:
		return ("no pairing found within the search budget");
	}
	return ("unknown error");
}
