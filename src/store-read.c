/*
 * store-read.c: the store's synchronous reads, on the read connection
 * under rmtx (see store.c).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "log.h"
#include "store-int.h"
#include "util.h"

/* The SQL of the reader's statements, by STORE_R_*. */
const char *const store_rsql[STORE_R_N] = {
	"SELECT " STORE_GAME_COLS " FROM games ORDER BY id DESC LIMIT ?",
	"SELECT " STORE_GAME_COLS " FROM games WHERE id = ?",
	/*
	 * The view moves' columns, and time_us: a run's element 7 (written
	 * since networked moves are timed in µs), else time_ms * 1000.
	 */
	"SELECT ply, player, move, position, mark, time_ms, delay_us,"
	" COALESCE(time_us, time_ms * 1000) FROM (SELECT r.first_ply + m.key"
	" AS ply, json_extract(m.value, '$[0]') AS player,"
	" json_extract(m.value, '$[1]') AS move,"
	" json_extract(m.value, '$[2]') AS position,"
	" json_extract(m.value, '$[3]') AS time_ms,"
	" CASE json_extract(m.value, '$[4]') WHEN 0 THEN 'kept-win'"
	" WHEN 1 THEN 'threw-win' ELSE 'no-win' END AS mark,"
	" json_extract(m.value, '$[5]') AS delay_us,"
	" json_extract(m.value, '$[6]') AS time_us"
	" FROM move_runs AS r, json_each(r.moves) AS m WHERE r.game_id = ?)"
	" ORDER BY ply",
	"SELECT COUNT(*) FROM games",
	"SELECT COALESCE(SUM(json_array_length(moves)), 0) FROM move_runs",
	"SELECT CASE m.player WHEN 1 THEN g.player1 ELSE g.player2 END AS who,"
	" COUNT(*), SUM(m.mark = 'kept-win'), SUM(m.mark = 'threw-win')"
	" FROM moves AS m JOIN games AS g ON g.id = m.game_id"
	" GROUP BY who ORDER BY who",
	"SELECT meta, data FROM tables WHERE kind = ? AND key = ?",
	"SELECT ply, player, time_ms, delay_us, move, reason FROM refused_moves"
	" WHERE game_id = ? ORDER BY seq",
};

/* Returns a copy of a text column, NULL when NULL. */
static char *
store_coldup(struct sqldb_stmt *stmt, int i)
{
	const char	*t;

	t = sqldb_column_text(stmt, i);
	return (t != NULL ? xstrdup(t) : NULL);
}

/* Returns v, an array of n elements of size, with room for one more. */
void *
store_grow(void *v, size_t n, size_t size)
{
	if (n == 0)
		return (xreallocarray(v, 8, size));
	if (n >= 8 && (n & (n - 1)) == 0)
		return (xreallocarray(v, n * 2, size));
	return (v);
}

/* Logs a failed read (its error is the read connection's); returns -1. */
static int
store_read_fail(struct store *st, const char *what)
{
	log_warnx("store=%s event=read-failed what=%s error=\"%s\" code=%d",
	    st->name, what, sqldb_errmsg(st->rdb), store_code(st->rdb));
	return (-1);
}

/* Starts a read transaction (rmtx held), so that reads agree. */
static int
store_read_begin(struct store *st)
{
	if (st->shared)
		return (0);
	return (sqldb_begin_read(st->rdb));
}

/* Ends the read transaction and releases rmtx. */
static void
store_read_end(struct store *st)
{
	if (!st->shared && sqldb_in_transaction(st->rdb))
		sqldb_commit(st->rdb);
	pthread_mutex_unlock(&st->rmtx);
}

/* Returns a status column as an enum (the schema allows only these). */
static enum store_status
store_status_col(struct sqldb_stmt *s, int i)
{
	return (enum_value(store_status_names, nitems(store_status_names),
	    sqldb_column_text(s, i), STORE_LIVE));
}

/* Returns a result column as an enum: first, second, or none (NULL). */
static enum store_result
store_result_col(struct sqldb_stmt *s, int i)
{
	return (enum_value(store_result_names, nitems(store_result_names),
	    sqldb_column_text(s, i), STORE_RESULT_NONE));
}

/* Returns a mark column as an enum (the moves view gives only these). */
static enum store_mark
store_mark_col(struct sqldb_stmt *s, int i)
{
	return (enum_value(store_mark_names, nitems(store_mark_names),
	    sqldb_column_text(s, i), STORE_NO_WIN));
}

/* Reads a time control "BASE" or "BASE+INC" (ms) into g; NULL: none. */
static void
store_tc_col(struct sqldb_stmt *s, int i, struct store_gameinfo *g)
{
	const char	*t = sqldb_column_text(s, i);
	char		*end;

	if (t == NULL || *t < '0' || *t > '9')
		return;
	g->tc_base_ms = strtoull(t, &end, 10);
	g->tc_inc_ms = 0;
	if (*end == '+' && end[1] >= '0' && end[1] <= '9')
		g->tc_inc_ms = strtoull(end + 1, &end, 10);
	g->has_tc = *end == '\0';
}

/* Fills g from a row of STORE_GAME_COLS. */
void
store_game_row(struct sqldb_stmt *s, struct store_gameinfo *g)
{
	memset(g, 0, sizeof *g);
	g->id = sqldb_column_int64(s, 0);
	g->family = store_coldup(s, 1);
	g->game = store_coldup(s, 2);
	g->player1 = store_coldup(s, 3);
	g->player2 = store_coldup(s, 4);
	g->started_ms = store_time_parse(sqldb_column_text(s, 5));
	g->ended_ms = store_time_parse(sqldb_column_text(s, 6));
	g->status = store_status_col(s, 7);
	g->result = store_result_col(s, 8);
	g->reason = store_coldup(s, 9);
	g->detail = store_coldup(s, 10);
	g->rated = sqldb_column_int64(s, 11) != 0;
	store_tc_col(s, 12, g);
	g->tournament = sqldb_column_int64(s, 13);
	g->slot = (unsigned int)sqldb_column_int64(s, 14);
}

/* Frees what a game's info owns. */
static void
store_gameinfo_free(struct store_gameinfo *g)
{
	free(g->family);
	free(g->game);
	free(g->player1);
	free(g->player2);
	free(g->reason);
	free(g->detail);
	memset(g, 0, sizeof *g);
}

/*
 * Reads the n most recent games, newest first, into h (free it with
 * store_history_free).  Returns 0, or -1 on a database error (h empty).
 */
int
store_history(struct store *st, unsigned int n, struct store_history *h)
{
	struct sqldb_stmt *s = st->rs[STORE_R_HISTORY];
	int		 rc;

	memset(h, 0, sizeof *h);
	pthread_mutex_lock(&st->rmtx);
	sqldb_bind_int64(s, 1, n);
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		h->games = store_grow(h->games, h->n, sizeof *h->games);
		store_game_row(s, &h->games[h->n++]);
	}
	sqldb_reset(s);
	if (rc != SQLDB_DONE) {
		store_history_free(h);
		store_read_fail(st, "history");
	}
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLDB_DONE)
		return (-1);
	return (0);
}

/*
 * Appends the SQL of a page of games with the filters f: every value is
 * bound (?1 player, ?2 tournament name, ?3 its id, ?4 since, ?5 before,
 * ?6 limit).  A player's games come from the indexes on player1 and
 * player2, each walked newest first from the cursor and cut at the page's
 * size, so that one player's page never scans the table.
 */
void
store_history_sql(struct buf *b, const struct store_hfilter *f)
{
	struct buf	 w;
	int		 seat;

	buf_init(&w);
	buf_puts(&w, " id < ?5");
	if (f->tournament != NULL)
		buf_puts(&w, " AND tournament_id = (SELECT id FROM tournaments"
		    " WHERE name = ?2)");
	if (f->tournament_id != 0)
		buf_puts(&w, " AND tournament_id = ?3");
	if (f->since[0] != '\0')
		buf_puts(&w, " AND started_at >= ?4");
	buf_puts(b, "SELECT " STORE_GAME_COLS " FROM games WHERE");
	if (f->player != NULL) {
		buf_puts(b, " id IN (");
		for (seat = 1; seat <= 2; seat++)
			buf_printf(b, "%sSELECT id FROM (SELECT id FROM games"
			    " WHERE player%d = ?1 AND%s ORDER BY id DESC"
			    " LIMIT ?6)", seat == 1 ? "" : " UNION ALL ", seat,
			    buf_str(&w));
		buf_putc(b, ')');
	} else
		buf_puts(b, buf_str(&w));
	buf_puts(b, " ORDER BY id DESC LIMIT ?6");
	buf_free(&w);
}

/*
 * Reads a page of games, newest first, into h (free it with
 * store_history_free): at most f->limit games that pass every filter of
 * f.  Returns 0, or -1 on a database error (h empty).
 */
int
store_history_page(struct store *st, const struct store_hfilter *f,
    struct store_history *h)
{
	struct sqldb_stmt *s = NULL;
	struct buf	 sql;
	int		 rc = -1;

	memset(h, 0, sizeof *h);
	buf_init(&sql);
	store_history_sql(&sql, f);
	pthread_mutex_lock(&st->rmtx);
	if (sqldb_prepare(st->rdb, buf_str(&sql), 0, &s) == 0) {
		sqldb_bind_text(s, 1, f->player);
		sqldb_bind_text(s, 2, f->tournament);
		sqldb_bind_int64(s, 3, f->tournament_id);
		sqldb_bind_text(s, 4, f->since);
		sqldb_bind_int64(s, 5, f->before > 0 ? f->before :
		    INT64_MAX);
		sqldb_bind_int64(s, 6, f->limit);
		while ((rc = sqldb_step(s)) == SQLDB_ROW) {
			h->games = store_grow(h->games, h->n,
			    sizeof *h->games);
			store_game_row(s, &h->games[h->n++]);
		}
	}
	if (rc != SQLDB_DONE) {
		store_history_free(h);
		store_read_fail(st, "history-page");
	}
	sqldb_finalize(s);
	pthread_mutex_unlock(&st->rmtx);
	buf_free(&sql);
	if (rc != SQLDB_DONE)
		return (-1);
	return (0);
}

/*
 * Reads a time argument, "YYYY-MM-DD" (its midnight, UTC) or the log's
 * own form, into out (STORE_TIME_LEN bytes) in the log's form, which
 * compares as text.  Returns 0, or -1 if it is neither.
 */
int
store_time_arg(const char *in, char *out, size_t len)
{
	char	 t[STORE_TIME_LEN];
	int64_t	 ms;

	if (strlen(in) == 10) {
		snprintf(t, sizeof t, "%sT00:00:00.000Z", in);
		in = t;
	}
	if ((ms = store_time_parse(in)) == STORE_TIME_NONE)
		return (-1);
	store_time_text(ms, out, len);
	return (0);
}

/* Frees what store_history read. */
void
store_history_free(struct store_history *h)
{
	size_t	 i;

	for (i = 0; i < h->n; i++)
		store_gameinfo_free(&h->games[i]);
	free(h->games);
	memset(h, 0, sizeof *h);
}

/* Reads a delay column: unknown when NULL. */
static void
store_delay_col(struct sqldb_stmt *s, int i, int *has, uint64_t *us)
{
	*has = !sqldb_column_null(s, i);
	*us = *has ? (uint64_t)sqldb_column_int64(s, i) : 0;
}

/* Appends a row of STORE_R_MOVES to r's moves. */
static void
store_rmove_row(struct sqldb_stmt *m, struct store_record *r)
{
	struct store_rmove *v;

	r->moves = store_grow(r->moves, r->nmoves, sizeof *r->moves);
	v = &r->moves[r->nmoves++];
	v->ply = (uint64_t)sqldb_column_int64(m, 0);
	v->player = (int)sqldb_column_int64(m, 1);
	v->move = store_coldup(m, 2);
	v->position = store_coldup(m, 3);
	v->mark = store_mark_col(m, 4);
	v->time_ms = (uint64_t)sqldb_column_int64(m, 5);
	store_delay_col(m, 6, &v->has_delay, &v->delay_us);
	v->time_us = (uint64_t)sqldb_column_int64(m, 7);
}

/* Appends a row of STORE_R_REFUSED to r's refused moves. */
static void
store_rrefused_row(struct sqldb_stmt *f, struct store_record *r)
{
	struct store_rrefused *v;

	r->refused = store_grow(r->refused, r->nrefused, sizeof *r->refused);
	v = &r->refused[r->nrefused++];
	v->ply = (uint64_t)sqldb_column_int64(f, 0);
	v->player = (int)sqldb_column_int64(f, 1);
	v->time_ms = (uint64_t)sqldb_column_int64(f, 2);
	store_delay_col(f, 3, &v->has_delay, &v->delay_us);
	v->move = store_coldup(f, 4);
	v->reason = store_coldup(f, 5);
}

/*
 * Reads the rows of read statement k for game id into r, each by row;
 * returns 0, or -1.
 */
static int
store_record_rows(struct store *st, int k, int64_t id,
    struct store_record *r, void (*row)(struct sqldb_stmt *,
    struct store_record *))
{
	struct sqldb_stmt *s = st->rs[k];
	int		 rc;

	sqldb_bind_int64(s, 1, id);
	while ((rc = sqldb_step(s)) == SQLDB_ROW)
		row(s, r);
	sqldb_reset(s);
	return (rc == SQLDB_DONE ? 0 : -1);
}

/*
 * Reads the record of game id into r (free it with store_record_free):
 * the game, its moves and its refused moves, in one read transaction.
 * Returns 1, 0 if there is no such game, or -1 on a database error (r
 * empty either way).
 */
int
store_record(struct store *st, int64_t id, struct store_record *r)
{
	struct sqldb_stmt *g = st->rs[STORE_R_GAME];
	int		 rc, found = 0;

	memset(r, 0, sizeof *r);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) != 0)
		goto done;
	sqldb_bind_int64(g, 1, id);
	if ((rc = sqldb_step(g)) == SQLDB_ROW) {
		found = 1;
		store_game_row(g, &r->game);
		rc = store_record_rows(st, STORE_R_MOVES, id, r,
		    store_rmove_row);
		if (rc == 0)
			rc = store_record_rows(st, STORE_R_REFUSED, id, r,
			    store_rrefused_row);
	} else if (rc == SQLDB_DONE)
		rc = 0;
	sqldb_reset(g);
done:
	if (rc != 0)
		store_read_fail(st, "record");
	store_read_end(st);
	if (rc != 0 || !found) {
		store_record_free(r);
		return (rc != 0 ? -1 : 0);
	}
	return (1);
}

/* Frees what store_record read. */
void
store_record_free(struct store_record *r)
{
	size_t	 i;

	store_gameinfo_free(&r->game);
	for (i = 0; i < r->nmoves; i++) {
		free(r->moves[i].move);
		free(r->moves[i].position);
	}
	for (i = 0; i < r->nrefused; i++) {
		free(r->refused[i].move);
		free(r->refused[i].reason);
	}
	free(r->moves);
	free(r->refused);
	memset(r, 0, sizeof *r);
}

/* Reads a COUNT(*) statement into *n; returns 0, or -1. */
static int
store_count(struct sqldb_stmt *s, int64_t *n)
{
	int	 rc;

	if ((rc = sqldb_step(s)) == SQLDB_ROW) {
		*n = sqldb_column_int64(s, 0);
		rc = 0;
	} else
		rc = -1;	/* an aggregate gives a row */
	sqldb_reset(s);
	return (rc);
}

/*
 * Reads the statistics into out (free it with store_stats_free): games,
 * moves, and for each player (by name) its moves, the moves that kept a
 * win it had and those that threw one.  Returns 0, or -1 on a database
 * error (out empty).
 */
int
store_stats(struct store *st, struct store_stats *out)
{
	struct sqldb_stmt *s = st->rs[STORE_R_PLAYERS];
	struct store_pstats *p;
	int		 rc;

	memset(out, 0, sizeof *out);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) != 0 ||
	    (rc = store_count(st->rs[STORE_R_NGAMES], &out->games)) != 0 ||
	    (rc = store_count(st->rs[STORE_R_NMOVES], &out->moves)) != 0)
		goto done;
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		out->players = store_grow(out->players, out->nplayers,
		    sizeof *out->players);
		p = &out->players[out->nplayers++];
		p->name = store_coldup(s, 0);
		p->moves = sqldb_column_int64(s, 1);
		p->kept_win = sqldb_column_int64(s, 2);
		p->threw_win = sqldb_column_int64(s, 3);
	}
	sqldb_reset(s);
	if (rc == SQLDB_DONE)
		rc = 0;
done:
	if (rc != 0)
		store_read_fail(st, "stats");
	store_read_end(st);
	if (rc != 0) {
		store_stats_free(out);
		return (-1);
	}
	return (0);
}

/* Frees what store_stats read. */
void
store_stats_free(struct store_stats *out)
{
	size_t	 i;

	for (i = 0; i < out->nplayers; i++)
		free(out->players[i].name);
	free(out->players);
	memset(out, 0, sizeof *out);
}

/*
 * Looks up the table kind/key: appends its metadata to meta and its data
 * to data (either may be NULL).  Returns 1, 0 if there is none, or -1 on
 * a database error.
 */
int
store_table_get(struct store *st, const char *kind, const char *key,
    struct buf *meta, struct buf *data)
{
	struct sqldb_stmt *s = st->rs[STORE_R_TABLE];
	const char	*t;
	const void	*p;
	size_t		 n;
	int		 rc, found = 0;

	pthread_mutex_lock(&st->rmtx);
	sqldb_bind_text(s, 1, kind);
	sqldb_bind_text(s, 2, key);
	if ((rc = sqldb_step(s)) == SQLDB_ROW) {
		found = 1;
		if (meta != NULL) {
			t = sqldb_column_text(s, 0);
			buf_puts(meta, t != NULL ? t : "");
		}
		if (data != NULL) {
			p = sqldb_column_blob(s, 1, &n);
			buf_add(data, p != NULL ? p : "", p != NULL ? n : 0);
		}
		rc = SQLDB_DONE;
	}
	if (rc != SQLDB_DONE)
		store_read_fail(st, "table");
	sqldb_reset(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLDB_DONE)
		return (-1);
	return (found);
}
