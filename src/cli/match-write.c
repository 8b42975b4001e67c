/*
 * match-write.c: the disk writes of `grundy match` (match.h) on a thread
 * of their own, so that the loop, where every engine's clock runs, never
 * waits on a disk: the output file (only its newest snapshot is written:
 * a temporary file, fsync, rename, fsync of the directory) and the record
 * files, in order.  One thread for the whole run, not one per game.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/match.h"

/* A file to write. */
struct mw_item {
	char		*path;
	struct buf	 data;
	struct mw_item	*next;
};

struct match_writer {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv, idle;
	pthread_t	 th;
	struct mw_item	*head, **tail;	/* records, in order */
	struct mw_item	*out;		/* the newest output snapshot */
	int		 busy, stop;
	int		 failed_errno;	/* the output file's last error */
};

/* Writes all of b to path (atomically: tmp, fsync, rename).  0 or -1. */
static int
mw_write_file(const char *path, const struct buf *b, int atomic)
{
	struct buf	 tmp;
	char		*dir, *slash;
	size_t		 off = 0;
	ssize_t		 n;
	int		 fd, dfd, rv = -1;

	buf_init(&tmp);
	buf_printf(&tmp, "%s%s", path, atomic ? ".tmp" : "");
	if ((fd = open(buf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) == -1)
		goto out;
	while (off < b->len && (n = write(fd, b->data + off, b->len - off)) >
	    0)
		off += (size_t)n;
	if (off != b->len || (atomic && fsync(fd) != 0)) {
		close(fd);
		goto out;
	}
	if (close(fd) != 0 || (atomic && rename(buf_str(&tmp), path) != 0))
		goto out;
	rv = 0;
	if (!atomic)
		goto out;
	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) != NULL)
		slash[slash == dir ? 1 : 0] = '\0';
	if ((dfd = open(slash != NULL ? dir : ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
out:
	buf_free(&tmp);
	return (rv);
}

static void
mw_free(struct mw_item *it)
{
	free(it->path);
	buf_free(&it->data);
	free(it);
}

static void *
mw_main(void *arg)
{
	struct match_writer *w = arg;
	struct mw_item	*it;
	int		 atomic, e;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (w->head == NULL && w->out == NULL && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->head != NULL) {
			it = w->head;
			if ((w->head = it->next) == NULL)
				w->tail = &w->head;
			atomic = 0;
		} else if (w->out != NULL) {
			it = w->out;
			w->out = NULL;
			atomic = 1;
		} else
			break;
		w->busy = 1;
		pthread_mutex_unlock(&w->mu);
		e = mw_write_file(it->path, &it->data, atomic) != 0 ? errno : 0;
		if (e != 0)
			fprintf(stderr, "grundy match: %s: %s\n", it->path,
			    strerror(e));
		mw_free(it);
		pthread_mutex_lock(&w->mu);
		if (atomic)
			w->failed_errno = e;
		w->busy = 0;
		pthread_cond_broadcast(&w->idle);
	}
	pthread_mutex_unlock(&w->mu);
	return (NULL);
}

/* Starts the writer.  Returns 0, or -1 with errno. */
int
match_writer_start(struct match *m)
{
	struct match_writer *w = xcalloc(1, sizeof *w);
	sigset_t	 all, old;
	int		 e;

	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pthread_cond_init(&w->idle, NULL);
	w->tail = &w->head;
	/* Signals are the loop's (they wake mg_wait's read): none here. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&w->th, NULL, mw_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		free(w);
		errno = e;
		return (-1);
	}
	m->writer = w;
	return (0);
}

/*
 * Queues a file (its contents taken from b, which is left empty): a
 * record (atomic 0), written in order, or a snapshot of the output file
 * (atomic 1), which replaces one not yet written.
 */
void
match_writer_put(struct match *m, const char *path, struct buf *b,
    int atomic)
{
	struct match_writer *w = m->writer;
	struct mw_item	*it = xcalloc(1, sizeof *it);

	it->path = xstrdup(path);
	it->data = *b;
	buf_init(b);
	pthread_mutex_lock(&w->mu);
	if (atomic) {
		if (w->out != NULL)
			mw_free(w->out);
		w->out = it;
	} else {
		*w->tail = it;
		w->tail = &it->next;
	}
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/*
 * Waits until every queued file is written.  Returns 0, or -1 with errno
 * if the last output file could not be written.
 */
int
match_writer_flush(struct match *m)
{
	struct match_writer *w = m->writer;
	int		 e;

	pthread_mutex_lock(&w->mu);
	while (w->head != NULL || w->out != NULL || w->busy)
		pthread_cond_wait(&w->idle, &w->mu);
	e = w->failed_errno;
	pthread_mutex_unlock(&w->mu);
	errno = e;
	return (e != 0 ? -1 : 0);
}

/* Writes what is queued, stops the thread and frees the writer. */
void
match_writer_stop(struct match *m)
{
	struct match_writer *w = m->writer;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	pthread_cond_destroy(&w->idle);
	free(w);
	m->writer = NULL;
}
