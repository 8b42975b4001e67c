/*
 * test-tables.c: the precomputed table cache.  A spy cache shows that a
 * second parse takes the table from the cache with identical results, that
 * corrupt or wrong blobs are ignored and recomputed, and that tables kept
 * in a database file survive closing and reopening it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "session/tables.h"
#include "store/store.h"

/* An in-memory cache that counts its calls. */
#define SPY_MAX	16
struct spy {
	int		 n;
	char		*kind[SPY_MAX];
	char		*key[SPY_MAX];
	struct buf	 data[SPY_MAX];
	int		 gets, hits, puts;
	struct store	*st;		/* if set: pass through to the store */
};

/* Returns the slot of kind/key, or -1. */
static int
spy_find(struct spy *s, const char *kind, const char *key)
{
	int	 i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->kind[i], kind) == 0 &&
		    strcmp(s->key[i], key) == 0)
			return (i);
	return (-1);
}

/* The spy's get: counts calls and hits. */
static int
spy_get(void *ctx, const char *kind, const char *key, struct buf *data)
{
	struct spy	*s = ctx;
	int		 i, rv;

	s->gets++;
	if (s->st != NULL) {
		rv = store_table_get(s->st, kind, key, NULL, data);
		s->hits += rv == 1;
		return (rv);
	}
	if ((i = spy_find(s, kind, key)) < 0)
		return (0);
	s->hits++;
	buf_add(data, s->data[i].data, s->data[i].len);
	return (1);
}

/* The spy's put: counts calls and keeps (or replaces) the data. */
static void
spy_put(void *ctx, const char *kind, const char *key, const char *meta,
    const void *data, size_t len)
{
	struct spy	*s = ctx;
	int		 i;

	(void)meta;
	s->puts++;
	if (s->st != NULL) {
		store_table_put(s->st, kind, key, meta, data, len);
		return;
	}
	if ((i = spy_find(s, kind, key)) < 0) {
		assert_true(s->n < SPY_MAX);
		i = s->n++;
		s->kind[i] = strdup(kind);
		s->key[i] = strdup(key);
		buf_init(&s->data[i]);
	}
	buf_reset(&s->data[i]);
	buf_add(&s->data[i], data, len);
}

/* Frees the spy's copies. */
static void
spy_free(struct spy *s)
{
	int	 i;

	for (i = 0; i < s->n; i++) {
		free(s->kind[i]);
		free(s->key[i]);
		buf_free(&s->data[i]);
	}
	s->n = 0;
}

/* Sets up lim and tables around spy s. */
static void
spy_limits(struct spy *s, struct game_tables *t, struct game_limits *lim)
{
	memset(s->kind, 0, sizeof s->kind);
	t->ctx = s;
	t->get = spy_get;
	t->put = spy_put;
	*lim = *tu_limits();
	lim->tables = t;
}

/* Appends the table, Grundy value and outcome of line under lim to out. */
static void
describe(const char *line, unsigned long count,
    const struct game_limits *lim, struct buf *out)
{
	struct game_error err;
	struct game	 g;
	mpz_t		 sg;

	if (game_parse_line(&g, line, lim, &err) != 0)
		fail_msg("parse '%s': %s", line, err.msg);
	mpz_init(sg);
	assert_int_equal(game_table(&g, count, out, &err), 0);
	assert_int_equal(game_grundy(&g, sg, &err), 0);
	buf_puts(out, "grundy ");
	buf_mpz(out, sg);
	buf_printf(out, " outcome %d\n", game_outcome(&g, &err));
	mpz_clear(sg);
	game_free(&g);
}

/* The games the tests cache: one of each kind. */
static const char *const lines[] = {
	"subtraction S=2,5,7 10 33 1000001",
	"subtraction S=1,3,4,11 5 900",
	"graph edges=1>2,2>3,1>3,3>4,5>1,5>4 5 2 9",
	"wythoff t=2 17 29",
	"wythoff K=3 t=7 40 61",
};

/* A second parse takes the table from the cache: same answers. */
static void
test_cache_used(void **state)
{
	struct spy	 s;
	struct game_tables t;
	struct game_limits lim;
	struct buf	 plain, first, second;
	size_t		 i;

	(void)state;
	memset(&s, 0, sizeof s);
	spy_limits(&s, &t, &lim);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		buf_init(&plain);
		buf_init(&first);
		buf_init(&second);
		describe(lines[i], 60, tu_limits(), &plain);
		s.hits = s.puts = 0;
		describe(lines[i], 60, &lim, &first);
		assert_int_equal(s.hits, 0);
		/* One table each (wythoff: the P-positions; its Grundy table
		 * is always built, never stored). */
		assert_int_equal(s.puts, 1);
		s.hits = s.puts = 0;
		describe(lines[i], 60, &lim, &second);
		assert_int_equal(s.puts, 0);
		assert_int_equal(s.hits, 1);
		assert_string_equal(buf_str(&first), buf_str(&plain));
		assert_string_equal(buf_str(&second), buf_str(&plain));
		buf_free(&plain);
		buf_free(&first);
		buf_free(&second);
	}
	/* A stored Wythoff table at least that large serves a smaller one. */
	s.hits = s.puts = 0;
	buf_init(&first);
	buf_init(&plain);
	describe("wythoff t=2 3 5", 10, &lim, &first);
	describe("wythoff t=2 3 5", 10, tu_limits(), &plain);
	assert_string_equal(buf_str(&first), buf_str(&plain));
	assert_int_equal(s.puts, 0);
	buf_free(&first);
	buf_free(&plain);
	spy_free(&s);
}

/* Replaces every cached table by a variant made by f; checks recompute. */
static void
check_bad(void (*f)(const char *, struct buf *))
{
	struct spy	 s;
	struct game_tables t;
	struct game_limits lim;
	struct buf	 plain, got;
	size_t		 i;
	int		 j;

	memset(&s, 0, sizeof s);
	spy_limits(&s, &t, &lim);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		buf_init(&plain);
		buf_init(&got);
		describe(lines[i], 60, tu_limits(), &plain);
		describe(lines[i], 60, &lim, &got);
		for (j = 0; j < s.n; j++)
			f(s.kind[j], &s.data[j]);
		s.hits = s.puts = 0;
		buf_reset(&got);
		describe(lines[i], 60, &lim, &got);
		assert_string_equal(buf_str(&got), buf_str(&plain));
		/* Every damaged table was recomputed and stored again. */
		if (s.puts != s.hits)
			fail_msg("%s: %d damaged tables, %d recomputed",
			    lines[i], s.hits, s.puts);
		assert_true(s.puts > 0);
		buf_free(&plain);
		buf_free(&got);
		spy_free(&s);
	}
}

/* Flips one bit in the middle (the checksum catches it). */
static void
bad_flip(const char *kind, struct buf *b)
{
	(void)kind;
	b->data[b->len / 2] ^= 0x10;
}

/* Cuts the blob short. */
static void
bad_cut(const char *kind, struct buf *b)
{
	(void)kind;
	b->len = b->len > 12 ? b->len - 12 : 0;
}

/*
 * Rewrites the blob with one value changed and a valid checksum: the
 * families' own checks must catch it.  P-position text gets a wrong line.
 */
static void
bad_resealed(const char *kind, struct buf *b)
{
	const unsigned char *p, *end;
	struct buf	 nb;
	uint64_t	 v;
	size_t		 i;
	char		*nl;

	if (strcmp(kind, "wythoff-p") == 0) {
		/* "2 A B" becomes "2 A+K B+K": a P-position shifted. */
		nl = strstr(b->data, "\n2 ");
		assert_non_null(nl);
		nl[3] = nl[3] == '9' ? '8' : (char)(nl[3] + 1);
		return;
	}
	assert_int_equal(game_table_open(b, &p, &end), 0);
	buf_init(&nb);
	game_table_putv(&nb, GAME_TABLE_VERSION);
	for (i = 0; p < end; i++) {
		assert_int_equal(game_table_getv(&p, end, &v), 0);
		/* Change the 5th value after the header (sizes stay). */
		if (i == 6)
			v = v == 0 ? 1 : v - 1;
		game_table_putv(&nb, v);
	}
	game_table_seal(&nb);
	buf_reset(b);
	buf_add(b, nb.data, nb.len);
	buf_free(&nb);
}

/* Corrupt, truncated or wrong blobs are ignored and recomputed. */
static void
test_corrupt(void **state)
{
	(void)state;
	check_bad(bad_flip);
	check_bad(bad_cut);
	check_bad(bad_resealed);
}

/* Splits line on spaces into av (at most 8); returns the count. */
static int
split(char *line, char **av)
{
	char	*p, *sp;
	int	 n = 0;

	for (p = strtok_r(line, " ", &sp); p != NULL && n < 8;
	    p = strtok_r(NULL, " ", &sp))
		av[n++] = p;
	return (n);
}

/* Tables in a database file survive closing and reopening it. */
static void
test_persist(void **state)
{
	const char	*path = "tables-test.db";
	struct spy	 s;
	struct game_tables t;
	struct game_limits lim;
	struct buf	 first, second, meta;
	char		 err[512], line[] = "subtraction S=2,5,7 count=30";
	char		*argv[8];

	(void)state;
	unlink(path);
	memset(&s, 0, sizeof s);
	spy_limits(&s, &t, &lim);
	buf_init(&first);
	buf_init(&second);
	buf_init(&meta);
	s.st = store_open(path, err, sizeof err);
	assert_non_null(s.st);
	describe("subtraction S=2,5,7 3", 30, &lim, &first);
	describe("wythoff t=3 40 40", 30, &lim, &first);
	assert_int_equal(s.hits, 0);
	assert_int_equal(s.puts, 2);
	store_close(s.st);

	s.st = store_open(path, err, sizeof err);
	assert_non_null(s.st);
	assert_int_equal(store_table_get(s.st, "subtraction", "S=2,5,7",
	    &meta, NULL), 1);
	assert_string_equal(buf_str(&meta), "pre=0 period=22");
	s.hits = s.puts = 0;
	describe("subtraction S=2,5,7 3", 30, &lim, &second);
	describe("wythoff t=3 40 40", 30, &lim, &second);
	assert_int_equal(s.hits, 2);
	assert_int_equal(s.puts, 0);
	assert_string_equal(buf_str(&first), buf_str(&second));

	/* The table command's listing, through the store's own cache. */
	tables_store_cache(&t, s.st);
	buf_reset(&second);
	buf_reset(&meta);
	assert_int_equal(tables_list(&lim, split(line, argv), argv,
	    &second, &meta), 0);
	assert_non_null(strstr(buf_str(&second), "preperiod 0\nperiod 22\n"
	    "0 0\n1 0\n2 1\n"));
	assert_non_null(strstr(buf_str(&second), "\n29 3\n"));
	store_close(s.st);
	buf_free(&first);
	buf_free(&second);
	buf_free(&meta);
	unlink(path);
}

/* The table command's errors are one line. */
static void
test_errors(void **state)
{
	struct buf	 out, errb;
	char		 l1[] = "nim 3", l2[] = "subtraction S=2,5 count=x";
	char		 l3[] = "subtraction S=0", l4[] = "wythoff t=2";
	char		*av[8];

	(void)state;
	buf_init(&out);
	buf_init(&errb);
	assert_int_equal(tables_list(tu_limits(), split(l1, av), av, &out,
	    &errb), -1);
	assert_non_null(strstr(buf_str(&errb), "no precomputed table"));
	buf_reset(&errb);
	assert_int_equal(tables_list(tu_limits(), split(l2, av), av, &out,
	    &errb), -1);
	assert_null(strchr(buf_str(&errb), '\n'));
	buf_reset(&errb);
	assert_int_equal(tables_list(tu_limits(), split(l3, av), av, &out,
	    &errb), -1);
	buf_reset(&errb);
	assert_int_equal(tables_list(tu_limits(), split(l4, av), av, &out,
	    &errb), 0);
	/* A_n = floor(n sqrt 2), B_n = A_n + 2n; 20 lines by default. */
	assert_non_null(strstr(buf_str(&out), "0 0 0\n1 1 3\n2 2 6\n"
	    "3 4 10\n"));
	assert_non_null(strstr(buf_str(&out), "\n17 24 58\n18 25 61\n"
	    "19 26 64\n"));
	assert_null(strstr(buf_str(&out), "\n20 "));
	buf_free(&out);
	buf_free(&errb);
}

TU_MAIN("tables",
    cmocka_unit_test(test_cache_used),
    cmocka_unit_test(test_corrupt),
    cmocka_unit_test(test_persist),
    cmocka_unit_test(test_errors))
