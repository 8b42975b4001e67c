/*
 * test-store-writer.c: the store's writer thread: move runs, bad writes
 * that fail alone, games abandoned by a crash, group commit, the bounded
 * queue, reads during writes, and durability: a child process is killed
 * with SIGKILL while it writes games, and every game it was told was
 * committed must be there, whole.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "testutil.h"
#include "testdb.h"
#include "testsync.h"

#include "lib/buf.h"
#include "store/store.h"

/* Writes plies from to to of game id: each the move 1=0, by turns. */
static void
write_plies(struct store *st, int64_t id, unsigned long from,
    unsigned long to)
{
	struct store_move m = { 0, 1, "1=0", "nim 0", 1, STORE_KEPT_WIN, 0, 0 };

	for (m.ply = from; m.ply <= to; m.ply++) {
		m.player = (int)((m.ply + 1) % 2) + 1;
		store_move(st, id, &m);
	}
}

/*
 * Moves are written in runs: a long game spans several rows, a gap in the
 * plies starts a new run, a flush makes a live game's moves visible, and
 * quotes and backslashes survive the JSON.
 */
static void
test_runs(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct store_game g = engine_game("nim 500");
	struct store_move m = { 0, 1, "1=\"x\\", "nim \"0\" \\", 2,
			    STORE_NO_WIN, 0, 0 };
	struct done	 d = { 0, 0 };
	struct rec	 r;
	int64_t		 id;
	unsigned long	 i;

	id = store_game_begin(st, &g);
	for (i = 1; i <= 100; i++) {
		m.ply = i;
		m.player = (int)((i + 1) % 2) + 1;
		store_move(st, id, &m);
	}
	assert_int_equal(store_flush(st), 0);	/* live, all 100 visible */
	rec_read(st, id, &r);
	assert_int_equal(r.nmoves, 100);
	assert_string_equal(r.status, "live");
	for (i = 102; i <= 160; i++) {		/* ply 101 is missing */
		m.ply = i;
		m.player = (int)((i + 1) % 2) + 1;
		m.mark = i % 3 == 0 ? STORE_KEPT_WIN : STORE_THREW_WIN;
		store_move(st, id, &m);
	}
	store_game_end(st, id, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    done_cb, &d);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d.ok, 1);
	rec_read(st, id, &r);
	assert_int_equal(r.nmoves, 159);
	assert_int_equal(r.mv[99].ply, 100);
	assert_int_equal(r.mv[100].ply, 102);
	assert_int_equal(r.mv[158].ply, 160);
	assert_string_equal(r.mv[158].move, "1=\"x\\");
	assert_string_equal(r.mv[158].mark, "threw-win");
	assert_int_equal(r.mv[158].player, 2);
	tdb_close(state);
	/* Runs: 1-64, 65-100 (the flush), 102-160. */
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM move_runs"),
	    3);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " position = 'nim \"0\" \\' AND time_ms = 2"), 159);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves WHERE"
	    " mark = 'kept-win' AND ply % 3 = 0 AND ply > 101"), 20);
	integrity_ok(fx->path);
}

/* Bad writes fail alone: unknown game, duplicate ply, bad player. */
static void
test_bad_writes(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct store_game g = { "nim", "nim 3", "a", "b", 0, NULL, 0, 0 };
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 }, d3 = { 0, 0 };
	struct store_counters c;
	struct rec	 r;
	int64_t		 a, b;

	store_game_end(st, 999, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d1);
	a = store_game_begin(st, &g);
	write_plies(st, a, 1, 1);
	write_plies(st, a, 1, 1);		/* ply 1 again */
	store_game_end(st, a, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d2);
	b = store_game_begin(st, &g);
	write_plies(st, b, 1, 1);
	store_game_end(st, b, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d3);
	store_flush(st);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);
	assert_int_equal(d2.called, 1);
	assert_int_equal(d2.ok, 0);		/* incomplete */
	assert_int_equal(d3.called, 1);
	assert_int_equal(d3.ok, 1);		/* unharmed */
	rec_read(st, a, &r);
	assert_int_equal(r.nmoves, 1);
	assert_string_equal(r.status, "finished");
	store_counters(st, &c);
	assert_true(c.failed >= 3);
}

/* Games left live by a crash are abandoned at the next open. */
static void
test_abandon(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct store_game g = engine_game("nim 3");
	struct rec	 r;
	int64_t		 a, b;

	a = store_game_begin(st, &g);
	write_plies(st, a, 1, 1);
	st = tdb_reopen(fx);			/* as if the server died */
	rec_read(st, a, &r);
	assert_string_equal(r.status, "abandoned");
	assert_string_equal(r.reason, "interrupted");
	assert_string_equal(r.result, "-");
	assert_string_equal(r.ended, "-");
	assert_int_equal(r.nmoves, 1);
	/* Games of this run are not touched by a later call. */
	b = store_game_begin(st, &g);
	assert_int_equal(store_abandon_live(st), 0);
	rec_read(st, b, &r);
	assert_string_equal(r.status, "live");
}

/* Group commit: a burst of writes takes far fewer transactions. */
static void
test_batching(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct store_game g = engine_game("nim 5000");
	struct store_counters c;
	struct done	 d = { 0, 0 };
	int64_t		 id;
	unsigned long	 n = 3000;

	store_counters(st, &c);
	assert_int_equal(c.batches, 1);		/* store_abandon_live */
	id = store_game_begin(st, &g);
	write_plies(st, id, 1, n);
	store_game_end(st, id, STORE_RESULT_FIRST, "no-legal-move",
	    STORE_FINISHED, done_cb, &d);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d.ok, 1);
	store_counters(st, &c);
	assert_int_equal(c.items, n + 3);
	assert_int_equal(c.failed, 0);
	assert_int_equal(c.dropped, 0);
	print_message("batching: %" PRIu64 " writes in %" PRIu64
	    " transactions\n", c.items, c.batches);
	assert_true(c.batches * 4 < c.items);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves"),
	    (int64_t)n);
}

/*
 * A handshake with the writer thread (store_set_hook): at the point
 * `where` of the first batch that reaches it, the writer says so and waits
 * until the test lets it go on.
 */
struct gate {
	pthread_mutex_t	 mtx;
	pthread_cond_t	 cond;
	enum store_hook	 where;
	int		 armed;		/* the next batch at where stops */
	int		 stopped;	/* the writer waits at the gate */
	int		 go;		/* the test lets it go on */
};

/* The hook: stops the writer at the gate once (writer thread). */
static void
gate_hook(void *arg, enum store_hook where)
{
	struct gate	*g = arg;

	pthread_mutex_lock(&g->mtx);
	if (g->armed && where == g->where) {
		g->armed = 0;
		g->stopped = 1;
		pthread_cond_broadcast(&g->cond);
		while (!g->go)
			pthread_cond_wait(&g->cond, &g->mtx);
	}
	pthread_mutex_unlock(&g->mtx);
}

/* Arms the gate on st at where. */
static void
gate_arm(struct gate *g, struct store *st, enum store_hook where)
{
	memset(g, 0, sizeof *g);
	pthread_mutex_init(&g->mtx, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->where = where;
	g->armed = 1;
	store_set_hook(st, gate_hook, g);
}

/* Waits until the writer stands at the gate. */
static void
gate_wait(struct gate *g)
{
	tsync_wait(&g->mtx, &g->cond, &g->stopped);
}

/* Lets the writer go on. */
static void
gate_open(struct gate *g)
{
	tsync_set(&g->mtx, &g->cond, &g->go, 1);
}

/* Removes the hook from st and frees the gate's locks. */
static void
gate_free(struct gate *g, struct store *st)
{
	store_set_hook(st, NULL, NULL);
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->mtx);
}

/*
 * The queue is bounded: a stuck writer makes it refuse, not grow.  The
 * writer is held at the start of the batch with the game's start, so the
 * queue is empty then: the first run of 64 moves gets in, and the rest of
 * the 200 moves (64 + 64 + 8) are refused.
 */
static void
test_queue_bound(void **state)
{
	struct fixture	*fx = *state;
	struct store_config cf;
	struct store	*st;
	struct store_game g = engine_game("nim 200");
	struct store_counters c;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 };
	struct gate	 gt;
	int64_t		 id;

	store_config_default(&cf);
	cf.queue_max = 10;
	st = open_ok(fx->path, &cf);
	gate_arm(&gt, st, STORE_HOOK_BATCH);
	id = store_game_begin(st, &g);
	gate_wait(&gt);
	write_plies(st, id, 1, 200);
	store_game_end(st, id, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d1);
	store_counters(st, &c);
	assert_int_equal(c.dropped, 136);
	gate_open(&gt);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);		/* its record is incomplete */
	store_counters(st, &c);
	assert_int_equal(c.dropped, 136);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM moves"), 64);
	/* Once the writer is free again, all is well. */
	script_write(st, &scripts[0], STORE_FINISHED, &d2);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d2.ok, 1);
	gate_free(&gt, st);
	store_close(st);
}

/*
 * The queue is bounded in bytes too (max-queue-bytes): with the writer
 * held, moves of 4,000-byte positions fill it; past half of the cap new
 * games are refused (store_failing, STORE_BUSY_MSG) while the game's
 * moves still get in, and at the cap its moves are dropped, its end
 * unlogged.  Once the writer goes on, new games are welcome again.
 */
static void
test_queue_bytes(void **state)
{
	struct fixture	*fx = *state;
	struct store_config cf;
	struct store	*st;
	struct store_game g = engine_game("nim 200");
	struct store_move m = { 0, 1, "1=0", NULL, 1, STORE_KEPT_WIN, 0, 0 };
	struct store_counters c;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 };
	struct gate	 gt;
	char		*pos;
	int64_t		 id;
	unsigned long	 busy_at = 0;
	int		 moves;

	pos = malloc(4001);
	assert_non_null(pos);
	memset(pos, '7', 4000);
	pos[4000] = '\0';
	m.position = pos;
	store_config_default(&cf);
	cf.queue_bytes = 65536;
	st = open_ok(fx->path, &cf);
	gate_arm(&gt, st, STORE_HOOK_BATCH);
	id = store_game_begin(st, &g);
	gate_wait(&gt);
	assert_int_equal(store_failing(st), 0);
	for (m.ply = 1; m.ply <= 40; m.ply++) {
		m.player = (int)((m.ply + 1) % 2) + 1;
		store_move(st, id, &m);
		if (busy_at == 0 && store_failing(st))
			busy_at = m.ply;
	}
	/* Half of 65,536 bytes is passed at the ninth move (4,000 bytes and
	 * a few more each), the cap at the 17th: 16 moves got in. */
	assert_int_equal(busy_at, 9);
	assert_string_equal(store_failing_msg(st), STORE_BUSY_MSG);
	store_counters(st, &c);
	assert_int_equal(c.dropped, 24);
	store_game_end(st, id, STORE_RESULT_FIRST, "x", STORE_FINISHED,
	    done_cb, &d1);
	gate_open(&gt);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);		/* its record is incomplete */
	moves = raw_int(fx->path, "SELECT COUNT(*) FROM moves");
	assert_int_equal(moves, 16);
	assert_int_equal(store_failing(st), 0);	/* drained: welcome again */
	script_write(st, &scripts[0], STORE_FINISHED, &d2);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d2.ok, 1);
	gate_free(&gt, st);
	store_close(st);
	free(pos);
}

/* Reads go on while the writer writes (WAL), and see whole games. */
struct reader_arg {
	struct store	*st;
	int		 stop;
	int		 errors;
	unsigned long	 reads;
};

/* Reads records and stats until told to stop (reader thread). */
static void *
reader_main(void *arg)
{
	struct reader_arg *ra = arg;
	struct buf	 b;
	struct rec	 r;
	int64_t		 id;
	int		 rc;

	buf_init(&b);
	while (!__atomic_load_n(&ra->stop, __ATOMIC_ACQUIRE)) {
		for (id = 1; id <= 22; id++) {
			buf_reset(&b);
			rc = text_record(ra->st, id, &b);
			if (rc == -1)
				ra->errors++;
			if (rc != 1)
				continue;
			rec_parse(b.data, &r);
			/* A finished game is whole. */
			if (strcmp(r.status, "finished") == 0 &&
			    r.nmoves != script_moves(r.start))
				ra->errors++;
		}
		buf_reset(&b);
		if (text_stats(ra->st, &b) == -1)
			ra->errors++;
		ra->reads++;
	}
	buf_free(&b);
	return (NULL);
}

/*
 * Concurrent reads during writes.  First exactly: the writer is held in
 * the middle of a transaction (its writes done, not committed) while
 * this thread reads: it sees the committed game whole and nothing of the
 * uncommitted one, and the writer then commits.  Then a reader thread
 * reads in a loop while 20 games are written: no read fails, and every
 * finished game it sees is whole.
 */
static void
test_concurrent_reads(void **state)
{
	struct fixture	*fx = *state;
	struct reader_arg ra;
	struct gate	 gt;
	struct buf	 b;
	struct rec	 r;
	pthread_t	 t;
	struct done	 d[22];
	int64_t		 id1, id2;
	int		 i;

	memset(&ra, 0, sizeof ra);
	memset(d, 0, sizeof d);
	ra.st = open_ok(fx->path, NULL);
	id1 = script_write(ra.st, &scripts[0], STORE_FINISHED, &d[20]);
	assert_int_equal(store_flush(ra.st), 0);
	gate_arm(&gt, ra.st, STORE_HOOK_WRITTEN);
	id2 = script_write(ra.st, &scripts[1], STORE_FINISHED, &d[21]);
	gate_wait(&gt);
	rec_read(ra.st, id1, &r);
	script_check(&scripts[0], &r, "finished");
	buf_init(&b);
	assert_int_equal(text_record(ra.st, id2, &b), 0);
	assert_int_equal(text_stats(ra.st, &b), 0);
	assert_string_equal(buf_str(&b), "games 1\nmoves 4\n"
	    "player conn:17 moves 2 optimal 50.0% kept-win 1 threw-win 1\n"
	    "player engine moves 2 optimal 100.0% kept-win 1 threw-win 0\n");
	buf_free(&b);
	assert_int_equal(d[21].called, 0);
	gate_open(&gt);
	assert_int_equal(store_flush(ra.st), 0);
	assert_int_equal(d[21].ok, 1);
	rec_read(ra.st, id2, &r);
	script_check(&scripts[1], &r, "finished");
	gate_free(&gt, ra.st);

	assert_int_equal(pthread_create(&t, NULL, reader_main, &ra), 0);
	for (i = 0; i < 20; i++) {
		script_write(ra.st, &scripts[0], STORE_FINISHED, &d[i]);
		if (i % 4 == 0)
			store_flush(ra.st);
	}
	store_flush(ra.st);
	__atomic_store_n(&ra.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_int_equal(ra.errors, 0);
	for (i = 0; i < 20; i++)
		assert_int_equal(d[i].ok, 1);
	store_close(ra.st);
}

/* A child's game whose end was reported: where to say so. */
struct child_done {
	int		 fd;
	int64_t		 id;
};

/* Reports a committed game to the parent (child's writer thread). */
static void
child_done_cb(void *arg, int ok)
{
	struct child_done *cd = arg;

	if (ok && write(cd->fd, &cd->id, sizeof cd->id) != sizeof cd->id)
		_exit(4);
	free(cd);
}

/* Writes games forever (the child); game id has id % 5 + 1 moves. */
static void
child_load(const char *path, int fd)
{
	struct store	*st;
	struct store_game g = engine_game("nim 9 9");
	struct child_done *cd;
	char		 err[512];
	int64_t		 id;
	int		 i;

	if ((st = store_open(path, err, sizeof err)) == NULL)
		_exit(2);
	for (i = 0; i < 1000000; i++) {
		id = store_game_begin(st, &g);
		write_plies(st, id, 1, (unsigned long)(id % 5 + 1));
		if ((cd = malloc(sizeof *cd)) == NULL)
			_exit(3);
		cd->fd = fd;
		cd->id = id;
		store_game_end(st, id, STORE_RESULT_FIRST, "no-legal-move",
		    STORE_FINISHED, child_done_cb, cd);
		if (i % 16 == 15)
			store_flush(st);
	}
	_exit(0);
}

/*
 * Durability: kill -9 a writing child; every game whose done callback
 * said ok is in the database, finished and whole.
 */
static void
test_durability(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st;
	struct rec	 r;
	int64_t		*ids, id;
	size_t		 n = 0, cap = 16384, i;
	ssize_t		 got;
	long		 t0;
	pid_t		 pid;
	int		 fds[2], status, killed = 0;

	ids = calloc(cap, sizeof *ids);
	assert_non_null(ids);
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		close(fds[0]);
		child_load(fx->path, fds[1]);
	}
	close(fds[1]);
	t0 = now_ms();
	for (;;) {
		got = read(fds[0], &id, sizeof id);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		assert_int_equal(got, sizeof id);
		if (n < cap)
			ids[n++] = id;
		if (!killed && (n >= 400 || now_ms() - t0 > 5000)) {
			kill(pid, SIGKILL);
			killed = 1;
		}
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	print_message("durability: %zu games reported committed before "
	    "SIGKILL\n", n);
	assert_true(n >= 100);

	st = open_ok(fx->path, NULL);
	for (i = 0; i < n; i++) {
		rec_read(st, ids[i], &r);
		assert_string_equal(r.status, "finished");
		assert_string_equal(r.result, "first");
		assert_int_equal(r.nmoves, ids[i] % 5 + 1);
	}
	store_close(st);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games "
	    "WHERE status = 'live'"), 0);
	integrity_ok(fx->path);
	free(ids);
}

/*
 * A COMMIT whose connection is lost is in doubt (PostgreSQL): the writer
 * reads the batch back before it reports anything.  The writer's backend
 * is terminated while it holds the batch's open transaction, just before
 * its COMMIT: nothing was committed, so the game's end is reported not
 * durable (ok 0) and the game is not in the log; the next game is logged
 * on a new connection.
 */
static void
test_commit_in_doubt(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct gate	 g;
	struct done	 d1 = { 0, 0 }, d2 = { 0, 0 };
	struct store_game sg = engine_game("nim 1");
	int64_t		 id1, id2;

	TDB_PG_ONLY("a lost connection in doubt is PostgreSQL's (this test"
	    " runs again under tests/e2e/pgstore.sh)");
	gate_arm(&g, st, STORE_HOOK_WRITTEN);
	id1 = store_game_begin(st, &sg);
	store_game_end(st, id1, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    done_cb, &d1);
	gate_wait(&g);
	/* The writer stands in its transaction: end its backend. */
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(pg_terminate_backend"
	    "(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND"
	    " state = 'idle in transaction'"), 1);
	gate_open(&g);
	assert_int_equal(store_flush(st), -1);
	gate_free(&g, st);
	assert_int_equal(d1.called, 1);
	assert_int_equal(d1.ok, 0);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games"), 0);
	/* The next write reconnects. */
	id2 = store_game_begin(st, &sg);
	assert_true(id2 > id1);
	store_game_end(st, id2, STORE_RESULT_FIRST, "resign", STORE_FINISHED,
	    done_cb, &d2);
	assert_int_equal(store_flush(st), 0);
	assert_int_equal(d2.ok, 1);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM games WHERE"
	    " status = 'finished'"), 1);
}

/*
 * PostgreSQL's game ids come from a pool that the writer refills from the
 * sequence: while it cannot, the pool drains, a start gets no id (0: not
 * logged) and the log says it is failing; once the sequence answers
 * again, the pool refills by itself (after store_failing's probe).
 */
static void
test_ids_drained(void **state)
{
	struct fixture	*fx = *state;
	struct store	*st = fx->st;
	struct store_game sg = engine_game("nim 1");
	int64_t		 id, last = 0;
	long long	 until;
	int		 i;

	TDB_PG_ONLY("game ids from a sequence are PostgreSQL's (this test"
	    " runs again under tests/e2e/pgstore.sh)");
	raw_file_exec(fx->path, "ALTER SEQUENCE games_id_seq RENAME TO"
	    " games_id_seq_away");
	for (i = 0; i < 64; i++) {
		id = store_game_begin(st, &sg);
		assert_true(id > last);
		last = id;
		assert_int_equal(store_flush(st), 0);
	}
	assert_int_equal(store_failing(st), 1);
	assert_int_equal(store_game_begin(st, &sg), 0);
	raw_file_exec(fx->path, "ALTER SEQUENCE games_id_seq_away RENAME TO"
	    " games_id_seq");
	until = now_ms() + 30000;
	while (store_failing(st) && now_ms() < until)
		store_flush(st);
	assert_int_equal(store_failing(st), 0);
	assert_true(store_game_begin(st, &sg) > last);
}

TDB_STORE_MAIN(
    TDB_FILE_TEST(test_runs),
    TDB_MEMORY_TEST(test_bad_writes),
    TDB_FILE_TEST(test_abandon),
    TDB_FILE_TEST(test_batching),
    cmocka_unit_test(test_queue_bound),
    cmocka_unit_test(test_queue_bytes),
    cmocka_unit_test(test_concurrent_reads),
    cmocka_unit_test(test_durability),
    TDB_FILE_TEST(test_commit_in_doubt),
    TDB_FILE_TEST(test_ids_drained))
