/*
 * test-util-sort.c: the stable index sort (util-sort.c): ties keep index
 * order, an empty sort, a descending order, and random keys with many
 * ties against a stable insertion sort.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "lib/util-sort.h"

#define NMAX	300

/* Ascending by the unsigned keys in arg. */
static int
key_up(size_t i, size_t j, void *arg)
{
	const unsigned *k = arg;

	return (k[i] < k[j] ? -1 : k[i] > k[j]);
}

/* Descending by the unsigned keys in arg. */
static int
key_down(size_t i, size_t j, void *arg)
{
	return (key_up(j, i, arg));
}

/* Equal keys keep their index order, whichever way the keys go. */
static void
test_ties(void **state)
{
	const unsigned	 k[] = { 3, 1, 3, 1, 2, 1 };
	const size_t	 up[] = { 1, 3, 5, 4, 0, 2 };
	const size_t	 down[] = { 0, 2, 4, 1, 3, 5 };
	size_t		 ix[6];

	(void)state;
	util_index_sort(ix, 6, key_up, (void *)k);
	assert_memory_equal(ix, up, sizeof up);
	util_index_sort(ix, 6, key_down, (void *)k);
	assert_memory_equal(ix, down, sizeof down);
}

/* Nothing to sort: ix is not touched. */
static void
test_empty(void **state)
{
	unsigned	 k[1] = { 0 };
	size_t		 ix[1] = { 42 };

	(void)state;
	util_index_sort(ix, 0, key_up, k);
	assert_int_equal(ix[0], 42);
}

/* The order of a stable insertion sort of 0 .. n-1 by key_up. */
static void
insertion(size_t *want, size_t n, const unsigned *k)
{
	size_t	 i, j, x;

	for (i = 0; i < n; i++) {
		x = i;
		for (j = i; j > 0 && k[want[j - 1]] > k[x]; j--)
			want[j] = want[j - 1];
		want[j] = x;
	}
}

/* Random keys, few distinct values (many ties), against insertion. */
static void
test_random(void **state)
{
	unsigned	 k[NMAX];
	size_t		 ix[NMAX], want[NMAX], n, i, round;
	uint32_t	 x = 12345;

	(void)state;
	for (round = 0; round < 500; round++) {
		n = round % NMAX;
		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			k[i] = (x >> 16) % (1 + round % 7);
		}
		insertion(want, n, k);
		util_index_sort(ix, n, key_up, k);
		assert_memory_equal(ix, want, n * sizeof *ix);
	}
}

TU_MAIN("util-sort",
    cmocka_unit_test(test_ties),
    cmocka_unit_test(test_empty),
    cmocka_unit_test(test_random))
