/*
 * store-where.c: where the live games of the log are refereed (issue 15
 * §2; store-where.h): a game, its lease (table leases) and the holder
 * node (table nodes), on the store's read connection under rmtx.  The
 * caller is a worker, never the loop (lobby-where.c).  Times are the
 * caller's milliseconds since the epoch, compared as lease.c compares
 * them: held while expires_ms > now.  A holder counts as alive for a
 * redirect only while it missed at most one beat (its last heartbeat
 * within two thirds of its TTL, the beat being a third): a node killed
 * a moment ago is not worth a client's trip, its game waits for the
 * takeover instead.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "store/store.h"
#include "store/store-int.h"
#include "nodestore/store-where.h"
#include "lib/util.h"

/* The columns of a row: the game, its lease and holder; FROM (games) */
#define STORE_WHERE_SEL							\
	"SELECT g.id, CASE WHEN g.player1 = ? THEN 1 WHEN g.player2 = ?"\
	" THEN 2 ELSE 0 END, COALESCE(l.node_id, 0),"			\
	" CASE WHEN l.state = 'held' AND l.expires_ms > ? THEN 1 ELSE 0"\
	" END, CASE WHEN n.heartbeat_ms + (n.expires_ms -"		\
	" n.heartbeat_ms) * 2 / 3 > ? THEN 1 ELSE 0 END,"		\
	" COALESCE(n.addr, '') FROM "
/* ... AS g, joined to its lease and holder, WHERE ... */
#define STORE_WHERE_JOIN						\
	" AS g LEFT JOIN leases AS l ON l.game_id = g.id"		\
	" LEFT JOIN nodes AS n ON n.id = l.node_id WHERE "

/* Reads the row of s into w. */
static void
store_where_row(struct sqldb_stmt *s, struct store_where *w)
{
	const char	*addr;

	memset(w, 0, sizeof *w);
	w->game = sqldb_column_int64(s, 0);
	w->seat = (int)sqldb_column_int64(s, 1);
	w->holder = sqldb_column_int64(s, 2);
	w->held = sqldb_column_int64(s, 3) != 0;
	w->alive = sqldb_column_int64(s, 4) != 0;
	addr = sqldb_column_text(s, 5);
	snprintf(w->addr, sizeof w->addr, "%s", addr != NULL ? addr : "");
}

/* Binds the name (twice) and now (twice) of STORE_WHERE_SEL. */
static void
store_where_bind(struct sqldb_stmt *s, const char *name, int64_t now)
{
	sqldb_bind_text(s, 1, name);
	sqldb_bind_text(s, 2, name);
	sqldb_bind_int64(s, 3, now);
	sqldb_bind_int64(s, 4, now);
}

/* Logs a failed read; returns -1 (rmtx held). */
static int
store_where_fail(struct store *st, const char *what)
{
	log_warnx("store=%s event=read-failed what=%s error=\"%s\"",
	    st->name, what, sqldb_errmsg(st->rdb));
	return (-1);
}

/*
 * The live games of account name, at most STORE_WHERE_MAX, in id order,
 * each with its lease at now (*out: free it; NULL when there is none).
 * Returns 0, or -1 on a database error.
 */
int
store_where_player(struct store *st, const char *name, int64_t now,
    struct store_where **out, size_t *n)
{
	struct sqldb_stmt *s;
	struct store_where *v;
	int		 rc;

	*out = NULL;
	*n = 0;
	v = xreallocarray(NULL, STORE_WHERE_MAX, sizeof *v);
	pthread_mutex_lock(&st->rmtx);
	/*
	 * The live games only (the partial index games_live), never the
	 * player's history through games_player1/2: OFFSET 0 keeps the
	 * planner from merging the two (BENCHMARKS.md §28: a player with
	 * 100,000 finished games cost 19 ms that way, 0.35 ms this way with
	 * 2,000 live games; this way grows with the live games: 5 ms at
	 * 20,000).
	 */
	if (sqldb_cached(st->rdb, STORE_WHERE_SEL "(SELECT id, player1, "
	    "player2 FROM games WHERE status = 'live' OFFSET 0)"
	    STORE_WHERE_JOIN "(g.player1 = ? OR g.player2 = ?) ORDER BY "
	    "g.id LIMIT 64", 0, &s) != 0) {
		rc = store_where_fail(st, "where-player");
		goto done;
	}
	store_where_bind(s, name, now);
	sqldb_bind_text(s, 5, name);
	sqldb_bind_text(s, 6, name);
	while (*n < STORE_WHERE_MAX && (rc = sqldb_step(s)) == SQLDB_ROW)
		store_where_row(s, &v[(*n)++]);
	sqldb_reset(s);
	rc = rc == SQLDB_ROW || rc == SQLDB_DONE ? 0 :
	    store_where_fail(st, "where-player");
done:
	pthread_mutex_unlock(&st->rmtx);
	if (rc != 0 || *n == 0) {
		free(v);
		*n = 0;
		return (rc);
	}
	*out = v;
	return (0);
}

/*
 * Live game id with its lease at now, into *w.  Returns 1, 0 when the log
 * has no such live game (it ended), or -1 on a database error.
 */
int
store_where_game(struct store *st, int64_t id, int64_t now,
    struct store_where *w)
{
	struct sqldb_stmt *s;
	int		 rc;

	pthread_mutex_lock(&st->rmtx);
	if (sqldb_cached(st->rdb, STORE_WHERE_SEL "games" STORE_WHERE_JOIN
	    "g.status = 'live' AND g.id = ?", 0, &s) != 0) {
		rc = store_where_fail(st, "where-game");
		goto done;
	}
	store_where_bind(s, "", now);
	sqldb_bind_int64(s, 5, id);
	if ((rc = sqldb_step(s)) == SQLDB_ROW)
		store_where_row(s, w);
	sqldb_reset(s);
	rc = rc == SQLDB_ROW ? 1 : rc == SQLDB_DONE ? 0 :
	    store_where_fail(st, "where-game");
done:
	pthread_mutex_unlock(&st->rmtx);
	return (rc);
}

/*
 * Every live game of the log with its lease at now and its last logged
 * ply, in id order, at most STORE_WHERE_LIVE_MAX (from the partial index
 * games_live; one index lookup per game for the ply).  Returns 0, or -1
 * on a database error (e empty).  Free e with store_elsewhere_free.
 */
int
store_where_live(struct store *st, int64_t now, struct store_elsewhere *e)
{
	struct sqldb_stmt *s;
	struct store_history *h;
	struct store_where *w;
	int		 rc;

	memset(e, 0, sizeof *e);
	e->games = h = xcalloc(1, sizeof *h);
	h->games = xreallocarray(NULL, STORE_WHERE_LIVE_MAX, sizeof *h->games);
	e->where = xreallocarray(NULL, STORE_WHERE_LIVE_MAX, sizeof *e->where);
	e->ply = xreallocarray(NULL, STORE_WHERE_LIVE_MAX, sizeof *e->ply);
	pthread_mutex_lock(&st->rmtx);
	if (sqldb_cached(st->rdb, "SELECT g.*, COALESCE(l.node_id, 0),"
	    " CASE WHEN l.state = 'held' AND l.expires_ms > ? THEN 1 ELSE 0"
	    " END, COALESCE(n.addr, ''), COALESCE((SELECT MAX(m.ply) FROM"
	    " moves AS m WHERE m.game_id = g.id), 0) FROM (SELECT "
	    STORE_GAME_COLS " FROM games WHERE status = 'live' ORDER BY id"
	    " LIMIT ?) AS g LEFT JOIN leases AS l ON l.game_id = g.id"
	    " LEFT JOIN nodes AS n ON n.id = l.node_id ORDER BY g.id", 0,
	    &s) != 0) {
		rc = store_where_fail(st, "where-live");
		goto done;
	}
	sqldb_bind_int64(s, 1, now);
	sqldb_bind_int64(s, 2, STORE_WHERE_LIVE_MAX);
	while (h->n < STORE_WHERE_LIVE_MAX &&
	    (rc = sqldb_step(s)) == SQLDB_ROW) {
		store_game_row(s, &h->games[h->n]);
		w = &e->where[h->n];
		memset(w, 0, sizeof *w);
		w->game = h->games[h->n].id;
		w->holder = sqldb_column_int64(s, 15);
		w->held = sqldb_column_int64(s, 16) != 0;
		snprintf(w->addr, sizeof w->addr, "%s",
		    sqldb_column_text(s, 17) != NULL ?
		    sqldb_column_text(s, 17) : "");
		e->ply[h->n++] = (uint64_t)sqldb_column_int64(s, 18);
	}
	sqldb_reset(s);
	rc = rc == SQLDB_ROW || rc == SQLDB_DONE ? 0 :
	    store_where_fail(st, "where-live");
done:
	pthread_mutex_unlock(&st->rmtx);
	if (rc != 0)
		store_elsewhere_free(e);
	return (rc);
}

/* Frees what store_where_live read. */
void
store_elsewhere_free(struct store_elsewhere *e)
{
	if (e->games != NULL)
		store_history_free(e->games);
	free(e->games);
	free(e->where);
	free(e->ply);
	memset(e, 0, sizeof *e);
}
