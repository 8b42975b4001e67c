/*
 * tables.c: the precomputed tables of the games that build one
 * (subtraction, graph, Wythoff): listing one, for the `table` command and
 * grundyd --precompute.  The solver core computes them, through the cache
 * its struct game_tables names (on the store: tables-store.c).
 */
#include <stdlib.h>
#include <string.h>

#include "session/tables.h"

/* Entries listed when no count=N is given. */
#define TABLES_DEFAULT	20

/*
 * Parses GAME [count=N] from argv: the game's position is optional (and
 * does not matter); a game without one is read with piles or tokens 0.
 * Appends the table to out and returns 0, or the one-line error to errb
 * and returns -1.
 */
int
tables_list(const struct game_limits *lim, int argc, char **argv,
    struct buf *out, struct buf *errb)
{
	static char	 zero[] = "0";
	struct game_error err, err2;
	struct game	 g;
	unsigned long	 count = TABLES_DEFAULT;
	size_t		 mark;
	char		**av;
	int		 rv = -1;

	if (argc > 0 && strncmp(argv[argc - 1], "count=", 6) == 0) {
		if (game_parse_ulong(&count, argv[argc - 1] + 6, "count", 0,
		    TABLES_MAX, &err) != 0) {
			buf_puts(errb, err.msg);
			return (-1);
		}
		argc--;
	}
	if (game_parse(&g, argc, argv, lim, &err) != 0) {
		/* Try again with a position: "0 0" for wythoff, else "0". */
		av = xreallocarray(NULL, (size_t)argc + 2, sizeof *av);
		memcpy(av, argv, (size_t)argc * sizeof *av);
		av[argc] = av[argc + 1] = zero;
		if (argc < 1 || game_parse(&g, argc + 1 +
		    (strcmp(argv[0], "wythoff") == 0), av, lim, &err2) != 0) {
			free(av);
			/*
			 * Without a position the first error only says it is
			 * missing; the second is about what was given (a set
			 * over the table cap, say).
			 */
			buf_puts(errb, strstr(err.msg, "missing position") !=
			    NULL && argc >= 1 ? err2.msg : err.msg);
			return (-1);
		}
		free(av);
	}
	mark = out->len;
	if (game_table(&g, count, out, &err) != 0)
		buf_puts(errb, err.msg);
	else if (lim->max_reply > 0 && out->len - mark > lim->max_reply) {
		/* Lines of bounded size (at most ~3 MB): cut after the fact. */
		buf_printf(errb, "%s table: count=%lu takes %zu bytes, over "
		    "the reply limit of %zu bytes (max-reply)", argv[0],
		    count, out->len - mark, lim->max_reply);
		out->len = mark;
		if (out->data != NULL)
			out->data[mark] = '\0';
	} else
		rv = 0;
	game_free(&g);
	return (rv);
}
