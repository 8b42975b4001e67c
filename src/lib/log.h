/*
 * log.h: key=value log lines on stderr, OpenBSD-style API.
 */
#ifndef LOG_H
#define LOG_H

#include <stdarg.h>

enum log_level {
	LOG_INFO,
	LOG_WARN,
	LOG_DEBUG,		/* only when verbose */
};

void	 log_init(int);
void	 log_emit(enum log_level, int, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 log_fatal(int, const char *, ...)
	    __attribute__((format(printf, 2, 3), noreturn));

/* The OpenBSD names; the _warn and fatal forms append errno's text. */
#define log_info(...)	log_emit(LOG_INFO, 0, __VA_ARGS__)
#define log_warnx(...)	log_emit(LOG_WARN, 0, __VA_ARGS__)
#define log_warn(...)	log_emit(LOG_WARN, 1, __VA_ARGS__)
#define log_debug(...)	log_emit(LOG_DEBUG, 0, __VA_ARGS__)
#define fatal(...)	log_fatal(1, __VA_ARGS__)
#define fatalx(...)	log_fatal(0, __VA_ARGS__)
int	 log_verbose(void);

/* The command-line programs (grundy and its subcommands). */
/*
 * Prints text to stdout for --help (status 0), else to stderr, and exits
 * with status.
 */
void	 cli_usage(int status, const char *text) __attribute__((noreturn));
/*
 * Prints prefix (e.g. "grundy match: "), the message and a newline on
 * stderr, then exits 2 (bad usage or a bad file).
 */
void	 cli_die(const char *prefix, const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 2, 3)));

#endif /* LOG_H */
