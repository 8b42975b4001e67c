/*
 * server-node.h: the daemon as one node of several on a PostgreSQL store
 * (issue 15 §2, doc/NODES.md): the node thread of server-node.c.
 */
#ifndef SERVER_NODE_H
#define SERVER_NODE_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct lobby;
struct snode;

struct snode *snode_start(const char *, const char *, int64_t,
	    struct store *, struct lobby *,
	    void (*)(void *, void (*)(void *), void *), void *, char *, size_t);
int	 snode_url(const char *);
void	 snode_stop(struct snode *);
void	 snode_free(struct snode *);

#endif /* SERVER_NODE_H */
