/*
 * results.h: the results of a set of finished games (issue 14; PROTOCOL.md
 * §13.10): standings with tie-breaks and a crosstable (tiebreak.c), the
 * statistics of every pair of players (matchstat.c) and the referee's own
 * figures per player and per pair.  Pure: the games come from the caller
 * (the lobby's tournament, or the store's log); no I/O, no globals.
 *
 * Definitions (one place for the whole server):
 *  - A move is marked kept-win, threw-win or no-win (§12).  The
 *    optimal-move rate is kept-win / (kept-win + threw-win): of the moves
 *    a player made from a won position, the share that kept the win.  A
 *    move from a lost position (no-win) does not count: every move there
 *    is as good as any other with perfect play.
 *  - The first thrown win of a game is the player's own move number
 *    (1: its first move in that game) of its first threw-win move.
 *  - A player had a won game when it had a winning position on its move
 *    at least once (a kept-win or threw-win move); it converted it when
 *    it won that game.  The conversion rate is converted / won games.
 *  - Game pairs: two games between the same two players with the same
 *    start (the game spec as started), one with each seat, in the same
 *    tournament (or both outside tournaments).  Among the games of one
 *    start, the k-th game in id order in which A moved first pairs with
 *    the k-th in which B moved first; the games left over count in the
 *    trinomial figures only.
 */
#ifndef RESULTS_H
#define RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "stats/matchstat.h"
#include "store/store-results.h"
#include "stats/tiebreak.h"

/* At most this many games in one results read (pairstats, export). */
#define RESULTS_MAX_GAMES	100000

/* The first-throw buckets of `player` (results_throw_bounds). */
#define RESULTS_THROW_BUCKETS	8

/* The referee's figures of one player over a set of games. */
struct results_ref {
	uint64_t	 games;
	uint64_t	 moves, kept, threw;
	uint64_t	 throw_games;	/* games with a thrown win */
	uint64_t	 first_throw[RESULTS_THROW_BUCKETS];
	uint64_t	 first_throw_sum; /* of the first-throw move numbers */
	uint64_t	 won_games;	/* games with a won position */
	uint64_t	 converted;	/* of those, games it won */
};

/* The statistics of players a < b against each other, from a's side. */
struct results_pair {
	size_t		 a, b;
	struct matchstat_wdl wdl;
	struct matchstat_penta penta;
	size_t		 unpaired;	/* games in no pair */
	struct matchstat_elo elo;	/* trinomial, every game */
	int		 has_penta_elo;	/* at least one pair */
	struct matchstat_elo penta_elo;	/* over the pairs */
	struct results_ref ref[2];	/* a's and b's figures */
};

/* The results of a set of games. */
struct results {
	size_t		 n;		/* players */
	char		**names;	/* in the given or name order */
	struct xtable	 xt;
	struct tb_list	 tb;		/* the standings' tie-breaks */
	size_t		*key;		/* per player: its place by name */
	struct standing	*st;		/* n lines, best first */
	struct results_ref *ref;	/* per player */
	struct results_pair *pairs;	/* the pairs that met, by (a, b) */
	size_t		 npairs;
	size_t		 games;		/* games counted */
};

int	 results_build(const char *const *, size_t,
	    const struct store_rgame *, size_t, struct results *);
void	 results_free(struct results *);
void	 results_bye(struct results *, size_t, unsigned int, unsigned int);
void	 results_absent(struct results *, size_t, unsigned int);
void	 results_rank(struct results *, const struct tb_list *);
int	 results_pair_get(const struct results *, size_t, size_t,
	    struct results_pair *);
const struct xtable_player *results_standing(const struct results *,
	    size_t, const struct standing **);
long	 results_player(const struct results *, const char *);
int	 results_read_games(struct store *, const struct store_rfilter *,
	    struct store_rgames *, struct results *, char *, size_t);
int	 results_read(struct store *, const struct store_rfilter *,
	    struct results *, char *, size_t);
void	 results_pair_named(const struct results *, const char *,
	    const char *, struct results_pair *);
int	 results_optimal_tenths(uint64_t, uint64_t, uint64_t *);
double	 results_optimal_rate(uint64_t, uint64_t);
size_t	 results_throw_bucket(uint32_t);
void	 results_throw_bounds(size_t, unsigned int *, unsigned int *);

#endif /* RESULTS_H */
