/*
 * cmd-std.c: the GTP standard commands: protocol_version, name, version,
 * known_command, list_commands and quit; and the table of `grundy engine`
 * (and `grundy bot`'s local engine): these, the game commands and table.
 * No accounts, lobby or game log, so the client links without SQLite,
 * libevent or libcrypt; the server's table is cmd.c's.
 */
#include <string.h>

#include "config.h"
#include "session/cmd-entries.h"
#include "session/session.h"

/* Answers the GTP protocol version, 2. */
static int
cmd_protocol_version_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	buf_puts(body, "2");
	return (CMD_OK);
}

/* Answers the server's name. */
static int
cmd_name_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	buf_puts(body, "grundyd");
	return (CMD_OK);
}

/* Answers the server's version. */
static int
cmd_version_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	buf_puts(body, PACKAGE_VERSION);
	return (CMD_OK);
}

/* Answers true if the argument names a command. */
static int
cmd_known_command_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	buf_puts(body, cmd_find(s->table, c->argv[0]) != NULL ? "true" : "false");
	return (CMD_OK);
}

/* Lists every command, one per line. */
static int
cmd_list_commands_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	size_t	 i;

	for (i = 0; s->table[i] != NULL; i++)
		buf_printf(body, "%s\n", s->table[i]->name);
	return (CMD_OK);
}

/* Answers, then closes the connection. */
static int
cmd_quit_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	return (CMD_QUIT);
}

const struct cmd_entry cmd_protocol_version_entry = {
	.name = "protocol_version", .usage = "",
	.exec = cmd_protocol_version_exec
};
const struct cmd_entry cmd_name_entry = {
	.name = "name", .usage = "", .exec = cmd_name_exec
};
const struct cmd_entry cmd_version_entry = {
	.name = "version", .usage = "", .exec = cmd_version_exec
};
const struct cmd_entry cmd_known_command_entry = {
	.name = "known_command", .min_args = 1, .max_args = 1,
	.usage = "COMMAND", .exec = cmd_known_command_exec
};
const struct cmd_entry cmd_list_commands_entry = {
	.name = "list_commands", .usage = "", .exec = cmd_list_commands_exec
};
const struct cmd_entry cmd_quit_entry = {
	.name = "quit", .usage = "", .exec = cmd_quit_exec
};

/* The engine's commands, in the order list_commands prints them. */
const struct cmd_entry *const cmd_engine_table[] = {
	CMD_STD_ENTRIES
	&cmd_games_entry,
	CMD_GAME_ENTRIES
	&cmd_resign_entry,
	&cmd_table_entry,
	NULL
};
