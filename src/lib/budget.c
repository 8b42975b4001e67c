/*
 * budget.c: a client's budget (budget.h).  The clock is the caller's
 * (ns), so that the lobby's virtual clock drives it in tests.
 */
#include "lib/budget.h"
#include "lib/buf.h"

#define BUDGET_NAME(e, s)	s,
static const char *const budget_names[] = { BUDGET_CLASSES(BUDGET_NAME) };
#undef BUDGET_NAME

/* "anonymous", "account", "trusted" or "admin". */
const char *
budget_class_name(enum budget_class c)
{
	return (c < BUDGET_NCLASSES ? budget_names[c] : "?");
}

/* The prefix of a class's settings: the trusted class's have none. */
const char *
budget_prefix(enum budget_class c)
{
	static const char *const pre[] = { "anonymous-", "account-", "",
	    "admin-" };

	return (c < BUDGET_NCLASSES ? pre[c] : "");
}

/*
 * The class of a client: admin over a trusted network over an account
 * over none.
 */
enum budget_class
budget_class_of(int trusted, int account, int admin)
{
	if (admin)
		return (BUDGET_ADMIN);
	if (trusted)
		return (BUDGET_TRUSTED);
	return (account ? BUDGET_ACCOUNT : BUDGET_ANON);
}

/* Drains b to now at per units a second (scaled by 1/60 for a minute). */
static void
bucket_drain(struct budget_bucket *b, uint64_t now, double per_ns)
{
	uint64_t	 out;

	if (b->at == 0 || now < b->at)
		b->at = now;
	out = (uint64_t)((double)(now - b->at) * per_ns);
	if (out == 0)
		return;
	b->used = out >= b->used ? 0 : b->used - out;
	b->at = now;
}

/*
 * Charges n of kind to b, whose class's limits are lim[b->cls], at now
 * (ns).  Returns 0 when it fits; else -1 with the refusal in msg (NULL:
 * none), "budget: KIND of a CLASS client: ...":
 * - output: n, the bytes held after a reply, is over the class's output
 *   (the caller drops the client: its replies are not read);
 * - commands: the bucket (rate a second, burst deep) has no command left;
 *   nothing is charged;
 * - log: n bytes are charged (a move was logged; 0: a new game asks);
 *   -1 while the bucket holds the class's log_rate or more;
 * - lines: n, the bytes of request lines in flight with the next one, is
 *   over the class's lines (the caller waits: it stops reading).
 * A limit of 0 is none: limits left zero (a lobby made without settings,
 * as the unit tests make one) refuse nothing; the settings' minimums keep
 * the daemon's above 0.
 */
int
budget_charge(struct budget *b, const struct budget_limits *lim,
    enum budget_kind kind, uint64_t n, uint64_t now, struct buf *msg)
{
	const struct budget_limits *l = &lim[b->cls];
	const char	*cls = budget_class_name(b->cls);
	const char	*pre = budget_prefix(b->cls);
	uint64_t	 wait;

	switch (kind) {
	case BUDGET_OUTPUT:
		if (l->output == 0 || n <= l->output)
			return (0);
		if (msg != NULL)
			buf_printf(msg, "budget: output of the %s class: "
			    "%llu bytes of replies unread, over %zu (setting "
			    "%smax-output)", cls, (unsigned long long)n,
			    l->output, pre);
		return (-1);
	case BUDGET_COMMANDS:
		if (l->rate == 0)
			return (0);
		bucket_drain(&b->cmds, now, (double)l->rate / 1e6);
		if (b->cmds.used + n * 1000 <= (uint64_t)l->burst * 1000) {
			b->cmds.used += n * 1000;
			return (0);
		}
		if (msg != NULL)
			buf_printf(msg, "budget: commands of the %s class: "
			    "at most %u commands per second, burst %u "
			    "(settings %srate, %sburst)", cls, l->rate,
			    l->burst, pre, pre);
		return (-1);
	case BUDGET_LINES:
		if (l->lines == 0 || n <= l->lines)
			return (0);
		if (msg != NULL)
			buf_printf(msg, "budget: lines of the %s class: %llu "
			    "bytes of request lines in flight, over %zu "
			    "(setting %smax-lines-in-flight)", cls,
			    (unsigned long long)n, l->lines, pre);
		return (-1);
	case BUDGET_LOG:
		if (l->log_rate == 0)
			return (0);
		bucket_drain(&b->log, now, (double)l->log_rate / 60e9);
		b->log.used += n;
		if (n > 0 || b->log.used < l->log_rate)
			return (0);
		wait = (b->log.used - l->log_rate) * 60 / l->log_rate + 1;
		if (msg != NULL)
			buf_printf(msg, "budget: log of the %s class: your "
			    "games logged %llu bytes, over the %zu a minute "
			    "of %smax-client-log-rate: retry in %llu s", cls,
			    (unsigned long long)b->log.used, l->log_rate,
			    pre, (unsigned long long)wait);
		return (-1);
	}
	return (0);
}
