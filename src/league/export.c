/*
 * export.c: a tournament's or a time span's results and games as CSV
 * tables (export.h; PROTOCOL.md §13.11), one table per call.  The
 * results come from results.c, the games from the log's records, so the
 * export, the commands and the JSON API show the same data.  The output
 * is bounded: past max bytes the export stops and is refused.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league/export.h"
#include "stats/results.h"
#include "store/store.h"

static const char *const export_names[EXPORT_NSHEETS] = {
	"standings", "crosstable", "pairs", "referee", "games", "moves"
};

/* The header line of each table. */
static const char *const export_heads[EXPORT_NSHEETS] = {
	"rank,name,points,games,wins,losses,draws,byes,forfeit_wins,"
	"forfeit_losses",
	"player,opponent,points,games",
	"a,b,games,wins,losses,draws,score,elo,elo_lo,elo_hi,los,pairs,ll,ld,"
	"wl,dd,wd,ww,unpaired,pair_elo,pair_elo_lo,pair_elo_hi,pair_los",
	"name,games,moves,kept_win,threw_win,optimal_rate,throw_games,"
	"first_throw_mean,won_games,converted,conversion_rate",
	"id,family,start,player1,player2,status,result,winner,reason,rated,"
	"tc,tournament,started,ended",
	"game,ply,player,move,position,mark,time_ms,time_us",
};

/* Sets *t from a table's name; 0, or -1 if there is no such table. */
int
export_sheet_parse(const char *s, enum export_sheet *t)
{
	int	 i;

	for (i = 0; i < EXPORT_NSHEETS; i++)
		if (strcmp(s, export_names[i]) == 0) {
			*t = (enum export_sheet)i;
			return (0);
		}
	return (-1);
}

/*
 * Parses a time: "YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SSZ" or the log's
 * "YYYY-MM-DDTHH:MM:SS.mmmZ" (UTC) into *ms.  Returns 0 or -1.
 */
static int
export_time(const char *s, int64_t *ms)
{
	char	 t[STORE_TIME_LEN];
	size_t	 n = strlen(s);

	if (n == 10)
		snprintf(t, sizeof t, "%.10sT00:00:00.000Z", s);
	else if (n == 20 && s[19] == 'Z')
		snprintf(t, sizeof t, "%.19s.000Z", s);
	else if (n == STORE_TIME_LEN - 1)
		snprintf(t, sizeof t, "%s", s);
	else
		return (-1);
	*ms = store_time_parse(t);
	return (*ms == STORE_TIME_NONE ? -1 : 0);
}

/*
 * Sets one selection of f from "KEY=VALUE": tournament=NAME (its id;
 * "-": the games outside tournaments), since=TIME or until=TIME.
 * Returns 0, or -1 with the reason in err.
 */
int
export_filter_arg(struct store *st, const char *arg, struct store_rfilter *f,
    char *err, size_t errlen)
{
	const char	*v;
	int64_t		 id;

	if (strncmp(arg, "tournament=", 11) == 0) {
		v = arg + 11;
		if (strcmp(v, "-") == 0) {
			f->tournament = -1;
			return (0);
		}
		if ((id = store_tour_id(st, v)) <= 0) {
			snprintf(err, errlen, id == 0 ? "no tournament %.32s" :
			    "the game log cannot be read now", v);
			return (-1);
		}
		f->tournament = id;
		return (0);
	}
	if (strncmp(arg, "since=", 6) == 0 || strncmp(arg, "until=", 6) == 0) {
		v = arg + 6;
		if (export_time(v, arg[0] == 's' ? &f->since_ms :
		    &f->until_ms) != 0) {
			snprintf(err, errlen, "bad time %.40s: expected "
			    "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.mmm]Z (UTC)", v);
			return (-1);
		}
		return (0);
	}
	snprintf(err, errlen, "unknown argument %.40s: expected "
	    "tournament=NAME, since=TIME or until=TIME", arg);
	return (-1);
}

/* Appends a CSV field (RFC 4180: quoted when it holds , " CR or LF). */
static void
csv_str(struct buf *b, const char *s)
{
	const char	*p;

	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\r\n") == NULL) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			buf_putc(b, '"');
		buf_putc(b, *p);
	}
	buf_putc(b, '"');
}

/* Appends a CSV field and the comma that ends it. */
static void
csv_field(struct buf *b, const char *s)
{
	csv_str(b, s);
	buf_putc(b, ',');
}

/*
 * Appends x: with prec decimals, or as %g if prec is negative; "inf" or
 * "-inf" if infinite.
 */
void
export_num(struct buf *b, int prec, double x)
{
	if (isinf(x))
		buf_puts(b, x > 0 ? "inf" : "-inf");
	else if (prec < 0)
		buf_printf(b, "%g", x);
	else
		buf_printf(b, "%.*f", prec, x);
}

/* Appends ",X" with X as export_num writes it; empty when absent (has 0). */
static void
csv_num(struct buf *b, int has, int prec, double x)
{
	buf_putc(b, ',');
	if (has)
		export_num(b, prec, x);
}

/*
 * The standings table, its header line first (the fixed columns, then
 * the tie-breaks' names): export's and `standings NAME format=csv`'s
 * (the lobby's record: byes and withdrawals too).  Pure: no I/O.
 */
void
export_standings_csv(struct buf *b, const struct results *r)
{
	const struct standing *s;
	const struct xtable_player *p;
	size_t		 i;
	unsigned int	 k;

	buf_puts(b, export_heads[EXPORT_STANDINGS]);
	for (k = 0; k < r->tb.n; k++)
		buf_printf(b, ",%s", tb_name(r->tb.k[k]));
	buf_putc(b, '\n');
	for (i = 0; i < r->n; i++) {
		p = results_standing(r, i, &s);
		buf_printf(b, "%u,", s->rank);
		csv_str(b, r->names[s->player]);
		csv_num(b, 1, -1, (double)s->half / 2.0);
		buf_printf(b, ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
		    ",%" PRIu32 ",%" PRIu32 ",%" PRIu32, p->games, p->wins,
		    p->losses, p->draws, p->byes, p->fwins, p->flosses);
		for (k = 0; k < r->tb.n; k++)
			csv_num(b, s->tb[k] >= 0, -1, (double)s->tb[k] /
			    tb_unit(r->tb.k[k]));
		buf_putc(b, '\n');
	}
}

/* The crosstable, one line per two players that met. */
static void
csv_crosstable(struct buf *b, const struct results *r)
{
	const struct xtable_cell *c;
	size_t		 i, k;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->n; k++) {
			if (i == k || (c = xtable_get(&r->xt, i, k)) == NULL ||
			    c->games == 0)
				continue;
			csv_field(b, r->names[i]);
			csv_str(b, r->names[k]);
			csv_num(b, 1, -1, (double)c->half / 2.0);
			buf_printf(b, ",%" PRIu32 "\n", c->games);
		}
}

/* Appends an estimate's elo, lo, hi and los, empty if absent. */
static void
csv_elo(struct buf *b, int has, const struct matchstat_elo *e)
{
	csv_num(b, has, 1, e->elo);
	csv_num(b, has, 1, e->elo_lo);
	csv_num(b, has, 1, e->elo_hi);
	csv_num(b, has, 4, e->los);
}

/* The pairs table: one line per pair that met, from a's side. */
static void
csv_pairs(struct buf *b, const struct results *r)
{
	const struct results_pair *p;
	const struct matchstat_penta *q;
	size_t		 i;

	for (i = 0; i < r->npairs; i++) {
		p = &r->pairs[i];
		q = &p->penta;
		csv_field(b, r->names[p->a]);
		csv_str(b, r->names[p->b]);
		buf_printf(b, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		    matchstat_wdl_games(&p->wdl), p->wdl.wins, p->wdl.losses,
		    p->wdl.draws);
		csv_num(b, 1, 4, p->elo.score);
		csv_elo(b, 1, &p->elo);
		buf_printf(b, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		    ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu",
		    matchstat_penta_pairs(q), q->ll, q->ld, q->wl, q->dd,
		    q->wd, q->ww, p->unpaired);
		csv_elo(b, p->has_penta_elo, &p->penta_elo);
		buf_putc(b, '\n');
	}
}

/* The referee table: each player's figures over the whole set. */
static void
csv_referee(struct buf *b, const struct results *r)
{
	const struct results_ref *f;
	size_t		 i;

	for (i = 0; i < r->n; i++) {
		f = &r->ref[i];
		csv_str(b, r->names[i]);
		buf_printf(b, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		    f->games, f->moves, f->kept, f->threw);
		csv_num(b, f->kept + f->threw > 0, 4,
		    results_optimal_rate(f->kept, f->threw));
		buf_printf(b, ",%" PRIu64, f->throw_games);
		csv_num(b, f->throw_games > 0, 1, f->throw_games > 0 ?
		    (double)f->first_throw_sum / (double)f->throw_games : 0);
		buf_printf(b, ",%" PRIu64 ",%" PRIu64, f->won_games,
		    f->converted);
		csv_num(b, f->won_games > 0, 4, f->won_games > 0 ?
		    (double)f->converted / (double)f->won_games : 0);
		buf_putc(b, '\n');
	}
}

/* Appends a time of the log as a CSV field (empty if unknown). */
static void
csv_time(struct buf *b, int64_t ms)
{
	char	 t[STORE_TIME_LEN];

	buf_putc(b, ',');
	if (ms == STORE_TIME_NONE)
		return;
	store_time_text(ms, t, sizeof t);
	buf_puts(b, t);
}

/* One line of the games table; tour is the tournament's name or NULL. */
static void
csv_game(struct buf *b, const struct store_gameinfo *g, const char *tour)
{
	buf_printf(b, "%" PRId64 ",", g->id);
	csv_field(b, g->family);
	csv_field(b, g->game);
	csv_field(b, g->player1);
	csv_str(b, g->player2);
	buf_printf(b, ",%s,%s,", store_status_name(g->status),
	    g->result == STORE_RESULT_NONE ? "" : store_result_name(g->result));
	csv_field(b, g->result == STORE_RESULT_FIRST ? g->player1 :
	    g->result == STORE_RESULT_SECOND ? g->player2 : NULL);
	csv_str(b, g->reason);
	buf_printf(b, ",%d,", g->rated);
	if (g->has_tc)
		buf_printf(b, "%" PRIu64 "+%" PRIu64, g->tc_base_ms,
		    g->tc_inc_ms);
	buf_putc(b, ',');
	csv_str(b, tour);
	csv_time(b, g->started_ms);
	csv_time(b, g->ended_ms);
	buf_putc(b, '\n');
}

/* The moves of one record, a line each. */
static void
csv_moves(struct buf *b, const struct store_record *rec)
{
	const struct store_rmove *m;
	size_t		 i;

	for (i = 0; i < rec->nmoves; i++) {
		m = &rec->moves[i];
		buf_printf(b, "%" PRId64 ",%" PRIu64 ",%d,", rec->game.id,
		    m->ply, m->player);
		csv_field(b, m->move);
		csv_str(b, m->position);
		buf_printf(b, ",%s,%" PRIu64 ",%" PRIu64 "\n",
		    store_mark_name(m->mark), m->time_ms, m->time_us);
	}
}

/*
 * The games or moves table of the games g[0..n): each game's record read
 * from the log.  Stops at max bytes.  Returns 0, or -1 if the log cannot
 * be read.
 */
static int
csv_records(struct store *st, const struct store_rgames *g,
    enum export_sheet t, size_t max, struct buf *b)
{
	struct store_record rec;
	char		*tour;
	size_t		 i;

	for (i = 0; i < g->n && (max == 0 || b->len <= max); i++) {
		if (store_record(st, g->v[i].id, &rec) <= 0)
			return (-1);
		if (t == EXPORT_GAMES) {
			tour = store_tour_name(st, rec.game.tournament);
			csv_game(b, &rec.game, tour);
			free(tour);
		} else
			csv_moves(b, &rec);
		store_record_free(&rec);
	}
	return (0);
}

/*
 * Appends table t of the games that f selects to out as CSV, a header
 * line first.  max (0: none) bounds the bytes appended.  Returns 0; -1
 * with the reason in err (nothing appended) when the log cannot be read,
 * there are more than f->max games, or the table would pass max bytes.
 */
int
export_csv(struct store *st, const struct store_rfilter *f,
    enum export_sheet t, size_t max, struct buf *out, char *err,
    size_t errlen)
{
	struct store_rgames g;
	struct results	 r;
	struct buf	 b;
	int		 bad = 0;

	if (results_read_games(st, f, &g, &r, err, errlen) != 0)
		return (-1);
	buf_init(&b);
	if (t != EXPORT_STANDINGS)
		buf_printf(&b, "%s\n", export_heads[t]);
	switch (t) {
	case EXPORT_STANDINGS:
		export_standings_csv(&b, &r);
		break;
	case EXPORT_CROSSTABLE:
		csv_crosstable(&b, &r);
		break;
	case EXPORT_PAIRS:
		csv_pairs(&b, &r);
		break;
	case EXPORT_REFEREE:
		csv_referee(&b, &r);
		break;
	default:
		bad = csv_records(st, &g, t, max, &b);
		break;
	}
	results_free(&r);
	store_rgames_free(&g);
	if (bad)
		snprintf(err, errlen, "the game log cannot be read now");
	else if (max != 0 && b.len > max) {
		snprintf(err, errlen, "the %s table is over %zu bytes (the "
		    "reply limit): choose a narrower set, or GET /api/export",
		    export_names[t], max);
		bad = 1;
	} else
		buf_add(out, buf_str(&b), b.len);
	buf_free(&b);
	return (bad ? -1 : 0);
}
