/*
 * server-sock.c: a client connection's socket and input, below the
 * connection's logic (server-conn.c): dead-peer detection, the network
 * delay, a receive with the kernel's time stamp, and finding a line's
 * end in the input with each byte scanned once.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <stddef.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/util.h>

#include "lib/clock.h"
#include "lobby/lobby.h"
#include "lib/log.h"
#include "server/server-int.h"

/*
 * Sets dead-peer detection on a client socket: TCP keepalive probes
 * after keepalive-idle s of silence, every keepalive-interval s, dropped
 * after keepalive-count unanswered ones; and TCP_USER_TIMEOUT, so that
 * data left unacknowledged for user-timeout ms drops it too.  A vanished
 * peer is then seen within idle + interval * count seconds.
 */
void
server_keepalive(const struct session_conf *sc, int fd)
{
	int	 one = 1, idle = (int)sc->keepalive_idle;
	int	 intvl = (int)sc->keepalive_interval;
	int	 cnt = (int)sc->keepalive_count;
	unsigned int ut = sc->user_timeout;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl,
	    sizeof intvl) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt) != 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ut, sizeof ut) != 0)
		log_warn("event=keepalive-failed fd=%d", fd);
}

/*
 * A connection's network delay: the kernel's smoothed round-trip estimate
 * (TCP_INFO tcpi_rtt, microseconds); -1 if unknown.  Any thread: the
 * socket lives as long as the connection.
 */
long
conn_rtt(void *conn)
{
	struct conn	*c = conn;
	struct tcp_info	 ti;
	socklen_t	 len = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, &ti,
	    &len) != 0 || len < offsetof(struct tcp_info, tcpi_rtt) +
	    sizeof ti.tcpi_rtt)
		return (-1);
	return ((long)ti.tcpi_rtt);
}

/*
 * Receives into v (nv vectors, at most 2) with the kernel's receive time
 * stamp, which it gives to
 * the lobby in nanoseconds on the monotonic clock: a clock stops when the
 * answer reached the socket, however late the loop reads it (PROTOCOL.md
 * §13.4).
 */
ssize_t
conn_recv(struct conn *c, evutil_socket_t fd, struct evbuffer_iovec *v,
    int nv)
{
	struct msghdr	 mh;
	struct iovec	 iov[2];
	struct cmsghdr	*cm;
	struct timespec	 rx, real;
	union {
		char		 buf[CMSG_SPACE(sizeof(struct timespec))];
		struct cmsghdr	 align;
	} ctl;
	uint64_t	 age, now;
	ssize_t		 n;
	int		 i;

	memset(&mh, 0, sizeof mh);
	for (i = 0; i < nv && i < 2; i++) {
		iov[i].iov_base = v[i].iov_base;
		iov[i].iov_len = v[i].iov_len;
	}
	mh.msg_iov = iov;
	mh.msg_iovlen = (size_t)i;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof ctl.buf;
	if ((n = recvmsg(fd, &mh, 0)) <= 0 || c->sess.lc == NULL)
		return (n);
	lobby_rx_time(c->sess.lc, 0);	/* unknown without a stamp */
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		memcpy(&rx, CMSG_DATA(cm), sizeof rx);
		clock_gettime(CLOCK_REALTIME, &real);
		now = clock_mono_ns();
		age = real.tv_sec > rx.tv_sec || (real.tv_sec == rx.tv_sec &&
		    real.tv_nsec >= rx.tv_nsec) ?
		    (uint64_t)((int64_t)(real.tv_sec - rx.tv_sec) * 1000000000 +
		    (real.tv_nsec - rx.tv_nsec)) : 0;
		lobby_rx_time(c->sess.lc, age < now ? now - age : now);
	}
	return (n);
}

/*
 * The offset of the first line end in the input, or -1: the scan starts
 * where the last one stopped (c->scanned), so each byte is looked at once
 * however many reads a long line takes.  Whoever drains the input resets
 * c->scanned.
 */
ssize_t
conn_eol(struct conn *c, size_t *eol_len)
{
	struct evbuffer_ptr p, eol;
	size_t		 len = c->in != NULL ? evbuffer_get_length(c->in) : 0;

	if (c->scanned >= len) {
		c->scanned = len;
		return (-1);
	}
	if (evbuffer_ptr_set(c->in, &p, c->scanned, EVBUFFER_PTR_SET) != 0)
		return (-1);
	eol = evbuffer_search_eol(c->in, &p, eol_len, EVBUFFER_EOL_LF);
	if (eol.pos < 0) {
		c->scanned = len;
		return (-1);
	}
	c->scanned = (size_t)eol.pos;
	return ((ssize_t)eol.pos);
}
