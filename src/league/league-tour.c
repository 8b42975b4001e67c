/*
 * league-tour.c: tournaments as stored: their definitions, status and
 * games (league.h).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "league/league-int.h"
#include "lib/log.h"
#include "lib/util.h"

static const char *const league_format_names[] = {
	LEAGUE_FORMATS(ENUM_X_NAME)
};

/* Returns the text of a format, or NULL for none. */
const char *
league_format_name(enum league_format f)
{
	return (ENUM_NAME(league_format_names, f, NULL));
}

static const char *const league_tstatus_names[] = {
	LEAGUE_TSTATUSES(ENUM_X_NAME)
};

/* Returns the text of a tournament status, or NULL for none. */
const char *
league_tstatus_name(enum league_tstatus st)
{
	return (ENUM_NAME(league_tstatus_names, st, NULL));
}

/* Checks a tournament before it is stored; returns 0 or -1 with err. */
static int
league_tournament_check(const struct league_tournament *t, char *err,
    size_t errlen)
{
	size_t	 i, j;

	if (!league_name_ok(t->name)) {
		snprintf(err, errlen, "bad tournament name: 1..%d characters "
		    "of A-Z a-z 0-9 _ - .", LEAGUE_NAME_MAX);
		return (-1);
	}
	if (league_format_name(t->format) == NULL) {
		snprintf(err, errlen, "bad tournament format");
		return (-1);
	}
	if (t->game == NULL || *t->game == '\0') {
		snprintf(err, errlen, "a tournament needs a game");
		return (-1);
	}
	if (t->games_per_pair < 1 ||
	    t->games_per_pair > (unsigned int)INT32_MAX) {
		snprintf(err, errlen, "games per pairing must be 1 or more");
		return (-1);
	}
	if (t->has_sprt && !(t->sprt_elo0 < t->sprt_elo1 &&
	    t->sprt_alpha > 0 && t->sprt_alpha < 1 && t->sprt_beta > 0 &&
	    t->sprt_beta < 1)) {
		snprintf(err, errlen, "bad SPRT parameters");
		return (-1);
	}
	if (t->base_ms > (uint64_t)INT64_MAX ||
	    t->inc_ms > (uint64_t)INT64_MAX) {
		snprintf(err, errlen, "time control too large");
		return (-1);
	}
	if (t->nplayers < 2) {
		snprintf(err, errlen, "a tournament needs at least 2 players");
		return (-1);
	}
	for (i = 0; i < t->nplayers; i++) {
		if (!league_player_ok(t->players[i])) {
			snprintf(err, errlen, "bad player name: 1..%d "
			    "characters of A-Z a-z 0-9 _ - .",
			    LEAGUE_NAME_MAX);
			return (-1);
		}
		for (j = 0; j < i; j++) {
			if (strcmp(t->players[i], t->players[j]) == 0) {
				snprintf(err, errlen, "player %s is listed "
				    "twice", t->players[i]);
				return (-1);
			}
		}
	}
	return (0);
}

/* Writes a tournament's players as stored: "a,b,c". */
static void
league_players_text(const struct league_tournament *t, struct buf *b)
{
	size_t	 i;

	for (i = 0; i < t->nplayers; i++) {
		if (i != 0)
			buf_putc(b, ',');
		buf_puts(b, t->players[i]);
	}
}

/* Binds a new tournament's options: parameters 11 to 18 of T_CREATE;
 * returns 0, or -1. */
static int
league_tournament_bind_opts(struct sqldb_stmt *s,
    const struct league_tournament *t)
{
	char	 tb[TB_TEXT_MAX];
	int	 i, r = 0;

	r |= sqldb_bind_int64(s, 11, t->rounds);
	r |= sqldb_bind_int64(s, 12, t->forfeit_s);
	if (t->has_sprt) {
		r |= sqldb_bind_double(s, 13, t->sprt_elo0);
		r |= sqldb_bind_double(s, 14, t->sprt_elo1);
		r |= sqldb_bind_double(s, 15, t->sprt_alpha);
		r |= sqldb_bind_double(s, 16, t->sprt_beta);
	} else
		for (i = 13; i <= 16; i++)
			r |= sqldb_bind_null(s, i);
	r |= sqldb_bind_int64(s, 17, (int64_t)t->nplayers);
	if (t->tb.n > 0) {
		tb_list_text(&t->tb, tb, sizeof tb);
		r |= sqldb_bind_text(s, 18, tb);
	} else
		r |= sqldb_bind_null(s, 18);
	return (r != 0 ? -1 : 0);
}

/* Binds a new tournament: the parameters of T_CREATE; returns 0, or -1. */
static int
league_tournament_bind(struct sqldb_stmt *s, const struct league_tournament *t,
    const char *players, const char *when)
{
	int	 r = 0;

	r |= sqldb_bind_text(s, 1, t->name);
	r |= sqldb_bind_text(s, 2, league_format_name(t->format));
	r |= sqldb_bind_text(s, 3, t->game);
	r |= sqldb_bind_int64(s, 4, t->random != 0);
	r |= sqldb_bind_int64(s, 5, (int64_t)t->base_ms);
	r |= sqldb_bind_int64(s, 6, (int64_t)t->inc_ms);
	r |= sqldb_bind_int64(s, 7, t->games_per_pair);
	r |= sqldb_bind_int64(s, 8, (int64_t)t->seed);	/* bits kept */
	r |= sqldb_bind_text(s, 9, players);
	r |= sqldb_bind_text(s, 10, when);
	r |= league_tournament_bind_opts(s, t);
	return (r != 0 ? -1 : 0);
}

/*
 * Stores a new tournament, running, and sets t->id and t->status.  Every
 * player must have an account.  Returns 0, or -1 with err filled in.
 */
int
league_tournament_create(struct league *lg, struct league_tournament *t,
    char *err, size_t errlen)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_CREATE];
	struct buf	 players;
	char		 when[32];
	size_t		 i;
	int		 rc, found, r = -1;

	if (league_tournament_check(t, err, errlen) != 0)
		return (-1);
	buf_init(&players);
	league_players_text(t, &players);
	clock_now_text(when, sizeof when);

	/* The checks and the insert in one transaction. */
	pthread_mutex_lock(&lg->mtx);
	if (sqldb_begin(lg->db) == -1) {
		league_dberr(lg, err, errlen, "create the tournament");
		goto out;
	}
	for (i = 0; i < t->nplayers; i++) {
		if (strcmp(t->players[i], "engine") == 0)
			continue;	/* the server's solver: no account */
		found = league_exists_locked(lg, t->players[i]);
		if (found == -1) {
			league_dberr(lg, err, errlen, "look up the players");
			goto out;
		}
		if (found == 0) {
			snprintf(err, errlen, "no account %s", t->players[i]);
			goto out;
		}
	}
	if ((rc = league_tournament_bind(s, t, buf_str(&players), when)) == 0)
		rc = league_step(s);
	else
		sqldb_reset(s);
	if (rc == -1 && sqldb_errclass(lg->db) == SQLDB_CONSTRAINT) {
		snprintf(err, errlen, "tournament %s exists", t->name);
		goto out;
	}
	if (rc == -1) {
		league_dberr(lg, err, errlen, "store the tournament");
		goto out;
	}
	t->id = sqldb_last_id(lg->db);
	if (sqldb_commit(lg->db) == -1) {
		league_dberr(lg, err, errlen, "commit the tournament");
		goto out;
	}
	t->status = LEAGUE_T_RUNNING;
	r = 0;
out:
	if (sqldb_in_transaction(lg->db))
		sqldb_rollback(lg->db);
	pthread_mutex_unlock(&lg->mtx);
	buf_free(&players);
	if (r == 0)
		log_info("league=%s event=tournament-created id=%" PRId64
		    " name=%s players=%zu", lg->path, t->id, t->name,
		    t->nplayers);
	return (r);
}

/*
 * Sets a tournament's status (the one place that changes it; logged as
 * old -> new at debug level).  Returns 0, or -1 if there is no such
 * tournament or on a database error (logged).
 */
int
league_tournament_status(struct league *lg, int64_t id,
    enum league_tstatus status)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_STATUS];
	struct sqldb_stmt *g = lg->s[LEAGUE_S_T_GET];
	const char	*name;
	char		 old[16] = "none";
	int64_t		 n = 0;

	if ((name = league_tstatus_name(status)) == NULL)
		return (-1);
	pthread_mutex_lock(&lg->mtx);
	if (sqldb_bind_int64(g, 1, id) == 0 && sqldb_step(g) == SQLDB_ROW)
		snprintf(old, sizeof old, "%s", league_col(g, 0));
	sqldb_reset(g);
	if (sqldb_bind_text(s, 1, name) == 0 && sqldb_bind_int64(s, 2, id) ==
	    0 && league_step(s) == 0)
		n = sqldb_changes(lg->db);
	else {
		sqldb_reset(s);
		league_dbfail(lg, "update the tournament");
	}
	pthread_mutex_unlock(&lg->mtx);
	if (n == 1)
		log_debug("league=%s tournament %" PRId64 " %s -> %s",
		    lg->path, id, old, name);
	return (n == 1 ? 0 : -1);
}

/*
 * Stores the hypothesis an SPRT accepted (1: H0, 2: H1).  Returns 0, or -1
 * if there is no such tournament or on a database error (logged).
 */
int
league_tournament_verdict(struct league *lg, int64_t id, int verdict)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_VERDICT];
	int64_t		 n = 0;

	if (verdict != 1 && verdict != 2)
		return (-1);
	pthread_mutex_lock(&lg->mtx);
	if (sqldb_bind_text(s, 1, verdict == 1 ? "H0" : "H1") == 0 &&
	    sqldb_bind_int64(s, 2, id) == 0 && league_step(s) == 0)
		n = sqldb_changes(lg->db);
	else {
		sqldb_reset(s);
		league_dbfail(lg, "store the SPRT's verdict");
	}
	pthread_mutex_unlock(&lg->mtx);
	return (n == 1 ? 0 : -1);
}

/*
 * Stores a tournament's unplayed rounds that the games table lacks
 * (migration 015), for the standings built from the log (export.c): a
 * Swiss tournament's byes so far, "R:NAME,...", and the games stopped by
 * a withdrawal, "R:A:B,...".  Returns 0, or -1 if there is no such
 * tournament or on a database error (logged).
 */
int
league_tournament_unplayed(struct league *lg, int64_t id, const char *byes,
    const char *stopped)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_BYES];
	int64_t		 n = 0;

	pthread_mutex_lock(&lg->mtx);
	if (sqldb_bind_text(s, 1, byes) == 0 &&
	    sqldb_bind_text(s, 2, stopped) == 0 &&
	    sqldb_bind_int64(s, 3, id) == 0 && league_step(s) == 0)
		n = sqldb_changes(lg->db);
	else {
		sqldb_reset(s);
		league_dbfail(lg, "store the unplayed rounds");
	}
	pthread_mutex_unlock(&lg->mtx);
	return (n == 1 ? 0 : -1);
}

/* Frees what a tournament owns (its game and players), not t itself. */
void
league_tournament_free(struct league_tournament *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nplayers; i++)
		free(t->players[i]);
	free(t->players);
	free(t->wround);
	t->wround = NULL;
	free(t->game);
	t->players = NULL;
	t->nplayers = 0;
	t->game = NULL;
}

/* Frees an array of n tournaments from league_tournaments. */
void
league_tournaments_free(struct league_tournament *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		league_tournament_free(&v[i]);
	free(v);
}

/* Reads the stored "NAME:R,..." of the withdrawn players into wround. */
static void
league_withdrawn_parse(struct league_tournament *t, const char *p)
{
	const char	*q, *c;
	size_t		 i;

	for (; *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		if ((c = memchr(p, ':', (size_t)(q - p))) == NULL)
			continue;
		for (i = 0; i < t->nplayers; i++)
			if (strlen(t->players[i]) == (size_t)(c - p) &&
			    strncmp(t->players[i], p, (size_t)(c - p)) == 0)
				t->wround[i] = 1 + (unsigned int)strtoul(c + 1,
				    NULL, 10);
	}
}

/* Writes the withdrawn players as stored: "NAME:R,...". */
static void
league_withdrawn_text(const struct league_tournament *t, struct buf *b)
{
	size_t	 i;
	int	 first = 1;

	for (i = 0; i < t->nplayers; i++)
		if (t->wround != NULL && t->wround[i] != 0) {
			buf_printf(b, "%s%s:%u", first ? "" : ",",
			    t->players[i], t->wround[i] - 1);
			first = 0;
		}
}

/*
 * Stores a tournament's players and withdrawals after an add or a
 * withdraw; every player but "engine" must have an account.  Returns 0,
 * or -1 with err.
 */
int
league_tournament_roster(struct league *lg, const struct league_tournament *t,
    char *err, size_t errlen)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_ROSTER];
	struct buf	 players, wd;
	size_t		 i;
	int		 rc, found, r = -1;

	buf_init(&players);
	buf_init(&wd);
	league_players_text(t, &players);
	league_withdrawn_text(t, &wd);
	pthread_mutex_lock(&lg->mtx);
	for (i = 0; i < t->nplayers; i++) {
		if (strcmp(t->players[i], "engine") == 0)
			continue;
		if ((found = league_exists_locked(lg, t->players[i])) != 1) {
			if (found == 0)
				snprintf(err, errlen, "no account %s",
				    t->players[i]);
			else
				league_dberr(lg, err, errlen, "look up the "
				    "players");
			goto out;
		}
	}
	if ((rc = sqldb_bind_text(s, 1, buf_str(&players))) == 0 &&
	    (rc = sqldb_bind_text(s, 2, buf_str(&wd))) == 0 &&
	    (rc = sqldb_bind_int64(s, 3, t->id)) == 0)
		rc = league_step(s);
	else
		sqldb_reset(s);
	if (rc != 0 || sqldb_changes(lg->db) != 1) {
		league_dberr(lg, err, errlen, "store the players");
		goto out;
	}
	r = 0;
out:
	pthread_mutex_unlock(&lg->mtx);
	buf_free(&players);
	buf_free(&wd);
	return (r);
}

/* Fills t from a row of LEAGUE_S_T_LIST. */
static void
league_tournament_row(struct sqldb_stmt *s, struct league_tournament *t)
{
	char		 err[128];
	const char	*p, *q, *f, *st;
	size_t		 n, i;

	memset(t, 0, sizeof *t);
	t->id = sqldb_column_int64(s, 0);
	snprintf(t->name, sizeof t->name, "%s", league_col(s, 1));
	f = league_col(s, 2);
	for (i = 0; i < sizeof league_format_names /
	    sizeof league_format_names[0]; i++)
		if (strcmp(f, league_format_names[i]) == 0)
			t->format = (enum league_format)i;
	st = league_col(s, 3);	/* the schema's CHECK: one of the names */
	for (i = 0; i < sizeof league_tstatus_names /
	    sizeof league_tstatus_names[0]; i++)
		if (strcmp(st, league_tstatus_names[i]) == 0)
			t->status = (enum league_tstatus)i;
	t->game = xstrdup(league_col(s, 4));
	t->random = sqldb_column_int64(s, 5) != 0;
	t->base_ms = (uint64_t)sqldb_column_int64(s, 6);
	t->inc_ms = (uint64_t)sqldb_column_int64(s, 7);
	t->games_per_pair = (unsigned int)sqldb_column_int64(s, 8);
	t->seed = (uint64_t)sqldb_column_int64(s, 9);
	t->rounds = (unsigned int)sqldb_column_int64(s, 11);
	t->forfeit_s = (unsigned int)sqldb_column_int64(s, 12);
	if ((t->has_sprt = !sqldb_column_null(s, 13))) {
		t->sprt_elo0 = sqldb_column_double(s, 13);
		t->sprt_elo1 = sqldb_column_double(s, 14);
		t->sprt_alpha = sqldb_column_double(s, 15);
		t->sprt_beta = sqldb_column_double(s, 16);
	}
	st = league_col(s, 17);
	t->sprt_verdict = strcmp(st, "H0") == 0 ? 1 : strcmp(st, "H1") == 0 ?
	    2 : 0;
	for (p = league_col(s, 10); *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		n = (size_t)(q - p);
		t->players = xreallocarray(t->players, t->nplayers + 1,
		    sizeof *t->players);
		t->players[t->nplayers] = xmalloc(n + 1);
		memcpy(t->players[t->nplayers], p, n);
		t->players[t->nplayers][n] = '\0';
		t->nplayers++;
	}
	t->nstart = (size_t)sqldb_column_int64(s, 18);
	if (t->nstart == 0 || t->nstart > t->nplayers)
		t->nstart = t->nplayers;
	t->wround = xcalloc(t->nplayers + 1, sizeof *t->wround);
	league_withdrawn_parse(t, league_col(s, 19));
	/* NULL (made before migration 013), or not a list: the default. */
	if (sqldb_column_null(s, 20) ||
	    tb_list_parse(league_col(s, 20), &t->tb, err, sizeof err) != 0)
		memset(&t->tb, 0, sizeof t->tb);
}

/*
 * Reads the tournaments, by id: every one if all is set, else the running
 * ones.  Sets *vp and *np (free with league_tournaments_free).  Returns 0,
 * or -1 on a database error (logged).
 */
int
league_tournaments(struct league *lg, int all, struct league_tournament **vp,
    size_t *np)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_LIST];
	struct league_tournament *v = NULL;
	size_t		 n = 0;
	int		 rc;

	pthread_mutex_lock(&lg->mtx);
	if ((rc = sqldb_bind_int64(s, 1, all != 0)) == 0)
		while ((rc = sqldb_step(s)) == SQLDB_ROW) {
			v = xreallocarray(v, n + 1, sizeof *v);
			league_tournament_row(s, &v[n++]);
		}
	if (rc != SQLDB_DONE)		/* the rows' texts; v goes below */
		while (n > 0)
			league_tournament_free(&v[--n]);
	*vp = league_rows_end(lg, s, rc, "read the tournaments", v, &n);
	*np = n;
	return (rc == SQLDB_DONE ? 0 : -1);
}

/*
 * Reads every game of tournament id (finished, abandoned or live), by id.
 * Sets *vp (free it) and *np.  Returns 0, or -1 on a database error.
 */
int
league_tournament_games(struct league *lg, int64_t id,
    struct league_tgame **vp, size_t *np)
{
	struct sqldb_stmt *s = lg->s[LEAGUE_S_T_GAMES];
	struct league_tgame *v = NULL, *g;
	size_t		 n = 0;
	int		 rc;

	pthread_mutex_lock(&lg->mtx);
	if ((rc = sqldb_bind_int64(s, 1, id)) == 0)
		rc = sqldb_step(s);
	for (; rc == SQLDB_ROW; rc = sqldb_step(s)) {
		v = xreallocarray(v, n + 1, sizeof *v);
		g = &v[n++];
		memset(g, 0, sizeof *g);
		g->game_id = sqldb_column_int64(s, 0);
		g->slot = (unsigned int)sqldb_column_int64(s, 1);
		g->finished = strcmp(league_col(s, 2), "finished") == 0;
		g->result = league_result(s, 3);
		g->forfeit = sqldb_column_int64(s, 6) != 0;
		snprintf(g->player1, sizeof g->player1, "%s",
		    league_col(s, 4));
		snprintf(g->player2, sizeof g->player2, "%s",
		    league_col(s, 5));
	}
	*vp = league_rows_end(lg, s, rc, "read the tournament's games", v, &n);
	*np = n;
	return (rc == SQLDB_DONE ? 0 : -1);
}
