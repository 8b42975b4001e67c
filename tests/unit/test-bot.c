/*
 * test-bot.c: unit tests of the pure decisions of `grundy bot`
 * (src/cli/bot-policy.c): reconnect backoff, the locked-login wait, and the
 * --accept filters.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "cli/bot-policy.h"

/* Doubling from the base up to the cap, jittered in the upper half. */
static void
test_backoff(void **state)
{
	unsigned int	 i;

	(void)state;
	/* rnd 0: the lowest draw, half the step; rnd ~0: at most the step. */
	assert_int_equal(botpol_backoff_ms(0, 500, 30000, 0), 250);
	assert_int_equal(botpol_backoff_ms(0, 500, 30000, 250), 500);
	assert_int_equal(botpol_backoff_ms(0, 500, 30000, 251), 250);
	assert_int_equal(botpol_backoff_ms(1, 500, 30000, 0), 500);
	assert_int_equal(botpol_backoff_ms(2, 500, 30000, 0), 1000);
	assert_int_equal(botpol_backoff_ms(6, 500, 30000, 0), 15000);
	assert_int_equal(botpol_backoff_ms(7, 500, 30000, 0), 15000);
	assert_int_equal(botpol_backoff_ms(7, 500, 30000, 15000), 30000);
	assert_int_equal(botpol_backoff_ms(4000000000U, 500, 30000, 7), 15007);
	/* A base over the cap is the step. */
	assert_int_equal(botpol_backoff_ms(3, 50000, 30000, 0), 25000);
	/* Every draw is within [step/2, step]. */
	for (i = 0; i < 1000; i++) {
		uint64_t d = botpol_backoff_ms(i % 10, 500, 30000,
		    i * 2654435761U);
		uint64_t step = 500ULL << (i % 10 < 6 ? i % 10 : 6);

		if (step > 30000)
			step = 30000;
		assert_true(d >= step / 2 && d <= step);
	}
}

/* "retry in N s" from a locked login. */
static void
test_retry(void **state)
{
	(void)state;
	assert_int_equal(botpol_retry_s("too many failed logins for alice: "
	    "retry in 30 s"), 30);
	assert_int_equal(botpol_retry_s("locked: retry in 0 s"), 0);
	assert_int_equal(botpol_retry_s("wrong name or password"), -1);
	assert_int_equal(botpol_retry_s("retry in x s"), -1);
	assert_int_equal(botpol_retry_s("retry in 5 minutes"), -1);
	assert_int_equal(botpol_retry_s("retry in 999999 s"), -1);
}

/* Judges one challenge line; returns the verdict, fills why. */
static int
judge(const struct botpol_accept *f, const char *line, char *why)
{
	char	 id[32];

	return (botpol_challenge(f, line, id, sizeof id, why, 256));
}

/* Families, the time-control minimum, rated or not. */
static void
test_accept(void **state)
{
	static const struct {
		const char	*fam;
		uint64_t	 min;
		int		 rated;
		const char	*tail;
		int		 want;
		const char	*why;
	} cases[] = {
		{ "nim,wythoff", 0, -1, "tc=1 rated=0 seat=1 wythoff 3 5", 1,
		    NULL },
		{ "nim,wythoff", 0, -1, "tc=1 rated=0 seat=1 sum nim 1 + nim 2",
		    0, "game sum is not one of nim,wythoff" },
		{ "nim,wythoff", 0, -1, "tc=1 rated=0 seat=1 ni 3", 0, NULL },
		/* BASE + 40 * INC must reach the minimum. */
		{ NULL, 5000, -1, "tc=1 rated=0 seat=1 nim 3", 0,
		    "time control 1+0 is under" },
		{ NULL, 5000, -1, "tc=1000+100 rated=0 seat=1 nim 3", 1, NULL },
		{ NULL, 5000, -1, "tc=1000+99 rated=0 seat=1 nim 3", 0, NULL },
		{ NULL, 0, 1, "tc=9000 rated=0 seat=1 nim 3", 0,
		    "an unrated game" },
		{ NULL, 0, 1, "tc=9000 rated=1 seat=1 nim 3", 1, NULL },
		{ NULL, 0, 0, "tc=9000 rated=1 seat=1 nim 3", 0, "a rated game" },
	};
	struct botpol_accept f = { NULL, 0, -1 };
	char		 id[32], why[256], line[256];
	uint64_t	 base, inc;
	size_t		 i;

	(void)state;
	assert_int_equal(botpol_challenge(&f, "event challenge 12 bob "
	    "tc=1000+5 rated=1 seat=2 nim 3 4 5", id, sizeof id, why,
	    sizeof why), 1);
	assert_string_equal(id, "12");
	assert_int_equal(botpol_tc("1000+5", &base, &inc), 0);
	assert_true(base == 1000 && inc == 5);
	assert_int_equal(botpol_tc("1000", &base, &inc), 0);
	assert_true(base == 1000 && inc == 0);
	assert_int_equal(botpol_tc("1000+", &base, &inc), -1);
	assert_int_equal(botpol_tc("x", &base, &inc), -1);
	/* Each case: families, min tc, rated, the line's tail, verdict, why. */
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		f.families = cases[i].fam;
		f.min_tc_ms = cases[i].min;
		f.rated = cases[i].rated;
		snprintf(line, sizeof line, "event challenge 1 bob %s",
		    cases[i].tail);
		assert_int_equal(judge(&f, line, why), cases[i].want);
		if (cases[i].why != NULL)
			assert_non_null(strstr(why, cases[i].why));
	}
	/* Not a challenge, or one without a game or time control. */
	assert_int_equal(judge(&f, "event start 3 a b", why), -1);
	assert_int_equal(judge(&f, "event challenge 3 bob rated=1 seat=1 "
	    "nim 3", why), -1);
	assert_int_equal(judge(&f, "event challenge 3 bob tc=9000", why), -1);
}

TU_MAIN("bot",
    cmocka_unit_test(test_backoff),
    cmocka_unit_test(test_retry),
    cmocka_unit_test(test_accept))
