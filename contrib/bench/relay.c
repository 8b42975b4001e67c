/*
 * relay.c: the floor of a match runner's CPU per ply (issue 28 §4).  Two
 * `cat` children stand for two engines that answer at once; each ply
 * writes one line to the child whose turn it is and reads the same line
 * back, the least a runner that talks to its engines through pipes can
 * do.  Prints the relay's own CPU (getrusage RUSAGE_SELF: the children
 * are not counted) per ply; contrib/bench/runner-bench.py sets
 * `grundy match`'s own CPU per ply against it.  A benchmark, not a test.
 *
 * Usage: relay [PLIES [LINE]]    (default 100000 plies of "1=19")
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* pipe2 */
#endif
#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A child: its pid, the pipe to its stdin and the one from its stdout. */
struct child {
	pid_t	 pid;
	int	 to, from;
};

static void
die(const char *what)
{
	fprintf(stderr, "relay: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Starts `cat` with both ends of its stdio on pipes. */
static void
spawn_cat(struct child *c)
{
	int	 in[2], out[2];

	/* Close-on-exec: the other child must not hold this one's stdin. */
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		die("pipe");
	if ((c->pid = fork()) < 0)
		die("fork");
	if (c->pid == 0) {
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
			_exit(127);
		execlp("cat", "cat", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c->to = in[1];
	c->from = out[0];
}

/* Reads from fd until the line of len bytes (newline included) is back. */
static void
read_line(int fd, char *buf, size_t len)
{
	size_t	 got = 0;
	ssize_t	 n;

	while (got < len || buf[got - 1] != '\n') {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("read from cat");
		got += (size_t)n;
	}
}

static double
cpu_s(void)
{
	struct rusage	 ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
}

int
main(int argc, char **argv)
{
	struct child	 c[2];
	struct timespec	 t0, t1;
	char		 line[256], back[256];
	long		 plies = argc > 1 ? atol(argv[1]) : 100000, i;
	size_t		 len;
	double		 cpu, wall;
	int		 k;

	if (plies <= 0 || argc > 3) {
		fprintf(stderr, "usage: relay [PLIES [LINE]]\n");
		return (2);
	}
	snprintf(line, sizeof line - 1, "%s", argc > 2 ? argv[2] : "1=19");
	len = strlen(line);
	line[len++] = '\n';
	signal(SIGPIPE, SIG_IGN);
	spawn_cat(&c[0]);
	spawn_cat(&c[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cpu = cpu_s();
	for (i = 0; i < plies; i++) {
		k = (int)(i % 2);
		if (write(c[k].to, line, len) != (ssize_t)len)
			die("write to cat");
		read_line(c[k].from, back, len);
	}
	cpu = cpu_s() - cpu;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	for (k = 0; k < 2; k++) {
		close(c[k].to);
		close(c[k].from);
		waitpid(c[k].pid, NULL, 0);
	}
	printf("relay: %ld plies in %.3f s, %.3f s of CPU: %.2f us of CPU "
	    "per ply\n", plies, wall, cpu, cpu * 1e6 / plies);
	return (0);
}
