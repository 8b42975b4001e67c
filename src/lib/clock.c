/*
 * clock.c: the real clocks, and a virtual clock with timers for tests
 * (clock.h).  A leaf: it needs only the C library and xmalloc.c.
 */
#include <sys/queue.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/clock.h"

/* Returns monotonic milliseconds. */
uint64_t
clock_mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Returns wall-clock milliseconds since the epoch. */
uint64_t
clock_wall_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Returns monotonic nanoseconds. */
uint64_t
clock_mono_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/* Writes the n-digit decimal v at p. */
static void
clock_digits(char *p, unsigned int v, int n)
{
	while (n-- > 0) {
		p[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

/*
 * Writes ms (milliseconds since the Unix epoch, years 0..9999) as
 * ISO-8601 UTC with milliseconds, "2025-11-21T05:38:00.123Z": the form of
 * the log's timestamps and of the times the store keeps.
 */
void
clock_time_text(int64_t ms, char *out, size_t len)
{
	char		 t[CLOCK_TIME_LEN] = "0000-00-00T00:00:00.000Z";
	int64_t		 days, sec, frac, z, era, doe, yoe, doy, mp, y;

	frac = ms % 1000 < 0 ? ms % 1000 + 1000 : ms % 1000;
	sec = (ms - frac) / 1000;
	days = sec % 86400 < 0 ? (sec - sec % 86400) / 86400 - 1 :
	    (sec - sec % 86400) / 86400;
	sec -= days * 86400;
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	y = yoe + era * 400 + (mp >= 10);
	clock_digits(t, (unsigned int)(y < 0 ? 0 : y > 9999 ? 9999 : y), 4);
	clock_digits(t + 5, (unsigned int)(mp < 10 ? mp + 3 : mp - 9), 2);
	clock_digits(t + 8, (unsigned int)(doy - (153 * mp + 2) / 5 + 1), 2);
	clock_digits(t + 11, (unsigned int)(sec / 3600), 2);
	clock_digits(t + 14, (unsigned int)(sec / 60 % 60), 2);
	clock_digits(t + 17, (unsigned int)(sec % 60), 2);
	clock_digits(t + 20, (unsigned int)frac, 3);
	snprintf(out, len, "%s", t);
}

/* Writes the wall-clock time now as clock_time_text does. */
void
clock_now_text(char *out, size_t len)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	clock_time_text((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000,
	    out, len);
}

/* A timer of the virtual clock. */
struct clock_timer {
	TAILQ_ENTRY(clock_timer) entry;
	void		 (*fn)(void *);
	void		*fnarg;
	int		 armed;
	uint64_t	 due;		/* virtual ms */
	uint64_t	 seq;		/* arming order, for equal due times */
};
TAILQ_HEAD(vtimers, clock_timer);

/* A virtual clock. */
struct vclock {
	uint64_t	 now;
	uint64_t	 seq;
	struct vtimers	 timers;
};

/* Creates a virtual clock that reads start. */
struct vclock *
vclock_new(uint64_t start)
{
	struct vclock	*vc;

	vc = xcalloc(1, sizeof *vc);
	vc->now = start;
	TAILQ_INIT(&vc->timers);
	return (vc);
}

/* Frees a virtual clock; its timers must have been freed. */
void
vclock_free(struct vclock *vc)
{
	struct clock_timer *t;

	while ((t = TAILQ_FIRST(&vc->timers)) != NULL) {
		TAILQ_REMOVE(&vc->timers, t, entry);
		free(t);
	}
	free(vc);
}

/* Returns the virtual time. */
uint64_t
vclock_now(const struct vclock *vc)
{
	return (vc->now);
}

/* Returns the armed timer due first (by due time, then arming), or NULL. */
static struct clock_timer *
vclock_first(const struct vclock *vc)
{
	struct clock_timer *t, *best = NULL;

	TAILQ_FOREACH(t, &vc->timers, entry)
		if (t->armed && (best == NULL || t->due < best->due ||
		    (t->due == best->due && t->seq < best->seq)))
			best = t;
	return (best);
}

/*
 * Moves the clock ms forward, firing each timer that falls due on the
 * way at its due time; returns how many fired.
 */
size_t
vclock_advance(struct vclock *vc, uint64_t ms)
{
	struct clock_timer *t;
	uint64_t	 target = vc->now + ms;
	size_t		 n = 0;

	while ((t = vclock_first(vc)) != NULL && t->due <= target) {
		if (t->due > vc->now)
			vc->now = t->due;
		t->armed = 0;
		n++;
		t->fn(t->fnarg);
	}
	vc->now = target;
	return (n);
}

/* Moves the clock ms forward without firing anything (a stalled loop). */
void
vclock_stall(struct vclock *vc, uint64_t ms)
{
	vc->now += ms;
}

/*
 * Runs one round of timers: those due now that were armed before the
 * call, in order; returns how many fired.
 */
size_t
vclock_run(struct vclock *vc)
{
	struct clock_timer *t;
	uint64_t	 before = vc->seq;
	size_t		 n = 0;

	while ((t = vclock_first(vc)) != NULL && t->due <= vc->now &&
	    t->seq <= before) {
		t->armed = 0;
		n++;
		t->fn(t->fnarg);
	}
	return (n);
}

/* Returns 1 and the due time of the next armed timer, or 0 if none. */
int
vclock_next(const struct vclock *vc, uint64_t *due)
{
	struct clock_timer *t = vclock_first(vc);

	if (t == NULL)
		return (0);
	*due = t->due;
	return (1);
}

/* clock_ops.now of the virtual clock. */
static uint64_t
vclock_op_now(void *arg)
{
	return (((struct vclock *)arg)->now);
}

/* clock_ops.timer_new of the virtual clock. */
static struct clock_timer *
vclock_op_new(void *arg, void (*fn)(void *), void *fnarg)
{
	struct vclock	*vc = arg;
	struct clock_timer *t;

	t = xcalloc(1, sizeof *t);
	t->fn = fn;
	t->fnarg = fnarg;
	TAILQ_INSERT_TAIL(&vc->timers, t, entry);
	return (t);
}

/* clock_ops.arm of the virtual clock. */
static void
vclock_op_arm(void *arg, struct clock_timer *t, uint64_t ms)
{
	struct vclock	*vc = arg;

	t->armed = 1;
	t->due = vc->now + ms;
	t->seq = ++vc->seq;
}

/* clock_ops.cancel of the virtual clock. */
static void
vclock_op_cancel(void *arg, struct clock_timer *t)
{
	(void)arg;
	t->armed = 0;
}

/* clock_ops.timer_free of the virtual clock. */
static void
vclock_op_free(void *arg, struct clock_timer *t)
{
	struct vclock	*vc = arg;

	TAILQ_REMOVE(&vc->timers, t, entry);
	free(t);
}

/* Fills ops with the virtual clock's. */
void
vclock_ops(struct vclock *vc, struct clock_ops *ops)
{
	ops->arg = vc;
	ops->now = vclock_op_now;
	ops->timer_new = vclock_op_new;
	ops->arm = vclock_op_arm;
	ops->cancel = vclock_op_cancel;
	ops->timer_free = vclock_op_free;
}
