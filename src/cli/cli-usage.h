/*
 * cli-usage.h: the usage text of grundy and its subcommands (grundy.c,
 * bot.c, match.c), printed one way.
 */
#ifndef CLI_USAGE_H
#define CLI_USAGE_H

#include <stdarg.h>

/*
 * Prints text to stdout for --help (status 0), else to stderr, and exits
 * with status.
 */
void	 cli_usage(int status, const char *text) __attribute__((noreturn));
/* Prints prefix (e.g. "grundy match: "), the message and a newline. */
void	 cli_vwarn(const char *prefix, const char *fmt, va_list ap)
	    __attribute__((format(printf, 2, 0)));

#endif /* CLI_USAGE_H */
