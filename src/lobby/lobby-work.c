/*
 * lobby-work.c: a job of the lobby off the loop (calls no other file of
 * the lobby, so that every file of it may call it).
 */
#include <stddef.h>

#include "lobby/lobby.h"
#include "lobby/lobby-int.h"

/*
 * Runs work(arg) on a worker, then done(arg) on the loop (lb->io.work);
 * without workers, work then done at once.
 */
void
lobby_work(struct lobby *lb, void (*work)(void *), void (*done)(void *),
    void *arg)
{
	if (lb->io.work != NULL)
		lb->io.work(lb->io.arg, work, done, arg);
	else {
		work(arg);
		done(arg);
	}
}
