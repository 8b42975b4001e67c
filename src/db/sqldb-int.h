/*
 * sqldb-int.h: what the SQL driver shares with its back ends (SQLite and
 * PostgreSQL): the connection and statement shells and each back end's
 * operations.  Not for other callers.
 */
#ifndef SQLDB_INT_H
#define SQLDB_INT_H

#include "db/sqldb.h"

struct sqldb_ops {
	enum sqldb_backend backend;
	const char	*name;
	int	(*open)(struct sqldb *, const char *);
	void	(*close)(struct sqldb *);
	int	(*exec)(struct sqldb *, const char *);
	int	(*busy)(struct sqldb *, int);
	int	(*prepare)(struct sqldb_stmt *, const char *);
	void	(*finalize)(struct sqldb_stmt *);
	/* kind: 'i' int64, 'd' double, 't' text, 'b' blob, 'n' null */
	int	(*bind)(struct sqldb_stmt *, int, int, int64_t, double,
		    const void *, size_t);
	int	(*step)(struct sqldb_stmt *);
	void	(*reset)(struct sqldb_stmt *);
	int	(*column_count)(struct sqldb_stmt *);
	int	(*column_null)(struct sqldb_stmt *, int);
	int64_t	(*column_int64)(struct sqldb_stmt *, int);
	double	(*column_double)(struct sqldb_stmt *, int);
	const char *(*column_text)(struct sqldb_stmt *, int);
	const void *(*column_blob)(struct sqldb_stmt *, int, size_t *);
	/* sql: "BEGIN", "COMMIT" or "ROLLBACK" */
	int	(*txn)(struct sqldb *, const char *);
	int	(*batch_begin)(struct sqldb *, int);
	int	(*batch_commit)(struct sqldb *);
	/* the version of the migrations; set in the current transaction */
	int	(*version)(struct sqldb *, int *, int);
	int	(*set_version)(struct sqldb *, int);
	/* nd: notifications (sqldb-nd.c); NULL on a one-node back end */
	int	(*notify_fd)(struct sqldb *);
	int	(*notify_next)(struct sqldb *, struct sqldb_note *);
};

struct sqldb {
	const struct sqldb_ops *ops;
	void		*be;		/* the back end's connection */
	enum sqldb_err	 err;
	char		 errmsg[512];
	int		 in_txn;
	int64_t		 last_id;
	int64_t		 changes;
	int		 native;	/* sp: the back end's own code of
					 * the last failure (SQLite) */
	struct sqldb_nd	*nd;		/* nd: sqldb-nd.h, or NULL */
};

struct sqldb_stmt {
	struct sqldb	*db;
	void		*be;		/* the back end's statement */
	int		 flags;
	char		 head[64];	/* the SQL's head, for the guard */
};

extern const struct sqldb_ops sqldb_sqlite_ops;
extern const struct sqldb_ops sqldb_pg_ops;

int	 sqldb_fail(struct sqldb *, enum sqldb_err, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 sqldb_ok(struct sqldb *);
/* sqldb-guard.c: reports a statement that the event loop runs. */
void	 sqldb_guard(struct sqldb *, const char *);

#endif /* SQLDB_INT_H */
