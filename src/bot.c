/*
 * bot.c: `grundy bot`, which plays a player program on grundyd
 * (proto/PROTOCOL.md §13).  The program speaks the engine side of GTP on
 * its stdin and stdout (new, play, genmove, gameover, with clock tokens).
 * The bot logs in, offers itself (ready, seek, accept), relays every
 * server command to the program as it is and the program's answer block
 * back, and resumes a game with its token after a dropped connection.
 *
 * Answers are routed by id on both hops (issue 9): own[] holds the bot's
 * own commands (ids from BOT_FIRST_ID) whose answers come from the
 * server; fwd[] holds the server commands the program has still to
 * answer.  The program sees each server command under an id of the
 * bot's (counting up for the whole run, so an id is never reused), and
 * its answer goes back under the server's id of that command; an answer
 * with an id that no outstanding command has (unknown, stale, duplicate)
 * is logged and dropped, and a command left unanswered costs only its
 * own turn.  Answers are read as blocks up to their empty line and
 * preprocessed as GTP v2 §3.1 asks (proto_answer_feed, shared with
 * grundyd); a program's line that is not an answer is logged.  Every
 * connection has a generation, so an answer the program gives after the
 * connection dropped is not sent on the next one.  All I/O is
 * non-blocking around one poll().
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
#include "bot-policy.h"
#include "buf.h"
#include "connect.h"
#include "proto.h"

#define BOT_LINE_MAX	(1024 * 1024)	/* longest line from either side */
#define BOT_OUT_MAX	(4 * 1024 * 1024) /* queued bytes: stop reading */
#define BOT_QUEUE_MAX	256		/* commands awaiting an answer */
#define BOT_FIRST_ID	1001		/* ids of the bot's own commands */
#define BOT_RESUME_S	600		/* how long to try to reconnect */
#define BOT_RETRY_MS	500		/* first wait before reconnecting */
#define BOT_BACKOFF_MS	30000		/* longest wait between attempts */
#define BOT_ANSWER_MAX	(64 * 1024)	/* bytes of an answer kept */
#define BOT_NAME_MAX	33		/* bytes of an account name */
#define BOT_PING_MS	240000		/* keep-alive, below idle-timeout */
#define BOT_FINISH_MS	10000		/* wait for the last answers */
#define BOT_LOG_MAX	400		/* bytes of a line shown in logs */
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
	BOT_UNREADY,
	BOT_DECLINE,
};

/* One of the bot's commands awaiting the server's answer. */
struct bot_own {
	unsigned long	 id;
	enum bot_kind	 kind;
};

/* One server command awaiting the program's answer. */
struct bot_fwd {
	unsigned long	 pid;		/* its id for the program */
	unsigned long	 sid;		/* its id from the server */
	unsigned long	 gen;		/* the connection it came on */
	char		 name[16];	/* new, play, genmove, gameover */
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
	char		 pwbuf[160];	/* read from a file or the environment */
	const char	*seek;
	int		 do_register;
	int		 accept;
	struct botpol_accept filter;
	int		 ready;
	unsigned long	 games;		/* 0: play forever */
	unsigned long	 reconnect_ms;	/* first wait before reconnecting */
	unsigned long	 reconnect_s;	/* give up after this long */
	char		**prog;
	char		 host[256], port[32];

	/* The program, and the server connection. */
	pid_t		 pid;
	struct bot_chan	 pc;		/* program: rfd its stdout, wfd stdin */
	struct bot_chan	 sc;		/* server socket: rfd == wfd */
	unsigned long	 gen;		/* connection generation */
	int		 down;		/* lost, reconnecting */
	unsigned int	 attempt;	/* reconnect attempts since then */
	int		 relogin;	/* waiting out a locked login */
	int		 hello_first;	/* never connected yet: register */
	uint64_t	 down_since, next_try, last_send;

	/* Answer queues and the blocks being read. */
	struct bot_own	 own[BOT_QUEUE_MAX];
	size_t		 nown;
	unsigned long	 next_id;
	struct bot_fwd	 fwd[BOT_QUEUE_MAX];
	size_t		 nfwd;
	unsigned long	 next_pid;	/* the program's next command id */
	struct proto_answer sans;	/* server answer block */
	struct proto_answer pans;	/* program answer block */

	/* Games. */
	int		 logged_in;
	int		 in_game;
	unsigned long	 game_gen;	/* connection the game is attached on */
	char		 game_id[BOT_GAME_MAX];
	char		 token[BOT_TOKEN_MAX];
	char		 p1[BOT_NAME_MAX], p2[BOT_NAME_MAX];
	int		 you;		/* seat 1 or 2, 0 if unknown */
	unsigned long	 done;		/* games finished with a result */
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

/* Logs a message to stderr after a prefix. */
static void __attribute__((format(printf, 2, 0)))
bot_vlog(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Logs a message to stderr with the "bot: " prefix. */
static void __attribute__((format(printf, 1, 2)))
bot_log(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	bot_vlog("bot: ", fmt, ap);
	va_end(ap);
}

/* Logs a warning: something the program's author must look at. */
static void __attribute__((format(printf, 1, 2)))
bot_warn(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	bot_vlog("bot: warning: ", fmt, ap);
	va_end(ap);
}

/* Prints usage: to stdout with status 0 (--help), else to stderr. */
static void __attribute__((noreturn))
bot_usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: grundy bot --server HOST:PORT --name NAME\n"
	    "           [--password-file FILE | --password PASS (shown by ps)"
	    " | env GRUNDY_PASSWORD]\n"
	    "           [--register] [--seek 'GAME [tc=BASE[+INC]] "
	    "[rated=0|1] [random=1]']\n"
	    "           [--games N] [--accept] [--accept-games FAM,...] "
	    "[--accept-min-tc MS]\n"
	    "           [--accept-rated 0|1|any] [--no-ready] "
	    "[--reconnect-ms MS] [--reconnect-for S]\n"
	    "           -- PROGRAM [ARG...]\n"
	    "Defaults: --games unlimited, --reconnect-ms 500, --reconnect-for "
	    "600, --accept-rated any,\nready on; see grundy(1).\n");
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

/* Reads the password from the first line of a file, or exits 2. */
static const char *
bot_password_file(struct bot *b, const char *path)
{
	FILE	*fp;
	size_t	 n;

	if ((fp = fopen(path, "r")) == NULL) {
		fprintf(stderr, "grundy bot: --password-file %s: %s\n", path,
		    strerror(errno));
		exit(2);
	}
	if (fgets(b->pwbuf, sizeof b->pwbuf, fp) == NULL)
		b->pwbuf[0] = '\0';
	fclose(fp);
	n = strcspn(b->pwbuf, "\r\n");
	b->pwbuf[n] = '\0';
	return (bot_word("--password-file", b->pwbuf, 0));
}

/* Parses the options; returns 0 or exits 2. */
static void
bot_options(struct bot *b, int argc, char **argv)
{
	const char	*env;
	int		 a;

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
		else if (strcmp(argv[a], "--password-file") == 0)
			b->password = bot_password_file(b, argv[++a]);
		else if (strcmp(argv[a], "--seek") == 0)
			b->seek = bot_word("--seek", argv[++a], 1);
		else if (strcmp(argv[a], "--accept-games") == 0) {
			b->filter.families = bot_word("--accept-games",
			    argv[++a], 0);
			b->accept = 1;
		} else if (strcmp(argv[a], "--accept-min-tc") == 0) {
			b->filter.min_tc_ms = bot_number(argv[a], argv[a + 1],
			    0, 1000000000000UL);
			b->accept = 1;
			a++;
		} else if (strcmp(argv[a], "--accept-rated") == 0) {
			a++;
			if (strcmp(argv[a], "any") == 0)
				b->filter.rated = -1;
			else
				b->filter.rated = (int)bot_number(argv[a - 1],
				    argv[a], 0, 1);
			b->accept = 1;
		} else if (strcmp(argv[a], "--games") == 0) {
			b->games = bot_number(argv[a], argv[a + 1], 1,
			    1000000000);
			a++;
		} else if (strcmp(argv[a], "--reconnect-ms") == 0) {
			b->reconnect_ms = bot_number(argv[a], argv[a + 1], 1,
			    BOT_BACKOFF_MS);
			a++;
		} else if (strcmp(argv[a], "--reconnect-for") == 0) {
			b->reconnect_s = bot_number(argv[a], argv[a + 1], 0,
			    30 * 86400);
			a++;
		} else {
			fprintf(stderr, "grundy bot: unknown option '%s'\n",
			    argv[a]);
			bot_usage(2);
		}
	}
	/* Not on the command line, where ps shows it to every user. */
	if (b->password == NULL && (env = getenv("GRUNDY_PASSWORD")) != NULL) {
		snprintf(b->pwbuf, sizeof b->pwbuf, "%s", env);
		b->password = bot_word("GRUNDY_PASSWORD", b->pwbuf, 0);
	}
	if (b->server == NULL || b->name == NULL || b->password == NULL ||
	    a >= argc) {
		fprintf(stderr, "grundy bot: --server, --name, a password "
		    "(--password-file, GRUNDY_PASSWORD or --password) and "
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

/* Sends one of the bot's own commands, formatted. */
static void __attribute__((format(printf, 3, 4)))
bot_sendf(struct bot *b, enum bot_kind kind, const char *fmt, ...)
{
	struct buf	 t;
	va_list		 ap;

	buf_init(&t);
	va_start(ap, fmt);
	buf_vprintf(&t, fmt, ap);
	va_end(ap);
	bot_send(b, kind, buf_str(&t));
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
		bot_sendf(b, BOT_RESUME, "resume %s", b->token);
		b->game_gen = b->gen;
	}
	if (b->ready && !b->finishing)
		bot_send(b, BOT_READY, "ready");
	if (b->seek != NULL && !b->in_game && !b->finishing)
		bot_sendf(b, BOT_SEEK, "seek %s", b->seek);
	buf_free(&t);
}

/* Forgets the current game. */
static void
bot_no_game(struct bot *b)
{
	b->in_game = 0;
	b->token[0] = '\0';
	b->game_id[0] = '\0';
	b->p1[0] = b->p2[0] = '\0';
	b->you = 0;
}

/* Enough games: stop offering the bot, then leave once all is answered. */
static void
bot_finish(struct bot *b)
{
	if (!b->finishing)
		bot_log("%lu game%s played: leaving", b->done,
		    b->done == 1 ? "" : "s");
	b->finishing = 1;
	b->finish_by = bot_now() + BOT_FINISH_MS;
	/* Else a tournament would start a game on a bot that is leaving. */
	if (b->ready)
		bot_send(b, BOT_UNREADY, "unready");
}

/*
 * The game is over: logs whether the program won or lost, against whom
 * and why.  Only a real result (first or second won) counts toward
 * --games: a game cut off (by a daemon restart, which plays it again) or
 * whose end was not seen does not.  Then re-seeks or starts to leave.
 */
static void
bot_game_over(struct bot *b, const char *result, const char *reason)
{
	const char	*opp = b->you == 1 ? b->p2 : b->p1;
	int		 winner = strcmp(result, "first") == 0 ? 1 :
			    strcmp(result, "second") == 0 ? 2 : 0;

	if (winner != 0 && b->you != 0)
		bot_log("game %s over: %s %s against %s (%s, seat %d): %s",
		    b->game_id[0] != '\0' ? b->game_id : "-", b->prog[0],
		    winner == b->you ? "won" : "lost", opp[0] != '\0' ? opp :
		    "?", winner == 1 ? "first won" : "second won", b->you,
		    reason);
	else
		bot_log("game %s over: %s %s (not counted)",
		    b->game_id[0] != '\0' ? b->game_id : "-", result, reason);
	bot_no_game(b);
	if (winner != 0)
		b->done++;
	if (b->games != 0 && b->done >= b->games)
		bot_finish(b);
	else if (b->seek != NULL)
		bot_sendf(b, BOT_SEEK, "seek %s", b->seek);
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

/*
 * Takes the game of "event start|live GAME_ID P1 P2 you=1|2 ...": its id,
 * players and our seat.  Returns 0, or -1 if the line lacks them.
 */
static int
bot_take_game(struct bot *b, const char *line)
{
	char	 you[4];

	if (bot_nth(line, 2, b->game_id, sizeof b->game_id) != 0 ||
	    bot_nth(line, 3, b->p1, sizeof b->p1) != 0 ||
	    bot_nth(line, 4, b->p2, sizeof b->p2) != 0 ||
	    bot_field(line, "you", you, sizeof you) != 0 ||
	    (strcmp(you, "1") != 0 && strcmp(you, "2") != 0)) {
		bot_no_game(b);
		return (-1);
	}
	b->you = you[0] - '0';
	b->in_game = 1;
	b->game_gen = b->gen;
	return (0);
}

/* Answers a challenge: accepts it, or declines it and says why. */
static void
bot_challenge(struct bot *b, const char *line)
{
	char	 id[BOT_GAME_MAX], why[256];
	int	 rv;

	if (!b->accept || b->finishing || b->in_game)
		return;
	rv = botpol_challenge(&b->filter, line, id, sizeof id, why,
	    sizeof why);
	if (rv > 0)
		bot_sendf(b, BOT_ACCEPT, "accept %s", id);
	else if (rv == 0) {
		bot_log("declining challenge %s: %s", id, why);
		bot_sendf(b, BOT_DECLINE, "decline %s", id);
	} else
		bot_log("ignoring a challenge: %s", why);
}

/* Handles an event line from the server: logs it, acts on some. */
static void
bot_event(struct bot *b, char *line)
{
	char		 what[32], id[BOT_GAME_MAX], tmp[BOT_LOG_MAX + 8], *t;

	if (bot_nth(line, 1, what, sizeof what) != 0)
		what[0] = '\0';
	if (strcmp(what, "start") == 0 &&
	    bot_field(line, "token", b->token, sizeof b->token) == 0) {
		if (bot_take_game(b, line) == 0)
			bot_field(line, "token", b->token, sizeof b->token);
		else
			snprintf(b->game_id, sizeof b->game_id, "?");
		b->in_game = 1;
		/* A game on a bot that was leaving: play it, then leave. */
		b->finishing = 0;
		/* The token lets anyone take over the game: do not log it. */
		if ((t = strstr(line, " token=")) != NULL)
			for (t += 7; *t != '\0' && *t != ' '; t++)
				*t = '*';
	}
	bot_log("%s", bot_short(line, tmp, sizeof tmp));
	if (strcmp(what, "challenge") == 0)
		bot_challenge(b, line);
	else if (strcmp(what, "live") == 0 &&
	    bot_nth(line, 2, id, sizeof id) == 0 &&
	    !(b->in_game && b->game_gen == b->gen &&
	    strcmp(b->game_id, id) == 0)) {
		/* A game of ours the server still holds (a restart): resume. */
		if (bot_take_game(b, line) == 0) {
			b->token[0] = '\0';
			b->finishing = 0;
			bot_sendf(b, BOT_RESUME, "resume %s", b->game_id);
		}
	}
}

/*
 * Relays a server command "ID NAME ARGS..." to the program under an id
 * of the bot's, or answers it at once with an error of our own.
 */
static void
bot_command(struct bot *b, const char *line)
{
	struct bot_fwd	*f;
	char		 tmp[BOT_LOG_MAX + 8], result[16], reason[64];
	size_t		 n = strspn(line, "0123456789");
	unsigned long	 sid;

	if (n == 0 || n > 19 || line[n] != ' ') {
		bot_log("unexpected line from the server: %s",
		    bot_short(line, tmp, sizeof tmp));
		return;
	}
	sid = strtoul(line, NULL, 10);
	if (b->nfwd == BOT_QUEUE_MAX) {
		buf_printf(&b->sc.out, "?%lu too many commands pending\n\n",
		    sid);
		return;
	}
	f = &b->fwd[b->nfwd++];
	f->pid = b->next_pid++;
	f->sid = sid;
	f->gen = b->gen;
	if (bot_nth(line, 1, f->name, sizeof f->name) != 0)
		snprintf(f->name, sizeof f->name, "?");
	buf_printf(&b->pc.out, "%lu%s\n", f->pid, line + n);
	if (strcmp(f->name, "gameover") == 0) {
		if (bot_nth(line, 2, result, sizeof result) != 0)
			snprintf(result, sizeof result, "-");
		if (bot_nth(line, 3, reason, sizeof reason) != 0)
			snprintf(reason, sizeof reason, "-");
		bot_game_over(b, result, reason);
	}
}

/* Flattens an answer's body into one log line. */
static const char *
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

/* Acts on the server's answer to one of the bot's own commands. */
static void
bot_own_answer(struct bot *b, struct bot_own *o, int ok, const char *msg)
{
	long	 wait;

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
		if (!ok && (wait = botpol_retry_s(msg)) >= 0) {
			/* Locked (maybe by a stranger): wait it out. */
			b->relogin = 1;
			b->next_try = bot_now() + (uint64_t)wait * 1000 +
			    botpol_backoff_ms(0, 1000, 1000,
			    (uint32_t)random());
			bot_log("login as %s refused: %s; logging in again in "
			    "%ld s", b->name, msg, wait + 1);
			break;
		}
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
		if (!ok && b->in_game)
			bot_log("seek refused while a game of ours is live: "
			    "%s", msg);
		else if (!ok)
			bot_fatal(b, "seek %s refused: %s", b->seek, msg);
		else
			bot_log("%s: waiting for an opponent", msg);
		break;
	case BOT_ACCEPT:
		bot_log("accept: %s", ok ? "ok" : msg);
		break;
	case BOT_DECLINE:
	case BOT_UNREADY:
	case BOT_PING:
		break;
	case BOT_RESUME:
		if (ok) {
			bot_log("resumed: %s", msg);
			break;
		}
		bot_log("could not resume game %s: %s", b->game_id, msg);
		bot_game_over(b, "unknown", "lost while disconnected");
		break;
	}
}

/* Handles a complete answer block from the server, routed by id. */
static void
bot_server_answer(struct bot *b)
{
	struct proto_answer *a = &b->sans;
	struct bot_own	 o;
	char		 tmp[BOT_LOG_MAX + 8];
	size_t		 i;

	bot_flat(a, tmp, sizeof tmp);
	if (!a->has_id) {
		/* A connection-level notice, e.g. an idle timeout. */
		bot_log("server: %c %s", a->ok ? '=' : '?', tmp);
		return;
	}
	for (i = 0; i < b->nown && b->own[i].id != a->id; i++)
		;
	if (i == b->nown) {
		bot_log("unexpected answer from the server: %c%lu %s",
		    a->ok ? '=' : '?', a->id, tmp);
		return;
	}
	o = b->own[i];
	memmove(&b->own[0], &b->own[i + 1], (b->nown - i - 1) *
	    sizeof b->own[0]);
	b->nown -= i + 1;
	bot_own_answer(b, &o, a->ok, tmp);
}

/* Handles one line from the server. */
static void
bot_server_line(struct bot *b, char *line, int cut)
{
	char	 tmp[BOT_LOG_MAX + 8];

	switch (proto_answer_feed(&b->sans, line, strlen(line), cut)) {
	case PROTO_IN_BLOCK:
		return;
	case PROTO_BLOCK_DONE:
		bot_server_answer(b);
		proto_answer_reset(&b->sans);
		return;
	case PROTO_NOT_ANSWER:
		break;
	}
	if (cut) {
		/* A command too long for us: refuse it. */
		size_t n = strspn(line, "0123456789");

		bot_log("a line over %d bytes from the server: %s",
		    BOT_LINE_MAX, bot_short(line, tmp, sizeof tmp));
		if (n > 0 && n < 20 && line[n] == ' ')
			buf_printf(&b->sc.out, "?%lu line too long for grundy "
			    "bot\n\n", strtoul(line, NULL, 10));
	} else if (strncmp(line, "event ", 6) == 0)
		bot_event(b, line);
	else if (line[0] != '\0')
		bot_command(b, line);
}

/*
 * Handles a complete answer block from the program: finds the command it
 * answers by id (one without an id answers the oldest), and sends it to
 * the server under the server's id of that command, unless the
 * connection has changed since.  Older commands still unanswered are
 * given up (GTP answers come in order): each cost only its own turn.
 */
static void
bot_program_answer(struct bot *b)
{
	struct proto_answer *a = &b->pans;
	struct bot_fwd	 f;
	char		 tmp[BOT_LOG_MAX + 8];
	size_t		 i, k;

	bot_flat(a, tmp, sizeof tmp);
	if (a->has_id) {
		for (i = 0; i < b->nfwd && b->fwd[i].pid != a->id; i++)
			;
	} else
		i = 0;
	if (i >= b->nfwd) {
		bot_warn("%s: dropped an answer to %s: %c%.0lu %s",
		    b->prog[0], !a->has_id ? "no outstanding command" :
		    a->id < b->next_pid ? "a command already answered or "
		    "given up (stale or duplicate id)" : "a command never sent "
		    "(unknown id)", a->ok ? '=' : '?', a->has_id ? a->id : 0,
		    tmp);
		return;
	}
	for (k = 0; k < i; k++)
		bot_warn("%s never answered command %lu (%s): given up",
		    b->prog[0], b->fwd[k].pid, b->fwd[k].name);
	f = b->fwd[i];
	memmove(&b->fwd[0], &b->fwd[i + 1], (b->nfwd - i - 1) *
	    sizeof b->fwd[0]);
	b->nfwd -= i + 1;
	if (!a->ok && strcmp(f.name, "genmove") != 0)
		bot_warn("%s refused %s (command %lu): %s", b->prog[0], f.name,
		    f.pid, tmp);
	else if (a->lines > 1 || a->over)
		bot_warn("%s answered %s (command %lu) with %s: %s",
		    b->prog[0], f.name, f.pid, a->over ? "too many bytes" :
		    "several lines", tmp);
	if (f.gen != b->gen || b->down)
		return;
	/* A cut answer could read as another move: never relay it. */
	if (a->over)
		buf_printf(&b->sc.out, "?%lu answer over %d bytes\n\n", f.sid,
		    BOT_ANSWER_MAX);
	else
		proto_answer_write(&b->sc.out, a, f.sid);
}

/* Handles one line from the program; cut: only its first bytes. */
static void
bot_program_line(struct bot *b, char *line, size_t len, int cut)
{
	char	 tmp[BOT_LOG_MAX + 8];

	switch (proto_answer_feed(&b->pans, line, len, cut)) {
	case PROTO_IN_BLOCK:
		return;
	case PROTO_BLOCK_DONE:
		bot_program_answer(b);
		proto_answer_reset(&b->pans);
		return;
	case PROTO_NOT_ANSWER:
		break;
	}
	/* Not an answer (a banner, debug output): never taken as one. */
	if (line[0] != '\0')
		bot_log("%s%s: %s", b->prog[0], cut ? " (line cut)" : "",
		    bot_short(line, tmp, sizeof tmp));
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

/* Closes the server connection and forgets what was on it. */
static void
bot_close(struct bot *b)
{
	if (b->sc.rfd != -1)
		close(b->sc.rfd);
	b->sc.rfd = b->sc.wfd = -1;
	buf_reset(&b->sc.in);
	buf_reset(&b->sc.out);
	b->sc.in_off = b->sc.out_off = 0;
	b->sc.skip = 0;
	b->nown = 0;
	proto_answer_reset(&b->sans);
	b->gen++;
	b->down = 1;
	b->attempt = 0;
}

/* Forgets the connection: its answers and what it had still to send. */
static void
bot_lost(struct bot *b, const char *why)
{
	uint64_t	 now = bot_now();

	bot_close(b);
	if (b->finishing)
		return;
	if (!b->logged_in)
		bot_fatal(b, "%s:%s closed the connection before login (%s)",
		    b->host, b->port, why);
	bot_log("lost the connection to %s:%s (%s); reconnecting for up to "
	    "%lu s%s", b->host, b->port, why, b->reconnect_s,
	    b->in_game ? " to resume the game" : "");
	b->down_since = now;
	b->next_try = now;
}

/*
 * Tries to reconnect, with exponential backoff and jitter between tries;
 * gives up after --reconnect-for seconds.
 */
static void
bot_reconnect(struct bot *b)
{
	char		 why[256];
	uint64_t	 now = bot_now();
	int		 fd;

	if ((fd = bot_dial(b, why, sizeof why)) == -1) {
		if (now - b->down_since >= (uint64_t)b->reconnect_s * 1000)
			bot_fatal(b, "could not %sconnect to %s:%s within "
			    "%lu s: %s", b->hello_first ? "" : "re", b->host,
			    b->port, b->reconnect_s, why);
		b->next_try = now + botpol_backoff_ms(b->attempt++,
		    b->reconnect_ms, BOT_BACKOFF_MS, (uint32_t)random());
		return;
	}
	b->sc.rfd = b->sc.wfd = fd;
	b->down = 0;
	bot_log("%sconnected to %s:%s", b->relogin || b->hello_first ? "" :
	    "re", b->host, b->port);
	b->relogin = 0;
	bot_hello(b, b->hello_first);
	b->hello_first = 0;
}

/* Takes and handles every complete line from the server. */
static void
bot_server_input(struct bot *b)
{
	struct buf	 line;
	int		 rv;

	buf_init(&line);
	while (!b->down && !b->relogin &&
	    (rv = bot_take_line(&b->sc, &line)) != 0)
		bot_server_line(b, line.data, rv < 0);
	buf_free(&line);
}

/* Takes and handles every complete line from the program. */
static void
bot_program_input(struct bot *b)
{
	struct buf	 line;
	int		 rv;

	buf_init(&line);
	while ((rv = bot_take_line(&b->pc, &line)) != 0)
		bot_program_line(b, line.data, line.len, rv < 0);
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
		if (b->finishing && ((b->nfwd == 0 && b->nown == 0 &&
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
		if (b->relogin && !b->down) {
			/* A locked login: come back when the lock ends. */
			bot_close(b);
			b->down_since = b->next_try;
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
	b.reconnect_ms = BOT_RETRY_MS;
	b.reconnect_s = BOT_RESUME_S;
	b.filter.rated = -1;
	b.next_id = BOT_FIRST_ID;
	b.next_pid = 1;
	srandom((unsigned int)(time(NULL) ^ getpid()));
	b.pc.rfd = b.pc.wfd = b.sc.rfd = b.sc.wfd = -1;
	buf_init(&b.pc.in);
	buf_init(&b.pc.out);
	buf_init(&b.sc.in);
	buf_init(&b.sc.out);
	proto_answer_init(&b.sans, BOT_ANSWER_MAX);
	proto_answer_init(&b.pans, BOT_ANSWER_MAX);
	bot_options(&b, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	bot_spawn(&b);
	if ((b.sc.rfd = b.sc.wfd = bot_dial(&b, why, sizeof why)) == -1) {
		/* A daemon not up yet (or restarting): keep trying. */
		bot_log("cannot connect to %s:%s (%s); trying for up to %lu s",
		    b.host, b.port, why, b.reconnect_s);
		b.sc.rfd = b.sc.wfd = -1;
		b.down = 1;
		b.hello_first = 1;
		b.down_since = bot_now();
		b.next_try = b.down_since + botpol_backoff_ms(b.attempt++,
		    b.reconnect_ms, BOT_BACKOFF_MS, (uint32_t)random());
	} else {
		bot_log("connected to %s:%s as %s; program %s", b.host,
		    b.port, b.name, b.prog[0]);
		bot_hello(&b, 1);
	}
	bot_loop(&b);
	if (b.sc.rfd != -1)
		close(b.sc.rfd);
	bot_stop_program(&b);
	buf_free(&b.pc.in);
	buf_free(&b.pc.out);
	buf_free(&b.sc.in);
	buf_free(&b.sc.out);
	proto_answer_free(&b.sans);
	proto_answer_free(&b.pans);
	return (0);
}
