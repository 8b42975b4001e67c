/*
 * format.h: the one formatter for analysis output, shared by the grundy CLI
 * and the protocol's response bodies so that the two never differ.
 */
#ifndef FORMAT_H
#define FORMAT_H

#include "solver/game.h"

int	 format_analysis(const struct game *, struct buf *,
	    struct game_error *);
void	 format_moves(const struct game_moveset *, size_t, struct buf *);
int	 format_winning(const struct game *, size_t, struct buf *,
	    struct game_error *);
void	 format_games(struct buf *);

#endif /* FORMAT_H */
