/*
 * game-wythoff.c: Wythoff's game, Fraenkel's t-Wythoff and (K,t)-Wythoff
 * (games.md §3-5).  Position: two piles x, y.  Move: remove a positive
 * multiple of K from one pile, or from both with removals that differ by
 * less than t (rules R1 of §10).  On each residue class mod K the game is
 * r-Wythoff on the quotients (x div K, y div K), r = ceil(t / K), so every
 * computation below works on the quotients and lifts the answer back.
 *
 * Notation for r-Wythoff: D = r^2 + 4, alpha = (2 - r + sqrt(D)) / 2,
 * A_n = floor(n alpha) = (n (2 - r) + floor(n sqrt(D))) div 2,
 * B_n = A_n + r n; the P-positions are (A_n, B_n) and (B_n, A_n).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/*
 * Guard bits G of the scaled roots floor(v sqrt(D) 2^G).  One such root per
 * pile yields every other floor the winning moves need; when the error
 * bounds straddle an integer (probability about 4 / 2^G) an exact root
 * decides.
 */
#ifndef WYTHOFF_GUARD
#define WYTHOFF_GUARD	16
#endif

/* Bits in one word of a Grundy table bit set. */
#define WYTHOFF_WBITS	(sizeof(unsigned long) * CHAR_BIT)

/*
 * Grundy values of r-Wythoff on [0..cols] x [0..rows].  The first Grundy
 * query that needs them builds them (lazily: P/N and winning moves never
 * do); clones share one table by reference count, so, like the state
 * itself, a table must not be used from two threads at once.
 */
struct wythoff_tab {
	size_t		 refs;
	unsigned long	 cols;
	unsigned long	 rows;
	unsigned int	*sg;		/* sg[y * (cols + 1) + x], or NULL */
};

/* Wythoff state: parameters, constants derived from them, the piles. */
struct wythoff {
	mpz_t		 k;		/* every removal is a multiple of K */
	mpz_t		 t;		/* diagonal removals differ by < t */
	mpz_t		 r;		/* ceil(t / K) */
	mpz_t		 rm2;		/* r - 2 */
	mpz_t		 r2;		/* 2 r */
	mpz_t		 d;		/* D = r^2 + 4 */
	mpz_t		 s1;		/* floor(sqrt(D) 2^G) */
	mpz_t		 den;		/* r 2^G */
	mpz_t		 pile[2];
	unsigned long	 bound;		/* Grundy table bound (max_wythoff) */
	struct wythoff_tab *tab;
	const struct game_tables *tables; /* table cache, or NULL */
};

/* A position reduced to r-Wythoff: sorted quotients and their residues. */
struct wythoff_q {
	mpz_t		 a;		/* the smaller quotient */
	mpz_t		 b;		/* the larger quotient */
	mpz_t		 ra;		/* residue of a's pile mod K */
	mpz_t		 rb;		/* residue of b's pile mod K */
	size_t		 ia;		/* pile index (1 or 2) of a */
	size_t		 ib;		/* pile index of b */
};

/* Allocates a state with K = t = 1 and empty piles. */
static struct wythoff *
wythoff_new(void)
{
	struct wythoff	*st = xcalloc(1, sizeof *st);

	mpz_init_set_ui(st->k, 1);
	mpz_init_set_ui(st->t, 1);
	mpz_inits(st->r, st->rm2, st->r2, st->d, st->s1, st->den, st->pile[0],
	    st->pile[1], NULL);
	return (st);
}

/* Frees the state, dropping its reference to the Grundy table. */
static void
wythoff_free(void *p)
{
	struct wythoff	*st = p;

	if (st->tab != NULL && --st->tab->refs == 0) {
		free(st->tab->sg);
		free(st->tab);
	}
	mpz_clears(st->k, st->t, st->r, st->rm2, st->r2, st->d, st->s1,
	    st->den, st->pile[0], st->pile[1], NULL);
	free(st);
}

/* Computes the constants of the quotient game from K and t. */
static void
wythoff_derive(struct wythoff *st)
{
	mpz_cdiv_q(st->r, st->t, st->k);
	mpz_sub_ui(st->rm2, st->r, 2);
	mpz_mul_2exp(st->r2, st->r, 1);
	mpz_mul(st->d, st->r, st->r);
	mpz_add_ui(st->d, st->d, 4);
	mpz_mul_2exp(st->s1, st->d, 2 * WYTHOFF_GUARD);
	mpz_sqrt(st->s1, st->s1);
	mpz_mul_2exp(st->den, st->r, WYTHOFF_GUARD);
}

/* Parses the value of key K or t: an integer >= 1. */
static int
wythoff_parse_param(mpz_t z, const char *tok, const char *what,
    const struct game_limits *lim, struct game_error *err)
{
	if (game_parse_num(z, tok, what, lim, err) != 0)
		return (-1);
	if (mpz_sgn(z) == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s '%.40s': must be at least 1", what, tok));
	return (0);
}

/* Parses wythoff [K=VALUE] [t=VALUE] X Y. */
static int
wythoff_parse(void **stp, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	struct game_key	 keys[] = { { "K", NULL }, { "t", NULL } };
	struct wythoff	*st;
	int		 pos, a;

	if (game_parse_keys("wythoff", argc, argv, keys, 2, &pos, err) != 0)
		return (-1);
	for (a = pos; a < argc; a++)
		if (strchr(argv[a], '=') != NULL)
			return (game_set_error(err, GAME_ESYNTAX,
			    "wythoff: '%.40s': keys must come before the piles",
			    argv[a]));
	if (argc - pos == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "wythoff: missing position: give two piles X Y"));
	if (argc - pos == 1)
		return (game_set_error(err, GAME_ESYNTAX,
		    "wythoff: one pile given: the position is two piles X Y"));
	if (argc - pos > 2)
		return (game_set_error(err, GAME_ESYNTAX,
		    "wythoff: %d piles given: the position is two piles X Y",
		    argc - pos));
	st = wythoff_new();
	if ((keys[0].val != NULL && wythoff_parse_param(st->k, keys[0].val,
	    "wythoff: K", lim, err) != 0) ||
	    (keys[1].val != NULL && wythoff_parse_param(st->t, keys[1].val,
	    "wythoff: t", lim, err) != 0) ||
	    game_parse_num(st->pile[0], argv[pos], "pile 1", lim, err) != 0 ||
	    game_parse_num(st->pile[1], argv[pos + 1], "pile 2", lim,
	    err) != 0) {
		wythoff_free(st);
		return (-1);
	}
	wythoff_derive(st);
	st->bound = lim->max_wythoff;
	st->tables = lim->tables;
	st->tab = xcalloc(1, sizeof *st->tab);
	st->tab->refs = 1;
	*stp = st;
	return (0);
}

/* Returns a copy sharing the Grundy table. */
static void *
wythoff_clone(const void *p)
{
	const struct wythoff *st = p;
	struct wythoff	*c = wythoff_new();

	mpz_set(c->k, st->k);
	mpz_set(c->t, st->t);
	mpz_set(c->r, st->r);
	mpz_set(c->rm2, st->rm2);
	mpz_set(c->r2, st->r2);
	mpz_set(c->d, st->d);
	mpz_set(c->s1, st->s1);
	mpz_set(c->den, st->den);
	mpz_set(c->pile[0], st->pile[0]);
	mpz_set(c->pile[1], st->pile[1]);
	c->bound = st->bound;
	c->tables = st->tables;
	c->tab = st->tab;
	c->tab->refs++;
	return (c);
}

/* Prints wythoff [K=VALUE] [t=VALUE] X Y, keys only when not 1. */
static void
wythoff_print(const void *p, struct buf *b)
{
	const struct wythoff *st = p;

	buf_puts(b, "wythoff");
	if (mpz_cmp_ui(st->k, 1) != 0) {
		buf_puts(b, " K=");
		buf_mpz(b, st->k);
	}
	if (mpz_cmp_ui(st->t, 1) != 0) {
		buf_puts(b, " t=");
		buf_mpz(b, st->t);
	}
	buf_putc(b, ' ');
	game_piles_print(st->pile, 2, b);
}

/* Formats z for an error message; numbers over 40 digits are elided. */
static const char *
wythoff_numstr(const mpz_t z, char *out, size_t len)
{
	if (mpz_sizeinbase(z, 10) > 40)
		snprintf(out, len, "(a number of over 40 digits)");
	else
		gmp_snprintf(out, len, "%Zd", z);
	return (out);
}

/* Checks one change: lowers pile idx by a positive multiple of K. */
static int
wythoff_check_change(const struct wythoff *st, const struct game_change *c,
    mpz_t removed, struct game_error *err)
{
	mpz_srcptr	 pl = st->pile[c->idx - 1];
	char		 n1[64], n2[64];

	if (mpz_cmp(c->val, pl) >= 0)
		return (game_set_error(err, GAME_EILLEGAL,
		    "pile %zu: the new value must be smaller than the current "
		    "%s", c->idx, wythoff_numstr(pl, n1, sizeof n1)));
	mpz_sub(removed, pl, c->val);
	if (!mpz_divisible_p(removed, st->k))
		return (game_set_error(err, GAME_EILLEGAL,
		    "pile %zu: removing %s is not a multiple of K=%s", c->idx,
		    wythoff_numstr(removed, n1, sizeof n1),
		    wythoff_numstr(st->k, n2, sizeof n2)));
	return (0);
}

/* Checks a move: one pile, or both with removals differing by < t. */
static int
wythoff_check(const void *p, const struct game_move *m,
    struct game_error *err)
{
	const struct wythoff *st = p;
	char		 n1[64], n2[64], n3[64], n4[64];
	mpz_t		 rm[2], diff;
	size_t		 i;
	int		 rv = 0;

	if (m->n < 1 || m->n > 2)
		return (game_set_error(err, GAME_EILLEGAL,
		    "a move changes one pile or both, this one changes %zu",
		    m->n));
	for (i = 0; i < m->n; i++)
		if (m->ch[i].idx < 1 || m->ch[i].idx > 2)
			return (game_set_error(err, GAME_EILLEGAL,
			    "index %zu out of range: the position has 2 piles",
			    m->ch[i].idx));
	if (m->n == 2 && m->ch[0].idx == m->ch[1].idx)
		return (game_set_error(err, GAME_EILLEGAL,
		    "index %zu is changed twice", m->ch[0].idx));
	mpz_inits(rm[0], rm[1], diff, NULL);
	for (i = 0; i < m->n && rv == 0; i++)
		rv = wythoff_check_change(st, &m->ch[i], rm[i], err);
	if (rv == 0 && m->n == 2) {
		mpz_sub(diff, rm[0], rm[1]);
		mpz_abs(diff, diff);
		if (mpz_cmp(diff, st->t) >= 0)
			rv = game_set_error(err, GAME_EILLEGAL,
			    "diagonal move: the removals %s and %s differ by "
			    "%s, which must be less than t=%s",
			    wythoff_numstr(rm[0], n1, sizeof n1),
			    wythoff_numstr(rm[1], n2, sizeof n2),
			    wythoff_numstr(diff, n3, sizeof n3),
			    wythoff_numstr(st->t, n4, sizeof n4));
	}
	mpz_clears(rm[0], rm[1], diff, NULL);
	return (rv);
}

/* Applies a checked move. */
static void
wythoff_apply(void *p, const struct game_move *m)
{
	struct wythoff	*st = p;
	size_t		 i;

	for (i = 0; i < m->n; i++)
		mpz_set(st->pile[m->ch[i].idx - 1], m->ch[i].val);
}

/* Returns 1 when both piles are below K. */
static int
wythoff_terminal(const void *p)
{
	const struct wythoff *st = p;

	return (mpz_cmp(st->pile[0], st->k) < 0 &&
	    mpz_cmp(st->pile[1], st->k) < 0);
}

/* Reduces the position to sorted quotients and residues. */
static void
wythoff_q_init(const struct wythoff *st, struct wythoff_q *q)
{
	size_t	 i, j;

	mpz_inits(q->a, q->b, q->ra, q->rb, NULL);
	i = mpz_cmp(st->pile[0], st->pile[1]) <= 0 ? 0 : 1;
	j = 1 - i;
	q->ia = i + 1;
	q->ib = j + 1;
	if (mpz_cmp_ui(st->k, 1) == 0) {
		mpz_set(q->a, st->pile[i]);
		mpz_set(q->b, st->pile[j]);
	} else {
		mpz_fdiv_qr(q->a, q->ra, st->pile[i], st->k);
		mpz_fdiv_qr(q->b, q->rb, st->pile[j], st->k);
	}
}

/* Frees a reduced position. */
static void
wythoff_q_clear(struct wythoff_q *q)
{
	mpz_clears(q->a, q->b, q->ra, q->rb, NULL);
}

/* Sets z to the pile value of quotient v with residue res: v K + res. */
static void
wythoff_lift(const struct wythoff *st, mpz_t z, const mpz_t v,
    const mpz_t res)
{
	mpz_mul(z, v, st->k);
	mpz_add(z, z, res);
}

/* Appends the move to quotients va, vb (NULL: unchanged), idx 1 first. */
static void
wythoff_add(const struct wythoff *st, const struct wythoff_q *q,
    struct game_moveset *ms, const mpz_t va, const mpz_t vb)
{
	struct game_move *m = game_moveset_add(ms);
	size_t	 i;

	for (i = 1; i <= 2; i++) {
		if (va != NULL && q->ia == i) {
			game_move_add(m, 0, i, va);
			wythoff_lift(st, m->ch[m->n - 1].val, va, q->ra);
		}
		if (vb != NULL && q->ib == i) {
			game_move_add(m, 0, i, vb);
			wythoff_lift(st, m->ch[m->n - 1].val, vb, q->rb);
		}
	}
}

/* Sets z to floor(v sqrt(D)) with an exact square root. */
static void
wythoff_isqrtd(const struct wythoff *st, mpz_t z, const mpz_t v)
{
	mpz_mul(z, v, v);
	mpz_mul(z, z, st->d);
	mpz_sqrt(z, z);
}

/* Sets z to the scaled root floor(v sqrt(D) 2^G). */
static void
wythoff_scaled(const struct wythoff *st, mpz_t z, const mpz_t v)
{
	mpz_mul(z, v, v);
	mpz_mul(z, z, st->d);
	mpz_mul_2exp(z, z, 2 * WYTHOFF_GUARD);
	mpz_sqrt(z, z);
}

/* Sets an to A_n = (n (2 - r) + fl) div 2, given fl = floor(n sqrt(D)). */
static void
wythoff_a(const struct wythoff *st, mpz_t an, const mpz_t n, const mpz_t fl)
{
	mpz_mul(an, n, st->rm2);
	mpz_sub(an, fl, an);
	mpz_fdiv_q_2exp(an, an, 1);
}

/*
 * Sets p to the partner of x >= 1 in r-Wythoff (the other coordinate of the
 * P-position containing x), given sx = floor(x sqrt(D) 2^G).  With
 * f = floor(x / alpha) = (x (r - 2) + floor(x sqrt(D))) div 2r, x is A_(f+1)
 * iff floor((x + 1) / alpha) = f + 1, and otherwise x = B_(x-f) (§4).  The
 * numerator for x + 1 exceeds the one for x by r - 2 + delta, where
 * delta = floor((x + 1) sqrt(D)) - floor(x sqrt(D)) comes from the low bits
 * of sx plus s1 unless they end in G ones.
 */
static void
wythoff_partner(const struct wythoff *st, mpz_t p, const mpz_t x,
    const mpz_t sx)
{
	mpz_t	 fl, f, rem, delta;

	mpz_inits(fl, f, rem, delta, NULL);
	mpz_fdiv_q_2exp(fl, sx, WYTHOFF_GUARD);
	mpz_mul(f, x, st->rm2);
	mpz_add(f, f, fl);
	mpz_fdiv_qr(f, rem, f, st->r2);
	mpz_fdiv_r_2exp(delta, sx, WYTHOFF_GUARD);
	mpz_add(delta, delta, st->s1);
	mpz_add_ui(p, delta, 1);
	if (mpz_divisible_2exp_p(p, WYTHOFF_GUARD)) {
		/* The bounds straddle an integer: take the exact root. */
		mpz_add_ui(p, x, 1);
		wythoff_isqrtd(st, delta, p);
		mpz_sub(delta, delta, fl);
	} else
		mpz_fdiv_q_2exp(delta, delta, WYTHOFF_GUARD);
	mpz_add(rem, rem, delta);
	mpz_sub_ui(rem, rem, 2);
	if (mpz_cmp(rem, st->r) >= 0) {
		/* x = A_(f+1); the partner is B_(f+1) = x + r (f + 1). */
		mpz_add_ui(f, f, 1);
		mpz_set(p, x);
		mpz_addmul(p, st->r, f);
	} else {
		/* x = B_m, m = x - f; the partner is A_m = x - r m. */
		mpz_sub(f, x, f);
		mpz_set(p, x);
		mpz_submul(p, st->r, f);
	}
	mpz_clears(fl, f, rem, delta, NULL);
}

/*
 * Sets fl to floor(v sqrt(D)) for v = (b - a - c) / r >= 0, given the scaled
 * roots sa, sb of a and b.  Then v sqrt(D) r 2^G lies strictly between
 * lo = sb - sa - c s1 - |c| - 1 and lo + 2 |c| + 2, which fixes the floor
 * unless that interval contains a multiple of r 2^G; then an exact root
 * decides.
 */
static void
wythoff_diag_floor(const struct wythoff *st, mpz_t fl, const mpz_t v,
    const mpz_t sa, const mpz_t sb, const mpz_t c)
{
	mpz_t	 lo, rem, w;

	if (mpz_sgn(v) == 0) {
		mpz_set_ui(fl, 0);
		return;
	}
	mpz_inits(lo, rem, w, NULL);
	mpz_abs(w, c);
	mpz_sub(lo, sb, sa);
	mpz_submul(lo, c, st->s1);
	mpz_sub(lo, lo, w);
	mpz_sub_ui(lo, lo, 1);
	mpz_fdiv_qr(fl, rem, lo, st->den);
	/* Determined iff lo + width <= (fl + 1) r 2^G. */
	mpz_mul_2exp(w, w, 1);
	mpz_add_ui(w, w, 2);
	mpz_add(rem, rem, w);
	if (mpz_cmp(rem, st->den) > 0)
		wythoff_isqrtd(st, fl, v);
	mpz_clears(lo, rem, w, NULL);
}

/* Returns GAME_P iff the quotients form an r-Wythoff P-position (§5). */
static int
wythoff_outcome(const void *p, struct game_error *err)
{
	const struct wythoff *st = p;
	struct wythoff_q q;
	mpz_t		 n, rho, fl, an;
	int		 out = GAME_N;

	(void)err;
	wythoff_q_init(st, &q);
	mpz_inits(n, rho, fl, an, NULL);
	mpz_sub(n, q.b, q.a);
	mpz_fdiv_qr(n, rho, n, st->r);
	if (mpz_sgn(rho) == 0) {
		wythoff_isqrtd(st, fl, n);
		wythoff_a(st, an, n, fl);
		if (mpz_cmp(an, q.a) == 0)
			out = GAME_P;
	}
	mpz_clears(n, rho, fl, an, NULL);
	wythoff_q_clear(&q);
	return (out);
}

/*
 * Appends every winning move (§4, lifted per §5), for a <= b: b to the
 * partner of a, a to the partner of b, and the diagonal moves to
 * (A_n, B_n) for n = floor(d / r) and ceil(d / r), d = b - a.  Costs two
 * scaled square roots, plus an exact one with probability O(2^-G).
 */
static int
wythoff_winning(const void *p, struct game_moveset *ms,
    struct game_error *err)
{
	const struct wythoff *st = p;
	struct wythoff_q q;
	mpz_t		 sa, sb, n, rho, fl, an, bn;
	int		 i;

	(void)err;
	wythoff_q_init(st, &q);
	if (mpz_sgn(q.b) == 0) {
		wythoff_q_clear(&q);
		return (0);
	}
	mpz_inits(sa, sb, n, rho, fl, an, bn, NULL);
	if (mpz_sgn(q.a) != 0)
		wythoff_scaled(st, sa, q.a);
	wythoff_scaled(st, sb, q.b);
	mpz_sub(n, q.b, q.a);
	mpz_fdiv_qr(n, rho, n, st->r);
	wythoff_diag_floor(st, fl, n, sa, sb, rho);
	wythoff_a(st, an, n, fl);
	if (mpz_sgn(rho) == 0 && mpz_cmp(an, q.a) == 0)
		goto done;
	/* b to the partner of a. */
	if (mpz_sgn(q.a) == 0)
		mpz_set_ui(bn, 0);
	else
		wythoff_partner(st, bn, q.a, sa);
	if (mpz_cmp(bn, q.b) < 0)
		wythoff_add(st, &q, ms, NULL, bn);
	/* a to the partner of b. */
	if (mpz_sgn(q.a) != 0) {
		wythoff_partner(st, bn, q.b, sb);
		if (mpz_cmp(bn, q.a) < 0)
			wythoff_add(st, &q, ms, bn, NULL);
	}
	/* Diagonally to (A_n, B_n), n = floor(d / r), then n + 1. */
	for (i = 0; i < 2; i++) {
		if (i == 1) {
			if (mpz_sgn(rho) == 0)
				break;
			mpz_add_ui(n, n, 1);
			mpz_sub(rho, rho, st->r);
			wythoff_diag_floor(st, fl, n, sa, sb, rho);
			wythoff_a(st, an, n, fl);
		}
		mpz_set(bn, an);
		mpz_addmul(bn, st->r, n);
		if (mpz_cmp(an, q.a) < 0 && mpz_cmp(bn, q.b) < 0)
			wythoff_add(st, &q, ms, an, bn);
	}
done:
	mpz_clears(sa, sb, n, rho, fl, an, bn, NULL);
	wythoff_q_clear(&q);
	return (0);
}

/* Sets or clears bit v of a bit set. */
static void
wythoff_bit(unsigned long *bits, unsigned int v, int on)
{
	if (on)
		bits[v / WYTHOFF_WBITS] |= 1UL << (v % WYTHOFF_WBITS);
	else
		bits[v / WYTHOFF_WBITS] &= ~(1UL << (v % WYTHOFF_WBITS));
}

/*
 * Fills tab with the Grundy values of r-Wythoff on [0..cols] x [0..rows]
 * (every option of a cell stays inside).  SG(x, y) is the mex over the row
 * (x' < x), the column (y' < y) and the band E(x, y) of cells x' < x,
 * y' < y with |(x' - y') - (x - y)| < r.  E(x, y) is E(x - 1, y - 1) plus
 * the frontier (x-r..x-1, y-1) and (x-1, y-r..y-2): sliding windows along
 * the previous row and along each column.  A row or a column never holds a
 * value twice (its cells are options of each other), so a window is a bit
 * set.  An option has a smaller x + y, so SG(x, y) <= x + y and
 * cols + rows + 1 bits suffice.  Time O(cells * bits / word); memory: the
 * table plus O(cols * (cols + rows)) bits.
 */
static void
wythoff_tab_build(struct wythoff_tab *tab, unsigned long cols,
    unsigned long rows, const mpz_t r)
{
	unsigned long	*colbits, *cwbits, *rowbits, *rwbits;
	unsigned long	*eprev, *ecur, *e, *sw, w;
	unsigned int	*sg, v;
	size_t		 nc, nw, rc, x, y, i;

	nc = cols + 1;
	nw = (cols + rows + 1 + WYTHOFF_WBITS - 1) / WYTHOFF_WBITS;
	rc = cols + rows + 2;
	if (mpz_cmp_ui(r, rc) < 0)
		rc = mpz_get_ui(r);
	sg = xcalloc(nc * (rows + 1), sizeof *sg);
	colbits = xcalloc(nc * nw, sizeof *colbits);
	cwbits = xcalloc(nc * nw, sizeof *cwbits);
	eprev = xcalloc(nc * nw, sizeof *eprev);
	ecur = xcalloc(nc * nw, sizeof *ecur);
	rowbits = xcalloc(nw, sizeof *rowbits);
	rwbits = xcalloc(nw, sizeof *rwbits);
	for (y = 0; y <= rows; y++) {
		/* Column windows move on to rows y - rc .. y - 2. */
		if (rc >= 2 && y >= 2)
			for (x = 0; x < nc; x++) {
				wythoff_bit(cwbits + x * nw,
				    sg[(y - 2) * nc + x], 1);
				if (y >= rc + 1)
					wythoff_bit(cwbits + x * nw,
					    sg[(y - 1 - rc) * nc + x], 0);
			}
		memset(rowbits, 0, nw * sizeof *rowbits);
		memset(rwbits, 0, nw * sizeof *rwbits);
		for (x = 0; x < nc; x++) {
			e = ecur + x * nw;
			if (x >= 1 && y >= 1) {
				/* The row window covers x - rc .. x - 1. */
				wythoff_bit(rwbits, sg[(y - 1) * nc + x - 1],
				    1);
				if (x >= rc + 1)
					wythoff_bit(rwbits,
					    sg[(y - 1) * nc + x - 1 - rc], 0);
				for (i = 0; i < nw; i++)
					e[i] = eprev[(x - 1) * nw + i] |
					    rwbits[i] |
					    cwbits[(x - 1) * nw + i];
			} else
				memset(e, 0, nw * sizeof *e);
			for (i = 0; (w = e[i] | rowbits[i] |
			    colbits[x * nw + i]) == ~0UL; i++)
				;
			for (v = 0; w & 1; v++)
				w >>= 1;
			v += (unsigned int)(i * WYTHOFF_WBITS);
			sg[y * nc + x] = v;
			wythoff_bit(rowbits, v, 1);
			wythoff_bit(colbits + x * nw, v, 1);
		}
		sw = eprev;
		eprev = ecur;
		ecur = sw;
	}
	free(colbits);
	free(cwbits);
	free(eprev);
	free(ecur);
	free(rowbits);
	free(rwbits);
	free(tab->sg);
	tab->sg = sg;
	tab->cols = cols;
	tab->rows = rows;
}

/* Returns the tabled Grundy value of quotients (x, y). */
static unsigned int
wythoff_tab_get(const struct wythoff_tab *tab, unsigned long x,
    unsigned long y)
{
	unsigned long	 s;

	if (x > y) {
		s = x;
		x = y;
		y = s;
	}
	return (tab->sg[(size_t)y * (tab->cols + 1) + x]);
}

/*
 * Loads a square Grundy table from a cached blob (game-table.c): its side
 * N, then SG(x, y) for 0 <= x <= y <= N, row by row.  Trusts it only if N
 * is within the bound and at least need, SG(x, y) <= x + y everywhere, no
 * row repeats a value (its cells are options of each other) and its zeros
 * are exactly the P-positions (A_n, B_n) of the closed form, and then only
 * if it equals the table rebuilt: those checks are no proof, and a table
 * that passes them with wrong values (fuzz/corpus/tables/wythoff-sg-forged)
 * would give wrong Grundy values to sums.  The rebuild costs about what
 * the cache saves (45 ms at side 1000, under 1 ms at the default 200).
 * Returns -1, tab unchanged, otherwise.
 */
static int
wythoff_tab_load(const struct wythoff *st, struct wythoff_tab *tab,
    const struct buf *blob, unsigned long need)
{
	const unsigned char *p, *end;
	struct wythoff_tab chk;
	unsigned long	*partner = NULL, *stamp = NULL, side, a, b;
	unsigned int	*sg;
	uint64_t	 n, v;
	size_t		 nc, x, y;
	mpz_t		 zn, fl, an;
	int		 rv = -1, same;

	if (game_table_open(blob, &p, &end) != 0 ||
	    game_table_getv(&p, end, &n) != 0 || n < need || n > st->bound)
		return (-1);
	side = (unsigned long)n;
	nc = side + 1;
	sg = xcalloc(nc * nc, sizeof *sg);
	for (y = 0; y <= side; y++)
		for (x = 0; x <= y; x++) {
			if (game_table_getv(&p, end, &v) != 0 || v > x + y)
				goto out;
			sg[y * nc + x] = sg[x * nc + y] = (unsigned int)v;
		}
	if (p != end)
		goto out;
	stamp = xcalloc(2 * nc, sizeof *stamp);
	for (y = 0; y <= side; y++)
		for (x = 0; x <= side; x++) {
			if (stamp[sg[y * nc + x]] == y + 1)
				goto out;
			stamp[sg[y * nc + x]] = y + 1;
		}
	/* partner[x]: the other coordinate of x's P-position, if in range. */
	partner = xcalloc(nc, sizeof *partner);
	for (x = 0; x <= side; x++)
		partner[x] = ULONG_MAX;
	mpz_inits(zn, fl, an, NULL);
	for (n = 0;; n++) {
		mpz_set_ui(zn, (unsigned long)n);
		wythoff_isqrtd(st, fl, zn);
		wythoff_a(st, an, zn, fl);
		if (mpz_cmp_ui(an, side) > 0)
			break;
		a = mpz_get_ui(an);
		mpz_addmul(an, st->r, zn);
		if (mpz_cmp_ui(an, side) <= 0) {
			b = mpz_get_ui(an);
			partner[a] = b;
			partner[b] = a;
		}
	}
	mpz_clears(zn, fl, an, NULL);
	for (y = 0; y <= side; y++)
		for (x = 0; x <= y; x++)
			if ((sg[y * nc + x] == 0) != (partner[x] == y))
				goto out;
	memset(&chk, 0, sizeof chk);
	wythoff_tab_build(&chk, side, side, st->r);
	same = memcmp(chk.sg, sg, nc * nc * sizeof *sg) == 0;
	free(chk.sg);
	if (!same)
		goto out;
	free(tab->sg);
	tab->sg = sg;
	tab->cols = tab->rows = side;
	sg = NULL;
	rv = 0;
out:
	free(sg);
	free(partner);
	free(stamp);
	return (rv);
}

/*
 * Makes the table square with side at least need, from the cache (kind
 * wythoff-sg, key "r=R": the quotient game depends on r alone) when it
 * holds one that large, else built and stored.
 */
static void
wythoff_tab_cached(const struct wythoff *st, unsigned long need)
{
	struct wythoff_tab *tab = st->tab;
	struct buf	 key, blob, meta;
	size_t		 nc, x, y;

	buf_init(&key);
	buf_init(&blob);
	buf_init(&meta);
	buf_puts(&key, "r=");
	buf_mpz(&key, st->r);
	if (game_tables_get(st->tables, "wythoff-sg", buf_str(&key), &blob) &&
	    wythoff_tab_load(st, tab, &blob, need) == 0)
		goto out;
	wythoff_tab_build(tab, need, need, st->r);
	nc = (size_t)need + 1;
	buf_reset(&blob);
	game_table_putv(&blob, GAME_TABLE_VERSION);
	game_table_putv(&blob, need);
	for (y = 0; y <= need; y++)
		for (x = 0; x <= y; x++)
			game_table_putv(&blob, tab->sg[y * nc + x]);
	game_table_seal(&blob);
	buf_printf(&meta, "side=%lu", need);
	game_tables_put(st->tables, "wythoff-sg", buf_str(&key),
	    buf_str(&meta), &blob);
out:
	buf_free(&key);
	buf_free(&blob);
	buf_free(&meta);
}

/*
 * Makes the shared table cover the reduced position q, whose quotients it
 * stores in *u <= *v; fails with GAME_EBOUND beyond the bound.  The options
 * of (u, v) sorted lie in [0..u] x [0..v], so that rectangle suffices.
 */
static int
wythoff_tab_need(const struct wythoff *st, const struct wythoff_q *q,
    unsigned long *u, unsigned long *v, struct game_error *err)
{
	struct wythoff_tab *tab = st->tab;
	unsigned long	 cols, rows;
	char		 n1[64];

	if (mpz_cmp_ui(q->b, st->bound) > 0)
		return (game_set_error(err, GAME_EBOUND,
		    "wythoff: Grundy values have no closed form; the table "
		    "covers pile div K <= %lu (max_wythoff), this position "
		    "needs %s", st->bound, wythoff_numstr(q->b, n1,
		    sizeof n1)));
	*u = mpz_get_ui(q->a);
	*v = mpz_get_ui(q->b);
	if (tab->sg != NULL && *u <= tab->cols && *v <= tab->rows)
		return (0);
	cols = *u;
	rows = *v;
	if (tab->sg != NULL) {
		cols = cols > tab->cols ? cols : tab->cols;
		rows = rows > tab->rows ? rows : tab->rows;
	}
	if (rows >= UINT_MAX / 2 || cols >= UINT_MAX / 2 ||
	    cols + 1 > SIZE_MAX / sizeof(unsigned long) / (cols + rows + 2))
		return (game_set_error(err, GAME_EBOUND,
		    "wythoff: a Grundy table of %lu x %lu entries is too "
		    "large", cols + 1, rows + 1));
	/* With a cache, tables are square and kept (r of at most 40 digits). */
	if (st->tables != NULL && mpz_sizeinbase(st->r, 10) <= 40)
		wythoff_tab_cached(st, rows > cols ? rows : cols);
	else
		wythoff_tab_build(tab, cols, rows, st->r);
	return (0);
}

/* Sets g to the Grundy value, from the table (GAME_EBOUND beyond it). */
static int
wythoff_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct wythoff *st = p;
	struct wythoff_q q;
	unsigned long	 u, v;
	int		 rv;

	wythoff_q_init(st, &q);
	if ((rv = wythoff_tab_need(st, &q, &u, &v, err)) == 0)
		mpz_set_ui(g, wythoff_tab_get(st->tab, u, v));
	wythoff_q_clear(&q);
	return (rv);
}

/* Appends every move to a position of Grundy value target, by the table. */
static int
wythoff_to_grundy(const void *p, const mpz_t target,
    struct game_moveset *ms, struct game_error *err)
{
	const struct wythoff *st = p;
	struct wythoff_q q;
	unsigned long	 u, v, i, j, rc, tv;
	mpz_t		 za, zb;

	wythoff_q_init(st, &q);
	if (wythoff_tab_need(st, &q, &u, &v, err) != 0) {
		wythoff_q_clear(&q);
		return (-1);
	}
	/* Options have Grundy values below u + v. */
	if (mpz_sgn(target) < 0 || mpz_cmp_ui(target, u + v) >= 0) {
		wythoff_q_clear(&q);
		return (0);
	}
	tv = mpz_get_ui(target);
	rc = u + v + 1;
	if (mpz_cmp_ui(st->r, rc) < 0)
		rc = mpz_get_ui(st->r);
	mpz_inits(za, zb, NULL);
	for (i = 0; i < u; i++)
		if (wythoff_tab_get(st->tab, i, v) == tv) {
			mpz_set_ui(za, i);
			wythoff_add(st, &q, ms, za, NULL);
		}
	for (j = 0; j < v; j++)
		if (wythoff_tab_get(st->tab, u, j) == tv) {
			mpz_set_ui(zb, j);
			wythoff_add(st, &q, ms, NULL, zb);
		}
	/* Remove i from a and j from b, |i - j| < r. */
	for (i = 1; i <= u; i++)
		for (j = i >= rc ? i - rc + 1 : 1; j <= v && j < i + rc; j++)
			if (wythoff_tab_get(st->tab, u - i, v - j) == tv) {
				mpz_set_ui(za, u - i);
				mpz_set_ui(zb, v - j);
				wythoff_add(st, &q, ms, za, zb);
			}
	mpz_clears(za, zb, NULL);
	wythoff_q_clear(&q);
	return (0);
}

/* Appends the engine's fallback moves: remove K from either pile. */
static void
wythoff_policy(const void *p, struct game_moveset *ms)
{
	const struct wythoff *st = p;
	struct game_move *m;
	size_t		 i;

	for (i = 0; i < 2; i++) {
		if (mpz_cmp(st->pile[i], st->k) < 0)
			continue;
		m = game_moveset_add(ms);
		game_move_add(m, 0, i + 1, st->pile[i]);
		mpz_sub(m->ch[0].val, m->ch[0].val, st->k);
	}
}

/* Appends the cache key of the P-position table: "K=K t=T". */
static void
wythoff_pkey(const struct wythoff *st, struct buf *key)
{
	buf_puts(key, "K=");
	buf_mpz(key, st->k);
	buf_puts(key, " t=");
	buf_mpz(key, st->t);
}

/* Parses a decimal number of text up to the character stop; -1 if bad. */
static int
wythoff_pnum(mpz_t z, const char **p, const char *end, char stop)
{
	const char	*q = *p;
	char		*s;
	int		 rv;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == *p || q == end || *q != stop || (q - *p > 1 && **p == '0'))
		return (-1);
	s = xreallocarray(NULL, (size_t)(q - *p) + 1, 1);
	memcpy(s, *p, (size_t)(q - *p));
	s[q - *p] = '\0';
	rv = mpz_set_str(z, s, 10);
	free(s);
	*p = q + 1;
	return (rv);
}

/*
 * Checks a cached P-position table (lines "n K*A_n K*B_n") and returns how
 * many leading lines it holds, with *len their bytes; -1 if it cannot be
 * trusted.  With a_n = A_n, b_n = B_n it checks n = 0, 1, ..., that K
 * divides both piles, b_n - a_n = r n and a_n = mex{a_i, b_i : i < n}:
 * the definition, so the lines are right without the closed form.
 */
static long
wythoff_pcheck(const struct wythoff *st, const struct buf *text,
    unsigned long want, size_t *len)
{
	const char	*p = text->data, *end = text->data + text->len;
	mpz_t		*b, n, a, d, c;
	unsigned long	 i, j = 0, nb = 0;
	long		 rv = -1;

	if (p == NULL)
		return (-1);
	b = xreallocarray(NULL, want > 0 ? want : 1, sizeof *b);
	mpz_inits(n, a, d, c, NULL);
	for (i = 0; i < want && p < end; i++) {
		mpz_init(b[nb++]);
		if (wythoff_pnum(n, &p, end, ' ') != 0 ||
		    mpz_cmp_ui(n, i) != 0 || wythoff_pnum(a, &p, end, ' ') != 0 ||
		    wythoff_pnum(b[i], &p, end, '\n') != 0 ||
		    !mpz_divisible_p(a, st->k) || !mpz_divisible_p(b[i], st->k))
			goto out;
		mpz_divexact(a, a, st->k);
		mpz_divexact(b[i], b[i], st->k);
		mpz_sub(d, b[i], a);
		mpz_submul_ui(d, st->r, i);
		if (mpz_sgn(d) != 0)
			goto out;
		/* The mex: past a_(i-1), skipping the earlier b_j. */
		if (i == 0)
			mpz_set_ui(c, 0);
		for (; i > 0; mpz_add_ui(c, c, 1)) {
			while (j < i && mpz_cmp(b[j], c) < 0)
				j++;
			if (j == i || mpz_cmp(b[j], c) != 0)
				break;
		}
		if (mpz_cmp(a, c) != 0)
			goto out;
		mpz_add_ui(c, a, 1);
	}
	*len = (size_t)(p - text->data);
	rv = (long)i;
out:
	while (nb > 0)
		mpz_clear(b[--nb]);
	free(b);
	mpz_clears(n, a, d, c, NULL);
	return (rv);
}

/*
 * Appends the first count P-positions "n K*A_n K*B_n" (kind wythoff-p):
 * from the cache if it holds that many sound lines, else by the closed
 * form, stored for next time.  (K A_n + i, K B_n + j) and the mirror
 * images are P-positions too, for 0 <= i, j < K.
 */
static int
wythoff_table(const void *p, unsigned long count, struct buf *out,
    struct game_error *err)
{
	const struct wythoff *st = p;
	struct buf	 key, text, meta;
	unsigned long	 i;
	size_t		 len = 0;
	mpz_t		 n, fl, an, bn;

	(void)err;
	buf_init(&key);
	buf_init(&text);
	buf_init(&meta);
	wythoff_pkey(st, &key);
	if (game_tables_get(st->tables, "wythoff-p", buf_str(&key), &text) &&
	    wythoff_pcheck(st, &text, count, &len) == (long)count) {
		buf_add(out, text.data, len);
		goto out;
	}
	buf_reset(&text);
	mpz_inits(n, fl, an, bn, NULL);
	for (i = 0; i < count; i++) {
		mpz_set_ui(n, i);
		wythoff_isqrtd(st, fl, n);
		wythoff_a(st, an, n, fl);
		mpz_set(bn, an);
		mpz_addmul(bn, st->r, n);
		mpz_mul(an, an, st->k);
		mpz_mul(bn, bn, st->k);
		buf_printf(&text, "%lu ", i);
		buf_mpz(&text, an);
		buf_putc(&text, ' ');
		buf_mpz(&text, bn);
		buf_putc(&text, '\n');
	}
	mpz_clears(n, fl, an, bn, NULL);
	buf_add(out, text.data != NULL ? text.data : "", text.len);
	buf_printf(&meta, "count=%lu", count);
	if (count > 0)
		game_tables_put(st->tables, "wythoff-p", buf_str(&key),
		    buf_str(&meta), &text);
out:
	buf_free(&key);
	buf_free(&text);
	buf_free(&meta);
	return (0);
}

/* Wythoff is impartial. */
static int
wythoff_mover(const void *p)
{
	(void)p;
	return (0);
}

const struct game_family game_wythoff = {
	.name = "wythoff",
	.usage = "wythoff [K=VALUE] [t=VALUE] X Y",
	.summary = "Wythoff (K=1, t=1), t-Wythoff and (K,t)-Wythoff: "
	    "remove multiples of K from one pile or both (differing by < t)",
	.parse = wythoff_parse,
	.clone = wythoff_clone,
	.free = wythoff_free,
	.print = wythoff_print,
	.check = wythoff_check,
	.apply = wythoff_apply,
	.terminal = wythoff_terminal,
	.outcome = wythoff_outcome,
	.grundy = wythoff_grundy,
	.winning = wythoff_winning,
	.to_grundy = wythoff_to_grundy,
	.policy = wythoff_policy,
	.mover = wythoff_mover,
	.table = wythoff_table,
};
