/*
 * lobby-pair.c: what brings two players together (PROTOCOL.md §13.3):
 * open seeks and challenges, and the random fair starts of templates.
 */

#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"
#include "lobby/lobby-int.h"
#include "solver/referee.h"

/*
 * Draws a fair random start from a template: every number of the position
 * is an upper bound and is replaced by a uniform draw from 0..bound, until
 * the result is an N-position that is not over.  Returns 0, or -1 with err.
 */
int
lobby_draw_start(const struct game *tmpl, gmp_randstate_t rs,
    const struct game_limits *lim, struct game *out, struct game_error *err)
{
	return (referee_draw_start(tmpl, rs, lim, out, err));
}

/* Drops a client's seek. */
void
lc_drop_seek(struct lobby_client *lc)
{
	struct lobby	*lb = lc->lb;

	if (lc->seek == NULL)
		return;
	if (lb->nops != NULL)
		lb->nops->seek_gone(lb, lc->seek);
	if (lc->seek->nd != NULL)
		lb->nops->seek_free(lc->seek);
	TAILQ_REMOVE(&lb->seeks, lc->seek, entry);
	lb->nseeks--;
	free(lc->seek->spec);
	free(lc->seek);
	lc->seek = NULL;
}

/* Frees a challenge (not listed, or no more). */
void
lobby_chall_free(struct lchall *ch)
{
	free(ch->spec);
	if (ch->start.fam != NULL)
		game_free(&ch->start);
	free(ch);
}

/* Drops a challenge. */
void
lobby_drop_chall(struct lobby *lb, struct lchall *ch)
{
	TAILQ_REMOVE(&lb->challs, ch, entry);
	lb->nchalls--;
	lobby_chall_free(ch);
}
