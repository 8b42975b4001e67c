/*
 * cmd-engine.c: the commands of `grundy engine` (and `grundy bot`'s local
 * engine): the GTP standard commands, the game commands and table.  No
 * accounts, lobby or game log, so the client links without SQLite,
 * libevent or libcrypt; the server's table is cmd.c's.
 */
#include "session/cmd-entries.h"

/* The engine's commands, in the order list_commands prints them. */
const struct cmd_entry *const cmd_engine_table[] = {
	CMD_STD_ENTRIES
	&cmd_games_entry,
	CMD_GAME_ENTRIES
	&cmd_resign_entry,
	&cmd_table_entry,
	NULL
};
