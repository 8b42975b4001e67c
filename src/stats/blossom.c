/*
 * blossom.c: maximum-cardinality matching by Edmonds' blossom algorithm
 * (J. Edmonds, "Paths, trees, and flowers", 1965), in its usual O(n^3)
 * form: a breadth-first search for an augmenting path from one exposed
 * vertex, contracting odd cycles (blossoms) into their base.  By Berge's
 * theorem a matching is maximum when no exposed vertex has an augmenting
 * path, and a vertex without one never gets one later, so one pass over
 * the exposed vertices suffices.  Pure: no I/O, no globals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/blossom.h"
#include "lib/buf.h"

#define NONE	BLOSSOM_NONE

/* Makes an empty matching on n alive vertices. */
void
blossom_init(struct blossom *b, size_t n, blossom_edge_fn edge, void *arg)
{
	size_t		 i, m = n == 0 ? 1 : n, *w;
	unsigned char	*c;

	b->n = n;
	b->edge = edge;
	b->arg = arg;
	/* One block: the five size_t arrays, then the five byte arrays. */
	w = xcalloc(m, 5 * sizeof *w + 5);
	b->match = w;
	b->saved = w + m;
	b->parent = w + 2 * m;
	b->base = w + 3 * m;
	b->queue = w + 4 * m;
	c = (unsigned char *)(w + 5 * m);
	b->alive = c;
	b->saved_alive = c + m;
	b->used = c + 2 * m;
	b->bloss = c + 3 * m;
	b->mark = c + 4 * m;
	for (i = 0; i < n; i++) {
		b->alive[i] = 1;
		b->match[i] = NONE;
	}
}

/* Frees a matching (its arrays are one block, at match). */
void
blossom_free(struct blossom *b)
{
	free(b->match);
}

/* Tells whether x and y are an edge between alive vertices. */
static int
edge(const struct blossom *b, size_t x, size_t y)
{
	return (x != y && b->alive[x] && b->alive[y] &&
	    b->edge(b->arg, x, y));
}

/* The lowest common ancestor of the bases of x and y in the forest. */
static size_t
lca(struct blossom *b, size_t x, size_t y)
{
	memset(b->mark, 0, b->n);
	for (;;) {
		x = b->base[x];
		b->mark[x] = 1;
		if (b->match[x] == NONE)
			break;
		x = b->parent[b->match[x]];
	}
	for (;;) {
		y = b->base[y];
		if (b->mark[y])
			return (y);
		y = b->parent[b->match[y]];
	}
}

/* Marks the blossom's path from v down to base r. */
static void
mark_path(struct blossom *b, size_t v, size_t r, size_t child)
{
	while (b->base[v] != r) {
		b->bloss[b->base[v]] = b->bloss[b->base[b->match[v]]] = 1;
		b->parent[v] = child;
		child = b->match[v];
		v = b->parent[b->match[v]];
	}
}

/* Contracts the blossom closed by the edge v-to; queues its new even
 * vertices. */
static void
contract(struct blossom *b, size_t v, size_t to, size_t *tail)
{
	size_t	 r = lca(b, v, to), i;

	memset(b->bloss, 0, b->n);
	mark_path(b, v, r, to);
	mark_path(b, to, r, v);
	for (i = 0; i < b->n; i++)
		if (b->bloss[b->base[i]]) {
			b->base[i] = r;
			if (!b->used[i]) {
				b->used[i] = 1;
				b->queue[(*tail)++] = i;
			}
		}
}

/*
 * Searches an augmenting path from the exposed vertex root; returns its
 * other (exposed) end, the path left in parent[], or NONE.
 */
static size_t
find_path(struct blossom *b, size_t root)
{
	size_t	 head = 0, tail = 0, v, to, i;

	memset(b->used, 0, b->n);
	for (i = 0; i < b->n; i++) {
		b->parent[i] = NONE;
		b->base[i] = i;
	}
	b->used[root] = 1;
	b->queue[tail++] = root;
	while (head < tail) {
		v = b->queue[head++];
		for (to = 0; to < b->n; to++) {
			if (b->base[v] == b->base[to] || b->match[v] == to ||
			    !edge(b, v, to))
				continue;
			if (to == root || (b->match[to] != NONE &&
			    b->parent[b->match[to]] != NONE))
				contract(b, v, to, &tail);
			else if (b->parent[to] == NONE) {
				b->parent[to] = v;
				if (b->match[to] == NONE)
					return (to);
				b->used[b->match[to]] = 1;
				b->queue[tail++] = b->match[to];
			}
		}
	}
	return (NONE);
}

/* Flips the augmenting path ending at v. */
static void
augment(struct blossom *b, size_t v)
{
	size_t	 pv, ppv;

	while (v != NONE) {
		pv = b->parent[v];
		ppv = b->match[pv];
		b->match[v] = pv;
		b->match[pv] = v;
		v = ppv;
	}
}

/* Returns the number of matched pairs of alive vertices. */
size_t
blossom_pairs(const struct blossom *b)
{
	size_t	 x, m = 0;

	for (x = 0; x < b->n; x++)
		m += b->alive[x] && b->match[x] != NONE;
	return (m / 2);
}

/* Returns the number of alive vertices. */
size_t
blossom_alive(const struct blossom *b)
{
	size_t	 x, m = 0;

	for (x = 0; x < b->n; x++)
		m += b->alive[x];
	return (m);
}

/* Makes the matching maximum: one augmenting-path search from each
 * exposed alive vertex.  Returns the number of pairs. */
size_t
blossom_maximize(struct blossom *b)
{
	size_t	 x, v;

	for (x = 0; x < b->n; x++) {
		if (!b->alive[x] || b->match[x] != NONE)
			continue;
		if ((v = find_path(b, x)) != NONE)
			augment(b, v);
	}
	return (blossom_pairs(b));
}

/*
 * Takes x and y (y may be BLOSSOM_NONE) out of the alive vertices, their
 * mates left exposed, and makes the matching maximum again.  Returns the
 * number of pairs.
 */
size_t
blossom_drop(struct blossom *b, size_t x, size_t y)
{
	size_t	 z;

	b->alive[x] = 0;
	if (y != NONE)
		b->alive[y] = 0;
	for (z = 0; z < b->n; z++)
		if (!b->alive[z] && b->match[z] != NONE &&
		    b->alive[b->match[z]]) {
			b->match[b->match[z]] = NONE;
			b->match[z] = NONE;
		}
	return (blossom_maximize(b));
}

/* Saves the matching and the alive set. */
void
blossom_save(struct blossom *b)
{
	memcpy(b->saved, b->match, b->n * sizeof *b->match);
	memcpy(b->saved_alive, b->alive, b->n);
}

/* Restores what blossom_save saved. */
void
blossom_restore(struct blossom *b)
{
	memcpy(b->match, b->saved, b->n * sizeof *b->match);
	memcpy(b->alive, b->saved_alive, b->n);
}
