/*
 * lobby-xnode.c: matchmaking across nodes (issue 15 §2, PROTOCOL.md
 * §13.3, doc/NODES.md).  Only on a node of a shared PostgreSQL database
 * (lobby_xnode_start); on a single SQLite node none of this runs.
 *
 * A node has two connections of its own: one for its transactions, one
 * that LISTENs to channel lobby (its socket watched by libevent; made
 * again by sqldb when lost, then every local seek is tried again: what a
 * missed notification said is in the table).
 *
 * A local seek that pairs with no local one is published (table seeks,
 * NOTIFY lobby 'seek ID').  On 'seek N' a node tries each local published
 * seek with id >= N: in one transaction it locks its own row (still
 * unclaimed), picks the oldest compatible row of another node with a
 * smaller id (FOR UPDATE SKIP LOCKED), deletes its own row and marks the
 * other claimed (owner_id).  The newer seek's node always claims, and a
 * row is claimed at most once (the lock and owner_id), so exactly one
 * node pairs each seek.  The claiming node starts the game with the other
 * seat away (its lease is the node thread's: the store's writer takes it
 * before the game's first write), writes the game id into the claimed row and
 * NOTIFYs lobby 'paired ID'; the other node sends its player `event
 * redirect HOST:PORT GAME_ID` and deletes the row.  The clocks start when
 * both players are seated, or XNODE_JOIN_MS after the start, whichever
 * comes first; from then on the usual absence rules hold (an away
 * player's clock runs).
 *
 * The database calls are short statements on the loop, as node.c and
 * lease.c are; their number per event is bounded by the local seeks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "lobby.h"
#include "lobby-int.h"
#include "log.h"
#include "node.h"
#include "sqldb.h"
#include "util.h"

#define XNODE_TICK_MS	1000	/* reconnection, joins */
#define XNODE_JOIN_MS	10000	/* the clocks start at the latest then */
#define XNODE_GAMES_MAX	4096	/* games paired here, waiting for a join */

/*
 * A game this node paired across nodes.  Its lease is the node thread's
 * (server-node.c: the store's writer takes it before the game's first
 * write, the thread renews it, the committed end releases it): here only
 * the join deadline.
 */
struct xgame {
	int64_t		 game;
	uint64_t	 join_by;	/* lobby_clock_now; 0: joined */
};

struct lxnode {
	struct lobby	*lb;
	struct event_base *base;
	struct sqldb	*db;		/* transactions */
	struct sqldb	*ldb;		/* LISTEN lobby */
	struct event	*rd;		/* on ldb's socket, or NULL */
	struct clock_timer *tick;
	unsigned int	 ticks;
	int		 retry;		/* a claim passed over a locked row */
	struct xgame	*games;
	size_t		 ngames;
};

static int64_t
xnode_now(void)
{
	return ((int64_t)clock_wall_ms());
}

static void
xnode_warn(struct lxnode *xn, struct sqldb *db, const char *what)
{
	(void)xn;
	log_warnx("event=xnode-db what=%s error=\"%s\"", what,
	    sqldb_errmsg(db));
}

/* Binds seek sk's terms (spec, random, rated, base_ms, inc_ms) from
 * parameter i on. */
static void
xnode_bind_terms(struct sqldb_stmt *s, int i, const struct lseek *sk)
{
	sqldb_bind_text(s, i, sk->spec);
	sqldb_bind_int64(s, i + 1, sk->random);
	sqldb_bind_int64(s, i + 2, sk->rated);
	sqldb_bind_int64(s, i + 3, (int64_t)sk->base_ms);
	sqldb_bind_int64(s, i + 4, (int64_t)sk->inc_ms);
}

/* Publishes local seek sk (table seeks, NOTIFY lobby 'seek ID'). */
void
lobby_xnode_publish(struct lobby *lb, struct lseek *sk)
{
	struct lxnode	*xn = lb->xnode;
	struct sqldb_stmt *s;
	char		 pay[64];

	if (xn == NULL || sk->lc->name[0] == '\0')
		return;
	if (sqldb_begin(xn->db) != 0 ||
	    sqldb_cached(xn->db, "INSERT INTO seeks (node_id, player, spec, "
	    "random, rated, base_ms, inc_ms, created_ms) VALUES (?, ?, ?, ?, "
	    "?, ?, ?, ?)", SQLDB_RETURNING_ID, &s) != 0)
		goto fail;
	sqldb_bind_int64(s, 1, lb->node_id);
	sqldb_bind_text(s, 2, sk->lc->name);
	xnode_bind_terms(s, 3, sk);
	sqldb_bind_int64(s, 8, xnode_now());
	if (sqldb_step(s) != SQLDB_DONE) {
		sqldb_reset(s);
		goto fail;
	}
	sqldb_reset(s);
	sk->xrow = sqldb_last_id(xn->db);
	snprintf(pay, sizeof pay, "seek %" PRId64, sk->xrow);
	if (sqldb_notify(xn->db, "lobby", pay) < 0 ||
	    sqldb_commit(xn->db) != 0)
		goto fail;
	log_info("event=seek-published seek=%llu row=%lld name=%s",
	    (unsigned long long)sk->id, (long long)sk->xrow, sk->lc->name);
	return;
fail:
	xnode_warn(xn, xn->db, "publish");
	sqldb_abort(xn->db);
	sk->xrow = 0;		/* a local seek only */
}

/*
 * Takes local seek sk's published row back (a local pairing, a withdrawal
 * or its player gone): returns 0, or -1 when another node claimed it
 * already (its 'paired' is on its way: the seek must not pair here).
 */
static int
lobby_xnode_unpublish(struct lobby *lb, struct lseek *sk)
{
	struct lxnode	*xn = lb->xnode;
	int64_t		 v[1];
	int64_t		 n;

	if (xn == NULL || sk->xrow == 0)
		return (0);
	v[0] = sk->xrow;
	n = sqldb_cached_run(xn->db, "DELETE FROM seeks WHERE id = ? AND "
	    "owner_id IS NULL", v, 1);
	if (n < 0)
		xnode_warn(xn, xn->db, "unpublish");
	if (n == 0)
		return (-1);
	sk->xrow = 0;
	return (0);
}

/* A published seek's row: id, owner_id, game_id, player (0: NULL). */
struct xrow {
	int64_t		 id, owner, game;
	char		 player[LEAGUE_NAME_MAX + 1];
};

static void
xnode_row(struct sqldb_stmt *s, size_t i, void *arg)
{
	struct xrow	*r = arg;
	const char	*p = sqldb_column_text(s, 3);

	(void)i;
	r->id = sqldb_column_int64(s, 0);
	r->owner = sqldb_column_int64(s, 1);
	r->game = sqldb_column_int64(s, 2);
	lobby_copy(r->player, p != NULL ? p : "", sizeof r->player);
}

/*
 * The oldest seek of another live node that local seek sk (older than it)
 * may pair with into *c (a node killed leaves its rows: they are passed
 * over once its heartbeat expired), locked if lock is set (FOR UPDATE
 * SKIP LOCKED: rows another claim holds are passed over).  Returns 1, 0
 * (none), or -1.
 */
#define XNODE_CANDIDATE	"SELECT id, owner_id, game_id, player FROM seeks " \
	"WHERE id < ? AND node_id <> ? AND owner_id IS NULL AND player <> ? " \
	"AND spec = ? AND random = ? AND rated = ? AND base_ms = ? AND " \
	"inc_ms = ? AND EXISTS (SELECT 1 FROM nodes WHERE nodes.id = " \
	"seeks.node_id AND nodes.expires_ms > ?) ORDER BY id LIMIT 1"
static int
xnode_candidate(struct lxnode *xn, struct lseek *sk, struct xrow *c, int lock)
{
	struct sqldb_stmt *s;
	int		 r;

	c->id = 0;
	if (sqldb_cached(xn->db, lock ? XNODE_CANDIDATE
	    " FOR UPDATE SKIP LOCKED" : XNODE_CANDIDATE, 0, &s) != 0)
		return (-1);
	sqldb_bind_int64(s, 1, sk->xrow);
	sqldb_bind_int64(s, 2, xn->lb->node_id);
	sqldb_bind_text(s, 3, sk->lc->name);
	xnode_bind_terms(s, 4, sk);
	sqldb_bind_int64(s, 9, xnode_now());	/* of a live node only */
	if ((r = sqldb_step(s)) == SQLDB_ROW)
		xnode_row(s, 0, c);
	sqldb_reset(s);
	return (r < 0 ? -1 : r == SQLDB_ROW);
}

/*
 * The claim's transaction for local seek sk: returns 1 with *c the
 * claimed row, 0 when there is nothing to claim, -1 on failure.
 */
static int
xnode_claim_tx(struct lxnode *xn, struct lseek *sk, struct xrow *c)
{
	struct sqldb	*db = xn->db;
	int64_t		 v[2], busy = 0;
	size_t		 n = 0;
	int		 r;

	if ((r = xnode_candidate(xn, sk, c, 0)) != 1)
		return (r);	/* none: lock nothing (others may claim ours) */
	v[0] = sk->xrow;
	if (sqldb_begin(db) != 0 ||
	    sqldb_cached_rows(db, "SELECT id, player FROM seeks WHERE id = ? "
	    "AND owner_id IS NULL FOR UPDATE", v, 1, 1, NULL, NULL, &n) != 0)
		return (sqldb_abort(db));
	if (n == 0)		/* claimed by another node: 'paired' follows */
		return (sqldb_rollback(db) == 0 ? 0 : -1);
	if ((r = xnode_candidate(xn, sk, c, 1)) < 0)
		return (sqldb_abort(db));
	if (r == 0)		/* locked by a claim that may yet fail */
		xn->retry = 1;
	if (r == 1 && (busy = lobby_busy(xn->lb, c->player)) != 0)
		log_info("event=xnode-busy row=%lld player=%s game=%lld",
		    (long long)c->id, c->player, (long long)busy);
	if (r == 0 || busy != 0)
		return (sqldb_rollback(db) == 0 ? 0 : -1);
	v[0] = xn->lb->node_id;
	v[1] = c->id;
	if (sqldb_cached_run(db, "UPDATE seeks SET owner_id = ? WHERE id = ?",
	    v, 2) != 1)
		return (sqldb_abort(db));
	v[0] = sk->xrow;
	if (sqldb_cached_run(db, "DELETE FROM seeks WHERE id = ?", v, 1) != 1)
		return (sqldb_abort(db));
	if (sqldb_commit(db) != 0)
		return (sqldb_abort(db));
	return (1);
}

/* The start position of seek sk's game (a draw for a template). */
static int
xnode_start_pos(struct lobby *lb, const struct lseek *sk, struct game *out)
{
	struct game	 tmpl;
	struct game_error gerr;
	int		 r;

	memset(&tmpl, 0, sizeof tmpl);
	if (game_parse_line(&tmpl, sk->spec, &lb->conf.lim, &gerr) != 0) {
		log_warnx("event=xnode-spec spec=\"%s\" error=\"%s\"",
		    sk->spec, gerr.msg);
		return (-1);
	}
	if (!sk->random) {
		*out = tmpl;
		return (0);
	}
	r = lobby_draw_start(&tmpl, lb->rs, &lb->conf.lim, out, &gerr);
	game_free(&tmpl);
	return (r);
}

/* Remembers the lease of game g, started here for a claim. */
static void
xnode_keep(struct lxnode *xn, struct lgame *g)
{
	struct xgame	*x;

	if (xn->ngames >= XNODE_GAMES_MAX) {
		log_warnx("event=xnode-join game=%lld error=\"too many\"",
		    (long long)g->id);
		return;
	}
	xn->games = xreallocarray(xn->games, xn->ngames + 1,
	    sizeof *xn->games);
	x = &xn->games[xn->ngames];
	memset(x, 0, sizeof *x);
	x->game = g->id;
	x->join_by = lobby_clock_now(xn->lb) + XNODE_JOIN_MS;
	xn->ngames++;
}

/* Tries to pair local seek sk with an older seek of another node. */
static void
xnode_claim(struct lxnode *xn, struct lseek *sk)
{
	struct lobby	*lb = xn->lb;
	struct lobby_client *lc = sk->lc;
	struct xrow	 c;
	struct game	 start;
	struct lgame	*g;
	int64_t		 v[2];
	uint64_t	 base = sk->base_ms, inc = sk->inc_ms;
	int		 rated = sk->rated, r;
	char		 pay[64];

	if ((r = xnode_claim_tx(xn, sk, &c)) < 0)
		xnode_warn(xn, xn->db, "claim");
	if (r != 1)
		return;
	sk->xrow = 0;		/* deleted by the claim */
	if (xnode_start_pos(lb, sk, &start) != 0) {
		v[0] = c.id;	/* give the claimed seek back */
		sqldb_cached_run(xn->db, "UPDATE seeks SET owner_id = NULL "
		    "WHERE id = ?", v, 1);
		return;
	}
	lc_drop_seek(lc);
	lb->xaway = c.player;
	if (gmp_urandomm_ui(lb->rs, 2) == 0)
		g = lg_start(lb, &start, lc, NULL, 0, base, inc, rated, NULL, 0);
	else
		g = lg_start(lb, &start, NULL, lc, 0, base, inc, rated, NULL, 0);
	lb->xaway = NULL;
	xnode_keep(xn, g);
	v[0] = g->id;
	v[1] = c.id;
	if (sqldb_cached_run(xn->db, "UPDATE seeks SET game_id = ? WHERE "
	    "id = ?", v, 2) != 1)
		xnode_warn(xn, xn->db, "paired");
	snprintf(pay, sizeof pay, "paired %" PRId64, c.id);
	if (sqldb_notify(xn->db, "lobby", pay) < 0)
		xnode_warn(xn, xn->db, "notify");
	log_info("game=%lld event=xnode-paired row=%lld away=%s",
	    (long long)g->id, (long long)c.id, c.player);
}

/* Tries every local published seek with a row id of at least min. */
static void
xnode_scan(struct lxnode *xn, int64_t min)
{
	struct lseek	*sk, *tsk;

	TAILQ_FOREACH_SAFE(sk, &xn->lb->seeks, entry, tsk)
		if (sk->xrow != 0 && sk->xrow >= min)
			xnode_claim(xn, sk);
}

/*
 * Published row id of this node was paired by another node: redirect its
 * player there (the seeking connection, else any of its connections
 * without a game) and delete the row.
 */
static void
xnode_paired(struct lxnode *xn, int64_t id)
{
	struct lobby	*lb = xn->lb;
	struct lobby_client *lc, *to = NULL;
	struct node_info ni;
	struct xrow	 p;
	int64_t		 v[2];
	size_t		 n = 0;

	memset(&p, 0, sizeof p);
	v[0] = id;
	v[1] = lb->node_id;
	if (sqldb_cached_rows(xn->db, "SELECT id, owner_id, game_id, player "
	    "FROM seeks WHERE id = ? AND node_id = ? AND game_id IS NOT NULL", v, 2,
	    1, xnode_row, &p, &n) != 0) {
		xnode_warn(xn, xn->db, "paired-read");
		return;
	}
	if (n == 0)
		return;
	if (node_get(xn->db, p.owner, &ni) != 1) {
		xnode_warn(xn, xn->db, "paired-node");
		return;
	}
	TAILQ_FOREACH(lc, &lb->clients, entry) {
		if (lc->seek != NULL && lc->seek->xrow == id) {
			to = lc;
			break;
		}
		if (to == NULL && lc->game == NULL &&
		    strcmp(lc->name, p.player) == 0)
			to = lc;
	}
	if (to != NULL) {
		if (to->seek != NULL && to->seek->xrow == id)
			to->seek->xrow = 0;
		lc_drop_seek(to);
		lc_event(to, "redirect %s %lld", ni.addr, (long long)p.game);
		log_info("conn=%llu event=redirect name=%s to=%s game=%lld",
		    (unsigned long long)to->connid, to->name, ni.addr,
		    (long long)p.game);
	}
	sqldb_cached_run(xn->db, "DELETE FROM seeks WHERE id = ?", v, 1);
}

/* Rows of this node paired by others while no notification came. */
static void
xnode_paired_all(struct lxnode *xn)
{
	int64_t		 v[1], ids[64];
	size_t		 n = 0, i;
	struct sqldb_stmt *s;

	v[0] = xn->lb->node_id;
	if (sqldb_cached(xn->db, "SELECT id FROM seeks WHERE node_id = ? AND "
	    "game_id IS NOT NULL ORDER BY id LIMIT 64", 0, &s) != 0)
		return;
	sqldb_bind_int64(s, 1, v[0]);
	while (n < 64 && sqldb_step(s) == SQLDB_ROW)
		ids[n++] = sqldb_column_int64(s, 0);
	sqldb_reset(s);
	for (i = 0; i < n; i++)
		xnode_paired(xn, ids[i]);
}

/* One notification of channel lobby. */
static void
xnode_note(struct lxnode *xn, const struct sqldb_note *n)
{
	long long	 id;
	char		 c;

	if (strcmp(n->channel, "lobby") != 0) {
		lobby_xwatch_note(xn->lb, n->channel);
		return;
	}
	if (lobby_xtour_note(xn->lb, n->payload))
		return;
	if (sscanf(n->payload, "seek %lld%c", &id, &c) == 1)
		xnode_scan(xn, id);
	else if (sscanf(n->payload, "paired %lld%c", &id, &c) == 1)
		xnode_paired(xn, id);
	else if (sscanf(n->payload, "watch %lld%c", &id, &c) == 1)
		lobby_xwatch_wanted(xn->lb, id);
}

static void	xnode_listen(struct lxnode *);

/* The listener's socket is readable: every notification that came. */
static void
xnode_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lxnode	*xn = arg;
	struct sqldb_note n;
	int		 r;

	(void)fd;
	(void)what;
	while ((r = sqldb_notify_next(xn->ldb, &n)) == SQLDB_ROW)
		xnode_note(xn, &n);
	if (r < 0) {		/* lost: the tick listens again */
		log_warnx("event=xnode-listen error=\"%s\"",
		    sqldb_errmsg(xn->ldb));
		event_free(xn->rd);
		xn->rd = NULL;
	}
}

/* (Re)watches the listener's socket; after a loss, catches up. */
static void
xnode_listen(struct lxnode *xn)
{
	int		 fd;

	if (xn->rd != NULL)
		return;
	if ((fd = sqldb_notify_fd(xn->ldb)) < 0)
		return;		/* unreachable: the next tick */
	xn->rd = event_new(xn->base, fd, EV_READ | EV_PERSIST, xnode_read_cb,
	    xn);
	event_add(xn->rd, NULL);
	/* What a notification missed meanwhile said is in the table. */
	xnode_paired_all(xn);
	xnode_scan(xn, 0);
	lobby_xwatch_catch_up(xn->lb);
}

/* Starts the clocks of the games paired here whose away player did not
 * come in time; forgets those that started or ended. */
static void
xnode_games(struct lxnode *xn)
{
	struct lobby	*lb = xn->lb;
	struct lgame	*g;
	struct xgame	*x;
	size_t		 i = 0;
	uint64_t	 now = lobby_clock_now(lb);

	while (i < xn->ngames) {
		x = &xn->games[i];
		g = lobby_game(lb, x->game);
		if (g == NULL || lg_over(g) || !g->xwait) {
			xn->games[i] = xn->games[--xn->ngames];
			continue;
		}
		if (now >= x->join_by) {
			log_info("game=%lld event=join-timeout",
			    (long long)g->id);
			g->xwait = 0;
			lg_turn(g);
			xn->games[i] = xn->games[--xn->ngames];
			continue;
		}
		i++;
	}
}

static void
xnode_tick_cb(void *arg)
{
	struct lxnode	*xn = arg;
	struct lobby	*lb = xn->lb;

	xnode_listen(xn);
	if (xn->retry) {	/* that claim may have failed: try again */
		xn->retry = 0;
		xnode_scan(xn, 0);
	}
	xnode_games(xn);
	lb->clock.arm(lb->clock.arg, xn->tick, XNODE_TICK_MS);
}

/*
 * A seat of game g was taken (resume): while g waits for its players
 * (xwait), starts its first turn once both are seated.  Returns 1 when
 * it did (the genmove is sent), 0 otherwise.
 */
int
lobby_xnode_seated(struct lgame *g)
{
	if (!g->xwait || g->p[0].lc == NULL || g->p[1].lc == NULL)
		return (0);
	g->xwait = 0;
	log_info("game=%lld event=joined", (long long)g->id);
	lg_turn(g);
	return (1);
}

/*
 * Makes lb, a node of the shared database url (PostgreSQL: lobby_set_node
 * was called by the node thread, server-node.c), match seeks across
 * nodes: listens to channel lobby.  Returns 0, or -1 with err.
 */
int
lobby_xnode_start(struct lobby *lb, struct event_base *base, const char *url,
    char *err, size_t errlen)
{
	struct lxnode	*xn;

	if (lb->node_id == 0) {
		snprintf(err, errlen, "not a node");
		return (-1);
	}
	xn = xcalloc(1, sizeof *xn);
	xn->lb = lb;
	xn->base = base;
	if (sqldb_open(url, &xn->db, err, errlen) != 0 ||
	    sqldb_open(url, &xn->ldb, err, errlen) != 0)
		goto fail;
	if (sqldb_listen(xn->ldb, "lobby") != 0) {
		snprintf(err, errlen, "listen: %s", sqldb_errmsg(xn->ldb));
		goto fail;
	}
	lb->xnode = xn;
	lobby_xwatch_init(lb, xn->db, xn->ldb);
	lb->seek_gone = lobby_xnode_unpublish;
	xn->tick = lb->clock.timer_new(lb->clock.arg, xnode_tick_cb, xn);
	lb->clock.arm(lb->clock.arg, xn->tick, XNODE_TICK_MS);
	xnode_listen(xn);
	log_info("event=node id=%lld addr=%s", (long long)lb->node_id,
	    lb->node_addr);
	return (0);
fail:
	if (xn->db != NULL)
		sqldb_close(xn->db);
	if (xn->ldb != NULL)
		sqldb_close(xn->ldb);
	free(xn);
	return (-1);
}

/* Frees the node's part of lb (lobby_free). */
void
lobby_xnode_free(struct lobby *lb)
{
	struct lxnode	*xn = lb->xnode;

	if (xn == NULL)
		return;
	lobby_xwatch_free(lb);
	if (xn->rd != NULL)
		event_free(xn->rd);
	lb->clock.timer_free(lb->clock.arg, xn->tick);
	sqldb_close(xn->db);
	sqldb_close(xn->ldb);
	free(xn->games);
	free(xn);
	lb->xnode = NULL;
	lb->seek_gone = NULL;
}
