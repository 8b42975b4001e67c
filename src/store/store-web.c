/*
 * store-web.c: the reads of the HTTP API (PROTOCOL.md §14.3) that the
 * commands do not have: a filtered, paginated list of games and a
 * tournament's name; and the depth of the write queue for /metrics.  On
 * the read connection under rmtx, as store-read.c's; every parameter is
 * bound.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "store/store-int.h"

/* A tournament's name. */
static const char store_tour_sql[] =
    "SELECT name FROM tournaments WHERE id = ?1";

/* Prepares sql on the read connection (rmtx held); NULL on error. */
static struct sqldb_stmt *
store_web_prepare(struct store *st, const char *sql)
{
	struct sqldb_stmt *s = NULL;

	if (sqldb_prepare(st->rdb, sql, 0, &s) == -1) {
		log_warnx("store=%s event=read-failed what=web-prepare "
		    "error=\"%s\" code=%d", st->name, sqldb_errmsg(st->rdb),
		    store_code(st->rdb));
		return (NULL);
	}
	return (s);
}

/*
 * Reads at most limit games, newest first, into h (free it with
 * store_history_free): those of player (NULL: any) in either seat, of
 * tournament id tour (0: any), with ids below before (0: no bound); a
 * page of store_history_page (store-read.c).  Returns 0, or -1 on a
 * database error (h empty).
 */
int
store_games(struct store *st, const char *player, int64_t tour,
    int64_t before, unsigned int limit, struct store_history *h)
{
	struct store_hfilter f;

	memset(&f, 0, sizeof f);
	f.player = player;
	f.tournament_id = tour;
	f.before = before;
	f.limit = limit;
	return (store_history_page(st, &f, h));
}

/* Returns tournament id's name (free it), or NULL if there is none. */
char *
store_tour_name(struct store *st, int64_t id)
{
	struct sqldb_stmt *s;
	const char	*t;
	char		*name = NULL;

	if (id == 0)
		return (NULL);
	pthread_mutex_lock(&st->rmtx);
	if ((s = store_web_prepare(st, store_tour_sql)) != NULL) {
		sqldb_bind_int64(s, 1, id);
		if (sqldb_step(s) == SQLDB_ROW &&
		    (t = sqldb_column_text(s, 0)) != NULL)
			name = xstrdup(t);
		sqldb_finalize(s);
	}
	pthread_mutex_unlock(&st->rmtx);
	return (name);
}

/* Returns the writes waiting in the queue (any thread). */
size_t
store_queue_depth(struct store *st)
{
	size_t	 n;

	pthread_mutex_lock(&st->mtx);
	n = st->qlen;
	pthread_mutex_unlock(&st->mtx);
	return (n);
}
