/*
 * cmd-table.h: the precomputed table cache on the SQLite store, the
 * `table` command and grundyd --precompute (cmd-table.c).
 */
#ifndef CMD_TABLE_H
#define CMD_TABLE_H

#include "conf.h"
#include "store.h"

/* Most entries `table` and --precompute list. */
#define CMD_TABLE_MAX	100000

void	 cmd_table_cache(struct game_tables *, struct store *);
int	 cmd_table_list(const struct game_limits *, int, char **, struct buf *,
	    struct buf *);
int	 cmd_table_precompute(const struct conf *, struct store *, char **,
	    int);

#endif /* CMD_TABLE_H */
