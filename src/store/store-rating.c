/*
 * store-rating.c: the Glicko-2 ratings of the log and their checkpoint (see
 * db/005-ratings-checkpoint.sql and db/006-glicko2.sql; the model is
 * PROTOCOL.md §13.7's, in rtable.c).
 *
 * The writer rates each game whose end it commits: a rated game that
 * finished with a winner and whose record is complete gets the next
 * rating_seq, and its players' new ratings go to table ratings with the
 * seq they cover, all in the batch's own transaction.  So the checkpoint
 * can never be ahead of or behind the games it covers.  Within a batch the
 * new ratings are kept apart (pend); once the COMMIT has returned they are
 * published to the live ratings (live, under emtx), before the batch's done
 * callbacks run, so a player told a result already sees its rating.  A
 * batch that rolls back publishes nothing.
 *
 * At open, the checkpoint is loaded and only the games after it are
 * replayed (and the checkpoint written, if there were any).  store_ratings
 * _verify replays the whole log off the event loop, on a connection of its
 * own, and compares it with the checkpoint and the live ratings of the
 * same instant (the writer holds vmtx from its COMMIT to the publication).
 *
 * Several nodes on one PostgreSQL (PROTOCOL.md §13.7): the writer's first
 * rated game of a batch locks the checkpoint's row (store_rt_lock, until
 * the COMMIT), takes the next seq from it and first replays the games
 * other nodes rated since live_seq (store_rt_catchup), so the log has one
 * order and every game is rated from the ratings all nodes committed.
 * Reads call store_ratings_sync (one read of the checkpoint's seq, the
 * replay of what is new).  Whoever changes live holds vmtx (the writer
 * from its COMMIT to the publication, a catch-up throughout) and emtx.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "stats/rtable.h"
#include "lib/log.h"
#include "store/store-int.h"

/* The SQL of the rating statements, by STORE_RT_* (the writer's). */
static const char *const store_rtsql[STORE_RT_N] = {
	"SELECT player1, player2 FROM games WHERE id = ? AND rated = 1",
	"UPDATE games SET rating_seq = ? WHERE id = ?",
	"INSERT INTO ratings (name, rating, rd, volatility, games)"
	" VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
	" rating = excluded.rating, rd = excluded.rd,"
	" volatility = excluded.volatility, games = excluded.games",
	"UPDATE ratings_checkpoint SET seq = ?, game_id = ? WHERE id = 1",
};

/* The rated games after seq ?, in the order they were rated. */
#define STORE_RT_TAIL							\
	"SELECT rating_seq, id, player1, player2, result FROM games"	\
	" WHERE rating_seq > ? ORDER BY rating_seq"

/*
 * Reads the checkpoint's seq and game id; with lock set (PostgreSQL, in a
 * transaction), also locks its row until the transaction ends: the lock
 * that serializes the rating of games across nodes.  Returns 0, -1 on a
 * database error, or 1 if its row is missing (migration 005 inserts it:
 * corrupt).
 */
int
store_rt_mark(struct sqldb *db, int lock, int64_t *seq, int64_t *game)
{
	struct sqldb_stmt *s;
	int		 rc;

	*seq = *game = 0;
	if (sqldb_cached(db, lock ? "SELECT seq, game_id FROM"
	    " ratings_checkpoint WHERE id = 1 FOR UPDATE" : "SELECT seq,"
	    " game_id FROM ratings_checkpoint WHERE id = 1", 0, &s) == -1)
		return (-1);
	if ((rc = sqldb_step(s)) == SQLDB_ROW) {
		*seq = sqldb_column_int64(s, 0);
		*game = sqldb_column_int64(s, 1);
		rc = 0;
	} else if (rc == SQLDB_DONE)
		rc = 1;
	sqldb_reset(s);
	return (rc);
}

/* Reads table ratings into e; returns 0, or -1. */
int
store_rt_rows(struct sqldb *db, struct rtable *e)
{
	struct sqldb_stmt *s;
	struct rtable_entry *p;
	const char	*name;
	int		 rc;

	/* By name: the same order on either back end. */
	if (sqldb_prepare(db, "SELECT name, rating, rd, volatility, games"
	    " FROM ratings", 0, &s) == -1)
		return (-1);
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		if ((name = sqldb_column_text(s, 0)) == NULL)
			continue;
		p = rtable_get(e, name);
		p->g.r = sqldb_column_double(s, 1);
		p->g.rd = sqldb_column_double(s, 2);
		p->g.sigma = sqldb_column_double(s, 3);
		p->games = (unsigned long)sqldb_column_int64(s, 4);
	}
	sqldb_finalize(s);
	return (rc == -1 ? -1 : 0);
}

/* Returns the winner (1 or 2) of a result column, or 0. */
static int
store_rt_winner(struct sqldb_stmt *s, int i)
{
	const char	*t = sqldb_column_text(s, i);

	if (t == NULL)
		return (0);
	return (strcmp(t, "first") == 0 ? 1 : strcmp(t, "second") == 0 ? 2 :
	    0);
}

/*
 * Adds a player to e, if missing, with its entry in from (if any): the
 * ratings it had before the games rated into e.
 */
static void
store_rt_seed(struct rtable *e, const struct rtable *from, const char *name)
{
	struct rtable_entry *p;
	const struct rtable_entry *c;

	if (rtable_find(e, name) != NULL)
		return;
	p = rtable_get(e, name);
	if ((c = rtable_find(from, name)) != NULL) {
		p->g = c->g;
		p->games = c->games;
	}
}

/*
 * Replays the rated games after seq into e (and, if touched is not NULL,
 * their players into touched); a player missing from e starts from its
 * entry in seed, if seed is not NULL.  Sets *last and *game to the last
 * game's seq and id, *n to the games.  Returns 0, or -1.
 */
int
store_rt_replay(struct sqldb *db, int64_t seq, struct rtable *e,
    struct rtable *touched, const struct rtable *seed, int64_t *last,
    int64_t *game, int64_t *n)
{
	struct sqldb_stmt *s;
	const char	*p1, *p2;
	int		 rc, w;

	*n = 0;
	if (sqldb_prepare(db, STORE_RT_TAIL, 0, &s) == -1)
		return (-1);
	sqldb_bind_int64(s, 1, seq);
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		p1 = sqldb_column_text(s, 2);
		p2 = sqldb_column_text(s, 3);
		if (p1 == NULL || p2 == NULL ||
		    (w = store_rt_winner(s, 4)) == 0)
			continue;	/* the CHECKs make it impossible */
		if (seed != NULL) {
			store_rt_seed(e, seed, p1);
			store_rt_seed(e, seed, p2);
		}
		rtable_rate(e, p1, p2, w);
		if (touched != NULL) {
			(void)rtable_get(touched, p1);
			(void)rtable_get(touched, p2);
		}
		*last = sqldb_column_int64(s, 0);
		*game = sqldb_column_int64(s, 1);
		(*n)++;
	}
	sqldb_finalize(s);
	return (rc == -1 ? -1 : 0);
}

/* Writes the entries of e named in which, and the mark; 0, or -1. */
static int
store_rt_write(struct store *st, const struct rtable *e,
    const struct rtable *which, int64_t seq, int64_t game)
{
	struct sqldb_stmt *s = st->rt[STORE_RT_PUT];
	const struct rtable_entry *p;
	size_t		 i;
	int		 rc = 0;

	for (i = 0; i < which->n && rc == 0; i++) {
		if ((p = rtable_find(e, which->v[i].name)) == NULL)
			continue;
		sqldb_bind_text(s, 1, p->name);
		sqldb_bind_double(s, 2, p->g.r);
		sqldb_bind_double(s, 3, p->g.rd);
		sqldb_bind_double(s, 4, p->g.sigma);
		sqldb_bind_int64(s, 5, (int64_t)p->games);
		rc = store_do(s);
	}
	if (rc != 0)
		return (rc);
	s = st->rt[STORE_RT_MARK];
	sqldb_bind_int64(s, 1, seq);
	sqldb_bind_int64(s, 2, game);
	return (store_do(s));
}

/*
 * At open, before the writer starts: prepares the rating statements,
 * loads the checkpoint, replays the rated games after it and, if there
 * were any (a log of an older version, or written by a tool), writes the
 * checkpoint.  Returns 0, or -1 with err filled in.
 */
int
store_ratings_open(struct store *st, char *err, size_t errlen)
{
	struct rtable	 touched;
	int64_t		 seq, game, n;
	int		 rc = 0, pg;

	rtable_init(&touched);
	/* (st->pg is set after this returns.) */
	pg = sqldb_backend(st->wdb) == SQLDB_PG;
	/* PostgreSQL: other nodes rate meanwhile; read under their lock. */
	if (store_prepare(st->wdb, store_rtsql, NULL, STORE_RT_N, st->rt) == -1 ||
	    (pg && sqldb_begin(st->wdb) == -1) ||
	    (rc = store_rt_mark(st->wdb, pg, &seq, &game)) == -1 ||
	    store_rt_rows(st->wdb, &st->live) == -1 ||
	    store_rt_replay(st->wdb, seq, &st->live, &touched, NULL, &seq,
	    &game, &n) == -1)
		goto fail;
	if (rc == 1) {
		sqldb_rollback(st->wdb);
		rtable_free(&touched);
		snprintf(err, errlen, "%s: database is corrupt (no ratings "
		    "checkpoint): restore it from a backup", st->name);
		return (-1);
	}
	/* The reads' check of other nodes' games has its own connection. */
	if (pg && st->sdb == NULL && sqldb_open(st->path, &st->sdb, err,
	    errlen) == -1) {
		sqldb_rollback(st->wdb);
		rtable_free(&touched);
		return (-1);
	}
	if (n > 0) {
		if ((!pg && sqldb_begin(st->wdb) == -1) ||
		    store_rt_write(st, &st->live, &touched, seq, game) == -1 ||
		    sqldb_commit(st->wdb) == -1)
			goto fail;
	} else if (pg && sqldb_commit(st->wdb) == -1)
		goto fail;
	st->live_seq = st->rseq = seq;
	rtable_free(&touched);
	log_info("store=%s event=ratings players=%zu seq=%" PRId64
	    " replayed=%" PRId64, st->name, st->live.n, seq, n);
	return (0);

fail:
	store_error_db(err, errlen, st->name, st->wdb, "load the ratings",
	    st->busy_ms);
	sqldb_rollback(st->wdb);
	rtable_free(&touched);
	return (-1);
}

/*
 * Seeds the batch's entry of a player from the live ratings (writer).
 * Only the writer changes live on SQLite; on PostgreSQL a reader's
 * store_ratings_sync may too, but never while the writer holds the rating
 * lock with live up to date (store_rt_lock): the writer reads it without
 * emtx.
 */
static void
store_rt_touch(struct store *st, const char *name)
{
	store_rt_seed(&st->pend, &st->live, name);
}

/*
 * PostgreSQL, vmtx held (nobody else changes live): replays on db the games
 * rated after live_seq (other nodes') on top of the live ratings of their
 * players, and publishes them with the last seq replayed.  One statement
 * reads them, so they are a prefix of the log's order (each rating commits
 * under the lock, in seq order).  Returns 0, or -1.
 */
static int
store_rt_catchup(struct store *st, struct sqldb *db)
{
	struct rtable	 d;
	int64_t		 last, game, n;
	size_t		 i;
	struct rtable_entry *p;

	rtable_init(&d);
	last = st->live_seq;
	if (store_rt_replay(db, st->live_seq, &d, NULL, &st->live, &last,
	    &game, &n) == -1) {
		rtable_free(&d);
		return (-1);
	}
	pthread_mutex_lock(&st->emtx);
	for (i = 0; i < d.n; i++) {
		p = rtable_get(&st->live, d.v[i].name);
		p->g = d.v[i].g;
		p->games = d.v[i].games;
	}
	st->live_seq = last;
	pthread_mutex_unlock(&st->emtx);
	rtable_free(&d);
	return (0);
}

/*
 * PostgreSQL, the writer, at a batch's first rated game: locks the
 * checkpoint's row (the nodes' rating lock, until the batch's COMMIT),
 * reads the last seq any node gave, and brings the live ratings up to it
 * (the games other nodes rated meanwhile), so that the batch rates from
 * the ratings every node committed and continues the one order of the
 * log.  Returns 0, or -1.
 */
static int
store_rt_lock(struct store *st)
{
	int64_t		 seq, game;
	int		 rc;

	if ((rc = store_rt_mark(st->wdb, 1, &seq, &game)) != 0)
		return (rc == 1 ? sqldb_refuse(st->wdb, "no ratings checkpoint")
		    : -1);
	pthread_mutex_lock(&st->vmtx);
	if (st->live_seq < seq)
		rc = store_rt_catchup(st, st->wdb);
	if (rc == 0 && st->live_seq != seq)
		rc = sqldb_refuse(st->wdb, "ratings checkpoint at %" PRId64
		    ", log at %" PRId64, seq, st->live_seq);
	pthread_mutex_unlock(&st->vmtx);
	st->rseq = seq;
	st->rgame = game;
	return (rc);
}

/*
 * Before a read of the live ratings that a client sees: on PostgreSQL,
 * one read of the checkpoint's seq and, if another node rated games since
 * the live ratings' seq, their replay, on a connection of its own (not
 * the reads': a long read there, an export, must not hold up `ratings`
 * on the event loop) under vmtx (at worst it waits for one COMMIT of the
 * writer).  SQLite: one node, nothing to do.  Any thread.  Returns 0, or
 * -1 (the live ratings are then as before: the caller reads them anyway;
 * the writer logs the database's failures).
 */
int
store_ratings_sync(struct store *st)
{
	int64_t		 seq, game;
	int		 rc;

	if (!st->pg)
		return (0);
	pthread_mutex_lock(&st->vmtx);
	if ((rc = store_rt_mark(st->sdb, 0, &seq, &game)) == 0 &&
	    st->live_seq < seq)
		rc = store_rt_catchup(st, st->sdb);
	pthread_mutex_unlock(&st->vmtx);
	return (rc == 0 ? 0 : -1);
}

/*
 * In store_ratings_verify's read transaction on db, vmtx held: the live
 * ratings brought up to the snapshot's checkpoint seq (PostgreSQL: other
 * nodes' games), so that they compare with the replay of the same
 * instant.  Returns 0, or -1.
 */
int
store_rt_verify_sync(struct store *st, struct sqldb *db, int64_t seq)
{
	if (!st->pg || st->live_seq >= seq)
		return (0);
	return (store_rt_catchup(st, db));
}

/*
 * The writer, inside a batch, after a game's end was written: if the game
 * counts for the ratings (rated, finished with a winner, its record
 * complete), gives it the next rating_seq and rates it in the batch's
 * ratings.  Returns 0, or -1 (any failure fails the batch).
 */
int
store_ratings_end(struct store *st, int64_t id, enum store_result result,
    enum store_status status)
{
	struct sqldb_stmt *s = st->rt[STORE_RT_GAME];
	char		*p1, *p2;
	int		 rc, damaged;

	/* Games live at open were abandoned: only this run's can be rated. */
	if (status != STORE_FINISHED || result == STORE_RESULT_NONE ||
	    !__atomic_load_n(&st->rated_begun, __ATOMIC_ACQUIRE))
		return (0);
	pthread_mutex_lock(&st->mtx);
	damaged = store_damaged(st, id, 0);
	pthread_mutex_unlock(&st->mtx);
	if (damaged)
		return (0);	/* unrated, as its callback says */
	sqldb_bind_int64(s, 1, id);
	if ((rc = sqldb_step(s)) != SQLDB_ROW) {
		sqldb_reset(s);
		return (rc == SQLDB_DONE ? 0 : -1);
	}
	p1 = xstrdup(sqldb_column_text(s, 0));
	p2 = xstrdup(sqldb_column_text(s, 1));
	sqldb_reset(s);
	/* The batch's first rated game on PostgreSQL: the nodes' lock. */
	if (st->pg && st->pend.n == 0 && store_rt_lock(st) == -1) {
		free(p1);
		free(p2);
		return (-1);
	}
	s = st->rt[STORE_RT_SEQ];
	sqldb_bind_int64(s, 1, st->rseq + 1);
	sqldb_bind_int64(s, 2, id);
	if ((rc = store_do(s)) == 0) {
		st->rseq++;
		st->rgame = id;
		store_rt_touch(st, p1);
		store_rt_touch(st, p2);
		rtable_rate(&st->pend, p1, p2, result == STORE_RESULT_FIRST ? 1 :
		    2);
	}
	free(p1);
	free(p2);
	return (rc);
}

/* The writer, before a batch's COMMIT: the checkpoint of its ratings. */
int
store_ratings_write(struct store *st)
{
	if (st->pend.n == 0)
		return (0);
	return (store_rt_write(st, &st->pend, &st->pend, st->rseq, st->rgame));
}

/*
 * The writer, just before a batch's COMMIT: holds vmtx if the batch rates
 * games, until store_ratings_done has published them.
 */
void
store_ratings_commit(struct store *st)
{
	if (st->pend.n > 0)
		pthread_mutex_lock(&st->vmtx);
}

/*
 * The writer, once a batch committed or failed (before its callbacks):
 * publishes the batch's ratings, or forgets them.
 */
void
store_ratings_done(struct store *st, int committed, int locked)
{
	struct rtable_entry *p;
	size_t		 i;

	if (committed && st->pend.n > 0) {
		pthread_mutex_lock(&st->emtx);
		for (i = 0; i < st->pend.n; i++) {
			p = rtable_get(&st->live, st->pend.v[i].name);
			p->g = st->pend.v[i].g;
			p->games = st->pend.v[i].games;
		}
		st->live_seq = st->rseq;
		pthread_mutex_unlock(&st->emtx);
	} else if (!st->pg)
		st->rseq = st->live_seq;	/* PostgreSQL: store_rt_lock's */
	if (locked)
		pthread_mutex_unlock(&st->vmtx);
	rtable_free(&st->pend);
}

/*
 * Returns 1 and a player's rating (rating, RD, volatility) and rated
 * games, or 0 if it has none (any thread).
 */
int
store_rating(struct store *st, const char *name, struct glicko2_rating *r,
    unsigned long *games)
{
	const struct rtable_entry *p;

	pthread_mutex_lock(&st->emtx);
	if ((p = rtable_find(&st->live, name)) != NULL) {
		*r = p->g;
		*games = p->games;
	}
	pthread_mutex_unlock(&st->emtx);
	return (p != NULL);
}

/* Copies the live ratings into e (initialised; any thread). */
void
store_ratings(struct store *st, struct rtable *e)
{
	pthread_mutex_lock(&st->emtx);
	rtable_copy(e, &st->live);
	pthread_mutex_unlock(&st->emtx);
}
