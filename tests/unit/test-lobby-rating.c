/*
 * test-lobby-rating.c: the Glicko-2 ratings of the log and the lobby
 * (rtable.c), kept in an array found through a hash index, against an
 * independent replay over plain arrays searched linearly, with its own
 * Glicko-2 code (glickoref.h): the same games give the same ratings, RDs
 * and volatilities (within 1e-6, 1e-6 and 1e-9: the two codes round
 * differently, and 20,000 games drift apart by about 2e-9), for enough
 * players that the index grows several times; a copy of the table is
 * equal to it, exactly; and the provisional mark is RD > 110.
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

#include "stats/rtable.h"
#include "glickoref.h"

#define NPLAYERS	GLICKOREF_MAX
#define NGAMES		20000

static void
test_replay(void **state)
{
	struct rtable	 e, c;
	struct rtable_entry *p;
	struct glickoref *f = xcalloc(1, sizeof *f);
	char		 p1[16], p2[16];
	unsigned long	 seed = 12345;
	size_t		 i;
	int		 a, b;

	(void)state;
	rtable_init(&e);
	rtable_init(&c);
	for (i = 0; i < NGAMES; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		a = (int)((seed >> 33) % NPLAYERS);
		b = (int)((seed >> 13) % NPLAYERS);
		if (a == b)
			b = (b + 1) % NPLAYERS;
		snprintf(p1, sizeof p1, "p%d", a);
		snprintf(p2, sizeof p2, "p%d", b);
		rtable_rate(&e, p1, p2, (seed >> 7) % 2 ? 1 : 2);
		glickoref_rate(f, p1, p2, (seed >> 7) % 2 ? 1 : 2);
	}
	assert_int_equal(e.n, f->n);
	rtable_copy(&c, &e);
	for (i = 0; i < f->n; i++) {
		assert_non_null(p = rtable_find(&e, f->name[i]));
		glickoref_same(f, i, &p->g, p->games);
		assert_int_equal(rtable_provisional(&p->g), f->rd[i] > 110.0);
		assert_string_equal(e.v[i].name, f->name[i]);
		assert_non_null(p = rtable_find(&c, f->name[i]));
		assert_true(p->g.r == e.v[i].g.r && p->g.rd == e.v[i].g.rd &&
		    p->g.sigma == e.v[i].g.sigma);
		assert_int_equal(p->games, f->games[i]);
	}
	assert_null(rtable_find(&e, "nobody"));
	rtable_free(&e);
	rtable_free(&c);
	free(f);
}

TU_MAIN("lobby-rating",
    cmocka_unit_test(test_replay),
)
