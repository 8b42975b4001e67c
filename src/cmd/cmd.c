/*
 * cmd.c: the server's command table (the lookup is cmd_find, session.c).
 * Each command is one const struct cmd_entry defined next to its handler
 * in cmd-<family>.c:
 *
 *   name      the command word (exact, case-sensitive, as in GTP)
 *   min_args  fewest arguments; max_args most (-1: no upper bound)
 *   flags     CMD_F_GAME: needs a game; CMD_F_NOMATCH: refused during a
 *             match; CMD_F_HEAVY: may be slow, the server may run it off
 *             the event loop; CMD_F_DB: reads the game log, always off
 *             the loop; CMD_F_LOOP: uses the lobby, always on the loop;
 *             the preconditions, checked in this order: CMD_F_ADMIN
 *             (the admin role), CMD_F_LOBBY (networked play),
 *             CMD_F_LEAGUE (the accounts: --db), CMD_F_LOGIN (a login)
 *   usage     argument synopsis, printed on an arity error
 *   exec      the handler: fills the body, returns CMD_OK, CMD_ERROR (the
 *             body is then the one-line error), CMD_QUIT, CMD_ERROR_QUIT
 *             or CMD_WAIT (the reply waits for the game log)
 *
 * Arity, state and flags are checked centrally in session_execute(), so
 * handlers never re-check them.  A session answers the commands of the
 * table it was given: the server's (cmd_table, here) or `grundy engine`'s
 * (cmd_engine_table, cmd-std.c: no accounts, lobby or game log).
 */
#include "session/cmd-entries.h"

/* Every command, in the order list_commands prints them. */
const struct cmd_entry *const cmd_table[] = {
	CMD_STD_ENTRIES
	&cmd_net_games_entry,
	CMD_GAME_ENTRIES
	&cmd_net_resign_entry,
	&cmd_history_entry,
	&cmd_record_entry,
	&cmd_stats_entry,
	&cmd_export_entry,
	&cmd_table_entry,
	&cmd_register_entry,
	&cmd_login_entry,
	&cmd_whoami_entry,
	&cmd_seek_entry,
	&cmd_unseek_entry,
	&cmd_challenge_entry,
	&cmd_accept_entry,
	&cmd_decline_entry,
	&cmd_ready_entry,
	&cmd_unready_entry,
	&cmd_resume_entry,
	&cmd_watch_entry,
	&cmd_unwatch_entry,
	&cmd_tournament_entry,
	&cmd_standings_entry,
	&cmd_crosstable_entry,
	&cmd_pairstats_entry,
	&cmd_ratings_entry,
	&cmd_player_entry,
	&cmd_passwd_entry,
	&cmd_account_entry,
	&cmd_connections_entry,
	&cmd_kick_entry,
	&cmd_abort_entry,
	&cmd_adjudicate_entry,
	&cmd_verify_entry,
	&cmd_node_entry,
	NULL
};
