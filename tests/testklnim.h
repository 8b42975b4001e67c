/*
 * testklnim.h: what the two K-L-Nim test programs share (test-klnim.c,
 * test-klnim-huge.c).
 */
#ifndef TESTKLNIM_H
#define TESTKLNIM_H

#include "game.h"

#define NPMAX	8		/* most piles in a test position */

void	 check_canonical(const struct game_moveset *, int);

#endif /* TESTKLNIM_H */
