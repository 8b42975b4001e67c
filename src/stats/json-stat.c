/*
 * json-stat.c: the JSON members of a pairing's counts (json-stat.h).
 */
#include <math.h>

#include "stats/json-stat.h"
#include "lib/util.h"

static void
json_stat_wdl(struct json *j, const char *a, const char *b,
    const struct matchstat_wdl *w)
{
	json_kstr(j, "a", a);
	json_kstr(j, "b", b);
	json_kuint(j, "games", matchstat_wdl_games(w));
	json_kuint(j, "wins", w->wins);
	json_kuint(j, "losses", w->losses);
	json_kuint(j, "draws", w->draws);
}

static void
json_stat_penta(struct json *j, const struct matchstat_penta *p)
{
	static const char *const key[] = {
		"ll", "ld", "wl", "dd", "wd", "ww"
	};
	const uint64_t	 n[] = { p->ll, p->ld, p->wl, p->dd, p->wd, p->ww };
	size_t		 i;

	for (i = 0; i < nitems(n); i++)
		json_kuint(j, key[i], n[i]);
}

/* Writes an Elo figure: a number with one decimal, or "inf"/"-inf". */
static void
json_stat_elo_figure(struct json *j, const char *k, double e)
{
	json_key(j, k);
	if (isfinite(e))
		json_num1(j, e);
	else
		json_str(j, e > 0 ? "inf" : "-inf");
}

/* Writes an Elo estimate: elo, lo, hi, err, los, zero_variance. */
static void
json_stat_estimate(struct json *j, const struct matchstat_elo *e)
{
	json_obj(j);
	json_stat_elo_figure(j, "elo", e->elo);
	json_stat_elo_figure(j, "lo", e->elo_lo);
	json_stat_elo_figure(j, "hi", e->elo_hi);
	json_knum1(j, "err", e->elo_err);
	json_knum4(j, "los", e->los);
	json_kbool(j, "zero_variance", e->degenerate);
	json_end_obj(j);
}

void
json_stat_pair(struct json *j, const char *a, const char *b,
    const struct matchstat_wdl *w, const struct matchstat_penta *q,
    uint64_t unpaired)
{
	struct matchstat_elo e;
	int		 have_games = matchstat_wdl_games(w) > 0;

	json_stat_wdl(j, a, b, w);
	(void)matchstat_elo_wdl(w, &e);
	json_key(j, "score");
	if (have_games)
		json_num4(j, e.score);
	else
		json_null(j);
	json_key(j, "elo");
	if (have_games)
		json_stat_estimate(j, &e);
	else
		json_null(j);
	json_key(j, "pentanomial");
	json_obj(j);
	json_kuint(j, "pairs", matchstat_penta_pairs(q));
	json_stat_penta(j, q);
	json_kuint(j, "unpaired", unpaired);
	json_end_obj(j);
	json_key(j, "pair_elo");
	if (matchstat_elo_penta(q, &e) == 0)
		json_stat_estimate(j, &e);
	else
		json_null(j);
}
