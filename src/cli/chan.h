/*
 * chan.h: the byte channel of the grundy program's player links, one
 * module for grundy bot (its server socket and its program's pipes),
 * grundy match (its engines' pipes) and grundy connect (its server
 * socket): non-blocking reads and writes, lines taken with their limit,
 * answer blocks (PROTOCOL.md §13.2: "=ID text" or "?ID text" up to an
 * empty line) told from other lines, and the one place a player program
 * is started (chan_spawn, with its options in struct chan_prog), waited
 * for and killed, sandboxed when its options ask (sandbox.h): then its
 * whole process tree (ptree.h) goes with it and its stderr is capped.
 */
#ifndef CHAN_H
#define CHAN_H

#include <sys/types.h>

#include <stddef.h>

#include "cli/ptree.h"
#include "cli/sandbox.h"
#include "lib/buf.h"
#include "proto/proto.h"

#define CHAN_LINE_MAX	(1024 * 1024)	/* longest line taken whole */
#define CHAN_CUT_KEEP	64		/* bytes kept of a longer one */

/*
 * One byte stream: lines in, bytes out.  A socket has rfd == wfd; a
 * player program's pipes are its stdout (rfd) and stdin (wfd), and pid
 * is the program (-1 when there is none, or once it was reaped).
 */
struct chan {
	int		 rfd, wfd;	/* -1 when closed */
	pid_t		 pid;		/* the program at the other end, or -1 */
	int		 group;		/* pid leads a process group of its own */
	int		 nul_ends;	/* a NUL ends a line (the rest dropped) */
	struct buf	 in;		/* read, not yet taken as lines */
	size_t		 in_off;
	int		 skip;		/* dropping an overlong line's rest */
	struct buf	 out;		/* to write */
	size_t		 out_off;
	/* A sandboxed program (chan_prog.sandbox): its tree and stderr. */
	struct ptree	*tree;		/* NULL when not sandboxed */
	int		 errfd;		/* its stderr's pipe, or -1 */
	uint64_t	 err_len, err_cap;	/* bytes read, bytes allowed */
};

/* What chan_next took from a channel. */
enum chan_got {
	CHAN_NONE = 0,		/* no whole line is left */
	CHAN_LINE,		/* a line that is no answer's, in line */
	CHAN_CUT,		/* one over CHAN_LINE_MAX: its first bytes */
	CHAN_ANSWER,		/* an answer block complete in the reader */
};

/* Where a player program's stderr goes. */
enum chan_err {
	CHAN_ERR_OURS = 0,	/* to ours (grundy's stderr) */
	CHAN_ERR_NULL,		/* to /dev/null */
};

/* How chan_spawn starts a player program. */
struct chan_prog {
	char *const	*argv;		/* the program, its arguments, NULL */
	const char	*dir;		/* its working directory, or NULL */
	char *const	*env;		/* "NAME=VALUE" added; NULL-ended */
	enum chan_err	 err;		/* its stderr */
	int		 group;		/* in a process group of its own */
	const char	*who;		/* "grundy bot": the child's errors */
	const struct sandbox_opts *sandbox;	/* NULL: run as it is */
};

void	 chan_init(struct chan *);
void	 chan_open(struct chan *, int);
void	 chan_close(struct chan *);
void	 chan_free(struct chan *);
int	 chan_read(struct chan *);
void	 chan_blocking(struct chan *, int);
int	 chan_write(struct chan *);
size_t	 chan_pending(const struct chan *);
int	 chan_take_line(struct chan *, struct buf *);
enum chan_got chan_next(struct chan *, struct proto_answer *, struct buf *);

int	 chan_spawn(struct chan *, const struct chan_prog *, const char **);
void	 chan_hangup(struct chan *);
int	 chan_wait(struct chan *, int, int *);
void	 chan_kill(struct chan *, int);
int	 chan_read_err(struct chan *);
const char *chan_violation(struct chan *, const int *);
int	 chan_sandbox_check(const struct sandbox_opts *, struct buf *,
	    const char **);

#endif /* CHAN_H */
