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

/*
 * The main() of such a program: it runs itself again under the cluster
 * (tp_under_cluster), then its tests as the group name.
 */
#define TP_MAIN(name, ...)						\
int									\
main(int argc, char **argv)						\
{									\
	const struct CMUnitTest tests[] = { __VA_ARGS__ };		\
									\
	(void)argc;							\
	if (tp_under_cluster(argv) != 0)				\
		return (1);						\
	return (cmocka_run_group_tests_name(name, tests, NULL, NULL));	\
}

#endif /* TESTPG_H */
