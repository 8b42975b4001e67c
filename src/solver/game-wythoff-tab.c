/*
 * game-wythoff-tab.c: r-Wythoff on the quotients, for the Wythoff family
 * (game-wythoff.c, which depends on this file and not the reverse): a
 * position reduced to quotients and lifted back, the exact floors of the
 * closed form, the Grundy tables (built when first needed, shared by
 * clones and by the components of a sum), the Grundy queries that use
 * them, and the `table` of P-positions (cached through game-table.c).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "solver/game-wythoff.h"

/* Drops a reference to a Grundy table, freeing it with the last. */
void
wythoff_tab_unref(struct wythoff_tab *tab)
{
	if (tab != NULL && --tab->refs == 0) {
		free(tab->sg);
		free(tab);
	}
}

/* Formats z for an error message; numbers over 40 digits are elided. */
const char *
wythoff_numstr(const mpz_t z, char *out, size_t len)
{
	if (mpz_sizeinbase(z, 10) > 40)
		snprintf(out, len, "(a number of over 40 digits)");
	else
		gmp_snprintf(out, len, "%Zd", z);
	return (out);
}

/* Reduces the position to sorted quotients and residues. */
void
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
void
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
void
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
void
wythoff_isqrtd(const struct wythoff *st, mpz_t z, const mpz_t v)
{
	mpz_mul(z, v, v);
	mpz_mul(z, z, st->d);
	mpz_sqrt(z, z);
}

/* Sets an to A_n = (n (2 - r) + fl) div 2, given fl = floor(n sqrt(D)). */
void
wythoff_a(const struct wythoff *st, mpz_t an, const mpz_t n, const mpz_t fl)
{
	mpz_mul(an, n, st->rm2);
	mpz_sub(an, fl, an);
	mpz_fdiv_q_2exp(an, an, 1);
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
	/* Cover the other sum components sharing the table too. */
	cols = *u > tab->wcols ? *u : tab->wcols;
	rows = *v > tab->wrows ? *v : tab->wrows;
	if (tab->sg != NULL) {
		cols = cols > tab->cols ? cols : tab->cols;
		rows = rows > tab->rows ? rows : tab->rows;
	}
	if (rows >= UINT_MAX / 2 || cols >= UINT_MAX / 2 ||
	    cols + 1 > SIZE_MAX / sizeof(unsigned long) / (cols + rows + 2))
		return (game_set_error(err, GAME_EBOUND,
		    "wythoff: a Grundy table of %lu x %lu entries is too "
		    "large", cols + 1, rows + 1));
	/*
	 * Built, never taken from the table cache: a stored table could be
	 * trusted only by rebuilding it (no closed form; checks short of that
	 * let a forged table through, fuzz/corpus/tables/wythoff-sg-forged),
	 * and the build costs what a load would save.
	 */
	wythoff_tab_build(tab, cols, rows, st->r);
	return (0);
}

/* Sets g to the Grundy value, from the table (GAME_EBOUND beyond it). */
int
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
int
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

/*
 * Shares other's Grundy table when both reduce to the same r-Wythoff
 * (equal r, bound and cache), and has it cover both positions' quotients
 * when first built; returns 1 then (or if already shared), else 0.  A
 * position beyond the bound wants nothing: its own Grundy query fails.
 */
int
wythoff_share(void *p, void *q)
{
	struct wythoff	*st = p, *other = q;
	struct wythoff_tab *tab = other->tab;
	struct wythoff_q wq;
	const struct wythoff *s;
	int		 i;

	if (st->tab == tab)
		return (1);
	if (mpz_cmp(st->r, other->r) != 0 || st->bound != other->bound ||
	    st->tables != other->tables)
		return (0);
	wythoff_tab_unref(st->tab);
	st->tab = tab;
	tab->refs++;
	for (i = 0; i < 2; i++) {
		s = i == 0 ? st : other;
		wythoff_q_init(s, &wq);
		if (mpz_cmp_ui(wq.b, s->bound) <= 0) {
			if (mpz_get_ui(wq.a) > tab->wcols)
				tab->wcols = mpz_get_ui(wq.a);
			if (mpz_get_ui(wq.b) > tab->wrows)
				tab->wrows = mpz_get_ui(wq.b);
		}
		wythoff_q_clear(&wq);
	}
	return (1);
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
int
wythoff_table(const void *p, unsigned long count, struct buf *out,
    struct game_error *err)
{
	const struct wythoff *st = p;
	struct buf	 key, text, meta;
	unsigned long	 i;
	size_t		 len = 0;
	mpz_t		 n, fl, an, bn;

	/*
	 * Bound the text before building it: a_n <= 2n, so every number
	 * is at most K (R + 2) count.
	 */
	if (st->max_reply > 0 && count > 0) {
		size_t	 dk, dn, line;
		double	 est;

		mpz_init_set_ui(n, count);
		mpz_mul_ui(n, n, 2);
		mpz_addmul_ui(n, st->r, count);
		dk = mpz_sizeinbase(st->k, 10);
		dn = mpz_sizeinbase(n, 10);
		mpz_clear(n);
		line = 2 * (dk + dn) + dn + 3;
		est = (double)line * (double)count;
		if (est > (double)st->max_reply)
			return (game_set_error(err, GAME_ELIMIT,
			    "wythoff table: count=%lu needs up to %.0f bytes "
			    "(%zu per line), over the reply limit of %zu "
			    "bytes (max-reply): ask for at most count=%zu",
			    count, est, line, st->max_reply,
			    st->max_reply / line));
	}
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
