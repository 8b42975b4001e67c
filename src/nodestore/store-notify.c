/*
 * store-notify.c: what the store's writer tells the other nodes (issue 15
 * §2, doc/NODES.md, PROTOCOL.md §13.5): on PostgreSQL, in the transaction
 * of each batch, before its commit, a NOTIFY on channel game_ID per run
 * of moves ('game ID ply N', N its last ply) and per end ('game ID
 * over'), so that they are delivered at the commit, in commit order, and
 * never for writes rolled back.  On SQLite (one node) nothing.
 */
#include <stdio.h>

#include "db/sqldb.h"
#include "store/store.h"
#include "store/store-int.h"
#include "nodestore/nodestore.h"

/* Notifies the batch b's runs of moves and game ends; returns 0 or -1. */
int
store_notify_batch(struct store *st, struct store_items *b)
{
	struct store_item *it;
	char		 ch[SQLDB_CHANNEL_MAX + 1], pay[64];

	if (!st->pg)
		return (0);
	STAILQ_FOREACH(it, b, entry) {
		if (it->skip || (it->op != STORE_OP_RUN &&
		    (it->op != STORE_OP_END || it->status == STORE_LIVE)))
			continue;
		snprintf(ch, sizeof ch, "game_%lld", (long long)it->id);
		if (it->op == STORE_OP_RUN)
			snprintf(pay, sizeof pay, "game %lld ply %lu",
			    (long long)it->id, it->ply + it->w - 1);
		else
			snprintf(pay, sizeof pay, "game %lld over",
			    (long long)it->id);
		if (sqldb_notify(st->wdb, ch, pay) < 0)
			return (-1);
	}
	return (0);
}
