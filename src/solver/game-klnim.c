/*
 * game-klnim.c: K-L-Nim (games.md §8).  Position: piles a_1..a_n and the
 * player to move.  Move: lower one pile, except that player 1 (who moved
 * first) may never remove exactly k tokens and player 2 never exactly l.
 * k == l is impartial (§8a); k != l is partizan (§8b): with m = min(k,l),
 * M = max(k,l) and Z = {every pile < m, XOR 0}, the strong player (forbidden
 * M) wins iff the position is not in Z, the weak player (forbidden m) wins
 * iff he can move into Z.  The strong player's complete winning set can hold
 * O(n b) ranges of O(b) bits; it is refused (GAME_ELIMIT) beyond max_moves
 * entries, and one_winning names a single winning move in O(n b) instead.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"

/* K-L-Nim state: the forbidden amounts, the player to move, the piles. */
struct klnim {
	struct game_piles pl;		/* first: see game_piles_apply */
	mpz_t		 k;		/* player 1 may not remove exactly k */
	mpz_t		 l;		/* player 2 may not remove exactly l */
	int		 turn;		/* 1 or 2 */
	size_t		 max_moves;	/* entries in one winning-move set */
};

/* A candidate interval [lo, hi] of new values for one pile. */
struct klnim_ival {
	mpz_t		 lo;
	mpz_t		 hi;
};

/* A growable list of intervals; entries [0, cap) are initialised. */
struct klnim_ivals {
	size_t		 n;
	size_t		 cap;
	struct klnim_ival *v;
};

/* Cloned, freed and printed by game_layout_clone, _free and _print. */
static const struct game_layout klnim_layout = { sizeof (struct klnim), 3, {
    { "k", offsetof(struct klnim, k), GAME_FIELD_MPZ },
    { "l", offsetof(struct klnim, l), GAME_FIELD_MPZ },
    { "turn", offsetof(struct klnim, turn), GAME_FIELD_INT } } };

#define KLNIM_NO_ZERO	"use nim for no restriction"

/* Parses klnim k=K l=L [turn=1|2] PILE... */
static int
klnim_parse(void **stp, int argc, char **argv, const struct game_limits *lim,
    struct game_error *err)
{
	struct game_key	 keys[] = { { "k", NULL }, { "l", NULL },
	    { "turn", NULL } };
	struct klnim	*st;
	int		 pos;

	if (game_parse_keys("klnim", argc, argv, keys, 3, &pos, err) != 0)
		return (-1);
	if (keys[0].val == NULL || keys[1].val == NULL)
		return (game_set_error(err, GAME_ESYNTAX,
		    "klnim: missing key '%s' (klnim k=K l=L [turn=1|2] "
		    "PILE...)", keys[0].val == NULL ? "k" : "l"));
	if (keys[2].val != NULL && strcmp(keys[2].val, "1") != 0 &&
	    strcmp(keys[2].val, "2") != 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "klnim: turn '%.40s': must be 1 or 2", keys[2].val));
	st = xcalloc(1, sizeof *st);
	mpz_inits(st->k, st->l, NULL);
	st->turn = keys[2].val != NULL && keys[2].val[0] == '2' ? 2 : 1;
	st->max_moves = lim->max_moves;
	/* A forbidden amount k or l is at least 1. */
	if (game_parse_pos(st->k, keys[0].val, "klnim: k", KLNIM_NO_ZERO, lim,
	    err) != 0 ||
	    game_parse_pos(st->l, keys[1].val, "klnim: l", KLNIM_NO_ZERO, lim,
	    err) != 0) {
		game_layout_free(&klnim_layout, st);
		return (-1);
	}
	return (game_piles_finish(&klnim_layout, st, stp, argc - pos,
	    argv + pos, "pile", lim, err));
}

/* Returns the amount the player to move may not remove. */
static mpz_srcptr
klnim_forbidden(const struct klnim *st)
{
	return (st->turn == 1 ? st->k : st->l);
}

/* Returns the amount the other player may not remove. */
static mpz_srcptr
klnim_other(const struct klnim *st)
{
	return (st->turn == 1 ? st->l : st->k);
}

/* Checks a move: one pile, lowered, not by the mover's forbidden amount. */
static int
klnim_check(const void *p, const struct game_move *m, struct game_error *err)
{
	const struct klnim *st = p;
	mpz_srcptr	 f = klnim_forbidden(st);
	int		 i, cmp;

	if ((i = game_check_removal_cmp(m, st->pl.n, st->pl.v, "pile", f,
	    &cmp, err)) < 0)
		return (-1);
	if (cmp != 0)
		return (0);
	if (mpz_fits_ulong_p(f))
		return (game_set_error(err, GAME_EILLEGAL,
		    "pile %d: player %d may not remove exactly %lu tokens "
		    "(%s=%lu)", i + 1, st->turn, mpz_get_ui(f),
		    st->turn == 1 ? "k" : "l", mpz_get_ui(f)));
	return (game_set_error(err, GAME_EILLEGAL,
	    "pile %d: player %d may not remove exactly %s tokens", i + 1,
	    st->turn, st->turn == 1 ? "k" : "l"));
}

/*
 * Applies a checked move; the other player moves next (so the piles'
 * inverse serves: its move back, applied, flips the turn back too).
 */
static void
klnim_apply(void *p, const struct game_move *m)
{
	struct klnim	*st = p;

	game_piles_set(st->pl.v, m);
	st->turn = 3 - st->turn;
}

/*
 * Returns 1 when the mover has no legal move: every pile is empty, or the
 * mover may not remove exactly 1 and no pile holds more than 1.
 */
static int
klnim_terminal(const void *p)
{
	const struct klnim *st = p;
	int		 one = mpz_cmp_ui(klnim_forbidden(st), 1) == 0;

	return (game_piles_below(st->pl.v, st->pl.n, one ? 2 : 1));
}

/* Sets g to the Grundy value of a pile x when k == l (§8a). */
static void
klnim_pile_sg(mpz_t g, const mpz_t x, const mpz_t k)
{
	mpz_t	 t;

	mpz_init(t);
	mpz_mul_2exp(t, k, 1);
	mpz_fdiv_q(g, x, t);
	mpz_mul(g, g, k);
	mpz_fdiv_r(t, x, k);
	mpz_add(g, g, t);
	mpz_clear(t);
}

/* The Grundy value of one pile a (k == l), for game_pilesum_*. */
static void
klnim_sum_sg(const void *p, const mpz_t a, mpz_t g)
{
	const struct klnim *st = p;

	klnim_pile_sg(g, a, st->k);
}

/* Sets x to the XOR of the pile Grundy values (k == l). */
static void
klnim_sg_xor(const struct klnim *st, mpz_t x)
{
	game_pilesum_xor(st, &st->pl, klnim_sum_sg, x);
}

/*
 * Counts the piles >= m (big); sets s to the XOR of the others and big[0],
 * big[1] to the indices of the first two big piles.
 */
static size_t
klnim_census(const struct klnim *st, const mpz_t m, mpz_t s, size_t big[2])
{
	size_t	 i, c = 0;

	mpz_set_ui(s, 0);
	big[0] = big[1] = 0;
	for (i = 0; i < st->pl.n; i++) {
		if (mpz_cmp(st->pl.v[i], m) >= 0) {
			if (c < 2)
				big[c] = i;
			c++;
		} else
			mpz_xor(s, s, st->pl.v[i]);
	}
	return (c);
}

/* Returns 1 if the big pile a can go to s < m without removing exactly m. */
static int
klnim_to_z(const mpz_t a, const mpz_t s, const mpz_t m)
{
	mpz_t	 d;
	int	 ok;

	if (mpz_cmp(s, m) >= 0)
		return (0);
	mpz_init(d);
	mpz_sub(d, a, s);
	ok = mpz_cmp(d, m) != 0;
	mpz_clear(d);
	return (ok);
}

/* Returns the outcome; k != l follows the theorem of §8b. */
static int
klnim_outcome(const void *p, struct game_error *err)
{
	const struct klnim *st = p;
	mpz_srcptr	 f = klnim_forbidden(st), o = klnim_other(st);
	size_t		 c, big[2];
	mpz_t		 x;
	int		 out;

	(void)err;
	mpz_init(x);
	if (mpz_cmp(f, o) == 0) {
		klnim_sg_xor(st, x);
		out = mpz_sgn(x) != 0 ? GAME_N : GAME_P;
	} else if (mpz_cmp(f, o) > 0) {
		/* Strong mover: wins iff the position is not in Z. */
		c = klnim_census(st, o, x, big);
		out = c == 0 && mpz_sgn(x) == 0 ? GAME_P : GAME_N;
	} else {
		/* Weak mover: wins iff he can move into Z. */
		c = klnim_census(st, f, x, big);
		if (c == 0)
			out = mpz_sgn(x) != 0 ? GAME_N : GAME_P;
		else if (c == 1)
			out = klnim_to_z(st->pl.v[big[0]], x, f) ? GAME_N :
			    GAME_P;
		else
			out = GAME_P;
	}
	mpz_clear(x);
	return (out);
}

/* Sets g to the XOR of the pile Grundy values (k == l only). */
static int
klnim_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct klnim *st = p;

	if (mpz_cmp(st->k, st->l) != 0)
		return (game_set_error(err, GAME_ENOGRUNDY,
		    "K-L-Nim with k != l is partizan: it has no Grundy value"));
	klnim_sg_xor(st, g);
	return (0);
}

/*
 * Appends the moves of pile idx, holding a, to Grundy value t = kq + r (k ==
 * l): its preimages 2kq + r and 2kq + k + r when lower and the removal is not
 * k (§8a).
 */
static void
klnim_pile_to(const void *p, size_t idx, const mpz_t a, const mpz_t t,
    struct game_moveset *ms)
{
	const struct klnim *st = p;
	mpz_t		 q, v, d;
	int		 j;

	mpz_inits(q, v, d, NULL);
	mpz_fdiv_qr(q, v, t, st->k);
	mpz_mul(q, q, st->k);
	mpz_addmul_ui(v, q, 2);
	for (j = 0; j < 2 && mpz_cmp(v, a) < 0; j++) {
		mpz_sub(d, a, v);
		if (mpz_cmp(d, st->k) != 0)
			game_moveset_add1(ms, idx, v);
		mpz_add(v, v, st->k);
	}
	mpz_clears(q, v, d, NULL);
}

/* Appends every move to Grundy value target (k == l). */
static int
klnim_to_grundy(const void *p, const mpz_t target, struct game_moveset *ms,
    struct game_error *err)
{
	const struct klnim *st = p;

	if (mpz_cmp(st->k, st->l) != 0)
		return (klnim_grundy(p, NULL, err));
	if (mpz_sgn(target) < 0)
		return (0);
	game_pilesum_to_grundy(st, &st->pl, klnim_sum_sg, klnim_pile_to,
	    target, ms);
	return (0);
}

/* Initialises an empty interval list. */
static void
klnim_ivals_init(struct klnim_ivals *iv)
{
	iv->n = 0;
	iv->cap = 0;
	iv->v = NULL;
}

/* Frees an interval list. */
static void
klnim_ivals_clear(struct klnim_ivals *iv)
{
	size_t	 i;

	for (i = 0; i < iv->cap; i++)
		mpz_clears(iv->v[i].lo, iv->v[i].hi, NULL);
	free(iv->v);
	klnim_ivals_init(iv);
}

/* Appends [lo, hi] unless it is empty. */
static void
klnim_ivals_add(struct klnim_ivals *iv, const mpz_t lo, const mpz_t hi)
{
	size_t	 i, ncap;

	if (mpz_cmp(lo, hi) > 0)
		return;
	if (iv->n == iv->cap) {
		ncap = iv->cap == 0 ? 8 : iv->cap * 2;
		iv->v = xreallocarray(iv->v, ncap, sizeof *iv->v);
		for (i = iv->cap; i < ncap; i++)
			mpz_inits(iv->v[i].lo, iv->v[i].hi, NULL);
		iv->cap = ncap;
	}
	mpz_set(iv->v[iv->n].lo, lo);
	mpz_set(iv->v[iv->n].hi, hi);
	iv->n++;
}

/* Orders intervals by their low end, for qsort. */
static int
klnim_ival_cmp(const void *a, const void *b)
{
	const struct klnim_ival *ia = a, *ib = b;

	return (mpz_cmp(ia->lo, ib->lo));
}

/* Appends the range [lo, hi] unless empty; -1 if ms would pass cap. */
static int
klnim_emit_range(struct game_moveset *ms, size_t idx, const mpz_t lo,
    const mpz_t hi, size_t cap)
{
	if (mpz_cmp(lo, hi) > 0)
		return (0);
	if (ms->n >= cap)
		return (-1);
	game_moveset_add_range(ms, idx, lo, hi);
	return (0);
}

/*
 * Appends the union of the intervals as moves on pile idx, sorted, disjoint
 * and maximal, leaving out the single value excl (if not NULL).  Returns -1
 * as soon as ms would hold more than cap entries.
 */
static int
klnim_ivals_emit(struct klnim_ivals *iv, struct game_moveset *ms,
    size_t idx, const mpz_t excl, size_t cap)
{
	mpz_t	 lo, hi, t;
	size_t	 i;
	int	 rv = 0;

	if (iv->n == 0)
		return (0);
	qsort(iv->v, iv->n, sizeof *iv->v, klnim_ival_cmp);
	mpz_inits(lo, hi, t, NULL);
	mpz_set(lo, iv->v[0].lo);
	mpz_set(hi, iv->v[0].hi);
	for (i = 1; i <= iv->n && rv == 0; i++) {
		if (i < iv->n) {
			mpz_add_ui(t, hi, 1);
			if (mpz_cmp(iv->v[i].lo, t) <= 0) {
				if (mpz_cmp(iv->v[i].hi, hi) > 0)
					mpz_set(hi, iv->v[i].hi);
				continue;
			}
		}
		if (excl != NULL && mpz_cmp(lo, excl) <= 0 &&
		    mpz_cmp(excl, hi) <= 0) {
			mpz_sub_ui(t, excl, 1);
			rv = klnim_emit_range(ms, idx, lo, t, cap);
			mpz_add_ui(t, excl, 1);
			if (rv == 0)
				rv = klnim_emit_range(ms, idx, t, hi, cap);
		} else
			rv = klnim_emit_range(ms, idx, lo, hi, cap);
		if (i < iv->n) {
			mpz_set(lo, iv->v[i].lo);
			mpz_set(hi, iv->v[i].hi);
		}
	}
	mpz_clears(lo, hi, t, NULL);
	return (rv);
}

/* A piece of [0, 2^L) in the in-order walk of klnim_xor_ge. */
enum klnim_piece {
	KLNIM_SUB,		/* the subtree hanging off a path at bit j */
	KLNIM_TAIL,		/* [h with its bits below j cleared, h - 1] */
	KLNIM_LEAF,		/* the single value path */
};

/* A piece: its kind, its bit j and the path it hangs off. */
struct klnim_pref {
	enum klnim_piece kind;
	size_t		 j;
	mpz_srcptr	 path;
};

/*
 * The in-order walk: the bound h, the open run of wanted pieces and the
 * number of runs closed so far; with iv NULL it only counts the runs.
 */
struct klnim_walk {
	struct klnim_ivals *iv;
	size_t		 runs;
	mpz_srcptr	 h;
	int		 open;
	struct klnim_pref first, last;	/* first and last piece of the run */
	mpz_t		 lo, hi, t;
};

/* Sets lo and hi to the bounds of a piece. */
static void
klnim_piece_bounds(const struct klnim_walk *w, const struct klnim_pref *pc,
    mpz_t lo, mpz_t hi)
{
	size_t		 j = pc->j;
	mpz_srcptr	 path = pc->path;

	switch (pc->kind) {
	case KLNIM_SUB:
		/* path's bits above j, then the other value of bit j. */
		mpz_fdiv_q_2exp(lo, path, j + 1);
		mpz_mul_2exp(lo, lo, 1);
		if (!mpz_tstbit(path, j))
			mpz_add_ui(lo, lo, 1);
		mpz_mul_2exp(lo, lo, j);
		mpz_set_ui(hi, 0);
		mpz_setbit(hi, j);
		mpz_add(hi, hi, lo);
		mpz_sub_ui(hi, hi, 1);
		break;
	case KLNIM_TAIL:
		mpz_fdiv_q_2exp(lo, w->h, j);
		mpz_mul_2exp(lo, lo, j);
		mpz_sub_ui(hi, w->h, 1);
		break;
	default:
		mpz_set(lo, path);
		mpz_set(hi, path);
		break;
	}
}

/* Closes the open run: adds [start of its first piece, end of its last]. */
static void
klnim_walk_close(struct klnim_walk *w)
{
	if (!w->open)
		return;
	w->open = 0;
	w->runs++;
	if (w->iv == NULL)
		return;
	klnim_piece_bounds(w, &w->first, w->lo, w->t);
	klnim_piece_bounds(w, &w->last, w->t, w->hi);
	klnim_ivals_add(w->iv, w->lo, w->hi);
}

/* Feeds the next piece in order: a wanted one extends the run. */
static void
klnim_walk_piece(struct klnim_walk *w, int want, enum klnim_piece kind,
    size_t j, mpz_srcptr path)
{
	if (!want) {
		klnim_walk_close(w);
		return;
	}
	w->last.kind = kind;
	w->last.j = j;
	w->last.path = path;
	if (!w->open) {
		w->open = 1;
		w->first = w->last;
	}
}

/*
 * Adds {v < h : (v ^ s) >= m} as maximal intervals to iv (if not NULL) and
 * returns their number, in O(L) bit tests plus
 * O(L) per interval (L = bits of max(h, m, s)).  In the binary trie of v,
 * v < h means "left of the path to h" and v ^ s >= m means "right of the
 * path to p = m ^ s" once ^ s is undone bit by bit: the subtree hanging off
 * the p-path at bit j is wanted iff m_j = 0.  The two paths share their
 * bits above tb, the top bit of h ^ p.  Listing the pieces hanging off
 * the paths in the order of v, consecutive pieces are adjacent, so the
 * maximal intervals are the maximal runs of wanted pieces.
 */
static size_t
klnim_xor_ge(struct klnim_ivals *iv, const mpz_t h, const mpz_t s,
    const mpz_t m)
{
	struct klnim_walk w;
	mpz_t	 p, d;
	size_t	 len, j, tb;
	int	 split;

	if (mpz_sgn(h) <= 0)
		return (0);
	len = mpz_sizeinbase(h, 2);
	if (mpz_sizeinbase(m, 2) > len)
		len = mpz_sizeinbase(m, 2);
	if (mpz_sizeinbase(s, 2) > len)
		len = mpz_sizeinbase(s, 2);
	mpz_inits(p, d, w.lo, w.hi, w.t, NULL);
	w.iv = iv;
	w.runs = 0;
	w.h = h;
	w.open = 0;
	mpz_xor(p, m, s);
	mpz_xor(d, h, p);
	split = mpz_sgn(d) != 0;
	tb = split ? mpz_sizeinbase(d, 2) - 1 : 0;
	/*
	 * Shared path: a left-hanging subtree (h_j = 1) is below h and wanted
	 * iff m_j = 0; right-hanging ones are above h and come last.
	 */
	for (j = len; j-- > (split ? tb + 1 : 0);)
		if (mpz_tstbit(h, j))
			klnim_walk_piece(&w, !mpz_tstbit(m, j), KLNIM_SUB, j, h);
	if (split && mpz_tstbit(h, tb)) {
		/* The p-path goes left of h: all of it is below h. */
		for (j = tb; j-- > 0;)
			if (mpz_tstbit(p, j))
				klnim_walk_piece(&w, !mpz_tstbit(m, j),
				    KLNIM_SUB, j, p);
		klnim_walk_piece(&w, 1, KLNIM_LEAF, 0, p);
		for (j = 0; j < tb; j++)
			if (!mpz_tstbit(p, j))
				klnim_walk_piece(&w, !mpz_tstbit(m, j),
				    KLNIM_SUB, j, p);
	}
	/* The h-path below tb: v ^ s > m iff m_tb = 0; v < h up to h - 1. */
	if (split)
		klnim_walk_piece(&w, !mpz_tstbit(m, tb), KLNIM_TAIL, tb, NULL);
	klnim_walk_close(&w);
	mpz_clears(p, d, w.lo, w.hi, w.t, NULL);
	return (w.runs);
}

/* Appends the weak mover's winning moves: the moves into Z. */
static void
klnim_winning_weak(const struct klnim *st, const mpz_t m,
    struct game_moveset *ms)
{
	size_t	 c, i, big[2];
	mpz_t	 s, v;

	mpz_inits(s, v, NULL);
	c = klnim_census(st, m, s, big);
	if (c == 0 && mpz_sgn(s) != 0) {
		/* Small: the Nim moves (every removal is < m). */
		for (i = 0; i < st->pl.n; i++) {
			mpz_xor(v, st->pl.v[i], s);
			if (mpz_cmp(v, st->pl.v[i]) < 0)
				game_moveset_add1(ms, i + 1, v);
		}
	} else if (c == 1 && klnim_to_z(st->pl.v[big[0]], s, m))
		game_moveset_add1(ms, big[0] + 1, s);
	mpz_clears(s, v, NULL);
}

/*
 * Adds the strong mover's winning new values v < a for one pile, given the
 * other piles' count of big piles co, XOR of small piles so and big pile bo
 * (when co == 1), and returns the number of intervals of the v < m part
 * (co == 1).  The point a - M is left out by the caller.  With iv NULL it
 * only counts those intervals, in O(b) time and space.
 */
static size_t
klnim_strong_pile(struct klnim_ivals *iv, const mpz_t a, const mpz_t m,
    size_t co, const mpz_t so, const mpz_t bo)
{
	mpz_t	 top, zero, h, v;
	size_t	 runs = 0;

	if (iv == NULL && co != 1)
		return (0);
	mpz_inits(top, zero, h, v, NULL);
	mpz_sub_ui(top, a, 1);
	/* With two other big piles the weak player can never reach Z. */
	if (co >= 2)
		klnim_ivals_add(iv, zero, top);
	else if (co == 1) {
		mpz_set(h, mpz_cmp(m, a) < 0 ? m : a);
		runs = klnim_xor_ge(iv, h, so, m);
		if (iv != NULL) {
			klnim_ivals_add(iv, m, top);
			mpz_sub(v, bo, m);
			mpz_xor(v, v, so);
			if (mpz_cmp(v, h) < 0)
				klnim_ivals_add(iv, v, v);
		}
	} else if (mpz_cmp(so, m) >= 0)
		klnim_ivals_add(iv, m, top);
	else {
		if (mpz_cmp(so, a) < 0)
			klnim_ivals_add(iv, so, so);
		mpz_add(v, so, m);
		if (mpz_cmp(v, a) < 0)
			klnim_ivals_add(iv, v, v);
	}
	mpz_clears(top, zero, h, v, NULL);
	return (runs);
}

/*
 * Returns, for pile i, the other piles' count of big piles; sets so to the
 * XOR of their small piles and *bo to their big pile when there is one.
 * c, s and big are the census of the whole position.
 */
static size_t
klnim_others(const struct klnim *st, const mpz_t m, size_t c, const mpz_t s,
    const size_t big[2], size_t i, mpz_t so, mpz_srcptr *bo)
{
	*bo = s;
	if (mpz_cmp(st->pl.v[i], m) >= 0) {
		mpz_set(so, s);
		if (c == 2)
			*bo = st->pl.v[big[i == big[0] ? 1 : 0]];
		return (c - 1);
	}
	mpz_xor(so, s, st->pl.v[i]);
	if (c == 1)
		*bo = st->pl.v[big[0]];
	return (c);
}

/* Fails with GAME_ELIMIT: the strong mover's set exceeds max_moves. */
static int
klnim_over(const struct klnim *st, struct game_error *err)
{
	return (game_set_error(err, GAME_ELIMIT,
	    "klnim: the winning-move set has more than %zu ranges "
	    "(max_moves); genmove still plays one", st->max_moves));
}

/*
 * Appends the strong mover's winning moves, as intervals per pile (§8b).
 * A first pass counts the intervals below m without building them: each
 * pile's final list has at least that many minus 2 (the point so ^ (bo - m)
 * can bridge two, the excluded a - M can drop a single point), so a sum
 * over max_moves fails at once in O(n b) space.  The second pass builds the
 * set and stops as soon as it would pass max_moves entries; either way the
 * memory stays O(max_moves b).
 */
static int
klnim_winning_strong(const struct klnim *st, const mpz_t m, const mpz_t bigm,
    struct game_moveset *ms, struct game_error *err)
{
	struct klnim_ivals iv;
	size_t	 c, co, i, runs, lb, cap, big[2];
	mpz_t	 s, so, excl;
	mpz_srcptr bo;
	int	 rv = 0;

	mpz_inits(s, so, excl, NULL);
	klnim_ivals_init(&iv);
	c = klnim_census(st, m, s, big);
	if (c == 0 && mpz_sgn(s) == 0)
		goto out;		/* in Z: every move loses */
	for (i = 0, lb = 0; i < st->pl.n; i++) {
		if (mpz_sgn(st->pl.v[i]) == 0)
			continue;
		co = klnim_others(st, m, c, s, big, i, so, &bo);
		runs = klnim_strong_pile(NULL, st->pl.v[i], m, co, so, bo);
		if (runs > 2)
			lb += runs - 2;
		if (lb > st->max_moves) {
			rv = klnim_over(st, err);
			goto out;
		}
	}
	cap = st->max_moves > SIZE_MAX - ms->n ? SIZE_MAX :
	    ms->n + st->max_moves;
	for (i = 0; i < st->pl.n; i++) {
		if (mpz_sgn(st->pl.v[i]) == 0)
			continue;
		co = klnim_others(st, m, c, s, big, i, so, &bo);
		iv.n = 0;
		klnim_strong_pile(&iv, st->pl.v[i], m, co, so, bo);
		mpz_sub(excl, st->pl.v[i], bigm);
		if (klnim_ivals_emit(&iv, ms, i + 1,
		    mpz_sgn(excl) >= 0 ? excl : NULL, cap) != 0) {
			rv = klnim_over(st, err);
			goto out;
		}
	}
out:
	klnim_ivals_clear(&iv);
	mpz_clears(s, so, excl, NULL);
	return (rv);
}

/*
 * Appends every winning move (the complete set, ranges for the strong);
 * the strong mover's set fails with GAME_ELIMIT beyond max_moves entries,
 * leaving ms partly filled.
 */
static int
klnim_winning(const void *p, struct game_moveset *ms, struct game_error *err)
{
	const struct klnim *st = p;
	mpz_srcptr	 f = klnim_forbidden(st), o = klnim_other(st);
	mpz_t		 zero;
	int		 rv = 0;

	if (mpz_cmp(f, o) == 0) {
		mpz_init(zero);
		rv = klnim_to_grundy(p, zero, ms, err);
		mpz_clear(zero);
	} else if (mpz_cmp(f, o) < 0)
		klnim_winning_weak(st, f, ms);
	else
		rv = klnim_winning_strong(st, o, f, ms, err);
	return (rv);
}

/*
 * Returns the index of a small pile (< m) whose Nim move to a ^ s lowers it,
 * setting v to a ^ s; s != 0 must be the XOR of the small piles.
 */
static size_t
klnim_nim_move(const struct klnim *st, const mpz_t m, const mpz_t s, mpz_t v)
{
	size_t	 i;

	for (i = 0; i < st->pl.n; i++) {
		if (mpz_cmp(st->pl.v[i], m) >= 0)
			continue;
		mpz_xor(v, st->pl.v[i], s);
		if (mpz_cmp(v, st->pl.v[i]) < 0)
			return (i);
	}
	abort();		/* the pile holding s's top bit lowers */
}

/*
 * Sets mv to the strong mover's constructive winning move of §8b, for a
 * position not in Z.  Every removal is < m, 1, M - m or exactly m, never M
 * (M > m >= 1, so M >= 2), and the weak player cannot move into Z after it.
 */
static void
klnim_one_strong(const struct klnim *st, const mpz_t m, const mpz_t bigm,
    struct game_move *mv)
{
	size_t	 c, j, big[2];
	mpz_t	 s, v;
	mpz_srcptr a;

	mpz_inits(s, v, NULL);
	c = klnim_census(st, m, s, big);
	j = big[0];
	a = st->pl.v[j];
	if (c == 0 || (c == 1 && mpz_cmp(s, m) >= 0 && mpz_cmp(a, m) == 0)) {
		/*
		 * Small: a Nim move.  One pile of exactly m with small XOR
		 * s >= m: zero the small XOR, the weak player may not
		 * remove the m.
		 */
		j = klnim_nim_move(st, m, s, v);
	} else if (c >= 3)
		mpz_sub_ui(v, a, 1);	/* two big piles stay */
	else if (c == 2) {
		if (mpz_cmp(st->pl.v[big[1]], a) > 0)
			j = big[1];
		a = st->pl.v[j];
		if (mpz_cmp(a, m) > 0)
			mpz_sub_ui(v, a, 1);	/* two big piles stay */
		else if (mpz_cmp(s, m) < 0)
			mpz_set(v, s);	/* (m, small XOR 0): m is stuck */
		else
			mpz_set_ui(v, 0); /* (m, small XOR >= m) */
	} else if (mpz_cmp(s, m) < 0) {
		/* One big pile: into Z, or to s + m if that removes M. */
		mpz_sub(v, a, s);
		if (mpz_cmp(v, bigm) == 0)
			mpz_add(v, s, m);
		else
			mpz_set(v, s);
	} else
		mpz_sub_ui(v, a, 1);	/* a > m stays big, small XOR >= m */
	game_move_add(mv, 0, j + 1, v);
	mpz_clears(s, v, NULL);
}

/*
 * Sets mv (initialised; any old content is replaced) to one winning move,
 * in O(n b): for k == l and the weak mover the first move of the complete
 * set (at most 2n moves), for the strong mover the constructive move of
 * §8b.  Fails with GAME_EILLEGAL in a P-position.
 */
static int
klnim_one_winning(const void *p, struct game_move *mv, struct game_error *err)
{
	const struct klnim *st = p;
	mpz_srcptr	 f = klnim_forbidden(st), o = klnim_other(st);
	struct game_moveset ms;
	int		 rv;

	if (klnim_outcome(p, err) != GAME_N)
		return (game_set_error(err, GAME_EILLEGAL, "no winning move: "
		    "the position is lost for the player to move"));
	if (mpz_cmp(f, o) > 0) {
		mv->n = 0;
		klnim_one_strong(st, o, f, mv);
		return (0);
	}
	game_moveset_init(&ms);
	if ((rv = klnim_winning(p, &ms, err)) == 0) {
		if (ms.n == 0)
			rv = game_set_error(err, GAME_EILLEGAL, "internal "
			    "error: an N-position without a winning move");
		else {
			game_moveset_sort(&ms);
			game_move_copy(mv, &ms.v[0].mv);
		}
	}
	game_moveset_clear(&ms);
	return (rv);
}

/*
 * Appends the engine's fallback moves: the smallest legal removal (1, or 2
 * when the mover may not remove 1) from every pile holding enough.
 */
static void
klnim_policy(const void *p, struct game_moveset *ms)
{
	const struct klnim *st = p;

	game_policy_remove(st->pl.v, st->pl.n,
	    mpz_cmp_ui(klnim_forbidden(st), 1) == 0 ? 2 : 1, ms);
}

/* Returns the player to move. */
static int
klnim_mover(const void *p)
{
	const struct klnim *st = p;

	return (st->turn);
}

const struct game_family game_klnim = {
	.name = "klnim",
	.usage = "klnim k=K l=L [turn=1|2] PILE...",
	.summary = "K-L-Nim: lower one pile; player 1 may never remove "
	    "exactly k tokens, player 2 never exactly l",
	.parse = klnim_parse,
	.layout = &klnim_layout,
	.check = klnim_check,
	.apply = klnim_apply,
	.terminal = klnim_terminal,
	.outcome = klnim_outcome,
	.grundy = klnim_grundy,
	.winning = klnim_winning,
	.to_grundy = klnim_to_grundy,
	.policy = klnim_policy,
	.mover = klnim_mover,
	.one_winning = klnim_one_winning,
};
