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

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/bot.h"
#include "cli/bot-int.h"
#include "lib/passfile.h"
#include "lib/log.h"

/* grundy bot --help; cli_usage prints it. */
static const char bot_usage[] =
    "usage: grundy bot --server HOST:PORT[,HOST:PORT...] --name NAME\n"
    "           [--password-file FILE | --password PASS (shown by ps)"
    " | env GRUNDY_PASSWORD]\n"
    "           [--register] [--seek 'GAME [tc=BASE[+INC]] "
    "[rated=0|1] [random=1]']\n"
    "           [--games N] [--accept] [--accept-games FAM,...] "
    "[--accept-min-tc MS]\n"
    "           [--accept-rated 0|1|any] [--no-ready] "
    "[--reconnect-ms MS] [--reconnect-for S]\n"
    "           [--dial-timeout MS] [--read-timeout MS] "
    "[--takeover-wait MS]\n"
    "           [--sandbox] [--sandbox-limits mem=M,procs=N,files=N,"
    "fsize=M,scratch=M,stderr=M]\n"
    "           [--ponder]\n"
    "           -- PROGRAM [ARG...]\n"
    "Defaults: --games unlimited, --reconnect-ms 500, --reconnect-for "
    "600, --accept-rated any,\n--dial-timeout 5000, --read-timeout 30000 "
    "(0: none), --takeover-wait 60000, ready on;\nup to 16 nodes in "
    "--server, tried in turn; see grundy(1).\n";

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
	char	 err[512];

	if (passfile_read(path, b->pwbuf, sizeof b->pwbuf, err,
	    sizeof err) != 0) {
		fprintf(stderr, "grundy bot: --password-file %s\n", err);
		exit(2);
	}
	return (bot_word("--password-file", b->pwbuf, 0));
}

/*
 * Takes the option argv[a] that has a value (argv[a + 1] exists); returns
 * the index of the last argument it used.
 */
static int
bot_valued(struct bot *b, char **argv, int a)
{
	if (strcmp(argv[a], "--server") == 0)
		b->server = argv[++a];
	else if (strcmp(argv[a], "--name") == 0)
		b->name = bot_word("--name", argv[++a], 0);
	else if (strcmp(argv[a], "--password") == 0)
		b->password = bot_word("--password", argv[++a], 0);
	else if (strcmp(argv[a], "--password-file") == 0)
		b->password = bot_password_file(b, argv[++a]);
	else if (strcmp(argv[a], "--seek") == 0)
		b->seek = bot_word("--seek", argv[++a], 1);
	else if (strcmp(argv[a], "--sandbox-limits") == 0) {
		char why[160];

		if (sandbox_parse(argv[++a], &b->sb, why, sizeof why) != 0) {
			fprintf(stderr, "grundy bot: --sandbox-limits: %s\n",
			    why);
			exit(2);
		}
	}
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
	} else if (strcmp(argv[a], "--dial-timeout") == 0) {
		b->dial_ms = bot_number(argv[a], argv[a + 1], 1, 600000);
		a++;
	} else if (strcmp(argv[a], "--read-timeout") == 0) {
		b->read_ms = bot_number(argv[a], argv[a + 1], 0, 3600000);
		a++;
	} else if (strcmp(argv[a], "--takeover-wait") == 0) {
		b->takeover_ms = bot_number(argv[a], argv[a + 1], 1, 3600000);
		a++;
	} else if (strcmp(argv[a], "--reconnect-for") == 0) {
		b->reconnect_s = bot_number(argv[a], argv[a + 1], 0,
		    30 * 86400);
		a++;
	} else {
		fprintf(stderr, "grundy bot: unknown option '%s'\n",
		    argv[a]);
		cli_usage(2, bot_usage);
	}
	return (a);
}

/* Checks that the required options are there, then parses the nodes. */
static void
bot_required(struct bot *b, int argc, char **argv, int a)
{
	const char	*env;

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
		cli_usage(2, bot_usage);
	}
	b->prog = argv + a;
	bot_nodes_parse(b, b->server);
}

/* Parses the options; returns 0 or exits 2. */
static void
bot_options(struct bot *b, int argc, char **argv)
{
	int		 a;

	for (a = 0; a < argc; a++) {
		if (strcmp(argv[a], "--") == 0) {
			a++;
			break;
		}
		if (strcmp(argv[a], "--help") == 0)
			cli_usage(0, bot_usage);
		if (strcmp(argv[a], "--register") == 0)
			b->do_register = 1;
		else if (strcmp(argv[a], "--accept") == 0)
			b->accept = 1;
		else if (strcmp(argv[a], "--no-ready") == 0)
			b->ready = 0;
		else if (strcmp(argv[a], "--sandbox") == 0)
			b->sandbox = 1;
		else if (strcmp(argv[a], "--ponder") == 0)
			b->ponder = 1;
		else if (strncmp(argv[a], "--", 2) != 0 || a + 1 >= argc) {
			fprintf(stderr, "grundy bot: %s '%s'\n", a + 1 >= argc ?
			    "missing value or unknown option" :
			    "unknown option", argv[a]);
			cli_usage(2, bot_usage);
		} else
			a = bot_valued(b, argv, a);
	}
	bot_required(b, argc, argv, a);
}

/* SIGTERM or SIGINT came: the loop stops the program and leaves. */
static volatile sig_atomic_t bot_stop_sig;
static sigset_t	 bot_poll_mask;	/* the mask in ppoll: they unblocked */

static void
bot_on_stop(int sig)
{
	bot_stop_sig = sig;
}

/* Returns the poll timeout until the next timer, in ms. */
static int
bot_timeout(struct bot *b)
{
	uint64_t	 now = clock_mono_ms(), next = now + BOT_PING_MS;

	if (bot_down(b))
		next = b->next_try;
	else if (b->logged_in && !b->finishing &&
	    b->last_send + BOT_PING_MS < next)
		next = b->last_send + BOT_PING_MS;
	if (b->finishing && b->finish_by < next)
		next = b->finish_by;
	if (!bot_down(b) && b->read_ms != 0 && b->last_recv +
	    (b->pinged ? 2 : 1) * b->read_ms < next)
		next = b->last_recv + (b->pinged ? 2 : 1) * b->read_ms;
	if (b->waiting && b->wait_until < next)
		next = b->wait_until;
	if (b->seek_at != 0 && b->seek_at < next)
		next = b->seek_at;
	return (next <= now ? 0 : (int)(next - now));
}

/*
 * Told to go to another node (event redirect): closes the connection, to
 * dial that node when bot_redirect said (the backoff's count kept).
 */
static void
bot_leave(struct bot *b)
{
	uint64_t	 next = b->next_try;
	unsigned int	 attempt = b->attempt;

	bot_close(b);
	b->attempt = attempt;
	b->down_since = clock_mono_ms();
	b->next_try = next;
}

/*
 * --read-timeout: the server silent for read_ms gets a ping (the no-op
 * protocol_version, whose answer is bytes); silent for read_ms more, the
 * node is gone: the next one, as for a lost connection.
 */
static void
bot_read_timeout(struct bot *b, uint64_t now)
{
	if (bot_down(b) || b->read_ms == 0 || b->finishing)
		return;
	if (b->pinged && now >= b->last_recv + 2 * b->read_ms) {
		bot_log("no byte from %s:%s for %lu ms", b->host, b->port,
		    2 * b->read_ms);
		bot_lost(b, "read timeout");
	} else if (!b->pinged && now >= b->last_recv + b->read_ms) {
		b->pinged = 1;
		bot_send(b, BOT_PING, "protocol_version");
	}
}

/*
 * The program broke a sandbox limit (reason, detail empty or NULL) or
 * crashed (reason "crash", detail): it is killed with its tree, its live
 * game ends with that reason in the server's record (resign GAME_ID
 * REASON [DETAIL], PROTOCOL.md §13.4), and grundy bot exits 1 saying why
 * (a limit by its name), so grundy host restarts it.
 */
static void __attribute__((noreturn))
bot_program_lost(struct bot *b, const char *reason, const char *detail)
{
	if (detail != NULL && detail[0] == '\0')
		detail = NULL;
	bot_program_kill(b);
	bot_resign_own(b, reason, detail);
	if (detail == NULL)
		bot_fatal(b, "%s ran into its sandbox's %s", b->prog[0],
		    reason);
	bot_fatal(b, "%s %s%s", b->prog[0], strncmp(detail, "killed", 6) ==
	    0 ? "was " : "", detail);
}

/* The relay loop; returns when the games are done. */
static void
bot_loop(struct bot *b)
{
	struct pollfd	 pfd[4];
	struct timespec	 ts;
	uint64_t	 now;
	int		 ms;
	char		 detail[64];
	const char	*lost;

	for (;;) {
		if (b->finishing && ((b->nfwd == 0 && b->nown == 0 &&
		    chan_pending(&b->sc) == 0) || bot_down(b) ||
		    clock_mono_ms() >= b->finish_by))
			return;
		pfd[0].fd = bot_down(b) ? -1 : b->sc.rfd;
		pfd[0].events = (chan_pending(&b->pc) < BOT_OUT_MAX ? POLLIN :
		    0) | (chan_pending(&b->sc) > 0 ? POLLOUT : 0);
		pfd[1].fd = b->pc.rfd;
		pfd[1].events = chan_pending(&b->sc) < BOT_OUT_MAX ? POLLIN : 0;
		pfd[2].fd = chan_pending(&b->pc) > 0 ? b->pc.wfd : -1;
		pfd[2].events = POLLOUT;
		pfd[3].fd = b->pc.errfd;
		pfd[3].events = POLLIN;
		pfd[0].revents = pfd[1].revents = pfd[2].revents = 0;
		pfd[3].revents = 0;
		if (bot_stop_sig != 0)
			/* Its tree (its program in a group of its own, or
			 * sandboxed) goes with it, its cgroups removed. */
			bot_fatal(b, "stopped by signal %d", (int)bot_stop_sig);
		ms = bot_timeout(b);
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long)(ms % 1000) * 1000000;
		/* The stop signals are blocked but in here: none is missed. */
		if (ppoll(pfd, 4, &ts, &bot_poll_mask) == -1) {
			if (errno == EINTR)
				continue;
			bot_fatal(b, "poll: %s", strerror(errno));
		}
		if ((pfd[3].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    (lost = bot_program_stderr(b)) != NULL)
			bot_program_lost(b, lost, NULL);
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (chan_read(&b->pc) != 0) {
				if (b->finishing)
					return;	/* it may leave at gameover */
				lost = bot_program_died(b, detail,
				    sizeof detail);
				bot_program_lost(b, lost, detail);
			}
			if ((lost = bot_program_input(b)) != NULL)
				bot_program_lost(b, lost, NULL);
		}
		if (pfd[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
			if (chan_write(&b->pc) != 0) {
				if (b->finishing)
					return;
				lost = bot_program_died(b, detail,
				    sizeof detail);
				bot_program_lost(b, lost, detail);
			}
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (chan_read(&b->sc) != 0)
				bot_lost(b, "closed by the server");
			else {
				b->last_recv = clock_mono_ms();
				b->pinged = 0;
				bot_server_input(b);
			}
		}
		if (b->link == BOT_LINK_LOCKED) {
			/* A locked login: come back when the lock ends. */
			bot_close(b);
			b->down_since = b->next_try;
		}
		if (b->link == BOT_LINK_REDIRECT)
			bot_leave(b);
		if (!bot_down(b) && chan_pending(&b->sc) > 0 &&
		    chan_write(&b->sc) != 0)
			bot_lost(b, strerror(errno));
		/* Its answers are out (or queued on a full socket): no
		 * thinking on the opponent's time, off its own clock. */
		if (b->freeze_due && b->nfwd == 0)
			bot_program_run(b, 0);
		now = clock_mono_ms();
		if (bot_down(b) && !b->finishing && now >= b->next_try)
			bot_reconnect(b);
		if (!bot_down(b) && b->logged_in && !b->finishing &&
		    now >= b->last_send + BOT_PING_MS)
			bot_send(b, BOT_PING, "protocol_version");
		bot_read_timeout(b, now);
		bot_takeover_check(b);
		bot_seek_check(b);
	}
}

/* Runs `grundy bot`; argv holds the arguments after "bot". */
int
bot_main(int argc, char **argv)
{
	struct bot	 b;
	struct sigaction sa;
	sigset_t	 block;
	char		 why[256];
	int		 fd;

	memset(&b, 0, sizeof b);
	b.ready = 1;
	b.reconnect_ms = BOT_RETRY_MS;
	b.reconnect_s = BOT_RESUME_S;
	b.dial_ms = BOT_DIAL_MS;
	b.read_ms = BOT_READ_MS;
	b.takeover_ms = BOT_TAKEOVER_MS;
	b.refused_gen = (unsigned long)-1;
	b.live_gen = (unsigned long)-1;	/* no event live seen */
	b.filter.rated = -1;
	b.next_id = BOT_FIRST_ID;
	b.next_pid = 1;
	sandbox_defaults(&b.sb);
	srandom((unsigned int)(time(NULL) ^ getpid()));
	chan_init(&b.pc);
	chan_init(&b.sc);
	b.sc.nul_ends = 1;	/* the server's lines are text */
	proto_answer_init(&b.sans, BOT_ANSWER_MAX);
	proto_answer_init(&b.pans, BOT_ANSWER_MAX);
	bot_options(&b, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	sa.sa_handler = bot_on_stop;	/* no SA_RESTART: poll wakes up */
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	bot_spawn(&b);
	/* Blocked after the spawn: the program must not inherit it. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &bot_poll_mask);
	sigdelset(&bot_poll_mask, SIGTERM);
	sigdelset(&bot_poll_mask, SIGINT);
	if ((fd = bot_dial(&b, why, sizeof why)) == -1) {
		/* A daemon not up yet (or restarting): keep trying. */
		bot_log("cannot connect to %s:%s (%s); trying for up to %lu s",
		    b.host, b.port, why, b.reconnect_s);
		bot_link_set(&b, BOT_LINK_DOWN);
		b.hello_first = 1;
		b.down_since = clock_mono_ms();
		bot_node_failed(&b);	/* the next node, or the backoff */
	} else {
		chan_open(&b.sc, fd);
		bot_log("connected to %s:%s as %s; program %s", b.host,
		    b.port, b.name, b.prog[0]);
		bot_hello(&b, 1);
	}
	bot_loop(&b);
	chan_close(&b.sc);
	bot_stop_program(&b);
	chan_free(&b.pc);
	chan_free(&b.sc);
	proto_answer_free(&b.sans);
	proto_answer_free(&b.pans);
	return (0);
}
