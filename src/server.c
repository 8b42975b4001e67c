/*
 * server.c: grundyd's network side, on one libevent loop.
 *
 * Threading model.  One thread runs the event loop and owns every socket,
 * bufferevent and connection list.  A request line is executed on the loop
 * when it is cheap; when session_heavy() says it may be slow (building a
 * subtraction or graph table, a bounded Wythoff Grundy table, a sum, a line
 * over 1 KiB) it is queued to a small pool of worker threads instead.
 * While a connection has a job in flight it is "busy": the loop neither
 * reads its next line nor touches its session, so a session is only ever
 * used by one thread at a time and needs no lock.  Workers hand finished
 * jobs back through a mutex-protected queue and one byte on a pipe that the
 * loop watches.  A connection that closes while busy is only marked dead
 * and freed when its job returns.  Pipelined requests are answered in
 * order because a connection runs one request at a time.
 *
 * Limits: request line length (reply, skip the line), output buffer (drop the
 * client), idle timeout (final message and close; only complete lines
 * count), line timeout (a started line must end in time: slowloris),
 * connection count (refuse with a message), per-connection rate (token
 * bucket: refuse the command), the workers an address may hold (its
 * share: workers - 1) and its heavy commands in the pool (refuse beyond
 * max-queued-per-ip).  seek and challenge prepare their game on a worker
 * first (job->prep), then run on the loop.  Game-size limits are enforced
 * by the solver's parsers.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/queue.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "cmd-table.h"
#include "addrrate.h"
#include "dblock.h"
#include "league.h"
#include "lobby.h"
#include "log.h"
#include "sdnotify.h"
#include "server.h"
#include "store.h"

struct server;

/*
 * A connection's life cycle; it only moves forward, through conn_enter.
 * Whether a worker has its session (busy), whether its socket is watched
 * (reading) and whether an overlong line is being skipped (discard) are
 * not life-cycle states: they come and go while it is open.
 */
enum conn_state {
	CONN_OPEN = 0,	/* reads and answers requests */
	CONN_EOF,	/* the peer sent EOF: answer what it sent, then close */
	CONN_CLOSING,	/* flush the output, then close */
	CONN_KILLED,	/* dropped on the next turn of the loop (killev) */
	CONN_DEAD,	/* gone while a worker has it: freed when it returns */
};

/* One client connection. */
struct conn {
	TAILQ_ENTRY(conn) entry;
	struct server	*srv;
	uint64_t	 id;
	struct bufferevent *bev;	/* output side only */
	struct event	*rev;		/* input: readable or idle timeout */
	struct evbuffer	*in;		/* received, not yet executed */
	int		 reading;	/* rev is added */
	struct session	 sess;
	char		 peer[64];
	char		 host[INET6_ADDRSTRLEN];	/* peer address */
	struct event	*killev;	/* drops the client from the lobby */
	enum conn_state	 state;
	const char	*why;		/* CLOSING, KILLED: the close reason */
	int		 busy;		/* a job is with the workers */
	int		 discard;	/* skipping the rest of an overlong line */
	struct proto_answer ans;	/* the answer block being read */
	char		*prepped;	/* a line prepared on a worker, to run */
	size_t		 prepped_len;
	uint64_t	 tokens;	/* rate bucket, in 1/1000 commands */
	uint64_t	 refill_ms;	/* when the bucket was last refilled */
	uint64_t	 ncmds;
	uint64_t	 line_ms;	/* the last complete line (or connect) */
	uint64_t	 partial_ms;	/* a partial line began; 0: none */
};
TAILQ_HEAD(connlist, conn);

/* A request for the workers, and its answer. */
struct job {
	STAILQ_ENTRY(job) entry;
	struct conn	*conn;		/* NULL: a deferred call, fn(arg) */
	void		 (*fn)(void *);
	void		*arg;
	char		*line;
	size_t		 len;
	struct buf	 out;
	int		 close;
	int		 prep;		/* only prepare: the loop runs it next */
	int64_t		 gid;		/* the match whose end it waits for */
};
STAILQ_HEAD(joblist, job);

/* The heavy commands of one address, for the workers' fairness. */
struct hostload {
	char		 host[INET6_ADDRSTRLEN];
	unsigned int	 running;	/* on a worker */
	unsigned int	 queued;	/* waiting in todo */
};

struct server {
	struct event_base *base;
	struct conf	*conf;
	struct evconnlistener *lis[CONF_MAX_LISTEN];
	int		 nlis;
	struct event	*sig[3];
	struct event	*donev;		/* the pipe's read end */
	struct event	*stopev;	/* shutdown deadline */
	struct connlist	 conns;
	size_t		 nconns;
	uint64_t	 next_id;
	int		 stopping;
	struct buf	 out;		/* reply scratch for conn_process */
	struct store	*store;		/* the game log, or NULL (--db off) */
	struct game_tables tables;	/* the table cache on store */
	struct league	*league;	/* accounts, or NULL (--db off) */
	struct lobby	*lobby;		/* networked play */
	int		 reload_pending;	/* SIGHUP while a job ran */
	char		 anon[32];	/* "anon:START": anonymous names */
	/* Worker pool. */
	pthread_t	*threads;
	unsigned int	 nthreads;
	pthread_mutex_t	 mtx;
	pthread_cond_t	 cond;
	struct joblist	 todo;
	struct joblist	 done;
	int		 quit;
	int		 pipefd[2];
	struct hostload	*loads;		/* addresses with jobs (mtx) */
	struct addrrate	*regrate;	/* account creation per address */
	size_t		 nloads;
};

static void	 conn_process(struct conn *);
static void	 conn_end_last_line(struct conn *);
static void	 conn_free(struct conn *, const char *);
static void	 conn_reading(struct conn *, int);
static void	 conn_line_timer(struct conn *);
static void	 conn_refuse(struct conn *, char *, size_t, struct buf *,
		    struct buf *);
static int	 conn_output_full(struct conn *);
static void	 server_reload(struct server *);

/* Returns the name of a connection state, for logs. */
static const char *
conn_strstate(enum conn_state st)
{
	switch (st) {
	case CONN_OPEN:
		return ("open");
	case CONN_EOF:
		return ("eof");
	case CONN_CLOSING:
		return ("closing");
	case CONN_KILLED:
		return ("killed");
	case CONN_DEAD:
		return ("dead");
	}
	return ("unknown");
}

/*
 * Moves a connection on in its life cycle: the one place its state
 * changes.  why is the close reason of CLOSING and KILLED (NULL for
 * CLOSING: "eof" after an EOF, else "quit").  A step back is ignored.
 */
static void
conn_enter(struct conn *c, enum conn_state st, const char *why)
{
	if (st <= c->state)
		return;
	log_debug("conn=%llu event=conn-state %s -> %s",
	    (unsigned long long)c->id, conn_strstate(c->state),
	    conn_strstate(st));
	if (st == CONN_CLOSING && why == NULL)
		why = c->state == CONN_EOF ? "eof" : "quit";
	if (why != NULL)
		c->why = why;
	c->state = st;
}

/* Returns the loop's cached time in milliseconds. */
static uint64_t
server_now_ms(struct server *srv)
{
	struct timeval	 tv;

	event_base_gettimeofday_cached(srv->base, &tv);
	return ((uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000);
}

/* Hands a finished job back to the loop (any thread). */
static void
server_job_done(struct server *srv, struct job *j)
{
	char	 b = 1;

	pthread_mutex_lock(&srv->mtx);
	STAILQ_INSERT_TAIL(&srv->done, j, entry);
	pthread_mutex_unlock(&srv->mtx);
	while (write(srv->pipefd[1], &b, 1) == -1 && errno == EINTR)
		;
}

/* The log has (or failed to write) a game's end: release the reply. */
static void
server_durable_cb(void *arg, int ok)
{
	struct job	*j = arg;

	if (!ok) {
		log_warnx("conn=%llu event=log-failed what=game-end game=%lld",
		    (unsigned long long)j->conn->id, (long long)j->gid);
		/* Never report as durable: say so in the reply (§12). */
		if (j->out.len >= 2 && j->out.data[j->out.len - 1] == '\n' &&
		    j->out.data[j->out.len - 2] == '\n') {
			j->out.len--;
			buf_printf(&j->out, "unlogged %lld the game log could "
			    "not write this result\n\n", (long long)j->gid);
		}
	}
	server_job_done(j->conn->srv, j);
}

/*
 * A command ended a match: log the end and hold its reply (in j) until
 * the commit that holds the result returns.  Called by the thread that
 * ran the command, which owns the session.
 */
static void
conn_end_game(struct conn *c, struct job *j)
{
	j->gid = session_end_log(&c->sess, server_durable_cb, j);
}

/*
 * Returns the load of an address (srv->mtx held), adding it if create;
 * NULL if absent.
 */
static struct hostload *
server_load(struct server *srv, const char *host, int create)
{
	size_t	 i;

	for (i = 0; i < srv->nloads; i++)
		if (strcmp(srv->loads[i].host, host) == 0)
			return (&srv->loads[i]);
	if (!create)
		return (NULL);
	srv->loads = xreallocarray(srv->loads, srv->nloads + 1,
	    sizeof *srv->loads);
	memset(&srv->loads[srv->nloads], 0, sizeof *srv->loads);
	snprintf(srv->loads[srv->nloads].host, sizeof srv->loads->host, "%s",
	    host);
	return (&srv->loads[srv->nloads++]);
}

/* Forgets an address with no job left (srv->mtx held). */
static void
server_load_drop(struct server *srv, struct hostload *l)
{
	if (l->running > 0 || l->queued > 0)
		return;
	*l = srv->loads[--srv->nloads];
}

/*
 * Fairness: the workers one address may hold at once, so one address can
 * never take them all (one connection has at most one job anyway).
 */
static unsigned int
server_share(const struct server *srv)
{
	return (srv->nthreads > 1 ? srv->nthreads - 1 : 1);
}

/*
 * Takes the oldest queued job whose address is under its share of the
 * workers (srv->mtx held), or NULL.
 */
static struct job *
server_pick(struct server *srv)
{
	struct hostload	*l;
	struct job	*j;

	STAILQ_FOREACH(j, &srv->todo, entry) {
		l = server_load(srv, j->conn->host, 1);
		if (l->running < server_share(srv)) {
			STAILQ_REMOVE(&srv->todo, j, job, entry);
			l->queued--;
			l->running++;
			return (j);
		}
	}
	return (NULL);
}

/* Runs queued jobs until told to quit (worker thread body). */
static void *
server_worker(void *arg)
{
	struct server	*srv = arg;
	struct hostload	*l;
	struct job	*j;
	int		 rv;

	for (;;) {
		pthread_mutex_lock(&srv->mtx);
		while (!srv->quit && (j = server_pick(srv)) == NULL)
			pthread_cond_wait(&srv->cond, &srv->mtx);
		if (srv->quit) {
			/* Queued jobs are dropped; server_run frees them. */
			pthread_mutex_unlock(&srv->mtx);
			return (NULL);
		}
		pthread_mutex_unlock(&srv->mtx);

		rv = SESSION_NEXT;
		if (j->prep)
			cmd_prep_run(&j->conn->sess, j->line, j->len);
		else
			rv = session_execute(&j->conn->sess, j->line, j->len,
			    &j->out);
		j->close = rv == SESSION_CLOSE;
		pthread_mutex_lock(&srv->mtx);
		if ((l = server_load(srv, j->conn->host, 0)) != NULL) {
			l->running--;
			server_load_drop(srv, l);
		}
		pthread_cond_broadcast(&srv->cond);
		pthread_mutex_unlock(&srv->mtx);
		if (rv == SESSION_WAIT)
			conn_end_game(j->conn, j);
		else
			server_job_done(srv, j);
	}
}

/* Frees a job. */
static void
job_free(struct job *j)
{
	free(j->line);
	buf_free(&j->out);
	free(j);
}

/* Logs one executed command (debug). */
static void
conn_log_cmd(struct conn *c)
{
	if (log_verbose())
		log_debug("conn=%llu cmd=%s status=%s state=%s",
		    (unsigned long long)c->id,
		    c->sess.last_cmd != NULL ? c->sess.last_cmd : "-",
		    c->sess.last_ok ? "ok" : "error",
		    session_strstate(c->sess.state));
}

/*
 * Sends data, straight to the socket when nothing is queued, and queues
 * the rest; returns -1 if the unread output is now over the cap.
 */
static int
conn_queue(struct conn *c, const char *data, size_t len)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	ssize_t		 n;

	if (len > 0 && evbuffer_get_length(out) == 0) {
		n = send(bufferevent_getfd(c->bev), data, len,
		    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			data += n;
			len -= (size_t)n;
		}
	}
	if (len > 0)
		evbuffer_add(out, data, len);
	return (evbuffer_get_length(out) > c->srv->conf->max_output ? -1 : 0);
}

/*
 * Writes a reply; drops the client if its unread output passes the cap.
 * When nothing is queued the reply goes straight to the socket, which
 * saves the event-loop round trip (and two epoll_ctl calls) per request;
 * whatever the socket does not take is queued on the bufferevent.
 */
static int
conn_write(struct conn *c, const char *data, size_t len)
{
	if (conn_queue(c, data, len) != 0) {
		conn_free(c, "output-overflow");
		return (-1);
	}
	return (0);
}

/* Takes finished jobs back on the loop and resumes their connections. */
static void
server_done_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;
	struct joblist	 done;
	struct conn	*c;
	struct job	*j;
	char		 drain[64];

	while (read(fd, drain, sizeof drain) > 0)
		;
	STAILQ_INIT(&done);
	pthread_mutex_lock(&srv->mtx);
	STAILQ_CONCAT(&done, &srv->done);
	pthread_mutex_unlock(&srv->mtx);
	while ((j = STAILQ_FIRST(&done)) != NULL) {
		STAILQ_REMOVE_HEAD(&done, entry);
		if ((c = j->conn) == NULL) {
			j->fn(j->arg);
			job_free(j);
			continue;
		}
		c->busy = 0;
		if (c->state == CONN_DEAD) {
			conn_free(c, "closed");
			job_free(j);
			continue;
		}
		if (j->prep) {
			/* Prepared: the loop runs the line now, in order. */
			c->prepped = j->line;
			c->prepped_len = j->len;
			j->line = NULL;
			conn_process(c);
			job_free(j);
			continue;
		}
		conn_log_cmd(c);
		if (c->sess.login_changed) {
			c->sess.login_changed = 0;
			lobby_login(c->sess.lc, c->sess.account, c->sess.admin);
			log_info("conn=%llu event=login account=%s admin=%d",
			    (unsigned long long)c->id, c->sess.account,
			    c->sess.admin);
		}
		if (conn_write(c, j->out.data, j->out.len) == 0) {
			if (j->close)
				conn_enter(c, CONN_CLOSING, NULL);
			/* After a login's reply: its live games. */
			if (c->sess.login_live && c->sess.lc != NULL)
				lobby_login_live(c->sess.lc);
			c->sess.login_live = 0;
			conn_process(c);
		}
		job_free(j);
	}
	if (srv->reload_pending)
		server_reload(srv);
}

/* Drops a client the lobby overfilled or kicked (never inside it). */
static void
conn_kill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;

	(void)fd;
	(void)what;
	conn_free(c, c->why);
}

/* The lobby's kick: drops a connection a moment later (admin, disable). */
static void
server_lobby_kick(void *arg, void *conn)
{
	struct conn	*c = conn;

	(void)arg;
	if (c->state >= CONN_KILLED)
		return;
	conn_enter(c, CONN_KILLED, "kicked");
	event_active(c->killev, EV_TIMEOUT, 0);
}

/*
 * A connection's network delay: the kernel's smoothed round-trip estimate
 * (TCP_INFO tcpi_rtt, microseconds); -1 if unknown.  Any thread: the
 * socket lives as long as the connection.
 */
static long
conn_rtt(void *conn)
{
	struct conn	*c = conn;
	struct tcp_info	 ti;
	socklen_t	 len = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(bufferevent_getfd(c->bev), IPPROTO_TCP, TCP_INFO, &ti,
	    &len) != 0 || len < offsetof(struct tcp_info, tcpi_rtt) +
	    sizeof ti.tcpi_rtt)
		return (-1);
	return ((long)ti.tcpi_rtt);
}

/* The lobby's network delay of a connection (conn_rtt). */
static long
server_lobby_rtt(void *arg, void *conn)
{
	(void)arg;
	return (conn_rtt(conn));
}

/*
 * Sets dead-peer detection on a client socket: TCP keepalive probes
 * after keepalive-idle s of silence, every keepalive-interval s, dropped
 * after keepalive-count unanswered ones; and TCP_USER_TIMEOUT, so that
 * data left unacknowledged for user-timeout ms drops it too.  A vanished
 * peer is then seen within idle + interval * count seconds.
 */
static void
server_keepalive(const struct session_conf *sc, int fd)
{
	int	 one = 1, idle = (int)sc->keepalive_idle;
	int	 intvl = (int)sc->keepalive_interval;
	int	 cnt = (int)sc->keepalive_count;
	unsigned int ut = sc->user_timeout;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
	    sizeof intvl) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ut, sizeof ut) != 0)
		log_warn("event=keepalive-failed fd=%d", fd);
}

/*
 * The lobby's send: like conn_write, but a client over the output cap is
 * dropped a moment later, so the lobby never sees a client vanish in the
 * middle of its own work.
 */
static void
server_lobby_send(void *arg, void *conn, const char *data, size_t len)
{
	struct conn	*c = conn;

	(void)arg;
	if (c->state >= CONN_KILLED)
		return;
	if (conn_queue(c, data, len) != 0) {
		conn_enter(c, CONN_KILLED, "output-overflow");
		event_active(c->killev, EV_TIMEOUT, 0);
	}
}

/* The lobby's deferred call: runs fn(fnarg) on the loop (any thread). */
static void
server_lobby_defer(void *arg, void (*fn)(void *), void *fnarg)
{
	struct job	*j;

	j = xcalloc(1, sizeof *j);
	j->fn = fn;
	j->arg = fnarg;
	buf_init(&j->out);
	server_job_done(arg, j);
}

/* Fills the lobby's settings from the configuration. */
static void
server_lobby_conf(const struct conf *cf, struct lobby_conf *lc)
{
	memset(lc, 0, sizeof *lc);
	lc->default_base_ms = cf->tc_base;
	lc->default_inc_ms = cf->tc_inc;
	lc->grace_ms = cf->clock_grace;
	lc->illegal_retry = cf->illegal_retry;
	lc->max_seeks = cf->max_seeks;
	lc->max_watchers = cf->max_watchers;
	lc->lim = cf->sc.lim;
}

/* Fills the league's failed-login limits from the configuration. */
static void
server_league_limits(const struct conf *cf, struct league_limits *ll)
{
	ll->failures = cf->sc.login_failures;
	ll->lockout_s = cf->login_lockout;
	ll->addr_failures = cf->login_addr_failures;
}

/* Frees a connection now, or marks it dead if a worker still has it. */
static void
conn_free(struct conn *c, const char *reason)
{
	struct server	*srv = c->srv;

	if (c->busy) {
		conn_enter(c, CONN_DEAD, NULL);
		conn_reading(c, 0);
		bufferevent_disable(c->bev, EV_WRITE);
		return;
	}
	log_info("conn=%llu event=close reason=%s commands=%llu",
	    (unsigned long long)c->id, reason, (unsigned long long)c->ncmds);
	TAILQ_REMOVE(&srv->conns, c, entry);
	srv->nconns--;
	session_abandon(&c->sess, reason);
	if (c->sess.lc != NULL)
		lobby_detach(c->sess.lc, reason);
	c->sess.lc = NULL;
	event_free(c->killev);
	bufferevent_free(c->bev);
	event_free(c->rev);
	evbuffer_free(c->in);
	cmd_prep_free(&c->sess);
	free(c->prepped);
	session_free(&c->sess);
	proto_answer_free(&c->ans);
	free(c);
	if (srv->stopping && srv->nconns == 0)
		event_base_loopexit(srv->base, NULL);
}

/* Returns 1 if the connection may run one more command (token bucket). */
static int
conn_rate_ok(struct conn *c)
{
	const struct conf *cf = c->srv->conf;
	uint64_t	 now = server_now_ms(c->srv), cap;

	cap = (uint64_t)cf->burst * 1000;
	if (now > c->refill_ms) {
		c->tokens += (now - c->refill_ms) * cf->rate;
		c->refill_ms = now;
	}
	if (c->tokens > cap)
		c->tokens = cap;
	if (c->tokens < 1000)
		return (0);
	c->tokens -= 1000;
	return (1);
}

/* Answers a request over the rate limit, with its id, without running it. */
static void
conn_refuse_rate(struct conn *c, char *line, size_t n, struct buf *out)
{
	struct buf	 msg;

	buf_init(&msg);
	buf_printf(&msg, "rate limit: at most %u commands per second "
	    "(burst %u)", c->srv->conf->rate, c->srv->conf->burst);
	conn_refuse(c, line, n, out, &msg);
	buf_free(&msg);
}

/* Answers a request with its id and the error in msg, without running it. */
static void
conn_refuse(struct conn *c, char *line, size_t n, struct buf *out,
    struct buf *msg)
{
	struct proto_cmd cmd;
	const char	*why;

	proto_preprocess(line, n);
	proto_parse(line, &cmd, &why);
	proto_reply(out, 0, &cmd, buf_str(msg));
	proto_cmd_free(&cmd);
	(void)c;
}

/*
 * Queues a heavy request for the workers, unless its address has
 * max-queued-per-ip in the pool (running or waiting) already; returns -1
 * (and answers) then.
 */
static int
conn_queue_job(struct conn *c, char *line, size_t n, struct buf *out,
    int prep)
{
	struct server	*srv = c->srv;
	struct hostload	*l;
	struct buf	 msg;
	struct job	*j;
	unsigned int	 queued;

	pthread_mutex_lock(&srv->mtx);
	l = server_load(srv, c->host, 1);
	queued = l->queued + l->running;
	if (queued >= srv->conf->max_queued_per_ip) {
		server_load_drop(srv, l);
		pthread_mutex_unlock(&srv->mtx);
		buf_init(&msg);
		buf_printf(&msg, "busy: %u heavy commands from your address "
		    "are running or waiting (max-queued-per-ip): retry later",
		    queued);
		conn_refuse(c, line, n, out, &msg);
		buf_free(&msg);
		log_info("conn=%llu event=refuse reason=max-queued-per-ip",
		    (unsigned long long)c->id);
		return (-1);
	}
	l->queued++;
	j = xcalloc(1, sizeof *j);
	j->conn = c;
	j->line = line;
	j->len = n;
	j->prep = prep;
	buf_init(&j->out);
	c->busy = 1;
	STAILQ_INSERT_TAIL(&srv->todo, j, entry);
	pthread_cond_signal(&srv->cond);
	pthread_mutex_unlock(&srv->mtx);
	return (0);
}

/* Closes the connection once its output has been written. */
static void
conn_close_after_flush(struct conn *c)
{
	conn_enter(c, CONN_CLOSING, NULL);
	conn_reading(c, 0);
	if (evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
		conn_free(c, c->srv->stopping ? "shutdown" : c->why);
}

/*
 * An answer block is complete: it goes to the server command it answers
 * (§13.2), or, answering none, gets an error of its own.
 */
static void
conn_answer(struct conn *c, struct buf *out)
{
	int	 taken = 0;

	if (c->sess.lc != NULL) {
		lobby_hold(c->sess.lc);
		taken = lobby_answer(c->sess.lc, &c->ans);
		lobby_release(c->sess.lc, out);
	}
	if (!taken) {
		log_debug("conn=%llu event=stray-answer id=%lu",
		    (unsigned long long)c->id, c->ans.has_id ? c->ans.id : 0);
		proto_answer_stray(out);
	}
	proto_answer_reset(&c->ans);
}

/*
 * Runs the complete request lines waiting in the input, in order, until
 * the input is empty, a job goes to the workers, or the connection closes.
 */
static void
conn_process(struct conn *c)
{
	struct server	*srv = c->srv;
	struct evbuffer	*in = c->in;
	struct evbuffer_ptr eol;
	struct buf	*out = &srv->out;
	struct job	*j;
	char		*line;
	size_t		 n, eol_len, mark;
	int		 rv, prepped, heavy;

	buf_reset(out);
	while (!c->busy && (c->state == CONN_OPEN || c->state == CONN_EOF)) {
		if (conn_output_full(c))
			break;
		if ((prepped = c->prepped != NULL)) {
			/* Its game was prepared on a worker: run it here. */
			line = c->prepped;
			n = c->prepped_len;
			c->prepped = NULL;
			goto run;
		}
		eol = evbuffer_search_eol(in, NULL, &eol_len, EVBUFFER_EOL_LF);
		if (c->discard) {
			/* Skip the rest of an overlong line. */
			if (eol.pos < 0) {
				evbuffer_drain(in, evbuffer_get_length(in));
				break;
			}
			evbuffer_drain(in, (size_t)eol.pos + eol_len);
			c->discard = 0;
			continue;
		}
		if (eol.pos < 0 && evbuffer_get_length(in) <= srv->conf->max_line)
			break;
		if (eol.pos < 0 || (size_t)eol.pos > srv->conf->max_line) {
			/* Over the limit: one error, then skip to its end. */
			char	 head[32];
			ssize_t	 hn;

			hn = evbuffer_copyout(in, head, sizeof head - 1);
			head[hn > 0 ? hn : 0] = '\0';
			if (eol.pos < 0) {
				evbuffer_drain(in, evbuffer_get_length(in));
				c->discard = 1;
			} else
				evbuffer_drain(in, (size_t)eol.pos + eol_len);
			c->ncmds++;
			/* Part of an answer: the answer is cut, not refused. */
			if (proto_answer_feed(&c->ans, head, hn > 0 ?
			    (size_t)hn : 0, 1) == PROTO_NOT_ANSWER)
				proto_too_long(out, head, srv->conf->max_line);
			continue;
		}
		line = evbuffer_readln(in, &n, EVBUFFER_EOL_LF);
		if (line == NULL)
			break;
		c->ncmds++;
		c->line_ms = server_now_ms(srv);
		c->partial_ms = 0;
		switch (proto_answer_feed(&c->ans, line, n, 0)) {
		case PROTO_IN_BLOCK:
			free(line);
			continue;
		case PROTO_BLOCK_DONE:
			conn_answer(c, out);
			free(line);
			continue;
		case PROTO_NOT_ANSWER:
			break;		/* the line as it came: a request */
		}
		if (!proto_blank(line, n) && !conn_rate_ok(c)) {
			conn_refuse_rate(c, line, n, out);
			free(line);
			continue;
		}
run:
		c->sess.conf = &srv->conf->sc;
		heavy = !prepped && session_heavy(&c->sess, line, n);
		if (heavy || (!prepped && cmd_prep_needed(&c->sess, line, n))) {
			/* Answer the earlier lines before this one waits. */
			if (conn_write(c, out->data, out->len) != 0) {
				free(line);
				buf_reset(out);
				return;
			}
			buf_reset(out);
			if (conn_queue_job(c, line, n, out, !heavy) != 0) {
				free(line);
				continue;
			}
			break;
		}
		mark = out->len;
		c->sess.on_loop = 1;
		if (c->sess.lc != NULL)
			lobby_hold(c->sess.lc);
		rv = session_execute(&c->sess, line, n, out);
		if (c->sess.lc != NULL)
			lobby_release(c->sess.lc, out);
		c->sess.on_loop = 0;
		free(line);
		conn_log_cmd(c);
		if (rv == SESSION_WAIT) {
			/* Reply once the log has the result on disk. */
			j = xcalloc(1, sizeof *j);
			j->conn = c;
			buf_init(&j->out);
			buf_add(&j->out, out->data + mark, out->len - mark);
			out->len = mark;
			out->data[mark] = '\0';
			c->busy = 1;
			conn_end_game(c, j);
			break;
		}
		if (rv == SESSION_CLOSE)
			conn_enter(c, CONN_CLOSING, NULL);
		/* Pipelined replies go out together, but not unboundedly. */
		if (out->len >= 16384 || out->len > srv->conf->max_output / 4) {
			if (conn_write(c, out->data, out->len) != 0) {
				buf_reset(out);
				return;
			}
			buf_reset(out);
		}
	}
	if (conn_write(c, out->data, out->len) != 0) {
		buf_reset(out);
		return;
	}
	buf_reset(out);
	if ((c->state == CONN_CLOSING || c->state == CONN_EOF) && !c->busy)
		conn_close_after_flush(c);
	else if (srv->stopping && !c->busy)
		conn_close_after_flush(c);
	else {
		if (!c->busy && !c->reading && !conn_output_full(c))
			conn_reading(c, 1);
		conn_line_timer(c);
	}
}

/*
 * Slowloris: only a complete line counts as activity.  Notes when a
 * partial line began and arms the input timeout for whichever comes
 * first: idle-timeout after the last complete line, or line-timeout after
 * the first byte of a line that has not ended.
 */
static void
conn_line_timer(struct conn *c)
{
	const struct conf *cf = c->srv->conf;
	struct evbuffer_ptr eol;
	struct timeval	 tv;
	uint64_t	 now = server_now_ms(c->srv), due;
	size_t		 eol_len;

	if (evbuffer_get_length(c->in) == 0 || c->discard)
		c->partial_ms = c->discard ? (c->partial_ms ? c->partial_ms :
		    now) : 0;
	else {
		eol = evbuffer_search_eol(c->in, NULL, &eol_len,
		    EVBUFFER_EOL_LF);
		if (eol.pos >= 0)
			c->partial_ms = 0;	/* lines wait: not the client */
		else if (c->partial_ms == 0)
			c->partial_ms = now;
	}
	if (!c->reading)
		return;
	due = c->line_ms + (uint64_t)cf->idle_timeout * 1000;
	if (c->partial_ms != 0 &&
	    c->partial_ms + (uint64_t)cf->line_timeout * 1000 < due)
		due = c->partial_ms + (uint64_t)cf->line_timeout * 1000;
	due = due > now ? due - now : 1;
	tv.tv_sec = (time_t)(due / 1000);
	tv.tv_usec = (suseconds_t)(due % 1000) * 1000;
	event_add(c->rev, &tv);
}

/*
 * Returns 1 when half the output cap is queued: the client reads slowly,
 * so stop reading its requests until it catches up (backpressure).  A
 * client that never reads is then dropped by the write timeout, or by the
 * cap itself if one reply overshoots it.
 */
static int
conn_output_full(struct conn *c)
{
	return (evbuffer_get_length(bufferevent_get_output(c->bev)) >
	    c->srv->conf->max_output / 2);
}

/* Starts or stops watching the socket for input (and idleness). */
static void
conn_reading(struct conn *c, int on)
{
	struct timeval	 tv;

	if (on && !c->reading) {
		tv.tv_sec = c->srv->conf->idle_timeout;
		tv.tv_usec = 0;
		event_add(c->rev, &tv);
	} else if (!on && c->reading)
		event_del(c->rev);
	c->reading = on;
}

/*
 * Receives into v with the kernel's receive time stamp, which it gives to
 * the lobby: a clock stops when the answer reached the socket, however
 * late the loop reads it (PROTOCOL.md §13.4).
 */
static ssize_t
conn_recv(struct conn *c, evutil_socket_t fd, struct evbuffer_iovec *v)
{
	struct msghdr	 mh;
	struct iovec	 iov;
	struct cmsghdr	*cm;
	struct timespec	 rx, real;
	union {
		char		 buf[CMSG_SPACE(sizeof(struct timespec))];
		struct cmsghdr	 align;
	} ctl;
	uint64_t	 age, now;
	ssize_t		 n;

	memset(&mh, 0, sizeof mh);
	iov.iov_base = v->iov_base;
	iov.iov_len = v->iov_len;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof ctl.buf;
	if ((n = recvmsg(fd, &mh, 0)) <= 0 || c->sess.lc == NULL)
		return (n);
	lobby_rx_time(c->sess.lc, 0);	/* unknown without a stamp */
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		memcpy(&rx, CMSG_DATA(cm), sizeof rx);
		clock_gettime(CLOCK_REALTIME, &real);
		now = lobby_now_ms();
		age = real.tv_sec > rx.tv_sec || (real.tv_sec == rx.tv_sec &&
		    real.tv_nsec >= rx.tv_nsec) ?
		    (uint64_t)(real.tv_sec - rx.tv_sec) * 1000 +
		    (uint64_t)((real.tv_nsec - rx.tv_nsec) / 1000000) : 0;
		lobby_rx_time(c->sess.lc, age < now ? now - age : now);
	}
	return (n);
}

/*
 * Reads what has arrived with one recv() straight into the input buffer
 * (a bufferevent would add an ioctl(FIONREAD) per read), then runs it.  A
 * connection with a job in flight stops reading once a line's worth is
 * pending: backpressure.  A timeout means the client was idle too long.
 */
static void
conn_read_ev(evutil_socket_t fd, short what, void *arg)
{
	struct conn	*c = arg;
	struct evbuffer_iovec v;
	static const char idle[] = "? idle timeout: closing\n\n";
	const struct conf *cf = c->srv->conf;
	struct buf	 msg;
	uint64_t	 now;
	ssize_t		 n;

	if (what & EV_TIMEOUT) {
		if (c->busy)
			return;
		now = server_now_ms(c->srv);
		if (c->partial_ms != 0 && now >= c->partial_ms +
		    (uint64_t)cf->line_timeout * 1000) {
			/* A line that does not end: slowloris. */
			buf_init(&msg);
			buf_printf(&msg, "? line timeout: a request line must "
			    "end within %u s: closing\n\n", cf->line_timeout);
			log_info("conn=%llu event=line-timeout",
			    (unsigned long long)c->id);
			if (conn_write(c, msg.data, msg.len) == 0)
				conn_close_after_flush(c);
			buf_free(&msg);
			return;
		}
		if (now < c->line_ms + (uint64_t)cf->idle_timeout * 1000) {
			conn_line_timer(c);	/* not yet */
			return;
		}
		if (c->sess.lc != NULL && lobby_active(c->sess.lc)) {
			/* Waiting on a game, a seek or a tournament. */
			c->line_ms = now;
			conn_line_timer(c);
			return;
		}
		if (conn_write(c, idle, sizeof idle - 1) == 0)
			conn_close_after_flush(c);
		return;
	}
	if (evbuffer_reserve_space(c->in, 16384, &v, 1) < 1)
		fatalx("event=oom");
	n = conn_recv(c, fd, &v);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return;
		conn_free(c, "error");
		return;
	}
	if (n == 0) {
		/* Half-close: answer what was sent, then close. */
		conn_enter(c, CONN_EOF, NULL);
		conn_end_last_line(c);
		conn_reading(c, 0);
		conn_process(c);
		return;
	}
	v.iov_len = (size_t)n;
	evbuffer_commit_space(c->in, &v, 1);
	if ((c->busy && evbuffer_get_length(c->in) >
	    c->srv->conf->max_line + 2) || conn_output_full(c))
		conn_reading(c, 0);
	conn_process(c);
}

/*
 * At EOF, an unterminated last line is a line like any other (as in
 * `grundy engine`): end it.
 */
static void
conn_end_last_line(struct conn *c)
{
	struct evbuffer_ptr p;
	size_t		 len = evbuffer_get_length(c->in);
	char		 last;

	if (len == 0 || evbuffer_ptr_set(c->in, &p, len - 1,
	    EVBUFFER_PTR_SET) != 0 ||
	    evbuffer_copyout_from(c->in, &p, &last, 1) != 1 || last == '\n')
		return;
	evbuffer_add(c->in, "\n", 1);
}

/* Writes drained: close if that was the last thing to do. */
static void
conn_write_cb(struct bufferevent *bev, void *arg)
{
	struct conn	*c = arg;

	if (c->state == CONN_CLOSING && !c->busy &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
		conn_free(c, c->srv->stopping ? "shutdown" : c->why);
		return;
	}
	/* The client caught up: take its requests again. */
	if (!c->reading && !c->busy && c->state == CONN_OPEN &&
	    !conn_output_full(c))
		conn_process(c);
}

/* Output side: the peer is gone, or it stopped reading for too long. */
static void
conn_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct conn	*c = arg;

	conn_free(c, (what & BEV_EVENT_TIMEOUT) ? "write-timeout" :
	    (what & BEV_EVENT_EOF) ? "eof" : "error");
}

/* Applies the idle and write timeouts from the current settings. */
static void
conn_apply_conf(struct conn *c)
{
	struct timeval	 tv;

	tv.tv_sec = c->srv->conf->idle_timeout;
	tv.tv_usec = 0;
	bufferevent_set_timeouts(c->bev, NULL, &tv);
	if (c->reading) {
		conn_reading(c, 0);
		conn_reading(c, 1);
	}
}

/* Returns the number of connections from one address. */
static size_t
server_conns_from(struct server *srv, const char *host)
{
	struct conn	*c;
	size_t		 n = 0;

	TAILQ_FOREACH(c, &srv->conns, entry)
		if (strcmp(c->host, host) == 0)
			n++;
	return (n);
}

/* Accepts a connection, or refuses it with a message when full. */
static void
server_accept_cb(struct evconnlistener *lis, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct server	*srv = arg;
	static const char full[] = "? too many connections: try again later\n\n";
	struct conn	*c;
	char		 host[INET6_ADDRSTRLEN];
	int		 one = 1, port = 0;

	if (srv->stopping || srv->nconns >= srv->conf->max_conns) {
		(void)send(fd, full, sizeof full - 1, MSG_DONTWAIT |
		    MSG_NOSIGNAL);
		evutil_closesocket(fd);
		log_info("event=refuse reason=%s conns=%zu",
		    srv->stopping ? "shutdown" : "max-conns", srv->nconns);
		return;
	}
	host[0] = '\0';
	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)sa)->sin_addr, host,
		    sizeof host);
		port = ntohs(((struct sockaddr_in *)sa)->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)sa)->sin6_addr,
		    host, sizeof host);
		port = ntohs(((struct sockaddr_in6 *)sa)->sin6_port);
	}
	if (!conf_trusted(srv->conf, sa) &&
	    server_conns_from(srv, host) >= srv->conf->max_conns_per_ip) {
		char	 many[256];
		int	 n;

		n = snprintf(many, sizeof many, "? too many connections from "
		    "your address: at most %zu (setting max-conns-per-ip; "
		    "trusted-networks are exempt): try again later\n\n",
		    srv->conf->max_conns_per_ip);
		(void)send(fd, many, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
		evutil_closesocket(fd);
		log_info("event=refuse reason=max-conns-per-ip peer=%s", host);
		return;
	}
	c = xcalloc(1, sizeof *c);
	c->srv = srv;
	c->id = ++srv->next_id;
	snprintf(c->host, sizeof c->host, "%s", host);
	snprintf(c->peer, sizeof c->peer, "%s:%d", host, port);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	server_keepalive(&srv->conf->sc, fd);
	/* Receive time stamps, for game clocks (conn_recv). */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
	c->bev = bufferevent_socket_new(srv->base, fd, BEV_OPT_CLOSE_ON_FREE);
	session_init(&c->sess, c->id, &srv->conf->sc);
	proto_answer_init(&c->ans, PROTO_ANSWER_MAX);
	c->sess.store = srv->store;
	c->sess.league = srv->league;
	c->sess.lobby = srv->lobby;
	snprintf(c->sess.addr, sizeof c->sess.addr, "%s", host);
	c->sess.anon_prefix = srv->anon;
	c->sess.rtt = conn_rtt;
	c->sess.rtt_arg = c;
	c->sess.regrate = srv->regrate;
	c->sess.lc = lobby_attach(srv->lobby, c, c->id);
	lobby_set_peer(c->sess.lc, c->peer, srv->anon);
	c->killev = evtimer_new(srv->base, conn_kill_cb, c);
	c->tokens = (uint64_t)srv->conf->burst * 1000;
	c->refill_ms = server_now_ms(srv);
	c->line_ms = c->refill_ms;
	bufferevent_setcb(c->bev, NULL, conn_write_cb, conn_event_cb, c);
	c->in = evbuffer_new();
	c->rev = event_new(srv->base, fd, EV_READ | EV_PERSIST, conn_read_ev,
	    c);
	conn_apply_conf(c);
	conn_reading(c, 1);
	bufferevent_enable(c->bev, EV_WRITE);
	TAILQ_INSERT_TAIL(&srv->conns, c, entry);
	srv->nconns++;
	(void)salen;
	log_info("conn=%llu event=connect peer=%s conns=%zu",
	    (unsigned long long)c->id, c->peer, srv->nconns);
}

/* Logs listener errors (for example EMFILE) without stopping. */
static void
server_accept_error_cb(struct evconnlistener *lis, void *arg)
{
	log_warn("event=accept-error");
}

/* Gives up waiting for connections to finish. */
static void
server_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server	*srv = arg;

	log_warnx("event=shutdown-deadline conns=%zu", srv->nconns);
	event_base_loopexit(srv->base, NULL);
}

/* SIGTERM/SIGINT: stop accepting, finish replies in flight, then exit. */
static void
server_stop(struct server *srv, int sig)
{
	struct conn	*c, *tmp;
	struct timeval	 tv = { 10, 0 };
	int		 i;

	if (srv->stopping)
		return;
	srv->stopping = 1;
	sd_notify_send("STOPPING=1");
	log_info("event=shutdown signal=%d conns=%zu", sig, srv->nconns);
	for (i = 0; i < srv->nlis; i++)
		evconnlistener_disable(srv->lis[i]);
	TAILQ_FOREACH_SAFE(c, &srv->conns, entry, tmp)
		if (!c->busy)
			conn_close_after_flush(c);
	if (srv->nconns == 0) {
		event_base_loopexit(srv->base, NULL);
		return;
	}
	srv->stopev = evtimer_new(srv->base, server_deadline_cb, srv);
	evtimer_add(srv->stopev, &tv);
}

/* SIGHUP: re-read the configuration file and apply run-time settings. */
static void
server_reload(struct server *srv)
{
	struct conf	 nc, *keep;
	struct conn	*c;
	struct lobby_conf lconf;
	struct league_limits ll;
	char		 err[512];

	if (srv->conf->config_file == NULL) {
		log_info("event=reload result=skipped reason=no-config-file");
		return;
	}
	sd_notify_send("RELOADING=1");
	conf_default(&nc);
	if (conf_load(&nc, srv->conf->config_file, err, sizeof err) != 0 ||
	    conf_apply_flags(&nc, srv->conf, err, sizeof err) != 0) {
		srv->reload_pending = 0;
		log_warnx("event=reload result=error error=\"%s\"", err);
		conf_free(&nc);
		sd_notify_send("READY=1");
		return;
	}
	/*
	 * Sessions running on workers may be reading the old limits: the
	 * limits live in srv->conf, so replace them only when no job runs.
	 */
	keep = srv->conf;
	pthread_mutex_lock(&srv->mtx);
	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->busy)
			break;
	if (c != NULL) {
		/* Retried by server_done_cb once no job runs. */
		pthread_mutex_unlock(&srv->mtx);
		if (!srv->reload_pending)
			log_info("event=reload result=deferred reason=busy");
		srv->reload_pending = 1;
		conf_free(&nc);
		return;
	}
	srv->reload_pending = 0;
	conf_copy_runtime(keep, &nc);
	pthread_mutex_unlock(&srv->mtx);
	log_init(keep->verbose);
	server_lobby_conf(keep, &lconf);
	lobby_set_conf(srv->lobby, &lconf);
	if (srv->store != NULL)
		store_set_table_limits(srv->store, keep->sc.max_tables,
		    keep->sc.max_tables_bytes);
	if (srv->league != NULL) {
		server_league_limits(keep, &ll);
		league_set_limits(srv->league, &ll);
	}
	TAILQ_FOREACH(c, &srv->conns, entry)
		conn_apply_conf(c);
	conf_free(&nc);
	log_info("event=reload result=ok");
	sd_notify_send("READY=1");
}

/* Dispatches signals on the loop. */
static void
server_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	if (sig == SIGHUP)
		server_reload(arg);
	else
		server_stop(arg, (int)sig);
}

/* Writes the first listener's port to the port file. */
static void
server_write_port(struct server *srv, evutil_socket_t fd)
{
	struct sockaddr_storage ss;
	socklen_t	 len = sizeof ss;
	FILE		*f;
	int		 port = 0;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
		return;
	if (ss.ss_family == AF_INET)
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	else if (ss.ss_family == AF_INET6)
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	log_info("event=listen fd=%d port=%d", (int)fd, port);
	if (srv->nlis != 1 || srv->conf->port_file == NULL)
		return;
	if ((f = fopen(srv->conf->port_file, "w")) == NULL)
		fatal("event=port-file path=%s", srv->conf->port_file);
	fprintf(f, "%d\n", port);
	fclose(f);
}

/* Adds a listener on an already bound socket (systemd) or an address. */
static void
server_listen(struct server *srv, evutil_socket_t fd, const char *addr)
{
	struct sockaddr_storage ss;
	struct evconnlistener *l;
	unsigned	 flags = LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE |
	    LEV_OPT_CLOSE_ON_EXEC;
	int		 sslen = sizeof ss;

	if (fd >= 0) {
		evutil_make_socket_nonblocking(fd);
		l = evconnlistener_new(srv->base, server_accept_cb, srv, flags,
		    -1, fd);
	} else {
		if (conf_parse_addr(addr, &ss, &sslen) != 0)
			fatalx("event=listen addr=%s error=\"not ADDR:PORT\"",
			    addr);
		l = evconnlistener_new_bind(srv->base, server_accept_cb, srv,
		    flags, 512, (struct sockaddr *)&ss, sslen);
	}
	if (l == NULL)
		fatal("event=listen addr=%s", addr != NULL ? addr : "systemd");
	evconnlistener_set_error_cb(l, server_accept_error_cb);
	srv->lis[srv->nlis++] = l;
	server_write_port(srv, evconnlistener_get_fd(l));
}

/* Returns the number of sockets systemd passed us (socket activation). */
static int
server_systemd_fds(void)
{
	const char	*pid, *fds;

	if ((pid = getenv("LISTEN_PID")) == NULL ||
	    (fds = getenv("LISTEN_FDS")) == NULL)
		return (0);
	if (strtol(pid, NULL, 10) != (long)getpid())
		return (0);
	return ((int)strtol(fds, NULL, 10));
}

/*
 * Opens the game log: --db PATH, else $STATE_DIRECTORY/grundy.db under
 * systemd, else var/grundy.db.  Returns NULL for "--db off"; exits if the
 * database cannot be opened.  grundyd --precompute uses it too.
 */
struct store *
server_store_open(const struct conf *conf)
{
	const char	*path = conf->db, *sd;
	char		 def[4096], err[1024];
	struct store	*st;
	size_t		 n;

	if (path == NULL) {
		if ((sd = getenv("STATE_DIRECTORY")) != NULL && *sd != '\0') {
			/* The first of a colon-separated list. */
			n = strcspn(sd, ":");
			snprintf(def, sizeof def, "%.*s/grundy.db", (int)n, sd);
		} else {
			if (mkdir("var", 0755) != 0 && errno != EEXIST)
				fatal("event=db-open path=var");
			snprintf(def, sizeof def, "var/grundy.db");
		}
		path = def;
	}
	if (strcmp(path, "off") == 0) {
		log_info("event=db path=off");
		return (NULL);
	}
	/* One daemon per database (the fd stays open until exit). */
	if (dblock_take(path, err, sizeof err) == -1)
		fatalx("event=db-lock path=%s error=\"%s\"", path, err);
	if ((st = store_open(path, err, sizeof err)) == NULL)
		fatalx("event=db-open path=%s error=\"%s\"", path, err);
	log_info("event=db path=%s", path);
	return (st);
}

/* Opens the game log and, with it, the cache of precomputed tables. */
static void
server_open_store(struct server *srv)
{
	srv->store = server_store_open(srv->conf);
	if (srv->store != NULL) {
		store_set_table_limits(srv->store, srv->conf->sc.max_tables,
		    srv->conf->sc.max_tables_bytes);
		cmd_table_cache(&srv->tables, srv->store);
		srv->conf->sc.lim.tables = &srv->tables;
	}
}

/*
 * Opens the accounts (on the game log's file) and the lobby, which resumes
 * running tournaments and recomputes the ratings from the log.
 */
static void
server_open_lobby(struct server *srv)
{
	struct lobby_io	 io;
	struct lobby_conf lconf;
	struct league_limits ll;
	char		 err[512];
	int64_t		 start;

	if (srv->store != NULL) {
		server_league_limits(srv->conf, &ll);
		if ((srv->league = league_open(store_path(srv->store), &ll,
		    err, sizeof err)) == NULL)
			fatalx("event=league-open error=\"%s\"", err);
	}
	if (srv->league != NULL && (start = league_start(srv->league)) > 0)
		snprintf(srv->anon, sizeof srv->anon, "anon:%lld",
		    (long long)start);
	else {
		/* No log: the names need only be unique in this run. */
		snprintf(srv->anon, sizeof srv->anon, "anon:r%08llx",
		    (unsigned long long)(lobby_now_ms() ^ (uint64_t)getpid()) &
		    0xffffffffULL);
	}
	log_info("event=start-id anonymous=%s", srv->anon);
	io.arg = srv;
	io.send = server_lobby_send;
	io.defer = server_lobby_defer;
	io.kick = server_lobby_kick;
	io.rtt = server_lobby_rtt;
	server_lobby_conf(srv->conf, &lconf);
	if ((srv->lobby = lobby_new(srv->base, srv->store, srv->league, &io,
	    &lconf, err, sizeof err)) == NULL)
		fatalx("event=lobby error=\"%s\"", err);
}

/* Runs the server until a shutdown signal; returns the exit status. */
int
server_run(struct conf *conf)
{
	struct server	 srv;
	struct conn	*c;
	struct job	*j;
	unsigned int	 i;
	int		 n, sigs[3] = { SIGTERM, SIGINT, SIGHUP };

	memset(&srv, 0, sizeof srv);
	srv.conf = conf;
	srv.regrate = addrrate_new();
	TAILQ_INIT(&srv.conns);
	STAILQ_INIT(&srv.todo);
	STAILQ_INIT(&srv.done);
	signal(SIGPIPE, SIG_IGN);
	server_open_store(&srv);
	if ((srv.base = event_base_new()) == NULL)
		fatalx("event=init error=\"event_base_new failed\"");
	server_open_lobby(&srv);
	if ((n = server_systemd_fds()) > 0) {
		for (i = 0; i < (unsigned)n && i < CONF_MAX_LISTEN; i++)
			server_listen(&srv, 3 + (int)i, NULL);
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDS");
		unsetenv("LISTEN_FDNAMES");
	} else if (conf->nlisten == 0)
		server_listen(&srv, -1, "127.0.0.1:7559");
	else
		for (i = 0; i < (unsigned)conf->nlisten; i++)
			server_listen(&srv, -1, conf->listen[i]);

	if (pipe2(srv.pipefd, O_NONBLOCK | O_CLOEXEC) != 0)
		fatal("event=init");
	srv.donev = event_new(srv.base, srv.pipefd[0], EV_READ | EV_PERSIST,
	    server_done_cb, &srv);
	event_add(srv.donev, NULL);
	pthread_mutex_init(&srv.mtx, NULL);
	pthread_cond_init(&srv.cond, NULL);
	srv.nthreads = conf->workers;
	srv.threads = xcalloc(srv.nthreads, sizeof *srv.threads);
	for (i = 0; i < srv.nthreads; i++)
		if (pthread_create(&srv.threads[i], NULL, server_worker,
		    &srv) != 0)
			fatalx("event=init error=\"pthread_create failed\"");
	for (i = 0; i < 3; i++) {
		srv.sig[i] = evsignal_new(srv.base, sigs[i], server_signal_cb,
		    &srv);
		evsignal_add(srv.sig[i], NULL);
	}
	log_info("event=ready listeners=%d workers=%u max_conns=%zu",
	    srv.nlis, srv.nthreads, conf->max_conns);
	sd_notify_send("READY=1");

	event_base_dispatch(srv.base);

	/* Stop the workers, then free whatever is left. */
	pthread_mutex_lock(&srv.mtx);
	srv.quit = 1;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.mtx);
	for (i = 0; i < srv.nthreads; i++)
		pthread_join(srv.threads[i], NULL);
	if (srv.store != NULL)
		store_flush(srv.store);	/* game ends in flight come back */
	STAILQ_CONCAT(&srv.done, &srv.todo);
	while ((j = STAILQ_FIRST(&srv.done)) != NULL) {
		STAILQ_REMOVE_HEAD(&srv.done, entry);
		if (j->conn != NULL)
			j->conn->busy = 0;
		job_free(j);
	}
	while ((c = TAILQ_FIRST(&srv.conns)) != NULL) {
		c->busy = 0;
		conn_free(c, "shutdown");
	}
	lobby_free(srv.lobby);		/* live games: abandoned */
	if (srv.league != NULL)
		league_close(srv.league);
	conf->sc.lim.tables = NULL;	/* it lives in srv */
	if (srv.store != NULL)
		store_close(srv.store);	/* abandoned matches included */
	for (i = 0; i < (unsigned)srv.nlis; i++)
		evconnlistener_free(srv.lis[i]);
	for (i = 0; i < 3; i++)
		event_free(srv.sig[i]);
	event_free(srv.donev);
	if (srv.stopev != NULL)
		event_free(srv.stopev);
	close(srv.pipefd[0]);
	close(srv.pipefd[1]);
	free(srv.threads);
	free(srv.loads);
	addrrate_free(srv.regrate);
	buf_free(&srv.out);
	pthread_mutex_destroy(&srv.mtx);
	pthread_cond_destroy(&srv.cond);
	event_base_free(srv.base);
	log_info("event=exit");
	return (0);
}
