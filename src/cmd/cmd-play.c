/*
 * cmd-play.c: the account commands of networked play (PROTOCOL.md §13):
 * register, login, whoami and player statistics.  The lobby's commands
 * (seek, challenge, watch, tournaments, ...) are in cmd-lobby.c.
 *
 * register, login and player hash passwords or read the database, so they
 * run off the loop (CMD_F_DB) and only touch the league.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/clock.h"
#include "lib/addrrate.h"
#include "cmd/cmd-admin.h"
#include "cmd/cmd-history.h"
#include "league/league.h"
#include "proto/conf.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "session/session.h"

/* Refuses account commands when there is no database. */
static int
cmd_need_league(struct session *s, struct buf *body)
{
	if (s->league == NULL) {
		buf_puts(body, "accounts need the game log (--db)");
		return (-1);
	}
	return (0);
}

/* register NAME PASSWORD: creates an account. */
static int
cmd_register_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	char	 err[256];
	unsigned int retry = 0;

	if (s->conf->registration == SESSION_REG_CLOSED) {
		buf_puts(body, "registration is closed (setting registration "
		    "= closed)");
		return (CMD_ERROR);
	}
	if (s->conf->registration == SESSION_REG_ADMIN && !s->admin) {
		buf_puts(body, "registration is by admins only (setting "
		    "registration = admin): ask an admin");
		return (CMD_ERROR);
	}
	if (cmd_pass_check(s, c, 1, "", body) != 0)
		return (CMD_ERROR);
	if (conf_admins_has(s->conf->admins, c->argv[0])) {
		buf_printf(body, "name %s is reserved for an admin (setting "
		    "admins): the operator creates it with grundyd --add-admin",
		    c->argv[0]);
		return (CMD_ERROR);
	}
	if (s->regrate != NULL && s->addr[0] != '\0' &&
	    !addrrate_take(s->regrate, s->addr, s->conf->register_rate,
	    clock_mono_ms(), &retry)) {
		buf_printf(body, "too many accounts created from your address: "
		    "at most %u an hour (register-rate); retry in %u s",
		    s->conf->register_rate, retry);
		return (CMD_ERROR);
	}
	if (league_register(s->league, c->argv[0], c->argv[1], err,
	    sizeof err) != 0) {
		buf_puts(body, err);
		return (CMD_ERROR);
	}
	buf_printf(body, "registered %s", c->argv[0]);
	return (CMD_OK);
}

/* login NAME PASSWORD: becomes an account; failures are limited. */
static int
cmd_login_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	char		 err[256];
	long		 r = LOBBY_RATING_START;
	unsigned long	 n = 0;
	int		 rv;

	rv = league_login_from(s->league, c->argv[0], c->argv[1],
	    s->addr[0] != '\0' ? s->addr : "-", clock_mono_ms(), err,
	    sizeof err);
	if (rv != 0) {
		buf_puts(body, err);
		if (rv == -1 && ++s->login_failed >= s->conf->login_failures &&
		    s->conf->login_failures > 0) {
			buf_puts(body, ": closing");
			return (CMD_ERROR_QUIT);
		}
		return (CMD_ERROR);
	}
	s->login_failed = 0;
	snprintf(s->account, sizeof s->account, "%s", c->argv[0]);
	/* The stored role, granted by the operator, never the name. */
	s->admin = league_role(s->league, s->account) == 1;
	s->login_changed = 1;
	s->login_live = 1;
	if (s->lc != NULL)	/* on a node: its games elsewhere */
		lobby_where_fetch(s->lc, s->account);
	if (s->lobby != NULL)
		lobby_rating(s->lobby, s->account, &r, &n);
	buf_printf(body, "account %s\nrole %s\nrating %ld", s->account,
	    s->admin ? "admin" : "player", r);
	return (CMD_OK);
}

/* whoami: this connection's account and role. */
static int
cmd_whoami_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (s->account[0] == '\0')
		buf_puts(body, "account -");
	else
		buf_printf(body, "account %s\nrole %s", s->account,
		    s->admin ? "admin" : "player");
	return (CMD_OK);
}

/* player NAME: rating, results, optimal-move rate, first throws. */
static int
cmd_player_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct league_player p;
	struct lobby_rating_row r;
	char		 err[512], rating[64];

	if (cmd_need_league(s, body) != 0)
		return (CMD_ERROR);
	if (league_player(s->league, c->argv[0], &p, err, sizeof err) != 0) {
		buf_puts(body, err);
		return (CMD_ERROR);
	}
	if (s->lobby != NULL)
		(void)lobby_rating_get(s->lobby, c->argv[0], &r);
	else {
		r.r = LOBBY_RATING_START;
		r.rd = GLICKO2_INIT_RD;
		r.provisional = 1;
	}
	snprintf(rating, sizeof rating, "%ld rd %ld%s", lround(r.r),
	    lround(r.rd), r.provisional ? " provisional" : "");
	cmd_history_player(body, &p, rating);
	return (CMD_OK);
}

const struct cmd_entry cmd_register_entry = {
	.name = "register", .min_args = 2, .max_args = 2,
	.flags = CMD_F_HEAVY | CMD_F_DB | CMD_F_LEAGUE,
	.usage = "NAME PASSWORD", .exec = cmd_register_exec
};
const struct cmd_entry cmd_login_entry = {
	.name = "login", .min_args = 2, .max_args = 2,
	.flags = CMD_F_HEAVY | CMD_F_DB | CMD_F_LEAGUE,
	.usage = "NAME PASSWORD", .exec = cmd_login_exec
};
const struct cmd_entry cmd_whoami_entry = {
	.name = "whoami", .usage = "", .exec = cmd_whoami_exec
};
const struct cmd_entry cmd_player_entry = {
	"player", 1, 1, CMD_F_HEAVY | CMD_F_DB, "NAME", cmd_player_exec
};
