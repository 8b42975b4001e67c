/*
 * bot.c: `grundy bot`, which plays a player program on grundyd
 * (proto/PROTOCOL.md §13).  The program speaks the engine side of GTP on
 * its stdin and stdout (new, play, genmove, gameover, with clock tokens).
 * The bot logs in, offers itself (ready, seek, accept), relays every
 * server command to the program as it is and the program's answer block
 * back, and resumes a game with its token after a dropped connection.
 *
 * Two queues keep the answers apart, both in order because GTP answers
 * are: own[] holds the bot's own commands (ids from BOT_FIRST_ID) whose
 * answers come from the server; fwd[] holds the server commands the
 * program has still to answer.  Every connection has a generation, so an
 * answer the program gives after the connection dropped is not sent on
 * the next one.  All I/O is non-blocking around one poll().
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "buf.h"
#include "connect.h"

#define BOT_LINE_MAX	(1024 * 1024)	/* longest line from either side */
#define BOT_OUT_MAX	(4 * 1024 * 1024) /* queued bytes: stop reading */
#define BOT_QUEUE_MAX	256		/* commands awaiting an answer */
#define BOT_FIRST_ID	1001		/* ids of the bot's own commands */
#define BOT_RESUME_MS	60000		/* how long to try to reconnect */
#define BOT_PING_MS	240000		/* keep-alive, below idle-timeout */
#define BOT_FINISH_MS	10000		/* wait for the last answers */
#define BOT_LOG_MAX	400		/* bytes of a line shown in logs */
#define BOT_ID_MAX	24		/* bytes of a GTP id, with its NUL */
#define BOT_TOKEN_MAX	256		/* bytes of a resume token */
#define BOT_GAME_MAX	32		/* bytes of a game id */

/* The bot's own commands, whose answers come from the server. */
enum bot_kind {
	BOT_REGISTER,
	BOT_LOGIN,
	BOT_READY,
	BOT_SEEK,
	BOT_ACCEPT,
	BOT_RESUME,
	BOT_PING,
};

/* One of the bot's commands awaiting the server's answer. */
struct bot_own {
	unsigned long	 id;
	enum bot_kind	 kind;
};

/* One server command awaiting the program's answer. */
struct bot_fwd {
	char		 id[BOT_ID_MAX];
	unsigned long	 gen;		/* the connection it came on */
	const char	*canned;	/* answer it ourselves with this error */
};

/* One byte stream: lines in, bytes out. */
struct bot_chan {
	int		 rfd, wfd;	/* -1 when closed */
	struct buf	 in;		/* read, not yet taken as lines */
	size_t		 in_off;
	int		 skip;		/* dropping an overlong line's rest */
	struct buf	 out;		/* to write */
	size_t		 out_off;
};

struct bot {
	/* Options. */
	const char	*server;
	const char	*name;
	const char	*password;
	const char	*seek;
	int		 do_register;
	int		 accept;
	int		 ready;
	unsigned long	 games;		/* 0: play forever */
	unsigned long	 reconnect_ms;
	char		**prog;
	char		 host[256], port[32];

	/* The program, and the server connection. */
	pid_t		 pid;
	struct bot_chan	 pc;		/* program: rfd its stdout, wfd stdin */
	struct bot_chan	 sc;		/* server socket: rfd == wfd */
	unsigned long	 gen;		/* connection generation */
	int		 down;		/* lost, reconnecting */
	uint64_t	 down_since, next_try, last_send;

	/* Answer queues and the blocks being read. */
	struct bot_own	 own[BOT_QUEUE_MAX];
	size_t		 nown;
	unsigned long	 next_id;
	struct bot_fwd	 fwd[BOT_QUEUE_MAX];
	size_t		 nfwd;
	struct buf	 sans;		/* server answer block */
	int		 in_sans;
	struct buf	 pans;		/* program answer block */
	int		 in_pans;
	int		 warned_id;

	/* Games. */
	int		 logged_in;
	int		 in_game;
	char		 game_id[BOT_GAME_MAX];
	char		 token[BOT_TOKEN_MAX];
	unsigned long	 done;		/* games finished */
	int		 finishing;	/* enough games: leave when answered */
	uint64_t	 finish_by;
};

/* Returns monotonic milliseconds. */
static uint64_t
bot_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Logs a message to stderr with the "bot: " prefix. */
static void __attribute__((format(printf, 1, 2)))
bot_log(const char *fmt, ...)
{
	va_list	 ap;

	fputs("bot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Prints usage: to stdout with status 0 (--help), else to stderr. */
static void __attribute__((noreturn))
bot_usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: grundy bot --server HOST:PORT --name NAME --password PASS\n"
	    "           [--register] [--seek 'GAME [tc=BASE[+INC]] "
	    "[rated=0|1] [random=1]']\n"
	    "           [--games N] [--accept] [--no-ready] "
	    "[--reconnect-ms MS]\n"
	    "           -- PROGRAM [ARG...]\n"
	    "Defaults: --games unlimited, --reconnect-ms 500, ready on; "
	    "see grundy(1).\n");
	exit(status);
}

/* Closes the program's stdin, waits a little for it, then kills it. */
static void
bot_stop_program(struct bot *b)
{
	int	 i, status;

	if (b->pc.wfd != -1)
		close(b->pc.wfd);
	b->pc.wfd = -1;
	if (b->pid <= 0)
		return;
	for (i = 0; i < 100; i++) {
		if (waitpid(b->pid, &status, WNOHANG) != 0)
			goto reaped;
		usleep(10000);
	}
	kill(b->pid, SIGTERM);
	waitpid(b->pid, &status, 0);
reaped:
	b->pid = -1;
}

/* Prints a fatal error, stops the program and exits 1. */
static void __attribute__((noreturn, format(printf, 2, 3)))
bot_fatal(struct bot *b, const char *fmt, ...)
{
	va_list	 ap;

	fputs("grundy bot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (b->sc.rfd != -1)
		close(b->sc.rfd);
	bot_stop_program(b);
	exit(1);
}

/* Reaps the program after it closed its stdout or stdin, and exits 1. */
static void __attribute__((noreturn))
bot_program_died(struct bot *b)
{
	int	 status;

	if (b->pc.wfd != -1)
		close(b->pc.wfd);
	b->pc.wfd = -1;
	if (b->pid > 0 && waitpid(b->pid, &status, 0) == b->pid) {
		b->pid = -1;
		if (WIFEXITED(status))
			bot_fatal(b, "%s exited with status %d", b->prog[0],
			    WEXITSTATUS(status));
		if (WIFSIGNALED(status))
			bot_fatal(b, "%s was killed by signal %d", b->prog[0],
			    WTERMSIG(status));
	}
	bot_fatal(b, "%s closed its output", b->prog[0]);
}

/* Parses a decimal option value in [min, max] or exits 2. */
static unsigned long
bot_number(const char *opt, const char *s, unsigned long min,
    unsigned long max)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end != '\0' || errno != 0 ||
	    v < min || v > max) {
		fprintf(stderr, "grundy bot: %s '%s': expected a number from "
		    "%lu to %lu\n", opt, s, min, max);
		exit(2);
	}
	return (v);
}

/* Refuses an option value that would break the line protocol. */
static const char *
bot_word(const char *opt, const char *s, int spaces)
{
	const char	*p;

	if (*s == '\0')
		goto bad;
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 32 || *p == 127 || *p == '#' ||
		    (!spaces && *p == ' '))
			goto bad;
	return (s);
bad:
	fprintf(stderr, "grundy bot: %s: must be non-empty, without control "
	    "characters or '#'%s\n", opt, spaces ? "" : " or spaces");
	exit(2);
}

/* Parses the options; returns 0 or exits 2. */
static void
bot_options(struct bot *b, int argc, char **argv)
{
	int	 a;

	for (a = 0; a < argc; a++) {
		if (strcmp(argv[a], "--") == 0) {
			a++;
			break;
		}
		if (strcmp(argv[a], "--help") == 0)
			bot_usage(0);
		if (strcmp(argv[a], "--register") == 0)
			b->do_register = 1;
		else if (strcmp(argv[a], "--accept") == 0)
			b->accept = 1;
		else if (strcmp(argv[a], "--no-ready") == 0)
			b->ready = 0;
		else if (strncmp(argv[a], "--", 2) != 0 || a + 1 >= argc) {
			fprintf(stderr, "grundy bot: %s '%s'\n", a + 1 >= argc ?
			    "missing value or unknown option" :
			    "unknown option", argv[a]);
			bot_usage(2);
		} else if (strcmp(argv[a], "--server") == 0)
			b->server = argv[++a];
		else if (strcmp(argv[a], "--name") == 0)
			b->name = bot_word("--name", argv[++a], 0);
		else if (strcmp(argv[a], "--password") == 0)
			b->password = bot_word("--password", argv[++a], 0);
		else if (strcmp(argv[a], "--seek") == 0)
			b->seek = bot_word("--seek", argv[++a], 1);
		else if (strcmp(argv[a], "--games") == 0) {
			b->games = bot_number(argv[a], argv[a + 1], 1,
			    1000000000);
			a++;
		} else if (strcmp(argv[a], "--reconnect-ms") == 0) {
			b->reconnect_ms = bot_number(argv[a], argv[a + 1], 1,
			    BOT_RESUME_MS);
			a++;
		} else {
			fprintf(stderr, "grundy bot: unknown option '%s'\n",
			    argv[a]);
			bot_usage(2);
		}
	}
	if (b->server == NULL || b->name == NULL || b->password == NULL ||
	    a >= argc) {
		fprintf(stderr, "grundy bot: --server, --name, --password and "
		    "'-- PROGRAM' are required\n");
		bot_usage(2);
	}
	b->prog = argv + a;
	if (connect_split(b->server, b->host, sizeof b->host, b->port,
	    sizeof b->port) != 0) {
		fprintf(stderr, "grundy bot: '%s': expected HOST:PORT\n",
		    b->server);
		exit(2);
	}
}

/* Sets O_NONBLOCK on fd. */
static void
bot_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Starts the program with pipes to its stdin and stdout. */
static void
bot_spawn(struct bot *b)
{
	int	 in[2], out[2];

	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		bot_fatal(b, "pipe: %s", strerror(errno));
	fflush(stderr);
	if ((b->pid = fork()) == -1)
		bot_fatal(b, "fork: %s", strerror(errno));
	if (b->pid == 0) {
		if (dup2(in[0], 0) == -1 || dup2(out[1], 1) == -1)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execvp(b->prog[0], b->prog);
		fprintf(stderr, "grundy bot: %s: %s\n", b->prog[0],
		    strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	b->pc.wfd = in[1];
	b->pc.rfd = out[0];
	bot_nonblock(b->pc.wfd);
	bot_nonblock(b->pc.rfd);
}

/* Connects to the server; returns the socket, or -1 with why set. */
static int
bot_dial(struct bot *b, char *why, size_t len)
{
	struct addrinfo	 hints, *res, *ai;
	int		 fd = -1, e, saved = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(b->host, b->port, &hints, &res)) != 0) {
		snprintf(why, len, "%s", gai_strerror(e));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol)) == -1) {
			saved = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1)
		snprintf(why, len, "%s", strerror(saved));
	else
		bot_nonblock(fd);
	return (fd);
}

/* Copies at most BOT_LOG_MAX bytes of s for a log line. */
static const char *
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
static int
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

/* Returns the number of bytes queued on a channel. */
static size_t
bot_pending(const struct bot_chan *ch)
{
	return (ch->out.len - ch->out_off);
}

/* Sends one of the bot's own commands with a fresh id; text has no LF. */
static void
bot_send(struct bot *b, enum bot_kind kind, const char *text)
{
	if (b->down || b->sc.wfd == -1)
		return;
	if (b->nown == BOT_QUEUE_MAX)
		bot_fatal(b, "the server does not answer (%d commands "
		    "pending)", BOT_QUEUE_MAX);
	b->own[b->nown].id = b->next_id;
	b->own[b->nown].kind = kind;
	b->nown++;
	buf_printf(&b->sc.out, "%lu %s\n", b->next_id++, text);
	b->last_send = bot_now();
}

/* Sends `seek` with the --seek argument. */
static void
bot_send_seek(struct bot *b)
{
	struct buf	 t;

	buf_init(&t);
	buf_printf(&t, "seek %s", b->seek);
	bot_send(b, BOT_SEEK, buf_str(&t));
	buf_free(&t);
}

/* Logs in on a new connection, resumes the game, offers the bot again. */
static void
bot_hello(struct bot *b, int first)
{
	struct buf	 t;

	buf_init(&t);
	if (first && b->do_register) {
		buf_printf(&t, "register %s %s", b->name, b->password);
		bot_send(b, BOT_REGISTER, buf_str(&t));
		buf_reset(&t);
	}
	buf_printf(&t, "login %s %s", b->name, b->password);
	bot_send(b, BOT_LOGIN, buf_str(&t));
	if (b->in_game && b->token[0] != '\0') {
		buf_reset(&t);
		buf_printf(&t, "resume %s", b->token);
		bot_send(b, BOT_RESUME, buf_str(&t));
	}
	if (b->ready)
		bot_send(b, BOT_READY, "ready");
	if (b->seek != NULL && !b->in_game && !b->finishing)
		bot_send_seek(b);
	buf_free(&t);
}

/* Counts a finished game; re-seeks or starts to leave. */
static void
bot_game_over(struct bot *b, const char *result)
{
	bot_log("game %s over: %s", b->game_id[0] != '\0' ? b->game_id : "-",
	    result);
	b->in_game = 0;
	b->token[0] = '\0';
	b->game_id[0] = '\0';
	b->done++;
	if (b->games != 0 && b->done >= b->games) {
		if (!b->finishing)
			bot_log("%lu game%s played: leaving", b->done,
			    b->done == 1 ? "" : "s");
		b->finishing = 1;
		b->finish_by = bot_now() + BOT_FINISH_MS;
	} else if (b->seek != NULL)
		bot_send_seek(b);
}

/* Returns the value of KEY=VALUE among the words of s, copied into out. */
static int
bot_field(const char *s, const char *key, char *out, size_t len)
{
	size_t		 klen = strlen(key), n;
	const char	*p = s;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == s || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			n = strcspn(p, " ");
			if (n == 0 || n >= len)
				return (-1);
			memcpy(out, p, n);
			out[n] = '\0';
			return (0);
		}
		p += klen;
	}
	return (-1);
}

/* Copies the n-th word (from 0) of s into out; returns 0 or -1. */
static int
bot_nth(const char *s, int nth, char *out, size_t len)
{
	size_t	 n;

	for (;;) {
		s += strspn(s, " ");
		n = strcspn(s, " ");
		if (n == 0)
			return (-1);
		if (nth-- == 0)
			break;
		s += n;
	}
	if (n >= len)
		return (-1);
	memcpy(out, s, n);
	out[n] = '\0';
	return (0);
}

/* Handles an event line from the server: logs it, acts on some. */
static void
bot_event(struct bot *b, char *line)
{
	char		 what[32], tmp[BOT_LOG_MAX + 8], *t;
	struct buf	 a;

	if (bot_nth(line, 1, what, sizeof what) != 0)
		what[0] = '\0';
	if (strcmp(what, "start") == 0 &&
	    bot_field(line, "token", b->token, sizeof b->token) == 0) {
		if (bot_nth(line, 2, b->game_id, sizeof b->game_id) != 0)
			snprintf(b->game_id, sizeof b->game_id, "?");
		b->in_game = 1;
		/* The token lets anyone take over the game: do not log it. */
		if ((t = strstr(line, " token=")) != NULL)
			for (t += 7; *t != '\0' && *t != ' '; t++)
				*t = '*';
	}
	bot_log("%s", bot_short(line, tmp, sizeof tmp));
	if (strcmp(what, "challenge") == 0 && b->accept && !b->finishing &&
	    !b->in_game && bot_nth(line, 2, what, sizeof what) == 0) {
		buf_init(&a);
		buf_printf(&a, "accept %s", what);
		bot_send(b, BOT_ACCEPT, buf_str(&a));
		buf_free(&a);
	}
}

/*
 * Queues a server command for the program (or, with canned, an answer of
 * our own that keeps its place in the order).
 */
static void
bot_forward(struct bot *b, const char *line, const char *id,
    const char *canned)
{
	struct bot_fwd	*f;

	if (b->nfwd == BOT_QUEUE_MAX) {
		buf_printf(&b->sc.out, "?%s too many commands pending\n\n", id);
		return;
	}
	if (canned != NULL && b->nfwd == 0) {
		buf_printf(&b->sc.out, "?%s %s\n\n", id, canned);
		return;
	}
	f = &b->fwd[b->nfwd++];
	snprintf(f->id, sizeof f->id, "%s", id);
	f->gen = b->gen;
	f->canned = canned;
	if (canned == NULL) {
		buf_puts(&b->pc.out, line);
		buf_putc(&b->pc.out, '\n');
	}
}

/* Handles a server command line "ID NAME ARGS...": relays it. */
static void
bot_command(struct bot *b, const char *line)
{
	char	 id[BOT_ID_MAX], name[16], tmp[BOT_LOG_MAX + 8];
	size_t	 n = strspn(line, "0123456789");

	if (n >= sizeof id || line[n] != ' ') {
		bot_log("unexpected line from the server: %s",
		    bot_short(line, tmp, sizeof tmp));
		return;
	}
	memcpy(id, line, n);
	id[n] = '\0';
	if (bot_nth(line, 1, name, sizeof name) != 0)
		name[0] = '\0';
	bot_forward(b, line, id, NULL);
	if (strcmp(name, "gameover") == 0) {
		const char *r = line + n;

		r += strspn(r, " ");
		r += strcspn(r, " ");
		r += strspn(r, " ");
		bot_game_over(b, *r != '\0' ? r : "-");
	}
}

/* Acts on the server's answer to one of the bot's own commands. */
static void
bot_own_answer(struct bot *b, struct bot_own *o, int ok, char *body)
{
	char		 tmp[BOT_LOG_MAX + 8], *p;
	const char	*msg;
	size_t		 n;

	/* One log line: "account alice, role player, rating 1500". */
	for (p = body, n = 0; *p != '\0' && n < BOT_LOG_MAX; p++) {
		if (*p == '\n') {
			tmp[n++] = ',';
			tmp[n++] = ' ';
		} else
			tmp[n++] = *p;
	}
	tmp[n] = '\0';
	msg = tmp;
	switch (o->kind) {
	case BOT_REGISTER:
		if (ok)
			bot_log("registered %s", b->name);
		else if (strstr(msg, "taken") != NULL ||
		    strstr(msg, "exists") != NULL)
			bot_log("%s is already registered", b->name);
		else
			bot_log("register refused: %s", msg);
		break;
	case BOT_LOGIN:
		if (!ok)
			bot_fatal(b, "login as %s failed: %s", b->name, msg);
		bot_log("logged in: %s", msg);
		b->logged_in = 1;
		break;
	case BOT_READY:
		if (!ok)
			bot_log("ready refused: %s", msg);
		break;
	case BOT_SEEK:
		if (!ok)
			bot_fatal(b, "seek %s refused: %s", b->seek, msg);
		bot_log("%s: waiting for an opponent", msg);
		break;
	case BOT_ACCEPT:
		bot_log("accept: %s", ok ? "ok" : msg);
		break;
	case BOT_RESUME:
		if (ok) {
			bot_log("resumed: %s", msg);
			break;
		}
		bot_log("could not resume game %s: %s", b->game_id, msg);
		bot_game_over(b, "unknown (lost while disconnected)");
		break;
	case BOT_PING:
		break;
	}
}

/* Handles a complete answer block from the server. */
static void
bot_server_answer(struct bot *b)
{
	struct bot_own	 o;
	char		*s = b->sans.data, *body, tmp[BOT_LOG_MAX + 8];
	unsigned long	 id;
	size_t		 n;
	int		 ok = s[0] == '=';

	n = strspn(s + 1, "0123456789");
	body = s + 1 + n;
	body += strspn(body, " ");
	if (b->sans.len > 0 && b->sans.data[b->sans.len - 1] == '\n')
		b->sans.data[--b->sans.len] = '\0';
	if (n == 0 || n > 20) {
		/* No id: a connection-level notice, e.g. an idle timeout. */
		bot_log("server: %s", bot_short(s, tmp, sizeof tmp));
		return;
	}
	id = strtoul(s + 1, NULL, 10);
	if (b->nown == 0 || b->own[0].id != id) {
		bot_log("unexpected answer from the server: %s",
		    bot_short(s, tmp, sizeof tmp));
		return;
	}
	o = b->own[0];
	memmove(&b->own[0], &b->own[1], --b->nown * sizeof b->own[0]);
	bot_own_answer(b, &o, ok, body);
}

/* Handles one line from the server. */
static void
bot_server_line(struct bot *b, char *line)
{
	if (b->in_sans) {
		if (line[0] != '\0') {
			buf_puts(&b->sans, line);
			buf_putc(&b->sans, '\n');
			return;
		}
		b->in_sans = 0;
		bot_server_answer(b);
		return;
	}
	if (line[0] == '=' || line[0] == '?') {
		buf_reset(&b->sans);
		buf_puts(&b->sans, line);
		buf_putc(&b->sans, '\n');
		b->in_sans = 1;
	} else if (strncmp(line, "event ", 6) == 0)
		bot_event(b, line);
	else if (line[0] != '\0')
		bot_command(b, line);
}

/* Sends the answers at the head of fwd[] that are ready: canned ones. */
static void
bot_flush_canned(struct bot *b)
{
	while (b->nfwd > 0 && b->fwd[0].canned != NULL) {
		if (b->fwd[0].gen == b->gen && !b->down)
			buf_printf(&b->sc.out, "?%s %s\n\n", b->fwd[0].id,
			    b->fwd[0].canned);
		memmove(&b->fwd[0], &b->fwd[1], --b->nfwd * sizeof b->fwd[0]);
	}
}

/*
 * Handles a complete answer block from the program: sends it to the
 * server with the id of the command it answers (GTP engines echo it; one
 * that does not gets it put in) unless the connection has changed since.
 */
static void
bot_program_answer(struct bot *b)
{
	struct bot_fwd	 f;
	char		*s = b->pans.data, tmp[BOT_LOG_MAX + 8];
	size_t		 n;

	if (b->nfwd == 0) {
		bot_log("%s answered nothing that was asked: %s", b->prog[0],
		    bot_short(s, tmp, sizeof tmp));
		return;
	}
	f = b->fwd[0];
	memmove(&b->fwd[0], &b->fwd[1], --b->nfwd * sizeof b->fwd[0]);
	n = strspn(s + 1, "0123456789");
	if (n > 0 && (n != strlen(f.id) || strncmp(s + 1, f.id, n) != 0) &&
	    !b->warned_id) {
		bot_log("%s answered id %.*s to command %s: fixed", b->prog[0],
		    (int)(n > 20 ? 20 : n), s + 1, f.id);
		b->warned_id = 1;
	}
	if (f.gen == b->gen && !b->down) {
		buf_printf(&b->sc.out, "%c%s", s[0], f.id);
		buf_add(&b->sc.out, s + 1 + n, b->pans.len - 1 - n);
	}
	bot_flush_canned(b);
}

/* Handles one line from the program. */
static void
bot_program_line(struct bot *b, const char *line)
{
	char	 tmp[BOT_LOG_MAX + 8];

	if (b->in_pans) {
		buf_puts(&b->pans, line);
		buf_putc(&b->pans, '\n');
		if (line[0] == '\0') {
			b->in_pans = 0;
			bot_program_answer(b);
		}
		return;
	}
	if (line[0] == '=' || line[0] == '?') {
		buf_reset(&b->pans);
		buf_puts(&b->pans, line);
		buf_putc(&b->pans, '\n');
		b->in_pans = 1;
	} else if (line[0] != '\0')
		bot_log("%s: %s", b->prog[0], bot_short(line, tmp, sizeof tmp));
}

/* Reads what is there from a channel into its input buffer; -1 at EOF. */
static int
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
static int
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

/* Forgets the connection: its answers and what it had still to send. */
static void
bot_lost(struct bot *b, const char *why)
{
	uint64_t	 now = bot_now();

	if (b->sc.rfd != -1)
		close(b->sc.rfd);
	b->sc.rfd = b->sc.wfd = -1;
	buf_reset(&b->sc.in);
	buf_reset(&b->sc.out);
	b->sc.in_off = b->sc.out_off = 0;
	b->sc.skip = 0;
	b->nown = 0;
	b->in_sans = 0;
	b->gen++;
	b->down = 1;
	if (b->finishing)
		return;
	if (!b->logged_in)
		bot_fatal(b, "%s:%s closed the connection before login (%s)",
		    b->host, b->port, why);
	bot_log("lost the connection to %s:%s (%s); reconnecting%s", b->host,
	    b->port, why, b->in_game ? " to resume the game" : "");
	b->down_since = now;
	b->next_try = now;
}

/* Tries to reconnect; gives up after BOT_RESUME_MS. */
static void
bot_reconnect(struct bot *b)
{
	char		 why[256];
	uint64_t	 now = bot_now();
	int		 fd;

	if ((fd = bot_dial(b, why, sizeof why)) == -1) {
		if (now - b->down_since >= BOT_RESUME_MS)
			bot_fatal(b, "could not reconnect to %s:%s within "
			    "%d s: %s", b->host, b->port, BOT_RESUME_MS / 1000,
			    why);
		b->next_try = now + b->reconnect_ms;
		return;
	}
	b->sc.rfd = b->sc.wfd = fd;
	b->down = 0;
	bot_log("reconnected to %s:%s", b->host, b->port);
	bot_hello(b, 0);
}

/* Takes and handles every complete line from the server. */
static void
bot_server_input(struct bot *b)
{
	struct buf	 line;
	size_t		 n;
	int		 rv;
	char		 id[BOT_ID_MAX];

	buf_init(&line);
	while (!b->down && (rv = bot_take_line(&b->sc, &line)) != 0) {
		if (rv > 0) {
			bot_server_line(b, line.data);
			continue;
		}
		/* A command too long for us: refuse it in its turn. */
		n = strspn(line.data, "0123456789");
		if (n > 0 && n < sizeof id && line.data[n] == ' ' &&
		    !b->in_sans) {
			memcpy(id, line.data, n);
			id[n] = '\0';
			bot_forward(b, NULL, id, "line too long for grundy bot");
		} else
			bot_log("dropped a line over %d bytes from the server",
			    BOT_LINE_MAX);
	}
	buf_free(&line);
}

/* Takes and handles every complete line from the program. */
static void
bot_program_input(struct bot *b)
{
	struct buf	 line;
	int		 rv;

	buf_init(&line);
	while ((rv = bot_take_line(&b->pc, &line)) != 0) {
		if (rv < 0)
			bot_fatal(b, "%s wrote a line over %d bytes",
			    b->prog[0], BOT_LINE_MAX);
		bot_program_line(b, line.data);
	}
	buf_free(&line);
}

/* Returns the poll timeout until the next timer, in ms. */
static int
bot_timeout(struct bot *b)
{
	uint64_t	 now = bot_now(), next = now + BOT_PING_MS;

	if (b->down)
		next = b->next_try;
	else if (b->logged_in && !b->finishing &&
	    b->last_send + BOT_PING_MS < next)
		next = b->last_send + BOT_PING_MS;
	if (b->finishing && b->finish_by < next)
		next = b->finish_by;
	return (next <= now ? 0 : (int)(next - now));
}

/* The relay loop; returns when the games are done. */
static void
bot_loop(struct bot *b)
{
	struct pollfd	 pfd[3];
	uint64_t	 now;

	for (;;) {
		if (b->finishing && ((b->nfwd == 0 &&
		    bot_pending(&b->sc) == 0) || b->down ||
		    bot_now() >= b->finish_by))
			return;
		pfd[0].fd = b->down ? -1 : b->sc.rfd;
		pfd[0].events = (bot_pending(&b->pc) < BOT_OUT_MAX ? POLLIN :
		    0) | (bot_pending(&b->sc) > 0 ? POLLOUT : 0);
		pfd[1].fd = b->pc.rfd;
		pfd[1].events = bot_pending(&b->sc) < BOT_OUT_MAX ? POLLIN : 0;
		pfd[2].fd = bot_pending(&b->pc) > 0 ? b->pc.wfd : -1;
		pfd[2].events = POLLOUT;
		pfd[0].revents = pfd[1].revents = pfd[2].revents = 0;
		if (poll(pfd, 3, bot_timeout(b)) == -1) {
			if (errno == EINTR)
				continue;
			bot_fatal(b, "poll: %s", strerror(errno));
		}
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (bot_read(&b->pc) != 0) {
				if (b->finishing)
					return;	/* it may leave at gameover */
				bot_program_died(b);
			}
			bot_program_input(b);
		}
		if (pfd[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
			if (bot_write(&b->pc, 0) != 0) {
				if (b->finishing)
					return;
				bot_program_died(b);
			}
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (bot_read(&b->sc) != 0)
				bot_lost(b, "closed by the server");
			else
				bot_server_input(b);
		}
		if (!b->down && bot_pending(&b->sc) > 0 &&
		    bot_write(&b->sc, 1) != 0)
			bot_lost(b, strerror(errno));
		now = bot_now();
		if (b->down && !b->finishing && now >= b->next_try)
			bot_reconnect(b);
		if (!b->down && b->logged_in && !b->finishing &&
		    now >= b->last_send + BOT_PING_MS)
			bot_send(b, BOT_PING, "protocol_version");
	}
}

/* Runs `grundy bot`; argv holds the arguments after "bot". */
int
bot_main(int argc, char **argv)
{
	struct bot	 b;
	char		 why[256];

	memset(&b, 0, sizeof b);
	b.ready = 1;
	b.reconnect_ms = 500;
	b.next_id = BOT_FIRST_ID;
	b.pc.rfd = b.pc.wfd = b.sc.rfd = b.sc.wfd = -1;
	buf_init(&b.pc.in);
	buf_init(&b.pc.out);
	buf_init(&b.sc.in);
	buf_init(&b.sc.out);
	buf_init(&b.sans);
	buf_init(&b.pans);
	bot_options(&b, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	bot_spawn(&b);
	if ((b.sc.rfd = b.sc.wfd = bot_dial(&b, why, sizeof why)) == -1)
		bot_fatal(&b, "cannot connect to %s:%s: %s", b.host, b.port,
		    why);
	bot_log("connected to %s:%s as %s; program %s", b.host, b.port,
	    b.name, b.prog[0]);
	bot_hello(&b, 1);
	bot_loop(&b);
	if (b.sc.rfd != -1)
		close(b.sc.rfd);
	bot_stop_program(&b);
	buf_free(&b.pc.in);
	buf_free(&b.pc.out);
	buf_free(&b.sc.in);
	buf_free(&b.sc.out);
	buf_free(&b.sans);
	buf_free(&b.pans);
	return (0);
}
