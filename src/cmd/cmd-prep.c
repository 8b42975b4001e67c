/*
 * cmd-prep.c: a command's preparation on a worker (PROTOCOL.md §13.12:
 * the loop never waits for the database).  A command of the loop whose
 * answer needs the database first is sent to a worker (cmd_prep_needed,
 * on the loop), which does that part (cmd_prep_run); then the loop runs
 * the line, taking what the worker did (cmd-lobby.c, cmd-tour.c,
 * cmd-prep.h):
 *
 *   - seek, challenge: the game parsed (and drawn); on a node, its rows
 *     held (lobby-xhold.c);
 *   - watch of another node's game: its lease and record; games live: the
 *     cluster's games;
 *   - standings, crosstable, tournament show on a node that does not
 *     schedule the tournaments: the tournament from the log
 *     (lobby-xtread.c);
 *   - tournament list: the league's rows;
 *   - tournament create (an admin, on the node that may create one): the
 *     definition parsed, checked and stored (the loop adds it to the
 *     schedule: a failed store changes nothing); tournament cancel,
 *     pause, resume, add and withdraw: checked on the loop, stored there,
 *     applied on the loop (lobby-tchange.c);
 *   - ratings: on PostgreSQL, the ratings other nodes' games changed
 *     (store_ratings_sync).
 *
 * While the worker waits for the database, the connection waits (its
 * next lines too); the loop answers the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-prep.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "proto/proto.h"
#include "session/session.h"

/* The lines prepared (cmd_prep_parse's answer). */
enum prep_kind {
	PREP_NONE = -1,
	PREP_SEEK = 0,		/* the arguments to skip before the game: 0 */
	PREP_CHALLENGE = 1,	/* 1 */
	PREP_WATCH,
	PREP_LIVE,
	PREP_TREAD,		/* standings, crosstable, tournament show */
	PREP_TLIST,
	PREP_TCREATE,
	PREP_TCHANGE,		/* cancel, pause, resume, add, withdraw */
	PREP_RATINGS,
};

/*
 * Parses a copy of a request line into cmd (the caller frees cmd and
 * *copy); returns the line's kind, PREP_NONE for any other line.
 */
static enum prep_kind
cmd_prep_parse(const char *line, size_t len, struct proto_cmd *cmd,
    char **copy)
{
	const char	*why;

	*copy = xmalloc(len + 1);
	memcpy(*copy, line, len);
	(*copy)[len] = '\0';
	proto_preprocess(*copy, len);
	if (proto_parse(*copy, cmd, &why) != 1)
		return (PREP_NONE);
	if (strcmp(cmd->name, "seek") == 0)
		return (PREP_SEEK);
	if (strcmp(cmd->name, "challenge") == 0)
		return (PREP_CHALLENGE);
	if (strcmp(cmd->name, "watch") == 0 && cmd->argc == 1)
		return (PREP_WATCH);
	if (strcmp(cmd->name, "games") == 0 && cmd->argc == 1 &&
	    strcmp(cmd->argv[0], "live") == 0)
		return (PREP_LIVE);
	if ((strcmp(cmd->name, "standings") == 0 && (cmd->argc == 1 ||
	    cmd->argc == 2)) || (strcmp(cmd->name, "crosstable") == 0 &&
	    cmd->argc == 1))
		return (PREP_TREAD);
	if (strcmp(cmd->name, "ratings") == 0 && cmd->argc == 0)
		return (PREP_RATINGS);
	if (strcmp(cmd->name, "tournament") != 0 || cmd->argc < 1)
		return (PREP_NONE);
	if (strcmp(cmd->argv[0], "show") == 0 && cmd->argc == 2)
		return (PREP_TREAD);
	if (strcmp(cmd->argv[0], "list") == 0 && cmd->argc == 1)
		return (PREP_TLIST);
	if (strcmp(cmd->argv[0], "create") == 0)
		return (PREP_TCREATE);
	if (cmd_tour_tc(cmd) >= 0)
		return (PREP_TCHANGE);
	return (PREP_NONE);
}

/* The session's work, made empty (what a line before left is freed). */
static struct cmd_work *
cmd_work(struct session *s)
{
	if (s->work == NULL) {
		s->work = xcalloc(1, sizeof *s->work);
		buf_init(&s->work->err);
	}
	cmd_work_clear(s->work);
	return (s->work);
}

/* On the loop: checks an admin's change of a tournament (a refused one
 * is refused by the line, without a worker); returns 0, or -1. */
static int
cmd_prep_change(struct session *s, const struct proto_cmd *cmd,
    struct buf *err)
{
	struct cmd_work	*w = cmd_work(s);

	w->tc.op = (enum lobby_tc)cmd_tour_tc(cmd);
	snprintf(w->tc.name, sizeof w->tc.name, "%s", cmd->argv[1]);
	snprintf(w->tc.player, sizeof w->tc.player, "%s", cmd->argc > 2 ?
	    cmd->argv[2] : "");
	w->tchange = 1;
	return (lobby_tour_change(s->lc, &w->tc, err));
}

/*
 * On the loop, before a line runs: returns 1 if it needs a worker first
 * (above), else 0.  A follower's read of a tournament is made here (the
 * loop knows whether the copy is fresh); tournament create is prepared
 * only for an admin on a node that may create it (else the loop refuses
 * it at once).
 */
int
cmd_prep_needed(struct session *s, const struct cmd_entry *ce,
    const char *line, size_t len)
{
	struct proto_cmd cmd;
	struct buf	 err;
	char		*copy;
	enum prep_kind	 k;
	int		 rv;

	if (s->lc == NULL)
		return (0);
	/* Most lines are none of them: their head said so (session_heavy). */
	if (ce == NULL || !(ce->flags & CMD_F_PREP))
		return (0);
	k = cmd_prep_parse(line, len, &cmd, &copy);
	switch (k) {
	case PREP_WATCH:	/* another node's game: read on a worker */
		rv = lobby_xwatch_needs_fetch(s->lc, cmd.argv[0]);
		break;
	case PREP_TREAD:
		rv = (cmd_work(s)->xtour = lobby_xtour_pre(s->lobby,
		    cmd.argv[strcmp(cmd.name, "tournament") == 0])) != NULL;
		break;
	case PREP_TLIST:
	case PREP_RATINGS:
		rv = s->league != NULL;
		break;
	case PREP_TCREATE:
	case PREP_TCHANGE:
		buf_init(&err);
		rv = s->league != NULL && lobby_client_admin(s->lc) &&
		    lobby_xtour_refuse(s->lc, &err) == 0 &&
		    (k == PREP_TCREATE || cmd_prep_change(s, &cmd, &err) == 0);
		buf_free(&err);
		break;
	default:
		rv = k != PREP_NONE;
		break;
	}
	proto_cmd_free(&cmd);
	free(copy);
	return (rv);
}

/* On a worker: tournament create's definition, parsed and stored. */
static void
cmd_prep_create(struct session *s, int argc, char **argv)
{
	struct cmd_work	*w = s->work;
	char		 msg[256];

	if (cmd_tour_define(s, argc, argv, &w->def, &w->err) != 0) {
		w->create = -1;
		return;
	}
	if (league_tournament_create(s->league, &w->def, msg,
	    sizeof msg) != 0) {
		buf_puts(&w->err, msg);
		w->create = -1;
		return;
	}
	w->create = 1;
}

/* On a worker: the part of the line that needs the database (above). */
void
cmd_prep_run(struct session *s, const char *line, size_t len)
{
	struct proto_cmd cmd;
	char		*copy;
	enum prep_kind	 k;

	if (s->prep == NULL)
		s->prep = xcalloc(1, sizeof *s->prep);
	switch ((k = cmd_prep_parse(line, len, &cmd, &copy))) {
	case PREP_WATCH:
		lobby_xwatch_prefetch(s->lc, cmd.argv[0]);
		break;
	case PREP_LIVE:		/* games live: the cluster's */
		lobby_where_live_prefetch(s->lc);
		break;
	case PREP_SEEK:
	case PREP_CHALLENGE:
		lobby_prepare(&s->conf->lim, cmd.argc, cmd.argv, (int)k,
		    s->prep);
		if (k == PREP_SEEK)	/* on a node, its rows: lobby-xhold.c */
			lobby_xnode_prepare(s->lc, cmd.argc, cmd.argv,
			    s->prep);
		break;
	case PREP_TREAD:
		if (s->work != NULL && s->work->xtour != NULL)
			lobby_xtour_pre_read(s->work->xtour);
		break;
	case PREP_TLIST:
		cmd_work(s)->list = 1;
		s->work->list_rc = league_tournaments(s->league, 1,
		    &s->work->tl, &s->work->ntl);
		break;
	case PREP_TCREATE:
		cmd_work(s);
		cmd_prep_create(s, cmd.argc - 1, cmd.argv + 1);
		break;
	case PREP_TCHANGE:
		if (s->work != NULL && s->work->tchange == 1) {
			lobby_tour_change_store(s->lobby, &s->work->tc);
			s->work->tchange = 2;
		}
		break;
	case PREP_RATINGS:
		lobby_ratings_sync(s->lobby);
		break;
	case PREP_NONE:
		break;
	}
	proto_cmd_free(&cmd);
	free(copy);
}

/* Frees a session's preparation. */
void
cmd_prep_free(struct session *s)
{
	lobby_prep_clear(s->prep);
	free(s->prep);
	s->prep = NULL;
	if (s->work != NULL) {
		cmd_work_clear(s->work);
		buf_free(&s->work->err);
		free(s->work);
		s->work = NULL;
	}
}
