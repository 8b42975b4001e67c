/*
 * cmd-results.h: the text of the results commands (PROTOCOL.md §13.10)
 * from the data of results.h.  No I/O.
 */
#ifndef CMD_RESULTS_H
#define CMD_RESULTS_H

#include "lib/buf.h"
#include "stats/results.h"
#include "store/store-results.h"

struct session;

void	 cmd_results_standings(struct buf *, const struct results *);

#endif /* CMD_RESULTS_H */
