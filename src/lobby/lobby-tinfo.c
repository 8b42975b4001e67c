/*
 * lobby-tinfo.c: what the lobby reads of a tournament's schedule without
 * changing it (PROTOCOL.md §13.6): whether a game's pair partner is
 * done, the input of a Swiss round's pairing (swiss.c), and the SPRT of
 * a gauntlet or a two-player match over its complete game pairs (sprt.c,
 * matchstat.c).  lobby-tour.c acts on the answers; nothing here changes a
 * slot's or a tournament's state.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby/lobby-int.h"
#include "lib/util.h"

/*
 * The slots of a tournament lie in blocks of np * games_per_pair slots
 * (a round-robin or gauntlet: one for its first players, one for each
 * player added; Swiss and arena: one per round); in a block, slot k * np
 * + p is game k of pairing p.  Game k of a pairing follows game k - 1,
 * its prev (odd k: the second game of a pair, the same start with the
 * seats swapped).
 */

/* Returns 1 if slot i may start: the pairing's previous game is done. */
int
ltour_pair_ready(const struct ltour *t, size_t i)
{
	const struct lslot *s = &t->slots[i];

	if (s->round == 0)
		return (1);
	return (t->slots[s->prev].state == LSLOT_DONE);
}

/* Adds slot s's game to the Swiss players' scores and seats. */
static void
swiss_count(const struct lslot *s, struct swiss_player *pl, size_t n,
    unsigned char *met)
{
	pl[s->winner == 1 ? s->a : s->b].half += 2;
	pl[s->a].colour++;
	pl[s->b].colour--;
	pl[s->a].last = 1;
	pl[s->b].last = -1;
	met[s->a * n + s->b] = met[s->b * n + s->a] = 1;
}

/* Player 0's result (MATCHSTAT_*) in slot s. */
static enum matchstat_res
sprt_res(const struct lslot *s)
{
	int	 zero_seat = s->a == 0 ? 1 : 2;

	return (s->winner == zero_seat ? MATCHSTAT_WIN : MATCHSTAT_LOSS);
}

/*
 * Recomputes the SPRT over every complete game pair of players[0] (the
 * gauntlet's first player, or the first of a match's two): the
 * pentanomial counts, the LLR and the verdict.  A verdict once reached
 * stays (the match stopped there).
 */
void
ltour_sprt_update(struct ltour *t)
{
	struct ltour_sprt *sp = &t->sprt;
	struct matchstat_penta p;
	size_t		 i;
	uint64_t	 n = 0;
	double		 llr;

	memset(&p, 0, sizeof p);
	for (i = 0; i < t->nslots; i++) {
		const struct lslot *s = &t->slots[i], *f;

		if (s->round % 2 != 1 || s->state != LSLOT_DONE)
			continue;
		f = &t->slots[s->prev];
		if (f->state != LSLOT_DONE || (s->a != 0 && s->b != 0))
			continue;
		if (matchstat_penta_add(&p, sprt_res(f), sprt_res(s)) == 0)
			n++;
	}
	sp->penta = p;
	sp->pairs = n;
	if (n > 0 && sprt_llr_penta(&sp->test, &p, &llr) == 0) {
		sp->llr = llr;
		sp->has_llr = 1;
		if (sp->verdict == SPRT_CONTINUE)
			sp->verdict = sprt_verdict(&sp->test, llr);
	}
}

/* Returns 1 if a slot has nothing left to play. */
int
lslot_over(const struct lslot *s)
{
	return (s->state == LSLOT_DONE || s->state == LSLOT_STOPPED ||
	    s->state == LSLOT_VOID);
}

/*
 * The pairs of the next round (Swiss or arena) among the players with
 * active[i] set, by the Swiss rule on that subset (swiss.h): scores in
 * halves over every game so far (a win 2; a Swiss bye every game of its
 * round won), colour balance and last seat; a Swiss round refuses
 * rematches, an arena's allows them.  Fills out[0..*np) and *bye
 * (indices into the player list; SWISS_NO_BYE: none).  Returns 0, or -1
 * with the reason in err.
 */
int
ltour_pairs(const struct ltour *t, const int *active, struct swiss_pair *out,
    size_t *np, size_t *bye, char *err, size_t errlen)
{
	size_t		 n = t->def.nplayers, m = 0, i, j;
	struct swiss_player *pl, *sub;
	size_t		*ix;
	unsigned char	*met, *smet;
	enum swiss_err	 e = SWISS_OK;

	pl = xcalloc(n, sizeof *pl);
	met = xcalloc(n * n, 1);
	for (i = 0; i < t->nslots; i++)
		if (t->slots[i].state == LSLOT_DONE)
			swiss_count(&t->slots[i], pl, n, met);
	for (i = 0; t->byes != NULL && i < t->round; i++)
		if (t->byes[i] != SWISS_NO_BYE) {
			pl[t->byes[i]].half += 2 * t->def.games_per_pair;
			pl[t->byes[i]].had_bye = 1;
		}
	sub = xcalloc(n, sizeof *sub);
	ix = xcalloc(n, sizeof *ix);
	for (i = 0; i < n; i++)
		if (active[i]) {
			ix[m] = i;
			sub[m++] = pl[i];
		}
	smet = xcalloc(m * m + 1, 1);
	if (t->def.format == LEAGUE_SWISS)	/* an arena allows rematches */
		for (i = 0; i < m; i++)
			for (j = 0; j < m; j++)
				smet[i * m + j] = met[ix[i] * n + ix[j]];
	*np = 0;
	*bye = SWISS_NO_BYE;
	if (m > 0 && (e = swiss_pair(sub, m, smet, out, bye)) == SWISS_OK) {
		for (*np = m / 2, i = 0; i < *np; i++) {
			out[i].first = ix[out[i].first];
			out[i].second = ix[out[i].second];
		}
		if (*bye != SWISS_NO_BYE)
			*bye = ix[*bye];
	}
	free(pl);
	free(sub);
	free(ix);
	free(met);
	free(smet);
	if (e != SWISS_OK) {
		snprintf(err, errlen, "%s", swiss_strerror(e));
		return (-1);
	}
	return (0);
}

/*
 * Whether each player takes part in round r (0-based) of a Swiss
 * tournament, or from now on (r UINT_MAX): not withdrawn by then.
 */
void
ltour_active(const struct ltour *t, unsigned int r, int *active)
{
	size_t	 i;

	for (i = 0; i < t->def.nplayers; i++)
		active[i] = t->def.wround[i] == 0 ||
		    (r != UINT_MAX && t->def.wround[i] - 1 > r);
}
