/*
 * testutil.h: helpers shared by the cmocka tests: string sets for comparing
 * move sets against brute force, checked parsing, and temporary
 * directories for the database tests.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "game.h"

/* A growable list of strings. */
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

const struct game_limits *tu_limits(void);
void	 tu_parse(struct game *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 tu_parse_fail(enum game_err, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 tu_move_str(const struct game_move *, struct buf *);
void	 tu_winning(const struct game *, struct tu_strs *);
void	 tu_check(const struct game *, int, long, struct tu_strs *);
void	 tu_play(struct game *, const char *);
void	 tu_play_fail(struct game *, const char *, enum game_err);
void	 tu_parse_fail_msg(const struct game_limits *, const char *,
	    enum game_err, const char *);
void	 tu_move_fail_msg(struct game *, const char *, const char *);
int	 tu_tmpdir(char *, size_t, const char *);
void	 tu_empty_dir(const char *);

#endif /* TESTUTIL_H */

/*
 * A generic memoised game-tree search (no theory): the caller supplies the
 * raw move rules as an options callback over small integer vectors.
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
	/* Fills opts with every legal move from a; returns the count. */
	int		 (*options)(const int *a, int k, struct tu_opt *opts,
			    void *arg);
	void		*arg;
	size_t		 cap, used;	/* memo: open addressing */
	int		*keys;		/* cap * k */
	int		*vals;		/* SG, or -1 for an empty slot */
};

void	 tu_brute_init(struct tu_brute *, int,
	    int (*)(const int *, int, struct tu_opt *, void *), void *);
void	 tu_brute_free(struct tu_brute *);
int	 tu_brute_sg(struct tu_brute *, const int *);
void	 tu_brute_wins(struct tu_brute *, const int *, struct tu_strs *);
