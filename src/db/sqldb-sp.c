/*
 * sqldb-sp.c: the calls of sqldb.h's "sp:" block, which the store needs
 * besides the common interface: the SQLite handle for its SQLite-only
 * settings, the back end's own failure code, and read transactions.
 */
#include <stddef.h>

#include "db/sqldb-int.h"

void *
sqldb_sqlite_handle(struct sqldb *db)
{
	return (db->ops->backend == SQLDB_SQLITE ? db->be : NULL);
}

int
sqldb_native_code(const struct sqldb *db)
{
	return (db->native);
}

int
sqldb_begin_read(struct sqldb *db)
{
	const char	*sql = "BEGIN";

	if (db->in_txn)
		return (sqldb_begin(db));	/* refuses, and says why */
	if (db->ops->backend == SQLDB_PG)
		sql = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY";
	sqldb_ok(db);
	if (db->ops->exec(db, sql) == -1)
		return (-1);
	db->in_txn = 1;
	return (0);
}
