/*
 * test-budget.c: unit tests of a client's budget (src/lib/budget.c) on a
 * virtual clock: the class of a client, the commands bucket (burst, then
 * a rate a second), the log's leaky bucket (a minute's rate) and the
 * output cap and the lines in flight, each with its refusal (PROTOCOL.md
 * §9.1).
 */
#include <string.h>

#include "testutil.h"
#include "lib/budget.h"
#include "lib/buf.h"

#define S	1000000000ULL		/* a second, in ns */

static const struct budget_limits lim[BUDGET_NCLASSES] = {
	[BUDGET_ANON] = { 4096, 2, 3, 6000, 5000 },
	[BUDGET_ACCOUNT] = { 8192, 10, 30, 60000, 0 },
	[BUDGET_TRUSTED] = { 16384, 100, 300, 600000, 50000 },
	[BUDGET_ADMIN] = { 32768, 1000, 3000, 6000000, 500000 },
};

/* Admin over trusted over an account over none. */
static void
test_class_of(void **state)
{
	(void)state;
	assert_int_equal(budget_class_of(0, 0, 0), BUDGET_ANON);
	assert_int_equal(budget_class_of(0, 1, 0), BUDGET_ACCOUNT);
	assert_int_equal(budget_class_of(1, 0, 0), BUDGET_TRUSTED);
	assert_int_equal(budget_class_of(1, 1, 0), BUDGET_TRUSTED);
	assert_int_equal(budget_class_of(0, 1, 1), BUDGET_ADMIN);
	assert_int_equal(budget_class_of(1, 1, 1), BUDGET_ADMIN);
	assert_string_equal(budget_class_name(BUDGET_ANON), "anonymous");
	assert_string_equal(budget_prefix(BUDGET_TRUSTED), "");
	assert_string_equal(budget_prefix(BUDGET_ADMIN), "admin-");
}

/* The burst at once, then nothing until the rate refills one. */
static void
test_commands(void **state)
{
	struct budget	 b;
	struct buf	 msg;
	uint64_t	 t = 5 * S;
	int		 i;

	(void)state;
	memset(&b, 0, sizeof b);
	b.cls = BUDGET_ANON;
	buf_init(&msg);
	for (i = 0; i < 3; i++)
		assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1, t,
		    &msg), 0);
	assert_int_equal(msg.len, 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1, t, &msg),
	    -1);
	assert_string_equal(buf_str(&msg), "budget: commands of the "
	    "anonymous class: at most 2 commands per second, burst 3 "
	    "(settings anonymous-rate, anonymous-burst)");
	/* 0.49 s: not yet one command at 2 a second. */
	assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1,
	    t + 49 * S / 100, NULL), -1);
	assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1,
	    t + S / 2, NULL), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1,
	    t + S / 2, NULL), -1);
	/* A login: the account's burst from what was used. */
	b.cls = BUDGET_ACCOUNT;
	for (i = 0; i < 27; i++)
		assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1,
		    t + S / 2, NULL), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_COMMANDS, 1,
	    t + S / 2, NULL), -1);
	buf_free(&msg);
}

/* Moves always charge; a new game is refused at the minute's rate. */
static void
test_log(void **state)
{
	struct budget	 b;
	struct buf	 msg;
	uint64_t	 t = 7 * S;

	(void)state;
	memset(&b, 0, sizeof b);
	b.cls = BUDGET_ANON;
	buf_init(&msg);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 0, t, &msg), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 5999, t, &msg), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 0, t, &msg), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 6001, t, &msg), 0);
	assert_int_equal(msg.len, 0);
	/* 12,000 held: 6,000 over, a minute to drain it, plus one second. */
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 0, t, &msg), -1);
	assert_string_equal(buf_str(&msg), "budget: log of the anonymous "
	    "class: your games logged 12000 bytes, over the 6000 a minute of "
	    "anonymous-max-client-log-rate: retry in 61 s");
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 0, t + 59 * S,
	    NULL), -1);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 0, t + 61 * S,
	    NULL), 0);
	/* The account's rate admits what the anonymous one did not. */
	b.cls = BUDGET_ACCOUNT;
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 50000, t + 61 * S,
	    NULL), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LOG, 0, t + 61 * S,
	    NULL), 0);
	buf_free(&msg);
}

/* Replies held: up to the class's output, over it a refusal. */
static void
test_output(void **state)
{
	struct budget	 b;
	struct buf	 msg;

	(void)state;
	memset(&b, 0, sizeof b);
	b.cls = BUDGET_TRUSTED;
	buf_init(&msg);
	assert_int_equal(budget_charge(&b, lim, BUDGET_OUTPUT, 16384, 1,
	    &msg), 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_OUTPUT, 16385, 1,
	    &msg), -1);
	assert_string_equal(buf_str(&msg), "budget: output of the trusted "
	    "class: 16385 bytes of replies unread, over 16384 (setting "
	    "max-output)");
	b.cls = BUDGET_ADMIN;
	assert_int_equal(budget_charge(&b, lim, BUDGET_OUTPUT, 16385, 1,
	    NULL), 0);
	buf_free(&msg);
}

/* Lines in flight: up to the class's bytes; 0 is no limit. */
static void
test_lines(void **state)
{
	struct budget	 b;
	struct buf	 msg;

	(void)state;
	memset(&b, 0, sizeof b);
	b.cls = BUDGET_ANON;
	buf_init(&msg);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LINES, 5000, 1,
	    &msg), 0);
	assert_int_equal(msg.len, 0);
	assert_int_equal(budget_charge(&b, lim, BUDGET_LINES, 5001, 1,
	    &msg), -1);
	assert_string_equal(buf_str(&msg), "budget: lines of the anonymous "
	    "class: 5001 bytes of request lines in flight, over 5000 "
	    "(setting anonymous-max-lines-in-flight)");
	b.cls = BUDGET_ACCOUNT;
	assert_int_equal(budget_charge(&b, lim, BUDGET_LINES, 1 << 30, 1,
	    NULL), 0);
	buf_free(&msg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_of),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_lines),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
