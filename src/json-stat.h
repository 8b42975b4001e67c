/*
 * json-stat.h: the JSON members of a pairing's counts (matchstat.h), one
 * writer for grundy match's --out (match-out.c) and the results JSON of
 * pairstats and /api/pairs (results-json.c).
 */
#ifndef JSON_STAT_H
#define JSON_STAT_H

#include "json.h"
#include "matchstat.h"

/* Writes a, b, games, wins, losses, draws (from a's side) as members. */
void	 json_stat_wdl(struct json *, const char *, const char *,
	    const struct matchstat_wdl *);
/* Writes the pentanomial counts ll, ld, wl, dd, wd, ww as members. */
void	 json_stat_penta(struct json *, const struct matchstat_penta *);

#endif /* JSON_STAT_H */
