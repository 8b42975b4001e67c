/*
 * test-lobby-rating.c: the lobby's Elo ratings (lobby-rating.c), kept in
 * an array found through a hash index, against an independent replay over
 * plain arrays searched linearly: the same games give the same ratings,
 * for enough players that the index grows several times.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "testutil.h"

#include "lobby.h"
#include "lobby-int.h"

#define NPLAYERS	700
#define NGAMES		20000

/* The reference: one Elo replay with a linear search. */
struct ref {
	char		 name[NPLAYERS][16];
	double		 r[NPLAYERS];
	unsigned long	 games[NPLAYERS];
	size_t		 n;
};

static size_t
ref_get(struct ref *f, const char *name)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->name[i], name) == 0)
			return (i);
	snprintf(f->name[f->n], sizeof f->name[0], "%s", name);
	f->r[f->n] = LOBBY_ELO_START;
	f->games[f->n] = 0;
	return (f->n++);
}

static void
ref_rate(struct ref *f, const char *p1, const char *p2, int winner)
{
	size_t	 a = ref_get(f, p1), b = ref_get(f, p2);
	double	 ea = 1.0 / (1.0 + pow(10.0, (f->r[b] - f->r[a]) / 400.0));
	double	 d = LOBBY_ELO_K * ((winner == 1 ? 1.0 : 0.0) - ea);

	f->r[a] += d;
	f->r[b] -= d;
	f->games[a]++;
	f->games[b]++;
}

static void
nop_send(void *arg, void *conn, const char *s, size_t n)
{
	(void)arg, (void)conn, (void)s, (void)n;
}

static void
test_replay(void **state)
{
	struct lobby_io	 io;
	struct lobby_conf conf;
	struct lobby	*lb;
	struct ref	*f = xcalloc(1, sizeof *f);
	char		 err[256], p1[16], p2[16];
	unsigned long	 seed = 12345, n;
	long		 r;
	size_t		 i;
	int		 a, b;

	(void)state;
	memset(&io, 0, sizeof io);
	io.send = nop_send;
	memset(&conf, 0, sizeof conf);
	conf.lim = *tu_limits();
	if ((lb = lobby_new(NULL, NULL, NULL, &io, &conf, err,
	    sizeof err)) == NULL)
		fail_msg("lobby_new: %s", err);
	for (i = 0; i < NGAMES; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		a = (int)((seed >> 33) % NPLAYERS);
		b = (int)((seed >> 13) % NPLAYERS);
		if (a == b)
			b = (b + 1) % NPLAYERS;
		snprintf(p1, sizeof p1, "p%d", a);
		snprintf(p2, sizeof p2, "p%d", b);
		lobby_rate(lb, p1, p2, (seed >> 7) % 2 ? 1 : 2);
		ref_rate(f, p1, p2, (seed >> 7) % 2 ? 1 : 2);
	}
	assert_int_equal(lb->nratings, f->n);
	for (i = 0; i < f->n; i++) {
		assert_int_equal(lobby_rating(lb, f->name[i], &r, &n), 1);
		assert_int_equal(r, lround(f->r[i]));
		assert_int_equal(n, f->games[i]);
		assert_string_equal(lb->ratings[i].name, f->name[i]);
	}
	assert_int_equal(lobby_rating(lb, "nobody", &r, &n), 0);
	assert_int_equal(r, (long)LOBBY_ELO_START);
	assert_int_equal(n, 0);
	lobby_free(lb);
	free(f);
}

TU_MAIN("lobby-rating",
    cmocka_unit_test(test_replay),
)
