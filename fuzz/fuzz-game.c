/*
 * fuzz-game.c: the game notation and the solver, every family.  The first
 * line is a game (FAMILY [KEY=VALUE ...] POSITION), each further line a
 * move.  Checks that a parsed game prints, reparses and prints the same;
 * that the outcome agrees with the winning moves and the Grundy value; that
 * every listed winning move is legal and leads to a P-position; and that a
 * move is applied only when checked, after which the game still
 * round-trips.  The limits are small so that one input stays fast.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game-limits.h"
#include "solver/game.h"

#define FUZZ_MAX	4096	/* bytes of one input */
#define FUZZ_MOVES	16	/* move lines tried */
#define FUZZ_WINNING	32	/* winning entries played out */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Prints g, reparses the text, and checks that it prints the same. */
static void
fuzz_roundtrip(const struct game *g, const struct game_limits *lim)
{
	struct game_error err;
	struct game	 g2;
	struct buf	 a, b;

	buf_init(&a);
	buf_init(&b);
	game_print(g, &a);
	if (game_parse_line(&g2, buf_str(&a), lim, &err) != 0)
		abort();	/* the canonical form must parse */
	game_print(&g2, &b);
	assert(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	game_free(&g2);
	buf_free(&a);
	buf_free(&b);
}

/* Plays m on a copy of g and checks that the mover is then lost. */
static void
fuzz_wins(const struct game *g, const struct game_move *m)
{
	struct game_error err;
	struct game	 after;

	game_clone(&after, g);
	if (game_play(&after, m, &err) != 0)
		abort();	/* a listed winning move must be legal */
	assert(game_outcome(&after, &err) == GAME_P);
	game_free(&after);
}

/* Checks the analysis of g against its winning moves. */
static void
fuzz_analyse(const struct game *g)
{
	struct game_moveset ms;
	struct game_error err;
	struct game_move m;
	size_t		 i;
	int		 o, wrv, term;
	mpz_t		 v;

	if ((o = game_outcome(g, &err)) < 0)
		return;		/* a bound the game cannot answer within */
	assert(o == GAME_P || o == GAME_N);
	term = game_terminal(g);
	mpz_init(v);
	if (game_grundy(g, v, &err) == 0)
		assert((mpz_sgn(v) == 0) == (o == GAME_P));
	mpz_clear(v);
	game_moveset_init(&ms);
	wrv = game_winning(g, &ms, &err);
	if (wrv != 0) {
		game_moveset_clear(&ms);
		return;		/* over max_moves */
	}
	/* A terminal position (won for the mover in misere) has no move. */
	if (term)
		assert(ms.n == 0);
	else
		assert((ms.n == 0) == (o == GAME_P));
	game_move_init(&m);
	for (i = 0; i < ms.n && i < FUZZ_WINNING; i++) {
		fuzz_wins(g, &ms.v[i].mv);
		if (ms.v[i].ranged) {
			/* Both ends of a range. */
			game_move_copy(&m, &ms.v[i].mv);
			mpz_set(m.ch[0].val, ms.v[i].hi);
			fuzz_wins(g, &m);
		}
	}
	game_move_clear(&m);
	game_moveset_clear(&ms);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct game_limits lim;
	struct game_error err;
	struct game_move m;
	struct game	 g, before;
	struct buf	 b1, b2;
	char		*text, *line, *next, *tok[4], *p;
	int		 ntok, moves = 0;

	if (size > FUZZ_MAX)
		return (0);
	fuzz_limits(&lim);
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if ((next = strchr(text, '\n')) != NULL)
		*next++ = '\0';
	if (game_parse_line(&g, text, &lim, &err) != 0) {
		assert(err.code != GAME_OK && err.msg[0] != '\0');
		free(text);
		return (0);
	}
	fuzz_roundtrip(&g, &lim);
	fuzz_analyse(&g);
	game_move_init(&m);
	buf_init(&b1);
	buf_init(&b2);
	for (line = next; line != NULL && moves < FUZZ_MOVES; line = next,
	    moves++) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		ntok = 0;
		for (p = strtok(line, " "); p != NULL && ntok < 4;
		    p = strtok(NULL, " "))
			tok[ntok++] = p;
		if (game_move_parse(&g, &m, ntok, tok, &lim, &err) != 0)
			continue;
		/* A refused move changes nothing. */
		game_clone(&before, &g);
		buf_reset(&b1);
		buf_reset(&b2);
		if (game_play(&g, &m, &err) != 0) {
			assert(err.code != GAME_OK);
			game_print(&before, &b1);
			game_print(&g, &b2);
			assert(b1.len == b2.len &&
			    memcmp(b1.data, b2.data, b1.len) == 0);
			game_free(&before);
			continue;
		}
		game_free(&before);
		fuzz_roundtrip(&g, &lim);
		fuzz_analyse(&g);
	}
	buf_free(&b1);
	buf_free(&b2);
	game_move_clear(&m);
	game_free(&g);
	free(text);
	return (0);
}
