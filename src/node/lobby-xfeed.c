/*
 * lobby-xfeed.c: the web's feed of a live game owned by another node
 * (issue 15 §2, PROTOCOL.md §14.4, doc/NODES.md).  The game is followed
 * as `watch` follows it (lobby-xwatch.c: LISTEN game_ID, then the log
 * read again at each of the owner's notifications); its committed moves
 * and its end go to the lobby's feed hook (lobby_set_feed), as a local
 * game's do, so http-feed.c serves both alike: the same events, each
 * move once and in order.  The clocks are replayed from the log.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "lobby/lobby.h"
#include "node/lnode-int.h"
#include "node/lobby-xwatch.h"
#include "lib/util.h"

/*
 * On a worker: what the feed of game id needs before the loop follows
 * it (lobby_xwatch_fetch), in a new struct for lobby_xfeed_open (free it
 * with lobby_xfeed_pre_free).  lobby_xfeed_pre_live says whether it is
 * live on another node.
 */
struct xwatch_pre *
lobby_xfeed_fetch(struct lobby *lb, int64_t id)
{
	struct xwatch_pre *p = xcalloc(1, sizeof *p);

	lobby_xwatch_pre_free(p);
	lobby_xwatch_fetch(lb, id, p);
	return (p);
}

/* Whether a feed of a game not live here may be another node's. */
int
lobby_xfeed_remote(const struct lobby *lb)
{
	return (lnd(lb)->xwatch != NULL && lb->feed != NULL);
}

int
lobby_xfeed_pre_live(const struct lobby *lb, const struct xwatch_pre *p)
{
	return (p->lease == LEASE_HELD && p->l.node != lnd(lb)->node_id &&
	    p->rc == 1 && p->r.game.status == STORE_LIVE);
}

void
lobby_xfeed_pre_free(struct xwatch_pre *p)
{
	if (p == NULL)
		return;
	lobby_xwatch_pre_free(p);
	free(p);
}

/*
 * Starts the feed of game p->id of another node, from what a worker read
 * (lobby_xfeed_fetch): its moves so far to the hook now (clocks replayed
 * from the start), then those committed since the watch last read the
 * log.  Returns 0; -1 if the game is not live on another node; -2 with
 * err if it cannot be followed now.
 */
int
lobby_xfeed_open(struct lobby *lb, struct xwatch_pre *p, struct buf *err)
{
	struct store_record *r = &p->r;
	struct xwatch	*w;
	uint64_t	 c[2];
	size_t		 i;
	int		 rc;

	if (lnd(lb)->xwatch == NULL || lb->feed == NULL)
		return (-1);
	if ((rc = lobby_xwatch_follow(lb, p, &w, err)) != 0)
		return (rc);
	if (!w->feed) {
		c[0] = c[1] = w->base_ms * 1000;
		for (i = 0; i < w->ply && i < r->nmoves; i++) {
			lobby_feed_clock(w->engine, w->inc_us, c, &r->moves[i]);
			lobby_xwatch_feed_move(lb, w, &r->moves[i], c);
		}
		w->feed = 1;
	}
	rc = r->game.status != STORE_LIVE ? -1 : 0;
	lobby_xwatch_apply(lb, w, r);		/* over: w is dropped */
	return (rc);
}

/*
 * Sends this node's live game id's logged moves 1 to upto (0: to its
 * ply now) to the feed hook, clocks replayed: a game restored from the
 * log (a takeover), whose moves before the restore the web's feed never
 * got, from the record the restore read on a worker (g->rec: no read of
 * the log here, on the loop).  Returns 0, or -1 if that record does not
 * have them all (or the game is not live here).
 */
int
lobby_xfeed_backfill(struct lobby *lb, int64_t id, unsigned long upto)
{
	struct lgame	*g = lobby_game(lb, id);
	struct store_record *r;
	struct xwatch	 w;
	uint64_t	 c[2];
	size_t		 i;

	if (g == NULL || lb->store == NULL || lb->feed == NULL)
		return (-1);
	if (upto == 0 && (upto = g->ply) == 0)
		return (0);
	if ((r = g->rec) == NULL)
		return (-1);
	memset(&w, 0, sizeof w);
	w.id = id;
	w.engine[0] = g->p[0].engine;
	w.engine[1] = g->p[1].engine;
	c[0] = c[1] = g->base_ms * 1000;
	for (i = 0; i < upto && i < r->nmoves; i++) {
		lobby_feed_clock(w.engine, g->inc_ms * 1000, c, &r->moves[i]);
		lobby_xwatch_feed_move(lb, &w, &r->moves[i], c);
	}
	return (i == upto ? 0 : -1);
}

/* The feed of game id has no client left: stop following it for them. */
void
lobby_xfeed_close(struct lobby *lb, int64_t id)
{
	struct xwatch	*w = lobby_xwatch_find(lb, id);

	if (w == NULL || !w->feed)
		return;
	w->feed = 0;
	lobby_xwatch_release(lb, w);
}

/* Writes w's time control. */
static void
xfeed_tc(const struct xwatch *w, struct json *j)
{
	json_obj(j);
	json_kuint(j, "base_ms", w->base_ms);
	json_kuint(j, "inc_ms", w->inc_us / 1000);
	json_end_obj(j);
}

/*
 * The live game of §14.2 as of its last committed move: its clocks then
 * (not running), its spectators on this node.
 */
static void
xfeed_live(const struct xwatch *w, struct json *j)
{
	json_obj(j);
	json_kint(j, "id", w->id);
	json_kstr(j, "family", w->family);
	json_kstr(j, "start", w->start);
	json_kstr(j, "position", w->position);
	json_kstr(j, "player1", w->p[0]);
	json_kstr(j, "player2", w->p[1]);
	json_kuint(j, "ply", w->ply);
	json_kint(j, "to_move", w->ply % 2 == 0 ? 1 : 2);
	json_kbool(j, "rated", w->rated);
	json_key(j, "tc");
	xfeed_tc(w, j);
	json_key(j, "clock_ms");
	json_arr(j);
	json_uint(j, w->clock_us[0] / 1000);
	json_uint(j, w->clock_us[1] / 1000);
	json_end_arr(j);
	json_kstr(j, "tournament", w->tour);
	json_kuint(j, "watchers", w->n);
	json_end_obj(j);
}

int
lobby_xfeed_web(struct lobby *lb, int64_t id, int live, struct json *j)
{
	struct xwatch	*w = lobby_xwatch_find(lb, id);

	if (w == NULL || !w->feed)
		return (0);
	if (live)
		xfeed_live(w, j);
	else
		json_raw(j, w->summary, strlen(w->summary));
	return (1);
}
