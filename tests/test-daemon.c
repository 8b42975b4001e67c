/*
 * test-daemon.c: end-to-end tests against the real grundyd on an ephemeral
 * loopback port: golden transcripts, a refereed game for every family,
 * every limit, 200 concurrent clients, signals, --check-config and
 * precomputed tables.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "testutil.h"
#include "engine.h"
#include "cmd-log.h"
#include "store.h"

/* A running daemon. */
struct daemon {
	pid_t		 pid;
	int		 port;
	char		 portfile[64];
	char		 logfile[64];
	char		 dbfile[64];
};

/* Returns the path of a file in the source tree. */
static const char *
srcpath(const char *rel)
{
	static char	 path[1024];
	const char	*top = getenv("top_srcdir");

	snprintf(path, sizeof path, "%s/%s", top != NULL ? top : "..", rel);
	return (path);
}

/* Returns milliseconds on the monotonic clock. */
static long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Starts grundyd with extra arguments (NULL-terminated); waits for its port. */
static void
daemon_start(struct daemon *d, const char *const *extra)
{
	static int	 seq;
	const char	*argv[64];
	FILE		*f;
	int		 i, n = 0, fd;
	long long	 until;

	snprintf(d->portfile, sizeof d->portfile, "daemon-%d-%d.port",
	    (int)getpid(), seq);
	snprintf(d->logfile, sizeof d->logfile, "daemon-%d-%d.log",
	    (int)getpid(), seq);
	snprintf(d->dbfile, sizeof d->dbfile, "daemon-%d-%d.db",
	    (int)getpid(), seq++);
	unlink(d->portfile);
	unlink(d->dbfile);
	argv[n++] = "./grundyd";
	argv[n++] = "--listen";
	argv[n++] = "127.0.0.1:0";
	argv[n++] = "--port-file";
	argv[n++] = d->portfile;
	argv[n++] = "--db";
	argv[n++] = d->dbfile;
	/* Every client comes from 127.0.0.1: no per-address cap here. */
	argv[n++] = "--max-conns-per-ip";
	argv[n++] = "1000000";
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	if ((d->pid = fork()) == 0) {
		fd = open(d->logfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	until = now_ms() + 10000;
	d->port = 0;
	while (now_ms() < until) {
		if ((f = fopen(d->portfile, "r")) != NULL) {
			if (fscanf(f, "%d", &d->port) != 1)
				d->port = 0;
			fclose(f);
			if (d->port > 0)
				return;
		}
		usleep(10000);
	}
	fail_msg("grundyd did not start (see %s)", d->logfile);
}

/* Stops the daemon with SIGTERM and returns its exit status. */
static int
daemon_stop(struct daemon *d)
{
	int	 status = -1;
	long long until = now_ms() + 15000;

	kill(d->pid, SIGTERM);
	while (now_ms() < until) {
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			unlink(d->portfile);
			return (WIFEXITED(status) ? WEXITSTATUS(status) : 128);
		}
		usleep(10000);
	}
	kill(d->pid, SIGKILL);
	waitpid(d->pid, &status, 0);
	return (-1);
}

/* Connects to the daemon; returns the socket. */
static int
client_open(const struct daemon *d)
{
	struct sockaddr_in sin;
	int	 fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)d->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	return (fd);
}

/* Sends all bytes. */
static void
client_send(int fd, const char *s, size_t n)
{
	ssize_t	 w;

	while (n > 0) {
		w = send(fd, s, n, MSG_NOSIGNAL);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/*
 * Reads into b until it holds `replies` complete replies (each ends with an
 * empty line), EOF, or timeout.  Returns 1 on EOF.
 */
static int
client_recv(int fd, struct buf *b, int replies, int timeout_ms)
{
	struct pollfd	 pfd = { fd, POLLIN, 0 };
	char		 tmp[65536];
	const char	*p;
	long long	 until = now_ms() + timeout_ms;
	ssize_t		 n;
	int		 got;

	for (;;) {
		got = 0;
		for (p = buf_str(b); (p = strstr(p, "\n\n")) != NULL; p += 2)
			got++;
		if (replies > 0 && got >= replies)
			return (0);
		if (now_ms() >= until)
			return (0);
		if (poll(&pfd, 1, (int)(until - now_ms())) <= 0)
			continue;
		if ((n = recv(fd, tmp, sizeof tmp, 0)) <= 0)
			return (1);
		buf_add(b, tmp, (size_t)n);
	}
}

/* Sends one line and returns its reply (without the final empty line). */
static char *
client_req(int fd, const char *line)
{
	struct buf	 b;
	char		*r;

	buf_init(&b);
	client_send(fd, line, strlen(line));
	client_send(fd, "\n", 1);
	client_recv(fd, &b, 1, 20000);
	r = strdup(buf_str(&b));
	buf_free(&b);
	if (strlen(r) >= 2 && strcmp(r + strlen(r) - 2, "\n\n") == 0)
		r[strlen(r) - 2] = '\0';
	return (r);
}

/*
 * Opens a connection the daemon serves: it answered protocol_version.
 * While the daemon has not yet seen earlier connections close, it may
 * refuse a new one over --max-conns; this tries again until the deadline.
 */
static int
client_open_served(const struct daemon *d)
{
	long long	 until = now_ms() + 10000;
	char		*r;
	int		 fd, ok;

	for (;;) {
		fd = client_open(d);
		r = client_req(fd, "protocol_version");
		ok = strcmp(r, "= 2") == 0;
		free(r);
		if (ok)
			return (fd);
		close(fd);
		if (now_ms() >= until)
			fail_msg("the daemon serves no new connection");
		usleep(10000);
	}
}

/* Reads a whole file into a new string. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f = fopen(path, "rb");
	char	*s;
	long	 n;

	if (f == NULL)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n)
		fail_msg("short read %s", path);
	s[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return (s);
}

/* Golden transcripts: send NAME.in, half-close, compare with NAME.out. */
static void
test_transcripts(void **state)
{
	const char	*names[] = { "framing", "crlf", "errors", "match",
	    "examples", "accounts", "answers", "limits" };
	const char	*extra[] = { "--admins", "boss", NULL };
	struct daemon	 d;
	struct buf	 got;
	char		 rel[128], *in, *want;
	size_t		 i, inlen, wantlen;
	int		 fd;

	(void)state;
	daemon_start(&d, extra);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(rel, sizeof rel, "proto/transcripts/%s.in", names[i]);
		in = slurp(srcpath(rel), &inlen);
		snprintf(rel, sizeof rel, "proto/transcripts/%s.out",
		    names[i]);
		want = slurp(srcpath(rel), &wantlen);
		fd = client_open(&d);
		client_send(fd, in, inlen);
		shutdown(fd, SHUT_WR);
		buf_init(&got);
		assert_int_equal(client_recv(fd, &got, 0, 20000), 1);
		if (got.len != wantlen || memcmp(buf_str(&got), want,
		    wantlen) != 0) {
			print_error("transcript %s differs\n--- want\n%s\n"
			    "--- got\n%s\n", names[i], want, buf_str(&got));
			fail();
		}
		close(fd);
		buf_free(&got);
		free(in);
		free(want);
	}
	assert_int_equal(daemon_stop(&d), 0);
}

/*
 * Starts the game start on the server and g as its canonical form says.
 * Returns 0, or -1 with why set.
 */
static int
match_new(int fd, const char *start, struct game *g, char *why,
    size_t whylen)
{
	struct game_error err;
	char		*r, req[256];
	int		 rv = -1;

	snprintf(req, sizeof req, "new %s", start);
	r = client_req(fd, req);
	if (r[0] != '=')
		snprintf(why, whylen, "new: %s", r);
	else if (game_parse_line(g, r + 2, tu_limits(), &err) != 0)
		snprintf(why, whylen, "canonical form does not parse: %s", r);
	else
		rv = 0;
	free(r);
	return (rv);
}

/*
 * Plays the engine's reply line ("reply MOVE") on g and checks the move:
 * legal, and winning whenever g was an N-position.  Returns 0, or -1 with
 * why set.
 */
static int
engine_reply(struct game *g, struct game_move *m, const char *line,
    char *why, size_t whylen)
{
	struct game_error err;
	char		*s = strdup(line + 6), *t, *sv, *tok[4];
	int		 ntok = 0, o, rv = -1;

	o = game_outcome(g, &err);
	for (t = strtok_r(s, " ", &sv); t && ntok < 4;
	    t = strtok_r(NULL, " ", &sv))
		tok[ntok++] = t;
	if (game_move_parse(g, m, ntok, tok, tu_limits(), &err) ||
	    game_play(g, m, &err))
		snprintf(why, whylen, "engine move %s refused locally: %s",
		    line, err.msg);
	else if (o == GAME_N && game_outcome(g, &err) != GAME_P)
		snprintf(why, whylen, "engine move %s did not win from an "
		    "N-position", line);
	else
		rv = 0;
	free(s);
	return (rv);
}

/*
 * Plays one refereed match on start: the client plays the engine's own
 * choice (seeded) and checks every engine reply against the local solver:
 * legal, and winning whenever the engine's position was an N-position.
 * Returns 0 on success.
 */
static int
play_match(int fd, const char *start, int client_first, unsigned long seed,
    char *why, size_t whylen, long long *idp, int *plies)
{
	struct game_error err;
	struct game_move m;
	enum engine_why	 ew;
	struct game	 g;
	gmp_randstate_t	 rs;
	struct buf	 line;
	char		*r, *p, req[256], *save;
	int		 rv = -1, moves = 0, g_plies = 0;

	if (match_new(fd, start, &g, why, whylen) != 0)
		return (-1);
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, seed);
	game_move_init(&m);
	buf_init(&line);
	snprintf(req, sizeof req, "match engine %s", client_first ? "first" :
	    "second");
	r = client_req(fd, req);
	for (;;) {
		if (r[0] != '=') {
			snprintf(why, whylen, "%s: %s", req, r);
			goto out;
		}
		/* Each reply line: "reply MOVE" and/or "result ...". */
		for (p = strtok_r(r + 1, "\n", &save); p != NULL;
		    p = strtok_r(NULL, "\n", &save)) {
			while (*p == ' ')
				p++;
			if (strncmp(p, "game ", 5) == 0 && idp != NULL)
				*idp = atoll(p + 5);
			if (strncmp(p, "result ", 7) == 0) {
				if (plies != NULL)
					*plies = g_plies;
				if (!game_terminal(&g)) {
					snprintf(why, whylen, "result but the "
					    "game is not over: %s", p);
					goto out;
				}
				rv = 0;
				goto out;
			}
			if (strncmp(p, "reply ", 6) != 0)
				continue;
			if (engine_reply(&g, &m, p, why, whylen) != 0)
				goto out;
			g_plies++;
			moves++;
		}
		free(r);
		r = NULL;
		if (game_terminal(&g)) {
			snprintf(why, whylen, "game over but no result");
			goto out;
		}
		if (engine_choose(&g, rs, &m, &ew, &err) != 0) {
			snprintf(why, whylen, "local engine: %s", err.msg);
			goto out;
		}
		buf_reset(&line);
		buf_puts(&line, "play ");
		game_move_print(&m, &line);
		game_play(&g, &m, &err);
		g_plies++;
		snprintf(req, sizeof req, "%.200s", buf_str(&line));
		r = client_req(fd, buf_str(&line));
		if (++moves > 100000)
			goto out;
	}
out:
	free(r);
	buf_free(&line);
	game_move_clear(&m);
	gmp_randclear(rs);
	game_free(&g);
	return (rv);
}

/* Starting positions, one or more per family. */
static const char *starts[] = {
	"nim 3 4 5", "nim misere=1 1 1 2", "nim misere=1 3 3", "bash m=3 20",
	"bash m=4 23", "wythoff 9 14", "wythoff 10 10", "wythoff t=2 3 5",
	"wythoff K=3 t=5 30 40", "staircase 3 0 2 5",
	"subtraction S=2,5,7 10 11", "klnim k=2 l=3 turn=1 5 6 7",
	"klnim k=3 l=2 turn=1 4 5", "klnim k=2 l=2 7 9",
	"graph edges=0>1,0>2,1>2,2>3,1>3 0 0 1",
	"sum nim 3 4 + bash m=3 10 + wythoff 3 5",
};

/* A full refereed game against the engine for every family, both sides. */
static void
test_every_family(void **state)
{
	struct daemon	 d;
	char		 why[512];
	size_t		 i;
	int		 fd, side;

	(void)state;
	daemon_start(&d, NULL);
	fd = client_open(&d);
	for (i = 0; i < sizeof starts / sizeof starts[0]; i++)
		for (side = 0; side < 2; side++)
			if (play_match(fd, starts[i], side, i, why,
			    sizeof why, NULL, NULL) != 0)
				fail_msg("%s (client %s): %s", starts[i],
				    side ? "first" : "second", why);
	close(fd);
	assert_int_equal(daemon_stop(&d), 0);
}

/* Arguments of one concurrent client. */
struct cc_arg {
	const struct daemon *d;
	int		 idx;
	int		 ok;
	char		 why[256];
};

/* One of the concurrent clients: three matches on random Nim positions. */
static void *
cc_main(void *p)
{
	struct cc_arg	*a = p;
	char		 start[128];
	int		 fd, k;

	fd = client_open(a->d);
	a->ok = 1;
	for (k = 0; k < 3 && a->ok; k++) {
		snprintf(start, sizeof start, "%s %d %d %d",
		    a->idx % 3 == 0 ? "nim" : a->idx % 3 == 1 ?
		    "bash m=5" : "staircase", 5 + (a->idx * 7 + k) % 23,
		    3 + (a->idx * 13 + k) % 17, 1 + (a->idx + k) % 11);
		if (play_match(fd, start, (a->idx + k) % 2, (unsigned long)
		    (a->idx * 10 + k), a->why, sizeof a->why, NULL, NULL) != 0)
			a->ok = 0;
	}
	close(fd);
	return (NULL);
}

/* 200 clients play refereed games at once; every engine move is checked. */
static void
test_concurrent(void **state)
{
	struct cc_arg	 args[200];
	pthread_t	 th[200];
	struct daemon	 d;
	char		*r;
	int		 i, fd;

	(void)state;
	daemon_start(&d, NULL);
	for (i = 0; i < 200; i++) {
		args[i].d = &d;
		args[i].idx = i;
		pthread_create(&th[i], NULL, cc_main, &args[i]);
	}
	for (i = 0; i < 200; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 200; i++)
		if (!args[i].ok)
			fail_msg("client %d: %s", i, args[i].why);
	fd = client_open(&d);
	r = client_req(fd, "protocol_version");
	assert_string_equal(r, "= 2");
	free(r);
	close(fd);
	assert_int_equal(daemon_stop(&d), 0);
}

/* Lines and values over the limits: clear refusals that change nothing. */
static void
limits_lines(int fd)
{
	char		*r, big[2001];

	/* A complete line over the limit: error, connection stays. */
	memset(big, 'x', sizeof big);
	memcpy(big, "new nim ", 8);
	big[2000] = '\0';
	r = client_req(fd, big);
	assert_non_null(strstr(r, "? line too long"));
	free(r);
	r = client_req(fd, "protocol_version");
	assert_string_equal(r, "= 2");
	free(r);
	/* With an id, the refusal carries it (issue 9). */
	memcpy(big, "42 new nim ", 11);
	r = client_req(fd, big);
	assert_string_equal(r, "?42 line too long: the limit is 1024 bytes");
	free(r);
	/* Numbers, piles, components, graph and table size. */
	r = client_req(fd, "new nim 1234567890123456789012345678901234567890"
	    "12345678901");
	assert_non_null(strstr(r, "exceeds the limit of 50"));
	free(r);
	r = client_req(fd, "new nim 1 2 3 4 5 6 7 8 9 10 11");
	assert_true(r[0] == '?' && strstr(r, "limit") != NULL);
	free(r);
	r = client_req(fd, "new sum nim 1 + nim 2 + nim 3 + nim 4");
	assert_true(r[0] == '?' && strstr(r, "limit") != NULL);
	free(r);
	r = client_req(fd, "new graph edges=1>2,2>3,3>4,4>5,5>6 1");
	assert_true(r[0] == '?');
	free(r);
	r = client_req(fd, "new subtraction S=3,7,8,10 5");
	assert_true(r[0] == '?');
	free(r);
	/* Nothing changed: still no game. */
	r = client_req(fd, "show");
	assert_non_null(strstr(r, "no game"));
	free(r);
}

/* Rate: a burst of 300 commands gets some rate-limit errors. */
static void
limits_rate(int fd)
{
	struct buf	 b;
	const char	*p;
	int		 i, rate_err = 0;

	buf_init(&b);
	for (i = 0; i < 300; i++)
		client_send(fd, "protocol_version\n", 17);
	client_recv(fd, &b, 300, 20000);
	for (p = buf_str(&b); (p = strstr(p, "? rate limit")) != NULL; p++)
		rate_err++;
	assert_true(rate_err > 0 && rate_err < 300);
	buf_free(&b);
}

/* Connections: the cap, a growing line, the idle timeout, vanishing. */
static void
limits_conns(const struct daemon *d)
{
	struct buf	 b;
	char		*r, big[1500];
	int		 fd, conns[8], i;

	/* Max connections: with 8 allowed and served, the 9th is refused. */
	for (i = 0; i < 8; i++)
		conns[i] = client_open_served(d);
	fd = client_open(d);
	buf_init(&b);
	(void)client_recv(fd, &b, 1, 5000);
	assert_non_null(strstr(buf_str(&b), "? too many connections"));
	buf_free(&b);
	close(fd);
	for (i = 0; i < 8; i++)
		close(conns[i]);

	/* A line still growing past the limit: one error, the rest skipped. */
	memset(big, 'x', sizeof big);
	memcpy(big, "new nim ", 8);
	fd = client_open_served(d);
	client_send(fd, big, sizeof big);
	buf_init(&b);
	client_recv(fd, &b, 1, 5000);
	assert_non_null(strstr(buf_str(&b), "? line too long"));
	buf_free(&b);
	client_send(fd, big, sizeof big);
	r = client_req(fd, "\nprotocol_version");
	assert_string_equal(r, "= 2");
	free(r);
	close(fd);

	/* Idle timeout: a final message, then close. */
	fd = client_open(d);
	buf_init(&b);
	assert_int_equal(client_recv(fd, &b, 0, 6000), 1);
	assert_non_null(strstr(buf_str(&b), "? idle timeout"));
	buf_free(&b);
	close(fd);

	/* Vanishing clients mid-command, including a heavy one. */
	for (i = 0; i < 20; i++) {
		fd = client_open(d);
		client_send(fd, "new wythoff 150 190\nanalyze\n", 28);
		close(fd);
		usleep(20000);
	}
	/* Their slots come back once their jobs finish. */
	close(client_open_served(d));
}

/* Every limit answers clearly or closes cleanly, and others are served. */
static void
test_limits(void **state)
{
	const char	*args[] = { "--max-line", "1024", "--max-digits", "50",
	    "--max-piles", "10", "--max-conns", "8", "--idle-timeout", "2",
	    "--max-output", "65536", "--rate", "50", "--burst", "100",
	    "--max-components", "3", "--max-nodes", "5", "--max-table", "16",
	    NULL };
	struct daemon	 d;
	int		 fd;

	(void)state;
	daemon_start(&d, args);
	fd = client_open(&d);
	limits_lines(fd);
	limits_rate(fd);
	close(fd);
	limits_conns(&d);
	assert_int_equal(daemon_stop(&d), 0);
}

/*
 * Output cap: a client that never reads is first throttled (its requests
 * wait), then dropped by the write timeout; others are served meanwhile.
 */
static void
test_output_cap(void **state)
{
	const char	*args[] = { "--max-output", "65536", "--rate",
	    "10000000", "--burst", "10000000", "--idle-timeout", "2", NULL };
	struct daemon	 d;
	struct sockaddr_in sin;
	char		*r, *log, flood[6000];
	size_t		 loglen, i;
	int		 fd, fd2, small = 4096;

	(void)state;
	daemon_start(&d, args);
	fd = client_open(&d);
	/* A small receive window, set before connecting. */
	fd2 = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(fd2, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)d.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd2, (struct sockaddr *)&sin, sizeof sin),
	    0);
	for (i = 0; i + 6 <= sizeof flood; i += 6)
		memcpy(flood + i, "games\n", 6);
	/* ~900 bytes of reply per 6-byte request: 10,000 of them is 9 MB. */
	for (i = 0; i < 10; i++)
		client_send(fd2, flood, sizeof flood);
	r = client_req(fd, "name");
	assert_string_equal(r, "= grundyd");
	free(r);
	/* The drop is logged; wait for it (bounded). */
	for (i = 0; i < 100; i++) {
		log = slurp(d.logfile, &loglen);
		r = strstr(log, "reason=write-timeout");
		free(log);
		if (r != NULL)
			break;
		usleep(100000);
	}
	assert_true(i < 100);
	close(fd);
	fd = client_open(&d);
	r = client_req(fd, "protocol_version");
	assert_string_equal(r, "= 2");
	free(r);
	close(fd2);
	close(fd);
	assert_int_equal(daemon_stop(&d), 0);
}

/* SIGTERM finishes replies in flight and exits 0; SIGHUP reloads limits. */
static void
test_signals(void **state)
{
	const char	*cfgargs[] = { "--config", "daemon-test.conf", NULL };
	struct daemon	 d;
	struct buf	 b;
	FILE		*f;
	char		*r;
	long long	 until;
	int		 fd;

	(void)state;
	f = fopen("daemon-test.conf", "w");
	fprintf(f, "# test configuration\nmax-digits = 100\n");
	fclose(f);
	daemon_start(&d, cfgargs);
	fd = client_open(&d);
	r = client_req(fd, "new nim 123456");
	assert_string_equal(r, "= nim 123456");
	free(r);
	f = fopen("daemon-test.conf", "w");
	fprintf(f, "max-digits = 5\n");
	fclose(f);
	kill(d.pid, SIGHUP);
	/* The reload is seen when the limit refuses what it let through. */
	until = now_ms() + 10000;
	for (;;) {
		r = client_req(fd, "new nim 123456");
		if (strstr(r, "exceeds the limit of 5") != NULL ||
		    now_ms() >= until)
			break;
		assert_string_equal(r, "= nim 123456");
		free(r);
		usleep(10000);
	}
	assert_non_null(strstr(r, "exceeds the limit of 5"));
	free(r);
	/* A pipelined batch is answered in full across SIGTERM. */
	client_send(fd, "new wythoff 100 150\nanalyze\nname\n", 33);
	kill(d.pid, SIGTERM);
	buf_init(&b);
	client_recv(fd, &b, 0, 10000);
	assert_non_null(strstr(buf_str(&b), "= grundyd"));
	buf_free(&b);
	close(fd);
	assert_int_equal(daemon_stop(&d), 0);
	unlink("daemon-test.conf");
}

/*
 * systemd: readiness through $NOTIFY_SOCKET (READY=1, then STOPPING=1 on
 * SIGTERM), and socket activation: a listening socket passed as fd 3 with
 * LISTEN_PID and LISTEN_FDS is served instead of --listen.
 */
static void
test_systemd(void **state)
{
	struct sockaddr_un sun;
	struct sockaddr_in sin;
	struct daemon	 d;
	socklen_t	 len = sizeof sin;
	char		 msg[256], path[108], *r;
	ssize_t		 n;
	int		 nfd, lfd, fd, status, one = 1;
	struct timeval	 tv = { 10, 0 };

	(void)state;
	snprintf(path, sizeof path, "notify-%d.sock", (int)getpid());
	unlink(path);
	nfd = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	assert_int_equal(bind(nfd, (struct sockaddr *)&sun, sizeof sun), 0);
	setsockopt(nfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	{
		char	 abs[1024];

		assert_non_null(getcwd(abs, sizeof abs - sizeof path - 2));
		strcat(abs, "/");
		strcat(abs, path);
		setenv("NOTIFY_SOCKET", abs, 1);
	}

	/* A listening socket on an ephemeral port, handed over as fd 3. */
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(listen(lfd, 16), 0);
	getsockname(lfd, (struct sockaddr *)&sin, &len);
	d.port = ntohs(sin.sin_port);
	if ((d.pid = fork()) == 0) {
		char	 pid[32];

		dup2(lfd, 3);
		snprintf(pid, sizeof pid, "%d", (int)getpid());
		setenv("LISTEN_PID", pid, 1);
		setenv("LISTEN_FDS", "1", 1);
		fd = open("daemon-systemd.log", O_WRONLY | O_CREAT | O_TRUNC,
		    0644);
		dup2(fd, 2);
		execl("./grundyd", "./grundyd", "--listen", "127.0.0.1:1",
		    "--db", "off", (char *)NULL);
		_exit(127);
	}
	close(lfd);
	unsetenv("NOTIFY_SOCKET");
	n = recv(nfd, msg, sizeof msg - 1, 0);
	assert_true(n > 0);
	msg[n] = '\0';
	assert_string_equal(msg, "READY=1");
	fd = client_open(&d);
	r = client_req(fd, "name");
	assert_string_equal(r, "= grundyd");
	free(r);
	close(fd);
	kill(d.pid, SIGTERM);
	n = recv(nfd, msg, sizeof msg - 1, 0);
	assert_true(n > 0);
	msg[n] = '\0';
	assert_string_equal(msg, "STOPPING=1");
	waitpid(d.pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(nfd);
	unlink(path);
}

/*
 * Replays a record (the text of `record ID`) on the connection with `new`
 * and one `play` per move: every move must be accepted, and the replayed
 * game must end where the record says, with nobody able to move.
 */
static void
replay_record(int fd, const char *rec)
{
	char	*copy = strdup(rec), *line, *save, *r, req[512], *p, *q;
	int	 moves = 0;

	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "start ", 6) == 0) {
			snprintf(req, sizeof req, "new %s", line + 6);
			r = client_req(fd, req);
			assert_true(r[0] == '=');
			free(r);
		} else if (strncmp(line, "move ", 5) == 0) {
			/* move PLY PLAYER MOVE... MARK TIME_MS DELAY_US */
			p = strchr(line + 5, ' ');
			p = strchr(p + 1, ' ') + 1;
			q = strrchr(line, ' ');
			*q = '\0';
			q = strrchr(line, ' ');
			*q = '\0';
			q = strrchr(line, ' ');
			*q = '\0';
			snprintf(req, sizeof req, "play %s", p);
			r = client_req(fd, req);
			if (strcmp(r, "=") != 0)
				fail_msg("replay '%s': %s", req, r);
			free(r);
			moves++;
		}
	}
	assert_true(moves > 0);
	r = client_req(fd, "show");
	assert_non_null(strstr(r, "\nover"));
	free(r);
	free(copy);
}

/* Games finished before the crash test kills the daemon. */
#define CRASH_SEEN	64

/* What the crash-test clients saw: games whose result they received. */
struct crash_seen {
	pthread_mutex_t	 mtx;
	long long	 id[20000];
	int		 plies[20000];
	int		 n;
};

/* Arguments of one crash-test client. */
struct crash_arg {
	const struct daemon *d;
	struct crash_seen *seen;
	int		 idx;
};

/* Waits (at most 60 s) until the clients saw CRASH_SEEN games finish. */
static void
crash_wait(struct crash_seen *seen)
{
	long long	 until = now_ms() + 60000;
	int		 n;

	do {
		usleep(10000);
		pthread_mutex_lock(&seen->mtx);
		n = seen->n;
		pthread_mutex_unlock(&seen->mtx);
	} while (n < CRASH_SEEN && now_ms() < until);
}

/* Plays matches until the daemon dies; records every finished game. */
static void *
crash_main(void *p)
{
	struct crash_arg *a = p;
	char		 start[128], why[256];
	long long	 id;
	int		 fd, k, plies;

	fd = client_open(a->d);
	for (k = 0; k < 100000; k++) {
		snprintf(start, sizeof start, "nim %d %d %d", 3 + (a->idx +
		    k) % 29, 1 + (k * 7) % 31, 2 + (a->idx * 3 + k) % 13);
		id = 0;
		plies = 0;
		if (play_match(fd, start, k % 2, (unsigned long)k, why,
		    sizeof why, &id, &plies) != 0)
			break;
		pthread_mutex_lock(&a->seen->mtx);
		if (a->seen->n < 20000) {
			a->seen->id[a->seen->n] = id;
			a->seen->plies[a->seen->n] = plies;
			a->seen->n++;
		}
		pthread_mutex_unlock(&a->seen->mtx);
	}
	close(fd);
	return (NULL);
}

/*
 * Durability: kill -9 the daemon during a load of concurrent games, then
 * check that every game whose result a client received is in the log,
 * finished and complete, that the database passes integrity_check, and
 * that a restarted daemon serves the records.
 */
static void
test_crash(void **state)
{
	static struct crash_seen seen;
	struct crash_arg args[16];
	pthread_t	 th[16];
	struct daemon	 d;
	struct store	*st;
	struct buf	 rec;
	struct store_record sr;
	char		 err[512], *r, req[64];
	const char	*p;
	int		 i, n, fd, status;
	sqlite3		*db;
	sqlite3_stmt	*stmt;

	(void)state;
	daemon_start(&d, NULL);
	pthread_mutex_init(&seen.mtx, NULL);
	seen.n = 0;
	for (i = 0; i < 16; i++) {
		args[i].d = &d;
		args[i].seen = &seen;
		args[i].idx = i;
		pthread_create(&th[i], NULL, crash_main, &args[i]);
	}
	/* Kill it mid-load, once CRASH_SEEN games have finished. */
	crash_wait(&seen);
	kill(d.pid, SIGKILL);
	waitpid(d.pid, &status, 0);
	for (i = 0; i < 16; i++)
		pthread_join(th[i], NULL);
	assert_true(seen.n >= CRASH_SEEN);
	print_message("crash test: %d games finished before kill -9\n",
	    seen.n);

	/* Integrity first, on the file as the crash left it. */
	assert_int_equal(sqlite3_open(d.dbfile, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1,
	    &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "ok");
	sqlite3_finalize(stmt);
	sqlite3_close(db);

	/* Every game a client saw finish is complete in the log. */
	st = store_open(d.dbfile, err, sizeof err);
	assert_non_null(st);
	buf_init(&rec);
	for (i = 0; i < seen.n; i++) {
		buf_reset(&rec);
		if (store_record(st, seen.id[i], &sr) != 1)
			fail_msg("game %lld: result received, not in the log",
			    seen.id[i]);
		cmd_log_record(&rec, &sr);
		store_record_free(&sr);
		for (n = 0, p = buf_str(&rec); (p = strstr(p, "\nmove ")) !=
		    NULL; p++)
			n++;
		if (n != seen.plies[i] ||
		    strstr(buf_str(&rec), "status finished") == NULL)
			fail_msg("game %lld: %d moves logged, %d played:\n%s",
			    seen.id[i], n, seen.plies[i], buf_str(&rec));
	}
	buf_free(&rec);
	store_close(st);

	/* A restarted daemon on the same log serves the records. */
	{
		const char *args2[] = { "--db", d.dbfile, NULL };
		struct daemon d2;

		daemon_start(&d2, args2);
		fd = client_open(&d2);
		snprintf(req, sizeof req, "record %lld", seen.id[0]);
		r = client_req(fd, req);
		assert_non_null(strstr(r, "status finished"));
		replay_record(fd, r);
		free(r);
		close(fd);
		assert_int_equal(daemon_stop(&d2), 0);
	}
}

/*
 * Precomputed tables: --precompute fills one that `table` then serves from
 * the store; a table computed by one daemon is loaded, not recomputed, by
 * the next one on the same database.
 */
static void
test_tables(void **state)
{
	struct daemon	 d, d2;
	const char	*args[] = { "--db", "daemon-tables.db", NULL };
	char		*r, *log;
	size_t		 len;
	int		 fd;

	(void)state;
	unlink("daemon-tables.db");
	assert_int_equal(system("./grundyd --db daemon-tables.db --precompute "
	    "'wythoff t=2 K=3 count=500' >daemon-tables.out 2>/dev/null"), 0);
	log = slurp("daemon-tables.out", &len);
	assert_non_null(strstr(log, "precomputed wythoff t=2 K=3 count=500: "
	    "500 lines"));
	free(log);
	unlink("daemon-tables.out");

	daemon_start(&d, args);
	fd = client_open(&d);
	r = client_req(fd, "table subtraction S=2,5,7 0");
	assert_non_null(strstr(r, "= preperiod 0\nperiod 22\n0 0\n1 0\n"));
	free(r);
	r = client_req(fd, "table wythoff K=3 t=2 count=400");
	assert_non_null(strstr(r, "\n399 1935 3132"));
	free(r);
	r = client_req(fd, "table nim 3");
	assert_non_null(strstr(r, "? nim has no precomputed table"));
	free(r);
	close(fd);
	assert_int_equal(daemon_stop(&d), 0);
	log = slurp(d.logfile, &len);
	assert_non_null(strstr(log, "event=table-load kind=wythoff-p"));
	assert_null(strstr(log, "event=table-save kind=wythoff-p"));
	assert_non_null(strstr(log, "event=table-save kind=subtraction"));
	free(log);

	daemon_start(&d2, args);
	fd = client_open(&d2);
	r = client_req(fd, "table subtraction S=2,5,7 0 count=30");
	assert_non_null(strstr(r, "= preperiod 0\nperiod 22\n0 0\n1 0\n"));
	assert_non_null(strstr(r, "\n29 3"));
	free(r);
	close(fd);
	assert_int_equal(daemon_stop(&d2), 0);
	log = slurp(d2.logfile, &len);
	assert_non_null(strstr(log, "event=table-load kind=subtraction "
	    "key=S=2,5,7"));
	assert_null(strstr(log, "event=table-save"));
	free(log);
	unlink("daemon-tables.db");
	unlink("daemon-tables.db-wal");
	unlink("daemon-tables.db-shm");
}

/* --check-config accepts good settings and rejects bad ones. */
static void
test_check_config(void **state)
{
	(void)state;
	assert_int_equal(system("./grundyd --check-config --listen "
	    "127.0.0.1:7559 --listen [::1]:7559 >/dev/null 2>&1"), 0);
	assert_true(system("./grundyd --check-config --listen nowhere "
	    ">/dev/null 2>&1") != 0);
	assert_true(system("./grundyd --check-config --max-digits x "
	    ">/dev/null 2>&1") != 0);
	assert_true(system("./grundyd --check-config --bogus 1 "
	    ">/dev/null 2>&1") != 0);
	assert_true(system("./grundyd --config /nonexistent/grundyd.conf "
	    "--check-config >/dev/null 2>&1") != 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transcripts),
		cmocka_unit_test(test_every_family),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_output_cap),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_check_config),
		cmocka_unit_test(test_tables),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests_name("daemon", tests, NULL, NULL));
}
