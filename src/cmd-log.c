/*
 * cmd-log.c: the game log commands: history, record and stats.  They read
 * the SQLite store, so the server always runs them off the event loop.
 */
#include <stdlib.h>

#include "session.h"
#include "store.h"

/*
 * Refuses when grundyd runs without a database; otherwise waits until
 * everything queued is committed, so that a read sees every move so far.
 */
static int
cmd_log_none(struct session *s, struct buf *body)
{
	if (s->store != NULL) {
		/* Read what this server has logged so far, committed. */
		store_flush(s->store);
		return (0);
	}
	buf_puts(body, "no game log: grundyd runs with --db off");
	return (-1);
}

/* Lists recent games, newest first, one per line. */
static int
cmd_history_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct game_error err;
	unsigned long	 n = 20;

	if (cmd_log_none(s, body) != 0)
		return (CMD_ERROR);
	if (c->argc == 1 && game_parse_ulong(&n, c->argv[0], "N", 1, 1000,
	    &err) != 0) {
		buf_puts(body, err.msg);
		return (CMD_ERROR);
	}
	if (store_history(s->store, (unsigned int)n, body) != 0) {
		buf_reset(body);
		buf_puts(body, "the game log cannot be read now");
		return (CMD_ERROR);
	}
	return (CMD_OK);
}

/* Prints one game's full record, with every move's optimality mark. */
static int
cmd_record_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct game_error err;
	unsigned long	 id;
	int		 rv;

	if (cmd_log_none(s, body) != 0)
		return (CMD_ERROR);
	if (game_parse_ulong(&id, c->argv[0], "GAME_ID", 1, 1UL << 62,
	    &err) != 0) {
		buf_puts(body, err.msg);
		return (CMD_ERROR);
	}
	if ((rv = store_record(s->store, (int64_t)id, body)) <= 0) {
		buf_reset(body);
		buf_printf(body, rv == 0 ? "no game %lu in the log" :
		    "the game log cannot be read now (game %lu)", id);
		return (CMD_ERROR);
	}
	return (CMD_OK);
}

/* Prints games, moves and each player's optimal-move rate. */
static int
cmd_stats_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (cmd_log_none(s, body) != 0)
		return (CMD_ERROR);
	if (store_stats(s->store, body) != 0) {
		buf_reset(body);
		buf_puts(body, "the game log cannot be read now");
		return (CMD_ERROR);
	}
	return (CMD_OK);
}

const struct cmd_entry cmd_history_entry = {
	"history", 0, 1, CMD_F_HEAVY | CMD_F_DB, "[N]", cmd_history_exec
};
const struct cmd_entry cmd_record_entry = {
	"record", 1, 1, CMD_F_HEAVY | CMD_F_DB, "GAME_ID", cmd_record_exec
};
const struct cmd_entry cmd_stats_entry = {
	"stats", 0, 0, CMD_F_HEAVY | CMD_F_DB, "", cmd_stats_exec
};
