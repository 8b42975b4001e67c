/*
 * cmd-lobby.c: the commands of the lobby (PROTOCOL.md §13): matchmaking
 * (seek, unseek, challenge, accept, decline, ready, unready), the referee
 * (resume, resign GAME_ID, games live), spectating (watch, unwatch),
 * standings and ratings (tournaments: cmd-tour.c), and the admin's connections, kick,
 * abort and adjudicate.  Here the arguments and options are parsed and the
 * replies formatted; the lobby's typed operations (lobby.h, lobby-ops.c)
 * do the rest.  All use the lobby and run on the loop (CMD_F_LOOP); the
 * game of a seek or challenge is parsed (and drawn) on a worker first
 * (cmd-prep.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-admin.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "node/lnode.h"
#include "nodestore/store-where.h"
#include "proto/proto.h"
#include "record/verify.h"
#include "session/session.h"
#include "store/store.h"

#define CMD_VERIFY_LINES	100	/* mismatches `verify ratings` lists */

/* Refuses new games while the game log is failing or the node drains. */
static int
cmd_need_store(struct session *s, struct buf *body)
{
	if (lobby_store_failing(s->lc)) {
		buf_puts(body, store_failing_msg(s->store));
		return (-1);
	}
	return (lobby_drain_refuse(s->lc, body));	/* §13.12 */
}

/* Sets *bit from "0" or "1"; returns 0 for any other value. */
static int
cmd_bit(const char *v, int *bit)
{
	if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
		return (0);
	*bit = v[0] - '0';
	return (1);
}

/*
 * Takes the options of seek and challenge out of argv; the rest, the game
 * tokens, go to rest[*n].  Returns 0, or -1 with body filled in.
 */
static int
cmd_offer_opts(int argc, char **argv, struct lobby_offer *o, int challenge,
    char **rest, int *n, struct buf *body)
{
	const char	*v;
	int		 i, ok;

	for (i = 0; i < argc; i++) {
		ok = 1;
		switch (lobby_offer_opt(argv[i], &v)) {
		case LOBBY_OPT_TC:
			if (proto_parse_tc(v, &o->base_ms, &o->inc_ms)) {
				buf_printf(body, "invalid time control %.64s: "
				    "tc=BASE or tc=BASE+INC in ms, BASE 1.."
				    "%llu", v, PROTO_TC_MAX);
				return (-1);
			}
			break;
		case LOBBY_OPT_RATED:
			ok = cmd_bit(v, &o->rated);
			break;
		case LOBBY_OPT_RANDOM:
			ok = cmd_bit(v, &o->random);
			break;
		case LOBBY_OPT_OPPONENT:
			if ((ok = !challenge && strcmp(v, "engine") == 0))
				o->engine = 1;
			else if ((ok = !challenge && strcmp(v, "any") == 0))
				o->engine = 0;
			break;
		case LOBBY_OPT_SEAT:
			if ((ok = strcmp(v, "1") == 0 || strcmp(v, "2") == 0))
				o->seat = v[0] - '0';
			break;
		default:
			rest[(*n)++] = argv[i];
			break;
		}
		if (!ok) {
			buf_printf(body, "invalid option %.64s", argv[i]);
			return (-1);
		}
	}
	return (0);
}

/* Frees a parsed offer. */
static void
cmd_offer_free(struct lobby_offer *o)
{
	if (o->game.fam != NULL)
		game_free(&o->game);
	if (o->drawn.fam != NULL)
		game_free(&o->drawn);
	buf_free(&o->spec);
}

/*
 * Parses "GAME [tc=..] [rated=..] [opponent=..] [random=1] [seat=..]";
 * fills o and returns 0, or puts the error in body and returns -1.  The
 * game comes from the preparation done on a worker when it matches.
 */
static int
cmd_offer(struct session *s, int argc, char **argv, struct lobby_offer *o,
    int challenge, struct buf *body)
{
	const struct lobby_conf *conf = lobby_client_conf(s->lc);
	struct game_error err;
	char		**rest;
	int		 n = 0;

	memset(o, 0, sizeof *o);
	o->base_ms = conf->default_base_ms;
	o->inc_ms = conf->default_inc_ms;
	o->rated = -1;
	buf_init(&o->spec);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	if (cmd_offer_opts(argc, argv, o, challenge, rest, &n, body) != 0)
		goto fail;
	if (n == 0) {
		buf_puts(body, "no game given");
		goto fail;
	}
	if (lobby_spec_fits(n, rest, body) != 0)
		goto fail;
	if (lobby_prep_take(s->prep, n, rest, &o->game, &o->drawn,
	    &o->prepared))
		;	/* parsed (and drawn) on a worker: lobby-prep.c */
	else if (game_parse(&o->game, n, rest, &conf->lim, &err) != 0) {
		buf_printf(body, "invalid game: %s", err.msg);
		goto fail;
	}
	if (!o->random && game_terminal(&o->game)) {
		game_free(&o->game);
		buf_puts(body, "the game is already over: nobody can move");
		goto fail;
	}
	game_print(&o->game, &o->spec);
	free(rest);
	return (0);
fail:
	free(rest);
	buf_free(&o->spec);
	return (-1);
}

/* seek GAME [options]: pairs or waits. */
static int
cmd_seek_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	struct lobby_offer o;
	struct lobby_seek_result res;
	int		 rv = CMD_ERROR;

	if (lobby_check_free(s->lc, body) == 0 &&
	    cmd_need_store(s, body) == 0 &&
	    cmd_offer(s, c->argc, c->argv, &o, 0, body) == 0) {
		if (lobby_seek(s->lc, &o, &res, body) == 0) {
			if (res.seek_id != 0)
				buf_printf(body, "seek %llu",
				    (unsigned long long)res.seek_id);
			else
				buf_printf(body, "game %lld",
				    (long long)res.game_id);
			rv = CMD_OK;
		}
		cmd_offer_free(&o);
	}
	lobby_prep_clear(s->prep);
	lobby_xnode_seek_end(s->lc);
	return (rv);
}

/* unseek: withdraws the seek. */
static int
cmd_unseek_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	return (lobby_unseek(s->lc, body) == 0 ? CMD_OK : CMD_ERROR);
}

/* The checks of challenge NAME before its game is parsed. */
static int
cmd_challenge_check(struct session *s, const char *to, struct buf *body)
{
	const char	*me = lobby_client_name(s->lc);

	if (me[0] == '\0') {
		buf_puts(body, "challenges need an account (login)");
		return (-1);
	}
	if (!league_name_ok(to)) {
		buf_printf(body, "invalid account name %.64s", to);
		return (-1);
	}
	if (strcmp(to, me) == 0) {
		buf_puts(body, "you cannot challenge yourself");
		return (-1);
	}
	return (cmd_need_store(s, body));
}

/* challenge NAME GAME [options]. */
static int
cmd_challenge_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct lobby_offer o;
	uint64_t	 id;
	int		 rv = CMD_ERROR;

	if (cmd_challenge_check(s, c->argv[0], body) == 0 &&
	    cmd_offer(s, c->argc - 1, c->argv + 1, &o, 1, body) == 0) {
		if (lobby_challenge(s->lc, c->argv[0], &o, &id, body) == 0) {
			buf_printf(body, "challenge %llu",
			    (unsigned long long)id);
			rv = CMD_OK;
		}
		cmd_offer_free(&o);
	}
	lobby_prep_clear(s->prep);
	return (rv);
}

/* accept CH_ID, decline CH_ID. */
static int
cmd_accept_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	int	 accept = strcmp(c->name, "accept") == 0;
	int64_t	 gid = 0;

	if (lobby_accept(s->lc, c->argv[0], accept, &gid, body) != 0)
		return (CMD_ERROR);
	if (accept)
		buf_printf(body, "game %lld", (long long)gid);
	return (CMD_OK);
}

/* ready: offers the connection to tournaments; unready withdraws it. */
static int
cmd_ready_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	return (lobby_ready(s->lc, strcmp(c->name, "ready") == 0, body) == 0 ?
	    CMD_OK : CMD_ERROR);
}

/* resume TOKEN: takes a seat back. */
static int
cmd_resume_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	int64_t	 gid;
	int	 seat;

	if (lobby_resume(s->lc, c->argv[0], &gid, &seat, body) != 0)
		return (CMD_ERROR);
	buf_printf(body, "game %lld you=%d", (long long)gid, seat);
	return (CMD_OK);
}

/*
 * resign GAME_ID [REASON [DETAIL...]]: gives up a live game, or declares
 * its own loss with a reason (PROTOCOL.md §13.4: a sandbox limit, or a
 * crash with its detail), checked before anything changes.
 */
static int
cmd_lobby_resign(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	char		 detail[CMD_REASON_MAX + 1];
	const char	*reason = "resign", *why;
	int		 seat;

	if (c->argc >= 2) {
		if (cmd_reason(c, "resign", 2, 1, detail, sizeof detail,
		    body) != 0)
			return (CMD_ERROR);
		if ((reason = verify_own_loss(c->argv[1], c->argc > 2 ?
		    detail : NULL, &why)) == NULL) {
			buf_printf(body, "resign: %.32s %s", c->argv[1], why);
			return (CMD_ERROR);
		}
	}
	if (lobby_resign(s->lc, c->argv[0], reason, c->argc > 2 ? detail :
	    NULL, &seat, body) != 0)
		return (CMD_ERROR);
	buf_printf(body, "result %s %s%s%s", seat == 1 ? "second" : "first",
	    reason, c->argc > 2 ? " " : "", c->argc > 2 ? detail : "");
	return (CMD_OK);
}

/*
 * games live: one line per live game; on a node, then those the other
 * nodes referee (read on a worker before: cmd_prep_run), with node=N.
 */
static int
cmd_lobby_live(struct session *s, struct buf *body)
{
	struct lobby_live *v;
	struct store_elsewhere *e;
	const struct store_gameinfo *g;
	size_t		 i, n;

	lobby_live_games(s->lc, &v, &n);
	for (i = 0; i < n; i++) {
		buf_printf(body, "%lld %s %s ply=%lu tc=", (long long)v[i].id,
		    v[i].player[0], v[i].player[1], v[i].ply);
		proto_tc_print(body, v[i].base_ms, v[i].inc_ms);
		buf_printf(body, " rated=%d %s\n", v[i].rated, v[i].start);
	}
	free(v);
	if ((e = lobby_where_live_take(s->lc)) == NULL)
		return (CMD_OK);
	for (i = 0; i < e->games->n; i++) {
		g = &e->games->games[i];
		if (e->where[i].game == 0)	/* listed above */
			continue;
		buf_printf(body, "%lld %s %s ply=%llu tc=", (long long)g->id,
		    g->player1, g->player2, (unsigned long long)e->ply[i]);
		proto_tc_print(body, g->has_tc ? g->tc_base_ms : 0,
		    g->has_tc ? g->tc_inc_ms : 0);
		buf_printf(body, " rated=%d node=%lld %s\n", g->rated,
		    (long long)(e->where[i].held ? e->where[i].holder : 0),
		    g->game);
	}
	store_elsewhere_free(e);
	free(e);
	return (CMD_OK);
}

/* watch GAME_ID: the game now, then its moves as events. */
static int
cmd_watch_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	struct lobby_live lv;

	if (lobby_watch(s->lc, c->argv[0], &lv, body) != 0)
		return (CMD_ERROR);
	buf_printf(body, "watching %lld\nplayers %s %s\nposition ",
	    (long long)lv.id, lv.player[0], lv.player[1]);
	game_print(lv.position, body);
	buf_printf(body, "\nply %lu\ntime1 %llu\ntime2 %llu", lv.ply,
	    (unsigned long long)lv.clock_ms[0],
	    (unsigned long long)lv.clock_ms[1]);
	return (CMD_OK);
}

/* unwatch GAME_ID. */
static int
cmd_unwatch_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	lobby_unwatch(s->lc, c->argv[0]);
	return (CMD_OK);
}

/* ratings: the rated players, best first. */
static int
cmd_ratings_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct lobby_rating_row *v;
	size_t		 i, n;

	lobby_ratings(s->lc, &v, &n);
	for (i = 0; i < n; i++)
		buf_printf(body, "%s rating %ld games %lu rd %ld%s\n",
		    v[i].name, lround(v[i].r), v[i].games, lround(v[i].rd),
		    v[i].provisional ? " provisional" : "");
	free(v);
	return (CMD_OK);
}

/* connections (admin): one line per connection. */
static int
cmd_connections_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct lobby_conn *v;
	size_t		 i, n;

	lobby_connections(s->lc, &v, &n);
	for (i = 0; i < n; i++) {
		buf_printf(body, "%llu %s %s", (unsigned long long)v[i].id,
		    v[i].peer[0] != '\0' ? v[i].peer : "-",
		    v[i].name[0] != '\0' ? v[i].name : "-");
		if (v[i].game_id != 0)
			buf_printf(body, " game=%lld seat=%d",
			    (long long)v[i].game_id, v[i].seat);
		if (i + 1 < n)
			buf_putc(body, '\n');
	}
	free(v);
	return (CMD_OK);
}

/* kick CONN_ID REASON... (admin). */
static int
cmd_kick_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	char		 reason[CMD_REASON_MAX + 1];
	uint64_t	 id;

	if (cmd_reason(c, "kick", 1, 0, reason, sizeof reason, body) != 0)
		return (CMD_ERROR);
	if (lobby_kick(s->lc, c->argv[0], reason, &id, body) != 0)
		return (CMD_ERROR);
	buf_printf(body, "kicked %llu", (unsigned long long)id);
	return (CMD_OK);
}

/* abort GAME_ID REASON... | adjudicate GAME_ID 1|2 REASON... (admin). */
static int
cmd_end_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	char	 reason[CMD_REASON_MAX + 1];
	int	 adj = strcmp(c->name, "adjudicate") == 0, winner = 0;

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
	if (lobby_end(s->lc, c->argv[0], winner, reason, body) != 0)
		return (CMD_ERROR);
	buf_printf(body, "result %s %s", winner == 1 ? "first" : winner == 2 ?
	    "second" : "-", winner == 0 ? "aborted" : "adjudicated");
	return (CMD_OK);
}

/* Appends a rating and its games as `verify ratings` prints them. */
static void
cmd_verify_put(struct buf *body, const char *what, int has,
    const struct glicko2_rating *r, unsigned long games)
{
	if (has)
		buf_printf(body, " %s %.6f %.6f %.9f %lu", what, r->r, r->rd,
		    r->sigma, games);
	else
		buf_printf(body, " %s - - - -", what);
}

/*
 * verify ratings (admin): replays the whole log (off the loop: CMD_F_DB)
 * and compares it with the checkpoint and the live ratings (§13.9).
 */
static int
cmd_verify_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct store_rverify rv;
	size_t		 i, bad;

	if (strcmp(c->argv[0], "ratings") != 0) {
		buf_puts(body, "verify: what can be verified is: ratings");
		return (CMD_ERROR);
	}
	if (s->store == NULL || store_ratings_verify(s->store, &rv) != 0) {
		buf_puts(body, "the game log cannot be read now");
		return (CMD_ERROR);
	}
	bad = rv.n + (rv.checkpoint_seq != rv.log_seq);
	if (bad == 0)
		buf_printf(body, "ok %zu players", rv.players);
	if (rv.checkpoint_seq != rv.log_seq)
		buf_printf(body, "mismatch checkpoint-seq expected %lld found "
		    "%lld\n", (long long)rv.log_seq,
		    (long long)rv.checkpoint_seq);
	for (i = 0; i < rv.n && i < CMD_VERIFY_LINES; i++) {
		buf_printf(body, "mismatch %s %s", rv.v[i].where,
		    rv.v[i].name);
		cmd_verify_put(body, "expected", rv.v[i].has_expected,
		    &rv.v[i].expected, rv.v[i].expected_games);
		cmd_verify_put(body, "found", rv.v[i].has_found,
		    &rv.v[i].found, rv.v[i].found_games);
		buf_putc(body, '\n');
	}
	if (bad > 0)
		buf_printf(body, "mismatches %zu players %zu", bad, rv.players);
	store_rverify_free(&rv);
	return (CMD_OK);
}

const struct cmd_entry cmd_verify_entry = {
	.name = "verify", .min_args = 1, .max_args = 1,
	.flags = CMD_F_HEAVY | CMD_F_DB | CMD_F_ADMIN | CMD_F_LEAGUE,
	.usage = "ratings", .exec = cmd_verify_exec
};

/*
 * The lobby's commands: each runs on the loop and needs a lobby; EXTRA adds
 * the admin role where it is needed.
 */
#define LOBBY_ENTRY(id, min, max, extra, use, fn)			\
const struct cmd_entry cmd_##id##_entry = {				\
	.name = #id, .min_args = (min), .max_args = (max),		\
	.flags = CMD_F_LOOP | CMD_F_LOBBY | (extra),			\
	.usage = use, .exec = (fn)					\
}

LOBBY_ENTRY(seek, 1, -1, CMD_F_PREP,
    "GAME [tc=BASE[+INC]] [rated=0|1] [opponent=any|engine] [random=1]",
    cmd_seek_exec);
LOBBY_ENTRY(unseek, 0, 0, 0, "", cmd_unseek_exec);
LOBBY_ENTRY(challenge, 2, -1, CMD_F_PREP,
    "NAME GAME [tc=BASE[+INC]] [rated=0|1] [seat=1|2] [random=1]",
    cmd_challenge_exec);
LOBBY_ENTRY(accept, 1, 1, 0, "CH_ID", cmd_accept_exec);
LOBBY_ENTRY(decline, 1, 1, 0, "CH_ID", cmd_accept_exec);
LOBBY_ENTRY(ready, 0, 0, 0, "", cmd_ready_exec);
LOBBY_ENTRY(unready, 0, 0, 0, "", cmd_ready_exec);
LOBBY_ENTRY(resume, 1, 1, 0, "TOKEN", cmd_resume_exec);
LOBBY_ENTRY(watch, 1, 1, CMD_F_PREP, "GAME_ID", cmd_watch_exec);
LOBBY_ENTRY(unwatch, 1, 1, 0, "GAME_ID", cmd_unwatch_exec);
LOBBY_ENTRY(ratings, 0, 0, CMD_F_PREP, "", cmd_ratings_exec);
LOBBY_ENTRY(connections, 0, 0, CMD_F_ADMIN, "", cmd_connections_exec);
LOBBY_ENTRY(kick, 1, -1, CMD_F_ADMIN, "CONN_ID REASON...", cmd_kick_exec);
LOBBY_ENTRY(abort, 1, -1, CMD_F_ADMIN, "GAME_ID REASON...", cmd_end_exec);
LOBBY_ENTRY(adjudicate, 2, -1, CMD_F_ADMIN, "GAME_ID 1|2 REASON...",
    cmd_end_exec);

/*
 * games and resign add networked play (PROTOCOL.md §13) to the engine's
 * (cmd-game.c): games live lists the live games, resign GAME_ID gives up a
 * networked game.  Everything else is the engine's command, so `grundy
 * engine` links without the lobby.
 */
static int
cmd_net_games_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (c->argc == 1 && strcmp(c->argv[0], "live") == 0 && s->lc != NULL)
		return (cmd_lobby_live(s, body));
	return (cmd_games_exec(s, c, body));
}

/* resign [GAME_ID [REASON [DETAIL]]]: the match, or a networked game. */
static int
cmd_net_resign_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (c->argc >= 1 && s->lc != NULL)
		return (cmd_lobby_resign(s, c, body));
	return (cmd_resign_exec(s, c, body));
}

const struct cmd_entry cmd_net_games_entry = {
	.name = "games", .max_args = 1, .flags = CMD_F_LOOP | CMD_F_PREP,
	.usage = "[live]",
	.exec = cmd_net_games_exec
};
const struct cmd_entry cmd_net_resign_entry = {
	.name = "resign", .max_args = -1, .flags = CMD_F_LOOP,
	.usage = "[GAME_ID [REASON [DETAIL]]]", .exec = cmd_net_resign_exec
};
