/*
 * json-stat.h: the JSON members of a pairing's counts (matchstat.h), one
 * writer for grundy match's --out (match-out.c) and the results JSON of
 * pairstats and /api/pairs (results-json.c).
 */
#ifndef JSON_STAT_H
#define JSON_STAT_H

#include "lib/json.h"
#include "stats/matchstat.h"

/* Writes a, b, games, wins, losses, draws (from a's side) as members. */
/* Writes the pentanomial counts ll, ld, wl, dd, wd, ww as members. */
/*
 * Writes a pairing's counts and Elo estimates from a's side as members
 * (PROTOCOL.md §14.3): a, b, games, wins, losses, draws, score, elo (over
 * every game), pentanomial {pairs, ll..ww, unpaired} and pair_elo (over
 * the pairs); score and elo null without games, pair_elo without pairs.
 * The results JSON and grundy match's --out share this shape.
 */
void	 json_stat_pair(struct json *, const char *, const char *,
	    const struct matchstat_wdl *, const struct matchstat_penta *,
	    uint64_t);

#endif /* JSON_STAT_H */
