/*
 * util-sort.c: a stable sort of n things by their indexes (util-sort.h).
 * The one place that calls qsort_r, whose argument order differs between
 * the C libraries.
 */
#include <stddef.h>
#include <stdlib.h>

#include "lib/util-sort.h"

/* The caller's comparator and array, for qsort_r. */
struct util_index_order {
	util_index_cmp_fn *cmp;
	void		*arg;
};

/* qsort_r's comparator: the caller's, then the indexes. */
static int
util_index_cmp(const void *x, const void *y, void *arg)
{
	const struct util_index_order *o = arg;
	size_t		 i = *(const size_t *)x;
	size_t		 j = *(const size_t *)y;
	int		 c;

	if ((c = o->cmp(i, j, o->arg)) != 0)
		return (c);
	return (i < j ? -1 : i > j);
}

/* Fills ix with 0 .. n-1 ordered by cmp, equal things in index order. */
void
util_index_sort(size_t *ix, size_t n, util_index_cmp_fn *cmp, void *arg)
{
	struct util_index_order o = { cmp, arg };
	size_t		 i;

	for (i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof *ix, util_index_cmp, &o);
}
