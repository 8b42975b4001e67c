/*
 * addrrate.c: a token bucket per client address, for actions that must be
 * rare per address whatever the number of connections (account creation).
 * A bucket holds up to `per_hour` tokens and refills at that rate per
 * hour.  The table is bounded: when it is full, buckets that are full
 * again (they carry no state) are dropped, then the least recently used.
 * Thread-safe.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/addrrate.h"
#include "lib/buf.h"

#define ADDRRATE_MAX	4096		/* addresses remembered */
#define ADDRRATE_HOUR	3600000ULL	/* ms */

struct addrrate_entry {
	char		 host[64];
	uint64_t	 tokens;	/* in 1/ADDRRATE_HOUR tokens */
	uint64_t	 last_ms;
};

struct addrrate {
	pthread_mutex_t	 mtx;
	struct addrrate_entry *v;
	size_t		 n;
};

/* Returns an empty table. */
struct addrrate *
addrrate_new(void)
{
	struct addrrate	*r = xcalloc(1, sizeof *r);

	pthread_mutex_init(&r->mtx, NULL);
	return (r);
}

/* Frees a table (NULL is fine). */
void
addrrate_free(struct addrrate *r)
{
	if (r == NULL)
		return;
	pthread_mutex_destroy(&r->mtx);
	free(r->v);
	free(r);
}

/* Refills e's bucket up to now. */
static void
addrrate_refill(struct addrrate_entry *e, unsigned int per_hour,
    uint64_t now)
{
	uint64_t	 cap = (uint64_t)per_hour * ADDRRATE_HOUR;

	if (now > e->last_ms) {
		e->tokens += (now - e->last_ms) * per_hour;
		e->last_ms = now;
	}
	if (e->tokens > cap)
		e->tokens = cap;
}

/* Makes room for one entry (mtx held). */
static void
addrrate_room(struct addrrate *r, unsigned int per_hour, uint64_t now)
{
	size_t	 i, old = 0;

	if (r->n < ADDRRATE_MAX) {
		r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
		return;
	}
	for (i = 0; i < r->n; ) {
		addrrate_refill(&r->v[i], per_hour, now);
		if (r->v[i].tokens == (uint64_t)per_hour * ADDRRATE_HOUR)
			r->v[i] = r->v[--r->n];
		else
			i++;
	}
	if (r->n < ADDRRATE_MAX)
		return;
	for (i = 1; i < r->n; i++)
		if (r->v[i].last_ms < r->v[old].last_ms)
			old = i;
	r->v[old] = r->v[--r->n];
}

/*
 * Takes one token for host at time now_ms (monotonic), at most per_hour
 * an hour.  Returns 1 if allowed; 0 if not, with *retry_s the seconds
 * until the next token.
 */
int
addrrate_take(struct addrrate *r, const char *host, unsigned int per_hour,
    uint64_t now_ms, unsigned int *retry_s)
{
	struct addrrate_entry *e = NULL;
	uint64_t	 need;
	size_t		 i;
	int		 ok;

	if (per_hour == 0)
		return (1);
	pthread_mutex_lock(&r->mtx);
	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].host, host) == 0) {
			e = &r->v[i];
			break;
		}
	if (e == NULL) {
		addrrate_room(r, per_hour, now_ms);
		e = &r->v[r->n++];
		snprintf(e->host, sizeof e->host, "%s", host);
		e->tokens = (uint64_t)per_hour * ADDRRATE_HOUR;
		e->last_ms = now_ms;
	}
	addrrate_refill(e, per_hour, now_ms);
	ok = e->tokens >= ADDRRATE_HOUR;
	if (ok)
		e->tokens -= ADDRRATE_HOUR;
	else {
		need = (ADDRRATE_HOUR - e->tokens + per_hour - 1) / per_hour;
		*retry_s = (unsigned int)((need + 999) / 1000);
	}
	pthread_mutex_unlock(&r->mtx);
	return (ok);
}
