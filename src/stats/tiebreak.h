/*
 * tiebreak.h: a tournament's crosstable and its standings with
 * tie-breaks, pure (no I/O, no globals).  Points are kept in halves and
 * Sonneborn-Berger in quarters, so every comparison is exact.  The order
 * (doc/STATS.md): a player with no game played is last; then points;
 * then head-to-head among the players level on points (only when each
 * pair of them has met); then Sonneborn-Berger; then wins.  Players equal
 * on all of these share a rank.
 */
#ifndef TIEBREAK_H
#define TIEBREAK_H

#include <stddef.h>
#include <stdint.h>

/* At most this many players in a crosstable (n * n cells). */
#define XTABLE_MAX	1024

/* A game's result for its first player. */
enum xtable_res {
	XTABLE_LOSS = 0,
	XTABLE_DRAW,
	XTABLE_WIN,
};

/* Player i's record against player j. */
struct xtable_cell {
	uint32_t	 games;
	uint32_t	 half;		/* i's points against j, in halves */
};

/* Player i's totals. */
struct xtable_player {
	uint32_t	 games, wins, draws, losses;
	uint32_t	 byes;
	uint64_t	 half;		/* points in halves, byes included */
};

/* The crosstable of n players: cell[i * n + j] is i against j. */
struct xtable {
	size_t			 n;
	struct xtable_cell	*cell;
	struct xtable_player	*player;
};

/*
 * One line of the standings.  rank counts every tie-break, score_rank
 * only points (the players level on points share it); h2h is the
 * head-to-head points in halves, -1 where it does not apply; sb the
 * Sonneborn-Berger score in quarters (the sum over games of the points
 * scored times the opponent's points).
 */
struct standing {
	size_t		 player;
	unsigned	 rank;
	unsigned	 score_rank;
	uint64_t	 half;
	int64_t		 h2h;
	uint64_t	 sb;
	uint32_t	 wins;
	uint32_t	 games;
};

int	 xtable_init(struct xtable *, size_t);
void	 xtable_free(struct xtable *);
int	 xtable_add(struct xtable *, size_t, size_t, enum xtable_res);
int	 xtable_bye(struct xtable *, size_t, unsigned);
const struct xtable_cell *xtable_get(const struct xtable *, size_t, size_t);
void	 tiebreak_standings(const struct xtable *, struct standing *);

#endif /* TIEBREAK_H */
