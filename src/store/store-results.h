/*
 * store-results.h: the finished games of the log as results.c takes them
 * (PROTOCOL.md §13.10): each game's players, start, tournament, winner
 * and each player's moves as the referee marked them.  A read, on the
 * read connection: call it off the event loop.
 */
#ifndef STORE_RESULTS_H
#define STORE_RESULTS_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* One player's moves in one game, as the referee marked them. */
struct store_rseat {
	uint32_t	 moves;		/* its moves */
	uint32_t	 kept;		/* kept-win moves */
	uint32_t	 threw;		/* threw-win moves */
	uint32_t	 first_throw;	/* own move number, 0: none */
};

/* One finished game with a winner. */
struct store_rgame {
	int64_t		 id;
	const char	*player1;	/* moved first */
	const char	*player2;
	const char	*start;		/* NULL: unknown (never paired) */
	int64_t		 tournament;	/* 0: none */
	int		 winner;	/* 1 or 2 */
	int		 forfeit;	/* won by forfeit: not played */
	unsigned int	 round;		/* its round (order), 0: its index */
	int		 marked;	/* seat[] is known */
	struct store_rseat seat[2];
};

/*
 * Which games: a and b (both or neither) the two players, in either
 * seat; tournament its id (0: any, -1: none); ended in [since_ms,
 * until_ms) (STORE_TIME_NONE: no bound).  At most max games.
 */
struct store_rfilter {
	const char	*a, *b;
	int64_t		 tournament;
	int64_t		 since_ms, until_ms;
	size_t		 max;
};

/* The games read, in id order; free with store_rgames_free. */
struct store_rgames {
	struct store_rgame *v;
	size_t		 n;
};

int	 store_rgames(struct store *, const struct store_rfilter *,
	    struct store_rgames *);
void	 store_rgames_free(struct store_rgames *);
int64_t	 store_tour_id(struct store *, const char *);
int	 store_tour_tb(struct store *, int64_t, char *, size_t, int *);

#endif /* STORE_RESULTS_H */
