/*
 * verify-int.h: what verify.c (the file, the moves), verify-result.c
 * (the result of each reason) and verify-util.c (their common helpers)
 * share; private to grundy verify.
 */
#ifndef VERIFY_INT_H
#define VERIFY_INT_H

#include <stdint.h>

#include "lib/buf.h"
#include "solver/game.h"
#include "record/verify.h"

/* The headers, in their order, after the format line. */
enum verify_hdr {
	VH_GAME, VH_FAMILY, VH_START, VH_PLAYER1, VH_PLAYER2, VH_RATED, VH_TC,
	VH_TOURNAMENT, VH_STARTED, VH_ENDED, VH_RESULT, VH_STATUS, VH_MOVES,
	VH_N
};

/* A verification under way. */
struct verify {
	const char	*name;		/* the file, for the verdict */
	const struct verify_limits *lim;
	struct buf	*out;
	const char	*text, *end;	/* what is left to read */
	unsigned long	 lineno;
	char		*line;		/* the current line, NUL-terminated */
	char		*hdr[VH_N];	/* each header's value (copies) */
	unsigned long	 hline[VH_N];	/* and its line */
	struct game	 game;
	int		 has_game;
	int		 has_tc;
	uint64_t	 base_ms, inc_ms;
	uint64_t	 left[2];	/* each seat's clock (µs) */
	uint64_t	 ply;		/* moves replayed */
	uint64_t	 nmoves;	/* the header's count */
	uint64_t	 spent_us;	/* the charged time of every move */
	uint64_t	 bytes;		/* its moves' and positions' (§12.1) */
	unsigned long	 wline;		/* the first wrong line (0: none) */
	struct buf	 wmsg;		/* and its verdict */
};

enum verify_verdict verify_wrong(struct verify *, unsigned long, const char *,
	    ...) __attribute__((format(printf, 3, 4)));
int	 verify_u64(const char *, uint64_t *);
int	 verify_seat_word(const char *, size_t);
const char *verify_unquote(const char *, struct buf *);
int	 verify_refusal(struct verify *, struct buf *, const char *);
int	 verify_mover(const struct verify *);
int	 verify_engine(const struct verify *, int);
int	 verify_oneof(const char *, const char *const *);
int	 verify_parse_move(struct verify *, const char *, struct game_move *,
	    struct game_error *);

/* verify-result.c */
enum verify_verdict verify_result_head(struct verify *);
enum verify_verdict verify_end(struct verify *);

#endif
