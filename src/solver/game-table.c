/*
 * game-table.c: the precomputed table cache as the families see it.  A
 * table blob is a version varint, the family's payload of unsigned LEB128
 * varints, and a trailing FNV-1a 64-bit checksum of everything before it
 * (8 bytes, little-endian).  The families check a blob's sizes, ranges and
 * defining recurrences before they trust it; a blob that fails is ignored
 * and the table recomputed (and stored again).
 */
#include <stdint.h>
#include <string.h>

#include "solver/game.h"

/* Returns the FNV-1a 64-bit hash of len bytes at p. */
uint64_t
game_table_fnv(const unsigned char *p, size_t len)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	size_t		 i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return (h);
}

/* Looks up kind/key in the cache into data; returns 1 if found. */
int
game_tables_get(const struct game_tables *t, const char *kind,
    const char *key, struct buf *data)
{
	if (t == NULL || t->get == NULL)
		return (0);
	return (t->get(t->ctx, kind, key, data) == 1);
}

/* Stores data (a blob or text) as kind/key in the cache, if there is one. */
void
game_tables_put(const struct game_tables *t, const char *kind,
    const char *key, const char *meta, const struct buf *data)
{
	if (t == NULL || t->put == NULL)
		return;
	t->put(t->ctx, kind, key, meta, data->data, data->len);
}

/* Appends v as an unsigned LEB128 varint. */
void
game_table_putv(struct buf *b, uint64_t v)
{
	char	 c;

	do {
		c = (char)(v & 0x7f);
		v >>= 7;
		if (v != 0)
			c = (char)(c | 0x80);
		buf_putc(b, c);
	} while (v != 0);
}

/* Reads one varint at *p (before end) into v; returns -1 if malformed. */
int
game_table_getv(const unsigned char **p, const unsigned char *end,
    uint64_t *v)
{
	unsigned	 shift;

	*v = 0;
	for (shift = 0; *p < end && shift < 64; shift += 7) {
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0)
			return (0);
	}
	return (-1);
}

/* Appends the checksum of everything in b so far. */
void
game_table_seal(struct buf *b)
{
	uint64_t	 h;
	int		 i;

	h = game_table_fnv((const unsigned char *)b->data, b->len);
	for (i = 0; i < 8; i++)
		buf_putc(b, (char)(h >> (8 * i) & 0xff));
}

/*
 * Checks a blob's checksum and version; sets [*p, *end) to its payload.
 * Returns -1 if the blob cannot be trusted.
 */
int
game_table_open(const struct buf *b, const unsigned char **p,
    const unsigned char **end)
{
	const unsigned char *d = (const unsigned char *)b->data;
	uint64_t	 h, want = 0, ver;
	int		 i;

	if (b->data == NULL || b->len < 9)
		return (-1);
	for (i = 0; i < 8; i++)
		want |= (uint64_t)d[b->len - 8 + (size_t)i] << (8 * i);
	h = game_table_fnv(d, b->len - 8);
	if (h != want)
		return (-1);
	*p = d;
	*end = d + b->len - 8;
	if (game_table_getv(p, *end, &ver) != 0 || ver != GAME_TABLE_VERSION)
		return (-1);
	return (0);
}

/*
 * Makes a table: from the cache t when it holds a sound one under its key,
 * else built and then stored (version, payload, seal); without a cache (t
 * NULL), built.  Returns build's result.
 */
int
game_table_cached(const struct game_tables *t,
    const struct game_table_ops *ops, void *arg, struct game_error *err)
{
	struct buf	 key, blob, meta;
	int		 rv;

	if (t == NULL)
		return (ops->build(arg, err));
	buf_init(&key);
	buf_init(&blob);
	buf_init(&meta);
	ops->key(arg, &key);
	if (game_tables_get(t, ops->kind, buf_str(&key), &blob) &&
	    ops->load(arg, &blob) == 0)
		rv = 0;
	else if ((rv = ops->build(arg, err)) == 0) {
		buf_reset(&blob);
		game_table_putv(&blob, GAME_TABLE_VERSION);
		ops->save(arg, &blob, &meta);
		game_table_seal(&blob);
		game_tables_put(t, ops->kind, buf_str(&key), buf_str(&meta),
		    &blob);
	}
	buf_free(&key);
	buf_free(&blob);
	buf_free(&meta);
	return (rv);
}

/* Appends the first count entries of the game's precomputed table. */
int
game_table(const struct game *g, unsigned long count, struct buf *out,
    struct game_error *err)
{
	if (g->fam->table == NULL)
		return (game_set_error(err, GAME_ESYNTAX,
		    "%s has no precomputed table (only wythoff, subtraction "
		    "and graph have one)", g->fam->name));
	return (g->fam->table(g->st, count, out, err));
}
