/*
 * league-stats.c: the rated games, for the rating replay, a
 * player's rating history, and the accounts' play statistics (league.h).
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "league/league-int.h"
#include "lib/log.h"
#include "stats/results.h"
#include "stats/rtable.h"

/*
 * Reads every game the log rated (games.rating_seq set), in the order it
 * rated them.  Sets *vp (free it) and *np.  Returns 0, or -1 on a
 * database error.
 */
int
league_rated_games(struct league *lg, struct league_rgame **vp, size_t *np)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_RATED];
	struct league_rgame *v = NULL, *g;
	size_t		 n = 0, cap = 0;
	int		 rc;

	pthread_mutex_lock(&lg->mtx);
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		g = &v[n++];
		memset(g, 0, sizeof *g);
		g->game_id = sqldb_column_int64(s, 0);
		snprintf(g->player1, sizeof g->player1, "%s",
		    league_col(s, 1));
		snprintf(g->player2, sizeof g->player2, "%s",
		    league_col(s, 2));
		g->result = league_result(s, 3);
	}
	*vp = league_rows_end(lg, s, rc, "read the rated games", v, &n);
	*np = n;
	return (rc == SQLDB_DONE ? 0 : -1);
}

/* Steps a one-row statement of player name into a[0..n-1]; 0, or -1. */
static int
league_row(struct sqldb_stmt *s, const char *name, int64_t *a, int n)
{
	int	 rc, i;

	if ((rc = sqldb_bind_text(s, 1, name)) == 0)
		rc = sqldb_step(s);
	if (rc == SQLDB_ROW)
		for (i = 0; i < n; i++)
			a[i] = sqldb_column_int64(s, i);
	sqldb_reset(s);
	return (rc == -1 ? -1 : 0);
}

/*
 * Gives the bounds of first-throw bucket i (< LEAGUE_THROW_BUCKETS): the
 * player's move numbers lo..hi, hi 0 for no upper bound.
 */
void
league_throw_bucket(size_t i, unsigned int *lo, unsigned int *hi)
{
	results_throw_bounds(i, lo, hi);
}

/* Reads the first-throw histogram of name into p (mtx); 0, or -1. */
static int
league_throws(struct league *lg, const char *name, struct league_player *p)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_P_THROWS];
	int64_t		 b;
	int		 rc;

	if ((rc = sqldb_bind_text(s, 1, name)) == 0)
		rc = sqldb_step(s);
	for (; rc == SQLDB_ROW; rc = sqldb_step(s)) {
		b = sqldb_column_int64(s, 0);
		if (b >= 1 && b <= LEAGUE_THROW_BUCKETS)
			p->first_throw[b - 1] += sqldb_column_int64(s, 1);
		p->threw_win_games += sqldb_column_int64(s, 1);
	}
	sqldb_reset(s);
	return (rc == SQLDB_DONE ? 0 : -1);
}

/*
 * Begins a read-only transaction, so that the statistics' queries see one
 * state of the log: on SQLite a deferred one (as before: it takes no write
 * lock, so the store's writer goes on), on PostgreSQL a repeatable read
 * (one snapshot).  Returns 0, or -1.
 */
static int
league_read_begin(struct league *lg)
{
	if (sqldb_backend(lg->db) == SQLDB_SQLITE)
		return (sqldb_exec(lg->db, "BEGIN"));
	if (sqldb_begin(lg->db) == -1)
		return (-1);
	return (sqldb_exec(lg->db, "SET TRANSACTION ISOLATION LEVEL"
	    " REPEATABLE READ, READ ONLY"));
}

/*
 * Reads an account's statistics over its finished games into p (§13.7 of
 * PROTOCOL.md): kept and threw count the moves marked kept-win and
 * threw-win (the optimal-move rate of results.h);
 * first_throw counts the games in which the player threw a win by the
 * player's own move number (1: its first move of the game) of the first
 * such move.  Returns 0; -1 if there is no such account, with err "no
 * account NAME" or "bad account name"; -2 on a database error, with err
 * filled in.
 */
int
league_player(struct league *lg, const char *name, struct league_player *p,
    char *err, size_t errlen)
{
	int64_t		 g[3] = { 0, 0, 0 }, m[3] = { 0, 0, 0 };
	int		 rc, found = 0;

	memset(p, 0, sizeof *p);
	if (!league_name_ok(name)) {
		snprintf(err, errlen, "bad account name");
		return (-1);
	}
	pthread_mutex_lock(&lg->mtx);
	if ((rc = league_read_begin(lg)) == -1)
		goto done;
	if ((found = league_exists_locked(lg, name)) != 1) {
		rc = found;
		goto done;
	}
	if ((rc = league_row(lg->s[LEAGUE_S_P_GAMES], name, g, 3)) == -1 ||
	    (rc = league_row(lg->s[LEAGUE_S_P_MOVES], name, m, 3)) == -1)
		goto done;
	rc = league_throws(lg, name, p);
done:
	if (rc == -1)
		league_dberr(lg, err, errlen, "read the statistics");
	sqldb_rollback(lg->db);		/* read only: nothing to commit */
	pthread_mutex_unlock(&lg->mtx);
	if (rc == -1)
		return (-2);
	if (found != 1) {
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	snprintf(p->name, sizeof p->name, "%s", name);
	p->games = g[0];
	p->wins = g[1];
	p->losses = g[2];
	p->moves = m[0];
	p->kept = m[1];
	p->threw = m[2];
	return (0);
}

/*
 * Sets *v (to free) and *n to a player's rating and RD after each of its
 * rated games, oldest first, the last max of them: a replay of the rated
 * games through the one Glicko-2 update (rtable.c), rounded as `player`
 * shows them (the work is proportional to the log: off the loop).
 * Returns 0, or -1 if the league cannot be read.
 */
int
league_rating_history(struct league *lg, const char *name, size_t max,
    struct league_rpoint **v, size_t *n)
{
	struct league_rgame *g = NULL;
	struct league_rpoint *out;
	struct rtable	 e;
	struct rtable_entry *p;
	size_t		 ng = 0, i, k = 0, first;

	if (league_rated_games(lg, &g, &ng) != 0)
		return (-1);
	rtable_init(&e);
	out = xcalloc(ng + 1, sizeof *out);
	for (i = 0; i < ng; i++) {
		rtable_rate(&e, g[i].player1, g[i].player2, g[i].result);
		if (strcmp(g[i].player1, name) != 0 &&
		    strcmp(g[i].player2, name) != 0)
			continue;
		p = rtable_find(&e, name);
		out[k].game_id = g[i].game_id;
		out[k].r = (double)lround(p->g.r);
		out[k++].rd = (double)lround(p->g.rd);
	}
	first = k > max ? k - max : 0;
	memmove(out, out + first, (k - first) * sizeof *out);
	*v = out;
	*n = k - first;
	rtable_free(&e);
	free(g);
	return (0);
}
