/*
 * game-word.h: the solver core's machine-word fast path (issue 28 §1).
 * Numbers stay GMP integers, but one in [0, 2^64) is read and, where its
 * integer already holds a limb, written through the limb itself, without
 * a call into libgmp; every other number takes the GMP path, with the
 * same result.  Only on a build whose GMP limb is one 64-bit word
 * without nails (every 64-bit target); elsewhere everything takes GMP.
 */
#ifndef GAME_WORD_H
#define GAME_WORD_H

#include <stdint.h>
#include <gmp.h>

#if GMP_NUMB_BITS == 64 && GMP_NAIL_BITS == 0 && \
    !defined(GAME_WORD_OFF)
#define GAME_WORD	1
#else
#define GAME_WORD	0
#endif

/* Returns 1 and sets *v if z is in [0, 2^64), else 0. */
static inline int
game_word_get(const mpz_t z, uint64_t *v)
{
	if (GAME_WORD && z->_mp_size == 0) {
		*v = 0;
		return (1);
	}
	if (GAME_WORD && z->_mp_size == 1) {
		*v = z->_mp_d[0];
		return (1);
	}
	return (0);
}

/* Sets z to v: through its limb if it has one, else by GMP. */
static inline void
game_word_set(mpz_t z, uint64_t v)
{
	if (GAME_WORD && z->_mp_alloc >= 1) {
		z->_mp_d[0] = (mp_limb_t)v;
		z->_mp_size = v != 0;
		return;
	}
	mpz_import(z, 1, -1, sizeof v, 0, 0, &v);
}

/* Sets dst to src (mpz_set), by the limb when src fits a word. */
static inline void
game_word_copy(mpz_t dst, const mpz_t src)
{
	uint64_t v;

	if (dst != src && game_word_get(src, &v) && dst->_mp_alloc >= 1)
		game_word_set(dst, v);
	else
		mpz_set(dst, src);
}

/* Returns the sign of a - b (as mpz_cmp, -1, 0 or 1). */
static inline int
game_word_cmp(const mpz_t a, const mpz_t b)
{
	uint64_t x, y;
	int	 c;

	if (game_word_get(a, &x) && game_word_get(b, &y))
		return (x < y ? -1 : x > y);
	c = mpz_cmp(a, b);
	return (c < 0 ? -1 : c > 0);
}

/* Returns the sign of z - v. */
static inline int
game_word_cmp_u(const mpz_t z, uint64_t v)
{
	uint64_t x;
	mpz_t	 t;
	int	 c;

	if (game_word_get(z, &x))
		return (x < v ? -1 : x > v);
	if (GAME_WORD)		/* z < 0 or z >= 2^64 > v */
		return (mpz_sgn(z) < 0 ? -1 : 1);
	mpz_init(t);
	mpz_import(t, 1, -1, sizeof v, 0, 0, &v);
	c = mpz_cmp(z, t);
	mpz_clear(t);
	return (c < 0 ? -1 : c > 0);
}

/*
 * mpz_init and mpz_clear without a call while the integer holds no limb:
 * GMP 6.2's own mpz_init allocates nothing and points the integer at a
 * read-only limb that no GMP function writes (a write reallocates first,
 * as alloc is 0); game_word_init does the same with its own, and
 * game_word_clear calls mpz_clear only when GMP allocated.  Before 6.2,
 * both call GMP.
 */
#if GAME_WORD && __GNU_MP_RELEASE >= 60200
static const mp_limb_t game_word_nolimb = 0;
#define GAME_WORD_LAZY	1
#else
#define GAME_WORD_LAZY	0
#endif

/*
 * Makes z a read-only integer holding v in *limb (as mpz_roinit_n, without
 * the call): for a constant that GMP only reads, never written or cleared.
 * Returns 1, or 0 (z untouched) on a build without the fast path.
 */
static inline int
game_word_roinit(mpz_t z, mp_limb_t *limb, uint64_t v)
{
	if (!GAME_WORD)
		return (0);
	*limb = (mp_limb_t)v;
	z->_mp_alloc = 0;
	z->_mp_size = v != 0;
	z->_mp_d = limb;
	return (1);
}

static inline void
game_word_init(mpz_t z)
{
#if GAME_WORD_LAZY
	z->_mp_alloc = 0;
	z->_mp_size = 0;
	z->_mp_d = (mp_limb_t *)&game_word_nolimb;
#else
	mpz_init(z);
#endif
}

static inline void
game_word_clear(mpz_t z)
{
	if (!GAME_WORD_LAZY || z->_mp_alloc != 0)
		mpz_clear(z);
}

#endif /* GAME_WORD_H */
