/*
 * budget.h: one budget per client (PROTOCOL.md §9).  A client is of a
 * class (anonymous, account, trusted network, admin); the class's limits
 * bound the replies held for it, the commands it sends (a rate with a
 * burst), the bytes its games cause the log to store (a rate a minute)
 * and the bytes of request lines it has in flight on the workers.  budget_charge() is the one place a path charges before it
 * does the work.
 */
#ifndef BUDGET_H
#define BUDGET_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/* The classes, weakest first: enum name, the name in settings. */
#define BUDGET_CLASSES(X)						\
	X(BUDGET_ANON, "anonymous")					\
	X(BUDGET_ACCOUNT, "account")					\
	X(BUDGET_TRUSTED, "trusted")					\
	X(BUDGET_ADMIN, "admin")

#define BUDGET_ENUM(e, s)	e,
enum budget_class { BUDGET_CLASSES(BUDGET_ENUM) BUDGET_NCLASSES };
#undef BUDGET_ENUM

/* What a path charges. */
enum budget_kind {
	BUDGET_OUTPUT,		/* n: bytes of replies held, after this one */
	BUDGET_COMMANDS,	/* n: commands about to run */
	BUDGET_LOG,		/* n: bytes its game just logged (0: a check
				 * before a new game) */
	BUDGET_LINES,		/* n: bytes of request lines its address has
				 * in flight, with the next one */
};

/* A class's limits (settings, conf.c). */
struct budget_limits {
	size_t		 output;	/* bytes of unread replies held */
	unsigned int	 rate;		/* commands a second */
	unsigned int	 burst;		/* commands at once above the rate */
	size_t		 log_rate;	/* bytes logged a minute */
	size_t		 lines;		/* bytes of lines in flight */
};

/* A leaky bucket: what was charged and not drained yet. */
struct budget_bucket {
	uint64_t	 used;
	uint64_t	 at;		/* when it last drained (ns), 0: never */
};

/* A client's budget. */
struct budget {
	enum budget_class cls;
	struct budget_bucket cmds;	/* commands, in 1/1000 */
	struct budget_bucket log;	/* bytes logged */
};

const char *budget_class_name(enum budget_class);
const char *budget_prefix(enum budget_class);
enum budget_class budget_class_of(int, int, int);
int	 budget_charge(struct budget *, const struct budget_limits *,
	    enum budget_kind, uint64_t, uint64_t, struct buf *);

#endif /* BUDGET_H */
