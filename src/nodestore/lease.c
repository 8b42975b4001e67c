/*
 * lease.c: the leases of live games (lease.h, issue 15 §2; the design and
 * the fencing argument are in doc/NODES.md).  One row per game in table
 * leases: (game_id, node_id, epoch, state 'held' or 'released',
 * acquired_ms, expires_ms); EXPIRED is a held row past its expiry at the
 * caller's now.  lease_change() is the only function that writes a row.
 *
 * Concurrency: every change is one conditional statement (INSERT ... ON
 * CONFLICT DO NOTHING, or UPDATE ... WHERE the state allows it) and the
 * number of rows it changed says whether it happened.  On PostgreSQL
 * (READ COMMITTED) an UPDATE waits for a concurrent writer of the same
 * row and evaluates its WHERE again on the row that writer committed, and
 * an INSERT waits for a concurrent INSERT of the same key: of two nodes
 * racing, exactly one changes the row.  On SQLite every transaction holds
 * the database's write lock from BEGIN (IMMEDIATE).
 *
 * tp: the statements that lock several lease rows of one node (the
 * writer's fence of a batch's games, the node thread's lease_renew_all)
 * lock them in the order of game_id (ORDER BY ... FOR SHARE / FOR
 * UPDATE), so that they cannot deadlock with each other: a waiter waits
 * for the lowest row it lacks, which its holder does not wait for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "nodestore/lease.h"
#include "nodestore/node.h"
#include "db/sqldb.h"

const char *const lease_state_names[LEASE_RELEASED + 1] = {
	[LEASE_NONE] = "none",
	[LEASE_HELD] = "held",
	[LEASE_EXPIRED] = "expired",
	[LEASE_RELEASED] = "released",
};

/*
 * Several games at once, for the store's writer (PostgreSQL only):
 * games[0..n-1] (sorted, distinct) at epochs[] (for a release); done[i]
 * is set to 1 for each game whose lease changed.
 */
struct lease_set {
	const int64_t	*games, *epochs;
	size_t		 n;
	int		*done;
};

static int lease_mine(struct sqldb *, const char *, int, int64_t,
    const int64_t *, const int64_t *, size_t, struct sqldb_stmt **);
static int64_t lease_set_done(struct sqldb_stmt *, struct lease_set *);

/* lease_change of a set: NONE to HELD (epoch 1) or HELD to RELEASED. */
static int64_t
lease_change_set(struct sqldb *db, int64_t node, struct lease_set *set,
    enum lease_state from, enum lease_state to, int64_t ttl, int64_t now)
{
	struct sqldb_stmt *s;

	if (from == LEASE_NONE && to == LEASE_HELD) {
		if (lease_mine(db, "INSERT INTO leases (game_id, node_id, "
		    "epoch, state, acquired_ms, expires_ms) SELECT g, ?1, 1, "
		    "'held', ?3, ?4 FROM unnest(CAST(CAST(?2 AS TEXT) AS "
		    "BIGINT[])) AS g ON CONFLICT (game_id) DO NOTHING "
		    "RETURNING game_id", 0, node, set->games, NULL, set->n,
		    &s) == -1)
			return (-1);
		sqldb_bind_int64(s, 3, now);
		sqldb_bind_int64(s, 4, now + ttl);
	} else if (from == LEASE_HELD && to == LEASE_RELEASED) {
		if (lease_mine(db, "UPDATE leases AS l SET state = 'released' "
		    "FROM unnest(CAST(CAST(?2 AS TEXT) AS BIGINT[]), CAST(CAST(?3 "
		    "AS TEXT) AS BIGINT[])) AS f (g, e) WHERE l.game_id = f.g AND "
		    "l.epoch = f.e AND l.node_id = ?1 AND l.state = 'held' "
		    "RETURNING l.game_id", 0, node, set->games, set->epochs,
		    set->n, &s) == -1)
			return (-1);
	} else
		return (sqldb_refuse(db, "no lease transition of a set from %s "
		    "to %s", lease_state_names[from], lease_state_names[to]));
	return (lease_set_done(s, set));
}

/*
 * The life cycle's one transition function (lease.h): moves l's game
 * from state from to state to, for l->node (and l->epoch, when the
 * holder renews or releases), at now for ttl ms; l->game 0 renews every
 * lease l->node holds (HELD to HELD); set (not NULL): the games of set
 * (lease_change_set).  Returns the rows changed (1 for one game: l
 * updated; 0: the row was not in state from, nothing changed), or -1.
 */
static int64_t
lease_change(struct sqldb *db, struct lease *l, enum lease_state from,
    enum lease_state to, int64_t ttl, int64_t now, struct lease_set *set)
{
	int64_t		 c, v[6];

	if (set != NULL)
		return (lease_change_set(db, l->node, set, from, to, ttl, now));

	if (to == LEASE_HELD && from == LEASE_NONE) {
		v[0] = l->game, v[1] = l->node, v[2] = now, v[3] = now + ttl;
		c = sqldb_cached_run(db, "INSERT INTO leases (game_id, "
		    "node_id, epoch, state, acquired_ms, expires_ms) VALUES "
		    "(?, ?, 1, 'held', ?, ?) ON CONFLICT (game_id) DO NOTHING",
		    v, 4);
		l->epoch = 1;
	} else if (to == LEASE_HELD && (from == LEASE_EXPIRED ||
	    from == LEASE_RELEASED)) {
		v[0] = l->node, v[1] = now, v[2] = now + ttl, v[3] = l->game;
		v[4] = now;
		c = sqldb_cached_run(db, "UPDATE leases SET node_id = ?, "
		    "epoch = epoch + 1, state = 'held', acquired_ms = ?, "
		    "expires_ms = ? WHERE game_id = ? AND (state = 'released' "
		    "OR expires_ms <= ?)", v, 5);
		l->epoch = 0;	/* read back by the caller */
	} else if (to == LEASE_HELD && from == LEASE_HELD && l->game == 0) {
		v[0] = now + ttl, v[1] = l->node, v[2] = now;
		if (sqldb_backend(db) == SQLDB_PG)	/* rows locked in order */
			return (sqldb_cached_run(db, "UPDATE leases SET "
			    "expires_ms = ?1 WHERE game_id IN (SELECT game_id "
			    "FROM leases WHERE node_id = ?2 AND state = 'held' "
			    "AND expires_ms > ?3 ORDER BY game_id FOR UPDATE) "
			    "AND node_id = ?2 AND state = 'held' AND expires_ms "
			    "> ?3", v, 3));
		return (sqldb_cached_run(db, "UPDATE leases SET expires_ms = ? "
		    "WHERE node_id = ? AND state = 'held' AND expires_ms > ?",
		    v, 3));
	} else if (to == LEASE_HELD && from == LEASE_HELD) {
		v[0] = now + ttl, v[1] = l->game, v[2] = l->node;
		v[3] = l->epoch, v[4] = now;
		c = sqldb_cached_run(db, "UPDATE leases SET expires_ms = ? "
		    "WHERE game_id = ? AND node_id = ? AND epoch = ? AND "
		    "state = 'held' AND expires_ms > ?", v, 5);
	} else if (to == LEASE_RELEASED && (from == LEASE_HELD ||
	    from == LEASE_EXPIRED)) {
		v[0] = l->game, v[1] = l->node, v[2] = l->epoch;
		c = sqldb_cached_run(db, "UPDATE leases SET state = 'released' "
		    "WHERE game_id = ? AND node_id = ? AND epoch = ? AND "
		    "state = 'held'", v, 3);
	} else
		return (sqldb_refuse(db, "no lease transition from %s to %s",
		    lease_state_names[from], lease_state_names[to]));
	if (c != 1)
		return (c == -1 ? -1 : 0);
	l->state = to;
	if (to == LEASE_HELD) {
		l->acquired_ms = from == LEASE_HELD ? l->acquired_ms : now;
		l->expires_ms = now + ttl;
	}
	return (1);
}

static int
lease_args(struct sqldb *db, int64_t game, int64_t node, int64_t ttl,
    int64_t now)
{
	if (game < 1 || node < 1)
		return (sqldb_refuse(db, "game and node ids are positive"));
	return (node_times_ok(db, "lease", now, ttl, LEASE_TTL_MAX));
}

/* sqldb_cached_rows' row of lease_get (state: held or released). */
static void
lease_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	struct lease	*l = arg;
	const char	*st = sqldb_column_text(s, 2);

	(void)i;
	l->node = sqldb_column_int64(s, 0);
	l->epoch = sqldb_column_int64(s, 1);
	l->acquired_ms = sqldb_column_int64(s, 3);
	l->expires_ms = sqldb_column_int64(s, 4);
	l->state = st != NULL && strcmp(st, "released") == 0 ?
	    LEASE_RELEASED : LEASE_HELD;
}

/*
 * The lease of game at now into *l: returns its state (LEASE_NONE, with
 * l->game set and the rest 0, when the game never had one), or -1.
 */
int
lease_get(struct sqldb *db, int64_t game, int64_t now, struct lease *l)
{
	size_t	 rows;

	memset(l, 0, sizeof *l);
	l->game = game;
	if (sqldb_cached_rows(db, "SELECT node_id, epoch, state, acquired_ms, "
	    "expires_ms FROM leases WHERE game_id = ?", &game, 1, 1,
	    lease_row, l, &rows) == -1)
		return (-1);
	if (rows == 1 && l->state != LEASE_RELEASED)
		l->state = l->expires_ms <= now ? LEASE_EXPIRED : LEASE_HELD;
	return ((int)l->state);
}

/* lease_acquire's transaction; returns LEASE_OK, LEASE_TAKEN, or -1. */
static int
lease_acquire1(struct sqldb *db, struct lease *l, int64_t ttl, int64_t now)
{
	int64_t		 node = l->node, r;

	if ((r = lease_change(db, l, LEASE_NONE, LEASE_HELD, ttl, now,
	    NULL)) == 1)
		return (LEASE_OK);	/* a new game's: epoch 1, l is set */
	if (r == 0)
		r = lease_change(db, l, LEASE_EXPIRED, LEASE_HELD, ttl, now,
		    NULL);
	if (r == -1 || lease_get(db, l->game, now, l) == -1)
		return (-1);
	if (l->state != LEASE_HELD || l->node != node)
		return (LEASE_TAKEN);
	if (r == 0) {	/* its holder asks again: renew */
		if ((r = lease_change(db, l, LEASE_HELD, LEASE_HELD, ttl,
		    now, NULL)) != 1)
			return (r == -1 ? -1 : LEASE_TAKEN);
	}
	return (LEASE_OK);
}

/*
 * Node takes the lease of game at now for ttl ms: a game never leased
 * (epoch 1), a lease expired or released (epoch + 1), or its own lease
 * again (renewed, same epoch).  *l gets the lease as it stands: LEASE_OK
 * (held by node, l->epoch its epoch), LEASE_TAKEN (l->node holds it, not
 * expired: a player belongs on that node), or -1 (nothing changed).
 */
int
lease_acquire(struct sqldb *db, int64_t game, int64_t node, int64_t ttl,
    int64_t now, struct lease *l)
{
	int	 r;

	memset(l, 0, sizeof *l);
	l->game = game;
	l->node = node;
	if (lease_args(db, game, node, ttl, now) == -1 || sqldb_begin(db) ==
	    -1)
		return (-1);
	if ((r = lease_acquire1(db, l, ttl, now)) == -1 ||
	    sqldb_commit(db) == -1)
		return (sqldb_abort(db));
	return (r);
}

/*
 * lease_acquire of n games (sorted, distinct) in one transaction (one
 * commit for all: the store's writer takes the leases of a batch's new
 * games so; on PostgreSQL one INSERT for those never leased, the usual
 * statements for the others): epochs[i] gets games[i]'s epoch when node
 * holds it now, 0 when another node holds it (LEASE_TAKEN).  Returns 0,
 * or -1 (nothing changed, no lease taken).
 */
int
lease_acquire_all(struct sqldb *db, int64_t node, int64_t ttl, int64_t now,
    const int64_t *games, size_t n, int64_t *epochs)
{
	struct lease_set set = { games, NULL, n, NULL };
	struct lease	 l;
	size_t		 i;
	int		 r = 0, *done;

	for (i = 0; i < n; i++) {
		epochs[i] = 0;
		if (lease_args(db, games[i], node, ttl, now) == -1)
			return (-1);
	}
	if (n == 0)
		return (0);
	if (sqldb_begin(db) == -1)
		return (-1);
	set.done = done = xcalloc(n, sizeof *done);
	memset(&l, 0, sizeof l);
	l.node = node;
	if (sqldb_backend(db) == SQLDB_PG)
		r = (int)lease_change(db, &l, LEASE_NONE, LEASE_HELD, ttl, now,
		    &set);
	for (i = 0; i < n && r != -1; i++) {
		if (done[i]) {
			epochs[i] = 1;
			continue;
		}
		memset(&l, 0, sizeof l);
		l.game = games[i];
		l.node = node;
		if ((r = lease_acquire1(db, &l, ttl, now)) != -1)
			epochs[i] = r == LEASE_OK ? l.epoch : 0;
	}
	free(done);
	if (r == -1 || sqldb_commit(db) == -1) {
		for (i = 0; i < n; i++)
			epochs[i] = 0;
		return (sqldb_abort(db));
	}
	return (0);
}

/*
 * lease_release of n games (sorted, distinct) at epochs[], held by node,
 * in the caller's transaction (the store's writer: with their ends), in
 * one statement on PostgreSQL: done[i] is set to 1 for each one released
 * (0: not held at that epoch).  Returns how many, or -1.
 */
int64_t
lease_release_all(struct sqldb *db, int64_t node, const int64_t *games,
    const int64_t *epochs, size_t n, int *done)
{
	struct lease_set set = { games, epochs, n, done };
	struct lease	 l;
	int64_t		 c = 0;
	size_t		 i;
	int		 r;

	if (!sqldb_in_transaction(db))
		return (sqldb_refuse(db, "a lease statement of several games "
		    "outside a transaction"));
	memset(&l, 0, sizeof l);
	l.node = node;
	if (n > 0 && sqldb_backend(db) == SQLDB_PG)
		return (lease_change(db, &l, LEASE_HELD, LEASE_RELEASED, 0, 0,
		    &set));
	for (i = 0; i < n; i++) {
		l.game = games[i];
		l.epoch = epochs[i];
		if ((r = lease_release(db, &l)) == -1)
			return (-1);
		done[i] = r == LEASE_OK;
		c += done[i];
	}
	return (c);
}

/*
 * The holder (l->game, l->node, l->epoch) extends its lease to now + ttl.
 * Returns LEASE_OK, LEASE_LOST (expired, released or taken: l unchanged),
 * or -1.
 */
int
lease_renew(struct sqldb *db, struct lease *l, int64_t ttl, int64_t now)
{
	struct lease	 t = *l;
	int64_t		 r;

	if (lease_args(db, l->game, l->node, ttl, now) == -1)
		return (-1);
	if ((r = lease_change(db, &t, LEASE_HELD, LEASE_HELD, ttl, now,
	    NULL)) == -1)
		return (-1);
	if (r == 0)
		return (LEASE_LOST);
	*l = t;
	return (LEASE_OK);
}

/*
 * Node renews every lease it holds and that has not expired at now, in
 * one statement (a node beats for all its games at once: one commit per
 * period, not one per game); *n gets how many.  A lease that expired is
 * not renewed: lease_renew or lease_get tells which.  Returns 0, or -1.
 */
int
lease_renew_all(struct sqldb *db, int64_t node, int64_t ttl, int64_t now,
    int64_t *n)
{
	struct lease	 all;
	int64_t		 c;

	memset(&all, 0, sizeof all);
	all.node = node;
	*n = 0;
	if (node_times_ok(db, "lease", now, ttl, LEASE_TTL_MAX) == -1 ||
	    (c = lease_change(db, &all, LEASE_HELD, LEASE_HELD, ttl, now,
	    NULL)) == -1)
		return (-1);
	*n = c;
	return (0);
}

/* The holder gives the lease up (the game is over, or handed on).
 * Returns LEASE_OK, LEASE_LOST (another epoch owns it), or -1. */
int
lease_release(struct sqldb *db, struct lease *l)
{
	int64_t	 r;

	if ((r = lease_change(db, l, LEASE_HELD, LEASE_RELEASED, 0, 0, NULL)) ==
	    -1)
		return (-1);
	return (r == 1 ? LEASE_OK : LEASE_LOST);
}

/*
 * The fence, inside the caller's transaction, before its writes for game:
 * checks that (game, node, epoch) holds the lease and locks the lease's
 * row until the transaction ends (FOR SHARE on PostgreSQL; SQLite's
 * transaction already holds the write lock), so that no takeover commits
 * before the caller's writes (doc/NODES.md).  Expiry is not checked: a
 * lease past its expiry that nobody took is still this epoch's.  Returns
 * LEASE_OK, LEASE_LOST (the caller rolls back), or -1.  In a pipelined
 * batch the answer is not read before the commit: the fence says
 * LEASE_LOST there; use lease_fence_batch.
 */
int
lease_fence(struct sqldb *db, int64_t game, int64_t node, int64_t epoch)
{
	const char	*sql;
	int64_t		 v[3];
	size_t		 rows;

	if (!sqldb_in_transaction(db))
		return (sqldb_refuse(db, "a lease fence outside a "
		    "transaction"));
	sql = sqldb_backend(db) == SQLDB_PG ?
	    "SELECT 1 FROM leases WHERE game_id = ? AND node_id = ? AND "
	    "epoch = ? AND state = 'held' FOR SHARE" :
	    "SELECT 1 FROM leases WHERE game_id = ? AND node_id = ? AND "
	    "epoch = ? AND state = 'held'";
	v[0] = game, v[1] = node, v[2] = epoch;
	if (sqldb_cached_rows(db, sql, v, 3, 1, NULL, NULL, &rows) == -1)
		return (-1);
	return (rows == 1 ? LEASE_OK : LEASE_LOST);
}

/* sqldb_cached_rows' row of lease_expired: a game id. */
static void
lease_game_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	((int64_t *)arg)[i] = sqldb_column_int64(s, 0);
}

/*
 * The fence as a statement that fails when (game, node, epoch) no longer
 * holds the lease, for a pipelined batch (sqldb_batch_begin(db, 1)),
 * where no answer is read before the commit: the batch's commit then
 * fails ("lease lost: game N") and rolls the whole batch back.  It is
 * lease_fence_all of one game.  Returns 0, or -1.
 */
int
lease_fence_batch(struct sqldb *db, int64_t game, int64_t node,
    int64_t epoch)
{
	return (lease_fence_all(db, node, &game, &epoch, 1));
}

/* The text of a PostgreSQL array of v[0..n-1] ("{1,2,3}", to free). */
static char *
lease_array(const int64_t *v, size_t n)
{
	char	*t, *p;
	size_t	 i, len = 3 + n * 21;

	p = t = xmalloc(len);
	*p++ = '{';
	for (i = 0; i < n; i++)
		p += snprintf(p, len - (size_t)(p - t), "%s%lld", i ? "," : "",
		    (long long)v[i]);
	*p++ = '}';
	*p = '\0';
	return (t);
}

/* The lease rows of games[i] at epochs[i] that node holds (PostgreSQL;
 * ?1 node, ?2 and ?3 the arrays' text). */
#define LEASE_MINE	"FROM leases AS l JOIN unnest(CAST(CAST(?2 AS TEXT) " \
	"AS BIGINT[]), CAST(CAST(?3 AS TEXT) AS BIGINT[])) AS f (g, e) ON " \
	"l.game_id = f.g AND l.epoch = f.e WHERE l.node_id = ?1 AND " \
	"l.state = 'held'"

/* The cached statement sql (of LEASE_MINE) with node (?1) and n games
 * bound (?2; their epochs ?3 unless NULL; n as ?4 if count). */
static int
lease_mine(struct sqldb *db, const char *sql, int count, int64_t node,
    const int64_t *games, const int64_t *epochs, size_t n,
    struct sqldb_stmt **sp)
{
	char	*g, *e;

	if (!sqldb_in_transaction(db))
		return (sqldb_refuse(db, "a lease statement of several games "
		    "outside a transaction"));
	if (sqldb_cached(db, sql, 0, sp) == -1)
		return (-1);
	g = lease_array(games, n);
	e = epochs != NULL ? lease_array(epochs, n) : NULL;
	sqldb_bind_int64(*sp, 1, node);
	sqldb_bind_text(*sp, 2, g);
	if (e != NULL)
		sqldb_bind_text(*sp, 3, e);
	if (count)
		sqldb_bind_int64(*sp, 4, (int64_t)n);
	free(g);
	free(e);
	return (0);
}

/* The index of g in games[0..n-1] (sorted), or n. */
static size_t
lease_find(const int64_t *games, size_t n, int64_t g)
{
	size_t	 lo = 0, hi = n, i;

	while (lo < hi)
		if (games[(i = lo + (hi - lo) / 2)] < g)
			lo = i + 1;
		else
			hi = i;
	return (lo < n && games[lo] == g ? lo : n);
}

/* Steps s, whose rows are game ids of set, to its end: sets their done;
 * returns how many, or -1. */
static int64_t
lease_set_done(struct sqldb_stmt *s, struct lease_set *set)
{
	size_t	 i;
	int64_t	 c = 0;
	int	 r;

	for (i = 0; i < set->n; i++)
		set->done[i] = 0;
	while ((r = sqldb_step(s)) == SQLDB_ROW)
		if ((i = lease_find(set->games, set->n,
		    sqldb_column_int64(s, 0))) < set->n && !set->done[i]) {
			set->done[i] = 1;
			c++;
		}
	sqldb_reset(s);
	return (r == -1 ? -1 : c);
}

/*
 * The fence of n games at once (sorted, distinct), in one statement, for
 * the store's writer: which of games[i] at epochs[i] node holds.  It takes
 * lease_fence's lock (FOR SHARE) on every one it holds and sets held[i]
 * to 1 for those, 0 for the others.  Returns how many are held, or -1.
 * Not in a pipeline (see lease_fence_all).
 */
int
lease_fence_held(struct sqldb *db, int64_t node, const int64_t *games,
    const int64_t *epochs, size_t n, int *held)
{
	struct lease_set set = { games, epochs, n, held };
	struct sqldb_stmt *s;
	size_t		 i;
	int		 r, c = 0;

	for (i = 0; i < n; i++)
		held[i] = 0;
	if (sqldb_backend(db) != SQLDB_PG) {
		for (i = 0; i < n; i++) {
			if ((r = lease_fence(db, games[i], node, epochs[i])) ==
			    -1)
				return (-1);
			held[i] = r == LEASE_OK;
			c += held[i];
		}
		return (c);
	}
	if (n == 0)
		return (0);
	if (lease_mine(db, "SELECT l.game_id " LEASE_MINE " ORDER BY l.game_id "
	    "FOR SHARE OF l", 0, node, games, epochs, n, &s) == -1)
		return (-1);
	return ((int)lease_set_done(s, &set));
}

/*
 * The fence of n distinct games at once as a statement that fails when
 * node does not hold every games[i] at epochs[i], for a pipelined batch
 * (sqldb_batch_begin(db, 1)), where no answer is read before the commit:
 * the batch's commit then fails ("lease lost: game N ...", the games
 * lost) and rolls the whole batch back; outside a pipeline it fails at
 * once.  It takes lease_fence's lock (FOR SHARE) on every lease row that
 * matches; the count of them is compared with n in a scalar subquery,
 * whose missing row makes the cast fail at run time (a constant in the
 * COALESCE would be folded at planning, its cast is not).  SQLite (one
 * node, no pipeline): lease_fence of each game, a loss refused.  Returns
 * 0, or -1.
 */
int
lease_fence_all(struct sqldb *db, int64_t node, const int64_t *games,
    const int64_t *epochs, size_t n)
{
	struct sqldb_stmt *s;
	size_t		 i;
	int		 r;

	if (sqldb_backend(db) != SQLDB_PG || n == 0) {
		if (!sqldb_in_transaction(db))
			return (sqldb_refuse(db, "a lease fence outside a "
			    "transaction"));
		for (i = 0; i < n; i++) {
			if ((r = lease_fence(db, games[i], node, epochs[i])) ==
			    LEASE_LOST)
				return (sqldb_refuse(db, "lease lost: game %lld",
				    (long long)games[i]));
			if (r != LEASE_OK)
				return (-1);
		}
		return (0);
	}
	if (lease_mine(db, "SELECT CAST(COALESCE((SELECT '1' WHERE (SELECT "
	    "COUNT(*) FROM (SELECT 1 " LEASE_MINE " ORDER BY l.game_id FOR "
	    "SHARE OF l) AS k) = "
	    "?4), 'lease lost: game ' || COALESCE((SELECT string_agg(CAST(f.g "
	    "AS TEXT), ' ' ORDER BY f.g) FROM unnest(CAST(CAST(?2 AS TEXT) AS "
	    "BIGINT[]), CAST(CAST(?3 AS TEXT) AS BIGINT[])) AS f (g, e) WHERE "
	    "NOT EXISTS (SELECT 1 FROM leases AS l WHERE l.game_id = f.g AND "
	    "l.epoch = f.e AND l.node_id = ?1 AND l.state = 'held')), "
	    "CAST(?2 AS TEXT))) AS INTEGER)", 1, node, games, epochs, n, &s) == -1)
		return (-1);
	r = sqldb_step(s);
	sqldb_reset(s);
	return (r == -1 ? -1 : 0);
}

/*
 * The games whose lease expired at now (held, past expiry), oldest expiry
 * first, into games[0..max-1] (max at most LEASE_LIST_MAX), *n of them:
 * the games to take over.  Returns 0, or -1.
 */
int
lease_expired(struct sqldb *db, int64_t now, int64_t *games, size_t max,
    size_t *n)
{
	return (node_rows(db, "SELECT game_id FROM leases WHERE state = 'held' "
	    "AND expires_ms <= ? ORDER BY expires_ms, game_id LIMIT ?", now,
	    max, LEASE_LIST_MAX, lease_game_row, games, n));
}

struct lease_held_rows {
	int64_t		*games, *epochs;
};

static void
lease_held_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	struct lease_held_rows *r = arg;

	r->games[i] = sqldb_column_int64(s, 0);
	r->epochs[i] = sqldb_column_int64(s, 1);
}

/*
 * nw: the leases node holds and has not let expire at now, by game:
 * games[i] at epochs[i], *n of them (at most max).  Returns 0, or -1.
 */
int
lease_held(struct sqldb *db, int64_t node, int64_t now, int64_t *games,
    int64_t *epochs, size_t max, size_t *n)
{
	struct lease_held_rows r = { games, epochs };
	int64_t		 v[2] = { node, now };

	*n = 0;
	return (sqldb_cached_rows(db, "SELECT game_id, epoch FROM leases WHERE "
	    "node_id = ? AND state = 'held' AND expires_ms > ? ORDER BY "
	    "game_id", v, 2, max, lease_held_row, &r, n));
}
