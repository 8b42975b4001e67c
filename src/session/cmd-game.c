/*
 * cmd-game.c: the game commands: games, limits, new, show, play, genmove,
 * gameover, analyze, winning, legal, undo, seed, match, resign and table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver/format.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "session/session.h"
#include "session/session-store.h"
#include "solver/referee.h"
#include "session/tables.h"

/* Returns the player to move: the game's own record, or the alternation. */
static int
cmd_to_move(const struct session *s)
{
	int	 m = game_mover(&s->game);

	return (m != 0 ? m : s->to_move);
}

static int	 cmd_undo_exec(struct session *, const struct proto_cmd *,
		    struct buf *);
static size_t	 cmd_print_game(struct session *, struct buf *);
extern const struct cmd_entry cmd_play_entry;
extern const struct cmd_entry cmd_genmove_entry;

/*
 * Logs a move just applied in a match: who made it (1: the player who
 * moved first in the match), the position after it, the time used since
 * the previous move, and its optimality mark.
 */
static void
cmd_log_move(struct session *s, int mover, const struct game_move *m,
    enum store_mark mark)
{
	struct store_move sm;
	struct buf	 mv, pos;
	uint64_t	 now;

	if (s->store == NULL || s->game_id <= 0)
		return;
	now = s->store_ops->now_ms();
	buf_init(&mv);
	buf_init(&pos);
	game_move_print(m, &mv);
	game_print(&s->game, &pos);
	sm.ply = ++s->ply;
	sm.player = mover == s->first ? 1 : 2;
	sm.move = buf_str(&mv);
	sm.position = buf_str(&pos);
	sm.time_ms = (unsigned long)(now - s->last_ms);
	sm.mark = mark;
	sm.has_delay = 0;
	sm.delay_us = 0;
	if (mover == s->client && s->rtt != NULL) {
		/* The client's move: its connection's round trip now. */
		long rtt = s->rtt(s->rtt_arg);

		sm.has_delay = rtt >= 0;
		sm.delay_us = rtt >= 0 ? (unsigned long)rtt : 0;
	}
	s->last_ms = now;
	s->log_bytes += mv.len + pos.len;
	(void)budget_charge(&s->bud, s->conf->budget, BUDGET_LOG,
	    mv.len + pos.len, clock_mono_ns(), NULL);
	s->store_ops->move(s->store, s->game_id, &sm);
	buf_free(&mv);
	buf_free(&pos);
}

/*
 * Records that the match ended and leaves it.  Returns CMD_WAIT when the
 * end goes to the game log (the reply waits until the log has it on disk:
 * session_end_log), else CMD_OK.
 */
static int
cmd_end(struct session *s, int winner, const char *reason)
{
	s->end_winner = winner == 0 ? 0 : winner == s->first ? 1 : 2;
	s->end_reason = reason;
	session_enter(s, SESSION_GAME);
	/* Like a lobby game's (lobby.c), for the daemon's log. */
	log_info("game=%lld event=over result=%s reason=%s plies=%lu",
	    (long long)s->game_id, winner == 0 ? "-" : winner == s->first ?
	    "first" : "second", reason, s->ply);
	return (s->store != NULL && s->game_id > 0 ? CMD_WAIT : CMD_OK);
}

/* Drops every saved position. */
static void
cmd_hist_clear(struct session *s)
{
	game_hist_clear(&s->hist);
}

/*
 * Saves the current position for undo, before m is applied (as the move
 * back, game-hist.c), dropping the oldest beyond the cap: max-undo
 * positions, and max-undo-bytes of them by the estimate made at `new`
 * (positions never grow; a saved move is smaller than the estimate), but
 * always the last one, so a failed command can take its move back.  The
 * caps can change on SIGHUP, so the ring follows the current value.
 */
static void
cmd_hist_push(struct session *s, const struct game_move *m)
{
	size_t	 cap = s->conf->max_undo, bycap;

	if (cap > 0 && s->conf->max_undo_bytes > 0 && s->pos_bytes > 0) {
		bycap = s->conf->max_undo_bytes / s->pos_bytes;
		if (bycap < cap)
			cap = bycap > 0 ? bycap : 1;
	}
	game_hist_push(&s->hist, cap, &s->game, m, s->to_move);
}

/* Applies a checked move and advances the turn. */
static void
cmd_apply(struct session *s, const struct game_move *m)
{
	struct game_error err;

	cmd_hist_push(s, m);
	game_play(&s->game, m, &err);
	s->to_move = 3 - s->to_move;
	s->moveno++;
}

/* What cmd_judge_move finds of a move. */
enum cmd_judgement {
	CMD_MOVE_LEGAL,
	CMD_MOVE_SYNTAX,		/* not in the game's notation */
	CMD_MOVE_ILLEGAL,		/* a move, not a legal one here */
};

/*
 * Parses the move in c's arguments into m and checks it: the one judge
 * of `play` and `legal`, which give the same reason in err (`play`:
 * "? illegal move: REASON" or "? syntax error: REASON", GTP's texts
 * first; `legal`: "= false REASON" or "? invalid move: REASON").
 */
static enum cmd_judgement
cmd_judge_move(struct session *s, const struct proto_cmd *c,
    struct game_move *m, struct game_error *err)
{
	if (game_move_parse(&s->game, m, c->argc, c->argv, &s->conf->lim,
	    err) != 0)
		return (CMD_MOVE_SYNTAX);
	if (game_check(&s->game, m, err) != 0)
		return (CMD_MOVE_ILLEGAL);
	return (CMD_MOVE_LEGAL);
}

/*
 * If the game is over (the referee's referee_over), appends "result
 * first|second REASON" (the winner: the player who moved first in the
 * match, or the other), leaves the match, sets *rv to cmd_end's result
 * and returns 1.
 */
static int
cmd_match_over(struct session *s, struct buf *body, int *rv)
{
	struct referee_bound b;
	const char	*reason;
	int		 winner;

	s->end_detail[0] = '\0';
	b.max_plies = s->conf->max_plies;
	b.max_bytes = s->conf->max_game_bytes;
	b.plies = s->ply;
	b.bytes = s->log_bytes;
	if (referee_over(&s->game, cmd_to_move(s), &winner, &reason))
		buf_printf(body, "result %s %s\n", winner == s->first ?
		    "first" : "second", reason);
	else if (s->store != NULL && s->game_id > 0 && referee_bounded(
	    &s->game, cmd_to_move(s), &b, &winner, &reason, s->end_detail))
		buf_printf(body, "result %s %s %s\n", winner == 0 ? "-" :
		    winner == s->first ? "first" : "second", reason,
		    s->end_detail);
	else
		return (0);
	*rv = cmd_end(s, winner, reason);
	return (1);
}

/* Lets the engine move for the player to move; appends "reply MOVE". */
static int
cmd_engine_move(struct session *s, const char *label, struct buf *body)
{
	struct game_error err;
	struct game_move *m = &s->emv;
	enum referee_mark mark;
	int		 rv = 0;

	if (referee_engine_move(&s->game, s->seeded ? s->rs : NULL, &s->ems, m,
	    &mark, &err) != 0) {
		buf_printf(body, "%s", err.msg);
		rv = -1;
	} else {
		int mover = cmd_to_move(s);

		if (label != NULL) {
			buf_puts(body, label);
			buf_putc(body, ' ');
		}
		game_move_print(m, body);
		buf_putc(body, '\n');
		cmd_apply(s, m);
		if (s->state == SESSION_MATCH)
			cmd_log_move(s, mover, m, (enum store_mark)mark);
	}
	return (rv);
}

/*
 * Lists the families with their syntax.  games live lists the live games
 * of networked play: cmd-lobby.c's games, which calls this one otherwise.
 */
int
cmd_games_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	if (c->argc == 1) {
		if (strcmp(c->argv[0], "live") != 0) {
			buf_puts(body, "usage: games [live]");
			return (CMD_ERROR);
		}
		buf_puts(body, "networked play is not available here");
		return (CMD_ERROR);
	}
	format_games(body);
	return (CMD_OK);
}

/* Lists the limits that apply to this session. */
static int
cmd_limits_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	const struct game_limits *l = &s->conf->lim;

	/* Every setting, under the names the file and the flags accept. */
	if (s->conf->limits != NULL) {
		s->conf->limits(s->conf, body);
		return (CMD_OK);
	}
	/* A session without settings of grundyd's: the game limits. */
	buf_printf(body, "max-digits %zu\nmax-piles %zu\n"
	    "max-components %zu\nmax-nodes %zu\nmax-edges %zu\n"
	    "max-set %zu\nmax-set-value %lu\nmax-table %zu\n"
	    "max-wythoff %lu\nmax-undo %zu\n", l->max_digits, l->max_piles,
	    l->max_components, l->max_nodes, l->max_edges, l->max_set,
	    l->max_set_value, l->max_table, l->max_wythoff,
	    s->conf->max_undo);
	/* Networked play: dead-peer detection and who may register. */
	buf_printf(body, "keepalive-idle %u\nkeepalive-interval %u\n"
	    "keepalive-count %u\nuser-timeout %u\nregistration %s\n",
	    s->conf->keepalive_idle, s->conf->keepalive_interval,
	    s->conf->keepalive_count, s->conf->user_timeout,
	    s->conf->registration == SESSION_REG_CLOSED ? "closed" :
	    s->conf->registration == SESSION_REG_ADMIN ? "admin" : "open");
	/* Issue 11's byte limits (PROTOCOL.md §9). */
	buf_printf(body, "max-undo-bytes %zu\nmax-reply %zu\nmax-tables %zu\n"
	    "max-tables-bytes %zu\nregister-rate %u\n", s->conf->max_undo_bytes,
	    l->max_reply, s->conf->max_tables, s->conf->max_tables_bytes,
	    s->conf->register_rate);
	return (CMD_OK);
}

/* Starts a new game; answers with its canonical form. */
static int
cmd_new_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	struct game_error err;
	struct game	 g;

	if (game_parse(&g, c->argc, c->argv, &s->conf->lim, &err) != 0) {
		buf_printf(body, "invalid game: %s", err.msg);
		return (CMD_ERROR);
	}
	if (s->state != SESSION_IDLE)
		game_free(&s->game);
	cmd_hist_clear(s);
	s->game = g;
	s->to_move = 1;
	s->moveno = 0;
	session_enter(s, SESSION_GAME);
	s->pos_bytes = cmd_print_game(s, body);
	return (CMD_OK);
}

/*
 * Appends the canonical form of the game, or for a game whose form is
 * over max-reply bytes "digest bytes=N fnv1a64=HEX" (PROTOCOL.md §9), so a
 * reply never overshoots the output cap.  Returns an estimate of the
 * memory a copy of the position takes: its text plus 48 bytes per
 * number (a GMP integer's header and smallest allocation).
 */
static size_t
cmd_print_game(struct session *s, struct buf *body)
{
	size_t		 mark = body->len, n, i, est;
	uint64_t	 h;

	game_print(&s->game, body);
	n = body->len - mark;
	for (est = n + 48, i = mark; i < body->len; i++)
		if (body->data[i] == ' ' || body->data[i] == ',')
			est += 48;
	if (s->conf->lim.max_reply == 0 || n <= s->conf->lim.max_reply)
		return (est);
	h = game_table_fnv((const unsigned char *)body->data + mark, n);
	body->len = mark;
	body->data[mark] = '\0';
	buf_printf(body, "digest bytes=%zu fnv1a64=%016llx", n,
	    (unsigned long long)h);
	return (est);
}

/* Shows the position, the player to move, the move number and the mode. */
static int
cmd_show_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	buf_puts(body, "position ");
	(void)cmd_print_game(s, body);
	buf_printf(body, "\nplayer %d\nmove %lu\n", cmd_to_move(s),
	    s->moveno + 1);
	if (s->state == SESSION_MATCH)
		buf_printf(body, "match client %s\n",
		    s->client == s->first ? "first" : "second");
	if (game_terminal(&s->game))
		buf_puts(body, "over\n");
	return (CMD_OK);
}

/*
 * Checks the clock tokens time1=MS and time2=MS (each at most once, in any
 * order) that the player role adds at the end of play and genmove
 * (§13.2); they are ignored.  Returns the number of arguments before
 * them, or -1 with the error in body.
 */
static int
cmd_clock_args(const struct proto_cmd *c, struct buf *body)
{
	struct game_error err;
	unsigned long	 ms;
	const char	*a;
	int		 n = c->argc, seen = 0, which;

	while (n > 0) {
		a = c->argv[n - 1];
		if (strncmp(a, "time1=", 6) == 0)
			which = 1;
		else if (strncmp(a, "time2=", 6) == 0)
			which = 2;
		else
			break;
		if (seen & which) {
			buf_printf(body, "duplicate clock token 'time%d'",
			    which);
			return (-1);
		}
		if (game_parse_ulong(&ms, a + 6, which == 1 ? "time1" :
		    "time2", 0, ~0UL, &err) != 0) {
			buf_puts(body, err.msg);
			return (-1);
		}
		seen |= which;
		n--;
	}
	return (n);
}

/*
 * Verifies and applies a move.  In a match, the engine answers at once
 * ("reply MOVE") and a finished game adds "result WINNER REASON".
 */
static int
cmd_play_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	struct game_error err;
	struct game_move *m = &s->mv;
	struct proto_cmd mc = *c;
	enum store_mark	 mark = STORE_NO_WIN;
	int		 rv = CMD_OK, mover;

	if ((mc.argc = cmd_clock_args(c, body)) < 0) {
		rv = CMD_ERROR;
		goto out;
	}
	if (mc.argc == 0) {
		buf_printf(body, "usage: %s %s", cmd_play_entry.name,
		    cmd_play_entry.usage);
		rv = CMD_ERROR;
		goto out;
	}
	switch (cmd_judge_move(s, &mc, m, &err)) {
	case CMD_MOVE_SYNTAX:
		buf_printf(body, "syntax error: %s", err.msg);
		rv = CMD_ERROR;
		goto out;
	case CMD_MOVE_ILLEGAL:
		buf_printf(body, "illegal move: %s", err.msg);
		rv = CMD_ERROR;
		goto out;
	case CMD_MOVE_LEGAL:
		break;
	}
	if (s->state != SESSION_MATCH) {
		cmd_apply(s, m);
		goto out;
	}
	mover = cmd_to_move(s);
	if (s->store != NULL)
		mark = (enum store_mark)referee_mark(&s->game, m);
	cmd_apply(s, m);
	cmd_log_move(s, mover, m, mark);
	if (cmd_match_over(s, body, &rv))
		goto out;
	if (cmd_engine_move(s, "reply", body) != 0) {
		/* A failed command changes nothing: take the move back. */
		cmd_undo_exec(s, c, body);
		rv = CMD_ERROR;
		goto out;
	}
	cmd_match_over(s, body, &rv);
out:
	return (rv);
}

/* Lets the engine move for the player to move, and answers the move. */
static int
cmd_genmove_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	int	 n;

	if ((n = cmd_clock_args(c, body)) < 0)
		return (CMD_ERROR);
	if (n > 0) {
		buf_printf(body, "usage: %s %s", cmd_genmove_entry.name,
		    cmd_genmove_entry.usage);
		return (CMD_ERROR);
	}
	return (cmd_engine_move(s, NULL, body) == 0 ? CMD_OK : CMD_ERROR);
}

/*
 * Acknowledges the end-of-game notice the server sends a player program
 * (§13.2); nothing changes.
 */
static int
cmd_gameover_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	return (CMD_OK);
}

/* Answers outcome, Grundy value and the number of winning moves. */
static int
cmd_analyze_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct game_error err;

	if (format_analysis(&s->game, body, &err) != 0) {
		buf_reset(body);
		buf_puts(body, err.msg);
		return (CMD_ERROR);
	}
	return (CMD_OK);
}

/* Lists the winning moves, at most LIMIT (and the configured cap). */
static int
cmd_winning_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct game_error err;
	unsigned long	 limit = s->conf->max_winning;

	if (c->argc == 1 && game_parse_ulong(&limit, c->argv[0], "LIMIT", 1,
	    s->conf->max_winning, &err) != 0) {
		buf_puts(body, err.msg);
		return (CMD_ERROR);
	}
	if (format_winning(&s->game, limit, body, &err) != 0) {
		buf_reset(body);
		buf_puts(body, err.msg);
		return (CMD_ERROR);
	}
	return (CMD_OK);
}

/* Answers true, or false and the reason, without changing anything. */
static int
cmd_legal_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	struct game_error err;
	struct game_move m;
	int		 rv = CMD_OK;

	game_move_init(&m);
	switch (cmd_judge_move(s, c, &m, &err)) {
	case CMD_MOVE_SYNTAX:
		buf_printf(body, "invalid move: %s", err.msg);
		rv = CMD_ERROR;
		break;
	case CMD_MOVE_ILLEGAL:
		buf_printf(body, "false %s", err.msg);
		break;
	case CMD_MOVE_LEGAL:
		buf_puts(body, "true");
		break;
	}
	game_move_clear(&m);
	return (rv);
}

/* Takes back the last move. */
static int
cmd_undo_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	if (game_hist_pop(&s->hist, &s->game, &s->to_move) != 0) {
		buf_puts(body, "cannot undo");	/* GTP's exact text */
		return (CMD_ERROR);
	}
	s->moveno--;
	return (CMD_OK);
}

/* Sets the engine to pick at random from a seed, or back to deterministic. */
static int
cmd_seed_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	struct game_error err;
	unsigned long	 seed;

	if (strcmp(c->argv[0], "off") == 0) {
		if (s->seeded)
			gmp_randclear(s->rs);
		s->seeded = 0;
		return (CMD_OK);
	}
	if (game_parse_ulong(&seed, c->argv[0], "seed", 0, ~0UL, &err) != 0) {
		buf_puts(body, err.msg);
		return (CMD_ERROR);
	}
	if (s->seeded)
		gmp_randclear(s->rs);
	gmp_randinit_default(s->rs);
	gmp_randseed_ui(s->rs, seed);
	s->seeded = 1;
	return (CMD_OK);
}

/*
 * Starts a refereed game against the engine on the current position; the
 * client moves first or second.  When the engine moves first its move is
 * in the answer ("reply MOVE").
 */
static int
cmd_match_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	int	 first, rv = CMD_OK;

	if (strcmp(c->argv[0], "engine") != 0) {
		buf_printf(body, "opponent '%.40s': only 'engine' is "
		    "available", c->argv[0]);
		return (CMD_ERROR);
	}
	if (strcmp(c->argv[1], "first") == 0)
		first = 1;
	else if (strcmp(c->argv[1], "second") == 0)
		first = 0;
	else {
		buf_printf(body, "side '%.40s': expected first or second",
		    c->argv[1]);
		return (CMD_ERROR);
	}
	if (game_terminal(&s->game)) {
		buf_puts(body, "the game is over: start a new one");
		return (CMD_ERROR);
	}
	if (s->store != NULL && s->store_ops->failing(s->store)) {
		buf_puts(body, s->store_ops->failing_msg(s->store));
		return (CMD_ERROR);
	}
	if (s->store != NULL && budget_charge(&s->bud, s->conf->budget,
	    BUDGET_LOG, 0, clock_mono_ns(), body) != 0)
		return (CMD_ERROR);
	s->first = cmd_to_move(s);
	s->client = first ? s->first : 3 - s->first;
	session_enter(s, SESSION_MATCH);
	s->game_id = 0;
	s->ply = 0;
	s->log_bytes = 0;
	s->last_ms = s->store != NULL ? s->store_ops->now_ms() : 0;
	if (s->store != NULL) {
		struct store_game sg;
		struct buf	 start;
		char		 conn[64];

		buf_init(&start);
		game_print(&s->game, &start);
		snprintf(conn, sizeof conn, "%s:%llu", s->anon_prefix != NULL ?
		    s->anon_prefix : "conn", (unsigned long long)s->id);
		memset(&sg, 0, sizeof sg);
		sg.family = s->game.fam->name;
		sg.game = buf_str(&start);
		sg.player1 = first ? conn : "engine";
		sg.player2 = first ? "engine" : conn;
		s->game_id = s->store_ops->begin(s->store, &sg);
		buf_free(&start);
		if (s->game_id > 0)
			buf_printf(body, "game %lld\n", (long long)s->game_id);
	}
	log_info("game=%lld event=start player%d=conn:%llu player%d=engine "
	    "rated=0", (long long)s->game_id, first ? 1 : 2,
	    (unsigned long long)s->id, first ? 2 : 1);
	if (!first) {
		if (cmd_engine_move(s, "reply", body) != 0) {
			session_abandon(s, "engine-error");
			session_enter(s, SESSION_GAME);
			return (CMD_ERROR);
		}
		cmd_match_over(s, body, &rv);
	}
	return (rv);
}

/*
 * Gives up the match: the engine wins.  resign GAME_ID gives up a
 * networked game (PROTOCOL.md §13.4): cmd-lobby.c's resign, which calls
 * this one otherwise.
 */
int
cmd_resign_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	if (c->argc >= 1) {
		buf_puts(body, "networked play is not available here");
		return (CMD_ERROR);
	}
	if (s->state != SESSION_MATCH) {
		buf_puts(body, "no match in progress");
		return (CMD_ERROR);
	}
	buf_printf(body, "result %s resign\n",
	    s->client == s->first ? "second" : "first");
	return (cmd_end(s, 3 - s->client, "resign"));
}

/* Lists the precomputed table of a game: table GAME [count=N]. */
static int
cmd_table_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct buf	 errb;
	int		 rv = CMD_OK;

	buf_init(&errb);
	if (tables_list(&s->conf->lim, c->argc, c->argv, body,
	    &errb) != 0) {
		buf_reset(body);
		buf_puts(body, buf_str(&errb));
		rv = CMD_ERROR;
	}
	buf_free(&errb);
	return (rv);
}

const struct cmd_entry cmd_games_entry = {
	.name = "games", .max_args = 1, .flags = CMD_F_LOOP, .usage = "[live]",
	.exec = cmd_games_exec
};
const struct cmd_entry cmd_limits_entry = {
	.name = "limits", .usage = "", .exec = cmd_limits_exec
};
const struct cmd_entry cmd_new_entry = {
	.name = "new", .min_args = 1, .max_args = -1,
	.flags = CMD_F_NOMATCH | CMD_F_HEAVY,
	.usage = "FAMILY [KEY=VALUE ...] POSITION", .exec = cmd_new_exec
};
const struct cmd_entry cmd_show_entry = {
	.name = "show", .flags = CMD_F_GAME, .usage = "", .exec = cmd_show_exec
};
const struct cmd_entry cmd_play_entry = {
	.name = "play", .min_args = 1, .max_args = GAME_MOVE_MAX + 2,
	.flags = CMD_F_GAME | CMD_F_HEAVY,
	.usage = "MOVE [time1=MS] [time2=MS]", .exec = cmd_play_exec
};
const struct cmd_entry cmd_genmove_entry = {
	.name = "genmove", .max_args = 2,
	.flags = CMD_F_GAME | CMD_F_NOMATCH | CMD_F_HEAVY,
	.usage = "[time1=MS] [time2=MS]", .exec = cmd_genmove_exec
};
const struct cmd_entry cmd_gameover_entry = {
	.name = "gameover", .max_args = -1,
	.usage = "[RESULT REASON [DETAIL...]]", .exec = cmd_gameover_exec
};
const struct cmd_entry cmd_analyze_entry = {
	.name = "analyze", .flags = CMD_F_GAME | CMD_F_HEAVY, .usage = "",
	.exec = cmd_analyze_exec
};
const struct cmd_entry cmd_winning_entry = {
	.name = "winning", .max_args = 1, .flags = CMD_F_GAME | CMD_F_HEAVY,
	.usage = "[LIMIT]", .exec = cmd_winning_exec
};
const struct cmd_entry cmd_legal_entry = {
	.name = "legal", .min_args = 1, .max_args = GAME_MOVE_MAX,
	.flags = CMD_F_GAME, .usage = "MOVE", .exec = cmd_legal_exec
};
const struct cmd_entry cmd_undo_entry = {
	.name = "undo", .flags = CMD_F_GAME | CMD_F_NOMATCH, .usage = "",
	.exec = cmd_undo_exec
};
const struct cmd_entry cmd_seed_entry = {
	.name = "seed", .min_args = 1, .max_args = 1, .usage = "N|off",
	.exec = cmd_seed_exec
};
const struct cmd_entry cmd_match_entry = {
	.name = "match", .min_args = 2, .max_args = 2,
	.flags = CMD_F_GAME | CMD_F_NOMATCH | CMD_F_HEAVY,
	.usage = "engine first|second", .exec = cmd_match_exec
};
const struct cmd_entry cmd_resign_entry = {
	.name = "resign", .max_args = 1, .flags = CMD_F_LOOP,
	.usage = "[GAME_ID]", .exec = cmd_resign_exec
};
const struct cmd_entry cmd_table_entry = {
	.name = "table", .min_args = 1, .max_args = -1,
	.flags = CMD_F_HEAVY | CMD_F_DB, .usage = "GAME [count=N]",
	.exec = cmd_table_exec
};
