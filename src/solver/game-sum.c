/*
 * game-sum.c: disjunctive sums of impartial games (games.md §7).  A move
 * changes exactly one component; SG = XOR of the components' values, and a
 * move wins iff it takes its component to SG_i ^ X.
 */
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"

/* Sum state: the components. */
struct sum {
	size_t		 n;
	struct game	*comp;
};

/* Frees the state. */
static void
sum_free(void *p)
{
	struct sum	*st = p;
	size_t		 i;

	for (i = 0; i < st->n; i++)
		game_free(&st->comp[i]);
	free(st->comp);
	free(st);
}

/* Parses one component and checks that it can be summed. */
static int
sum_parse_comp(struct game *g, size_t idx, int argc, char **argv,
    const struct game_limits *lim, struct game_error *err)
{
	struct game_error e;

	if (argc == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "sum: component %zu is empty", idx));
	if (strcmp(argv[0], "sum") == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "sum: component %zu: sums do not nest; list the "
		    "components flat", idx));
	if (game_parse_in(lim->families, g, argc, argv, lim, &e) != 0)
		return (game_set_error(err, e.code, "sum: component %zu: %s",
		    idx, e.msg));
	if (g->fam->to_grundy == NULL) {
		game_free(g);
		return (game_set_error(err, GAME_ESYNTAX,
		    "sum: component %zu: %s cannot be a sum component", idx,
		    argv[0]));
	}
	return (0);
}

/*
 * Lets the components share their tables (game_share_tables: 64 Wythoff
 * components of three values of r = ceil(t / K) build three tables, not
 * 64), then checks that every component has a Grundy value.
 */
static int
sum_check_comps(struct sum *st, struct game_error *err)
{
	struct game_error e;
	size_t		 i;
	mpz_t		 v;
	int		 rv = 0;

	game_share_tables(st->comp, st->n);
	mpz_init(v);
	for (i = 0; i < st->n && rv == 0; i++)
		if (game_grundy(&st->comp[i], v, &e) != 0)
			rv = game_set_error(err,
			    e.code == GAME_EBOUND ? GAME_ELIMIT : GAME_ESYNTAX,
			    "sum: component %zu cannot be summed: %s", i + 1,
			    e.msg);
	mpz_clear(v);
	return (rv);
}

/* Parses sum GAME + GAME + ... */
static int
sum_parse(void **stp, int argc, char **argv, const struct game_limits *lim,
    struct game_error *err)
{
	struct sum	*st;
	size_t		 ncomp = 1;
	int		 a, start;

	for (a = 0; a < argc; a++)
		if (strcmp(argv[a], "+") == 0)
			ncomp++;
	if (argc == 0)
		return (game_set_error(err, GAME_ESYNTAX,
		    "sum: missing components: sum GAME + GAME ..."));
	if (ncomp > lim->max_components)
		return (game_set_error(err, GAME_ELIMIT,
		    "sum: %zu components exceeds the limit of %zu", ncomp,
		    lim->max_components));
	st = xcalloc(1, sizeof *st);
	st->comp = xcalloc(ncomp, sizeof *st->comp);
	for (a = start = 0; a <= argc; a++) {
		if (a < argc && strcmp(argv[a], "+") != 0)
			continue;
		if (sum_parse_comp(&st->comp[st->n], st->n + 1, a - start,
		    argv + start, lim, err) != 0) {
			sum_free(st);
			return (-1);
		}
		st->n++;
		start = a + 1;
	}
	if (sum_check_comps(st, err) != 0) {
		sum_free(st);
		return (-1);
	}
	*stp = st;
	return (0);
}

/* Returns a deep copy. */
static void *
sum_clone(const void *p)
{
	const struct sum *st = p;
	struct sum	*c = xcalloc(1, sizeof *c);
	size_t		 i;

	c->n = st->n;
	c->comp = xcalloc(st->n, sizeof *c->comp);
	for (i = 0; i < st->n; i++)
		game_clone(&c->comp[i], &st->comp[i]);
	return (c);
}

/* Prints sum GAME + GAME ... */
static void
sum_print(const void *p, struct buf *b)
{
	const struct sum *st = p;
	size_t		 i;

	buf_puts(b, "sum ");
	for (i = 0; i < st->n; i++) {
		if (i > 0)
			buf_puts(b, " + ");
		game_print(&st->comp[i], b);
	}
}

/* Copies m into out with component tags removed; returns the component. */
static size_t
sum_strip(const struct game_move *m, struct game_move *out)
{
	size_t	 i;

	game_move_copy(out, m);
	for (i = 0; i < out->n; i++)
		out->ch[i].comp = 0;
	return (m->n > 0 ? m->ch[0].comp : 0);
}

/* Checks a move: all changes in one component, legal there. */
static int
sum_check(const void *p, const struct game_move *m, struct game_error *err)
{
	const struct sum *st = p;
	struct game_error e;
	struct game_move s;
	size_t		 c, i;
	int		 rv;

	c = m->ch[0].comp;
	for (i = 1; i < m->n; i++)
		if (m->ch[i].comp != c)
			return (game_set_error(err, GAME_EILLEGAL,
			    "a move changes one component only, this one "
			    "changes %zu and %zu", c, m->ch[i].comp));
	if (c < 1 || c > st->n)
		return (game_set_error(err, GAME_EILLEGAL,
		    "component %zu out of range: the sum has %zu", c, st->n));
	game_move_init(&s);
	sum_strip(m, &s);
	if ((rv = st->comp[c - 1].fam->check(st->comp[c - 1].st, &s, &e)) != 0)
		game_set_error(err, e.code, "component %zu: %s", c, e.msg);
	game_move_clear(&s);
	return (rv);
}

/* Applies a checked move to its component. */
static void
sum_apply(void *p, const struct game_move *m)
{
	struct sum	*st = p;
	struct game_move s;
	size_t		 c;

	game_move_init(&s);
	c = sum_strip(m, &s);
	st->comp[c - 1].fam->apply(st->comp[c - 1].st, &s);
	game_move_clear(&s);
}

/*
 * Sets back to the move that undoes m, by its component's inverse (which
 * copies the component tags); -1 if that component's family has none.
 */
static int
sum_inverse(const void *p, const struct game_move *m,
    struct game_move *back)
{
	const struct sum *st = p;
	const struct game *c = &st->comp[m->ch[0].comp - 1];

	return (game_inverse(c, m, back));
}

/* Returns 1 when every component is over. */
static int
sum_terminal(const void *p)
{
	const struct sum *st = p;
	size_t		 i;

	for (i = 0; i < st->n; i++)
		if (!game_terminal(&st->comp[i]))
			return (0);
	return (1);
}

/* Sets g to the XOR of the components' Grundy values. */
static int
sum_grundy(const void *p, mpz_t g, struct game_error *err)
{
	const struct sum *st = p;
	mpz_t		 v;
	size_t		 i;

	mpz_init(v);
	mpz_set_ui(g, 0);
	for (i = 0; i < st->n; i++) {
		if (game_grundy(&st->comp[i], v, err) != 0) {
			mpz_clear(v);
			return (-1);
		}
		mpz_xor(g, g, v);
	}
	mpz_clear(v);
	return (0);
}

/* Appends every move to Grundy value target: component i to g_i^X^target. */
static int
sum_to_grundy(const void *p, const mpz_t target, struct game_moveset *ms,
    struct game_error *err)
{
	const struct sum *st = p;
	const struct game *c;
	mpz_t		 x, gi;
	size_t		 i, from;
	int		 rv = 0;

	mpz_inits(x, gi, NULL);
	if (sum_grundy(p, x, err) != 0) {
		rv = -1;
		goto out;
	}
	mpz_xor(x, x, target);
	for (i = 0; i < st->n && rv == 0; i++) {
		c = &st->comp[i];
		if ((rv = game_grundy(c, gi, err)) != 0)
			break;
		mpz_xor(gi, gi, x);
		from = ms->n;
		rv = c->fam->to_grundy(c->st, gi, ms, err);
		game_moveset_set_comp(ms, from, i + 1);
	}
out:
	mpz_clears(x, gi, NULL);
	return (rv);
}

/* Appends every component's fallback moves. */
static void
sum_policy(const void *p, struct game_moveset *ms)
{
	const struct sum *st = p;
	size_t		 i, from;

	for (i = 0; i < st->n; i++) {
		from = ms->n;
		st->comp[i].fam->policy(st->comp[i].st, ms);
		game_moveset_set_comp(ms, from, i + 1);
	}
}

const struct game_family game_sum = {
	.name = "sum",
	.flags = GAME_F_HEAVY_PARSE | GAME_F_HEAVY_PLAY | GAME_F_COMPONENTS,
	.usage = "sum GAME + GAME + ...",
	.summary = "disjunctive sum of impartial games: move in one component",
	.parse = sum_parse,
	.clone = sum_clone,
	.free = sum_free,
	.print = sum_print,
	.check = sum_check,
	.apply = sum_apply,
	.inverse = sum_inverse,
	.terminal = sum_terminal,
	.grundy = sum_grundy,
	.to_grundy = sum_to_grundy,
	.policy = sum_policy,
};
