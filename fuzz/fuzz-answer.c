/*
 * fuzz-answer.c: the reading of a player's answers ("=ID BODY" or "?ID
 * MESSAGE", PROTOCOL.md §6 and §13.2) as grundyd takes them during a game
 * against the engine: the input's lines go through the answer reader
 * (proto_answer_feed: GTP §3.1 cleaning, blocks up to the empty line) and
 * each complete block to lobby_answer, as server.c does.  The first byte
 * picks the game.  Only the referee runs: no store, no accounts, the loop
 * never dispatched.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "lobby/lobby.h"
#include "proto/proto.h"

#define FUZZ_MAX	8192	/* bytes of one input */
#define FUZZ_DEFER	64	/* deferred calls queued at most */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Games the client plays first against the engine. */
static const char *const fuzz_games[] = {
	"nim 3 4 5",
	"bash m=3 5 7",
	"wythoff 4 7",
	"staircase 2 0 3 1",
	"subtraction S=1,3,4 9 11",
	"klnim k=2 l=1 3 5 6",
	"graph edges=1>2,2>3,1>3,3>4 1 2",
	"sum nim 3 4 + wythoff 2 3",
	"nim misere=1 1 2 3",
};

static void	(*fuzz_fn[FUZZ_DEFER])(void *);
static void	*fuzz_arg[FUZZ_DEFER];
static int	 fuzz_ndefer;

/* Drops what the lobby sends. */
static void
fuzz_send(void *arg, void *conn, const char *s, size_t len)
{
	(void)arg, (void)conn, (void)s, (void)len;
}

/* Queues a call for after the current one, as the loop would. */
static void
fuzz_defer(void *arg, void (*fn)(void *), void *fnarg)
{
	(void)arg;
	if (fuzz_ndefer == FUZZ_DEFER)
		abort();
	fuzz_fn[fuzz_ndefer] = fn;
	fuzz_arg[fuzz_ndefer++] = fnarg;
}

/* Runs the queued calls. */
static void
fuzz_run_deferred(void)
{
	int	 i;

	for (i = 0; i < fuzz_ndefer; i++)
		fuzz_fn[i](fuzz_arg[i]);
	fuzz_ndefer = 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct event_base *base;
	struct lobby_io	 io = { .send = fuzz_send, .defer = fuzz_defer };
	struct proto_answer ans;
	struct lobby_conf lconf;
	struct lobby_client *lc;
	struct lobby	*lb;
	struct buf	 body, held;
	struct lobby_offer o;
	struct lobby_seek_result res;
	struct game_error gerr;
	char		 err[256], *text, *line, *next;
	const char	*game;
	size_t		 len;

	if (size < 1 || size > FUZZ_MAX)
		return (0);
	if (base == NULL && (base = event_base_new()) == NULL)
		abort();
	memset(&lconf, 0, sizeof lconf);
	lconf.default_base_ms = 600000;
	lconf.grace_ms = 250;
	lconf.illegal_retry = data[0] & 0x80;
	lconf.max_seeks = 4;
	lconf.max_watchers = 4;
	game_limits_default(&lconf.lim);
	lconf.lim.max_digits = 40;
	if ((lb = lobby_new(base, NULL, NULL, &io, &lconf, err,
	    sizeof err)) == NULL)
		abort();
	lc = lobby_attach(lb, lb, 1);
	game = fuzz_games[(data[0] & 0x7f) %
	    (sizeof fuzz_games / sizeof fuzz_games[0])];
	/* seek GAME opponent=engine seat=1 */
	memset(&o, 0, sizeof o);
	o.base_ms = lconf.default_base_ms;
	o.rated = -1;
	o.engine = 1;
	o.seat = 1;
	buf_init(&o.spec);
	buf_init(&body);
	buf_init(&held);
	if (game_parse_line(&o.game, game, &lconf.lim, &gerr) != 0)
		abort();	/* every game above is valid */
	game_print(&o.game, &o.spec);
	if (lobby_seek(lc, &o, &res, &body) != 0)
		abort();	/* and a valid seek */
	buf_free(&o.spec);
	text = xmalloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	proto_answer_init(&ans, PROTO_ANSWER_MAX);
	for (line = text; line != NULL; line = next) {
		next = memchr(line, '\n', size - 1 - (size_t)(line - text));
		len = next != NULL ? (size_t)(next - line) :
		    size - 1 - (size_t)(line - text);
		if (next != NULL)
			*next++ = '\0';
		if (proto_answer_feed(&ans, line, len, 0) != PROTO_BLOCK_DONE)
			continue;
		lobby_hold(lc);
		lobby_answer(lc, &ans);
		proto_answer_reset(&ans);
		buf_reset(&held);
		lobby_release(lc, &held);
		fuzz_run_deferred();
	}
	proto_answer_free(&ans);
	lobby_detach(lc, "eof");
	fuzz_run_deferred();
	lobby_free(lb);
	buf_free(&body);
	buf_free(&held);
	free(text);
	return (0);
}
