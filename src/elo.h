/*
 * elo.h: Elo ratings of named players (start 1500, K = 32), kept in an
 * array found through a hash index: pure arithmetic, no I/O, no globals,
 * no locks (the caller's).  The store's writer rates each logged game with
 * it and checkpoints the table (store-rating.c); `verify ratings` replays
 * the log with it.  One function does the update, so that every replay
 * gives the same doubles bit for bit.
 */
#ifndef ELO_H
#define ELO_H

#include <stddef.h>

#define ELO_START	1500.0
#define ELO_K		32.0

/* One player's rating: the rating as computed, and its rated games. */
struct elo_entry {
	char		*name;
	double		 r;
	unsigned long	 games;
};

/* Players in the order they were added, and the index over their names. */
struct elo {
	struct elo_entry *v;
	size_t		 n;
	size_t		 cap;
	size_t		*index;		/* open addressing: v's index + 1 */
	size_t		 index_cap;	/* a power of two (or 0) */
};

void	 elo_init(struct elo *);
void	 elo_free(struct elo *);
struct elo_entry *elo_find(const struct elo *, const char *);
struct elo_entry *elo_get(struct elo *, const char *);
void	 elo_update(double *, double *, int);
void	 elo_rate(struct elo *, const char *, const char *, int);
void	 elo_copy(struct elo *, const struct elo *);

#endif /* ELO_H */
