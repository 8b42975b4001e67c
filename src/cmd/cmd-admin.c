/*
 * cmd-admin.c: the account life cycle (PROTOCOL.md §13.9): passwd and
 * account create|disable|enable|reset; the admin's lobby commands
 * (connections, kick, abort, adjudicate) are in cmd-lobby.c.
 *
 * passwd and account hash passwords or write the database, so they run
 * off the loop (CMD_F_DB) and touch only the league (a disabled account's
 * connections are dropped on the loop through lobby_disabled).  Every
 * admin command is refused, before anything else, to a connection without
 * the admin role (anonymous ones included): its CMD_F_ADMIN flag, checked
 * by session.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/clock.h"
#include "cmd/cmd-admin.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lib/log.h"
#include "session/session.h"

/*
 * Joins argv[from..argc) with spaces into reason; a reason is needed
 * unless optional ("WHAT needs a reason").  Returns 0, or -1 with body
 * filled in.
 */
int
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

/*
 * Refuses password argument argi when the client's own text of it, before
 * the preprocessing cut at '#' or dropped control characters, is not a
 * valid password: the reason goes to body after prefix.  Returns -1 then,
 * else 0.
 */
int
cmd_pass_check(struct session *s, const struct proto_cmd *c, int argi,
    const char *prefix, struct buf *body)
{
	char		 raw[256];
	const char	*bad;

	if ((bad = league_pass_bad(session_raw_arg(s, argi, c->argv[argi],
	    raw, sizeof raw))) == NULL)
		return (0);
	buf_printf(body, "%s%s", prefix, bad);
	return (-1);
}

/* passwd OLD NEW: changes the logged-in account's password. */
static int
cmd_passwd_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	char	 err[256];

	if (cmd_pass_check(s, c, 1, "new ", body) != 0)
		return (CMD_ERROR);
	if (league_passwd(s->league, s->account, c->argv[0], c->argv[1],
	    s->addr[0] != '\0' ? s->addr : "-", clock_mono_ms(), err,
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
	const char	*op = c->argv[0], *name = c->argv[1];
	char		 err[512], reason[CMD_REASON_MAX + 1];
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
	if (from == 3 && cmd_pass_check(s, c, 2, "", body) != 0)
		return (CMD_ERROR);
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
