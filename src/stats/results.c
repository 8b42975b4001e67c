/*
 * results.c: the results of a set of finished games (results.h): the
 * crosstable and standings (tiebreak.c), every pair's statistics
 * (matchstat.c) and the referee's figures.  Pure: no I/O, no globals.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "stats/results.h"

/* A name and its player index, for the lookup. */
struct rname {
	const char	*name;
	size_t		 i;
};

static int
rname_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct rname *)a)->name,
	    ((const struct rname *)b)->name));
}

static int
str_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * Gives the bounds of first-throw bucket i (< RESULTS_THROW_BUCKETS): the
 * player's move numbers lo..hi, hi 0 for no upper bound.
 */
void
results_throw_bounds(size_t i, unsigned int *lo, unsigned int *hi)
{
	static const unsigned int bounds[RESULTS_THROW_BUCKETS + 1] = {
		1, 2, 3, 4, 5, 6, 11, 21, 0
	};

	*lo = bounds[i];
	*hi = bounds[i + 1] != 0 ? bounds[i + 1] - 1 : 0;
}

/* Gives the first-throw bucket of a move number (>= 1). */
size_t
results_throw_bucket(uint32_t k)
{
	unsigned int	 lo, hi;
	size_t		 i;

	for (i = 0; i + 1 < RESULTS_THROW_BUCKETS; i++) {
		results_throw_bounds(i, &lo, &hi);
		if (hi != 0 && k <= hi)
			return (i);
	}
	return (RESULTS_THROW_BUCKETS - 1);
}

/*
 * The optimal-move rate (results.h) in tenths of a percent, rounded
 * down, in *tenths: 1000 kept / (kept + threw).  Returns 0, or -1 when
 * the player never had a won position (no rate).
 */
int
results_optimal_tenths(uint64_t kept, uint64_t threw, uint64_t *tenths)
{
	if (kept + threw == 0)
		return (-1);
	*tenths = kept * 1000 / (kept + threw);
	return (0);
}

/* The optimal-move rate as a fraction; -1 when there is none. */
double
results_optimal_rate(uint64_t kept, uint64_t threw)
{
	if (kept + threw == 0)
		return (-1.0);
	return ((double)kept / (double)(kept + threw));
}

/* Adds one game's seat to a player's figures; won: it won the game. */
static void
ref_add(struct results_ref *r, const struct store_rseat *s, int won)
{
	r->games++;
	r->moves += s->moves;
	r->kept += s->kept;
	r->threw += s->threw;
	if (s->first_throw != 0) {
		r->throw_games++;
		r->first_throw[results_throw_bucket(s->first_throw)]++;
		r->first_throw_sum += s->first_throw;
	}
	if (s->kept + s->threw > 0) {
		r->won_games++;
		if (won)
			r->converted++;
	}
}

/* Index of name in the sorted lookup, or -1. */
static long
rname_find(const struct rname *v, size_t n, const char *name)
{
	struct rname	 k = { name, 0 }, *f;

	if (name == NULL)
		return (-1);
	f = bsearch(&k, v, n, sizeof *v, rname_cmp);
	return (f != NULL ? (long)f->i : -1);
}

/* Player index of name in r, or -1 (a linear scan: for the callers). */
long
results_player(const struct results *r, const char *name)
{
	size_t	 i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->names[i], name) == 0)
			return ((long)i);
	return (-1);
}

/* Sets r's players: names[0..n) if given, else the games' players. */
static void
results_names(struct results *r, const char *const *names, size_t n,
    const struct store_rgame *g, size_t ng)
{
	size_t	 i, k = 0;

	if (names != NULL) {
		r->names = xcalloc(n + 1, sizeof *r->names);
		for (i = 0; i < n; i++)
			r->names[i] = xstrdup(names[i]);
		r->n = n;
		return;
	}
	r->names = xcalloc(2 * ng + 1, sizeof *r->names);
	for (i = 0; i < ng; i++) {
		r->names[k++] = (char *)g[i].player1;
		r->names[k++] = (char *)g[i].player2;
	}
	qsort(r->names, k, sizeof *r->names, str_cmp);
	for (i = 0, n = 0; i < k; i++)
		if (n == 0 || strcmp(r->names[n - 1], r->names[i]) != 0)
			r->names[n++] = r->names[i];
	for (i = 0; i < n; i++)
		r->names[i] = xstrdup(r->names[i]);
	r->n = n;
}

/* A game of a pair, for the pairing: its pair, start key, A's seat. */
struct rpg {
	size_t		 pair;
	size_t		 game;		/* index in the games */
	size_t		 start;		/* dense id of (tournament, start) */
	int		 a_first;	/* the pair's a moved first */
};

static int
rpg_cmp(const void *x, const void *y)
{
	const struct rpg *a = x, *b = y;

	if (a->pair != b->pair)
		return (a->pair < b->pair ? -1 : 1);
	if (a->start != b->start)
		return (a->start < b->start ? -1 : 1);
	if (a->a_first != b->a_first)
		return (a->a_first > b->a_first ? -1 : 1);
	return (a->game < b->game ? -1 : a->game > b->game);
}

/* Orders game indices by (tournament, start), for the start ids. */
static int
start_cmp(const void *x, const void *y, void *arg)
{
	const struct store_rgame *g = arg;
	const struct store_rgame *a = &g[*(const size_t *)x];
	const struct store_rgame *b = &g[*(const size_t *)y];

	if (a->tournament != b->tournament)
		return (a->tournament < b->tournament ? -1 : 1);
	if (a->start == NULL || b->start == NULL)
		return (a->start == NULL ? (b->start == NULL ? 0 : -1) : 1);
	return (strcmp(a->start, b->start));
}

/*
 * Gives each game a start id in sid[]: equal for equal (tournament,
 * start); games without a start get ids of their own (never paired).
 */
static void
results_starts(const struct store_rgame *g, size_t n, size_t *sid)
{
	size_t	*ix, i, id = 0;

	ix = xcalloc(n + 1, sizeof *ix);
	for (i = 0; i < n; i++)
		ix[i] = i;
	qsort_r(ix, n, sizeof *ix, start_cmp, (void *)g);
	for (i = 0; i < n; i++) {
		if (i > 0 && (g[ix[i]].start == NULL ||
		    start_cmp(&ix[i - 1], &ix[i], (void *)g) != 0))
			id++;
		sid[ix[i]] = id;
	}
	free(ix);
}

/*
 * Pairs the games of each pair (results.h) and fills its pentanomial
 * counts: the k-th game of a start with a first and the k-th with b
 * first get one key of their own, so that matchstat_pairs pairs exactly
 * those two.  v[0..m) is sorted by rpg_cmp.
 */
static void
results_penta(struct results *r, const struct store_rgame *g,
    const struct rpg *v, size_t m)
{
	struct matchstat_game *mg;
	size_t		 i, j, lo, k, s1, e, x, both, rank, key = 0;
	int		 a_won;

	mg = xcalloc(m + 1, sizeof *mg);
	for (lo = 0; lo < m; lo = i) {
		for (i = lo; i < m && v[i].pair == v[lo].pair; i++)
			;
		for (j = lo, k = 0; j < i; j = e) {
			/* [j, s1): a moved first; [s1, e): b did. */
			for (s1 = j; s1 < i && v[s1].start == v[j].start &&
			    v[s1].a_first; s1++)
				;
			for (e = s1; e < i && v[e].start == v[j].start; e++)
				;
			both = s1 - j < e - s1 ? s1 - j : e - s1;
			for (x = j; x < e; x++) {
				rank = x < s1 ? x - j : x - s1;
				a_won = (g[v[x].game].winner == 1) ==
				    v[x].a_first;
				mg[k].start = rank < both ? key + rank :
				    key + both + (x - j);
				mg[k++].res = a_won ? MATCHSTAT_WIN :
				    MATCHSTAT_LOSS;
			}
			key += both + (e - j);
		}
		(void)matchstat_pairs(mg, k, &r->pairs[v[lo].pair].penta,
		    &r->pairs[v[lo].pair].unpaired);
	}
	free(mg);
}

/* Finds or adds pair (a, b), a < b, in r->pairs sorted; its index. */
static size_t
results_pair_at(struct results *r, size_t *cap, size_t a, size_t b)
{
	size_t	 lo = 0, hi = r->npairs, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (r->pairs[mid].a < a || (r->pairs[mid].a == a &&
		    r->pairs[mid].b < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->npairs && r->pairs[lo].a == a && r->pairs[lo].b == b)
		return (lo);
	if (r->npairs == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		r->pairs = xreallocarray(r->pairs, *cap, sizeof *r->pairs);
	}
	memmove(&r->pairs[lo + 1], &r->pairs[lo],
	    (r->npairs - lo) * sizeof *r->pairs);
	memset(&r->pairs[lo], 0, sizeof *r->pairs);
	r->pairs[lo].a = a;
	r->pairs[lo].b = b;
	r->npairs++;
	return (lo);
}

/*
 * Counts game gm (players i, j; its round) in r; fills v's entry for the
 * pairing.  A forfeit is an unplayed unit in the standings (tiebreak.h)
 * and in no crosstable cell, but a game of the pair's statistics.
 */
static void
results_count(struct results *r, size_t *cap, const struct store_rgame *gm,
    size_t i, size_t j, unsigned int round, struct rpg *v)
{
	struct results_pair *p;
	size_t		 a = i < j ? i : j, b = i < j ? j : i, k;
	int		 a_first = a == i, a_won;

	if (gm->forfeit)
		(void)xtable_forfeit(&r->xt, gm->winner == 1 ? i : j,
		    gm->winner == 1 ? j : i, round);
	else
		(void)xtable_add(&r->xt, i, j, gm->winner == 1 ? XTABLE_WIN :
		    XTABLE_LOSS, round);
	k = results_pair_at(r, cap, a, b);
	v->pair = k;
	v->a_first = a_first;
	p = &r->pairs[k];
	a_won = (gm->winner == 1) == a_first;
	(void)matchstat_wdl_add(&p->wdl, a_won ? MATCHSTAT_WIN :
	    MATCHSTAT_LOSS);
	if (gm->marked) {
		ref_add(&r->ref[i], &gm->seat[0], gm->winner == 1);
		ref_add(&r->ref[j], &gm->seat[1], gm->winner == 2);
		ref_add(&p->ref[0], &gm->seat[a_first ? 0 : 1], a_won);
		ref_add(&p->ref[1], &gm->seat[a_first ? 1 : 0], !a_won);
	}
}

/*
 * Builds the results of games g[0..ng) (each finished, winner 1 or 2)
 * into r (free it with results_free).  names[0..n), if not NULL, are the
 * players in their order (a tournament's, some perhaps without a game);
 * games of other players are left out.  Otherwise the players are those
 * of the games, in name order.  Pairs are sorted by (a, b); pair indices
 * refer to pairs once they are all known, so they are taken in a second
 * pass.  Returns 0, or -1 if there are no players or more than
 * XTABLE_MAX (r empty).
 */
int
results_build(const char *const *names, size_t n,
    const struct store_rgame *g, size_t ng, struct results *r)
{
	struct rname	*lk;
	struct rpg	*v;
	size_t		*sid, cap = 0, i, m = 0;
	long		 a, b;

	memset(r, 0, sizeof *r);
	results_names(r, names, n, g, ng);
	if (xtable_init(&r->xt, r->n) != 0) {
		results_free(r);
		return (-1);
	}
	lk = xcalloc(r->n, sizeof *lk);
	for (i = 0; i < r->n; i++) {
		lk[i].name = r->names[i];
		lk[i].i = i;
	}
	qsort(lk, r->n, sizeof *lk, rname_cmp);
	r->ref = xcalloc(r->n, sizeof *r->ref);
	r->st = xcalloc(r->n, sizeof *r->st);
	r->key = xcalloc(r->n, sizeof *r->key);
	v = xcalloc(ng + 1, sizeof *v);
	sid = xcalloc(ng + 1, sizeof *sid);
	results_starts(g, ng, sid);
	for (i = 0; i < ng; i++) {
		a = rname_find(lk, r->n, g[i].player1);
		b = rname_find(lk, r->n, g[i].player2);
		if (a < 0 || b < 0 || a == b ||
		    (g[i].winner != 1 && g[i].winner != 2))
			continue;
		results_count(r, &cap, &g[i], (size_t)a, (size_t)b,
		    g[i].round != 0 ? g[i].round : (unsigned int)i + 1, &v[m]);
		v[m].game = i;
		v[m++].start = sid[i];
		r->games++;
	}
	/* The pair indices moved as pairs were inserted: take them again. */
	for (i = 0; i < m; i++) {
		a = rname_find(lk, r->n, g[v[i].game].player1);
		b = rname_find(lk, r->n, g[v[i].game].player2);
		v[i].pair = results_pair_at(r, &cap, (size_t)(a < b ? a : b),
		    (size_t)(a < b ? b : a));
	}
	qsort(v, m, sizeof *v, rpg_cmp);
	results_penta(r, g, v, m);
	for (i = 0; i < r->npairs; i++) {
		struct results_pair *p = &r->pairs[i];

		(void)matchstat_elo_wdl(&p->wdl, &p->elo);
		p->has_penta_elo = matchstat_elo_penta(&p->penta,
		    &p->penta_elo) == 0;
	}
	for (i = 0; i < r->n; i++)
		r->key[lk[i].i] = i;
	tb_list_default(0, &r->tb);
	results_rank(r, NULL);
	free(v);
	free(sid);
	free(lk);
	return (0);
}

/*
 * Counts a bye of player i in round `round` worth `games` won games (a
 * Swiss bye scores every game of its round): unplayed units, in i's
 * points, not in its games.  Rank again with results_rank.
 */
void
results_bye(struct results *r, size_t i, unsigned int round,
    unsigned int games)
{
	unsigned int	 k;

	for (k = 0; k < games; k++)
		(void)xtable_bye(&r->xt, i, round, 2);
}

/* Counts a game of player i in round `round` it was absent from (after
 * its withdrawal): an unplayed unit, voluntarily.  Rank again after. */
void
results_absent(struct results *r, size_t i, unsigned int round)
{
	(void)xtable_unit(&r->xt, i, round, 0, 1);
}

/*
 * Ranks the standings (again) by the tie-breaks l (NULL: r's), ties
 * among equals in name order: one order for every rendering of the same
 * games.
 */
void
results_rank(struct results *r, const struct tb_list *l)
{
	if (l != NULL)
		r->tb = *l;
	tiebreak_standings(&r->xt, &r->tb, r->key, r->st);
}

/*
 * Fills out with the statistics of players i and j from i's side (out->a
 * is i, out->b is j; ref[0] is i's).  Returns 0, or -1 if they never met
 * (out zero but for a and b).
 */
int
results_pair_get(const struct results *r, size_t i, size_t j,
    struct results_pair *out)
{
	const struct results_pair *p = NULL;
	struct matchstat_penta q;
	struct results_ref f;
	uint64_t	 w;
	size_t		 k;

	memset(out, 0, sizeof *out);
	for (k = 0; k < r->npairs && p == NULL; k++)
		if (r->pairs[k].a == (i < j ? i : j) &&
		    r->pairs[k].b == (i < j ? j : i))
			p = &r->pairs[k];
	out->a = i;
	out->b = j;
	if (p == NULL)
		return (-1);
	*out = *p;
	if (i < j)
		return (0);
	out->a = i;
	out->b = j;
	w = out->wdl.wins;
	out->wdl.wins = out->wdl.losses;
	out->wdl.losses = w;
	f = out->ref[0];
	out->ref[0] = out->ref[1];
	out->ref[1] = f;
	q = out->penta;
	out->penta.ll = q.ww;
	out->penta.ld = q.wd;
	out->penta.wd = q.ld;
	out->penta.ww = q.ll;
	(void)matchstat_elo_wdl(&out->wdl, &out->elo);
	out->has_penta_elo = matchstat_elo_penta(&out->penta,
	    &out->penta_elo) == 0;
	return (0);
}

/*
 * Sets *s to line i of the standings (best first) and returns that
 * player's totals.
 */
const struct xtable_player *
results_standing(const struct results *r, size_t i,
    const struct standing **s)
{
	*s = &r->st[i];
	return (&r->xt.player[(*s)->player]);
}

/* Frees what results_build made. */
void
results_free(struct results *r)
{
	strv_free(r->names, r->n);
	xtable_free(&r->xt);
	free(r->st);
	free(r->key);
	free(r->ref);
	free(r->pairs);
	memset(r, 0, sizeof *r);
}
