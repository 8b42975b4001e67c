/*
 * tables.h: the precomputed tables: listing one (tables.c) and their
 * cache on the game log (tables-store.c).
 */
#ifndef TABLES_H
#define TABLES_H

#include "lib/buf.h"
#include "solver/game.h"

struct store;

/* Most entries `table` and --precompute list. */
#define TABLES_MAX	100000

int	 tables_list(const struct game_limits *, int, char **, struct buf *,
	    struct buf *);
void	 tables_store_cache(struct game_tables *, struct store *);

#endif /* TABLES_H */
