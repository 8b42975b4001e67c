/*
 * test-daemon-life.c: the real grundyd's life cycle: signals (SIGHUP
 * reloads, SIGTERM finishes what is in flight), systemd readiness and
 * socket activation, kill -9 under load with every reported game in the
 * log, and precomputed tables kept across restarts.
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
#include "testdb.h"
#include "solver/engine.h"
#include "cmd/cmd-history.h"
#include "store/store.h"

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
	until = now_ms() + 30000;
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
	client_recv(fd, &b, 0, 30000);
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
	pid_t		 parent;
	int		 nfd, lfd, fd, status, one = 1;
	struct timeval	 tv = { 30, 0 };	/* a loaded machine's start */

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
	parent = getpid();
	if ((d.pid = fork()) == 0) {
		char	 pid[32];

		dup2(lfd, 3);
		snprintf(pid, sizeof pid, "%d", (int)getpid());
		setenv("LISTEN_PID", pid, 1);
		setenv("LISTEN_FDS", "1", 1);
		daemon_child("daemon-systemd.log", parent);
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
			/*
			 * move PLY PLAYER MOVE... MARK TIME_MS DELAY_US
			 * TIME_US
			 */
			p = strchr(line + 5, ' ');
			p = strchr(p + 1, ' ') + 1;
			q = strrchr(line, ' ');
			*q = '\0';
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

/* Checks that every game a client saw finish is complete in the log. */
static void
crash_logged(const char *dbfile, const struct crash_seen *seen)
{
	struct store	*st;
	struct buf	 rec;
	char		 err[512];
	const char	*p;
	int		 i, n;

	st = store_open(dbfile, err, sizeof err);
	assert_non_null(st);
	buf_init(&rec);
	for (i = 0; i < seen->n; i++) {
		buf_reset(&rec);
		if (cmd_history_record(st, seen->id[i], &rec) != 1)
			fail_msg("game %lld: result received, not in the log",
			    seen->id[i]);
		for (n = 0, p = buf_str(&rec); (p = strstr(p, "\nmove ")) !=
		    NULL; p++)
			n++;
		if (n != seen->plies[i] ||
		    strstr(buf_str(&rec), "status finished") == NULL)
			fail_msg("game %lld: %d moves logged, %d played:\n%s",
			    seen->id[i], n, seen->plies[i], buf_str(&rec));
	}
	buf_free(&rec);
	store_close(st);
}

/* A restarted daemon on the same log serves the records (first game). */
static void
crash_restart(const char *dbfile, long long id)
{
	const char	*args2[] = { "--db", dbfile, NULL };
	struct daemon	 d2;
	char		*r, req[64];
	int		 fd;

	daemon_start(&d2, args2);
	fd = client_open(&d2);
	snprintf(req, sizeof req, "record %lld", id);
	r = client_req(fd, req);
	assert_non_null(strstr(r, "status finished"));
	replay_record(fd, r);
	free(r);
	close(fd);
	assert_int_equal(daemon_stop(&d2), 0);
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
	int		 i, status;

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

	integrity_ok(d.dbfile);		/* on the file as the crash left it */
	crash_logged(d.dbfile, &seen);
	crash_restart(d.dbfile, seen.id[0]);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_tables),
	};

	signal(SIGPIPE, SIG_IGN);
	return (cmocka_run_group_tests_name("daemon-life", tests, NULL,
	    NULL));
}
