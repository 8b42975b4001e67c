/*
 * blossom.h: maximum-cardinality matching in a general graph (Edmonds'
 * blossom algorithm), kept maximum while vertices are taken out.  Pure:
 * no I/O, no globals.  The graph is given by a callback; vertices are
 * 0 .. n-1, and only alive ones take part.
 */
#ifndef BLOSSOM_H
#define BLOSSOM_H

#include <stddef.h>
#include <stdint.h>

/* No vertex (an exposed vertex's mate). */
#define BLOSSOM_NONE	SIZE_MAX

/* Tells whether x and y (distinct, both alive) may be matched. */
typedef int	 (*blossom_edge_fn)(void *, size_t, size_t);

struct blossom {
	size_t		 n;
	blossom_edge_fn	 edge;
	void		*arg;
	unsigned char	*alive;
	size_t		*match;		/* mate or BLOSSOM_NONE */
	/* Saved state for blossom_restore. */
	size_t		*saved;
	unsigned char	*saved_alive;
	/* The search's scratch. */
	size_t		*parent, *base, *queue;
	unsigned char	*used, *bloss, *mark;
};

void	 blossom_init(struct blossom *, size_t, blossom_edge_fn, void *);
void	 blossom_free(struct blossom *);
size_t	 blossom_maximize(struct blossom *);
size_t	 blossom_drop(struct blossom *, size_t, size_t);
size_t	 blossom_pairs(const struct blossom *);
size_t	 blossom_alive(const struct blossom *);
void	 blossom_save(struct blossom *);
void	 blossom_restore(struct blossom *);

#endif /* BLOSSOM_H */
