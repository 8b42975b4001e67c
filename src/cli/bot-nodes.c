/*
 * bot-nodes.c: the nodes of `grundy bot` (PROTOCOL.md §13.12): the
 * --server list (at most 16 HOST:PORT, [IPV6]:PORT), moving to the next
 * node when the current one is gone (lost, refused, a dial timed out),
 * with the backoff only once a whole round of dials failed, and following
 * `event redirect HOST:PORT [GAME_ID]`: to a node of the list or not (a
 * detour, after which the list resumes), at most 8 within 60 s, then back
 * to the list with backoff (but never to a node whose dial failed less
 * than BOT_DEAD_MS ago: its game waits for a takeover, as after `event
 * takeover`, for --takeover-wait ms).  Logging in again and resuming
 * the games is the reconnect path of bot-server.c, the same for every
 * node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bot-int.h"

/* Dials the list's current node next. */
static void
bot_node_target(struct bot *b)
{
	const struct proto_addr *a = &b->nodes[b->node];

	snprintf(b->host, sizeof b->host, "%.*s", PROTO_HOST_MAX, a->host);
	snprintf(b->port, sizeof b->port, "%.5s", a->port);
	b->detour = 0;
}

/* Parses --server HOST:PORT[,HOST:PORT...] or exits 2 naming the entry. */
void
bot_nodes_parse(struct bot *b, const char *list)
{
	char	 err[400];

	if (proto_addr_list(list, b->nodes, PROTO_NODES_MAX, &b->nnodes, err,
	    sizeof err) != 0) {
		fprintf(stderr, "grundy bot: --server: %s (expected "
		    "HOST:PORT[,HOST:PORT...])\n", err);
		exit(2);
	}
	b->node = 0;
	bot_node_target(b);
}

/* Moves to the list's next node (after a detour: the one after ours). */
static void
bot_node_next(struct bot *b)
{
	b->node = (b->node + 1) % b->nnodes;
	bot_node_target(b);
}

/* The connection was lost: the next node, at once. */
void
bot_node_lost(struct bot *b)
{
	bot_node_next(b);
	b->round_fails = 0;
	b->next_try = clock_mono_ms();
	if (b->nnodes > 1)
		bot_log("next node: %s:%s", b->host, b->port);
}

/*
 * A dial failed (refused, timed out, no such host): the next node, at
 * once, or after the backoff when a whole round of the list failed.  A
 * failed detour goes back to the list without counting.
 */
void
bot_node_failed(struct bot *b)
{
	uint64_t	 now = clock_mono_ms();
	int		 detour = b->detour;

	if (!detour)
		b->round_fails++;
	bot_node_next(b);
	if (b->round_fails >= b->nnodes) {
		b->round_fails = 0;
		b->next_try = now + botpol_backoff_ms(b->attempt++,
		    b->reconnect_ms, BOT_BACKOFF_MS, (uint32_t)random());
	} else
		b->next_try = now;
	if (b->nnodes > 1 || detour)
		bot_log("next node: %s:%s in %llu ms", b->host, b->port,
		    (unsigned long long)(b->next_try - now));
}

/* Our game id waits for a takeover: wait for it (--takeover-wait). */
void
bot_takeover_wait(struct bot *b, const char *id)
{
	if (b->waiting || !b->in_game || strcmp(b->game_id, id) != 0)
		return;
	b->waiting = 1;
	b->wait_until = clock_mono_ms() + b->takeover_ms;
	bot_log("game %s is being taken over: waiting up to %lu ms", id,
	    b->takeover_ms);
}

/* The node dialled could not be reached: remembered (BOT_DEAD_MS). */
void
bot_node_dead(struct bot *b)
{
	int	 v6 = strchr(b->host, ':') != NULL;

	snprintf(b->dead, sizeof b->dead, "%s%s%s:%s", v6 ? "[" : "",
	    b->host, v6 ? "]" : "", b->port);
	b->dead_at = clock_mono_ms();
}

/*
 * event redirect ADDR [GAME_ID] (addr: len bytes, game NULL if none):
 * sets the node to dial and the link to REDIRECT, whose connection the
 * relay loop then closes; a bad address is ignored (logged).
 */
void
bot_redirect(struct bot *b, const char *addr, size_t len, const char *game)
{
	struct proto_addr a;
	const char	*why;
	char		 to[PROTO_ADDR_MAX + 3];
	uint64_t	 now = clock_mono_ms();
	size_t		 i, n;

	if (proto_addr_parse(addr, len, NULL, &a, &why) != 0) {
		bot_warn("ignoring a redirect to a bad address: %s", why);
		return;
	}
	proto_addr_print(&a, to, sizeof to);
	if (b->finishing) {
		bot_log("redirected to %s while leaving: not followed", to);
		return;
	}
	if (strcmp(to, b->dead) == 0 && now - b->dead_at < BOT_DEAD_MS) {
		/* Its lease outlives it a moment: another node takes over. */
		bot_log("not following the redirect to %s: it could not be "
		    "reached %llu ms ago", to, (unsigned long long)(now -
		    b->dead_at));
		if (game != NULL)
			bot_takeover_wait(b, game);
		return;
	}
	for (i = n = 0; i < b->nredirect; i++)
		if (now - b->redirect_at[i] < BOT_REDIRECT_MS)
			b->redirect_at[n++] = b->redirect_at[i];
	b->nredirect = n;
	bot_link_set(b, BOT_LINK_REDIRECT);
	b->round_fails = 0;
	if (n == BOT_REDIRECTS) {
		bot_node_next(b);
		b->next_try = now + botpol_backoff_ms(b->attempt++,
		    b->reconnect_ms, BOT_BACKOFF_MS, (uint32_t)random());
		bot_warn("%d redirects within %d s: not following the one to "
		    "%s; next node: %s:%s in %llu ms", BOT_REDIRECTS,
		    BOT_REDIRECT_MS / 1000, to, b->host, b->port,
		    (unsigned long long)(b->next_try - now));
		return;
	}
	b->redirect_at[b->nredirect++] = now;
	for (i = 0; i < b->nnodes; i++)
		if (strcmp(b->nodes[i].host, a.host) == 0 &&
		    strcmp(b->nodes[i].port, a.port) == 0)
			break;
	if (i < b->nnodes) {
		b->node = i;
		bot_node_target(b);
	} else {
		snprintf(b->host, sizeof b->host, "%s", a.host);
		snprintf(b->port, sizeof b->port, "%s", a.port);
		b->detour = 1;
	}
	b->next_try = now;
	bot_log("redirected to %s%s%s%s", to, game != NULL ? " for game " :
	    "", game != NULL ? game : "", i < b->nnodes ? "" :
	    " (not in --server)");
}
