/*
 * cmd-lobby.h: the lobby's parts of commands defined elsewhere: games live
 * and resign GAME_ID (cmd-game.c).  Both need s->lc.
 */
#ifndef CMD_LOBBY_H
#define CMD_LOBBY_H

#include "buf.h"

struct session;

int	 cmd_lobby_live(struct session *, struct buf *);
int	 cmd_lobby_resign(struct session *, const char *, struct buf *);

#endif /* CMD_LOBBY_H */
