/*
 * cli-usage.c: the usage printer of grundy and its subcommands, and their
 * messages on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli-usage.h"

void
cli_usage(int status, const char *text)
{
	fputs(text, status ? stderr : stdout);
	exit(status);
}

void
cli_vwarn(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}
