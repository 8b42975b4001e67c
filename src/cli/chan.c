/*
 * chan.c: the byte channel of grundy bot, grundy match and grundy connect
 * (chan.h): the stream's life, non-blocking reads and writes, lines and
 * answer blocks taken from what was read, and the player program at the
 * other end of a pipe pair: started, waited for, killed.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/chan.h"
#include "cli/ptree.h"
#include "cli/sandbox.h"
#include "lib/clock.h"

/* Sets up a closed channel with empty buffers and no program. */
void
chan_init(struct chan *ch)
{
	memset(ch, 0, sizeof *ch);
	ch->rfd = ch->wfd = -1;
	ch->pid = -1;
	ch->errfd = -1;
	buf_init(&ch->in);
	buf_init(&ch->out);
}

/* Sets O_NONBLOCK on fd. */
static void
chan_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Takes a connected socket as the channel's both ends, non-blocking. */
void
chan_open(struct chan *ch, int fd)
{
	ch->rfd = ch->wfd = fd;
	chan_nonblock(fd);
}

/*
 * Closes the stream's descriptors (once when rfd == wfd, a socket), marks
 * them -1 and forgets what was read and what was to be written.  A
 * program at the other end is left to chan_wait or chan_kill.
 */
void
chan_close(struct chan *ch)
{
	if (ch->wfd != -1 && ch->wfd != ch->rfd)
		close(ch->wfd);
	if (ch->rfd != -1)
		close(ch->rfd);
	ch->rfd = ch->wfd = -1;
	buf_reset(&ch->in);
	buf_reset(&ch->out);
	ch->in_off = ch->out_off = 0;
	ch->skip = 0;
}

/* Frees the channel's buffers (its descriptors are chan_close's). */
void
chan_free(struct chan *ch)
{
	buf_free(&ch->in);
	buf_free(&ch->out);
}

/* Reads what is there into the input buffer.  Returns 0, or -1 at EOF. */
int
chan_read(struct chan *ch)
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

/*
 * Makes reads from the channel block (on), or not again (off): for a
 * caller that has nothing else to wait for (grundy match's mg_wait).
 */
void
chan_blocking(struct chan *ch, int on)
{
	int	 fl = fcntl(ch->rfd, F_GETFL);

	if (fl != -1)
		fcntl(ch->rfd, F_SETFL, on ? fl & ~O_NONBLOCK :
		    fl | O_NONBLOCK);
}

/* Returns the number of bytes queued on a channel. */
size_t
chan_pending(const struct chan *ch)
{
	return (ch->out.len - ch->out_off);
}

/*
 * Writes what the channel takes (a socket without SIGPIPE).  Returns 0,
 * or -1 when the peer is gone.
 */
int
chan_write(struct chan *ch)
{
	ssize_t	 n;

	if (ch->wfd == ch->rfd)
		n = send(ch->wfd, ch->out.data + ch->out_off,
		    chan_pending(ch), MSG_NOSIGNAL);
	else
		n = write(ch->wfd, ch->out.data + ch->out_off,
		    chan_pending(ch));
	if (n < 0)
		return (errno == EAGAIN || errno == EINTR ? 0 : -1);
	ch->out_off += (size_t)n;
	if (ch->out_off == ch->out.len) {
		buf_reset(&ch->out);
		ch->out_off = 0;
	}
	return (0);
}

/*
 * Takes the next complete line out of ch->in into line, without its LF
 * and a CR before it.  Returns 1 for a line, 0 when more bytes are
 * needed, or -1 for a line over CHAN_LINE_MAX: line then holds its first
 * CHAN_CUT_KEEP bytes and the rest is dropped as it arrives.
 */
int
chan_take_line(struct chan *ch, struct buf *line)
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
		if (n > CHAN_LINE_MAX) {
			buf_reset(line);
			buf_add(line, p, CHAN_CUT_KEEP);
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

/*
 * Takes lines from ch, feeding each to the answer reader a
 * (proto_answer_feed), until one ends a block or is no answer's.
 * Returns CHAN_ANSWER (a holds the block: read it, then call
 * proto_answer_reset), CHAN_LINE or CHAN_CUT (line holds a line that is
 * no answer's, as it came, or the first bytes of one over CHAN_LINE_MAX),
 * or CHAN_NONE when no whole line is left.  On a channel whose nul_ends
 * is set, a line ends at its first NUL.
 */
enum chan_got
chan_next(struct chan *ch, struct proto_answer *a, struct buf *line)
{
	int	 rv;

	while ((rv = chan_take_line(ch, line)) != 0) {
		if (ch->nul_ends)
			line->len = strlen(line->data);
		switch (proto_answer_feed(a, line->data, line->len, rv < 0)) {
		case PROTO_IN_BLOCK:
			continue;
		case PROTO_BLOCK_DONE:
			return (CHAN_ANSWER);
		case PROTO_NOT_ANSWER:
			break;
		}
		return (rv < 0 ? CHAN_CUT : CHAN_LINE);
	}
	return (CHAN_NONE);
}

/* The descriptors of a sandboxed spawn (all -1 when not sandboxed). */
struct chan_sb {
	int		 err[2];	/* its stderr, captured */
	int		 hs[2];		/* the handshake (a socket pair): its
					 * tree entered */
	int		 bpf;		/* the seccomp filter for bwrap */
	char		**argv;		/* the bwrap command line */
	uid_t		 uid;		/* under root: the user it runs as */
};

/*
 * The child's side of chan_spawn: its stdin and stdout the pipes, its
 * stderr, group, signals, environment and directory as o says, then the
 * program; sandboxed, it first waits for the parent to put it in its
 * tree, and runs bwrap, which sets up the rest.  A failure is told on
 * stderr and exits 127.
 */
static void __attribute__((noreturn))
chan_child(const struct chan_prog *o, int in, int out,
    const struct chan_sb *sb)
{
	char *const	*argv = o->argv;
	int		 fd;
	size_t		 i;
	char		 c;

	if (o->group)
		setpgid(0, 0);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1)
		_exit(127);
	if (o->sandbox != NULL) {
		close(sb->hs[1]);
		if (dup2(sb->err[1], 2) == -1 ||
		    read(sb->hs[0], &c, 1) != 1 ||
		    fcntl(sb->bpf, F_SETFD, 0) == -1)
			_exit(127);
		/* Under root, bwrap and the program run as a user of their
		 * own (its tree's limits were set while it was root). */
		if (geteuid() == 0 && (setgroups(0, NULL) != 0 ||
		    setgid((gid_t)sb->uid) != 0 || setuid(sb->uid) != 0)) {
			fprintf(stderr, "%s: cannot become uid %lu: %s\n",
			    o->who, (unsigned long)sb->uid, strerror(errno));
			_exit(127);
		}
		argv = sb->argv;
	} else if (o->err == CHAN_ERR_NULL) {
		if ((fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) == -1 ||
		    dup2(fd, 2) == -1)
			_exit(127);
	}
	/* grundy ignores SIGPIPE; an ignored signal survives exec. */
	signal(SIGPIPE, SIG_DFL);
	if (o->sandbox == NULL) {
		for (i = 0; o->env != NULL && o->env[i] != NULL; i++)
			putenv(o->env[i]);
		if (o->dir != NULL && chdir(o->dir) != 0) {
			fprintf(stderr, "%s: %s: %s\n", o->who, o->dir,
			    strerror(errno));
			_exit(127);
		}
	}
	execvp(argv[0], argv);
	fprintf(stderr, "%s: %s: %s\n", o->who, argv[0], strerror(errno));
	_exit(127);
}

/* Closes a descriptor of chan_sb if open, keeping errno. */
static void
chan_close_fd(int *fd)
{
	int	 e = errno;

	if (*fd != -1)
		close(*fd);
	*fd = -1;
	errno = e;
}

/* Releases what a sandboxed spawn opened (errno kept). */
static void
chan_sb_free(struct chan_sb *sb)
{
	int	 e = errno;

	chan_close_fd(&sb->err[0]);
	chan_close_fd(&sb->err[1]);
	chan_close_fd(&sb->hs[0]);
	chan_close_fd(&sb->hs[1]);
	chan_close_fd(&sb->bpf);
	sandbox_argv_free(sb->argv);
	sb->argv = NULL;
	errno = e;
}

/*
 * Prepares a sandboxed spawn: the process tree with its limits (in
 * ch->tree), the stderr and handshake pipes, the seccomp filter and the
 * bwrap command line.  Returns 0, or -1 with errno and *step set.
 */
static int
chan_sb_prepare(struct chan *ch, const struct chan_prog *o,
    struct chan_sb *sb, const char **step)
{
	*step = "sandbox tree";
	if ((ch->tree = ptree_new(o->who, &o->sandbox->lim)) == NULL)
		return (-1);
	*step = "pipe";
	if (pipe2(sb->err, O_CLOEXEC) != 0 || socketpair(AF_UNIX,
	    SOCK_STREAM | SOCK_CLOEXEC, 0, sb->hs) != 0)
		return (-1);
	*step = "seccomp filter";
	if ((sb->bpf = sandbox_filter()) == -1) {
		if (errno == 0)
			errno = EINVAL;
		return (-1);
	}
	sb->argv = sandbox_argv(o->sandbox, o->argv, o->dir, o->env,
	    sb->bpf);
	sb->uid = sandbox_uid();
	return (0);
}

/*
 * Starts the player program o->argv with pipes to its stdin (ch->wfd) and
 * from its stdout (ch->rfd), both non-blocking, and sets ch->pid and
 * ch->group.  This is the one place where grundy starts a player
 * program.  With o->sandbox it runs under bwrap (sandbox.h) in a process
 * tree of its own (ch->tree, entered before it starts), its stderr read
 * from ch->errfd.  Returns 0, or -1 with errno set and *step "pipe",
 * "fork", "sandbox tree", "seccomp filter" or "sandbox limits" (the
 * descriptors then closed).  A program that cannot be executed exits 127,
 * with its reason on stderr.
 */
int
chan_spawn(struct chan *ch, const struct chan_prog *o, const char **step)
{
	struct chan_sb	 sb = { { -1, -1 }, { -1, -1 }, -1, NULL, 0 };
	int		 in[2] = { -1, -1 }, out[2] = { -1, -1 };
	pid_t		 pid;

	if (o->sandbox != NULL && chan_sb_prepare(ch, o, &sb, step) != 0)
		goto fail;
	*step = "pipe";
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		goto fail;
	fflush(stdout);
	fflush(stderr);
	*step = "fork";
	if ((pid = fork()) == -1)
		goto fail;
	if (pid == 0)
		chan_child(o, in[0], out[1], &sb);
	if (o->group)
		setpgid(pid, pid);
	close(in[0]);
	close(out[1]);
	ch->pid = pid;
	ch->group = o->group;
	ch->wfd = in[1];
	ch->rfd = out[0];
	chan_nonblock(ch->wfd);
	chan_nonblock(ch->rfd);
	if (o->sandbox != NULL) {
		ch->errfd = sb.err[0];
		sb.err[0] = -1;
		chan_nonblock(ch->errfd);
		ch->err_len = 0;
		ch->err_cap = o->sandbox->stderr_bytes;
		*step = "sandbox limits";
		if (ptree_enter(ch->tree, pid) != 0 ||
		    send(sb.hs[1], "g", 1, MSG_NOSIGNAL) != 1) {
			chan_sb_free(&sb);
			chan_close(ch);
			chan_kill(ch, SIGKILL);
			return (-1);
		}
		chan_sb_free(&sb);
	}
	return (0);
fail:
	chan_close_fd(&in[0]);
	chan_close_fd(&in[1]);
	chan_close_fd(&out[0]);
	chan_close_fd(&out[1]);
	chan_sb_free(&sb);
	if (ch->tree != NULL) {
		ptree_free(ch->tree);
		ch->tree = NULL;
	}
	return (-1);
}

/*
 * Where a sandboxed program's stderr is copied: our stderr, through a
 * non-blocking descriptor of its own where it is a pipe or a terminal
 * (reopened, so that the flag stays off grundy's own fd 2), so that a
 * slow reader of grundy's stderr never stalls the loop (what it would not
 * take now is dropped).
 */
static int
chan_err_out(void)
{
	static int	 fd = -2;
	struct stat	 st;

	if (fd != -2)
		return (fd);
	fd = 2;
	if (fstat(2, &st) == 0 && (S_ISFIFO(st.st_mode) ||
	    S_ISCHR(st.st_mode))) {
		int nb = open("/proc/self/fd/2", O_WRONLY | O_NONBLOCK |
		    O_CLOEXEC | O_NOCTTY);

		if (nb != -1)
			fd = nb;
	}
	return (fd);
}

/*
 * Reads what a sandboxed program wrote to its stderr: copied to ours up
 * to its cap (ch->err_cap bytes in all), the rest counted and dropped.
 * Returns -1 once it wrote more than its cap, else 0.  At its end the
 * pipe is closed (ch->errfd -1).
 */
int
chan_read_err(struct chan *ch)
{
	char	 buf[65536];
	ssize_t	 n;
	size_t	 keep;
	int	 rounds = 0;

	while (ch->errfd != -1 && rounds++ < 16) {
		n = read(ch->errfd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN)
				chan_close_fd(&ch->errfd);
			break;
		}
		keep = ch->err_len >= ch->err_cap ? 0 :
		    ch->err_cap - ch->err_len < (uint64_t)n ?
		    (size_t)(ch->err_cap - ch->err_len) : (size_t)n;
		if (keep > 0 && write(chan_err_out(), buf, keep) < 0)
			keep = 0;
		ch->err_len += (uint64_t)n;
	}
	return (ch->err_len > ch->err_cap ? -1 : 0);
}

/*
 * The limit a sandboxed program ran into, if any: "output-limit" (more
 * stderr than its cap), "memory-limit" or "process-limit" (its tree's
 * cgroup tells), or from its wait status when status is not NULL
 * ("forbidden-syscall", "output-limit": sandbox_exit_reason).  NULL for
 * none, and for a program run as it is.
 */
const char *
chan_violation(struct chan *ch, const int *status)
{
	const char	*v;

	if (ch->tree == NULL)
		return (NULL);
	if (chan_read_err(ch) != 0)
		return ("output-limit");
	if ((v = ptree_violation(ch->tree)) != NULL)
		return (v);
	return (status != NULL ? sandbox_exit_reason(*status) : NULL);
}

/* Ends a sandboxed program's tree and stderr, once it was reaped. */
static void
chan_sb_end(struct chan *ch)
{
	if (ch->tree != NULL) {
		ptree_free(ch->tree);
		ch->tree = NULL;
	}
	chan_close_fd(&ch->errfd);
}

/*
 * Checks that the sandbox works on this machine: runs true(1) in it.
 * Returns 0 with *mode how its process tree is held (ptree_mode), or -1
 * with what went wrong (bwrap's message) in why.
 */
int
chan_sandbox_check(const struct sandbox_opts *sb, struct buf *why,
    const char **mode)
{
	static char	 prog[] = "true";
	char		*argv[] = { prog, NULL };
	struct chan_prog o = { .argv = argv, .group = 1, .who = "sandbox",
			    .sandbox = sb };
	struct chan	 ch;
	const char	*step;
	char		 buf[512];
	ssize_t		 n;
	int		 status, fl;

	chan_init(&ch);
	if (chan_spawn(&ch, &o, &step) != 0) {
		buf_printf(why, "%s: %s", step, strerror(errno));
		return (-1);
	}
	chan_close(&ch);
	*mode = ptree_mode(ch.tree);
	/* Its message, before the wait closes the pipe. */
	fl = fcntl(ch.errfd, F_GETFL);
	fcntl(ch.errfd, F_SETFL, fl & ~O_NONBLOCK);
	while ((n = read(ch.errfd, buf, sizeof buf - 1)) > 0 &&
	    why->len < 400)
		buf_add(why, buf, (size_t)n);
	if (chan_wait(&ch, -1, &status) != 1 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		if (why->len == 0)
			buf_puts(why, "bwrap failed");
		while (why->len > 0 && why->data[why->len - 1] == '\n')
			why->data[--why->len] = '\0';
		chan_free(&ch);
		return (-1);
	}
	chan_free(&ch);
	return (0);
}

/* Closes the program's stdin (the polite way to ask it to end). */
void
chan_hangup(struct chan *ch)
{
	if (ch->wfd != -1 && ch->wfd != ch->rfd)
		close(ch->wfd);
	ch->wfd = -1;
}

/*
 * Waits up to ms milliseconds (-1: as long as it takes, 0: not at all)
 * for the program to end.  Returns 1 when it ended (*status set), -1 when
 * there is no program to wait for (none, or not a child), with ch->pid
 * -1 after either; 0 while it still runs.
 */
int
chan_wait(struct chan *ch, int ms, int *status)
{
	uint64_t	 end = clock_mono_ms() + (uint64_t)(ms > 0 ? ms : 0);
	pid_t		 r;

	if (ch->pid <= 0)
		return (-1);
	for (;;) {
		r = waitpid(ch->pid, status, ms < 0 ? 0 : WNOHANG);
		if (r == -1 && errno == EINTR)
			continue;
		if (r != 0 || clock_mono_ms() >= end)
			break;
		usleep(1000);
	}
	if (r == 0)
		return (0);
	ch->pid = -1;
	chan_sb_end(ch);
	return (r == -1 ? -1 : 1);
}

/*
 * Sends sig to the program, and to its whole process group when it has
 * one of its own (what it started goes with it), then reaps it.  A
 * sandboxed program's whole tree is killed (SIGKILL) or, once it is
 * reaped, whatever of its tree is left.
 */
void
chan_kill(struct chan *ch, int sig)
{
	int	 status;

	if (ch->pid <= 0)
		return;
	if (ch->group)
		kill(-ch->pid, sig);
	kill(ch->pid, sig);
	if (ch->tree != NULL && sig == SIGKILL)
		ptree_kill(ch->tree);
	chan_wait(ch, -1, &status);
}
