/*
 * results-read.c: the results of a set of the log's games (results.h),
 * read with store_rgames: for the commands and the HTTP API alike.  Any
 * thread but the loop: the read is proportional to the games selected.
 */
#include <stdio.h>
#include <string.h>

#include "stats/results.h"
#include "store/store-results.h"

/*
 * Reads the games that f selects into g (free it with store_rgames_free)
 * and builds their results into r (players in name order; no game: r has
 * no player), ranked by the tournament's tie-breaks if f selects one (else
 * the default: tiebreak.h).  Returns 0; -1 with the reason in err and
 * nothing to free (more than f->max games or XTABLE_MAX players, or the
 * log cannot be read).
 */
int
results_read_games(struct store *st, const struct store_rfilter *f,
    struct store_rgames *g, struct results *r, char *err, size_t errlen)
{
	struct tb_list	 l;
	char		 tb[TB_TEXT_MAX], tberr[128];
	int		 rv, swiss;

	memset(r, 0, sizeof *r);
	tb_list_default(0, &r->tb);	/* no game: the columns all the same */
	if ((rv = store_rgames(st, f, g)) != 0) {
		if (rv > 0)
			snprintf(err, errlen, "more than %zu games: choose a "
			    "narrower set", f->max);
		else
			snprintf(err, errlen, "the game log cannot be read "
			    "now");
		return (-1);
	}
	if (g->n > 0 && results_build(NULL, 0, g->v, g->n, r) != 0) {
		store_rgames_free(g);
		snprintf(err, errlen, "more than %d players: choose a "
		    "narrower set", XTABLE_MAX);
		return (-1);
	}
	if (f->tournament > 0 && (rv = store_tour_tb(st, f->tournament, tb,
	    sizeof tb, &swiss)) <= 0) {
		if (rv < 0) {
			results_free(r);
			store_rgames_free(g);
			snprintf(err, errlen, "the game log cannot be read "
			    "now");
			return (-1);
		}
		if (tb[0] == '\0' ||
		    tb_list_parse(tb, &l, tberr, sizeof tberr) != 0)
			tb_list_default(swiss, &l);
		if (r->n > 0)
			results_rank(r, &l);
		else
			r->tb = l;
	}
	return (0);
}

/* As results_read_games, without the games. */
int
results_read(struct store *st, const struct store_rfilter *f,
    struct results *r, char *err, size_t errlen)
{
	struct store_rgames g;

	if (results_read_games(st, f, &g, r, err, errlen) != 0)
		return (-1);
	store_rgames_free(&g);
	return (0);
}

/*
 * Fills p with the statistics of players a and b (a's side) over r: all
 * zero if either has no game there.
 */
void
results_pair_named(const struct results *r, const char *a, const char *b,
    struct results_pair *p)
{
	long	 i = results_player(r, a), j = results_player(r, b);

	if (i < 0 || j < 0 ||
	    results_pair_get(r, (size_t)i, (size_t)j, p) != 0)
		memset(p, 0, sizeof *p);
}
