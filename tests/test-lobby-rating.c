/*
 * test-lobby-rating.c: the Elo ratings of the log and the lobby (elo.c),
 * kept in an array found through a hash index, against an independent
 * replay over plain arrays searched linearly: the same games give the same
 * ratings, for enough players that the index grows several times; and a
 * copy of the table is equal to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "testutil.h"

#include "elo.h"
#include "eloref.h"

#define NPLAYERS	ELOREF_MAX
#define NGAMES		20000

static void
test_replay(void **state)
{
	struct elo	 e, c;
	struct elo_entry *p;
	struct eloref	*f = xcalloc(1, sizeof *f);
	char		 p1[16], p2[16];
	unsigned long	 seed = 12345;
	size_t		 i;
	int		 a, b;

	(void)state;
	elo_init(&e);
	elo_init(&c);
	for (i = 0; i < NGAMES; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		a = (int)((seed >> 33) % NPLAYERS);
		b = (int)((seed >> 13) % NPLAYERS);
		if (a == b)
			b = (b + 1) % NPLAYERS;
		snprintf(p1, sizeof p1, "p%d", a);
		snprintf(p2, sizeof p2, "p%d", b);
		elo_rate(&e, p1, p2, (seed >> 7) % 2 ? 1 : 2);
		eloref_rate(f, p1, p2, (seed >> 7) % 2 ? 1 : 2);
	}
	assert_int_equal(e.n, f->n);
	elo_copy(&c, &e);
	for (i = 0; i < f->n; i++) {
		assert_non_null(p = elo_find(&e, f->name[i]));
		assert_true(p->r == f->r[i]);
		assert_int_equal(p->games, f->games[i]);
		assert_string_equal(e.v[i].name, f->name[i]);
		assert_non_null(p = elo_find(&c, f->name[i]));
		assert_true(p->r == f->r[i]);
		assert_int_equal(p->games, f->games[i]);
	}
	assert_null(elo_find(&e, "nobody"));
	elo_free(&e);
	elo_free(&c);
	free(f);
}

TU_MAIN("lobby-rating",
    cmocka_unit_test(test_replay),
)
