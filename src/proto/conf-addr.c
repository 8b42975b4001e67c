/*
 * conf-addr.c: listen addresses (grundyd's listen setting), parsed with
 * libevent's parser, so kept apart from conf.c: `grundy` reads the
 * settings' defaults and links without libevent.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <string.h>

#include <event2/util.h>

#include "proto/conf.h"

/*
 * Parses ADDR:PORT or [V6ADDR]:PORT into ss; port 0 asks for an ephemeral
 * port (libevent's parser refuses it, so parse port 1 and reset it).
 */
int
conf_parse_addr(const char *addr, struct sockaddr_storage *ss, int *len)
{
	char	 tmp[300];
	size_t	 n = strlen(addr);
	int	 zero = 0;

	if (n >= sizeof tmp)
		return (-1);
	memcpy(tmp, addr, n + 1);
	if (n >= 2 && strcmp(tmp + n - 2, ":0") == 0) {
		tmp[n - 1] = '1';
		zero = 1;
	}
	*len = sizeof *ss;
	if (evutil_parse_sockaddr_port(tmp, (struct sockaddr *)ss, len) != 0)
		return (-1);
	if (zero && ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = 0;
	else if (zero && ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = 0;
	return (0);
}
