/*
 * verify.h: `grundy verify FILE` re-referees a record file (PROTOCOL.md
 * §12.1) with the solver core alone: the start, every move's legality,
 * ply and player, every optimality mark, the clocks, every refused move,
 * and the result with its reason.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>

#include "lib/buf.h"
#include "solver/game.h"

/* The limits, in bytes, checked before any work. */
struct verify_limits {
	size_t		 max_line;	/* bytes of one line, its newline too */
	size_t		 max_file;	/* bytes of the file */
	struct game_limits game;	/* the solver's (max_digits, ...) */
};

#define VERIFY_MAX_LINE		(256 * 1024 + 1024)	/* grundyd's max-line */
#define VERIFY_MAX_FILE		(256UL * 1024 * 1024)

/* The verdicts: the exit statuses of grundy verify. */
enum verify_verdict {
	VERIFY_OK = 0,		/* "ok N moves" */
	VERIFY_WRONG = 1,	/* "FILE:LINE: REASON": the first wrong line */
	VERIFY_UNREADABLE = 2,	/* "FILE: REASON" */
};

void	 verify_limits_default(struct verify_limits *);
enum verify_verdict verify_text(const char *, const char *, size_t,
	    const struct verify_limits *, struct buf *);
int	 verify_main(int, char **);
const char *verify_own_loss(const char *, const char *, const char **);

#endif /* VERIFY_H */
