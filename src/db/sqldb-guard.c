/*
 * sqldb-guard.c: the loop guard (issue 25 §4, PROTOCOL.md §13.12): the
 * server's event loop never waits for the database, and this makes the
 * rule checkable.  The server names its loop thread (sqldb_loop_enter,
 * before it dispatches; sqldb_loop_leave after); with the environment
 * variable GRUNDY_LOOP_DB set to "log" or "abort" then, every statement
 * that the loop thread starts (a statement, a prepare, a script, a
 * transaction's begin or end, a connection made again, a lock's wait) is
 * reported on the log with the statement's head and the call stack, and
 * with "abort" the daemon stops there (a core to read).  Unset (or any
 * other value), the guard costs one atomic load per statement.
 */
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "db/sqldb-int.h"

#define GUARD_REPORTS	200	/* reports logged, then only counted */
#define GUARD_DEPTH	24	/* frames of a report's stack */

enum { GUARD_OFF, GUARD_LOG, GUARD_ABORT };

static pthread_t	 guard_loop;
static atomic_int	 guard_mode;	/* GUARD_*, set after guard_loop */
static atomic_int	 guard_reports;

/* The calling thread is the event loop from now on (the guard's mode from
 * GRUNDY_LOOP_DB). */
void
sqldb_loop_enter(void)
{
	const char	*m = getenv("GRUNDY_LOOP_DB");
	int		 mode = GUARD_OFF;

	if (m != NULL && strcmp(m, "log") == 0)
		mode = GUARD_LOG;
	else if (m != NULL && strcmp(m, "abort") == 0)
		mode = GUARD_ABORT;
	guard_loop = pthread_self();
	atomic_store_explicit(&guard_mode, mode, memory_order_release);
	if (mode != GUARD_OFF)
		log_info("event=loop-db-guard mode=%s", m);
}

/* The loop ended (the daemon stops: its last statements are allowed). */
void
sqldb_loop_leave(void)
{
	atomic_store_explicit(&guard_mode, GUARD_OFF, memory_order_release);
}

/* Before a statement what (its head) on db: reports it if the loop runs
 * it (see above). */
void
sqldb_guard(struct sqldb *db, const char *what)
{
	void	*frames[GUARD_DEPTH];
	int	 mode, n;

	mode = atomic_load_explicit(&guard_mode, memory_order_acquire);
	if (mode == GUARD_OFF || !pthread_equal(pthread_self(), guard_loop))
		return;
	if (atomic_fetch_add(&guard_reports, 1) >= GUARD_REPORTS &&
	    mode == GUARD_LOG)
		return;
	log_warnx("event=loop-db sqldb=%s sql=\"%.80s\"", db->ops->name,
	    what != NULL ? what : "");
	n = backtrace(frames, GUARD_DEPTH);
	backtrace_symbols_fd(frames, n, 2);
	if (mode == GUARD_ABORT)
		abort();
}
