/*
 * store-moves.c: a game's moves are kept in memory as a run, a JSON array
 * (db/003-move-runs.sql), and queued as one write (see store.c).
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/json.h"
#include "lib/log.h"
#include "store/store-int.h"

/* Appends n in decimal. */
static void
store_put_ulong(struct buf *b, unsigned long n)
{
	char	 d[24];
	size_t	 i = sizeof d;

	do {
		d[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n != 0);
	buf_add(b, d + i, sizeof d - i);
}

/* Returns a copy of s fit for one line: controls become spaces. */
char *
store_line(const char *s)
{
	char	*w, *p;

	w = xstrdup(s != NULL ? s : "");
	for (p = w; *p != '\0'; p++) {
		if ((unsigned char)*p < ' ' || *p == '\177')
			*p = ' ';
	}
	return (w);
}

/* Appends s (NULL: empty) as a JSON string of one line (store_line). */
static void
store_json_line(struct buf *b, const char *s)
{
	const char	*p;
	char		*w;

	if (s == NULL)
		s = "";
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < ' ' || *p == '\177')
			break;
	}
	if (*p == '\0') {
		json_quote(b, s);
		return;
	}
	w = store_line(s);
	json_quote(b, w);
	free(w);
}

/* Returns the list of pending runs where game id's would be. */
static struct store_runs *
store_bucket(struct store *st, int64_t id)
{
	return (&st->runs[(uint64_t)id % STORE_RUN_BUCKETS]);
}

/* Returns game id's pending run, or NULL (mtx held). */
static struct store_run *
store_run_find(struct store *st, int64_t id)
{
	struct store_run *r;

	LIST_FOREACH(r, store_bucket(st, id), hash) {
		if (r->id == id)
			return (r);
	}
	return (NULL);
}

/* Queues a pending run as one write and forgets it (mtx held). */
static void
store_run_queue(struct store *st, struct store_run *r)
{
	struct store_item *it;

	LIST_REMOVE(r, hash);
	TAILQ_REMOVE(&st->ages, r, age);
	buf_putc(&r->text, ']');
	it = xcalloc(1, sizeof *it);
	it->op = STORE_OP_RUN;
	it->id = r->id;
	it->ply = r->first_ply;
	it->w = r->n;
	it->s[0] = r->text.data;	/* the item owns the text now */
	it->bytes = r->charged;		/* in qbytes since it grew */
	free(r);
	store_push_locked(st, it, 0);
}

/* Queues game id's pending run, or every game's for id -1 (mtx held). */
void
store_runs_queue(struct store *st, int64_t id)
{
	struct store_run *r;

	if (id != -1) {
		if ((r = store_run_find(st, id)) != NULL)
			store_run_queue(st, r);
		return;
	}
	while ((r = TAILQ_FIRST(&st->ages)) != NULL)
		store_run_queue(st, r);
}

/* Queues the runs begun STORE_RUN_AGE_NS or more before now (mtx held). */
void
store_runs_age(struct store *st, int64_t now)
{
	struct store_run *r;

	while ((r = TAILQ_FIRST(&st->ages)) != NULL &&
	    now - r->born >= STORE_RUN_AGE_NS)
		store_run_queue(st, r);
}

/*
 * Logs one move of game id: adds it to the game's pending run, which is
 * queued when full (see the top of the file).  A move with a bad player
 * or mark, or ply 0, is refused: a failed write, the game damaged.
 */
void
store_move(struct store *st, int64_t id, const struct store_move *m)
{
	store_move_us(st, id, m, -1);
}

/*
 * store_move with the time the player used in microseconds (time_us; -1:
 * none, the record then gives time_ms * 1000), a seventh element of the
 * move after its delay (null if unknown; db/006).
 */
void
store_move_us(struct store *st, int64_t id, const struct store_move *m,
    long long time_us)
{
	struct store_run *r;
	struct buf	*b;
	size_t		 before;

	pthread_mutex_lock(&st->mtx);
	/* Its bytes are charged before it is copied: at the cap the move is
	 * dropped and its game damaged (its end is then unlogged, §12). */
	if (store_bytes_full(st, strlen(m->move) + strlen(m->position) +
	    STORE_MOVE_SLACK)) {
		st->cnt.dropped++;
		st->dropped_now++;
		store_damage(st, id);
		pthread_mutex_unlock(&st->mtx);
		return;
	}
	if ((m->player != 1 && m->player != 2) || m->ply == 0 ||
	    store_mark_name(m->mark) == NULL) {
		st->cnt.failed++;
		store_damage(st, id);
		pthread_mutex_unlock(&st->mtx);
		log_warnx("store=%s event=write-failed what=move game=%" PRId64
		    " error=\"bad move\"", st->name, id);
		return;
	}
	if ((r = store_run_find(st, id)) != NULL && r->next_ply != m->ply) {
		store_run_queue(st, r);
		r = NULL;
	}
	if (r == NULL) {
		r = xcalloc(1, sizeof *r);
		r->id = id;
		r->first_ply = r->next_ply = m->ply;
		r->born = (int64_t)clock_mono_ns();
		buf_init(&r->text);
		buf_putc(&r->text, '[');
		LIST_INSERT_HEAD(store_bucket(st, id), r, hash);
		TAILQ_INSERT_TAIL(&st->ages, r, age);
		/* An idle writer sets its alarm by the oldest run. */
		if (st->idle && TAILQ_FIRST(&st->ages) == r)
			pthread_cond_signal(&st->work);
	}
	b = &r->text;
	before = b->len;
	if (r->n > 0)
		buf_putc(b, ',');
	buf_putc(b, '[');
	buf_putc(b, (char)('0' + m->player));
	buf_putc(b, ',');
	store_json_line(b, m->move);
	buf_putc(b, ',');
	store_json_line(b, m->position);
	buf_putc(b, ',');
	store_put_ulong(b, m->time_ms);
	buf_putc(b, ',');
	buf_putc(b, (char)('0' + (int)m->mark));
	if (m->has_delay) {
		buf_putc(b, ',');
		store_put_ulong(b, m->delay_us);
	} else if (time_us >= 0)
		buf_puts(b, ",null");
	if (time_us >= 0) {
		buf_putc(b, ',');
		store_put_ulong(b, (unsigned long)time_us);
	}
	buf_putc(b, ']');
	r->charged += b->len - before;
	st->qbytes += b->len - before;
	r->n++;
	r->next_ply++;
	if (r->n >= STORE_RUN_MAX)
		store_run_queue(st, r);
	pthread_mutex_unlock(&st->mtx);
}

/*
 * Queues game id's pending run now, if it has one (any thread): a game
 * that is followed through the database (the caller knows: lobby-feed.c)
 * has its run queued after each move instead of waiting up to
 * STORE_RUN_AGE_NS, so that its commit, and what the batch ops add to it
 * (store-int.h), comes within the writer's gathering (STORE_GATHER_NS)
 * rather than a second later.
 */
void
store_run_now(struct store *st, int64_t id)
{
	pthread_mutex_lock(&st->mtx);
	store_runs_queue(st, id);
	pthread_mutex_unlock(&st->mtx);
}
