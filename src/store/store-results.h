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
	int64_t		 slot;		/* its tournament slot, -1: none */
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

/*
 * A tournament as the log has it, for its standings (results-read.c):
 * texts as stored, "" where NULL.  players "A,B,..."; withdrawn
 * "NAME:R,..." (R rounds paired when it withdrew); byes "R:NAME,..."
 * (Swiss, migration 015); stopped "R:A:B,...": the games a withdrawal
 * stopped before they were played (migration 015).
 */
struct store_tour {
	int		 swiss;
	char		*tiebreaks;	/* "": its format's default */
	unsigned int	 games_per_pair;
	char		*players, *withdrawn, *byes, *stopped;
};

int	 store_tour(struct store *, int64_t, struct store_tour *);
void	 store_tour_free(struct store_tour *);

#endif /* STORE_RESULTS_H */
