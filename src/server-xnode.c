/*
 * server-xnode.c: the daemon as one node of a shared PostgreSQL database,
 * for matchmaking across nodes (lobby-xnode.c, PROTOCOL.md §13.3).  The
 * node advertises its first listener: that address's host with the port
 * it is bound to (127.0.0.1:0 advertises the port the kernel chose).
 * Nothing runs on an SQLite store, nor without one.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <string.h>

#include <event2/listener.h>

#include "log.h"
#include "lobby.h"
#include "server-int.h"
#include "sqldb.h"
#include "store.h"

/* The first listener's HOST:PORT into addr; returns 0, or -1. */
static int
server_xnode_addr(struct server *srv, char *addr, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t	 sl = sizeof ss;
	const char	*conf, *colon;
	int		 port;

	if (srv->nlis < 1 || getsockname(evconnlistener_get_fd(srv->lis[0]),
	    (struct sockaddr *)&ss, &sl) != 0)
		return (-1);
	if (ss.ss_family == AF_INET)
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	else if (ss.ss_family == AF_INET6)
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	else
		return (-1);
	conf = srv->conf->nlisten > 0 ? srv->conf->listen[0] :
	    "127.0.0.1:7559";
	if ((colon = strrchr(conf, ':')) == NULL)
		return (-1);
	if (snprintf(addr, len, "%.*s:%d", (int)(colon - conf), conf,
	    port) >= (int)len)
		return (-1);
	return (0);
}

/* Makes the lobby a node when the store is a PostgreSQL database. */
void
server_xnode_start(struct server *srv)
{
	char		 addr[256], err[512];

	if (srv->store == NULL || !sqldb_url_is_pg(store_path(srv->store)))
		return;
	if (server_xnode_addr(srv, addr, sizeof addr) != 0)
		fatalx("event=node error=\"no listener address to advertise\"");
	if (lobby_xnode_start(srv->lobby, srv->base, store_path(srv->store),
	    addr, err, sizeof err) != 0)
		fatalx("event=node error=\"%s\"", err);
}
