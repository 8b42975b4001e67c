/*
 * game-registry.c: every family of the solver core, and parsing a game by
 * its family's name.  The registry depends on the families, never the
 * reverse: a sum parses its components through lim->families.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"

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

/* Parses FAMILY [KEY=VALUE ...] POSITION from argv into g. */
int
game_parse(struct game *g, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	return (game_parse_in(game_families, g, argc, argv, lim, err));
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
