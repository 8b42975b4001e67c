/*
 * cmd-log.h: the protocol text of the game log's reads (PROTOCOL.md §12
 * and §13.7), from the data the store and the league return.  No I/O.
 */
#ifndef CMD_LOG_H
#define CMD_LOG_H

#include "lib/buf.h"
#include "league/league.h"
#include "store/store.h"

void	 cmd_log_history(struct buf *, const struct store_history *);
void	 cmd_log_record(struct buf *, const struct store_record *);
void	 cmd_log_stats(struct buf *, const struct store_stats *);
void	 cmd_log_pct(struct buf *, int, uint64_t);
void	 cmd_log_player(struct buf *, const struct league_player *,
	    const char *);
struct session;
int	 cmd_log_none(struct session *, struct buf *);

#endif /* CMD_LOG_H */
