/*
 * lobby-queue.c: the lobby's lowest file (issue 10): what every other file
 * of the lobby uses to talk to a client and little else.  The output of a
 * client (events, and the server commands it has not answered yet, queued
 * until lobby_answer in lobby.c matches their answers), the output held
 * while one of its commands runs, its watch list, the lobby's clock, and
 * the small parsers of ids and numbers, and a job of the lobby off the
 * loop (lobby_work).
 *
 * It calls no other file of the lobby, so that live games (lobby-game.c),
 * seeks and challenges (lobby-pair.c), tournaments (lobby-tour.c),
 * ratings (lobby-rating.c) and the lobby's life (lobby.c) stack above it
 * without a cycle.
 */

#include <sys/queue.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "lobby/lobby-int.h"

/* Copies a string into a fixed buffer, truncating. */
void
lobby_copy(char *dst, const char *src, size_t size)
{
	snprintf(dst, size, "%s", src);
}

/* Returns the lobby's time now (lobby_set_clock). */
uint64_t
lobby_clock_now(const struct lobby *lb)
{
	return (lb->clock.now(lb->clock.arg));
}

/*
 * Returns the lobby's time now in nanoseconds, the unit of the receive
 * and send stamps (lobby_rx_time, lobby_tx_time): its milliseconds, so
 * at most 1 ms before the stamps of the same moment.
 */
uint64_t
lobby_clock_ns(const struct lobby *lb)
{
	return (lobby_clock_now(lb) * 1000000);
}

/* Writes to a client, or keeps it until its command's reply is out. */
static void
lc_write(struct lobby_client *lc, const char *data, size_t len)
{
	if (lc->holding)
		buf_add(&lc->held, data, len);
	else
		lc->lb->io.send(lc->lb->io.arg, lc->conn, data, len);
}

/*
 * Ends a line begun in b (its prefix) with fmt and a newline, writes it to
 * a client and frees b.
 */
static void
lc_vline(struct lobby_client *lc, struct buf *b, const char *fmt,
    va_list ap)
{
	buf_vprintf(b, fmt, ap);
	buf_putc(b, '\n');
	lc_write(lc, b->data, b->len);
	buf_free(b);
}

/* Sends an event line to a client. */
void __attribute__((format(printf, 2, 3)))
lc_event(struct lobby_client *lc, const char *fmt, ...)
{
	struct buf	 b;
	va_list		 ap;

	buf_init(&b);
	buf_puts(&b, "event ");
	va_start(ap, fmt);
	lc_vline(lc, &b, fmt, ap);
	va_end(ap);
}

/*
 * Sends a line formatted once for many clients (b: "event ...\n"), such
 * as a move to a game's spectators (issue 28 §3).
 */
void
lc_send_line(struct lobby_client *lc, const struct buf *b)
{
	lc_write(lc, b->data, b->len);
}

/* Sends a server command to a client and remembers it until answered. */
void __attribute__((format(printf, 5, 6)))
lc_command(struct lobby_client *lc, enum lcmd_kind kind, int64_t gid,
    uint64_t serial, const char *fmt, ...)
{
	struct lcmd	*c;
	struct buf	 b;
	va_list		 ap;

	if (lc->nout >= LOBBY_MAX_OUT) {
		/* A client that never answers: forget the oldest. */
		c = STAILQ_FIRST(&lc->out);
		STAILQ_REMOVE_HEAD(&lc->out, entry);
		free(c);
		lc->nout--;
	}
	c = xcalloc(1, sizeof *c);
	c->id = ++lc->next_id;
	c->kind = kind;
	c->gid = gid;
	c->serial = serial;
	STAILQ_INSERT_TAIL(&lc->out, c, entry);
	lc->nout++;
	buf_init(&b);
	buf_printf(&b, "%llu ", (unsigned long long)c->id);
	va_start(ap, fmt);
	lc_vline(lc, &b, fmt, ap);
	va_end(ap);
}

/* Parses a game id argument; returns it, or 0. */
int64_t
lobby_gid(const char *s)
{
	char		*end;
	long long	 v;

	if (*s < '0' || *s > '9')
		return (0);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || v <= 0)
		return (0);
	return ((int64_t)v);
}

/* Returns 1 if a token is a plain decimal number. */
int
lobby_isnum(const char *s)
{
	if (*s == '\0')
		return (0);
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return (0);
	return (1);
}

/* Removes a game id from a client's watch list. */
void
lc_unwatch(struct lobby_client *lc, int64_t id)
{
	size_t	 i;

	for (i = 0; i < lc->nwatch; i++)
		if (lc->watch[i] == id) {
			lc->watch[i] = lc->watch[--lc->nwatch];
			return;
		}
}

/*
 * Notes when the client's latest input reached the server's socket, in
 * nanoseconds on the lobby's clock (lobby_set_clock; from the kernel's
 * receive time stamp; 0: unknown), for the clocks of its games (lg_used
 * in lobby-game.c).
 */
void
lobby_rx_time(struct lobby_client *lc, uint64_t ns)
{
	lc->rx_ns = ns;
}

/*
 * Returns 1 if a send stamp of lc would start a clock (lobby_tx_time):
 * the server reads the clock only then, not after every send to every
 * spectator (issue 28 §2).
 */
int
lobby_tx_waits(const struct lobby_client *lc)
{
	const struct lgame *g = lc->game;

	return (!lc->holding && g != NULL && g->tx_wait != 0 &&
	    g->tx_wait == lc->connid);
}

/*
 * Notes when output to the client last left for its socket: nanoseconds
 * on the lobby's clock after the send that emptied what was pending (so
 * everything queued before has left).  The first such stamp after a
 * genmove was queued starts the clock of the game waiting for it
 * (lg_clock_start sets tx_wait to this client's connid); output held
 * while one of its commands runs has not left yet.  It moves the start by
 * at most LOBBY_TX_MAX_MS: output that waits longer waits on the client
 * (its socket is full, it does not read), and that is its time.
 */
void
lobby_tx_time(struct lobby_client *lc, uint64_t ns)
{
	struct lgame	*g = lc->game;
	uint64_t	 max;

	if (!lobby_tx_waits(lc))
		return;
	g->tx_wait = 0;
	max = g->turn_start + (uint64_t)LOBBY_TX_MAX_MS * 1000000;
	if (ns > g->turn_start)
		g->turn_start = ns < max ? ns : max;
}

/* Starts holding what the lobby sends a client while its command runs. */
void
lobby_hold(struct lobby_client *lc)
{
	lc->holding = 1;
}

/* The bytes held for a client (lobby_hold) so far. */
size_t
lobby_held_bytes(const struct lobby_client *lc)
{
	return (lc->held.len);
}

/* Appends what was held to out (after the command's reply) and stops. */
void
lobby_release(struct lobby_client *lc, struct buf *out)
{
	lc->holding = 0;
	if (lc->held.len > 0)
		buf_add(out, lc->held.data, lc->held.len);
	buf_reset(&lc->held);
	if (lc->held.cap > 65536)
		buf_free(&lc->held);
}

/*
 * Runs work(arg) on a worker, then done(arg) on the loop (lb->io.work);
 * without workers, work then done at once.
 */
void
lobby_work(struct lobby *lb, void (*work)(void *), void (*done)(void *),
    void *arg)
{
	if (lb->io.work != NULL)
		lb->io.work(lb->io.arg, work, done, arg);
	else {
		work(arg);
		done(arg);
	}
}
