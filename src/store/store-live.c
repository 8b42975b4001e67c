/*
 * store-live.c: the live games of the log, for a restore at a start with
 * takeover on (lobby-restore.c, PROTOCOL.md §12).
 */
#include <pthread.h>
#include <stdlib.h>

#include "lib/log.h"
#include "store/store-int.h"
#include "lib/util.h"

/*
 * Lists the ids of the games the log has as live, in order (*ids: free
 * it; NULL when there is none).  Returns 0, or -1 on a database error.
 */
int
store_live_ids(struct store *st, int64_t **ids, size_t *n)
{
	struct sqldb_stmt *s;
	int64_t		*v = NULL;
	size_t		 cap = 0;
	int		 rc;

	*ids = NULL;
	*n = 0;
	pthread_mutex_lock(&st->rmtx);
	if (sqldb_cached(st->rdb, "SELECT id FROM games WHERE status = 'live'"
	    " ORDER BY id", 0, &s) != 0) {
		rc = -1;
		goto done;
	}
	while ((rc = sqldb_step(s)) == SQLDB_ROW) {
		if (*n == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[(*n)++] = sqldb_column_int64(s, 0);
	}
	sqldb_reset(s);
	rc = rc == SQLDB_DONE ? 0 : -1;
done:
	if (rc != 0)
		log_warnx("store=%s event=read-failed what=live error=\"%s\"",
		    st->name, sqldb_errmsg(st->rdb));
	pthread_mutex_unlock(&st->rmtx);
	if (rc != 0) {
		free(v);
		*n = 0;
		return (-1);
	}
	*ids = v;
	return (0);
}
