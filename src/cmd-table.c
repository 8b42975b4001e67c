/*
 * cmd-table.c: precomputed tables.  The solver core asks a struct
 * game_tables for cached tables while it builds them; here that cache is
 * the store's tables table (kinds subtraction, graph and wythoff-p; a
 * Wythoff Grundy table is always built, game-wythoff-tab.c says why).  The `table` command lists a table, computing and storing
 * it if absent, and grundyd --precompute fills tables before a start.
 * Store reads are synchronous, so `table` always runs off the event loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-table.h"
#include "log.h"
#include "session.h"

/* Entries listed when no count=N is given. */
#define CMD_TABLE_DEFAULT	20

/* Fetches a table's data from the store (struct game_tables get). */
static int
cmd_table_get(void *ctx, const char *kind, const char *key, struct buf *data)
{
	int	 rv;

	rv = store_table_get(ctx, kind, key, NULL, data);
	if (rv == 1)
		log_info("event=table-load kind=%s key=%.60s%s bytes=%zu",
		    kind, key, strlen(key) > 60 ? "..." : "", data->len);
	return (rv);
}

/* Queues a table for the store (struct game_tables put). */
static void
cmd_table_put(void *ctx, const char *kind, const char *key, const char *meta,
    const void *data, size_t len)
{
	log_info("event=table-save kind=%s key=%.60s%s bytes=%zu", kind, key,
	    strlen(key) > 60 ? "..." : "", len);
	store_table_put(ctx, kind, key, meta, data, len);
}

/* Fills in a table cache backed by store st. */
void
cmd_table_cache(struct game_tables *t, struct store *st)
{
	t->ctx = st;
	t->get = cmd_table_get;
	t->put = cmd_table_put;
}

/*
 * Parses GAME [count=N] from argv: the game's position is optional (and
 * does not matter); a game without one is read with piles or tokens 0.
 * Appends the table to out and returns 0, or the one-line error to errb
 * and returns -1.
 */
int
cmd_table_list(const struct game_limits *lim, int argc, char **argv,
    struct buf *out, struct buf *errb)
{
	static char	 zero[] = "0";
	struct game_error err, err2;
	struct game	 g;
	unsigned long	 count = CMD_TABLE_DEFAULT;
	size_t		 mark;
	char		**av;
	int		 rv = -1;

	if (argc > 0 && strncmp(argv[argc - 1], "count=", 6) == 0) {
		if (game_parse_ulong(&count, argv[argc - 1] + 6, "count", 0,
		    CMD_TABLE_MAX, &err) != 0) {
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

/* Lists the precomputed table of a game: table GAME [count=N]. */
static int
cmd_table_exec(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct buf	 errb;
	int		 rv = CMD_OK;

	buf_init(&errb);
	if (cmd_table_list(&s->conf->lim, c->argc, c->argv, body,
	    &errb) != 0) {
		buf_reset(body);
		buf_puts(body, buf_str(&errb));
		rv = CMD_ERROR;
	}
	buf_free(&errb);
	return (rv);
}

/*
 * Fills the tables of the games specs[0..n-1] ("GAME [count=N]") in store
 * st (NULL: --db off) under the limits of conf, and prints one line for
 * each.
 * Closes st.  Returns the exit status.
 */
int
cmd_table_precompute(const struct conf *conf, struct store *st, char **specs,
    int n)
{
	struct game_tables tables;
	struct game_limits lim;
	struct buf	 out, errb;
	char		*copy, *p, *sp, **av;
	size_t		 lines, j;
	int		 i, ac, rv = 0;

	if (st == NULL) {
		fprintf(stderr, "grundyd: --precompute needs a database, not "
		    "--db off\n");
		return (1);
	}
	cmd_table_cache(&tables, st);
	lim = conf->sc.lim;
	lim.tables = &tables;
	buf_init(&out);
	buf_init(&errb);
	for (i = 0; i < n && rv == 0; i++) {
		copy = xstrdup(specs[i]);
		av = xreallocarray(NULL, strlen(copy) / 2 + 2, sizeof *av);
		ac = 0;
		for (p = strtok_r(copy, " \t", &sp); p != NULL;
		    p = strtok_r(NULL, " \t", &sp))
			av[ac++] = p;
		buf_reset(&out);
		buf_reset(&errb);
		if (cmd_table_list(&lim, ac, av, &out, &errb) != 0) {
			fprintf(stderr, "grundyd: --precompute '%s': %s\n",
			    specs[i], buf_str(&errb));
			rv = 1;
		}
		if (rv == 0) {
			for (lines = 0, j = 0; j < out.len; j++)
				lines += out.data[j] == '\n';
			printf("grundyd: precomputed %s: %zu lines\n",
			    specs[i], lines);
		}
		free(av);
		free(copy);
	}
	buf_free(&out);
	buf_free(&errb);
	store_close(st);
	return (rv);
}

const struct cmd_entry cmd_table_entry = {
	.name = "table",
	.min_args = 1,
	.max_args = -1,
	.flags = CMD_F_HEAVY | CMD_F_DB,
	.usage = "GAME [count=N]",
	.exec = cmd_table_exec
};
