/*
 * lobby.c: networked play (PROTOCOL.md §13), on the event loop: the
 * lobby's life (creation, settings, shutdown), its clients (attach,
 * detach, login), and the answers to the server commands each client has
 * not answered yet.
 *
 * Every client keeps a FIFO of the commands the server sent it and it has
 * not answered yet (lobby-queue.c): GTP answers come back in order, so an
 * answer is matched to the oldest outstanding command (and to its id when
 * the client echoes one).
 *
 * The lobby's other concerns have a file each (lobby-int.h): client
 * output and command queues (lobby-queue.c), live games (lobby-game.c),
 * seeks and challenges (lobby-pair.c), tournaments (lobby-tour.c),
 * ratings (lobby-rating.c) and the operations behind the commands
 * (lobby-ops.c; the commands are in cmd-lobby.c).  lobby_new ties a
 * game's end to the tournaments (the hooks of struct lobby), so that no
 * file below this one calls a file above it.
 */

#include <sys/queue.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "league/league.h"
#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "lib/log.h"
#include "proto/proto.h"
#include "store/store.h"
#include "lib/util.h"

/*
 * Gives the lobby another clock and its timers (a test's virtual clock):
 * before any game starts, as each game's timer is made on the clock in
 * use when it starts.
 */
void
lobby_set_clock(struct lobby *lb, const struct clock_ops *ops)
{
	if (!TAILQ_EMPTY(&lb->games))
		fatalx("event=bug what=clock-changed-with-games");
	lb->clock = *ops;
}

/* Creates the lobby; with a league, resumes tournaments. */
struct lobby *
lobby_new(struct event_base *base, struct store *st, struct league *lg,
    const struct lobby_io *io, const struct lobby_conf *conf, char *err,
    size_t errlen)
{
	struct lobby	*lb;

	lb = xcalloc(1, sizeof *lb);
	lb->store = st;
	lb->league = lg;
	lb->io = *io;
	lb->conf = *conf;
	clock_event_ops(base, &lb->clock);
	lb->tour_game_over = lobby_tour_game_over;
	lb->game_freed = lobby_schedule;
	TAILQ_INIT(&lb->clients);
	TAILQ_INIT(&lb->games);
	TAILQ_INIT(&lb->seeks);
	TAILQ_INIT(&lb->challs);
	TAILQ_INIT(&lb->tours);
	TAILQ_INIT(&lb->ejobs);
	TAILQ_INIT(&lb->restores);
	gmp_randinit_default(lb->rs);
	gmp_randseed_ui(lb->rs, (unsigned long)(clock_wall_ms() / 1000) ^
	    (unsigned long)getpid());
	if (lg != NULL && lobby_load_tours(lb, err, errlen) != 0) {
		lobby_free(lb);
		return (NULL);
	}
	lobby_tstore_start(lb);	/* the load's writes now, then workers' */
	return (lb);
}

/* Frees the lobby; live games are logged as abandoned (shutdown). */
void
lobby_free(struct lobby *lb)
{
	struct lgame	*g;
	struct ltour	*t;
	struct lseek	*sk;
	struct lchall	*ch;

	lg_engine_drop(lb);		/* the workers are joined */
	lrestore_drop(lb);
	lobby_tstore_free(lb);		/* the writes left, in order */
	while ((g = TAILQ_FIRST(&lb->games)) != NULL) {
		if (g->logged && !lg_over(g))
			store_game_end(lb->store, g->id, STORE_RESULT_NONE,
			    "shutdown", STORE_ABANDONED, NULL, NULL);
		lg_free(g);
	}
	while ((sk = TAILQ_FIRST(&lb->seeks)) != NULL) {
		TAILQ_REMOVE(&lb->seeks, sk, entry);
		if (sk->nd != NULL)
			lb->nops->seek_free(sk);
		free(sk->spec);
		free(sk);
	}
	while ((ch = TAILQ_FIRST(&lb->challs)) != NULL) {
		TAILQ_REMOVE(&lb->challs, ch, entry);
		free(ch->spec);
		free(ch);
	}
	while ((t = TAILQ_FIRST(&lb->tours)) != NULL) {
		TAILQ_REMOVE(&lb->tours, t, entry);
		ltour_free(t);
	}
	gmp_randclear(lb->rs);
	if (lb->nops != NULL)
		lb->nops->free(lb);
	free(lb);
}

/* Applies new settings (SIGHUP). */
void
lobby_set_conf(struct lobby *lb, const struct lobby_conf *conf)
{
	lb->conf = *conf;
}

/* Adds a connection to the lobby. */
struct lobby_client *
lobby_attach(struct lobby *lb, void *conn, uint64_t connid)
{
	struct lobby_client *lc;

	lc = xcalloc(1, sizeof *lc);
	lc->lb = lb;
	lc->conn = conn;
	lc->connid = connid;
	lc->bud = &lc->own;
	STAILQ_INIT(&lc->out);
	buf_init(&lc->held);
	TAILQ_INSERT_TAIL(&lb->clients, lc, entry);
	if (lb->nops != NULL)
		lb->nops->attach(lc);
	return (lc);
}

/*
 * Removes a connection: its seek, challenges and spectating go; a seat it
 * holds stays, with its clock running, for a resume.
 */
void
lobby_detach(struct lobby_client *lc, const char *reason)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch, *tch;
	struct lgame	*g;
	struct lcmd	*c;
	size_t		 i;

	lc_drop_seek(lc);
	TAILQ_FOREACH_SAFE(ch, &lb->challs, entry, tch)
		if (ch->from == lc)
			lobby_drop_chall(lb, ch);
	TAILQ_FOREACH(g, &lb->games, entry)
		for (i = 0; i < g->nwatchers; i++)
			if (g->watchers[i] == lc) {
				g->watchers[i] = g->watchers[--g->nwatchers];
				break;
			}
	if (lb->nops != NULL)	/* games of other nodes */
		lb->nops->detach(lc);
	if ((g = lc->game) != NULL) {
		g->p[lc->seat - 1].lc = NULL;
		if (!lg_over(g)) {
			log_info("game=%lld event=away seat=%d player=%s "
			    "reason=%s", (long long)g->id, lc->seat,
			    g->p[lc->seat - 1].name, reason);
			lg_tell_seat(g, lc->seat, "disconnected");
		}
	}
	while ((c = STAILQ_FIRST(&lc->out)) != NULL) {
		STAILQ_REMOVE_HEAD(&lc->out, entry);
		free(c);
	}
	TAILQ_REMOVE(&lb->clients, lc, entry);
	buf_free(&lc->held);
	free(lc->watch);
	free(lc);
}

/*
 * Sets a client's address (for admins), the anonymous-name prefix and
 * its budget (lib/budget.h), which its games charge.
 */
void
lobby_set_peer(struct lobby_client *lc, const char *peer, const char *anon,
    struct budget *bud)
{
	lc->bud = bud;
	lobby_copy(lc->peer, peer, sizeof lc->peer);
	lobby_copy(lc->anon, anon, sizeof lc->anon);
}

/*
 * After a login's reply: one "event live" per seat the account holds in a
 * live game, so a restarted program can resume it by id; on a node, then
 * what node mode tells at a login (lobby_node_ops).
 */
void
lobby_login_live(struct lobby_client *lc)
{
	struct lgame	*g;
	size_t		 nlive = 0;
	int		 s;

	if (lc->name[0] == '\0')
		return;
	TAILQ_FOREACH(g, &lc->lb->games, entry) {
		if (lg_over(g))
			continue;
		for (s = 1; s <= 2; s++) {
			if (!g->p[s - 1].account ||
			    strcmp(g->p[s - 1].name, lc->name) != 0)
				continue;
			lc_event_live(lc, g, s);
			nlive++;
		}
	}
	if (lc->lb->nops != NULL)
		lc->lb->nops->login(lc, nlive);
}

/* A disabled account, on its way to the loop. */
struct ldisabled {
	struct lobby	*lb;
	char		 name[LEAGUE_NAME_MAX + 1];
	char		*reason;
};

/* lobby_disabled's work, on the loop. */
static void
lobby_disabled_cb(void *arg)
{
	struct ldisabled *d = arg;
	struct lobby	*lb = d->lb;
	struct lobby_client *lc;

	TAILQ_FOREACH(lc, &lb->clients, entry)
		if (strcmp(lc->name, d->name) == 0) {
			lc_event(lc, "disabled %s", d->reason);
			if (lb->io.kick != NULL)
				lb->io.kick(lb->io.arg, lc->conn);
		}
	free(d->reason);
	free(d);
}

/*
 * An admin disabled an account (any thread): on the loop, its connections
 * are told ("event disabled REASON") and dropped.  Its seats stay, with
 * their clocks running, as for any disconnect.
 */
void
lobby_disabled(struct lobby *lb, const char *name, const char *reason)
{
	struct ldisabled *d;

	d = xcalloc(1, sizeof *d);
	d->lb = lb;
	lobby_copy(d->name, name, sizeof d->name);
	d->reason = xstrdup(reason);
	lb->io.defer(lb->io.arg, lobby_disabled_cb, d);
}

/* A connection logged in (name) with or without the admin role. */
void
lobby_login(struct lobby_client *lc, const char *name, int admin)
{
	struct lchall	*ch, *tch;

	if (strcmp(lc->name, name) != 0) {
		/* A new identity: what the old one offered goes. */
		lc_drop_seek(lc);
		lc->ready = 0;
		TAILQ_FOREACH_SAFE(ch, &lc->lb->challs, entry, tch)
			if (ch->from == lc)
				lobby_drop_chall(lc->lb, ch);
	}
	lobby_copy(lc->name, name, sizeof lc->name);
	lc->admin = admin;
}

/* Returns 1 if the client waits on the lobby (no idle timeout then). */
int
lobby_active(const struct lobby_client *lc)
{
	return (lc->game != NULL || lc->seek != NULL || lc->ready ||
	    lc->nwatch > 0);
}

/* The names of the server commands, for the log. */
static const char *const lcmd_names[] = {
	[LCMD_NEW] = "new",
	[LCMD_PLAY] = "play",
	[LCMD_GENMOVE] = "genmove",
	[LCMD_GAMEOVER] = "gameover",
};

/*
 * Takes a complete answer block from a client (proto_answer_feed) and
 * gives it to the outstanding server command with its id (without an id:
 * the oldest); older commands left unanswered are forgotten, as GTP
 * answers come in order.  Returns 0 if no outstanding command has that
 * id (unknown, stale or duplicate): the caller answers it as an error.
 * Every answer here is one line; more is a protocol error for that
 * command only.
 */
int
lobby_answer(struct lobby_client *lc, const struct proto_answer *a)
{
	struct lcmd	*c;
	struct lgame	*g;
	const char	*text = a->body.data != NULL ? a->body.data : "";
	const char	*bad = NULL;

	if (a->has_id) {
		STAILQ_FOREACH(c, &lc->out, entry)
			if (c->id == a->id)
				break;
	} else
		c = STAILQ_FIRST(&lc->out);
	if (c == NULL)
		return (0);
	while (c != NULL) {
		struct lcmd *first = STAILQ_FIRST(&lc->out);

		STAILQ_REMOVE_HEAD(&lc->out, entry);
		lc->nout--;
		if (first == c)
			break;
		free(first);		/* older, never answered: skipped */
	}
	if (a->over)
		bad = "answer too long";
	else if (a->lines > 1)
		bad = "answer of several lines";
	if (bad != NULL || !a->ok)
		log_info("conn=%llu event=%s cmd=%s id=%llu msg=\"%.100s\"",
		    (unsigned long long)lc->connid, bad != NULL ?
		    "protocol-error" : "command-refused",
		    ENUM_NAME(lcmd_names, c->kind, "gameover"),
		    (unsigned long long)c->id, bad != NULL ? bad : text);
	if (c->kind != LCMD_GENMOVE) {
		free(c);
		return (1);
	}
	g = lobby_game(lc->lb, c->gid);
	if (g != NULL && !lg_over(g) && g->serial == c->serial &&
	    g->p[g->to_move - 1].lc == lc)
		lg_answer_move(g, a->ok, bad != NULL ? "-" : text, bad);
	free(c);
	return (1);
}
