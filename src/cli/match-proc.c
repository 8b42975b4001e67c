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
	};
	const char	*step;

	if (chan_spawn(&p->ch, &o, &step) != 0)
		return (-1);
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

/* Kills a process and its group at once, and reaps it. */
void
mp_kill(struct mproc *p)
{
	if (p->state == MP_DOWN)
		return;
	mp_close(p);
	chan_kill(&p->ch, SIGKILL);
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
				if (chan_wait(&p->ch, 0, &status) != 0)
					mp_close(p);
				else
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
 * Queues a command to a process under a new id; genmove commands are
 * remembered with the turn's serial.  A process with MATCH_OUTSTANDING
 * commands unanswered forgets the oldest (it cost only its own turn).
 */
static void
mp_vqueue(struct mproc *p, int genmove, unsigned long serial,
    const char *fmt, va_list ap)
{
	unsigned long	 id = ++p->next_id;

	if (p->state != MP_UP)
		return;
	if (p->nout == MATCH_OUTSTANDING) {
		memmove(&p->out[0], &p->out[1], (p->nout - 1) *
		    sizeof p->out[0]);
		p->nout--;
	}
	p->out[p->nout].id = id;
	p->out[p->nout].genmove = genmove;
	p->out[p->nout].serial = serial;
	p->nout++;
	buf_printf(&p->ch.out, "%lu ", id);
	buf_vprintf(&p->ch.out, fmt, ap);
	buf_putc(&p->ch.out, '\n');
}

/*
 * Queues a command without writing it: the next mp_send to the process
 * (or the poll loop) writes both with one write.
 */
void
mp_queue(struct mproc *p, int genmove, unsigned long serial,
    const char *fmt, ...)
{
	va_list		 ap;

	va_start(ap, fmt);
	mp_vqueue(p, genmove, serial, fmt, ap);
	va_end(ap);
}

/* Queues a command (mp_queue) and writes what the pipe takes. */
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
 * "closed its output".  The process is down afterwards.
 */
const char *
mp_death(struct mproc *p, char *tmp, size_t len)
{
	int	 status, r;

	snprintf(tmp, len, "closed its output");
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
	return (tmp);
}
