/*
 * line-flood.c: the attacker of bounds-bench.py's row d (issue 25): N
 * connections from one address, each sending the same pre-built long
 * line over and over with blocking sends, as fast as the server takes
 * them (when the server stops reading, the sender blocks and costs
 * nothing), while a reader thread per connection counts the replies
 * (blank-line-ended blocks) and the `busy` refusals among them.  Written
 * in C so that the attacker's own CPU does not decide the control's
 * latency.
 *
 * Usage: line-flood PORT CONNS BYTES SECONDS
 * Sends "new nim 777..." lines of BYTES bytes (with the newline) from
 * 127.0.0.1 to 127.0.0.1:PORT for SECONDS, then prints one line:
 * "sent S lines, R answered, B busy" and exits.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memmem */
#endif

#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char		*line;
static size_t		 line_len;
static atomic_ulong	 sent, answered, busy;

/* Sends the line forever (blocking: the server's pace). */
static void *
flood_send(void *arg)
{
	int	 fd = *(int *)arg;
	size_t	 off;
	ssize_t	 n;

	for (;;) {
		for (off = 0; off < line_len; off += (size_t)n)
			if ((n = send(fd, line + off, line_len - off,
			    MSG_NOSIGNAL)) <= 0)
				return (NULL);
		atomic_fetch_add(&sent, 1);
	}
}

/* Counts the replies: blocks ending in an empty line; `busy` ones. */
static void *
flood_read(void *arg)
{
	int	 fd = *(int *)arg, nl = 0, start = 1;
	char	 buf[65536], head[8];
	size_t	 hn = 0;
	ssize_t	 n, i;

	while ((n = recv(fd, buf, sizeof buf, 0)) > 0)
		for (i = 0; i < n; i++) {
			if (start && hn < sizeof head)
				head[hn++] = buf[i];
			if (buf[i] != '\n') {
				nl = 0;
				continue;
			}
			start = 0;
			if (++nl < 2)
				continue;
			/* "? busy:" or "?ID busy:": the head holds it. */
			if (memmem(head, hn, " busy", 5) != NULL)
				atomic_fetch_add(&busy, 1);
			atomic_fetch_add(&answered, 1);
			nl = 0;
			hn = 0;
			start = 1;
		}
	return (NULL);
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sin;
	pthread_t	 t;
	int		*fds, i, conns, one = 1;
	unsigned int	 secs;

	if (argc != 5) {
		fprintf(stderr, "usage: line-flood PORT CONNS BYTES SECONDS\n");
		return (2);
	}
	conns = atoi(argv[2]);
	line_len = (size_t)strtoul(argv[3], NULL, 10);
	secs = (unsigned int)atoi(argv[4]);
	if (conns < 1 || line_len < 16)
		return (2);
	line = malloc(line_len);
	memset(line, '7', line_len);
	memcpy(line, "new nim ", 8);
	line[line_len - 1] = '\n';
	fds = calloc((size_t)conns, sizeof *fds);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)atoi(argv[1]));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < conns; i++) {
		if ((fds[i] = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
		    connect(fds[i], (struct sockaddr *)&sin, sizeof sin) != 0) {
			perror("line-flood: connect");
			return (1);
		}
		setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (pthread_create(&t, NULL, flood_send, &fds[i]) != 0 ||
		    pthread_create(&t, NULL, flood_read, &fds[i]) != 0)
			return (1);
	}
	sleep(secs);
	printf("sent %lu lines, %lu answered, %lu busy\n",
	    atomic_load(&sent), atomic_load(&answered), atomic_load(&busy));
	fflush(stdout);
	_exit(0);
}
