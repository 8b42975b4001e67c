/*
 * swiss.c: Swiss pairing (the rule is in swiss.h).  The pairing is built
 * top-down, and every choice is checked against a maximum matching of
 * the "may still meet" graph (Edmonds' blossom algorithm), so no choice
 * ever leads into a dead end: each step costs one augmenting-path search,
 * and a round is refused only when no pairing without rematch exists.
 * Pure: no I/O, no globals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "swiss.h"

/* No vertex. */
#define NONE	SIZE_MAX

/*
 * One pairing.  Vertices are positions in order (by rank); alive marks
 * those still to pair; match is a perfect matching of the alive ones
 * once the bye is chosen.  The rest is the blossom search's scratch.
 */
struct swiss_search {
	const struct swiss_player *pl;
	const unsigned char	*met;
	size_t			 n;
	size_t			*order;
	unsigned char		*alive;
	size_t			*match, *saved;
	size_t			*parent, *base, *queue;
	unsigned char		*used, *blossom, *mark;
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

/* Tells whether the players at positions x and y may meet now. */
static int
edge(const struct swiss_search *s, size_t x, size_t y)
{
	size_t	 i = s->order[x], j = s->order[y];

	return (x != y && s->alive[x] && s->alive[y] &&
	    !s->met[i * s->n + j] && !s->met[j * s->n + i]);
}

/* The score of the player at position x. */
static uint32_t
half_at(const struct swiss_search *s, size_t x)
{
	return (s->pl[s->order[x]].half);
}

/* The lowest common ancestor of a and b's bases in the search forest. */
static size_t
lca(struct swiss_search *s, size_t a, size_t b)
{
	memset(s->mark, 0, s->n);
	for (;;) {
		a = s->base[a];
		s->mark[a] = 1;
		if (s->match[a] == NONE)
			break;
		a = s->parent[s->match[a]];
	}
	for (;;) {
		b = s->base[b];
		if (s->mark[b])
			return (b);
		b = s->parent[s->match[b]];
	}
}

/* Marks the blossom's path from v down to base b. */
static void
mark_path(struct swiss_search *s, size_t v, size_t b, size_t child)
{
	while (s->base[v] != b) {
		s->blossom[s->base[v]] = s->blossom[s->base[s->match[v]]] = 1;
		s->parent[v] = child;
		child = s->match[v];
		v = s->parent[s->match[v]];
	}
}

/* Contracts the blossom closed by the edge v-to; queues its new even
 * vertices. */
static void
contract(struct swiss_search *s, size_t v, size_t to, size_t *tail)
{
	size_t	 b = lca(s, v, to), i;

	memset(s->blossom, 0, s->n);
	mark_path(s, v, b, to);
	mark_path(s, to, b, v);
	for (i = 0; i < s->n; i++)
		if (s->blossom[s->base[i]]) {
			s->base[i] = b;
			if (!s->used[i]) {
				s->used[i] = 1;
				s->queue[(*tail)++] = i;
			}
		}
}

/*
 * Searches an augmenting path from the exposed vertex root; returns its
 * other (exposed) end, the path left in parent[], or NONE.
 */
static size_t
find_path(struct swiss_search *s, size_t root)
{
	size_t	 head = 0, tail = 0, v, to, i;

	memset(s->used, 0, s->n);
	for (i = 0; i < s->n; i++) {
		s->parent[i] = NONE;
		s->base[i] = i;
	}
	s->used[root] = 1;
	s->queue[tail++] = root;
	while (head < tail) {
		v = s->queue[head++];
		for (to = 0; to < s->n; to++) {
			if (!edge(s, v, to) || s->base[v] == s->base[to] ||
			    s->match[v] == to)
				continue;
			if (to == root || (s->match[to] != NONE &&
			    s->parent[s->match[to]] != NONE))
				contract(s, v, to, &tail);
			else if (s->parent[to] == NONE) {
				s->parent[to] = v;
				if (s->match[to] == NONE)
					return (to);
				s->used[s->match[to]] = 1;
				s->queue[tail++] = s->match[to];
			}
		}
	}
	return (NONE);
}

/* Flips the augmenting path ending at v. */
static void
augment(struct swiss_search *s, size_t v)
{
	size_t	 pv, ppv;

	while (v != NONE) {
		pv = s->parent[v];
		ppv = s->match[pv];
		s->match[v] = pv;
		s->match[pv] = v;
		v = ppv;
	}
}

/* Matches every alive vertex it can; returns how many stay exposed. */
static size_t
max_matching(struct swiss_search *s)
{
	size_t	 x, v, exposed = 0;

	for (x = 0; x < s->n; x++) {
		if (!s->alive[x] || s->match[x] != NONE)
			continue;
		if ((v = find_path(s, x)) != NONE)
			augment(s, v);
		else
			exposed++;
	}
	return (exposed);
}

/*
 * Takes a and b (b may be NONE: a's bye) out of the alive vertices if
 * the others can then all be matched: their mates become exposed and one
 * augmenting path must rematch them.  Returns 1 done, or 0 with nothing
 * changed.  Needs a matching leaving at most one alive vertex exposed
 * (none if b is not NONE).
 */
static int
take_out(struct swiss_search *s, size_t a, size_t b)
{
	size_t	 x, v;

	memcpy(s->saved, s->match, s->n * sizeof *s->match);
	s->alive[a] = 0;
	if (b != NONE)
		s->alive[b] = 0;
	for (x = 0; x < s->n; x++)
		if (!s->alive[x] && s->match[x] != NONE &&
		    s->alive[s->match[x]]) {
			s->match[s->match[x]] = NONE;
			s->match[x] = NONE;
		}
	for (x = 0; x < s->n; x++) {
		if (!s->alive[x] || s->match[x] != NONE)
			continue;
		if ((v = find_path(s, x)) == NONE)
			break;
		augment(s, v);
	}
	if (x == s->n)
		return (1);
	memcpy(s->match, s->saved, s->n * sizeof *s->match);
	s->alive[a] = 1;
	if (b != NONE)
		s->alive[b] = 1;
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

/*
 * Lists the candidates of position p (the first alive) in Dutch
 * preference order into c; returns their count.
 */
static size_t
candidates(const struct swiss_search *s, size_t p, size_t *c)
{
	size_t	 k = 0, nc = 0, x, h;

	for (x = p; x < s->n && half_at(s, x) == half_at(s, p); x++)
		if (s->alive[x])
			c[k++] = x;
	/* c[0..k) is the group g0 = p .. g(k-1); reorder it in place. */
	h = k / 2;
	for (x = 0; x < k; x++)
		s->queue[x] = c[x];
	for (x = h; x < k && h > 0; x++)
		c[nc++] = s->queue[x];
	for (x = h; x > 1; x--)
		c[nc++] = s->queue[x - 1];
	for (x = p + 1; x < s->n; x++)
		if (s->alive[x] && half_at(s, x) != half_at(s, p))
			c[nc++] = x;
	return (nc);
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

/* Pairs the alive vertices top-down (rule 3) into out, by board. */
static void
pair_down(struct swiss_search *s, struct swiss_pair *out, size_t *cand)
{
	size_t	 p, q = NONE, i, nc, board = 0, a, b;

	for (p = 0; p < s->n; p++) {
		if (!s->alive[p])
			continue;
		nc = candidates(s, p, cand);
		for (i = 0; i < nc; i++) {
			q = cand[i];
			if (edge(s, p, q) && take_out(s, p, q))
				break;
		}
		/* The matching guarantees a partner (its own mate). */
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
	size_t	 i;

	s->pl = pl;
	s->met = met;
	s->n = n;
	s->order = xcalloc(n, sizeof *s->order);
	s->match = xcalloc(n, sizeof *s->match);
	s->saved = xcalloc(n, sizeof *s->saved);
	s->parent = xcalloc(n, sizeof *s->parent);
	s->base = xcalloc(n, sizeof *s->base);
	s->queue = xcalloc(n, sizeof *s->queue);
	s->alive = xcalloc(n, 1);
	s->used = xcalloc(n, 1);
	s->blossom = xcalloc(n, 1);
	s->mark = xcalloc(n, 1);
	for (i = 0; i < n; i++) {
		s->order[i] = i;
		s->match[i] = NONE;
		s->alive[i] = 1;
	}
	qsort_r(s->order, n, sizeof *s->order, rank_cmp, (void *)pl);
}

/* Frees the search. */
static void
search_free(struct swiss_search *s)
{
	free(s->order);
	free(s->match);
	free(s->saved);
	free(s->parent);
	free(s->base);
	free(s->queue);
	free(s->alive);
	free(s->used);
	free(s->blossom);
	free(s->mark);
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
	size_t			*cand, b = NONE, exposed;
	enum swiss_err		 e = SWISS_E_NOPAIRING;

	if (n == 0 || n > SWISS_MAX)
		return (SWISS_E_SIZE);
	search_init(&s, pl, n, met);
	cand = xcalloc(n, sizeof *cand);
	exposed = max_matching(&s);
	if (exposed != n % 2)
		goto out;
	if (n % 2 == 1 && (b = choose_bye(&s)) == NONE)
		goto out;
	pair_down(&s, out, cand);
	*bye = b == NONE ? SWISS_NO_BYE : s.order[b];
	e = SWISS_OK;
out:
	free(cand);
	search_free(&s);
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
	}
	return ("unknown error");
}
