/*
 * clock-bench.c: are grundyd's game clocks fair at scale?  (A benchmark,
 * not a test: it prints figures and asserts no goal, but it exits 1 with a
 * message as soon as the server misbehaves.)
 *
 * One process, one epoll loop, 2 x PAIRS connections on loopback.  Each
 * connection registers (or reuses) an account, logs in and seeks GAME
 * (default `nim 40 40 40`: every move takes one token, so every game that
 * is not lost on time lasts exactly 120 plies) with tc=TC (default 200+2,
 * fastchess's "tc=0.2+0.002"); the seeks pair among themselves, so PAIRS
 * games run at once.  Every genmove is answered at once with a legal move
 * (the first non-empty pile lowered by one).  Per move the client measures
 * its own holding time: from the read() that returned the genmove to the
 * write() of its answer (CLOCK_MONOTONIC).  It also takes the kernel's
 * receive time stamp of that read (SO_TIMESTAMPNS), so the time the
 * genmove waited in this client's socket before the read is known too.
 * After each game a separate connection reads its `record` (PROTOCOL.md
 * §12): the server's charged time per move (TIME_US, microseconds; from
 * a server without it, TIME_MS) and DELAY_US (the server's own delay of
 * the turn; before TIME_US, the connection's round-trip estimate).
 *
 * Output: games, moves, forfeits on time, and per move charged - holding
 * and charged - (wait in the client's socket + holding), p50/p99/max, plus
 * the server's DELAY_US p50/p99.  Read from TIME_MS (whole milliseconds,
 * both ends of the interval truncated to ms), a difference of one move is
 * only known within +-1 ms: the mean over many moves is unbiased, a
 * percentile may be up to 1 ms off; TIME_US has no such error.
 *
 * usage: clock-bench [--port P] [--pairs N] [--games G] [--seconds S]
 *                    [--tc B+I] [--game 'nim A B ...'] [--prefix NAME]
 * The accounts PREFIX0.. are registered here (two per loopback address, so
 * the default register-rate allows them); later runs on the same database
 * log in to them.  Start grundyd with --clock-grace 0 for the strict
 * measurement.  The run stops seeking after G games or S
 * seconds (defaults 1000 and 60), whichever comes first, and ends when the
 * games in progress are over.
 */
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CB_MAXPILES	64
#define CB_MAXQ		8
#define CB_PASS		"clockbench1"
/*
 * Commands run by the server's workers (register, login, record) in
 * flight at once: max-queued-per-ip (default 16) refuses more.
 */
#define CB_WINDOW	8
#define CB_RECQ		65536

enum cb_resp { R_REGISTER, R_LOGIN, R_SEEK, R_RECORD };

/* One connection: a player, or the recorder (reads records). */
struct cconn {
	int		 fd;
	int		 idx;
	char		 name[48];
	char		*in;
	size_t		 inlen, incap;
	char		*out;
	size_t		 outlen, outcap;
	int		 wantout;	/* EPOLLOUT asked */
	int		 inblock;	/* inside a response block */
	char		*blk;		/* that block's text */
	size_t		 blklen, blkcap;
	enum cb_resp	 q[CB_MAXQ];	/* responses expected, in order */
	int		 nq;
	int		 logged_in;
	int		 ingame;
	int		 seeking;
	long long	 game;
	int		 seat;
	long		 piles[CB_MAXPILES];
	int		 npiles;
	int		 ply;		/* plies played in its game */
};

/* What the players of one game did, by ply: kept until its record. */
struct cgame {
	long long	 id;
	int		 maxply;
	int64_t		*hold_ns;	/* -1: no answer of ours */
	int64_t		*wait_ns;	/* socket wait before the read */
	int		*pile, *val;
	int		 timeout;	/* lost on time */
	struct cgame	*next;
};

/* A growing array of samples. */
struct samples {
	double		*v;
	size_t		 n, cap;
};

#define CB_HASH		4096

static struct {
	int		 port, pairs, games, seconds;
	const char	*tc, *game, *prefix;
	long		 start[CB_MAXPILES];
	int		 nstart;
	long		 tokens;
	int		 ep;
	struct cconn	*c;		/* 2 * pairs players */
	struct cconn	 rec;		/* the recorder */
	struct cgame	*tab[CB_HASH];
	long long	 recq[CB_RECQ];	/* games over, FIFO: */
	size_t		 rqh, rqs, rqt;	/* answered, asked, queued */
	int		 stop;
	int64_t		 t0, tstop;
	double		 cpu0;		/* CPU time at t0 */
	long		 finished, forfeits, recorded, moves, inflight;
	struct samples	 diff, diffw, hold, wait, charged, delay;
	int		 us;		/* the records give TIME_US */
} B;

static void
die(const char *fmt, ...)
{
	va_list		 ap;

	fputs("clock-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Nanoseconds of a clock: CLOCK_MONOTONIC, or CLOCK_REALTIME (as the
 * kernel's receive time stamps). */
static int64_t
clock_ns(clockid_t id)
{
	struct timespec	 ts;

	clock_gettime(id, &ts);
	return ((int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}
#define now_ns()	clock_ns(CLOCK_MONOTONIC)

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		die("out of memory");
	return (p);
}

static void
grow(char **p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 4096;
	*p = xrealloc(*p, *cap);
}

static void
sample(struct samples *s, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 65536;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = v;
}

static int
cmpd(const void *a, const void *b)
{
	double		 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* The q-quantile (0..1) of sorted samples, or 0 if none. */
static double
quant(const struct samples *s, double q)
{
	size_t		 i;

	if (s->n == 0)
		return (0);
	i = (size_t)(q * (double)s->n);
	return (s->v[i >= s->n ? s->n - 1 : i]);
}

/* This process's CPU time (user + system) in seconds. */
static double
cpu_s(void)
{
	struct rusage	 ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
}

/* The mean of samples, or 0 if none. */
static double
mean(const struct samples *s)
{
	double		 t = 0;
	size_t		 i;

	for (i = 0; i < s->n; i++)
		t += s->v[i];
	return (s->n ? t / (double)s->n : 0);
}

/*
 * Connects to 127.0.0.1:port, non-blocking, with receive time stamps.
 * Player idx >= 0 connects from its own loopback address, 127.1.X.Y, two
 * players an address, as bots on their own hosts would: the server's
 * per-address limits (max-queued-per-ip, register-rate) stay at their
 * defaults.
 */
static int
cb_connect(int idx)
{
	struct sockaddr_in sin;
	int		 fd, one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		die("socket: %s", strerror(errno));
	if (idx >= 0) {
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl((127U << 24) | (1U << 16) |
		    (uint32_t)(idx / 2 / 250) << 8 | (uint32_t)(idx / 2 % 250 + 1));
		if (bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
			die("bind %s: %s", inet_ntoa(sin.sin_addr),
			    strerror(errno));
	}
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)B.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
		die("connect 127.0.0.1:%d: %s", B.port, strerror(errno));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return (fd);
}

/* Writes what is queued; waits for EPOLLOUT if the socket is full. */
static void
cb_flush(struct cconn *c)
{
	struct epoll_event ev;
	ssize_t		 n;
	size_t		 off = 0;

	while (off < c->outlen) {
		n = write(c->fd, c->out + off, c->outlen - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			break;
		if (n == -1)
			die("%s: write: %s", c->name, strerror(errno));
		off += (size_t)n;
	}
	memmove(c->out, c->out + off, c->outlen - off);
	c->outlen -= off;
	if ((c->outlen != 0) == c->wantout)
		return;
	c->wantout = c->outlen != 0;
	ev.events = EPOLLIN | (c->wantout ? EPOLLOUT : 0);
	ev.data.ptr = c;
	epoll_ctl(B.ep, EPOLL_CTL_MOD, c->fd, &ev);
}

static void
cb_send(struct cconn *c, const char *fmt, ...)
{
	va_list		 ap;
	int		 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	grow(&c->out, &c->outcap, c->outlen + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(c->out + c->outlen, (size_t)n + 1, fmt, ap);
	va_end(ap);
	c->outlen += (size_t)n;
	cb_flush(c);
}

/* Sends a command whose response is expected in order. */
static void
cb_cmd(struct cconn *c, enum cb_resp r, const char *fmt, ...)
{
	va_list		 ap;
	char		 line[1024];

	if (c->nq == CB_MAXQ)
		die("%s: too many commands in flight", c->name);
	c->q[c->nq++] = r;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	cb_send(c, "%s\n", line);
}

static struct cgame *
game_get(long long id, int create)
{
	struct cgame	**pp = &B.tab[(unsigned long long)id % CB_HASH], *g;
	int		 i;

	for (g = *pp; g != NULL; g = g->next)
		if (g->id == id)
			return (g);
	if (!create)
		return (NULL);
	g = xrealloc(NULL, sizeof *g);
	memset(g, 0, sizeof *g);
	g->id = id;
	g->maxply = (int)B.tokens + 2;
	g->hold_ns = xrealloc(NULL, (size_t)g->maxply * sizeof *g->hold_ns);
	g->wait_ns = xrealloc(NULL, (size_t)g->maxply * sizeof *g->wait_ns);
	g->pile = xrealloc(NULL, (size_t)g->maxply * sizeof *g->pile);
	g->val = xrealloc(NULL, (size_t)g->maxply * sizeof *g->val);
	for (i = 0; i < g->maxply; i++)
		g->hold_ns[i] = -1;
	g->next = *pp;
	*pp = g;
	B.inflight++;
	return (g);
}

static void
game_free(struct cgame *g)
{
	struct cgame	**pp = &B.tab[(unsigned long long)g->id % CB_HASH];

	while (*pp != g)
		pp = &(*pp)->next;
	*pp = g->next;
	free(g->hold_ns);
	free(g->wait_ns);
	free(g->pile);
	free(g->val);
	free(g);
	B.inflight--;
}

/* Registers (or reuses) the account of a player and logs in. */
static void
cb_login(struct cconn *c)
{
	cb_cmd(c, R_REGISTER, "register %s %s", c->name, CB_PASS);
	cb_cmd(c, R_LOGIN, "login %s %s", c->name, CB_PASS);
}

/* Asks the record of the games over, at most CB_WINDOW at a time. */
static void
cb_records(void)
{
	while (B.rqs != B.rqt && B.rqs - B.rqh < CB_WINDOW)
		cb_send(&B.rec, "record %lld\n", B.recq[B.rqs++ % CB_RECQ]);
}

/* Seeks a game if the run goes on. */
static void
cb_seek(struct cconn *c)
{
	if (B.stop)
		return;
	c->seeking = 1;
	cb_cmd(c, R_SEEK, "seek %s tc=%s", B.game, B.tc);
}

/* Parses "nim A B ..." into piles; returns the count, or -1. */
static int
parse_nim(const char *s, long *piles)
{
	char		*end;
	int		 n = 0;

	while (*s == ' ')
		s++;
	if (strncmp(s, "nim ", 4) != 0)
		return (-1);
	s += 4;
	while (*s != '\0' && *s != '\n') {
		if (n == CB_MAXPILES)
			return (-1);
		errno = 0;
		piles[n] = strtol(s, &end, 10);
		if (end == s || errno != 0 || piles[n] < 0)
			return (-1);
		n++;
		s = end;
		while (*s == ' ')
			s++;
	}
	return (n);
}

/* A response to a player's own command, in the order they were sent. */
static void
player_response(struct cconn *c, const char *blk)
{
	enum cb_resp	 r;
	int		 i, all = 1;

	if (c->nq == 0)
		die("%s: a response to no command: %s", c->name, blk);
	r = c->q[0];
	memmove(c->q, c->q + 1, (size_t)--c->nq * sizeof c->q[0]);
	switch (r) {
	case R_REGISTER:
		if (blk[0] != '=' && strstr(blk, "taken") == NULL)
			die("%s: register refused: %s", c->name, blk);
		break;
	case R_LOGIN:
		if (strncmp(blk, "= account ", 10) != 0)
			die("%s: login refused: %s", c->name, blk);
		c->logged_in = 1;
		if (c->idx + CB_WINDOW < 2 * B.pairs)
			cb_login(&B.c[c->idx + CB_WINDOW]);
		for (i = 0; i < 2 * B.pairs; i++)
			all &= B.c[i].logged_in;
		if (all) {
			B.t0 = now_ns();
			B.cpu0 = cpu_s();
			for (i = 0; i < 2 * B.pairs; i++)
				cb_seek(&B.c[i]);
		}
		break;
	case R_SEEK:
		if (strncmp(blk, "= game ", 7) == 0)
			c->ingame = 1;
		else if (strncmp(blk, "= seek ", 7) != 0)
			die("%s: seek refused: %s", c->name, blk);
		c->seeking = 0;
		break;
	default:
		die("%s: unexpected response: %s", c->name, blk);
	}
}

/* "event ...": only start matters; an illegal move of ours is a bug. */
static void
player_event(struct cconn *c, const char *line)
{
	long long	 id;
	const char	*you;

	if (sscanf(line, "event start %lld", &id) == 1) {
		if ((you = strstr(line, " you=")) == NULL)
			die("%s: no seat in: %s", c->name, line);
		c->ingame = 1;
		c->game = id;
		c->seat = atoi(you + 5);
		return;
	}
	if (strncmp(line, "event illegal ", 14) == 0 ||
	    strncmp(line, "event disconnected ", 19) == 0 ||
	    strncmp(line, "event unlogged ", 15) == 0 ||
	    strncmp(line, "event replaced ", 15) == 0 ||
	    strncmp(line, "event kicked ", 13) == 0)
		die("%s: server reports: %s", c->name, line);
}

/* "ID genmove ...": answers at once and notes the holding time. */
static void
player_genmove(struct cconn *c, long long cid, int64_t t_read,
    int64_t wait)
{
	struct cgame	*g = game_get(c->game, 1);
	int		 k, ply = c->ply + 1;

	for (k = 0; k < c->npiles && c->piles[k] == 0; k++)
		;
	if (k == c->npiles)
		die("%s: genmove in game %lld with no token left", c->name,
		    c->game);
	if (ply >= g->maxply)
		die("%s: game %lld is longer than its tokens", c->name,
		    c->game);
	c->piles[k]--;
	cb_send(c, "=%lld %d=%ld\n\n", cid, k + 1, c->piles[k]);
	g->hold_ns[ply] = now_ns() - t_read;
	g->wait_ns[ply] = wait;
	g->pile[ply] = k + 1;
	g->val[ply] = (int)c->piles[k];
	c->ply = ply;
}

/* "ID play I=V ...": the opponent's move, checked against the position. */
static void
player_play(struct cconn *c, long long cid, const char *args)
{
	int		 i;
	long		 v;

	if (sscanf(args, "%d=%ld", &i, &v) != 2 || i < 1 || i > c->npiles ||
	    v < 0 || v >= c->piles[i - 1])
		die("%s: game %lld: the server relays an illegal move: %s",
		    c->name, c->game, args);
	c->piles[i - 1] = v;
	c->ply++;
	cb_send(c, "=%lld\n\n", cid);
}

/* "ID gameover RESULT REASON": counts it, asks its record, seeks again. */
static void
player_gameover(struct cconn *c, long long cid, const char *args)
{
	char		 result[16], reason[32];
	struct cgame	*g;

	cb_send(c, "=%lld\n\n", cid);
	if (sscanf(args, "%15s %31s", result, reason) != 2)
		die("%s: bad gameover: %s", c->name, args);
	if (strcmp(reason, "timeout") != 0 &&
	    ((strcmp(reason, "no-legal-move") != 0 &&
	    strcmp(reason, "last-token-taken") != 0) || c->ply != B.tokens ||
	    strcmp(result, B.tokens % 2 ? "first" : "second") != 0))
		die("%s: game %lld (ply %d of %ld) ends wrongly: %s", c->name,
		    c->game, c->ply, B.tokens, args);
	c->ingame = 0;
	if (c->seat == 1) {
		B.finished++;
		if ((g = game_get(c->game, 0)) == NULL)
			die("game %lld over before it began", c->game);
		if (strcmp(reason, "timeout") == 0) {
			B.forfeits++;
			g->timeout = 1;
		}
		if (B.rqt - B.rqh == CB_RECQ)
			die("too many records in flight");
		B.recq[B.rqt++ % CB_RECQ] = g->id;
		cb_records();
		if (B.finished >= B.games)
			B.stop = 1;
	}
	cb_seek(c);
}

/* A server command "ID VERB ARGS" to a player. */
static void
player_command(struct cconn *c, const char *line, int64_t t_read,
    int64_t wait)
{
	long long	 cid;
	char		 verb[16];
	int		 off = 0, n;

	if (sscanf(line, "%lld %15s %n", &cid, verb, &off) < 2 || off == 0)
		die("%s: unexpected line: %s", c->name, line);
	if (strcmp(verb, "new") == 0) {
		if ((n = parse_nim(line + off, c->piles)) != B.nstart ||
		    memcmp(c->piles, B.start, (size_t)n * sizeof *c->piles))
			die("%s: game %lld starts at %s, not %s", c->name,
			    c->game, line + off, B.game);
		c->npiles = n;
		c->ply = 0;
		game_get(c->game, 1);
		cb_send(c, "=%lld\n\n", cid);
	} else if (strcmp(verb, "genmove") == 0)
		player_genmove(c, cid, t_read, wait);
	else if (strcmp(verb, "play") == 0)
		player_play(c, cid, line + off);
	else if (strcmp(verb, "gameover") == 0)
		player_gameover(c, cid, line + off);
	else
		die("%s: unknown server command: %s", c->name, line);
}

/*
 * One "move PLY PLAYER MOVE MARK TIME_MS DELAY_US [TIME_US]" line of a
 * record (TIME_US since the server charges microseconds).
 */
static void
record_move(struct cgame *g, char *line)
{
	char		*tok[8], *save, *p;
	int		 n = 0, ply, pile;
	long		 val;
	double		 ch;

	for (p = strtok_r(line, " ", &save); p != NULL && n < 8;
	    p = strtok_r(NULL, " ", &save))
		tok[n++] = p;
	if (n != 7 && n != 8)
		die("game %lld: bad record line: move %s", g->id, line);
	ply = atoi(tok[1]);
	if (ply < 1 || ply >= g->maxply || g->hold_ns[ply] < 0)
		die("game %lld: the record has ply %d, which no client played",
		    g->id, ply);
	if (sscanf(tok[3], "%d=%ld", &pile, &val) != 2 ||
	    pile != g->pile[ply] || val != g->val[ply])
		die("game %lld ply %d: recorded %s, played %d=%d", g->id, ply,
		    tok[3], g->pile[ply], g->val[ply]);
	ch = n == 8 ? atof(tok[7]) * 1e3 : atof(tok[5]) * 1e6;	/* ns */
	B.us = n == 8;
	sample(&B.charged, ch / 1e6);
	sample(&B.hold, (double)g->hold_ns[ply] / 1e3);
	sample(&B.wait, (double)g->wait_ns[ply] / 1e3);
	sample(&B.diff, (ch - (double)g->hold_ns[ply]) / 1e6);
	sample(&B.diffw, (ch - (double)g->hold_ns[ply] -
	    (double)g->wait_ns[ply]) / 1e6);
	if (strcmp(tok[6], "-") != 0)
		sample(&B.delay, atof(tok[6]));
	g->hold_ns[ply] = -2;		/* seen */
	B.moves++;
}

/* The recorder's response: the record of the oldest game asked. */
static void
record_response(char *blk)
{
	long long	 id, got;
	struct cgame	*g;
	char		*line, *save;
	int		 i, missing = 0;

	if (B.rqh == B.rqs)
		die("recorder: a response to no command: %s", blk);
	id = B.recq[B.rqh++ % CB_RECQ];
	if (sscanf(blk, "= game %lld", &got) != 1 || got != id ||
	    (g = game_get(id, 0)) == NULL)
		die("recorder: record %lld: %s", id, blk);
	for (line = strtok_r(blk, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "move ", 5) == 0)
			record_move(g, line);
		else if (strncmp(line, "refused ", 8) == 0 ||
		    (strncmp(line, "status ", 7) == 0 &&
		    strcmp(line, "status finished") != 0))
			die("game %lld: record says %s", id, line);
	for (i = 1; i < g->maxply; i++)
		missing += g->hold_ns[i] >= 0;
	/* Only an answer that came too late is unrecorded. */
	if (missing > g->timeout)
		die("game %lld: %d answers are not in the record", id, missing);
	B.recorded++;
	game_free(g);
	cb_records();
}

/* One line from a connection (without its newline). */
static void
cb_line(struct cconn *c, char *line, int64_t t_read, int64_t wait)
{
	size_t		 n = strlen(line);

	if (c->inblock) {
		if (n == 0) {
			c->inblock = 0;
			if (c == &B.rec)
				record_response(c->blk);
			else
				player_response(c, c->blk);
			return;
		}
		grow(&c->blk, &c->blkcap, c->blklen + n + 2);
		memcpy(c->blk + c->blklen, line, n);
		c->blklen += n;
		c->blk[c->blklen++] = '\n';
		c->blk[c->blklen] = '\0';
	} else if (line[0] == '=' || line[0] == '?') {
		c->inblock = 1;
		c->blklen = 0;
		grow(&c->blk, &c->blkcap, n + 2);
		memcpy(c->blk, line, n);
		c->blklen = n;
		c->blk[c->blklen++] = '\n';
		c->blk[c->blklen] = '\0';
	} else if (n == 0)
		return;
	else if (c == &B.rec)
		die("recorder: unexpected line: %s", line);
	else if (strncmp(line, "event ", 6) == 0)
		player_event(c, line);
	else
		player_command(c, line, t_read, wait);
}

/*
 * Reads what a connection has, with the kernel's receive time stamp of
 * each read, and handles every complete line at once.
 */
static void
cb_read(struct cconn *c)
{
	char		 cbuf[CMSG_SPACE(sizeof(struct timespec))];
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*cm;
	struct timespec	 ts;
	ssize_t		 n;
	int64_t		 t_read, wait;
	char		*p, *nl;
	int		 full;

	for (;;) {
		grow(&c->in, &c->incap, c->inlen + 65536);
		iov.iov_base = c->in + c->inlen;
		iov.iov_len = c->incap - c->inlen - 1;
		memset(&msg, 0, sizeof msg);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof cbuf;
		n = recvmsg(c->fd, &msg, 0);
		t_read = now_ns();
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n == -1)
			die("%s: read: %s", c->name, strerror(errno));
		if (n == 0)
			die("%s: the server closed the connection", c->name);
		wait = 0;
		for (cm = CMSG_FIRSTHDR(&msg); cm != NULL;
		    cm = CMSG_NXTHDR(&msg, cm))
			if (cm->cmsg_level == SOL_SOCKET &&
			    cm->cmsg_type == SCM_TIMESTAMPNS) {
				memcpy(&ts, CMSG_DATA(cm), sizeof ts);
				wait = clock_ns(CLOCK_REALTIME) - ((int64_t)
				    ts.tv_sec * 1000000000LL + ts.tv_nsec);
			}
		full = (size_t)n == iov.iov_len;
		c->inlen += (size_t)n;
		c->in[c->inlen] = '\0';
		for (p = c->in; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
			*nl = '\0';
			if (nl > p && nl[-1] == '\r')
				nl[-1] = '\0';
			cb_line(c, p, t_read, wait < 0 ? 0 : wait);
		}
		c->inlen -= (size_t)(p - c->in);
		memmove(c->in, p, c->inlen);
		if (!full)
			return;		/* the rest, if any: next epoll_wait */
	}
}

static void
cb_add(struct cconn *c, int idx, const char *name)
{
	struct epoll_event ev;

	memset(c, 0, sizeof *c);
	c->fd = cb_connect(idx);
	c->idx = idx;
	snprintf(c->name, sizeof c->name, "%s", name);
	ev.events = EPOLLIN;
	ev.data.ptr = c;
	if (epoll_ctl(B.ep, EPOLL_CTL_ADD, c->fd, &ev) == -1)
		die("epoll_ctl: %s", strerror(errno));
}

/* The run is over: no seeking, no game, every record read. */
static int
cb_done(void)
{
	int		 i;

	if (!B.stop || B.inflight != 0 || B.rqh != B.rqt)
		return (0);
	for (i = 0; i < 2 * B.pairs; i++)
		if (B.c[i].ingame || B.c[i].seeking)
			return (0);
	return (1);
}

static void
cb_loop(void)
{
	struct epoll_event evs[256];
	struct cconn	*c;
	int64_t		 idle_since = now_ns();
	int		 i, n;

	while (!cb_done()) {
		n = epoll_wait(B.ep, evs, 256, 1000);
		if (n == -1 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		if (n > 0)
			idle_since = now_ns();
		else if (now_ns() - idle_since > 30 * 1000000000LL)
			die("nothing from the server for 30 s (%ld games in "
			    "progress)", B.inflight);
		for (i = 0; i < n; i++) {
			c = evs[i].data.ptr;
			if (evs[i].events & EPOLLOUT)
				cb_flush(c);
			if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				cb_read(c);
		}
		if (!B.stop && B.t0 != 0 &&
		    now_ns() - B.t0 > (int64_t)B.seconds * 1000000000LL)
			B.stop = 1;
		if (B.stop && B.tstop == 0)
			B.tstop = now_ns();
	}
}

static void
cb_report(void)
{
	double		 el = (double)(now_ns() - B.t0) / 1e9;
	struct samples	*s[] = { &B.diff, &B.diffw, &B.hold, &B.wait,
			    &B.charged, &B.delay };
	size_t		 i;

	for (i = 0; i < sizeof s / sizeof s[0]; i++)
		qsort(s[i]->v, s[i]->n, sizeof *s[i]->v, cmpd);
	printf("pairs=%d tc=%s game='%s' seconds=%.1f games=%ld moves=%ld "
	    "moves/s=%.0f\n", B.pairs, B.tc, B.game, el, B.finished, B.moves,
	    (double)B.moves / el);
	printf("client CPU: %.1f us per move (%.0f%% of one core)\n",
	    B.moves ? (cpu_s() - B.cpu0) * 1e6 / (double)B.moves : 0.0,
	    100.0 * (cpu_s() - B.cpu0) / el);
	printf("forfeits on time: %ld of %ld games (%.2f%%)\n", B.forfeits,
	    B.finished, B.finished ? 100.0 * (double)B.forfeits /
	    (double)B.finished : 0.0);
	printf("charged - holding, ms: mean %.3f p50 %.3f p99 %.3f max %.3f\n",
	    mean(&B.diff), quant(&B.diff, .5), quant(&B.diff, .99),
	    quant(&B.diff, 1));
	printf("charged - (socket wait + holding), ms: mean %.3f p50 %.3f "
	    "p99 %.3f max %.3f\n", mean(&B.diffw), quant(&B.diffw, .5),
	    quant(&B.diffw, .99), quant(&B.diffw, 1));
	printf("charged (%s), ms: p50 %.3f p99 %.3f max %.3f\n",
	    B.us ? "TIME_US" : "TIME_MS", quant(&B.charged, .5),
	    quant(&B.charged, .99),
	    quant(&B.charged, 1));
	printf("client holding, us: p50 %.1f p99 %.1f max %.1f; genmove "
	    "wait in the client's socket, us: p50 %.1f p99 %.1f max %.1f\n",
	    quant(&B.hold, .5), quant(&B.hold, .99), quant(&B.hold, 1),
	    quant(&B.wait, .5), quant(&B.wait, .99), quant(&B.wait, 1));
	printf("server delay (DELAY_US), us: p50 %.0f p99 %.0f (%zu moves)\n",
	    quant(&B.delay, .5), quant(&B.delay, .99), B.delay.n);
}

static void
usage(void)
{
	fprintf(stderr, "usage: clock-bench [--port P] [--pairs N] "
	    "[--games G] [--seconds S] [--tc B+I] [--game 'nim A B ...'] "
	    "[--prefix NAME]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	char		 name[48];
	int		 i;

	B.port = 7559;
	B.pairs = 250;
	B.games = 1000;
	B.seconds = 60;
	B.tc = "200+2";
	B.game = "nim 40 40 40";
	B.prefix = "cb";
	for (i = 1; i < argc; i++) {
		if (i + 1 == argc)
			usage();
		if (strcmp(argv[i], "--port") == 0)
			B.port = atoi(argv[++i]);
		else if (strcmp(argv[i], "--pairs") == 0)
			B.pairs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--games") == 0)
			B.games = atoi(argv[++i]);
		else if (strcmp(argv[i], "--seconds") == 0)
			B.seconds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--tc") == 0)
			B.tc = argv[++i];
		else if (strcmp(argv[i], "--game") == 0)
			B.game = argv[++i];
		else if (strcmp(argv[i], "--prefix") == 0)
			B.prefix = argv[++i];
		else
			usage();
	}
	if (B.pairs < 1 || B.games < 1 || B.seconds < 1 ||
	    (B.nstart = parse_nim(B.game, B.start)) < 1)
		usage();
	for (i = 0; i < B.nstart; i++)
		B.tokens += B.start[i];
	if ((B.ep = epoll_create1(0)) == -1)
		die("epoll_create1: %s", strerror(errno));
	B.c = xrealloc(NULL, (size_t)(2 * B.pairs) * sizeof *B.c);
	cb_add(&B.rec, -1, "recorder");
	for (i = 0; i < 2 * B.pairs; i++) {
		snprintf(name, sizeof name, "%s%d", B.prefix, i);
		cb_add(&B.c[i], i, name);
	}
	for (i = 0; i < 2 * B.pairs && i < CB_WINDOW; i++)
		cb_login(&B.c[i]);
	cb_loop();
	cb_report();
	return (0);
}
