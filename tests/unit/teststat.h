/*
 * teststat.h: the tolerance check shared by the statistics tests
 * (test-ratings.c, test-matchstat.c, test-sprt.c).
 */
#ifndef TESTSTAT_H
#define TESTSTAT_H

#include <math.h>

#include "testutil.h"

/* Asserts |got - want| <= tol, printing both on failure. */
static inline void
near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol)) {
		print_error("%s: got %.10g, want %.10g (tol %g)\n", what, got,
		    want, tol);
		fail();
	}
}

#endif /* TESTSTAT_H */
