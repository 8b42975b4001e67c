/*
 * test-klnim-huge.c: K-L-Nim at huge numbers against an independent
 * formulation of the theorem (positions held apart from the core's),
 * medium positions, the range listing, one_winning and the engine, and the
 * max_moves cap on the strong player's winning set.  The brute force over
 * small positions is in test-klnim.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/engine.h"
#include "solver/format.h"
#include "testutil.h"

#define NPMAX	8		/* most piles in a test position */

/* An independent position for the huge-number checks. */
struct pos {
	mpz_t		 k, l;
	int		 turn;
	size_t		 n;
	mpz_t		 a[NPMAX];
};

/* Sets g to the Grundy value of pile x for k == l, written as x = 2kq + r. */
static void
pos_pile_sg(mpz_t g, const mpz_t x, const mpz_t k)
{
	mpz_t	 q, r, k2;

	mpz_inits(q, r, k2, NULL);
	mpz_add(k2, k, k);
	mpz_tdiv_qr(q, r, x, k2);
	if (mpz_cmp(r, k) >= 0)
		mpz_sub(r, r, k);
	mpz_mul(g, q, k);
	mpz_add(g, g, r);
	mpz_clears(q, r, k2, NULL);
}

/* Sets x to the XOR of the pile Grundy values (k == l). */
static void
pos_sg(const struct pos *p, mpz_t x)
{
	mpz_t	 g;
	size_t	 i;

	mpz_init(g);
	mpz_set_ui(x, 0);
	for (i = 0; i < p->n; i++) {
		pos_pile_sg(g, p->a[i], p->k);
		mpz_xor(x, x, g);
	}
	mpz_clear(g);
}

/*
 * Returns 1 if the player to move wins, by the characterisation of §8b
 * written independently: the strong player wins iff the position is not in
 * Z (every pile < m, XOR 0); the weak player wins iff some legal move of his
 * lands in Z, found by trying every pile as the one to move.
 */
static int
pos_wins(const struct pos *p)
{
	mpz_srcptr	 f = p->turn == 1 ? p->k : p->l;
	mpz_srcptr	 o = p->turn == 1 ? p->l : p->k;
	mpz_t		 x, d;
	size_t		 i, j;
	int		 ok, res = 0;

	mpz_inits(x, d, NULL);
	if (mpz_cmp(f, o) == 0) {
		pos_sg(p, x);
		res = mpz_sgn(x) != 0;
	} else if (mpz_cmp(f, o) > 0) {
		for (i = 0; i < p->n && !res; i++) {
			if (mpz_cmp(p->a[i], o) >= 0)
				res = 1;
			mpz_xor(x, x, p->a[i]);
		}
		res = res || mpz_sgn(x) != 0;
	} else {
		for (i = 0; i < p->n && !res; i++) {
			mpz_set_ui(x, 0);
			ok = 1;
			for (j = 0; j < p->n && ok; j++) {
				if (j == i)
					continue;
				if (mpz_cmp(p->a[j], f) >= 0)
					ok = 0;
				mpz_xor(x, x, p->a[j]);
			}
			/* Pile i -> x: lower, small, and not removing f. */
			mpz_sub(d, p->a[i], x);
			res = ok && mpz_sgn(d) > 0 && mpz_cmp(x, f) < 0 &&
			    mpz_cmp(d, f) != 0;
		}
	}
	mpz_clears(x, d, NULL);
	return (res);
}

/* Prints a position in the canonical notation. */
static void
pos_print(const struct pos *p, struct buf *b)
{
	size_t	 i;

	buf_puts(b, "klnim k=");
	buf_mpz(b, p->k);
	buf_puts(b, " l=");
	buf_mpz(b, p->l);
	buf_printf(b, " turn=%d", p->turn);
	for (i = 0; i < p->n; i++) {
		buf_putc(b, ' ');
		buf_mpz(b, p->a[i]);
	}
}

/* Initialises p as a copy of q. */
static void
pos_copy(struct pos *p, const struct pos *q)
{
	size_t	 i;

	mpz_init_set(p->k, q->k);
	mpz_init_set(p->l, q->l);
	p->turn = q->turn;
	p->n = q->n;
	for (i = 0; i < q->n; i++)
		mpz_init_set(p->a[i], q->a[i]);
}

/* Frees a position's numbers. */
static void
pos_clear(struct pos *p)
{
	size_t	 i;

	mpz_clears(p->k, p->l, NULL);
	for (i = 0; i < p->n; i++)
		mpz_clear(p->a[i]);
}

/* Huge-number check state: the game, its independent copy, randomness. */
struct huge {
	struct game	 g;
	struct pos	 p;
	gmp_randstate_t	 rs;
	int		 replay;	/* also play on the game and compare */
	unsigned long	 nchecks;
};

/* Starts a run of checks with its own random sequence. */
static void
huge_init(struct huge *h, unsigned long seed)
{
	gmp_randinit_default(h->rs);
	gmp_randseed_ui(h->rs, seed);
	h->replay = 0;
	h->nchecks = 0;
}

/*
 * Moves pile i to v; checks legality independently and that the opponent
 * then loses (want_win 1) or wins (want_win 0).  A value removing the
 * forbidden amount must be refused and must not be listed as winning.
 */
static void
huge_try(struct huge *h, size_t i, const mpz_t v, int want_win)
{
	struct game_error err;
	struct game_move m;
	struct game	 c;
	struct pos	 q;
	struct buf	 a, b;
	mpz_srcptr	 f = h->p.turn == 1 ? h->p.k : h->p.l;
	mpz_t		 d;
	int		 rv;

	h->nchecks++;
	mpz_init(d);
	mpz_sub(d, h->p.a[i], v);
	assert_true(mpz_sgn(v) >= 0 && mpz_sgn(d) > 0);
	game_move_init(&m);
	game_move_add(&m, 0, i + 1, v);
	rv = game_check(&h->g, &m, &err);
	if (mpz_cmp(d, f) == 0) {
		assert_false(want_win);
		assert_int_equal(rv, -1);
		assert_int_equal(err.code, GAME_EILLEGAL);
		goto out;
	}
	assert_int_equal(rv, 0);
	pos_copy(&q, &h->p);
	mpz_set(q.a[i], v);
	q.turn = 3 - q.turn;
	if (pos_wins(&q) == want_win) {
		buf_init(&a);
		pos_print(&h->p, &a);
		print_error("%s: move %zu=... is %s\n", buf_str(&a), i + 1,
		    want_win ? "listed but does not win" :
		    "not listed but wins");
		buf_free(&a);
		fail();
	}
	if (h->replay) {
		h->replay = 0;
		game_clone(&c, &h->g);
		assert_int_equal(game_play(&c, &m, &err), 0);
		buf_init(&b);
		pos_print(&q, &b);
		tu_print_is(&c, buf_str(&b));
		buf_free(&b);
		game_free(&c);
	}
	pos_clear(&q);
out:
	game_move_clear(&m);
	mpz_clear(d);
}

/* Tries lo, hi, their neighbours inside [lo, hi] and random points. */
static void
huge_try_range(struct huge *h, size_t i, const mpz_t lo, const mpz_t hi,
    int want_win)
{
	mpz_t	 v, w;
	int	 r;

	if (mpz_cmp(lo, hi) > 0)
		return;
	mpz_inits(v, w, NULL);
	huge_try(h, i, lo, want_win);
	if (mpz_cmp(lo, hi) != 0)
		huge_try(h, i, hi, want_win);
	mpz_add_ui(v, lo, 1);
	if (mpz_cmp(v, hi) < 0) {
		huge_try(h, i, v, want_win);
		mpz_sub_ui(v, hi, 1);
		huge_try(h, i, v, want_win);
		mpz_sub(w, hi, lo);
		for (r = 0; r < 2; r++) {
			mpz_urandomm(v, h->rs, w);
			mpz_add(v, v, lo);
			huge_try(h, i, v, want_win);
		}
	}
	mpz_clears(v, w, NULL);
}

/*
 * Checks one_winning at h->p (parsed in h->g): a legal move after which the
 * independent predicate says the opponent loses, or GAME_EILLEGAL when the
 * mover loses.
 */
static void
huge_one(struct huge *h, int win)
{
	struct game_error err;
	struct game_move mv;

	game_move_init(&mv);
	game_move_add_ui(&mv, 0, 9, 9);	/* stale content is replaced */
	memset(&err, 0, sizeof err);
	if (!win) {
		assert_int_equal(h->g.fam->one_winning(h->g.st, &mv, &err), -1);
		assert_int_equal(err.code, GAME_EILLEGAL);
	} else {
		assert_int_equal(h->g.fam->one_winning(h->g.st, &mv, &err), 0);
		assert_int_equal(mv.n, 1);
		assert_int_equal(mv.ch[0].comp, 0);
		assert_true(mv.ch[0].idx >= 1 && mv.ch[0].idx <= h->p.n);
		huge_try(h, mv.ch[0].idx - 1, mv.ch[0].val, 1);
	}
	game_move_clear(&mv);
}

/* Parses line with the test limits but at most max_moves set entries. */
static void
parse_cap(struct game *g, const char *line, size_t max_moves)
{
	struct game_limits lim;
	struct game_error err;

	lim = *tu_limits();
	lim.max_moves = max_moves;
	if (game_parse_line(g, line, &lim, &err) != 0) {
		print_error("parse '%.60s...': %s\n", line, err.msg);
		fail();
	}
}

/*
 * The cap is exact: with max_moves = n, the size of the complete set full,
 * the same set comes back; with n - 1 the set fails with GAME_ELIMIT.
 */
static void
check_cap(const char *line, const struct game_moveset *full)
{
	struct game_moveset ms;
	struct game_error err;
	struct game	 g;
	size_t		 i;

	parse_cap(&g, line, full->n);
	game_moveset_init(&ms);
	assert_int_equal(game_winning(&g, &ms, &err), 0);
	assert_int_equal(ms.n, full->n);
	for (i = 0; i < ms.n; i++) {
		assert_int_equal(game_move_cmp(&ms.v[i].mv, &full->v[i].mv), 0);
		assert_int_equal(ms.v[i].ranged, full->v[i].ranged);
		if (ms.v[i].ranged)
			assert_int_equal(mpz_cmp(ms.v[i].hi, full->v[i].hi), 0);
	}
	game_free(&g);
	if (full->n > 0) {
		parse_cap(&g, line, full->n - 1);
		game_moveset_reset(&ms);
		memset(&err, 0, sizeof err);
		assert_int_equal(game_winning(&g, &ms, &err), -1);
		assert_int_equal(err.code, GAME_ELIMIT);
		assert_non_null(strstr(err.msg, "max_moves"));
		game_free(&g);
	}
	game_moveset_clear(&ms);
}

/*
 * Checks the solver at h->p: outcome, canonical form, every listed range
 * (sampled) wins, and the gaps between ranges (sampled) do not; one_winning
 * wins; for the strong mover the max_moves cap is exact.
 */
static void
huge_check(struct huge *h)
{
	struct game_moveset ms;
	struct game_error err;
	const struct game_moveset_ent *e;
	struct buf	 line;
	mpz_t		 next, gap, t;
	size_t		 i, j, first, cnt, stride;
	int		 win;

	buf_init(&line);
	pos_print(&h->p, &line);
	tu_parse(&h->g, "%s", buf_str(&line));
	win = pos_wins(&h->p);
	assert_int_equal(game_outcome(&h->g, &err), win ? GAME_N : GAME_P);
	game_moveset_init(&ms);
	assert_int_equal(game_winning(&h->g, &ms, &err), 0);
	tu_check_canonical(&ms, mpz_cmp(h->p.k, h->p.l) != 0);
	assert_int_equal(ms.n > 0, win);
	h->replay = 1;
	huge_one(h, win);
	if (mpz_cmp(h->p.turn == 1 ? h->p.k : h->p.l,
	    h->p.turn == 1 ? h->p.l : h->p.k) > 0)
		check_cap(buf_str(&line), &ms);
	mpz_inits(next, gap, t, NULL);
	for (i = 0, j = 0; i < h->p.n; i++) {
		/* Entries [first, first + cnt) are pile i's, in order. */
		for (first = j; j < ms.n && ms.v[j].mv.ch[0].idx == i + 1; j++)
			;
		cnt = j - first;
		stride = cnt > 24 ? cnt / 24 : 1;
		mpz_set_ui(next, 0);
		for (e = &ms.v[first]; e < &ms.v[first + cnt]; e++) {
			if ((size_t)(e - &ms.v[first]) % stride == 0 ||
			    e == &ms.v[first + cnt - 1]) {
				mpz_sub_ui(gap, e->mv.ch[0].val, 1);
				huge_try_range(h, i, next, gap, 0);
				huge_try_range(h, i, e->mv.ch[0].val,
				    e->ranged ? e->hi : e->mv.ch[0].val, 1);
			}
			mpz_add_ui(next, e->ranged ? e->hi : e->mv.ch[0].val,
			    1);
		}
		mpz_sub_ui(gap, h->p.a[i], 1);
		huge_try_range(h, i, next, gap, 0);
	}
	assert_int_equal(j, ms.n);
	mpz_clears(next, gap, t, NULL);
	game_moveset_clear(&ms);
	game_free(&h->g);
	buf_free(&line);
}

/* Sets x to a pile of a random kind around m and M; s: XOR of small piles. */
static void
huge_pile(struct huge *h, mpz_t x, const mpz_t m, const mpz_t bm,
    const mpz_t s)
{
	switch (gmp_urandomm_ui(h->rs, 11)) {
	case 0:
		mpz_urandomm(x, h->rs, m);
		break;
	case 1:
		mpz_set(x, m);
		break;
	case 2:
		mpz_add_ui(x, m, gmp_urandomm_ui(h->rs, 4));
		break;
	case 3:
		mpz_urandomm(x, h->rs, m);
		mpz_add(x, x, m);
		break;
	case 4:
		mpz_add_ui(x, bm, gmp_urandomm_ui(h->rs, 3));
		mpz_sub_ui(x, x, 1);
		break;
	case 5:
		mpz_set(x, s);
		break;
	case 6:
		mpz_add(x, s, m);
		break;
	case 7:
		mpz_add(x, s, bm);
		break;
	case 8:
		mpz_urandomb(x, h->rs, 6);
		break;
	case 9:
		mpz_urandomb(x, h->rs, mpz_sizeinbase(bm, 2) + 4);
		break;
	default:
		mpz_set_ui(x, 0);
		break;
	}
}

/* Fills h->p with n random piles for the forbidden amounts m < M. */
static void
huge_fill(struct huge *h, size_t n, const mpz_t m, const mpz_t bm)
{
	mpz_t	 s;
	size_t	 i;

	mpz_init(s);
	h->p.n = n;
	for (i = 0; i < n; i++) {
		mpz_init(h->p.a[i]);
		huge_pile(h, h->p.a[i], m, bm, s);
		if (mpz_cmp(h->p.a[i], m) < 0)
			mpz_xor(s, s, h->p.a[i]);
	}
	mpz_clear(s);
}

/*
 * Runs check on h->p with (k, l) = (m, bm) and (bm, m), each for both
 * movers; then frees the piles huge_fill made.
 */
static void
huge_orders(struct huge *h, const mpz_t m, const mpz_t bm,
    void (*check)(struct huge *))
{
	size_t	 i;
	int	 sw, turn;

	for (sw = 0; sw < 2; sw++) {
		mpz_init_set(h->p.k, sw ? bm : m);
		mpz_init_set(h->p.l, sw ? m : bm);
		for (turn = 1; turn <= 2; turn++) {
			h->p.turn = turn;
			check(h);
		}
		mpz_clears(h->p.k, h->p.l, NULL);
	}
	for (i = 0; i < h->p.n; i++)
		mpz_clear(h->p.a[i]);
}

/*
 * One mid-sized position h->p: its winning moves are the legal moves after
 * which the characterisation says the opponent loses; the cap is exact.
 */
static void
medium_check(struct huge *h)
{
	struct game_moveset ms;
	struct game_error err;
	struct tu_strs	 wins;
	struct buf	 line;
	struct pos	 q;
	mpz_t		 d;
	unsigned long	 v, a;
	size_t		 i;
	int		 turn = h->p.turn;

	mpz_init(d);
	tu_strs_init(&wins);
	pos_copy(&q, &h->p);
	q.turn = 3 - turn;
	for (i = 0; i < h->p.n; i++) {
		a = mpz_get_ui(h->p.a[i]);
		for (v = 0; v < a; v++) {
			mpz_set_ui(q.a[i], v);
			mpz_sub_ui(d, h->p.a[i], v);
			if (mpz_cmp(d, turn == 1 ? h->p.k : h->p.l) != 0 &&
			    !pos_wins(&q))
				tu_strs_add(&wins, "%zu=%lu", i + 1, v);
		}
		mpz_set(q.a[i], h->p.a[i]);
	}
	pos_clear(&q);
	buf_init(&line);
	pos_print(&h->p, &line);
	tu_parse(&h->g, "%s", buf_str(&line));
	tu_check(&h->g, pos_wins(&h->p), -1, &wins);
	huge_one(h, pos_wins(&h->p));
	if (mpz_cmp(turn == 1 ? h->p.k : h->p.l,
	    turn == 1 ? h->p.l : h->p.k) > 0) {
		game_moveset_init(&ms);
		assert_int_equal(game_winning(&h->g, &ms, &err), 0);
		check_cap(buf_str(&line), &ms);
		game_moveset_clear(&ms);
	}
	game_free(&h->g);
	tu_strs_free(&wins);
	buf_free(&line);
	mpz_clear(d);
}

/*
 * Mid-sized numbers (k, l < 100, piles < 2,000), where the brute force is
 * too slow: the complete winning set, expanded, equals the set of legal
 * moves after which the independent characterisation says the opponent
 * loses; one_winning wins; the max_moves cap on the strong set is exact.
 */
static void
test_klnim_medium(void **state)
{
	struct huge	 h;
	mpz_t		 m, bm;
	int		 t;

	(void)state;
	huge_init(&h, 4242);
	h.replay = 1;
	mpz_inits(m, bm, NULL);
	for (t = 0; t < 1500; t++) {
		mpz_set_ui(m, 1 + gmp_urandomm_ui(h.rs, 48));
		mpz_add_ui(bm, m, 1 + gmp_urandomm_ui(h.rs, 48));
		huge_fill(&h, 2 + (size_t)t % 3, m, bm);
		huge_orders(&h, m, bm, medium_check);
	}
	mpz_clears(m, bm, NULL);
	gmp_randclear(h.rs);
}

/*
 * k != l with 1,000-digit k, l and piles (and a few tiny m): each position
 * for both movers and both orders of k and l.
 */
static void
test_klnim_huge_partizan(void **state)
{
	struct huge	 h;
	mpz_t		 m, bm;
	int		 t;

	(void)state;
	huge_init(&h, 20240601);
	mpz_inits(m, bm, NULL);
	for (t = 0; t < 360; t++) {
		if (t % 6 == 5)
			mpz_set_ui(m, 1 + gmp_urandomm_ui(h.rs, 3));
		else {
			mpz_urandomb(m, h.rs, 3400);
			mpz_setbit(m, 3400);
		}
		switch (t % 4) {
		case 0:
			mpz_add_ui(bm, m, 1 + gmp_urandomm_ui(h.rs, 3));
			break;
		case 1:
			mpz_mul_2exp(bm, m, 1);
			break;
		case 2:
			mpz_urandomb(bm, h.rs, 3400);
			mpz_add(bm, bm, m);
			mpz_add_ui(bm, bm, 1);
			break;
		default:
			mpz_urandomb(bm, h.rs, 3500);
			mpz_setbit(bm, 3500);
			break;
		}
		huge_fill(&h, 1 + (size_t)t % 5, m, bm);
		huge_orders(&h, m, bm, huge_check);
	}
	assert_true(h.nchecks > 30000);
	mpz_clears(m, bm, NULL);
	gmp_randclear(h.rs);
}

/* Asserts that 20 random lowerings that ms does not list miss target. */
static void
check_unlisted(struct huge *h, const struct game_moveset *ms,
    const mpz_t target)
{
	struct pos	 q;
	mpz_t		 v, x;
	size_t		 i, j;
	int		 r;

	mpz_inits(v, x, NULL);
	for (r = 0; r < 20; r++) {
		j = gmp_urandomm_ui(h->rs, h->p.n);
		if (mpz_sgn(h->p.a[j]) == 0)
			continue;
		mpz_urandomm(v, h->rs, h->p.a[j]);
		mpz_sub(x, h->p.a[j], v);
		if (mpz_cmp(x, h->p.k) == 0)
			continue;
		for (i = 0; i < ms->n; i++)
			if (ms->v[i].mv.ch[0].idx == j + 1 &&
			    mpz_cmp(ms->v[i].mv.ch[0].val, v) == 0)
				break;
		if (i < ms->n)
			continue;
		pos_copy(&q, &h->p);
		mpz_set(q.a[j], v);
		pos_sg(&q, x);
		assert_int_not_equal(mpz_cmp(x, target), 0);
		pos_clear(&q);
	}
	mpz_clears(v, x, NULL);
}

/*
 * k == l with 1,000-digit numbers: winning moves and to_grundy moves reach
 * the target by the independent Grundy formula; other moves do not.
 */
static void
test_klnim_huge_impartial(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct huge	 h;
	struct buf	 line;
	struct pos	 q;
	mpz_t		 bm, x, target, v;
	size_t		 i, j;
	int		 t;

	(void)state;
	huge_init(&h, 777);
	mpz_inits(bm, x, target, v, NULL);
	buf_init(&line);
	for (t = 0; t < 60; t++) {
		mpz_init(h.p.k);
		mpz_urandomb(h.p.k, h.rs, 3400);
		mpz_setbit(h.p.k, 3400);
		mpz_init_set(h.p.l, h.p.k);
		mpz_mul_2exp(bm, h.p.k, 1);
		h.p.turn = 1 + t % 2;
		huge_fill(&h, 1 + (size_t)t % 6, h.p.k, bm);
		huge_check(&h);

		/* Grundy value and to_grundy against the test's formula. */
		buf_reset(&line);
		pos_print(&h.p, &line);
		tu_parse(&h.g, "%s", buf_str(&line));
		assert_int_equal(game_grundy(&h.g, x, &err), 0);
		pos_sg(&h.p, target);
		assert_int_equal(mpz_cmp(x, target), 0);
		if (t % 2 == 0)
			mpz_urandomb(target, h.rs, 3400);
		else
			mpz_xor(target, x, h.p.a[0]);
		game_moveset_init(&ms);
		assert_int_equal(h.g.fam->to_grundy(h.g.st, target, &ms, &err),
		    0);
		for (i = 0; i < ms.n; i++) {
			assert_false(ms.v[i].ranged);
			j = ms.v[i].mv.ch[0].idx - 1;
			mpz_sub(v, h.p.a[j], ms.v[i].mv.ch[0].val);
			assert_true(mpz_sgn(v) > 0);
			assert_true(mpz_cmp(v, h.p.k) != 0);
			pos_copy(&q, &h.p);
			mpz_set(q.a[j], ms.v[i].mv.ch[0].val);
			pos_sg(&q, x);
			assert_int_equal(mpz_cmp(x, target), 0);
			pos_clear(&q);
		}
		check_unlisted(&h, &ms, target);
		game_moveset_clear(&ms);
		game_free(&h.g);
		pos_clear(&h.p);
	}
	assert_true(h.nchecks > 1000);
	buf_free(&line);
	mpz_clears(bm, x, target, v, NULL);
	gmp_randclear(h.rs);
}

/*
 * Fills h->p with a strong mover and many ranges: m has bits + 1 bits;
 * kind 0: k = m, l = m + 1, player 2 to move, piles m, m and two random
 * small piles, only the first as long as m (so their XOR is: many
 * pulled-back blocks); kind 1: the same with k and l swapped and player 1
 * to move; kind 2: k = m, l = 2m, player 2, one big pile m + 3 and three
 * random small piles, again only the first as long as m.
 */
static void
ranges_fill(struct huge *h, size_t bits, int kind)
{
	mpz_t	 m;
	size_t	 i;

	mpz_init(m);
	mpz_urandomb(m, h->rs, bits);
	mpz_setbit(m, bits);
	mpz_setbit(m, bits - 1);
	mpz_init_set(h->p.k, m);
	mpz_init(h->p.l);
	if (kind == 2)
		mpz_mul_2exp(h->p.l, m, 1);
	else
		mpz_add_ui(h->p.l, m, 1);
	h->p.turn = 2;
	if (kind == 1) {
		mpz_swap(h->p.k, h->p.l);
		h->p.turn = 1;
	}
	h->p.n = 4;
	for (i = 0; i < h->p.n; i++) {
		mpz_init(h->p.a[i]);
		if (i < (kind == 2 ? 1U : 2U))
			mpz_add_ui(h->p.a[i], m, kind == 2 ? 3 : 0);
		else if (i == (kind == 2 ? 1U : 2U)) {
			/* In [2^bits, m). */
			mpz_clrbit(m, bits);
			mpz_urandomm(h->p.a[i], h->rs, m);
			mpz_setbit(m, bits);
			mpz_setbit(h->p.a[i], bits);
		} else
			mpz_urandomb(h->p.a[i], h->rs, bits);
	}
	mpz_clear(m);
}

/*
 * A strong mover with 10,000-digit numbers and many ranges: under a large
 * cap the output stays O(b) ranges per pile and takes polynomial time; the
 * default cap refuses it; one_winning still wins.
 */
static void
test_klnim_huge_ranges(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct huge	 h;
	struct buf	 line;
	size_t		 bits = 33300;

	(void)state;
	huge_init(&h, 99);
	h.replay = 1;
	ranges_fill(&h, bits, 0);
	buf_init(&line);
	pos_print(&h.p, &line);
	parse_cap(&h.g, buf_str(&line), 1000000);
	assert_int_equal(game_outcome(&h.g, &err), GAME_N);
	game_moveset_init(&ms);
	assert_int_equal(game_winning(&h.g, &ms, &err), 0);
	tu_check_canonical(&ms, 1);
	assert_true(ms.n > bits / 8);
	assert_true(ms.n <= 4 * (bits + 8));
	huge_one(&h, 1);
	game_free(&h.g);

	/* The default cap (10,000 entries) refuses this set. */
	assert_true(ms.n > 10000);
	tu_parse(&h.g, "%s", buf_str(&line));
	game_moveset_reset(&ms);
	memset(&err, 0, sizeof err);
	assert_int_equal(game_winning(&h.g, &ms, &err), -1);
	assert_int_equal(err.code, GAME_ELIMIT);
	assert_non_null(strstr(err.msg, "more than 10000 ranges"));
	huge_one(&h, 1);
	game_free(&h.g);
	game_moveset_clear(&ms);
	pos_clear(&h.p);
	buf_free(&line);
	gmp_randclear(h.rs);
}

/*
 * Strong movers whose sets pass max_moves = 16: winning fails with
 * GAME_ELIMIT and a message, the analysis says "winning over-limit", and
 * the engine still plays a winning move, both deterministically (directly
 * by one_winning) and at random (by falling back to it).
 */
static void
test_klnim_over_limit(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct game_move mv;
	enum engine_why	 why;
	struct huge	 h;
	struct buf	 line, out;
	int		 kind, r;

	(void)state;
	huge_init(&h, 16);
	buf_init(&line);
	buf_init(&out);
	game_moveset_init(&ms);
	for (kind = 0; kind < 3; kind++) {
		ranges_fill(&h, 3000, kind);
		buf_reset(&line);
		pos_print(&h.p, &line);
		parse_cap(&h.g, buf_str(&line), 1000000);
		game_moveset_reset(&ms);
		assert_int_equal(game_winning(&h.g, &ms, &err), 0);
		assert_true(ms.n > 16);
		game_free(&h.g);

		parse_cap(&h.g, buf_str(&line), 16);
		game_moveset_reset(&ms);
		memset(&err, 0, sizeof err);
		assert_int_equal(game_winning(&h.g, &ms, &err), -1);
		assert_int_equal(err.code, GAME_ELIMIT);
		assert_non_null(strstr(err.msg,
		    "more than 16 ranges (max_moves)"));
		buf_reset(&out);
		assert_int_equal(format_analysis(&h.g, &out, &err), 0);
		assert_non_null(strstr(buf_str(&out), "winning over-limit\n"));
		for (r = 0; r < 2; r++) {
			game_move_init(&mv);
			why = 0;
			assert_int_equal(engine_choose(&h.g, r ? h.rs : NULL,
			    &mv, &why, &err), 0);
			assert_int_equal(why, ENGINE_WIN);
			assert_int_equal(mv.n, 1);
			assert_true(mv.ch[0].idx >= 1 &&
			    mv.ch[0].idx <= h.p.n);
			h.replay = 1;
			huge_try(&h, mv.ch[0].idx - 1, mv.ch[0].val, 1);
			game_move_clear(&mv);
		}
		game_free(&h.g);
		pos_clear(&h.p);
	}
	game_moveset_clear(&ms);
	buf_free(&line);
	buf_free(&out);
	gmp_randclear(h.rs);
}

/*
 * 30,000-digit numbers under the default cap: winning returns at once
 * (the set fits, or GAME_ELIMIT) instead of building gigabytes of ranges,
 * and one_winning and the engine still win.
 */
static void
test_klnim_huge_cap(void **state)
{
	struct game_moveset ms;
	struct game_error err;
	struct game_move mv;
	enum engine_why	 why;
	struct huge	 h;
	struct buf	 line;
	int		 kind, rv;

	(void)state;
	huge_init(&h, 30000);
	buf_init(&line);
	for (kind = 0; kind < 3; kind++) {
		ranges_fill(&h, 99660, kind);
		buf_reset(&line);
		pos_print(&h.p, &line);
		tu_parse(&h.g, "%s", buf_str(&line));
		game_moveset_init(&ms);
		memset(&err, 0, sizeof err);
		rv = game_winning(&h.g, &ms, &err);
		assert_true(rv == 0 || (rv == -1 && err.code == GAME_ELIMIT));
		assert_true(ms.n <= tu_limits()->max_moves);
		game_moveset_clear(&ms);
		h.replay = 1;
		huge_one(&h, 1);
		game_move_init(&mv);
		assert_int_equal(engine_choose(&h.g, h.rs, &mv, &why, &err), 0);
		assert_int_equal(why, ENGINE_WIN);
		huge_try(&h, mv.ch[0].idx - 1, mv.ch[0].val, 1);
		game_move_clear(&mv);
		game_free(&h.g);
		pos_clear(&h.p);
	}
	buf_free(&line);
	gmp_randclear(h.rs);
}

TU_MAIN("klnim-huge",
    cmocka_unit_test(test_klnim_medium),
    cmocka_unit_test(test_klnim_huge_partizan),
    cmocka_unit_test(test_klnim_huge_impartial),
    cmocka_unit_test(test_klnim_huge_ranges),
    cmocka_unit_test(test_klnim_over_limit),
    cmocka_unit_test(test_klnim_huge_cap))
