/*
 * sdnotify.c: a minimal sd_notify(3) without libsystemd: one datagram to
 * $NOTIFY_SOCKET (a path, or '@' for the abstract namespace).
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sdnotify.h"

/* Sends state (e.g. "READY=1") to systemd; returns 0, or -1 if not sent. */
int
sd_notify_send(const char *state)
{
	struct sockaddr_un sun;
	const char	*path;
	socklen_t	 len;
	size_t		 plen;
	ssize_t		 n;
	int		 fd;

	if ((path = getenv("NOTIFY_SOCKET")) == NULL || path[0] == '\0')
		return (-1);
	plen = strlen(path);
	if ((path[0] != '/' && path[0] != '@') ||
	    plen >= sizeof sun.sun_path)
		return (-1);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, plen);
	if (path[0] == '@')
		sun.sun_path[0] = '\0';
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return (-1);
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
	    (struct sockaddr *)&sun, len);
	close(fd);
	return (n < 0 ? -1 : 0);
}
