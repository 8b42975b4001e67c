/*
 * sse-spect.c: the spectators of contrib/bench/sse-bench: N connections to one
 * game's feed (GET /api/games/ID/feed) on one epoll loop.  Prints "ready"
 * once every feed has its game event, then, once every feed has its end,
 * one line "PLY NS" per move event read (NS: CLOCK_MONOTONIC time of the
 * read that completed it).  A benchmark helper, never a test.
 *
 * MODE (default sse) picks the protocol, so that contrib/bench/fanout-bench.py
 * compares the same fan-out through three servers:
 *   sse    GET /api/games/ID/feed (SSE; "id: PLY" events, "event: end")
 *   watch  `watch ID` on grundyd's lobby port (PROTOCOL.md §13.6):
 *          ready on its `=` reply, "event move ID PLY ...", then
 *          "event gameover"
 *   redis  SUBSCRIBE ID on a redis-server: ready on the subscription's
 *          reply, a message "move PLY ..." per event, then "end"
 *
 * usage: sse-spect PORT GAME_ID N [sse|watch|redis]
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

enum mode { M_SSE, M_WATCH, M_REDIS };

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
/* Scans the complete lines of a watch or redis spectator; keeps the rest. */
static void
scan_lines(struct spect *s, enum mode m, uint64_t t, int *started,
    int *ended)
{
	char	*p = s->buf, *end, *w;
	size_t	 left;

	s->buf[s->len] = '\0';
	while ((end = strchr(p, '\n')) != NULL) {
		*end = '\0';
		if (m == M_WATCH) {
			if (!s->started && p[0] == '=') {
				s->started = 1;
				(*started)++;
			} else if (strncmp(p, "event move ", 11) == 0 &&
			    (w = strchr(p + 11, ' ')) != NULL)
				record(strtoull(w + 1, NULL, 10), t);
			else if (strncmp(p, "event gameover ", 15) == 0 &&
			    !s->ended) {
				s->ended = 1;
				(*ended)++;
			}
		} else {
			if (!s->started && p[0] == ':') {
				s->started = 1;
				(*started)++;
			} else if (strncmp(p, "move ", 5) == 0)
				record(strtoull(p + 5, NULL, 10), t);
			else if (strncmp(p, "end\r", 4) == 0 && !s->ended) {
				s->ended = 1;
				(*ended)++;
			}
		}
		p = end + 1;
	}
	left = s->len - (size_t)(p - s->buf);
	memmove(s->buf, p, left);
	s->len = left;
}

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
	enum mode	 m = M_SSE;
	int		 ep, n, i, k, started = 0, ended = 0, told = 0;
	ssize_t		 r;
	size_t		 j;

	if (argc == 5 && strcmp(argv[4], "watch") == 0)
		m = M_WATCH;
	else if (argc == 5 && strcmp(argv[4], "redis") == 0)
		m = M_REDIS;
	else if (argc != 4 && !(argc == 5 && strcmp(argv[4], "sse") == 0)) {
		fprintf(stderr, "usage: sse-spect PORT GAME_ID N "
		    "[sse|watch|redis]\n");
		return (2);
	}
	n = atoi(argv[3]);
	v = calloc((size_t)n, sizeof *v);
	ep = epoll_create1(0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)atoi(argv[1]));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (m == M_WATCH)
		snprintf(req, sizeof req, "watch %s\n", argv[2]);
	else if (m == M_REDIS)
		snprintf(req, sizeof req, "SUBSCRIBE %s\r\n", argv[2]);
	else
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
			if (m == M_SSE)
				scan(s, now_ns(), &started, &ended);
			else
				scan_lines(s, m, now_ns(), &started, &ended);
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
