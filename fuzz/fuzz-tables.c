/*
 * fuzz-tables.c: the tables read back from the database (game-table.c and
 * each family's loader).  The first line is a game; the rest is what the
 * cache returns for any table the game asks for: sealed with a valid
 * checksum for the binary kinds (so that the fuzzer reaches the families'
 * own checks), as is for the text kind wythoff-p.  Checks that a game
 * solved with whatever the cache holds answers exactly as the same game
 * solved without a cache: a table that passes the checks must be right.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver/format.h"
#include "solver/game.h"

#define FUZZ_MAX	16384	/* bytes of one input */
#define FUZZ_COUNT	12	/* entries of `table` compared */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The stored data of this input. */
struct fuzz_store {
	const char	*data;
	size_t		 len;
};

/* Returns the input's data for every kind: sealed, except text tables. */
static int
fuzz_get(void *ctx, const char *kind, const char *key, struct buf *data)
{
	const struct fuzz_store *fs = ctx;

	(void)key;
	buf_add(data, fs->data, fs->len);
	if (strcmp(kind, "wythoff-p") != 0)
		game_table_seal(data);
	return (1);
}

/* Forgets what the families store. */
static void
fuzz_put(void *ctx, const char *kind, const char *key, const char *meta,
    const void *data, size_t len)
{
	(void)ctx, (void)kind, (void)key, (void)meta, (void)data, (void)len;
}

/* Appends the analysis, winning moves and table of the game in text. */
static void
fuzz_solve(const char *text, const struct game_limits *lim, struct buf *out)
{
	struct game_error err;
	struct game	 g;

	if (game_parse_line(&g, text, lim, &err) != 0) {
		buf_printf(out, "parse: %s\n", err.msg);
		return;
	}
	if (format_analysis(&g, out, &err) != 0)
		buf_printf(out, "analysis: %s\n", err.msg);
	if (format_winning(&g, 64, out, &err) != 0)
		buf_printf(out, "winning: %s\n", err.msg);
	if (game_table(&g, FUZZ_COUNT, out, &err) != 0)
		buf_printf(out, "table: %s\n", err.msg);
	game_free(&g);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct game_limits lim;
	struct game_tables tables;
	struct fuzz_store fs;
	struct buf	 with, without;
	char		*text, *nl;

	if (size > FUZZ_MAX)
		return (0);
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if ((nl = memchr(text, '\n', size)) == NULL) {
		free(text);
		return (0);
	}
	*nl = '\0';
	fs.data = nl + 1;
	fs.len = size - (size_t)(nl + 1 - text);
	game_limits_default(&lim);
	lim.max_digits = 40;
	lim.max_piles = 8;
	lim.max_components = 3;
	lim.max_nodes = 48;
	lim.max_edges = 128;
	lim.max_set = 6;
	lim.max_set_value = 48;
	lim.max_table = 4096;
	lim.max_wythoff = 24;
	lim.max_moves = 256;
	buf_init(&with);
	buf_init(&without);
	fuzz_solve(text, &lim, &without);
	tables.ctx = &fs;
	tables.get = fuzz_get;
	tables.put = fuzz_put;
	lim.tables = &tables;
	fuzz_solve(text, &lim, &with);
	assert(with.len == without.len &&
	    memcmp(with.data, without.data, with.len) == 0);
	buf_free(&with);
	buf_free(&without);
	free(text);
	return (0);
}
