/*
 * cli-usage.c: the usage printer of grundy and its subcommands.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli-usage.h"

void
cli_usage(int status, const char *text)
{
	fputs(text, status ? stderr : stdout);
	exit(status);
}
