/*
 * cmd-admin.h: the admin commands' checks, shared by cmd-admin.c (account)
 * and cmd-lobby.c (connections, kick, abort, adjudicate), and the password
 * check of account, passwd and register (cmd-play.c).
 */
#ifndef CMD_ADMIN_H
#define CMD_ADMIN_H

#include <stddef.h>

#include "lib/buf.h"
#include "proto/proto.h"

struct session;

#define CMD_REASON_MAX	200	/* bytes of an admin's reason */

int	 cmd_pass_check(struct session *, const struct proto_cmd *, int,
	    const char *, struct buf *);
int	 cmd_reason(const struct proto_cmd *, const char *, int, int, char *,
	    size_t, struct buf *);

#endif /* CMD_ADMIN_H */
