/*
 * sqldb-err.c: sqldb's error classes and the recording of a failure on a
 * connection, shared by the front (sqldb.c) and the back ends (below both,
 * so that they do not call each other in a cycle).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "db/sqldb-int.h"

const char *const sqldb_err_names[SQLDB_OTHER + 1] = {
	[SQLDB_OK] = "ok",
	[SQLDB_CONSTRAINT] = "constraint",
	[SQLDB_BUSY] = "busy",
	[SQLDB_CONN] = "connection",
	[SQLDB_FULL] = "full",
	[SQLDB_OTHER] = "other",
};

/* Records a failure of class e on db; returns -1. */
int
sqldb_fail(struct sqldb *db, enum sqldb_err e, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 n;

	db->err = e;
	va_start(ap, fmt);
	vsnprintf(db->errmsg, sizeof db->errmsg, fmt, ap);
	va_end(ap);
	/* libpq's messages end with a newline. */
	n = strlen(db->errmsg);
	while (n > 0 && (db->errmsg[n - 1] == '\n' || db->errmsg[n - 1] ==
	    ' '))
		db->errmsg[--n] = '\0';
	return (-1);
}

/* Clears db's last failure. */
void
sqldb_ok(struct sqldb *db)
{
	db->err = SQLDB_OK;
	db->errmsg[0] = '\0';
}
