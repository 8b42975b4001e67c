/*
 * tiebreak.c: the crosstable of a tournament and its standings: points,
 * head-to-head, Sonneborn-Berger and wins, a player with no game last,
 * players equal on every criterion sharing a rank.  Exact integer
 * arithmetic (halves and quarters); pure: no I/O, no globals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/buf.h"
#include "stats/tiebreak.h"

/*
 * Makes an empty crosstable of n players (1 to XTABLE_MAX); -1 and
 * nothing allocated otherwise.
 */
int
xtable_init(struct xtable *x, size_t n)
{
	if (n == 0 || n > XTABLE_MAX)
		return (-1);
	x->n = n;
	x->cell = xcalloc(n * n, sizeof *x->cell);
	x->player = xcalloc(n, sizeof *x->player);
	return (0);
}

/* Frees a crosstable. */
void
xtable_free(struct xtable *x)
{
	free(x->cell);
	free(x->player);
	x->cell = NULL;
	x->player = NULL;
	x->n = 0;
}

/*
 * Records a game between a and b with a's result.  -1 and nothing
 * changed if a or b is out of range or a is b.
 */
int
xtable_add(struct xtable *x, size_t a, size_t b, enum xtable_res r)
{
	struct xtable_cell	*ab, *ba;
	struct xtable_player	*pa, *pb;

	if (a >= x->n || b >= x->n || a == b || (r != XTABLE_LOSS &&
	    r != XTABLE_DRAW && r != XTABLE_WIN))
		return (-1);
	ab = &x->cell[a * x->n + b];
	ba = &x->cell[b * x->n + a];
	pa = &x->player[a];
	pb = &x->player[b];
	ab->games++;
	ba->games++;
	ab->half += (uint32_t)r;
	ba->half += 2 - (uint32_t)r;
	pa->games++;
	pb->games++;
	pa->half += (uint32_t)r;
	pb->half += 2 - (uint32_t)r;
	if (r == XTABLE_WIN) {
		pa->wins++;
		pb->losses++;
	} else if (r == XTABLE_LOSS) {
		pa->losses++;
		pb->wins++;
	} else {
		pa->draws++;
		pb->draws++;
	}
	return (0);
}

/*
 * Records a bye worth half halves (0 to 2) for a: it counts in a's
 * points, not as a game.  -1 and nothing changed on a bad argument.
 */
int
xtable_bye(struct xtable *x, size_t a, unsigned half)
{
	if (a >= x->n || half > 2)
		return (-1);
	x->player[a].byes++;
	x->player[a].half += half;
	return (0);
}

/* Returns i's record against j. */
const struct xtable_cell *
xtable_get(const struct xtable *x, size_t i, size_t j)
{
	return (&x->cell[i * x->n + j]);
}

/* Tells whether i and j have played each other. */
static int
xtable_met(const struct xtable *x, size_t i, size_t j)
{
	return (x->cell[i * x->n + j].games > 0);
}

/* Orders standings: played before not, points, head-to-head, SB, wins,
 * then the player's index. */
static int
standing_cmp(const void *va, const void *vb)
{
	const struct standing	*a = va, *b = vb;

	if ((a->games == 0) != (b->games == 0))
		return (a->games == 0 ? 1 : -1);
	if (a->half != b->half)
		return (a->half > b->half ? -1 : 1);
	if (a->h2h != b->h2h)
		return (a->h2h > b->h2h ? -1 : 1);
	if (a->sb != b->sb)
		return (a->sb > b->sb ? -1 : 1);
	if (a->wins != b->wins)
		return (a->wins > b->wins ? -1 : 1);
	return (a->player < b->player ? -1 : a->player > b->player);
}

/* Tells whether two standings are level on points (and on having
 * played). */
static int
level(const struct standing *a, const struct standing *b)
{
	return ((a->games == 0) == (b->games == 0) && a->half == b->half);
}

/*
 * Fills h2h for the group s[lo..hi) of players level on points: each
 * one's points against the others of the group, if every pair of the
 * group has met; otherwise (or alone, or without a game) -1.
 */
static void
group_h2h(const struct xtable *x, struct standing *s, size_t lo, size_t hi)
{
	size_t	 i, j;
	int	 all = hi - lo >= 2 && s[lo].games > 0;

	for (i = lo; all && i < hi; i++)
		for (j = i + 1; all && j < hi; j++)
			all = xtable_met(x, s[i].player, s[j].player);
	for (i = lo; i < hi; i++) {
		s[i].h2h = all ? 0 : -1;
		for (j = lo; all && j < hi; j++)
			s[i].h2h += xtable_get(x, s[i].player,
			    s[j].player)->half;
	}
}

/*
 * Fills s[0..n) with the standings of the crosstable, best first (see
 * tiebreak.h for the order and the ranks).
 */
void
tiebreak_standings(const struct xtable *x, struct standing *s)
{
	size_t	 i, j, n = x->n;

	for (i = 0; i < n; i++) {
		s[i].player = i;
		s[i].half = x->player[i].half;
		s[i].games = x->player[i].games;
		s[i].wins = x->player[i].wins;
		s[i].h2h = -1;
		s[i].sb = 0;
		for (j = 0; j < n; j++)
			s[i].sb += (uint64_t)xtable_get(x, i, j)->half *
			    x->player[j].half;
	}
	qsort(s, n, sizeof *s, standing_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && level(&s[i], &s[j]); j++)
			continue;
		group_h2h(x, s, i, j);
	}
	qsort(s, n, sizeof *s, standing_cmp);
	for (i = 0; i < n; i++) {
		s[i].rank = s[i].score_rank = (unsigned)i + 1;
		if (i == 0)
			continue;
		if (level(&s[i - 1], &s[i]))
			s[i].score_rank = s[i - 1].score_rank;
		if (level(&s[i - 1], &s[i]) && s[i - 1].h2h == s[i].h2h &&
		    s[i - 1].sb == s[i].sb && s[i - 1].wins == s[i].wins)
			s[i].rank = s[i - 1].rank;
	}
}
