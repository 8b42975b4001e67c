/*
 * export.h: the export of a tournament or a time span (PROTOCOL.md
 * §13.11) as CSV tables: standings, crosstable, pairs, referee, games and
 * moves.  Reads the log: call it off the event loop.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include <stddef.h>

#include "lib/buf.h"
#include "stats/results.h"
#include "store/store-results.h"

/* The CSV sheets of an export: the protocol's TABLE (export, table=). */
enum export_sheet {
	EXPORT_STANDINGS = 0,
	EXPORT_CROSSTABLE,
	EXPORT_PAIRS,
	EXPORT_REFEREE,
	EXPORT_GAMES,
	EXPORT_MOVES,
	EXPORT_NSHEETS
};

int	 export_sheet_parse(const char *, enum export_sheet *);
void	 export_num(struct buf *, int, double);
int	 export_filter_arg(struct store *, const char *,
	    struct store_rfilter *, char *, size_t);
int	 export_csv(struct store *, const struct store_rfilter *,
	    enum export_sheet, size_t, struct buf *, char *, size_t);
void	 export_standings_csv(struct buf *, const struct results *);

#endif /* EXPORT_H */
