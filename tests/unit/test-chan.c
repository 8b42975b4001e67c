/*
 * test-chan.c: unit tests of the byte channel of grundy bot, match and
 * connect (src/cli/chan.c): lines and their limit, answer blocks told
 * from other lines, and the player program started by chan_spawn (its
 * pipes, environment, directory, stderr, exit status, and the kill of
 * its whole process group).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "cli/chan.h"

/* Returns a NULL-ended vector of copies of the strings (vfree frees). */
static char **
vec(const char *first, ...)
{
	va_list		 ap;
	char		**v = NULL;
	const char	*s;
	size_t		 n = 0;

	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *)) {
		v = xreallocarray(v, n + 2, sizeof *v);
		v[n++] = xstrdup(s);
	}
	va_end(ap);
	v[n] = NULL;
	return (v);
}

/* Frees a vector of vec. */
static void
vfree(char **v)
{
	size_t	 n;

	for (n = 0; v[n] != NULL; n++)
		;
	strv_free(v, n);
}

/* Appends raw bytes to what a channel has read. */
static void
feed(struct chan *ch, const char *s, size_t n)
{
	buf_add(&ch->in, s, n);
}

/* Takes one line and checks its result and text. */
static void
take(struct chan *ch, int want, const char *text)
{
	struct buf	 line;

	buf_init(&line);
	assert_int_equal(chan_take_line(ch, &line), want);
	if (text != NULL)
		assert_string_equal(buf_str(&line), text);
	buf_free(&line);
}

/* Lines lose their LF and a CR; an overlong one is cut, its rest dropped. */
static void
test_lines(void **state)
{
	struct chan	 ch;
	char		*big = xmalloc(CHAN_LINE_MAX + 2);

	(void)state;
	chan_init(&ch);
	feed(&ch, "a\r\nb\n\nc", 7);
	take(&ch, 1, "a");
	take(&ch, 1, "b");
	take(&ch, 1, "");
	take(&ch, 0, NULL);
	feed(&ch, "\n", 1);
	take(&ch, 1, "c");
	/* One byte over, in two reads: cut, then skipped to its LF. */
	memset(big, 'x', CHAN_LINE_MAX + 1);
	feed(&ch, big, CHAN_LINE_MAX + 1);
	take(&ch, -1, NULL);
	assert_int_equal(ch.skip, 1);
	feed(&ch, "yyy\nz\n", 6);
	take(&ch, 1, "z");
	take(&ch, 0, NULL);
	/* Whole in one read: cut at CHAN_CUT_KEEP bytes. */
	big[CHAN_LINE_MAX + 1] = '\n';
	feed(&ch, big, CHAN_LINE_MAX + 2);
	feed(&ch, "ok\n", 3);
	big[CHAN_CUT_KEEP] = '\0';
	take(&ch, -1, big);
	take(&ch, 1, "ok");
	/* Exactly the limit is a line. */
	memset(big, 'x', CHAN_LINE_MAX);
	big[CHAN_LINE_MAX] = '\n';
	feed(&ch, big, CHAN_LINE_MAX + 1);
	take(&ch, 1, NULL);
	assert_int_equal(ch.in.len, 0);
	chan_free(&ch);
	free(big);
}

/* Answer blocks come whole; other lines come as they are. */
static void
test_next(void **state)
{
	static const char in[] = "banner\n=1 3=0\nmore\n\n?2 bad\n\n"
	    "plain\n=5 a\0b\n\n";
	struct chan		 ch;
	struct proto_answer	 a;
	struct buf		 line;
	int			 nul;

	(void)state;
	buf_init(&line);
	proto_answer_init(&a, PROTO_ANSWER_MAX);
	for (nul = 0; nul <= 1; nul++) {
		chan_init(&ch);
		ch.nul_ends = nul;
		feed(&ch, in, sizeof in - 1);
		assert_int_equal(chan_next(&ch, &a, &line), CHAN_LINE);
		assert_string_equal(buf_str(&line), "banner");
		assert_int_equal(chan_next(&ch, &a, &line), CHAN_ANSWER);
		assert_true(a.ok && a.has_id && a.id == 1 && a.lines == 2);
		assert_string_equal(a.body.data, "3=0\nmore");
		proto_answer_reset(&a);
		assert_int_equal(chan_next(&ch, &a, &line), CHAN_ANSWER);
		assert_true(!a.ok && a.id == 2);
		assert_string_equal(a.body.data, "bad");
		proto_answer_reset(&a);
		assert_int_equal(chan_next(&ch, &a, &line), CHAN_LINE);
		assert_string_equal(buf_str(&line), "plain");
		/* A NUL ends the line only where nul_ends says so. */
		assert_int_equal(chan_next(&ch, &a, &line), CHAN_ANSWER);
		assert_string_equal(a.body.data, nul ? "a" : "ab");
		proto_answer_reset(&a);
		assert_int_equal(chan_next(&ch, &a, &line), CHAN_NONE);
		chan_free(&ch);
	}
	proto_answer_free(&a);
	buf_free(&line);
}

/* Reads the program's output until EOF (at most 10 s), as a string. */
static void
drain(struct chan *ch, struct buf *out)
{
	struct pollfd	 pfd;

	pfd.fd = ch->rfd;
	pfd.events = POLLIN;
	for (;;) {
		assert_true(poll(&pfd, 1, 30000) > 0);
		if (chan_read(ch) != 0)
			break;
	}
	buf_add(out, ch->in.data != NULL ? ch->in.data : "", ch->in.len);
}

/* The program sees its arguments, environment and directory; it exits. */
static void
test_spawn(void **state)
{
	char	**argv = vec("/bin/sh", "-c",
	    "echo \"$CHAN_T $1 $(pwd -P)\"; exit 3", "sh", "arg", NULL);
	char	**env = vec("CHAN_T=yes", NULL);
	char	 dir[256], real[PATH_MAX], want[PATH_MAX + 16];
	struct chan_prog o = { .argv = argv, .env = env, .dir = dir,
	    .who = "test" };
	struct chan	 ch;
	struct buf	 out;
	const char	*step;
	int		 status;

	(void)state;
	assert_int_equal(tu_tmpdir(dir, sizeof dir, "test-chan"), 0);
	chan_init(&ch);
	buf_init(&out);
	assert_int_equal(chan_spawn(&ch, &o, &step), 0);
	assert_true(ch.pid > 0 && ch.rfd != ch.wfd && ch.group == 0);
	assert_true(fcntl(ch.rfd, F_GETFL) & O_NONBLOCK);
	drain(&ch, &out);
	assert_non_null(realpath(dir, real));
	snprintf(want, sizeof want, "yes arg %s\n", real);
	assert_string_equal(buf_str(&out), want);
	assert_int_equal(chan_wait(&ch, -1, &status), 1);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	assert_int_equal(ch.pid, -1);
	assert_int_equal(chan_wait(&ch, 0, &status), -1);
	chan_close(&ch);
	chan_free(&ch);
	buf_free(&out);
	rmdir(dir);
	vfree(argv);
	vfree(env);
}

/* What is written reaches the program; closing its stdin ends it. */
static void
test_write(void **state)
{
	char	**argv = vec("cat", NULL);
	struct chan_prog o = { .argv = argv, .who = "test" };
	struct chan	 ch;
	struct buf	 out;
	const char	*step;
	int		 status;

	(void)state;
	chan_init(&ch);
	buf_init(&out);
	assert_int_equal(chan_spawn(&ch, &o, &step), 0);
	buf_puts(&ch.out, "1 hello\n");
	while (chan_pending(&ch) > 0)
		assert_int_equal(chan_write(&ch), 0);
	chan_hangup(&ch);
	assert_int_equal(ch.wfd, -1);
	drain(&ch, &out);
	assert_string_equal(buf_str(&out), "1 hello\n");
	assert_int_equal(chan_wait(&ch, 10000, &status), 1);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	chan_close(&ch);
	chan_free(&ch);
	buf_free(&out);
	vfree(argv);
}

/*
 * Runs argv with stderr err while our own stderr goes to a file; returns
 * what reached that file, and the exit status in *status.
 */
static char *
run_err(char **argv, enum chan_err err, int *status)
{
	struct chan_prog o = { .argv = argv, .err = err, .who = "test" };
	struct chan	 ch;
	struct buf	 out;
	const char	*step;
	char		 path[] = "/tmp/test-chan.XXXXXX", *text;
	int		 fd, saved;
	FILE		*f;

	assert_true((fd = mkstemp(path)) != -1);
	fflush(stderr);
	saved = dup(2);
	assert_true(dup2(fd, 2) == 2);
	chan_init(&ch);
	buf_init(&out);
	assert_int_equal(chan_spawn(&ch, &o, &step), 0);
	dup2(saved, 2);
	close(saved);
	drain(&ch, &out);
	assert_int_equal(chan_wait(&ch, -1, status), 1);
	chan_close(&ch);
	chan_free(&ch);
	buf_free(&out);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(f = fdopen(fd, "r"));
	text = xmalloc(256);
	text[fread(text, 1, 255, f)] = '\0';
	fclose(f);
	unlink(path);
	return (text);
}

/* stderr is ours or /dev/null; a program not found exits 127, told. */
static void
test_stderr(void **state)
{
	char	**argv = vec("/bin/sh", "-c", "echo oops >&2", NULL);
	char	**none = vec("/nonexistent/prog", NULL);
	char	*text;
	int	 status;

	(void)state;
	text = run_err(argv, CHAN_ERR_OURS, &status);
	assert_string_equal(text, "oops\n");
	free(text);
	text = run_err(argv, CHAN_ERR_NULL, &status);
	assert_string_equal(text, "");
	free(text);
	text = run_err(none, CHAN_ERR_OURS, &status);
	assert_string_equal(text, "test: /nonexistent/prog: "
	    "No such file or directory\n");
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	free(text);
	vfree(argv);
	vfree(none);
}

/*
 * A program in a group of its own is killed with what it started: its
 * child, which holds the pipe too, goes, so the pipe ends.
 */
static void
test_kill(void **state)
{
	char	**argv = vec("/bin/sh", "-c", "sleep 60 & echo up; wait",
	    NULL);
	struct chan_prog o = { .argv = argv, .group = 1, .who = "test" };
	struct chan	 ch;
	struct buf	 out, line;
	struct pollfd	 pfd;
	const char	*step;
	int		 status;

	(void)state;
	chan_init(&ch);
	buf_init(&out);
	buf_init(&line);
	assert_int_equal(chan_spawn(&ch, &o, &step), 0);
	assert_int_equal(getpgid(ch.pid), ch.pid);
	pfd.fd = ch.rfd;
	pfd.events = POLLIN;
	while (chan_take_line(&ch, &line) == 0) {
		assert_true(poll(&pfd, 1, 30000) > 0);
		assert_int_equal(chan_read(&ch), 0);
	}
	assert_string_equal(buf_str(&line), "up");
	/* Still running: a wait of 0 ms says so. */
	assert_int_equal(chan_wait(&ch, 0, &status), 0);
	assert_true(ch.pid > 0);
	chan_kill(&ch, SIGKILL);
	assert_int_equal(ch.pid, -1);
	drain(&ch, &out);
	chan_close(&ch);
	chan_free(&ch);
	buf_free(&out);
	buf_free(&line);
	vfree(argv);
}

TU_MAIN("chan",
    cmocka_unit_test(test_lines),
    cmocka_unit_test(test_next),
    cmocka_unit_test(test_spawn),
    cmocka_unit_test(test_write),
    cmocka_unit_test(test_stderr),
    cmocka_unit_test(test_kill))
