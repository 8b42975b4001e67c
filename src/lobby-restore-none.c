/*
 * lobby-restore-none.c: PLACEHOLDER in branch nw for lobby_restore
 * (lobby.h), whose real definition comes from branch tk
 * (src/lobby-restore.c) at merge: the lead drops this file and its line
 * in Makefile.am then.  Until then a node cannot restore a game it takes
 * over: it answers -1, and the node ends that game in the log as
 * abandoned (server-node.c).
 */
#include <inttypes.h>

#include "lobby.h"
#include "log.h"

int
lobby_restore(struct lobby *lb, int64_t id, int64_t epoch)
{
	(void)lb;
	log_warnx("game=%" PRId64 " epoch=%" PRId64 " event=restore "
	    "error=\"this build cannot restore a game (no lobby-restore.c)\"",
	    id, epoch);
	return (-1);
}
