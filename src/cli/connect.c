/*
 * connect.c: `grundy connect [--pipe] [--raw] [HOST:PORT]`.  On a terminal it is an
 * interactive prompt with line editing that shows what the server sends as
 * it arrives and plays the player role with the user (connect-term.c).
 * With --pipe, or when stdin is not a terminal, it streams stdin to the
 * server and the replies to stdout (pipelined), half-closes at EOF and
 * exits when the server has answered everything; --raw prints only the
 * replies' bodies (a record file, a CSV export as they are).
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/chan.h"
#include "cli/connect.h"
#include "proto/proto.h"

/* Splits HOST:PORT or [V6]:PORT; returns 0 or -1. */
static int
connect_split(const char *arg, char *host, size_t hlen, char *port,
    size_t plen)
{
	const char	*colon;

	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');

		if (end == NULL || end[1] != ':')
			return (-1);
		snprintf(host, hlen, "%.*s", (int)(end - arg - 1), arg + 1);
		snprintf(port, plen, "%s", end + 2);
		return (0);
	}
	if ((colon = strrchr(arg, ':')) == NULL) {
		snprintf(host, hlen, "%s", arg);
		snprintf(port, plen, "7559");
		return (0);
	}
	snprintf(host, hlen, "%.*s", (int)(colon - arg), arg);
	snprintf(port, plen, "%s", colon + 1);
	return (0);
}

/*
 * Connects to host:port (blocking; the socket is closed on exec).  Returns
 * the socket; or -1 when the name does not resolve, -2 when no address
 * takes the connection, with why set (gai_strerror, or the last errno's
 * strerror).  `grundy connect` and `grundy bot` dial with it.
 *
 * The socket has TCP_NODELAY: a client often sends two small writes
 * before the server answers (`grundy bot` relays the program's answer to
 * play, then its answer to genmove), and Nagle's algorithm would hold the
 * second until the server's delayed ACK of the first, 40 ms on Linux
 * (BENCHMARKS.md §18).
 */
static int
connect_dial(const char *host, const char *port, char *why, size_t len)
{
	return (connect_dial_ms(host, port, -1, why, len));
}

/*
 * Connects fd to addr within ms milliseconds (-1: as long as the kernel
 * tries); returns 0, or -1 with errno set (ETIMEDOUT for the deadline).
 * fd is left blocking.
 */
static int
connect_within(int fd, const struct sockaddr *addr, socklen_t alen, int ms)
{
	struct pollfd	 pfd;
	socklen_t	 elen = sizeof(int);
	int		 flags = fcntl(fd, F_GETFL), rv, err = 0;

	if (ms < 0)
		return (connect(fd, addr, alen));
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	if ((rv = connect(fd, addr, alen)) != 0 && errno == EINPROGRESS) {
		pfd.fd = fd;
		pfd.events = POLLOUT;
		while ((rv = poll(&pfd, 1, ms)) == -1 && errno == EINTR)
			;
		if (rv == 0)
			err = ETIMEDOUT;
		else if (rv < 0)
			err = errno;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0)
			err = errno;
		rv = err != 0 ? -1 : 0;
	} else if (rv != 0)
		err = errno;
	fcntl(fd, F_SETFL, flags);
	errno = err;
	return (rv);
}

/*
 * connect_dial, each address given at most ms milliseconds (-1: the
 * kernel's own timeout): `grundy bot` takes a node that does not answer
 * within --dial-timeout as gone.
 */
int
connect_dial_ms(const char *host, const char *port, int ms, char *why,
    size_t len)
{
	struct addrinfo	 hints, *res, *ai;
	int		 fd = -1, e, saved = 0, one = 1;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(host, port, &hints, &res)) != 0) {
		snprintf(why, len, "%s", gai_strerror(e));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol)) == -1) {
			saved = errno;
			continue;
		}
		if (connect_within(fd, ai->ai_addr, ai->ai_addrlen, ms) == 0) {
			/* Best effort: without it only speed suffers. */
			(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
			    sizeof one);
			break;
		}
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		if (saved == ETIMEDOUT && ms >= 0)
			snprintf(why, len, "no answer within %d ms", ms);
		else
			snprintf(why, len, "%s", strerror(saved));
		return (-2);
	}
	return (fd);
}

/* Connects to host:port; returns the socket or -1. */
static int
connect_open(const char *host, const char *port)
{
	char	 why[256];
	int	 fd;

	if ((fd = connect_dial(host, port, why, sizeof why)) == -1)
		fprintf(stderr, "grundy: %s:%s: %s\n", host, port, why);
	else if (fd == -2)
		fprintf(stderr, "grundy: cannot connect to %s:%s\n", host,
		    port);
	return (fd < 0 ? -1 : fd);
}

/*
 * --raw: the replies' bodies without the framing.  A success's first line
 * loses its "=" (and id) and one space, the empty line that ends a reply
 * is dropped, so that `record ID format=file` gives the record file and
 * `export ...` a CSV that starts with its header.  A failure ("?" and the
 * lines up to its empty line) and any line outside a reply (an event) go
 * to stderr as they are; a failure makes the exit status 1.
 */
struct rawout {
	struct buf	 part;		/* a line not complete yet */
	int		 in_reply;	/* inside a reply's lines */
	int		 err;		/* that reply is a failure */
	int		 failed;	/* a failure was seen */
};

/* Takes one complete line of the server's (without its LF). */
static void
rawout_line(struct rawout *r, const char *line)
{
	const char	*body;
	int		 ok, has_id;
	unsigned long	 id;

	if (!r->in_reply && proto_answer_head(line, &ok, &has_id, &id,
	    &body)) {
		r->in_reply = 1;
		r->err = !ok;
		if (!ok) {
			r->failed = 1;
			fprintf(stderr, "%s\n", line);
			return;
		}
		body = line + 1 + strspn(line + 1, "0123456789");
		if (*body == ' ')
			body++;
		if (*body != '\0')
			printf("%s\n", body);
		return;
	}
	if (line[0] == '\0') {
		r->in_reply = 0;
		return;
	}
	fprintf(r->in_reply && !r->err ? stdout : stderr, "%s\n", line);
}

/* Takes what the server sent: its complete lines now, the rest later. */
static void
rawout_feed(struct rawout *r, const char *data, size_t len)
{
	char	*p, *nl;

	buf_add(&r->part, data, len);
	p = r->part.data;
	while ((nl = memchr(p, '\n', r->part.len - (size_t)(p -
	    r->part.data))) != NULL) {
		*nl = '\0';
		rawout_line(r, p);
		p = nl + 1;
	}
	len = r->part.len - (size_t)(p - r->part.data);
	memmove(r->part.data, p, len);
	r->part.len = len;
}

/*
 * Streams stdin to the server and replies to stdout until both are done.
 * Replies are read whenever they arrive, so a large batch never makes the
 * server wait on us; stdin is read only while little is queued to send.
 * Returns 1 if the server closed before stdin was all sent, or with raw
 * when a reply was a failure.
 */
static int
connect_pipe(int fd, int raw)
{
	struct pollfd	 pfd[2];
	struct rawout	 ro;
	struct chan	 sc;
	char		 buf[65536];
	ssize_t		 n;
	int		 in_open = 1, shut = 0, rv = 1;

	memset(&ro, 0, sizeof ro);
	buf_init(&ro.part);
	chan_init(&sc);
	chan_open(&sc, fd);
	for (;;) {
		if (!in_open && chan_pending(&sc) == 0 && !shut) {
			shutdown(fd, SHUT_WR);
			shut = 1;
		}
		pfd[0].fd = in_open && chan_pending(&sc) < 65536 ? 0 : -1;
		pfd[0].events = POLLIN;
		pfd[1].fd = fd;
		pfd[1].events = POLLIN | (chan_pending(&sc) > 0 ? POLLOUT : 0);
		if (poll(pfd, 2, -1) < 0)
			break;
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (chan_read(&sc) != 0) {
				rv = in_open || chan_pending(&sc) > 0;
				break;
			}
			if (sc.in.len > 0 && raw) {
				rawout_feed(&ro, sc.in.data, sc.in.len);
				fflush(stdout);
				buf_reset(&sc.in);
			} else if (sc.in.len > 0) {
				fwrite(sc.in.data, 1, sc.in.len, stdout);
				fflush(stdout);
				buf_reset(&sc.in);
			}
		}
		/* A failed send shows as the end of the reads. */
		if ((pfd[1].revents & POLLOUT) && chan_pending(&sc) > 0)
			(void)chan_write(&sc);
		if (pfd[0].fd == 0 && (pfd[0].revents & (POLLIN | POLLHUP))) {
			if ((n = read(0, buf, sizeof buf)) <= 0)
				in_open = 0;
			else
				buf_add(&sc.out, buf, (size_t)n);
		}
	}
	chan_free(&sc);
	if (ro.part.len > 0) {
		buf_putc(&ro.part, '\0');
		rawout_line(&ro, ro.part.data);
	}
	buf_free(&ro.part);
	return (rv != 0 || ro.failed);
}

/* Runs `grundy connect`; argv holds the arguments after "connect". */
int
connect_main(int argc, char **argv)
{
	char		 host[256], port[32], where[300];
	const char	*addr = "127.0.0.1:7559";
	int		 a, fd, pipe_mode = !isatty(0), raw = 0, rv;

	for (a = 0; a < argc; a++) {
		if (strcmp(argv[a], "--help") == 0) {
			printf("usage: grundy connect [--pipe] [--raw] "
			    "[HOST:PORT]\n"
			    "Talks to grundyd at HOST:PORT (default "
			    "127.0.0.1:7559): a prompt on a terminal;\n"
			    "--pipe (the default when stdin is not a "
			    "terminal) streams stdin and prints\n"
			    "the replies; --raw (implies --pipe) prints "
			    "only their bodies, without the\n"
			    "'= ' and the empty line, failures and events "
			    "on stderr (exit status 1 on a\n"
			    "failure): echo 'record 5 format=file' | "
			    "grundy connect --raw > game.grec.\n"
			    "At the prompt ('help' there), what the server "
			    "sends (replies, events of a\n"
			    "watched game) shows as it arrives; in a game, "
			    "new, play and gameover are\n"
			    "answered for you, and a genmove shows the "
			    "position and both clocks: type\n"
			    "your move (such as 1=0) or 'resign'.  Line "
			    "editing, history in\n"
			    "~/.grundy_history (not lines with passwords).  "
			    "See grundy(1).\n");
			return (0);
		}
		if (strcmp(argv[a], "--pipe") == 0)
			pipe_mode = 1;
		else if (strcmp(argv[a], "--raw") == 0)
			pipe_mode = raw = 1;
		else if (argv[a][0] == '-') {
			fprintf(stderr, "grundy connect: unknown option "
			    "'%s'\n", argv[a]);
			return (2);
		} else
			addr = argv[a];
	}
	if (connect_split(addr, host, sizeof host, port, sizeof port) != 0) {
		fprintf(stderr, "grundy: '%s': expected HOST:PORT\n", addr);
		return (2);
	}
	if ((fd = connect_open(host, port)) == -1)
		return (1);
	snprintf(where, sizeof where, "%s:%s", host, port);
	rv = pipe_mode ? connect_pipe(fd, raw) : connect_term(fd, where);
	close(fd);
	return (rv);
}
