/*
 * game-wythoff.h: what the Wythoff family's two files share: game-wythoff.c
 * (the family: parsing, moves, outcome and winning moves) uses what
 * game-wythoff-tab.c exports (quotients, exact floors, tables).  Internal
 * to the solver core.
 */
#ifndef GAME_WYTHOFF_H
#define GAME_WYTHOFF_H

#include <limits.h>

/* Bits in one word of a Grundy table bit set. */
#define WYTHOFF_WBITS	(sizeof(unsigned long) * CHAR_BIT)

/*
 * Grundy values of r-Wythoff on [0..cols] x [0..rows].  The first Grundy
 * query that needs them builds them (lazily: P/N and winning moves never
 * do); clones share one table by reference count, so, like the state
 * itself, a table must not be used from two threads at once.
 */
struct wythoff_tab {
	size_t		 refs;
	unsigned long	 cols;
	unsigned long	 rows;
	unsigned int	*sg;		/* sg[y * (cols + 1) + x], or NULL */
	unsigned long	 wcols;		/* the sharers' largest quotients */
	unsigned long	 wrows;
};

/* Wythoff state: parameters, constants derived from them, the piles. */
struct wythoff {
	mpz_t		 k;		/* every removal is a multiple of K */
	mpz_t		 t;		/* diagonal removals differ by < t */
	mpz_t		 r;		/* ceil(t / K) */
	mpz_t		 rm2;		/* r - 2 */
	mpz_t		 r2;		/* 2 r */
	mpz_t		 d;		/* D = r^2 + 4 */
	mpz_t		 pile[2];
	unsigned long	 bound;		/* Grundy table bound (max_wythoff) */
	size_t		 max_reply;	/* bytes of a P-position table */
	struct wythoff_tab *tab;
	const struct game_tables *tables; /* table cache, or NULL */
};

/* A position reduced to r-Wythoff: sorted quotients and their residues. */
struct wythoff_q {
	mpz_t		 a;		/* the smaller quotient */
	mpz_t		 b;		/* the larger quotient */
	mpz_t		 ra;		/* residue of a's pile mod K */
	mpz_t		 rb;		/* residue of b's pile mod K */
	size_t		 ia;		/* pile index (1 or 2) of a */
	size_t		 ib;		/* pile index of b */
};

/* game-wythoff-tab.c */
void	 wythoff_q_init(const struct wythoff *, struct wythoff_q *);
void	 wythoff_q_clear(struct wythoff_q *);
void	 wythoff_add(const struct wythoff *, const struct wythoff_q *,
	    struct game_moveset *, const mpz_t, const mpz_t);
void	 wythoff_isqrtd(const struct wythoff *, mpz_t, const mpz_t);
void	 wythoff_a(const struct wythoff *, mpz_t, const mpz_t, const mpz_t);
const char *wythoff_numstr(const mpz_t, char *, size_t);
void	 wythoff_tab_unref(struct wythoff_tab *);
int	 wythoff_grundy(const void *, mpz_t, struct game_error *);
int	 wythoff_to_grundy(const void *, const mpz_t, struct game_moveset *,
	    struct game_error *);
int	 wythoff_share(void *, void *);
int	 wythoff_table(const void *, unsigned long, struct buf *,
	    struct game_error *);

#endif /* GAME_WYTHOFF_H */
