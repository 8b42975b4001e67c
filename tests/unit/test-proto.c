/*
 * test-proto.c: unit tests of the protocol's pure framing functions and of
 * the session layer (request line in, reply out), without any socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "session/session.h"

/* A line and what an in-place cleaner makes of it. */
struct clean_case {
	const char *in, *out;
};

/* Runs fn over a copy of each case's line; checks text and length. */
static void
clean_each(const struct clean_case *cases, size_t ncases,
    size_t (*fn)(char *, size_t))
{
	char	 buf[64];
	size_t	 i, n;

	for (i = 0; i < ncases; i++) {
		snprintf(buf, sizeof buf, "%s", cases[i].in);
		n = fn(buf, strlen(buf));
		assert_string_equal(buf, cases[i].out);
		assert_int_equal(n, strlen(cases[i].out));
	}
}

/* Preprocessing follows GTP: control chars, tabs, comments, CR. */
static void
test_preprocess(void **state)
{
	const struct clean_case cases[] = {
		{ "name", "name" },
		{ "name\r", "name" },
		{ "\tplay\t1=2 ", " play 1=2 " },
		{ "pro\001to\177col", "protocol" },
		{ "name # a comment", "name " },
		{ "# only a comment", "" },
		{ "", "" },
	};

	(void)state;
	clean_each(cases, sizeof cases / sizeof cases[0], proto_preprocess);
}

/* Parsing: ids, names, arguments, blank lines, id without command. */
static void
test_parse(void **state)
{
	struct proto_cmd cmd;
	const char	*why = NULL;
	char		 buf[128];

	(void)state;
	snprintf(buf, sizeof buf, "  12   play  1=2 3=4 ");
	assert_int_equal(proto_parse(buf, &cmd, &why), 1);
	assert_true(cmd.has_id);
	assert_int_equal(cmd.id, 12);
	assert_string_equal(cmd.name, "play");
	assert_int_equal(cmd.argc, 2);
	assert_string_equal(cmd.argv[1], "3=4");
	proto_cmd_free(&cmd);
	snprintf(buf, sizeof buf, "name");
	assert_int_equal(proto_parse(buf, &cmd, &why), 1);
	assert_false(cmd.has_id);
	proto_cmd_free(&cmd);
	snprintf(buf, sizeof buf, "   ");
	assert_int_equal(proto_parse(buf, &cmd, &why), 0);
	proto_cmd_free(&cmd);
	snprintf(buf, sizeof buf, "7");
	assert_int_equal(proto_parse(buf, &cmd, &why), -1);
	assert_non_null(why);
	proto_cmd_free(&cmd);
	/* An id that overflows is a command name, not an id. */
	snprintf(buf, sizeof buf, "99999999999999999999999 x");
	assert_int_equal(proto_parse(buf, &cmd, &why), 1);
	assert_false(cmd.has_id);
	proto_cmd_free(&cmd);
}

/*
 * Arguments past the struct's own PROTO_ARGV_SMALL move to an allocated
 * array, twice grown here, every one kept in order (issue 28 §2).
 */
static void
test_parse_many(void **state)
{
	struct proto_cmd cmd;
	const char	*why = NULL;
	char		 buf[512], want[16];
	size_t		 len = 0;
	int		 i, n;

	(void)state;
	for (n = 0; n <= 4 * PROTO_ARGV_SMALL + 1; n++) {
		len = (size_t)snprintf(buf, sizeof buf, "3 new");
		for (i = 0; i < n; i++)
			len += (size_t)snprintf(buf + len, sizeof buf - len,
			    " a%d", i);
		assert_int_equal(proto_parse(buf, &cmd, &why), 1);
		assert_int_equal(cmd.argc, n);
		assert_string_equal(cmd.name, "new");
		for (i = 0; i < n; i++) {
			snprintf(want, sizeof want, "a%d", i);
			assert_string_equal(cmd.argv[i], want);
		}
		assert_true((cmd.argv == cmd.small) ==
		    (n <= PROTO_ARGV_SMALL));
		proto_cmd_free(&cmd);
	}
}

/* Replies: = / ?, the id, the body, the final empty line. */
static void
test_reply(void **state)
{
	struct proto_cmd cmd;
	struct buf	 b;

	(void)state;
	memset(&cmd, 0, sizeof cmd);
	buf_init(&b);
	proto_reply(&b, 1, &cmd, "");
	assert_string_equal(buf_str(&b), "=\n\n");
	buf_reset(&b);
	cmd.has_id = 1;
	cmd.id = 5;
	proto_reply(&b, 0, &cmd, "bad thing");
	assert_string_equal(buf_str(&b), "?5 bad thing\n\n");
	buf_reset(&b);
	proto_reply(&b, 1, &cmd, "a\n\nb\n");
	assert_string_equal(buf_str(&b), "=5 a\nb\n\n");
	buf_free(&b);
}

/* Runs one line through a session; returns the reply. */
static char *
run(struct session *s, const char *line)
{
	struct buf	 out;
	char		*copy = strdup(line), *r;

	buf_init(&out);
	session_execute(s, copy, strlen(copy), &out);
	r = strdup(buf_str(&out));
	buf_free(&out);
	free(copy);
	return (r);
}

/* Asserts that line's reply equals want. */
static void
expect(struct session *s, const char *line, const char *want)
{
	char	*r = run(s, line);

	if (strcmp(r, want) != 0)
		fail_msg("'%s': got '%s', want '%s'", line, r, want);
	free(r);
}

/* expect for each (line, reply) of a NULL-terminated list, in order. */
static void
expect_pair(void *s, const char *line, const char *want)
{
	expect(s, line, want);
}

static void
expect_each(struct session *s, ...)
{
	va_list		 ap;

	va_start(ap, s);
	tu_pairs(ap, expect_pair, s);
	va_end(ap);
}

/* The session: central checks, failures never change state, undo, match. */
static void
test_session(void **state)
{
	struct session_conf conf;
	struct session	 s;

	(void)state;
	memset(&conf, 0, sizeof conf);	/* no undo byte cap, no game bounds */
	game_limits_default(&conf.lim);
	conf.max_undo = 2;
	conf.max_winning = 100;
	session_init(&s, 1, &conf, cmd_table);
	expect_each(&s,
	    "show", "? no game: start one with new GAME\n\n",
	    "play", "? usage: play MOVE [time1=MS] [time2=MS]\n\n",
	    "known_command", "? usage: known_command COMMAND\n\n",
	    "new nim 3 4 5", "= nim 3 4 5\n\n",
	    "new nim 3 x",
	    "? invalid game: pile 2 'x': not a "
	    "non-negative decimal integer\n\n",
	    "show", "= position nim 3 4 5\nplayer 1\nmove 1\n\n",
	    NULL);
	/*
	 * GTP's error texts first (issue 9), then the reason `legal`
	 * gives (issue 26).
	 */
	expect_each(&s,
	    "play 1=9", "? illegal move: pile 1: the new value must be "
	    "smaller than the current 3\n\n",
	    "legal 1=9", "= false pile 1: the new value must be smaller "
	    "than the current 3\n\n",
	    "play 9=1", "? illegal move: index 9 out of range: the position "
	    "has 3 piles\n\n",
	    "play 1=x", "? syntax error: move value for index 1 'x': not a "
	    "non-negative decimal integer\n\n",
	    "legal 1=x", "? invalid move: move value for index 1 'x': not a "
	    "non-negative decimal integer\n\n",
	    "7 frobnicate now", "?7 unknown command\n\n",
	    "play 1=1", "=\n\n",
	    "play 2=3", "=\n\n",
	    "play 3=4", "=\n\n",
	    "show", "= position nim 1 3 4\nplayer 2\nmove 4\n\n",
	    NULL);
	/* max_undo = 2: two undos, then nothing. */
	expect_each(&s,
	    "undo", "=\n\n",
	    "undo", "=\n\n",
	    "undo", "? cannot undo\n\n",
	    "show", "= position nim 1 4 5\nplayer 2\nmove 2\n\n",
	    "legal 1=0", "= true\n\n",
	    "legal 4=0",
	    "= false index 4 out of range: the position " "has 3 piles\n\n",
	    "match engine first", "=\n\n",
	    "new nim 1",
	    "? new is not available during a match " "(resign first)\n\n",
	    "genmove",
	    "? genmove is not available during a match " "(resign first)\n\n",
	    "play 2=0", "= reply 3=1\n\n",
	    "resign", "= result second resign\n\n",
	    "resign", "? no match in progress\n\n",
	    NULL);
	/* The player role's clock tokens are checked and ignored (§13.2). */
	expect_each(&s,
	    "new nim 3 4 5", "= nim 3 4 5\n\n",
	    "3 play 1=1 time2=500 time1=0", "=3\n\n",
	    "play 2=3 time1=1", "=\n\n",
	    "4 genmove time1=7 time2=8", "=4 3=2\n\n",
	    "genmove time2=8", "= 1=0\n\n",
	    "play time1=5", "? usage: play MOVE [time1=MS] " "[time2=MS]\n\n",
	    "play 1=0 time1=5 time1=6",
	    "? duplicate clock token " "'time1'\n\n",
	    "play 1=0 time1=-5",
	    "? time1 '-5': not a non-negative " "decimal integer\n\n",
	    "play 1=0 time3=5", "? syntax error: move token 'time3=5': "
	    "index must be an integer from 1\n\n",
	    "genmove now", "? usage: genmove [time1=MS] " "[time2=MS]\n\n",
	    "genmove time1=x",
	    "? time1 'x': not a non-negative " "decimal integer\n\n",
	    "show", "= position nim 0 3 2\nplayer 1\nmove 5\n\n",
	    "9 gameover first no-legal-move", "=9\n\n",
	    "gameover", "=\n\n",
	    "seed 42", "=\n\n",
	    "seed off", "=\n\n",
	    "quit", "=\n\n",
	    NULL);
	assert_int_equal(s.state, SESSION_CLOSING);
	session_free(&s);
}

/* session_heavy sends table-building and large work off the loop. */
static void
test_heavy(void **state)
{
	struct session_conf conf;
	struct session	 s;
	char		 big[2000];

	(void)state;
	memset(&conf, 0, sizeof conf);
	game_limits_default(&conf.lim);
	conf.max_undo = 10;
	conf.max_winning = 100;
	session_init(&s, 1, &conf, cmd_table);
	assert_false(session_heavy(&s, "protocol_version", 16, NULL));
	assert_false(session_heavy(&s, "new nim 3 4", 11, NULL));
	assert_true(session_heavy(&s, "new wythoff 3 4", 15, NULL));
	assert_true(session_heavy(&s, "7 new graph 1", 13, NULL));
	assert_true(session_heavy(&s, "new subtraction S=1 3", 21, NULL));
	memset(big, '1', sizeof big);
	assert_true(session_heavy(&s, big, sizeof big, NULL));
	/* Lobby commands: on the loop up to SESSION_LOOP_LINE_MAX. */
	memcpy(big, "seek nim ", 9);
	assert_false(session_heavy(&s, big, sizeof big, NULL));
	memcpy(big, "5\tchallenge x nim ", 19);
	assert_false(session_heavy(&s, big, sizeof big, NULL));
	{
		char	*huge = malloc(SESSION_LOOP_LINE_MAX + 1);

		assert_non_null(huge);
		memset(huge, '1', SESSION_LOOP_LINE_MAX + 1);
		memcpy(huge, "seek nim ", 9);
		assert_true(session_heavy(&s, huge, SESSION_LOOP_LINE_MAX + 1, NULL));
		assert_false(session_heavy(&s, huge, SESSION_LOOP_LINE_MAX, NULL));
		free(huge);
	}
	free(run(&s, "new wythoff 3 4"));
	assert_true(session_heavy(&s, "analyze", 7, NULL));
	assert_false(session_heavy(&s, "show", 4, NULL));
	session_free(&s);
}

/*
 * proto_head agrees with proto_preprocess + proto_parse on every line it
 * decides, and decides every line whose name ends within PROTO_SCAN_MAX
 * bytes: random lines of ids, names, tabs, control bytes, comments.
 */
static void
test_head(void **state)
{
	static const char *const parts[] = { "7", "18446744073709551615",
	    "18446744073709551616", "new", "seek", " ", "  ", "\t", "\001",
	    "\r", "\n", "#", "x", "\177", "nim", "0",
	    "abcdefghijklmnopqrstuvwxyz0123456", "abcdefghijklmnopqrstuvwxyz012345" };
	struct proto_head h;
	struct proto_cmd cmd;
	const char	*why;
	char		 line[2400], copy[2400];
	unsigned int	 seed = 1;
	size_t		 n, k;
	int		 i, rv, hv, decided = 0;

	(void)state;
	for (i = 0; i < 200000; i++) {
		n = 0;
		seed = seed * 1103515245 + 12345;
		if ((seed >> 16) % 8 == 0) {	/* a long run of bytes first */
			k = 900 + (seed >> 8) % 300;
			memset(line, (seed >> 20) % 2 ? ' ' : '\002', k);
			n = k;
		}
		for (k = (seed >> 4) % 6; k > 0; k--) {
			seed = seed * 1103515245 + 12345;
			const char *p = parts[(seed >> 16) %
			    (sizeof parts / sizeof parts[0])];
			memcpy(line + n, p, strlen(p));
			n += strlen(p);
		}
		line[n] = '\0';
		hv = proto_head(line, n, &h);
		memcpy(copy, line, n + 1);
		proto_preprocess(copy, n);
		rv = proto_parse(copy, &cmd, &why);
		if (hv == 1) {
			decided++;
			assert_int_equal(rv, 1);
			assert_string_equal(h.name, cmd.name);
			assert_int_equal(h.has_id, cmd.has_id);
			if (cmd.has_id)
				assert_true(h.id == cmd.id);
		} else if (hv == 0)
			assert_int_equal(rv, 0);
		else if (n < PROTO_SCAN_MAX)	/* undecided: a long name */
			assert_true(rv == -1 || strlen(cmd.name) >
			    PROTO_NAME_MAX);
		if (hv != 1 && rv == -1 && n < PROTO_SCAN_MAX)
			/* the id is read anyway */
			assert_int_equal(h.has_id, 1);
		proto_cmd_free(&cmd);
	}
	assert_true(decided > 50000);
}

/* Answers are preprocessed as GTP v2 §3.1 asks: no comments there. */
static void
test_answer_clean(void **state)
{
	const struct clean_case cases[] = {
		{ "=2 \0011=0\177", "=2 1=0" },
		{ "=3\t2=1\r", "=3 2=1" },
		{ "= a # not a comment", "= a # not a comment" },
		{ "\r", "" },
	};

	(void)state;
	clean_each(cases, sizeof cases / sizeof cases[0], proto_answer_clean);
}

/* Which lines start an answer: "=", "?", an id, then the end or a space. */
static void
test_answer_head(void **state)
{
	const char	*text;
	unsigned long	 id;
	int		 ok, has_id;

	(void)state;
	assert_int_equal(proto_answer_head("=12 1=0", &ok, &has_id, &id,
	    &text), 1);
	assert_true(ok);
	assert_true(has_id);
	assert_int_equal(id, 12);
	assert_string_equal(text, "1=0");
	assert_int_equal(proto_answer_head("?", &ok, &has_id, &id, &text), 1);
	assert_false(ok);
	assert_false(has_id);
	assert_string_equal(text, "");
	assert_int_equal(proto_answer_head("=  resign", &ok, &has_id, &id,
	    &text), 1);
	assert_string_equal(text, "resign");
	assert_int_equal(proto_answer_head("=== debug banner ===", &ok,
	    &has_id, &id, &text), 0);
	assert_int_equal(proto_answer_head("=x", &ok, &has_id, &id, &text), 0);
	assert_int_equal(proto_answer_head("=12x 1", &ok, &has_id, &id, &text),
	    0);
	assert_int_equal(proto_answer_head("=99999999999999999999999 1", &ok,
	    &has_id, &id, &text), 0);
	assert_int_equal(proto_answer_head("play 1=2", &ok, &has_id, &id,
	    &text), 0);
	assert_int_equal(proto_answer_head("", &ok, &has_id, &id, &text), 0);
}

/* Feeds lines to a reader; returns the results as a string of digits. */
static void
feed(struct proto_answer *a, const char *lines[], const char *want)
{
	char	 buf[256], got[32];
	size_t	 i;

	for (i = 0; lines[i] != NULL; i++) {
		snprintf(buf, sizeof buf, "%s", lines[i]);
		got[i] = (char)('0' + proto_answer_feed(a, buf, strlen(buf),
		    0));
	}
	got[i] = '\0';
	assert_string_equal(got, want);
}

/* An answer is one block up to its empty line; nothing in it is a command. */
static void
test_answer_block(void **state)
{
	struct proto_answer a;
	struct buf	 out;
	const char	*one[] = { "=2 1=2", "whoami", "\r", "whoami", NULL };
	const char	*two[] = { "=== banner", "?7\tbad\001 move ", "",
	    NULL };
	const char	*three[] = { "=5", "a", "b", " ", NULL };
	char		 big[64];

	(void)state;
	buf_init(&out);
	proto_answer_init(&a, 16);
	/* The last whoami is a line of its own: not in the block. */
	feed(&a, one, "1120");
	assert_int_equal(a.lines, 2);
	assert_true(a.ok && a.has_id && a.id == 2);
	assert_string_equal(a.body.data, "1=2\nwhoami");
	proto_answer_write(&out, &a, 77);
	assert_string_equal(buf_str(&out), "=77 1=2\nwhoami\n\n");
	proto_answer_reset(&a);
	feed(&a, two, "012");
	assert_false(a.ok);
	assert_int_equal(a.lines, 1);
	assert_string_equal(a.body.data, "bad move");
	proto_answer_reset(&a);
	buf_reset(&out);
	feed(&a, three, "1112");
	assert_int_equal(a.lines, 3);
	proto_answer_write(&out, &a, 9);
	assert_string_equal(buf_str(&out), "=9\na\nb\n\n");
	/* Over the cap: cut, and said so. */
	proto_answer_reset(&a);
	snprintf(big, sizeof big, "=1 %s", "0123456789abcdefXYZ");
	assert_int_equal(proto_answer_feed(&a, big, strlen(big), 0),
	    PROTO_IN_BLOCK);
	big[0] = '\0';
	assert_int_equal(proto_answer_feed(&a, big, 0, 0),
	    PROTO_BLOCK_DONE);
	assert_true(a.over);
	/* A line too long for the caller: its head still counts. */
	proto_answer_reset(&a);
	snprintf(big, sizeof big, "=4 1=");
	assert_int_equal(proto_answer_feed(&a, big, strlen(big), 1),
	    PROTO_IN_BLOCK);
	assert_true(a.over && a.id == 4);
	proto_answer_free(&a);
	buf_free(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preprocess),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_many),
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_answer_clean),
		cmocka_unit_test(test_answer_head),
		cmocka_unit_test(test_answer_block),
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_heavy),
	};

	return (cmocka_run_group_tests_name("proto", tests, NULL, NULL));
}
