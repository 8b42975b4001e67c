/*
 * cmd-history.h: the protocol text of the game log's reads (PROTOCOL.md
 * §12 and §13.7), from the data the store and the league return.  No I/O.
 */
#ifndef CMD_HISTORY_H
#define CMD_HISTORY_H

#include "lib/buf.h"
#include "league/league.h"
#include "store/store.h"

void	 cmd_history_games(struct buf *, const struct store_history *);
int	 cmd_history_record(struct store *, int64_t, struct buf *);
void	 cmd_history_stats(struct buf *, const struct store_stats *);
void	 cmd_history_pct(struct buf *, int, uint64_t);
void	 cmd_history_player(struct buf *, const struct league_player *,
	    const char *);
struct session;
int	 cmd_history_none(struct session *, struct buf *);

#endif /* CMD_HISTORY_H */
