/*
 * testpg.h: what the tests on both back ends share (test-sqldb.c,
 * test-node.c): running the program again under a throwaway PostgreSQL
 * cluster of its own, and the temporary SQLite file.
 */
#ifndef TESTPG_H
#define TESTPG_H

#include <stddef.h>

int	 tp_under_cluster(char **);
int	 tp_lite_file(char *, size_t, const char *);

#endif /* TESTPG_H */
