/*
 * store-results.c: the finished games of the log for results.c
 * (store-results.h).  On the read connection under rmtx, as
 * store-read.c's; every parameter is bound.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "store/store-int.h"
#include "store/store-results.h"

/*
 * The selected games, and per game and seat: moves, kept-win, threw-win
 * and the player's own move number of its first threw-win; whether it
 * was won by forfeit.
 */
static const char store_rgames_sql[] =
    "WITH sel AS (SELECT id, player1, player2, game, tournament_id, result,"
    " reason, slot"
    " FROM games WHERE status = 'finished' AND result IS NOT NULL"
    " AND (CAST(?1 AS TEXT) IS NULL OR (player1 = ?1 AND player2 = ?2)"
    " OR (player1 = ?2 AND player2 = ?1))"
    " AND (?3 = 0 OR (?3 = -1 AND tournament_id IS NULL)"
    " OR tournament_id = ?3)"
    " AND (CAST(?4 AS TEXT) IS NULL OR ended_at >= ?4)"
    " AND (CAST(?5 AS TEXT) IS NULL OR ended_at < ?5)"
    " ORDER BY id LIMIT ?6),"
    " mv AS (SELECT m.game_id, m.player, m.mark, ROW_NUMBER() OVER"
    " (PARTITION BY m.game_id, m.player ORDER BY m.ply) AS k"
    " FROM sel JOIN moves AS m ON m.game_id = sel.id),"
    " agg AS (SELECT game_id, player, COUNT(*) AS n,"
    " SUM(CASE WHEN mark = 'kept-win' THEN 1 ELSE 0 END) AS kw,"
    " SUM(CASE WHEN mark = 'threw-win' THEN 1 ELSE 0 END) AS tw,"
    " MIN(CASE WHEN mark = 'threw-win' THEN k END) AS ft"
    " FROM mv GROUP BY game_id, player)"
    " SELECT sel.id, sel.player1, sel.player2, sel.game,"
    " COALESCE(sel.tournament_id, 0), sel.result,"
    " COALESCE(a1.n, 0), COALESCE(a1.kw, 0), COALESCE(a1.tw, 0),"
    " COALESCE(a1.ft, 0), COALESCE(a2.n, 0), COALESCE(a2.kw, 0),"
    " COALESCE(a2.tw, 0), COALESCE(a2.ft, 0),"
    " CASE WHEN sel.reason = 'forfeit' THEN 1 ELSE 0 END,"
    " COALESCE(sel.slot, -1) FROM sel"
    " LEFT JOIN agg AS a1 ON a1.game_id = sel.id AND a1.player = 1"
    " LEFT JOIN agg AS a2 ON a2.game_id = sel.id AND a2.player = 2"
    " ORDER BY sel.id";

/* A tournament's id by name. */
static const char store_tour_id_sql[] =
    "SELECT id FROM tournaments WHERE name = ?1";

/*
 * A tournament's format, tie-breaks (NULL: its format's default), games
 * per pairing, players, withdrawals, byes and games stopped by a
 * withdrawal (migration 015).
 */
static const char store_tour_sql[] =
    "SELECT format, COALESCE(tiebreaks, ''), games_per_pair,"
    " COALESCE(players, ''),"
    " COALESCE(withdrawn, ''), COALESCE(byes, ''), COALESCE(stopped, '')"
    " FROM tournaments WHERE id = ?1";

/* Reads one row of store_rgames_sql into g. */
static void
store_rgame_row(struct sqldb_stmt *s, struct store_rgame *g)
{
	const char	*res;
	int		 k;

	memset(g, 0, sizeof *g);
	g->id = sqldb_column_int64(s, 0);
	g->player1 = store_coldup(s, 1);	/* NOT NULL columns */
	g->player2 = store_coldup(s, 2);
	g->start = store_coldup(s, 3);
	g->tournament = sqldb_column_int64(s, 4);
	res = sqldb_column_text(s, 5);
	g->winner = res != NULL && strcmp(res, "first") == 0 ? 1 : 2;
	g->marked = 1;
	g->forfeit = sqldb_column_int64(s, 14) != 0;
	g->slot = sqldb_column_int64(s, 15);
	for (k = 0; k < 2; k++) {
		g->seat[k].moves = (uint32_t)sqldb_column_int64(s, 6 + 4 * k);
		g->seat[k].kept = (uint32_t)sqldb_column_int64(s, 7 + 4 * k);
		g->seat[k].threw = (uint32_t)sqldb_column_int64(s, 8 + 4 * k);
		g->seat[k].first_throw =
		    (uint32_t)sqldb_column_int64(s, 9 + 4 * k);
	}
}

/* Binds a time bound, NULL for none. */
static void
bind_time(struct sqldb_stmt *s, int i, int64_t ms)
{
	char	 t[STORE_TIME_LEN];

	if (ms == STORE_TIME_NONE) {
		sqldb_bind_null(s, i);
		return;
	}
	store_time_text(ms, t, sizeof t);
	sqldb_bind_text(s, i, t);
}

/*
 * Reads the finished games with a winner that f selects, in id order,
 * into out.  Returns 0; 1 if there are more than f->max (out empty); -1
 * on a database error (out empty).
 */
int
store_rgames(struct store *st, const struct store_rfilter *f,
    struct store_rgames *out)
{
	struct sqldb_stmt *s = NULL;
	int		 rc = -1;

	memset(out, 0, sizeof *out);
	pthread_mutex_lock(&st->rmtx);
	if (sqldb_prepare(st->rdb, store_rgames_sql, 0, &s) == 0) {
		if (f->a != NULL && f->b != NULL) {
			sqldb_bind_text(s, 1, f->a);
			sqldb_bind_text(s, 2, f->b);
		} else {
			sqldb_bind_null(s, 1);
			sqldb_bind_null(s, 2);
		}
		sqldb_bind_int64(s, 3, f->tournament);
		bind_time(s, 4, f->since_ms);
		bind_time(s, 5, f->until_ms);
		sqldb_bind_int64(s, 6, (int64_t)f->max + 1);
		while ((rc = sqldb_step(s)) == SQLDB_ROW) {
			out->v = store_grow(out->v, out->n, sizeof *out->v);
			store_rgame_row(s, &out->v[out->n++]);
		}
	}
	if (rc != SQLDB_DONE)
		log_warnx("store=%s event=read-failed what=results "
		    "error=\"%s\" code=%d", st->name, sqldb_errmsg(st->rdb),
		    store_code(st->rdb));
	sqldb_finalize(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLDB_DONE) {
		store_rgames_free(out);
		return (-1);
	}
	if (out->n > f->max) {
		store_rgames_free(out);
		return (1);
	}
	return (0);
}

/* Frees what store_rgames read. */
void
store_rgames_free(struct store_rgames *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++) {
		free((char *)r->v[i].player1);
		free((char *)r->v[i].player2);
		free((char *)r->v[i].start);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}

/* Returns the id of tournament name, 0 if there is none, -1 on error. */
int64_t
store_tour_id(struct store *st, const char *name)
{
	struct sqldb_stmt *s = NULL;
	int64_t		 id = 0;
	int		 rc = -1;

	pthread_mutex_lock(&st->rmtx);
	if (sqldb_prepare(st->rdb, store_tour_id_sql, 0, &s) == 0) {
		sqldb_bind_text(s, 1, name);
		if ((rc = sqldb_step(s)) == SQLDB_ROW) {
			id = sqldb_column_int64(s, 0);
			rc = SQLDB_DONE;
		}
	}
	sqldb_finalize(s);
	pthread_mutex_unlock(&st->rmtx);
	return (rc == SQLDB_DONE ? id : -1);
}

/*
 * Reads tournament id as stored into *t (free with store_tour_free).
 * Returns 0, 1 if there is no such tournament, -1 on error.
 */
int
store_tour(struct store *st, int64_t id, struct store_tour *t)
{
	struct sqldb_stmt *s = NULL;
	const char	*f;
	int		 rc = -1, found = 0;

	memset(t, 0, sizeof *t);
	pthread_mutex_lock(&st->rmtx);
	if (sqldb_prepare(st->rdb, store_tour_sql, 0, &s) == 0) {
		sqldb_bind_int64(s, 1, id);
		if ((rc = sqldb_step(s)) == SQLDB_ROW) {
			f = sqldb_column_text(s, 0);
			t->swiss = f != NULL && strcmp(f, "swiss") == 0;
			t->tiebreaks = store_coldup(s, 1);
			t->games_per_pair =
			    (unsigned int)sqldb_column_int64(s, 2);
			t->players = store_coldup(s, 3);
			t->withdrawn = store_coldup(s, 4);
			t->byes = store_coldup(s, 5);
			t->stopped = store_coldup(s, 6);
			found = 1;
			rc = SQLDB_DONE;
		}
	}
	sqldb_finalize(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLDB_DONE || !found)
		store_tour_free(t);
	return (rc != SQLDB_DONE ? -1 : found ? 0 : 1);
}

/* Frees what store_tour read. */
void
store_tour_free(struct store_tour *t)
{
	free(t->tiebreaks);
	free(t->players);
	free(t->withdrawn);
	free(t->byes);
	free(t->stopped);
	memset(t, 0, sizeof *t);
}
