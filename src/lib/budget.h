/*
 * budget.h: a leaky bucket of bytes (max-client-log-rate, PROTOCOL.md
 * §12.1): what a client has caused, draining at a rate per minute.
 */
#ifndef BUDGET_H
#define BUDGET_H

#include <stdint.h>

struct budget {
	uint64_t	 used;		/* bytes not drained yet */
	uint64_t	 at;		/* when it last drained (ns), 0: never */
};

/* The refusal of a client over max-client-log-rate: used, rate, wait. */
#define BUDGET_LOG_MSG	"log budget: your games logged %llu bytes, over " \
	"the %llu a minute of max-client-log-rate: retry in %llu s"

void	 budget_charge(struct budget *, uint64_t, uint64_t, uint64_t);
uint64_t budget_over(struct budget *, uint64_t, uint64_t);

#endif /* BUDGET_H */
