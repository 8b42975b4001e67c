/*
 * server-out.c: a connection's output that the socket has not taken yet,
 * and the list of connections whose output waits for the end of the
 * loop's pass (issue 12 §2).
 *
 * Output goes straight to the socket when nothing is queued; only what
 * the socket does not take, and what the lobby sends a client during a
 * pass (conn_post), is kept, in c->out, allocated when needed and given
 * back once sent (issue 12 §5: an idle connection holds no buffer).  A
 * connection with output in c->out is either marked (dirty: conn_flush_cb
 * sends it once at the end of the pass, so that a client gets one send()
 * per pass however many lines the lobby wrote it) or waiting (wev: the
 * socket was full; the write event sends the rest when it drains, and
 * drops the client if it does not within the write timeout).
 *
 * An idle connection also gives back its input buffer and its session's
 * reply buffer (out_idle_free).
 *
 * These are the mechanics only: what to do when the output drained or
 * failed is the connection's business (server-conn.c, whose write event
 * the server hands in as srv->write_ev).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "lib/clock.h"
#include "lobby/lobby.h"
#include "lib/log.h"
#include "server/server-int.h"

/* A drained buffer up to this size is kept for the next pass. */
#define OUT_KEEP	1024
/* Output the lobby leaves for the end of the pass goes out at this size. */
#define OUT_BATCH	16384

static void	 out_mark(struct conn *);

/* Returns the number of bytes not handed to the socket yet. */
size_t
out_unsent(const struct conn *c)
{
	return (c->out.len - c->out_off);
}

/* Returns 1 if the output waits for the socket to drain (wev added). */
int
out_waiting(const struct conn *c)
{
	return (c->wev != NULL && event_pending(c->wev, EV_WRITE, NULL));
}

/*
 * Appends data to what is unsent.  The sent part in front is dropped once
 * it is at least as long as the unsent rest (each byte moves at most once
 * on average), so the buffer stays within twice the unsent bytes.
 */
void
out_add(struct conn *c, const char *data, size_t len)
{
	size_t	 left = out_unsent(c);

	if (c->out_off > 0 && c->out_off >= left) {
		memmove(c->out.data, c->out.data + c->out_off, left);
		c->out.len = left;
		c->out_off = 0;
	}
	buf_add(&c->out, data, len);
}

/* The output is all sent: gives back its memory and the write event. */
static void
out_drained(struct conn *c)
{
	c->out_off = 0;
	if (c->out.cap > OUT_KEEP)
		buf_free(&c->out);
	else
		buf_reset(&c->out);
	if (c->wev != NULL) {
		event_free(c->wev);
		c->wev = NULL;
	}
}

/*
 * Hands the unsent output to the socket with one send().  Returns 0 when
 * all of it is sent (the buffer is then given back), 1 when some is left
 * (the socket is full), -1 on an error of the socket (errno).
 */
int
out_push(struct conn *c)
{
	ssize_t	 n;

	if (out_unsent(c) > 0) {
		n = send(c->fd, c->out.data + c->out_off, out_unsent(c),
		    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)
			return (-1);
		if (n > 0)
			c->out_off += (size_t)n;
	}
	if (out_unsent(c) > 0)
		return (1);
	out_drained(c);
	return (0);
}

/*
 * Waits for the socket to take the rest: the server's write_ev runs when
 * it is writable, or with EV_TIMEOUT when it has not been for the write
 * timeout (idle-timeout: the slow reader's drop).  Called again, re-arms
 * the timeout.
 */
void
out_wait(struct conn *c)
{
	struct timeval	 tv;

	if (c->wev == NULL) {
		log_debug("conn=%llu event=output-wait unsent=%zu",
		    (unsigned long long)c->id, out_unsent(c));
		c->wev = event_new(c->srv->base, c->fd, EV_WRITE | EV_PERSIST,
		    c->srv->write_ev, c);
	}
	tv.tv_sec = c->srv->conf->idle_timeout;
	tv.tv_usec = 0;
	event_add(c->wev, &tv);
}

/*
 * Hands the unsent output to the socket now (off the end-of-pass list):
 * when all of it went, the lobby notes the time (a genmove's clock starts
 * there); what is left waits for the socket.
 */
void
out_send(struct conn *c)
{
	out_unmark(c);
	if (out_push(c) != 0)
		out_wait(c);	/* an error too: the write event sees it */
	else if (c->sess.lc != NULL && lobby_tx_waits(c->sess.lc))
		lobby_tx_time(c->sess.lc, clock_mono_ns());
}

/*
 * The lobby's output to a client: kept until the end of the loop's pass
 * (conn_flush_cb), so that what it writes a client in one pass (a play
 * and the next genmove; event start, new and genmove) leaves in one
 * send().  Returns -1 if the unread output is now over the cap.
 */
int
out_post(struct conn *c, const char *data, size_t len)
{
	if (len > 0)
		out_add(c, data, len);
	/* Waiting for the socket, the write event sends it. */
	if (len > 0 && !out_waiting(c)) {
		if (out_unsent(c) < OUT_BATCH)
			out_mark(c);
		else
			out_send(c);	/* together, but not unboundedly */
	}
	return (conn_charge(c, BUDGET_OUTPUT, out_unsent(c), NULL));
}

/* Marks a connection's output for the end of the loop's pass. */
static void
out_mark(struct conn *c)
{
	struct server	*srv = c->srv;

	if (c->dirty)
		return;
	if (TAILQ_EMPTY(&srv->dirty))
		event_active(srv->flushev, EV_TIMEOUT, 0);
	c->dirty = 1;
	TAILQ_INSERT_TAIL(&srv->dirty, c, dirty_entry);
}

/* Takes a connection off the end-of-pass list. */
void
out_unmark(struct conn *c)
{
	if (!c->dirty)
		return;
	TAILQ_REMOVE(&c->srv->dirty, c, dirty_entry);
	c->dirty = 0;
}

/* Frees what the output holds (the unsent bytes are dropped). */
void
out_free(struct conn *c)
{
	out_unmark(c);
	if (c->wev != NULL)
		event_free(c->wev);
	c->wev = NULL;
	buf_free(&c->out);
	c->out_off = 0;
}

/*
 * Returns 1 if a connection that has nothing to do holds buffers: its
 * input buffer, its output buffer, its session's reply buffer.
 */
int
out_idle(const struct conn *c)
{
	return ((c->in != NULL && evbuffer_get_length(c->in) == 0 &&
	    !c->discard) || (c->out.data != NULL && out_unsent(c) == 0) ||
	    c->sess.body.data != NULL);
}

/*
 * Gives back the buffers of a connection that has been quiet for
 * OUT_IDLE_MS (issue 12 §5): they come back with its next request, and
 * until then an idle connection costs its structures only.  Not on every
 * request: allocating them again each time costs more than it saves.
 */
void
out_idle_free(struct conn *c)
{
	if (c->busy || !out_idle(c))
		return;
	log_debug("conn=%llu event=idle-free", (unsigned long long)c->id);
	if (c->in != NULL && evbuffer_get_length(c->in) == 0 && !c->discard) {
		evbuffer_free(c->in);
		c->in = NULL;
	}
	if (out_unsent(c) == 0 && !c->dirty)
		out_free(c);
	buf_free(&c->sess.body);
}
