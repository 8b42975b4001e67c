/*
 * testgroup.h: the two groups of a test program that runs its tests on
 * both back ends (test-node.c, test-fence.c): LITE(f) runs f on a
 * temporary SQLite file (lite_path), PG(f) on the throwaway cluster of
 * tp_under_cluster (testpg.h), BOTH(f) on each; backend says which,
 * during a test.  Define TG_NAME (the temporary file's name) before
 * including it, once per program.
 */
#ifndef TESTGROUP_H
#define TESTGROUP_H

#include <unistd.h>

#include "db/sqldb.h"
#include "testpg.h"

static enum sqldb_backend backend;	/* of the group running */
static char lite_path[64];
static int pg_state;

static int
setup(void **state)
{
	backend = *state == &pg_state ? SQLDB_PG : SQLDB_SQLITE;
	return (tp_lite_file(lite_path, sizeof lite_path, TG_NAME));
}

static int
teardown(void **state)
{
	(void)state;
	unlink(lite_path);
	return (0);
}

#define LITE(f)	{ "lite: " #f, f, setup, teardown, NULL }
#define PG(f)	{ "pg: " #f, f, setup, teardown, &pg_state }
#define BOTH(f)	LITE(f), PG(f)	/* f on each back end */

#endif /* TESTGROUP_H */
