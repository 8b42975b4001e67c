/*
 * results-json.h: the JSON of results.h (PROTOCOL.md §14.3).
 */
#ifndef RESULTS_JSON_H
#define RESULTS_JSON_H

#include "lib/json.h"
#include "stats/results.h"

void	 results_json_standings(struct json *, const struct results *);
void	 results_json_crosstable(struct json *, const struct results *);
void	 results_json_optimal(struct json *, uint64_t, uint64_t);
void	 results_json_throws(struct json *, const uint64_t *);
void	 results_json_ref(struct json *, const char *,
	    const struct results_ref *);
void	 results_json_pair(struct json *, const char *, const char *,
	    const struct results_pair *);

#endif /* RESULTS_JSON_H */
