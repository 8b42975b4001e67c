/*
 * match-proc.c: the engine processes of `grundy match` (match.h): started
 * on the channel's pipes (chan_spawn) in a process group of their own (so
 * that Ctrl-C reaches only grundy match, which then stops them), commands
 * written to them, their death read and reported, and killed with their
 * whole group.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/match.h"
#include "cli/ptree.h"
#include "lib/clock.h"

/* How long a process that closed its output gets to exit (mp_death). */
#define MP_DEATH_MS	1000

/*
 * Starts engine eng in proc, in a process group of its own (chan_spawn).
 * Returns 0, or -1 with errno set (the pipes or fork failed; a program
 * that cannot be executed exits 127 and is seen as a crash).
 */
int
mp_spawn(struct match *m, struct mproc *p, size_t eng)
{
	struct match_engine *e = &m->eng[eng];
	struct chan_prog o = {
		.argv = e->argv,
		.dir = e->dir,
		.env = e->env,
		.group = 1,
		.who = "grundy match",
		.sandbox = e->sandbox ? &m->sandbox : NULL,
	};
	const char	*step;

	if (chan_spawn(&p->ch, &o, &step) != 0)
		return (-1);
	/*
	 * Its tree, for what each move costs (and the CPU-time clock): the
	 * sandbox's (chan.h), else one without limits that the process
	 * enters once started (ptree_enter's cgroup move; with a process
	 * group, the group is already the tree).  Without one (ptree_new
	 * failed) its moves have no cost.
	 */
	p->tree = p->ch.tree == NULL ? ptree_new(e->name, NULL) : NULL;
	if (p->tree != NULL && ptree_enter(p->tree, p->ch.pid) != 0) {
		ptree_free(p->tree);
		p->tree = NULL;
	}
	p->frozen = 0;
	p->blocking = 0;
	p->eng = eng;
	p->nout = 0;
	p->fresh = 1;
	p->state = MP_UP;
	proto_answer_reset(&p->ans);
	return (0);
}

/* Closes a process's pipes and forgets what it was sent. */
static void
mp_close(struct mproc *p)
{
	chan_close(&p->ch);
	p->nout = 0;
	proto_answer_reset(&p->ans);
	p->state = MP_DOWN;
}

/* The process tree of a process: the sandbox's, or its own, or NULL. */
static struct ptree *
mp_tree(struct mproc *p)
{
	return (p->ch.tree != NULL ? p->ch.tree : p->tree);
}

/* Kills what is left of its own tree (children it left) and frees it. */
static void
mp_tree_end(struct mproc *p)
{
	p->frozen = 0;
	if (p->tree == NULL)
		return;
	ptree_kill(p->tree);
	ptree_free(p->tree);
	p->tree = NULL;
}

/* Kills a process, its group and its tree at once, and reaps it. */
void
mp_kill(struct mproc *p)
{
	if (p->state == MP_DOWN)
		return;
	mp_close(p);
	mp_tree_end(p);
	chan_kill(&p->ch, SIGKILL);
}

/*
 * Whether a process's moves are measured (CPU time, peak memory): under
 * clock=cpu always; under the wall clock where its tree is a cgroup, whose
 * counters cost microseconds, not where it is a process group, whose walk
 * of /proc costs milliseconds a reading (BENCHMARKS.md §36).
 */
int
mp_measured(const struct match *m, struct mproc *p)
{
	struct ptree	*t = mp_tree(p);

	return (t != NULL && (m->cpu_clock ||
	    strncmp(ptree_mode(t), "process-group", 13) != 0));
}

/* The CPU time of a process's tree so far (ns).  Returns 0, or -1. */
int
mp_cpu_ns(struct mproc *p, uint64_t *ns)
{
	return (mp_tree(p) != NULL && p->state == MP_UP ?
	    ptree_cpu_ns(mp_tree(p), ns) : -1);
}

/* The peak memory of a process's tree so far.  Returns 0, or -1. */
int
mp_peak_bytes(struct mproc *p, uint64_t *bytes)
{
	return (mp_tree(p) != NULL && p->state == MP_UP ?
	    ptree_peak_bytes(mp_tree(p), bytes) : -1);
}

/* Freezes (on) or thaws a process's tree: no thinking off its turn. */
void
mp_freeze(struct mproc *p, int on)
{
	struct ptree	*t = mp_tree(p);

	if (t == NULL || p->state != MP_UP || p->frozen == on)
		return;
	if ((on ? ptree_freeze(t) : ptree_thaw(t)) == 0)
		p->frozen = on;
}

/*
 * Stops every process at the end of the run: closes their stdin (a
 * polite end), gives them up to a second in all to exit, then kills
 * what is left.
 */
void
mp_stop_all(struct match *m)
{
	uint64_t	 end = clock_mono_ms() + 1000;
	size_t		 s, k, left;
	int		 status;
	struct mproc	*p;

	for (s = 0; s < m->conc; s++)
		for (k = 0; k < 2; k++) {
			p = &m->slots[s].proc[k];
			mp_freeze(p, 0);
			if (p->state == MP_UP)
				chan_hangup(&p->ch);
		}
	do {
		left = 0;
		for (s = 0; s < m->conc; s++)
			for (k = 0; k < 2; k++) {
				p = &m->slots[s].proc[k];
				if (p->state != MP_UP || p->ch.pid <= 0)
					continue;
				if (chan_wait(&p->ch, 0, &status) != 0) {
					mp_close(p);
					mp_tree_end(p);
				} else
					left++;
			}
		if (left > 0)
			usleep(5000);
	} while (left > 0 && clock_mono_ms() < end);
	for (s = 0; s < m->conc; s++)
		for (k = 0; k < 2; k++)
			mp_kill(&m->slots[s].proc[k]);
}

/*
 * Starts a command to a process under a new id; genmove commands are
 * remembered with the turn's serial.  A process with MATCH_OUTSTANDING
 * commands unanswered forgets the oldest (it cost only its own turn).
 * Returns the buffer the caller writes the command and its LF into
 * (without printf, on a ply: mg_apply), or NULL if the process is down.
 */
struct buf *
mp_cmd(struct mproc *p, int genmove, unsigned long serial)
{
	unsigned long	 id = ++p->next_id;

	if (p->state != MP_UP)
		return (NULL);
	if (p->nout == MATCH_OUTSTANDING) {
		memmove(&p->out[0], &p->out[1], (p->nout - 1) *
		    sizeof p->out[0]);
		p->nout--;
	}
	p->out[p->nout].id = id;
	p->out[p->nout].genmove = genmove;
	p->out[p->nout].serial = serial;
	p->nout++;
	buf_putu(&p->ch.out, id);
	buf_putc(&p->ch.out, ' ');
	return (&p->ch.out);
}

/* Queues a printf-formatted command (mp_cmd). */
static void
mp_vqueue(struct mproc *p, int genmove, unsigned long serial,
    const char *fmt, va_list ap)
{
	struct buf	*b = mp_cmd(p, genmove, serial);

	if (b == NULL)
		return;
	buf_vprintf(b, fmt, ap);
	buf_putc(b, '\n');
}

/* Queues a command (mp_cmd) and writes what the pipe takes. */
void
mp_send(struct mproc *p, int genmove, unsigned long serial,
    const char *fmt, ...)
{
	va_list		 ap;

	va_start(ap, fmt);
	mp_vqueue(p, genmove, serial, fmt, ap);
	va_end(ap);
	mp_flush(p);
}

/* Writes what the pipe takes.  Returns 0, or -1 if the reader is gone. */
int
mp_flush(struct mproc *p)
{
	if (p->state != MP_UP || p->ch.wfd == -1 || chan_pending(&p->ch) == 0)
		return (0);
	return (chan_write(&p->ch));
}

/*
 * Reaps a process that closed its output (or its input) and describes
 * its end in tmp: "exited with status N", "killed by signal N" or
 * "closed its output"; *limit is the sandbox limit it ran into
 * (chan_violation), or NULL.  The process is down afterwards.
 */
const char *
mp_death(struct mproc *p, char *tmp, size_t len, const char **limit)
{
	int	 status, r, boxed = p->ch.tree != NULL;

	snprintf(tmp, len, "closed its output");
	/* Its tree's counters and stderr, before the reaping ends them. */
	*limit = chan_violation(&p->ch, NULL);
	mp_close(p);
	/*
	 * A process that closed its output usually exits right after, but
	 * on a loaded machine "right after" can take a while (a Python
	 * engine still finalizing): its exit status is what a user wants to
	 * read, so wait up to MP_DEATH_MS for it.  One that is still running
	 * then is killed and reported as "closed its output" (the loop waits
	 * no longer; only a process that closes its output and lingers costs
	 * the whole wait).
	 */
	if ((r = chan_wait(&p->ch, MP_DEATH_MS, &status)) == 0)
		chan_kill(&p->ch, SIGKILL);
	else if (r == 1 && WIFEXITED(status))
		snprintf(tmp, len, "exited with status %d",
		    WEXITSTATUS(status));
	else if (r == 1 && WIFSIGNALED(status))
		snprintf(tmp, len, "killed by signal %d", WTERMSIG(status));
	if (*limit == NULL && boxed && r == 1)
		*limit = sandbox_exit_reason(status);
	mp_tree_end(p);
	return (tmp);
}
