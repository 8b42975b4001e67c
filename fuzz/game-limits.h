/*
 * game-limits.h: the small game limits of the harnesses that solve games
 * (fuzz-game.c, fuzz-record.c), so that one input stays fast: each family
 * within microseconds to milliseconds.
 */
#ifndef FUZZ_LIMITS_H
#define FUZZ_LIMITS_H

#include "solver/game.h"

static inline void
fuzz_limits(struct game_limits *lim)
{
	game_limits_default(lim);
	lim->max_digits = 40;
	lim->max_piles = 12;
	lim->max_components = 4;
	lim->max_nodes = 48;
	lim->max_edges = 128;
	lim->max_set = 6;
	lim->max_set_value = 48;
	lim->max_table = 4096;
	lim->max_wythoff = 24;
	lim->max_moves = 256;
}

#endif /* FUZZ_LIMITS_H */
