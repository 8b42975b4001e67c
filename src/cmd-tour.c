/*
 * cmd-tour.c: the tournament command (PROTOCOL.md §13.6): tournament
 * create, list, show, cancel, pause, resume, add and withdraw.  The
 * arguments are parsed and the replies formatted here; the lobby's typed
 * operations (lobby.h, lobby-ops.c, lobby-tour.c) do the rest.  Runs on
 * the loop (CMD_F_LOOP) with a lobby.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league.h"
#include "lobby.h"
#include "proto.h"
#include "session.h"

/* Splits "a,b,c" into the tournament's player list. */
static int
cmd_tour_players(struct league_tournament *d, const char *s)
{
	char		*copy = xstrdup(s), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (d->nplayers == 64) {
			free(copy);
			return (-1);
		}
		d->players = xreallocarray(d->players, d->nplayers + 1,
		    sizeof *d->players);
		d->players[d->nplayers++] = xstrdup(tok);
	}
	free(copy);
	return (0);
}

/*
 * Takes the options of tournament create out of argv (from the third
 * argument); the game tokens go to rest[*n].  Sets *have_seed when seed=
 * was given.  Returns 0, or -1 with body filled in.
 */
static int
cmd_tour_opts(int argc, char **argv, struct league_tournament *d,
    int *have_seed, char **rest, int *n, struct buf *body)
{
	/*
	 * players= after the first and random= other than 1 are game
	 * tokens, as any other; the game's parse then refuses them.
	 */
	enum { T_PLAYERS, T_GAMES, T_TC, T_SEED, T_RANDOM };
	static const char *const keys[] = {
		"players", "games", "tc", "seed", "random"
	};
	const char	*a;
	char		*end;
	unsigned long	 v;
	int		 i;

	for (i = 2; i < argc; i++) {
		switch (lobby_key(argv[i], keys, sizeof keys / sizeof keys[0],
		    &a)) {
		case T_PLAYERS:
			if (d->nplayers != 0)
				break;
			if (cmd_tour_players(d, a) != 0) {
				buf_puts(body, "too many players (limit 64)");
				return (-1);
			}
			continue;
		case T_GAMES:
			errno = 0;
			v = strtoul(a, &end, 10);
			if (a[0] < '0' || a[0] > '9' || *end != '\0' ||
			    errno != 0 || v == 0 || v > 100) {
				buf_puts(body, "games=N: 1..100 games per "
				    "pairing");
				return (-1);
			}
			d->games_per_pair = (unsigned int)v;
			continue;
		case T_TC:
			if (proto_parse_tc(a, &d->base_ms, &d->inc_ms)) {
				buf_printf(body, "invalid time control %.64s",
				    a);
				return (-1);
			}
			continue;
		case T_SEED:
			errno = 0;
			d->seed = strtoull(a, &end, 10);
			*have_seed = 1;
			if (a[0] < '0' || a[0] > '9' || *end != '\0' ||
			    errno != 0) {
				buf_puts(body, "seed=S: a number");
				return (-1);
			}
			continue;
		case T_RANDOM:
			if (strcmp(a, "1") != 0)
				break;
			d->random = 1;
			continue;
		}
		rest[(*n)++] = argv[i];
	}
	return (0);
}

/*
 * Parses tournament d's game from its n tokens into d->game, checking
 * that a game can be played (a template: a fair start can be drawn with
 * the tournament's seed, drawn here unless given).
 */
static int
cmd_tour_game(struct session *s, struct league_tournament *d, int n,
    char **rest, int have_seed, struct buf *body)
{
	const struct lobby_conf *conf = lobby_client_conf(s->lc);
	struct game_error gerr;
	struct game	 g, drawn;
	struct buf	 spec;
	gmp_randstate_t	 rs;
	int		 rv;

	if (n == 0 || game_parse(&g, n, rest, &conf->lim, &gerr) != 0) {
		buf_printf(body, "invalid game: %s", n == 0 ? "none given" :
		    gerr.msg);
		return (-1);
	}
	buf_init(&spec);
	game_print(&g, &spec);
	if (!d->random && game_terminal(&g)) {
		game_free(&g);
		buf_free(&spec);
		buf_puts(body, "the game is already over: nobody can move");
		return (-1);
	}
	if (!have_seed)		/* unpredictable unless asked for */
		d->seed = lobby_tour_seed(s->lc);
	if (d->random) {
		/* A template with no fair start could never be played. */
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, (unsigned long)d->seed);
		rv = lobby_draw_start(&g, rs, &conf->lim, &drawn, &gerr);
		gmp_randclear(rs);
		if (rv != 0) {
			game_free(&g);
			buf_free(&spec);
			buf_printf(body, "%s", gerr.msg);
			return (-1);
		}
		game_free(&drawn);
	}
	game_free(&g);
	d->game = xstrdup(buf_str(&spec));
	buf_free(&spec);
	return (0);
}

/* tournament create: parses, stores and starts a tournament. */
static int
cmd_tour_create(struct session *s, int argc, char **argv, struct buf *body)
{
	const struct lobby_conf *conf = lobby_client_conf(s->lc);
	struct league_tournament d;
	char		**rest;
	int		 n = 0, have_seed = 0;
	size_t		 nslots;

	memset(&d, 0, sizeof d);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	if (argc < 2 || !league_name_ok(argv[0])) {
		buf_puts(body, "usage: tournament create NAME roundrobin|"
		    "gauntlet players=A,B,... games=N tc=TC [seed=S] "
		    "[random=1] GAME");
		goto fail;
	}
	snprintf(d.name, sizeof d.name, "%s", argv[0]);
	if (strcmp(argv[1], "roundrobin") == 0)
		d.format = LEAGUE_ROUNDROBIN;
	else if (strcmp(argv[1], "gauntlet") == 0)
		d.format = LEAGUE_GAUNTLET;
	else {
		buf_printf(body, "unknown format %.32s: roundrobin or "
		    "gauntlet", argv[1]);
		goto fail;
	}
	d.games_per_pair = 2;
	d.base_ms = conf->default_base_ms;
	d.inc_ms = conf->default_inc_ms;
	if (cmd_tour_opts(argc, argv, &d, &have_seed, rest, &n, body) != 0)
		goto fail;
	if (d.nplayers < 2) {
		buf_puts(body, "players=A,B,...: at least two players");
		goto fail;
	}
	if (cmd_tour_game(s, &d, n, rest, have_seed, body) != 0 ||
	    lobby_tour_add(s->lc, &d, &nslots, body) != 0)
		goto fail;
	buf_printf(body, "tournament %lld %s games %zu", (long long)d.id,
	    d.name, nslots);
	free(rest);
	return (CMD_OK);
fail:
	league_tournament_free(&d);
	free(rest);
	return (CMD_ERROR);
}

/* tournament list: one line per tournament. */
static int
cmd_tour_list(struct session *s, struct buf *body)
{
	struct league_tournament *v;
	size_t		 n, i;

	if (lobby_tour_list(s->lc, &v, &n, body) != 0)
		return (CMD_ERROR);
	for (i = 0; i < n; i++) {
		buf_printf(body, "%lld %s %s %s games-per-pair=%u tc=",
		    (long long)v[i].id, v[i].name,
		    v[i].format == LEAGUE_GAUNTLET ? "gauntlet" : "roundrobin",
		    lobby_tour_status(v[i].status), v[i].games_per_pair);
		proto_tc_print(body, v[i].base_ms, v[i].inc_ms);
		buf_printf(body, " %s\n", v[i].game);
		league_tournament_free(&v[i]);
	}
	free(v);
	return (CMD_OK);
}

/* tournament create|list|cancel (admin). */
static int
cmd_tournament_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (!lobby_client_admin(s->lc)) {
		buf_puts(body, "permission denied: tournament needs the admin "
		    "role");
		return (CMD_ERROR);
	}
	if (lobby_tour_check(s->lc, body) != 0)
		return (CMD_ERROR);
	if (strcmp(c->argv[0], "create") == 0)
		return (cmd_tour_create(s, c->argc - 1, c->argv + 1, body));
	if (strcmp(c->argv[0], "list") == 0 && c->argc == 1)
		return (cmd_tour_list(s, body));
	if (strcmp(c->argv[0], "cancel") == 0 && c->argc == 2)
		return (lobby_tour_cancel(s->lc, c->argv[1], body) == 0 ?
		    CMD_OK : CMD_ERROR);
	buf_puts(body, "usage: tournament create ...|list|cancel NAME");
	return (CMD_ERROR);
}
const struct cmd_entry cmd_tournament_entry = {
	.name = "tournament", .min_args = 1, .max_args = -1,
	.flags = CMD_F_LOOP | CMD_F_LOBBY,
	.usage = "create NAME roundrobin|gauntlet players=A,B,... games=N "
	    "tc=TC [seed=S] [random=1] GAME | list | cancel NAME",
	.exec = cmd_tournament_exec
};
