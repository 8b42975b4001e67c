/*
 * cmd-results.c: the results commands (PROTOCOL.md §13.10): standings
 * with tie-breaks and crosstable (a tournament, from the lobby's memory,
 * on the loop) and pairstats (a pair of players, from the log, off the
 * loop).  results.c computes; this file writes the text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd-history.h"
#include "cmd/cmd-prep.h"
#include "cmd/cmd-results.h"
#include "league/export.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-results.h"
#include "session/session.h"
#include "store/store.h"
#include "store/store-results.h"

/* Appends a number of halves as points: "3", "3.5". */
static void
put_half(struct buf *b, uint64_t half)
{
	buf_printf(b, "%" PRIu64 "%s", half / 2, half % 2 ? ".5" : "");
}

/* Appends a number of quarters: "3", "3.25", "3.5", "3.75". */
static void
put_quarter(struct buf *b, uint64_t q)
{
	static const char *const frac[4] = { "", ".25", ".5", ".75" };

	buf_printf(b, "%" PRIu64 "%s", q / 4, frac[q % 4]);
}

/*
 * Appends the standings lines: "tiebreaks LIST", then "RANK NAME points
 * P games G wins W losses L", ` byes B` and ` forfeits W/L` where not 0,
 * and " TB V" for each tie-break of the list, best first; V is "-" where
 * direct encounter was not applied.
 */
void
cmd_results_standings(struct buf *b, const struct results *r)
{
	const struct standing *s;
	const struct xtable_player *p;
	char		 l[TB_TEXT_MAX];
	size_t		 i;
	unsigned int	 k, u;

	tb_list_text(&r->tb, l, sizeof l);
	buf_printf(b, "tiebreaks %s\n", l);
	for (i = 0; i < r->n; i++) {
		p = results_standing(r, i, &s);
		buf_printf(b, "%u %s points ", s->rank, r->names[s->player]);
		put_half(b, s->half);
		buf_printf(b, " games %" PRIu32 " wins %" PRIu32 " losses %"
		    PRIu32, p->games, p->wins, p->losses);
		if (p->byes > 0)
			buf_printf(b, " byes %" PRIu32, p->byes);
		if (p->fwins + p->flosses > 0)
			buf_printf(b, " forfeits %" PRIu32 "/%" PRIu32,
			    p->fwins, p->flosses);
		for (k = 0; k < r->tb.n; k++) {
			buf_printf(b, " %s ", tb_name(r->tb.k[k]));
			u = tb_unit(r->tb.k[k]);
			if (s->tb[k] < 0)
				buf_putc(b, '-');
			else if (u == 1)
				buf_printf(b, "%" PRId64, s->tb[k]);
			else if (u == 2)
				put_half(b, (uint64_t)s->tb[k]);
			else
				put_quarter(b, (uint64_t)s->tb[k]);
		}
		buf_putc(b, '\n');
	}
}

/*
 * Appends the crosstable: "players A B ...", then per player in that
 * order "NAME CELL ...": CELL is "x" on the diagonal, "-" for players
 * that have not met, else "P/G", the row player's points in G games.
 */
static void
cmd_results_crosstable(struct buf *b, const struct results *r)
{
	const struct xtable_cell *c;
	size_t		 i, j;

	buf_puts(b, "players");
	for (i = 0; i < r->n; i++)
		buf_printf(b, " %s", r->names[i]);
	buf_putc(b, '\n');
	for (i = 0; i < r->n; i++) {
		buf_puts(b, r->names[i]);
		for (j = 0; j < r->n; j++) {
			c = xtable_get(&r->xt, i, j);
			if (i == j)
				buf_puts(b, " x");
			else if (c == NULL || c->games == 0)
				buf_puts(b, " -");
			else {
				buf_putc(b, ' ');
				put_half(b, c->half);
				buf_printf(b, "/%" PRIu32, c->games);
			}
		}
		buf_putc(b, '\n');
	}
}

/* Appends "elo E lo L hi H err X los P%" of e. */
static void
put_elo_line(struct buf *b, const char *what, const struct matchstat_elo *e)
{
	buf_printf(b, "%s ", what);
	export_num(b, 1, e->elo);	/* "12.3", "inf", "-inf" */
	buf_puts(b, " lo ");
	export_num(b, 1, e->elo_lo);
	buf_puts(b, " hi ");
	export_num(b, 1, e->elo_hi);
	buf_printf(b, " los %.1f%%%s\n", e->los * 100.0,
	    e->degenerate ? " zero-variance" : "");
}

/*
 * Appends a player's referee line: "referee NAME games G moves M optimal
 * PCT kept-win K threw-win T throw-games N first-throw-mean F won-games
 * W converted C conversion PCT".
 */
static void
put_ref(struct buf *b, const char *name, const struct results_ref *f)
{
	uint64_t	 t = 0;
	int		 known;

	buf_printf(b, "referee %s games %" PRIu64 " moves %" PRIu64
	    " optimal ", name, f->games, f->moves);
	known = results_optimal_tenths(f->kept, f->threw, &t) == 0;
	cmd_history_pct(b, known, t);
	buf_printf(b, " kept-win %" PRIu64 " threw-win %" PRIu64
	    " throw-games %" PRIu64 " first-throw-mean ", f->kept, f->threw,
	    f->throw_games);
	if (f->throw_games > 0)
		buf_printf(b, "%.1f", (double)f->first_throw_sum /
		    (double)f->throw_games);
	else
		buf_putc(b, '-');
	buf_printf(b, " won-games %" PRIu64 " converted %" PRIu64
	    " conversion ", f->won_games, f->converted);
	cmd_history_pct(b, f->won_games > 0, f->won_games > 0 ?
	    f->converted * 1000 / f->won_games : 0);
	buf_putc(b, '\n');
}

/*
 * Appends the statistics of pair p (results_pair_get: from a's side),
 * named a and bn.
 */
static void
cmd_results_pair(struct buf *b, const char *a, const char *bn,
    const struct results_pair *x)
{
	const struct matchstat_penta *q = &x->penta;

	buf_printf(b, "players %s %s\n", a, bn);
	buf_printf(b, "games %" PRIu64 " wins %" PRIu64 " losses %" PRIu64
	    " draws %" PRIu64 "\n", matchstat_wdl_games(&x->wdl),
	    x->wdl.wins, x->wdl.losses, x->wdl.draws);
	if (matchstat_wdl_games(&x->wdl) == 0)
		buf_puts(b, "score -\n");
	else {
		buf_printf(b, "score %.4f\n", x->elo.score);
		put_elo_line(b, "elo", &x->elo);
	}
	buf_printf(b, "pairs %" PRIu64 " ll %" PRIu64 " ld %" PRIu64 " wl %"
	    PRIu64 " dd %" PRIu64 " wd %" PRIu64 " ww %" PRIu64 " unpaired %zu"
	    "\n", matchstat_penta_pairs(q), q->ll, q->ld, q->wl, q->dd, q->wd,
	    q->ww, x->unpaired);
	if (x->has_penta_elo)
		put_elo_line(b, "pair-elo", &x->penta_elo);
	put_ref(b, a, &x->ref[0]);
	put_ref(b, bn, &x->ref[1]);
}

/*
 * standings NAME [format=csv] and crosstable NAME: a tournament's table
 * with tie-breaks (as text after its status and progress, or as export's
 * CSV), or its crosstable.
 */
static int
cmd_tour_results_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct lobby_tresults tr;
	int		 csv = c->argc > 1;

	if (csv && (strcasecmp(c->name, "standings") != 0 ||
	    strcmp(c->argv[1], "format=csv") != 0)) {
		buf_printf(body, "unknown argument %.40s: expected format=csv",
		    c->argv[1]);
		return (CMD_ERROR);
	}
	cmd_work_apply(s);	/* a follower's read (cmd-prep.c) */
	if (lobby_tour_results(s->lobby, c->argv[0], &tr, body) != 0)
		return (CMD_ERROR);
	if (csv) {
		export_standings_csv(body, &tr.r);
		results_free(&tr.r);
		return (CMD_OK);
	}
	buf_printf(body, "status %s\nplayed %zu of %zu\n",
	    lobby_tour_status(tr.status), tr.played, tr.total);
	if (strcasecmp(c->name, "crosstable") == 0)
		cmd_results_crosstable(body, &tr.r);
	else
		cmd_results_standings(body, &tr.r);
	results_free(&tr.r);
	return (CMD_OK);
}

/*
 * Sets the selection of f (no bounds, at most RESULTS_MAX_GAMES games)
 * from the arguments of c from the first-th on (tournament=, since=,
 * until=).  Returns 1 if one of them is tournament= or since=, 0 if
 * not, -1 with the reason in body.
 */
static int
cmd_results_filter(struct session *s, const struct proto_cmd *c, int first,
    struct store_rfilter *f, struct buf *body)
{
	char		 err[160];
	int		 i, sel = 0, seen = 0, bit;

	f->since_ms = f->until_ms = STORE_TIME_NONE;
	f->max = RESULTS_MAX_GAMES;
	for (i = first; i < c->argc; i++) {
		if (export_filter_arg(s->store, c->argv[i], f, err,
		    sizeof err) != 0) {
			buf_puts(body, err);
			return (-1);
		}
		/* Valid: tournament=, since= or until=, each at most once. */
		bit = c->argv[i][0] == 't' ? 1 : c->argv[i][0] == 's' ? 2 : 4;
		if (seen & bit) {
			buf_printf(body, "%.*s= given twice", (int)strcspn(
			    c->argv[i], "="), c->argv[i]);
			return (-1);
		}
		seen |= bit;
		sel |= strncmp(c->argv[i], "until=", 6) != 0;
	}
	return (sel);
}

/*
 * pairstats A B [tournament=NAME] [since=TIME] [until=TIME]: a pair's
 * statistics from the log.
 */
static int
cmd_pairstats_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct store_rfilter f;
	struct results	 r;
	struct results_pair p;
	char		 err[128];
	int		 i;

	if (cmd_history_none(s, body) != 0)
		return (CMD_ERROR);
	if (strcmp(c->argv[0], c->argv[1]) == 0) {
		buf_puts(body, "pairstats needs two different players");
		return (CMD_ERROR);
	}
	for (i = 0; i < 2; i++)
		if (!league_player_ok(c->argv[i])) {
			buf_printf(body, "bad player name %.40s%s: an account "
			    "name (1..%d of A-Z a-z 0-9 _ - .) or engine",
			    c->argv[i], strlen(c->argv[i]) > 40 ? "..." : "",
			    LEAGUE_NAME_MAX);
			return (CMD_ERROR);
		}
	memset(&f, 0, sizeof f);
	f.a = c->argv[0];
	f.b = c->argv[1];
	if (cmd_results_filter(s, c, 2, &f, body) < 0)
		return (CMD_ERROR);
	if (results_read(s->store, &f, &r, err, sizeof err) != 0) {
		buf_puts(body, err);
		return (CMD_ERROR);
	}
	results_pair_named(&r, f.a, f.b, &p);
	cmd_results_pair(body, f.a, f.b, &p);
	results_free(&r);
	return (CMD_OK);
}

/*
 * export TABLE tournament=NAME|since=TIME [until=TIME]: one CSV table of
 * a tournament's or a time span's finished games (§13.11).
 */
static int
cmd_export_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct store_rfilter f;
	enum export_sheet t;
	char		 err[256];
	int		 sel;

	if (cmd_history_none(s, body) != 0)
		return (CMD_ERROR);
	if (export_sheet_parse(c->argv[0], &t) != 0) {
		buf_printf(body, "unknown table %.40s: expected standings, "
		    "crosstable, pairs, referee, games or moves", c->argv[0]);
		return (CMD_ERROR);
	}
	memset(&f, 0, sizeof f);
	if ((sel = cmd_results_filter(s, c, 1, &f, body)) < 0)
		return (CMD_ERROR);
	if (!sel) {
		buf_puts(body, "export needs tournament=NAME or since=TIME");
		return (CMD_ERROR);
	}
	if (export_csv(s->store, &f, t, s->conf->lim.max_reply, body, err,
	    sizeof err) != 0) {
		buf_reset(body);
		buf_puts(body, err);
		return (CMD_ERROR);
	}
	return (CMD_OK);
}

const struct cmd_entry cmd_standings_entry = {
	.name = "standings", .min_args = 1, .max_args = 2,
	.flags = CMD_F_LOOP | CMD_F_LOBBY | CMD_F_PREP, .usage = "NAME [format=csv]",
	.exec = cmd_tour_results_exec
};
const struct cmd_entry cmd_crosstable_entry = {
	.name = "crosstable", .min_args = 1, .max_args = 1,
	.flags = CMD_F_LOOP | CMD_F_LOBBY | CMD_F_PREP, .usage = "NAME",
	.exec = cmd_tour_results_exec
};
const struct cmd_entry cmd_pairstats_entry = {
	.name = "pairstats", .min_args = 2, .max_args = 5,
	.flags = CMD_F_HEAVY | CMD_F_DB,
	.usage = "A B [tournament=NAME] [since=TIME] [until=TIME]",
	.exec = cmd_pairstats_exec
};
const struct cmd_entry cmd_export_entry = {
	.name = "export", .min_args = 2, .max_args = 4,
	.flags = CMD_F_HEAVY | CMD_F_DB,
	.usage = "TABLE tournament=NAME|since=TIME [until=TIME] "
	    "[tournament=NAME]",
	.exec = cmd_export_exec
};
