/*
 * clock.h: the daemon's clocks, and timers behind a seam.  A module that
 * keeps time (the lobby) is given a struct clock_ops: the real one runs
 * on libevent (clock-event.c), a test's runs on a virtual clock (below)
 * that moves only when the test says so.
 */
#ifndef CLOCK_H
#define CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic milliseconds: game clocks, lockouts, move times. */
uint64_t clock_mono_ms(void);
/* Wall-clock milliseconds since the epoch. */
uint64_t clock_wall_ms(void);
/* Monotonic nanoseconds: short waits (the store's batches and runs). */
uint64_t clock_mono_ns(void);

/* ISO-8601 UTC with milliseconds, "2025-11-21T05:38:00.123Z", and NUL. */
#define CLOCK_TIME_LEN	25
/* Writes ms since the epoch (years 0..9999) in that form. */
void	 clock_time_text(int64_t, char *, size_t);
/* Writes the wall-clock time now in that form (the log's timestamps). */
void	 clock_now_text(char *, size_t);

struct clock_timer;

/* A clock and one-shot timers on it. */
struct clock_ops {
	void		*arg;
	/* The time now, in milliseconds (clock_mono_ms for the real one). */
	uint64_t	 (*now)(void *arg);
	/* A new timer, not armed, that calls fn(fnarg) when it fires. */
	struct clock_timer *(*timer_new)(void *arg, void (*fn)(void *),
			    void *fnarg);
	/* Arms a timer to fire once, ms from now (armed: re-armed). */
	void		 (*arm)(void *arg, struct clock_timer *, uint64_t ms);
	/* Disarms a timer (not armed: nothing). */
	void		 (*cancel)(void *arg, struct clock_timer *);
	/* Frees a timer (armed or not). */
	void		 (*timer_free)(void *arg, struct clock_timer *);
};

struct event_base;
/* Fills ops with the real clock and libevent timers on base. */
void	 clock_event_ops(struct event_base *, struct clock_ops *);

/*
 * A virtual clock for tests: its time starts where it is told and moves
 * only by vclock_advance, which fires the timers that fall due on the
 * way, each at its own due time, in order (the same due time: in the
 * order they were armed).  A timer armed for 0 ms from a callback fires
 * in the same advance.  vclock_stall and vclock_run model a loop that was
 * late: the time moves on with no timer run, then one round of the loop
 * runs the timers then due, but not those they arm for 0 ms (on a real
 * loop those wait for the next round, after its reads).
 */
struct vclock;
struct vclock *vclock_new(uint64_t);
void	 vclock_free(struct vclock *);
void	 vclock_ops(struct vclock *, struct clock_ops *);
uint64_t vclock_now(const struct vclock *);
size_t	 vclock_advance(struct vclock *, uint64_t);
void	 vclock_stall(struct vclock *, uint64_t);
size_t	 vclock_run(struct vclock *);
int	 vclock_next(const struct vclock *, uint64_t *);

#endif /* CLOCK_H */
