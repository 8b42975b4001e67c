/*
 * sprt.h: the sequential probability ratio test of H0: elo = elo0 against
 * H1: elo = elo1, as fastchess runs it: the generalized log-likelihood
 * ratio of trinomial or pentanomial counts (Michel Van den Bergh's
 * formulas) under the logistic or the normalized Elo model, and Wald's
 * bounds.  Pure arithmetic: no I/O, no globals.  doc/STATS.md.
 */
#ifndef SPRT_H
#define SPRT_H

#include "stats/matchstat.h"
#include "lib/util.h"

/* How an Elo difference becomes an expected score. */
enum sprt_model {
	SPRT_LOGISTIC = 1,	/* score 1 / (1 + 10^(-elo / 400)) */
	SPRT_NORMALIZED,	/* (score - 1/2) / sigma = nelo ln 10 / 800 */
};

/* What the test says after the last sample. */
enum sprt_verdict {
	SPRT_CONTINUE = 0,
	SPRT_H0,		/* accept H0: stop, elo0 */
	SPRT_H1,		/* accept H1: stop, elo1 */
};

/* Why a test was refused, and the message (sprt_strerror). */
#define SPRT_ERRORS(X)							\
	X(SPRT_OK, "no error")						\
	/* elo0 >= elo1, or not finite */				\
	X(SPRT_E_ELO, "elo0 must be less than elo1")			\
	X(SPRT_E_ALPHA, "alpha must be between 0 and 1")		\
	X(SPRT_E_BETA, "beta must be between 0 and 1")			\
	X(SPRT_E_SUM, "alpha + beta must be less than 1")		\
	X(SPRT_E_MODEL, "the model must be logistic or normalized")	\
	/* |elo| above SPRT_MAX_ELO */					\
	X(SPRT_E_RANGE, "elo0 and elo1 must be within -1000 and 1000")
enum sprt_err { SPRT_ERRORS(ENUM_X_ID) };

/* elo0 and elo1 are at most this far from 0. */
#define SPRT_MAX_ELO	1000.0

/* A test: its parameters and Wald's bounds on the LLR. */
struct sprt {
	enum sprt_model	 model;
	double		 elo0, elo1;
	double		 alpha, beta;
	double		 lower;		/* log(beta / (1 - alpha)) */
	double		 upper;		/* log((1 - beta) / alpha) */
};

enum sprt_err	 sprt_init(struct sprt *, enum sprt_model, double, double,
		    double, double);
const char	*sprt_strerror(enum sprt_err);
int		 sprt_llr_wdl(const struct sprt *,
		    const struct matchstat_wdl *, double *);
int		 sprt_llr_penta(const struct sprt *,
		    const struct matchstat_penta *, double *);
enum sprt_verdict sprt_verdict(const struct sprt *, double);
/* "continue", "H0" or "H1": the verdict's word in every output. */
const char	*sprt_verdict_name(enum sprt_verdict);

#endif /* SPRT_H */
