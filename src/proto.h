/*
 * proto.h: the protocol's framing, as pure functions from bytes to a parsed
 * command and from a reply to bytes.  No I/O, no libevent, no globals: unit
 * tested and fuzzed directly.  proto/PROTOCOL.md is normative.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>

#include "buf.h"

/* A parsed command line.  Strings point into the preprocessed line. */
struct proto_cmd {
	int		 has_id;	/* the line started with a numeric id */
	unsigned long	 id;
	char		*name;		/* command name, NULL if none */
	int		 argc;
	char		**argv;		/* argc arguments (owned array) */
};

size_t	 proto_preprocess(char *, size_t);
int	 proto_blank(const char *, size_t);
int	 proto_parse(char *, struct proto_cmd *, const char **);
void	 proto_cmd_free(struct proto_cmd *);
void	 proto_reply(struct buf *, int, const struct proto_cmd *,
	    const char *);

#endif /* PROTO_H */
