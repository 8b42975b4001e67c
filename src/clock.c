/*
 * clock.c: the real clocks, and a virtual clock with timers for tests
 * (clock.h).  A leaf: it needs only the C library and xmalloc.c.
 */
#include <sys/queue.h>

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "buf.h"
#include "clock.h"

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
