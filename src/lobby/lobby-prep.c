/*
 * lobby-prep.c: the work of seek and challenge that grows with the
 * client's input, done on a worker thread before the command runs on the
 * event loop (issue 11).  Parsing a game (a sum of Wythoff games builds
 * Grundy tables) and drawing a random fair start (up to REFEREE_DRAWS parses
 * and outcomes) can take seconds; the lobby lives on the loop, so the
 * server first runs lobby_prepare on a worker, with the session's
 * limits, and the lobby then takes the prepared games instead of parsing
 * and drawing (lobby_prep_take).  Pure: no lobby state, any thread.
 */
#include <sys/random.h>

#include <stdlib.h>
#include <string.h>

#include "lobby/lobby.h"

/*
 * If a is KEY=VALUE with KEY one of keys[0..n), returns KEY's index and
 * sets *val to VALUE (maybe empty); else returns -1.
 */
int
lobby_key(const char *a, const char *const *keys, size_t n, const char **val)
{
	const char	*eq = strchr(a, '=');
	size_t		 i, klen;

	if (eq == NULL)
		return (-1);
	klen = (size_t)(eq - a);
	for (i = 0; i < n; i++)
		if (strlen(keys[i]) == klen && strncmp(keys[i], a, klen) == 0) {
			*val = eq + 1;
			return ((int)i);
		}
	return (-1);
}

/* Returns the lobby_opt of an option of seek or challenge, or -1. */
int
lobby_offer_opt(const char *a, const char **val)
{
	/* In the order of enum lobby_opt. */
	static const char *const keys[] = {
		"tc", "rated", "random", "opponent", "seat"
	};

	return (lobby_key(a, keys, sizeof keys / sizeof keys[0], val));
}

/* Returns 1 if argument a is an option of seek or challenge, not game. */
static int
lobby_prep_option(const char *a)
{
	const char	*v;

	return (lobby_offer_opt(a, &v) >= 0);
}

/* Joins the game tokens of argv into b, one space apart. */
static void
lobby_prep_spec(int argc, char **argv, struct buf *b)
{
	int	 i;

	for (i = 0; i < argc; i++) {
		if (lobby_prep_option(argv[i]))
			continue;
		if (b->len > 0)
			buf_putc(b, ' ');
		buf_puts(b, argv[i]);
	}
}

/* Frees a preparation (NULL is fine); it can be reused. */
void
lobby_prep_clear(struct lobby_prep *p)
{
	if (p == NULL)
		return;
	if (p->tmpl.fam != NULL)
		game_free(&p->tmpl);
	if (p->start.fam != NULL)
		game_free(&p->start);
	buf_free(&p->spec);
	memset(p, 0, sizeof *p);
}

/*
 * Refuses a game of n tokens longer than LOBBY_SPEC_MAX bytes in all:
 * its parse, draws and engine moves run on the loop.  Returns 0, or -1
 * with the reason in err.
 */
int
lobby_spec_fits(int n, char **v, struct buf *err)
{
	size_t	 len;
	int	 i;

	for (len = 0, i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	if (len <= LOBBY_SPEC_MAX)
		return (0);
	buf_printf(err, "game too large for networked play: %zu bytes "
	    "(limit %d)", len, LOBBY_SPEC_MAX);
	return (-1);
}

/*
 * Prepares the game of a seek (skip 0) or challenge (skip 1: the
 * opponent's name) from its arguments: parses it under lim and, with
 * random=1, draws a fair start.  Errors are left for the lobby, which
 * then parses again and reports them the usual way.
 */
void
lobby_prepare(const struct game_limits *lim, int argc, char **argv,
    int skip, struct lobby_prep *p)
{
	struct game_error err;
	gmp_randstate_t	 rs;
	unsigned long	 seed;
	char		**rest;
	int		 i, n = 0, random = 0;

	lobby_prep_clear(p);
	if (argc <= skip)
		return;
	argc -= skip;
	argv += skip;
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "random=1") == 0)
			random = 1;
		else if (strcmp(argv[i], "random=0") == 0)
			random = 0;
		if (!lobby_prep_option(argv[i]))
			rest[n++] = argv[i];
	}
	buf_init(&p->spec);
	lobby_prep_spec(argc, argv, &p->spec);
	if (n == 0 || p->spec.len > LOBBY_SPEC_MAX ||
	    game_parse(&p->tmpl, n, rest, lim, &err) != 0) {
		free(rest);
		lobby_prep_clear(p);
		return;
	}
	free(rest);
	if (random) {
		if (getrandom(&seed, sizeof seed, 0) != sizeof seed)
			seed = (unsigned long)p;
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, seed);
		if (lobby_draw_start(&p->tmpl, rs, lim, &p->start, &err) != 0)
			memset(&p->start, 0, sizeof p->start);
		gmp_randclear(rs);
		p->drawn = 1;	/* even if none was found: do not redo it */
	}
	p->ok = 1;
}

/*
 * Takes the prepared games if p was made for these game tokens: the
 * template into *tmpl and the drawn start (fam NULL when the draws found
 * none) into *start.  Returns 1 if taken, 0 if the caller must parse.
 */
int
lobby_prep_take(struct lobby_prep *p, int n, char **rest, struct game *tmpl,
    struct game *start, int *drawn)
{
	struct buf	 spec;
	int		 same;

	if (p == NULL || !p->ok)
		return (0);
	buf_init(&spec);
	lobby_prep_spec(n, rest, &spec);
	same = strcmp(buf_str(&spec), buf_str(&p->spec)) == 0;
	buf_free(&spec);
	if (!same)
		return (0);
	*tmpl = p->tmpl;
	*start = p->start;
	*drawn = p->drawn;
	memset(&p->tmpl, 0, sizeof p->tmpl);
	memset(&p->start, 0, sizeof p->start);
	lobby_prep_clear(p);
	return (1);
}
