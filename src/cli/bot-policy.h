/*
 * bot-policy.h: the decisions of `grundy bot` that depend on nothing but
 * their inputs, so they are unit tested (tests/unit/test-bot.c): the
 * reconnect backoff, the lockout wait, and which challenges to accept.
 */
#ifndef BOT_POLICY_H
#define BOT_POLICY_H

#include <stddef.h>
#include <stdint.h>

#define BOTPOL_TC_MOVES	40	/* moves a time control is judged over */

/* Which challenges `grundy bot --accept` takes. */
struct botpol_accept {
	const char	*families;	/* "nim,wythoff"; NULL: any */
	uint64_t	 min_tc_ms;	/* BASE + 40 * INC must reach it */
	int		 rated;		/* 0, 1, or -1: any */
};

uint64_t botpol_backoff_ms(unsigned int, uint64_t, uint64_t, uint32_t);
long	 botpol_retry_s(const char *);
int	 botpol_tc(const char *, uint64_t *, uint64_t *);
int	 botpol_challenge(const struct botpol_accept *, const char *, char *,
	    size_t, char *, size_t);

#endif /* BOT_POLICY_H */
