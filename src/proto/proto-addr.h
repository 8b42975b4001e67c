/*
 * proto-addr.h: a node's address, HOST:PORT or [IPV6]:PORT, as `grundy bot
 * --server` lists take it and `event redirect` carries it (PROTOCOL.md
 * §13.12).  Pure: no I/O, no name resolution.
 */
#ifndef PROTO_ADDR_H
#define PROTO_ADDR_H

#include <stddef.h>

#define PROTO_ADDR_MAX	261	/* bytes of HOST:PORT */
#define PROTO_HOST_MAX	253	/* bytes of a host name (DNS's longest) */
#define PROTO_NODES_MAX	16	/* nodes in a --server list */

/* A parsed address: host without brackets, port as decimal text. */
struct proto_addr {
	char	 host[PROTO_HOST_MAX + 1];
	char	 port[6];
	int	 v6;		/* host is an IPv6 literal (printed in []) */
};

int	 proto_addr_parse(const char *, size_t, const char *,
	    struct proto_addr *, const char **);
void	 proto_addr_print(const struct proto_addr *, char *, size_t);
int	 proto_addr_list(const char *, struct proto_addr *, size_t, size_t *,
	    char *, size_t);

#endif /* PROTO_ADDR_H */
