/*
 * lease.h: the lease of a live game (issue 15 §2, doc/NODES.md): the one
 * node that referees it, with an epoch that grows at each change of
 * owner, so that a node that lost its lease can no longer write for the
 * game (lease_fence).  Time is the caller's (ms since the Unix epoch); the
 * database holds each lease's expiry.
 *
 * The life cycle (enum lease_state), changed only by lease_change() in
 * lease.c:
 *	NONE -> HELD		lease_acquire: a new game, epoch 1
 *	HELD -> HELD		lease_renew by its holder, before expiry
 *				(lease_renew_all: all of a node's at once)
 *	HELD -> EXPIRED		time: expires_ms <= now (no call)
 *	EXPIRED|RELEASED -> HELD	lease_acquire by any node: epoch + 1
 *	HELD|EXPIRED -> RELEASED	lease_release by its holder
 *
 * Results: LEASE_OK, a refusal (LEASE_TAKEN: another node holds it;
 * LEASE_LOST: this (game, node, epoch) no longer owns it), or -1 (the
 * database failed, or the arguments are out of range: sqldb_errmsg).
 * Each call is one transaction, except lease_fence (and the fences and
 * lease_release_all of several games), which run in the caller's.
 */
#ifndef LEASE_H
#define LEASE_H

#include <stddef.h>
#include <stdint.h>

#define LEASE_TTL_MAX	3600000		/* ms */
#define LEASE_LIST_MAX	10000		/* expired leases listed at most */

enum lease_state {
	LEASE_NONE,		/* never leased */
	LEASE_HELD,
	LEASE_EXPIRED,		/* held, past its expiry: can be taken */
	LEASE_RELEASED,
};
extern const char *const lease_state_names[LEASE_RELEASED + 1];

enum lease_res {
	LEASE_OK,
	LEASE_TAKEN,
	LEASE_LOST,
};

struct lease {
	int64_t		 game;
	int64_t		 node;		/* the holder (or the last one) */
	int64_t		 epoch;
	int64_t		 acquired_ms;
	int64_t		 expires_ms;
	enum lease_state state;		/* at the caller's now */
};

struct sqldb;

int	 lease_acquire(struct sqldb *, int64_t, int64_t, int64_t, int64_t,
	    struct lease *);
int	 lease_renew(struct sqldb *, struct lease *, int64_t, int64_t);
int	 lease_renew_all(struct sqldb *, int64_t, int64_t, int64_t, int64_t *);
int	 lease_release(struct sqldb *, struct lease *);
int	 lease_fence(struct sqldb *, int64_t, int64_t, int64_t);
int	 lease_fence_batch(struct sqldb *, int64_t, int64_t, int64_t);
/* tp: for the store's writer, n games at once (sorted, distinct): a
 * batch's new leases in one transaction, its ends' leases released in
 * one statement, its games fenced in one. */
int	 lease_acquire_all(struct sqldb *, int64_t, int64_t, int64_t,
	    const int64_t *, size_t, int64_t *);
int64_t	 lease_release_all(struct sqldb *, int64_t, const int64_t *,
	    const int64_t *, size_t, int *);
int	 lease_fence_all(struct sqldb *, int64_t, const int64_t *,
	    const int64_t *, size_t);
int	 lease_fence_held(struct sqldb *, int64_t, const int64_t *,
	    const int64_t *, size_t, int *);
int	 lease_get(struct sqldb *, int64_t, int64_t, struct lease *);
int	 lease_expired(struct sqldb *, int64_t, int64_t *, size_t, size_t *);
/* nw: the node thread's beat (server-node.c). */
int	 lease_held(struct sqldb *, int64_t, int64_t, int64_t *, int64_t *,
	    size_t, size_t *);

#endif /* LEASE_H */
