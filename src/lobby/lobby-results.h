/*
 * lobby-results.h: a tournament's results from the lobby's memory (its
 * schedule, restored from the log on a start): the standings with
 * tie-breaks and the crosstable of results.h (PROTOCOL.md §13.10).
 */
#ifndef LOBBY_RESULTS_H
#define LOBBY_RESULTS_H

#include <stddef.h>

#include "lib/buf.h"
#include "stats/results.h"

struct league_tournament;
struct lobby;

struct lobby_tresults {
	int		 status;	/* LEAGUE_T_* */
	size_t		 played, total;	/* games */
	struct results	 r;		/* players in the tournament's order */
};

void	 lobby_tour_tb(const struct league_tournament *, struct tb_list *);
int	 lobby_tour_results(struct lobby *, const char *,
	    struct lobby_tresults *, struct buf *);

#endif /* LOBBY_RESULTS_H */
