/*
 * tiebreak.h: a tournament's crosstable and its standings with the
 * tie-breaks of FIDE's Handbook C.07 (the regulations in force from 1
 * August 2024; doc/STATS.md), pure (no I/O, no globals).  Points are kept
 * in halves and Sonneborn-Berger in quarters, so every comparison is
 * exact.
 *
 * A player's units are its games and its unplayed rounds (one per game a
 * round would have had): a bye, a forfeit won or lost, a round absent
 * (withdrawn).  Forfeits are units, not games: they score, but count in
 * no crosstable cell and in no direct encounter.  A voluntarily unplayed
 * unit (VUR: a forfeit lost, a round absent) matters in two places:
 * counted as a draw in the opponents' tie-breaks when it comes after the
 * player's last unit of another kind (C.07 16.3: a withdrawal), and cut
 * first by Buchholz cut-1.  For the player's own Buchholz and
 * Sonneborn-Berger each unplayed unit is a game against a dummy opponent
 * with the player's own final points (16.4).
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

/* Player i's record against player j, in games played. */
struct xtable_cell {
	uint32_t	 games;
	uint32_t	 half;		/* i's points against j, in halves */
};

/* Player i's totals. */
struct xtable_player {
	uint32_t	 games, wins, draws, losses;	/* games played */
	uint32_t	 second, second_wins;	/* of those, moving second */
	uint32_t	 byes;		/* bye units */
	uint32_t	 fwins, flosses;	/* forfeits won, lost */
	uint32_t	 unplayed;	/* every unplayed unit */
	uint32_t	 uhalf;		/* points in them, in halves */
	uint32_t	 uwins;		/* of them, scoring a win */
	uint32_t	 vur;		/* of them, voluntarily unplayed */
	unsigned int	 last;		/* the last non-VUR unit's round */
	uint64_t	 half;		/* points in halves, every unit */
};

/* A voluntarily unplayed unit: whose, in which round. */
struct xtable_vur {
	size_t		 player;
	unsigned int	 round;
};

/* The crosstable of n players: cell[i * n + j] is i against j. */
struct xtable {
	size_t			 n;
	struct xtable_cell	*cell;
	struct xtable_player	*player;
	struct xtable_vur	*vurs;	/* the VUR units, for 16.3 */
	size_t			 nvurs;
};

/*
 * The tie-breaks, by C.07's abbreviations: direct encounter, Buchholz,
 * Buchholz cut-1, Sonneborn-Berger, rounds won (games and unplayed
 * units scoring a win), games won, games played second (FIDE's black),
 * games won second.
 */
#define TB_KINDS(X)							\
	X(TB_DE, "de")							\
	X(TB_BH, "bh")							\
	X(TB_BHC1, "bh-c1")						\
	X(TB_SB, "sb")							\
	X(TB_WIN, "win")						\
	X(TB_WON, "won")						\
	X(TB_BPG, "bpg")						\
	X(TB_BWG, "bwg")
#define TB_X_ID(id, name)	id,
enum tb_kind { TB_KINDS(TB_X_ID) TB_NKINDS };

/* At most this many tie-breaks in a list. */
#define TB_MAX		TB_NKINDS
/* The text of a list: names and commas. */
#define TB_TEXT_MAX	64

/* A tournament's tie-breaks, in order. */
struct tb_list {
	unsigned int	 n;
	enum tb_kind	 k[TB_MAX];
};

/*
 * One line of the standings.  rank counts every tie-break, score_rank
 * only points (the players level on points share it); tb[i] is the i-th
 * tie-break of the list in units of tb_unit (DE: -1 where it was not
 * applied).
 */
struct standing {
	size_t		 player;
	unsigned	 rank;
	unsigned	 score_rank;
	uint64_t	 half;
	int64_t		 tb[TB_MAX];
	size_t		 leaf;		/* players tied on everything share it */
};

int	 xtable_init(struct xtable *, size_t);
void	 xtable_free(struct xtable *);
int	 xtable_add(struct xtable *, size_t, size_t, enum xtable_res,
	    unsigned int);
int	 xtable_unit(struct xtable *, size_t, unsigned int, unsigned int,
	    int);
int	 xtable_forfeit(struct xtable *, size_t, size_t, unsigned int);
int	 xtable_bye(struct xtable *, size_t, unsigned int, unsigned int);
const struct xtable_cell *xtable_get(const struct xtable *, size_t, size_t);
void	 tiebreak_standings(const struct xtable *, const struct tb_list *,
	    const size_t *, struct standing *);
int64_t	 tiebreak_value(const struct xtable *, size_t, enum tb_kind);
const char *tb_name(enum tb_kind);
unsigned int tb_unit(enum tb_kind);
int	 tb_list_parse(const char *, struct tb_list *, char *, size_t);
void	 tb_list_text(const struct tb_list *, char *, size_t);
void	 tb_list_default(int, struct tb_list *);

#endif /* TIEBREAK_H */
