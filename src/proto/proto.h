/*
 * proto.h: the protocol's framing, as pure functions from bytes to a parsed
 * command and from a reply to bytes.  No I/O, no libevent, no globals: unit
 * tested and fuzzed directly.  proto/PROTOCOL.md is normative.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"

/* A parsed command line.  Strings point into the preprocessed line. */
/*
 * A command's arguments: up to PROTO_ARGV_SMALL in the struct itself (a
 * move, a seek: no allocation per command), more in an allocated array.
 * A copy of the struct shares the original's arguments while it lives.
 */
#define PROTO_ARGV_SMALL	8
struct proto_cmd {
	int		 has_id;	/* the line started with a numeric id */
	unsigned long	 id;
	char		*name;		/* command name, NULL if none */
	int		 argc;
	char		**argv;		/* argc arguments: small, or owned */
	char		*small[PROTO_ARGV_SMALL];	/* no allocation */
};

#define PROTO_ANSWER_MAX 4096		/* bytes of an answer a referee keeps */
#define PROTO_HEAD_MAX	64		/* bytes that decide whether a line is one */

/*
 * A reader of answers (GTP v2 §3: a controller's side).  body holds the
 * first line's text after the id, then each further line after an LF.
 */
struct proto_answer {
	int		 open;		/* inside a block */
	int		 ok;		/* '=' (1) or '?' (0) */
	int		 has_id;
	unsigned long	 id;
	size_t		 lines;		/* lines of the block, first included */
	int		 over;		/* longer than max: body is cut */
	size_t		 max;		/* bytes of body kept */
	struct buf	 body;
};

enum proto_feed {
	PROTO_NOT_ANSWER,		/* not part of an answer */
	PROTO_IN_BLOCK,			/* taken into the open block */
	PROTO_BLOCK_DONE,		/* the block is complete */
};

/*
 * The head of a request line, its id and command name, read from at most
 * PROTO_SCAN_MAX raw bytes: constant work whatever the line's length, so
 * that the server decides where a line runs, or refuses it, without
 * copying or splitting it (PROTOCOL.md §6).
 */
#define PROTO_NAME_MAX	32		/* longer names are no command's */
#define PROTO_SCAN_MAX	1024
struct proto_head {
	int		 has_id;
	unsigned long	 id;
	char		 name[PROTO_NAME_MAX + 1];	/* "" when unknown */
};

size_t	 proto_preprocess(char *, size_t);
int	 proto_head(const char *, size_t, struct proto_head *);
int	 proto_blank(const char *, size_t);
int	 proto_parse(char *, struct proto_cmd *, const char **);
void	 proto_cmd_free(struct proto_cmd *);
/* Where a reply written in parts is (proto_reply_begin). */
struct proto_rpart {
	int	 first;		/* no line of the body yet */
	int	 mid;		/* inside a line */
};
void	 proto_reply_begin(struct buf *, int, const struct proto_cmd *,
	    struct proto_rpart *);
void	 proto_reply_part(struct buf *, struct proto_rpart *, const char *,
	    size_t);
void	 proto_reply_end(struct buf *);
void	 proto_reply(struct buf *, int, const struct proto_cmd *,
	    const char *);

size_t	 proto_answer_clean(char *, size_t);
int	 proto_answer_head(const char *, int *, int *, unsigned long *,
	    const char **);
void	 proto_answer_init(struct proto_answer *, size_t);
void	 proto_answer_free(struct proto_answer *);
void	 proto_answer_reset(struct proto_answer *);
enum proto_feed proto_answer_feed(struct proto_answer *, char *, size_t,
	    int);
void	 proto_answer_stray(struct buf *);
void	 proto_too_long(struct buf *, const char *, size_t);
void	 proto_answer_write(struct buf *, const struct proto_answer *,
	    unsigned long);

/*
 * A time control (PROTOCOL.md §13): "BASE" or "BASE+INC" in milliseconds,
 * BASE from 1, both at most PROTO_TC_MAX.  The one parser and printer of
 * the server, its settings and grundy bot.
 */
#define PROTO_TC_MAX	(24ULL * 3600 * 1000)	/* a day */
int	 proto_parse_tc(const char *, uint64_t *, uint64_t *);
void	 proto_tc_print(struct buf *, uint64_t, uint64_t);

#endif /* PROTO_H */
