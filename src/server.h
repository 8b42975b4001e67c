/*
 * server.h: the libevent server: listeners, connections, limits, the
 * worker threads for heavy commands, signals.
 */
#ifndef SERVER_H
#define SERVER_H

#include "conf.h"

struct store;

int	 server_run(struct conf *);
struct store *server_store_open(const struct conf *);

#endif /* SERVER_H */
