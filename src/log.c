/*
 * log.c: logging to stderr as "ts=... level=... " followed by the caller's
 * key=value pairs.  Operational events carry conn=ID.  Client mistakes are
 * protocol replies, never log errors; fatal() is for broken invariants.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

static int	 log_level;	/* 0: info, 1: debug */
static pthread_mutex_t log_mtx = PTHREAD_MUTEX_INITIALIZER;

/* Sets the verbosity: 0 logs info and warnings, 1 adds debug lines. */
void
log_init(int verbose)
{
	log_level = verbose;
}

/* Returns 1 if debug lines are logged. */
int
log_verbose(void)
{
	return (log_level > 0);
}

/* Writes one line: timestamp, level, message, optional errno text. */
static void
log_vwrite(const char *level, int err, const char *fmt, va_list ap)
{
	struct timespec	 ts;
	struct tm	 tm;
	char		 when[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	pthread_mutex_lock(&log_mtx);
	fprintf(stderr, "ts=%s.%03ldZ level=%s ", when, ts.tv_nsec / 1000000,
	    level);
	vfprintf(stderr, fmt, ap);
	if (err != 0)
		fprintf(stderr, " error=\"%s\"", strerror(err));
	fputc('\n', stderr);
	fflush(stderr);
	pthread_mutex_unlock(&log_mtx);
}

/* Logs an informational event. */
void
log_info(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vwrite("info", 0, fmt, ap);
	va_end(ap);
}

/* Logs a warning. */
void
log_warnx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vwrite("warn", 0, fmt, ap);
	va_end(ap);
}

/* Logs a warning with errno's text. */
void
log_warn(const char *fmt, ...)
{
	va_list	 ap;
	int	 e = errno;

	va_start(ap, fmt);
	log_vwrite("warn", e, fmt, ap);
	va_end(ap);
}

/* Logs a debug line when verbose. */
void
log_debug(const char *fmt, ...)
{
	va_list	 ap;

	if (log_level < 1)
		return;
	va_start(ap, fmt);
	log_vwrite("debug", 0, fmt, ap);
	va_end(ap);
}

/* Logs with errno's text and exits. */
void
fatal(const char *fmt, ...)
{
	va_list	 ap;
	int	 e = errno;

	va_start(ap, fmt);
	log_vwrite("fatal", e, fmt, ap);
	va_end(ap);
	exit(1);
}

/* Logs and exits. */
void
fatalx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	log_vwrite("fatal", 0, fmt, ap);
	va_end(ap);
	exit(1);
}
