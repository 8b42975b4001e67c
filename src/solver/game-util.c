/*
 * game-util.c: token parsers and small helpers shared by the families.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"
#include "solver/game-word.h"

/* Fills err and returns -1, so that callers can return its value. */
int
game_set_error(struct game_error *err, enum game_err code, const char *fmt,
    ...)
{
	va_list	 ap;

	if (err == NULL)
		return (-1);
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return (-1);
}

/*
 * Splits leading KEY=VALUE tokens off argv.  keys[] lists the allowed keys;
 * each found value is stored in keys[i].val.  *posp is set to the index of
 * the first position token.
 */
int
game_parse_keys(const char *fam, int argc, char **argv, struct game_key *keys,
    size_t nkeys, int *posp, struct game_error *err)
{
	struct buf	 allowed;
	const char	*eq;
	size_t		 i, klen;
	int		 a;

	for (i = 0; i < nkeys; i++)
		keys[i].val = NULL;
	for (a = 0; a < argc && (eq = strchr(argv[a], '=')) != NULL; a++) {
		klen = (size_t)(eq - argv[a]);
		for (i = 0; i < nkeys; i++)
			if (strlen(keys[i].name) == klen &&
			    strncmp(keys[i].name, argv[a], klen) == 0)
				break;
		if (i == nkeys) {
			buf_init(&allowed);
			for (i = 0; i < nkeys; i++)
				buf_printf(&allowed, "%s%s", i ? ", " : "",
				    keys[i].name);
			game_set_error(err, GAME_ESYNTAX,
			    "%s: unknown key '%.*s' (keys: %s)", fam,
			    (int)(klen > 40 ? 40 : klen), argv[a],
			    nkeys ? buf_str(&allowed) : "none");
			buf_free(&allowed);
			return (-1);
		}
		if (keys[i].val != NULL)
			return (game_set_error(err, GAME_ESYNTAX,
			    "%s: duplicate key '%s'", fam, keys[i].name));
		if (eq[1] == '\0')
			return (game_set_error(err, GAME_ESYNTAX,
			    "%s: key '%s' has an empty value", fam,
			    keys[i].name));
		keys[i].val = eq + 1;
	}
	*posp = a;
	return (0);
}

/* Quotes at most 40 characters of a token for an error message. */
static const char *
game_tok(const char *tok, char *out, size_t outlen)
{
	size_t	 n = strlen(tok);

	if (n > 40)
		snprintf(out, outlen, "%.20s...%s", tok, tok + n - 8);
	else
		snprintf(out, outlen, "%s", tok);
	return (out);
}

/*
 * Parses tok into z when it is 1 to 19 decimal digits (below 10^19 <
 * 2^64: no GMP) within lim->max_digits; returns 0, or -1 (z unchanged)
 * for any other token, which game_parse_num judges.
 */
int
game_parse_word(mpz_t z, const char *tok, const struct game_limits *lim)
{
	const char	*p;
	uint64_t	 v = 0;

	for (p = tok; *p >= '0' && *p <= '9'; p++) {
		if (p - tok == 19)
			return (-1);
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == tok || *p != '\0' || (size_t)(p - tok) > lim->max_digits)
		return (-1);
	game_word_set(z, v);
	return (0);
}

/*
 * Parses a non-negative decimal integer of at most lim->max_digits digits.
 * what names the token in the error ("pile 2", "m").
 */
int
game_parse_num(mpz_t z, const char *tok, const char *what,
    const struct game_limits *lim, struct game_error *err)
{
	char		 q[64];
	const char	*p;
	size_t		 n;

	if (*tok == '-' && isdigit((unsigned char)tok[1]))
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s '%s': negative numbers are not allowed", what,
		    game_tok(tok, q, sizeof q)));
	for (p = tok; isdigit((unsigned char)*p); p++)
		;
	if (p == tok || *p != '\0')
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s '%s': not a non-negative decimal integer", what,
		    game_tok(tok, q, sizeof q)));
	n = (size_t)(p - tok);
	if (n > lim->max_digits)
		return (game_set_error(err, GAME_ELIMIT,
		    "%s: %zu digits exceeds the limit of %zu", what, n,
		    lim->max_digits));
	if (n <= 19)
		return (game_parse_word(z, tok, lim));
	if (mpz_set_str(z, tok, 10) != 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s '%s': not a decimal integer", what,
		    game_tok(tok, q, sizeof q)));
	return (0);
}

/*
 * Parses a decimal integer >= 1 as game_parse_num does; a zero is refused
 * with "WHAT 'TOK': must be at least 1" and, if not NULL, hint in
 * parentheses.
 */
int
game_parse_pos(mpz_t z, const char *tok, const char *what, const char *hint,
    const struct game_limits *lim, struct game_error *err)
{
	if (game_parse_num(z, tok, what, lim, err) != 0)
		return (-1);
	if (mpz_sgn(z) == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s '%.40s': must be at least 1%s%s%s", what, tok,
		    hint != NULL ? " (" : "", hint != NULL ? hint : "",
		    hint != NULL ? ")" : ""));
	return (0);
}

/* Parses a small decimal integer in [min, max]. */
int
game_parse_ulong(unsigned long *out, const char *tok, const char *what,
    unsigned long min, unsigned long max, struct game_error *err)
{
	char		 q[64];
	const char	*p;
	unsigned long	 v = 0;

	for (p = tok; isdigit((unsigned char)*p); p++) {
		if (v > (ULONG_MAX - 9) / 10) {
			v = ULONG_MAX;
			while (isdigit((unsigned char)p[1]))
				p++;
			continue;
		}
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (p == tok || *p != '\0')
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s '%s': not a non-negative decimal integer", what,
		    game_tok(tok, q, sizeof q)));
	if (v < min || v > max)
		return (game_set_error(err, GAME_ELIMIT,
		    "%s '%s': must be between %lu and %lu", what,
		    game_tok(tok, q, sizeof q), min, max));
	*out = v;
	return (0);
}

/* Parses argc pile tokens into pl; what names one ("pile"). */
int
game_piles_parse(struct game_piles *pl, int argc, char **argv,
    const char *what, const struct game_limits *lim, struct game_error *err)
{
	char	 name[64];
	mpz_t	*piles;
	size_t	 i, n = (size_t)argc;

	if (argc <= 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "missing position: give at least one %s", what));
	if (n > lim->max_piles)
		return (game_set_error(err, GAME_ELIMIT,
		    "%zu %ss exceeds the limit of %zu", n, what,
		    lim->max_piles));
	piles = xcalloc(n, sizeof *piles);
	for (i = 0; i < n; i++)
		mpz_init(piles[i]);
	pl->v = piles;
	pl->n = n;
	for (i = 0; i < n; i++) {
		if (game_parse_word(piles[i], argv[i], lim) == 0)
			continue;	/* no error: no words for one */
		snprintf(name, sizeof name, "%s %zu", what, i + 1);
		if (game_parse_num(piles[i], argv[i], name, lim, err) != 0) {
			game_piles_clear(pl);
			return (-1);
		}
	}
	return (0);
}

/* Frees the piles of pl (if any) and leaves it empty. */
void
game_piles_clear(struct game_piles *pl)
{
	size_t	 i;

	if (pl->v != NULL) {
		for (i = 0; i < pl->n; i++)
			mpz_clear(pl->v[i]);
		free(pl->v);
	}
	pl->v = NULL;
	pl->n = 0;
}

/* Sets dst to a copy of src. */
void
game_piles_copy(struct game_piles *dst, const struct game_piles *src)
{
	size_t	 i;

	dst->n = src->n;
	dst->v = xcalloc(src->n, sizeof *dst->v);
	for (i = 0; i < src->n; i++)
		mpz_init_set(dst->v[i], src->v[i]);
}

/*
 * Sets back to m's changes with the values the piles hold now: applied
 * after m by game_piles_set, it restores them.
 */
void
game_piles_back(const mpz_t *piles, const struct game_move *m,
    struct game_move *back)
{
	size_t	 i;

	back->n = m->n;
	for (i = 0; i < m->n; i++) {
		back->ch[i].comp = m->ch[i].comp;
		back->ch[i].idx = m->ch[i].idx;
		game_word_copy(back->ch[i].val, piles[m->ch[i].idx - 1]);
	}
}

/* The inverse of a family whose state begins with its piles. */
int
game_piles_inverse(const void *st, const struct game_move *m,
    struct game_move *back)
{
	const struct game_piles *pl = st;

	game_piles_back(pl->v, m, back);
	return (0);
}

/* The apply of a family whose state begins with its piles. */
void
game_piles_apply(void *st, const struct game_move *m)
{
	struct game_piles *pl = st;

	game_piles_set(pl->v, m);
}

/* The terminal test of such a family: every pile is empty. */
int
game_piles_empty(const void *st)
{
	const struct game_piles *pl = st;

	return (game_piles_below(pl->v, pl->n, 1));
}

/*
 * Ends the parse of a family whose state begins with its piles: parses the
 * argc piles into st, then hands st out in *stp; on error frees st (laid
 * out as lay describes).
 */
int
game_piles_finish(const struct game_layout *lay, void *st, void **stp,
    int argc, char **argv, const char *what, const struct game_limits *lim,
    struct game_error *err)
{
	if (game_piles_parse(st, argc, argv, what, lim, err) != 0) {
		game_layout_free(lay, st);
		return (-1);
	}
	*stp = st;
	return (0);
}

/* The policy of such a family: remove one token from any pile. */
void
game_piles_policy(const void *st, struct game_moveset *ms)
{
	const struct game_piles *pl = st;

	game_policy_remove(pl->v, pl->n, 1, ms);
}

/* Prints n numbers separated by spaces. */
void
game_piles_print(const mpz_t *piles, size_t n, struct buf *b)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_putc(b, ' ');
		buf_mpz(b, piles[i]);
	}
}

/*
 * Checks that a move changes exactly one of n piles and lowers it; what names
 * a pile.  Returns the 0-based pile index, or -1 with err set.
 */
int
game_check_single(const struct game_move *m, size_t n, const mpz_t *piles,
    const char *what, struct game_error *err)
{
	const struct game_change *c = &m->ch[0];
	size_t	 i;

	if (m->n != 1)
		return (game_set_error(err, GAME_EILLEGAL,
		    "a move changes exactly one %s, this one changes %zu",
		    what, m->n));
	if (c->idx < 1 || c->idx > n)
		return (game_set_error(err, GAME_EILLEGAL,
		    "index %zu out of range: the position has %zu %s%s",
		    c->idx, n, what, n == 1 ? "" : "s"));
	i = c->idx - 1;
	if (game_word_cmp(c->val, piles[i]) >= 0) {
		if (!mpz_fits_ulong_p(piles[i]))
			return (game_set_error(err, GAME_EILLEGAL,
			    "%s %zu: the new value must be smaller than the "
			    "current one", what, c->idx));
		return (game_set_error(err, GAME_EILLEGAL,
		    "%s %zu: the new value must be smaller than the current %lu",
		    what, c->idx, mpz_get_ui(piles[i])));
	}
	return ((int)i);
}

/*
 * Checks like game_check_single and sets removed (initialised by the
 * caller) to the amount the move takes from the pile.
 */
int
game_check_removal(const struct game_move *m, size_t n, const mpz_t *piles,
    const char *what, mpz_t removed, struct game_error *err)
{
	int	 i;

	if ((i = game_check_single(m, n, piles, what, err)) < 0)
		return (-1);
	mpz_sub(removed, piles[i], m->ch[0].val);
	return (i);
}

/*
 * Checks like game_check_single and sets *cmp to the sign of the amount the
 * move takes from the pile minus bound, as mpz_cmp.
 */
int
game_check_removal_cmp(const struct game_move *m, size_t n,
    const mpz_t *piles, const char *what, const mpz_t bound, int *cmp,
    struct game_error *err)
{
	mpz_t	 c;
	int	 i;

	mpz_init(c);
	if ((i = game_check_removal(m, n, piles, what, c, err)) >= 0)
		*cmp = mpz_cmp(c, bound);
	mpz_clear(c);
	return (i);
}

/* Applies a checked move: sets each pile it names (1-based) to its value. */
void
game_piles_set(mpz_t *piles, const struct game_move *m)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		game_word_copy(piles[m->ch[i].idx - 1], m->ch[i].val);
}

/* Returns 1 if every one of the n piles holds fewer than v. */
int
game_piles_below(const mpz_t *piles, size_t n, unsigned long v)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (game_word_cmp_u(piles[i], v) >= 0)
			return (0);
	return (1);
}

/* Appends "remove amount from pile i" (0-based) if the pile holds enough. */
static void
game_policy_remove_one(const mpz_t *piles, size_t i, const mpz_t amount,
    struct game_moveset *ms)
{
	struct game_move *m;
	uint64_t v, a;

	if (game_word_get(piles[i], &v) && game_word_get(amount, &a)) {
		if (v >= a)
			game_move_add_ui(game_moveset_add(ms), 0, i + 1,
			    (unsigned long)(v - a));
		return;
	}
	if (mpz_cmp(piles[i], amount) < 0)
		return;
	m = game_moveset_add(ms);
	game_move_add(m, 0, i + 1, piles[i]);
	mpz_sub(m->ch[0].val, m->ch[0].val, amount);
}

/* Appends "remove amount from pile i" for every pile holding enough. */
void
game_policy_remove_z(const mpz_t *piles, size_t n, const mpz_t amount,
    struct game_moveset *ms)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		game_policy_remove_one(piles, i, amount, ms);
}

/* game_policy_remove_z with a small amount (no GMP while piles fit). */
void
game_policy_remove(const mpz_t *piles, size_t n, unsigned long amount,
    struct game_moveset *ms)
{
	mp_limb_t limb;
	mpz_t	 a;

	if (game_word_roinit(a, &limb, amount)) {
		game_policy_remove_z(piles, n, a, ms);
		return;
	}
	mpz_init_set_ui(a, amount);
	game_policy_remove_z(piles, n, a, ms);
	mpz_clear(a);
}

/* Compares two unsigned longs for qsort and bsearch. */
int
game_ulong_cmp(const void *a, const void *b)
{
	unsigned long	 x = *(const unsigned long *)a;
	unsigned long	 y = *(const unsigned long *)b;

	return (x < y ? -1 : x > y);
}

/* Returns a deep copy of a state laid out as lay describes. */
void *
game_layout_clone(const struct game_layout *lay, const void *p)
{
	void	*c = xmalloc(lay->size);
	size_t	 i, off;

	memcpy(c, p, lay->size);
	game_piles_copy(c, p);
	for (i = 0; i < lay->n; i++)
		if (lay->field[i].type == GAME_FIELD_MPZ) {
			off = lay->field[i].off;
			mpz_init_set(*(mpz_t *)((char *)c + off),
			    *(const mpz_t *)((const char *)p + off));
		}
	return (c);
}

/* Frees a state laid out as lay describes (the mpz_t members inited). */
void
game_layout_free(const struct game_layout *lay, void *p)
{
	size_t	 i;

	game_piles_clear(p);
	for (i = 0; i < lay->n; i++)
		if (lay->field[i].type == GAME_FIELD_MPZ)
			mpz_clear(*(mpz_t *)((char *)p + lay->field[i].off));
	free(p);
}

/*
 * Prints a state of fam laid out as its layout describes: the family's
 * name, each field with a key as " KEY=VALUE" (an int one unless it is 0),
 * then a space and the piles.
 */
void
game_layout_print(const struct game_family *fam, const void *p,
    struct buf *b)
{
	const struct game_layout *lay = fam->layout;
	const struct game_piles *pl = p;
	const struct game_field *f;
	const char	*at;
	size_t		 i;

	buf_puts(b, fam->name);
	for (i = 0; i < lay->n; i++) {
		f = &lay->field[i];
		at = (const char *)p + f->off;
		if (f->key == NULL)
			continue;
		if (f->type == GAME_FIELD_MPZ) {
			buf_printf(b, " %s=", f->key);
			buf_mpz(b, *(const mpz_t *)at);
		} else if (*(const int *)at != 0)
			buf_printf(b, " %s=%d", f->key, *(const int *)at);
	}
	buf_putc(b, ' ');
	game_piles_print(pl->v, pl->n, b);
}

/* Sets *x to the XOR of the piles and returns 1 if all fit a word, else 0. */
int
game_piles_xor_word(const struct game_piles *pl, uint64_t *x)
{
	uint64_t v;
	size_t	 i;

	*x = 0;
	for (i = 0; i < pl->n; i++) {
		if (!game_word_get(pl->v[i], &v))
			return (0);
		*x ^= v;
	}
	return (1);
}

/* Sets x to the XOR of the piles' Grundy values. */
void
game_pilesum_xor(const void *st, const struct game_piles *pl,
    game_pile_sg_fn *sg, mpz_t x)
{
	uint64_t w;
	mpz_t	 g;
	size_t	 i;

	if (sg == NULL && game_piles_xor_word(pl, &w)) {
		game_word_set(x, w);
		return;
	}
	mpz_set_ui(x, 0);
	if (sg == NULL) {
		for (i = 0; i < pl->n; i++)
			mpz_xor(x, x, pl->v[i]);
		return;
	}
	mpz_init(g);
	for (i = 0; i < pl->n; i++) {
		sg(st, pl->v[i], g);
		mpz_xor(x, x, g);
	}
	mpz_clear(g);
}

/*
 * Appends every move to Grundy value target: pile i must go to a pile of
 * Grundy value SG(a_i) ^ X ^ target, X the XOR of all the piles' values.
 */
void
game_pilesum_to_grundy(const void *st, const struct game_piles *pl,
    game_pile_sg_fn *sg, game_pile_to_fn *to, const mpz_t target,
    struct game_moveset *ms)
{
	mpz_t	 x, t;
	size_t	 i;

	mpz_inits(x, t, NULL);
	game_pilesum_xor(st, pl, sg, x);
	mpz_xor(x, x, target);
	for (i = 0; i < pl->n; i++) {
		if (sg == NULL)
			mpz_set(t, pl->v[i]);
		else
			sg(st, pl->v[i], t);
		mpz_xor(t, t, x);
		to(st, i + 1, pl->v[i], t, ms);
	}
	mpz_clears(x, t, NULL);
}

/* Returns the XOR of the n parts' Grundy values. */
unsigned long
game_partsum_xor(const void *st, size_t n, game_part_sg_fn *sg)
{
	unsigned long	 x = 0;
	size_t		 i;

	for (i = 0; i < n; i++)
		x ^= sg(st, i);
	return (x);
}

/* Appends every move to Grundy value target: part i to SG_i ^ X ^ target. */
void
game_partsum_to_grundy(const void *st, size_t n, game_part_sg_fn *sg,
    game_part_to_fn *to, const mpz_t target, struct game_moveset *ms)
{
	unsigned long	 x;
	size_t		 i;

	if (!mpz_fits_ulong_p(target))
		return;
	x = game_partsum_xor(st, n, sg) ^ mpz_get_ui(target);
	for (i = 0; i < n; i++)
		to(st, i, sg(st, i) ^ x, ms);
}

/*
 * Lets each of the n games share the tables of the first earlier game of
 * its family that reduces to the same ones (the family's share): a sum
 * then holds one table per distinct reduced parameter.  n^2 / 2 share
 * calls at most, each a comparison of parameters when it fails.
 */
void
game_share_tables(struct game *g, size_t n)
{
	size_t	 i, j;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (g[i].fam == g[j].fam && g[i].fam->share != NULL &&
			    g[i].fam->share(g[i].st, g[j].st))
				break;
}
