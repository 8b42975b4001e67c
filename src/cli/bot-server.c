/*
 * bot-server.c: the server side of `grundy bot`: its own commands and
 * their answers, the server's events and commands (relayed to the
 * program), games, and the connection: dial, loss and reconnecting with
 * backoff (bot-int.h).
 */
#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/bot-int.h"
#include "cli/connect.h"

/* Sends one of the bot's own commands with a fresh id; text has no LF. */
void
bot_send(struct bot *b, enum bot_kind kind, const char *text)
{
	if (bot_down(b) || b->sc.wfd == -1)
		return;
	if (b->nown == BOT_QUEUE_MAX)
		bot_fatal(b, "the server does not answer (%d commands "
		    "pending)", BOT_QUEUE_MAX);
	b->own[b->nown].id = b->next_id;
	b->own[b->nown].kind = kind;
	b->nown++;
	buf_printf(&b->sc.out, "%lu %s\n", b->next_id++, text);
	b->last_send = clock_mono_ms();
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
void
bot_hello(struct bot *b, int first)
{
	struct buf	 t;

	b->last_recv = clock_mono_ms();	/* --read-timeout counts from here */
	b->pinged = 0;
	b->seek_at = 0;			/* the login's seek below instead */
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
	b->waiting = 0;
}

/* Enough games: stop offering the bot, then leave once all is answered. */
static void
bot_finish(struct bot *b)
{
	if (!b->finishing)
		bot_log("%lu game%s played: leaving", b->done,
		    b->done == 1 ? "" : "s");
	b->finishing = 1;
	b->finish_by = clock_mono_ms() + BOT_FINISH_MS;
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

/* event redirect HOST:PORT [GAME_ID]: goes there (bot-nodes.c). */
static void
bot_event_redirect(struct bot *b, const char *line)
{
	const char	*addr = line + strlen("event redirect");
	char		 game[BOT_GAME_MAX];
	size_t		 len;

	addr += strspn(addr, " ");
	len = strcspn(addr, " ");
	bot_redirect(b, addr, len, bot_nth(addr + len, 0, game,
	    sizeof game) == 0 ? game : NULL);
}

/*
 * event takeover GAME_ID you=1|2: our game has no live referee now; a node
 * takes it over soon (event live here, or event redirect).  Until then
 * (--takeover-wait) a refused resume does not end it and no game is
 * sought.
 */
static void
bot_event_takeover(struct bot *b, const char *line)
{
	char	 id[BOT_GAME_MAX], you[4];

	if (bot_nth(line, 2, id, sizeof id) != 0 ||
	    bot_field(line, "you", you, sizeof you) != 0 ||
	    (strcmp(you, "1") != 0 && strcmp(you, "2") != 0))
		return;
	if (b->in_game && strcmp(b->game_id, id) != 0) {
		bot_log("game %s waits for a takeover, but we play game %s",
		    id, b->game_id);
		return;
	}
	if (!b->in_game) {
		bot_no_game(b);
		snprintf(b->game_id, sizeof b->game_id, "%s", id);
		b->you = you[0] - '0';
		b->in_game = 1;
		b->game_gen = b->gen;
		b->finishing = 0;
	}
	bot_takeover_wait(b, id);
}

/* Gives up a game whose takeover did not come within --takeover-wait. */
void
bot_takeover_check(struct bot *b)
{
	if (!b->waiting || clock_mono_ms() < b->wait_until)
		return;
	bot_log("game %s was not taken over within %lu ms", b->game_id,
	    b->takeover_ms);
	bot_game_over(b, "unknown", "not taken over");
}

/*
 * Whether a refusal says the server's database is down or cannot write
 * for now (PROTOCOL.md §3 item 6; a login's account lookup: "...:
 * database unreachable"): transient, retried with the reconnection's
 * backoff, never fatal.
 */
static int
bot_outage(const char *msg)
{
	size_t	 n = strlen(msg), k = strlen(": database unreachable");

	return (strncmp(msg, "the game log cannot write (", 27) == 0 ||
	    (n >= k && strcmp(msg + n - k, ": database unreachable") == 0));
}

/* The wait before the next try after such a refusal, in ms. */
static uint64_t
bot_outage_wait(struct bot *b)
{
	return (botpol_backoff_ms(b->seek_tries++, b->reconnect_ms,
	    BOT_BACKOFF_MS, (uint32_t)random()) + 1);
}

/* A seek refused so: sent again after the backoff (bot_seek_check). */
static void
bot_seek_later(struct bot *b, const char *msg)
{
	uint64_t	 wait = bot_outage_wait(b);

	b->seek_at = clock_mono_ms() + wait;
	bot_log("seek refused: %s; seeking again in %llu ms", msg,
	    (unsigned long long)wait);
}

/* Sends the seek bot_seek_later put off, when it is due. */
void
bot_seek_check(struct bot *b)
{
	if (b->seek_at == 0 || clock_mono_ms() < b->seek_at)
		return;
	b->seek_at = 0;
	if (!bot_down(b) && b->logged_in && !b->in_game && !b->finishing &&
	    b->seek != NULL)
		bot_sendf(b, BOT_SEEK, "seek %s", b->seek);
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
		b->waiting = 0;		/* this game has a referee */
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
	else if (strcmp(what, "redirect") == 0)
		bot_event_redirect(b, line);
	else if (strcmp(what, "takeover") == 0)
		bot_event_takeover(b, line);
	else if (strcmp(what, "live") == 0 &&
	    bot_nth(line, 2, id, sizeof id) == 0) {
		if (b->in_game && b->refused_gen == b->gen &&
		    strcmp(b->game_id, id) == 0) {
			/* Restored here after its resume was refused. */
			b->token[0] = '\0';
			b->refused_gen = (unsigned long)-1;
			bot_sendf(b, BOT_RESUME_ID, "resume %s", b->game_id);
		} else if (b->in_game && b->game_gen == b->gen &&
		    strcmp(b->game_id, id) == 0)
			b->live_gen = b->gen;	/* resumed by token, or id */
		else if (bot_take_game(b, line) == 0) {
			/* A game of ours the server holds (a restart): resume. */
			b->token[0] = '\0';
			b->finishing = 0;
			bot_sendf(b, BOT_RESUME_ID, "resume %s", b->game_id);
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
	bot_program_run(b, 1);	/* it owes an answer: it may think */
	if (strcmp(f->name, "gameover") == 0) {
		if (bot_nth(line, 2, result, sizeof result) != 0)
			snprintf(result, sizeof result, "-");
		if (bot_nth(line, 3, reason, sizeof reason) != 0)
			snprintf(reason, sizeof reason, "-");
		bot_game_over(b, result, reason);
	}
}

/*
 * The answer to resume TOKEN or resume GAME_ID.  A token another node
 * gave is unknown here: when this node named the game in event live (it
 * holds it by account: issue 15), it is resumed by id instead.
 */
static void
bot_resume_answer(struct bot *b, enum bot_kind kind, int ok, const char *msg)
{
	if (ok) {
		bot_log("resumed: %s", msg);
		b->waiting = 0;
		return;
	}
	if (kind == BOT_RESUME && b->in_game && b->live_gen == b->gen) {
		bot_log("resume by token refused (%s): resuming game %s by "
		    "account", msg, b->game_id);
		b->token[0] = '\0';
		bot_sendf(b, BOT_RESUME_ID, "resume %s", b->game_id);
		return;
	}
	if (b->waiting && b->in_game) {
		/* event live (here) or event redirect follows. */
		bot_log("could not resume game %s yet (%s): it is being taken "
		    "over", b->game_id, msg);
		b->refused_gen = b->gen;
		return;
	}
	bot_log("could not resume game %s: %s", b->game_id, msg);
	bot_game_over(b, "unknown", "lost while disconnected");
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
			bot_link_set(b, BOT_LINK_LOCKED);
			b->next_try = clock_mono_ms() + (uint64_t)wait * 1000 +
			    botpol_backoff_ms(0, 1000, 1000,
			    (uint32_t)random());
			bot_log("login as %s refused: %s; logging in again in "
			    "%ld s", b->name, msg, wait + 1);
			break;
		}
		if (!ok && bot_outage(msg)) {
			/* The accounts' database is down: come back. */
			bot_link_set(b, BOT_LINK_LOCKED);
			b->next_try = clock_mono_ms() + bot_outage_wait(b);
			bot_log("login as %s refused: %s; logging in again in "
			    "%llu ms", b->name, msg,
			    (unsigned long long)(b->next_try - clock_mono_ms()));
			break;
		}
		if (!ok)
			bot_fatal(b, "login as %s failed: %s", b->name, msg);
		b->seek_tries = 0;
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
		else if (!ok && strncmp(msg, "node draining", 13) == 0)
			bot_log("seek refused: %s (an event redirect "
			    "follows)", msg);
		else if (!ok && bot_outage(msg))
			bot_seek_later(b, msg);
		else if (!ok)
			bot_fatal(b, "seek %s refused: %s", b->seek, msg);
		else {
			b->seek_tries = 0;
			bot_log("%s: waiting for an opponent", msg);
		}
		break;
	case BOT_ACCEPT:
		bot_log("accept: %s", ok ? "ok" : msg);
		break;
	case BOT_DECLINE:
	case BOT_UNREADY:
	case BOT_PING:
		break;
	case BOT_RESUME:
	case BOT_RESUME_ID:
		bot_resume_answer(b, o->kind, ok, msg);
		break;
	case BOT_RESIGN:
		b->resigned = 1;
		bot_log("%s: %s", ok ? "the game is lost" : "resign refused",
		    msg);
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

/*
 * Handles one line from the server that is no answer's (up to a NUL in
 * it: the server channel's nul_ends); cut: only its first bytes.
 */
static void
bot_server_line(struct bot *b, char *line, int cut)
{
	char	 tmp[BOT_LOG_MAX + 8];

	if (cut) {
		/* A command too long for us: refuse it. */
		size_t n = strspn(line, "0123456789");

		bot_log("a line over %d bytes from the server: %s",
		    CHAN_LINE_MAX, bot_short(line, tmp, sizeof tmp));
		if (n > 0 && n < 20 && line[n] == ' ')
			buf_printf(&b->sc.out, "?%lu line too long for grundy "
			    "bot\n\n", strtoul(line, NULL, 10));
	} else if (strncmp(line, "event ", 6) == 0)
		bot_event(b, line);
	else if (line[0] != '\0')
		bot_command(b, line);
}

/* Closes the server connection and forgets what was on it. */
void
bot_close(struct bot *b)
{
	chan_close(&b->sc);
	b->nown = 0;
	proto_answer_reset(&b->sans);
	b->gen++;
	/* A connection closed for a lock waits for it; any other is lost. */
	bot_link_set(b, b->link == BOT_LINK_LOCKED ||
	    b->link == BOT_LINK_WAIT_LOCK ? BOT_LINK_WAIT_LOCK :
	    BOT_LINK_DOWN);
	b->attempt = 0;
}

/* Forgets the connection: its answers and what it had still to send. */
void
bot_lost(struct bot *b, const char *why)
{
	uint64_t	 now = clock_mono_ms();

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
	bot_node_lost(b);	/* the next node of --server, at once */
}

/*
 * Connects to the server (connect_dial); returns the socket (for
 * chan_open), or -1 with why set.
 */
int
bot_dial(struct bot *b, char *why, size_t len)
{
	int	 fd;

	if ((fd = connect_dial_ms(b->host, b->port, (int)b->dial_ms, why,
	    len)) < 0)
		return (-1);
	return (fd);
}

/*
 * Tries to reconnect: to the next node of --server after a failed dial,
 * with exponential backoff and jitter once a whole round failed
 * (bot_node_failed); gives up after --reconnect-for seconds.
 */
void
bot_reconnect(struct bot *b)
{
	char		 why[256];
	uint64_t	 now = clock_mono_ms();
	int		 fd;

	if ((fd = bot_dial(b, why, sizeof why)) == -1) {
		if (now - b->down_since >= (uint64_t)b->reconnect_s * 1000)
			bot_fatal(b, "could not %sconnect to %s:%s within "
			    "%lu s: %s", b->hello_first ? "" : "re", b->host,
			    b->port, b->reconnect_s, why);
		if (b->nnodes > 1 || b->detour)
			bot_log("cannot connect to %s:%s (%s)", b->host,
			    b->port, why);
		bot_node_dead(b);
		bot_node_failed(b);
		return;
	}
	chan_open(&b->sc, fd);
	bot_log("%sconnected to %s:%s", b->link == BOT_LINK_WAIT_LOCK ||
	    b->hello_first ? "" : "re", b->host, b->port);
	bot_link_set(b, BOT_LINK_UP);
	bot_hello(b, b->hello_first);
	b->hello_first = 0;
}

/*
 * Ends the live game with the loss the program caused (resign GAME_ID
 * REASON [DETAIL], PROTOCOL.md §13.4: a sandbox limit, or a crash), so
 * the server's record says why, and waits up to BOT_FINISH_MS for the
 * answer (the caller exits next).  Nothing without a live game on an
 * open connection: a game we are away from runs out on its clock.
 */
void
bot_resign_own(struct bot *b, const char *reason, const char *detail)
{
	struct pollfd	 pfd;
	uint64_t	 end = clock_mono_ms() + BOT_FINISH_MS, now;

	if (!b->in_game || b->waiting || bot_down(b) || !b->logged_in ||
	    b->game_gen != b->gen ||
	    strspn(b->game_id, "0123456789") != strlen(b->game_id) ||
	    b->game_id[0] == '\0')
		return;
	bot_log("%s lost game %s: %s%s%s", b->prog[0], b->game_id, reason,
	    detail != NULL ? " " : "", detail != NULL ? detail : "");
	bot_sendf(b, BOT_RESIGN, "resign %s %s%s%s", b->game_id, reason,
	    detail != NULL ? " " : "", detail != NULL ? detail : "");
	b->resigned = 0;
	while (!b->resigned && !bot_down(b) &&
	    (now = clock_mono_ms()) < end) {
		pfd.fd = b->sc.rfd;
		pfd.events = POLLIN | (chan_pending(&b->sc) > 0 ? POLLOUT : 0);
		pfd.revents = 0;
		if (poll(&pfd, 1, (int)(end - now)) == -1 && errno != EINTR)
			return;
		if ((pfd.revents & POLLOUT) && chan_write(&b->sc) != 0)
			return;
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
			if (chan_read(&b->sc) != 0)
				return;
			bot_server_input(b);
		}
	}
}

/*
 * Takes and handles every complete line from the server (its answer
 * blocks, its events and commands) while the connection is up: a line
 * that closes or leaves it leaves the rest unread.
 */
void
bot_server_input(struct bot *b)
{
	struct buf	 line;
	enum chan_got	 got;

	buf_init(&line);
	while (b->link == BOT_LINK_UP &&
	    (got = chan_next(&b->sc, &b->sans, &line)) != CHAN_NONE) {
		if (got == CHAN_ANSWER) {
			bot_server_answer(b);
			proto_answer_reset(&b->sans);
		} else
			bot_server_line(b, line.data, got == CHAN_CUT);
	}
	buf_free(&line);
}
