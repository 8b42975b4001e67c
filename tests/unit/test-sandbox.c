/*
 * test-sandbox.c: unit tests of the sandbox's pure parts (src/cli/
 * sandbox.c): --sandbox-limits parsed and refused, the bwrap command line
 * (what it shows and what it does not), the seccomp filter exported, and
 * the reason a wait status tells.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cli/sandbox.h"

/* Limits parsed over the defaults; bad words refused with a reason. */
static void
test_parse(void **state)
{
	struct sandbox_opts o;
	char		 why[160];

	(void)state;
	sandbox_defaults(&o);
	assert_int_equal(o.lim.mem_bytes, SANDBOX_DEF_MEM);
	assert_int_equal(sandbox_parse("mem=64M,procs=8,files=32,fsize=1G,"
	    "scratch=512K,stderr=4096", &o, why, sizeof why), 0);
	assert_int_equal(o.lim.mem_bytes, 64ULL << 20);
	assert_int_equal(o.lim.procs, 8);
	assert_int_equal(o.lim.files, 32);
	assert_int_equal(o.lim.fsize_bytes, 1ULL << 30);
	assert_int_equal(o.scratch_bytes, 512ULL << 10);
	assert_int_equal(o.stderr_bytes, 4096);
	assert_int_equal(sandbox_parse("mem=1K", &o, why, sizeof why), -1);
	assert_non_null(strstr(why, "4K"));
	assert_int_equal(sandbox_parse("procs=0", &o, why, sizeof why), -1);
	assert_int_equal(sandbox_parse("procs=2M", &o, why, sizeof why), -1);
	assert_int_equal(sandbox_parse("cpu=1", &o, why, sizeof why), -1);
	assert_non_null(strstr(why, "cpu"));
	assert_int_equal(sandbox_parse("mem", &o, why, sizeof why), -1);
	assert_int_equal(sandbox_parse("mem=2048G", &o, why, sizeof why), -1);
	assert_int_equal(sandbox_parse("mem=-1", &o, why, sizeof why), -1);
	/* A refused word changes what came before it only. */
	assert_int_equal(o.lim.procs, 8);
}

/* The index of word w in v, or -1. */
static int
word(char **v, const char *w)
{
	int	 i;

	for (i = 0; v[i] != NULL; i++)
		if (strcmp(v[i], w) == 0)
			return (i);
	return (-1);
}

/* bwrap's command line: namespaces, the filter, the directory, no more. */
static void
test_argv(void **state)
{
	struct sandbox_opts o;
	char		 dir[] = "/tmp/test-sandbox.XXXXXX", prog[128];
	char		*argv[] = { prog, (char *)"arg1", NULL };
	char		*env[] = { (char *)"LEVEL=3", NULL };
	char		**v;
	int		 i;

	(void)state;
	sandbox_defaults(&o);
	o.scratch_bytes = 12345;
	assert_non_null(mkdtemp(dir));
	snprintf(prog, sizeof prog, "./engine");
	v = sandbox_argv(&o, argv, dir, env, 7);
	assert_string_equal(v[0], "bwrap");
	assert_true(word(v, "--unshare-all") > 0);
	assert_true(word(v, "--die-with-parent") > 0);
	assert_true(word(v, "--new-session") > 0);
	assert_true(word(v, "--clearenv") > 0);
	i = word(v, "--seccomp");
	assert_true(i > 0);
	assert_string_equal(v[i + 1], "7");
	i = word(v, "--size");
	assert_string_equal(v[i + 1], "12345");
	assert_string_equal(v[i + 2], "--tmpfs");
	assert_string_equal(v[i + 3], "/tmp");
	/* Its directory read-only, after the tmpfs, and its cwd. */
	i = word(v, dir);
	assert_true(i > word(v, "--tmpfs"));
	assert_string_equal(v[i - 1], "--ro-bind");
	assert_string_equal(v[word(v, "--chdir") + 1], dir);
	i = word(v, "LEVEL");
	assert_string_equal(v[i - 1], "--setenv");
	assert_string_equal(v[i + 1], "3");
	/* Nothing of /etc but the loader's files; no home, no root. */
	assert_int_equal(word(v, "/etc"), -1);
	assert_int_equal(word(v, "/etc/shadow"), -1);
	assert_int_equal(word(v, "/etc/passwd"), -1);
	assert_int_equal(word(v, "/"), -1);
	assert_int_equal(word(v, "/home"), -1);
	assert_int_equal(word(v, "/root"), -1);
	/* The program last, after "--". */
	i = word(v, "--");
	assert_string_equal(v[i + 1], "./engine");
	assert_string_equal(v[i + 2], "arg1");
	assert_null(v[i + 3]);
	sandbox_argv_free(v);
	rmdir(dir);
}

/* The filter is exported as BPF: whole instructions, at offset 0. */
static void
test_filter(void **state)
{
	struct stat	 st;
	int		 fd;

	(void)state;
	fd = sandbox_filter();
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(st.st_size >= 8 * 20);
	assert_int_equal(st.st_size % 8, 0);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
	close(fd);
}

/* The reason of a wait status: SIGSYS and SIGXFSZ, raw or through bwrap. */
static void
test_exit_reason(void **state)
{
	(void)state;
	assert_string_equal(sandbox_exit_reason(SIGSYS), "forbidden-syscall");
	assert_string_equal(sandbox_exit_reason((128 + SIGSYS) << 8),
	    "forbidden-syscall");
	assert_string_equal(sandbox_exit_reason(SIGXFSZ), "output-limit");
	assert_string_equal(sandbox_exit_reason((128 + SIGXFSZ) << 8),
	    "output-limit");
	assert_null(sandbox_exit_reason(SIGKILL));
	assert_null(sandbox_exit_reason(3 << 8));
	assert_null(sandbox_exit_reason(0));
}

TU_MAIN("sandbox",
    cmocka_unit_test(test_parse),
    cmocka_unit_test(test_argv),
    cmocka_unit_test(test_filter),
    cmocka_unit_test(test_exit_reason))
