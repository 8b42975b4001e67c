/*
 * cmd.c: the command table and its lookup.  Each command is one const
 * struct cmd_entry defined next to its handler in cmd-<family>.c:
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
 *             body is then the one-line error) or CMD_QUIT
 *
 * Arity, state and flags are checked centrally in session_execute(), so
 * handlers never re-check them.
 */
#include <string.h>

#include "session.h"

extern const struct cmd_entry cmd_protocol_version_entry;
extern const struct cmd_entry cmd_name_entry;
extern const struct cmd_entry cmd_version_entry;
extern const struct cmd_entry cmd_known_command_entry;
extern const struct cmd_entry cmd_list_commands_entry;
extern const struct cmd_entry cmd_quit_entry;
extern const struct cmd_entry cmd_games_entry;
extern const struct cmd_entry cmd_limits_entry;
extern const struct cmd_entry cmd_new_entry;
extern const struct cmd_entry cmd_show_entry;
extern const struct cmd_entry cmd_play_entry;
extern const struct cmd_entry cmd_genmove_entry;
extern const struct cmd_entry cmd_gameover_entry;
extern const struct cmd_entry cmd_analyze_entry;
extern const struct cmd_entry cmd_winning_entry;
extern const struct cmd_entry cmd_legal_entry;
extern const struct cmd_entry cmd_undo_entry;
extern const struct cmd_entry cmd_seed_entry;
extern const struct cmd_entry cmd_match_entry;
extern const struct cmd_entry cmd_resign_entry;
extern const struct cmd_entry cmd_history_entry;
extern const struct cmd_entry cmd_record_entry;
extern const struct cmd_entry cmd_stats_entry;
extern const struct cmd_entry cmd_table_entry;
extern const struct cmd_entry cmd_register_entry;
extern const struct cmd_entry cmd_login_entry;
extern const struct cmd_entry cmd_whoami_entry;
extern const struct cmd_entry cmd_seek_entry;
extern const struct cmd_entry cmd_unseek_entry;
extern const struct cmd_entry cmd_challenge_entry;
extern const struct cmd_entry cmd_accept_entry;
extern const struct cmd_entry cmd_decline_entry;
extern const struct cmd_entry cmd_ready_entry;
extern const struct cmd_entry cmd_unready_entry;
extern const struct cmd_entry cmd_resume_entry;
extern const struct cmd_entry cmd_watch_entry;
extern const struct cmd_entry cmd_unwatch_entry;
extern const struct cmd_entry cmd_tournament_entry;
extern const struct cmd_entry cmd_standings_entry;
extern const struct cmd_entry cmd_ratings_entry;
extern const struct cmd_entry cmd_player_entry;
extern const struct cmd_entry cmd_passwd_entry;
extern const struct cmd_entry cmd_account_entry;
extern const struct cmd_entry cmd_connections_entry;
extern const struct cmd_entry cmd_kick_entry;
extern const struct cmd_entry cmd_abort_entry;
extern const struct cmd_entry cmd_adjudicate_entry;

/* Every command, in the order list_commands prints them. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_protocol_version_entry,
	&cmd_name_entry,
	&cmd_version_entry,
	&cmd_known_command_entry,
	&cmd_list_commands_entry,
	&cmd_quit_entry,
	&cmd_games_entry,
	&cmd_limits_entry,
	&cmd_new_entry,
	&cmd_show_entry,
	&cmd_play_entry,
	&cmd_genmove_entry,
	&cmd_gameover_entry,
	&cmd_analyze_entry,
	&cmd_winning_entry,
	&cmd_legal_entry,
	&cmd_undo_entry,
	&cmd_seed_entry,
	&cmd_match_entry,
	&cmd_resign_entry,
	&cmd_history_entry,
	&cmd_record_entry,
	&cmd_stats_entry,
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
	&cmd_ratings_entry,
	&cmd_player_entry,
	&cmd_passwd_entry,
	&cmd_account_entry,
	&cmd_connections_entry,
	&cmd_kick_entry,
	&cmd_abort_entry,
	&cmd_adjudicate_entry,
	NULL
};

/* Returns the entry for an exact command name, or NULL. */
const struct cmd_entry *
cmd_find(const char *name)
{
	size_t	 i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return (cmd_table[i]);
	return (NULL);
}
