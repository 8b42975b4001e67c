/*
 * server.c: grundyd's network side, on one libevent loop: the listeners
 * (addresses or systemd's sockets), the signals (SIGTERM and SIGINT stop,
 * SIGHUP reloads the settings), and the shared state the connections
 * (server-conn.c) and the worker pool (server-pool.c) use: the game log,
 * the accounts and the lobby.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "lib/clock.h"
#include "lib/addrrate.h"
#include "lib/dblock.h"
#include "db/sqldb.h"
#include "server/http.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "lib/log.h"
#include "nodestore/node.h"
#include "lib/sdnotify.h"
#include "server/server.h"
#include "server/server-int.h"
#include "node/server-node.h"
#include "store/store.h"
#include "session/tables.h"

static void	 server_lobby_defer(void *, void (*)(void *), void *);
static void	 server_lobby_work(void *, void (*)(void *), void (*)(void *),
		    void *);

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
	lc->max_plies = cf->sc.max_plies;
	lc->max_game_bytes = cf->sc.max_game_bytes;
	memcpy(lc->budget, cf->sc.budget, sizeof lc->budget);
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

/* Returns the number of connections from one address. */
static size_t
server_conns_from(struct server *srv, const char *host)
{
	struct conn	*c;
	size_t		 n = 0;

	TAILQ_FOREACH(c, &srv->conns, entry)
		if (strcmp(c->sess.addr, host) == 0)
			n++;
	return (n);
}

/*
 * Refuses a connection when the server is full or stopping, or its
 * address has max-conns-per-ip (trusted networks exempt): a message, then
 * close.  Returns 1 if refused.
 */
static int
server_refuse(struct server *srv, evutil_socket_t fd, struct sockaddr *sa,
    const char *host)
{
	static const char full[] = "? too many connections: try again later\n\n";
	char		 many[256];
	int		 n;

	if (srv->stopping || srv->nconns >= srv->conf->max_conns) {
		(void)send(fd, full, sizeof full - 1, MSG_DONTWAIT |
		    MSG_NOSIGNAL);
		evutil_closesocket(fd);
		log_info("event=refuse reason=%s conns=%zu",
		    srv->stopping ? "shutdown" : "max-conns", srv->nconns);
		return (1);
	}
	if (conf_trusted(srv->conf, sa) ||
	    server_conns_from(srv, host) < srv->conf->max_conns_per_ip)
		return (0);
	n = snprintf(many, sizeof many, "? too many connections from "
	    "your address: at most %zu (setting max-conns-per-ip; "
	    "trusted-networks are exempt): try again later\n\n",
	    srv->conf->max_conns_per_ip);
	(void)send(fd, many, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
	evutil_closesocket(fd);
	log_info("event=refuse reason=max-conns-per-ip peer=%s", host);
	return (1);
}

/* Accepts a connection, or refuses it with a message when full. */
static void
server_accept_cb(struct evconnlistener *lis, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct server	*srv = arg;
	char		 host[INET6_ADDRSTRLEN];
	int		 port = 0;

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
	(void)salen;
	if (!server_refuse(srv, fd, sa, host))
		conn_new(srv, fd, host, port, conf_trusted(srv->conf, sa));
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
	http_stop(srv->http);
	TAILQ_FOREACH_SAFE(c, &srv->conns, entry, tmp)
		if (!c->busy && !c->held)
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
	pthread_mutex_lock(&srv->pool.mtx);
	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->busy)
			break;
	if (c != NULL) {
		/* Retried by server_done_cb once no job runs. */
		pthread_mutex_unlock(&srv->pool.mtx);
		if (!srv->reload_pending)
			log_info("event=reload result=deferred reason=busy");
		srv->reload_pending = 1;
		conf_free(&nc);
		return;
	}
	srv->reload_pending = 0;
	conf_copy_runtime(keep, &nc);
	pthread_mutex_unlock(&srv->pool.mtx);
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
server_store_open(const struct conf *conf, int tool)
{
	const char	*path = conf->db, *sd;
	char		 def[4096], err[1024], *name;
	struct store_config cf;
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
	/* One daemon per SQLite file (the fd stays open until exit); a
	 * PostgreSQL database is shared (issue 15). */
	if (!sqldb_url_is_pg(path) && dblock_take(path, err,
	    sizeof err) == -1)
		fatalx("event=db-lock path=%s error=\"%s\"", path, err);
	/* The WAL index in heap memory unless db-readers = on: no -shm map
	 * whose pages could raise SIGBUS (PROTOCOL.md §12). */
	if (!sqldb_url_is_pg(path) && sqldb_sqlite_exclusive(
	    !conf->db_readers) != 0)
		fatalx("event=db-open path=%s error=\"this SQLite lacks the "
		    "unix-excl VFS: set db-readers = on\"", path);
	name = store_dbname(path);	/* a URL without its password */
	store_config_default(&cf);
	/* Restored by the lobby; on PostgreSQL other nodes may referee the
	 * live games: never abandoned at a start, taken over by their
	 * leases (server-node.c). */
	cf.keep_live = conf->takeover || sqldb_url_is_pg(path);
	cf.queue_bytes = conf->max_queue_bytes;
	cf.no_ids = tool;	/* a block of ids is a node's, not a tool's */
	if ((st = store_open_config(path, &cf, err, sizeof err)) == NULL)
		fatalx("event=db-open path=%s error=\"%s\"", name, err);
	log_info("event=db path=%s", name);
	free(name);
	return (st);
}

/*
 * The operator's step (grundyd --add-admin / --revoke-admin NAME): opens
 * the database (locked and migrated as for serving), makes name an admin
 * with password pass (admin 1) or a player again (admin 0), and closes it.
 * Returns 1 if the account was created, 0 if it existed, -1 with err.
 */
int
server_grant(const struct conf *conf, const char *name, const char *pass,
    int admin, char *err, size_t errlen)
{
	struct league_limits ll;
	struct league	*lg;
	struct store	*st;
	struct conf	 keep = *conf;	/* shallow: only read */
	int		 r;

	/* Live games stay live for the next start (as --takeover on). */
	keep.takeover = 1;
	if ((st = server_store_open(&keep, 1)) == NULL) {
		snprintf(err, errlen, "accounts need a database, not --db off");
		return (-1);
	}
	server_league_limits(conf, &ll);
	if ((lg = league_open(store_path(st), &ll, err, errlen)) == NULL) {
		store_close(st);
		return (-1);
	}
	r = league_grant(lg, name, pass, admin, err, errlen);
	league_close(lg);
	store_close(st);
	return (r);
}

/*
 * Warns of each name of the admins setting whose account exists without
 * the admin role: perhaps registered by a stranger before the names were
 * reserved, so never made an admin by its name (PROTOCOL.md §13.1).
 */
static void
server_admins_check(struct server *srv)
{
	char	*copy, *p, *sp;

	if (srv->league == NULL || srv->conf->admins == NULL)
		return;
	copy = xstrdup(srv->conf->admins);
	for (p = strtok_r(copy, ", ", &sp); p != NULL;
	    p = strtok_r(NULL, ", ", &sp))
		if (league_exists(srv->league, p) == 1 &&
		    league_role(srv->league, p) == 0)
			log_warnx("event=admin-not-granted name=%s: the account "
			    "exists with the player role; grant it with "
			    "grundyd --add-admin %s (which sets its password)",
			    p, p);
	free(copy);
}

/* Opens the game log and, with it, the cache of precomputed tables. */
static void
server_open_store(struct server *srv)
{
	srv->store = server_store_open(srv->conf, 0);
	if (srv->store != NULL) {
		store_set_table_limits(srv->store, srv->conf->sc.max_tables,
		    srv->conf->sc.max_tables_bytes);
		tables_store_cache(&srv->tables, srv->store);
		srv->conf->sc.lim.tables = &srv->tables;
	}
}

/* The lobby's kick: drops a connection a moment later (admin, disable). */
static void
server_lobby_kick(void *arg, void *conn)
{
	struct conn	*c = conn;

	(void)arg;
	conn_kill(c, "kicked");
}

/* The lobby's network delay of a connection (conn_rtt). */
static long
server_lobby_rtt(void *arg, void *conn)
{
	(void)arg;
	return (conn_rtt(conn));
}

/*
 * The lobby's send: like conn_write, but a client over the output cap is
 * dropped a moment later, so the lobby never sees a client vanish in the
 * middle of its own work.  It leaves at the end of the loop's pass, with
 * whatever else the lobby writes the client in the pass (out_post).
 */
static void
server_lobby_send(void *arg, void *conn, const char *data, size_t len)
{
	struct conn	*c = conn;

	(void)arg;
	if (c->state >= CONN_KILLED)
		return;
	if (out_post(c, data, len) != 0)
		conn_kill(c, "output-overflow");
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
		server_admins_check(srv);
	}
	if (srv->league != NULL && (start = league_start(srv->league)) > 0)
		snprintf(srv->anon, sizeof srv->anon, "anon:%lld",
		    (long long)start);
	else {
		/* No log: the names need only be unique in this run. */
		snprintf(srv->anon, sizeof srv->anon, "anon:r%08llx",
		    (unsigned long long)(clock_mono_ms() ^ (uint64_t)getpid()) &
		    0xffffffffULL);
	}
	log_info("event=start-id anonymous=%s", srv->anon);
	io.arg = srv;
	io.send = server_lobby_send;
	io.defer = server_lobby_defer;
	io.work = server_lobby_work;
	io.kick = server_lobby_kick;
	io.rtt = server_lobby_rtt;
	server_lobby_conf(srv->conf, &lconf);
	if ((srv->lobby = lobby_new(srv->base, srv->store, srv->league, &io,
	    &lconf, err, sizeof err)) == NULL)
		fatalx("event=lobby error=\"%s\"", err);
}

/* The lobby's deferred call: runs fn(fnarg) on the loop (any thread). */
static void
server_lobby_defer(void *arg, void (*fn)(void *), void *fnarg)
{
	struct server	*srv = arg;

	pool_defer(&srv->pool, fn, fnarg);
}

/* The lobby's work: work(fnarg) on a worker, then done(fnarg) on the loop. */
static void
server_lobby_work(void *arg, void (*work)(void *), void (*done)(void *),
    void *fnarg)
{
	struct server	*srv = arg;
	struct job	*j;
	unsigned int	 queued;

	j = pool_job(work, done, fnarg, "lobby");
	if (pool_submit(&srv->pool, j, UINT_MAX, &queued) != 0) {
		job_free(j);		/* never: no cap */
		work(fnarg);
		done(fnarg);
	}
}

/*
 * After the loop took finished jobs back: lines that waited for their
 * address's room in the pool, and a reload the jobs held up.
 */
static void
server_jobs_after(void *arg)
{
	struct server	*srv = arg;

	conn_wake(srv);
	if (srv->reload_pending)
		server_reload(srv);
}

/* Listens on systemd's sockets, else on the configured addresses. */
static void
server_listen_all(struct server *srv)
{
	const struct conf *conf = srv->conf;
	int		 i, n;

	if ((n = server_systemd_fds()) > 0) {
		for (i = 0; i < n && i < CONF_MAX_LISTEN; i++)
			server_listen(srv, 3 + i, NULL);
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDS");
		unsetenv("LISTEN_FDNAMES");
	} else if (conf->nlisten == 0)
		server_listen(srv, -1, "127.0.0.1:7559");
	else
		for (i = 0; i < conf->nlisten; i++)
			server_listen(srv, -1, conf->listen[i]);
}

/* Starts the workers and the signal handlers. */
static void
server_start(struct server *srv)
{
	int		 i, sigs[3] = { SIGTERM, SIGINT, SIGHUP };

	srv->pool.run = conn_job_run;
	srv->pool.hold = conn_job_hold;
	srv->pool.back = conn_job_back;
	srv->pool.after = server_jobs_after;
	srv->pool.arg = srv;
	pool_start(&srv->pool, srv->base, srv->conf->workers);
	srv->flushev = event_new(srv->base, -1, 0, conn_flush_cb, srv);
	srv->wakeev = event_new(srv->base, -1, 0, conn_wake_cb, srv);
	srv->write_ev = conn_write_ev;
	for (i = 0; i < 3; i++) {
		srv->sig[i] = evsignal_new(srv->base, sigs[i],
		    server_signal_cb, srv);
		evsignal_add(srv->sig[i], NULL);
	}
}

/* Stops the workers, then frees whatever is left. */
static void
server_free(struct server *srv)
{
	struct conn	*c;
	int		 i;

	snode_stop(srv->node);		/* no more calls from the node thread */
	pool_join(&srv->pool);
	http_free(srv->http);		/* before the lobby it hooks into */
	if (srv->store != NULL)
		store_flush(srv->store);	/* game ends in flight come back */
	while ((c = TAILQ_FIRST(&srv->conns)) != NULL) {
		c->busy = c->held = 0;
		conn_free(c, "shutdown");
	}
	lobby_xnode_free(srv->lobby);
	lobby_free(srv->lobby);		/* live games: abandoned */
	if (srv->league != NULL)
		league_close(srv->league);
	srv->conf->sc.lim.tables = NULL;	/* it lives in srv */
	if (srv->store != NULL)
		store_close(srv->store);	/* abandoned matches included */
	snode_free(srv->node);		/* after the writer's last call */
	for (i = 0; i < srv->nlis; i++)
		evconnlistener_free(srv->lis[i]);
	for (i = 0; i < 3; i++)
		event_free(srv->sig[i]);
	if (srv->stopev != NULL)
		event_free(srv->stopev);
	if (srv->flushev != NULL)
		event_free(srv->flushev);
	if (srv->wakeev != NULL)
		event_free(srv->wakeev);
	pool_free(&srv->pool);
	addrrate_free(srv->regrate);
	buf_free(&srv->out);
	event_base_free(srv->base);
}

/*
 * The address a node advertises by default: its first listener's, with
 * the port bound ([V6]:PORT for IPv6).  Returns 0, or -1.
 */
static int
server_node_addr(struct server *srv, char *addr, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t	 sl = sizeof ss;
	char		 host[INET6_ADDRSTRLEN];
	int		 fd;

	if (srv->nlis == 0)
		return (-1);
	fd = evconnlistener_get_fd(srv->lis[0]);
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		return (-1);
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
		snprintf(addr, len, "%s:%d", host, ntohs(s4->sin_port));
	} else if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof host);
		snprintf(addr, len, "[%s]:%d", host, ntohs(s6->sin6_port));
	} else
		return (-1);
	return (0);
}

/*
 * With a PostgreSQL store the daemon is a node (issue 15 §2): registers
 * it and starts the node thread.  With SQLite nothing happens.
 */
static void
server_node_start(struct server *srv)
{
	char		 addr[NODE_ADDR_MAX + 1], err[1024];
	const char	*a = srv->conf->node_addr;

	if (srv->store == NULL || !snode_url(srv->conf->db))
		return;
	if (a == NULL) {
		if (server_node_addr(srv, addr, sizeof addr) == -1)
			fatalx("event=node error=\"no listening address: set "
			    "node-addr\"");
		a = addr;
	}
	if ((srv->node = snode_start(srv->conf->db, a,
	    (int64_t)srv->conf->node_ttl, srv->store, srv->lobby,
	    server_lobby_defer, srv, err, sizeof err)) == NULL)
		fatalx("event=node error=\"%s\"", err);
	/* Seeks and spectators across nodes (lobby-xnode.c). */
	if (lobby_xnode_start(srv->lobby, srv->base, srv->conf->db, err,
	    sizeof err) != 0)
		fatalx("event=node error=\"%s\"", err);
}

/* Runs the server until a shutdown signal; returns the exit status. */
int
server_run(struct conf *conf)
{
	struct server	 srv;

	memset(&srv, 0, sizeof srv);
	srv.conf = conf;
	srv.regrate = addrrate_new();
	TAILQ_INIT(&srv.conns);
	TAILQ_INIT(&srv.dirty);
	TAILQ_INIT(&srv.parked);
	signal(SIGPIPE, SIG_IGN);
	server_open_store(&srv);
	if ((srv.base = event_base_new()) == NULL)
		fatalx("event=init error=\"event_base_new failed\"");
	server_open_lobby(&srv);
	/*
	 * The signal handlers first: once the port file names the port, a
	 * SIGTERM is a clean stop, not the default action (exit 143).
	 */
	server_start(&srv);
	/*
	 * takeover on: the live games of the log go on (PROTOCOL.md §12),
	 * restored before the daemon listens.  A node (PostgreSQL) then
	 * takes their leases (server-node.c) and stops those another live
	 * node holds.
	 */
	if (conf->takeover && srv.store != NULL &&
	    lobby_restore_live(srv.lobby) != 0)
		fatalx("event=restore error=\"cannot list the live games\"");
	server_listen_all(&srv);
	server_node_start(&srv);
	srv.http = http_start(&srv);
	log_info("event=ready listeners=%d workers=%u max_conns=%zu",
	    srv.nlis, srv.pool.nthreads, conf->max_conns);
	sd_notify_send("READY=1");

	sqldb_loop_enter();	/* the loop guard: no statement here */
	event_base_dispatch(srv.base);
	sqldb_loop_leave();

	server_free(&srv);
	log_info("event=exit");
	return (0);
}
