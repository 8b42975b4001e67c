/*
 * lobby-prep.c: the work of seek and challenge that grows with the
 * client's input, done on a worker thread before the command runs on the
 * event loop (issue 11).  Parsing a game (a sum of Wythoff games builds
 * Grundy tables) and drawing a random fair start (up to LOBBY_DRAWS parses
 * and outcomes) can take seconds; the lobby lives on the loop, so the
 * server first runs lobby_prepare on a worker, with the session's
 * limits, and the lobby then takes the prepared games instead of parsing
 * and drawing (lobby_prep_take).  Pure: no lobby state, any thread.
 */
#include <sys/random.h>

#include <stdlib.h>
#include <string.h>

#include "lobby.h"

/* Returns 1 if argument a is an option of seek or challenge, not game. */
static int
lobby_prep_option(const char *a)
{
	return (strncmp(a, "tc=", 3) == 0 || strncmp(a, "rated=", 6) == 0 ||
	    strncmp(a, "random=", 7) == 0 ||
	    strncmp(a, "opponent=", 9) == 0 || strncmp(a, "seat=", 5) == 0);
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
