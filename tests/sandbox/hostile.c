/*
 * hostile.c: a hostile player program for the sandbox's tests
 * (tests/e2e/sandbox.py, issue 27).  It speaks the engine side of the
 * player role (PROTOCOL.md §13.2) for Nim ("nim N...", taking one token
 * from the first pile that has one) and, as argv[1] says, misbehaves at its first genmove:
 *
 *   net HOST PORT  opens a TCP connection (the seccomp filter kills it)
 *   forkbomb       forks until refused (children wait), then moves
 *   threadbomb     starts threads until refused (they wait), then moves
 *   alloc          allocates and touches 10 GB, 64 MB at a time
 *   fill           writes one file in its scratch /tmp until refused
 *   stderr         writes 1 GB to stderr
 *   orphan         (at new) leaves a grandchild in a session of its own,
 *                  named "sbxorphan", running after the game; plays well
 *   ptrace         attaches to its parent with ptrace
 *   spin [TAG]     (from its first genmove) spins in a thread of its own,
 *                  on its opponent's time too, and plays well; at gameover
 *                  tells "hostile: off-turn cpu C ms wall W ms [TAG]": the
 *                  CPU and wall time from each answer to genmove to the
 *                  next command it read
 *   good           none: plays well
 *
 * What it did is told on stderr as "hostile: ..." lines.
 */
#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char	*mode;
static char *const	*args;
static int		 done;		/* misbehaved already */

/* A thread of the thread bomb: waits for ever. */
static void *
idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return (NULL);
}

/* The spinner's thread: burns CPU for ever. */
static void *
spin(void *arg)
{
	volatile unsigned long	 n = 0;

	(void)arg;
	for (;;)
		n++;
	return (NULL);
}

/* A clock's reading in ms. */
static long
ms_of(clockid_t id)
{
	struct timespec	 ts;

	clock_gettime(id, &ts);
	return ((long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Does what mode says, once. */
static void
misbehave(void)
{
	static char	 chunk[1 << 16];
	size_t		 i, got = 0;
	int		 fd, refused = 0, made = 0;
	pid_t		 pid;
	pthread_t	 t;

	if (done++)
		return;
	if (strcmp(mode, "net") == 0) {
		struct sockaddr_in sa;

		memset(&sa, 0, sizeof sa);
		sa.sin_family = AF_INET;
		sa.sin_port = htons((unsigned short)atoi(args[1]));
		inet_pton(AF_INET, args[0], &sa.sin_addr);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		fprintf(stderr, "hostile: socket %d\n", fd);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&sa,
		    sizeof sa) == 0)
			fprintf(stderr, "hostile: connected to %s:%s\n",
			    args[0], args[1]);
		else
			fprintf(stderr, "hostile: connect: %s\n",
			    strerror(errno));
	} else if (strcmp(mode, "forkbomb") == 0) {
		while (refused < 50 && made < 300) {
			if ((pid = fork()) == 0) {
				for (;;)
					pause();
			}
			if (pid < 0)
				refused++;
			else
				made++;
		}
		fprintf(stderr, "hostile: forked %d, refused %d\n", made,
		    refused);
	} else if (strcmp(mode, "threadbomb") == 0) {
		while (refused < 50 && made < 300) {
			if (pthread_create(&t, NULL, idle, NULL) != 0)
				refused++;
			else
				made++;
		}
		fprintf(stderr, "hostile: threads %d, refused %d\n", made,
		    refused);
	} else if (strcmp(mode, "alloc") == 0) {
		for (i = 0; i < 160; i++) {
			char *p = malloc(64 << 20);

			if (p == NULL)
				break;
			memset(p, 1, 64 << 20);
			got += 64;
		}
		fprintf(stderr, "hostile: allocated %zu MB\n", got);
	} else if (strcmp(mode, "fill") == 0) {
		fd = open("/tmp/fill", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		memset(chunk, 'x', sizeof chunk);
		while (fd >= 0 && write(fd, chunk, sizeof chunk) > 0)
			got += sizeof chunk;
		fprintf(stderr, "hostile: wrote %zu bytes: %s\n", got,
		    strerror(errno));
	} else if (strcmp(mode, "stderr") == 0) {
		memset(chunk, 'e', sizeof chunk);
		for (i = 0; i < (1U << 30) / sizeof chunk; i++)
			if (write(2, chunk, sizeof chunk) < 0)
				break;
	} else if (strcmp(mode, "spin") == 0) {
		if (pthread_create(&t, NULL, spin, NULL) != 0)
			fprintf(stderr, "hostile: no spinner thread\n");
	} else if (strcmp(mode, "ptrace") == 0) {
		long r = ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);

		fprintf(stderr, "hostile: ptrace %ld: %s\n", r,
		    strerror(errno));
	}
}

/* Leaves a grandchild running in a session of its own. */
static void
orphan(void)
{
	pid_t	 pid;
	int	 fd;

	if (done++)
		return;
	if ((pid = fork()) != 0) {
		if (pid > 0)
			while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
				;
		return;
	}
	setsid();
	if (fork() != 0)
		_exit(0);
	prctl(PR_SET_NAME, "sbxorphan", 0, 0, 0);
	for (fd = 0; fd < 3; fd++)
		close(fd);
	for (;;)
		pause();
}

int
main(int argc, char **argv)
{
	char		 line[4096], cmd[64], *p, *end;
	long		 piles[16], v;
	unsigned long	 id;
	int		 n, np = 0, i;
	long		 cpu0 = -1, wall0 = 0, cpu = 0, wall = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: hostile MODE [ARGS]\n");
		return (2);
	}
	mode = argv[1];
	args = argv + 2;
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof line, stdin) != NULL) {
		id = 0;
		n = 0;
		if (sscanf(line, "%lu %63s %n", &id, cmd, &n) < 2)
			continue;
		if (cpu0 >= 0) {	/* off-turn since its last move */
			cpu += ms_of(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
			wall += ms_of(CLOCK_MONOTONIC) - wall0;
			cpu0 = -1;
		}
		if (strcmp(cmd, "new") == 0) {
			np = 0;
			if (strncmp(line + n, "nim ", 4) == 0)
				for (p = line + n + 4; np < 16 &&
				    (v = strtol(p, &end, 10), end != p); p = end)
					piles[np++] = v;
			if (strcmp(mode, "orphan") == 0)
				orphan();
			printf("=%lu\n\n", id);
		} else if (strcmp(cmd, "play") == 0) {
			if (sscanf(line + n, "%d=%ld", &i, &v) == 2 && i >= 1 &&
			    i <= np)
				piles[i - 1] = v;
			printf("=%lu\n\n", id);
		} else if (strcmp(cmd, "genmove") == 0) {
			misbehave();
			for (i = 0; i < np && piles[i] <= 0; i++)
				;
			if (i == np)
				printf("=%lu resign\n\n", id);
			else
				printf("=%lu %d=%ld\n\n", id, i + 1, --piles[i]);
			cpu0 = ms_of(CLOCK_PROCESS_CPUTIME_ID);
			wall0 = ms_of(CLOCK_MONOTONIC);
		} else if (strcmp(cmd, "gameover") == 0) {
			if (strcmp(mode, "spin") == 0)
				fprintf(stderr, "hostile: off-turn cpu %ld ms "
				    "wall %ld ms%s%s\n", cpu, wall, args[0] !=
				    NULL ? " " : "", args[0] != NULL ?
				    args[0] : "");
			printf("=%lu\n\n", id);
		} else if (strcmp(cmd, "quit") == 0) {
			printf("=%lu\n\n", id);
			return (0);
		} else
			printf("=%lu\n\n", id);
	}
	return (0);
}
