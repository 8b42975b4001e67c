/*
 * session-conf.h: the settings a session needs (limits, accounts,
 * sockets), plain data: conf.c fills them from grundyd's settings, the
 * session and the server read them.
 */
#ifndef SESSION_CONF_H
#define SESSION_CONF_H

#include <stddef.h>

#include "lib/budget.h"
#include "solver/game.h"

struct buf;

/* Settings a session needs; owned by the server, changed on reload. */
struct session_conf {
	struct game_limits lim;
	size_t		 max_undo;	/* positions kept for undo */
	size_t		 max_undo_bytes; /* and their estimated memory */
	size_t		 max_tables;	/* the table cache: rows */
	size_t		 max_tables_bytes; /* and bytes */
	unsigned int	 register_rate;	/* accounts per hour per address */
	size_t		 max_winning;	/* cap on lines of `winning` */
	unsigned long	 max_plies;	/* a logged game's, then adjudicated */
	size_t		 max_game_bytes; /* its logged bytes, then the same */
	/* Each class's budget (lib/budget.h): output, commands, log. */
	struct budget_limits budget[BUDGET_NCLASSES];
	const char	*admins;	/* "alice,bob": the admin role */
	unsigned int	 login_failures;	/* then the connection closes */
	int		 registration;	/* SESSION_REG_* */
	/* Dead-peer detection on client sockets (TCP keepalive). */
	unsigned int	 keepalive_idle;	/* s before the first probe */
	unsigned int	 keepalive_interval;	/* s between probes */
	unsigned int	 keepalive_count;	/* unanswered probes, then drop */
	unsigned int	 user_timeout;		/* ms unacked data, then drop */
	/* Appends "KEY VALUE" for every limit in force (set by conf.c). */
	void		 (*limits)(const struct session_conf *, struct buf *);
};

/* registration = open | closed | admin. */
#define SESSION_REG_OPEN	0	/* anyone may register */
#define SESSION_REG_CLOSED	1	/* no new accounts at all */
#define SESSION_REG_ADMIN	2	/* only admins create accounts */

#endif /* SESSION_CONF_H */
