/*
 * sqldb-nd.h: the state of a connection's notifications and locks (issue
 * 15 §2), kept on struct sqldb by sqldb-nd.c, freed by sqldb_close(), and
 * read by the PostgreSQL back end to listen again after a reconnection.
 */
#ifndef SQLDB_ND_H
#define SQLDB_ND_H

#include "db/sqldb.h"

struct sqldb_nd {
	/* statements kept for the connection's life (sqldb_cached) */
	struct {
		const char		*sql;
		int			 flags;
		struct sqldb_stmt	*s;
	}		 cache[SQLDB_CACHE_MAX];
	size_t		 ncache;
	/* the channels listened to, validated ([a-z0-9_]) */
	char		 chans[SQLDB_LISTEN_MAX][SQLDB_CHANNEL_MAX + 1];
	size_t		 nchans;
};

/* sqldb-pg-notify.c: libpq's side, given the connection. */
int	 sqldb_pgn_listen_all(void *, const struct sqldb_nd *, char *, size_t);
int	 sqldb_pgn_next(void *, struct sqldb_note *);
int	 sqldb_pgn_closed(void *, const struct sqldb_nd *);

#endif /* SQLDB_ND_H */
