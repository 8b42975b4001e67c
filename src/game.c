/*
 * game.c: the family registry and the generic entry points of the solver
 * core.  Each entry point validates what is common to all families and then
 * dispatches to the family's ops table.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* Every family, in the order `games` lists them. */
const struct game_family *const game_families[] = {
	&game_nim,
	&game_bash,
	&game_wythoff,
	&game_staircase,
	&game_subtraction,
	&game_klnim,
	&game_graph,
	&game_sum,
	NULL
};

/* Fills err and returns -1, so that callers can return its value. */
int
game_set_error(struct game_error *err, enum game_err code, const char *fmt,
    ...)
{
	va_list	 ap;

	if (err == NULL)
		return (-1);
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return (-1);
}

/* Returns the family named name, or NULL. */
const struct game_family *
game_family_find(const char *name)
{
	size_t	 i;

	for (i = 0; game_families[i] != NULL; i++)
		if (strcmp(game_families[i]->name, name) == 0)
			return (game_families[i]);
	return (NULL);
}

/* Fills in the default limits (generous: the CLI and tests use them). */
void
game_limits_default(struct game_limits *lim)
{
	lim->max_digits = 1000000;
	lim->max_piles = 1000000;
	lim->max_components = 64;
	lim->max_nodes = 100000;
	lim->max_edges = 1000000;
	lim->max_set = 64;
	lim->max_set_value = 4096;
	lim->max_table = 1000000;
	lim->max_wythoff = 200;
	lim->max_moves = 10000;
	lim->max_reply = 0;
	lim->tables = NULL;
}

/* Parses FAMILY [KEY=VALUE ...] POSITION from argv into g. */
int
game_parse(struct game *g, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	const struct game_family *fam;
	struct buf	 names;
	size_t		 i;

	if (argc < 1)
		return (game_set_error(err, GAME_ESYNTAX,
		    "missing game: expected FAMILY [KEY=VALUE ...] POSITION"));
	if ((fam = game_family_find(argv[0])) == NULL) {
		buf_init(&names);
		for (i = 0; game_families[i] != NULL; i++)
			buf_printf(&names, "%s%s", i ? ", " : "",
			    game_families[i]->name);
		game_set_error(err, GAME_ESYNTAX,
		    "unknown game '%.40s' (families: %s)", argv[0],
		    buf_str(&names));
		buf_free(&names);
		return (-1);
	}
	g->fam = fam;
	g->st = NULL;
	if (fam->parse(&g->st, argc - 1, argv + 1, lim, err) != 0) {
		g->fam = NULL;
		return (-1);
	}
	return (0);
}

/* Splits a line on blanks into a new argv; returns argc. */
static int
game_split(const char *line, char ***argvp, char **storep)
{
	char	*s, *p, **argv;
	int	 argc = 0, cap = 8;

	s = xstrdup(line);
	argv = xreallocarray(NULL, (size_t)cap, sizeof *argv);
	for (p = s; *p != '\0';) {
		while (isspace((unsigned char)*p))
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (argc == cap) {
			cap *= 2;
			argv = xreallocarray(argv, (size_t)cap, sizeof *argv);
		}
		argv[argc++] = p;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
	}
	*argvp = argv;
	*storep = s;
	return (argc);
}

/* Parses a game written on one line. */
int
game_parse_line(struct game *g, const char *line,
    const struct game_limits *lim, struct game_error *err)
{
	char	**argv, *store;
	int	  argc, rv;

	argc = game_split(line, &argv, &store);
	rv = game_parse(g, argc, argv, lim, err);
	free(argv);
	free(store);
	return (rv);
}

/* Makes dst an independent copy of src. */
int
game_clone(struct game *dst, const struct game *src)
{
	dst->fam = src->fam;
	dst->st = src->fam->clone(src->st);
	return (0);
}

/* Frees a game's state. */
void
game_free(struct game *g)
{
	if (g->fam != NULL && g->st != NULL)
		g->fam->free(g->st);
	g->fam = NULL;
	g->st = NULL;
}

/* Appends the canonical text form of g. */
void
game_print(const struct game *g, struct buf *b)
{
	g->fam->print(g->st, b);
}

/* Parses a small positive index from s (up to end); returns 0 on error. */
static size_t
game_parse_index(const char *s, const char *end)
{
	size_t	 v = 0;

	if (s == end || end - s > 9)
		return (0);
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s))
			return (0);
		v = v * 10 + (size_t)(*s - '0');
	}
	return (v);
}

/*
 * Parses a move: 1..GAME_MOVE_MAX tokens IDX=VALUE, or COMP.IDX=VALUE when
 * in_sum.  The move m must be initialised.
 */
int
game_move_parse(struct game_move *m, int argc, char **argv, int in_sum,
    const struct game_limits *lim, struct game_error *err)
{
	char		 what[64];
	const char	*eq, *dot, *start;
	size_t		 comp, idx;
	int		 a, b;

	m->n = 0;
	if (argc < 1)
		return (game_set_error(err, GAME_ESYNTAX,
		    "missing move: expected INDEX=VALUE"));
	if (argc > GAME_MOVE_MAX)
		return (game_set_error(err, GAME_ESYNTAX,
		    "a move changes at most %d coordinates, got %d tokens",
		    GAME_MOVE_MAX, argc));
	for (a = 0; a < argc; a++) {
		if ((eq = strchr(argv[a], '=')) == NULL)
			return (game_set_error(err, GAME_ESYNTAX,
			    "move token '%.40s': expected %s", argv[a],
			    in_sum ? "COMP.INDEX=VALUE" : "INDEX=VALUE"));
		dot = memchr(argv[a], '.', (size_t)(eq - argv[a]));
		comp = 0;
		start = argv[a];
		if (dot != NULL) {
			if (!in_sum)
				return (game_set_error(err, GAME_ESYNTAX,
				    "move token '%.40s': a COMP. prefix is "
				    "only valid in a sum", argv[a]));
			if ((comp = game_parse_index(argv[a], dot)) == 0)
				return (game_set_error(err, GAME_ESYNTAX,
				    "move token '%.40s': component must be an "
				    "integer from 1", argv[a]));
			start = dot + 1;
		} else if (in_sum)
			return (game_set_error(err, GAME_ESYNTAX,
			    "move token '%.40s': a sum move is written "
			    "COMP.INDEX=VALUE", argv[a]));
		if ((idx = game_parse_index(start, eq)) == 0)
			return (game_set_error(err, GAME_ESYNTAX,
			    "move token '%.40s': index must be an integer "
			    "from 1", argv[a]));
		for (b = 0; b < (int)m->n; b++)
			if (m->ch[b].comp == comp && m->ch[b].idx == idx)
				return (game_set_error(err, GAME_ESYNTAX,
				    "move token '%.40s': index %zu is changed "
				    "twice", argv[a], idx));
		snprintf(what, sizeof what, "move value for index %zu", idx);
		if (game_parse_num(m->ch[m->n].val, eq + 1, what, lim,
		    err) != 0)
			return (-1);
		m->ch[m->n].comp = comp;
		m->ch[m->n].idx = idx;
		m->n++;
	}
	return (0);
}

/* Checks a move against the rules; err says why it is illegal. */
int
game_check(const struct game *g, const struct game_move *m,
    struct game_error *err)
{
	size_t	 i;

	if (g->fam != &game_sum)
		for (i = 0; i < m->n; i++)
			if (m->ch[i].comp != 0)
				return (game_set_error(err, GAME_ESYNTAX,
				    "a COMP. prefix is only valid in a sum"));
	if (g->fam->terminal(g->st))
		return (game_set_error(err, GAME_EILLEGAL,
		    "the game is over: the player to move has no legal move"));
	return (g->fam->check(g->st, m, err));
}

/* Checks and applies a move; on error nothing changes. */
int
game_play(struct game *g, const struct game_move *m, struct game_error *err)
{
	if (game_check(g, m, err) != 0)
		return (-1);
	g->fam->apply(g->st, m);
	return (0);
}

/* Returns 1 if the player to move has no legal move. */
int
game_terminal(const struct game *g)
{
	return (g->fam->terminal(g->st));
}

/* Returns GAME_P or GAME_N for the player to move, or -1. */
int
game_outcome(const struct game *g, struct game_error *err)
{
	return (g->fam->outcome(g->st, err));
}

/* Computes the Grundy value, or fails with GAME_ENOGRUNDY/GAME_EBOUND. */
int
game_grundy(const struct game *g, mpz_t v, struct game_error *err)
{
	return (g->fam->grundy(g->st, v, err));
}

/* Appends every winning move, in canonical order. */
int
game_winning(const struct game *g, struct game_moveset *ms,
    struct game_error *err)
{
	if (g->fam->winning(g->st, ms, err) != 0)
		return (-1);
	game_moveset_sort(ms);
	return (0);
}

/* Returns the player to move (1 or 2) in a partizan game, else 0. */
int
game_mover(const struct game *g)
{
	return (g->fam->mover(g->st));
}
