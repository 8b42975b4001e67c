/*
 * lobby-cmd.c: the lobby's commands (PROTOCOL.md §13), called from
 * cmd-play.c and cmd-admin.c: their arguments and options are parsed
 * here, and each fills a reply body and returns 0, or -1 for an error.
 */

#include <sys/queue.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "league.h"
#include "lobby.h"
#include "lobby-int.h"
#include "log.h"
#include "store.h"

/* Options of seek and challenge, taken out of the game tokens. */
struct lopts {
	uint64_t	 base_ms, inc_ms;
	int		 rated;		/* -1: default */
	int		 engine;
	int		 random;
	int		 seat;		/* 0: random */
	struct game	 game;		/* the position or template */
	struct buf	 spec;		/* its canonical text */
	struct game	 drawn;		/* prepared draw (random=1), or empty */
	int		 prepared;	/* random=1 was drawn off the loop */
};

/*
 * Parses "GAME [tc=..] [rated=..] [opponent=..] [random=1] [seat=..]";
 * fills o and returns 0, or puts the error in body and returns -1.
 */
static int
lobby_opts(struct lobby *lb, int argc, char **argv, struct lopts *o,
    int challenge, struct buf *body)
{
	struct game_error err;
	char		**rest;
	size_t		 len;
	int		 i, n = 0;

	memset(o, 0, sizeof *o);
	o->base_ms = lb->conf.default_base_ms;
	o->inc_ms = lb->conf.default_inc_ms;
	o->rated = -1;
	buf_init(&o->spec);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "tc=", 3) == 0) {
			if (lobby_parse_tc(a + 3, &o->base_ms, &o->inc_ms)) {
				buf_printf(body, "invalid time control %.64s: "
				    "tc=BASE or tc=BASE+INC in ms, BASE 1.."
				    "%llu", a + 3, LOBBY_TC_MAX);
				goto fail;
			}
		} else if (strcmp(a, "rated=0") == 0 ||
		    strcmp(a, "rated=1") == 0)
			o->rated = a[6] - '0';
		else if (strcmp(a, "random=1") == 0)
			o->random = 1;
		else if (strcmp(a, "random=0") == 0)
			o->random = 0;
		else if (!challenge && strcmp(a, "opponent=engine") == 0)
			o->engine = 1;
		else if (!challenge && strcmp(a, "opponent=any") == 0)
			o->engine = 0;
		else if (strcmp(a, "seat=1") == 0 || strcmp(a, "seat=2") == 0)
			o->seat = a[5] - '0';
		else if (strncmp(a, "rated=", 6) == 0 ||
		    strncmp(a, "random=", 7) == 0 ||
		    strncmp(a, "seat=", 5) == 0 ||
		    strncmp(a, "opponent=", 9) == 0) {
			buf_printf(body, "invalid option %.64s", a);
			goto fail;
		} else
			rest[n++] = argv[i];
	}
	if (n == 0) {
		buf_puts(body, "no game given");
		goto fail;
	}
	for (len = 0, i = 0; i < n; i++)
		len += strlen(rest[i]) + 1;
	if (len > LOBBY_SPEC_MAX) {
		/* Bounds the parse, draws and engine moves on the loop. */
		buf_printf(body, "game too large for networked play: %zu "
		    "bytes (limit %d)", len, LOBBY_SPEC_MAX);
		goto fail;
	}
	if (lobby_prep_take(lb->prep, n, rest, &o->game, &o->drawn,
	    &o->prepared))
		;	/* parsed (and drawn) on a worker: lobby-prep.c */
	else if (game_parse(&o->game, n, rest, &lb->conf.lim, &err) != 0) {
		buf_printf(body, "invalid game: %s", err.msg);
		goto fail;
	}
	if (!o->random && game_terminal(&o->game)) {
		game_free(&o->game);
		buf_puts(body, "the game is already over: nobody can move");
		goto fail;
	}
	game_print(&o->game, &o->spec);
	free(rest);
	return (0);
fail:
	free(rest);
	buf_free(&o->spec);
	return (-1);
}

/* Frees parsed options. */
static void
lobby_opts_free(struct lopts *o)
{
	if (o->game.fam != NULL)
		game_free(&o->game);
	if (o->drawn.fam != NULL)
		game_free(&o->drawn);
	buf_free(&o->spec);
}

/* Makes the start of a new game from options (a draw for a template). */
static int
lobby_opts_start(struct lobby *lb, struct lopts *o, struct game *out,
    struct buf *body)
{
	struct game_error err;

	if (!o->random) {
		*out = o->game;
		memset(&o->game, 0, sizeof o->game);
		return (0);
	}
	if (o->prepared) {
		/* Drawn on a worker; used once. */
		o->prepared = 0;
		if (o->drawn.fam == NULL) {
			buf_printf(body, "no fair start (an N-position) in %d "
			    "draws from %s", LOBBY_DRAWS, buf_str(&o->spec));
			return (-1);
		}
		*out = o->drawn;
		memset(&o->drawn, 0, sizeof o->drawn);
		return (0);
	}
	if (lobby_draw_start(&o->game, lb->rs, &lb->conf.lim, out,
	    &err) != 0) {
		buf_printf(body, "%s", err.msg);
		return (-1);
	}
	return (0);
}

/* Refuses a command for a client already seated in a game. */
static int
lc_check_free(struct lobby_client *lc, struct buf *body)
{
	int64_t		 gid;

	if (lc->game != NULL) {
		buf_printf(body, "you are playing game %lld",
		    (long long)lc->game->id);
		return (-1);
	}
	if (lc->name[0] != '\0' &&
	    (gid = lobby_playing(lc->lb, lc->name)) != 0) {
		buf_printf(body, "your account is seated in live game %lld: "
		    "resume %lld first", (long long)gid, (long long)gid);
		return (-1);
	}
	return (0);
}

/* seek: pairs with a compatible seek, starts an engine game, or waits. */
int
lobby_cmd_seek(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lseek	*sk;
	struct lopts	 o;
	struct game	 start;
	struct lgame	*g;
	int		 seat;

	if (lc_check_free(lc, body) != 0)
		return (-1);
	if (lb->store != NULL && store_failing(lb->store)) {
		buf_puts(body, STORE_FAILING_MSG);
		return (-1);
	}
	if (lobby_opts(lb, argc, argv, &o, 0, body) != 0)
		return (-1);
	if (o.engine) {
		if (o.rated == 1) {
			buf_puts(body, "games against the engine are unrated");
			goto fail;
		}
		if (lobby_opts_start(lb, &o, &start, body) != 0)
			goto fail;
		lc_drop_seek(lc);
		seat = o.seat != 0 ? o.seat :
		    1 + (int)gmp_urandomm_ui(lb->rs, 2);
		g = lg_start(lb, &start, seat == 1 ? lc : NULL,
		    seat == 2 ? lc : NULL, 3 - seat, o.base_ms, o.inc_ms, 0,
		    NULL, 0);
		buf_printf(body, "game %lld", (long long)g->id);
		lobby_opts_free(&o);
		return (0);
	}
	if (lc->name[0] == '\0') {
		buf_puts(body, "seeking a player needs an account (login); "
		    "without one, seek opponent=engine");
		goto fail;
	}
	if (o.rated == -1)
		o.rated = 1;
	if (o.seat != 0) {
		buf_puts(body, "seat= is for challenges and the engine; "
		    "a pairing picks seats at random");
		goto fail;
	}
	TAILQ_FOREACH(sk, &lb->seeks, entry)
		if (sk->lc != lc && strcmp(sk->lc->name, lc->name) != 0 &&
		    sk->lc->game == NULL && !lobby_playing(lb, sk->lc->name) &&
		    strcmp(sk->spec, buf_str(&o.spec)) == 0 &&
		    sk->random == o.random && sk->rated == o.rated &&
		    sk->base_ms == o.base_ms && sk->inc_ms == o.inc_ms)
			break;
	if (sk != NULL) {
		struct lobby_client *other = sk->lc;

		if (lobby_opts_start(lb, &o, &start, body) != 0)
			goto fail;
		lc_drop_seek(other);
		lc_drop_seek(lc);
		if (gmp_urandomm_ui(lb->rs, 2) == 0)
			g = lg_start(lb, &start, lc, other, 0, o.base_ms,
			    o.inc_ms, o.rated, NULL, 0);
		else
			g = lg_start(lb, &start, other, lc, 0, o.base_ms,
			    o.inc_ms, o.rated, NULL, 0);
		buf_printf(body, "game %lld", (long long)g->id);
		lobby_opts_free(&o);
		return (0);
	}
	if (lc->seek == NULL && lb->nseeks >= lb->conf.max_seeks) {
		buf_printf(body, "too many open seeks (limit %zu): try later",
		    lb->conf.max_seeks);
		goto fail;
	}
	lc_drop_seek(lc);
	sk = xcalloc(1, sizeof *sk);
	sk->id = ++lb->next_seek;
	sk->lc = lc;
	sk->spec = xstrdup(buf_str(&o.spec));
	sk->random = o.random;
	sk->rated = o.rated;
	sk->base_ms = o.base_ms;
	sk->inc_ms = o.inc_ms;
	TAILQ_INSERT_TAIL(&lb->seeks, sk, entry);
	lb->nseeks++;
	lc->seek = sk;
	buf_printf(body, "seek %llu", (unsigned long long)sk->id);
	lobby_opts_free(&o);
	return (0);
fail:
	lobby_opts_free(&o);
	return (-1);
}

/* unseek: withdraws the client's seek. */
int
lobby_cmd_unseek(struct lobby_client *lc, struct buf *body)
{
	if (lc->seek == NULL) {
		buf_puts(body, "no open seek");
		return (-1);
	}
	lc_drop_seek(lc);
	return (0);
}

/* challenge NAME GAME ...: offers a game to an account's connections. */
int
lobby_cmd_challenge(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lobby_client *t;
	struct lchall	*ch, *tch;
	struct lopts	 o;
	struct buf	 tc;
	size_t		 mine = 0, theirs = 0, sent = 0;
	uint64_t	 now = lobby_clock_now(lb);

	if (lc->name[0] == '\0') {
		buf_puts(body, "challenges need an account (login)");
		return (-1);
	}
	if (!league_name_ok(argv[0])) {
		buf_printf(body, "invalid account name %.64s", argv[0]);
		return (-1);
	}
	if (strcmp(argv[0], lc->name) == 0) {
		buf_puts(body, "you cannot challenge yourself");
		return (-1);
	}
	if (lb->store != NULL && store_failing(lb->store)) {
		buf_puts(body, STORE_FAILING_MSG);
		return (-1);
	}
	if (lobby_opts(lb, argc - 1, argv + 1, &o, 1, body) != 0)
		return (-1);
	TAILQ_FOREACH_SAFE(ch, &lb->challs, entry, tch) {
		if (now - ch->created > LOBBY_CHALL_TTL) {
			lobby_drop_chall(lb, ch);	/* expired */
			continue;
		}
		if (ch->from == lc)
			mine++;
		if (strcmp(ch->to, argv[0]) == 0)
			theirs++;
	}
	if (mine >= LOBBY_MAX_CHALL) {
		buf_printf(body, "too many open challenges (limit %d per "
		    "connection)", LOBBY_MAX_CHALL);
		goto fail;
	}
	if (theirs >= LOBBY_MAX_CHALL) {
		buf_printf(body, "%s has too many open challenges (limit %d)",
		    argv[0], LOBBY_MAX_CHALL);
		goto fail;
	}
	if (lb->nchalls >= lb->conf.max_seeks) {
		buf_printf(body, "too many open challenges server-wide "
		    "(limit %zu): try later", lb->conf.max_seeks);
		goto fail;
	}
	ch = xcalloc(1, sizeof *ch);
	ch->id = ++lb->next_seek;
	ch->from = lc;
	lobby_copy(ch->to, argv[0], sizeof ch->to);
	ch->spec = xstrdup(buf_str(&o.spec));
	ch->random = o.random;
	ch->rated = o.rated == -1 ? 1 : o.rated;
	ch->base_ms = o.base_ms;
	ch->inc_ms = o.inc_ms;
	ch->seat = o.seat != 0 ? o.seat : 1;
	ch->created = now;
	if ((!o.random || o.prepared) &&
	    lobby_opts_start(lb, &o, &ch->start, body) != 0) {
		/* Prepared on a worker: keep it, accept then costs nothing. */
		free(ch->spec);
		free(ch);
		goto fail;
	}
	buf_init(&tc);
	lobby_tc_print(&tc, ch->base_ms, ch->inc_ms);
	TAILQ_FOREACH(t, &lb->clients, entry)
		if (strcmp(t->name, ch->to) == 0 && t->game == NULL &&
		    (t->ready || t->seek != NULL)) {
			lc_event(t, "challenge %llu %s tc=%s rated=%d seat=%d "
			    "%s%s", (unsigned long long)ch->id, lc->name,
			    buf_str(&tc), ch->rated, 3 - ch->seat,
			    ch->random ? "random=1 " : "", ch->spec);
			sent++;
		}
	buf_free(&tc);
	if (sent == 0) {
		free(ch->spec);
		if (ch->start.fam != NULL)
			game_free(&ch->start);
		free(ch);
		buf_printf(body, "%s is not connected, or neither ready nor "
		    "seeking, or playing", argv[0]);
		goto fail;
	}
	TAILQ_INSERT_TAIL(&lb->challs, ch, entry);
	lb->nchalls++;
	buf_printf(body, "challenge %llu", (unsigned long long)ch->id);
	lobby_opts_free(&o);
	return (0);
fail:
	lobby_opts_free(&o);
	return (-1);
}

/* accept/decline CH_ID: starts or drops a challenge addressed to us. */
int
lobby_cmd_accept(struct lobby_client *lc, const char *id, int accept,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch;
	struct lopts	 o;
	struct game	 start;
	struct lgame	*g;
	int64_t		 n = lobby_gid(id);

	TAILQ_FOREACH(ch, &lb->challs, entry)
		if ((int64_t)ch->id == n)
			break;
	if (ch != NULL && lobby_clock_now(lb) - ch->created > LOBBY_CHALL_TTL) {
		lobby_drop_chall(lb, ch);
		ch = NULL;
	}
	if (ch == NULL) {
		buf_printf(body, "no open challenge %.32s", id);
		return (-1);
	}
	if (lc->name[0] == '\0' || strcmp(ch->to, lc->name) != 0 ||
	    ch->from == lc || strcmp(ch->from->name, lc->name) == 0) {
		buf_printf(body, "challenge %.32s is not addressed to you", id);
		return (-1);
	}
	if (accept && lb->store != NULL && store_failing(lb->store)) {
		buf_puts(body, STORE_FAILING_MSG);
		return (-1);
	}
	if (!accept) {
		lc_event(ch->from, "declined %llu %s",
		    (unsigned long long)ch->id, lc->name);
		lobby_drop_chall(lb, ch);
		return (0);
	}
	if (lc_check_free(lc, body) != 0)
		return (-1);
	if (ch->from->game != NULL || lobby_playing(lb, ch->from->name)) {
		buf_printf(body, "%s is playing another game", ch->from->name);
		return (-1);
	}
	if (ch->start.fam != NULL) {
		/* Made when offered (lobby-prep.c): nothing to parse here. */
		start = ch->start;
		memset(&ch->start, 0, sizeof ch->start);
	} else {
		/* Re-parse the stored spec: it was canonical when offered. */
		memset(&o, 0, sizeof o);
		buf_init(&o.spec);
		if (game_parse_line(&o.game, ch->spec, &lb->conf.lim,
		    &(struct game_error){ 0 }) != 0) {
			buf_puts(body, "the challenge's game is no longer "
			    "valid");
			buf_free(&o.spec);
			return (-1);
		}
		o.random = ch->random;
		if (lobby_opts_start(lb, &o, &start, body) != 0) {
			lobby_opts_free(&o);
			return (-1);
		}
		lobby_opts_free(&o);
	}
	lc_drop_seek(lc);
	lc_drop_seek(ch->from);
	if (ch->seat == 1)
		g = lg_start(lb, &start, ch->from, lc, 0, ch->base_ms,
		    ch->inc_ms, ch->rated, NULL, 0);
	else
		g = lg_start(lb, &start, lc, ch->from, 0, ch->base_ms,
		    ch->inc_ms, ch->rated, NULL, 0);
	lobby_drop_chall(lb, ch);
	buf_printf(body, "game %lld", (long long)g->id);
	return (0);
}

/* ready/unready: offers the connection to tournaments, or withdraws it. */
int
lobby_cmd_ready(struct lobby_client *lc, int on, struct buf *body)
{
	if (lc->name[0] == '\0') {
		buf_puts(body, "ready needs an account (login)");
		return (-1);
	}
	lc->ready = on;
	if (on)
		lobby_schedule(lc->lb);
	return (0);
}

/*
 * Finds the seat of live game id (decimal) that lc's account holds: the
 * one away first.  Returns the game, or NULL with body filled in.
 */
static struct lgame *
lobby_resume_id(struct lobby_client *lc, const char *id, int *seat,
    struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	int		 s, found = 0;

	if (lc->name[0] == '\0') {
		buf_puts(body, "resume GAME_ID needs a login (anonymous "
		    "players resume with their token)");
		return (NULL);
	}
	if (g == NULL || lg_over(g)) {
		buf_printf(body, "no live game %.32s", id);
		return (NULL);
	}
	for (s = 2; s >= 1; s--)
		if (g->p[s - 1].account &&
		    strcmp(g->p[s - 1].name, lc->name) == 0 &&
		    (found == 0 || g->p[s - 1].lc == NULL))
			found = s;
	if (found == 0) {
		buf_printf(body, "not a player of game %lld", (long long)g->id);
		return (NULL);
	}
	*seat = found;
	return (g);
}

/*
 * resume TOKEN | GAME_ID: takes a seat back after a disconnect.  A seat
 * of one's own account still held by another connection (an old one,
 * perhaps dead) is taken over: that one gets "event replaced".
 */
int
lobby_cmd_resume(struct lobby_client *lc, const char *token,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lobby_client *old;
	struct lgame	*g;
	int		 s = 0;

	if (lc->game != NULL) {
		buf_printf(body, "you are playing game %lld",
		    (long long)lc->game->id);
		return (-1);
	}
	if (strlen(token) != LOBBY_TOKEN_LEN && lobby_isnum(token)) {
		if ((g = lobby_resume_id(lc, token, &s, body)) == NULL)
			return (-1);
		goto found;
	}
	TAILQ_FOREACH(g, &lb->games, entry) {
		if (lg_over(g))
			continue;
		for (s = 1; s <= 2; s++)
			if (!g->p[s - 1].engine &&
			    strcmp(g->p[s - 1].token, token) == 0)
				break;
		if (s <= 2)
			break;
	}
	if (g == NULL) {
		buf_puts(body, "no live game with that token");
		return (-1);
	}
	if (g->p[s - 1].account && lc->name[0] != '\0' &&
	    strcmp(lc->name, g->p[s - 1].name) != 0) {
		buf_printf(body, "not a player of game %lld", (long long)g->id);
		return (-1);
	}
	if (g->p[s - 1].lc != NULL && (!g->p[s - 1].account ||
	    strcmp(lc->name, g->p[s - 1].name) != 0)) {
		buf_printf(body, "seat %d of game %lld is connected", s,
		    (long long)g->id);
		return (-1);
	}
found:
	if ((old = g->p[s - 1].lc) != NULL) {
		/* The same account's other connection: take the seat over. */
		lc_event(old, "replaced %lld %d", (long long)g->id, s);
		old->game = NULL;
		old->seat = 0;
		g->p[s - 1].lc = NULL;
		log_info("game=%lld event=taken-over seat=%d old=%llu",
		    (long long)g->id, s, (unsigned long long)old->connid);
	}
	lc_drop_seek(lc);
	g->p[s - 1].lc = lc;
	lc->game = g;
	lc->seat = s;
	log_info("game=%lld event=resumed seat=%d conn=%llu", (long long)g->id,
	    s, (unsigned long long)lc->connid);
	lg_tell_seat(g, s, "reconnected");
	buf_printf(body, "game %lld you=%d", (long long)g->id, s);
	lg_send_start(g, s);
	lg_send_new(g, s);
	if (g->to_move == s)
		lg_send_genmove(g);
	return (0);
}

/* resign GAME_ID: a seated player gives up a live game. */
int
lobby_cmd_resign(struct lobby_client *lc, const char *id, struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	int		 s;

	if (g == NULL || lg_over(g)) {
		buf_printf(body, "no live game %.32s", id);
		return (-1);
	}
	if (lc->game == g)
		s = lc->seat;
	else if (lc->name[0] != '\0' && g->p[0].account &&
	    strcmp(g->p[0].name, lc->name) == 0)
		s = 1;
	else if (lc->name[0] != '\0' && g->p[1].account &&
	    strcmp(g->p[1].name, lc->name) == 0)
		s = 2;
	else {
		buf_printf(body, "not a player of game %lld", (long long)g->id);
		return (-1);
	}
	buf_printf(body, "result %s resign", s == 1 ? "second" : "first");
	lg_finish(g, 3 - s, "resign");
	return (0);
}

/* games live: one line per live game. */
int
lobby_cmd_live(struct lobby_client *lc, struct buf *body)
{
	struct lgame	*g;

	TAILQ_FOREACH(g, &lc->lb->games, entry) {
		if (lg_over(g))
			continue;
		buf_printf(body, "%lld %s %s ply=%lu tc=", (long long)g->id,
		    g->p[0].name, g->p[1].name, g->ply);
		lobby_tc_print(body, g->base_ms, g->inc_ms);
		buf_printf(body, " rated=%d %s\n", g->rated, g->start);
	}
	return (0);
}

/* watch/unwatch GAME_ID: follows a live game's moves, or stops. */
int
lobby_cmd_watch(struct lobby_client *lc, const char *id, int on,
    struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	uint64_t	 now = lobby_clock_now(lc->lb);
	size_t		 i;

	if (!on) {
		if (g != NULL)
			for (i = 0; i < g->nwatchers; i++)
				if (g->watchers[i] == lc) {
					g->watchers[i] =
					    g->watchers[--g->nwatchers];
					break;
				}
		lc_unwatch(lc, lobby_gid(id));
		return (0);
	}
	if (g == NULL || lg_over(g)) {
		buf_printf(body, "no live game %.32s", id);
		return (-1);
	}
	for (i = 0; i < g->nwatchers; i++)
		if (g->watchers[i] == lc)
			break;
	if (i == g->nwatchers) {
		if (lc->nwatch >= LOBBY_MAX_WATCH) {
			buf_printf(body, "you watch %d games already (limit)",
			    LOBBY_MAX_WATCH);
			return (-1);
		}
		if (g->nwatchers >= g->lb->conf.max_watchers) {
			buf_printf(body, "game %lld has %zu spectators "
			    "(limit)", (long long)g->id, g->nwatchers);
			return (-1);
		}
		g->watchers = xreallocarray(g->watchers, g->nwatchers + 1,
		    sizeof *g->watchers);
		g->watchers[g->nwatchers++] = lc;
		lc->watch[lc->nwatch++] = g->id;
	}
	buf_printf(body, "watching %lld\nplayers %s %s\nposition ",
	    (long long)g->id, g->p[0].name, g->p[1].name);
	game_print(&g->game, body);
	buf_printf(body, "\nply %lu\ntime1 %llu\ntime2 %llu", g->ply,
	    (unsigned long long)lg_clock(g, 1, now),
	    (unsigned long long)lg_clock(g, 2, now));
	return (0);
}

/* Splits "a,b,c" into the tournament's player list. */
static int
lobby_split_players(struct league_tournament *d, const char *s)
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

/* tournament create: parses, stores and starts a tournament. */
static int
lobby_tour_create(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct league_tournament d;
	struct game_error gerr;
	struct game	 g;
	struct ltour	*t;
	struct buf	 spec;
	char		 err[256], *end, **rest;
	int		 i, n = 0, have_seed = 0;
	unsigned long	 v;
	gmp_randstate_t	 rs;
	struct game	 drawn;

	memset(&d, 0, sizeof d);
	buf_init(&spec);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	if (argc < 2 || !league_name_ok(argv[0])) {
		buf_puts(body, "usage: tournament create NAME roundrobin|"
		    "gauntlet players=A,B,... games=N tc=TC [seed=S] "
		    "[random=1] GAME");
		goto fail;
	}
	lobby_copy(d.name, argv[0], sizeof d.name);
	if (strcmp(argv[1], "roundrobin") == 0)
		d.format = LEAGUE_ROUNDROBIN;
	else if (strcmp(argv[1], "gauntlet") == 0)
		d.format = LEAGUE_GAUNTLET;
	else {
		buf_printf(body, "unknown format %.32s: roundrobin or "
		    "gauntlet", argv[1]);
		goto fail;
	}
	d.games_per_pair = 2;
	d.base_ms = lb->conf.default_base_ms;
	d.inc_ms = lb->conf.default_inc_ms;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "players=", 8) == 0 && d.nplayers == 0) {
			if (lobby_split_players(&d, a + 8) != 0) {
				buf_puts(body, "too many players (limit 64)");
				goto fail;
			}
		} else if (strncmp(a, "games=", 6) == 0) {
			errno = 0;
			v = strtoul(a + 6, &end, 10);
			if (a[6] < '0' || a[6] > '9' || *end != '\0' ||
			    errno != 0 || v == 0 || v > 100) {
				buf_puts(body, "games=N: 1..100 games per "
				    "pairing");
				goto fail;
			}
			d.games_per_pair = (unsigned int)v;
		} else if (strncmp(a, "tc=", 3) == 0) {
			if (lobby_parse_tc(a + 3, &d.base_ms, &d.inc_ms)) {
				buf_printf(body, "invalid time control %.64s",
				    a + 3);
				goto fail;
			}
		} else if (strncmp(a, "seed=", 5) == 0) {
			errno = 0;
			d.seed = strtoull(a + 5, &end, 10);
			have_seed = 1;
			if (a[5] < '0' || a[5] > '9' || *end != '\0' ||
			    errno != 0) {
				buf_puts(body, "seed=S: a number");
				goto fail;
			}
		} else if (strcmp(a, "random=1") == 0)
			d.random = 1;
		else
			rest[n++] = argv[i];
	}
	if (d.nplayers < 2) {
		buf_puts(body, "players=A,B,...: at least two players");
		goto fail;
	}
	if (n == 0 || game_parse(&g, n, rest, &lb->conf.lim, &gerr) != 0) {
		buf_printf(body, "invalid game: %s", n == 0 ? "none given" :
		    gerr.msg);
		goto fail;
	}
	game_print(&g, &spec);
	if (!d.random && game_terminal(&g)) {
		game_free(&g);
		buf_puts(body, "the game is already over: nobody can move");
		goto fail;
	}
	if (!have_seed)		/* unpredictable unless asked for */
		d.seed = ((uint64_t)gmp_urandomb_ui(lb->rs, 32) << 32) |
		    gmp_urandomb_ui(lb->rs, 32);
	if (d.random) {
		/* A template with no fair start could never be played. */
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, (unsigned long)d.seed);
		i = lobby_draw_start(&g, rs, &lb->conf.lim, &drawn, &gerr);
		gmp_randclear(rs);
		if (i != 0) {
			game_free(&g);
			buf_printf(body, "%s", gerr.msg);
			goto fail;
		}
		game_free(&drawn);
	}
	game_free(&g);
	d.game = xstrdup(buf_str(&spec));
	if (league_tournament_create(lb->league, &d, err, sizeof err) != 0) {
		buf_puts(body, err);
		goto fail;
	}
	t = xcalloc(1, sizeof *t);
	t->def = d;
	lobby_tour_slots(t);
	TAILQ_INSERT_TAIL(&lb->tours, t, entry);
	log_info("tournament=%s event=created games=%zu by=%s", d.name,
	    t->nslots, lc->name);
	buf_printf(body, "tournament %lld %s games %zu", (long long)d.id,
	    d.name, t->nslots);
	free(rest);
	buf_free(&spec);
	lobby_schedule(lb);
	return (0);
fail:
	league_tournament_free(&d);
	free(rest);
	buf_free(&spec);
	return (-1);
}

/* tournament create|list|cancel (admin). */
int
lobby_cmd_tournament(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct league_tournament *v;
	struct ltour	*t;
	size_t		 n, i;

	if (!lc->admin) {
		buf_puts(body, "permission denied: tournament needs the admin "
		    "role");
		return (-1);
	}
	if (lb->league == NULL) {
		buf_puts(body, "tournaments need the game log (--db)");
		return (-1);
	}
	if (strcmp(argv[0], "create") == 0)
		return (lobby_tour_create(lc, argc - 1, argv + 1, body));
	if (strcmp(argv[0], "list") == 0 && argc == 1) {
		if (league_tournaments(lb->league, 1, &v, &n) != 0) {
			buf_puts(body, "cannot read the tournaments");
			return (-1);
		}
		for (i = 0; i < n; i++) {
			buf_printf(body, "%lld %s %s %s games-per-pair=%u "
			    "tc=", (long long)v[i].id, v[i].name,
			    v[i].format == LEAGUE_GAUNTLET ? "gauntlet" :
			    "roundrobin", v[i].status == LEAGUE_T_RUNNING ?
			    "running" : v[i].status == LEAGUE_T_FINISHED ?
			    "finished" : "cancelled", v[i].games_per_pair);
			lobby_tc_print(body, v[i].base_ms, v[i].inc_ms);
			buf_printf(body, " %s\n", v[i].game);
			league_tournament_free(&v[i]);
		}
		free(v);
		return (0);
	}
	if (strcmp(argv[0], "cancel") == 0 && argc == 2) {
		if ((t = lobby_tour(lb, argv[1])) == NULL ||
		    t->def.status != LEAGUE_T_RUNNING) {
			buf_printf(body, "no running tournament %.32s",
			    argv[1]);
			return (-1);
		}
		if (league_tournament_status(lb->league, t->def.id,
		    LEAGUE_T_CANCELLED) != 0) {
			buf_puts(body, "cannot store the cancellation");
			return (-1);
		}
		ltour_enter(t, LEAGUE_T_CANCELLED);
		log_info("tournament=%s event=cancelled by=%s", t->def.name,
		    lc->name);
		return (0);
	}
	buf_puts(body, "usage: tournament create ...|list|cancel NAME");
	return (-1);
}

/* One player's line in the standings. */
struct lstand {
	size_t		 idx;
	unsigned int	 games, wins;
};

/* Orders standings: most wins, then fewest games, then list order. */
static int
lstand_cmp(const void *a, const void *b)
{
	const struct lstand *x = a, *y = b;

	if (x->wins != y->wins)
		return (x->wins > y->wins ? -1 : 1);
	if (x->games != y->games)
		return (x->games < y->games ? -1 : 1);
	return (x->idx < y->idx ? -1 : x->idx > y->idx);
}

/* standings NAME: a tournament's table. */
int
lobby_cmd_standings(struct lobby_client *lc, const char *name,
    struct buf *body)
{
	struct ltour	*t = lobby_tour(lc->lb, name);
	struct lstand	*v;
	size_t		 i, played = 0, n;

	if (t == NULL) {
		buf_printf(body, "no tournament %.32s", name);
		return (-1);
	}
	n = t->def.nplayers;
	v = xcalloc(n, sizeof *v);
	for (i = 0; i < n; i++)
		v[i].idx = i;
	for (i = 0; i < t->nslots; i++) {
		struct lslot *s = &t->slots[i];

		if (s->state != LSLOT_DONE)
			continue;
		played++;
		v[s->a].games++;
		v[s->b].games++;
		v[s->winner == 1 ? s->a : s->b].wins++;
	}
	qsort(v, n, sizeof *v, lstand_cmp);
	buf_printf(body, "status %s\nplayed %zu of %zu\n",
	    t->def.status == LEAGUE_T_RUNNING ? "running" :
	    t->def.status == LEAGUE_T_FINISHED ? "finished" : "cancelled",
	    played, t->nslots);
	for (i = 0; i < n; i++)
		buf_printf(body, "%zu %s points %u games %u wins %u "
		    "losses %u\n", i + 1, t->def.players[v[i].idx], v[i].wins,
		    v[i].games, v[i].wins, v[i].games - v[i].wins);
	free(v);
	return (0);
}

/* Orders ratings, best first. */
static int
lrating_cmp(const void *a, const void *b)
{
	const struct lrating *x = a, *y = b;

	if (x->r != y->r)
		return (x->r > y->r ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* ratings: every rated player, best first. */
int
lobby_cmd_ratings(struct lobby_client *lc, struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lrating	*v;
	size_t		 i, n;

	pthread_mutex_lock(&lb->rmtx);
	n = lb->nratings;
	v = xreallocarray(NULL, n + 1, sizeof *v);
	if (n > 0)
		memcpy(v, lb->ratings, n * sizeof *v);
	pthread_mutex_unlock(&lb->rmtx);
	qsort(v, n, sizeof *v, lrating_cmp);
	for (i = 0; i < n; i++)
		buf_printf(body, "%s rating %ld games %lu\n", v[i].name,
		    lround(v[i].r), v[i].games);
	free(v);
	return (0);
}

/* connections (admin): one line per connection. */
int
lobby_cmd_connections(struct lobby_client *lc, struct buf *body)
{
	struct lobby_client *c;

	TAILQ_FOREACH(c, &lc->lb->clients, entry) {
		buf_printf(body, "%llu %s %s", (unsigned long long)c->connid,
		    c->peer[0] != '\0' ? c->peer : "-",
		    c->name[0] != '\0' ? c->name : "-");
		if (c->game != NULL)
			buf_printf(body, " game=%lld seat=%d",
			    (long long)c->game->id, c->seat);
		buf_putc(body, '\n');
	}
	while (body->len > 0 && body->data[body->len - 1] == '\n')
		body->data[--body->len] = '\0';
	return (0);
}

/* kick CONN_ID REASON (admin): tells the connection, then drops it. */
int
lobby_cmd_kick(struct lobby_client *lc, const char *id, const char *reason,
    struct buf *body)
{
	struct lobby_client *c;

	TAILQ_FOREACH(c, &lc->lb->clients, entry)
		if (lobby_isnum(id) && (int64_t)c->connid == lobby_gid(id))
			break;
	if (c == NULL) {
		buf_printf(body, "no connection %.32s", id);
		return (-1);
	}
	lc_event(c, "kicked %s", reason);
	log_info("conn=%llu event=kicked by=%s reason=\"%s\"",
	    (unsigned long long)c->connid, lc->name, reason);
	if (lc->lb->io.kick != NULL)
		lc->lb->io.kick(lc->lb->io.arg, c->conn);
	buf_printf(body, "kicked %llu", (unsigned long long)c->connid);
	return (0);
}

/*
 * abort GAME_ID REASON (winner 0) or adjudicate GAME_ID 1|2 REASON (admin):
 * ends a live game without a result, or with a win for a seat; the
 * admin's name and reason go to the players, spectators and the record.
 */
int
lobby_cmd_end(struct lobby_client *lc, const char *id, int winner,
    const char *reason, struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	struct buf	 d;

	if (g == NULL || lg_over(g)) {
		buf_printf(body, "no live game %.32s", id);
		return (-1);
	}
	buf_init(&d);
	buf_printf(&d, "by %s: %s", lc->name, reason);
	log_info("game=%lld event=%s winner=%d %s", (long long)g->id,
	    winner == 0 ? "aborted" : "adjudicated", winner, buf_str(&d));
	buf_printf(body, "result %s %s", winner == 1 ? "first" : winner == 2 ?
	    "second" : "-", winner == 0 ? "aborted" : "adjudicated");
	lg_finish_detail(g, winner, winner == 0 ? "aborted" : "adjudicated",
	    buf_str(&d));
	buf_free(&d);
	return (0);
}
