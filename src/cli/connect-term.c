/*
 * connect-term.c: `grundy connect` on a terminal.  One poll loop over the
 * terminal and the server's socket: whatever the server sends (replies,
 * events, server commands) is shown as it arrives, above the prompt,
 * while the user types (cli-edit.c).  The player role (PROTOCOL.md
 * §13.2) is played for the user: `new`, `play` and `gameover` are
 * answered at once and followed on a local engine session (cli-engine.c);
 * a `genmove` shows the position and both clocks and makes the next move
 * the user types its answer, under the command's id.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/chan.h"
#include "cli/cli-edit.h"
#include "cli/cli-engine.h"
#include "cli/connect.h"
#include "lib/clock.h"
#include "proto/proto.h"

struct cterm {
	struct chan	 sc;		/* the server, as grundy bot's */
	char		 prompt[320];	/* the command prompt */
	struct buf	 line;		/* one line from the server */
	struct buf	 show;		/* text for the terminal */
	struct buf	 tmp;
	struct buf	 mv;		/* the user's move */
	int		 in_reply;	/* inside a reply block */
	int		 quit;		/* the user sent quit */
	/* The player role: the game the server plays on this connection. */
	struct cli_engine eng;		/* its position */
	int		 have_game;	/* eng holds the last `new` */
	int		 gen_pending;	/* a genmove waits for the user */
	unsigned long	 gen_id;
	uint64_t	 gen_at;	/* when it came (clock_mono_ms) */
	long long	 gen_left;	/* the user's clock then (ms), or -1 */
	unsigned long	 game_id;	/* from event start or resume, or 0 */
	int		 seat;		/* the user's player there, or 0 */
};

/* Appends formatted text for the terminal. */
static void __attribute__((format(printf, 2, 3)))
cterm_say(struct cterm *ct, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	buf_vprintf(&ct->show, fmt, ap);
	va_end(ap);
}

/* Prints what was said, above the prompt. */
static void
cterm_flush(struct cterm *ct)
{
	if (ct->show.len > 0)
		cli_edit_print(ct->show.data, ct->show.len);
	buf_reset(&ct->show);
}

/* Queues bytes for the server (sent when the socket takes them). */
static void __attribute__((format(printf, 2, 3)))
cterm_send(struct cterm *ct, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	buf_vprintf(&ct->sc.out, fmt, ap);
	va_end(ap);
}

/* The value of "KEY=NUMBER" among argv, or -1. */
static long long
cterm_arg(const struct proto_cmd *c, const char *key)
{
	size_t	 n = strlen(key);
	int	 i;

	for (i = 0; i < c->argc; i++)
		if (strncmp(c->argv[i], key, n) == 0 && c->argv[i][n] == '=' &&
		    isdigit((unsigned char)c->argv[i][n + 1]))
			return (strtoll(c->argv[i] + n + 1, NULL, 10));
	return (-1);
}

/* "12.3 s" for a clock of ms milliseconds, or "?" when not given. */
static const char *
cterm_clock(char *b, size_t len, long long ms)
{
	if (ms < 0)
		snprintf(b, len, "?");
	else
		snprintf(b, len, "%lld.%lld s", ms / 1000, ms % 1000 / 100);
	return (b);
}

/*
 * A genmove: the user is asked for a move, with the position (as the
 * local session has followed it) and both clocks.
 */
static void
cterm_genmove(struct cterm *ct, const struct proto_cmd *c)
{
	char		 t1[32], t2[32];
	const char	*pos, *nl;
	int		 me = 0;

	ct->gen_pending = 1;
	ct->gen_id = c->id;
	cterm_say(ct, "your move");
	if (ct->game_id != 0)
		cterm_say(ct, " in game %lu", ct->game_id);
	if (ct->have_game && cli_engine_run(&ct->eng, &ct->tmp, "show")) {
		pos = buf_str(&ct->tmp);
		if ((nl = strstr(pos, "\nplayer ")) != NULL)
			me = atoi(nl + 8);
		if (me == 1 || me == 2)
			ct->seat = me;
		if (ct->seat != 0)
			cterm_say(ct, " (you are player %d)", ct->seat);
		cterm_say(ct, ": %.*s\n", (int)strcspn(pos, "\n"), pos);
	} else
		cterm_say(ct, ": position not followed here\n");
	cterm_clock(t1, sizeof t1, cterm_arg(c, "time1"));
	cterm_clock(t2, sizeof t2, cterm_arg(c, "time2"));
	ct->gen_at = clock_mono_ms();
	ct->gen_left = ct->seat == 0 ? -1 :
	    cterm_arg(c, ct->seat == 1 ? "time1" : "time2");
	cterm_say(ct, "clocks: player 1 %s%s, player 2 %s%s; type a move "
	    "(such as 1=0) or 'resign'\n", t1, ct->seat == 1 ? " (you)" : "",
	    t2, ct->seat == 2 ? " (you)" : "");
}

/* The end of the game: says who won, from the user's seat if known. */
static void
cterm_gameover(struct cterm *ct, const struct proto_cmd *c)
{
	const char	*res = c->argc > 0 ? c->argv[0] : "-";
	const char	*why = c->argc > 1 ? c->argv[1] : "";
	int		 winner = strcmp(res, "first") == 0 ? 1 :
			    strcmp(res, "second") == 0 ? 2 : 0;

	ct->gen_pending = 0;
	if (winner == 0 || ct->seat == 0)
		cterm_say(ct, "game over: %s %s\n", res, why);
	else
		cterm_say(ct, "game over: you %s (%s)\n", winner == ct->seat ?
		    "win" : "lose", why);
}

/*
 * A server command (ID NAME ARGS): answered at once, except genmove,
 * which waits for the user.  rest is the line after the id.
 */
static void
cterm_server_cmd(struct cterm *ct, const struct proto_cmd *c,
    const char *rest)
{
	if (strcmp(c->name, "genmove") == 0) {
		cterm_genmove(ct, c);
		return;
	}
	if (strcmp(c->name, "new") == 0) {
		ct->have_game = cli_engine_run(&ct->eng, &ct->tmp, "%s", rest);
		ct->gen_pending = 0;
	} else if (strcmp(c->name, "play") == 0) {
		if (ct->have_game)
			ct->have_game = cli_engine_run(&ct->eng, &ct->tmp,
			    "%s", rest);
	} else if (strcmp(c->name, "gameover") == 0)
		cterm_gameover(ct, c);
	else {
		cterm_send(ct, "?%lu unknown command\n\n", c->id);
		return;
	}
	cterm_send(ct, "=%lu\n\n", c->id);
}

/*
 * Notes the game and seat of "event start ID P1 P2 you=N ..." and of a
 * resume's "= game ID you=N".
 */
static void
cterm_game_id(struct cterm *ct, const char *line)
{
	unsigned long	 id;
	const char	*you;
	int		 seat;

	if (sscanf(line, "event start %lu ", &id) != 1 &&
	    sscanf(line, "= game %lu you=%d", &id, &seat) != 2)
		return;
	ct->game_id = id;
	if ((you = strstr(line, " you=")) != NULL &&
	    (you[5] == '1' || you[5] == '2') && you[6] == ' ')
		ct->seat = you[5] - '0';
}

/* One line from the server (without its LF). */
static void
cterm_server_line(struct cterm *ct, char *line, size_t len)
{
	struct proto_cmd c;
	const char	*why, *rest;
	char		*copy;

	if (ct->in_reply || line[0] == '=' || line[0] == '?') {
		/* A reply block, shown without the empty line that ends it. */
		ct->in_reply = len > 0;
		if (len > 0)
			cterm_say(ct, "%s\n", line);
		cterm_game_id(ct, line);
		return;
	}
	if (len == 0)
		return;
	cterm_say(ct, "%s\n", line);
	if (strncmp(line, "event ", 6) == 0) {
		cterm_game_id(ct, line);
		return;
	}
	if (!isdigit((unsigned char)line[0]))
		return;
	copy = xstrdup(line);
	proto_preprocess(copy, len);
	if (proto_parse(copy, &c, &why) == 1 && c.has_id && c.name != NULL) {
		rest = line + strspn(line, "0123456789");
		rest += strspn(rest, " \t");
		cterm_server_cmd(ct, &c, rest);
	}
	proto_cmd_free(&c);
	free(copy);
}

/*
 * Handles every whole line received.  A line over CHAN_LINE_MAX (as for
 * grundy bot) shows cut, and is not taken as a server command.
 */
static void
cterm_received(struct cterm *ct)
{
	int	 rv;

	while ((rv = chan_take_line(&ct->sc, &ct->line)) != 0) {
		if (rv > 0)
			cterm_server_line(ct, (char *)buf_str(&ct->line),
			    ct->line.len);
		else
			cterm_say(ct, "%.64s... (a line over %d bytes, cut)\n",
			    buf_str(&ct->line), CHAN_LINE_MAX);
	}
	cterm_flush(ct);
}

/*
 * The user's move for the waiting genmove: checked on the local session
 * first (an illegal move is not sent: the user may try again while the
 * clock runs), then sent as the answer and played locally.
 */
static void
cterm_move(struct cterm *ct, const char *move)
{
	if (strcmp(move, "resign") != 0 && ct->have_game) {
		if (!cli_engine_legal(&ct->eng, move, &ct->tmp)) {
			cterm_say(ct, "illegal move: %s; try again\n",
			    buf_str(&ct->tmp));
			return;
		}
		(void)cli_engine_run(&ct->eng, &ct->tmp, "play %s", move);
	}
	cterm_send(ct, "=%lu %s\n\n", ct->gen_id, move);
	ct->gen_pending = 0;
}

/* What `help` at the prompt says (then the server's list_commands). */
static const char cterm_help[] =
    "Type a command of grundyd and Enter; its reply shows below, and so\n"
    "do the events of a watched game and challenges as they come.  In a\n"
    "game the server plays through this connection, type your move\n"
    "(such as 1=0) or 'resign' when the prompt shows your clock.\n"
    "'quit' leaves.  PROTOCOL.md describes every command, grundy(1)\n"
    "this prompt.  The server's commands (list_commands):\n";

/* One line the user typed. */
static void
cterm_user_line(struct cterm *ct, char *line)
{
	struct proto_cmd c;
	const char	*why;
	char		*copy;
	int		 ok, has_id, rv, i;
	unsigned long	 id;

	copy = xstrdup(line);
	proto_preprocess(copy, strlen(copy));
	if (proto_answer_head(copy, &ok, &has_id, &id, &why)) {
		/*
		 * An answer typed by hand: sent as a block.  One to the
		 * waiting genmove is its move: the local position follows
		 * it (an illegal one changes nothing there, as on the
		 * server).
		 */
		if (ct->gen_pending && (!has_id || id == ct->gen_id)) {
			ct->gen_pending = 0;
			if (ct->have_game && ok && strcmp(why, "resign") != 0)
				(void)cli_engine_run(&ct->eng, &ct->tmp,
				    "play %s", why);
		}
		cterm_send(ct, "%s\n\n", line);
		free(copy);
		return;
	}
	rv = proto_parse(copy, &c, &why);
	if (rv == 1 && c.name != NULL && !c.has_id &&
	    (strchr(c.name, '=') != NULL ||
	    (strcmp(c.name, "resign") == 0 && c.argc == 0 &&
	    ct->gen_pending))) {
		if (ct->gen_pending) {
			/* The move's tokens, one space apart. */
			buf_reset(&ct->mv);
			buf_puts(&ct->mv, c.name);
			for (i = 0; i < c.argc; i++)
				buf_printf(&ct->mv, " %s", c.argv[i]);
			cterm_move(ct, buf_str(&ct->mv));
		} else
			cterm_say(ct, "no move is asked for now: the server "
			    "sends genmove when it is your turn\n");
	} else if (rv == 1 && c.name != NULL && !c.has_id && c.argc == 0 &&
	    strcmp(c.name, "help") == 0) {
		cterm_say(ct, "%s", cterm_help);
		cterm_send(ct, "list_commands\n");
	} else if (rv != 0) {
		cterm_send(ct, "%s\n", line);
		if (rv == 1 && c.name != NULL && strcmp(c.name, "quit") == 0)
			ct->quit = 1;
	}
	proto_cmd_free(&c);
	free(copy);
	cterm_flush(ct);
}

/*
 * The user's clock now, in ms (the server's figure at the genmove, less
 * the time since), or -1 when unknown.
 */
static long long
cterm_left(const struct cterm *ct)
{
	long long	 used;

	if (!ct->gen_pending || ct->gen_left < 0)
		return (-1);
	used = (long long)(clock_mono_ms() - ct->gen_at);
	return (used >= ct->gen_left ? 0 : ct->gen_left - used);
}

/*
 * The prompt: a waiting genmove changes it, with the user's clock in whole
 * seconds, counting down.
 */
static const char *
cterm_prompt(struct cterm *ct)
{
	static char	 p[96];
	char		 clock[40];
	long long	 left = cterm_left(ct);

	if (!ct->gen_pending)
		return (ct->prompt);
	snprintf(clock, sizeof clock, "%lld s left", (left + 999) / 1000);
	if (ct->game_id != 0 && left >= 0)
		snprintf(p, sizeof p, "your move (game %lu, %s)> ",
		    ct->game_id, clock);
	else if (ct->game_id != 0)
		snprintf(p, sizeof p, "your move (game %lu)> ", ct->game_id);
	else if (left >= 0)
		snprintf(p, sizeof p, "your move (%s)> ", clock);
	else
		snprintf(p, sizeof p, "your move> ");
	return (p);
}

/* The connection is gone: says so (unless the user quit); returns 1. */
static int
cterm_lost(struct cterm *ct)
{
	if (!ct->quit)
		cterm_say(ct, "connection closed by the server\n");
	cterm_flush(ct);
	return (1);
}

/*
 * One turn of the loop: waits for the terminal or the socket and handles
 * what came.  Returns 0 to go on, 1 when the session is over.
 */
static int
cterm_step(struct cterm *ct)
{
	struct pollfd	 pfd[2];
	char		*line;
	long long	 left;
	int		 r, timeout;

	if (!ct->quit)
		cli_edit_prompt(cterm_prompt(ct));
	pfd[0].fd = ct->quit ? -1 : 0;
	pfd[0].events = POLLIN;
	pfd[1].fd = ct->sc.rfd;
	pfd[1].events = POLLIN | (chan_pending(&ct->sc) > 0 ? POLLOUT : 0);
	/* While the clock runs, wake up when its whole seconds change. */
	left = cterm_left(ct);
	timeout = ct->quit ? 5000 : left > 0 ? (int)((left - 1) % 1000) + 1 :
	    -1;
	if ((r = poll(pfd, 2, timeout)) < 0)
		return (errno == EINTR ? 0 : 1);
	if (r == 0)
		return (ct->quit);	/* quit, and the server never closed */
	if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) {
		if (chan_read(&ct->sc) != 0) {
			cterm_received(ct);
			return (cterm_lost(ct));
		}
		cterm_received(ct);
	}
	if ((pfd[1].revents & POLLOUT) && chan_write(&ct->sc) != 0)
		return (cterm_lost(ct));
	if (pfd[0].fd == 0 && pfd[0].revents != 0) {
		if ((r = cli_edit_feed(pfd[0].revents, &line)) < 0) {
			cli_edit_print("\n", 1);
			return (1);
		}
		if (r > 0) {
			cterm_user_line(ct, line);
			free(line);
			if (chan_pending(&ct->sc) > 0 &&
			    chan_write(&ct->sc) != 0)
				return (cterm_lost(ct));
		}
	}
	return (0);
}

/* The interactive prompt on fd, the server at where; returns 0. */
int
connect_term(int fd, const char *where)
{
	struct cterm	 ct;

	memset(&ct, 0, sizeof ct);
	chan_init(&ct.sc);
	chan_open(&ct.sc, fd);
	snprintf(ct.prompt, sizeof ct.prompt, "grundy %s> ", where);
	buf_init(&ct.line);
	buf_init(&ct.show);
	buf_init(&ct.tmp);
	buf_init(&ct.mv);
	cli_engine_init(&ct.eng, NULL);
	printf("connected to grundyd at %s; 'help' explains, 'quit' "
	    "leaves\n", where);
	fflush(stdout);
	cli_edit_open();
	while (cterm_step(&ct) == 0)
		;
	cli_edit_close();
	cli_engine_free(&ct.eng);
	chan_free(&ct.sc);
	buf_free(&ct.line);
	buf_free(&ct.show);
	buf_free(&ct.tmp);
	buf_free(&ct.mv);
	return (0);
}
