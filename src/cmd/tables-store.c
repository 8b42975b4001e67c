/*
 * tables-store.c: the cache of precomputed tables on the game log.  The
 * solver core asks a struct game_tables for cached tables while it builds
 * them; here that cache is the store's tables table (kinds subtraction,
 * graph and wythoff-p; a Wythoff Grundy table is always built,
 * game-wythoff-tab.c says why).  Store reads are synchronous, so `table`
 * always runs off the event loop.
 */
#include <string.h>

#include "lib/log.h"
#include "store/store.h"
#include "session/tables.h"

/* Fetches a table's data from the store (struct game_tables get). */
static int
tables_store_get(void *ctx, const char *kind, const char *key, struct buf *data)
{
	int	 rv;

	rv = store_table_get(ctx, kind, key, NULL, data);
	if (rv == 1)
		log_info("event=table-load kind=%s key=%.60s%s bytes=%zu",
		    kind, key, strlen(key) > 60 ? "..." : "", data->len);
	return (rv);
}

/* Queues a table for the store (struct game_tables put). */
static void
tables_store_put(void *ctx, const char *kind, const char *key, const char *meta,
    const void *data, size_t len)
{
	log_info("event=table-save kind=%s key=%.60s%s bytes=%zu", kind, key,
	    strlen(key) > 60 ? "..." : "", len);
	store_table_put(ctx, kind, key, meta, data, len);
}

/* Fills in a table cache backed by store st. */
void
tables_store_cache(struct game_tables *t, struct store *st)
{
	t->ctx = st;
	t->get = tables_store_get;
	t->put = tables_store_put;
}
