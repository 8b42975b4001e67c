/*
 * util-sort.h: a stable sort of n things by their indexes, a leaf every
 * layer may use.
 */
#ifndef UTIL_SORT_H
#define UTIL_SORT_H

#include <stddef.h>

/*
 * Compares things i and j of the caller's array arg: < 0 if i goes first,
 * > 0 if j does, 0 if they are equal in the order.
 */
typedef int	 util_index_cmp_fn(size_t i, size_t j, void *arg);

/*
 * Fills ix with 0 .. n-1 ordered by cmp, equal things in index order: the
 * order of a stable sort, whatever qsort does with ties.
 */
void	 util_index_sort(size_t *ix, size_t n, util_index_cmp_fn *cmp,
	    void *arg);

#endif /* UTIL_SORT_H */
