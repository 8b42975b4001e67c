/*
 * server-node.c: the daemon as one node of several sharing a PostgreSQL
 * store (issue 15 §2, doc/NODES.md).  With SQLite the daemon is the only
 * node and nothing here runs.
 *
 * snode_start registers the node (node_register) and starts the node
 * thread, which has its own database connection (never the loop's time,
 * never the store writer's connection) and, every TTL/3:
 *   - beats (node_heartbeat); a row pruned while this node was cut off
 *     from the database is made again, same id (node_revive);
 *   - renews every lease this node holds in one statement
 *     (lease_renew_all), then compares the leases the store's writer
 *     fences with (store_leases) with those the database says this node
 *     holds (lease_held): a game missing there is lost;
 *   - takes and keeps the scheduler's advisory lock (sqldb_try_lock):
 *     the lobby schedules tournaments only while it holds it;
 *   - takes over the games whose lease expired (lease_expired,
 *     lease_acquire: epoch + 1) and has the lobby restore them from the
 *     log (lobby_restore); a game whose restore cannot start is ended
 *     in the log as abandoned (a fenced write of the new epoch, which
 *     releases the lease), never left live without a referee;
 *   - prunes the rows of nodes dead for SNODE_PRUNE_TTLS TTLs that hold
 *     no lease (node_prune, a bounded number per beat).
 * Games the writer found lost (its fence refused, or their lease could not
 * be acquired) wake the thread at once.  Everything the lobby must do
 * goes to the loop as a deferred call (struct snode_call); a lost game's
 * new owner is named when it is known and alive (node_alive, node_get):
 * at once, or at a later beat (snode_waiting, for SNODE_WAIT_TTLS TTLs):
 * the lobby then redirects the players it told `event lost`.
 */
#include <sys/queue.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "nodestore/nodestore.h"
#include "lobby/lobby.h"
#include "lib/log.h"
#include "nodestore/node.h"
#include "node/lnode.h"
#include "node/server-node.h"
#include "db/sqldb.h"
#include "store/store.h"

/* The scheduler's advisory lock: "grundy" and 1. */
#define SNODE_SCHED_KEY		INT64_C(0x6772756e64790001)
#define SNODE_HELD_MAX		LEASE_LIST_MAX	/* leases compared per beat */
#define SNODE_TAKE_MAX		64	/* games taken over per beat */
/* A dead node's row is pruned this many TTLs after its expiry. */
#define SNODE_PRUNE_TTLS	10
/* A lost game's new holder is looked for at each beat so many TTLs. */
#define SNODE_WAIT_TTLS		3
#define SNODE_WAIT_MAX		256	/* lost games looked for at once */

/* A lost game whose new holder is not known yet (snode_waiting). */
struct snode_wait {
	int64_t		 game;
	int64_t		 until;		/* ms: then forgotten */
};

struct snode {
	struct sqldb	*db;		/* the thread's own */
	struct store	*store;
	struct lobby	*lb;
	void		 (*defer)(void *, void (*)(void *), void *);
	void		*darg;
	int64_t		 id;
	int64_t		 ttl;		/* ms */
	int64_t		 started;	/* ms, as registered */
	char		 addr[NODE_ADDR_MAX + 1];
	int		 leader;	/* the thread's view of the lock */
	int		 elected;	/* an election ran (the first beat) */
	pthread_t	 thread;
	int		 running;
	pthread_mutex_t	 mtx;		/* below */
	pthread_cond_t	 wake;
	int		 quit;
	int64_t		*check;		/* lost in the writer: find the owner */
	size_t		 ncheck, capcheck;
	struct snode_wait wait[SNODE_WAIT_MAX];	/* the thread's only */
	size_t		 nwait;
	pthread_mutex_t	 cmtx;		/* calls */
	TAILQ_HEAD(, snode_call) calls;	/* sent, not run yet */
};

enum snode_kind {
	SNODE_LOST,		/* lobby_lease_lost(game, addr or NULL) */
	SNODE_LEADER,		/* lobby_set_leader(leader) */
	SNODE_RESTORE,		/* lobby_restore(game, epoch) */
};

struct snode_call {
	TAILQ_ENTRY(snode_call) entry;	/* on sn->calls until it runs */
	struct snode	*sn;
	enum snode_kind	 kind;
	int64_t		 game;
	int64_t		 epoch;
	int		 leader;
	int		 has_addr;
	char		 addr[NODE_ADDR_MAX + 1];
};


/* Runs a call on the loop. */
static void
snode_call_run(void *arg)
{
	struct snode_call *c = arg;
	struct snode	*sn = c->sn;

	pthread_mutex_lock(&sn->cmtx);
	TAILQ_REMOVE(&sn->calls, c, entry);
	pthread_mutex_unlock(&sn->cmtx);

	switch (c->kind) {
	case SNODE_LOST:
		lobby_lease_lost(sn->lb, c->game, c->has_addr ? c->addr :
		    NULL);
		break;
	case SNODE_LEADER:
		lobby_set_leader(sn->lb, c->leader);
		break;
	case SNODE_RESTORE:
		if (lobby_restore(sn->lb, c->game, c->epoch) == 0)
			break;
		log_warnx("node=%" PRId64 " event=restore-failed game=%"
		    PRId64 " epoch=%" PRId64, sn->id, c->game, c->epoch);
		store_game_end(sn->store, c->game, STORE_RESULT_NONE,
		    "takeover", STORE_ABANDONED, NULL, NULL);
		break;
	}
	free(c);
}

/* Sends a call to the loop (any thread). */
static void
snode_send(struct snode *sn, enum snode_kind kind, int64_t game,
    int64_t epoch, const char *addr)
{
	struct snode_call *c;

	c = xcalloc(1, sizeof *c);
	c->sn = sn;
	c->kind = kind;
	c->game = game;
	c->epoch = epoch;
	c->leader = kind == SNODE_LEADER && epoch != 0;
	if (addr != NULL) {
		c->has_addr = 1;
		snprintf(c->addr, sizeof c->addr, "%s", addr);
	}
	pthread_mutex_lock(&sn->cmtx);
	TAILQ_INSERT_TAIL(&sn->calls, c, entry);
	pthread_mutex_unlock(&sn->cmtx);
	sn->defer(sn->darg, snode_call_run, c);
}

/*
 * The store's writer found game lost (writer thread): the game stops at
 * once, and the node thread looks for its new owner.
 */
static void
snode_writer_lost(void *arg, int64_t game)
{
	struct snode	*sn = arg;

	snode_send(sn, SNODE_LOST, game, 0, NULL);
	pthread_mutex_lock(&sn->mtx);
	if (sn->ncheck == sn->capcheck) {
		sn->capcheck = sn->capcheck ? sn->capcheck * 2 : 16;
		sn->check = xreallocarray(sn->check, sn->capcheck,
		    sizeof *sn->check);
	}
	sn->check[sn->ncheck++] = game;
	pthread_cond_signal(&sn->wake);
	pthread_mutex_unlock(&sn->mtx);
}

/*
 * The address of game's owner if another live node holds its lease at
 * now (or, self set, this node again: it took the game over itself),
 * into addr; returns 1, or 0 when none is known.
 */
static int
snode_owner(struct snode *sn, int64_t game, int64_t now, int self,
    char *addr, size_t len)
{
	struct lease	 l;
	struct node_info ni;

	if (lease_get(sn->db, game, now, &l) != LEASE_HELD)
		return (0);
	if (l.node == sn->id) {
		if (self)
			snprintf(addr, len, "%s", sn->addr);
		return (self);
	}
	if (node_alive(sn->db, l.node, now) != 1 ||
	    node_get(sn->db, l.node, &ni) != 1)
		return (0);
	snprintf(addr, len, "%s", ni.addr);
	return (1);
}

/*
 * Looks for lost game's new holder at each beat for SNODE_WAIT_TTLS TTLs
 * (the oldest such game is forgotten when SNODE_WAIT_MAX wait).
 */
static void
snode_wait_add(struct snode *sn, int64_t game, int64_t now)
{
	size_t	 i;

	for (i = 0; i < sn->nwait; i++)
		if (sn->wait[i].game == game)
			return;
	if (sn->nwait == SNODE_WAIT_MAX)
		memmove(&sn->wait[0], &sn->wait[1], --sn->nwait *
		    sizeof sn->wait[0]);
	sn->wait[sn->nwait].game = game;
	sn->wait[sn->nwait++].until = now + SNODE_WAIT_TTLS * sn->ttl;
}

/*
 * The beat: each lost game whose new holder is known now (another node,
 * or this one again: it took the game over itself, after its lease
 * expired unrenewed) is sent to the loop again with its address (its
 * players get `event redirect`); those waited for long enough are
 * forgotten.
 */
static void
snode_waiting(struct snode *sn, int64_t now)
{
	char	 addr[NODE_ADDR_MAX + 1];
	size_t	 i = 0;

	while (i < sn->nwait) {
		if (snode_owner(sn, sn->wait[i].game, now, 1, addr,
		    sizeof addr))
			snode_send(sn, SNODE_LOST, sn->wait[i].game, 0, addr);
		else if (now <= sn->wait[i].until) {
			i++;
			continue;
		}
		memmove(&sn->wait[i], &sn->wait[i + 1], (--sn->nwait - i) *
		    sizeof sn->wait[0]);
	}
}

/* Tells the loop that game is lost, naming its owner if known (else
 * later: snode_waiting). */
static void
snode_lost(struct snode *sn, int64_t game, int64_t now)
{
	char	 addr[NODE_ADDR_MAX + 1];
	int	 known;

	log_warnx("node=%" PRId64 " event=lease-lost game=%" PRId64, sn->id,
	    game);
	known = snode_owner(sn, game, now, 0, addr, sizeof addr);
	snode_send(sn, SNODE_LOST, game, 0, known ? addr : NULL);
	if (!known)
		snode_wait_add(sn, game, now);
}

/* Is (game, epoch) among the n leases held (sorted by game)? */
static int
snode_holds(const int64_t *games, const int64_t *epochs, size_t n,
    int64_t game, int64_t epoch)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (games[mid] < game)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo < n && games[lo] == game && epochs[lo] == epoch);
}

/*
 * Renews this node's leases and finds the games lost: those the writer
 * fences with but the database no longer gives this node (taken, or
 * expired: a renewal after expiry is refused).  A game the writer
 * released meanwhile is not lost: it left the writer's table before its
 * release, and is looked for there again.
 */
static void
snode_renew(struct snode *sn, int64_t now)
{
	int64_t		*mine, *mine_e, *held, *held_e, renewed;
	size_t		 n, nheld, i;

	if (lease_renew_all(sn->db, sn->id, sn->ttl, now, &renewed) == -1) {
		log_warnx("node=%" PRId64 " event=lease-renew error=\"%s\"",
		    sn->id, sqldb_errmsg(sn->db));
		return;
	}
	if ((n = store_leases(sn->store, &mine, &mine_e)) == 0)
		return;
	held = xreallocarray(NULL, SNODE_HELD_MAX, sizeof *held);
	held_e = xreallocarray(NULL, SNODE_HELD_MAX, sizeof *held_e);
	if (lease_held(sn->db, sn->id, now, held, held_e, SNODE_HELD_MAX,
	    &nheld) == -1)
		log_warnx("node=%" PRId64 " event=lease-list error=\"%s\"",
		    sn->id, sqldb_errmsg(sn->db));
	else if (nheld == SNODE_HELD_MAX)
		log_warnx("node=%" PRId64 " event=lease-list what=truncated "
		    "max=%d", sn->id, SNODE_HELD_MAX);
	else
		for (i = 0; i < n; i++) {
			if (snode_holds(held, held_e, nheld, mine[i],
			    mine_e[i]) ||
			    store_lease_get(sn->store, mine[i]) != mine_e[i])
				continue;
			(void)store_lease_drop(sn->store, mine[i]);
			snode_lost(sn, mine[i], now);
		}
	free(held);
	free(held_e);
	free(mine);
	free(mine_e);
}

/* Takes and keeps the scheduler's lock; tells the lobby of a change. */
static void
snode_elect(struct snode *sn)
{
	int	 r;

	if ((r = sqldb_try_lock(sn->db, SNODE_SCHED_KEY)) == -1) {
		log_warnx("node=%" PRId64 " event=scheduler-lock error=\"%s\"",
		    sn->id, sqldb_errmsg(sn->db));
		r = 0;		/* a lost connection lost the lock */
	}
	if (!sn->elected && r == 0)	/* the first beat: say so once */
		log_info("node=%" PRId64 " event=scheduler-standby", sn->id);
	sn->elected = 1;
	if (r == sn->leader)
		return;
	sn->leader = r;
	snode_send(sn, SNODE_LEADER, 0, r, NULL);
}

/* Takes over the games whose lease expired; the lobby restores them. */
static void
snode_takeover(struct snode *sn, int64_t now)
{
	int64_t		 games[SNODE_TAKE_MAX];
	struct lease	 l;
	size_t		 n, i;
	int		 r;

	if (lease_expired(sn->db, now, games, SNODE_TAKE_MAX, &n) == -1) {
		log_warnx("node=%" PRId64 " event=lease-expired error=\"%s\"",
		    sn->id, sqldb_errmsg(sn->db));
		return;
	}
	for (i = 0; i < n; i++) {
		if ((r = lease_acquire(sn->db, games[i], sn->id, sn->ttl, now,
		    &l)) != LEASE_OK) {
			if (r == -1)
				log_warnx("node=%" PRId64 " event=takeover "
				    "game=%" PRId64 " error=\"%s\"", sn->id,
				    games[i], sqldb_errmsg(sn->db));
			continue;	/* LEASE_TAKEN: another node won */
		}
		log_info("node=%" PRId64 " event=takeover game=%" PRId64
		    " epoch=%" PRId64, sn->id, games[i], l.epoch);
		store_lease_set(sn->store, games[i], l.epoch);
		snode_send(sn, SNODE_RESTORE, games[i], l.epoch, NULL);
	}
}

/* Names the owners of the games the writer found lost (mtx held; drops
 * it meanwhile). */
static void
snode_pending(struct snode *sn, int64_t now)
{
	char		 addr[NODE_ADDR_MAX + 1];
	int64_t		 game;

	while (sn->ncheck > 0) {
		game = sn->check[--sn->ncheck];
		pthread_mutex_unlock(&sn->mtx);
		if (snode_owner(sn, game, now, 0, addr, sizeof addr))
			snode_send(sn, SNODE_LOST, game, 0, addr);
		else
			snode_wait_add(sn, game, now);
		pthread_mutex_lock(&sn->mtx);
	}
}

/*
 * The heartbeat; a node whose row was pruned (cut off from the database
 * for SNODE_PRUNE_TTLS TTLs, so it holds no lease) makes it again, same
 * id.
 */
static void
snode_heartbeat(struct snode *sn, int64_t now)
{
	struct node_info ni;

	if (node_heartbeat(sn->db, sn->id, now, sn->ttl) == 0)
		return;
	log_warnx("node=%" PRId64 " event=heartbeat error=\"%s\"", sn->id,
	    sqldb_errmsg(sn->db));
	if (node_get(sn->db, sn->id, &ni) == 0 && node_revive(sn->db, sn->id,
	    sn->addr, sn->started, now, sn->ttl) == 1)
		log_warnx("node=%" PRId64 " event=revived addr=%s", sn->id,
		    sn->addr);
}

/* Deletes a bounded number of long dead nodes' rows (node_prune). */
static void
snode_prune(struct snode *sn, int64_t now)
{
	size_t	 n;

	if (node_prune(sn->db, sn->id, now - SNODE_PRUNE_TTLS * sn->ttl,
	    NODE_PRUNE_MAX, &n) == -1)
		log_warnx("node=%" PRId64 " event=prune error=\"%s\"",
		    sn->id, sqldb_errmsg(sn->db));
	else if (n > 0)
		log_info("node=%" PRId64 " event=pruned nodes=%zu", sn->id, n);
}

/* One beat: heartbeat, leases, the scheduler's lock, takeovers, and
 * the pruning of dead nodes' rows. */
static void
snode_beat(struct snode *sn, int64_t now)
{
	snode_heartbeat(sn, now);
	snode_renew(sn, now);
	snode_elect(sn);
	snode_takeover(sn, now);
	snode_waiting(sn, now);
	snode_prune(sn, now);
}

/* The node thread. */
static void *
snode_thread(void *arg)
{
	struct snode	*sn = arg;
	struct timespec	 until;
	uint64_t	 next = 0, now;

	pthread_mutex_lock(&sn->mtx);
	while (!sn->quit) {
		now = clock_wall_ms();
		snode_pending(sn, (int64_t)now);
		if (now >= next) {
			pthread_mutex_unlock(&sn->mtx);
			snode_beat(sn, (int64_t)now);
			pthread_mutex_lock(&sn->mtx);
			next = now + (uint64_t)sn->ttl / 3;
			continue;
		}
		if (sn->ncheck > 0)
			continue;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)((next - now) / 1000);
		until.tv_nsec += (long)((next - now) % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		(void)pthread_cond_timedwait(&sn->wake, &sn->mtx, &until);
	}
	pthread_mutex_unlock(&sn->mtx);
	return (NULL);
}

/*
 * At a start with takeover on, the lobby restored the log's live games
 * (lobby_restore_live): takes the lease of each (sn's thread is not
 * running yet).  A lease held by an earlier node with this node's own
 * address is that process's, which is gone (one process listens on an
 * address): it is taken as expired.  A game another node holds is its:
 * it stops here (lobby_lease_lost, on the loop).
 */
static void
snode_reclaim(struct snode *sn, int64_t now)
{
	int64_t		 ids[SNODE_TAKE_MAX];
	struct node_info ni;
	struct lease	 l;
	size_t		 n, i;
	int64_t		 at;

	n = lobby_logged_ids(sn->lb, ids, SNODE_TAKE_MAX);
	for (i = 0; i < n; i++) {
		at = now;
		if (lease_get(sn->db, ids[i], now, &l) == LEASE_HELD &&
		    l.node != sn->id && node_get(sn->db, l.node, &ni) == 1 &&
		    strcmp(ni.addr, sn->addr) == 0 && l.expires_ms > now)
			at = l.expires_ms;	/* our earlier process's */
		if (lease_acquire(sn->db, ids[i], sn->id, sn->ttl, at, &l) ==
		    LEASE_OK) {
			store_lease_set(sn->store, ids[i], l.epoch);
			log_info("node=%" PRId64 " event=reclaim game=%" PRId64
			    " epoch=%" PRId64, sn->id, ids[i], l.epoch);
		} else
			snode_lost(sn, ids[i], now);
	}
}

/* Does url name a PostgreSQL store, where the daemon is a node? */
int
snode_url(const char *url)
{
	return (url != NULL && (strncmp(url, "postgresql://", 13) == 0 ||
	    strncmp(url, "postgres://", 11) == 0));
}

/*
 * Makes the daemon a node: opens the node thread's connection to url,
 * registers addr (HOST:PORT) with ttl_ms, tells the lobby and the store,
 * and starts the thread; defer(darg, fn, arg) runs fn(arg) on the loop.
 * Returns NULL with err filled in on failure.
 */
struct snode *
snode_start(const char *url, const char *addr, int64_t ttl_ms,
    struct store *st, struct lobby *lb,
    void (*defer)(void *, void (*)(void *), void *), void *darg,
    char *err, size_t errlen)
{
	struct snode	*sn;
	char		 e[512];
	int64_t		 started = (int64_t)clock_wall_ms();

	sn = xcalloc(1, sizeof *sn);
	if (sqldb_open(url, &sn->db, e, sizeof e) == -1) {
		snprintf(err, errlen, "node: %s", e);
		free(sn);
		return (NULL);
	}
	if (node_register(sn->db, addr, started, ttl_ms, &sn->id) == -1) {
		snprintf(err, errlen, "node register %s: %s", addr,
		    sqldb_errmsg(sn->db));
		sqldb_close(sn->db);
		free(sn);
		return (NULL);
	}
	*sn = (struct snode){ .db = sn->db, .id = sn->id, .store = st,
	    .lb = lb, .defer = defer, .darg = darg, .ttl = ttl_ms,
	    .started = started };
	snprintf(sn->addr, sizeof sn->addr, "%s", addr);
	pthread_mutex_init(&sn->mtx, NULL);
	pthread_cond_init(&sn->wake, NULL);
	pthread_mutex_init(&sn->cmtx, NULL);
	TAILQ_INIT(&sn->calls);
	lobby_set_node(lb, sn->id, addr);
	store_set_node(st, sn->id, ttl_ms, snode_writer_lost, sn);
	snode_reclaim(sn, (int64_t)clock_wall_ms());
	if (pthread_create(&sn->thread, NULL, snode_thread, sn) != 0)
		fatalx("event=node-thread");
	sn->running = 1;
	log_info("node=%" PRId64 " event=registered addr=%s ttl=%" PRId64,
	    sn->id, addr, ttl_ms);
	return (sn);
}

/* Stops the node thread (its connection closes: the lock is freed). */
void
snode_stop(struct snode *sn)
{
	if (sn == NULL || !sn->running)
		return;
	pthread_mutex_lock(&sn->mtx);
	sn->quit = 1;
	pthread_mutex_unlock(&sn->mtx);
	pthread_cond_signal(&sn->wake);	/* it rechecks quit under mtx */
	pthread_join(sn->thread, NULL);
	sn->running = 0;
	sqldb_close(sn->db);
	sn->db = NULL;
}

/* Frees a stopped node (after the store: the writer may call it). */
void
snode_free(struct snode *sn)
{
	struct snode_call *c;

	if (sn == NULL)
		return;
	snode_stop(sn);
	/* Calls the loop never ran (it stopped first): the pool drops them. */
	while ((c = TAILQ_FIRST(&sn->calls)) != NULL) {
		TAILQ_REMOVE(&sn->calls, c, entry);
		free(c);
	}
	pthread_mutex_destroy(&sn->cmtx);
	free(sn->check);
	pthread_cond_destroy(&sn->wake);
	pthread_mutex_destroy(&sn->mtx);
	free(sn);
}
