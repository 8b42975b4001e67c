/*
 * swiss.h: the pairings of tournaments and matches, pure: no I/O, no
 * globals.  rr_pairing enumerates a round-robin's (or a gauntlet's)
 * pairings in schedule order, for the lobby's tournaments and `grundy
 * match`.  swiss_pair is Swiss pairing by a documented, deterministic rule (Dutch-like:
 * score groups, no rematch, one bye, colour balance), pure: no I/O, no
 * globals.  The rule, in doc/STATS.md:
 *
 * 1. Players are ranked by score, then by seed (their index: 0 is the top
 *    seed).
 * 2. With an odd number of players, the bye goes to the first player,
 *    taking the lowest score first and the lowest seed among equals,
 *    among those without a bye so far (then, if none of those allows a
 *    pairing of the others, among those with one), whose removal leaves
 *    a pairing without rematch.
 * 3. The others are paired top-down: the top unpaired player takes the
 *    first partner with whom the players left can still all be paired
 *    without rematch, trying: the members of its score group whose
 *    pairing with it leaves the group's others as many pairs among
 *    themselves as the group had, less this one; then the group's other
 *    members; then the players of lower scores, by rank.  Group members
 *    are tried in Dutch order: among the group's unpaired members g0 (the
 *    top one) .. g(k-1), g(k/2) .. g(k-1), then g(k/2-1) .. g1.  A round
 *    is refused only when no pairing without rematch exists; when every
 *    score group (the bye left out) can be paired within itself, no pair
 *    crosses groups.
 * 4. In each pair, the first seat goes to the player with the lower
 *    colour balance (first seats minus second seats), then to the one
 *    who sat second last time, then to the higher-ranked player on odd
 *    boards and the lower-ranked one on even boards.  Pairs are listed by
 *    board: by the rank of their higher-ranked player.
 */
#ifndef SWISS_H
#define SWISS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/* At most this many players. */
#define SWISS_MAX	256
/* No bye: an even number of players. */
#define SWISS_NO_BYE	SIZE_MAX

/* What the pairing knows of a player before the round. */
struct swiss_player {
	uint32_t	 half;		/* score in halves */
	int		 had_bye;	/* had a bye already */
	int		 colour;	/* first seats minus second seats */
	int		 last;		/* last seat: 1 first, -1 second, 0 */
};

/* One pair: the first and the second seat. */
struct swiss_pair {
	size_t		 first, second;
};

/* Why a round was not paired, and the message (swiss_strerror). */
#define SWISS_ERRORS(X)							\
	X(SWISS_OK, "no error")						\
	/* no player, or more than SWISS_MAX */				\
	X(SWISS_E_SIZE, "a Swiss round needs 1 to 256 players")		\
	X(SWISS_E_NOPAIRING, "every pairing of this round has a rematch")
enum swiss_err { SWISS_ERRORS(ENUM_X_ID) };

size_t		 rr_pairing(size_t, size_t, int, size_t, size_t *,
		    size_t *);
enum swiss_err	 swiss_pair(const struct swiss_player *, size_t,
		    const unsigned char *, struct swiss_pair *, size_t *);
const char	*swiss_strerror(enum swiss_err);

#endif /* SWISS_H */
