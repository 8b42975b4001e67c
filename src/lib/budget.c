/*
 * budget.c: a leaky bucket of bytes (budget.h).  The clock is the
 * caller's (ns), so that the lobby's virtual clock drives it in tests.
 */
#include "lib/budget.h"

/* Drains b to now at rate bytes a minute. */
static void
budget_drain(struct budget *b, uint64_t now, uint64_t rate)
{
	uint64_t	 out;

	if (b->at == 0 || now < b->at)
		b->at = now;
	out = (uint64_t)((double)(now - b->at) * (double)rate / 60e9);
	if (out == 0)
		return;
	b->used = out >= b->used ? 0 : b->used - out;
	b->at = now;
}

/* Charges n bytes at now (ns), draining at rate bytes a minute. */
void
budget_charge(struct budget *b, uint64_t n, uint64_t now, uint64_t rate)
{
	budget_drain(b, now, rate);
	b->used += n;
}

/*
 * Returns 0 while b is under rate (bytes a minute; 0: no limit) at now,
 * else the seconds until it is (at least 1).
 */
uint64_t
budget_over(struct budget *b, uint64_t now, uint64_t rate)
{
	if (rate == 0)
		return (0);
	budget_drain(b, now, rate);
	if (b->used < rate)
		return (0);
	return ((b->used - rate) * 60 / rate + 1);
}
