/*
 * game.c: the generic entry points of the solver core.  Each validates what
 * is common to all families and then dispatches to the game's family; none
 * names a family (the registry, game-registry.c, names them all).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/game.h"

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

/*
 * Parses FAMILY [KEY=VALUE ...] POSITION from argv into g, FAMILY one of
 * fams (NULL-terminated); the family's parser sees fams as
 * lim->families, so that a sum can parse its components.
 */
int
game_parse_in(const struct game_family *const *fams, struct game *g,
    int argc, char **argv, const struct game_limits *lim,
    struct game_error *err)
{
	const struct game_family *fam = NULL;
	struct game_limits l = *lim;
	struct buf	 names;
	size_t		 i;

	if (argc < 1)
		return (game_set_error(err, GAME_ESYNTAX,
		    "missing game: expected FAMILY [KEY=VALUE ...] POSITION"));
	for (i = 0; fams[i] != NULL && fam == NULL; i++)
		if (strcmp(fams[i]->name, argv[0]) == 0)
			fam = fams[i];
	if (fam == NULL) {
		buf_init(&names);
		for (i = 0; fams[i] != NULL; i++)
			buf_printf(&names, "%s%s", i ? ", " : "",
			    fams[i]->name);
		game_set_error(err, GAME_ESYNTAX,
		    "unknown game '%.40s' (families: %s)", argv[0],
		    buf_str(&names));
		buf_free(&names);
		return (-1);
	}
	l.families = fams;
	g->fam = fam;
	g->st = NULL;
	if (fam->parse(&g->st, argc - 1, argv + 1, &l, err) != 0) {
		g->fam = NULL;
		return (-1);
	}
	return (0);
}

/* Makes dst an independent copy of src. */
int
game_clone(struct game *dst, const struct game *src)
{
	dst->fam = src->fam;
	dst->st = src->fam->clone != NULL ? src->fam->clone(src->st) :
	    game_layout_clone(src->fam->layout, src->st);
	return (0);
}

/* Frees a game's state. */
void
game_free(struct game *g)
{
	if (g->fam != NULL && g->st != NULL && g->fam->free != NULL)
		g->fam->free(g->st);
	else if (g->fam != NULL && g->st != NULL)
		game_layout_free(g->fam->layout, g->st);
	g->fam = NULL;
	g->st = NULL;
}

/* Appends the canonical text form of g. */
void
game_print(const struct game *g, struct buf *b)
{
	if (g->fam->print != NULL)
		g->fam->print(g->st, b);
	else
		game_layout_print(g->fam, g->st, b);
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
 * Parses a move of g: 1..GAME_MOVE_MAX tokens IDX=VALUE, or COMP.IDX=VALUE
 * when g's family has components.  The move m must be initialised.
 */
int
game_move_parse(const struct game *g, struct game_move *m, int argc,
    char **argv, const struct game_limits *lim, struct game_error *err)
{
	int		 in_sum = (g->fam->flags & GAME_F_COMPONENTS) != 0;
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
		/* The words for an error only when there is one. */
		if (game_parse_word(m->ch[m->n].val, eq + 1, lim) != 0) {
			snprintf(what, sizeof what, "move value for index %zu",
			    idx);
			if (game_parse_num(m->ch[m->n].val, eq + 1, what, lim,
			    err) != 0)
				return (-1);
		}
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

	if (!(g->fam->flags & GAME_F_COMPONENTS))
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

/*
 * game_play, appending the move's text to move and then the position's
 * after it to pos: what a referee logs and sends of a turn.
 */
int
game_play_print(struct game *g, const struct game_move *m, struct buf *move,
    struct buf *pos, struct game_error *err)
{
	int	 rv;

	game_move_print(m, move);
	rv = game_play(g, m, err);
	game_print(g, pos);
	return (rv);
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
	mpz_t	 v;
	int	 out;

	if (g->fam->outcome != NULL)
		return (g->fam->outcome(g->st, err));
	mpz_init(v);
	if (g->fam->grundy(g->st, v, err) != 0)
		out = -1;
	else
		out = mpz_sgn(v) != 0 ? GAME_N : GAME_P;
	mpz_clear(v);
	return (out);
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
	mpz_t	 zero;
	int	 rv;

	if (g->fam->winning != NULL)
		rv = g->fam->winning(g->st, ms, err);
	else {
		mpz_init(zero);
		rv = g->fam->to_grundy(g->st, zero, ms, err);
		mpz_clear(zero);
	}
	if (rv != 0)
		return (-1);
	game_moveset_sort(ms);
	return (0);
}

/* Returns the player to move (1 or 2) in a partizan game, else 0. */
int
game_mover(const struct game *g)
{
	return (g->fam->mover != NULL ? g->fam->mover(g->st) : 0);
}
