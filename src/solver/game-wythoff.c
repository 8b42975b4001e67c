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
 * The Grundy values have no closed form: their tables are in
 * game-wythoff-tab.c.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "solver/game-wythoff.h"

/*
 * Guard bits G of the fixed-point e = sqrt(D) - r (wythoff_root_init): one
 * such root yields every floor the winning moves need; when the error
 * bounds of one straddle an integer (probability below 2^-G) an exact root
 * decides.  tests/unit/test-wythoff-guard runs the tests with G = 1.
 */
#ifndef WYTHOFF_GUARD
#define WYTHOFF_GUARD	16
#endif

/*
 * Which form computes the winning moves: 0 chooses by the sizes of r and
 * the piles (wythoff_winning), 1 always the division form, 2 always the
 * fixed-point form; the tests build 1 and 2 too.
 */
#ifndef WYTHOFF_FORM
#define WYTHOFF_FORM	0
#endif
#ifndef WYTHOFF_DIV_RB
#define WYTHOFF_DIV_RB	10	/* the division form once bits(b) <= 10 bits(r) */
#endif

/* Allocates a state with K = t = 1 and empty piles. */
static struct wythoff *
wythoff_new(void)
{
	struct wythoff	*st = xcalloc(1, sizeof *st);

	mpz_init_set_ui(st->k, 1);
	mpz_init_set_ui(st->t, 1);
	mpz_inits(st->r, st->rm2, st->r2, st->d, st->pile[0], st->pile[1],
	    NULL);
	return (st);
}

/* Frees the state, dropping its reference to the Grundy table. */
static void
wythoff_free(void *p)
{
	struct wythoff	*st = p;

	wythoff_tab_unref(st->tab);
	mpz_clears(st->k, st->t, st->r, st->rm2, st->r2, st->d, st->pile[0],
	    st->pile[1], NULL);
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
	if ((keys[0].val != NULL && game_parse_pos(st->k, keys[0].val,
	    "wythoff: K", NULL, lim, err) != 0) ||
	    (keys[1].val != NULL && game_parse_pos(st->t, keys[1].val,
	    "wythoff: t", NULL, lim, err) != 0) ||
	    game_parse_num(st->pile[0], argv[pos], "pile 1", lim, err) != 0 ||
	    game_parse_num(st->pile[1], argv[pos + 1], "pile 2", lim,
	    err) != 0) {
		wythoff_free(st);
		return (-1);
	}
	wythoff_derive(st);
	st->bound = lim->max_wythoff;
	st->max_reply = lim->max_reply;
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
	mpz_set(c->pile[0], st->pile[0]);
	mpz_set(c->pile[1], st->pile[1]);
	c->bound = st->bound;
	c->max_reply = st->max_reply;
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

	game_piles_set(st->pile, m);
}

/* Sets back to the move that undoes m: the piles m changes, as they are. */
static int
wythoff_inverse(const void *p, const struct game_move *m,
    struct game_move *back)
{
	const struct wythoff *st = p;

	game_piles_back(st->pile, m, back);
	return (0);
}

/* Returns 1 when both piles are below K. */
static int
wythoff_terminal(const void *p)
{
	const struct wythoff *st = p;

	return (mpz_cmp(st->pile[0], st->k) < 0 &&
	    mpz_cmp(st->pile[1], st->k) < 0);
}

/*
 * The winning moves need floor(v sqrt(D)) for several v <= vmax.  Write
 * sqrt(D) = r + e, e = 4 / (r + sqrt(D)) in (0, 2]; then floor(v sqrt(D)) =
 * v r + g(v), g(v) = floor(v e).  One fixed-point e_H = E with e 2^H in
 * [E, E + 2), H = bits(vmax) + G + 1, gives every g(v) from the product
 * v E (v e 2^H lies in [v E, v E + 2v), an interval of width below 2^(H-G)),
 * and (v + 1) E = v E + E costs an addition.  E comes from one square root:
 * floor(sqrt(D 4^H)) - r 2^H (error < 1), of 2H + 2 bits(r) bits; or, once
 * bits(r) > H / 3 makes that dearer than a root and a division of
 * H - bits(r) bits, floor(4 2^(H+F) / (r 2^F + floor(sqrt(D 4^F)) + 1))
 * with only F = H - 2 (bits(r) - 1) fraction bits of sqrt(D) (error < 2):
 * a root that shrinks as r grows instead of growing with r^2.
 */
struct wythoff_root {
	mpz_t		 e;		/* E */
	mp_bitcnt_t	 h;		/* H */
	mpz_t		 t1, t2;	/* scratch */
};

/* Computes E for every v <= vmax. */
static void
wythoff_root_init(const struct wythoff *st, struct wythoff_root *rt,
    const mpz_t vmax)
{
	mp_bitcnt_t	 rb, f;

	mpz_inits(rt->e, rt->t1, rt->t2, NULL);
	rt->h = mpz_sizeinbase(vmax, 2) + WYTHOFF_GUARD + 1;
	rb = mpz_sizeinbase(st->r, 2);
	if (3 * rb <= rt->h) {
		mpz_mul_2exp(rt->e, st->d, 2 * rt->h);
		mpz_sqrt(rt->e, rt->e);
		mpz_mul_2exp(rt->t1, st->r, rt->h);
		mpz_sub(rt->e, rt->e, rt->t1);
		return;
	}
	/* r + sqrt(D) >= 2 r >= 2^rb: the error is 2^(H-F) / r^2 <= 1. */
	f = rt->h > 2 * (rb - 1) ? rt->h - 2 * (rb - 1) : 0;
	mpz_mul_2exp(rt->t1, st->d, 2 * f);
	mpz_sqrt(rt->t1, rt->t1);
	mpz_mul_2exp(rt->t2, st->r, f);
	mpz_add(rt->t1, rt->t1, rt->t2);
	mpz_add_ui(rt->t1, rt->t1, 1);
	mpz_set_ui(rt->e, 1);
	mpz_mul_2exp(rt->e, rt->e, rt->h + f + 2);
	mpz_fdiv_q(rt->e, rt->e, rt->t1);
}

/* Frees E and the scratch. */
static void
wythoff_root_clear(struct wythoff_root *rt)
{
	mpz_clears(rt->e, rt->t1, rt->t2, NULL);
}

/*
 * Sets g to g(v) = floor(v e) for 0 <= v <= vmax, given pv = v E.  The
 * bounds pv and pv + 2v - 1 fix it unless a multiple of 2^H lies between
 * them (probability below 2^-G): then the exact floor(sqrt(v^2 D)) - v r.
 */
static void
wythoff_g(const struct wythoff *st, struct wythoff_root *rt, mpz_t g,
    const mpz_t v, const mpz_t pv)
{
	mpz_fdiv_q_2exp(g, pv, rt->h);
	mpz_mul_2exp(rt->t1, v, 1);
	mpz_add(rt->t1, rt->t1, pv);
	mpz_sub_ui(rt->t1, rt->t1, 1);
	mpz_fdiv_q_2exp(rt->t1, rt->t1, rt->h);
	if (mpz_sgn(v) > 0 && mpz_cmp(g, rt->t1) != 0) {
		wythoff_isqrtd(st, g, v);
		mpz_submul(g, v, st->r);
	}
}

/* Sets g0 = g(v) and g1 = g(v + 1) for v + 1 <= vmax, given pv = v E. */
static void
wythoff_g2(const struct wythoff *st, struct wythoff_root *rt, mpz_t g0,
    mpz_t g1, mpz_t v, mpz_t pv)
{
	wythoff_g(st, rt, g0, v, pv);
	mpz_add(pv, pv, rt->e);
	mpz_add_ui(v, v, 1);
	wythoff_g(st, rt, g1, v, pv);
	mpz_sub_ui(v, v, 1);
	mpz_sub(pv, pv, rt->e);
}

/*
 * Sets p to the partner of x >= 1 in r-Wythoff (the other coordinate of the
 * P-position containing x), given gx = g(x) and gx1 = g(x + 1).  With
 * f = floor(x / alpha) = (x (r - 2) + floor(x sqrt(D))) div 2r
 *   = x + (gx - 2x) div 2r,
 * x is A_(f+1) iff floor((x + 1) / alpha) = f + 1, that is iff the
 * remainder of that division plus gx1 - gx - 2 is at least 0 (the
 * numerator for x + 1 exceeds the one for x by 2r - 2 + gx1 - gx), and
 * otherwise x = B_(x-f) (§4).
 */
static void
wythoff_partner(const struct wythoff *st, mpz_t p, const mpz_t x,
    const mpz_t gx, const mpz_t gx1)
{
	mpz_t	 f, rem;

	mpz_inits(f, rem, NULL);
	mpz_submul_ui(f, x, 2);
	mpz_add(f, f, gx);
	mpz_fdiv_qr(f, rem, f, st->r2);
	mpz_add(f, f, x);
	mpz_add(rem, rem, gx1);
	mpz_sub(rem, rem, gx);
	if (mpz_cmp_ui(rem, 2) >= 0) {
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
	mpz_clears(f, rem, NULL);
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
 * The winning moves for long r (the slow corner of the fixed-point form:
 * its products v E grow with the piles while the answer needs little more
 * than divisions by r).  With sigma_k = r + k + sqrt(D), for k = 0 and 2:
 *
 *   A_n = n + floor(2n / sigma_0): alpha - 1 = (sqrt(D) - r) / 2
 *     = 2 / (r + sqrt(D)), as (sqrt(D) - r)(sqrt(D) + r) = D - r^2 = 4.
 *   floor(x / alpha) = x - 1 - floor(2x / sigma_2) for x >= 1: 1/alpha =
 *     1 - 1/beta with beta = alpha + r = sigma_2 / 2, and 2x / sigma_2 is
 *     irrational, so floor(x - 2x / sigma_2) = x - 1 - floor(2x / sigma_2).
 *
 * Write y_k(v) = floor(2v / sigma_k).  By §4's inversion (f = floor(x /
 * alpha); x = A_(f+1) iff floor((x + 1) / alpha) = f + 1), x >= 1 is
 * A_m, m = x - y_2(x), iff y_2(x + 1) = y_2(x) (the step 2 / sigma_2 < 1
 * adds 0 or 1), with partner B_m = x + r m; else x = B_m, m = y_2(x) + 1,
 * partner A_m = x - r m.  For a <= b, d = b - a = n r + rho (0 <= rho < r):
 *   - b to the partner of a = A_m exists iff r m < d, i.e. m < n, or
 *     m = n and rho > 0; to the partner of a = B_m (smaller than a) always;
 *   - a to the partner of b exists iff b = B_m and r m > d, i.e. m > n;
 *   - the diagonal to (A_n, B_n) needs A_n < a, and then B_n = A_n + d -
 *     rho < b holds; to (A_(n+1), B_(n+1)), B_(n+1) = A_(n+1) + d - rho + r,
 *     it needs A_(n+1) + r - rho < a (which implies B_(n+1) < b).
 * So a product by r is made only for a move that exists, and the floors
 * take three divisions (v = n, a, b), y(v + 1) following from y(v).
 *
 * Each division is by a fixed point: S_k = floor(sigma_k 2^F) = (r + k)
 * 2^F + floor(sqrt(D 4^F)), and 2v 2^F = q S_k + rr.  With Q = q + rr /
 * S_k >= 2v / sigma_k (as S_k <= sigma_k 2^F < S_k + 1), the error
 * Q - 2v / sigma_k < 2v 2^F / (S_k (S_k + 1)) < Q / S_k < (q + 1) / S_k.
 * If rr > q then 2v / sigma_k lies in (q, Q] (it is irrational for v >= 1)
 * and y_k(v) = q.  Otherwise, F >= bits(2v) - 2 bits(r) + G makes the
 * error below 1 (S_k > 2^F 2r >= 2^(F + bits(r))), so y_k(v) is q or
 * q - 1, and q is right iff q sigma_k < 2v, i.e. iff R = 2v - q (r + k) > 0
 * and q^2 D < R^2 (wythoff_yfix); that happens with probability about
 * 2v / (sigma_k S_k) <= 2^-G.  For v + 1: rr + 2^(F+1), minus S_k and q + 1
 * when it reaches S_k (2^(F+1) < S_k).
 */
struct wythoff_div {
	mp_bitcnt_t	 f;		/* F */
	mpz_t		 s[2];		/* S_0, S_2 */
	mpz_t		 step;		/* 2^(F+1) */
	mpz_t		 q, rr, t1, t2;	/* scratch */
};

/* Computes S_0 and S_2 for every v <= vmax. */
static void
wythoff_div_init(const struct wythoff *st, struct wythoff_div *dv,
    const mpz_t vmax)
{
	mp_bitcnt_t	 vb = mpz_sizeinbase(vmax, 2) + 1;
	mp_bitcnt_t	 rb2 = 2 * mpz_sizeinbase(st->r, 2);

	mpz_inits(dv->s[0], dv->s[1], dv->step, dv->q, dv->rr, dv->t1,
	    dv->t2, NULL);
	dv->f = (vb > rb2 ? vb - rb2 : 0) + WYTHOFF_GUARD;
	mpz_mul_2exp(dv->s[0], st->d, 2 * dv->f);
	mpz_sqrt(dv->s[0], dv->s[0]);
	mpz_mul_2exp(dv->t1, st->r, dv->f);
	mpz_add(dv->s[0], dv->s[0], dv->t1);
	mpz_set_ui(dv->step, 1);
	mpz_mul_2exp(dv->step, dv->step, dv->f + 1);
	mpz_add(dv->s[1], dv->s[0], dv->step);
}

/* Frees the fixed points and the scratch. */
static void
wythoff_div_clear(struct wythoff_div *dv)
{
	mpz_clears(dv->s[0], dv->s[1], dv->step, dv->q, dv->rr, dv->t1,
	    dv->t2, NULL);
}

/* Sets y to y_k(v) given q and rr of 2v 2^F = q S_k + rr (k = 2 ki). */
static void
wythoff_yfix(const struct wythoff *st, struct wythoff_div *dv, int ki,
    mpz_t y, const mpz_t v)
{
	mpz_set(y, dv->q);
	if (mpz_cmp(dv->rr, dv->q) > 0 || mpz_sgn(dv->q) == 0)
		return;
	mpz_mul_2exp(dv->t1, v, 1);
	mpz_submul(dv->t1, dv->q, st->r);
	if (ki)
		mpz_submul_ui(dv->t1, dv->q, 2);
	if (mpz_sgn(dv->t1) > 0) {
		mpz_mul(dv->t1, dv->t1, dv->t1);
		mpz_mul(dv->t2, dv->q, dv->q);
		mpz_mul(dv->t2, dv->t2, st->d);
		if (mpz_cmp(dv->t2, dv->t1) < 0)
			return;
	}
	mpz_sub_ui(y, y, 1);
}

/* Sets y0 = y_k(v) and y1 = y_k(v + 1) (k = 2 ki); v is restored. */
static void
wythoff_ypair(const struct wythoff *st, struct wythoff_div *dv, int ki,
    mpz_t y0, mpz_t y1, mpz_t v)
{
	mpz_mul_2exp(dv->t1, v, dv->f + 1);
	mpz_fdiv_qr(dv->q, dv->rr, dv->t1, dv->s[ki]);
	wythoff_yfix(st, dv, ki, y0, v);
	mpz_add(dv->rr, dv->rr, dv->step);
	if (mpz_cmp(dv->rr, dv->s[ki]) >= 0) {
		mpz_sub(dv->rr, dv->rr, dv->s[ki]);
		mpz_add_ui(dv->q, dv->q, 1);
	}
	mpz_add_ui(v, v, 1);
	wythoff_yfix(st, dv, ki, y1, v);
	mpz_sub_ui(v, v, 1);
}

/* Appends the winning moves of the reduced position q by the above. */
static void
wythoff_winning_div(const struct wythoff *st, struct wythoff_q *q,
    struct game_moveset *ms)
{
	struct wythoff_div dv;
	mpz_t		 d, n, rho, y0, y1, m, an, an1, bn;

	mpz_inits(d, n, rho, y0, y1, m, an, an1, bn, NULL);
	mpz_add_ui(m, q->b, 1);
	wythoff_div_init(st, &dv, m);
	mpz_sub(d, q->b, q->a);
	mpz_fdiv_qr(n, rho, d, st->r);
	wythoff_ypair(st, &dv, 0, y0, y1, n);
	mpz_add(an, n, y0);		/* A_n */
	mpz_add(an1, n, y1);
	mpz_add_ui(an1, an1, 1);	/* A_(n+1) */
	if (mpz_sgn(rho) == 0 && mpz_cmp(an, q->a) == 0)
		goto done;		/* a P-position */
	/* b to the partner of a. */
	if (mpz_sgn(q->a) == 0) {
		mpz_set_ui(bn, 0);
		wythoff_add(st, q, ms, NULL, bn);
	} else {
		wythoff_ypair(st, &dv, 1, y0, y1, q->a);
		if (mpz_cmp(y0, y1) == 0) {
			mpz_sub(m, q->a, y0);
			if (mpz_cmp(m, n) < 0 ||
			    (mpz_cmp(m, n) == 0 && mpz_sgn(rho) > 0)) {
				mpz_set(bn, q->a);
				mpz_addmul(bn, st->r, m);
				wythoff_add(st, q, ms, NULL, bn);
			}
		} else {
			mpz_add_ui(m, y0, 1);
			mpz_set(bn, q->a);
			mpz_submul(bn, st->r, m);
			wythoff_add(st, q, ms, NULL, bn);
		}
		/* a to the partner of b. */
		wythoff_ypair(st, &dv, 1, y0, y1, q->b);
		mpz_add_ui(m, y0, 1);
		if (mpz_cmp(y0, y1) != 0 && mpz_cmp(m, n) > 0) {
			mpz_set(bn, q->b);
			mpz_submul(bn, st->r, m);
			wythoff_add(st, q, ms, bn, NULL);
		}
	}
	/* Diagonally to (A_n, B_n), then (A_(n+1), B_(n+1)). */
	if (mpz_cmp(an, q->a) < 0) {
		mpz_add(bn, an, d);
		mpz_sub(bn, bn, rho);
		wythoff_add(st, q, ms, an, bn);
	}
	if (mpz_sgn(rho) > 0) {
		mpz_add(m, an1, st->r);
		mpz_sub(m, m, rho);
		if (mpz_cmp(m, q->a) < 0) {
			mpz_add(bn, m, d);
			wythoff_add(st, q, ms, an1, bn);
		}
	}
done:
	wythoff_div_clear(&dv);
	mpz_clears(d, n, rho, y0, y1, m, an, an1, bn, NULL);
}

/*
 * Appends the winning moves of the reduced position q, a <= b, by the
 * fixed-point form: b to the partner of a, a to the partner of b, and the
 * diagonal moves to (A_n, B_n) for n = floor(d / r) and ceil(d / r),
 * d = b - a, where A_n = (n (2 - r) + n r + g(n)) div 2 = n + g(n) div 2.
 * Costs one square root (smaller as r grows) and three products, plus an
 * exact root with probability O(2^-G).
 */
static void
wythoff_winning_fixed(const struct wythoff *st, struct wythoff_q *q,
    struct game_moveset *ms)
{
	struct wythoff_root rt;
	mpz_t		 vmax, n, rho, gn, gn1, g0, g1, an, bn, pa, pb, pn;
	int		 i;

	mpz_inits(vmax, n, rho, gn, gn1, g0, g1, an, bn, pa, pb, pn, NULL);
	mpz_add_ui(vmax, q->b, 1);
	wythoff_root_init(st, &rt, vmax);
	/* The products a E and b E; n E from them when r is one word. */
	mpz_mul(pa, q->a, rt.e);
	mpz_mul(pb, q->b, rt.e);
	mpz_sub(n, q->b, q->a);
	mpz_fdiv_qr(n, rho, n, st->r);
	if (mpz_fits_ulong_p(st->r)) {
		mpz_sub(pn, pb, pa);
		mpz_submul(pn, rho, rt.e);
		mpz_divexact_ui(pn, pn, mpz_get_ui(st->r));
	} else
		mpz_mul(pn, n, rt.e);
	/* A P-position (rho = 0 and a = A_n, n = d / r) has no winning move. */
	wythoff_g2(st, &rt, gn, gn1, n, pn);
	mpz_fdiv_q_2exp(an, gn, 1);
	mpz_add(an, an, n);
	if (mpz_sgn(rho) == 0 && mpz_cmp(an, q->a) == 0)
		goto done;
	/* b to the partner of a. */
	if (mpz_sgn(q->a) == 0)
		mpz_set_ui(bn, 0);
	else {
		wythoff_g2(st, &rt, g0, g1, q->a, pa);
		wythoff_partner(st, bn, q->a, g0, g1);
	}
	if (mpz_cmp(bn, q->b) < 0)
		wythoff_add(st, q, ms, NULL, bn);
	/* a to the partner of b. */
	if (mpz_sgn(q->a) != 0) {
		wythoff_g2(st, &rt, g0, g1, q->b, pb);
		wythoff_partner(st, bn, q->b, g0, g1);
		if (mpz_cmp(bn, q->a) < 0)
			wythoff_add(st, q, ms, bn, NULL);
	}
	/*
	 * Diagonally to (A_n, B_n), n = floor(d / r), then n + 1; vmax is
	 * r n = d - rho, then r (n + 1).
	 */
	mpz_sub(vmax, q->b, q->a);
	mpz_sub(vmax, vmax, rho);
	for (i = 0; i < 2; i++) {
		if (i == 1) {
			if (mpz_sgn(rho) == 0)
				break;
			mpz_add_ui(n, n, 1);
			mpz_fdiv_q_2exp(an, gn1, 1);
			mpz_add(an, an, n);
			mpz_add(vmax, vmax, st->r);
		}
		mpz_add(bn, an, vmax);
		if (mpz_cmp(an, q->a) < 0 && mpz_cmp(bn, q->b) < 0)
			wythoff_add(st, q, ms, an, bn);
	}
done:
	wythoff_root_clear(&rt);
	mpz_clears(vmax, n, rho, gn, gn1, g0, g1, an, bn, pa, pb, pn, NULL);
}

/*
 * Appends every winning move (§4, lifted per §5): for r of more than a
 * tenth of the bits of the piles by the division form, else by the
 * fixed-point form (measured: the two cost the same there).
 */
static int
wythoff_winning(const void *p, struct game_moveset *ms,
    struct game_error *err)
{
	const struct wythoff *st = p;
	struct wythoff_q q;

	(void)err;
	wythoff_q_init(st, &q);
	/* (0, 0) has no move. */
	if (mpz_sgn(q.b) != 0 && (WYTHOFF_FORM == 1 || (WYTHOFF_FORM == 0 &&
	    WYTHOFF_DIV_RB * mpz_sizeinbase(st->r, 2) >=
	    mpz_sizeinbase(q.b, 2))))
		wythoff_winning_div(st, &q, ms);
	else if (mpz_sgn(q.b) != 0)
		wythoff_winning_fixed(st, &q, ms);
	wythoff_q_clear(&q);
	return (0);
}

/* Appends the engine's fallback moves: remove K from either pile. */
static void
wythoff_policy(const void *p, struct game_moveset *ms)
{
	const struct wythoff *st = p;

	game_policy_remove_z(st->pile, 2, st->k, ms);
}

const struct game_family game_wythoff = {
	.name = "wythoff",
	.flags = GAME_F_HEAVY_PARSE | GAME_F_HEAVY_PLAY,
	.usage = "wythoff [K=VALUE] [t=VALUE] X Y",
	.summary = "Wythoff (K=1, t=1), t-Wythoff and (K,t)-Wythoff: "
	    "remove multiples of K from one pile or both (differing by < t)",
	.parse = wythoff_parse,
	.clone = wythoff_clone,
	.free = wythoff_free,
	.print = wythoff_print,
	.check = wythoff_check,
	.apply = wythoff_apply,
	.inverse = wythoff_inverse,
	.terminal = wythoff_terminal,
	.outcome = wythoff_outcome,
	.grundy = wythoff_grundy,
	.winning = wythoff_winning,
	.to_grundy = wythoff_to_grundy,
	.policy = wythoff_policy,
	.table = wythoff_table,
	.share = wythoff_share,
};
