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

/* The program's process tree: the sandbox's, or its own, or NULL. */
static struct ptree *
bot_tree(struct bot *b)
{
	return (b->pc.tree != NULL ? b->pc.tree : b->tree);
}

/*
 * Thaws (on) or freezes the program's process tree: under --sandbox (an
 * untrusted, hosted program) and without --ponder it runs only while it
 * owes the server an answer (bot-server.c thaws it as
 * a command is relayed; once all are answered, bot.c's loop freezes it
 * after the answer went to the server, off its clock), so it cannot think
 * on its opponent's time.  The time it is
 * frozen is charged to no one (grundyd's clock runs on its turn alone).
 */
void
bot_program_run(struct bot *b, int on)
{
	struct ptree	*t = bot_tree(b);

	b->freeze_due = 0;
	if (t == NULL || b->pc.pid <= 0 || b->frozen == !on ||
	    ((b->ponder || !b->sandbox) && !on))
		return;
	if ((on ? ptree_thaw(t) : ptree_freeze(t)) == 0)
		b->frozen = !on;
}

/* Kills what is left of the program's own tree (its children) and frees it. */
static void
bot_tree_end(struct bot *b)
{
	if (b->tree == NULL)
		return;
	ptree_kill(b->tree);
	ptree_free(b->tree);
	b->tree = NULL;
}

/*
 * Closes the program's stdin, waits up to a second for it to leave, then
 * sends it SIGTERM, or kills a sandboxed one's whole tree (whose bwrap
 * outlives a SIGTERM while the program hangs).
 */
void
bot_stop_program(struct bot *b)
{
	int	 status;

	bot_program_run(b, 1);
	chan_hangup(&b->pc);
	if (chan_wait(&b->pc, 1000, &status) == 0)
		chan_kill(&b->pc, b->sandbox ? SIGKILL : SIGTERM);
	bot_tree_end(b);
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

/*
 * Kills the program at once, with its whole tree (a program that broke a
 * limit or crashed: bot.c's bot_program_lost).
 */
void
bot_program_kill(struct bot *b)
{
	b->frozen = 0;
	chan_kill(&b->pc, SIGKILL);
	bot_tree_end(b);
}

/*
 * Reaps the program after it closed its stdout or stdin; returns why its
 * game is lost: a sandbox limit (*detail empty), or "crash" with its
 * detail (len bytes).
 */
const char *
bot_program_died(struct bot *b, char *detail, size_t len)
{
	int		 status;
	const char	*limit;

	bot_program_run(b, 1);
	chan_hangup(&b->pc);
	detail[0] = '\0';
	/* A sandbox limit, told before the reaping ends its tree. */
	if ((limit = chan_violation(&b->pc, NULL)) != NULL)
		return (limit);
	snprintf(detail, len, "closed its output");
	if (chan_wait(&b->pc, -1, &status) == 1) {
		if ((limit = b->sandbox ? sandbox_exit_reason(status) :
		    NULL) != NULL) {
			detail[0] = '\0';
			return (limit);
		}
		if (WIFEXITED(status))
			snprintf(detail, len, "exited with status %d",
			    WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			snprintf(detail, len, "killed by signal %d",
			    WTERMSIG(status));
	}
	return ("crash");
}

/*
 * Starts the program with pipes to its stdin and stdout, sandboxed with
 * --sandbox (checked first: a sandbox that cannot run here is said so).
 */
void
bot_spawn(struct bot *b)
{
	struct chan_prog o = { .argv = b->prog, .who = "grundy bot",
			    .group = 1,
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
	/*
	 * To freeze it off its turn: the sandbox's tree, else one without
	 * limits that it enters now (with a process group, its group is
	 * the tree), as grundy match does; none (ptree_new failed): it is
	 * never frozen.
	 */
	b->frozen = 0;
	b->tree = b->pc.tree == NULL ? ptree_new(b->name, NULL) : NULL;
	if (b->tree != NULL && ptree_enter(b->tree, b->pc.pid) != 0) {
		ptree_free(b->tree);
		b->tree = NULL;
	}
}

/*
 * Reads the sandboxed program's stderr; returns "output-limit" past its
 * cap (its game is lost), else NULL.
 */
const char *
bot_program_stderr(struct bot *b)
{
	if (chan_read_err(&b->pc) == 0)
		return (NULL);
	bot_log("%s wrote over %llu bytes to stderr", b->prog[0],
	    (unsigned long long)b->sb.stderr_bytes);
	return ("output-limit");
}

/*
 * Handles a complete answer block from the program: finds the command it
 * answers by id (one without an id answers the oldest), and sends it to
 * the server under the server's id of that command, unless the
 * connection has changed since.  Older commands still unanswered are
 * given up (GTP answers come in order): each cost only its own turn.
 * Returns the sandbox limit the program ran into (then nothing is
 * relayed), or NULL.
 */
static const char *
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
		return (limit);
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
		return (NULL);
	}
	for (k = 0; k < i; k++)
		bot_warn("%s never answered command %lu (%s): given up",
		    b->prog[0], b->fwd[k].pid, b->fwd[k].name);
	f = b->fwd[i];
	memmove(&b->fwd[0], &b->fwd[i + 1], (b->nfwd - i - 1) *
	    sizeof b->fwd[0]);
	b->nfwd -= i + 1;
	/* It owes nothing: frozen once its answer is sent (bot.c). */
	b->freeze_due = b->nfwd == 0;
	if (!a->ok && strcmp(f.name, "genmove") != 0)
		bot_warn("%s refused %s (command %lu): %s", b->prog[0], f.name,
		    f.pid, tmp);
	else if (a->lines > 1 || a->over)
		bot_warn("%s answered %s (command %lu) with %s: %s",
		    b->prog[0], f.name, f.pid, a->over ? "too many bytes" :
		    "several lines", tmp);
	if (f.gen != b->gen || bot_down(b))
		return (NULL);
	/* A cut answer could read as another move: never relay it. */
	if (a->over)
		buf_printf(&b->sc.out, "?%lu answer over %d bytes\n\n", f.sid,
		    BOT_ANSWER_MAX);
	else
		proto_answer_write(&b->sc.out, a, f.sid);
	return (NULL);
}

/*
 * Takes and handles every complete line from the program: its answer
 * blocks, and its other lines (a banner, debug output), logged and never
 * taken as answers.  Returns the sandbox limit it ran into (its game is
 * lost, nothing more is relayed), or NULL.
 */
const char *
bot_program_input(struct bot *b)
{
	struct buf	 line;
	enum chan_got	 got;
	char		 tmp[BOT_LOG_MAX + 8];
	const char	*limit = NULL;

	buf_init(&line);
	while (limit == NULL &&
	    (got = chan_next(&b->pc, &b->pans, &line)) != CHAN_NONE) {
		if (got == CHAN_ANSWER) {
			limit = bot_program_answer(b);
			proto_answer_reset(&b->pans);
		} else if (line.data[0] != '\0')
			bot_log("%s%s: %s", b->prog[0], got == CHAN_CUT ?
			    " (line cut)" : "", bot_short(line.data, tmp,
			    sizeof tmp));
	}
	buf_free(&line);
	return (limit);
}
