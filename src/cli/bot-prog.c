/*
 * bot-prog.c: the player program of `grundy bot`: its process (started
 * on the channel's pipes, chan_spawn; stopped; its death) and its answer
 * blocks, relayed to the server under the server's id of the command
 * (bot-int.h).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bot-int.h"

/*
 * Closes the program's stdin, waits up to a second for it to leave, then
 * sends it SIGTERM.
 */
void
bot_stop_program(struct bot *b)
{
	int	 status;

	chan_hangup(&b->pc);
	if (chan_wait(&b->pc, 1000, &status) == 0)
		chan_kill(&b->pc, SIGTERM);
}

/* Prints a fatal error, stops the program and exits 1. */
void __attribute__((noreturn, format(printf, 2, 3)))
bot_fatal(struct bot *b, const char *fmt, ...)
{
	va_list	 ap;

	fputs("grundy bot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	chan_close(&b->sc);
	bot_stop_program(b);
	exit(1);
}

/* Reaps the program after it closed its stdout or stdin, and exits 1. */
void __attribute__((noreturn))
bot_program_died(struct bot *b)
{
	int	 status;

	const char	*limit;

	chan_hangup(&b->pc);
	/* A sandbox limit, told before the reaping ends its tree. */
	if ((limit = chan_violation(&b->pc, NULL)) != NULL)
		bot_fatal(b, "%s ran into its sandbox's %s", b->prog[0],
		    limit);
	if (chan_wait(&b->pc, -1, &status) == 1) {
		if ((limit = b->sandbox ? sandbox_exit_reason(status) :
		    NULL) != NULL)
			bot_fatal(b, "%s ran into its sandbox's %s",
			    b->prog[0], limit);
		if (WIFEXITED(status))
			bot_fatal(b, "%s exited with status %d", b->prog[0],
			    WEXITSTATUS(status));
		if (WIFSIGNALED(status))
			bot_fatal(b, "%s was killed by signal %d", b->prog[0],
			    WTERMSIG(status));
	}
	bot_fatal(b, "%s closed its output", b->prog[0]);
}

/*
 * Starts the program with pipes to its stdin and stdout, sandboxed with
 * --sandbox (checked first: a sandbox that cannot run here is said so).
 */
void
bot_spawn(struct bot *b)
{
	struct chan_prog o = { .argv = b->prog, .who = "grundy bot",
			    .group = b->sandbox,
			    .sandbox = b->sandbox ? &b->sb : NULL };
	const char	*step, *mode;
	struct buf	 why;

	buf_init(&why);
	if (b->sandbox && chan_sandbox_check(&b->sb, &why, &mode) != 0)
		bot_fatal(b, "--sandbox: the sandbox (bwrap) cannot run here: "
		    "%s", buf_str(&why));
	buf_free(&why);
	if (b->sandbox)
		bot_log("sandbox: bwrap and seccomp, limits by %s", mode);
	if (chan_spawn(&b->pc, &o, &step) != 0)
		bot_fatal(b, "%s: %s", step, strerror(errno));
}

/*
 * Reads the sandboxed program's stderr; past its cap the program is
 * stopped and grundy bot exits 1 (output-limit).
 */
void
bot_program_stderr(struct bot *b)
{
	if (chan_read_err(&b->pc) != 0)
		bot_fatal(b, "%s ran into its sandbox's output-limit (stderr "
		    "over %llu bytes)", b->prog[0],
		    (unsigned long long)b->sb.stderr_bytes);
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
	const char	*limit;
	size_t		 i, k;

	/* A program that ran into a limit moves no more (as grundy match
	 * judges it before its move): a fork bomb's forks refused by the
	 * pids cgroup do not stop it answering. */
	if ((limit = chan_violation(&b->pc, NULL)) != NULL)
		bot_fatal(b, "%s ran into its sandbox's %s", b->prog[0],
		    limit);
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
	if (f.gen != b->gen || bot_down(b))
		return;
	/* A cut answer could read as another move: never relay it. */
	if (a->over)
		buf_printf(&b->sc.out, "?%lu answer over %d bytes\n\n", f.sid,
		    BOT_ANSWER_MAX);
	else
		proto_answer_write(&b->sc.out, a, f.sid);
}

/*
 * Takes and handles every complete line from the program: its answer
 * blocks, and its other lines (a banner, debug output), logged and never
 * taken as answers.
 */
void
bot_program_input(struct bot *b)
{
	struct buf	 line;
	enum chan_got	 got;
	char		 tmp[BOT_LOG_MAX + 8];

	buf_init(&line);
	while ((got = chan_next(&b->pc, &b->pans, &line)) != CHAN_NONE) {
		if (got == CHAN_ANSWER) {
			bot_program_answer(b);
			proto_answer_reset(&b->pans);
		} else if (line.data[0] != '\0')
			bot_log("%s%s: %s", b->prog[0], got == CHAN_CUT ?
			    " (line cut)" : "", bot_short(line.data, tmp,
			    sizeof tmp));
	}
	buf_free(&line);
}
