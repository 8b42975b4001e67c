/*
 * testutil.h: helpers shared by the cmocka tests: string sets for comparing
 * move sets against brute force, checked parsing, printing and play, one
 * brute-force solver parameterised by each family's raw move rules, and
 * temporary directories for the database tests.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "solver/game.h"

/* Sorted string sets: move sets compared against brute force. */
struct tu_strs {
	size_t		 n;
	size_t		 cap;
	char		**v;
};

void	 tu_strs_init(struct tu_strs *);
void	 tu_strs_free(struct tu_strs *);
void	 tu_strs_add(struct tu_strs *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 tu_strs_sort(struct tu_strs *);
int	 tu_strs_eq(const struct tu_strs *, const struct tu_strs *,
	    const char *);

/* Checked parsing and printing: failing the test on a surprise. */
const struct game_limits *tu_limits(void);
void	 tu_parse(struct game *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 tu_parse_fail(enum game_err, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 tu_parse_fail_msg(const struct game_limits *, const char *,
	    enum game_err, const char *);
void	 tu_parse_fails(enum game_err, ...) __attribute__((sentinel));
void	 tu_parse_fails_msg(const struct game_limits *, enum game_err, ...)
	    __attribute__((sentinel));
void	 tu_parse_ok(const struct game_limits *, const char *);
void	 tu_print_is(const struct game *, const char *);
void	 tu_print_same(const struct game *, const struct game *);
void	 tu_reparse(const struct game *);
void	 tu_roundtrip(const char *const *, const char *const *, size_t);
void	 tu_put_random(struct buf *, gmp_randstate_t, mp_bitcnt_t);

/* Runs a function over the string pairs of a NULL-terminated list. */
void	 tu_pairs(va_list, void (*)(void *, const char *, const char *),
	    void *);

/* Moves: checked play and refusals, and the solver against a move set. */
void	 tu_move_str(const struct game_move *, struct buf *);
void	 tu_moveset_strs(const struct game_moveset *, struct tu_strs *);
void	 tu_winning(const struct game *, struct tu_strs *);
void	 tu_check(const struct game *, int, long, struct tu_strs *);
void	 tu_check_wins(const struct game *, int, long, ...)
	    __attribute__((sentinel));
void	 tu_check_canonical(const struct game_moveset *, int);
void	 tu_winning_each(const struct game *, struct game_moveset *,
	    void (*)(const struct game *, const struct game_move *, void *),
	    void *);
void	 tu_grundy_zero(const struct game *, const struct game_move *, void *);
void	 tu_play(struct game *, const char *);
void	 tu_clone_play(struct game *, const struct game *, const char *,
	    const char *, const char *);
void	 tu_play_fail(struct game *, const char *, enum game_err);
void	 tu_play_fail_at(const char *, const char *, enum game_err);
void	 tu_move_fail_msg(struct game *, const char *, const char *);
void	 tu_plays(struct game *, enum game_err, ...)
	    __attribute__((sentinel));
void	 tu_move_fails_msg(struct game *, ...) __attribute__((sentinel));

/*
 * A generic memoised game-tree search (no theory): the caller supplies the
 * raw move rules as an options callback over small integer vectors.  In
 * normal play the memo holds Grundy values; with misere set, outcomes
 * (1: the mover wins, 0: the mover loses; no move left wins).
 */
#define TU_MAXK		12
#define TU_MAXOPT	1024

/* One option: the next position and the move's text. */
struct tu_opt {
	int		 next[TU_MAXK];
	char		 name[80];
};

struct tu_brute {
	int		 k;		/* vector length */
	int		 misere;	/* 1: last mover loses, no Grundy */
	/* Fills opts with every legal move from a; returns the count. */
	int		 (*options)(const int *a, int k, struct tu_opt *opts,
			    void *arg);
	void		*arg;
	size_t		 cap, used;	/* memo: open addressing */
	int		*keys;		/* cap * k */
	int		*vals;		/* SG or outcome, -1 for an empty slot */
};

void	 tu_brute_init(struct tu_brute *, int,
	    int (*)(const int *, int, struct tu_opt *, void *), void *);
void	 tu_brute_free(struct tu_brute *);
int	 tu_brute_sg(struct tu_brute *, const int *);
int	 tu_brute_win(struct tu_brute *, const int *);
int	 tu_brute_options(struct tu_brute *, const int *, struct tu_strs *);
void	 tu_brute_wins(struct tu_brute *, const int *, struct tu_strs *);
void	 tu_brute_moves_to(struct tu_brute *, const int *, int,
	    struct tu_strs *);
int	 tu_next(int *, int, const int *);
void	 tu_brute_check(struct tu_brute *, const int *, const struct game *);
void	 tu_brute_to_grundy(struct tu_brute *, const int *,
	    const struct game *, int, const char *,
	    void (*)(const struct game_moveset *, struct tu_strs *));
void	 tu_brute_check_each(struct tu_brute *, const int *,
	    void (*)(const int *, int, struct buf *, void *), void *);
void	 tu_brute_check_all(struct tu_brute *, int, const char *);

/* The main of a test program: runs the group name of the tests given. */
#define TU_MAIN(name, ...)						\
int									\
main(void)								\
{									\
	const struct CMUnitTest tu_tests[] = { __VA_ARGS__ };		\
									\
	return (cmocka_run_group_tests_name(name, tu_tests, NULL, NULL)); \
}

/* Temporary directories for the database tests. */
int	 tu_tmpdir(char *, size_t, const char *);
void	 tu_empty_dir(const char *);

#endif /* TESTUTIL_H */
