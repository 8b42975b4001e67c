/*
 * cmd-net.c: the server's games and resign, which add networked play
 * (PROTOCOL.md §13) to the engine's (cmd-game.c): games live lists the
 * live games, resign GAME_ID gives up a networked game.  Everything else
 * is the engine's command, so `grundy engine` links without the lobby.
 */
#include <string.h>

#include "lobby.h"
#include "session.h"

/* games [live]: the families, or the live games. */
static int
cmd_net_games_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (c->argc == 1 && strcmp(c->argv[0], "live") == 0 && s->lc != NULL)
		return (lobby_cmd_live(s->lc, body) == 0 ? CMD_OK : CMD_ERROR);
	return (cmd_games_exec(s, c, body));
}

/* resign [GAME_ID]: the match, or a networked game. */
static int
cmd_net_resign_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (c->argc == 1 && s->lc != NULL)
		return (lobby_cmd_resign(s->lc, c->argv[0], body) == 0 ?
		    CMD_OK : CMD_ERROR);
	return (cmd_resign_exec(s, c, body));
}

const struct cmd_entry cmd_net_games_entry = {
	.name = "games", .max_args = 1, .flags = CMD_F_LOOP, .usage = "[live]",
	.exec = cmd_net_games_exec
};
const struct cmd_entry cmd_net_resign_entry = {
	.name = "resign", .max_args = 1, .flags = CMD_F_LOOP,
	.usage = "[GAME_ID]", .exec = cmd_net_resign_exec
};
