/*
 * glicko2.h: Glicko-2 ratings (rating, deviation, volatility), pure
 * arithmetic: no I/O, no globals.  Reference: Mark E. Glickman, "Example
 * of the Glicko-2 system", Boston University, 2013
 * (http://www.glicko.net/glicko/glicko2.pdf); formulas in doc/STATS.md.
 */
#ifndef GLICKO2_H
#define GLICKO2_H

#include <stddef.h>

/* Glickman's suggested defaults (2013, step 1) and the scale factor. */
#define GLICKO2_INIT_RATING	1500.0
#define GLICKO2_INIT_RD		350.0
#define GLICKO2_INIT_SIGMA	0.06
#define GLICKO2_TAU		0.5
#define GLICKO2_EPSILON		0.000001
#define GLICKO2_SCALE		173.7178
/* A rating whose RD is at or above this is provisional (lichess's
 * threshold and comparison). */
#define GLICKO2_PROVISIONAL_RD	110.0

/* A rating on the Glicko scale (1500-centred). */
struct glicko2_rating {
	double		 r;		/* rating */
	double		 rd;		/* rating deviation */
	double		 sigma;		/* volatility */
};

/* The system's constants; glicko2_params_default fills Glickman's. */
struct glicko2_params {
	double		 tau;		/* constrains the volatility change */
	double		 epsilon;	/* convergence of the volatility */
	double		 max_rd;	/* RD never grows above this */
	double		 provisional_rd; /* RD at or above: provisional */
	struct glicko2_rating init;	/* a new player's rating */
};

/* One game of a period from one player's side. */
struct glicko2_game {
	double		 r;		/* opponent's rating, and */
	double		 rd;		/* RD, before the period */
	double		 score;		/* 1 win, 0.5 draw, 0 loss */
};

/* One game of a period between players a and b (indexes). */
struct glicko2_result {
	size_t		 a, b;
	double		 score_a;	/* a's score: 1, 0.5 or 0 */
};

/* The intermediate quantities of one update (Glickman's steps 3 to 8). */
struct glicko2_trace {
	double		 v;		/* estimated variance (step 3) */
	double		 delta;		/* estimated improvement (step 4) */
	double		 mu, phi;	/* new rating and RD, Glicko-2 scale */
	int		 iterations;	/* Illinois iterations (step 5) */
};

void	 glicko2_params_default(struct glicko2_params *);
int	 glicko2_update(const struct glicko2_params *,
	    const struct glicko2_rating *, const struct glicko2_game *, size_t,
	    struct glicko2_rating *, struct glicko2_trace *);
int	 glicko2_period(const struct glicko2_params *,
	    const struct glicko2_rating *, size_t,
	    const struct glicko2_result *, size_t, struct glicko2_rating *);
int	 glicko2_provisional(const struct glicko2_params *,
	    const struct glicko2_rating *);

#endif /* GLICKO2_H */
