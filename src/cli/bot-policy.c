/*
 * bot-policy.c: pure decisions of `grundy bot` (see bot-policy.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bot-policy.h"
#include "proto/proto.h"

/*
 * Returns the wait before reconnect attempt number attempt (from 0):
 * base_ms doubled each attempt up to cap_ms, with "equal jitter" (a
 * uniform draw from rnd in the upper half), so many bots cut off by the
 * same restart do not all come back in the same millisecond.
 */
uint64_t
botpol_backoff_ms(unsigned int attempt, uint64_t base_ms, uint64_t cap_ms,
    uint32_t rnd)
{
	uint64_t	 d = base_ms > 0 ? base_ms : 1;

	if (cap_ms < d)
		cap_ms = d;
	while (attempt-- > 0 && d < cap_ms)
		d *= 2;
	if (d > cap_ms)
		d = cap_ms;
	return (d - d / 2 + (uint64_t)rnd % (d / 2 + 1));
}

/*
 * Returns N from a refusal that says "retry in N s" (a locked login,
 * PROTOCOL §13.1), or -1 if it does not say so.
 */
long
botpol_retry_s(const char *msg)
{
	const char	*p = strstr(msg, "retry in ");
	char		*end;
	long		 n;

	if (p == NULL || !isdigit((unsigned char)p[9]))
		return (-1);
	n = strtol(p + 9, &end, 10);
	if (strncmp(end, " s", 2) != 0 || n < 0 || n > 86400)
		return (-1);
	return (n);
}

/*
 * Parses the time control that starts s and ends at a blank or the end
 * (an event's tc= field) with proto_parse_tc; returns 0 or -1.
 */
int
botpol_tc(const char *s, uint64_t *base, uint64_t *inc)
{
	char	 tok[32];
	size_t	 n = strcspn(s, " ");

	if (n >= sizeof tok)
		return (-1);
	memcpy(tok, s, n);
	tok[n] = '\0';
	return (proto_parse_tc(tok, base, inc));
}

/* Returns 1 if word (n bytes) is in the comma-separated list. */
static int
botpol_listed(const char *list, const char *word, size_t n)
{
	const char	*p = list;
	size_t		 k;

	for (;;) {
		k = strcspn(p, ",");
		if (k == n && strncmp(p, word, n) == 0)
			return (1);
		if (p[k] == '\0')
			return (0);
		p += k + 1;
	}
}

/*
 * Judges "event challenge CH_ID FROM tc=TC rated=0|1 seat=1|2 GAME"
 * against the filters: copies CH_ID into id and returns 1 to accept, 0
 * to decline (why says which filter), -1 if the line is not such an
 * event (why says what is wrong).
 */
int
botpol_challenge(const struct botpol_accept *f, const char *line, char *id,
    size_t idlen, char *why, size_t whylen)
{
	const char	*p = line, *tok[4], *game = NULL, *tc = NULL;
	size_t		 len[4], n;
	int		 i, rated = -1;
	uint64_t	 base, inc;

	for (i = 0; i < 4; i++) {
		p += strspn(p, " ");
		tok[i] = p;
		len[i] = strcspn(p, " ");
		p += len[i];
	}
	if (len[0] != 5 || strncmp(tok[0], "event", 5) != 0 || len[1] != 9 ||
	    strncmp(tok[1], "challenge", 9) != 0 || len[2] == 0 ||
	    len[2] >= idlen || len[3] == 0) {
		snprintf(why, whylen, "not a challenge event");
		return (-1);
	}
	memcpy(id, tok[2], len[2]);
	id[len[2]] = '\0';
	for (;;) {
		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n == 0)
			break;
		if (strncmp(p, "tc=", 3) == 0)
			tc = p + 3;
		else if (n == 7 && strncmp(p, "rated=", 6) == 0)
			rated = p[6] == '1';
		else if (strncmp(p, "seat=", 5) != 0) {
			game = p;
			break;
		}
		p += n;
	}
	if (game == NULL || tc == NULL || botpol_tc(tc, &base, &inc) != 0) {
		snprintf(why, whylen, "no game or time control");
		return (-1);
	}
	n = strcspn(game, " ");
	if (f->families != NULL && !botpol_listed(f->families, game, n)) {
		snprintf(why, whylen, "game %.*s is not one of %s", (int)(n > 32 ?
		    32 : n), game, f->families);
		return (0);
	}
	if (base + BOTPOL_TC_MOVES * inc < f->min_tc_ms) {
		snprintf(why, whylen, "time control %llu+%llu is under "
		    "--accept-min-tc %llu (BASE + %d * INC)",
		    (unsigned long long)base, (unsigned long long)inc,
		    (unsigned long long)f->min_tc_ms, BOTPOL_TC_MOVES);
		return (0);
	}
	if (f->rated != -1 && rated != f->rated) {
		snprintf(why, whylen, "%s game, --accept-rated %d", rated == 1 ?
		    "a rated" : "an unrated", f->rated);
		return (0);
	}
	return (1);
}
