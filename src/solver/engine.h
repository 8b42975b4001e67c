/*
 * engine.h: the engine's choice of move, on top of the solver core.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include "solver/game.h"

/* Why the engine chose its move. */
enum engine_why {
	ENGINE_WIN = 1,		/* a winning move (N-position) */
	ENGINE_POLICY,		/* the fallback policy (P-position) */
};

/* The scratch entries engine_choose_in keeps between calls. */
#define ENGINE_SCRATCH_KEEP	64

int	 engine_choose(const struct game *, gmp_randstate_t,
	    struct game_move *, enum engine_why *, struct game_error *);
int	 engine_choose_in(const struct game *, gmp_randstate_t,
	    struct game_moveset *, struct game_move *, enum engine_why *,
	    struct game_error *);

#endif /* ENGINE_H */
