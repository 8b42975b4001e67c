/*
 * rtable.h: the Glicko-2 ratings of named players (glicko2.c), kept in an
 * array found through a hash index: pure arithmetic, no I/O, no globals,
 * no locks (the caller's).  Each rated game is one rating period for its
 * two players (PROTOCOL.md §13.7): both are updated by glicko2_update
 * against the other's rating and RD from before the game.  The store's
 * writer rates each logged game with it and checkpoints the table
 * (store-rating.c); `verify ratings` and the rating history replay the
 * log with it.  One function does the update, so that every replay gives
 * the same doubles bit for bit.
 */
#ifndef RTABLE_H
#define RTABLE_H

#include <stddef.h>

#include "stats/glicko2.h"

/* One player's rating as computed (Glicko scale), and its rated games. */
struct rtable_entry {
	char		*name;
	struct glicko2_rating g;
	unsigned long	 games;
};

/* Players in the order they were added, and the index over their names. */
struct rtable {
	struct rtable_entry *v;
	size_t		 n;
	size_t		 cap;
	size_t		*index;		/* open addressing: v's index + 1 */
	size_t		 index_cap;	/* a power of two (or 0) */
};

void	 rtable_init(struct rtable *);
void	 rtable_free(struct rtable *);
struct rtable_entry *rtable_find(const struct rtable *, const char *);
struct rtable_entry *rtable_get(struct rtable *, const char *);
void	 rtable_rate(struct rtable *, const char *, const char *, int);
void	 rtable_copy(struct rtable *, const struct rtable *);
int	 rtable_provisional(const struct glicko2_rating *);

#endif /* RTABLE_H */
