/*
 * cli-usage.h: the usage text of grundy and its subcommands (grundy.c,
 * bot.c, match.c), printed one way.
 */
#ifndef CLI_USAGE_H
#define CLI_USAGE_H

/*
 * Prints text to stdout for --help (status 0), else to stderr, and exits
 * with status.
 */
void	 cli_usage(int status, const char *text) __attribute__((noreturn));

#endif /* CLI_USAGE_H */
