/*
 * line-server.c: the control of the probe benchmarks (issue 25): a
 * trivial line server on one thread with epoll, answering every line
 * with "= 2" and a blank line, as grundyd answers protocol_version.  A
 * probe's latency against it, in the same run, is what the machine
 * itself costs.
 *
 * Usage: line-server PORTFILE (listens on 127.0.0.1, an ephemeral port
 * written to PORTFILE); runs until killed.
 */
#include <sys/epoll.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct sockaddr_in sin;
	struct epoll_event ev, evs[64];
	socklen_t	 len = sizeof sin;
	char		 buf[65536];
	FILE		*f;
	int		 ls, ep, n, i, fd, one = 1;
	ssize_t		 r, k;

	if (argc != 2) {
		fprintf(stderr, "usage: line-server PORTFILE\n");
		return (2);
	}
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(ls, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    listen(ls, 128) != 0 ||
	    getsockname(ls, (struct sockaddr *)&sin, &len) != 0) {
		perror("line-server");
		return (1);
	}
	if ((f = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return (1);
	}
	fprintf(f, "%d\n", ntohs(sin.sin_port));
	fclose(f);
	ep = epoll_create1(0);
	ev.events = EPOLLIN;
	ev.data.fd = ls;
	epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
	for (;;) {
		if ((n = epoll_wait(ep, evs, 64, -1)) < 0 && errno != EINTR)
			return (1);
		for (i = 0; i < n; i++) {
			if ((fd = evs[i].data.fd) == ls) {
				if ((fd = accept(ls, NULL, NULL)) < 0)
					continue;
				ev.events = EPOLLIN;
				ev.data.fd = fd;
				epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
				continue;
			}
			if ((r = read(fd, buf, sizeof buf)) <= 0) {
				close(fd);
				continue;
			}
			for (k = 0; k < r; k++)
				if (buf[k] == '\n' &&
				    write(fd, "= 2\n\n", 5) != 5)
					break;
		}
	}
}
