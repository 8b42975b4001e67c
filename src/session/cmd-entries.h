/*
 * cmd-entries.h: every command's entry, each defined next to its handler
 * in cmd-<family>.c, for the tables: the server's (cmd.c) and `grundy
 * engine`'s (cmd-std.c).
 */
#ifndef CMD_ENTRIES_H
#define CMD_ENTRIES_H

#include "session/session.h"

extern const struct cmd_entry cmd_protocol_version_entry;
extern const struct cmd_entry cmd_name_entry;
extern const struct cmd_entry cmd_version_entry;
extern const struct cmd_entry cmd_known_command_entry;
extern const struct cmd_entry cmd_list_commands_entry;
extern const struct cmd_entry cmd_quit_entry;
extern const struct cmd_entry cmd_net_games_entry;
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
extern const struct cmd_entry cmd_net_resign_entry;
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
extern const struct cmd_entry cmd_crosstable_entry;
extern const struct cmd_entry cmd_pairstats_entry;
extern const struct cmd_entry cmd_export_entry;
extern const struct cmd_entry cmd_ratings_entry;
extern const struct cmd_entry cmd_player_entry;
extern const struct cmd_entry cmd_passwd_entry;
extern const struct cmd_entry cmd_account_entry;
extern const struct cmd_entry cmd_connections_entry;
extern const struct cmd_entry cmd_kick_entry;
extern const struct cmd_entry cmd_abort_entry;
extern const struct cmd_entry cmd_adjudicate_entry;
extern const struct cmd_entry cmd_verify_entry;
extern const struct cmd_entry cmd_node_entry;
extern const struct cmd_entry cmd_games_entry;
extern const struct cmd_entry cmd_resign_entry;

/* The GTP standard commands, first in every table. */
#define CMD_STD_ENTRIES \
	&cmd_protocol_version_entry, \
	&cmd_name_entry, \
	&cmd_version_entry, \
	&cmd_known_command_entry, \
	&cmd_list_commands_entry, \
	&cmd_quit_entry,

/* The game commands, between games and resign in every table. */
#define CMD_GAME_ENTRIES \
	&cmd_limits_entry, \
	&cmd_new_entry, \
	&cmd_show_entry, \
	&cmd_play_entry, \
	&cmd_genmove_entry, \
	&cmd_gameover_entry, \
	&cmd_analyze_entry, \
	&cmd_winning_entry, \
	&cmd_legal_entry, \
	&cmd_undo_entry, \
	&cmd_seed_entry, \
	&cmd_match_entry,

#endif /* CMD_ENTRIES_H */
