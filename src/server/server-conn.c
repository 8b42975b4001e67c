/*
 * server-conn.c: grundyd's client connections, on the event loop.
 *
 * One thread runs the event loop and owns every socket, event and
 * connection.  A request line is executed on the loop when it is cheap;
 * when session_heavy() says it may be slow (building a subtraction or
 * graph table, a bounded Wythoff Grundy table, a sum, a line over 1 KiB)
 * it goes to the worker pool (server-pool.c) instead.  While a connection
 * has a job in flight it is "busy": the loop neither reads its next line
 * nor touches its session, so a session is only ever used by one thread
 * at a time and needs no lock.  A connection that closes while busy is
 * only marked dead and freed when its job returns.  Pipelined requests
 * are answered in order because a connection runs one request at a time.
 * A match's result is held until the log has it on disk, but the
 * connection goes on meanwhile (a client may pipeline its next game):
 * while a result is held ("held"), the replies behind it wait in
 * c->after (bounded like the output) and follow it out in order.
 *
 * Limits: request line length (reply, skip the line), output buffer (drop
 * the client), idle timeout (final message and close; only complete lines
 * count), line timeout (a started line must end in time: slowloris),
 * connection count (refuse with a message), per-connection rate (token
 * bucket: refuse the command).  The heavy commands of an address in the
 * pool (max-queued-per-ip jobs, PREmax-lines-in-flight bytes of lines)
 * are not refused but wait: a line beyond them is parked at its
 * connection (c->parked, srv->parked), which stops reading until a job
 * of the pool comes back and conn_wake finds room, so the kernel's
 * socket buffers push back on the sender and the loop does nothing for
 * it.  A line over SESSION_LOOP_LINE_MAX goes to the pool whatever it
 * is, so while it is read it holds a place there (c->reserved,
 * pool_reserve), or, without room, its connection parks before reading
 * the rest (conn_park_unread).  A connection with a job in flight or a
 * parked line stops reading once a next line is complete or
 * CONN_READ_AHEAD bytes of it wait.  Finding a line's end scans each
 * byte once (c->scanned), and a line over max-line is skipped without
 * being copied: constant work per read, however long the lines.  seek
 * and challenge prepare their game on a worker first (job->prep), then
 * run on the loop.  Game-size limits are enforced by the solver's
 * parsers.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "lib/clock.h"
#include "lobby/lobby.h"
#include "lib/log.h"
#include "lib/metrics.h"
#include "server/server-int.h"
#include "session/session-store.h"

static void	 conn_end_last_line(struct conn *);
static void	 conn_reading(struct conn *, int);
static void	 conn_line_timer(struct conn *);
static void	 conn_refuse(struct conn *, char *, size_t, struct buf *,
		    struct buf *);
static int	 conn_output_full(struct conn *);
static int	 conn_waiting(const struct conn *);
static int	 conn_parked_ahead(const struct conn *);
static void	 conn_unreserve(struct conn *);
static int	 conn_input_full(struct conn *);

/* The names of the connection states, for logs. */
static const char *const conn_states[] = { CONN_STATES(ENUM_X_NAME) };

/*
 * Moves a connection on in its life cycle: the one place its state
 * changes.  why is the close reason of CLOSING and KILLED (NULL for
 * CLOSING: "eof" after an EOF, else "quit").  A step back is ignored.
 */
void
conn_enter(struct conn *c, enum conn_state st, const char *why)
{
	if (st <= c->state)
		return;
	log_debug("conn=%llu event=conn-state %s -> %s",
	    (unsigned long long)c->id, conn_states[c->state], conn_states[st]);
	if (st == CONN_CLOSING && why == NULL)
		why = c->state == CONN_EOF ? "eof" : "quit";
	if (why != NULL)
		c->why = why;
	c->state = st;
}

/* Logs one executed command (debug). */
void
conn_log_cmd(struct conn *c)
{
	metrics_cmd(c->sess.last_cmd, !c->sess.last_ok);
	if (log_verbose())
		log_debug("conn=%llu cmd=%s status=%s state=%s",
		    (unsigned long long)c->id,
		    c->sess.last_cmd != NULL ? c->sess.last_cmd : "-",
		    c->sess.last_ok ? "ok" : "error",
		    session_strstate(c->sess.state));
}

/*
 * Sends data, straight to the socket when nothing is queued, and queues
 * the rest; returns -1 if the unread output is now over the cap.  Output
 * the lobby left for the end of the pass (out_post) goes first, in the
 * same send().
 */
static int
conn_queue(struct conn *c, const char *data, size_t len)
{
	ssize_t		 n;

	if (len > 0 && out_waiting(c))
		out_add(c, data, len);	/* the socket is full: after the rest */
	else if (len > 0 && out_unsent(c) > 0) {
		out_add(c, data, len);	/* after the lobby's lines of the pass */
		out_send(c);
	} else if (len > 0) {
		n = send(c->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			data += n;
			len -= (size_t)n;
		}
		if (len > 0) {
			out_add(c, data, len);
			out_wait(c);	/* an error too: the write event sees it */
		} else if (c->sess.lc != NULL && lobby_tx_waits(c->sess.lc))
			lobby_tx_time(c->sess.lc, clock_mono_ns());
	}
	return (conn_charge(c, BUDGET_OUTPUT, out_unsent(c), NULL));
}

/*
 * Writes a reply; drops the client if its unread output passes the cap.
 * When nothing is queued the reply goes straight to the socket, which
 * saves the event-loop round trip (and two epoll_ctl calls) per request;
 * whatever the socket does not take is queued (server-out.c).
 */
int
conn_write(struct conn *c, const char *data, size_t len)
{
	if (c->held) {
		/* Behind a held result: in order, once it is out. */
		buf_add(&c->after, data, len);
		return (0);
	}
	if (conn_queue(c, data, len) != 0) {
		conn_free(c, "output-overflow");
		return (-1);
	}
	return (0);
}

/* The log has (or failed to write) a game's end: release the reply. */
static void
conn_durable_cb(void *arg, int ok)
{
	struct job	*j = arg;

	if (!ok) {
		log_warnx("conn=%llu event=log-failed what=game-end game=%lld",
		    (unsigned long long)j->conn->id, (long long)j->gid);
		/* Never report as durable: say so in the reply (§12). */
		if (j->out.len >= 2 && j->out.data[j->out.len - 1] == '\n' &&
		    j->out.data[j->out.len - 2] == '\n') {
			j->out.len--;
			buf_printf(&j->out, "unlogged %lld the game log could "
			    "not write this result\n\n", (long long)j->gid);
		}
	}
	pool_done(&j->conn->srv->pool, j);
}

/*
 * A command ended a match: log the end and hold its reply (in j) until
 * the commit that holds the result returns.  Called by the thread that
 * ran the command, which owns the session.
 */
void
conn_end_game(struct conn *c, struct job *j)
{
	j->gid = c->sess.game_id;	/* before: the callback may run at once */
	session_end_log(&c->sess, conn_durable_cb, j);
}

/*
 * Drops a client the lobby overfilled or kicked (never inside it); what
 * the lobby wrote it before gets one try.
 */
static void
conn_kill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;

	(void)fd;
	(void)what;
	if (c->dirty)
		(void)out_push(c);
	conn_free(c, c->why);
}

/* Drops a client on the next turn of the loop (the lobby's kick). */
void
conn_kill(struct conn *c, const char *why)
{
	if (c->state >= CONN_KILLED)
		return;
	conn_enter(c, CONN_KILLED, why);
	if (c->killev == NULL)
		c->killev = evtimer_new(c->srv->base, conn_kill_cb, c);
	event_active(c->killev, EV_TIMEOUT, 0);
}

/* Frees a connection now, or marks it dead if a worker still has it. */
void
conn_free(struct conn *c, const char *reason)
{
	struct server	*srv = c->srv;

	conn_unreserve(c);
	if (c->park) {
		TAILQ_REMOVE(&srv->parked, c, park_entry);
		free(c->parked);
		c->parked = NULL;
		c->park = 0;
	}
	if ((c->busy && !c->more_wait) || c->held) {
		conn_enter(c, CONN_DEAD, NULL);
		conn_reading(c, 0);
		out_free(c);	/* nothing more is written */
		return;
	}
	log_info("conn=%llu event=close reason=%s commands=%llu",
	    (unsigned long long)c->id, reason, (unsigned long long)c->ncmds);
	TAILQ_REMOVE(&srv->conns, c, entry);
	srv->nconns--;
	session_abandon(&c->sess, reason);
	if (c->sess.lc != NULL)
		lobby_detach(c->sess.lc, reason);
	c->sess.lc = NULL;
	if (c->killev != NULL)
		event_free(c->killev);
	out_free(c);
	event_free(c->rev);
	evutil_closesocket(c->fd);
	if (c->in != NULL)
		evbuffer_free(c->in);
	cmd_prep_free(&c->sess);
	free(c->prepped);
	session_free(&c->sess);
	proto_answer_free(&c->ans);
	buf_free(&c->after);
	free(c);
	if (srv->stopping && srv->nconns == 0)
		event_base_loopexit(srv->base, NULL);
}

/*
 * Charges a request to the connection's command budget; over it, answers
 * the request with its id and the refusal, without running it.  Returns
 * 1 if the request may run.
 */
static int
conn_charge_line(struct conn *c, char *line, size_t n, struct buf *out)
{
	struct buf	 msg;

	buf_init(&msg);
	if (conn_charge(c, BUDGET_COMMANDS, 1, &msg) == 0) {
		buf_free(&msg);
		return (1);
	}
	metrics_inc(M_RATE_LIMITED);
	conn_refuse(c, line, n, out, &msg);
	buf_free(&msg);
	return (0);
}

/*
 * Answers a request with its id and the error in msg, without running it:
 * the id is read from the line's head (proto_head), constant work however
 * long the line.
 */
static void
conn_refuse(struct conn *c, char *line, size_t n, struct buf *out,
    struct buf *msg)
{
	struct proto_head h;
	struct proto_cmd cmd;

	memset(&cmd, 0, sizeof cmd);
	(void)proto_head(line, n, &h);
	cmd.has_id = h.has_id;
	cmd.id = h.id;
	proto_reply(out, 0, &cmd, buf_str(msg));
	(void)c;
}

/*
 * Whether the address of c has room in the pool for a line of n bytes:
 * fewer than max-queued-per-ip of its jobs there, and the bytes of their
 * lines with this one within the budget's lines in flight (a line always
 * has room when the address has none there).
 */
static int
conn_room(struct conn *c, size_t n)
{
	unsigned int	 queued;
	size_t		 bytes;

	bytes = pool_bytes(&c->srv->pool, c->sess.addr, &queued);
	if (queued >= c->srv->conf->max_queued_per_ip)
		return (0);
	return (bytes == 0 || conn_charge(c, BUDGET_LINES, bytes + n,
	    NULL) == 0);
}

/*
 * Parks a line of n bytes until its address has room in the pool: the
 * connection stops reading, and conn_wake runs the line once a job comes
 * back.  A NULL line is one that is still being read, but long enough to
 * go to the pool whatever it is (conn_park_unread): the rest of it stays
 * in the kernel until then.
 */
static void
conn_park(struct conn *c, char *line, size_t n)
{
	c->park = 1;
	c->parked = line;
	c->parked_len = n;
	TAILQ_INSERT_TAIL(&c->srv->parked, c, park_entry);
	conn_reading(c, 0);
	log_debug("conn=%llu event=park bytes=%zu",
	    (unsigned long long)c->id, n);
}

/* Takes the parked line back (conn_process runs it). */
static char *
conn_unpark(struct conn *c, size_t *np)
{
	char	*line = c->parked;

	*np = c->parked_len;
	c->parked = NULL;
	c->park = 0;
	c->woken = 1;		/* its turn: conn_queue_job */
	TAILQ_REMOVE(&c->srv->parked, c, park_entry);
	return (line);
}

/*
 * A connection's next line is still being read and long enough to go to
 * the pool whatever it is (over SESSION_LOOP_LINE_MAX): it takes a place
 * among its address's jobs there while it is read (pool_reserve), so
 * that an address reads at most max-queued-per-ip such lines at once; or,
 * when its address has no room, it parks and the rest is not read until
 * it has.  Returns 1 if it parked.
 */
static int
conn_park_unread(struct conn *c)
{
	size_t	 len = c->in != NULL ? evbuffer_get_length(c->in) : 0;
	size_t	 eol_len;

	if (conn_waiting(c) || c->reserved || c->discard ||
	    len <= SESSION_LOOP_LINE_MAX || conn_eol(c, &eol_len) >= 0)
		return (0);
	if ((c->woken || !conn_parked_ahead(c)) && conn_room(c, len)) {
		pool_reserve(&c->srv->pool, c->sess.addr, 1);
		c->reserved = 1;
		c->woken = 1;	/* admitted: its line goes in its place */
		return (0);
	}
	conn_park(c, NULL, len);
	return (1);
}

/*
 * Gives back the place a line being read held in the pool.  The line
 * takes it again at once if it goes to the pool (c->woken: before any
 * parked line); if it does not (an answer, a refusal, a line too long),
 * lines parked meanwhile may run, and no job comes back to wake them: the
 * loop's next pass does (srv->wakeev).
 */
static void
conn_unreserve(struct conn *c)
{
	if (!c->reserved)
		return;
	pool_reserve(&c->srv->pool, c->sess.addr, -1);
	c->reserved = 0;
	if (!TAILQ_EMPTY(&c->srv->parked) && c->srv->wakeev != NULL)
		event_active(c->srv->wakeev, EV_TIMEOUT, 0);
}

/*
 * Whether a line of the address of c is parked already: a connection
 * whose job came back must not take the room its address's parked lines
 * wait for (they go first, in order: conn_wake).
 */
static int
conn_parked_ahead(const struct conn *c)
{
	const struct conn *p;

	TAILQ_FOREACH(p, &c->srv->parked, park_entry)
		if (strcmp(p->sess.addr, c->sess.addr) == 0)
			return (1);
	return (0);
}

/*
 * Queues a request for the workers (the line is the job's), or parks it
 * while its address has no room (conn_room) or lines parked before it:
 * the connection waits either way.
 */
static void
conn_queue_job(struct conn *c, char *line, size_t n, int prep)
{
	struct server	*srv = c->srv;
	struct job	*j;
	unsigned int	 queued;
	int		 woken;

	woken = c->woken;
	c->woken = 0;
	if ((!woken && conn_parked_ahead(c)) || !conn_room(c, n)) {
		conn_park(c, line, n);
		return;
	}
	j = xcalloc(1, sizeof *j);
	j->conn = c;
	j->host = c->sess.addr;
	j->line = line;
	j->len = n;
	j->prep = prep;
	buf_init(&j->out);
	c->busy = 1;
	if (pool_submit(&srv->pool, j, srv->conf->max_queued_per_ip,
	    &queued) == 0)
		return;
	c->busy = 0;		/* not after conn_room: only the loop adds */
	j->line = NULL;
	job_free(j);
	conn_park(c, line, n);
}

/* The loop's next pass after room appeared with no job back. */
void
conn_wake_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	conn_wake(arg);
}

/*
 * Runs the lines parked for room in the pool whose address has room now
 * (after jobs came back), oldest first.
 */
void
conn_wake(struct server *srv)
{
	struct conn	*c, *next;

	for (c = TAILQ_FIRST(&srv->parked); c != NULL; c = next) {
		next = TAILQ_NEXT(c, park_entry);
		if (conn_room(c, c->parked_len))
			conn_process(c);
	}
}

/*
 * Submits the next part of the connection's streamed reply to the
 * workers (its address counted once: one part at a time).  Returns 0, or
 * -1 after dropping the connection.
 */
int
conn_more(struct conn *c)
{
	struct job	*j;
	unsigned int	 queued;

	if (c->sess.lc != NULL &&
	    lobby_held_bytes(c->sess.lc) > conn_output_max(c)) {
		conn_free(c, "output-overflow");	/* events held for it */
		return (-1);
	}
	c->more_wait = 0;
	j = xcalloc(1, sizeof *j);
	j->conn = c;
	j->host = c->sess.addr;
	j->more = 1;
	buf_init(&j->out);
	c->busy = 1;
	(void)pool_submit(&c->srv->pool, j, UINT_MAX, &queued);
	return (0);
}

/* Closes the connection once its output has been written. */
void
conn_close_after_flush(struct conn *c)
{
	conn_enter(c, CONN_CLOSING, NULL);
	conn_reading(c, 0);
	if (c->dirty)
		out_send(c);	/* the lobby's last lines */
	if (out_unsent(c) == 0)
		conn_free(c, c->srv->stopping ? "shutdown" : c->why);
}

/*
 * An answer block is complete: it goes to the server command it answers
 * (§13.2), or, answering none, gets an error of its own.
 */
static void
conn_answer(struct conn *c, struct buf *out)
{
	int	 taken = 0;

	if (c->sess.lc != NULL) {
		lobby_hold(c->sess.lc);
		taken = lobby_answer(c->sess.lc, &c->ans);
		lobby_release(c->sess.lc, out);
	}
	if (!taken) {
		log_debug("conn=%llu event=stray-answer id=%lu",
		    (unsigned long long)c->id, c->ans.has_id ? c->ans.id : 0);
		proto_answer_stray(out);
	}
	proto_answer_reset(&c->ans);
}

/*
 * Takes the next request line out of the input into *linep (*np bytes),
 * dealing on the way with the rest of an overlong line (skipped, after
 * one error), answer blocks (§13.2) and the rate limit.  Returns 1 with a
 * line to run, 0 to look again, -1 when no complete line waits.
 */
static int
conn_next_line(struct conn *c, struct buf *out, char **linep, size_t *np)
{
	const struct conf *cf = c->srv->conf;
	struct evbuffer	*in = c->in;
	char		*line, head[32];
	size_t		 n, eol_len = 0;
	ssize_t		 pos, hn;

	if (in == NULL)
		return (-1);
	pos = conn_eol(c, &eol_len);
	if (c->discard) {
		/* Skip the rest of an overlong line. */
		c->scanned = 0;
		if (pos < 0) {
			evbuffer_drain(in, evbuffer_get_length(in));
			return (-1);
		}
		evbuffer_drain(in, (size_t)pos + eol_len);
		c->discard = 0;
		return (0);
	}
	if (pos < 0 && evbuffer_get_length(in) <= cf->max_line)
		return (-1);
	if (pos < 0 || (size_t)pos > cf->max_line) {
		/* Over the limit: one error, then skip to its end. */
		hn = evbuffer_copyout(in, head, sizeof head - 1);
		head[hn > 0 ? hn : 0] = '\0';
		c->scanned = 0;
		conn_unreserve(c);
		if (pos < 0) {
			evbuffer_drain(in, evbuffer_get_length(in));
			c->discard = 1;
		} else
			evbuffer_drain(in, (size_t)pos + eol_len);
		c->ncmds++;
		/* Part of an answer: the answer is cut, not refused. */
		if (proto_answer_feed(&c->ans, head, hn > 0 ? (size_t)hn : 0,
		    1) == PROTO_NOT_ANSWER)
			proto_too_long(out, head, cf->max_line);
		return (0);
	}
	/* The line, copied once (its end is known: no second search). */
	n = (size_t)pos;
	line = xmalloc(n + 1);
	if (evbuffer_remove(in, line, n) != (int)n)
		fatalx("event=evbuffer-remove");
	line[n] = '\0';
	evbuffer_drain(in, eol_len);
	c->scanned = 0;
	conn_unreserve(c);	/* its place: conn_queue_job takes it now */
	c->ncmds++;
	c->line_ms = server_now_ms(c->srv);
	c->partial_ms = 0;
	switch (proto_answer_feed(&c->ans, line, n, 0)) {
	case PROTO_IN_BLOCK:
		free(line);
		return (0);
	case PROTO_BLOCK_DONE:
		conn_answer(c, out);
		free(line);
		return (0);
	case PROTO_NOT_ANSWER:
		break;		/* the line as it came: a request */
	}
	if (!proto_blank(line, n) && !conn_charge_line(c, line, n, out)) {
		free(line);
		return (0);
	}
	*linep = line;
	*np = n;
	return (1);
}

/*
 * Runs a request on the loop (the lobby held around it) and frees the
 * line.  A command that ended a logged match keeps its reply back until
 * the log has the end on disk; the connection goes on behind it, unless
 * an earlier result is held already.  Returns 1 if the connection must
 * wait, else 0.
 */
static int
conn_execute(struct conn *c, char *line, size_t n, struct buf *out)
{
	struct job	*j;
	size_t		 mark = out->len;
	int		 rv;

	c->sess.on_loop = 1;
	if (c->sess.lc != NULL)
		lobby_hold(c->sess.lc);
	rv = session_execute(&c->sess, line, n, out);
	if (c->sess.lc != NULL)
		lobby_release(c->sess.lc, out);
	c->sess.on_loop = 0;
	free(line);
	conn_log_cmd(c);
	if (rv == SESSION_WAIT) {
		/* Reply once the log has the result on disk. */
		j = xcalloc(1, sizeof *j);
		j->conn = c;
		buf_init(&j->out);
		if (!c->held) {
			/* It takes the earlier replies along; go on. */
			buf_add(&j->out, out->data, out->len);
			buf_reset(out);
			j->ahead = c->held = 1;
			conn_end_game(c, j);
			return (0);
		}
		buf_add(&j->out, out->data + mark, out->len - mark);
		out->len = mark;
		out->data[mark] = '\0';
		c->busy = 1;	/* a second one: wait as before */
		conn_end_game(c, j);
		return (1);
	}
	if (rv == SESSION_CLOSE)
		conn_enter(c, CONN_CLOSING, NULL);
	return (0);
}

/*
 * Runs one request line (and frees it): on a worker when it may be slow
 * or its game must be prepared first (unless prepped already), else here.
 * Returns 0 to go on, 1 when the connection must wait (a job or a log
 * write in flight), -1 if the connection is gone.
 */
static int
conn_run_line(struct conn *c, char *line, size_t n, int prepped,
    struct buf *out)
{
	const struct cmd_entry *ce = NULL;
	int	 heavy;

	c->sess.conf = &c->srv->conf->sc;
	heavy = !prepped && session_heavy(&c->sess, line, n, &ce);
	if (heavy || (!prepped && cmd_prep_needed(&c->sess, ce, line, n))) {
		/* Answer the earlier lines before this one waits. */
		if (conn_write(c, out->data, out->len) != 0) {
			free(line);
			buf_reset(out);
			return (-1);
		}
		buf_reset(out);
		conn_queue_job(c, line, n, !heavy);
		return (1);
	}
	return (conn_execute(c, line, n, out));
}

/*
 * Runs the complete request lines waiting in the input, in order, until
 * the input is empty, a job goes to the workers, or the connection closes.
 */
void
conn_process(struct conn *c)
{
	struct server	*srv = c->srv;
	struct buf	*out = &srv->out;
	char		*line;
	size_t		 n;
	int		 rv, prepped;

	buf_reset(out);
	while (!c->busy && (c->state == CONN_OPEN || c->state == CONN_EOF)) {
		if (conn_output_full(c))
			break;
		if ((prepped = c->prepped != NULL)) {
			/* Its game was prepared on a worker: run it here. */
			line = c->prepped;
			n = c->prepped_len;
			c->prepped = NULL;
		} else if (c->park) {
			/* Waiting for room in the pool (conn_wake). */
			if (!conn_room(c, c->parked_len))
				break;
			if (c->parked == NULL) {
				/* Its line goes on being read: its turn. */
				(void)conn_unpark(c, &n);
				c->partial_ms = 0;	/* the wait was ours */
				continue;
			}
			line = conn_unpark(c, &n);
		} else if ((rv = conn_next_line(c, out, &line, &n)) < 0)
			break;
		else if (rv == 0)
			continue;
		if ((rv = conn_run_line(c, line, n, prepped, out)) < 0)
			return;
		c->woken = 0;
		if (rv > 0)
			break;
		/* Pipelined replies go out together, but not unboundedly. */
		if (out->len >= 16384 || out->len > conn_output_max(c) / 4) {
			if (conn_write(c, out->data, out->len) != 0) {
				buf_reset(out);
				return;
			}
			buf_reset(out);
		}
	}
	if (conn_write(c, out->data, out->len) != 0) {
		buf_reset(out);
		return;
	}
	buf_reset(out);
	if ((c->state == CONN_CLOSING || c->state == CONN_EOF) && !c->busy &&
	    !c->held && !c->park)
		conn_close_after_flush(c);
	else if (srv->stopping && !c->busy && !c->held)
		conn_close_after_flush(c);
	else {
		if (conn_park_unread(c) ||
		    (conn_waiting(c) && conn_input_full(c)))
			conn_reading(c, 0);	/* backpressure */
		else if (!conn_waiting(c) && !c->reading &&
		    !conn_output_full(c))
			conn_reading(c, 1);
		conn_line_timer(c);
	}
}

/*
 * Slowloris: only a complete line counts as activity.  Notes when a
 * partial line began and arms the input timeout for whichever comes
 * first: idle-timeout after the last complete line, or line-timeout after
 * the first byte of a line that has not ended.
 */
static void
conn_line_timer(struct conn *c)
{
	const struct conf *cf = c->srv->conf;
	struct timeval	 tv;
	uint64_t	 now = server_now_ms(c->srv), due;
	size_t		 eol_len;

	if (c->in == NULL || evbuffer_get_length(c->in) == 0 || c->discard)
		c->partial_ms = c->discard ? (c->partial_ms ? c->partial_ms :
		    now) : 0;
	else {
		if (conn_eol(c, &eol_len) >= 0)
			c->partial_ms = 0;	/* lines wait: not the client */
		else if (c->partial_ms == 0)
			c->partial_ms = now;
	}
	if (!c->reading)
		return;
	due = c->line_ms + (uint64_t)cf->idle_timeout * 1000;
	if (c->partial_ms != 0 &&
	    c->partial_ms + (uint64_t)cf->line_timeout * 1000 < due)
		due = c->partial_ms + (uint64_t)cf->line_timeout * 1000;
	if (out_idle(c) && now + OUT_IDLE_MS < due)
		due = now + OUT_IDLE_MS;	/* then out_idle_free */
	due = due > now ? due - now : 1;
	tv.tv_sec = (time_t)(due / 1000);
	tv.tv_usec = (suseconds_t)(due % 1000) * 1000;
	event_add(c->rev, &tv);
}

/*
 * Returns 1 when half the output cap is queued: the client reads slowly,
 * so stop reading its requests until it catches up (backpressure).  A
 * client that never reads is then dropped by the write timeout, or by the
 * cap itself if one reply overshoots it.
 */
static int
conn_output_full(struct conn *c)
{
	return (out_unsent(c) + c->after.len >
	    conn_output_max(c) / 2);
}

/*
 * Whether a connection waits for the pool: a job in flight, or a line
 * parked for room there.
 */
static int
conn_waiting(const struct conn *c)
{
	return (c->busy || c->park);
}

/*
 * Returns 1 when a waiting connection has read enough: a next line is
 * complete, or CONN_READ_AHEAD bytes of one are pending (a long line is
 * read on once the connection's turn comes).  It stops reading then.
 */
static int
conn_input_full(struct conn *c)
{
	size_t	 eol_len;

	return (c->in != NULL && (evbuffer_get_length(c->in) >
	    CONN_READ_AHEAD || conn_eol(c, &eol_len) >= 0));
}

/* Starts or stops watching the socket for input (and idleness). */
static void
conn_reading(struct conn *c, int on)
{
	struct timeval	 tv;

	if (on && !c->reading) {
		tv.tv_sec = c->srv->conf->idle_timeout;
		tv.tv_usec = 0;
		event_add(c->rev, &tv);
	} else if (!on && c->reading)
		event_del(c->rev);
	c->reading = on;
}

/*
 * Reads what has arrived with one recv() straight into the input buffer
 * (a bufferevent would add an ioctl(FIONREAD) per read), then runs it.  A
 * connection with a job in flight stops reading once a line's worth is
 * pending (conn_process): backpressure.  A timeout means the client was
 * idle too long.
 */
static void
conn_read_ev(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;
	struct evbuffer_iovec v[2];
	static const char idle[] = "? idle timeout: closing\n\n";
	const struct conf *cf = c->srv->conf;
	struct buf	 msg;
	uint64_t	 now;
	ssize_t		 n;
	int		 nv;

	if (what & EV_TIMEOUT) {
		if (conn_waiting(c) || c->held)
			return;
		now = server_now_ms(c->srv);
		if (c->partial_ms != 0 && now >= c->partial_ms +
		    (uint64_t)cf->line_timeout * 1000) {
			/* A line that does not end: slowloris. */
			buf_init(&msg);
			buf_printf(&msg, "? line timeout: a request line must "
			    "end within %u s: closing\n\n", cf->line_timeout);
			log_info("conn=%llu event=line-timeout",
			    (unsigned long long)c->id);
			if (conn_write(c, msg.data, msg.len) == 0)
				conn_close_after_flush(c);
			buf_free(&msg);
			return;
		}
		if (now < c->line_ms + (uint64_t)cf->idle_timeout * 1000) {
			out_idle_free(c);
			conn_line_timer(c);	/* not yet */
			return;
		}
		if (c->sess.lc != NULL && lobby_active(c->sess.lc)) {
			/* Waiting on a game, a seek or a tournament. */
			c->line_ms = now;
			conn_line_timer(c);
			return;
		}
		if (conn_write(c, idle, sizeof idle - 1) == 0)
			conn_close_after_flush(c);
		return;
	}
	if (c->in == NULL)
		c->in = evbuffer_new();	/* given back when idle: out_idle_free */
	/*
	 * A long line in progress: larger reads, fewer of them, into the
	 * rest of the last chain and a new one (no chain left half empty).
	 */
	if ((nv = evbuffer_reserve_space(c->in, evbuffer_get_length(c->in) <
	    CONN_READ_AHEAD || conn_waiting(c) ? 16384 : 131072, v, 2)) < 1)
		fatalx("event=oom");
	n = conn_recv(c, fd, v, nv);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		conn_free(c, "error");
		return;
	}
	if (n == 0) {
		/* Half-close: answer what was sent, then close. */
		conn_enter(c, CONN_EOF, NULL);
		conn_end_last_line(c);
		conn_reading(c, 0);
		conn_process(c);
		return;
	}
	if ((size_t)n <= v[0].iov_len) {
		v[0].iov_len = (size_t)n;
		nv = 1;
	} else
		v[1].iov_len = (size_t)n - v[0].iov_len;
	evbuffer_commit_space(c->in, v, nv);
	if (conn_output_full(c))
		conn_reading(c, 0);
	conn_process(c);
}

/*
 * At EOF, an unterminated last line is a line like any other (as in
 * `grundy engine`): end it.
 */
static void
conn_end_last_line(struct conn *c)
{
	struct evbuffer_ptr p;
	size_t		 len = c->in != NULL ? evbuffer_get_length(c->in) : 0;
	char		 last;

	if (len == 0 || evbuffer_ptr_set(c->in, &p, len - 1,
	    EVBUFFER_PTR_SET) != 0 ||
	    evbuffer_copyout_from(c->in, &p, &last, 1) != 1 || last == '\n')
		return;
	evbuffer_add(c->in, "\n", 1);
}

/* Writes drained: close if that was the last thing to do. */
static void
conn_write_cb(struct conn *c)
{
	if (c->sess.lc != NULL && out_unsent(c) == 0 &&
	    lobby_tx_waits(c->sess.lc))
		lobby_tx_time(c->sess.lc, clock_mono_ns());
	if (c->state == CONN_CLOSING && !c->busy && !c->held &&
	    out_unsent(c) == 0) {
		conn_free(c, c->srv->stopping ? "shutdown" : c->why);
		return;
	}
	/* A streamed reply's part left: the next one. */
	if (c->more_wait && out_unsent(c) == 0) {
		(void)conn_more(c);
		return;
	}
	/* The client caught up: take its requests again. */
	if (!c->reading && !c->busy && c->state == CONN_OPEN &&
	    !conn_output_full(c))
		conn_process(c);
}

/*
 * The socket takes output again: send the rest, and once it is all out,
 * go on (conn_write_cb).  The peer is gone (a send error), or it stopped
 * reading for the write timeout: drop it.
 */
void
conn_write_ev(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;
	int		 rv;

	(void)fd;
	if (what & EV_TIMEOUT) {
		conn_free(c, "write-timeout");
		return;
	}
	if ((rv = out_push(c)) < 0)
		conn_free(c, "error");
	else if (rv == 0)
		conn_write_cb(c);
}

/*
 * The end of the loop's pass: what the lobby wrote each client during it
 * leaves in one send() per client (issue 12 §2), and a client's genmove
 * clock can start from there (lobby_tx_time).
 */
void
conn_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;
	struct conn	*c;

	(void)fd;
	(void)what;
	while ((c = TAILQ_FIRST(&srv->dirty)) != NULL) {
		out_unmark(c);
		if (out_waiting(c) || out_unsent(c) == 0)
			continue;
		if (out_push(c) != 0)
			out_wait(c);	/* an error too: the write event sees it */
		else
			conn_write_cb(c);
	}
}

/* Applies the idle and write timeouts from the current settings. */
void
conn_apply_conf(struct conn *c)
{
	if (out_waiting(c))
		out_wait(c);
	if (c->reading) {
		conn_reading(c, 0);
		conn_reading(c, 1);
	}
}

/* The store's entry points: the sessions' game log (session-store.h). */
static const struct session_store session_store_calls = {
	.failing = store_failing,
	.failing_msg = store_failing_msg,
	.begin = store_game_begin,
	.move = store_move,
	.end = store_game_end_detail,
	.now_ms = clock_mono_ms,
};

/* Sets up a new connection's session: the shared state it uses. */
static void
conn_session(struct conn *c, const char *host, const char *peer)
{
	struct server	*srv = c->srv;

	session_init(&c->sess, c->id, &srv->conf->sc, cmd_table);
	c->sess.store = srv->store;
	c->sess.store_ops = &session_store_calls;
	c->sess.league = srv->league;
	c->sess.lobby = srv->lobby;
	snprintf(c->sess.addr, sizeof c->sess.addr, "%s", host);
	c->sess.anon_prefix = srv->anon;
	c->sess.rtt = conn_rtt;
	c->sess.rtt_arg = c;
	c->sess.regrate = srv->regrate;
	c->sess.lc = lobby_attach(srv->lobby, c, c->id);
	lobby_set_peer(c->sess.lc, peer, srv->anon, &c->sess.bud);
}

/* Opens a connection on an accepted socket from host:port. */
void
conn_new(struct server *srv, evutil_socket_t fd, const char *host, int port,
    int trusted)
{
	struct conn	*c;
	char		 peer[64];
	int		 one = 1;

	c = xcalloc(1, sizeof *c);
	c->srv = srv;
	c->id = ++srv->next_id;
	c->fd = fd;
	snprintf(peer, sizeof peer, "%s:%d", host, port);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	server_keepalive(&srv->conf->sc, fd);
	/* Receive time stamps, for game clocks (conn_recv). */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
	/* No buffer yet: c->in, c->out and wev come when needed (§5). */
	conn_session(c, host, peer);
	proto_answer_init(&c->ans, PROTO_ANSWER_MAX);
	c->trusted = trusted;
	conn_budget_class(c);
	c->line_ms = server_now_ms(srv);
	c->rev = event_new(srv->base, fd, EV_READ | EV_PERSIST, conn_read_ev,
	    c);
	conn_apply_conf(c);
	conn_reading(c, 1);
	TAILQ_INSERT_TAIL(&srv->conns, c, entry);
	srv->nconns++;
	log_info("conn=%llu event=connect peer=%s conns=%zu",
	    (unsigned long long)c->id, peer, srv->nconns);
}
