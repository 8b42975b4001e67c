/*
 * server-pool.c: the worker pool.  Heavy requests (session_heavy) and the
 * preparation of seeks and challenges run on a few threads; a finished
 * job goes back to the loop through a mutex-protected queue and one byte
 * on a pipe that the loop watches.  Fairness: one address holds at most
 * its share of the workers (all but one), and may have at most
 * max-queued-per-ip jobs running or waiting; the pool counts the bytes
 * of an address's lines too (pool_bytes), for its owner's budget.  The
 * pool knows nothing of connections: its owner runs and takes back the
 * jobs (struct pool's callbacks).
 *
 * A test's barrier: with GRUNDYD_TEST_GATE=ADDR:FIFO in the environment,
 * a worker about to run a request of ADDR first reads one byte from FIFO
 * (tests/e2e/hostile.py writes one per request it lets run), so a test
 * knows which requests hold a worker without timing them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "server/server-int.h"

/* Frees a job. */
void
job_free(struct job *j)
{
	free(j->line);
	buf_free(&j->out);
	free(j);
}

/* Hands a finished job back to the loop (any thread). */
void
pool_done(struct pool *p, struct job *j)
{
	char	 b = 1;

	pthread_mutex_lock(&p->mtx);
	STAILQ_INSERT_TAIL(&p->done, j, entry);
	pthread_mutex_unlock(&p->mtx);
	while (write(p->pipefd[1], &b, 1) == -1 && errno == EINTR)
		;
}

/*
 * A new job that runs work(arg) on a worker (NULL: none), then fn(arg)
 * on the loop, counted against host (NULL: nobody's).
 */
struct job *
pool_job(void (*work)(void *), void (*fn)(void *), void *arg,
    const char *host)
{
	struct job	*j;

	j = xcalloc(1, sizeof *j);
	buf_init(&j->out);
	j->work = work;
	j->fn = fn;
	j->arg = arg;
	j->host = host;
	return (j);
}

/* Runs fn(fnarg) on the loop (any thread): the lobby's deferred call. */
void
pool_defer(struct pool *p, void (*fn)(void *), void *fnarg)
{
	pool_done(p, pool_job(NULL, fn, fnarg, NULL));
}

/*
 * Returns the load of an address (p->mtx held), adding it if create;
 * NULL if absent.
 */
static struct hostload *
pool_load(struct pool *p, const char *host, int create)
{
	size_t	 i;

	for (i = 0; i < p->nloads; i++)
		if (strcmp(p->loads[i].host, host) == 0)
			return (&p->loads[i]);
	if (!create)
		return (NULL);
	p->loads = xreallocarray(p->loads, p->nloads + 1, sizeof *p->loads);
	memset(&p->loads[p->nloads], 0, sizeof *p->loads);
	snprintf(p->loads[p->nloads].host, sizeof p->loads->host, "%s",
	    host);
	return (&p->loads[p->nloads++]);
}

/* Forgets an address with no job left (p->mtx held). */
static void
pool_load_drop(struct pool *p, struct hostload *l)
{
	if (l->running > 0 || l->queued > 0)
		return;
	*l = p->loads[--p->nloads];
}

/*
 * Fairness: the workers one address may hold at once, so one address can
 * never take them all (one connection has at most one job anyway).
 */
static unsigned int
pool_share(const struct pool *p)
{
	return (p->nthreads > 1 ? p->nthreads - 1 : 1);
}

/*
 * Takes the oldest queued job whose address is under its share of the
 * workers (p->mtx held), or NULL.
 */
static struct job *
pool_pick(struct pool *p)
{
	struct hostload	*l;
	struct job	*j;

	STAILQ_FOREACH(j, &p->todo, entry) {
		l = pool_load(p, j->host, 1);
		if (l->running < pool_share(p)) {
			STAILQ_REMOVE(&p->todo, j, job, entry);
			l->queued--;
			l->running++;
			return (j);
		}
	}
	return (NULL);
}

/* A test's barrier: waits for a byte on the gate before j runs. */
static void
pool_gate(struct pool *p, const struct job *j)
{
	char	 b;

	if (p->gatefd < 0 || j->work != NULL || j->host == NULL ||
	    strcmp(j->host, p->gatehost) != 0)
		return;
	while (read(p->gatefd, &b, 1) == -1 && errno == EINTR)
		;
}

/* Opens the test's gate, if the environment names one (pool_gate). */
static void
pool_gate_open(struct pool *p)
{
	const char	*env = getenv("GRUNDYD_TEST_GATE"), *colon;

	p->gatefd = -1;
	if (env == NULL || (colon = strchr(env, ':')) == NULL ||
	    (size_t)(colon - env) >= sizeof p->gatehost)
		return;
	memcpy(p->gatehost, env, (size_t)(colon - env));
	p->gatehost[colon - env] = '\0';
	if ((p->gatefd = open(colon + 1, O_RDWR | O_CLOEXEC)) == -1)
		fatal("event=init what=test-gate");
	log_warnx("event=test-gate host=%s", p->gatehost);
}

/* Runs queued jobs until told to quit (worker thread body). */
static void *
pool_worker(void *arg)
{
	struct pool	*p = arg;
	struct hostload	*l;
	struct job	*j;
	int		 held;

	for (;;) {
		pthread_mutex_lock(&p->mtx);
		while (!p->quit && (j = pool_pick(p)) == NULL)
			pthread_cond_wait(&p->cond, &p->mtx);
		if (p->quit) {
			/* Queued jobs are dropped; pool_free frees them. */
			pthread_mutex_unlock(&p->mtx);
			return (NULL);
		}
		pthread_mutex_unlock(&p->mtx);

		pool_gate(p, j);
		held = j->work != NULL ? (j->work(j->arg), 0) : p->run(j);
		pthread_mutex_lock(&p->mtx);
		if ((l = pool_load(p, j->host, 0)) != NULL) {
			l->running--;
			l->bytes -= j->len;
			pool_load_drop(p, l);
		}
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->mtx);
		if (held)
			p->hold(j);
		else
			pool_done(p, j);
	}
}

/*
 * Queues a job for the workers, unless its address has max jobs in the
 * pool (running or waiting) already: returns -1 then, with that count in
 * *queued.
 */
int
pool_submit(struct pool *p, struct job *j, unsigned int max,
    unsigned int *queued)
{
	struct hostload	*l;

	pthread_mutex_lock(&p->mtx);
	l = pool_load(p, j->host, 1);
	*queued = l->queued + l->running;
	if (*queued >= max) {
		pool_load_drop(p, l);
		pthread_mutex_unlock(&p->mtx);
		return (-1);
	}
	l->queued++;
	l->bytes += j->len;
	STAILQ_INSERT_TAIL(&p->todo, j, entry);
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->mtx);
	return (0);
}

/*
 * Holds (n 1) or gives back (n -1) a place among an address's jobs in
 * the pool for a line still being read: it counts as a waiting job in
 * pool_submit's cap and pool_bytes until given back.
 */
void
pool_reserve(struct pool *p, const char *host, int n)
{
	struct hostload	*l;

	pthread_mutex_lock(&p->mtx);
	l = pool_load(p, host, 1);
	if (n > 0)
		l->queued++;
	else if (l->queued > 0)
		l->queued--;
	pool_load_drop(p, l);
	pthread_mutex_unlock(&p->mtx);
}

/*
 * The bytes of the lines an address has in the pool (running or
 * waiting), and in *queued its jobs there.
 */
size_t
pool_bytes(struct pool *p, const char *host, unsigned int *queued)
{
	struct hostload	*l;
	size_t		 n = 0;

	*queued = 0;
	pthread_mutex_lock(&p->mtx);
	if ((l = pool_load(p, host, 0)) != NULL) {
		n = l->bytes;
		*queued = l->queued + l->running;
	}
	pthread_mutex_unlock(&p->mtx);
	return (n);
}

/* Takes finished jobs back on the loop. */
static void
pool_done_cb(evutil_socket_t fd, short what, void *arg)
{
	struct pool	*p = arg;
	struct joblist	 done;
	struct job	*j;
	char		 drain[64];

	while (read(fd, drain, sizeof drain) > 0)
		;
	STAILQ_INIT(&done);
	pthread_mutex_lock(&p->mtx);
	STAILQ_CONCAT(&done, &p->done);
	pthread_mutex_unlock(&p->mtx);
	while ((j = STAILQ_FIRST(&done)) != NULL) {
		STAILQ_REMOVE_HEAD(&done, entry);
		if (j->fn != NULL) {
			j->fn(j->arg);
			job_free(j);
		} else
			p->back(j);
	}
	p->after(p->arg);
}

/* Starts n workers and watches their pipe on base. */
void
pool_start(struct pool *p, struct event_base *base, unsigned int n)
{
	unsigned int	 i;

	STAILQ_INIT(&p->todo);
	STAILQ_INIT(&p->done);
	if (pipe2(p->pipefd, O_NONBLOCK | O_CLOEXEC) != 0)
		fatal("event=init");
	p->donev = event_new(base, p->pipefd[0], EV_READ | EV_PERSIST,
	    pool_done_cb, p);
	event_add(p->donev, NULL);
	pthread_mutex_init(&p->mtx, NULL);
	pthread_cond_init(&p->cond, NULL);
	pool_gate_open(p);
	p->nthreads = n;
	p->threads = xcalloc(p->nthreads, sizeof *p->threads);
	for (i = 0; i < p->nthreads; i++)
		if (pthread_create(&p->threads[i], NULL, pool_worker, p) != 0)
			fatalx("event=init error=\"pthread_create failed\"");
}

/* Stops the workers; jobs still queued stay for pool_free. */
void
pool_join(struct pool *p)
{
	unsigned int	 i;

	pthread_mutex_lock(&p->mtx);
	p->quit = 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->mtx);
	for (i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
}

/* Frees the jobs left (queued or finished) and the pool (after pool_join). */
void
pool_free(struct pool *p)
{
	struct job	*j;

	STAILQ_CONCAT(&p->done, &p->todo);
	while ((j = STAILQ_FIRST(&p->done)) != NULL) {
		STAILQ_REMOVE_HEAD(&p->done, entry);
		job_free(j);
	}
	event_free(p->donev);
	close(p->pipefd[0]);
	close(p->pipefd[1]);
	free(p->threads);
	free(p->loads);
	if (p->gatefd >= 0)
		close(p->gatefd);
	pthread_mutex_destroy(&p->mtx);
	pthread_cond_destroy(&p->cond);
}
