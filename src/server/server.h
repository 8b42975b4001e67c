/*
 * server.h: the libevent server: listeners and signals (server.c), client
 * connections and their limits (server-conn.c), the worker threads for
 * heavy commands (server-pool.c); server-int.h is what they share.
 */
#ifndef SERVER_H
#define SERVER_H

#include "proto/conf.h"

struct store;

int	 server_run(struct conf *);
struct store *server_store_open(const struct conf *, int);
int	 server_grant(const struct conf *, const char *, const char *, int,
	    char *, size_t);

#endif /* SERVER_H */
