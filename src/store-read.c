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

#include <sqlite3.h>

#include "buf.h"
#include "log.h"
#include "store-int.h"

/* The SQL of the reader's statements, by STORE_R_*. */
const char *const store_rsql[STORE_R_N] = {
	"BEGIN",
	"COMMIT",
	"SELECT id, family, status, result, reason, player1, player2,"
	" started_at FROM games ORDER BY id DESC LIMIT ?",
	"SELECT game, player1, player2, started_at, ended_at, result, reason,"
	" status, detail FROM games WHERE id = ?",
	"SELECT ply, player, move, mark, time_ms, delay_us FROM moves"
	" WHERE game_id = ? ORDER BY ply",
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

/* Returns a column as text, "-" when NULL. */
static const char *
store_col(sqlite3_stmt *stmt, int i)
{
	const unsigned char *t;

	t = sqlite3_column_text(stmt, i);
	return (t != NULL ? (const char *)t : "-");
}

/* Logs a failed read; returns -1. */
static int
store_read_fail(struct store *st, const char *what, int rc)
{
	log_warnx("store=%s event=read-failed what=%s error=\"%s\" code=%d",
	    st->path, what, sqlite3_errmsg(st->rdb), rc);
	return (-1);
}

/* Starts a read transaction (rmtx held), so that reads agree. */
static int
store_read_begin(struct store *st)
{
	if (st->shared)
		return (SQLITE_OK);
	return (store_step(st->rs[STORE_R_BEGIN]));
}

/* Ends the read transaction and releases rmtx. */
static void
store_read_end(struct store *st)
{
	if (!st->shared && !sqlite3_get_autocommit(st->rdb))
		store_step(st->rs[STORE_R_END]);
	pthread_mutex_unlock(&st->rmtx);
}

/*
 * Appends the n most recent games, newest first, one line each:
 * "ID FAMILY STATUS RESULT REASON PLAYER1 PLAYER2 STARTED", "-" for
 * none.  Returns 0, or -1 on a database error.
 */
int
store_history(struct store *st, unsigned int n, struct buf *out)
{
	sqlite3_stmt	*s = st->rs[STORE_R_HISTORY];
	int		 rc;

	pthread_mutex_lock(&st->rmtx);
	sqlite3_bind_int64(s, 1, n);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		buf_printf(out, "%" PRId64 " ",
		    (int64_t)sqlite3_column_int64(s, 0));
		buf_puts(out, store_col(s, 1));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 2));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 3));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 4));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 5));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 6));
		buf_putc(out, ' ');
		buf_puts(out, store_col(s, 7));
		buf_putc(out, '\n');
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLITE_DONE)
		return (store_read_fail(st, "history", rc));
	return (0);
}

/*
 * Appends the record of game id:
 *
 *	game ID
 *	start CANONICAL-GAME
 *	players PLAYER1 PLAYER2
 *	started TIME
 *	move PLY PLAYER MOVE MARK TIME_MS	(one per move, in order)
 *	ended TIME|-
 *	result first|second|- REASON|-
 *	status live|finished|abandoned
 *
 * MOVE may contain blanks (two changes): it is everything between the
 * second and the second-to-last word.  `new START` then `play MOVE` for
 * each move replays the game.  Returns 1, 0 if there is no such game, or
 * -1 on a database error.
 */
/* Appends a delay column: microseconds, or "-" if unknown. */
static void
store_record_delay(struct buf *b, sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		buf_putc(b, '-');
	else
		buf_printf(b, "%" PRId64, (int64_t)sqlite3_column_int64(s, i));
}

/*
 * Appends a refused move of the record: "refused PLY PLAYER TIME_MS
 * DELAY_US MOVE REASON", MOVE as a JSON string (the text received).
 */
static void
store_record_refused(struct buf *b, sqlite3_stmt *f)
{
	buf_printf(b, "refused %" PRId64 " %d %" PRId64 " ",
	    (int64_t)sqlite3_column_int64(f, 0), sqlite3_column_int(f, 1),
	    (int64_t)sqlite3_column_int64(f, 2));
	store_record_delay(b, f, 3);
	buf_putc(b, ' ');
	store_put_json(b, store_col(f, 4));
	buf_printf(b, " %s\n", store_col(f, 5));
}

int
store_record(struct store *st, int64_t id, struct buf *out)
{
	sqlite3_stmt	*g = st->rs[STORE_R_GAME], *m = st->rs[STORE_R_MOVES];
	sqlite3_stmt	*f = st->rs[STORE_R_REFUSED];
	struct buf	 b;
	int64_t		 ply;
	int		 rc, frc, found = 0;

	buf_init(&b);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) != SQLITE_OK)
		goto done;
	sqlite3_bind_int64(g, 1, id);
	if ((rc = sqlite3_step(g)) == SQLITE_ROW) {
		found = 1;
		buf_printf(&b, "game %" PRId64 "\n", id);
		buf_printf(&b, "start %s\n", store_col(g, 0));
		buf_printf(&b, "players %s %s\n", store_col(g, 1),
		    store_col(g, 2));
		buf_printf(&b, "started %s\n", store_col(g, 3));
		sqlite3_bind_int64(m, 1, id);
		sqlite3_bind_int64(f, 1, id);
		frc = sqlite3_step(f);
		while ((rc = sqlite3_step(m)) == SQLITE_ROW) {
			ply = sqlite3_column_int64(m, 0);
			/* The moves refused for this ply come first. */
			while (frc == SQLITE_ROW &&
			    sqlite3_column_int64(f, 0) <= ply) {
				store_record_refused(&b, f);
				frc = sqlite3_step(f);
			}
			buf_printf(&b, "move %" PRId64 " %d ", ply,
			    sqlite3_column_int(m, 1));
			buf_puts(&b, store_col(m, 2));
			buf_printf(&b, " %s %" PRId64 " ", store_col(m, 3),
			    (int64_t)sqlite3_column_int64(m, 4));
			store_record_delay(&b, m, 5);
			buf_putc(&b, '\n');
		}
		while (rc == SQLITE_DONE && frc == SQLITE_ROW) {
			store_record_refused(&b, f);
			frc = sqlite3_step(f);
		}
		if (rc == SQLITE_DONE && frc != SQLITE_DONE)
			rc = frc;
		sqlite3_reset(m);
		sqlite3_clear_bindings(m);
		sqlite3_reset(f);
		sqlite3_clear_bindings(f);
		if (rc == SQLITE_DONE) {
			buf_printf(&b, "ended %s\n", store_col(g, 4));
			buf_printf(&b, "result %s %s", store_col(g, 5),
			    store_col(g, 6));
			if (sqlite3_column_type(g, 8) != SQLITE_NULL)
				buf_printf(&b, " %s", store_col(g, 8));
			buf_printf(&b, "\nstatus %s\n", store_col(g, 7));
		}
	}
	sqlite3_reset(g);
	sqlite3_clear_bindings(g);
done:
	store_read_end(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && rc != SQLITE_OK) {
		buf_free(&b);
		return (store_read_fail(st, "record", rc));
	}
	if (found)
		buf_add(out, b.data, b.len);
	buf_free(&b);
	return (found);
}

/* Reads a COUNT(*) statement into *n; returns an SQLite code. */
static int
store_count(sqlite3_stmt *s, int64_t *n)
{
	int	 rc;

	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*n = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_reset(s);
	return (rc);
}

/*
 * Appends the statistics: "games N", "moves N", then for each player
 * "player NAME moves N optimal PCT kept-win K threw-win T", where PCT is
 * the integer part of 100 K / (K + T) ("-" if K + T is 0): how often the
 * player kept a win it had.  100 means it never threw one.  Returns 0, or
 * -1 on a database error.
 */
int
store_stats(struct store *st, struct buf *out)
{
	sqlite3_stmt	*s = st->rs[STORE_R_PLAYERS];
	struct buf	 b;
	int64_t		 ngames = 0, nmoves = 0, k, t;
	int		 rc;

	buf_init(&b);
	pthread_mutex_lock(&st->rmtx);
	if ((rc = store_read_begin(st)) != SQLITE_OK ||
	    (rc = store_count(st->rs[STORE_R_NGAMES], &ngames)) != SQLITE_OK ||
	    (rc = store_count(st->rs[STORE_R_NMOVES], &nmoves)) != SQLITE_OK)
		goto done;
	buf_printf(&b, "games %" PRId64 "\nmoves %" PRId64 "\n", ngames,
	    nmoves);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		k = sqlite3_column_int64(s, 2);
		t = sqlite3_column_int64(s, 3);
		buf_printf(&b, "player %s moves %" PRId64 " optimal ",
		    store_col(s, 0), (int64_t)sqlite3_column_int64(s, 1));
		if (k + t > 0)
			buf_printf(&b, "%" PRId64, k * 100 / (k + t));
		else
			buf_putc(&b, '-');
		buf_printf(&b, " kept-win %" PRId64 " threw-win %" PRId64 "\n",
		    k, t);
	}
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
done:
	store_read_end(st);
	if (rc != SQLITE_OK) {
		buf_free(&b);
		return (store_read_fail(st, "stats", rc));
	}
	buf_add(out, buf_str(&b), b.len);
	buf_free(&b);
	return (0);
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
	sqlite3_stmt	*s = st->rs[STORE_R_TABLE];
	const void	*p;
	int		 rc, found = 0;

	pthread_mutex_lock(&st->rmtx);
	store_bind_text(s, 1, kind);
	store_bind_text(s, 2, key);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		found = 1;
		if (meta != NULL) {
			p = sqlite3_column_text(s, 0);
			buf_add(meta, p != NULL ? p : "",
			    (size_t)sqlite3_column_bytes(s, 0));
		}
		if (data != NULL) {
			p = sqlite3_column_blob(s, 1);
			buf_add(data, p != NULL ? p : "",
			    (size_t)sqlite3_column_bytes(s, 1));
		}
		rc = SQLITE_DONE;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	pthread_mutex_unlock(&st->rmtx);
	if (rc != SQLITE_DONE)
		return (store_read_fail(st, "table", rc));
	return (found);
}
