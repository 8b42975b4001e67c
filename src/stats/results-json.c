/*
 * results-json.c: the JSON of results.h (PROTOCOL.md §14.3): the same
 * data as the text of cmd-results.c, another rendering.
 */
#include <stdint.h>

#include "lib/json.h"
#include "stats/json-stat.h"
#include "stats/results.h"
#include "stats/results-json.h"

/* Writes a tie-break's value: a number, points or quarters; DE null
 * where it was not applied. */
static void
json_tb(struct json *j, enum tb_kind k, int64_t v)
{
	unsigned int	 u = tb_unit(k);

	if (v < 0)
		json_null(j);
	else if (u == 1)
		json_uint(j, (uint64_t)v);
	else if (u == 2)
		json_num1(j, (double)v / 2.0);
	else
		json_num4(j, (double)v / 4.0);
}

/*
 * Writes the standings, best first: one object per line of `standings`,
 * its tie-breaks in "tiebreaks" in the list's order.
 */
void
results_json_standings(struct json *j, const struct results *r)
{
	const struct standing *s;
	const struct xtable_player *p;
	size_t		 i;
	unsigned int	 k;

	json_arr(j);
	for (i = 0; i < r->n; i++) {
		p = results_standing(r, i, &s);
		json_obj(j);
		json_kuint(j, "rank", s->rank);
		json_kstr(j, "name", r->names[s->player]);
		json_kuint(j, "games", p->games);
		json_kuint(j, "wins", p->wins);
		json_kuint(j, "losses", p->losses);
		json_kuint(j, "draws", p->draws);
		json_knum1(j, "points", (double)s->half / 2.0);
		json_kuint(j, "byes", p->byes);
		json_kuint(j, "forfeit_wins", p->fwins);
		json_kuint(j, "forfeit_losses", p->flosses);
		json_key(j, "tiebreaks");
		json_obj(j);
		for (k = 0; k < r->tb.n; k++) {
			json_key(j, tb_name(r->tb.k[k]));
			json_tb(j, r->tb.k[k], s->tb[k]);
		}
		json_end_obj(j);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* Writes the crosstable: [i][j] is player i's record against j. */
void
results_json_crosstable(struct json *j, const struct results *r)
{
	const struct xtable_cell *c;
	size_t		 i, k;

	json_arr(j);
	for (i = 0; i < r->n; i++) {
		json_arr(j);
		for (k = 0; k < r->n; k++) {
			if (k == i) {
				json_null(j);
				continue;
			}
			c = xtable_get(&r->xt, i, k);
			json_obj(j);
			/* No draws in the families so far: wins = points. */
			json_kuint(j, "wins", c->half / 2);
			json_kuint(j, "games", c->games);
			json_knum1(j, "points", (double)c->half / 2.0);
			json_end_obj(j);
		}
		json_end_arr(j);
	}
	json_end_arr(j);
}

/*
 * Writes a first-throw histogram (RESULTS_THROW_BUCKETS counts) as
 * [{"from": 1, "to": 1, "games": C}, ..., {"from": 21, "to": null, ...}].
 */
void
results_json_throws(struct json *j, const uint64_t *games)
{
	unsigned int	 lo, hi;
	size_t		 i;

	json_arr(j);
	for (i = 0; i < RESULTS_THROW_BUCKETS; i++) {
		results_throw_bounds(i, &lo, &hi);
		json_obj(j);
		json_kuint(j, "from", lo);
		json_kuint_if(j, "to", hi != 0, hi);
		json_kuint(j, "games", games[i]);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* Writes "optimal_rate": the optimal-move rate (results.h), or null. */
void
results_json_optimal(struct json *j, uint64_t kept, uint64_t threw)
{
	json_key(j, "optimal_rate");
	if (kept + threw > 0)
		json_num4(j, results_optimal_rate(kept, threw));
	else
		json_null(j);
}

/* Writes the referee's figures of one player. */
void
results_json_ref(struct json *j, const char *name, const struct results_ref *f)
{
	json_obj(j);
	json_kstr(j, "name", name);
	json_kuint(j, "games", f->games);
	json_kuint(j, "moves", f->moves);
	json_kuint(j, "kept_win", f->kept);
	json_kuint(j, "threw_win", f->threw);
	results_json_optimal(j, f->kept, f->threw);
	json_kuint(j, "throw_games", f->throw_games);
	json_key(j, "first_throw_mean");
	if (f->throw_games > 0)
		json_num1(j, (double)f->first_throw_sum /
		    (double)f->throw_games);
	else
		json_null(j);
	json_key(j, "first_throw");
	results_json_throws(j, f->first_throw);
	json_kuint(j, "won_games", f->won_games);
	json_kuint(j, "converted", f->converted);
	json_key(j, "conversion_rate");
	if (f->won_games > 0)
		json_num4(j, (double)f->converted / (double)f->won_games);
	else
		json_null(j);
	json_end_obj(j);
}

/*
 * Writes the statistics of pair p (results_pair_get, from a's side),
 * named a and b, as members of the open object.
 */
void
results_json_pair(struct json *j, const char *a, const char *b,
    const struct results_pair *p)
{
	json_stat_pair(j, a, b, &p->wdl, &p->penta, p->unpaired);
	json_key(j, "referee");
	json_arr(j);
	results_json_ref(j, a, &p->ref[0]);
	results_json_ref(j, b, &p->ref[1]);
	json_end_arr(j);
}
