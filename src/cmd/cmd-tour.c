/*
 * cmd-tour.c: the tournament command (PROTOCOL.md §13.6): tournament
 * create, list, show, cancel, pause, resume, add and withdraw.  The
 * arguments are parsed and the replies formatted here; the lobby's typed
 * operations (lobby.h, lobby-ops.c, lobby-tour.c) do the rest.  Runs on
 * the loop (CMD_F_LOOP) with a lobby.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-prep.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-results.h"
#include "node/lnode.h"
#include "proto/proto.h"
#include "session/session.h"
#include "stats/sprt.h"

#define CMD_TOUR_SPRT_GAMES	2000	/* games per pairing with an SPRT */
#define CMD_TOUR_GAMES		100	/* without */
#define CMD_TOUR_ROUNDS		63	/* Swiss rounds */
#define CMD_TOUR_ARENA_ROUNDS	1000	/* arena rounds */
#define CMD_TOUR_ARENA_GAMES	10	/* an arena's games per pairing */
#define CMD_TOUR_FORFEIT	86400	/* seconds of a forfeit deadline */

/* Splits "a,b,c" into the tournament's player list. */
static int
cmd_tour_players(struct league_tournament *d, const char *s)
{
	char		*copy = xstrdup(s), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (d->nplayers == 64) {
			free(copy);
			return (-1);
		}
		d->players = xreallocarray(d->players, d->nplayers + 1,
		    sizeof *d->players);
		d->players[d->nplayers++] = xstrdup(tok);
	}
	free(copy);
	return (0);
}

/* Reads a decimal number in lo..hi into *v; returns 0 or -1. */
static int
cmd_tour_num(const char *a, unsigned long lo, unsigned long hi,
    unsigned long *v)
{
	char	*end;

	errno = 0;
	*v = strtoul(a, &end, 10);
	return (a[0] < '0' || a[0] > '9' || *end != '\0' || errno != 0 ||
	    *v < lo || *v > hi ? -1 : 0);
}

/* Reads sprt=ELO0,ELO1[,ALPHA,BETA] into d; returns 0 or -1 with body. */
static int
cmd_tour_sprt(const char *a, struct league_tournament *d, struct buf *body)
{
	double		 v[4] = { 0, 0, 0.05, 0.05 };
	struct sprt	 t;
	enum sprt_err	 e;
	char		*end;
	int		 i;

	for (i = 0; i < 4; i++) {
		errno = 0;
		v[i] = strtod(a, &end);
		if (end == a || errno != 0 || (*end != ',' && *end != '\0'))
			break;
		a = end;
		if (*a == '\0' || (i == 3 && *a != '\0'))
			break;
		a++;
	}
	if (*a != '\0' || (i != 1 && i != 3)) {
		buf_puts(body, "sprt=ELO0,ELO1[,ALPHA,BETA]: two or four "
		    "numbers");
		return (-1);
	}
	if ((e = sprt_init(&t, SPRT_LOGISTIC, v[0], v[1], v[2], v[3])) !=
	    SPRT_OK) {
		buf_printf(body, "sprt: %s", sprt_strerror(e));
		return (-1);
	}
	d->has_sprt = 1;
	d->sprt_elo0 = v[0];
	d->sprt_elo1 = v[1];
	d->sprt_alpha = v[2];
	d->sprt_beta = v[3];
	return (0);
}

enum { T_PLAYERS, T_GAMES, T_TC, T_SEED, T_RANDOM, T_PAIRS, T_ROUNDS,
	T_FORFEIT, T_SPRT, T_TIEBREAKS };

/*
 * Takes option k (value a) of tournament create.  Returns 0, 1 if the
 * token is the game's, or -1 with body filled in.
 */
static int
cmd_tour_opt(int k, const char *a, struct league_tournament *d,
    int *have_seed, struct buf *body)
{
	unsigned long	 v;
	char		 err[128];
	int		 max;

	switch (k) {
	case T_PLAYERS:
		if (d->nplayers != 0)
			return (1);
		if (cmd_tour_players(d, a) != 0) {
			buf_puts(body, "too many players (limit 64)");
			return (-1);
		}
		return (0);
	case T_GAMES:
	case T_PAIRS:
		/* Above 100 games: only with an SPRT (cmd_tour_create). */
		if (cmd_tour_num(a, 1, k == T_GAMES ? CMD_TOUR_SPRT_GAMES :
		    CMD_TOUR_SPRT_GAMES / 2, &v) != 0) {
			buf_puts(body, k == T_GAMES ? "games=N: 1..100 games "
			    "per pairing" : "pairs=N: 1..50 game pairs per "
			    "pairing");
			return (-1);
		}
		d->games_per_pair = (unsigned int)(k == T_GAMES ? v : 2 * v);
		return (0);
	case T_TC:
		if (proto_parse_tc(a, &d->base_ms, &d->inc_ms)) {
			buf_printf(body, "invalid time control %.64s", a);
			return (-1);
		}
		return (0);
	case T_SEED:
		*have_seed = 1;
		if (cmd_tour_num(a, 0, ULONG_MAX, &v) != 0) {
			buf_puts(body, "seed=S: a number");
			return (-1);
		}
		d->seed = v;
		return (0);
	case T_RANDOM:
		if (strcmp(a, "1") != 0)
			return (1);
		d->random = 1;
		return (0);
	case T_ROUNDS:
	case T_FORFEIT:
		max = k == T_ROUNDS ? CMD_TOUR_ARENA_ROUNDS : CMD_TOUR_FORFEIT;
		if (cmd_tour_num(a, 1, max, &v) != 0) {
			buf_printf(body, k == T_ROUNDS ?
			    "rounds=R: 1..%d rounds" :
			    "forfeit=SECONDS: 1..%d", max);
			return (-1);
		}
		if (k == T_ROUNDS)
			d->rounds = (unsigned int)v;
		else
			d->forfeit_s = (unsigned int)v;
		return (0);
	case T_SPRT:
		return (cmd_tour_sprt(a, d, body));
	case T_TIEBREAKS:
		if (tb_list_parse(a, &d->tb, err, sizeof err) != 0) {
			buf_printf(body, "tiebreaks=LIST: %s", err);
			return (-1);
		}
		return (0);
	}
	return (1);
}

/*
 * Takes the options of tournament create out of argv (from the third
 * argument); the game tokens go to rest[*n].  Sets *have_seed when seed=
 * was given, *have_games when games= or pairs= was.  Returns 0, or -1
 * with body filled in.
 */
static int
cmd_tour_opts(int argc, char **argv, struct league_tournament *d,
    int *have_seed, char **rest, int *n, struct buf *body)
{
	/*
	 * players= after the first and random= other than 1 are game
	 * tokens, as any other; the game's parse then refuses them.
	 */
	static const char *const keys[] = {
		"players", "games", "tc", "seed", "random", "pairs", "rounds",
		"forfeit", "sprt", "tiebreaks"
	};
	const char	*a;
	int		 i, k, r;

	for (i = 2; i < argc; i++) {
		k = lobby_key(argv[i], keys, sizeof keys / sizeof keys[0], &a);
		if ((r = cmd_tour_opt(k, a, d, have_seed, body)) < 0)
			return (-1);
		if (r > 0)
			rest[(*n)++] = argv[i];
	}
	return (0);
}

/*
 * Parses tournament d's game from its n tokens into d->game, checking
 * that a game can be played (a template: a fair start can be drawn with
 * the tournament's seed, drawn here unless given).
 */
static int
cmd_tour_game(struct session *s, struct league_tournament *d, int n,
    char **rest, int have_seed, struct buf *body)
{
	const struct lobby_conf *conf = lobby_client_conf(s->lc);
	struct game_error gerr;
	struct game	 g, drawn;
	struct buf	 spec;
	gmp_randstate_t	 rs;
	int		 rv;

	if (lobby_spec_fits(n, rest, body) != 0)
		return (-1);
	if (n == 0 || game_parse(&g, n, rest, &conf->lim, &gerr) != 0) {
		buf_printf(body, "invalid game: %s", n == 0 ? "none given" :
		    gerr.msg);
		return (-1);
	}
	buf_init(&spec);
	game_print(&g, &spec);
	if (!d->random && game_terminal(&g)) {
		game_free(&g);
		buf_free(&spec);
		buf_puts(body, "the game is already over: nobody can move");
		return (-1);
	}
	if (!have_seed)		/* unpredictable unless asked for */
		d->seed = lobby_tour_seed();
	if (d->random) {
		/* A template with no fair start could never be played. */
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, (unsigned long)d->seed);
		rv = lobby_draw_start(&g, rs, &conf->lim, &drawn, &gerr);
		gmp_randclear(rs);
		if (rv != 0) {
			game_free(&g);
			buf_free(&spec);
			buf_printf(body, "%s", gerr.msg);
			return (-1);
		}
		game_free(&drawn);
	}
	game_free(&g);
	d->game = xstrdup(buf_str(&spec));
	buf_free(&spec);
	return (0);
}

#define CMD_TOUR_USAGE "usage: tournament create NAME roundrobin|gauntlet|" \
	"swiss|arena players=A,B,... [games=N|pairs=N] [rounds=R] [tc=TC] " \
	"[seed=S] [random=1] [forfeit=SECONDS] [sprt=ELO0,ELO1[,ALPHA,BETA]] " \
	"[tiebreaks=TB,...] GAME"

/* Checks what create's options say together; 0, or -1 with body. */
static int
cmd_tour_check(const struct league_tournament *d, struct buf *body)
{
	size_t	 n = d->nplayers;

	if (n < 2) {
		buf_puts(body, "players=A,B,...: at least two players");
		return (-1);
	}
	if (d->games_per_pair > CMD_TOUR_GAMES && !d->has_sprt) {
		buf_puts(body, "games=N: 1..100 games per pairing");
		return (-1);
	}
	if ((d->format == LEAGUE_SWISS || d->format == LEAGUE_ARENA) !=
	    (d->rounds != 0)) {
		buf_puts(body, d->rounds != 0 ? "rounds=R: Swiss and arena "
		    "only" : "a Swiss tournament or an arena needs rounds=R");
		return (-1);
	}
	if (d->format == LEAGUE_ARENA && d->games_per_pair >
	    CMD_TOUR_ARENA_GAMES) {
		buf_printf(body, "an arena plays at most %d games per pairing "
		    "and round", CMD_TOUR_ARENA_GAMES);
		return (-1);
	}
	if (d->format == LEAGUE_SWISS && d->rounds > CMD_TOUR_ROUNDS) {
		buf_printf(body, "rounds=R: at most %d Swiss rounds",
		    CMD_TOUR_ROUNDS);
		return (-1);
	}
	if (d->format == LEAGUE_SWISS && d->rounds > (n % 2 ? n : n - 1)) {
		buf_printf(body, "rounds=R: at most %zu rounds for %zu "
		    "players (no rematch)", n % 2 ? n : n - 1, n);
		return (-1);
	}
	if (d->has_sprt && !(d->format == LEAGUE_GAUNTLET ||
	    (d->format == LEAGUE_ROUNDROBIN && n == 2))) {
		buf_puts(body, "sprt=: a gauntlet or a two-player round-robin "
		    "only");
		return (-1);
	}
	return (0);
}

/*
 * tournament create's definition from its arguments (NAME FORMAT
 * OPTIONS... GAME): parsed and checked into d, not stored.  On a worker
 * (cmd-prep.c).  Returns 0, or -1 with the reason in body (d freed).
 */
int
cmd_tour_define(struct session *s, int argc, char **argv,
    struct league_tournament *d, struct buf *body)
{
	const struct lobby_conf *conf = lobby_client_conf(s->lc);
	char		**rest;
	int		 n = 0, have_seed = 0, f;

	memset(d, 0, sizeof *d);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	if (argc < 2 || !league_name_ok(argv[0])) {
		buf_puts(body, CMD_TOUR_USAGE);
		goto fail;
	}
	snprintf(d->name, sizeof d->name, "%s", argv[0]);
	for (f = 0; league_format_name((enum league_format)f) != NULL; f++)
		if (strcmp(argv[1], league_format_name(
		    (enum league_format)f)) == 0)
			break;
	if (league_format_name((enum league_format)f) == NULL) {
		buf_printf(body, "unknown format %.32s: roundrobin, gauntlet, "
		    "swiss or arena", argv[1]);
		goto fail;
	}
	d->format = (enum league_format)f;
	d->games_per_pair = 2;
	d->base_ms = conf->default_base_ms;
	d->inc_ms = conf->default_inc_ms;
	if (cmd_tour_opts(argc, argv, d, &have_seed, rest, &n, body) != 0 ||
	    cmd_tour_check(d, body) != 0)
		goto fail;
	if (d->tb.n == 0)	/* stored, so that show tells it */
		lobby_tour_tb(d, &d->tb);
	if (cmd_tour_game(s, d, n, rest, have_seed, body) != 0)
		goto fail;
	free(rest);
	return (0);
fail:
	league_tournament_free(d);
	free(rest);
	return (-1);
}

/*
 * tournament create: the tournament its preparation stored on a worker
 * (cmd-prep.c) starts; a refusal there is the reply.
 */
static int
cmd_tour_create(struct session *s, struct buf *body)
{
	struct cmd_work	*w = s->work;
	size_t		 nslots;

	if (w == NULL || w->create == 0) {	/* never: prepared */
		buf_puts(body, "tournament create was not prepared: try again");
		return (CMD_ERROR);
	}
	if (w->create < 0) {
		buf_add(body, w->err.data, w->err.len);
		cmd_work_clear(w);
		return (CMD_ERROR);
	}
	lobby_tour_add(s->lc, &w->def, &nslots);	/* takes def */
	w->create = 0;
	buf_printf(body, "tournament %lld %s games %zu",
	    (long long)w->def.id, w->def.name, nslots);
	memset(&w->def, 0, sizeof w->def);
	return (CMD_OK);
}

/* Frees what a preparation left (cmd-prep.h). */
void
cmd_work_clear(struct cmd_work *w)
{
	size_t	 i;

	lobby_xtour_pre_free(w->xtour);
	w->xtour = NULL;
	for (i = 0; i < w->ntl; i++)
		league_tournament_free(&w->tl[i]);
	free(w->tl);
	w->tl = NULL;
	w->ntl = 0;
	w->list = 0;
	if (w->create != 0)
		league_tournament_free(&w->def);
	memset(&w->def, 0, sizeof w->def);
	w->create = 0;
	buf_reset(&w->err);
	lobby_tour_change_free(&w->tc);
	memset(&w->tc, 0, sizeof w->tc);
	w->tchange = 0;
}

/* The admin's changes of tournament NAME [PLAYER], by their word. */
static const char *const cmd_tour_tcs[] = {
	[LOBBY_TC_CANCEL] = "cancel",
	[LOBBY_TC_PAUSE] = "pause",
	[LOBBY_TC_RESUME] = "resume",
	[LOBBY_TC_ADD] = "add",
	[LOBBY_TC_WITHDRAW] = "withdraw",
};

/* The change a tournament line asks for (argc 2, or 3 with a player), or
 * -1 (cmd-prep.c too). */
int
cmd_tour_tc(const struct proto_cmd *cmd)
{
	size_t	 i;

	for (i = 0; i < sizeof cmd_tour_tcs / sizeof cmd_tour_tcs[0]; i++)
		if (strcmp(cmd->argv[0], cmd_tour_tcs[i]) == 0 &&
		    cmd->argc == (i >= LOBBY_TC_ADD ? 3 : 2))
			return ((int)i);
	return (-1);
}

/*
 * tournament cancel|pause|resume NAME, add|withdraw NAME PLAYER: the
 * change its preparation stored (cmd-prep.c) applies; one that was not
 * prepared is refused (the check refused it before, on the loop).
 */
static int
cmd_tour_change(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct cmd_work	*w = s->work;
	struct lobby_tchange tc;
	int		 rv;

	if (w != NULL && w->tchange == 2) {
		rv = lobby_tour_change_apply(s->lc, &w->tc, body);
		cmd_work_clear(w);
		return (rv == 0 ? CMD_OK : CMD_ERROR);
	}
	memset(&tc, 0, sizeof tc);
	tc.op = (enum lobby_tc)cmd_tour_tc(c);
	snprintf(tc.name, sizeof tc.name, "%s", c->argv[1]);
	snprintf(tc.player, sizeof tc.player, "%s", c->argc > 2 ?
	    c->argv[2] : "");
	if (lobby_tour_change(s->lc, &tc, body) == 0)	/* never */
		buf_puts(body, "the change was not prepared: try again");
	lobby_tour_change_free(&tc);
	return (CMD_ERROR);
}

/* On the loop, as a tournament's reader runs: its read from the log, if
 * its preparation made one (cmd-prep.c), becomes the lobby's copy. */
void
cmd_work_apply(struct session *s)
{
	if (s->work == NULL || s->work->xtour == NULL)
		return;
	lobby_xtour_pre_apply(s->work->xtour);
	s->work->xtour = NULL;
}

/*
 * tournament list: one line per tournament, as its preparation read them
 * (cmd-prep.c); where this node schedules them, the statuses are its own
 * (its memory is the truth; the log follows: lobby-tstore.c).
 */
static int
cmd_tour_list(struct session *s, struct buf *body)
{
	struct cmd_work	*w = s->work;
	struct league_tournament *v;
	struct buf	 no;
	size_t		 i;
	int		 own;

	if (w == NULL || !w->list || w->list_rc != 0) {
		buf_puts(body, "cannot read the tournaments");
		if (w != NULL)
			cmd_work_clear(w);
		return (CMD_ERROR);
	}
	buf_init(&no);
	own = lobby_xtour_refuse(s->lc, &no) == 0;
	buf_free(&no);
	for (i = 0, v = w->tl; i < w->ntl; i++) {
		if (own)
			v[i].status = lobby_tour_status_of(s->lc, v[i].id,
			    v[i].status);
		buf_printf(body, "%lld %s %s %s games-per-pair=%u tc=",
		    (long long)v[i].id, v[i].name,
		    league_format_name(v[i].format),
		    lobby_tour_status(v[i].status), v[i].games_per_pair);
		proto_tc_print(body, v[i].base_ms, v[i].inc_ms);
		buf_printf(body, " %s\n", v[i].game);
	}
	cmd_work_clear(w);
	return (CMD_OK);
}

/* tournament show's pending games and SPRT lines. */
static void
cmd_tour_show_tail(const struct lobby_tshow *sh, struct buf *body)
{
	const struct league_tournament *d = sh->def;
	size_t		 i;

	for (i = 0; i < sh->npend; i++) {
		const struct lobby_tpend *p = &sh->pend[i];

		buf_printf(body, "pending %zu game %u %s %s", p->slot,
		    p->game, p->p[0], p->p[1]);
		if (p->after)
			buf_puts(body, " waiting first-game");
		else
			buf_printf(body, " waiting %s=%s %s=%s", p->p[0],
			    lobby_tour_where(p->where[0]), p->p[1],
			    lobby_tour_where(p->where[1]));
		if (p->forfeit)
			buf_printf(body, " forfeit-in=%llu",
			    (unsigned long long)(p->forfeit_ms + 999) / 1000);
		buf_putc(body, '\n');
	}
	if (sh->pending > sh->npend)
		buf_printf(body, "pending-more %zu\n", sh->pending - sh->npend);
	if (!d->has_sprt)
		return;
	buf_printf(body, "sprt elo0=%g elo1=%g alpha=%g beta=%g lower=%.3f "
	    "upper=%.3f\n", d->sprt_elo0, d->sprt_elo1, d->sprt_alpha,
	    d->sprt_beta, sh->lower, sh->upper);
	buf_printf(body, "sprt-state pairs=%llu penta=%llu,%llu,%llu,%llu,"
	    "%llu", (unsigned long long)sh->pairs,
	    (unsigned long long)sh->penta[0], (unsigned long long)sh->penta[1],
	    (unsigned long long)sh->penta[2], (unsigned long long)sh->penta[3],
	    (unsigned long long)sh->penta[4]);
	if (sh->has_llr)
		buf_printf(body, " llr=%.3f", sh->llr);
	buf_printf(body, " verdict=%s\n", sprt_verdict_name((enum sprt_verdict)sh->verdict));
}

/* The rounds of `tournament show` as they are written. */
struct cmd_rounds {
	const struct lobby_tshow *sh;
	struct buf	*body;
	unsigned int	 cur;		/* the round whose line is open */
};

/* Opens the lines of the rounds up to r: "round R bye=NAME|-". */
static void
cmd_rounds_to(struct cmd_rounds *c, unsigned int r)
{
	const struct league_tournament *d = c->sh->def;
	size_t		 bye;

	while (c->cur < r) {
		bye = c->sh->byes != NULL ? c->sh->byes[c->cur] : SIZE_MAX;
		buf_printf(c->body, "\nround %u bye=%s", ++c->cur,
		    bye < d->nplayers ? d->players[bye] : "-");
	}
}

/* One game of a round: " A:B=RESULT" (1-0, 0-1, +- or -+, or a state). */
static void
cmd_rounds_game(void *arg, const struct lobby_tgame *g)
{
	struct cmd_rounds *c = arg;

	cmd_rounds_to(c, g->round);
	buf_printf(c->body, " %s:%s=%s", g->p[0], g->p[1], g->winner == 0 ?
	    g->state : g->forfeit ? (g->winner == 1 ? "+-" : "-+") :
	    g->winner == 1 ? "1-0" : "0-1");
}

/* tournament show NAME: its definition, state and what it waits for. */
static int
cmd_tour_show(struct session *s, const char *name, struct buf *body)
{
	struct lobby_tshow sh;
	const struct league_tournament *d;
	struct tb_list	 tb;
	char		 tbs[TB_TEXT_MAX];
	struct cmd_rounds rc;
	unsigned int	 r;
	size_t		 i;

	cmd_work_apply(s);	/* a follower's read (cmd-prep.c) */
	if (lobby_tour_show(s->lc, name, &sh, body) != 0)
		return (CMD_ERROR);
	d = sh.def;
	buf_printf(body, "tournament %lld %s\nformat %s", (long long)d->id,
	    d->name, league_format_name(d->format));
	if (d->format == LEAGUE_SWISS || d->format == LEAGUE_ARENA)
		buf_printf(body, " rounds=%u paired=%u", d->rounds, sh.round);
	buf_printf(body, "\nstatus %s\ngame %s%s\noptions games-per-pair=%u "
	    "tc=", lobby_tour_status(d->status), d->game,
	    d->random ? " random=1" : "", d->games_per_pair);
	proto_tc_print(body, d->base_ms, d->inc_ms);
	/* The seed tells the random starts to come: the admin's, or at end. */
	if (lobby_client_admin(s->lc) || d->status == LEAGUE_T_FINISHED ||
	    d->status == LEAGUE_T_CANCELLED)
		buf_printf(body, " seed=%llu", (unsigned long long)d->seed);
	else
		buf_puts(body, " seed=hidden");
	lobby_tour_tb(d, &tb);
	tb_list_text(&tb, tbs, sizeof tbs);
	buf_printf(body, " forfeit=%u tiebreaks=%s\nplayers", d->forfeit_s,
	    tbs);
	for (i = 0; i < d->nplayers; i++)
		buf_printf(body, " %s", d->players[i]);
	for (r = 0, i = 0; i < d->nplayers; i++)
		if (d->wround[i] != 0)
			buf_printf(body, "%s%s", r++ == 0 ? "\nwithdrawn " :
			    " ", d->players[i]);
	if (sh.byes != NULL) {
		buf_puts(body, "\nbyes");
		for (r = 0; r < sh.round; r++)
			buf_printf(body, " %s", sh.byes[r] < d->nplayers ?
			    d->players[sh.byes[r]] : "-");
	}
	memset(&rc, 0, sizeof rc);
	rc.sh = &sh;
	rc.body = body;
	lobby_tour_rounds(&sh, cmd_rounds_game, &rc);
	if (d->format == LEAGUE_SWISS)
		cmd_rounds_to(&rc, sh.round);
	buf_printf(body, "\ngames %zu played %zu playing %zu pending %zu "
	    "stopped %zu forfeits %zu\n", sh.total, sh.played, sh.playing,
	    sh.pending, sh.stopped, sh.forfeits);
	cmd_tour_show_tail(&sh, body);
	return (CMD_OK);
}

/*
 * tournament create|list|show|cancel|pause|resume: list and show for
 * everyone, the others for the admin role.
 */
static int
cmd_tournament_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	const char	*op = c->argv[0];

	if (lobby_tour_check(s->lc, body) != 0)
		return (CMD_ERROR);
	if (strcmp(op, "list") == 0 && c->argc == 1)
		return (cmd_tour_list(s, body));
	if (strcmp(op, "show") == 0 && c->argc == 2)
		return (cmd_tour_show(s, c->argv[1], body));
	if (!lobby_client_admin(s->lc)) {
		buf_puts(body, "permission denied: tournament needs the admin "
		    "role");
		return (CMD_ERROR);
	}
	/* Stored on a worker: it applies (checked before that). */
	if (strcmp(op, "create") == 0 && s->work != NULL &&
	    s->work->create != 0)
		return (cmd_tour_create(s, body));
	if (s->work != NULL && s->work->tchange == 2)
		return (cmd_tour_change(s, c, body));
	if (lobby_xtour_refuse(s->lc, body) != 0)	/* another node's */
		return (CMD_ERROR);
	if (strcmp(op, "create") == 0)
		return (cmd_tour_create(s, body));
	if (cmd_tour_tc(c) >= 0)
		return (cmd_tour_change(s, c, body));
	buf_puts(body, "usage: tournament create ...|list|show NAME|"
	    "cancel NAME|pause NAME|resume NAME|add NAME PLAYER|"
	    "withdraw NAME PLAYER");
	return (CMD_ERROR);
}

const struct cmd_entry cmd_tournament_entry = {
	.name = "tournament", .min_args = 1, .max_args = -1,
	.flags = CMD_F_LOOP | CMD_F_LOBBY | CMD_F_PREP,
	.usage = "create NAME roundrobin|gauntlet|swiss|arena players=A,B,... "
	    "[games=N|pairs=N] [rounds=R] [tc=TC] [seed=S] [random=1] "
	    "[forfeit=SECONDS] [sprt=ELO0,ELO1[,ALPHA,BETA]] "
	    "[tiebreaks=TB,...] GAME | list | "
	    "show NAME | cancel NAME | pause NAME | resume NAME | "
	    "add NAME PLAYER | withdraw NAME PLAYER",
	.exec = cmd_tournament_exec
};
