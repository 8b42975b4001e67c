/*
 * referee.c: the referee's pure part (referee.h), used by the daemon's
 * live games, a session's engine matches, `grundy match` and `grundy
 * verify`, so that all judge moves, marks, clocks and ends the same way.
 * No I/O, no globals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/engine.h"
#include "solver/referee.h"
#include "lib/json.h"
#include "lib/util.h"

/*
 * Parses and checks an answer as a move of the player to move under lim;
 * bad says why an answer that breaks the protocol is no move (several
 * lines, too long; NULL if none).  Returns 0, or -1 with err.
 */
int
referee_parse_move(const struct game *g, const char *text, const char *bad,
    const struct game_limits *lim, struct game_move *m,
    struct game_error *err)
{
	char		*copy, *argv[GAME_MOVE_MAX + 1], *tok, *save;
	int		 argc = 0, rv = 0;

	copy = xstrdup(text);
	for (tok = strtok_r(copy, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		if (argc == GAME_MOVE_MAX + 1)
			break;
		argv[argc++] = tok;
	}
	if (argc == 0)
		game_set_error(err, GAME_ESYNTAX, "empty move");
	if (bad != NULL)
		game_set_error(err, GAME_ESYNTAX, "%s", bad);
	if (bad != NULL || argc == 0 || argc > GAME_MOVE_MAX ||
	    game_move_parse(g, m, argc, argv, lim, err) != 0 ||
	    game_check(g, m, err) != 0) {
		if (argc > GAME_MOVE_MAX && bad == NULL)
			game_set_error(err, GAME_ESYNTAX, "too many tokens");
		rv = -1;
	}
	free(copy);
	return (rv);
}

/*
 * Returns the mark of a legal move: kept, threw or had no win (the
 * position after it is asked without a copy, game_outcome_after).
 */
enum referee_mark
referee_mark(struct game *g, const struct game_move *m)
{
	struct game_error err;
	enum referee_mark mark = REFEREE_NO_WIN;

	if (game_outcome(g, &err) == GAME_N)
		mark = game_outcome_after(g, m, &err) == GAME_P ?
		    REFEREE_KEPT_WIN : REFEREE_THREW_WIN;
	return (mark);
}

/*
 * Chooses the engine's move for the player to move into m (initialised;
 * rs NULL: deterministic) with its mark: the engine keeps every win it
 * has, so the mark is referee_mark's without asking the position after.
 * scratch, if not NULL, is the caller's move set kept between plies
 * (engine_choose_in).  Returns 0, or -1 with err.
 */
int
referee_engine_move(const struct game *g, gmp_randstate_t rs,
    struct game_moveset *scratch, struct game_move *m,
    enum referee_mark *mark, struct game_error *err)
{
	enum engine_why	 why;

	if ((scratch != NULL ? engine_choose_in(g, rs, scratch, m, &why, err) :
	    engine_choose(g, rs, m, &why, err)) != 0)
		return (-1);
	*mark = why == ENGINE_WIN ? REFEREE_KEPT_WIN : REFEREE_NO_WIN;
	return (0);
}

/*
 * Returns a clock after a move (µs): the clock before, less the time
 * used (never below 0), plus the increment (inc_ms).
 */
uint64_t
referee_clock_after(uint64_t before_us, uint64_t used_us, uint64_t inc_ms)
{
	return ((used_us >= before_us ? 0 : before_us - used_us) +
	    inc_ms * 1000);
}

/*
 * Returns 1 if the game is over because the player to move (seat
 * to_move, 1 or 2) has no move, with the winning seat and the reason:
 * the mover loses, except in misere (outcome N).  Returns 0 otherwise.
 */
int
referee_over(const struct game *g, int to_move, int *winner,
    const char **reason)
{
	struct game_error err;

	if (!game_terminal(g))
		return (0);
	if (game_outcome(g, &err) == GAME_N) {
		*winner = to_move;
		*reason = "last-token-taken";
	} else {
		*winner = 3 - to_move;
		*reason = "no-legal-move";
	}
	return (1);
}

/*
 * If a game that is not over has reached one of its bounds (b), ends it
 * by the solver: *winner is the side that wins the position under
 * perfect play (the player to move if it is an N-position, else the
 * other), or 0 if the solver cannot judge it; *reason is "ply-limit" or
 * "byte-limit" and detail (REFEREE_DETAIL_MAX bytes) "max-plies N" or
 * "max-game-bytes B", the bound reached.  Returns 1 then, else 0.
 */
int
referee_bounded(const struct game *g, int to_move,
    const struct referee_bound *b, int *winner, const char **reason,
    char *detail)
{
	struct game_error err;
	int		 out;

	if (b->max_plies > 0 && b->plies >= b->max_plies) {
		*reason = "ply-limit";
		snprintf(detail, REFEREE_DETAIL_MAX, "max-plies %lu",
		    b->max_plies);
	} else if (b->max_bytes > 0 && b->bytes >= b->max_bytes) {
		*reason = "byte-limit";
		snprintf(detail, REFEREE_DETAIL_MAX, "max-game-bytes %llu",
		    (unsigned long long)b->max_bytes);
	} else
		return (0);
	out = game_outcome(g, &err);
	*winner = out < 0 ? 0 : out == GAME_N ? to_move : 3 - to_move;
	return (1);
}

/*
 * Copies what is kept of a refused text, its first REFEREE_QUOTE_MAX
 * bytes, into cut (REFEREE_QUOTE_MAX + 1 bytes).
 */
void
referee_cut(char *cut, const char *text)
{
	snprintf(cut, REFEREE_QUOTE_MAX + 1, "%.*s", REFEREE_QUOTE_MAX, text);
}

/*
 * Appends the detail of an illegal-move end: the move (what referee_cut
 * keeps of it) as a JSON string, and why.
 */
void
referee_illegal_detail(struct buf *b, const char *text, const char *why)
{
	char	 cut[REFEREE_QUOTE_MAX + 1];

	referee_cut(cut, text);
	json_quote(b, cut);
	buf_printf(b, " %s", why);
}

/* Returns 1 if s is a non-empty string of decimal digits. */
static int
referee_isnum(const char *s)
{
	return (*s != '\0' && s[strspn(s, "0123456789")] == '\0');
}

/*
 * Draws a fair random start from a template: every number of the position
 * is an upper bound and is replaced by a uniform draw from 0..bound, until
 * the result is an N-position that is not over.  Returns 0, or -1 with err.
 */
int
referee_draw_start(const struct game *tmpl, gmp_randstate_t rs,
    const struct game_limits *lim, struct game *out, struct game_error *err)
{
	struct buf	 text, drawn;
	char		*tok, *save, *copy;
	mpz_t		 n;
	int		 i, rv = -1;

	buf_init(&text);
	buf_init(&drawn);
	mpz_init(n);
	game_print(tmpl, &text);
	for (i = 0; i < REFEREE_DRAWS && rv != 0; i++) {
		buf_reset(&drawn);
		copy = xstrdup(buf_str(&text));
		for (tok = strtok_r(copy, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save)) {
			if (drawn.len > 0)
				buf_putc(&drawn, ' ');
			if (!referee_isnum(tok)) {
				buf_puts(&drawn, tok);
				continue;
			}
			mpz_set_str(n, tok, 10);
			mpz_add_ui(n, n, 1);
			mpz_urandomm(n, rs, n);
			buf_mpz(&drawn, n);
		}
		free(copy);
		if (game_parse_line(out, buf_str(&drawn), lim, err) != 0)
			break;
		if (!game_terminal(out) && game_outcome(out, err) == GAME_N)
			rv = 0;
		else
			game_free(out);
	}
	if (rv != 0 && i == REFEREE_DRAWS)
		game_set_error(err, GAME_ELIMIT, "no fair start (an "
		    "N-position) in %d draws from %s", REFEREE_DRAWS,
		    buf_str(&text));
	mpz_clear(n);
	buf_free(&text);
	buf_free(&drawn);
	return (rv);
}
