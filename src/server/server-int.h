/*
 * server-int.h: what the files of src/server/ share: the connections,
 * the listeners and settings, the worker pool and the HTTP side's access
 * to them.  Nothing outside the server includes it; its files call each
 * other without a cycle (tests/layers.py checks it).
 */
#ifndef SERVER_INT_H
#define SERVER_INT_H

#include <sys/queue.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <pthread.h>
#include <stdint.h>

#include <event2/event.h>
#include <event2/util.h>

#include "proto/conf.h"
#include "solver/engine.h"
#include "proto/proto.h"
#include "session/session.h"
#include "lib/util.h"

struct bufferevent;
struct evbuffer;
struct evbuffer_iovec;
struct evconnlistener;
struct server;

/*
 * A connection's life cycle; it only moves forward, through conn_enter.
 * Whether a worker has its session (busy), whether its socket is watched
 * (reading) and whether an overlong line is being skipped (discard) are
 * not life-cycle states: they come and go while it is open.
 */
#define CONN_STATES(X)							\
	/* reads and answers requests */				\
	X(CONN_OPEN, "open")						\
	/* the peer sent EOF: answer what it sent, then close */	\
	X(CONN_EOF, "eof")						\
	/* flush the output, then close */				\
	X(CONN_CLOSING, "closing")					\
	/* dropped on the next turn of the loop (killev) */		\
	X(CONN_KILLED, "killed")					\
	/* gone while a worker has it: freed when it returns */		\
	X(CONN_DEAD, "dead")
enum conn_state { CONN_STATES(ENUM_X_ID) };

/* One client connection. */
struct conn {
	TAILQ_ENTRY(conn) entry;
	struct server	*srv;
	uint64_t	 id;
	evutil_socket_t	 fd;
	struct event	*rev;		/* input: readable or idle timeout */
	struct evbuffer	*in;		/* received, not yet executed; lazy */
	int		 reading;	/* rev is added */
	int		 dirty;		/* out waits for the end of the pass */
	struct session	 sess;		/* sess.addr: the peer's address */
	struct buf	 out;		/* unsent output, from out_off */
	size_t		 out_off;
	struct event	*wev;		/* output waits for the socket; lazy */
	TAILQ_ENTRY(conn) dirty_entry;
	struct event	*killev;	/* drops the client from the lobby; lazy */
	enum conn_state	 state;
	const char	*why;		/* CLOSING, KILLED: the close reason */
	int		 busy;		/* a job is with the workers */
	int		 more_wait;	/* a streamed reply's part waits for
					 * the socket: the next one after */
	int		 held;		/* a result waits for the log: the */
	struct buf	 after;		/* ... replies behind it wait here */
	int		 discard;	/* skipping the rest of an overlong line */
	size_t		 scanned;	/* bytes of in known to hold no LF */
	int		 park;		/* waits for its address's room: */
	char		*parked;	/* ... with this line (NULL: being read) */
	size_t		 parked_len;
	TAILQ_ENTRY(conn) park_entry;	/* in srv->parked while parked */
	int		 woken;		/* the parked line runs: its turn */
	int		 reserved;	/* a place in the pool for the line read */
	struct proto_answer ans;	/* the answer block being read */
	char		*prepped;	/* a line prepared on a worker, to run */
	size_t		 prepped_len;
	int		 trusted;	/* its address is in trusted-networks */
	uint64_t	 ncmds;
	uint64_t	 line_ms;	/* the last complete line (or connect) */
	uint64_t	 partial_ms;	/* a partial line began; 0: none */
};
TAILQ_HEAD(connlist, conn);

/* A request for the workers, and its answer. */
struct job {
	STAILQ_ENTRY(job) entry;
	struct conn	*conn;		/* the connection it runs for */
	const char	*host;		/* the address it counts against */
	void		 (*fn)(void *);	/* or a deferred call, fn(arg) */
	void		 (*work)(void *);	/* or a worker's call, work(arg) */
	void		*arg;
	char		*line;
	size_t		 len;
	struct buf	 out;
	int		 close;
	int		 prep;		/* only prepare: the loop runs it next */
	int64_t		 gid;		/* the match whose end it waits for */
	int		 ahead;		/* held, the connection went on */
	int		 more;		/* the next part of a streamed reply */
	int		 streaming;	/* out is a part: more is to come */
};
STAILQ_HEAD(joblist, job);

/* The heavy commands of one address, for the workers' fairness. */
struct hostload {
	char		 host[INET6_ADDRSTRLEN];
	unsigned int	 running;	/* on a worker */
	unsigned int	 queued;	/* waiting in todo */
	size_t		 bytes;		/* of their lines (job->len) */
};

/*
 * The worker pool: threads that run jobs and hand them back to the loop
 * through a mutex-protected queue and one byte on a pipe.  Its owner sets
 * the callbacks before pool_start.
 */
struct pool {
	pthread_t	*threads;
	unsigned int	 nthreads;
	pthread_mutex_t	 mtx;
	pthread_cond_t	 cond;
	struct joblist	 todo;
	struct joblist	 done;
	int		 quit;
	int		 pipefd[2];
	struct event	*donev;		/* the pipe's read end */
	struct hostload	*loads;		/* addresses with jobs (mtx) */
	size_t		 nloads;
	int		 gatefd;	/* a test's barrier (pool_gate), or -1 */
	char		 gatehost[INET6_ADDRSTRLEN];
	/* Worker: runs a job; returns 1 if hold(j) hands it back later. */
	int		 (*run)(struct job *);
	void		 (*hold)(struct job *);
	/* Loop: takes a finished job back; after: once per batch. */
	void		 (*back)(struct job *);
	void		 (*after)(void *);
	void		*arg;
};

struct server {
	struct event_base *base;
	struct conf	*conf;
	struct evconnlistener *lis[CONF_MAX_LISTEN];
	int		 nlis;
	struct event	*sig[3];
	struct event	*stopev;	/* shutdown deadline */
	struct connlist	 conns;
	size_t		 nconns;
	uint64_t	 next_id;
	int		 stopping;
	struct buf	 out;		/* reply scratch for conn_process */
	struct connlist	 dirty;		/* output to send at the pass's end */
	struct connlist	 parked;	/* lines waiting for room (conn_wake) */
	struct event	*wakeev;	/* room without a job back: conn_wake */
	struct event	*flushev;	/* sends it: conn_flush_cb */
	event_callback_fn write_ev;	/* a connection's socket takes output */
	struct store	*store;		/* the game log, or NULL (--db off) */
	struct game_tables tables;	/* the table cache on store */
	struct league	*league;	/* accounts, or NULL (--db off) */
	struct lobby	*lobby;		/* networked play */
	int		 reload_pending;	/* SIGHUP while a job ran */
	char		 anon[32];	/* "anon:START": anonymous names */
	struct pool	 pool;		/* the workers */
	struct addrrate	*regrate;	/* account creation per address */
	struct http	*http;		/* HTTP (http.c), or NULL: off */
	struct snode	*node;		/* PostgreSQL: this node (server-node.c) */
};

/* server-conn.c */
void	 conn_new(struct server *, evutil_socket_t, const char *, int, int);
void	 conn_budget_class(struct conn *);
size_t	 conn_output_max(struct conn *);
int	 conn_more(struct conn *);
uint64_t server_now_ms(struct server *);
int	 conn_charge(struct conn *, enum budget_kind, uint64_t, struct buf *);
void	 conn_free(struct conn *, const char *);
void	 conn_close_after_flush(struct conn *);
void	 conn_apply_conf(struct conn *);
void	 conn_enter(struct conn *, enum conn_state, const char *);
void	 conn_kill(struct conn *, const char *);
void	 conn_flush_cb(evutil_socket_t, short, void *);
void	 conn_write_ev(evutil_socket_t, short, void *);
long	 conn_rtt(void *);
void	 conn_process(struct conn *);
int	 conn_write(struct conn *, const char *, size_t);
void	 conn_log_cmd(struct conn *);
void	 conn_end_game(struct conn *, struct job *);
void	 conn_wake(struct server *);
void	 conn_wake_cb(evutil_socket_t, short, void *);

/* server-sock.c: a connection's socket and input */
void	 server_keepalive(const struct session_conf *, int);
ssize_t	 conn_recv(struct conn *, evutil_socket_t, struct evbuffer_iovec *,
	    int);
ssize_t	 conn_eol(struct conn *, size_t *);

/* server-job.c: a connection's jobs and held results */
int	 conn_job_run(struct job *);
void	 conn_job_hold(struct job *);
void	 conn_job_back(struct job *);

/* server-out.c */
void	 out_add(struct conn *, const char *, size_t);
int	 out_push(struct conn *);
size_t	 out_unsent(const struct conn *);
int	 out_waiting(const struct conn *);
void	 out_wait(struct conn *);
void	 out_send(struct conn *);
int	 out_post(struct conn *, const char *, size_t);
void	 out_unmark(struct conn *);
void	 out_free(struct conn *);
int	 out_idle(const struct conn *);
void	 out_idle_free(struct conn *);

/* What a connection waiting for the workers reads ahead at most. */
#define CONN_READ_AHEAD	16384

/* A connection quiet this long gives back its buffers (out_idle_free). */
#define OUT_IDLE_MS	2000

/* server-pool.c */
void	 pool_start(struct pool *, struct event_base *, unsigned int);
void	 pool_join(struct pool *);
void	 pool_free(struct pool *);
int	 pool_submit(struct pool *, struct job *, unsigned int,
	    unsigned int *);
void	 pool_done(struct pool *, struct job *);
void	 pool_defer(struct pool *, void (*)(void *), void *);
size_t	 pool_bytes(struct pool *, const char *, unsigned int *);
void	 pool_reserve(struct pool *, const char *, int);
struct job *pool_job(void (*)(void *), void (*)(void *), void *,
	    const char *);
void	 job_free(struct job *);


#endif /* SERVER_INT_H */
