/*
 * bot-chan.c: the logs of `grundy bot`, its connection's life cycle (one
 * setter, bot_link_set) and its byte streams: lines taken from what a
 * channel read, answer blocks fed, non-blocking reads and writes
 * (bot-int.h).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/bot-int.h"
#include "lib/log.h"
#include "lib/util.h"

/* Returns monotonic milliseconds. */
uint64_t
bot_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Logs a message to stderr with the "bot: " prefix (bot_warn: a warning). */
void __attribute__((format(printf, 1, 2)))
bot_log(const char *fmt, ...)
{
	va_list	 ap;

	fputs("bot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Changes the connection's life cycle; logs old -> new (debug). */
void
bot_link_set(struct bot *b, enum bot_link l)
{
	static const char *const names[] = {
		[BOT_LINK_UP] = "up",
		[BOT_LINK_LOCKED] = "locked",
		[BOT_LINK_WAIT_LOCK] = "wait-lock",
		[BOT_LINK_DOWN] = "down",
		[BOT_LINK_REDIRECT] = "redirect",
	};

	if (b->link != l)
		log_debug("bot=%s link %s -> %s", b->name,
		    ENUM_NAME(names, b->link, "unknown"),
		    ENUM_NAME(names, l, "unknown"));
	b->link = l;
}

/* Returns 1 if the connection is closed (lost, or waiting out a lock). */
int
bot_down(const struct bot *b)
{
	return (b->link == BOT_LINK_WAIT_LOCK || b->link == BOT_LINK_DOWN);
}

/* Sets O_NONBLOCK on fd. */
void
bot_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Copies at most BOT_LOG_MAX bytes of s for a log line. */
const char *
bot_short(const char *s, char *tmp, size_t len)
{
	size_t	 n = strlen(s);

	if (n < len && n <= BOT_LOG_MAX)
		return (s);
	snprintf(tmp, len, "%.*s...", (int)(len - 4 < BOT_LOG_MAX ?
	    len - 4 : BOT_LOG_MAX), s);
	return (tmp);
}

/*
 * Takes the next complete line out of ch->in into line, without its LF
 * and a CR before it.  Returns 1 for a line, 0 when more bytes are
 * needed, or -1 for a line over BOT_LINE_MAX: line then holds its first
 * bytes and the rest is dropped as it arrives.
 */
int
bot_take_line(struct bot_chan *ch, struct buf *line)
{
	char	*p, *nl;
	size_t	 avail, n;
	int	 rv = 0;

	for (;;) {
		p = ch->in.data + ch->in_off;
		avail = ch->in.len - ch->in_off;
		nl = avail > 0 ? memchr(p, '\n', avail) : NULL;
		if (ch->skip) {
			if (nl == NULL) {
				ch->in_off = ch->in.len;
				break;
			}
			ch->in_off += (size_t)(nl - p) + 1;
			ch->skip = 0;
			continue;
		}
		n = nl != NULL ? (size_t)(nl - p) : avail;
		if (n > BOT_LINE_MAX) {
			buf_reset(line);
			buf_add(line, p, 64);
			if (nl != NULL)
				ch->in_off += n + 1;
			else {
				ch->in_off = ch->in.len;
				ch->skip = 1;
			}
			rv = -1;
			break;
		}
		if (nl == NULL)
			break;
		buf_reset(line);
		buf_add(line, p, n);
		if (n > 0 && line->data[n - 1] == '\r')
			line->data[--line->len] = '\0';
		ch->in_off += n + 1;
		rv = 1;
		break;
	}
	if (ch->in_off == ch->in.len) {
		buf_reset(&ch->in);
		ch->in_off = 0;
	} else if (ch->in_off > 65536) {
		memmove(ch->in.data, ch->in.data + ch->in_off,
		    ch->in.len - ch->in_off + 1);
		ch->in.len -= ch->in_off;
		ch->in_off = 0;
	}
	return (rv);
}

/*
 * Takes every complete line from ch and hands it to fn (b, the line, its
 * length, and whether it was cut) as long as more(b) holds (NULL: always).
 */
void
bot_each_line(struct bot *b, struct bot_chan *ch,
    int (*more)(const struct bot *),
    void (*fn)(struct bot *, char *, size_t, int))
{
	struct buf	 line;
	int		 rv;

	buf_init(&line);
	while ((more == NULL || more(b)) &&
	    (rv = bot_take_line(ch, &line)) != 0)
		fn(b, line.data, line.len, rv < 0);
	buf_free(&line);
}

/*
 * Feeds a line to the answer block a (proto_answer_feed); when the line
 * ends the block, calls done(b) and resets a.  Returns 1 if the line was
 * part of an answer, 0 if it is no answer.
 */
int
bot_feed(struct bot *b, struct proto_answer *a, char *line, size_t len,
    int cut, void (*done)(struct bot *))
{
	switch (proto_answer_feed(a, line, len, cut)) {
	case PROTO_IN_BLOCK:
		return (1);
	case PROTO_BLOCK_DONE:
		done(b);
		proto_answer_reset(a);
		return (1);
	case PROTO_NOT_ANSWER:
		break;
	}
	return (0);
}

/* Returns the number of bytes queued on a channel. */
size_t
bot_pending(const struct bot_chan *ch)
{
	return (ch->out.len - ch->out_off);
}

/* Flattens an answer's body into one log line. */
const char *
bot_flat(const struct proto_answer *a, char *tmp, size_t len)
{
	size_t		 i, n = 0;
	const char	*s = a->body.data != NULL ? a->body.data : "";

	for (i = 0; s[i] != '\0' && n + 3 < len && n < BOT_LOG_MAX; i++) {
		if (s[i] == '\n') {
			tmp[n++] = ',';
			tmp[n++] = ' ';
		} else
			tmp[n++] = s[i];
	}
	tmp[n] = '\0';
	return (tmp);
}

/* Reads what is there from a channel into its input buffer; -1 at EOF. */
int
bot_read(struct bot_chan *ch)
{
	char	 buf[65536];
	ssize_t	 n;

	n = read(ch->rfd, buf, sizeof buf);
	if (n > 0) {
		buf_add(&ch->in, buf, (size_t)n);
		return (0);
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return (0);
	return (-1);
}

/* Writes what a channel can take; -1 on a closed peer. */
int
bot_write(struct bot_chan *ch, int sock)
{
	ssize_t	 n;

	if (sock)
		n = send(ch->wfd, ch->out.data + ch->out_off, bot_pending(ch),
		    MSG_NOSIGNAL);
	else
		n = write(ch->wfd, ch->out.data + ch->out_off,
		    bot_pending(ch));
	if (n < 0)
		return (errno == EAGAIN || errno == EINTR ? 0 : -1);
	ch->out_off += (size_t)n;
	if (ch->out_off == ch->out.len) {
		buf_reset(&ch->out);
		ch->out_off = 0;
	}
	return (0);
}
