/*
 * node.h: the registry of grundyd nodes sharing one database (issue 15
 * §2, doc/NODES.md): each node's row, with its advertised HOST:PORT (for
 * redirects), its start and a heartbeat.  Time is the caller's: ms since
 * the Unix epoch, passed in, so that tests run on a virtual clock; the
 * database holds each node's expiry and compares it with the caller's now.
 *
 * Functions return 0 on success and -1 when the database failed
 * (sqldb_errmsg tells), or a refusal: the same -1 with SQLDB_OTHER and a
 * specific message (bad address, ttl out of range, unknown node).
 */
#ifndef NODE_H
#define NODE_H

#include <stddef.h>
#include <stdint.h>

#define NODE_ADDR_MAX	255		/* bytes of HOST:PORT */
#define NODE_TTL_MAX	3600000		/* ms: a heartbeat's validity */
#define NODE_LIST_MAX	1024		/* live nodes listed at most */
#define NODE_PRUNE_MAX	16		/* dead nodes' rows pruned per call */

struct sqldb;
struct sqldb_stmt;

struct node_info {
	int64_t		 id;
	char		 addr[NODE_ADDR_MAX + 1];
	int64_t		 started_ms;
	int64_t		 heartbeat_ms;
	int64_t		 expires_ms;
};

int	 node_addr_ok(const char *);
int	 node_times_ok(struct sqldb *, const char *, int64_t, int64_t,
	    int64_t);
int	 node_register(struct sqldb *, const char *, int64_t, int64_t,
	    int64_t *);
int	 node_heartbeat(struct sqldb *, int64_t, int64_t, int64_t);
int	 node_alive(struct sqldb *, int64_t, int64_t);
int	 node_get(struct sqldb *, int64_t, struct node_info *);
int	 node_list(struct sqldb *, int64_t, struct node_info *, size_t,
	    size_t *);
int	 node_rows(struct sqldb *, const char *, int64_t, size_t, size_t,
	    void (*)(struct sqldb_stmt *, size_t, void *), void *, size_t *);
int	 node_prune(struct sqldb *, int64_t, int64_t, size_t, size_t *);
int	 node_revive(struct sqldb *, int64_t, const char *, int64_t, int64_t,
	    int64_t);

#endif /* NODE_H */
