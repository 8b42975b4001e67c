/*
 * match-sched.c: the schedule of `grundy match` (match.h): which engines
 * play each game, in which seats, from which start.  Game pair k (games
 * 2k and 2k + 1) plays pairing k mod npairings; both its games start
 * from the same position, with the seats swapped.
 */
#include <stdlib.h>

#include "cli/match.h"
#include "solver/referee.h"
#include "stats/swiss.h"

/* The engines (i, j), i < j, of pairing k: the round-robin's (swiss.h). */
void
match_pairing(const struct match *m, size_t k, size_t *a, size_t *b)
{
	*a = 0;
	*b = 1;
	(void)rr_pairing(0, m->neng, 0, k, a, b);
}

/*
 * The engines in seats 1 and 2 of game gi: game pair gi / 2 plays
 * pairing (gi / 2) mod npairings, its first game with the pairing's first
 * engine in seat 1, its second with the seats swapped.
 */
void
match_seats(const struct match *m, size_t gi, size_t *s1, size_t *s2)
{
	size_t	 a, b;

	match_pairing(m, (gi / 2) % m->npairings, &a, &b);
	*s1 = gi % 2 == 0 ? a : b;
	*s2 = gi % 2 == 0 ? b : a;
}

/*
 * The start of game gi: the game, or with --random-starts a fair start
 * drawn from it as the lobby draws one (referee_draw_start), by a
 * generator seeded with the seed and the game pair, so that both games
 * of a pair, and a resumed run, get the same start.  Seeding that
 * generator (GMP's Mersenne Twister) costs a modular power of a
 * 19937-bit number, a quarter of a millisecond: the last pair's start
 * is kept in m->start, so that the pair's second game (and game 0 after
 * match_setup's trial draw) copies it instead of drawing it again.
 */
int
match_start(struct match *m, size_t gi, struct game *out,
    struct game_error *err)
{
	gmp_randstate_t	 rs;
	mpz_t		 seed;
	struct buf	 text;
	int		 rv;

	if (!m->random_starts) {
		buf_init(&text);
		game_print(&m->tmpl, &text);
		rv = game_parse_line(out, buf_str(&text), &m->lim, err);
		buf_free(&text);
		return (rv);
	}
	if (m->start.fam != NULL && m->start_pair == gi / 2)
		return (game_clone(out, &m->start));
	mpz_init_set_ui(seed, (unsigned long)(m->seed >> 32));
	mpz_mul_2exp(seed, seed, 32);
	mpz_add_ui(seed, seed, (unsigned long)(m->seed & 0xffffffffu));
	mpz_mul_2exp(seed, seed, 64);
	mpz_add_ui(seed, seed, (unsigned long)(gi / 2));
	gmp_randinit_default(rs);
	gmp_randseed(rs, seed);
	rv = referee_draw_start(&m->tmpl, rs, &m->lim, out, err);
	if (rv == 0) {
		game_free(&m->start);
		(void)game_clone(&m->start, out);
		m->start_pair = gi / 2;
	}
	gmp_randclear(rs);
	mpz_clear(seed);
	return (rv);
}
