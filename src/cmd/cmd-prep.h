/*
 * cmd-prep.h: what a command of the loop had done on a worker first, its
 * preparation (cmd-prep.c, PROTOCOL.md §13.12: the loop never waits for
 * the database): a follower's read of the tournaments before standings,
 * crosstable and tournament show, tournament list's rows, tournament
 * create's stored tournament, the admin's other changes stored.  The loop takes them as the command runs
 * (cmd-tour.c); cmd_prep_free frees what was not taken.
 */
#ifndef CMD_PREP_H
#define CMD_PREP_H

#include "lib/buf.h"
#include "league/league.h"
#include "lobby/lobby.h"

struct proto_cmd;
struct session;
struct xtour_pre;

struct cmd_work {
	struct xtour_pre *xtour;	/* to apply (node/lnode.h), or NULL */
	int		 list;		/* 1: tournament list read, rc below */
	int		 list_rc;
	struct league_tournament *tl;
	size_t		 ntl;
	int		 create;	/* 1: stored (def); -1: refused (err) */
	struct league_tournament def;
	struct buf	 err;
	int		 tchange;	/* 1: tc checked (loop); 2: stored */
	struct lobby_tchange tc;	/* cancel, pause, resume, add, withdraw */
};

/* cmd-tour.c */
int	 cmd_tour_define(struct session *, int, char **,
	    struct league_tournament *, struct buf *);
void	 cmd_work_apply(struct session *);
int	 cmd_tour_tc(const struct proto_cmd *);
void	 cmd_work_clear(struct cmd_work *);

#endif /* CMD_PREP_H */
