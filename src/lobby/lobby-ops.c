/*
 * lobby-ops.c: the lobby's operations behind the commands of PROTOCOL.md
 * §13 (seek, challenge, accept, resume, watch, tournaments, standings,
 * ratings, the admin's kick and abort).  cmd-lobby.c parses the arguments
 * and formats the replies; here each operation takes typed arguments,
 * changes the lobby, and returns data, or -1 with the error in err.
 */

#include <sys/queue.h>
#include <sys/random.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "proto/proto.h"
#include "solver/referee.h"
#include "store/store.h"

/* The caller's account, "" before login. */
const char *
lobby_client_name(const struct lobby_client *lc)
{
	return (lc->name);
}

/* 1 if the caller has the admin role. */
int
lobby_client_admin(const struct lobby_client *lc)
{
	return (lc->admin);
}

/* The lobby's settings in force. */
const struct lobby_conf *
lobby_client_conf(const struct lobby_client *lc)
{
	return (&lc->lb->conf);
}

/* 1 if the game log is failing: no new games then. */
int
lobby_store_failing(const struct lobby_client *lc)
{
	return (lc->lb->store != NULL && store_failing(lc->lb->store));
}

/* Makes the start of a new game from an offer (a draw for a template). */
static int
lobby_offer_start(struct lobby *lb, struct lobby_offer *o, struct game *out,
    struct buf *err)
{
	struct game_error gerr;

	if (!o->random) {
		*out = o->game;
		memset(&o->game, 0, sizeof o->game);
		return (0);
	}
	if (o->prepared) {
		/* Drawn on a worker; used once. */
		o->prepared = 0;
		if (o->drawn.fam == NULL) {
			buf_printf(err, "no fair start (an N-position) in %d "
			    "draws from %s", REFEREE_DRAWS, buf_str(&o->spec));
			return (-1);
		}
		*out = o->drawn;
		memset(&o->drawn, 0, sizeof o->drawn);
		return (0);
	}
	if (lobby_draw_start(&o->game, lb->rs, &lb->conf.lim, out,
	    &gerr) != 0) {
		buf_printf(err, "%s", gerr.msg);
		return (-1);
	}
	return (0);
}

/*
 * Refuses a command for a client already seated in a game, or whose
 * games logged more than its budget (lib/budget.h).
 */
int
lobby_check_free(struct lobby_client *lc, struct buf *err)
{
	int64_t		 gid;

	if (lc->game != NULL) {
		buf_printf(err, "you are playing game %lld",
		    (long long)lc->game->id);
		return (-1);
	}
	if (lc->name[0] != '\0' &&
	    (gid = lobby_playing(lc->lb, lc->name)) != 0) {
		buf_printf(err, "your account is seated in live game %lld: "
		    "resume %lld first", (long long)gid, (long long)gid);
		return (-1);
	}
	if (budget_charge(lc->bud, lc->lb->conf.budget, BUDGET_LOG, 0,
	    lobby_clock_ns(lc->lb), err) != 0)
		return (-1);
	if (lc->lb->nops != NULL)	/* a game elsewhere, or taken over */
		return (lc->lb->nops->elsewhere(lc, err));
	return (0);
}

/* A game against the engine, from seek opponent=engine. */
static int
lobby_seek_engine(struct lobby_client *lc, struct lobby_offer *o,
    struct lobby_seek_result *res, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct game	 start;
	struct lgame	*g;
	int		 seat;

	if (o->rated == 1) {
		buf_puts(err, "games against the engine are unrated");
		return (-1);
	}
	if (lobby_offer_start(lb, o, &start, err) != 0)
		return (-1);
	lc_drop_seek(lc);
	seat = o->seat != 0 ? o->seat : 1 + (int)gmp_urandomm_ui(lb->rs, 2);
	g = lg_start(lb, &start, seat == 1 ? lc : NULL, seat == 2 ? lc : NULL,
	    3 - seat, o->base_ms, o->inc_ms, 0, NULL, 0);
	res->game_id = g->id;
	return (0);
}

/* Returns an open seek that pairs with offer o of lc, or NULL. */
static struct lseek *
lobby_seek_match(struct lobby_client *lc, struct lobby_offer *o)
{
	struct lobby	*lb = lc->lb;
	struct lseek	*sk;

	TAILQ_FOREACH(sk, &lb->seeks, entry)
		if (sk->lc != lc && strcmp(sk->lc->name, lc->name) != 0 &&
		    sk->lc->game == NULL && !lobby_playing(lb, sk->lc->name) &&
		    strcmp(sk->spec, buf_str(&o->spec)) == 0 &&
		    sk->random == o->random && sk->rated == o->rated &&
		    sk->base_ms == o->base_ms && sk->inc_ms == o->inc_ms)
			return (sk);
	return (NULL);
}

/*
 * seek: pairs with a compatible seek, starts an engine game, or waits.
 * The caller has checked lobby_check_free and the store.
 */
int
lobby_seek(struct lobby_client *lc, struct lobby_offer *o,
    struct lobby_seek_result *res, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lobby_client *other;
	struct lseek	*sk;
	struct game	 start;
	struct lgame	*g;

	memset(res, 0, sizeof *res);
	if (o->engine)
		return (lobby_seek_engine(lc, o, res, err));
	if (lc->name[0] == '\0') {
		buf_puts(err, "seeking a player needs an account (login); "
		    "without one, seek opponent=engine");
		return (-1);
	}
	if (o->rated == -1)
		o->rated = 1;
	if (o->seat != 0) {
		buf_puts(err, "seat= is for challenges and the engine; "
		    "a pairing picks seats at random");
		return (-1);
	}
	if ((sk = lobby_seek_match(lc, o)) != NULL && lb->nops != NULL &&
	    !lb->nops->may_pair(lc, sk))
		sk = NULL;	/* published: it pairs through the table */
	if (sk != NULL) {
		other = sk->lc;
		if (lobby_offer_start(lb, o, &start, err) != 0)
			return (-1);
		lc_drop_seek(other);
		lc_drop_seek(lc);
		if (gmp_urandomm_ui(lb->rs, 2) == 0)
			g = lg_start(lb, &start, lc, other, 0, o->base_ms,
			    o->inc_ms, o->rated, NULL, 0);
		else
			g = lg_start(lb, &start, other, lc, 0, o->base_ms,
			    o->inc_ms, o->rated, NULL, 0);
		res->game_id = g->id;
		return (0);
	}
	if (lc->seek == NULL && lb->nseeks >= lb->conf.max_seeks) {
		buf_printf(err, "too many open seeks (limit %zu): try later",
		    lb->conf.max_seeks);
		return (-1);
	}
	lc_drop_seek(lc);
	sk = xcalloc(1, sizeof *sk);
	sk->id = ++lb->next_seek;
	sk->lc = lc;
	sk->spec = xstrdup(buf_str(&o->spec));
	sk->random = o->random;
	sk->rated = o->rated;
	sk->base_ms = o->base_ms;
	sk->inc_ms = o->inc_ms;
	TAILQ_INSERT_TAIL(&lb->seeks, sk, entry);
	lb->nseeks++;
	lc->seek = sk;
	res->seek_id = sk->id;
	if (lb->nops != NULL)
		lb->nops->publish(lb, sk);
	return (0);
}

/* unseek: withdraws the client's seek. */
int
lobby_unseek(struct lobby_client *lc, struct buf *err)
{
	if (lc->seek == NULL) {
		buf_puts(err, "no open seek");
		return (-1);
	}
	lc_drop_seek(lc);
	return (0);
}

/* Drops expired challenges; refuses when lc or to has too many open. */
static int
lobby_chall_limits(struct lobby_client *lc, const char *to, uint64_t now,
    struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch, *tch;
	size_t		 mine = 0, theirs = 0;

	TAILQ_FOREACH_SAFE(ch, &lb->challs, entry, tch) {
		if (now - ch->created > LOBBY_CHALL_TTL) {
			lobby_drop_chall(lb, ch);	/* expired */
			continue;
		}
		if (ch->from == lc)
			mine++;
		if (strcmp(ch->to, to) == 0)
			theirs++;
	}
	if (mine >= LOBBY_MAX_CHALL) {
		buf_printf(err, "too many open challenges (limit %d per "
		    "connection)", LOBBY_MAX_CHALL);
		return (-1);
	}
	if (theirs >= LOBBY_MAX_CHALL) {
		buf_printf(err, "%s has too many open challenges (limit %d)",
		    to, LOBBY_MAX_CHALL);
		return (-1);
	}
	if (lb->nchalls >= lb->conf.max_seeks) {
		buf_printf(err, "too many open challenges server-wide "
		    "(limit %zu): try later", lb->conf.max_seeks);
		return (-1);
	}
	return (0);
}

/* Tells the challenged account's free connections; returns how many. */
static size_t
lobby_chall_send(struct lobby_client *lc, const struct lchall *ch)
{
	struct lobby_client *t;
	struct buf	 tc;
	size_t		 sent = 0;

	buf_init(&tc);
	proto_tc_print(&tc, ch->base_ms, ch->inc_ms);
	TAILQ_FOREACH(t, &lc->lb->clients, entry)
		if (strcmp(t->name, ch->to) == 0 && t->game == NULL &&
		    (t->ready || t->seek != NULL)) {
			lc_event(t, "challenge %llu %s tc=%s rated=%d seat=%d "
			    "%s%s", (unsigned long long)ch->id, lc->name,
			    buf_str(&tc), ch->rated, 3 - ch->seat,
			    ch->random ? "random=1 " : "", ch->spec);
			sent++;
		}
	buf_free(&tc);
	return (sent);
}

/*
 * challenge NAME: offers o to an account's connections; *id is the
 * challenge.  The caller has checked the login, the name and the store.
 */
int
lobby_challenge(struct lobby_client *lc, const char *to,
    struct lobby_offer *o, uint64_t *id, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch;
	uint64_t	 now = lobby_clock_now(lc->lb);

	if (lobby_chall_limits(lc, to, now, err) != 0)
		return (-1);
	ch = xcalloc(1, sizeof *ch);
	ch->id = ++lb->next_seek;
	ch->from = lc;
	lobby_copy(ch->to, to, sizeof ch->to);
	ch->spec = xstrdup(buf_str(&o->spec));
	ch->random = o->random;
	ch->rated = o->rated == -1 ? 1 : o->rated;
	ch->base_ms = o->base_ms;
	ch->inc_ms = o->inc_ms;
	ch->seat = o->seat != 0 ? o->seat : 1;
	ch->created = now;
	if ((!o->random || o->prepared) &&
	    lobby_offer_start(lb, o, &ch->start, err) != 0) {
		/* Prepared on a worker: keep it, accept then costs nothing. */
		lobby_chall_free(ch);
		return (-1);
	}
	if (lobby_chall_send(lc, ch) == 0) {
		lobby_chall_free(ch);
		buf_printf(err, "%s is not connected, or neither ready nor "
		    "seeking, or playing", to);
		return (-1);
	}
	TAILQ_INSERT_TAIL(&lb->challs, ch, entry);
	lb->nchalls++;
	*id = ch->id;
	return (0);
}

/* Returns open challenge id (as sent), dropping it if expired, or NULL. */
static struct lchall *
lobby_chall_find(struct lobby *lb, const char *id)
{
	struct lchall	*ch;
	int64_t		 n = lobby_gid(id);

	TAILQ_FOREACH(ch, &lb->challs, entry)
		if ((int64_t)ch->id == n)
			break;
	if (ch != NULL && lobby_clock_now(lb) - ch->created > LOBBY_CHALL_TTL) {
		lobby_drop_chall(lb, ch);
		ch = NULL;
	}
	return (ch);
}

/* The start of an accepted challenge: made when offered, or now. */
static int
lobby_chall_start(struct lobby *lb, struct lchall *ch, struct game *start,
    struct buf *err)
{
	struct lobby_offer o;
	int		 rv;

	if (ch->start.fam != NULL) {
		/* Made when offered (lobby-prep.c): nothing to parse here. */
		*start = ch->start;
		memset(&ch->start, 0, sizeof ch->start);
		return (0);
	}
	/* Re-parse the stored spec: it was canonical when offered. */
	memset(&o, 0, sizeof o);
	buf_init(&o.spec);
	if (game_parse_line(&o.game, ch->spec, &lb->conf.lim,
	    &(struct game_error){ 0 }) != 0) {
		buf_puts(err, "the challenge's game is no longer valid");
		buf_free(&o.spec);
		return (-1);
	}
	o.random = ch->random;
	rv = lobby_offer_start(lb, &o, start, err);
	if (o.game.fam != NULL)
		game_free(&o.game);
	buf_free(&o.spec);
	return (rv);
}

/*
 * accept/decline CH_ID: starts (*gid) or drops a challenge addressed to
 * the caller.
 */
int
lobby_accept(struct lobby_client *lc, const char *id, int accept,
    int64_t *gid, struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch;
	struct game	 start;
	struct lgame	*g;

	if ((ch = lobby_chall_find(lb, id)) == NULL) {
		buf_printf(err, "no open challenge %.32s", id);
		return (-1);
	}
	if (lc->name[0] == '\0' || strcmp(ch->to, lc->name) != 0 ||
	    ch->from == lc || strcmp(ch->from->name, lc->name) == 0) {
		buf_printf(err, "challenge %.32s is not addressed to you", id);
		return (-1);
	}
	if (accept && lobby_store_failing(lc)) {
		buf_puts(err, store_failing_msg(lc->lb->store));
		return (-1);
	}
	if (accept && lb->nops != NULL && lb->nops->refuse(lc, err) != 0)
		return (-1);
	if (!accept) {
		lc_event(ch->from, "declined %llu %s",
		    (unsigned long long)ch->id, lc->name);
		lobby_drop_chall(lb, ch);
		return (0);
	}
	if (lobby_check_free(lc, err) != 0)
		return (-1);
	if (ch->from->game != NULL || lobby_playing(lb, ch->from->name)) {
		buf_printf(err, "%s is playing another game", ch->from->name);
		return (-1);
	}
	if (lobby_chall_start(lb, ch, &start, err) != 0)
		return (-1);
	lc_drop_seek(lc);
	lc_drop_seek(ch->from);
	if (ch->seat == 1)
		g = lg_start(lb, &start, ch->from, lc, 0, ch->base_ms,
		    ch->inc_ms, ch->rated, NULL, 0);
	else
		g = lg_start(lb, &start, lc, ch->from, 0, ch->base_ms,
		    ch->inc_ms, ch->rated, NULL, 0);
	lobby_drop_chall(lb, ch);
	*gid = g->id;
	return (0);
}

/* ready/unready: offers the connection to tournaments, or withdraws it. */
int
lobby_ready(struct lobby_client *lc, int on, struct buf *err)
{
	if (lc->name[0] == '\0') {
		buf_puts(err, "ready needs an account (login)");
		return (-1);
	}
	if (on && lc->lb->nops != NULL && lc->lb->nops->refuse(lc, err) != 0)
		return (-1);
	lc->ready = on;
	if (on)
		lobby_schedule(lc->lb);
	return (0);
}

/*
 * Finds the seat of live game id (decimal) that lc's account holds: the
 * one away first.  Returns the game, or NULL with err filled in.
 */
static struct lgame *
lobby_resume_id(struct lobby_client *lc, const char *id, int *seat,
    struct buf *err)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	int		 s, found = 0;

	if (lc->name[0] == '\0') {
		buf_puts(err, "resume GAME_ID needs a login (anonymous "
		    "players resume with their token)");
		return (NULL);
	}
	if (g == NULL || lg_over(g)) {
		if (lc->lb->nops == NULL ||
		    lc->lb->nops->resume(lc, lobby_gid(id), err) == 0)
			buf_printf(err, "no live game %.32s", id);
		return (NULL);
	}
	for (s = 2; s >= 1; s--)
		if (g->p[s - 1].account &&
		    strcmp(g->p[s - 1].name, lc->name) == 0 &&
		    (found == 0 || g->p[s - 1].lc == NULL))
			found = s;
	if (found == 0) {
		buf_printf(err, "not a player of game %lld", (long long)g->id);
		return (NULL);
	}
	*seat = found;
	return (g);
}

/*
 * Finds the seat of a live game that token (hex) holds and lc may take.
 * Returns the game, or NULL with err filled in.
 */
static struct lgame *
lobby_resume_token(struct lobby_client *lc, const char *token, int *seat,
    struct buf *err)
{
	struct lgame	*g;
	int		 s = 0;

	TAILQ_FOREACH(g, &lc->lb->games, entry) {
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
		buf_puts(err, "no live game with that token");
		return (NULL);
	}
	if (g->p[s - 1].account && lc->name[0] != '\0' &&
	    strcmp(lc->name, g->p[s - 1].name) != 0) {
		buf_printf(err, "not a player of game %lld", (long long)g->id);
		return (NULL);
	}
	if (g->p[s - 1].lc != NULL && (!g->p[s - 1].account ||
	    strcmp(lc->name, g->p[s - 1].name) != 0)) {
		buf_printf(err, "seat %d of game %lld is connected", s,
		    (long long)g->id);
		return (NULL);
	}
	*seat = s;
	return (g);
}

/*
 * resume TOKEN | GAME_ID: takes a seat back after a disconnect; *gid and
 * *seat say which.  A seat of one's own account still held by another
 * connection (an old one, perhaps dead) is taken over: that one gets
 * "event replaced".
 */
int
lobby_resume(struct lobby_client *lc, const char *token, int64_t *gid,
    int *seat, struct buf *err)
{
	struct lobby_client *old;
	struct lgame	*g;
	int		 s = 0;

	if (lc->game != NULL) {
		buf_printf(err, "you are playing game %lld",
		    (long long)lc->game->id);
		return (-1);
	}
	if (strlen(token) != LOBBY_TOKEN_LEN && lobby_isnum(token))
		g = lobby_resume_id(lc, token, &s, err);
	else
		g = lobby_resume_token(lc, token, &s, err);
	if (g == NULL)
		return (-1);
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
	*gid = g->id;
	*seat = s;
	lg_send_start(g, s);
	lg_send_new(g, s);
	if (lg_seated(g))	/* its first turn */
		return (0);
	if (g->to_move == s)
		lg_send_genmove(g);
	return (0);
}

/*
 * resign GAME_ID [REASON [DETAIL]]: a seated player (*seat) gives up a
 * live game, with reason "resign" or the loss it declares of its own
 * (reason static, checked by the caller: verify_own_loss; detail copied,
 * or NULL).
 */
int
lobby_resign(struct lobby_client *lc, const char *id, const char *reason,
    const char *detail, int *seat, struct buf *err)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	int		 s;

	if (g == NULL || lg_over(g)) {
		buf_printf(err, "no live game %.32s", id);
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
		buf_printf(err, "not a player of game %lld", (long long)g->id);
		return (-1);
	}
	*seat = s;
	if (strcmp(reason, "resign") != 0)
		log_info("game=%lld event=own-loss seat=%d reason=%s",
		    (long long)g->id, s, reason);
	lg_finish_detail(g, 3 - s, reason, detail);
	return (0);
}


/* Describes live game g as lv (the clocks as of now). */
void
lobby_live_fill(const struct lgame *g, struct lobby_live *lv, uint64_t now)
{
	memset(lv, 0, sizeof *lv);
	lv->id = g->id;
	lv->player[0] = g->p[0].name;
	lv->player[1] = g->p[1].name;
	lv->ply = g->ply;
	lv->base_ms = g->base_ms;
	lv->inc_ms = g->inc_ms;
	lv->rated = g->rated;
	lv->start = g->start;
	lv->position = &g->game;
	lv->clock_ms[0] = lg_clock(g, 1, now);
	lv->clock_ms[1] = lg_clock(g, 2, now);
}

/* games live: the live games, oldest first, in *v (free it). */
void
lobby_live_games(struct lobby_client *lc, struct lobby_live **v, size_t *n)
{
	struct lgame	*g;
	uint64_t	 now = lobby_clock_now(lc->lb);

	*v = NULL;
	*n = 0;
	TAILQ_FOREACH(g, &lc->lb->games, entry) {
		if (lg_over(g))
			continue;
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		lobby_live_fill(g, &(*v)[(*n)++], now);
	}
}

/* unwatch GAME_ID: stops following a game (none followed is fine). */
void
lobby_unwatch(struct lobby_client *lc, const char *id)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	size_t		 i;

	if (g != NULL)
		for (i = 0; i < g->nwatchers; i++)
			if (g->watchers[i] == lc) {
				g->watchers[i] = g->watchers[--g->nwatchers];
				break;
			}
	if (g == NULL && lobby_gid(id) > 0 && lc->lb->nops != NULL)
		lc->lb->nops->unwatch(lc, lobby_gid(id));
	lc_unwatch(lc, lobby_gid(id));
}

/* watch GAME_ID: follows a live game's moves; *lv is the game now. */
int
lobby_watch(struct lobby_client *lc, const char *id, struct lobby_live *lv,
    struct buf *err)
{
	struct lobby	*lb = lc->lb;
	struct lgame	*g = lobby_game(lb, lobby_gid(id));
	uint64_t	 now = lobby_clock_now(lb);
	size_t		 i;
	int		 rc;

	if (g == NULL && lobby_gid(id) > 0 && lb->nops != NULL &&
	    (rc = lb->nops->watch(lc, lobby_gid(id), lv, err)) != 1)
		return (rc);
	if (lb->nops != NULL)
		lb->nops->watch_here(lc);	/* read for nothing: here now */
	if (g == NULL || lg_over(g)) {
		buf_printf(err, "no live game %.32s", id);
		return (-1);
	}
	for (i = 0; i < g->nwatchers; i++)
		if (g->watchers[i] == lc)
			break;
	if (i == g->nwatchers) {
		if (lc->nwatch >= LOBBY_MAX_WATCH) {
			buf_printf(err, "you watch %d games already (limit)",
			    LOBBY_MAX_WATCH);
			return (-1);
		}
		if (g->nwatchers >= g->lb->conf.max_watchers) {
			buf_printf(err, "game %lld has %zu spectators "
			    "(limit)", (long long)g->id, g->nwatchers);
			return (-1);
		}
		g->watchers = xreallocarray(g->watchers, g->nwatchers + 1,
		    sizeof *g->watchers);
		g->watchers[g->nwatchers++] = lc;
		if (lc->watch == NULL)	/* most clients never watch */
			lc->watch = xcalloc(LOBBY_MAX_WATCH,
			    sizeof *lc->watch);
		lc->watch[lc->nwatch++] = g->id;
	}
	lobby_live_fill(g, lv, now);
	return (0);
}

/* Refuses tournaments without the game log. */
int
lobby_tour_check(struct lobby_client *lc, struct buf *err)
{
	if (lc->lb->league == NULL) {
		buf_puts(err, "tournaments need the game log (--db)");
		return (-1);
	}
	return (0);
}

/*
 * A seed for a tournament that was given none: unpredictable (any thread:
 * tournament create is prepared on a worker).
 */
uint64_t
lobby_tour_seed(void)
{
	uint64_t	 v;

	if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
		v = clock_wall_ms() ^ ((uint64_t)getpid() << 32);
	return (v);
}

/*
 * tournament create: starts tournament d, stored already (its id set, on
 * a worker: cmd-prep.c); *nslots is its number of games.  The lobby owns
 * d's memory.
 */
void
lobby_tour_add(struct lobby_client *lc, struct league_tournament *d,
    size_t *nslots)
{
	struct lobby	*lb = lc->lb;
	struct ltour	*t;

	t = xcalloc(1, sizeof *t);
	t->def = *d;
	t->lb = lb;
	lobby_tour_slots(t);
	TAILQ_INSERT_TAIL(&lb->tours, t, entry);
	log_info("tournament=%s event=created games=%zu by=%s", d->name,
	    t->nslots, lc->name);
	*nslots = t->nslots;
	lobby_schedule(lb);
}

/* The status of tournament id as the lobby has it, or def if it has none
 * (tournament list). */
int
lobby_tour_status_of(struct lobby_client *lc, int64_t id, int def)
{
	struct ltour	*t;

	TAILQ_FOREACH(t, &lc->lb->tours, entry)
		if (t->def.id == id)
			return ((int)t->def.status);
	return (def);
}

/* Orders ratings, best first. */
static int
lrating_cmp(const void *a, const void *b)
{
	const struct lobby_rating_row *x = a, *y = b;

	if (x->r != y->r)
		return (x->r > y->r ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* ratings: every rated player, best first, in *v (free it). */
void
lobby_ratings(struct lobby_client *lc, struct lobby_rating_row **v,
    size_t *n)
{
	lobby_rating_rows(lc->lb, v, n);
	qsort(*v, *n, sizeof **v, lrating_cmp);
}

/* connections (admin): every connection, in *v (free it). */
void
lobby_connections(struct lobby_client *lc, struct lobby_conn **v, size_t *n)
{
	struct lobby_client *c;
	struct lobby_conn *r;

	*v = NULL;
	*n = 0;
	TAILQ_FOREACH(c, &lc->lb->clients, entry) {
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		r = &(*v)[(*n)++];
		r->id = c->connid;
		r->peer = c->peer;
		r->name = c->name;
		r->game_id = c->game != NULL ? c->game->id : 0;
		r->seat = c->seat;
	}
}

/* kick CONN_ID REASON (admin): tells the connection, then drops it. */
int
lobby_kick(struct lobby_client *lc, const char *id, const char *reason,
    uint64_t *connid, struct buf *err)
{
	struct lobby_client *c;

	TAILQ_FOREACH(c, &lc->lb->clients, entry)
		if (lobby_isnum(id) && (int64_t)c->connid == lobby_gid(id))
			break;
	if (c == NULL) {
		buf_printf(err, "no connection %.32s", id);
		return (-1);
	}
	lc_event(c, "kicked %s", reason);
	log_info("conn=%llu event=kicked by=%s reason=\"%s\"",
	    (unsigned long long)c->connid, lc->name, reason);
	if (lc->lb->io.kick != NULL)
		lc->lb->io.kick(lc->lb->io.arg, c->conn);
	*connid = c->connid;
	return (0);
}

/*
 * abort GAME_ID REASON (winner 0) or adjudicate GAME_ID 1|2 REASON (admin):
 * ends a live game without a result, or with a win for a seat; the
 * admin's name and reason go to the players, spectators and the record.
 */
int
lobby_end(struct lobby_client *lc, const char *id, int winner,
    const char *reason, struct buf *err)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	struct buf	 d;

	if (g == NULL || lg_over(g)) {
		buf_printf(err, "no live game %.32s", id);
		return (-1);
	}
	buf_init(&d);
	buf_printf(&d, "by %s: %s", lc->name, reason);
	log_info("game=%lld event=%s winner=%d %s", (long long)g->id,
	    winner == 0 ? "aborted" : "adjudicated", winner, buf_str(&d));
	lg_finish_detail(g, winner, winner == 0 ? "aborted" : "adjudicated",
	    buf_str(&d));
	buf_free(&d);
	return (0);
}
