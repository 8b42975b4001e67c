/*
 * passfile.c: a password read from the first line of a file, or of
 * standard input (path "-"), without its line end (passfile.h).  grundy
 * bot's --password-file and grundyd's --add-admin read it so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/passfile.h"

/*
 * Reads the first line of path ("-": standard input) into buf (len bytes),
 * without "\n" or "\r\n".  Returns 0, or -1 with err filled in (the file
 * cannot be read, is empty, or its first line does not fit).
 */
int
passfile_read(const char *path, char *buf, size_t len, char *err,
    size_t errlen)
{
	FILE	*fp = stdin;
	size_t	 n;
	int	 whole;

	if (strcmp(path, "-") != 0 && (fp = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	whole = strchr(buf, '\n') != NULL || feof(fp);
	if (fp != stdin)
		fclose(fp);
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	if (!whole) {
		snprintf(err, errlen, "%s: the password's line is longer "
		    "than %zu bytes", strcmp(path, "-") == 0 ? "standard input"
		    : path, len - 2);
		return (-1);
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: no password on its first line",
		    strcmp(path, "-") == 0 ? "standard input" : path);
		return (-1);
	}
	return (0);
}
