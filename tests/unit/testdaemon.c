/*
 * testdaemon.c: what the daemon test programs share (testdaemon.h).
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "testdaemon.h"
#include "testdb.h"
#include "solver/engine.h"

/* Returns the path of a file in the source tree. */
const char *
srcpath(const char *rel)
{
	static char	 path[1024];
	const char	*top = getenv("top_srcdir");

	snprintf(path, sizeof path, "%s/%s", top != NULL ? top : "..", rel);
	return (path);
}

/*
 * Makes name an admin of the database db with the password password1, as
 * the operator does (grundyd --add-admin, PROTOCOL.md §13.1).
 */
static void
daemon_add_admin(const char *db, const char *name)
{
	pid_t	 pid;
	int	 status = -1, fd;

	if ((pid = fork()) == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) != -1) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		setenv("GRUNDY_PASSWORD", "password1", 1);
		execl("./grundyd", "./grundyd", "--db", db, "--add-admin", name,
		    (char *)NULL);
		_exit(127);
	}
	if (pid == -1 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("grundyd --add-admin %s failed", name);
}

/*
 * In a forked child that is to exec a grundyd: its stdout and stderr go to
 * logfile, and it is killed when the test program ends, however it ends.
 * A test that fails (cmocka's fail_msg jumps past daemon_stop) left its
 * daemon running, holding the test's stdout: make check then waited for
 * it for ever instead of reporting the failure.
 */
void
daemon_child(const char *logfile, pid_t parent)
{
	int	 fd;

	if ((fd = open(logfile, O_WRONLY | O_CREAT | O_TRUNC, 0644)) != -1) {
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
		_exit(127);
}

/*
 * Starts grundyd with extra arguments (NULL-terminated); waits for its
 * port (30 s at most: a loaded machine).  Each name of --admins NAME (one name) is made an admin first.
 */
void
daemon_start(struct daemon *d, const char *const *extra)
{
	static int	 seq;
	const char	*argv[64];
	FILE		*f;
	pid_t		 parent;
	int		 i, n = 0;
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
	for (i = 0; extra != NULL && extra[i] != NULL; i++) {
		argv[n++] = extra[i];
		if (strcmp(extra[i], "--admins") == 0 && extra[i + 1] != NULL)
			daemon_add_admin(d->dbfile, extra[i + 1]);
	}
	argv[n] = NULL;
	parent = getpid();
	if ((d->pid = fork()) == 0) {
		daemon_child(d->logfile, parent);
		/* The loop guard (PROTOCOL.md §13.12): a statement on the
		 * event loop stops the daemon (the test fails there). */
		setenv("GRUNDY_LOOP_DB", "abort", 0);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	until = now_ms() + 30000;
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
int
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
int
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
void
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
int
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
char *
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
int
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
char *
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
int
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
