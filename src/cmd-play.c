/*
 * cmd-play.c: the commands of networked play (PROTOCOL.md §13): accounts
 * (register, login, whoami), matchmaking (seek, unseek, challenge, accept,
 * decline, ready, unready), the referee (resume), spectating (watch,
 * unwatch), tournaments, standings, ratings and player statistics.
 *
 * register, login and player hash passwords or read the database, so they
 * run off the loop (CMD_F_DB) and only touch the league; the others use the
 * lobby and always run on the loop (CMD_F_LOOP).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addrrate.h"
#include "league.h"
#include "lobby.h"
#include "session.h"

/* Refuses when the server runs without networked play (or stdio). */
static int
cmd_need_lobby(struct session *s, struct buf *body)
{
	if (s->lc == NULL) {
		buf_puts(body, "networked play is not available here");
		return (-1);
	}
	return (0);
}

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

/* Returns 1 if name is in the comma-separated admins list. */
static int
cmd_is_admin(const char *admins, const char *name)
{
	size_t	 n = strlen(name);
	const char *p = admins;

	if (p == NULL)
		return (0);
	while (*p != '\0') {
		while (*p == ',' || *p == ' ')
			p++;
		if (strncmp(p, name, n) == 0 &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return (1);
		while (*p != '\0' && *p != ',')
			p++;
	}
	return (0);
}

/* register NAME PASSWORD: creates an account. */
static int
cmd_register_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	char	 err[256], raw[256];
	const char *bad;
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
	/* The preprocessing cut at '#' or dropped control characters. */
	if ((bad = league_pass_bad(session_raw_arg(s, 1, c->argv[1], raw,
	    sizeof raw))) != NULL) {
		buf_puts(body, bad);
		return (CMD_ERROR);
	}
	if (s->regrate != NULL && s->addr[0] != '\0' &&
	    !addrrate_take(s->regrate, s->addr, s->conf->register_rate,
	    lobby_now_ms(), &retry)) {
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
	long		 r = 1500;
	unsigned long	 n = 0;
	int		 rv;

	rv = league_login_from(s->league, c->argv[0], c->argv[1],
	    s->addr[0] != '\0' ? s->addr : "-", lobby_now_ms(), err,
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
	s->admin = cmd_is_admin(s->conf->admins, s->account);
	s->login_changed = 1;
	s->login_live = 1;
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

/*
 * Parses a copy of a request line into cmd (the caller frees cmd and
 * *copy); returns 0 for seek, 1 for challenge (the arguments to skip
 * before the game), -1 for any other line.
 */
static int
cmd_prep_parse(const char *line, size_t len, struct proto_cmd *cmd,
    char **copy)
{
	const char	*why;

	*copy = xmalloc(len + 1);
	memcpy(*copy, line, len);
	(*copy)[len] = '\0';
	proto_preprocess(*copy, len);
	if (proto_parse(*copy, cmd, &why) != 1)
		return (-1);
	if (strcmp(cmd->name, "seek") == 0)
		return (0);
	if (strcmp(cmd->name, "challenge") == 0)
		return (1);
	return (-1);
}

/*
 * Returns 1 if the line is a seek or challenge, whose game the server
 * prepares on a worker (cmd_prep_run) before it runs on the loop.
 */
int
cmd_prep_needed(const struct session *s, const char *line, size_t len)
{
	struct proto_cmd cmd;
	char		*copy;
	int		 rv;

	if (s->lc == NULL)
		return (0);
	/* Most lines are neither: decide without a parse. */
	if (memmem(line, len, "seek", 4) == NULL &&
	    memmem(line, len, "challenge", 9) == NULL)
		return (0);
	rv = cmd_prep_parse(line, len, &cmd, &copy);
	proto_cmd_free(&cmd);
	free(copy);
	return (rv >= 0);
}

/* On a worker: parses (and draws) the game of a seek or challenge. */
void
cmd_prep_run(struct session *s, const char *line, size_t len)
{
	struct proto_cmd cmd;
	char		*copy;
	int		 skip;

	if (s->prep == NULL)
		s->prep = xcalloc(1, sizeof *s->prep);
	if ((skip = cmd_prep_parse(line, len, &cmd, &copy)) >= 0)
		lobby_prepare(&s->conf->lim, cmd.argc, cmd.argv, skip,
		    s->prep);
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
}

/* seek GAME [options]: pairs or waits. */
static int
cmd_seek_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	int	 rv;

	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	lobby_use_prep(s->lc, s->prep);
	rv = lobby_cmd_seek(s->lc, c->argc, c->argv, body);
	lobby_use_prep(s->lc, NULL);
	lobby_prep_clear(s->prep);
	return (rv == 0 ? CMD_OK : CMD_ERROR);
}

/* unseek: withdraws the seek. */
static int
cmd_unseek_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_unseek(s->lc, body) == 0 ? CMD_OK : CMD_ERROR);
}

/* challenge NAME GAME [options]. */
static int
cmd_challenge_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	int	 rv;

	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	lobby_use_prep(s->lc, s->prep);
	rv = lobby_cmd_challenge(s->lc, c->argc, c->argv, body);
	lobby_use_prep(s->lc, NULL);
	lobby_prep_clear(s->prep);
	return (rv == 0 ? CMD_OK : CMD_ERROR);
}

/* accept CH_ID. */
static int
cmd_accept_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_accept(s->lc, c->argv[0], 1, body) == 0 ? CMD_OK :
	    CMD_ERROR);
}

/* decline CH_ID. */
static int
cmd_decline_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_accept(s->lc, c->argv[0], 0, body) == 0 ? CMD_OK :
	    CMD_ERROR);
}

/* ready: offers the connection to tournaments. */
static int
cmd_ready_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_ready(s->lc, 1, body) == 0 ? CMD_OK : CMD_ERROR);
}

/* unready: withdraws it. */
static int
cmd_unready_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_ready(s->lc, 0, body) == 0 ? CMD_OK : CMD_ERROR);
}

/* resume TOKEN: takes a seat back. */
static int
cmd_resume_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_resume(s->lc, c->argv[0], body) == 0 ? CMD_OK :
	    CMD_ERROR);
}

/* watch GAME_ID. */
static int
cmd_watch_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_watch(s->lc, c->argv[0], 1, body) == 0 ? CMD_OK :
	    CMD_ERROR);
}

/* unwatch GAME_ID. */
static int
cmd_unwatch_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_watch(s->lc, c->argv[0], 0, body) == 0 ? CMD_OK :
	    CMD_ERROR);
}

/* tournament create|list|cancel (admin). */
static int
cmd_tournament_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_tournament(s->lc, c->argc, c->argv, body) == 0 ?
	    CMD_OK : CMD_ERROR);
}

/* standings NAME. */
static int
cmd_standings_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_standings(s->lc, c->argv[0], body) == 0 ? CMD_OK :
	    CMD_ERROR);
}

/* ratings: the rated players, best first. */
static int
cmd_ratings_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_need_lobby(s, body) != 0)
		return (CMD_ERROR);
	return (lobby_cmd_ratings(s->lc, body) == 0 ? CMD_OK : CMD_ERROR);
}

/* player NAME: rating, results, optimal-move rate, first throws. */
static int
cmd_player_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct buf	 tmp;
	long		 r = 1500;
	unsigned long	 n = 0;
	const char	*line2;

	if (cmd_need_league(s, body) != 0)
		return (CMD_ERROR);
	buf_init(&tmp);
	if (league_player(s->league, c->argv[0], &tmp) != 0) {
		buf_puts(body, buf_str(&tmp));
		buf_free(&tmp);
		return (CMD_ERROR);
	}
	if (s->lobby != NULL)
		lobby_rating(s->lobby, c->argv[0], &r, &n);
	/* "account NAME" first, then the rating, then the rest. */
	line2 = strchr(buf_str(&tmp), '\n');
	if (line2 == NULL)
		line2 = buf_str(&tmp) + tmp.len;
	buf_add(body, tmp.data, (size_t)(line2 - tmp.data));
	buf_printf(body, "\nrating %ld", r);
	if (*line2 != '\0')
		buf_puts(body, line2);
	while (body->len > 0 && body->data[body->len - 1] == '\n')
		body->data[--body->len] = '\0';
	buf_free(&tmp);
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
const struct cmd_entry cmd_seek_entry = {
	"seek", 1, -1, CMD_F_LOOP,
	"GAME [tc=BASE[+INC]] [rated=0|1] [opponent=any|engine] [random=1]",
	cmd_seek_exec
};
const struct cmd_entry cmd_unseek_entry = {
	"unseek", 0, 0, CMD_F_LOOP, "", cmd_unseek_exec
};
const struct cmd_entry cmd_challenge_entry = {
	"challenge", 2, -1, CMD_F_LOOP,
	"NAME GAME [tc=BASE[+INC]] [rated=0|1] [seat=1|2] [random=1]",
	cmd_challenge_exec
};
const struct cmd_entry cmd_accept_entry = {
	"accept", 1, 1, CMD_F_LOOP, "CH_ID", cmd_accept_exec
};
const struct cmd_entry cmd_decline_entry = {
	"decline", 1, 1, CMD_F_LOOP, "CH_ID", cmd_decline_exec
};
const struct cmd_entry cmd_ready_entry = {
	"ready", 0, 0, CMD_F_LOOP, "", cmd_ready_exec
};
const struct cmd_entry cmd_unready_entry = {
	"unready", 0, 0, CMD_F_LOOP, "", cmd_unready_exec
};
const struct cmd_entry cmd_resume_entry = {
	"resume", 1, 1, CMD_F_LOOP, "TOKEN", cmd_resume_exec
};
const struct cmd_entry cmd_watch_entry = {
	"watch", 1, 1, CMD_F_LOOP, "GAME_ID", cmd_watch_exec
};
const struct cmd_entry cmd_unwatch_entry = {
	"unwatch", 1, 1, CMD_F_LOOP, "GAME_ID", cmd_unwatch_exec
};
const struct cmd_entry cmd_tournament_entry = {
	"tournament", 1, -1, CMD_F_LOOP,
	"create NAME roundrobin|gauntlet players=A,B,... games=N tc=TC "
	"[seed=S] [random=1] GAME | list | cancel NAME", cmd_tournament_exec
};
const struct cmd_entry cmd_standings_entry = {
	"standings", 1, 1, CMD_F_LOOP, "NAME", cmd_standings_exec
};
const struct cmd_entry cmd_ratings_entry = {
	"ratings", 0, 0, CMD_F_LOOP, "", cmd_ratings_exec
};
const struct cmd_entry cmd_player_entry = {
	"player", 1, 1, CMD_F_HEAVY | CMD_F_DB, "NAME", cmd_player_exec
};
