/*
 * referee.h: the referee's pure part, shared by the daemon's live games
 * (lobby-game.c), the engine matches of a session (cmd-game.c), `grundy
 * match` (match*.c) and `grundy verify`: a genmove answer parsed and
 * checked as a move, the engine's move, the optimality mark of a legal
 * move, the clock after a move, the end of a game with no move left, the
 * detail of an illegal move, and a fair random start drawn from a
 * template (PROTOCOL.md §13.3, §13.4).  No I/O, no globals.
 */
#ifndef REFEREE_H
#define REFEREE_H

#include <stdint.h>

#include "lib/buf.h"
#include "solver/game.h"

/* Tries for a random fair start (PROTOCOL.md §13.3). */
#define REFEREE_DRAWS		1000
/*
 * Bytes of a refused move kept (its record, the detail of an illegal-move
 * end): a refused text this long may have been cut.
 */
#define REFEREE_QUOTE_MAX	200

/* The mark of a legal move (the values of the log's enum store_mark). */
enum referee_mark {
	REFEREE_KEPT_WIN = 0,	/* a win kept: the position after is P */
	REFEREE_THREW_WIN,	/* a win thrown: the position after is N */
	REFEREE_NO_WIN,		/* the mover had no win (P-position) */
};

int	 referee_parse_move(const struct game *, const char *, const char *,
	    const struct game_limits *, struct game_move *,
	    struct game_error *);
enum referee_mark referee_mark(struct game *, const struct game_move *);
int	 referee_engine_move(const struct game *, gmp_randstate_t,
	    struct game_moveset *, struct game_move *, enum referee_mark *,
	    struct game_error *);
uint64_t referee_clock_after(uint64_t, uint64_t, uint64_t);
int	 referee_over(const struct game *, int, int *, const char **);
/* A game's bounds and what it has used of them (PROTOCOL.md §12.1). */
struct referee_bound {
	unsigned long	 max_plies;	/* max-plies */
	uint64_t	 max_bytes;	/* max-game-bytes */
	unsigned long	 plies;		/* moves played */
	uint64_t	 bytes;		/* their moves' and positions' bytes */
};
#define REFEREE_DETAIL_MAX	64
int	 referee_bounded(const struct game *, int, const struct referee_bound *,
	    int *, const char **, char *);
void	 referee_cut(char *, const char *);
void	 referee_illegal_detail(struct buf *, const char *, const char *);
int	 referee_draw_start(const struct game *, gmp_randstate_t,
	    const struct game_limits *, struct game *, struct game_error *);

#endif /* REFEREE_H */
