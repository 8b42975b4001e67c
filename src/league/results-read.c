/*
 * results-read.c: the results of a set of the log's games (results.h),
 * read with store_rgames: for the commands and the HTTP API alike.  Any
 * thread but the loop: the read is proportional to the games selected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "stats/results.h"
#include "store/store-results.h"

/* Sets each game's round from its slot, as the lobby does (slot_round). */
static void
results_tour_rounds(const struct store_tour *t, size_t nplayers,
    struct store_rgames *g)
{
	size_t	 i, b = nplayers / 2 * t->games_per_pair;

	for (i = 0; i < g->n; i++)
		if (g->v[i].slot >= 0)
			g->v[i].round = (unsigned int)(t->swiss && b > 0 ?
			    (size_t)g->v[i].slot / b + 1 :
			    (size_t)g->v[i].slot + 1);
}

/*
 * Splits "A,B,..." into a NULL-terminated array of copies (free both
 * with results_names_free); sets *n.
 */
static char **
results_names_split(const char *p, size_t *n)
{
	char	**v = xcalloc(strlen(p) + 2, sizeof *v);
	size_t	 k;

	for (*n = 0; *p != '\0'; p += k + (p[k] == ',')) {
		k = strcspn(p, ",");
		v[*n] = xmalloc(k + 1);
		memcpy(v[*n], p, k);
		v[(*n)++][k] = '\0';
	}
	return (v);
}

/* Frees what results_names_split returned. */
static void
results_names_free(char **v)
{
	size_t	 i;

	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Whether name is among the withdrawn ("NAME:R,..."). */
static int
results_withdrawn(const struct store_tour *t, const char *name)
{
	const char	*p, *q;
	size_t		 n = strlen(name);

	for (p = t->withdrawn; *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		if ((size_t)(q - p) > n && p[n] == ':' &&
		    strncmp(p, name, n) == 0)
			return (1);
	}
	return (0);
}

/*
 * The games a withdrawal stopped ("R:A:B,..."): an absent unit for the
 * withdrawn, an unplayed unit without points for the other, as the lobby
 * counts them (lobby-results.c).
 */
static void
results_tour_stopped(const struct store_tour *t, struct results *r)
{
	const char	*p, *q, *c;
	char		 name[128];
	unsigned int	 x;
	long		 j;
	int		 k;

	for (p = t->stopped; *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		x = (unsigned int)strtoul(p, NULL, 10);
		if ((c = memchr(p, ':', (size_t)(q - p))) == NULL || x == 0)
			continue;
		for (k = 0; k < 2 && c < q; k++) {
			p = c + 1;
			c = p + strcspn(p, ":,");
			snprintf(name, sizeof name, "%.*s", (int)(c - p), p);
			if ((j = results_player(r, name)) < 0)
				continue;
			if (results_withdrawn(t, name))
				results_absent(r, (size_t)j, x);
			else
				(void)xtable_unit(&r->xt, (size_t)j, x, 0, 0);
		}
	}
}

/*
 * The Swiss tournament's byes ("R:NAME,...") and the rounds its withdrawn
 * players ("NAME:R,...": R rounds paired then) were absent from, up to
 * the last round with a game or a bye, into r: as the lobby counts them
 * (lobby-results.c).
 */
static void
results_tour_unplayed(const struct store_tour *t, const struct store_rgames *g,
    struct results *r)
{
	const char	*p, *q, *c;
	char		 name[128];
	unsigned int	 last = 0, w, k, x;
	size_t		 i;
	long		 j;

	for (i = 0; i < g->n; i++)
		if (g->v[i].round > last)
			last = g->v[i].round;
	for (p = t->byes; *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		x = (unsigned int)strtoul(p, NULL, 10);
		if ((c = memchr(p, ':', (size_t)(q - p))) == NULL || x == 0)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(q - c - 1), c + 1);
		if ((j = results_player(r, name)) >= 0)
			results_bye(r, (size_t)j, x, t->games_per_pair);
		if (x > last)
			last = x;
	}
	for (p = t->withdrawn; *p != '\0'; p = *q == ',' ? q + 1 : q) {
		q = p + strcspn(p, ",");
		if ((c = memchr(p, ':', (size_t)(q - p))) == NULL)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(c - p), p);
		w = (unsigned int)strtoul(c + 1, NULL, 10);
		if ((j = results_player(r, name)) < 0)
			continue;
		for (x = w; x < last; x++)
			for (k = 0; k < t->games_per_pair; k++)
				results_absent(r, (size_t)j, x + 1);
	}
}

/*
 * Reads the games that f selects into g (free it with store_rgames_free)
 * and builds their results into r (players in name order; no game: r has
 * no player), ranked by the tournament's tie-breaks if f selects one (else
 * the default: tiebreak.h); a tournament's players are its roster, its
 * games each in its round (its slot's), its Swiss byes, withdrawals and
 * games stopped by them counted as the lobby counts them.  Returns 0; -1 with the reason in err and nothing to free (more
 * than f->max games or XTABLE_MAX players, or the log cannot be read).
 */
int
results_read_games(struct store *st, const struct store_rfilter *f,
    struct store_rgames *g, struct results *r, char *err, size_t errlen)
{
	struct store_tour t;
	struct tb_list	 l;
	char		 tberr[128], **names = NULL;
	size_t		 nn = 0;
	int		 rv, tour = 0;

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
	if (f->tournament > 0 && (rv = store_tour(st, f->tournament,
	    &t)) != 0) {
		if (rv < 0) {
			store_rgames_free(g);
			snprintf(err, errlen, "the game log cannot be read "
			    "now");
			return (-1);
		}
	} else if (f->tournament > 0) {
		tour = 1;
		names = results_names_split(t.players, &nn);
		results_tour_rounds(&t, nn, g);
		if (t.tiebreaks[0] == '\0' ||
		    tb_list_parse(t.tiebreaks, &l, tberr, sizeof tberr) != 0)
			tb_list_default(t.swiss, &l);
	}
	if ((g->n > 0 || nn > 0) && results_build((const char *const *)names,
	    nn, g->v, g->n, r) != 0) {
		if (tour) {
			store_tour_free(&t);
			results_names_free(names);
		}
		store_rgames_free(g);
		snprintf(err, errlen, "more than %d players: choose a "
		    "narrower set", XTABLE_MAX);
		return (-1);
	}
	if (tour) {
		if (r->n > 0) {
			results_tour_stopped(&t, r);
			if (t.swiss)
				results_tour_unplayed(&t, g, r);
			results_rank(r, &l);
		} else
			r->tb = l;
		store_tour_free(&t);
		results_names_free(names);
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
