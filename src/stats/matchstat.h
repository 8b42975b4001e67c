/*
 * matchstat.h: match statistics for a pair of players, pure arithmetic
 * (no I/O, no globals): win/loss/draw counts, pentanomial counts over
 * game pairs, score, Elo difference with its 95% interval, normalized
 * Elo and LOS, computed as fastchess computes them (doc/STATS.md).
 */
#ifndef MATCHSTAT_H
#define MATCHSTAT_H

#include <stddef.h>
#include <stdint.h>

/* The 97.5% quantile of the standard normal: a two-sided 95% interval. */
#define MATCHSTAT_Z95	1.959963984540054

/*
 * 800 / ln 10 (M_LN10: <math.h>): the normalized Elo of a score one
 * deviation above 1/2.
 */
#define MATCHSTAT_NELO_SCALE	(800.0 / M_LN10)

/* One game's result from the first player's (A's) point of view. */
enum matchstat_res {
	MATCHSTAT_LOSS = 0,
	MATCHSTAT_DRAW,
	MATCHSTAT_WIN,
};

/* Trinomial counts from A's point of view. */
struct matchstat_wdl {
	uint64_t	 wins, losses, draws;
};

/*
 * Pentanomial counts over game pairs (the same start played twice, the
 * seats swapped), from A's point of view: ll is a pair A lost twice, ld
 * one loss and one draw, wl one win and one loss, dd two draws, and so
 * on.  A pair scores 0, 1/4, 1/2 (wl and dd), 3/4 or 1.
 */
struct matchstat_penta {
	uint64_t	 ll, ld, wl, dd, wd, ww;
};

/*
 * A sample as k outcomes (3 or 5): outcome i scores a[i] and happened c[i]
 * times, n times in all.  Trinomial (games): loss, draw, win, spread 1;
 * pentanomial (pairs): ll, ld, wl + dd, wd, ww, spread sqrt 2 (the
 * normalized Elo of a pair is per game).
 */
struct matchstat_sample {
	int		 k;
	const double	*a;
	uint64_t	 c[5];
	uint64_t	 n;
	double		 spread;
};

/* One game for matchstat_pairs: its start (the pair key) and result. */
struct matchstat_game {
	uint64_t		 start;
	enum matchstat_res	 res;
};

/*
 * The statistics of a sample of n games (trinomial) or n pairs
 * (pentanomial).  score is A's mean score per game (pairs count 1/2 per
 * game), variance the variance of one sample's score.  elo is the
 * logistic Elo difference -400 log10(1/score - 1), elo_lo and elo_hi
 * the ends of its 95% interval, elo_err their half distance (fastchess's
 * "+/-"); nelo the normalized Elo and nelo_err the half width of its
 * 95% interval, from the delta-method variance of (s - 1/2) / sigma
 * (doc/STATS.md); los the likelihood of superiority.  When every sample
 * has the same score (variance 0) the interval has no width, degenerate
 * is 1, elo_lo = elo_hi = elo, elo_err and nelo_err are 0 and los is 1,
 * 0 or 1/2; elo is +-INFINITY when A won or lost
 * every game, and so are interval ends at or beyond a score of 1 or 0.
 */
struct matchstat_elo {
	uint64_t	 n;
	double		 score;
	double		 variance;
	double		 elo, elo_lo, elo_hi, elo_err;
	double		 nelo, nelo_err;
	double		 los;
	int		 degenerate;
};

int	 matchstat_wdl_add(struct matchstat_wdl *, enum matchstat_res);
uint64_t matchstat_wdl_games(const struct matchstat_wdl *);
double	 matchstat_wdl_points(const struct matchstat_wdl *);
int	 matchstat_penta_add(struct matchstat_penta *, enum matchstat_res,
	    enum matchstat_res);
uint64_t matchstat_penta_pairs(const struct matchstat_penta *);
int	 matchstat_pairs(const struct matchstat_game *, size_t,
	    struct matchstat_penta *, size_t *);
void	 matchstat_wdl_sample(const struct matchstat_wdl *,
	    struct matchstat_sample *);
void	 matchstat_penta_sample(const struct matchstat_penta *,
	    struct matchstat_sample *);
double	 matchstat_score_to_elo(double);
int	 matchstat_elo_wdl(const struct matchstat_wdl *,
	    struct matchstat_elo *);
int	 matchstat_elo_penta(const struct matchstat_penta *,
	    struct matchstat_elo *);

#endif /* MATCHSTAT_H */
