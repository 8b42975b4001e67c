/*
 * format.c: analysis text.  Every line is "KEY VALUE" or one move, lines
 * end in '\n'.  The grammar is normative in proto/PROTOCOL.md.
 */
#include "solver/format.h"

/*
 * Appends the analysis of g:
 *   player 1|2        (only for games whose state records the mover)
 *   outcome P|N       (for the player to move)
 *   grundy G          (only where a Grundy value is defined and computable)
 *   winning COUNT     (number of winning moves; ranges count every move,
 *                     or "over-limit" when the set exceeds max_moves)
 */
int
format_analysis(const struct game *g, struct buf *out,
    struct game_error *err)
{
	struct game_moveset ms;
	struct game_error e;
	int	 o, mover, over = 0;
	mpz_t	 v;

	if ((o = game_outcome(g, err)) < 0)
		return (-1);
	game_moveset_init(&ms);
	if (game_winning(g, &ms, &e) != 0) {
		game_moveset_clear(&ms);
		if (e.code != GAME_ELIMIT) {
			*err = e;
			return (-1);
		}
		/* The set is over the cap: say so instead of a count. */
		over = 1;
	}
	if ((mover = game_mover(g)) != 0)
		buf_printf(out, "player %d\n", mover);
	buf_printf(out, "outcome %c\n", o == GAME_N ? 'N' : 'P');
	mpz_init(v);
	if (game_grundy(g, v, &e) == 0) {
		buf_puts(out, "grundy ");
		buf_mpz(out, v);
		buf_putc(out, '\n');
	}
	if (over)
		buf_puts(out, "winning over-limit\n");
	else {
		game_moveset_count(&ms, v);
		buf_puts(out, "winning ");
		buf_mpz(out, v);
		buf_putc(out, '\n');
	}
	mpz_clear(v);
	game_moveset_clear(&ms);
	return (0);
}

/* Appends at most limit entries of ms, one per line (0: no limit). */
void
format_moves(const struct game_moveset *ms, size_t limit, struct buf *out)
{
	size_t	 i;

	for (i = 0; i < ms->n && (limit == 0 || i < limit); i++) {
		game_moveset_ent_print(&ms->v[i], out);
		buf_putc(out, '\n');
	}
}

/* Appends g's winning moves in canonical order, at most limit (0: all). */
int
format_winning(const struct game *g, size_t limit, struct buf *out,
    struct game_error *err)
{
	struct game_moveset ms;
	int	 rv;

	game_moveset_init(&ms);
	if ((rv = game_winning(g, &ms, err)) == 0)
		format_moves(&ms, limit, out);
	game_moveset_clear(&ms);
	return (rv);
}

/* Appends one line per family: its name, usage and summary. */
void
format_games(struct buf *out)
{
	size_t	 i;

	for (i = 0; game_families[i] != NULL; i++)
		buf_printf(out, "%s: %s\n", game_families[i]->usage,
		    game_families[i]->summary);
}
