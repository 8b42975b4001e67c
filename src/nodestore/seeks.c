/*
 * seeks.c: table seeks (seeks.h), the statements of the seek path across
 * nodes (issue 15 §2, PROTOCOL.md §13.3, doc/NODES.md): a seek's row
 * published, claimed by a node, given back, given its game; the rows a
 * preparation holds (created_ms 0 or -1) and the sweep of those nothing
 * owns.  A publication or a row opened again NOTIFYs channel lobby 'seek
 * ID', a claimed row given its game 'paired ID' (seeks_notify).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db/sqldb.h"
#include "nodestore/seeks.h"

/* Binds terms t (spec, random, rated, base_ms, inc_ms) from parameter i. */
static void
seeks_bind_terms(struct sqldb_stmt *s, int i, const struct seek_terms *t)
{
	sqldb_bind_text(s, i, t->spec);
	sqldb_bind_int64(s, i + 1, t->random);
	sqldb_bind_int64(s, i + 2, t->rated);
	sqldb_bind_int64(s, i + 3, (int64_t)t->base_ms);
	sqldb_bind_int64(s, i + 4, (int64_t)t->inc_ms);
}

/* A row's id, owner_id, game_id, player (columns 0 to 3) into arg. */
static void
seeks_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	struct seek_row	*r = arg;
	const char	*p = sqldb_column_text(s, 3);

	(void)i;
	r->id = sqldb_column_int64(s, 0);
	r->owner = sqldb_column_int64(s, 1);
	r->game = sqldb_column_int64(s, 2);
	snprintf(r->player, sizeof r->player, "%s", p != NULL ? p : "");
}

/* NOTIFY lobby 'WHAT ID' (in the transaction, if any): sqldb_notify's. */
int
seeks_notify(struct sqldb *db, const char *what, int64_t id)
{
	char		 pay[64];

	snprintf(pay, sizeof pay, "%s %" PRId64, what, id);
	return (sqldb_notify(db, "lobby", pay));
}

/*
 * Publishes player's seek of node with terms t at now: its row in *row,
 * NOTIFY 'seek ID', one transaction.  Returns 0, or -1.
 */
int
seeks_publish(struct sqldb *db, int64_t node, const char *player,
    const struct seek_terms *t, int64_t now, int64_t *row)
{
	struct sqldb_stmt *s;

	if (sqldb_begin(db) != 0 ||
	    sqldb_cached(db, "INSERT INTO seeks (node_id, player, spec, "
	    "random, rated, base_ms, inc_ms, created_ms) VALUES (?, ?, ?, ?, "
	    "?, ?, ?, ?)", SQLDB_RETURNING_ID, &s) != 0)
		return (sqldb_abort(db));
	sqldb_bind_int64(s, 1, node);
	sqldb_bind_text(s, 2, player);
	seeks_bind_terms(s, 3, t);
	sqldb_bind_int64(s, 8, now);
	if (sqldb_step(s) != SQLDB_DONE) {
		sqldb_reset(s);
		return (sqldb_abort(db));
	}
	sqldb_reset(s);
	*row = sqldb_last_id(db);
	if (seeks_notify(db, "seek", *row) < 0 || sqldb_commit(db) != 0)
		return (sqldb_abort(db));
	return (0);
}

/*
 * The oldest seek of a live node (the caller's included: two published
 * seeks of one node pair through their rows too) that row (older than
 * it) of player with terms t may pair with into c (a node killed leaves
 * its rows: they are passed over once its heartbeat expired at now; so
 * are rows held by a preparation, created_ms 0 or -1), locked if lock is
 * set (FOR UPDATE SKIP LOCKED: rows another claim holds are passed over).
 * Returns 1, 0 (none), or -1.
 */
#define SEEKS_CANDIDATE	"SELECT id, owner_id, game_id, player, node_id " \
	"FROM seeks WHERE id < ? AND owner_id IS NULL AND created_ms > 0 " \
	"AND player <> ? " \
	"AND spec = ? AND random = ? AND rated = ? AND base_ms = ? AND " \
	"inc_ms = ? AND EXISTS (SELECT 1 FROM nodes WHERE nodes.id = " \
	"seeks.node_id AND nodes.expires_ms > ?) ORDER BY id LIMIT 1"
static int
seeks_candidate(struct sqldb *db, int64_t row, const char *player,
    const struct seek_terms *t, int64_t now, int lock, struct seek_row *c)
{
	struct sqldb_stmt *s;
	int		 r;

	c->id = 0;
	if (sqldb_cached(db, lock ? SEEKS_CANDIDATE " FOR UPDATE SKIP LOCKED" :
	    SEEKS_CANDIDATE, 0, &s) != 0)
		return (-1);
	sqldb_bind_int64(s, 1, row);
	sqldb_bind_text(s, 2, player);
	seeks_bind_terms(s, 3, t);
	sqldb_bind_int64(s, 8, now);	/* of a live node only */
	if ((r = sqldb_step(s)) == SQLDB_ROW) {
		seeks_row(s, 0, c);
		c->node = sqldb_column_int64(s, 4);
	}
	sqldb_reset(s);
	return (r < 0 ? -1 : r == SQLDB_ROW);
}

/*
 * A claim's first half, for published row of player with terms t at now:
 * returns 1 with c the locked candidate and the transaction left open
 * (seeks_claim_end ends it), 0 when there is nothing to claim (*retry set
 * when a candidate was locked by a claim that may yet fail), -1.
 */
int
seeks_claim(struct sqldb *db, int64_t row, const char *player,
    const struct seek_terms *t, int64_t now, struct seek_row *c, int *retry)
{
	struct seek_row	 own;
	int64_t		 v[1];
	size_t		 n = 0;
	int		 r;

	if ((r = seeks_candidate(db, row, player, t, now, 0, c)) != 1)
		return (r);	/* none: lock nothing (others may claim ours) */
	memset(&own, 0, sizeof own);
	v[0] = row;
	if (sqldb_begin(db) != 0 ||
	    sqldb_cached_rows(db, "SELECT id, owner_id, game_id, player FROM "
	    "seeks WHERE id = ? AND created_ms > 0 FOR UPDATE", v, 1, 1,
	    seeks_row, &own, &n) != 0)
		return (sqldb_abort(db));
	if (n == 0 || own.owner != 0)	/* gone or held, or claimed */
		return (sqldb_rollback(db) == 0 ? 0 : -1);
	if ((r = seeks_candidate(db, row, player, t, now, 1, c)) < 0)
		return (sqldb_abort(db));
	if (r == 0) {		/* locked by a claim that may yet fail */
		*retry = 1;
		return (sqldb_rollback(db) == 0 ? 0 : -1);
	}
	return (1);
}

/*
 * A claim's second half, on its open transaction: commit (else a
 * rollback) deletes row and takes candidate c for node (local: c is a row
 * of node, deleted too).  Returns 1 committed, 0 rolled back, -1.
 */
int
seeks_claim_end(struct sqldb *db, int64_t node, int64_t row, int64_t c,
    int local, int commit)
{
	int64_t		 v[2];

	if (!commit)
		return (sqldb_rollback(db) == 0 ? 0 : -1);
	v[0] = node;
	v[1] = c;
	if (local ? seeks_delete(db, c) != 1 : sqldb_cached_run(db,
	    "UPDATE seeks SET owner_id = ? WHERE id = ?", v, 2) != 1)
		return (sqldb_abort(db));
	if (seeks_delete(db, row) != 1 || sqldb_commit(db) != 0)
		return (sqldb_abort(db));
	return (1);
}

/* Deletes row id: the rows deleted (0 or 1), or -1. */
int
seeks_delete(struct sqldb *db, int64_t id)
{
	return ((int)sqldb_cached_run(db, "DELETE FROM seeks WHERE id = ?",
	    &id, 1));
}

/* Deletes published row id unless a node claimed it: 0 or 1, or -1. */
int
seeks_unpublish(struct sqldb *db, int64_t id)
{
	return ((int)sqldb_cached_run(db, "DELETE FROM seeks WHERE id = ? "
	    "AND owner_id IS NULL", &id, 1));
}

/* Gives claimed row id back (no owner): the rows changed, or -1. */
int
seeks_release(struct sqldb *db, int64_t id)
{
	return ((int)sqldb_cached_run(db, "UPDATE seeks SET owner_id = NULL "
	    "WHERE id = ?", &id, 1));
}

/* Writes game into claimed row id: the rows changed, or -1. */
int
seeks_set_game(struct sqldb *db, int64_t id, int64_t game)
{
	int64_t		 v[2];

	v[0] = game;
	v[1] = id;
	return ((int)sqldb_cached_run(db, "UPDATE seeks SET game_id = ? WHERE "
	    "id = ?", v, 2));
}

/*
 * Node's rows paired by another node (a game_id), the oldest first, into
 * ids (SEEKS_LIST_MAX at most): their number (0 on a failure too).
 */
size_t
seeks_paired_ids(struct sqldb *db, int64_t node, int64_t *ids)
{
	struct sqldb_stmt *s;
	size_t		 n = 0;

	if (sqldb_cached(db, "SELECT id FROM seeks WHERE node_id = ? AND "
	    "game_id IS NOT NULL ORDER BY id LIMIT 64", 0, &s) != 0)
		return (0);
	sqldb_bind_int64(s, 1, node);
	while (n < SEEKS_LIST_MAX && sqldb_step(s) == SQLDB_ROW)
		ids[n++] = sqldb_column_int64(s, 0);
	sqldb_reset(s);
	return (n);
}

/* Node's row id, paired by another node, into r: 1, 0 (none), or -1. */
int
seeks_paired_read(struct sqldb *db, int64_t id, int64_t node,
    struct seek_row *r)
{
	int64_t		 v[2];
	size_t		 k = 0;

	v[0] = id;
	v[1] = node;
	if (sqldb_cached_rows(db, "SELECT id, owner_id, game_id, player FROM "
	    "seeks WHERE id = ? AND node_id = ? AND game_id IS NOT NULL", v, 2,
	    1, seeks_row, r, &k) != 0)
		return (-1);
	return (k != 0);
}

/*
 * Opens held row id and NOTIFYs 'seek ID', one transaction: t not NULL,
 * the seek's own row (created_ms -1) with terms t, as of ms; t NULL, a
 * partner's row held (created_ms 0) given back its created_ms ms.
 * Returns 1, 0 when the row is not held so, or -1.
 */
int
seeks_open(struct sqldb *db, int64_t id, const struct seek_terms *t,
    int64_t ms)
{
	struct sqldb_stmt *s;
	int		 n;

	if (sqldb_begin(db) != 0)
		return (sqldb_abort(db));
	if (t == NULL) {
		if (sqldb_cached(db, "UPDATE seeks SET created_ms = ? "
		    "WHERE id = ? AND created_ms = 0", 0, &s) != 0)
			return (sqldb_abort(db));
		sqldb_bind_int64(s, 1, ms);
		sqldb_bind_int64(s, 2, id);
	} else {
		if (sqldb_cached(db, "UPDATE seeks SET spec = ?, random = "
		    "?, rated = ?, base_ms = ?, inc_ms = ?, created_ms = ? WHERE "
		    "id = ? AND created_ms = -1", 0, &s) != 0)
			return (sqldb_abort(db));
		seeks_bind_terms(s, 1, t);
		sqldb_bind_int64(s, 6, ms);
		sqldb_bind_int64(s, 7, id);
	}
	n = sqldb_step(s) == SQLDB_DONE ? (int)sqldb_changes(db) : -1;
	sqldb_reset(s);
	if (n < 0 || (n == 1 && seeks_notify(db, "seek", id) < 0) ||
	    sqldb_commit(db) != 0)
		return (sqldb_abort(db));
	return (n);
}

/*
 * A preparation's rows for player's seek with terms t on node, into h, in
 * a transaction left open (seeks_commit ends it): the oldest published
 * row of node of another player with the same terms, held (created_ms 0),
 * locked waiting (the connection's lock_timeout bounds the wait), or else
 * the seek's own row, written held (created_ms -1).  Returns 0, or -1.
 */
#define SEEKS_PARTNER	"SELECT id, created_ms FROM seeks WHERE node_id = ? " \
	"AND owner_id IS NULL AND created_ms <> 0 AND player <> ? AND spec = ? " \
	"AND random = ? AND rated = ? AND base_ms = ? AND inc_ms = ? ORDER BY " \
	"id LIMIT 1 FOR UPDATE"
int
seeks_hold(struct sqldb *db, int64_t node, const char *player,
    const struct seek_terms *t, struct seek_hold *h)
{
	struct sqldb_stmt *s;
	int64_t		 v[1];
	int		 r;

	memset(h, 0, sizeof *h);
	if (sqldb_begin(db) != 0 || sqldb_cached(db, SEEKS_PARTNER, 0, &s) != 0)
		return (sqldb_abort(db));
	sqldb_bind_int64(s, 1, node);
	sqldb_bind_text(s, 2, player);
	seeks_bind_terms(s, 3, t);
	if ((r = sqldb_step(s)) == SQLDB_ROW) {
		h->partner = sqldb_column_int64(s, 0);
		h->partner_ms = sqldb_column_int64(s, 1);
	}
	sqldb_reset(s);
	if (r < 0)
		return (sqldb_abort(db));
	v[0] = h->partner;
	if (h->partner != 0 ? sqldb_cached_run(db, "UPDATE seeks SET "
	    "created_ms = 0 WHERE id = ?", v, 1) != 1 : sqldb_cached(db,
	    "INSERT INTO seeks (node_id, player, spec, random, rated, base_ms, "
	    "inc_ms, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, -1)",
	    SQLDB_RETURNING_ID, &s) != 0)
		return (sqldb_abort(db));
	if (h->partner == 0) {
		sqldb_bind_int64(s, 1, node);
		sqldb_bind_text(s, 2, player);
		seeks_bind_terms(s, 3, t);
		r = sqldb_step(s);
		sqldb_reset(s);
		if (r != SQLDB_DONE)
			return (sqldb_abort(db));
		h->row = sqldb_last_id(db);
	}
	return (0);
}

/* Commits the transaction seeks_hold left open: 0, or -1 (rolled back). */
int
seeks_commit(struct sqldb *db)
{
	return (sqldb_commit(db) != 0 ? sqldb_abort(db) : 0);
}

/*
 * Node's rows held (created_ms 0 or -1) and not claimed, the oldest
 * first, into ids (max, SEEKS_LIST_MAX at most), their number in *n.
 * Returns 0, or -1.
 */
int
seeks_held(struct sqldb *db, int64_t node, int64_t *ids, size_t max,
    size_t *n)
{
	struct sqldb_stmt *s;
	int		 r = SQLDB_DONE;

	*n = 0;
	if (sqldb_cached(db, "SELECT id FROM seeks WHERE node_id = ? "
	    "AND owner_id IS NULL AND created_ms IN (0, -1) ORDER BY id "
	    "LIMIT 64", 0, &s) != 0)
		return (-1);
	sqldb_bind_int64(s, 1, node);
	while (*n < max && *n < SEEKS_LIST_MAX &&
	    (r = sqldb_step(s)) == SQLDB_ROW)
		ids[(*n)++] = sqldb_column_int64(s, 0);
	sqldb_reset(s);
	return (*n < max && r < 0 ? -1 : 0);
}

/* Deletes row id if it is still held and not claimed: 0 or 1, or -1. */
int
seeks_drop_held(struct sqldb *db, int64_t id)
{
	return ((int)sqldb_cached_run(db, "DELETE FROM seeks WHERE id = ? "
	    "AND owner_id IS NULL AND created_ms IN (0, -1)", &id, 1));
}
