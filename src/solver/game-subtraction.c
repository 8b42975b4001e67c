/*
 * game-subtraction.c: subtraction games (games.md §7).  Position: piles
 * n_1..n_k under one finite set S; a move removes some s in S from one pile.
 * The Grundy sequence of S is ultimately periodic; parse finds the minimal
 * preperiod and period and keeps one table, shared between clones.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"

/* Hash moduli and bases for the window hash (products fit in 64 bits). */
#define SUBTRACTION_P1	1000000007ULL
#define SUBTRACTION_P2	998244353ULL
#define SUBTRACTION_B1	1000003ULL
#define SUBTRACTION_B2	999983ULL

/* The set S and its Grundy table; read-only once built, shared by clones. */
struct subtraction_table {
	atomic_size_t	 refs;		/* atomic: clones share it */
	size_t		 nset;
	unsigned long	*set;		/* S, ascending, distinct */
	size_t		 pre;		/* minimal preperiod */
	size_t		 per;		/* minimal period */
	unsigned	*g;		/* SG(0) .. SG(pre + per - 1) */
};

/* Subtraction state: the shared table and the piles. */
struct subtraction {
	struct game_piles pl;		/* first: see game_piles_apply */
	struct subtraction_table *tab;
};

/* Scratch space for period detection: the scanned prefix and window hashes. */
struct subtraction_scan {
	unsigned	*g;		/* SG(0) .. SG(len - 1) */
	size_t		 len;
	size_t		 cap;
	uint64_t	*hv;		/* hv[n - smax]: hash of W_n */
	size_t		*slot;		/* n - smax + 1; 0: empty */
	size_t		 nslot;		/* a power of two */
	size_t		 used;
};

/* Writes S as "{2,5,7}" into out, eliding the middle of a long set. */
static const char *
subtraction_set_str(const struct subtraction_table *t, char *out, size_t len)
{
	size_t	 i, o = 0;

	o += (size_t)snprintf(out, len, "{");
	for (i = 0; i < t->nset && o < len; i++) {
		if (t->nset > 12 && i == 8) {
			o += (size_t)snprintf(out + o, len - o, ",...");
			i = t->nset - 3;
			continue;
		}
		o += (size_t)snprintf(out + o, len - o, "%s%lu", i ? "," : "",
		    t->set[i]);
	}
	if (o < len)
		snprintf(out + o, len - o, "}");
	return (out);
}

/* Adds one element of S (p, length n) unless present; keeps S unsorted. */
static int
subtraction_set_add(struct subtraction_table *t, const char *p, size_t n,
    size_t pos, const struct game_limits *lim, struct game_error *err)
{
	unsigned long	 v = 0;
	size_t		 i;
	int		 q = n > 40 ? 40 : (int)n;

	if (n == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "subtraction: S element %zu is empty", pos));
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return (game_set_error(err, GAME_ESYNTAX,
			    "subtraction: S element '%.*s' is not a positive "
			    "decimal integer", q, p));
		if (v > (ULONG_MAX - 9) / 10)
			v = ULONG_MAX;
		else
			v = v * 10 + (unsigned long)(p[i] - '0');
	}
	if (v == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "subtraction: S element '%.*s': every removal must be at "
		    "least 1", q, p));
	if (v > lim->max_set_value)
		return (game_set_error(err, GAME_ELIMIT,
		    "subtraction: S element '%.*s' exceeds the limit of %lu",
		    q, p, lim->max_set_value));
	for (i = 0; i < t->nset; i++)
		if (t->set[i] == v)
			return (0);
	if (t->nset >= lim->max_set)
		return (game_set_error(err, GAME_ELIMIT,
		    "subtraction: S has more than %zu distinct elements",
		    lim->max_set));
	t->set[t->nset++] = v;
	return (0);
}

/* Parses S=s1,s2,... into t->set, sorted ascending with duplicates folded. */
static int
subtraction_parse_set(struct subtraction_table *t, const char *val,
    const struct game_limits *lim, struct game_error *err)
{
	const char	*p, *c;
	size_t		 pos;

	t->set = xreallocarray(NULL, lim->max_set > 0 ? lim->max_set : 1,
	    sizeof *t->set);
	for (p = val, pos = 1;; p = c + 1, pos++) {
		if ((c = strchr(p, ',')) == NULL)
			c = p + strlen(p);
		if (subtraction_set_add(t, p, (size_t)(c - p), pos, lim,
		    err) != 0)
			return (-1);
		if (*c == '\0')
			break;
	}
	qsort(t->set, t->nset, sizeof *t->set, game_ulong_cmp);
	return (0);
}

/* Returns x^e modulo m. */
static uint64_t
subtraction_powmod(uint64_t x, size_t e, uint64_t m)
{
	uint64_t	 r = 1;

	for (x %= m; e > 0; e >>= 1) {
		if (e & 1)
			r = r * x % m;
		x = x * x % m;
	}
	return (r);
}

/* Returns the hash of window W_n = g[n - smax .. n - 1], computed afresh. */
static uint64_t
subtraction_hash(const unsigned *g, size_t n, size_t smax)
{
	uint64_t	 h1 = 0, h2 = 0;
	size_t		 i;

	for (i = n - smax; i < n; i++) {
		h1 = (h1 * SUBTRACTION_B1 + g[i]) % SUBTRACTION_P1;
		h2 = (h2 * SUBTRACTION_B2 + g[i]) % SUBTRACTION_P2;
	}
	return (h1 << 32 | h2);
}

/* Returns the hash of W_{n+1} from the hash of W_n (rolling). */
static uint64_t
subtraction_roll(uint64_t h, unsigned out, unsigned in, uint64_t top1,
    uint64_t top2)
{
	uint64_t	 h1 = h >> 32, h2 = h & 0xffffffffULL;

	h1 = (h1 + SUBTRACTION_P1 - out * top1 % SUBTRACTION_P1) %
	    SUBTRACTION_P1;
	h1 = (h1 * SUBTRACTION_B1 + in) % SUBTRACTION_P1;
	h2 = (h2 + SUBTRACTION_P2 - out * top2 % SUBTRACTION_P2) %
	    SUBTRACTION_P2;
	h2 = (h2 * SUBTRACTION_B2 + in) % SUBTRACTION_P2;
	return (h1 << 32 | h2);
}

/* Returns the slot holding window W_n (*found set) or the free slot for it. */
static size_t
subtraction_slot(const struct subtraction_scan *sc, uint64_t h, size_t smax,
    size_t n, int *found)
{
	size_t	 i, j;

	i = (size_t)((h * 0x9e3779b97f4a7c15ULL) >> 20) & (sc->nslot - 1);
	for (;; i = (i + 1) & (sc->nslot - 1)) {
		if (sc->slot[i] == 0) {
			*found = 0;
			return (i);
		}
		/* Slot value j + 1 stands for W_{j+smax} = g[j..j+smax-1]. */
		j = sc->slot[i] - 1;
		if (sc->hv[j] == h && memcmp(sc->g + j, sc->g + n - smax,
		    smax * sizeof *sc->g) == 0) {
			*found = 1;
			return (i);
		}
	}
}

/* Doubles the window hash map, reinserting every stored window. */
static void
subtraction_grow_slots(struct subtraction_scan *sc, size_t smax)
{
	size_t	*old = sc->slot, nold = sc->nslot, i, j;

	sc->nslot = nold == 0 ? 1024 : nold * 2;
	sc->slot = xcalloc(sc->nslot, sizeof *sc->slot);
	for (i = 0; i < nold; i++) {
		if (old[i] == 0)
			continue;
		j = (size_t)((sc->hv[old[i] - 1] * 0x9e3779b97f4a7c15ULL) >>
		    20) & (sc->nslot - 1);
		while (sc->slot[j] != 0)
			j = (j + 1) & (sc->nslot - 1);
		sc->slot[j] = old[i];
	}
	free(old);
}

/* Appends SG(n) = mex{SG(n - s) : s in S, s <= n} to the scanned prefix. */
static void
subtraction_scan_next(const struct subtraction_table *t,
    struct subtraction_scan *sc, size_t *seen)
{
	size_t		 n = sc->len, i;
	unsigned	 v;

	if (sc->len == sc->cap) {
		sc->cap = sc->cap == 0 ? 256 : sc->cap * 2;
		sc->g = xreallocarray(sc->g, sc->cap, sizeof *sc->g);
	}
	for (i = 0; i < t->nset && t->set[i] <= n; i++)
		seen[sc->g[n - t->set[i]]] = n + 1;
	for (v = 0; seen[v] == n + 1; v++)
		;
	sc->g[sc->len++] = v;
}

/*
 * Computes SG(0), SG(1), ... until a window W_n = (SG(n - smax), ...,
 * SG(n - 1)) repeats an earlier W_m: then the period is n - m (minimal,
 * since W_{n+1} is a function of W_n) and the preperiod m - smax.  Fails
 * when preperiod + period would exceed lim->max_table, which is the case
 * exactly when no window repeats among W_smax .. W_{max_table + smax}.
 */
static int
subtraction_table_build(struct subtraction_table *t,
    const struct game_limits *lim, struct game_error *err)
{
	struct subtraction_scan sc;
	char		 s[200];
	uint64_t	 h = 0, top1, top2;
	size_t		 smax = t->set[t->nset - 1], limit, n, i, *seen;
	int		 found, rv = -1;

	memset(&sc, 0, sizeof sc);
	seen = xcalloc(t->nset + 2, sizeof *seen);
	limit = lim->max_table > SIZE_MAX - smax ? SIZE_MAX :
	    lim->max_table + smax;
	top1 = subtraction_powmod(SUBTRACTION_B1, smax - 1, SUBTRACTION_P1);
	top2 = subtraction_powmod(SUBTRACTION_B2, smax - 1, SUBTRACTION_P2);
	for (n = 0;; n++) {
		if (n >= smax) {
			if (n == smax)
				h = subtraction_hash(sc.g, n, smax);
			else
				h = subtraction_roll(h, sc.g[n - 1 - smax],
				    sc.g[n - 1], top1, top2);
			if ((n - smax) % 4096 == 0)
				sc.hv = xreallocarray(sc.hv, n - smax + 4096,
				    sizeof *sc.hv);
			sc.hv[n - smax] = h;
			if (2 * (sc.used + 1) > sc.nslot)
				subtraction_grow_slots(&sc, smax);
			i = subtraction_slot(&sc, h, smax, n, &found);
			if (found) {
				t->pre = sc.slot[i] - 1;
				t->per = n - smax - t->pre;
				break;
			}
			sc.slot[i] = n - smax + 1;
			sc.used++;
		}
		if (n == limit) {
			game_set_error(err, GAME_ELIMIT,
			    "subtraction S=%s: preperiod + period exceeds the "
			    "Grundy table cap of %zu entries (max_table)",
			    subtraction_set_str(t, s, sizeof s),
			    lim->max_table);
			goto out;
		}
		subtraction_scan_next(t, &sc, seen);
	}
	/* A safety net: W_m was the first repeat, so pre is minimal. */
	while (t->pre > 0 && sc.g[t->pre - 1] == sc.g[t->pre - 1 + t->per])
		t->pre--;
	t->g = xreallocarray(NULL, t->pre + t->per, sizeof *t->g);
	memcpy(t->g, sc.g, (t->pre + t->per) * sizeof *t->g);
	rv = 0;
out:
	free(seen);
	free(sc.g);
	free(sc.hv);
	free(sc.slot);
	return (rv);
}

/* Returns SG(n) for a small n: the table entry or its periodic extension. */
static unsigned
subtraction_sg_ul(const struct subtraction_table *t, unsigned long n)
{
	if (n < t->pre + t->per)
		return (t->g[n]);
	return (t->g[t->pre + (n - t->pre) % t->per]);
}

/* Appends the cache key of S: "S=2,5,7". */
static void
subtraction_key(const struct subtraction_table *t, struct buf *key)
{
	size_t	 i;

	buf_puts(key, "S=");
	for (i = 0; i < t->nset; i++)
		buf_printf(key, "%s%lu", i ? "," : "", t->set[i]);
}

/* Returns 1 if per is the minimal period of the (periodic) tail of t. */
static int
subtraction_per_minimal(const struct subtraction_table *t)
{
	size_t	 m = t->per, q, d, i;

	/* The minimal period divides per: try per / q for each prime q. */
	for (q = 2; m > 1; q++) {
		if (q * q > m)
			q = m;
		if (m % q != 0)
			continue;
		while (m % q == 0)
			m /= q;
		d = t->per / q;
		for (i = 0; i + d < t->per; i++)
			if (t->g[t->pre + i] != t->g[t->pre + i + d])
				break;
		if (i + d == t->per)
			return (0);
	}
	return (1);
}

/*
 * Loads the table from a cached blob (game-table.c): preperiod, period,
 * then SG(0) .. SG(pre + per - 1).  Trusts it only if it fits the cap,
 * every value is at most |S|, the periodic extension obeys the mex
 * recurrence up to pre + per + max S (then, by induction, everywhere) and
 * both pre and per are minimal.  Returns -1, t unchanged, otherwise.
 */
static int
subtraction_table_load(struct subtraction_table *t, const struct buf *blob,
    const struct game_limits *lim)
{
	const unsigned char *p, *end;
	uint64_t	 pre, per, v;
	size_t		 smax = t->set[t->nset - 1], n, i, *seen = NULL;
	unsigned	 x;

	if (game_table_open(blob, &p, &end) != 0 ||
	    game_table_getv(&p, end, &pre) != 0 ||
	    game_table_getv(&p, end, &per) != 0 || per == 0 ||
	    pre > lim->max_table || per > lim->max_table - pre ||
	    pre + per > (size_t)(end - p))
		return (-1);
	t->pre = (size_t)pre;
	t->per = (size_t)per;
	t->g = xreallocarray(NULL, t->pre + t->per, sizeof *t->g);
	for (n = 0; n < t->pre + t->per; n++) {
		if (game_table_getv(&p, end, &v) != 0 || v > t->nset)
			goto bad;
		t->g[n] = (unsigned)v;
	}
	if (p != end || (t->pre > 0 &&
	    t->g[t->pre - 1] == t->g[t->pre - 1 + t->per]) ||
	    !subtraction_per_minimal(t))
		goto bad;
	seen = xcalloc(t->nset + 2, sizeof *seen);
	for (n = 0; n < t->pre + t->per + smax; n++) {
		for (i = 0; i < t->nset && t->set[i] <= n; i++)
			seen[subtraction_sg_ul(t, n - t->set[i])] = n + 1;
		for (x = 0; seen[x] == n + 1; x++)
			;
		if (x != subtraction_sg_ul(t, n))
			goto bad;
	}
	free(seen);
	return (0);
bad:
	free(seen);
	free(t->g);
	t->g = NULL;
	t->pre = t->per = 0;
	return (-1);
}

/* A subtraction table on its way through the cache. */
struct subtraction_make {
	struct subtraction_table *t;
	const struct game_limits *lim;
};

/* Takes a stored table if it is sound. */
static int
subtraction_make_load(void *arg, const struct buf *blob)
{
	struct subtraction_make *mk = arg;

	return (subtraction_table_load(mk->t, blob, mk->lim));
}

/* Builds the table afresh. */
static int
subtraction_make_build(void *arg, struct game_error *err)
{
	struct subtraction_make *mk = arg;

	return (subtraction_table_build(mk->t, mk->lim, err));
}

/* Writes pre, per and the values, as varints. */
static void
subtraction_make_save(void *arg, struct buf *blob, struct buf *meta)
{
	const struct subtraction_table *t = ((struct subtraction_make *)arg)->t;
	size_t		 n;

	game_table_putv(blob, t->pre);
	game_table_putv(blob, t->per);
	for (n = 0; n < t->pre + t->per; n++)
		game_table_putv(blob, t->g[n]);
	buf_printf(meta, "pre=%zu period=%zu", t->pre, t->per);
}

/* The cache key: the set S. */
static void
subtraction_make_key(void *arg, struct buf *key)
{
	subtraction_key(((struct subtraction_make *)arg)->t, key);
}

static const struct game_table_ops subtraction_make_ops = {
	.kind = "subtraction",
	.key = subtraction_make_key,
	.load = subtraction_make_load,
	.build = subtraction_make_build,
	.save = subtraction_make_save,
};

/* Makes the table: from the cache when it holds a sound one, else built. */
static int
subtraction_table_make(struct subtraction_table *t,
    const struct game_limits *lim, struct game_error *err)
{
	struct subtraction_make mk = { t, lim };

	return (game_table_cached(lim->tables, &subtraction_make_ops, &mk,
	    err));
}

/* Drops one reference to a table, freeing it with the last. */
static void
subtraction_table_unref(struct subtraction_table *t)
{
	if (t == NULL || atomic_fetch_sub(&t->refs, 1) != 1)
		return;
	free(t->set);
	free(t->g);
	free(t);
}

/* Returns SG(n): the table entry, or g[pre + (n - pre) mod per]. */
static unsigned
subtraction_sg(const struct subtraction_table *t, const mpz_t n)
{
	unsigned long	 r;

	if (mpz_cmp_ui(n, t->pre + t->per) < 0)
		return (t->g[mpz_get_ui(n)]);
	r = mpz_fdiv_ui(n, t->per);
	return (t->g[t->pre + (r + t->per - t->pre % t->per) % t->per]);
}

/* Frees the state and drops its reference to the table. */
static void
subtraction_free(void *p)
{
	struct subtraction *st = p;

	game_piles_clear(&st->pl);
	subtraction_table_unref(st->tab);
	free(st);
}

/* Parses subtraction S=s1,s2,... PILE... */
static int
subtraction_parse(void **stp, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	struct game_key	 keys[] = { { "S", NULL } };
	struct subtraction_table *t;
	struct subtraction *st;
	int		 pos;

	if (game_parse_keys("subtraction", argc, argv, keys, 1, &pos,
	    err) != 0)
		return (-1);
	if (keys[0].val == NULL)
		return (game_set_error(err, GAME_ESYNTAX,
		    "subtraction: missing S=s1,s2,... (the removals allowed)"));
	t = xcalloc(1, sizeof *t);
	atomic_init(&t->refs, 1);
	st = xcalloc(1, sizeof *st);
	st->tab = t;
	if (subtraction_parse_set(t, keys[0].val, lim, err) != 0 ||
	    game_piles_parse(&st->pl, argc - pos, argv + pos,
	    "pile", lim, err) != 0 ||
	    subtraction_table_make(t, lim, err) != 0) {
		subtraction_free(st);
		return (-1);
	}
	*stp = st;
	return (0);
}

/* Returns a copy sharing the table. */
static void *
subtraction_clone(const void *p)
{
	const struct subtraction *st = p;
	struct subtraction *c = xcalloc(1, sizeof *c);

	atomic_fetch_add(&st->tab->refs, 1);
	c->tab = st->tab;
	game_piles_copy(&c->pl, &st->pl);
	return (c);
}

/* Prints subtraction S=s1,s2,... PILE... with S ascending. */
static void
subtraction_print(const void *p, struct buf *b)
{
	const struct subtraction *st = p;
	size_t		 i;

	buf_puts(b, "subtraction S=");
	for (i = 0; i < st->tab->nset; i++)
		buf_printf(b, "%s%lu", i ? "," : "", st->tab->set[i]);
	buf_putc(b, ' ');
	game_piles_print(st->pl.v, st->pl.n, b);
}

/* Returns 1 if v is in S. */
static int
subtraction_in_set(const struct subtraction_table *t, unsigned long v)
{
	return (bsearch(&v, t->set, t->nset, sizeof *t->set,
	    game_ulong_cmp) != NULL);
}

/* Checks a move: one pile, lowered by an element of S. */
static int
subtraction_check(const void *p, const struct game_move *m,
    struct game_error *err)
{
	const struct subtraction *st = p;
	const struct subtraction_table *t = st->tab;
	char		 s[200];
	mpz_t		 d;
	int		 i, in;

	mpz_init(d);
	if ((i = game_check_removal(m, st->pl.n, st->pl.v, "pile", d,
	    err)) < 0) {
		mpz_clear(d);
		return (-1);
	}
	in = mpz_fits_ulong_p(d) && subtraction_in_set(t, mpz_get_ui(d));
	if (!in && mpz_fits_ulong_p(d))
		game_set_error(err, GAME_EILLEGAL,
		    "removal %lu is not in S=%s", mpz_get_ui(d),
		    subtraction_set_str(t, s, sizeof s));
	else if (!in)
		game_set_error(err, GAME_EILLEGAL,
		    "removal from pile %zu exceeds the largest element %lu "
		    "of S=%s", m->ch[0].idx, t->set[t->nset - 1],
		    subtraction_set_str(t, s, sizeof s));
	mpz_clear(d);
	return (in ? 0 : -1);
}

/* Returns 1 when no pile holds min S. */
static int
subtraction_terminal(const void *p)
{
	const struct subtraction *st = p;

	return (game_piles_below(st->pl.v, st->pl.n, st->tab->set[0]));
}

/* Returns the Grundy value of pile i. */
static unsigned long
subtraction_part_sg(const void *p, size_t i)
{
	const struct subtraction *st = p;

	return (subtraction_sg(st->tab, st->pl.v[i]));
}

/* Sets g to the XOR of the piles' Grundy values. */
static int
subtraction_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct subtraction *st = p;

	(void)err;
	mpz_set_ui(g, game_partsum_xor(st, st->pl.n, subtraction_part_sg));
	return (0);
}

/* Appends every move (i, n_i - s) with SG(n_i - s) = want. */
static void
subtraction_part_to(const void *p, size_t i, unsigned long want,
    struct game_moveset *ms)
{
	const struct subtraction *st = p;
	const struct subtraction_table *t = st->tab;
	size_t		 j;
	mpz_t		 v;

	mpz_init(v);
	for (j = 0; j < t->nset; j++) {
		if (mpz_cmp_ui(st->pl.v[i], t->set[j]) < 0)
			break;
		mpz_sub_ui(v, st->pl.v[i], t->set[j]);
		if (subtraction_sg(t, v) == want)
			game_moveset_add1(ms, i + 1, v);
	}
	mpz_clear(v);
}

/*
 * Appends every move (i, n_i - s) with SG(n_i - s) = SG(n_i) ^ X ^ target;
 * every Grundy value is at most |S|, so a huge target has no move.
 */
static int
subtraction_to_grundy(const void *p, const mpz_t target,
    struct game_moveset *ms, struct game_error *err)
{
	const struct subtraction *st = p;

	(void)err;
	game_partsum_to_grundy(st, st->pl.n, subtraction_part_sg,
	    subtraction_part_to, target, ms);
	return (0);
}

/* Appends the engine's fallback moves: remove min S from any pile. */
static void
subtraction_policy(const void *p, struct game_moveset *ms)
{
	const struct subtraction *st = p;

	game_policy_remove(st->pl.v, st->pl.n, st->tab->set[0], ms);
}

/* Appends preperiod, period and the first count Grundy values. */
static int
subtraction_table(const void *p, unsigned long count, struct buf *out,
    struct game_error *err)
{
	const struct subtraction *st = p;
	unsigned long	 n;

	(void)err;
	buf_printf(out, "preperiod %zu\nperiod %zu\n", st->tab->pre,
	    st->tab->per);
	for (n = 0; n < count; n++)
		buf_printf(out, "%lu %u\n", n, subtraction_sg_ul(st->tab, n));
	return (0);
}

const struct game_family game_subtraction = {
	.name = "subtraction",
	.flags = GAME_F_HEAVY_PARSE,
	.usage = "subtraction S=s1,s2,... PILE...",
	.summary = "subtraction game: remove some s in S from one pile",
	.parse = subtraction_parse,
	.clone = subtraction_clone,
	.free = subtraction_free,
	.print = subtraction_print,
	.check = subtraction_check,
	.apply = game_piles_apply,
	.terminal = subtraction_terminal,
	.grundy = subtraction_grundy,
	.to_grundy = subtraction_to_grundy,
	.policy = subtraction_policy,
	.table = subtraction_table,
};
