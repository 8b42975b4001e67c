/*
 * nodestore.h: the store of a node among several on one PostgreSQL
 * database (issue 15 §2, doc/NODES.md), over the store of one (store.h):
 * the leases of the games its writer writes for, fenced in each batch
 * (store-fence.c, through the writer's batch ops: store-int.h), the
 * writer's notifications to the other nodes (store-notify.c), and reads
 * on the store's read connection for the work of the lobby across nodes
 * (store-xlease.c, store-where.h).  Tables seeks (seeks.h), leases
 * (lease.h) and nodes (node.h) have their own modules.
 */
#ifndef NODESTORE_H
#define NODESTORE_H

#include <stddef.h>
#include <stdint.h>

#include "nodestore/lease.h"

struct store;
struct store_items;

/*
 * A node's leases (store-fence.c): the writer acquires a game's lease
 * before its first write and fences every later one; lost(arg, game)
 * runs on the writer thread for a game it found lost.  store_set_node
 * makes the store a node's: once, before any game.
 */
void	 store_set_node(struct store *, int64_t, int64_t,
	    void (*)(void *, int64_t), void *);
void	 store_lease_set(struct store *, int64_t, int64_t);
int64_t	 store_lease_drop(struct store *, int64_t);
int64_t	 store_lease_get(struct store *, int64_t);
size_t	 store_leases(struct store *, int64_t **, int64_t **);
/* tp: what the writer of a node did, for tests and tools. */
struct store_fence_stats {
	uint64_t	 fences;	/* fence statements (one per batch try) */
	uint64_t	 lease_txns;	/* transactions taking new leases */
	uint64_t	 acquired;	/* ... the leases they took */
	uint64_t	 released;	/* leases released with a committed end */
};
void	 store_fence_stats(struct store *, struct store_fence_stats *);

/* store-notify.c: the writer's NOTIFYs of batch b, before its commit. */
int	 store_notify_batch(struct store *, struct store_items *);

/* store-xlease.c: on the store's read connection. */
int	 store_lease_read(struct store *, int64_t, int64_t, struct lease *);
int	 store_read_notify(struct store *, const char *, const char *);

#endif /* NODESTORE_H */
