/*
 * node.c: the registry of grundyd nodes on one database (node.h, issue 15
 * §2): a row per start of a node, with its advertised HOST:PORT, a
 * heartbeat and an expiry; a node is alive while the caller's now is
 * before its expiry.  Every statement is bound and prepared once per
 * connection (sqldb_cached).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nodestore/node.h"
#include "db/sqldb.h"

/*
 * Is a an address to advertise: HOST:PORT with HOST a name or an IPv4
 * address ([A-Za-z0-9.-]) or [IPv6] ([0-9A-Fa-f:.]), PORT 1 to 65535,
 * NODE_ADDR_MAX bytes at most?  Nothing else, so that it fits in one
 * word of a protocol line (`event redirect HOST:PORT GAME_ID`).
 */
int
node_addr_ok(const char *a)
{
	const char	*set, *colon, *host, *port;
	size_t		 n, hlen, i;
	long		 v;

	if (a == NULL || (n = strlen(a)) == 0 || n > NODE_ADDR_MAX ||
	    (colon = strrchr(a, ':')) == NULL || colon == a)
		return (0);
	host = a;
	hlen = (size_t)(colon - a);
	set = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789.-";
	if (a[0] == '[') {
		if (hlen < 3 || a[hlen - 1] != ']')
			return (0);
		host++;
		hlen -= 2;
		set = "0123456789ABCDEFabcdef:.";
	}
	for (i = 0; i < hlen; i++)
		if (strchr(set, host[i]) == NULL)
			return (0);
	port = colon + 1;
	if (*port == '\0' || strlen(port) > 5 ||
	    strspn(port, "0123456789") != strlen(port))
		return (0);
	v = strtol(port, NULL, 10);
	return (v >= 1 && v <= 65535);
}

/*
 * Checks a caller's now and ttl (1..max ms) for what ("node", "lease");
 * returns 0, or -1 with the refusal on db.
 */
int
node_times_ok(struct sqldb *db, const char *what, int64_t now, int64_t ttl,
    int64_t max)
{
	if (now < 0)
		return (sqldb_refuse(db, "negative time"));
	if (ttl < 1 || ttl > max)
		return (sqldb_refuse(db, "%s ttl %lld ms out of range "
		    "(1..%lld)", what, (long long)ttl, (long long)max));
	return (0);
}

/*
 * Inserts a node's row: a new one (id 0, its id from the database: the
 * caller reads sqldb_last_id) or node id's again (unless it is there).
 * Returns 0, or -1.
 */
static int
node_insert(struct sqldb *db, int64_t id, const char *addr, int64_t started,
    int64_t now, int64_t ttl)
{
	struct sqldb_stmt *s;
	int		 r;

	if (sqldb_cached(db, id > 0 ? "INSERT INTO nodes (addr, started_ms, "
	    "heartbeat_ms, expires_ms, id) VALUES (?, ?, ?, ?, ?) ON CONFLICT "
	    "(id) DO NOTHING" : "INSERT INTO nodes (addr, started_ms, "
	    "heartbeat_ms, expires_ms) VALUES (?, ?, ?, ?)", id > 0 ? 0 :
	    SQLDB_RETURNING_ID, &s) == -1)
		return (-1);
	if (sqldb_bind_text(s, 1, addr) == -1 || sqldb_bind_int64(s, 2,
	    started) == -1 || sqldb_bind_int64(s, 3, now) == -1 ||
	    sqldb_bind_int64(s, 4, now + ttl) == -1 ||
	    (id > 0 && sqldb_bind_int64(s, 5, id) == -1))
		r = -1;
	else
		r = sqldb_step(s);
	sqldb_reset(s);
	return (r == -1 ? -1 : 0);
}

/*
 * Registers a node that advertises addr, started at now, alive until
 * now + ttl; *id gets its id (the database's).  Returns 0, or -1.
 */
int
node_register(struct sqldb *db, const char *addr, int64_t now, int64_t ttl,
    int64_t *id)
{
	if (!node_addr_ok(addr))
		return (sqldb_refuse(db, "bad node address (HOST:PORT, at "
		    "most %d bytes)", NODE_ADDR_MAX));
	if (node_times_ok(db, "node", now, ttl, NODE_TTL_MAX) == -1 ||
	    node_insert(db, 0, addr, now, now, ttl) == -1)
		return (-1);
	*id = sqldb_last_id(db);
	return (0);
}

/*
 * The heartbeat of node id at now: alive until now + ttl (again, if it
 * had expired).  Returns 0, or -1 (an unknown node is refused).
 */
int
node_heartbeat(struct sqldb *db, int64_t id, int64_t now, int64_t ttl)
{
	int64_t		 v[3], c;

	if (node_times_ok(db, "node", now, ttl, NODE_TTL_MAX) == -1)
		return (-1);
	v[0] = now, v[1] = now + ttl, v[2] = id;
	if ((c = sqldb_cached_run(db, "UPDATE nodes SET heartbeat_ms = ?, "
	    "expires_ms = ? WHERE id = ?", v, 3)) == -1)
		return (-1);
	if (c != 1)
		return (sqldb_refuse(db, "no node %lld", (long long)id));
	return (0);
}

/* Reads the columns of a nodes row (id, addr, started, heartbeat,
 * expires) at s's current row into ni. */
static void
node_row(struct sqldb_stmt *s, struct node_info *ni)
{
	const char	*a = sqldb_column_text(s, 1);

	ni->id = sqldb_column_int64(s, 0);
	snprintf(ni->addr, sizeof ni->addr, "%s", a != NULL ? a : "");
	ni->started_ms = sqldb_column_int64(s, 2);
	ni->heartbeat_ms = sqldb_column_int64(s, 3);
	ni->expires_ms = sqldb_column_int64(s, 4);
}

/* sqldb_cached_rows' row of node_list. */
static void
node_list_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	node_row(s, &((struct node_info *)arg)[i]);
}

/* Node id's row into *ni: returns 1, 0 (no such node), or -1. */
int
node_get(struct sqldb *db, int64_t id, struct node_info *ni)
{
	struct sqldb_stmt *s;
	int		 r;

	if (sqldb_cached(db, "SELECT id, addr, started_ms, heartbeat_ms, "
	    "expires_ms FROM nodes WHERE id = ?", 0, &s) == -1)
		return (-1);
	if ((r = sqldb_bind_int64(s, 1, id)) == 0 &&
	    (r = sqldb_step(s)) == SQLDB_ROW)
		node_row(s, ni);
	sqldb_reset(s);
	return (r == -1 ? -1 : r == SQLDB_ROW);
}

/* Is node id alive at now?  1, 0 (expired, or unknown), or -1. */
int
node_alive(struct sqldb *db, int64_t id, int64_t now)
{
	struct node_info ni;
	int		 r;

	if ((r = node_get(db, id, &ni)) != 1)
		return (r);
	return (ni.expires_ms > now);
}

/*
 * The list query sql (parameters: now, max) of at most cap rows: fn(s, i,
 * arg) for each of the first max rows, *n of them; more than cap asked
 * for is refused.  Returns 0, or -1.  Shared by node_list and
 * lease_expired.
 */
int
node_rows(struct sqldb *db, const char *sql, int64_t now, size_t max,
    size_t cap, void (*fn)(struct sqldb_stmt *, size_t, void *), void *arg,
    size_t *n)
{
	int64_t		 v[2] = { now, (int64_t)max };

	*n = 0;
	if (max > cap)
		return (sqldb_refuse(db, "more than %zu rows asked for", cap));
	return (sqldb_cached_rows(db, sql, v, 2, max, fn, arg, n));
}

/*
 * The nodes alive at now, by id, into out[0..max-1] (max at most
 * NODE_LIST_MAX), *n of them.  Returns 0, or -1.
 */
int
node_list(struct sqldb *db, int64_t now, struct node_info *out, size_t max,
    size_t *n)
{
	return (node_rows(db, "SELECT id, addr, started_ms, heartbeat_ms, "
	    "expires_ms FROM nodes WHERE expires_ms > ? ORDER BY id LIMIT ?",
	    now, max, NODE_LIST_MAX, node_list_row, out, n));
}

/* Pruning the rows of dead nodes (doc/NODES.md, "Pruning"). */

/* The dead nodes' rows node_prune may delete, locked on PostgreSQL (a
 * heartbeat, or a lease or seek that would name the node, waits). */
#define NODE_PRUNABLE	"SELECT id FROM nodes WHERE expires_ms <= ? AND " \
	"id <> ? AND NOT EXISTS (SELECT 1 FROM leases WHERE leases.node_id " \
	"= nodes.id AND leases.state = 'held') AND NOT EXISTS (SELECT 1 " \
	"FROM seeks WHERE seeks.owner_id = nodes.id) ORDER BY id LIMIT ?"

/* sqldb_cached_rows' row of node_prune: the id. */
static void
node_id_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	((int64_t *)arg)[i] = sqldb_column_int64(s, 0);
}

/*
 * Deletes the rows of at most max (1..NODE_PRUNE_MAX) nodes dead since
 * before (expires_ms <= before), other than self, that hold no lease and
 * claimed no seek, in one transaction: their released leases forget them
 * (node_id NULL), their own seeks go (no node pairs a dead node's seek),
 * then their rows.  *n gets the number of rows deleted.  A node that
 * still holds a lease is kept, whether or not it expired: its games wait
 * for a takeover, which reads nothing of its row.  Returns 0, or -1
 * (nothing changed).
 */
int
node_prune(struct sqldb *db, int64_t self, int64_t before, size_t max,
    size_t *n)
{
	int64_t		 ids[NODE_PRUNE_MAX], v[3];
	size_t		 k, i;

	*n = 0;
	if (max < 1 || max > NODE_PRUNE_MAX)
		return (sqldb_refuse(db, "prune 1 to %d nodes at a time",
		    NODE_PRUNE_MAX));
	v[0] = before, v[1] = self, v[2] = (int64_t)max;
	if (sqldb_begin(db) == -1 || sqldb_cached_rows(db,
	    sqldb_backend(db) == SQLDB_PG ? NODE_PRUNABLE " FOR UPDATE SKIP "
	    "LOCKED" : NODE_PRUNABLE, v, 3, max, node_id_row, ids, &k) == -1)
		return (sqldb_abort(db));
	for (i = 0; i < k; i++) {
		v[0] = ids[i];
		if (sqldb_cached_run(db, "UPDATE leases SET node_id = NULL "
		    "WHERE node_id = ? AND state = 'released'", v, 1) == -1 ||
		    sqldb_cached_run(db, "DELETE FROM seeks WHERE node_id = ?",
		    v, 1) == -1 || sqldb_cached_run(db, "DELETE FROM nodes "
		    "WHERE id = ?", v, 1) != 1)
			return (sqldb_abort(db));
	}
	if (sqldb_commit(db) == -1)
		return (sqldb_abort(db));
	*n = k;
	return (0);
}

/*
 * Node id, alive again after its row was pruned (it was cut off from the
 * database for longer than the pruning's delay, holding no lease): its
 * row again, with the same id, address and start, alive until now + ttl.
 * Returns 1 (made again), 0 (the row was there), or -1.
 */
int
node_revive(struct sqldb *db, int64_t id, const char *addr, int64_t started,
    int64_t now, int64_t ttl)
{
	if (id < 1 || started < 0 || !node_addr_ok(addr))
		return (sqldb_refuse(db, "bad node to revive"));
	if (node_times_ok(db, "node", now, ttl, NODE_TTL_MAX) == -1 ||
	    node_insert(db, id, addr, started, now, ttl) == -1)
		return (-1);
	return (sqldb_changes(db) == 1);
}
