/*
 * json-stat.c: the JSON members of a pairing's counts (json-stat.h).
 */
#include "json-stat.h"
#include "util.h"

void
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

void
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
