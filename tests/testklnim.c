/*
 * testklnim.c: what the two K-L-Nim test programs share (testklnim.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

#include <cmocka.h>

#include "testklnim.h"

/*
 * Asserts that a sorted move set lists, per pile, sorted, disjoint and (if
 * maximal) non-adjacent ranges of single-change moves.  k == l lists single
 * moves, which may be adjacent (k = 1: 2q and 2q + 1).
 */
void
check_canonical(const struct game_moveset *ms, int maximal)
{
	const struct game_moveset_ent *e, *f;
	mpz_t		 t;
	size_t		 i;

	mpz_init(t);
	for (i = 0; i < ms->n; i++) {
		e = &ms->v[i];
		assert_int_equal(e->mv.n, 1);
		assert_int_equal(e->mv.ch[0].comp, 0);
		if (e->ranged)
			assert_true(mpz_cmp(e->mv.ch[0].val, e->hi) < 0);
		if (i + 1 == ms->n)
			break;
		f = &ms->v[i + 1];
		assert_true(e->mv.ch[0].idx <= f->mv.ch[0].idx);
		if (e->mv.ch[0].idx != f->mv.ch[0].idx)
			continue;
		mpz_add_ui(t, e->ranged ? e->hi : e->mv.ch[0].val,
		    maximal ? 1 : 0);
		assert_true(mpz_cmp(t, f->mv.ch[0].val) < 0);
	}
	mpz_clear(t);
}
