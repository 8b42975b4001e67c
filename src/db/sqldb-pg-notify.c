/*
 * sqldb-pg-notify.c: libpq's side of the notifications (sqldb-nd.c):
 * listening again to a connection's channels after a reconnection, and
 * taking one notification that arrived, and whether the server closed an
 * idle connection.  Given the connection, so that sqldb-pg.c calls into
 * this file and not the other way round.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "lib/log.h"
#include "db/sqldb-nd.h"

/*
 * Runs LISTEN for each channel of nd on conn (a new connection), in one
 * round trip.  Returns 0, or -1 with the reason in err.
 */
int
sqldb_pgn_listen_all(void *conn, const struct sqldb_nd *nd, char *err,
    size_t errlen)
{
	char		 sql[SQLDB_LISTEN_MAX * (SQLDB_CHANNEL_MAX + 12) + 1];
	PGresult	*res;
	size_t		 i, o = 0;
	int		 r = 0;

	if (nd == NULL || nd->nchans == 0)
		return (0);
	/* Identifiers checked by sqldb-nd.c ([a-z0-9_]), quoted. */
	for (i = 0; i < nd->nchans; i++)
		o += (size_t)snprintf(sql + o, sizeof sql - o, "LISTEN \"%s\";",
		    nd->chans[i]);
	res = PQexec(conn, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		snprintf(err, errlen, "cannot listen again: %s",
		    PQerrorMessage(conn));
		r = -1;
	} else
		log_info("sqldb=postgresql event=listening channels=%zu",
		    nd->nchans);
	PQclear(res);
	return (r);
}

/*
 * Reads what arrived on conn without blocking and takes one notification
 * into n.  Returns SQLDB_ROW, SQLDB_DONE, or -1 (the connection failed:
 * PQerrorMessage tells).  A payload longer than sqldb_note holds (a server
 * built with another limit) is logged and skipped.
 */
int
sqldb_pgn_next(void *conn, struct sqldb_note *n)
{
	PGnotify	*nt;
	size_t		 lc, lp;

	if (PQconsumeInput(conn) != 1 || PQstatus(conn) == CONNECTION_BAD)
		return (-1);
	while ((nt = PQnotifies(conn)) != NULL) {
		lc = strlen(nt->relname);
		lp = strlen(nt->extra);
		if (lc < sizeof n->channel && lp < sizeof n->payload) {
			memcpy(n->channel, nt->relname, lc + 1);
			memcpy(n->payload, nt->extra, lp + 1);
			n->self = nt->be_pid == PQbackendPID(conn);
			PQfreemem(nt);
			return (SQLDB_ROW);
		}
		log_warnx("sqldb=postgresql event=notification-skipped "
		    "channel_bytes=%zu payload_bytes=%zu", lc, lp);
		PQfreemem(nt);
	}
	return (SQLDB_DONE);
}

/*
 * Has the server closed conn, idle (no transaction, nothing in flight)?
 * A shutdown or a failover says so before anything is sent: the socket
 * is readable.  Reads it (a few reads: the last words, then the end; no
 * wait).  Returns 1 (closed: connect again, nothing is in doubt), or 0.
 * A connection that listens (nd) is not looked at: what is readable
 * there is its notifications, for their reader.
 */
int
sqldb_pgn_closed(void *conn, const struct sqldb_nd *nd)
{
	struct pollfd	 pfd;
	int		 i;

	if (nd != NULL && nd->nchans > 0)
		return (0);
	for (i = 0; i < 4; i++) {
		pfd.fd = PQsocket(conn);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (pfd.fd < 0 || poll(&pfd, 1, 0) != 1)
			return (0);
		if (PQconsumeInput(conn) == 0 || PQstatus(conn) ==
		    CONNECTION_BAD)
			return (1);
	}
	return (0);
}
