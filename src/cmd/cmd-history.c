/*
 * cmd-history.c: the commands reading the game log (the store): history,
 * record and stats.  They read the database, so the server always runs
 * them off the event loop.  The store returns data; the text is made here
 * (cmd-history.h), and so is that of the player command's statistics
 * (cmd-play.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-history.h"
#include "league/rpager.h"
#include "record/record.h"
#include "stats/results.h"
#include "session/session.h"
#include "store/store.h"
#include "lib/json.h"
#include "lib/util.h"

/* Appends a word or a line of the log, "-" for none. */
static void
cmd_history_put(struct buf *b, const char *s)
{
	buf_puts(b, s != NULL ? s : "-");
}

/* Appends a blank, then a word of the log ("-" for none). */
static void
cmd_history_word(struct buf *b, const char *s)
{
	buf_putc(b, ' ');
	cmd_history_put(b, s);
}

/* Appends a rate in tenths of a percent as "97.5%", or "-" if unknown. */
void
cmd_history_pct(struct buf *b, int known, uint64_t tenths)
{
	if (known)
		buf_printf(b, "%" PRIu64 ".%" PRIu64 "%%", tenths / 10,
		    tenths % 10);
	else
		buf_putc(b, '-');
}

/* Appends a time of the log, "-" for none. */
static void
cmd_history_time(struct buf *b, int64_t ms)
{
	char	 t[STORE_TIME_LEN];

	if (ms == STORE_TIME_NONE) {
		buf_putc(b, '-');
		return;
	}
	store_time_text(ms, t, sizeof t);
	buf_puts(b, t);
}

/* Appends a delay: microseconds, or "-" if unknown. */
static void
cmd_history_delay(struct buf *b, int has, uint64_t us)
{
	if (has)
		buf_printf(b, "%" PRIu64, us);
	else
		buf_putc(b, '-');
}

/*
 * Appends the games of h, one line each: "ID FAMILY STATUS RESULT REASON
 * PLAYER1 PLAYER2 STARTED", "-" for none.
 */
void
cmd_history_games(struct buf *b, const struct store_history *h)
{
	const struct store_gameinfo *g;
	size_t		 i;

	for (i = 0; i < h->n; i++) {
		g = &h->games[i];
		buf_printf(b, "%" PRId64, g->id);
		cmd_history_word(b, g->family);
		cmd_history_word(b, store_status_name(g->status));
		cmd_history_word(b, store_result_name(g->result));
		cmd_history_word(b, g->reason);
		cmd_history_word(b, g->player1);
		cmd_history_word(b, g->player2);
		buf_putc(b, ' ');
		cmd_history_time(b, g->started_ms);
		buf_putc(b, '\n');
	}
}

/*
 * Appends a refused move of a record: "refused PLY PLAYER TIME_MS
 * DELAY_US MOVE REASON", MOVE as a JSON string (the text received).
 */
static void
cmd_history_refused(struct buf *b, const struct store_rrefused *f)
{
	buf_printf(b, "refused %" PRIu64 " %d %" PRIu64 " ", f->ply,
	    f->player, f->time_ms);
	cmd_history_delay(b, f->has_delay, f->delay_us);
	buf_putc(b, ' ');
	json_quote(b, f->move != NULL ? f->move : "-");
	cmd_history_word(b, f->reason);
	buf_putc(b, '\n');
}

/*
 * Appends a move of a record: "move PLY PLAYER MOVE MARK TIME_MS DELAY_US
 * TIME_US".
 */
static void
cmd_history_move(struct buf *b, const struct store_rmove *m)
{
	buf_printf(b, "move %" PRIu64 " %d ", m->ply, m->player);
	cmd_history_put(b, m->move);
	buf_printf(b, " %s %" PRIu64 " ", store_mark_name(m->mark),
	    m->time_ms);
	cmd_history_delay(b, m->has_delay, m->delay_us);
	buf_printf(b, " %" PRIu64 "\n", m->time_us);
}

/*
 * A game's record (cmd_history_record_ops):
 *
 *	game ID
 *	start CANONICAL-GAME
 *	players PLAYER1 PLAYER2
 *	started TIME
 *	move PLY PLAYER MOVE MARK TIME_MS DELAY_US TIME_US (one per move)
 *	refused PLY PLAYER TIME_MS DELAY_US MOVE REASON	(before its ply)
 *	ended TIME|-
 *	result first|second|- REASON|- [DETAIL]
 *	status live|finished|abandoned
 *
 * MOVE may contain blanks (two changes): it is everything between PLAYER
 * and the last four words.  `new START` then `play MOVE` for each
 * move replays the game.  The moves refused for a ply come before it.
 */
static void
cmd_history_record_head(struct rpager *p, struct buf *b)
{
	const struct store_gameinfo *g = &p->head.game;

	buf_printf(b, "game %" PRId64 "\nstart ", g->id);
	cmd_history_put(b, g->game);
	buf_puts(b, "\nplayers");
	cmd_history_word(b, g->player1);
	cmd_history_word(b, g->player2);
	buf_puts(b, "\nstarted ");
	cmd_history_time(b, g->started_ms);
	buf_putc(b, '\n');
}

static void
cmd_history_record_moves(struct rpager *p, const struct store_record *r,
    struct buf *b)
{
	size_t		 i, j = 0;

	(void)p;
	for (i = 0; i < r->nmoves; i++) {
		for (; j < r->nrefused && r->refused[j].ply <=
		    r->moves[i].ply; j++)
			cmd_history_refused(b, &r->refused[j]);
		cmd_history_move(b, &r->moves[i]);
	}
	for (; j < r->nrefused; j++)
		cmd_history_refused(b, &r->refused[j]);
}

static void
cmd_history_record_tail(struct rpager *p, struct buf *b)
{
	const struct store_gameinfo *g = &p->head.game;

	buf_puts(b, "ended ");
	cmd_history_time(b, g->ended_ms);
	buf_puts(b, "\nresult");
	cmd_history_word(b, store_result_name(g->result));
	cmd_history_word(b, g->reason);
	if (g->detail != NULL)
		cmd_history_word(b, g->detail);
	buf_printf(b, "\nstatus %s\n", store_status_name(g->status));
}

/* A game's record as above, a page of moves at a time (rpager.h). */
static const struct rpager_ops cmd_history_record_ops = {
	cmd_history_record_head, cmd_history_record_moves, NULL, NULL,
	cmd_history_record_tail, 1
};

/*
 * Appends the statistics: "games N", "moves N", then for each player
 * "player NAME moves N optimal PCT kept-win K threw-win T", where PCT is
 * the optimal-move rate (results.h) as `player` and `pairstats` print it,
 * 100 K / (K + T) rounded down to a tenth, "66.6%" ("-" if K + T is 0):
 * how often the player kept a win it had.
 */
void
cmd_history_stats(struct buf *b, const struct store_stats *st)
{
	const struct store_pstats *p;
	uint64_t	 tenths = 0;
	size_t		 i;
	int		 known;

	buf_printf(b, "games %" PRId64 "\nmoves %" PRId64 "\n", st->games,
	    st->moves);
	for (i = 0; i < st->nplayers; i++) {
		p = &st->players[i];
		buf_puts(b, "player ");
		cmd_history_put(b, p->name);
		buf_printf(b, " moves %" PRId64 " optimal ", p->moves);
		known = results_optimal_tenths((uint64_t)p->kept_win,
		    (uint64_t)p->threw_win, &tenths) == 0;
		cmd_history_pct(b, known, tenths);
		buf_printf(b, " kept-win %" PRId64 " threw-win %" PRId64 "\n",
		    p->kept_win, p->threw_win);
	}
}

/*
 * Appends an account's statistics with its rating (§13.7 of PROTOCOL.md),
 * with no final newline:
 *
 *	account NAME
 *	rating R rd D [provisional]	(RATING: "R rd D [provisional]")
 *	games G wins W losses L
 *	moves M optimal PCT		(PCT: "97.5%", rounded down; "-")
 *
 * PCT is the optimal-move rate of results.h, as `stats` has it.
 *	threw-win-games N
 *	first-throw 1:C 2:C 3:C 4:C 5:C 6-10:C 11-20:C 21+:C
 */
void
cmd_history_player(struct buf *b, const struct league_player *p,
    const char *rating)
{
	unsigned int	 lo, hi;
	uint64_t	 tenths = 0;
	size_t		 i;
	int		 known;

	buf_printf(b, "account %s\nrating %s\n", p->name, rating);
	buf_printf(b, "games %" PRId64 " wins %" PRId64 " losses %" PRId64
	    "\n", p->games, p->wins, p->losses);
	buf_printf(b, "moves %" PRId64 " optimal ", p->moves);
	known = results_optimal_tenths((uint64_t)p->kept, (uint64_t)p->threw,
	    &tenths) == 0;
	cmd_history_pct(b, known, tenths);
	buf_putc(b, '\n');
	buf_printf(b, "threw-win-games %" PRId64 "\n", p->threw_win_games);
	buf_puts(b, "first-throw");
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++) {
		league_throw_bucket(i, &lo, &hi);
		if (hi == lo)
			buf_printf(b, " %u:", lo);
		else if (hi == 0)
			buf_printf(b, " %u+:", lo);
		else
			buf_printf(b, " %u-%u:", lo, hi);
		buf_printf(b, "%" PRId64, p->first_throw[i]);
	}
}

/*
 * Refuses when grundyd runs without a database; otherwise waits until
 * everything queued is committed, so that a read sees every move so far.
 */
int
cmd_history_none(struct session *s, struct buf *body)
{
	if (s->store != NULL) {
		/* Read what this server has logged so far, committed. */
		store_flush(s->store);
		return (0);
	}
	buf_puts(body, "no game log: grundyd runs with --db off");
	return (-1);
}

/*
 * Refuses as cmd_history_none does, then parses arg, if not NULL, as the
 * number name from 1 to max into *out; -1 with the message in body.
 */
static int
cmd_history_ulong(struct session *s, struct buf *body, const char *arg,
    const char *name, unsigned long max, unsigned long *out)
{
	struct game_error err;

	if (cmd_history_none(s, body) != 0)
		return (-1);
	if (arg != NULL && game_parse_ulong(out, arg, name, 1, max,
	    &err) != 0) {
		buf_puts(body, err.msg);
		return (-1);
	}
	return (0);
}

#define CMD_HISTORY_NAME_MAX	64	/* bytes of player= and tournament= */

/*
 * Parses one filter of history, KEY=VALUE, into f; -1 with the message in
 * body (an unknown key, a repeated one, a bad value).
 */
static int
cmd_history_filter(const char *arg, struct store_hfilter *f,
    struct buf *body)
{
	struct game_error err;
	const char	*v = strchr(arg, '=');
	unsigned long	 id;

	if (v != NULL && v[1] != '\0') {
		v++;
		if (strncmp(arg, "player=", 7) == 0 && f->player == NULL &&
		    strlen(v) <= CMD_HISTORY_NAME_MAX) {
			f->player = v;
			return (0);
		}
		if (strncmp(arg, "tournament=", 11) == 0 &&
		    f->tournament == NULL && strlen(v) <= CMD_HISTORY_NAME_MAX) {
			f->tournament = v;
			return (0);
		}
		if (strncmp(arg, "since=", 6) == 0 && f->since[0] == '\0' &&
		    store_time_arg(v, f->since, sizeof f->since) == 0)
			return (0);
		if (strncmp(arg, "before=", 7) == 0 && f->before == 0) {
			if (game_parse_ulong(&id, v, "before", 1, 1UL << 62,
			    &err) != 0) {
				buf_puts(body, err.msg);
				return (-1);
			}
			f->before = (int64_t)id;
			return (0);
		}
	}
	buf_printf(body, "bad filter %.64s: expected player=NAME, "
	    "tournament=NAME (at most %d bytes), since=YYYY-MM-DD or "
	    "since=YYYY-MM-DDTHH:MM:SS.mmmZ, before=ID, each at most once",
	    arg, CMD_HISTORY_NAME_MAX);
	return (-1);
}

/*
 * Lists a page of games, newest first, one per line, with the filters;
 * "next before=ID" ends a page that has more after it.
 */
static int
cmd_history_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct store_hfilter f;
	struct store_history h;
	unsigned long	 n = 20;
	int		 i = 0;

	memset(&f, 0, sizeof f);
	if (c->argc > 0 && strchr(c->argv[0], '=') == NULL)
		i = 1;
	if (cmd_history_ulong(s, body, i == 1 ? c->argv[0] : NULL, "N", 1000,
	    &n) != 0)
		return (CMD_ERROR);
	for (; i < c->argc; i++)
		if (cmd_history_filter(c->argv[i], &f, body) != 0)
			return (CMD_ERROR);
	f.limit = (unsigned int)n + 1;
	if (store_history_page(s->store, &f, &h) != 0) {
		buf_puts(body, "the game log cannot be read now");
		return (CMD_ERROR);
	}
	if (h.n > n) {
		h.n--;
		cmd_history_games(body, &h);
		buf_printf(body, "next before=%" PRId64 "\n",
		    h.games[n - 1].id);
		h.n++;
	} else
		cmd_history_games(body, &h);
	store_history_free(&h);
	return (CMD_OK);
}

/*
 * Parses record's option "format=text|file|json" into *f; -1 with the
 * message in body.
 */
static int
cmd_record_format(const char *arg, enum record_format *f, struct buf *body)
{
	static const char *const names[] = { "text", "file", "json" };
	size_t		 i;

	*f = RECORD_TEXT;
	if (arg == NULL)
		return (0);
	if (strncmp(arg, "format=", 7) == 0)
		for (i = 0; i < nitems(names); i++)
			if (strcmp(arg + 7, names[i]) == 0) {
				*f = (enum record_format)i;
				return (0);
			}
	buf_printf(body, "bad option %.64s: expected format=text, "
	    "format=file or format=json", arg);
	return (-1);
}

/*
 * Appends game id's whole record as `record ID` prints it (its pages in
 * one go).  Returns 1, 0 if there is no such game, or -1.
 */
int
cmd_history_record(struct store *st, int64_t id, struct buf *b)
{
	struct rpager	 p;
	int		 rc;

	rpager_init(&p, st, id, &cmd_history_record_ops, 0);
	rc = rpager_next(&p, b, SIZE_MAX);
	rpager_free(&p);
	return (rc == 0 ? 1 : rc == RPAGER_NOGAME ? 0 : -1);
}

#define CMD_RECORD_CHUNK	(64 * 1024)	/* bytes of record a part */

/* A record being streamed (session_stream). */
struct cmd_rstream {
	struct rpager	 pager;
	enum record_format f;
};

/*
 * Appends the next part of the record to body (worker): 1 if more is to
 * come, 0 at its end, or RPAGER_*.
 */
static int
cmd_record_part(struct cmd_rstream *rs, struct buf *body)
{
	int	 rc;

	rc = rpager_next(&rs->pager, body, CMD_RECORD_CHUNK);
	if (rc == 0 && rs->f == RECORD_JSON) {
		rs->pager.j.b = body;
		json_end_obj(&rs->pager.j);
	}
	return (rc);
}

/* The next part (session_stream's more): 1, 0 at the end, -1. */
static int
cmd_record_more(struct session *s, struct buf *body)
{
	int	 rc = cmd_record_part(s->more_arg, body);

	return (rc < 0 ? -1 : rc);
}

static void
cmd_record_free(struct session *s)
{
	struct cmd_rstream *rs = s->more_arg;

	rpager_free(&rs->pager);
	free(rs);
}

/*
 * Prints one game's full record, with every move's optimality mark:
 * today's text (§12), the record file (§12.1) or its JSON.  It is read
 * and formatted a chunk at a time on a worker, each once the client has
 * read the last (session_stream), whatever its length.
 */
static int
cmd_record_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	static const struct rpager_ops *const ops[] = {
		&cmd_history_record_ops, &rpager_file_ops, &rpager_json_ops
	};
	struct cmd_rstream *rs;
	enum record_format f;
	unsigned long	 id;
	int		 rc;

	if (cmd_record_format(c->argc == 2 ? c->argv[1] : NULL, &f,
	    body) != 0 ||
	    cmd_history_ulong(s, body, c->argv[0], "GAME_ID", 1UL << 62,
	    &id) != 0)
		return (CMD_ERROR);
	rs = xcalloc(1, sizeof *rs);
	rs->f = f;
	rpager_init(&rs->pager, s->store, (int64_t)id, ops[f], 0);
	if ((rc = cmd_record_part(rs, body)) < 0) {
		rpager_free(&rs->pager);
		free(rs);
		buf_reset(body);
		buf_printf(body, rc == RPAGER_NOGAME ? "no game %lu in the log" :
		    "the game log cannot be read now (game %lu)", id);
		return (CMD_ERROR);
	}
	if (rc == 0) {
		rpager_free(&rs->pager);
		free(rs);
		return (CMD_OK);
	}
	session_stream(s, cmd_record_more, cmd_record_free, rs);
	return (CMD_OK);
}

/* Prints games, moves and each player's optimal-move rate. */
static int
cmd_stats_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct store_stats st;

	if (cmd_history_none(s, body) != 0)
		return (CMD_ERROR);
	if (store_stats(s->store, &st) != 0) {
		buf_puts(body, "the game log cannot be read now");
		return (CMD_ERROR);
	}
	cmd_history_stats(body, &st);
	store_stats_free(&st);
	return (CMD_OK);
}

const struct cmd_entry cmd_history_entry = {
	"history", 0, 5, CMD_F_HEAVY | CMD_F_DB, "[N] [player=NAME] "
	"[tournament=NAME] [since=DATE] [before=ID]", cmd_history_exec
};
const struct cmd_entry cmd_record_entry = {
	"record", 1, 2, CMD_F_HEAVY | CMD_F_DB, "GAME_ID [format=text|file|json]",
	cmd_record_exec
};
const struct cmd_entry cmd_stats_entry = {
	"stats", 0, 0, CMD_F_HEAVY | CMD_F_DB, "", cmd_stats_exec
};
