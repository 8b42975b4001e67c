/*
 * store-read.c: the store's synchronous reads, on the read connection
 * under rmtx (see store.c).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/jsonread.h"
#include "lib/log.h"
#include "store/store-int.h"
#include "lib/util.h"

/* The SQL of the reader's statements, by STORE_R_*. */
const char *const store_rsql[STORE_R_N] = {
	"SELECT " STORE_GAME_COLS " FROM games ORDER BY id DESC LIMIT ?",
	"SELECT " STORE_GAME_COLS " FROM games WHERE id = ?",
	/* A game's runs of moves, parsed in C (store_rmove_run). */
	"SELECT first_ply, moves FROM move_runs WHERE game_id = ?"
	" ORDER BY first_ply",
	"SELECT COUNT(*) FROM games",
	"SELECT COALESCE(SUM(json_array_length(moves)), 0) FROM move_runs",
	"SELECT CASE m.player WHEN 1 THEN g.player1 ELSE g.player2 END AS who,"
	" COUNT(*), SUM(CASE WHEN m.mark = 'kept-win' THEN 1 ELSE 0 END),"
	" SUM(CASE WHEN m.mark = 'threw-win' THEN 1 ELSE 0 END)"
	" FROM moves AS m JOIN games AS g ON g.id = m.game_id"
	" GROUP BY who ORDER BY who",
	"SELECT meta, data FROM tables WHERE kind = ? AND key = ?",
	"SELECT ply, player, time_ms, delay_us, move, reason, seq"
	" FROM refused_moves WHERE game_id = ? ORDER BY seq",
};

/* PostgreSQL's own SQL where it differs (NULL: store_rsql's). */
const char *const store_rsql_pg[STORE_R_N] = {
	[STORE_R_NMOVES] = "SELECT COALESCE(SUM(json_array_length("
	    "moves::json)), 0) FROM move_runs",
	/* Names in byte order, as SQLite sorts them, whatever the locale. */
	[STORE_R_PLAYERS] = "SELECT (CASE m.player WHEN 1 THEN g.player1"
	    " ELSE g.player2 END) COLLATE \"C\" AS who, COUNT(*),"
	    " SUM(CASE WHEN m.mark = 'kept-win' THEN 1 ELSE 0 END),"
	    " SUM(CASE WHEN m.mark = 'threw-win' THEN 1 ELSE 0 END)"
	    " FROM moves AS m JOIN games AS g ON g.id = m.game_id"
	    " GROUP BY who ORDER BY who",
};

static void	 store_history_sql_be(struct buf *,
		    const struct store_hfilter *, int);

/* Returns a copy of a text column, NULL when NULL. */
char *
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
	st->rlost = sqldb_errclass(st->rdb) == SQLDB_CONN;
	return (-1);
}

/*
 * After a read failed: was it for a lost connection (PostgreSQL: the
 * database restarted), so that the same read on a new connection may
 * work?  sqldb reconnects on the next call.
 */
static int
store_read_again(struct store *st)
{
	int	 again;

	pthread_mutex_lock(&st->rmtx);
	again = st->rlost;
	st->rlost = 0;
	pthread_mutex_unlock(&st->rmtx);
	return (again);
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
	if (!st->shared && sqldb_in_transaction(st->rdb) &&
	    sqldb_commit(st->rdb) == -1)
		sqldb_rollback(st->rdb);	/* a lost one: forget it */
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

/* Fills g from a row of STORE_GAME_COLS (its first columns). */
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
static int
store_history_once(struct store *st, unsigned int n, struct store_history *h)
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
 * ?6 limit, ?7 until, ?8 result).  A player's games come from the indexes on player1 and
 * player2, each walked newest first from the cursor and cut at the page's
 * size, so that one player's page never scans the table.
 */
void
store_history_sql(struct buf *b, const struct store_hfilter *f)
{
	store_history_sql_be(b, f, 0);
}

/*
 * store_history_sql for a back end: on PostgreSQL (pg set), every
 * parameter must appear with a type, so each filter not given gets a
 * clause that is true of its bound value (NULL, 0 or "").
 */
static void
store_history_sql_be(struct buf *b, const struct store_hfilter *f, int pg)
{
	struct buf	 w;
	int		 seat;

	buf_init(&w);
	buf_puts(&w, " id < ?5");
	if (pg && f->player == NULL)
		buf_puts(&w, " AND CAST(?1 AS TEXT) IS NULL");
	if (pg && f->tournament == NULL)
		buf_puts(&w, " AND CAST(?2 AS TEXT) IS NULL");
	if (pg && f->tournament_id == 0)
		buf_puts(&w, " AND CAST(?3 AS BIGINT) = 0");
	if (pg && f->since[0] == '\0')
		buf_puts(&w, " AND CAST(?4 AS TEXT) = ''");
	if (f->tournament != NULL)
		buf_puts(&w, " AND tournament_id = (SELECT id FROM tournaments"
		    " WHERE name = ?2)");
	if (f->tournament_id != 0)
		buf_puts(&w, " AND tournament_id = ?3");
	if (pg && f->until[0] == '\0')
		buf_puts(&w, " AND CAST(?7 AS TEXT) = ''");
	if (pg && f->result == NULL)
		buf_puts(&w, " AND CAST(?8 AS TEXT) IS NULL");
	if (f->since[0] != '\0')
		buf_puts(&w, " AND started_at >= ?4");
	if (f->until[0] != '\0')
		buf_puts(&w, " AND started_at < ?7");
	if (f->result != NULL)
		buf_puts(&w, " AND result = ?8");
	buf_puts(b, "SELECT " STORE_GAME_COLS " FROM games");
	/*
	 * since= alone: the games started since then, from the index, not a
	 * walk down the ids that reaches the table's start on the last page
	 * (SQLite has no statistics to choose it; PostgreSQL has).
	 */
	if (!pg && f->player == NULL && f->tournament == NULL &&
	    f->tournament_id == 0 && f->since[0] != '\0')
		buf_puts(b, " INDEXED BY games_started_at");
	buf_puts(b, " WHERE");
	if (f->player != NULL) {
		buf_puts(b, " id IN (");
		for (seat = 1; seat <= 2; seat++)
			buf_printf(b, "%sSELECT id FROM (SELECT id FROM games"
			    " WHERE player%d = ?1 AND%s ORDER BY id DESC"
			    " LIMIT ?6) AS p%d", seat == 1 ? "" : " UNION ALL ",
			    seat, buf_str(&w), seat);
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
static int
store_history_page_once(struct store *st, const struct store_hfilter *f,
    struct store_history *h)
{
	struct sqldb_stmt *s = NULL;
	struct buf	 sql;
	int		 rc = -1;

	memset(h, 0, sizeof *h);
	buf_init(&sql);
	store_history_sql_be(&sql, f, sqldb_backend(st->rdb) == SQLDB_PG);
	pthread_mutex_lock(&st->rmtx);
	if (sqldb_prepare(st->rdb, buf_str(&sql), 0, &s) == 0) {
		sqldb_bind_text(s, 1, f->player);
		sqldb_bind_text(s, 2, f->tournament);
		sqldb_bind_int64(s, 3, f->tournament_id);
		sqldb_bind_text(s, 4, f->since);
		sqldb_bind_int64(s, 5, f->before > 0 ? f->before :
		    INT64_MAX);
		sqldb_bind_int64(s, 6, f->limit);
		sqldb_bind_text(s, 7, f->until);
		sqldb_bind_text(s, 8, f->result);
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

/* Reads element i of a run's move as an integer; *has: present, not null. */
static int64_t
store_jint(const struct jsonr *m, size_t i, int *has)
{
	const struct jsonr *v;

	*has = 0;
	if (i >= m->n || (v = &m->items[i])->type != JSONR_NUM)
		return (0);
	*has = 1;
	return (strtoll(v->str, NULL, 10));
}

/* Reads element i of a run's move as a copy of its text (NULL: none). */
static char *
store_jstr(const struct jsonr *m, size_t i)
{
	const struct jsonr *v;

	if (i >= m->n || (v = &m->items[i])->type == JSONR_NULL)
		return (NULL);
	return (xstrdup(v->str != NULL ? v->str : ""));
}

/*
 * Appends the moves of a row of STORE_R_MOVES (a run: first_ply and its
 * JSON array, db/003-move-runs.sql) to r's moves: each move's elements
 * player, move, position, time_ms, mark (0 kept-win, 1 threw-win, else
 * no-win), delay_us (null or absent: unknown) and time_us (absent:
 * time_ms * 1000).  Returns 0, or -1 if the run is not such an array.
 */
static int
store_rmove_run(struct sqldb_stmt *m, struct store_record *r)
{
	struct jsonr	 run;
	const struct jsonr *e;
	struct store_rmove *v;
	const char	*t;
	char		 err[64];
	uint64_t	 first;
	size_t		 i;
	int		 has;

	first = (uint64_t)sqldb_column_int64(m, 0);
	if ((t = sqldb_column_text(m, 1)) == NULL ||
	    jsonr_parse(t, strlen(t), &run, err, sizeof err) == -1)
		return (-1);
	if (run.type != JSONR_ARR) {
		jsonr_free(&run);
		return (-1);
	}
	for (i = 0; i < run.n; i++) {
		if ((e = &run.items[i])->type != JSONR_ARR)
			continue;
		r->moves = store_grow(r->moves, r->nmoves, sizeof *r->moves);
		v = &r->moves[r->nmoves++];
		memset(v, 0, sizeof *v);	/* no cost: a server's game */
		v->ply = first + i;
		v->player = (int)store_jint(e, 0, &has);
		v->move = store_jstr(e, 1);
		v->position = store_jstr(e, 2);
		v->time_ms = (uint64_t)store_jint(e, 3, &has);
		switch (store_jint(e, 4, &has)) {
		case 0:
			v->mark = has ? STORE_KEPT_WIN : STORE_NO_WIN;
			break;
		case 1:
			v->mark = STORE_THREW_WIN;
			break;
		default:
			v->mark = STORE_NO_WIN;
			break;
		}
		v->delay_us = (uint64_t)store_jint(e, 5, &v->has_delay);
		v->time_us = (uint64_t)store_jint(e, 6, &has);
		if (!has)
			v->time_us = v->time_ms * 1000;
	}
	jsonr_free(&run);
	return (0);
}

/* Orders two moves by ply. */
static int
store_ply_cmp(const void *a, const void *b)
{
	const struct store_rmove *x = a, *y = b;

	return (x->ply < y->ply ? -1 : x->ply > y->ply);
}

/* Puts r's moves in ply order (runs may come in any order of plies). */
static void
store_moves_sort(struct store_record *r)
{
	size_t	 i;

	for (i = 1; i < r->nmoves; i++) {
		if (r->moves[i - 1].ply > r->moves[i].ply) {
			qsort(r->moves, r->nmoves, sizeof *r->moves,
			    store_ply_cmp);
			return;
		}
	}
}

/* Appends a row of STORE_R_REFUSED to r's refused moves. */
static int
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
	v->seq = sqldb_column_int64(f, 6);
	return (0);
}

/*
 * Reads the rows of read statement k for game id into r, each by row;
 * returns 0, or -1.
 */
static int
store_record_rows(struct store *st, int k, int64_t id,
    struct store_record *r, int (*row)(struct sqldb_stmt *,
    struct store_record *))
{
	struct sqldb_stmt *s = st->rs[k];
	int		 rc;

	sqldb_bind_int64(s, 1, id);
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		if (row(s, r) == -1) {
			log_warnx("store=%s event=read-failed what=record "
			    "game=%" PRId64 " error=\"a run of moves is not "
			    "a JSON array\"", st->name, id);
			break;
		}
	}
	sqldb_reset(s);
	return (rc == SQLDB_DONE ? 0 : -1);
}

/*
 * Reads the moves of game id with after < ply <= upto into r, at most max
 * (SIZE_MAX: all), in ply order: from the run holding ply after + 1 on.
 * Returns 0, or -1.
 */
static int
store_moves_range(struct store *st, int64_t id, uint64_t after,
    uint64_t upto, size_t max, struct store_record *r)
{
	struct sqldb_stmt *m;
	size_t		 i, k;
	int		 rc;

	if (sqldb_cached(st->rdb, "SELECT first_ply, moves FROM move_runs "
	    "WHERE game_id = ? AND first_ply >= COALESCE((SELECT "
	    "MAX(first_ply) FROM move_runs WHERE game_id = ? AND first_ply "
	    "<= ?), 0) AND first_ply <= ? ORDER BY first_ply LIMIT ?", 0,
	    &m) != 0)
		return (-1);
	sqldb_bind_int64(m, 1, id);
	sqldb_bind_int64(m, 2, id);
	sqldb_bind_int64(m, 3, (int64_t)after + 1);
	sqldb_bind_int64(m, 4, upto > INT64_MAX ? INT64_MAX : (int64_t)upto);
	/* The runs start at distinct plies, each <= upto: at most max + 1
	 * of them hold the moves wanted (a run may hold one move only). */
	sqldb_bind_int64(m, 5, max > INT32_MAX ? INT64_MAX :
	    (int64_t)max + 1);
	while ((rc = sqldb_step(m)) == SQLDB_ROW && store_rmove_run(m, r) == 0)
		;
	sqldb_reset(m);
	store_moves_sort(r);
	for (i = k = 0; i < r->nmoves; i++)
		if (r->moves[i].ply > after && r->moves[i].ply <= upto &&
		    k < max)
			r->moves[k++] = r->moves[i];
		else {
			free(r->moves[i].move);
			free(r->moves[i].position);
		}
	r->nmoves = k;
	return (rc == SQLDB_DONE ? 0 : -1);
}

/*
 * Reads the record of game id into r (free it with store_record_free):
 * the game, its moves and its refused moves, in one read transaction.
 * With after >= 0, its moves after ply `after` only and no refused
 * moves (store_record_since).  Returns 1, 0 if there is no such game, or
 * -1 on a database error (r empty either way).
 */
static int
store_record_once(struct store *st, int64_t id, struct store_record *r,
    int64_t after)
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
		if (after >= 0)
			rc = store_moves_range(st, id, (uint64_t)after,
			    UINT64_MAX, SIZE_MAX, r);
		else {
			rc = store_record_rows(st, STORE_R_MOVES, id, r,
			    store_rmove_run);
			store_moves_sort(r);
		}
		if (rc == 0 && after < 0)
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

/*
 * Reads game id's row into r->game and the ply of its last logged move
 * into *nmoves (from its last run), no moves; in the caller's read
 * transaction.  Returns 1, 0 if there is no such game, or -1.
 */
static int
store_record_head_rows(struct store *st, int64_t id, struct store_record *r,
    uint64_t *nmoves)
{
	struct sqldb_stmt *g = st->rs[STORE_R_GAME], *m;
	struct store_record last;
	int		 rc, found = 0;

	sqldb_bind_int64(g, 1, id);
	if ((rc = sqldb_step(g)) == SQLDB_ROW) {
		found = 1;
		store_game_row(g, &r->game);
	}
	sqldb_reset(g);
	if (rc != SQLDB_ROW)
		return (rc == SQLDB_DONE ? 0 : -1);
	if (sqldb_cached(st->rdb, "SELECT first_ply, moves FROM move_runs "
	    "WHERE game_id = ? ORDER BY first_ply DESC LIMIT 1", 0, &m) != 0)
		return (-1);
	memset(&last, 0, sizeof last);
	sqldb_bind_int64(m, 1, id);
	if ((rc = sqldb_step(m)) == SQLDB_ROW && store_rmove_run(m, &last) == 0)
		rc = SQLDB_DONE;
	sqldb_reset(m);
	*nmoves = last.nmoves > 0 ? last.moves[last.nmoves - 1].ply : 0;
	store_record_free(&last);
	return (rc == SQLDB_DONE ? found : -1);
}

/*
 * Reads a page of game id's record into r (store_record_page): the moves
 * with q->after < ply <= q->upto, at most q->max, from the runs holding
 * them; the refused moves with seq > q->rseq and ply <= q->rupto, at most
 * q->rmax, in the order refused.  Returns 0, or -1.
 */
static int
store_record_page_rows(struct store *st, int64_t id,
    const struct store_rpage *q, struct store_record *r)
{
	struct sqldb_stmt *m;
	int		 rc;

	if (q->max > 0 && q->upto > q->after &&
	    store_moves_range(st, id, q->after, q->upto, q->max, r) != 0)
		return (-1);
	if (q->rmax == 0)
		return (0);
	if (sqldb_cached(st->rdb, "SELECT ply, player, time_ms, delay_us, "
	    "move, reason, seq FROM refused_moves WHERE game_id = ? AND "
	    "seq > ? AND ply <= ? ORDER BY seq LIMIT ?", 0, &m) != 0)
		return (-1);
	sqldb_bind_int64(m, 1, id);
	sqldb_bind_int64(m, 2, q->rseq);
	sqldb_bind_int64(m, 3, q->rupto > INT64_MAX ? INT64_MAX :
	    (int64_t)q->rupto);
	sqldb_bind_int64(m, 4, (int64_t)q->rmax);
	while ((rc = sqldb_step(m)) == SQLDB_ROW)
		store_rrefused_row(m, r);
	sqldb_reset(m);
	return (rc == SQLDB_DONE ? 0 : -1);
}

/* A read of store_record_head (q NULL) or store_record_page, once. */
static int
store_record_part_once(struct store *st, int64_t id,
    const struct store_rpage *q, struct store_record *r, uint64_t *nmoves)
{
	int	 rc;

	memset(r, 0, sizeof *r);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) == 0)
		rc = q == NULL ? store_record_head_rows(st, id, r, nmoves) :
		    store_record_page_rows(st, id, q, r);
	if (rc < 0)
		store_read_fail(st, "record");
	store_read_end(st);
	if (rc < 0 || (q == NULL && rc == 0))
		store_record_free(r);
	return (rc);
}

/* store_record_part_once, again once on a lost connection. */
static int
store_record_part(struct store *st, int64_t id, const struct store_rpage *q,
    struct store_record *r, uint64_t *nmoves)
{
	int	 rv;

	if ((rv = store_record_part_once(st, id, q, r, nmoves)) == -1 &&
	    store_read_again(st))
		rv = store_record_part_once(st, id, q, r, nmoves);
	return (rv);
}

int
store_record_head(struct store *st, int64_t id, struct store_record *r,
    uint64_t *nmoves)
{
	return (store_record_part(st, id, NULL, r, nmoves));
}

int
store_record_page(struct store *st, int64_t id, const struct store_rpage *q,
    struct store_record *r)
{
	return (store_record_part(st, id, q, r, NULL));
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
static int
store_stats_once(struct store *st, struct store_stats *out)
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
	namev_free(out->players, out->nplayers, sizeof *out->players,
	    offsetof(struct store_pstats, name));
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

/* The reads above, once more on a new connection if theirs was lost. */
int
store_history(struct store *st, unsigned int n, struct store_history *h)
{
	int	 rv;

	if ((rv = store_history_once(st, n, h)) == -1 && store_read_again(st))
		rv = store_history_once(st, n, h);
	return (rv);
}

int
store_history_page(struct store *st, const struct store_hfilter *f,
    struct store_history *h)
{
	int	 rv;

	if ((rv = store_history_page_once(st, f, h)) == -1 &&
	    store_read_again(st))
		rv = store_history_page_once(st, f, h);
	return (rv);
}

int
store_record(struct store *st, int64_t id, struct store_record *r)
{
	return (store_record_since(st, id, UINT64_MAX, r));
}

int
store_record_since(struct store *st, int64_t id, uint64_t after,
    struct store_record *r)
{
	int64_t	 a = after == UINT64_MAX ? -1 : (int64_t)after;
	int	 rv;

	if ((rv = store_record_once(st, id, r, a)) == -1 &&
	    store_read_again(st))
		rv = store_record_once(st, id, r, a);
	return (rv);
}

int
store_stats(struct store *st, struct store_stats *out)
{
	int	 rv;

	if ((rv = store_stats_once(st, out)) == -1 && store_read_again(st))
		rv = store_stats_once(st, out);
	return (rv);
}

/*
 * The live games of tournament tour in the log into ids and slots (at
 * most max), on the read connection (rmtx): their number, or -1.
 */
int
store_tour_live(struct store *st, int64_t tour, int64_t *ids,
    int64_t *slots, int max)
{
	struct sqldb_stmt *s;
	int		 n = 0, r = SQLDB_DONE;

	pthread_mutex_lock(&st->rmtx);
	if (sqldb_cached(st->rdb, "SELECT id, slot FROM games WHERE "
	    "tournament_id = ? AND status = 'live' ORDER BY id", 0, &s) != 0) {
		pthread_mutex_unlock(&st->rmtx);
		return (-1);
	}
	sqldb_bind_int64(s, 1, tour);
	while (n < max && (r = sqldb_step(s)) == SQLDB_ROW) {
		ids[n] = sqldb_column_int64(s, 0);
		slots[n++] = sqldb_column_int64(s, 1);
	}
	sqldb_reset(s);
	pthread_mutex_unlock(&st->rmtx);
	return (r == -1 ? -1 : n);
}
