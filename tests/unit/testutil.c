/*
 * testutil.c: helpers shared by the cmocka tests.
 */
#include <sys/types.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* Returns a new string formatted from fmt and ap. */
static char *
tu_vfmt(const char *fmt, va_list ap)
{
	char	*s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	return (s);
}

/* Initialises an empty list. */
void
tu_strs_init(struct tu_strs *s)
{
	s->n = s->cap = 0;
	s->v = NULL;
}

/* Frees a list and its strings. */
void
tu_strs_free(struct tu_strs *s)
{
	strv_free(s->v, s->n);
	tu_strs_init(s);
}

/* Appends a formatted string. */
void
tu_strs_add(struct tu_strs *s, const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = tu_vfmt(fmt, ap);
	va_end(ap);
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = p;
}

/* Compares two string pointers for qsort. */
static int
tu_strcmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Sorts a list. */
void
tu_strs_sort(struct tu_strs *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof *s->v, tu_strcmp);
}

/* Returns 1 if two sorted lists are equal; otherwise prints both. */
int
tu_strs_eq(const struct tu_strs *a, const struct tu_strs *b, const char *ctx)
{
	size_t	 i;

	if (a->n == b->n) {
		for (i = 0; i < a->n; i++)
			if (strcmp(a->v[i], b->v[i]) != 0)
				break;
		if (i == a->n)
			return (1);
	}
	print_error("%s: sets differ\n  fast :", ctx);
	for (i = 0; i < a->n; i++)
		print_error(" [%s]", a->v[i]);
	print_error("\n  brute:");
	for (i = 0; i < b->n; i++)
		print_error(" [%s]", b->v[i]);
	print_error("\n");
	return (0);
}

/* Returns the generous limits the tests parse with. */
const struct game_limits *
tu_limits(void)
{
	static struct game_limits lim;
	static int	 done;

	if (!done) {
		game_limits_default(&lim);
		lim.max_digits = 2000000;
		done = 1;
	}
	return (&lim);
}

/* Parses a game from a formatted line, failing the test on error. */
void
tu_parse(struct game *g, const char *fmt, ...)
{
	struct game_error err;
	va_list	 ap;
	char	*line;

	va_start(ap, fmt);
	line = tu_vfmt(fmt, ap);
	va_end(ap);
	if (game_parse_line(g, line, tu_limits(), &err) != 0) {
		print_error("parse '%s': %s\n", line, err.msg);
		free(line);
		fail();
	}
	free(line);
}

/* Asserts that parsing a line fails with the given error class. */
void
tu_parse_fail(enum game_err code, const char *fmt, ...)
{
	va_list		 ap;
	char		*line;

	va_start(ap, fmt);
	line = tu_vfmt(fmt, ap);
	va_end(ap);
	tu_parse_fail_msg(tu_limits(), line, code, "");
	free(line);
}

/* Asserts that line parses under lim (then frees the game). */
void
tu_parse_ok(const struct game_limits *lim, const char *line)
{
	struct game_error err;
	struct game	 g;

	if (game_parse_line(&g, line, lim, &err) != 0) {
		print_error("parse '%s': %s\n", line, err.msg);
		fail();
	}
	game_free(&g);
}

/*
 * Calls fn(arg, a, b) for each pair (a, b) of strings in ap, up to the
 * NULL where a pair would start.
 */
void
tu_pairs(va_list ap, void (*fn)(void *, const char *, const char *),
    void *arg)
{
	const char	*a, *b;

	while ((a = va_arg(ap, const char *)) != NULL) {
		b = va_arg(ap, const char *);
		fn(arg, a, b);
	}
}

/* What tu_parse_fails_msg checks each (line, message) against. */
struct parse_fail {
	const struct game_limits *lim;
	enum game_err	 code;
};

static void
parse_fail_pair(void *arg, const char *line, const char *msg)
{
	const struct parse_fail *pf = arg;

	tu_parse_fail_msg(pf->lim, line, pf->code, msg);
}

/* tu_parse_fail with code for each line of a NULL-terminated list. */
void
tu_parse_fails(enum game_err code, ...)
{
	const char	*line;
	va_list		 ap;

	va_start(ap, code);
	while ((line = va_arg(ap, const char *)) != NULL)
		tu_parse_fail_msg(tu_limits(), line, code, "");
	va_end(ap);
}

/*
 * tu_parse_fail_msg under lim with code for each (line, message) of a
 * NULL-terminated list.
 */
void
tu_parse_fails_msg(const struct game_limits *lim, enum game_err code, ...)
{
	struct parse_fail pf = { lim, code };
	va_list		 ap;

	va_start(ap, code);
	tu_pairs(ap, parse_fail_pair, &pf);
	va_end(ap);
}

/* Prints a move with its changes ordered by (comp, idx). */
void
tu_move_str(const struct game_move *m, struct buf *b)
{
	struct game_move s;

	game_move_init(&s);
	game_move_copy(&s, m);
	if (s.n == 2 && (s.ch[0].comp > s.ch[1].comp ||
	    (s.ch[0].comp == s.ch[1].comp && s.ch[0].idx > s.ch[1].idx))) {
		game_move_clear(&s);
		game_move_init(&s);
		game_move_add(&s, m->ch[1].comp, m->ch[1].idx, m->ch[1].val);
		game_move_add(&s, m->ch[0].comp, m->ch[0].idx, m->ch[0].val);
	}
	game_move_print(&s, b);
	game_move_clear(&s);
}

/* Appends the entries of a move set as printed, sorted. */
void
tu_moveset_strs(const struct game_moveset *ms, struct tu_strs *out)
{
	struct buf	 b;
	size_t		 i;

	buf_init(&b);
	for (i = 0; i < ms->n; i++) {
		buf_reset(&b);
		game_moveset_ent_print(&ms->v[i], &b);
		tu_strs_add(out, "%s", buf_str(&b));
	}
	buf_free(&b);
	tu_strs_sort(out);
}

/*
 * Expands g's winning moves (ranges included) into a sorted string list,
 * failing the test if any of them is illegal.
 */
void
tu_winning(const struct game *g, struct tu_strs *out)
{
	struct game_moveset ms;
	struct game_error err;
	struct game_move m;
	struct buf	 b;
	size_t		 i;
	mpz_t		 v;

	game_moveset_init(&ms);
	if (game_winning(g, &ms, &err) != 0) {
		print_error("winning: %s\n", err.msg);
		fail();
	}
	buf_init(&b);
	mpz_init(v);
	game_move_init(&m);
	for (i = 0; i < ms.n; i++) {
		game_move_copy(&m, &ms.v[i].mv);
		for (;;) {
			buf_reset(&b);
			tu_move_str(&m, &b);
			if (game_check(g, &m, &err) != 0) {
				print_error("winning move %s is illegal: %s\n",
				    buf_str(&b), err.msg);
				fail();
			}
			tu_strs_add(out, "%s", buf_str(&b));
			if (!ms.v[i].ranged ||
			    mpz_cmp(m.ch[0].val, ms.v[i].hi) >= 0)
				break;
			mpz_add_ui(m.ch[0].val, m.ch[0].val, 1);
		}
	}
	game_move_clear(&m);
	mpz_clear(v);
	buf_free(&b);
	game_moveset_clear(&ms);
	tu_strs_sort(out);
}

/*
 * Checks g against brute force: outcome (GAME_P/GAME_N), Grundy value
 * (grundy < 0: none expected, or -2: do not check) and the sorted set of
 * winning moves.  Also checks that every winning move is legal.
 */
void
tu_check(const struct game *g, int outcome, long grundy, struct tu_strs *wins)
{
	struct game_error err;
	struct tu_strs	 fast;
	struct buf	 b;
	mpz_t		 gv;
	int		 o;

	buf_init(&b);
	game_print(g, &b);
	o = game_outcome(g, &err);
	if (o != outcome) {
		print_error("%s: outcome %d, brute %d (%s)\n", buf_str(&b), o,
		    outcome, o < 0 ? err.msg : "");
		fail();
	}
	mpz_init(gv);
	if (grundy >= 0) {
		if (game_grundy(g, gv, &err) != 0) {
			print_error("%s: grundy failed: %s\n", buf_str(&b),
			    err.msg);
			fail();
		}
		if (mpz_cmp_si(gv, grundy) != 0) {
			print_error("%s: grundy %lu, brute %ld\n", buf_str(&b),
			    mpz_get_ui(gv), grundy);
			fail();
		}
	} else if (grundy == -1)
		assert_int_not_equal(game_grundy(g, gv, &err), 0);
	mpz_clear(gv);
	tu_strs_init(&fast);
	tu_winning(g, &fast);
	tu_strs_sort(wins);
	if (!tu_strs_eq(&fast, wins, buf_str(&b)))
		fail();
	tu_strs_free(&fast);
	buf_free(&b);
}

/*
 * Parses a move given as text (space-separated changes) into m, which it
 * initialises; returns game_move_parse's result.
 */
static int
tu_move_parse(const struct game *g, const char *text, struct game_move *m,
    struct game_error *err)
{
	char	*s, *argv[8], *p;
	int	 argc = 0, rv;

	s = strdup(text);
	for (p = strtok(s, " "); p != NULL && argc < 8; p = strtok(NULL, " "))
		argv[argc++] = p;
	game_move_init(m);
	memset(err, 0, sizeof *err);
	rv = game_move_parse(g, m, argc, argv, tu_limits(), err);
	free(s);
	return (rv);
}

/* Asserts that g prints as want. */
void
tu_print_is(const struct game *g, const char *want)
{
	struct buf	 b;

	buf_init(&b);
	game_print(g, &b);
	assert_string_equal(buf_str(&b), want);
	buf_free(&b);
}

/* Asserts that g and h print the same. */
void
tu_print_same(const struct game *g, const struct game *h)
{
	struct buf	 b;

	buf_init(&b);
	game_print(g, &b);
	tu_print_is(h, buf_str(&b));
	buf_free(&b);
}

/*
 * Asserts that a sorted move set lists, per pile, sorted, disjoint and (if
 * maximal) non-adjacent ranges of single-change moves.  k == l lists single
 * moves, which may be adjacent (k = 1: 2q and 2q + 1): maximal 0.
 */
void
tu_check_canonical(const struct game_moveset *ms, int maximal)
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

/*
 * Appends a space and a random number of at most bits bits drawn from rs:
 * one pile of a random position line.
 */
void
tu_put_random(struct buf *b, gmp_randstate_t rs, mp_bitcnt_t bits)
{
	mpz_t	 v;

	mpz_init(v);
	mpz_urandomb(v, rs, bits);
	buf_putc(b, ' ');
	buf_mpz(b, v);
	mpz_clear(v);
}

/*
 * Asserts that each in[i] parses and prints as out[i], and that out[i]
 * parses and prints as itself.
 */
void
tu_roundtrip(const char *const *in, const char *const *out, size_t n)
{
	struct game	 g;
	size_t		 i;

	for (i = 0; i < n; i++) {
		tu_parse(&g, "%s", in[i]);
		tu_print_is(&g, out[i]);
		tu_reparse(&g);
		game_free(&g);
	}
}

/* Asserts that g's printed form parses and prints as itself. */
void
tu_reparse(const struct game *g)
{
	struct game	 h;
	struct buf	 b;

	buf_init(&b);
	game_print(g, &b);
	tu_parse(&h, "%s", buf_str(&b));
	tu_print_is(&h, buf_str(&b));
	game_free(&h);
	buf_free(&b);
}

/*
 * Appends g's winning moves to ms, plays each on a clone of g (failing the
 * test if one is refused) and calls check with the clone and the move.
 */
void
tu_winning_each(const struct game *g, struct game_moveset *ms,
    void (*check)(const struct game *, const struct game_move *, void *),
    void *arg)
{
	struct game_error err;
	struct game	 h;
	size_t		 i;

	assert_int_equal(game_winning(g, ms, &err), 0);
	for (i = 0; i < ms->n; i++) {
		game_clone(&h, g);
		assert_int_equal(game_play(&h, &ms->v[i].mv, &err), 0);
		check(&h, &ms->v[i].mv, arg);
		game_free(&h);
	}
}

/* A check for tu_winning_each: the position reached has Grundy value 0. */
void
tu_grundy_zero(const struct game *h, const struct game_move *m, void *arg)
{
	struct game_error err;
	mpz_t		 x;

	(void)m;
	(void)arg;
	mpz_init(x);
	assert_int_equal(game_grundy(h, x, &err), 0);
	assert_int_equal(mpz_sgn(x), 0);
	mpz_clear(x);
}

/* Plays a move given as text, failing the test if it is refused. */
void
tu_play(struct game *g, const char *text)
{
	struct game_error err;
	struct game_move m;

	if (tu_move_parse(g, text, &m, &err) != 0 ||
	    game_play(g, &m, &err) != 0) {
		print_error("play '%s': %s\n", text, err.msg);
		fail();
	}
	game_move_clear(&m);
}

/* Asserts that a move is refused with the given class and no change. */
void
tu_play_fail(struct game *g, const char *text, enum game_err code)
{
	struct game_error err;
	struct game_move m;
	struct buf	 before, after;
	int		 rv;

	buf_init(&before);
	buf_init(&after);
	game_print(g, &before);
	rv = tu_move_parse(g, text, &m, &err);
	if (rv == 0)
		rv = game_play(g, &m, &err);
	game_print(g, &after);
	if (rv == 0 || err.code != code || err.msg[0] == '\0' ||
	    strcmp(buf_str(&before), buf_str(&after)) != 0) {
		print_error("play '%s' on '%s': rv %d code %d '%s' (want %d)\n",
		    text, buf_str(&before), rv, err.code, err.msg, code);
		fail();
	}
	game_move_clear(&m);
	buf_free(&before);
	buf_free(&after);
}

/* Parses start and asserts that playing text there fails with code. */
void
tu_play_fail_at(const char *start, const char *text, enum game_err code)
{
	struct game	 g;

	tu_parse(&g, "%s", start);
	tu_play_fail(&g, text, code);
	game_free(&g);
}

/* Asserts that parsing line under lim fails with code and a message with msg. */
void
tu_parse_fail_msg(const struct game_limits *lim, const char *line,
    enum game_err code, const char *msg)
{
	struct game_error err;
	struct game	 g;

	memset(&err, 0, sizeof err);
	if (game_parse_line(&g, line, lim, &err) == 0) {
		print_error("parse '%s' succeeded\n", line);
		game_free(&g);
		fail();
	}
	if (err.code != code || err.msg[0] == '\0' ||
	    strstr(err.msg, msg) == NULL) {
		print_error("parse '%s': error %d '%s', want %d '%s'\n", line,
		    err.code, err.msg, code, msg);
		fail();
	}
}

/* Asserts that a move is refused as illegal with a message containing msg. */
void
tu_move_fail_msg(struct game *g, const char *text, const char *msg)
{
	struct game_error err;
	struct game_move m;

	assert_int_equal(tu_move_parse(g, text, &m, &err), 0);
	assert_int_equal(game_check(g, &m, &err), -1);
	if (err.code != GAME_EILLEGAL || strstr(err.msg, msg) == NULL) {
		print_error("move '%s': error %d '%s', want '%s'\n", text,
		    err.code, err.msg, msg);
		fail();
	}
	game_move_clear(&m);
}

/* tu_check with the winning moves as a NULL-terminated list. */
void
tu_check_wins(const struct game *g, int outcome, long grundy, ...)
{
	struct tu_strs	 wins;
	const char	*move;
	va_list		 ap;

	tu_strs_init(&wins);
	va_start(ap, grundy);
	while ((move = va_arg(ap, const char *)) != NULL)
		tu_strs_add(&wins, "%s", move);
	va_end(ap);
	tu_check(g, outcome, grundy, &wins);
	tu_strs_free(&wins);
}

/*
 * Clones g into h and plays move on the clone: g must still print as
 * g_is, h as h_is (clones are independent).  Both are left to the caller.
 */
void
tu_clone_play(struct game *h, const struct game *g, const char *move,
    const char *g_is, const char *h_is)
{
	game_clone(h, g);
	tu_play(h, move);
	tu_print_is(g, g_is);
	tu_print_is(h, h_is);
}

/*
 * Plays each move of a NULL-terminated list: with code GAME_OK as tu_play,
 * else as tu_play_fail with code.
 */
void
tu_plays(struct game *g, enum game_err code, ...)
{
	const char	*text;
	va_list		 ap;

	va_start(ap, code);
	while ((text = va_arg(ap, const char *)) != NULL)
		if (code == GAME_OK)
			tu_play(g, text);
		else
			tu_play_fail(g, text, code);
	va_end(ap);
}

static void
move_fail_pair(void *g, const char *text, const char *msg)
{
	tu_move_fail_msg(g, text, msg);
}

/* tu_move_fail_msg for each (move, message) of a NULL-terminated list. */
void
tu_move_fails_msg(struct game *g, ...)
{
	va_list		 ap;

	va_start(ap, g);
	tu_pairs(ap, move_fail_pair, g);
	va_end(ap);
}

/*
 * Checks g's to_grundy moves for target t against the brute force's moves
 * from a to positions of value t.  strs turns the move set into strings
 * (NULL: tu_moveset_strs); ctx names the position in a failure.
 */
void
tu_brute_to_grundy(struct tu_brute *br, const int *a, const struct game *g,
    int t, const char *ctx,
    void (*strs)(const struct game_moveset *, struct tu_strs *))
{
	struct game_moveset ms;
	struct game_error err;
	struct tu_strs	 want, got;
	mpz_t		 tz;

	game_moveset_init(&ms);
	tu_strs_init(&want);
	tu_strs_init(&got);
	mpz_init_set_ui(tz, (unsigned long)t);
	if (g->fam->to_grundy(g->st, tz, &ms, &err) != 0) {
		print_error("%s: to_grundy %d failed: %s\n", ctx, t, err.msg);
		fail();
	}
	mpz_clear(tz);
	tu_brute_moves_to(br, a, t, &want);
	(strs != NULL ? strs : tu_moveset_strs)(&ms, &got);
	if (!tu_strs_eq(&got, &want, ctx))
		fail();
	game_moveset_clear(&ms);
	tu_strs_free(&want);
	tu_strs_free(&got);
}

/* Prepares a brute-force solver for vectors of length k. */
void
tu_brute_init(struct tu_brute *br, int k,
    int (*options)(const int *, int, struct tu_opt *, void *), void *arg)
{
	size_t	 i;

	br->k = k;
	br->misere = 0;
	br->options = options;
	br->arg = arg;
	br->cap = 1024;
	br->used = 0;
	br->keys = calloc(br->cap * (size_t)k, sizeof *br->keys);
	br->vals = malloc(br->cap * sizeof *br->vals);
	for (i = 0; i < br->cap; i++)
		br->vals[i] = -1;
}

/* Frees the memo. */
void
tu_brute_free(struct tu_brute *br)
{
	free(br->keys);
	free(br->vals);
}

/* Returns the memo slot for a (empty or matching). */
static size_t
tu_brute_slot(const struct tu_brute *br, const int *a)
{
	uint64_t h = 1469598103934665603ULL;
	size_t	 s;
	int	 i;

	for (i = 0; i < br->k; i++)
		h = (h ^ (uint64_t)(unsigned)a[i]) * 1099511628211ULL;
	for (s = (size_t)(h % br->cap);; s = (s + 1) % br->cap)
		if (br->vals[s] < 0 || memcmp(&br->keys[s * (size_t)br->k], a,
		    (size_t)br->k * sizeof *a) == 0)
			return (s);
}

/* Doubles the memo. */
static void
tu_brute_grow(struct tu_brute *br)
{
	struct tu_brute	 nb = *br;
	size_t		 i, s;

	nb.cap = br->cap * 2;
	nb.keys = calloc(nb.cap * (size_t)br->k, sizeof *nb.keys);
	nb.vals = malloc(nb.cap * sizeof *nb.vals);
	for (i = 0; i < nb.cap; i++)
		nb.vals[i] = -1;
	for (i = 0; i < br->cap; i++) {
		if (br->vals[i] < 0)
			continue;
		s = tu_brute_slot(&nb, &br->keys[i * (size_t)br->k]);
		memcpy(&nb.keys[s * (size_t)br->k], &br->keys[i *
		    (size_t)br->k], (size_t)br->k * sizeof *nb.keys);
		nb.vals[s] = br->vals[i];
	}
	free(br->keys);
	free(br->vals);
	*br = nb;
}

/*
 * Returns the memoised value of a: in normal play its Grundy value by mex
 * over its options, in misere play its outcome (1 if the mover wins).
 */
static int
tu_brute_val(struct tu_brute *br, const int *a)
{
	struct tu_opt	*opts;
	char		 seen[TU_MAXOPT + 1];
	size_t		 s;
	int		 n, i, g;

	s = tu_brute_slot(br, a);
	if (br->vals[s] >= 0)
		return (br->vals[s]);
	opts = malloc(TU_MAXOPT * sizeof *opts);
	n = br->options(a, br->k, opts, br->arg);
	assert_true(n <= TU_MAXOPT);
	memset(seen, 0, sizeof seen);
	for (i = 0; i < n; i++) {
		g = tu_brute_val(br, opts[i].next);
		if (g <= TU_MAXOPT)
			seen[g] = 1;
	}
	free(opts);
	if (br->misere)
		g = n == 0 || seen[0];
	else
		for (g = 0; seen[g]; g++)
			;
	if ((br->used + 1) * 2 > br->cap)
		tu_brute_grow(br);
	s = tu_brute_slot(br, a);
	memcpy(&br->keys[s * (size_t)br->k], a, (size_t)br->k * sizeof *a);
	br->vals[s] = g;
	br->used++;
	return (g);
}

/* Returns the Grundy value of a (normal play only). */
int
tu_brute_sg(struct tu_brute *br, const int *a)
{
	assert_false(br->misere);
	return (tu_brute_val(br, a));
}

/* Returns 1 if the player to move at a wins, 0 if they lose. */
int
tu_brute_win(struct tu_brute *br, const int *a)
{
	int	 v = tu_brute_val(br, a);

	return (br->misere ? v : v != 0);
}

/*
 * Appends the sorted names of a's options whose value (Grundy value, or
 * with t < 0 the outcome for the mover there) is t, or every option with
 * all set; returns how many options a has.
 */
static int
tu_brute_select(struct tu_brute *br, const int *a, int t, int all,
    struct tu_strs *out)
{
	struct tu_opt	*opts;
	int		 n, i, v;

	opts = malloc(TU_MAXOPT * sizeof *opts);
	n = br->options(a, br->k, opts, br->arg);
	for (i = 0; i < n; i++) {
		v = t < 0 ? tu_brute_win(br, opts[i].next) :
		    tu_brute_sg(br, opts[i].next);
		if (all || v == (t < 0 ? 0 : t))
			tu_strs_add(out, "%s", opts[i].name);
	}
	free(opts);
	tu_strs_sort(out);
	return (n);
}

/* Appends the names of every option of a; returns their count. */
int
tu_brute_options(struct tu_brute *br, const int *a, struct tu_strs *out)
{
	return (tu_brute_select(br, a, -1, 1, out));
}

/* Appends the names of a's options after which the mover loses. */
void
tu_brute_wins(struct tu_brute *br, const int *a, struct tu_strs *out)
{
	tu_brute_select(br, a, -1, 0, out);
}

/* Appends the names of a's options to positions of Grundy value t. */
void
tu_brute_moves_to(struct tu_brute *br, const int *a, int t,
    struct tu_strs *out)
{
	tu_brute_select(br, a, t, 0, out);
}

/*
 * Steps a through every vector of k coordinates, a[i] <= bound[i], first
 * coordinate fastest; returns 0 after the last one (a is all zero again).
 */
int
tu_next(int *a, int k, const int *bound)
{
	int	 i;

	for (i = 0; i < k && ++a[i] > bound[i]; i++)
		a[i] = 0;
	return (i < k);
}

/*
 * Checks g, the game at position a, against the brute force: outcome,
 * Grundy value (none in misere play) and winning moves.
 */
void
tu_brute_check(struct tu_brute *br, const int *a, const struct game *g)
{
	struct tu_strs	 wins;

	tu_strs_init(&wins);
	tu_brute_wins(br, a, &wins);
	tu_check(g, tu_brute_win(br, a), br->misere ? -1 : tu_brute_sg(br, a),
	    &wins);
	tu_strs_free(&wins);
}

/*
 * Checks every position a <= bound (per coordinate) against the brute
 * force (tu_brute_check), with line() writing the game's text for a.
 */
void
tu_brute_check_each(struct tu_brute *br, const int *bound,
    void (*line)(const int *, int, struct buf *, void *), void *arg)
{
	struct game	 g;
	struct buf	 b;
	int		 a[TU_MAXK] = { 0 };

	buf_init(&b);
	do {
		buf_reset(&b);
		line(a, br->k, &b, arg);
		tu_parse(&g, "%s", buf_str(&b));
		tu_brute_check(br, a, &g);
		game_free(&g);
	} while (tu_next(a, br->k, bound));
	buf_free(&b);
}

/* Writes a prefix and then each coordinate of a. */
static void
tu_line_piles(const int *a, int k, struct buf *b, void *arg)
{
	int	 i;

	buf_puts(b, arg);
	for (i = 0; i < k; i++)
		buf_printf(b, " %d", a[i]);
}

/* Checks every position "prefix a1 ... ak" with each a[i] <= bound. */
void
tu_brute_check_all(struct tu_brute *br, int bound, const char *prefix)
{
	int	 b[TU_MAXK], i;

	for (i = 0; i < br->k; i++)
		b[i] = bound;
	tu_brute_check_each(br, b, tu_line_piles, (void *)prefix);
}

/*
 * Creates a fresh directory $TMPDIR/PREFIX.XXXXXX (or under /tmp) and puts
 * its path in dir; returns 0, or -1 if it cannot.
 */
int
tu_tmpdir(char *dir, size_t len, const char *prefix)
{
	const char	*tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/%s.XXXXXX", tmp != NULL && *tmp != '\0' ?
	    tmp : "/tmp", prefix);
	return (mkdtemp(dir) == NULL ? -1 : 0);
}

/* Removes every file in a directory (not the directory itself). */
void
tu_empty_dir(const char *dir)
{
	DIR		*d;
	struct dirent	*de;
	char		 p[1024];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		unlink(p);
	}
	closedir(d);
}
