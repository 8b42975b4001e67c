/*
 * sse-spect.c: the spectators of contrib/bench/sse-bench: N connections to one
 * game's feed (GET /api/games/ID/feed) on one epoll loop.  Prints "ready"
 * once every feed has its game event, then, once every feed has its end,
 * one line "PLY NS" per move event read (NS: CLOCK_MONOTONIC time of the
 * read that completed it).  A benchmark helper, never a test.
 *
 * usage: sse-spect PORT GAME_ID N
 */
#include <sys/epoll.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct spect {
	int		 fd;
	char		 buf[65536];
	size_t		 len;
	int		 started, ended;
};

static uint64_t
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

/* The recorded events: ply and time. */
static uint64_t	*ev_ply, *ev_ns;
static size_t	 nev, capev;

static void
record(uint64_t ply, uint64_t t)
{
	if (nev == capev) {
		capev = capev ? capev * 2 : 1 << 16;
		ev_ply = realloc(ev_ply, capev * sizeof *ev_ply);
		ev_ns = realloc(ev_ns, capev * sizeof *ev_ns);
		if (ev_ply == NULL || ev_ns == NULL)
			exit(1);
	}
	ev_ply[nev] = ply;
	ev_ns[nev++] = t;
}

/* Scans the complete events in s->buf; keeps the rest. */
static void
scan(struct spect *s, uint64_t t, int *started, int *ended)
{
	char	*p = s->buf, *end, *id;
	size_t	 left;

	s->buf[s->len] = '\0';
	while ((end = strstr(p, "\n\n")) != NULL) {
		*end = '\0';
		if (!s->started && strstr(p, "event: game") != NULL) {
			s->started = 1;
			(*started)++;
		}
		if ((id = strstr(p, "id: ")) != NULL && id[4] >= '0' &&
		    id[4] <= '9')
			record(strtoull(id + 4, NULL, 10), t);
		if (strstr(p, "event: end") != NULL && !s->ended) {
			s->ended = 1;
			(*ended)++;
		}
		p = end + 2;
	}
	left = s->len - (size_t)(p - s->buf);
	memmove(s->buf, p, left);
	s->len = left;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sin;
	struct epoll_event ev, evs[256];
	struct spect	*v;
	char		 req[128];
	int		 ep, n, i, k, started = 0, ended = 0, told = 0;
	ssize_t		 r;
	size_t		 j;

	if (argc != 4) {
		fprintf(stderr, "usage: sse-spect PORT GAME_ID N\n");
		return (2);
	}
	n = atoi(argv[3]);
	v = calloc((size_t)n, sizeof *v);
	ep = epoll_create1(0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)atoi(argv[1]));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	snprintf(req, sizeof req, "GET /api/games/%s/feed HTTP/1.1\r\n"
	    "Host: b\r\n\r\n", argv[2]);
	for (i = 0; i < n; i++) {
		if ((v[i].fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
		    connect(v[i].fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
		    write(v[i].fd, req, strlen(req)) != (ssize_t)strlen(req)) {
			perror("sse-spect: connect");
			return (1);
		}
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)i;
		epoll_ctl(ep, EPOLL_CTL_ADD, v[i].fd, &ev);
	}
	while (ended < n) {
		k = epoll_wait(ep, evs, 256, 5000);
		if (k <= 0) {
			fprintf(stderr, "sse-spect: stalled (%d ended)\n", ended);
			return (1);
		}
		for (i = 0; i < k; i++) {
			struct spect *s = &v[evs[i].data.u32];

			r = read(s->fd, s->buf + s->len,
			    sizeof s->buf - 1 - s->len);
			if (r <= 0) {
				if (r < 0 && errno == EINTR)
					continue;
				epoll_ctl(ep, EPOLL_CTL_DEL, s->fd, NULL);
				if (!s->ended)
					ended++;
				s->ended = 1;
				continue;
			}
			s->len += (size_t)r;
			scan(s, now_ns(), &started, &ended);
		}
		if (!told && started == n) {
			printf("ready\n");
			fflush(stdout);
			told = 1;
		}
	}
	for (j = 0; j < nev; j++)
		printf("%llu %llu\n", (unsigned long long)ev_ply[j],
		    (unsigned long long)ev_ns[j]);
	return (0);
}
