/*
 * testpg.c: the tests on both back ends (testpg.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testpg.h"

/*
 * Without SQLDB_PG_URL, runs argv[0] again under tests/e2e/pgcluster.sh run,
 * which starts a throwaway cluster, gives its URL in SQLDB_PG_URL and
 * stops it at the end whatever happens: does not return, unless exec
 * fails (1).  With it: returns 0, the caller runs its tests.
 */
int
tp_under_cluster(char **argv)
{
	const char	*top;
	char		 script[1024];

	if (getenv("SQLDB_PG_URL") != NULL)
		return (0);
	top = getenv("top_srcdir");
	snprintf(script, sizeof script, "%s/tests/e2e/pgcluster.sh",
	    top != NULL ? top : ".");
	execl("/bin/sh", "sh", script, "run", argv[0], (char *)NULL);
	perror(script);
	return (1);
}

/* Makes an empty temporary file /tmp/NAME.XXXXXX into path; 0, or -1. */
int
tp_lite_file(char *path, size_t len, const char *name)
{
	int	 fd;

	snprintf(path, len, "/tmp/%s.XXXXXX", name);
	if ((fd = mkstemp(path)) == -1)
		return (-1);
	close(fd);
	return (0);
}
