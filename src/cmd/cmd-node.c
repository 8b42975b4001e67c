/*
 * cmd-node.c: node drain HOST:PORT, node undrain, node status (admin;
 * PROTOCOL.md §13.12): graceful maintenance of one node.  The address is
 * checked here (proto-addr.c); the lobby keeps the drain (lobby-node.c).
 */
#include <stdio.h>
#include <string.h>

#include "lobby/lobby.h"
#include "node/lnode.h"
#include "proto/proto-addr.h"
#include "session/session.h"

/* The status line: what node status, drain and undrain answer. */
static void
cmd_node_line(struct session *s, struct buf *body)
{
	struct lobby_node_status st;

	lobby_node_status(s->lc, &st);
	if (st.drain_to == NULL)
		buf_printf(body, "serving games=%zu players=%zu", st.games,
		    st.players);
	else
		buf_printf(body, "%s to %s games=%zu players=%zu "
		    "redirected=%llu%s", st.games > 0 ? "draining" : "drained",
		    st.drain_to, st.games, st.players,
		    (unsigned long long)st.redirected, st.games > 0 ? "" :
		    ": no live game left, the node may stop");
}

/* node drain HOST:PORT: checks the address, then starts the drain. */
static int
cmd_node_drain(struct session *s, const struct proto_cmd *c,
    struct buf *body)
{
	struct proto_addr a;
	const char	*why;
	char		 to[PROTO_ADDR_MAX + 3];

	if (c->argc != 2) {
		buf_puts(body, "usage: node drain HOST:PORT");
		return (CMD_ERROR);
	}
	if (proto_addr_parse(c->argv[1], strlen(c->argv[1]), NULL, &a,
	    &why) != 0) {
		buf_printf(body, "node drain: bad address '%.64s%s': %s",
		    c->argv[1], strlen(c->argv[1]) > 64 ? "..." : "", why);
		return (CMD_ERROR);
	}
	proto_addr_print(&a, to, sizeof to);
	if (lobby_node_drain(s->lc, to, body) != 0)
		return (CMD_ERROR);
	cmd_node_line(s, body);
	return (CMD_OK);
}

/* node drain HOST:PORT | undrain | status (admin). */
static int
cmd_node_exec(struct session *s, const struct proto_cmd *c, struct buf *body)
{
	const char	*op = c->argv[0];

	if (strcmp(op, "drain") == 0)
		return (cmd_node_drain(s, c, body));
	if (strcmp(op, "undrain") != 0 && strcmp(op, "status") != 0) {
		buf_printf(body, "unknown node operation %.32s: expected "
		    "drain, undrain or status", op);
		return (CMD_ERROR);
	}
	if (c->argc != 1) {
		buf_printf(body, "usage: node %s", op);
		return (CMD_ERROR);
	}
	if (strcmp(op, "undrain") == 0 &&
	    lobby_node_undrain(s->lc, body) != 0)
		return (CMD_ERROR);
	cmd_node_line(s, body);
	return (CMD_OK);
}

const struct cmd_entry cmd_node_entry = {
	.name = "node", .min_args = 1, .max_args = 2,
	.flags = CMD_F_LOOP | CMD_F_LOBBY | CMD_F_ADMIN,
	.usage = "drain HOST:PORT | undrain | status", .exec = cmd_node_exec
};
