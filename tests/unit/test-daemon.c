/*
 * test-daemon.c: end-to-end tests against the real grundyd on an ephemeral
 * loopback port: golden transcripts, a refereed game for every family,
 * every limit, 200 concurrent clients and --check-config.  Signals,
 * systemd, the crash test and precomputed tables are in
 * test-daemon-life.c.
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
#include "testdaemon.h"
#include "solver/engine.h"
#include "cmd/cmd-history.h"
#include "store/store.h"

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
	for (p = buf_str(&b); (p = strstr(p, "? budget: commands of the trusted class")) != NULL; p++)
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
	(void)client_recv(fd, &b, 1, 30000);
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
	client_recv(fd, &b, 1, 30000);
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
	/* The drop is logged; wait for it (a poll, 30 s at most). */
	for (i = 0; i < 300; i++) {
		log = slurp(d.logfile, &loglen);
		r = strstr(log, "reason=write-timeout");
		free(log);
		if (r != NULL)
			break;
		usleep(100000);
	}
	assert_true(i < 300);
	close(fd);
	fd = client_open(&d);
	r = client_req(fd, "protocol_version");
	assert_string_equal(r, "= 2");
	free(r);
	close(fd2);
	close(fd);
	assert_int_equal(daemon_stop(&d), 0);
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
		cmocka_unit_test(test_check_config),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests_name("daemon", tests, NULL,
	    NULL));
}
