/*
 * grundy-bench.c: load generator for grundyd (a benchmark, not a test).
 * It opens N connections on loopback, each with one request in flight, and
 * prints figures; nothing is asserted.
 *
 *   trivial  protocol_version round trips: rate, p50 and p99 latency
 *   games    complete refereed games against the engine (Nim, three
 *            piles of 5..--pile-max, default 44): games/s,
 *            client moves/s and moves/s (client + engine), and
 *            game commands/s (every request of the games: new, match,
 *            play)
 *   --redis PORT  the same trivial load as inline PING to a redis-server,
 *            measured in the same run, so the report gives ratios
 *   --pid PID  the daemon's CPU time (all threads, from /proc) during the
 *            games load, per move (client + engine), and the event loop's
 *            (the main thread's) share
 *   --redis-pid PID  with --pid: the CPU per request of protocol_version,
 *            of a game command and of redis's PING, and the requests per
 *            CPU second as ratios to PING's (steadier than the rates on a
 *            loaded machine: the rates share the cores with the load
 *            generator and everything else)
 *   --pipeline  when the client's move ends the game (its own last token,
 *            or a single pile left for the engine to take), it sends the
 *            next game's `new` and `match` at once behind the `play`,
 *            without waiting for the held result (PROTOCOL.md §12)
 *   --load trivial|games|redis  runs that load only (on --port; redis's
 *            PING too), for a harness that counts the server's work per
 *            request around it (contrib/bench/fanout-bench.py --counts)
 *   --requests N  each load ends after N requests (all answered) instead
 *            of after --seconds, which then only bounds it; the last line
 *            printed is "requests N" (the replies read)
 *
 * usage: grundy-bench [--port P] [--conns N] [--seconds S] [--redis PORT]
 *                     [--pile-max M] [--pid PID] [--redis-pid PID]
 *                     [--pipeline] [--load L] [--requests N]
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MAXCONN	1024
#define BENCH_PILES	3

/* One connection's state. */
struct bconn {
	int		 fd;
	char		 in[8192];
	size_t		 inlen;
	long long	 sent_ns;
	int		 piles[BENCH_PILES];	/* games: local copy */
	int		 next[BENCH_PILES];	/* the next game's, pipelined */
	int		 phase;			/* games: 0 new, 1 match, 2 play */
	int		 ahead;			/* replies to requests sent ahead */
};

/* Results of one run. */
struct bresult {
	long long	 requests;
	long long	 games;
	long long	 plays;
	long long	 engine_moves;
	long long	 elapsed_ns;
	long long	 p50_ns, p99_ns;
};

static long long bench_limit;		/* --requests: the requests to send */
static long long bench_sent;		/* sent in the current load */

/* Returns monotonic nanoseconds. */
static long long
bench_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

/* Connects to 127.0.0.1:port; exits on failure. */
static int
bench_connect(int port)
{
	struct sockaddr_in sin;
	int		 fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
		fprintf(stderr, "grundy-bench: connect 127.0.0.1:%d: %s\n",
		    port, strerror(errno));
		exit(1);
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return (fd);
}

/* Sends a request string. */
static void
bench_send(struct bconn *c, const char *s)
{
	size_t	 n = strlen(s);
	ssize_t	 w;

	bench_sent++;
	c->sent_ns = bench_ns();
	while (n > 0) {
		if ((w = send(c->fd, s, n, MSG_NOSIGNAL)) <= 0) {
			fprintf(stderr, "grundy-bench: send: %s\n",
			    strerror(errno));
			exit(1);
		}
		s += w;
		n -= (size_t)w;
	}
}

/* Compares two long longs for qsort. */
static int
bench_cmp(const void *a, const void *b)
{
	long long	 x = *(const long long *)a, y = *(const long long *)b;

	return (x < y ? -1 : x > y);
}

/* Starts the next request of a games connection. */
static int	 bench_pile_max = 44;
static int	 bench_pipeline;

/* Draws a game's piles into p and writes its `new` request. */
static void
bench_new(int *p, unsigned *seed, char *req, size_t len)
{
	int	 i;

	for (i = 0; i < BENCH_PILES; i++)
		p[i] = 5 + (int)(rand_r(seed) % (unsigned)(bench_pile_max - 4));
	snprintf(req, len, "new nim %d %d %d\n", p[0], p[1], p[2]);
}

static void
bench_game_next(struct bconn *c, unsigned *seed)
{
	char	 req[256];
	size_t	 len;
	int	 i, left = 0;

	if (c->phase == 0) {
		bench_new(c->next, seed, req, sizeof req);
		bench_send(c, req);
		return;
	}
	if (c->phase == 1) {
		bench_send(c, "match engine first\n");
		return;
	}
	/* The client removes one token from its first non-empty pile. */
	for (i = 0; i < BENCH_PILES && c->piles[i] == 0; i++)
		;
	c->piles[i]--;
	len = (size_t)snprintf(req, sizeof req, "play %d=%d\n", i + 1,
	    c->piles[i]);
	for (i = 0; i < BENCH_PILES; i++)
		left += c->piles[i] > 0;
	if (bench_pipeline && left <= 1) {
		/* The game ends now (the engine takes a last pile): go on. */
		bench_new(c->next, seed, req + len, sizeof req - len);
		snprintf(req + strlen(req), sizeof req - strlen(req),
		    "match engine first\n");
		c->ahead = 2;
	}
	bench_send(c, req);
}

/*
 * Handles one complete reply of a games connection; returns 1 when a game
 * ended.  Applies the engine's "reply I=V" to the local position.
 */
static int
bench_game_reply(struct bconn *c, const char *reply, struct bresult *r)
{
	const char	*p;
	int		 idx, val;

	if (reply[0] != '=') {
		fprintf(stderr, "grundy-bench: error reply: %s\n", reply);
		exit(1);
	}
	if (c->phase < 2) {
		if (c->phase == 0)
			memcpy(c->piles, c->next, sizeof c->piles);
		c->phase++;
		return (0);
	}
	r->plays++;
	if ((p = strstr(reply, "reply ")) != NULL &&
	    sscanf(p + 6, "%d=%d", &idx, &val) == 2 && idx >= 1 &&
	    idx <= BENCH_PILES) {
		c->piles[idx - 1] = val;
		r->engine_moves++;
	}
	if (strstr(reply, "result ") != NULL) {
		c->phase = 0;
		r->games++;
		return (1);
	}
	return (0);
}

/*
 * Runs one load for `seconds` over n connections to port.  mode: 0 trivial
 * (protocol_version), 1 redis PING, 2 games.
 */
static void
bench_run(int port, int n, int seconds, int mode, struct bresult *r)
{
	static struct bconn conns[BENCH_MAXCONN];
	static struct pollfd pfd[BENCH_MAXCONN];
	long long	*lat, nlat = 0, caplat = 1 << 22, start, end, now;
	unsigned	 seed = 12345;
	const char	*req = mode == 1 ? "PING\r\n" : "protocol_version\n";
	const char	*term = mode == 1 ? "\r\n" : "\n\n";
	char		*e;
	ssize_t		 k;
	int		 i;

	memset(r, 0, sizeof *r);
	bench_sent = 0;
	lat = malloc((size_t)caplat * sizeof *lat);
	for (i = 0; i < n; i++) {
		memset(&conns[i], 0, sizeof conns[i]);
		conns[i].fd = bench_connect(port);
		pfd[i].fd = conns[i].fd;
		pfd[i].events = POLLIN;
	}
	start = bench_ns();
	end = start + (long long)seconds * 1000000000LL;
	for (i = 0; i < n && (bench_limit == 0 || bench_sent < bench_limit);
	    i++) {
		if (mode == 2)
			bench_game_next(&conns[i], &seed);
		else
			bench_send(&conns[i], req);
	}
	while ((now = bench_ns()) < end) {
		if (bench_limit > 0 && r->requests >= bench_sent)
			break;		/* every request sent is answered */
		if (poll(pfd, (nfds_t)n, 100) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			struct bconn *c = &conns[i];

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			k = recv(c->fd, c->in + c->inlen,
			    sizeof c->in - c->inlen - 1, 0);
			if (k <= 0) {
				fprintf(stderr, "grundy-bench: connection "
				    "closed by the server\n");
				exit(1);
			}
			c->inlen += (size_t)k;
			c->in[c->inlen] = '\0';
			while ((e = strstr(c->in, term)) != NULL) {
				*e = '\0';
				e += strlen(term);
				now = bench_ns();
				if (nlat < caplat)
					lat[nlat++] = now - c->sent_ns;
				r->requests++;
				if (mode == 2)
					bench_game_reply(c, c->in, r);
				c->inlen -= (size_t)(e - c->in);
				memmove(c->in, e, c->inlen + 1);
				if (mode == 2 && c->ahead > 0)
					c->ahead--;	/* sent already */
				else if (bench_limit > 0 &&
				    bench_sent >= bench_limit)
					;		/* enough: no more */
				else if (mode == 2)
					bench_game_next(c, &seed);
				else
					bench_send(c, req);
			}
		}
	}
	r->elapsed_ns = bench_ns() - start;
	qsort(lat, (size_t)nlat, sizeof *lat, bench_cmp);
	if (nlat > 0) {
		r->p50_ns = lat[nlat / 2];
		r->p99_ns = lat[nlat * 99 / 100];
	}
	for (i = 0; i < n; i++)
		close(conns[i].fd);
	free(lat);
}

/*
 * The CPU time of process pid in clock ticks: *all its threads, *loop the
 * main thread's (the event loop).  Returns 0, or -1 if /proc has no pid.
 */
static int
bench_cpu(int pid, long long *all, long long *loop)
{
	char		 path[64], line[1024], *p;
	unsigned long	 ut, st;
	struct dirent	*de;
	DIR		*d;
	FILE		*f;

	*all = *loop = 0;
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	if ((d = opendir(path)) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%.16s/stat", pid,
		    de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		/* Fields 14 and 15, after the command in parentheses. */
		if (fgets(line, sizeof line, f) != NULL &&
		    (p = strrchr(line, ')')) != NULL &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
		    "%*u %lu %lu", &ut, &st) == 2) {
			*all += (long long)(ut + st);
			if (atoi(de->d_name) == pid)
				*loop += (long long)(ut + st);
		}
		fclose(f);
	}
	closedir(d);
	return (0);
}

/* Returns events per second, rounded. */
static long long
bench_rate(long long count, long long ns)
{
	return (ns > 0 ? count * 1000000000LL / ns : 0);
}

/* Prints a/b as a ratio with two decimals (integer arithmetic). */
static void
bench_ratio(const char *what, long long a, long long b)
{
	long long	 x = b > 0 ? (a * 100 + b / 2) / b : 0;

	printf("  %-44s %lld.%02lldx\n", what, x / 100, x % 100);
}

int
main(int argc, char **argv)
{
	struct bresult	 triv, redis, games;
	int		 port = 7559, conns = 50, seconds = 5, rport = 0, a;
	int		 pid = 0, rpid = 0, load = -1;
	long long	 trate, rrate, mrate, c0 = 0, l0 = 0, c1, l1, moves, tick;
	long long	 t0 = 0, r0 = 0, r1 = 0, x;
	double		 tcpu = 0, gcpu = 0, rcpu = 0;	/* µs per request */

	for (a = 1; a < argc; a += 2) {
		if (strcmp(argv[a], "--pipeline") == 0) {
			bench_pipeline = 1;
			a--;		/* no value */
			continue;
		}
		if (a + 1 >= argc)
			break;
		if (strcmp(argv[a], "--port") == 0)
			port = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--conns") == 0)
			conns = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--seconds") == 0)
			seconds = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--redis") == 0)
			rport = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--pile-max") == 0)
			bench_pile_max = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--pid") == 0)
			pid = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--redis-pid") == 0)
			rpid = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "--requests") == 0)
			bench_limit = atoll(argv[a + 1]);
		else if (strcmp(argv[a], "--load") == 0) {
			load = strcmp(argv[a + 1], "trivial") == 0 ? 0 :
			    strcmp(argv[a + 1], "redis") == 0 ? 1 :
			    strcmp(argv[a + 1], "games") == 0 ? 2 : -2;
			if (load == -2)
				break;
		} else
			break;
	}
	if (a < argc || conns < 1 || conns > BENCH_MAXCONN || seconds < 1 ||
	    bench_pile_max < 5 || bench_limit < 0) {
		fprintf(stderr, "usage: grundy-bench [--port P] [--conns N] "
		    "[--seconds S] [--redis PORT] [--pile-max M] [--pid PID] "
		    "[--redis-pid PID] [--pipeline] [--load trivial|games|redis] "
		    "[--requests N]\n");
		return (2);
	}
	if (load >= 0) {
		/* One load, for a harness counting around it. */
		bench_run(port, conns, seconds, load, &triv);
		printf("requests %lld\n", triv.requests);
		return (triv.requests > 0 ? 0 : 1);
	}
	printf("grundy-bench: %d connections, %d s per load, one request "
	    "in flight per connection\n", conns, seconds);
	tick = sysconf(_SC_CLK_TCK);
	if (pid > 0 && bench_cpu(pid, &t0, &x) != 0) {
		fprintf(stderr, "grundy-bench: no process %d\n", pid);
		return (1);
	}
	bench_run(port, conns, seconds, 0, &triv);
	trate = bench_rate(triv.requests, triv.elapsed_ns);
	printf("grundyd protocol_version: %lld req/s, p50 %lld us, p99 %lld "
	    "us\n", trate, triv.p50_ns / 1000, triv.p99_ns / 1000);
	if (pid > 0 && bench_cpu(pid, &c0, &l0) != 0) {
		fprintf(stderr, "grundy-bench: no process %d\n", pid);
		return (1);
	}
	if (pid > 0 && triv.requests > 0 && tick > 0)
		tcpu = (double)(c0 - t0) * 1e6 / (double)tick /
		    (double)triv.requests;
	bench_run(port, conns, seconds, 2, &games);
	mrate = bench_rate(games.plays, games.elapsed_ns);
	if (pid > 0 && bench_cpu(pid, &c1, &l1) == 0) {
		moves = games.plays + games.engine_moves;
		if (games.requests > 0 && tick > 0)
			gcpu = (double)(c1 - c0) * 1e6 / (double)tick /
			    (double)games.requests;
		if (moves > 0 && tick > 0)
			printf("grundyd CPU per move: %.2f us (event loop %.2f "
			    "us, other threads %.2f us)%s\n",
			    (double)(c1 - c0) * 1e6 / (double)tick /
			    (double)moves, (double)(l1 - l0) * 1e6 /
			    (double)tick / (double)moves,
			    (double)(c1 - c0 - (l1 - l0)) * 1e6 / (double)tick /
			    (double)moves, bench_pipeline ? ", pipelined" : "");
	}
	printf("grundyd refereed games (nim, 3 piles of 5..%d): %lld games/s, "
	    "%lld client moves/s, %lld moves/s (client + engine), p50 %lld us, "
	    "p99 %lld us; %lld game commands/s (new, match, play)\n",
	    bench_pile_max,
	    bench_rate(games.games, games.elapsed_ns), mrate,
	    bench_rate(games.plays + games.engine_moves, games.elapsed_ns),
	    games.p50_ns / 1000, games.p99_ns / 1000,
	    bench_rate(games.requests, games.elapsed_ns));
	if (rport > 0) {
		if (rpid > 0 && bench_cpu(rpid, &r0, &x) != 0) {
			fprintf(stderr, "grundy-bench: no process %d\n", rpid);
			return (1);
		}
		bench_run(rport, conns, seconds, 1, &redis);
		rrate = bench_rate(redis.requests, redis.elapsed_ns);
		if (rpid > 0 && bench_cpu(rpid, &r1, &x) == 0 &&
		    redis.requests > 0 && tick > 0)
			rcpu = (double)(r1 - r0) * 1e6 / (double)tick /
			    (double)redis.requests;
		printf("redis-server PING: %lld req/s, p50 %lld us, p99 %lld "
		    "us\n", rrate, redis.p50_ns / 1000, redis.p99_ns / 1000);
		printf("ratios to redis PING in the same run:\n");
		bench_ratio("protocol_version / PING (goal >= 1.0)", trate,
		    rrate);
		bench_ratio("refereed client moves / PING (goal >= 0.5)",
		    mrate, rrate);
		bench_ratio("refereed game commands / PING (goal >= 0.95)",
		    bench_rate(games.requests, games.elapsed_ns), rrate);
		if (tcpu > 0 && gcpu > 0 && rcpu > 0) {
			printf("CPU per request: grundyd protocol_version %.2f "
			    "us, grundyd game command %.2f us, redis PING %.2f "
			    "us\n", tcpu, gcpu, rcpu);
			printf("requests per CPU second, ratios to redis PING:"
			    "\n");
			bench_ratio("protocol_version / PING",
			    (long long)(rcpu * 1e4), (long long)(tcpu * 1e4));
			bench_ratio("refereed game commands / PING (goal >= "
			    "0.95)", (long long)(rcpu * 1e4),
			    (long long)(gcpu * 1e4));
		}
	}
	return (0);
}
