/*
 * cmd-admin.c: the account life cycle and the admin commands (PROTOCOL.md
 * §13.9): passwd, account create|disable|enable|reset, connections, kick,
 * abort and adjudicate.
 *
 * passwd and account hash passwords or write the database, so they run
 * off the loop (CMD_F_DB) and touch only the league (a disabled account's
 * connections are dropped on the loop through lobby_disabled); the others
 * use the lobby and run on the loop (CMD_F_LOOP).  Every admin command is
 * refused, before anything else, to a connection without the admin role
 * (anonymous ones included), with the error of tournament.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league.h"
#include "lobby.h"
#include "log.h"
#include "session.h"

#define CMD_REASON_MAX	200	/* bytes of an admin's reason */

/* Refuses a command to a connection without the admin role. */
static int
cmd_need_admin(struct session *s, const char *cmd, struct buf *body)
{
	if (!s->admin) {
		buf_printf(body, "permission denied: %s needs the admin role",
		    cmd);
		return (-1);
	}
	return (0);
}

/*
 * Joins argv[from..argc) with spaces into reason; a reason is needed
 * unless optional ("WHAT needs a reason").  Returns 0, or -1 with body
 * filled in.
 */
static int
cmd_reason(const struct proto_cmd *c, const char *what, int from,
    int optional, char *reason, size_t len, struct buf *body)
{
	size_t	 n = 0, k;
	int	 i;

	reason[0] = '\0';
	if (from >= c->argc) {
		if (optional)
			return (0);
		buf_printf(body, "%s needs a reason", what);
		return (-1);
	}
	for (i = from; i < c->argc; i++) {
		k = strlen(c->argv[i]);
		if (n + k + (n > 0) >= len || n + k + (n > 0) >
		    CMD_REASON_MAX) {
			buf_printf(body, "reason too long: at most %d bytes",
			    CMD_REASON_MAX);
			return (-1);
		}
		if (n > 0)
			reason[n++] = ' ';
		memcpy(reason + n, c->argv[i], k + 1);
		n += k;
	}
	return (0);
}

/* passwd OLD NEW: changes the logged-in account's password. */
static int
cmd_passwd_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	char	 err[256], raw[256];
	const char *bad;

	/* As sent: the preprocessing cut at '#' and dropped controls. */
	if ((bad = league_pass_bad(session_raw_arg(s, 1, c->argv[1], raw,
	    sizeof raw))) != NULL) {
		buf_printf(body, "new %s", bad);
		return (CMD_ERROR);
	}
	if (league_passwd(s->league, s->account, c->argv[0], c->argv[1],
	    s->addr[0] != '\0' ? s->addr : "-", lobby_now_ms(), err,
	    sizeof err) != 0) {
		buf_puts(body, err);
		return (CMD_ERROR);
	}
	log_info("conn=%llu event=passwd account=%s",
	    (unsigned long long)s->id, s->account);
	buf_printf(body, "password changed for %s", s->account);
	return (CMD_OK);
}

/* account create|disable|enable|reset NAME ... (admin). */
static int
cmd_account_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	const char	*op = c->argv[0], *name = c->argv[1], *bad;
	char		 err[512], reason[CMD_REASON_MAX + 1], raw[256];
	int		 rv, from;

	from = strcmp(op, "create") == 0 || strcmp(op, "reset") == 0 ? 3 : 2;
	if (from == 3 && c->argc < 3) {
		buf_printf(body, "usage: account %s NAME PASSWORD [REASON...]",
		    op);
		return (CMD_ERROR);
	}
	if (strcmp(op, "create") != 0 && strcmp(op, "reset") != 0 &&
	    strcmp(op, "disable") != 0 && strcmp(op, "enable") != 0) {
		buf_printf(body, "unknown account operation %.32s: expected "
		    "create, disable, enable or reset", op);
		return (CMD_ERROR);
	}
	if (cmd_reason(c, "account disable", from, strcmp(op, "disable") != 0,
	    reason, sizeof reason, body) != 0)
		return (CMD_ERROR);
	if (from == 3 && (bad = league_pass_bad(session_raw_arg(s, 2,
	    c->argv[2], raw, sizeof raw))) != NULL) {
		buf_puts(body, bad);
		return (CMD_ERROR);
	}
	if (strcmp(op, "create") == 0) {
		if (s->conf->registration == SESSION_REG_CLOSED) {
			buf_puts(body, "registration is closed (setting "
			    "registration = closed)");
			return (CMD_ERROR);
		}
		rv = league_register(s->league, name, c->argv[2], err,
		    sizeof err);
	} else if (strcmp(op, "reset") == 0)
		rv = league_reset(s->league, name, c->argv[2], err, sizeof err);
	else
		rv = league_disable(s->league, name, strcmp(op, "disable") == 0 ?
		    reason : NULL, err, sizeof err);
	if (rv != 0) {
		buf_puts(body, err);
		return (CMD_ERROR);
	}
	log_info("conn=%llu event=admin-account op=%s name=%s admin=%s "
	    "reason=\"%s\"", (unsigned long long)s->id, op, name, s->account,
	    reason);
	if (strcmp(op, "disable") == 0 && s->lobby != NULL)
		lobby_disabled(s->lobby, name, reason);
	buf_printf(body, "%s %s", strcmp(op, "create") == 0 ? "registered" :
	    strcmp(op, "reset") == 0 ? "reset" : strcmp(op, "disable") == 0 ?
	    "disabled" : "enabled", name);
	return (CMD_OK);
}

/* connections (admin): one line per connection. */
static int
cmd_connections_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_admin(s, "connections", body) != 0)
		return (CMD_ERROR);
	if (s->lc == NULL) {
		buf_puts(body, "networked play is not available here");
		return (CMD_ERROR);
	}
	lobby_cmd_connections(s->lc, body);
	return (CMD_OK);
}

/* kick CONN_ID REASON... (admin). */
static int
cmd_kick_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	char	 reason[CMD_REASON_MAX + 1];

	if (cmd_need_admin(s, "kick", body) != 0)
		return (CMD_ERROR);
	if (s->lc == NULL) {
		buf_puts(body, "networked play is not available here");
		return (CMD_ERROR);
	}
	if (cmd_reason(c, "kick", 1, 0, reason, sizeof reason, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_kick(s->lc, c->argv[0], reason, body) == 0 ?
	    CMD_OK : CMD_ERROR);
}

/* abort GAME_ID REASON... | adjudicate GAME_ID 1|2 REASON... (admin). */
static int
cmd_end_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	char	 reason[CMD_REASON_MAX + 1];
	int	 adj = strcmp(c->name, "adjudicate") == 0, winner = 0;

	if (cmd_need_admin(s, c->name, body) != 0)
		return (CMD_ERROR);
	if (s->lc == NULL) {
		buf_puts(body, "networked play is not available here");
		return (CMD_ERROR);
	}
	if (adj) {
		if (strcmp(c->argv[1], "1") != 0 &&
		    strcmp(c->argv[1], "2") != 0) {
			buf_puts(body, "adjudicate: the winner is seat 1 or 2");
			return (CMD_ERROR);
		}
		winner = c->argv[1][0] - '0';
	}
	if (cmd_reason(c, c->name, adj ? 2 : 1, 0, reason, sizeof reason,
	    body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_end(s->lc, c->argv[0], winner, reason, body) == 0 ?
	    CMD_OK : CMD_ERROR);
}

const struct cmd_entry cmd_passwd_entry = {
	.name = "passwd", .min_args = 2, .max_args = 2,
	.flags = CMD_F_HEAVY | CMD_F_DB | CMD_F_LEAGUE | CMD_F_LOGIN,
	.usage = "OLD NEW", .exec = cmd_passwd_exec
};
const struct cmd_entry cmd_account_entry = {
	.name = "account", .min_args = 2, .max_args = -1,
	.flags = CMD_F_HEAVY | CMD_F_DB | CMD_F_ADMIN | CMD_F_LEAGUE,
	.usage = "create NAME PASSWORD | disable NAME "
	    "REASON... | enable NAME | reset NAME PASSWORD",
	.exec = cmd_account_exec
};
const struct cmd_entry cmd_connections_entry = {
	"connections", 0, 0, CMD_F_LOOP, "", cmd_connections_exec
};
const struct cmd_entry cmd_kick_entry = {
	"kick", 1, -1, CMD_F_LOOP, "CONN_ID REASON...", cmd_kick_exec
};
const struct cmd_entry cmd_abort_entry = {
	"abort", 1, -1, CMD_F_LOOP, "GAME_ID REASON...", cmd_end_exec
};
const struct cmd_entry cmd_adjudicate_entry = {
	"adjudicate", 2, -1, CMD_F_LOOP, "GAME_ID 1|2 REASON...",
	cmd_end_exec
};
