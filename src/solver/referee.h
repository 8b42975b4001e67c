/*
 * referee.h: the referee's pure part, shared by the daemon's live games
 * (lobby-game.c) and `grundy match` (match*.c): a genmove answer parsed
 * and checked as a move, the optimality mark of a legal move, the end of
 * a game with no move left, the detail of an illegal move, and a fair
 * random start drawn from a template (PROTOCOL.md §13.3, §13.4).  No I/O,
 * no globals.
 */
#ifndef REFEREE_H
#define REFEREE_H

#include "lib/buf.h"
#include "solver/game.h"

/* Tries for a random fair start (PROTOCOL.md §13.3). */
#define REFEREE_DRAWS		1000
/* Bytes of a refused move kept in the detail of an illegal-move end. */
#define REFEREE_QUOTE_MAX	200

/* The mark of a legal move (in the order of the log's enum store_mark). */
enum referee_mark {
	REFEREE_KEPT_WIN = 0,	/* a win kept: the position after is P */
	REFEREE_THREW_WIN,	/* a win thrown: the position after is N */
	REFEREE_NO_WIN,		/* the mover had no win (P-position) */
};

int	 referee_parse_move(const struct game *, const char *, const char *,
	    const struct game_limits *, struct game_move *,
	    struct game_error *);
enum referee_mark referee_mark(struct game *, const struct game_move *);
int	 referee_over(const struct game *, int, int *, const char **);
void	 referee_illegal_detail(struct buf *, const char *, const char *);
int	 referee_draw_start(const struct game *, gmp_randstate_t,
	    const struct game_limits *, struct game *, struct game_error *);

#endif /* REFEREE_H */
