/*
 * tiebreak.c: the crosstable of a tournament and its standings by points
 * and a list of FIDE tie-breaks (tiebreak.h; doc/STATS.md), a player who
 * never took part last, players equal on every criterion sharing a rank.
 * Exact integer arithmetic (halves and quarters); pure: no I/O, no
 * globals.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "stats/tiebreak.h"

#define TB_X_NAME(id, name)	[id] = name,
static const char *const tb_names[TB_NKINDS] = { TB_KINDS(TB_X_NAME) };

/*
 * Makes an empty crosstable of n players (1 to XTABLE_MAX); -1 and
 * nothing allocated otherwise.
 */
int
xtable_init(struct xtable *x, size_t n)
{
	if (n == 0 || n > XTABLE_MAX)
		return (-1);
	memset(x, 0, sizeof *x);
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
	free(x->vurs);
	memset(x, 0, sizeof *x);
}

/* Notes a unit of p in round r: VUR or not (for 16.3's trail). */
static void
xtable_note(struct xtable *x, size_t p, unsigned int r, int vur)
{
	if (!vur) {
		if (r > x->player[p].last)
			x->player[p].last = r;
		return;
	}
	if ((x->nvurs & (x->nvurs - 1)) == 0)	/* 0, 1, 2, 4, ...: double */
		x->vurs = xreallocarray(x->vurs, x->nvurs == 0 ? 1 :
		    2 * x->nvurs, sizeof *x->vurs);
	x->vurs[x->nvurs].player = p;
	x->vurs[x->nvurs++].round = r;
	x->player[p].vur++;
}

/*
 * Records a game played in round r (1-based, or any order key) between
 * a, who moved first, and b, with a's result.  -1 and nothing changed if
 * a or b is out of range or a is b.
 */
int
xtable_add(struct xtable *x, size_t a, size_t b, enum xtable_res r,
    unsigned int round)
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
	pb->second++;
	pa->half += (uint32_t)r;
	pb->half += 2 - (uint32_t)r;
	if (r == XTABLE_WIN) {
		pa->wins++;
		pb->losses++;
	} else if (r == XTABLE_LOSS) {
		pa->losses++;
		pb->wins++;
		pb->second_wins++;
	} else {
		pa->draws++;
		pb->draws++;
	}
	xtable_note(x, a, round, 0);
	xtable_note(x, b, round, 0);
	return (0);
}

/*
 * Records an unplayed unit of p in round r worth half halves (0 to 2);
 * vur: voluntarily unplayed (a forfeit lost, a round absent).  -1 and
 * nothing changed on a bad argument.
 */
int
xtable_unit(struct xtable *x, size_t p, unsigned int r, unsigned int half,
    int vur)
{
	struct xtable_player	*q;

	if (p >= x->n || half > 2)
		return (-1);
	q = &x->player[p];
	q->unplayed++;
	q->uhalf += half;
	q->uwins += half == 2;
	q->half += half;
	xtable_note(x, p, r, vur);
	return (0);
}

/* A forfeit in round r: winner scores a win without playing, loser (a
 * VUR) nothing.  -1 and nothing changed on a bad argument. */
int
xtable_forfeit(struct xtable *x, size_t winner, size_t loser, unsigned int r)
{
	if (winner >= x->n || loser >= x->n || winner == loser)
		return (-1);
	(void)xtable_unit(x, winner, r, 2, 0);
	(void)xtable_unit(x, loser, r, 0, 1);
	x->player[winner].fwins++;
	x->player[loser].flosses++;
	return (0);
}

/* A bye of p in round r worth half halves (a pairing's bye: not a VUR). */
int
xtable_bye(struct xtable *x, size_t p, unsigned int r, unsigned int half)
{
	if (xtable_unit(x, p, r, half, 0) != 0)
		return (-1);
	x->player[p].byes++;
	return (0);
}

/* Returns i's record against j. */
const struct xtable_cell *
xtable_get(const struct xtable *x, size_t i, size_t j)
{
	return (&x->cell[i * x->n + j]);
}

/* A tie-break's name ("bh-c1"). */
const char *
tb_name(enum tb_kind k)
{
	return ((unsigned)k < TB_NKINDS ? tb_names[k] : "?");
}

/* What a tie-break's value counts: 1 (a number), 2 (halves: points) or
 * 4 (quarters: Sonneborn-Berger). */
unsigned int
tb_unit(enum tb_kind k)
{
	return (k == TB_SB ? 4 : k == TB_DE || k == TB_BH || k == TB_BHC1 ?
	    2 : 1);
}

/*
 * Parses a list "de,sb,win" (1 to TB_MAX names, none twice) into l.
 * Returns 0, or -1 with the reason in err.
 */
int
tb_list_parse(const char *s, struct tb_list *l, char *err, size_t errlen)
{
	const char	*p = s, *e;
	size_t		 len;
	unsigned int	 i, k;

	memset(l, 0, sizeof *l);
	for (;;) {
		e = strchr(p, ',');
		len = e != NULL ? (size_t)(e - p) : strlen(p);
		for (k = 0; k < TB_NKINDS; k++)
			if (strlen(tb_names[k]) == len &&
			    strncmp(tb_names[k], p, len) == 0)
				break;
		if (k == TB_NKINDS) {
			snprintf(err, errlen, "unknown tie-break %.*s: expected "
			    "a list of de, bh, bh-c1, sb, win, won, bpg, bwg",
			    (int)(len > 16 ? 16 : len), p);
			return (-1);
		}
		for (i = 0; i < l->n; i++)
			if (l->k[i] == (enum tb_kind)k) {
				snprintf(err, errlen, "tie-break %s given "
				    "twice", tb_names[k]);
				return (-1);
			}
		l->k[l->n++] = (enum tb_kind)k;
		if (e == NULL)
			return (0);
		p = e + 1;
	}
}

/* Writes a list as tb_list_parse reads it ("de,sb,win"). */
void
tb_list_text(const struct tb_list *l, char *out, size_t len)
{
	size_t		 o = 0;
	unsigned int	 i;

	out[0] = '\0';
	for (i = 0; i < l->n && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? "," : "",
		    tb_name(l->k[i]));
}

/*
 * The default list (doc/STATS.md): a Swiss tournament's bh-c1, bh, de,
 * sb, win; every other format's (and a set of games outside
 * tournaments) de, sb, win, the order before issue 26 made FIDE's.
 */
void
tb_list_default(int swiss, struct tb_list *l)
{
	static const enum tb_kind sw[] = { TB_BHC1, TB_BH, TB_DE, TB_SB,
	    TB_WIN };
	static const enum tb_kind rr[] = { TB_DE, TB_SB, TB_WIN };
	const enum tb_kind *v = swiss ? sw : rr;
	unsigned int	 i;

	memset(l, 0, sizeof *l);
	l->n = swiss ? 5 : 3;
	for (i = 0; i < l->n; i++)
		l->k[i] = v[i];
}

/*
 * The points of each player as its opponents' tie-breaks count them
 * (16.3), in halves: its points, and a draw for each VUR unit after its
 * last unit of another kind.
 */
static void
adjusted_points(const struct xtable *x, uint64_t *adj)
{
	size_t	 i;

	for (i = 0; i < x->n; i++)
		adj[i] = x->player[i].half;
	for (i = 0; i < x->nvurs; i++)
		if (x->vurs[i].round > x->player[x->vurs[i].player].last)
			adj[x->vurs[i].player]++;
}

/*
 * Buchholz of p in halves (cut: cut-1): each game's opponent's adjusted
 * points, each unplayed unit p's own points (the dummy opponent).  Cut-1
 * takes out a VUR's contribution if p has one, else the least.
 */
static int64_t
buchholz(const struct xtable *x, const uint64_t *adj, size_t p, int cut)
{
	const struct xtable_player *q = &x->player[p];
	uint64_t	 sum = 0, least = UINT64_MAX;
	size_t		 j;

	for (j = 0; j < x->n; j++)
		if (x->cell[p * x->n + j].games > 0) {
			sum += x->cell[p * x->n + j].games * adj[j];
			if (adj[j] < least)
				least = adj[j];
		}
	sum += (uint64_t)q->unplayed * q->half;
	if (q->unplayed > 0 && q->half < least)
		least = q->half;
	if (!cut || (q->games == 0 && q->unplayed == 0))
		return ((int64_t)sum);
	return ((int64_t)(sum - (q->vur > 0 ? q->half : least)));
}

/*
 * Sonneborn-Berger of p in quarters: each game's points times the
 * opponent's adjusted points, each unplayed unit's points times p's own.
 */
static int64_t
sonneborn(const struct xtable *x, const uint64_t *adj, size_t p)
{
	uint64_t	 sum = 0;
	size_t		 j;

	for (j = 0; j < x->n; j++)
		sum += (uint64_t)x->cell[p * x->n + j].half * adj[j];
	return ((int64_t)(sum + (uint64_t)x->player[p].uhalf *
	    x->player[p].half));
}

/* Tie-break k of player p (DE excepted: it depends on the group). */
static int64_t
tb_of(const struct xtable *x, const uint64_t *adj, size_t p, enum tb_kind k)
{
	const struct xtable_player *q = &x->player[p];

	switch (k) {
	case TB_BH:
		return (buchholz(x, adj, p, 0));
	case TB_BHC1:
		return (buchholz(x, adj, p, 1));
	case TB_SB:
		return (sonneborn(x, adj, p));
	case TB_WIN:
		return (q->wins + q->uwins);
	case TB_WON:
		return (q->wins);
	case TB_BPG:
		return (q->second);
	case TB_BWG:
		return (q->second_wins);
	default:
		return (-1);
	}
}

/* Tie-break k of player p alone (DE: -1), for a check or a caller. */
int64_t
tiebreak_value(const struct xtable *x, size_t p, enum tb_kind k)
{
	uint64_t	*adj;
	int64_t		 v;

	adj = xcalloc(x->n, sizeof *adj);
	adjusted_points(x, adj);
	v = tb_of(x, adj, p, k);
	free(adj);
	return (v);
}

/* The ranking's state: the standings by player, the list, the last key. */
struct tb_ctx {
	const struct xtable	*x;
	const struct tb_list	*l;
	struct standing		*byp;	/* by player index */
	const size_t		*key;	/* the last resort's order, or NULL */
	unsigned int		 level;	/* the tie-break sorted on */
	size_t			 leaves;
};

/* Took part: a game, or an unplayed unit it did not choose (a bye, a
 * forfeit won). */
static int
took_part(const struct xtable *x, size_t p)
{
	const struct xtable_player *q = &x->player[p];

	return (q->games + q->unplayed - q->vur > 0);
}

/* Orders player indices by the tie-break at c->level, best first, then
 * by the last resort's key. */
static int
tb_cmp(const void *va, const void *vb, void *arg)
{
	const struct tb_ctx *c = arg;
	size_t		 a = *(const size_t *)va, b = *(const size_t *)vb;
	int64_t		 x = c->byp[a].tb[c->level], y = c->byp[b].tb[c->level];

	if (x != y)
		return (x > y ? -1 : 1);
	if (c->key != NULL && c->key[a] != c->key[b])
		return (c->key[a] < c->key[b] ? -1 : 1);
	return (a < b ? -1 : a > b);
}

/* Orders player indices by the last resort's key alone. */
static int
key_cmp(const void *va, const void *vb, void *arg)
{
	const struct tb_ctx *c = arg;
	size_t		 a = *(const size_t *)va, b = *(const size_t *)vb;

	if (c->key != NULL && c->key[a] != c->key[b])
		return (c->key[a] < c->key[b] ? -1 : 1);
	return (a < b ? -1 : a > b);
}

/*
 * Direct encounter within the group v[0..n): each one's points in games
 * against the others, if every two of them have played each other; else
 * (or with no game) -1 for all, and DE does not separate them.
 */
static void
group_de(struct tb_ctx *c, const size_t *v, size_t n)
{
	const struct xtable *x = c->x;
	size_t		 i, j;
	int		 all = 1;

	for (i = 0; i < n && all; i++)
		for (j = i + 1; j < n && all; j++)
			all = xtable_get(x, v[i], v[j])->games > 0;
	for (i = 0; i < n; i++) {
		c->byp[v[i]].tb[c->level] = all ? 0 : -1;
		for (j = 0; all && j < n; j++)
			if (j != i)
				c->byp[v[i]].tb[c->level] +=
				    xtable_get(x, v[i], v[j])->half;
	}
}

/*
 * Ranks the group v[0..n), tied so far, from tie-break level on (C.07
 * 4.2): sorted on it, each run still equal ranked on the next one.  DE
 * is computed within the group, and a run it leaves tied, smaller than
 * the group, gets DE again among its own players (6.3) before the next
 * tie-break.  A run tied on everything is a leaf: its players share a
 * rank, in the last resort's order.
 */
static void
refine(struct tb_ctx *c, size_t *v, size_t n, unsigned int level)
{
	size_t		 i, j, leaf;
	unsigned int	 next;

	if (n <= 1 || level >= c->l->n) {
		leaf = c->leaves++;
		for (i = 0; i < n; i++)
			c->byp[v[i]].leaf = leaf;
		qsort_r(v, n, sizeof *v, key_cmp, c);
		return;
	}
	if (c->l->k[level] == TB_DE) {
		c->level = level;
		group_de(c, v, n);
	}
	c->level = level;
	qsort_r(v, n, sizeof *v, tb_cmp, c);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && c->byp[v[j]].tb[level] ==
		    c->byp[v[i]].tb[level]; j++)
			continue;
		next = level + 1;
		if (c->l->k[level] == TB_DE && j - i < n && j - i > 1 &&
		    c->byp[v[i]].tb[level] >= 0)
			next = level;	/* DE again, within the run */
		refine(c, v + i, j - i, next);
	}
}

/* Orders player indices: took part first, then points, then the key. */
static int
points_cmp(const void *va, const void *vb, void *arg)
{
	const struct tb_ctx *c = arg;
	size_t		 a = *(const size_t *)va, b = *(const size_t *)vb;
	int		 pa = took_part(c->x, a), pb = took_part(c->x, b);

	if (pa != pb)
		return (pa ? -1 : 1);
	if (c->byp[a].half != c->byp[b].half)
		return (c->byp[a].half > c->byp[b].half ? -1 : 1);
	return (key_cmp(va, vb, arg));
}

/*
 * Fills s[0..n) with the standings of the crosstable by list l, best
 * first: points, then l's tie-breaks in turn within each group still
 * tied (refine); players tied on everything share a rank and are listed
 * in the order of key (key[i]: player i's place, e.g. by name; NULL: by
 * index), the one order of every rendering.  A player who never took
 * part is last.
 */
void
tiebreak_standings(const struct xtable *x, const struct tb_list *l,
    const size_t *key, struct standing *s)
{
	struct tb_ctx	 c;
	uint64_t	*adj;
	size_t		*v, i, j, n = x->n;
	unsigned int	 k;

	adj = xcalloc(n, sizeof *adj);
	v = xcalloc(n, sizeof *v);
	adjusted_points(x, adj);
	memset(&c, 0, sizeof c);
	c.x = x;
	c.l = l;
	c.key = key;
	c.byp = xcalloc(n, sizeof *c.byp);
	for (i = 0; i < n; i++) {
		v[i] = i;
		c.byp[i].player = i;
		c.byp[i].half = x->player[i].half;
		for (k = 0; k < TB_MAX; k++)
			c.byp[i].tb[k] = k < l->n ? tb_of(x, adj, i,
			    l->k[k]) : -1;
	}
	qsort_r(v, n, sizeof *v, points_cmp, &c);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && took_part(x, v[j]) ==
		    took_part(x, v[i]) && x->player[v[j]].half ==
		    x->player[v[i]].half; j++)
			continue;
		refine(&c, v + i, j - i, 0);
	}
	for (i = 0; i < n; i++) {
		s[i] = c.byp[v[i]];
		s[i].rank = s[i].score_rank = (unsigned)i + 1;
		if (i == 0)
			continue;
		if (s[i].half == s[i - 1].half &&
		    took_part(x, v[i]) == took_part(x, v[i - 1]))
			s[i].score_rank = s[i - 1].score_rank;
		if (s[i].leaf == s[i - 1].leaf)
			s[i].rank = s[i - 1].rank;
	}
	free(c.byp);
	free(v);
	free(adj);
}
