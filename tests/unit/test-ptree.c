/*
 * test-ptree.c: unit tests of a player program's process tree
 * (src/cli/ptree.c), held by a cgroup where the machine offers one and by
 * its process group and /proc (GRUNDY_PTREE=process-group) in every case:
 * CPU time counted over the tree, frozen and thawed, killed whole with a
 * child that left for a session of its own, its process limit told.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cli/ptree.h"
#include "lib/clock.h"

/*
 * Forks sh -c script in a new tree (process group of its own), entered
 * before it execs (a pipe handshake).  Returns its pid.
 */
static pid_t
start(struct ptree *pt, const char *script)
{
	int	 hs[2];
	pid_t	 pid;
	char	 c;

	assert_int_equal(pipe(hs), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(hs[1]);
		setpgid(0, 0);
		if (read(hs[0], &c, 1) != 1)
			_exit(126);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(hs[0]);
	setpgid(pid, pid);
	assert_int_equal(ptree_enter(pt, pid), 0);
	assert_int_equal(write(hs[1], "x", 1), 1);
	close(hs[1]);
	return (pid);
}

/* Whether pid (read from file) is alive and no zombie. */
static int
alive_from(const char *file)
{
	char	 path[64], buf[256], *p;
	FILE	*f;
	long	 pid = 0;
	int	 ok;

	if ((f = fopen(file, "r")) == NULL)
		return (-1);
	ok = fscanf(f, "%ld", &pid) == 1;
	fclose(f);
	if (!ok || pid <= 0)
		return (-1);
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return (0);
	ok = fgets(buf, sizeof buf, f) != NULL;
	fclose(f);
	if (!ok || (p = strrchr(buf, ')')) == NULL)
		return (0);
	return (p[2] != 'Z');
}

/* Waits (30 s at most) until file holds a line. */
static void
wait_file(const char *file)
{
	uint64_t	 end = clock_mono_ms() + 30000;
	FILE		*f;
	long		 v;

	while (clock_mono_ms() < end) {
		if ((f = fopen(file, "r")) != NULL) {
			int ok = fscanf(f, "%ld", &v) == 1;

			fclose(f);
			if (ok)
				return;
		}
		usleep(2000);
	}
	fail_msg("%s never written", file);
}

/* Waits (30 s at most) until the tree used ns of CPU. */
static uint64_t
wait_cpu(struct ptree *pt, uint64_t ns)
{
	uint64_t	 end = clock_mono_ms() + 30000, v = 0;

	while (clock_mono_ms() < end) {
		assert_int_equal(ptree_cpu_ns(pt, &v), 0);
		if (v >= ns)
			return (v);
		usleep(2000);
	}
	fail_msg("CPU %llu never reached %llu", (unsigned long long)v,
	    (unsigned long long)ns);
	return (0);
}

/*
 * One run: a spinner child whose grandchild leaves for its own session;
 * CPU seen, frozen (no CPU while frozen), thawed, killed whole.
 */
static void
run_tree(void)
{
	char		 dir[] = "/tmp/test-ptree.XXXXXX", file[128], sh[512];
	struct ptree_limits lim = { 0, 0, 64, 1 << 20 };
	struct ptree	*pt;
	pid_t		 pid;
	uint64_t	 a, b, peak;
	int		 status, i;

	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof file, "%s/pid", dir);
	/* The grandchild: setsid, spins, writes its pid. */
	snprintf(sh, sizeof sh, "setsid sh -c 'echo $$ > %s; "
	    "while :; do :; done' & wait", file);
	pt = ptree_new("unit test", &lim);
	assert_non_null(pt);
	pid = start(pt, sh);
	wait_file(file);
	assert_int_equal(alive_from(file), 1);
	a = wait_cpu(pt, 20000000);
	assert_int_equal(ptree_freeze(pt), 0);
	assert_int_equal(ptree_cpu_ns(pt, &a), 0);
	/* Frozen: at most a scheduler tick of CPU over several readings. */
	for (i = 0; i < 20; i++)
		usleep(5000);
	assert_int_equal(ptree_cpu_ns(pt, &b), 0);
	assert_true(b - a < 15000000);
	assert_int_equal(ptree_thaw(pt), 0);
	wait_cpu(pt, b + 20000000);
	assert_int_equal(ptree_peak_bytes(pt, &peak), 0);
	assert_true(peak > 0);
	assert_null(ptree_violation(pt));
	assert_int_equal(ptree_kill(pt), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(alive_from(file), 0);
	ptree_free(pt);
	unlink(file);
	rmdir(dir);
}

/* The tree with a cgroup (where the machine offers one). */
static void
test_cgroup(void **state)
{
	(void)state;
	unsetenv("GRUNDY_PTREE");
	run_tree();
}

/* The tree held by its process group and /proc. */
static void
test_fallback(void **state)
{
	struct ptree	*pt;

	(void)state;
	setenv("GRUNDY_PTREE", "process-group", 1);
	pt = ptree_new("x", NULL);
	assert_int_equal(strncmp(ptree_mode(pt), "process-group", 13), 0);
	ptree_free(pt);
	run_tree();
	unsetenv("GRUNDY_PTREE");
}

/* The tree in a cgroup v2 directory, where the machine has v2 too. */
static void
test_v2(void **state)
{
	struct ptree	*pt;

	(void)state;
	setenv("GRUNDY_PTREE", "cgroup-v2", 1);
	pt = ptree_new("v2", NULL);
	if (strncmp(ptree_mode(pt), "cgroup-v2", 9) != 0) {
		ptree_free(pt);
		unsetenv("GRUNDY_PTREE");
		skip();
	}
	ptree_free(pt);
	run_tree();
	unsetenv("GRUNDY_PTREE");
}

/* A process limit held by a pids cgroup is told as "process-limit". */
static void
test_procs(void **state)
{
	struct ptree_limits lim = { 0, 8, 0, 0 };
	struct ptree	*pt;
	pid_t		 pid;
	int		 status;

	(void)state;
	unsetenv("GRUNDY_PTREE");
	pt = ptree_new("procs", &lim);
	assert_non_null(pt);
	if (strncmp(ptree_mode(pt), "cgroup", 6) != 0 ||
	    strstr(ptree_mode(pt), "processes") != NULL) {
		ptree_free(pt);
		skip();
	}
	pid = start(pt, "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "
	    "sleep 30 & done; wait");
	/* Forks past 8 fail; the shell then ends or waits. */
	{
		uint64_t end = clock_mono_ms() + 30000;

		while (ptree_violation(pt) == NULL && clock_mono_ms() < end)
			usleep(2000);
	}
	if (ptree_violation(pt) == NULL) {
		/* pids not delegated (v2): nothing to tell. */
		ptree_free(pt);
		waitpid(pid, &status, 0);
		skip();
	}
	assert_string_equal(ptree_violation(pt), "process-limit");
	assert_int_equal(ptree_kill(pt), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	ptree_free(pt);
}

TU_MAIN("ptree",
    cmocka_unit_test(test_cgroup),
    cmocka_unit_test(test_fallback),
    cmocka_unit_test(test_v2),
    cmocka_unit_test(test_procs))
