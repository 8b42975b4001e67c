/*
 * log.c: logging to stderr as "ts=... level=... " followed by the caller's
 * key=value pairs.  Operational events carry conn=ID.  Client mistakes are
 * protocol replies, never log errors; fatal() is for broken invariants.
 * And the command-line programs' usage text and messages (cli_usage,
 * cli_vwarn), plain lines on stdout or stderr.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "lib/log.h"

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

/*
 * Writes one line: timestamp, level, message, optional errno text.  The
 * line is formatted first and leaves in one write (stderr is unbuffered:
 * a printf a piece made three system calls a line), whole even when
 * threads log at once.  A line longer than the stack buffer is formatted
 * again into one of its size (cut if there is no memory for it).
 */
static void
log_vwrite(const char *level, int err, const char *fmt, va_list ap)
{
	char		 when[CLOCK_TIME_LEN], line[1024], *b = line;
	const char	*etext = err != 0 ? strerror(err) : NULL;
	size_t		 cap = sizeof line, len, need;
	va_list		 aq;
	int		 n, m;

	clock_now_text(when, sizeof when);
	n = snprintf(line, sizeof line, "ts=%s level=%s ", when, level);
	va_copy(aq, ap);
	m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, aq);
	va_end(aq);
	len = (size_t)n + (size_t)(m > 0 ? m : 0);
	need = len + (etext != NULL ? strlen(etext) + 10 : 0) + 2;
	if (need > sizeof line && (b = malloc(need)) != NULL) {
		memcpy(b, line, (size_t)n);
		vsnprintf(b + n, (size_t)m + 1, fmt, ap);
		cap = need;
	} else if (b == NULL)
		b = line;
	if (len > cap - 2)
		len = cap - 2;
	if (etext != NULL && len + strlen(etext) + 10 + 2 <= cap)
		len += (size_t)snprintf(b + len, cap - len, " error=\"%s\"",
		    etext);
	b[len++] = '\n';
	pthread_mutex_lock(&log_mtx);
	fwrite(b, 1, len, stderr);
	fflush(stderr);
	pthread_mutex_unlock(&log_mtx);
	if (b != line)
		free(b);
}

/* Logs one line at a level; with_errno appends errno's text. */
void
log_emit(enum log_level level, int with_errno, const char *fmt, ...)
{
	static const char *const names[] = {
		[LOG_INFO] = "info", [LOG_WARN] = "warn", [LOG_DEBUG] = "debug",
	};
	va_list	 ap;
	int	 e = with_errno ? errno : 0;

	if (level == LOG_DEBUG && log_level < 1)
		return;
	va_start(ap, fmt);
	log_vwrite(names[level], e, fmt, ap);
	va_end(ap);
}

/* Logs at level fatal, with errno's text if with_errno, and exits. */
void
log_fatal(int with_errno, const char *fmt, ...)
{
	va_list	 ap;
	int	 e = with_errno ? errno : 0;

	va_start(ap, fmt);
	log_vwrite("fatal", e, fmt, ap);
	va_end(ap);
	exit(1);
}

/* Prints a program's usage text (to stdout for --help) and exits. */
void
cli_usage(int status, const char *text)
{
	fputs(text, status ? stderr : stdout);
	exit(status);
}

/* Prints a program's message with its prefix on stderr. */
static void __attribute__((format(printf, 2, 0)))
cli_vwarn(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Prints a program's message with its prefix and exits 2 (bad usage). */
void
cli_die(const char *prefix, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	cli_vwarn(prefix, fmt, ap);
	va_end(ap);
	exit(2);
}
