/*
 * clock-event.c: the real clock_ops (clock.h): clock_mono_ms, and
 * one-shot timers on a libevent base.
 */
#include <sys/time.h>

#include <stdint.h>
#include <stdlib.h>

#include <event2/event.h>

#include "lib/buf.h"
#include "lib/clock.h"

/* A timer on libevent. */
struct clock_timer {
	struct event	*ev;
	void		 (*fn)(void *);
	void		*fnarg;
};

/* libevent's callback: runs the timer's function. */
static void
clock_event_cb(evutil_socket_t fd, short what, void *arg)
{
	struct clock_timer *t = arg;

	(void)fd;
	(void)what;
	t->fn(t->fnarg);
}

/* clock_ops.now: the monotonic clock. */
static uint64_t
clock_event_now(void *arg)
{
	(void)arg;
	return (clock_mono_ms());
}

/* clock_ops.timer_new on the base. */
static struct clock_timer *
clock_event_new(void *arg, void (*fn)(void *), void *fnarg)
{
	struct clock_timer *t;

	t = xcalloc(1, sizeof *t);
	t->fn = fn;
	t->fnarg = fnarg;
	t->ev = evtimer_new((struct event_base *)arg, clock_event_cb, t);
	if (t->ev == NULL)
		abort();
	return (t);
}

/* clock_ops.arm: evtimer_add (re-arms an armed one). */
static void
clock_event_arm(void *arg, struct clock_timer *t, uint64_t ms)
{
	struct timeval	 tv;

	(void)arg;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(t->ev, &tv);
}

/* clock_ops.cancel: evtimer_del. */
static void
clock_event_cancel(void *arg, struct clock_timer *t)
{
	(void)arg;
	evtimer_del(t->ev);
}

/* clock_ops.timer_free. */
static void
clock_event_free(void *arg, struct clock_timer *t)
{
	(void)arg;
	event_free(t->ev);
	free(t);
}

/* Fills ops with the real clock and libevent timers on base. */
void
clock_event_ops(struct event_base *base, struct clock_ops *ops)
{
	ops->arg = base;
	ops->now = clock_event_now;
	ops->timer_new = clock_event_new;
	ops->arm = clock_event_arm;
	ops->cancel = clock_event_cancel;
	ops->timer_free = clock_event_free;
}
