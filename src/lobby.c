/*
 * lobby.c: networked play (PROTOCOL.md §13), on the event loop.
 *
 * A live game (struct lgame) has two seats; seat 1 moves first.  A seat
 * holds an account (or "conn:ID" for an anonymous client, or the engine)
 * and, while its client is connected, that client.  The server drives each
 * human seat with commands of its own (new, play, genmove, gameover), and
 * every client keeps a FIFO of the commands it has not answered yet: GTP
 * answers come back in order, so an answer is matched to the oldest
 * outstanding command (and to its id when the client echoes one).
 *
 * Clocks: a seat's clock runs from the moment its genmove is written until
 * its answer is read (turn_start), whether or not the client is still
 * connected; a timer fires at remaining + grace and ends the game on time.
 * A disconnected seat can be taken back with its resume token.
 *
 * A game's end goes to the log first; gameover is sent, ratings and
 * tournaments are updated, and the game is freed only once the log has it
 * (lg_logged, deferred back to the loop from the store's writer thread).
 */
#include <sys/queue.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "engine.h"
#include "league.h"
#include "lobby.h"
#include "log.h"
#include "proto.h"
#include "store.h"

#define LOBBY_TOKEN_LEN	24	/* hex characters of a resume token */
#define LOBBY_MAX_OUT	64	/* unanswered server commands kept per client */
#define LOBBY_MAX_WATCH	16	/* games one client may watch */
#define LOBBY_MAX_CHALL	16	/* open challenges per client */
#define LOBBY_DRAWS	1000	/* tries for a random fair start */
#define LOBBY_RETRIES	3	/* illegal moves retried per turn */
#define LOBBY_TC_MAX	(24ULL * 3600 * 1000)	/* longest base time */
#define LOBBY_CHALL_TTL	120000	/* ms an unanswered challenge stays open */
#define LOBBY_QUOTE_MAX	200	/* bytes of a refused move kept */
#define LOBBY_LAG_MS	20	/* a timer this late: the loop was stalled */
#define LOBBY_ELO_START	1500.0
#define LOBBY_ELO_K	32.0

/* Kinds of server commands. */
enum lcmd_kind {
	LCMD_NEW = 0,
	LCMD_PLAY,
	LCMD_GENMOVE,
	LCMD_GAMEOVER,
};

/* One server command a client has not answered yet. */
struct lcmd {
	STAILQ_ENTRY(lcmd) entry;
	uint64_t	 id;
	enum lcmd_kind	 kind;
	int64_t		 gid;		/* the game it concerns */
	uint64_t	 serial;	/* genmove: the turn it asked for */
};
STAILQ_HEAD(lcmdq, lcmd);

struct lgame;

/* A connection's part in the lobby. */
struct lobby_client {
	TAILQ_ENTRY(lobby_client) entry;
	struct lobby	*lb;
	void		*conn;
	uint64_t	 connid;
	char		 name[LEAGUE_NAME_MAX + 1];	/* "" before login */
	int		 admin;
	int		 ready;
	struct lseek	*seek;
	struct lgame	*game;		/* seated in it (and connected) */
	int		 seat;
	uint64_t	 next_id;	/* last server command id */
	uint64_t	 rx_ms;		/* when its input reached the socket */
	struct lcmdq	 out;		/* unanswered server commands */
	size_t		 nout;
	int64_t		 watch[LOBBY_MAX_WATCH];
	size_t		 nwatch;
	int		 holding;	/* running one of its commands */
	struct buf	 held;		/* what was sent meanwhile */
	char		 peer[64];	/* ADDR:PORT, for admins */
	char		 anon[32];	/* "anon:START" of this daemon run */
};
TAILQ_HEAD(lclients, lobby_client);

/* A seat of a live game. */
struct lplayer {
	char		 name[LEAGUE_NAME_MAX + 8];	/* or engine, conn:ID */
	int		 account;	/* name is an account */
	int		 engine;
	struct lobby_client *lc;	/* NULL: engine or away */
	uint64_t	 clock_ms;	/* left, as of the last move */
	char		 token[LOBBY_TOKEN_LEN + 1];
	unsigned int	 illegal;	/* illegal moves this turn */
};

/* A live game. */
struct lgame {
	TAILQ_ENTRY(lgame) entry;
	struct lobby	*lb;
	int64_t		 id;
	int		 logged;	/* id is in the store */
	struct game	 game;
	char		*start;		/* canonical start position */
	int		 to_move;	/* seat to move */
	unsigned long	 ply;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	struct ltour	*tour;		/* or NULL */
	size_t		 slot;
	struct lplayer	 p[2];
	uint64_t	 turn_start;	/* when the mover's clock started */
	int		 lag_checked;	/* the timer re-armed once for lag */
	uint64_t	 serial;	/* counts turns, to drop stale answers */
	struct event	*timer;
	int		 over;		/* ended; waiting for the log */
	int		 log_ok;	/* the log has the end */
	int		 winner;	/* seat; 0: none (aborted) */
	const char	*reason;
	char		*detail;	/* more about the end, or NULL */
	struct lobby_client **watchers;
	size_t		 nwatchers;
};
TAILQ_HEAD(lgames, lgame);

/* An open seek. */
struct lseek {
	TAILQ_ENTRY(lseek) entry;
	uint64_t	 id;
	struct lobby_client *lc;
	char		*spec;		/* canonical game or template */
	int		 random;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
};
TAILQ_HEAD(lseeks, lseek);

/* An open challenge. */
struct lchall {
	TAILQ_ENTRY(lchall) entry;
	uint64_t	 id;
	struct lobby_client *from;
	char		 to[LEAGUE_NAME_MAX + 1];
	char		*spec;
	int		 random;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	int		 seat;		/* the challenger's seat */
	uint64_t	 created;	/* lobby_now_ms, for expiry */
	struct game	 start;		/* made off the loop; fam NULL: none */
};
TAILQ_HEAD(lchalls, lchall);

/* One scheduled game of a tournament. */
struct lslot {
	size_t		 a, b;		/* players[a] moves first */
	size_t		 pairing;	/* which pairing, for the start */
	unsigned int	 round;		/* game number within the pairing */
	int		 state;		/* 0 pending, 1 playing, 2 done */
	int		 winner;	/* done: 1 (a) or 2 (b) */
};

/* A running tournament. */
struct ltour {
	TAILQ_ENTRY(ltour) entry;
	struct league_tournament def;
	struct lslot	*slots;
	size_t		 nslots;
};
TAILQ_HEAD(ltours, ltour);

/* A player's rating. */
struct lrating {
	char		 name[LEAGUE_NAME_MAX + 1];
	double		 r;
	unsigned long	 games;
};

struct lobby {
	struct event_base *base;
	struct store	*store;
	struct league	*league;
	struct lobby_io	 io;
	struct lobby_conf conf;
	struct lobby_prep *prep;	/* lent to the running command */
	struct lclients	 clients;
	struct lgames	 games;
	struct lseeks	 seeks;
	size_t		 nseeks;
	struct lchalls	 challs;
	size_t		 nchalls;
	struct ltours	 tours;
	uint64_t	 next_seek;
	int64_t		 next_gid;	/* game ids without a store */
	gmp_randstate_t	 rs;
	pthread_mutex_t	 rmtx;		/* guards ratings (any thread) */
	struct lrating	*ratings;
	size_t		 nratings;
};

static void	 lg_turn(struct lgame *);
static void	 lg_finish(struct lgame *, int, const char *);
static void	 lg_finish_detail(struct lgame *, int, const char *,
		    const char *);
static void	 lobby_schedule(struct lobby *);
static void	 lc_drop_seek(struct lobby_client *);
static void	 lobby_drop_chall(struct lobby *, struct lchall *);
static void	 lg_tell_seat(struct lgame *, int, const char *);

/* Copies a string into a fixed buffer, truncating. */
static void
lobby_copy(char *dst, const char *src, size_t size)
{
	snprintf(dst, size, "%s", src);
}

/* Returns monotonic milliseconds (clocks, lockouts, move times). */
uint64_t
lobby_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Fills a resume token with random hex digits. */
static void
lobby_token(char *tok)
{
	unsigned char	 r[LOBBY_TOKEN_LEN / 2];
	static const char hex[] = "0123456789abcdef";
	size_t		 i, got = 0;
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) != -1) {
		while (got < sizeof r &&
		    (n = read(fd, r + got, sizeof r - got)) > 0)
			got += (size_t)n;
		close(fd);
	}
	if (got < sizeof r)
		fatalx("event=token-failed what=/dev/urandom");
	for (i = 0; i < sizeof r; i++) {
		tok[2 * i] = hex[r[i] >> 4];
		tok[2 * i + 1] = hex[r[i] & 15];
	}
	tok[LOBBY_TOKEN_LEN] = '\0';
}

/* Writes to a client, or keeps it until its command's reply is out. */
static void
lc_write(struct lobby_client *lc, const char *data, size_t len)
{
	if (lc->holding)
		buf_add(&lc->held, data, len);
	else
		lc->lb->io.send(lc->lb->io.arg, lc->conn, data, len);
}

/* Sends an event line to a client. */
static void __attribute__((format(printf, 2, 3)))
lc_event(struct lobby_client *lc, const char *fmt, ...)
{
	struct buf	 b;
	va_list		 ap;

	buf_init(&b);
	buf_puts(&b, "event ");
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	buf_putc(&b, '\n');
	lc_write(lc, b.data, b.len);
	buf_free(&b);
}

/* Sends a server command to a client and remembers it until answered. */
static void __attribute__((format(printf, 5, 6)))
lc_command(struct lobby_client *lc, enum lcmd_kind kind, int64_t gid,
    uint64_t serial, const char *fmt, ...)
{
	struct lcmd	*c;
	struct buf	 b;
	va_list		 ap;

	if (lc->nout >= LOBBY_MAX_OUT) {
		/* A client that never answers: forget the oldest. */
		c = STAILQ_FIRST(&lc->out);
		STAILQ_REMOVE_HEAD(&lc->out, entry);
		free(c);
		lc->nout--;
	}
	c = xcalloc(1, sizeof *c);
	c->id = ++lc->next_id;
	c->kind = kind;
	c->gid = gid;
	c->serial = serial;
	STAILQ_INSERT_TAIL(&lc->out, c, entry);
	lc->nout++;
	buf_init(&b);
	buf_printf(&b, "%llu ", (unsigned long long)c->id);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	buf_putc(&b, '\n');
	lc_write(lc, b.data, b.len);
	buf_free(&b);
}

/* Returns the milliseconds left on a seat's clock now. */
static uint64_t
lg_clock(const struct lgame *g, int seat, uint64_t now)
{
	const struct lplayer *p = &g->p[seat - 1];
	uint64_t	 used;

	if (g->over || seat != g->to_move || p->engine)
		return (p->clock_ms);
	used = now - g->turn_start;
	return (used >= p->clock_ms ? 0 : p->clock_ms - used);
}

/* Formats a time control as BASE or BASE+INC. */
static void
lobby_tc_print(struct buf *b, uint64_t base, uint64_t inc)
{
	buf_printf(b, "%llu", (unsigned long long)base);
	if (inc > 0)
		buf_printf(b, "+%llu", (unsigned long long)inc);
}

/* Returns the game with an id, or NULL. */
static struct lgame *
lobby_game(struct lobby *lb, int64_t id)
{
	struct lgame	*g;

	TAILQ_FOREACH(g, &lb->games, entry)
		if (g->id == id)
			return (g);
	return (NULL);
}

/* Parses a game id argument; returns it, or 0. */
static int64_t
lobby_gid(const char *s)
{
	char		*end;
	long long	 v;

	if (*s < '0' || *s > '9')
		return (0);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0 || v <= 0)
		return (0);
	return ((int64_t)v);
}

/*
 * Parses a time control "BASE" or "BASE+INC" in milliseconds; returns 0,
 * or -1 if it is malformed or out of range.
 */
int
lobby_parse_tc(const char *s, uint64_t *base, uint64_t *inc)
{
	unsigned long long b, i = 0;
	char		*end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	b = strtoull(s, &end, 10);
	if (errno != 0)
		return (-1);
	if (*end == '+') {
		s = end + 1;
		if (*s < '0' || *s > '9')
			return (-1);
		i = strtoull(s, &end, 10);
		if (errno != 0)
			return (-1);
	}
	if (*end != '\0' || b == 0 || b > LOBBY_TC_MAX || i > LOBBY_TC_MAX)
		return (-1);
	*base = b;
	*inc = i;
	return (0);
}

/* Returns 1 if a token is a plain decimal number. */
static int
lobby_isnum(const char *s)
{
	if (*s == '\0')
		return (0);
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return (0);
	return (1);
}

/*
 * Draws a fair random start from a template: every number of the position
 * is an upper bound and is replaced by a uniform draw from 0..bound, until
 * the result is an N-position that is not over.  Returns 0, or -1 with err.
 */
int
lobby_draw_start(const struct game *tmpl, gmp_randstate_t rs,
    const struct game_limits *lim, struct game *out, struct game_error *err)
{
	struct buf	 text, drawn;
	char		*tok, *save, *copy;
	mpz_t		 n;
	int		 i, rv = -1;

	buf_init(&text);
	buf_init(&drawn);
	mpz_init(n);
	game_print(tmpl, &text);
	for (i = 0; i < LOBBY_DRAWS && rv != 0; i++) {
		buf_reset(&drawn);
		copy = xstrdup(buf_str(&text));
		for (tok = strtok_r(copy, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save)) {
			if (drawn.len > 0)
				buf_putc(&drawn, ' ');
			if (!lobby_isnum(tok)) {
				buf_puts(&drawn, tok);
				continue;
			}
			mpz_set_str(n, tok, 10);
			mpz_add_ui(n, n, 1);
			mpz_urandomm(n, rs, n);
			buf_mpz(&drawn, n);
		}
		free(copy);
		if (game_parse_line(out, buf_str(&drawn), lim, err) != 0)
			break;
		if (!game_terminal(out) && game_outcome(out, err) == GAME_N)
			rv = 0;
		else
			game_free(out);
	}
	if (rv != 0 && i == LOBBY_DRAWS)
		game_set_error(err, GAME_ELIMIT, "no fair start (an "
		    "N-position) in %d draws from %s", LOBBY_DRAWS,
		    buf_str(&text));
	mpz_clear(n);
	buf_free(&text);
	buf_free(&drawn);
	return (rv);
}

/* Returns a rating entry, added at the start rating if missing (locked). */
static struct lrating *
lobby_rating_get(struct lobby *lb, const char *name)
{
	size_t	 i;

	for (i = 0; i < lb->nratings; i++)
		if (strcmp(lb->ratings[i].name, name) == 0)
			return (&lb->ratings[i]);
	lb->ratings = xreallocarray(lb->ratings, lb->nratings + 1,
	    sizeof *lb->ratings);
	memset(&lb->ratings[lb->nratings], 0, sizeof *lb->ratings);
	lobby_copy(lb->ratings[lb->nratings].name, name,
	    sizeof lb->ratings[0].name);
	lb->ratings[lb->nratings].r = LOBBY_ELO_START;
	return (&lb->ratings[lb->nratings++]);
}

/* Applies one rated result to the Elo ratings (winner: 1 or 2). */
static void
lobby_rate(struct lobby *lb, const char *p1, const char *p2, int winner)
{
	struct lrating	*a, *b;
	double		 ea, sa;

	pthread_mutex_lock(&lb->rmtx);
	/* Adding b may move the array: add both first, then look up. */
	(void)lobby_rating_get(lb, p1);
	b = lobby_rating_get(lb, p2);
	a = lobby_rating_get(lb, p1);
	ea = 1.0 / (1.0 + pow(10.0, (b->r - a->r) / 400.0));
	sa = winner == 1 ? 1.0 : 0.0;
	a->r += LOBBY_ELO_K * (sa - ea);
	b->r -= LOBBY_ELO_K * (sa - ea);
	a->games++;
	b->games++;
	pthread_mutex_unlock(&lb->rmtx);
}

/*
 * Returns 1 and a player's rounded rating and rated games, or 0 if it has
 * none (any thread).
 */
int
lobby_rating(struct lobby *lb, const char *name, long *r, unsigned long *n)
{
	size_t	 i;
	int	 found = 0;

	*r = (long)LOBBY_ELO_START;
	*n = 0;
	pthread_mutex_lock(&lb->rmtx);
	for (i = 0; i < lb->nratings; i++)
		if (strcmp(lb->ratings[i].name, name) == 0) {
			*r = lround(lb->ratings[i].r);
			*n = lb->ratings[i].games;
			found = 1;
		}
	pthread_mutex_unlock(&lb->rmtx);
	return (found);
}

/* Sends a seat its game: the position now, and genmove if it moves. */
static void
lg_send_new(struct lgame *g, int seat)
{
	struct lobby_client *lc = g->p[seat - 1].lc;
	struct buf	 pos;

	buf_init(&pos);
	game_print(&g->game, &pos);
	lc_command(lc, LCMD_NEW, g->id, 0, "new %s", buf_str(&pos));
	buf_free(&pos);
}

/* Asks the seat to move the genmove of the current turn. */
static void
lg_send_genmove(struct lgame *g)
{
	struct lobby_client *lc = g->p[g->to_move - 1].lc;
	uint64_t	 now = lobby_now_ms();

	if (lc == NULL)
		return;
	lc_command(lc, LCMD_GENMOVE, g->id, g->serial,
	    "genmove time1=%llu time2=%llu",
	    (unsigned long long)lg_clock(g, 1, now),
	    (unsigned long long)lg_clock(g, 2, now));
}

/* Sends the game-start event to a seated client. */
static void
lg_send_start(struct lgame *g, int seat)
{
	struct buf	 tc;

	buf_init(&tc);
	lobby_tc_print(&tc, g->base_ms, g->inc_ms);
	lc_event(g->p[seat - 1].lc, "start %lld %s %s you=%d token=%s tc=%s "
	    "rated=%d %s", (long long)g->id, g->p[0].name, g->p[1].name, seat,
	    g->p[seat - 1].token, buf_str(&tc), g->rated, g->start);
	buf_free(&tc);
}

/* The clock of the seat to move ran out. */
static void
lg_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct lgame	*g = arg;

	(void)fd;
	(void)what;
	if (g->over)
		return;
	if (!g->lag_checked && lobby_now_ms() > g->turn_start +
	    g->p[g->to_move - 1].clock_ms + g->lb->conf.grace_ms +
	    LOBBY_LAG_MS) {
		/*
		 * The loop was late: an answer that reached the socket in
		 * time may wait among this round's reads.  Decide after them.
		 */
		struct timeval	 zero = { 0, 0 };

		g->lag_checked = 1;
		evtimer_add(g->timer, &zero);
		return;
	}
	log_info("game=%lld event=timeout seat=%d player=%s", (long long)g->id,
	    g->to_move, g->p[g->to_move - 1].name);
	lg_finish(g, 3 - g->to_move, "timeout");
}

/*
 * Notes when the client's latest input reached the server's socket
 * (lobby_now_ms time; from the kernel's receive time stamp), for clocks.
 */
void
lobby_rx_time(struct lobby_client *lc, uint64_t ms)
{
	lc->rx_ms = ms;
}

/* Starts the clock of the seat to move (a human) and arms the timer. */
static void
lg_clock_start(struct lgame *g)
{
	struct lplayer	*p = &g->p[g->to_move - 1];
	struct timeval	 tv;
	uint64_t	 ms = p->clock_ms + g->lb->conf.grace_ms + 1;

	g->turn_start = lobby_now_ms();
	g->lag_checked = 0;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(g->timer, &tv);
}

/*
 * Applies a checked move of the seat to move: charges its clock, logs the
 * move, tells the opponent and the spectators, and goes on to the next
 * turn.
 */
static void
lg_apply(struct lgame *g, const struct game_move *m, enum store_mark mark,
    uint64_t used, long rtt_us)
{
	struct lplayer	*p = &g->p[g->to_move - 1], *o;
	struct store_move sm;
	struct game_error err;
	struct buf	 mv, pos;
	uint64_t	 now;
	int		 seat = g->to_move;
	size_t		 i;

	if (!p->engine) {
		p->clock_ms = used >= p->clock_ms ? 0 : p->clock_ms - used;
		p->clock_ms += g->inc_ms;
	}
	p->illegal = 0;
	evtimer_del(g->timer);
	buf_init(&mv);
	buf_init(&pos);
	game_move_print(m, &mv);
	game_play(&g->game, m, &err);
	game_print(&g->game, &pos);
	g->ply++;
	g->to_move = 3 - seat;
	if (g->logged) {
		sm.ply = g->ply;
		sm.player = seat;
		sm.move = buf_str(&mv);
		sm.position = buf_str(&pos);
		sm.time_ms = (unsigned long)used;
		sm.mark = mark;
		sm.has_delay = rtt_us >= 0;
		sm.delay_us = rtt_us >= 0 ? (unsigned long)rtt_us : 0;
		store_move(g->lb->store, g->id, &sm);
	}
	now = lobby_now_ms();
	g->turn_start = now;		/* clocks read right in the messages */
	o = &g->p[g->to_move - 1];
	if (o->lc != NULL)
		lc_command(o->lc, LCMD_PLAY, g->id, 0,
		    "play %s time1=%llu time2=%llu", buf_str(&mv),
		    (unsigned long long)g->p[0].clock_ms,
		    (unsigned long long)g->p[1].clock_ms);
	for (i = 0; i < g->nwatchers; i++)
		lc_event(g->watchers[i], "move %lld %lu %d %s time1=%llu "
		    "time2=%llu", (long long)g->id, g->ply, seat, buf_str(&mv),
		    (unsigned long long)g->p[0].clock_ms,
		    (unsigned long long)g->p[1].clock_ms);
	buf_free(&mv);
	buf_free(&pos);
	lg_turn(g);
}

/*
 * Starts the next turn: ends a finished game, lets the engine move, or
 * starts the mover's clock and asks it for a move.
 */
static void
lg_turn(struct lgame *g)
{
	struct game_error err;
	struct game_move m;
	enum engine_why	 why;
	struct lplayer	*p;

	if (g->over)
		return;
	if (game_terminal(&g->game)) {
		/* No move: the mover loses, except in misere (outcome N). */
		if (game_outcome(&g->game, &err) == GAME_N)
			lg_finish(g, g->to_move, "last-token-taken");
		else
			lg_finish(g, 3 - g->to_move, "no-legal-move");
		return;
	}
	g->serial++;
	p = &g->p[g->to_move - 1];
	if (p->engine) {
		game_move_init(&m);
		if (engine_choose(&g->game, g->lb->rs, &m, &why, &err) != 0) {
			log_warnx("game=%lld event=engine-failed msg=\"%s\"",
			    (long long)g->id, err.msg);
			game_move_clear(&m);
			lg_finish(g, 3 - g->to_move, "resign");
			return;
		}
		lg_apply(g, &m, why == ENGINE_WIN ? STORE_KEPT_WIN :
		    STORE_NO_WIN, 0, -1);
		game_move_clear(&m);
		return;
	}
	lg_clock_start(g);
	lg_send_genmove(g);
}

/* Fills a seat for a client, the engine (lc NULL, engine 1) or nobody. */
static void
lg_seat(struct lgame *g, int seat, struct lobby_client *lc, int engine)
{
	struct lplayer	*p = &g->p[seat - 1];

	p->clock_ms = g->base_ms;
	p->engine = engine;
	if (engine) {
		lobby_copy(p->name, "engine", sizeof p->name);
		return;
	}
	if (lc->game != NULL)
		fatalx("event=bug what=seat-taken conn=%llu game=%lld",
		    (unsigned long long)lc->connid, (long long)lc->game->id);
	p->lc = lc;
	lc->game = g;
	lc->seat = seat;
	if (lc->name[0] != '\0') {
		lobby_copy(p->name, lc->name, sizeof p->name);
		p->account = 1;
	} else
		snprintf(p->name, sizeof p->name, "%s:%llu",
		    lc->anon[0] != '\0' ? lc->anon : "conn",
		    (unsigned long long)lc->connid);
	lobby_token(p->token);
}

/*
 * Starts a game on a start position (taken over by the game) between two
 * seats: a client each, or the engine (NULL with engine set for that
 * seat).  Logs it, sends both seats their start, and plays the first turn.
 */
static struct lgame *
lg_start(struct lobby *lb, struct game *start, struct lobby_client *c1,
    struct lobby_client *c2, int engine_seat, uint64_t base, uint64_t inc,
    int rated, struct ltour *t, size_t slot)
{
	struct lgame	*g;
	struct store_game sg;
	struct buf	 pos, tc;
	int		 s;

	if (c1 != NULL && c1 == c2)
		fatalx("event=bug what=same-client-both-seats");
	g = xcalloc(1, sizeof *g);
	g->lb = lb;
	g->game = *start;
	memset(start, 0, sizeof *start);
	g->to_move = 1;
	g->base_ms = base;
	g->inc_ms = inc;
	g->rated = rated;
	g->tour = t;
	g->slot = slot;
	g->timer = evtimer_new(lb->base, lg_timer_cb, g);
	buf_init(&pos);
	game_print(&g->game, &pos);
	g->start = xstrdup(buf_str(&pos));
	buf_free(&pos);
	lg_seat(g, 1, c1, engine_seat == 1);
	lg_seat(g, 2, c2, engine_seat == 2);
	if (lb->store != NULL) {
		buf_init(&tc);
		lobby_tc_print(&tc, base, inc);
		memset(&sg, 0, sizeof sg);
		sg.family = g->game.fam->name;
		sg.game = g->start;
		sg.player1 = g->p[0].name;
		sg.player2 = g->p[1].name;
		sg.rated = rated;
		sg.tc = buf_str(&tc);
		sg.tournament = t != NULL ? t->def.id : 0;
		sg.slot = (unsigned int)slot;
		g->id = store_game_begin(lb->store, &sg);
		buf_free(&tc);
	}
	if (g->id > 0)
		g->logged = 1;
	else
		g->id = ++lb->next_gid;
	TAILQ_INSERT_TAIL(&lb->games, g, entry);
	log_info("game=%lld event=start player1=%s player2=%s rated=%d "
	    "start=\"%s\"", (long long)g->id, g->p[0].name, g->p[1].name,
	    rated, g->start);
	for (s = 1; s <= 2; s++)
		if (g->p[s - 1].lc != NULL) {
			lg_send_start(g, s);
			lg_send_new(g, s);
		}
	lg_turn(g);
	return (g);
}

/* Frees a game that has ended and been logged. */
static void
lg_free(struct lgame *g)
{
	TAILQ_REMOVE(&g->lb->games, g, entry);
	event_free(g->timer);
	game_free(&g->game);
	free(g->start);
	free(g->detail);
	free(g->watchers);
	free(g);
}

/* Removes a game id from a client's watch list. */
static void
lc_unwatch(struct lobby_client *lc, int64_t id)
{
	size_t	 i;

	for (i = 0; i < lc->nwatch; i++)
		if (lc->watch[i] == id) {
			lc->watch[i] = lc->watch[--lc->nwatch];
			return;
		}
}

/* Records a finished tournament game and closes a complete tournament. */
static void
lobby_tour_result(struct lobby *lb, struct ltour *t, size_t slot, int winner)
{
	size_t	 i;

	t->slots[slot].state = 2;
	t->slots[slot].winner = winner;
	if (t->def.status != LEAGUE_T_RUNNING)
		return;			/* cancelled meanwhile: stays so */
	for (i = 0; i < t->nslots; i++)
		if (t->slots[i].state != 2)
			return;
	t->def.status = LEAGUE_T_FINISHED;
	if (league_tournament_status(lb->league, t->def.id,
	    LEAGUE_T_FINISHED) != 0)
		log_warnx("tournament=%s event=status-failed",
		    t->def.name);
	log_info("tournament=%s event=finished games=%zu", t->def.name,
	    t->nslots);
}

/*
 * The log has the game's end (or failed to write it): tell the players
 * and the spectators, rate it, count it for its tournament, free it.
 */
static void
lg_logged(void *arg)
{
	struct lgame	*g = arg;
	struct lobby	*lb = g->lb;
	const char	*res = g->winner == 1 ? "first" : g->winner == 2 ?
			    "second" : "-";
	const char	*sp = g->detail != NULL ? " " : "";
	const char	*det = g->detail != NULL ? g->detail : "";
	size_t		 i;
	int		 s;

	for (s = 1; s <= 2; s++) {
		struct lobby_client *lc = g->p[s - 1].lc;

		if (lc == NULL)
			continue;
		if (g->logged && !g->log_ok)
			lc_event(lc, "unlogged %lld the game log could not "
			    "write this result", (long long)g->id);
		lc_command(lc, LCMD_GAMEOVER, g->id, 0, "gameover %s %s%s%s",
		    res, g->reason, sp, det);
		lc->game = NULL;
		lc->seat = 0;
	}
	for (i = 0; i < g->nwatchers; i++) {
		if (g->logged && !g->log_ok)
			lc_event(g->watchers[i], "unlogged %lld the game log "
			    "could not write this result", (long long)g->id);
		lc_event(g->watchers[i], "gameover %lld %s %s%s%s",
		    (long long)g->id, res, g->reason, sp, det);
		lc_unwatch(g->watchers[i], g->id);
	}
	/* Ratings follow the log: a game it lacks is not rated. */
	if (g->rated && g->p[0].account && g->p[1].account && g->log_ok &&
	    g->winner != 0)
		lobby_rate(lb, g->p[0].name, g->p[1].name, g->winner);
	if (g->tour != NULL && g->tour->slots[g->slot].state == 1) {
		/* slots[].a is seat 1: the winner is a (1) or b (2). */
		if (g->winner != 0)
			lobby_tour_result(lb, g->tour, g->slot, g->winner);
		else
			g->tour->slots[g->slot].state = 0;	/* replayed */
	}
	log_info("game=%lld event=over result=%s reason=%s plies=%lu",
	    (long long)g->id, res, g->reason, g->ply);
	lg_free(g);
	lobby_schedule(lb);
}

/* The store's writer committed a game's end (writer thread). */
static void
lg_logged_cb(void *arg, int ok)
{
	struct lgame	*g = arg;

	if (!ok)
		log_warnx("game=%lld event=log-failed what=game-end",
		    (long long)g->id);
	g->log_ok = ok;
	g->lb->io.defer(g->lb->io.arg, lg_logged, g);
}

/* Ends a game: the winner is a seat; the rest follows once it is logged. */
static void
lg_finish(struct lgame *g, int winner, const char *reason)
{
	lg_finish_detail(g, winner, reason, NULL);
}

/*
 * lg_finish with a line of detail (copied; NULL for none), which goes to
 * the players and spectators after the reason, and into the record.
 * winner 0 ends the game without a result (an admin's abort).
 */
static void
lg_finish_detail(struct lgame *g, int winner, const char *reason,
    const char *detail)
{
	if (g->over)
		return;
	g->over = 1;
	g->winner = winner;
	g->reason = reason;
	g->detail = detail != NULL ? xstrdup(detail) : NULL;
	evtimer_del(g->timer);
	if (g->logged)
		store_game_end_detail(g->lb->store, g->id, winner == 1 ?
		    STORE_RESULT_FIRST : winner == 2 ? STORE_RESULT_SECOND :
		    STORE_RESULT_NONE, reason, g->detail, STORE_FINISHED,
		    lg_logged_cb, g);
	else {
		/* No log: still never free the game under the caller. */
		g->lb->io.defer(g->lb->io.arg, lg_logged, g);
	}
}

/* Builds the schedule of a tournament. */
static void
lobby_tour_slots(struct ltour *t)
{
	struct league_tournament *d = &t->def;
	size_t		 i, j, n = d->nplayers, pairs, p, k;
	size_t		(*pv)[2];

	pairs = d->format == LEAGUE_GAUNTLET ? n - 1 : n * (n - 1) / 2;
	pv = xreallocarray(NULL, pairs, sizeof *pv);
	p = 0;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (d->format == LEAGUE_GAUNTLET && i != 0)
				continue;
			pv[p][0] = i;
			pv[p][1] = j;
			p++;
		}
	t->nslots = pairs * d->games_per_pair;
	t->slots = xreallocarray(NULL, t->nslots, sizeof *t->slots);
	/* Round by round, so that different pairings can play at once. */
	for (k = 0; k < d->games_per_pair; k++)
		for (p = 0; p < pairs; p++) {
			struct lslot *s = &t->slots[k * pairs + p];

			memset(s, 0, sizeof *s);
			s->a = pv[p][k % 2];
			s->b = pv[p][1 - k % 2];
			s->pairing = p;
			s->round = (unsigned int)k;
		}
	free(pv);
}

/* Returns a connection of an account free to start a game, or NULL. */
static struct lobby_client *
lobby_free_client(struct lobby *lb, const char *name, int need_ready)
{
	struct lobby_client *lc, *best = NULL;

	TAILQ_FOREACH(lc, &lb->clients, entry)
		if (strcmp(lc->name, name) == 0 && lc->game == NULL &&
		    (lc->ready || !need_ready))
			best = lc;		/* the newest */
	return (best);
}

/*
 * Returns the id of a live game the account is seated in (even if away),
 * or 0.
 */
static int64_t
lobby_playing(struct lobby *lb, const char *name)
{
	struct lgame	*g;

	TAILQ_FOREACH(g, &lb->games, entry)
		if ((g->p[0].account && strcmp(g->p[0].name, name) == 0) ||
		    (g->p[1].account && strcmp(g->p[1].name, name) == 0))
			return (g->id);
	return (0);
}

/* Makes the start position of a tournament slot. */
static int
lobby_tour_start(struct lobby *lb, struct ltour *t, struct lslot *s,
    struct game *out, struct game_error *err)
{
	struct game	 tmpl;
	gmp_randstate_t	 rs;
	int		 rv;

	if (game_parse_line(&tmpl, t->def.game, &lb->conf.lim, err) != 0)
		return (-1);
	if (!t->def.random) {
		*out = tmpl;
		return (0);
	}
	/* The same start for both seats of a pairing: rounds 2k, 2k+1. */
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, (unsigned long)(t->def.seed * 1000003ULL +
	    s->pairing * 1009ULL + s->round / 2));
	rv = lobby_draw_start(&tmpl, rs, &lb->conf.lim, out, err);
	gmp_randclear(rs);
	game_free(&tmpl);
	return (rv);
}

/* Starts every tournament game whose two players are ready and free. */
static void
lobby_schedule(struct lobby *lb)
{
	struct lobby_client *a, *b;
	struct game_error err;
	struct game	 start;
	struct ltour	*t;
	size_t		 i;

	TAILQ_FOREACH(t, &lb->tours, entry) {
		if (t->def.status != LEAGUE_T_RUNNING)
			continue;
		for (i = 0; i < t->nslots; i++) {
			struct lslot *s = &t->slots[i];

			if (s->state != 0)
				continue;
			if (lobby_playing(lb, t->def.players[s->a]) ||
			    lobby_playing(lb, t->def.players[s->b]))
				continue;
			a = lobby_free_client(lb, t->def.players[s->a], 1);
			b = lobby_free_client(lb, t->def.players[s->b], 1);
			if (a == NULL || b == NULL)
				continue;
			if (lobby_tour_start(lb, t, s, &start, &err) != 0) {
				log_warnx("tournament=%s event=start-failed "
				    "msg=\"%s\"", t->def.name, err.msg);
				continue;
			}
			s->state = 1;
			lc_drop_seek(a);
			lc_drop_seek(b);
			lg_start(lb, &start, a, b, 0, t->def.base_ms,
			    t->def.inc_ms, 1, t, i);
		}
	}
}

/*
 * Loads every tournament and what it has played: running ones resume,
 * the others answer standings.
 */
static int
lobby_load_tours(struct lobby *lb, char *err, size_t errlen)
{
	struct league_tournament *v = NULL;
	struct league_tgame *tg = NULL;
	struct ltour	*t;
	size_t		 n = 0, ng, i, j;

	if (league_tournaments(lb->league, 1, &v, &n) != 0) {
		snprintf(err, errlen, "cannot read the tournaments");
		return (-1);
	}
	for (i = 0; i < n; i++) {
		t = xcalloc(1, sizeof *t);
		t->def = v[i];
		lobby_tour_slots(t);
		TAILQ_INSERT_TAIL(&lb->tours, t, entry);
		if (league_tournament_games(lb->league, t->def.id, &tg,
		    &ng) != 0) {
			free(v);
			snprintf(err, errlen, "cannot read the games of "
			    "tournament %s", t->def.name);
			return (-1);
		}
		for (j = 0; j < ng; j++)
			if (tg[j].finished && tg[j].slot < t->nslots &&
			    tg[j].result != 0)
				t->slots[tg[j].slot].state = 2,
				t->slots[tg[j].slot].winner = tg[j].result;
		free(tg);
		tg = NULL;
		for (j = 0; j < t->nslots && t->slots[j].state == 2; j++)
			;
		if (j == t->nslots && t->def.status == LEAGUE_T_RUNNING) {
			/* Every game counted, but the end was never stored. */
			t->def.status = LEAGUE_T_FINISHED;
			if (league_tournament_status(lb->league, t->def.id,
			    LEAGUE_T_FINISHED) != 0)
				log_warnx("tournament=%s event=status-failed",
				    t->def.name);
		}
		log_info("tournament=%s event=loaded status=%s games=%zu",
		    t->def.name, t->def.status == LEAGUE_T_RUNNING ? "running" :
		    t->def.status == LEAGUE_T_FINISHED ? "finished" :
		    "cancelled", t->nslots);
	}
	free(v);
	return (0);
}

/* Replays the rated games of the log into the ratings. */
static int
lobby_load_ratings(struct lobby *lb, char *err, size_t errlen)
{
	struct league_rgame *v = NULL;
	size_t		 n = 0, i;

	if (league_rated_games(lb->league, &v, &n) != 0) {
		snprintf(err, errlen, "cannot read the rated games");
		return (-1);
	}
	for (i = 0; i < n; i++)
		lobby_rate(lb, v[i].player1, v[i].player2, v[i].result);
	free(v);
	log_info("event=ratings games=%zu players=%zu", n, lb->nratings);
	return (0);
}

/* Creates the lobby; with a league, resumes tournaments and ratings. */
struct lobby *
lobby_new(struct event_base *base, struct store *st, struct league *lg,
    const struct lobby_io *io, const struct lobby_conf *conf, char *err,
    size_t errlen)
{
	struct lobby	*lb;

	lb = xcalloc(1, sizeof *lb);
	lb->base = base;
	lb->store = st;
	lb->league = lg;
	lb->io = *io;
	lb->conf = *conf;
	TAILQ_INIT(&lb->clients);
	TAILQ_INIT(&lb->games);
	TAILQ_INIT(&lb->seeks);
	TAILQ_INIT(&lb->challs);
	TAILQ_INIT(&lb->tours);
	gmp_randinit_default(lb->rs);
	gmp_randseed_ui(lb->rs, (unsigned long)time(NULL) ^
	    (unsigned long)getpid());
	pthread_mutex_init(&lb->rmtx, NULL);
	if (lg != NULL && (lobby_load_ratings(lb, err, errlen) != 0 ||
	    lobby_load_tours(lb, err, errlen) != 0)) {
		lobby_free(lb);
		return (NULL);
	}
	return (lb);
}

/* Frees the lobby; live games are logged as abandoned (shutdown). */
void
lobby_free(struct lobby *lb)
{
	struct lgame	*g;
	struct ltour	*t;
	struct lseek	*sk;
	struct lchall	*ch;

	while ((g = TAILQ_FIRST(&lb->games)) != NULL) {
		if (g->logged && !g->over)
			store_game_end(lb->store, g->id, STORE_RESULT_NONE,
			    "shutdown", STORE_ABANDONED, NULL, NULL);
		lg_free(g);
	}
	while ((sk = TAILQ_FIRST(&lb->seeks)) != NULL) {
		TAILQ_REMOVE(&lb->seeks, sk, entry);
		free(sk->spec);
		free(sk);
	}
	while ((ch = TAILQ_FIRST(&lb->challs)) != NULL) {
		TAILQ_REMOVE(&lb->challs, ch, entry);
		free(ch->spec);
		free(ch);
	}
	while ((t = TAILQ_FIRST(&lb->tours)) != NULL) {
		TAILQ_REMOVE(&lb->tours, t, entry);
		league_tournament_free(&t->def);
		free(t->slots);
		free(t);
	}
	gmp_randclear(lb->rs);
	pthread_mutex_destroy(&lb->rmtx);
	free(lb->ratings);
	free(lb);
}

/* Applies new settings (SIGHUP). */
void
lobby_set_conf(struct lobby *lb, const struct lobby_conf *conf)
{
	lb->conf = *conf;
}

/* Adds a connection to the lobby. */
struct lobby_client *
lobby_attach(struct lobby *lb, void *conn, uint64_t connid)
{
	struct lobby_client *lc;

	lc = xcalloc(1, sizeof *lc);
	lc->lb = lb;
	lc->conn = conn;
	lc->connid = connid;
	STAILQ_INIT(&lc->out);
	buf_init(&lc->held);
	TAILQ_INSERT_TAIL(&lb->clients, lc, entry);
	return (lc);
}

/* Drops a client's seek. */
static void
lc_drop_seek(struct lobby_client *lc)
{
	struct lobby	*lb = lc->lb;

	if (lc->seek == NULL)
		return;
	TAILQ_REMOVE(&lb->seeks, lc->seek, entry);
	lb->nseeks--;
	free(lc->seek->spec);
	free(lc->seek);
	lc->seek = NULL;
}

/* Drops a challenge. */
static void
lobby_drop_chall(struct lobby *lb, struct lchall *ch)
{
	TAILQ_REMOVE(&lb->challs, ch, entry);
	lb->nchalls--;
	free(ch->spec);
	if (ch->start.fam != NULL)
		game_free(&ch->start);
	free(ch);
}

/*
 * Removes a connection: its seek, challenges and spectating go; a seat it
 * holds stays, with its clock running, for a resume.
 */
void
lobby_detach(struct lobby_client *lc, const char *reason)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch, *tch;
	struct lgame	*g;
	struct lcmd	*c;
	size_t		 i;

	lc_drop_seek(lc);
	TAILQ_FOREACH_SAFE(ch, &lb->challs, entry, tch)
		if (ch->from == lc)
			lobby_drop_chall(lb, ch);
	TAILQ_FOREACH(g, &lb->games, entry)
		for (i = 0; i < g->nwatchers; i++)
			if (g->watchers[i] == lc) {
				g->watchers[i] = g->watchers[--g->nwatchers];
				break;
			}
	if ((g = lc->game) != NULL) {
		g->p[lc->seat - 1].lc = NULL;
		if (!g->over) {
			log_info("game=%lld event=away seat=%d player=%s "
			    "reason=%s", (long long)g->id, lc->seat,
			    g->p[lc->seat - 1].name, reason);
			lg_tell_seat(g, lc->seat, "disconnected");
		}
	}
	while ((c = STAILQ_FIRST(&lc->out)) != NULL) {
		STAILQ_REMOVE_HEAD(&lc->out, entry);
		free(c);
	}
	TAILQ_REMOVE(&lb->clients, lc, entry);
	buf_free(&lc->held);
	free(lc);
}

/* Tells the other seat and the spectators that a seat left or came back. */
static void
lg_tell_seat(struct lgame *g, int seat, const char *what)
{
	struct lobby_client *o = g->p[2 - seat].lc;
	size_t		 i;

	if (o != NULL)
		lc_event(o, "%s %lld %d", what, (long long)g->id, seat);
	for (i = 0; i < g->nwatchers; i++)
		lc_event(g->watchers[i], "%s %lld %d", what, (long long)g->id,
		    seat);
}

/* Sets a client's address (for admins) and the anonymous-name prefix. */
void
lobby_set_peer(struct lobby_client *lc, const char *peer, const char *anon)
{
	lobby_copy(lc->peer, peer, sizeof lc->peer);
	lobby_copy(lc->anon, anon, sizeof lc->anon);
}

/*
 * After a login's reply: one "event live" per seat the account holds in a
 * live game, so a restarted program can resume it by id.
 */
void
lobby_login_live(struct lobby_client *lc)
{
	struct lgame	*g;
	struct buf	 tc;
	int		 s;

	if (lc->name[0] == '\0')
		return;
	buf_init(&tc);
	TAILQ_FOREACH(g, &lc->lb->games, entry) {
		if (g->over)
			continue;
		for (s = 1; s <= 2; s++) {
			if (!g->p[s - 1].account ||
			    strcmp(g->p[s - 1].name, lc->name) != 0)
				continue;
			buf_reset(&tc);
			lobby_tc_print(&tc, g->base_ms, g->inc_ms);
			lc_event(lc, "live %lld %s %s you=%d tc=%s rated=%d %s",
			    (long long)g->id, g->p[0].name, g->p[1].name, s,
			    buf_str(&tc), g->rated, g->start);
		}
	}
	buf_free(&tc);
}

/* A disabled account, on its way to the loop. */
struct ldisabled {
	struct lobby	*lb;
	char		 name[LEAGUE_NAME_MAX + 1];
	char		*reason;
};

/* lobby_disabled's work, on the loop. */
static void
lobby_disabled_cb(void *arg)
{
	struct ldisabled *d = arg;
	struct lobby	*lb = d->lb;
	struct lobby_client *lc;

	TAILQ_FOREACH(lc, &lb->clients, entry)
		if (strcmp(lc->name, d->name) == 0) {
			lc_event(lc, "disabled %s", d->reason);
			if (lb->io.kick != NULL)
				lb->io.kick(lb->io.arg, lc->conn);
		}
	free(d->reason);
	free(d);
}

/*
 * An admin disabled an account (any thread): on the loop, its connections
 * are told ("event disabled REASON") and dropped.  Its seats stay, with
 * their clocks running, as for any disconnect.
 */
void
lobby_disabled(struct lobby *lb, const char *name, const char *reason)
{
	struct ldisabled *d;

	d = xcalloc(1, sizeof *d);
	d->lb = lb;
	lobby_copy(d->name, name, sizeof d->name);
	d->reason = xstrdup(reason);
	lb->io.defer(lb->io.arg, lobby_disabled_cb, d);
}

/* A connection logged in (name) with or without the admin role. */
void
lobby_login(struct lobby_client *lc, const char *name, int admin)
{
	struct lchall	*ch, *tch;

	if (strcmp(lc->name, name) != 0) {
		/* A new identity: what the old one offered goes. */
		lc_drop_seek(lc);
		lc->ready = 0;
		TAILQ_FOREACH_SAFE(ch, &lc->lb->challs, entry, tch)
			if (ch->from == lc)
				lobby_drop_chall(lc->lb, ch);
	}
	lobby_copy(lc->name, name, sizeof lc->name);
	lc->admin = admin;
}

/* Returns 1 if the client waits on the lobby (no idle timeout then). */
int
lobby_active(const struct lobby_client *lc)
{
	return (lc->game != NULL || lc->seek != NULL || lc->ready ||
	    lc->nwatch > 0);
}

/* Starts holding what the lobby sends a client while its command runs. */
void
lobby_hold(struct lobby_client *lc)
{
	lc->holding = 1;
}

/* Appends what was held to out (after the command's reply) and stops. */
void
lobby_release(struct lobby_client *lc, struct buf *out)
{
	lc->holding = 0;
	if (lc->held.len > 0)
		buf_add(out, lc->held.data, lc->held.len);
	buf_reset(&lc->held);
	if (lc->held.cap > 65536)
		buf_free(&lc->held);
}

/*
 * Appends text as a JSON string (at most LOBBY_QUOTE_MAX bytes of it):
 * quotes, backslashes and control bytes escaped, so it is one token that
 * ends at its closing quote.
 */
static void
lobby_quote(struct buf *b, const char *text)
{
	const unsigned char *p;
	size_t		 n = 0;

	buf_putc(b, '"');
	for (p = (const unsigned char *)text; *p != '\0' &&
	    n < LOBBY_QUOTE_MAX; p++, n++) {
		if (*p == '"' || *p == '\\')
			buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\u%04x", *p);
		else
			buf_putc(b, (char)*p);
	}
	buf_putc(b, '"');
}

/* Logs a refused move of the seat to move (every illegal-move policy). */
static void
lg_refused(struct lgame *g, const char *text, const char *why,
    uint64_t used, long rtt)
{
	struct store_refused r;
	char		 move[LOBBY_QUOTE_MAX + 1];

	if (!g->logged)
		return;
	snprintf(move, sizeof move, "%.*s", LOBBY_QUOTE_MAX, text);
	memset(&r, 0, sizeof r);
	r.ply = g->ply + 1;
	r.player = g->to_move;
	r.move = move;
	r.reason = why;
	r.time_ms = (unsigned long)used;
	r.has_delay = rtt >= 0;
	r.delay_us = rtt >= 0 ? (unsigned long)rtt : 0;
	store_refused(g->lb->store, g->id, &r);
}

/*
 * A genmove answer from the seat to move: resign, illegal or a move; bad
 * says why an answer that breaks the protocol (several lines, too long)
 * is no move.
 */
static void
lg_answer_move(struct lgame *g, int ok, const char *text, const char *bad)
{
	struct lplayer	*p = &g->p[g->to_move - 1];
	struct game_error err;
	struct game_move m;
	char		*copy, *argv[GAME_MOVE_MAX + 1], *tok, *save;
	int		 argc = 0, before;
	uint64_t	 used = lobby_now_ms() - g->turn_start, rx;
	long		 rtt = -1;

	if (p->lc != NULL && g->lb->io.rtt != NULL)
		rtt = g->lb->io.rtt(g->lb->io.arg, p->lc->conn);

	/*
	 * The clock stops when the answer reached the server's socket (the
	 * latest receive, which holds it), not when the loop got to it: a
	 * busy server does not bill the player.  The clock starts after the
	 * genmove is written, so a quick answer may even precede it.
	 */
	rx = p->lc != NULL ? p->lc->rx_ms : 0;
	if (rx != 0 && rx < g->turn_start)
		used = 0;
	else if (rx != 0 && rx - g->turn_start < used)
		used = rx - g->turn_start;
	if (used > p->clock_ms + g->lb->conf.grace_ms) {
		lg_finish(g, 3 - g->to_move, "timeout");
		return;
	}
	if (!ok || strcmp(text, "resign") == 0) {
		lg_finish(g, 3 - g->to_move, "resign");
		return;
	}
	copy = xstrdup(text);
	for (tok = strtok_r(copy, " \t", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		if (argc == GAME_MOVE_MAX + 1)
			break;
		argv[argc++] = tok;
	}
	game_move_init(&m);
	if (argc == 0)
		game_set_error(&err, GAME_ESYNTAX, "empty move");
	if (bad != NULL)
		game_set_error(&err, GAME_ESYNTAX, "%s", bad);
	if (bad != NULL || argc == 0 || argc > GAME_MOVE_MAX ||
	    game_move_parse(&g->game, &m, argc, argv, &g->lb->conf.lim,
	    &err) != 0 ||
	    game_check(&g->game, &m, &err) != 0) {
		if (argc > GAME_MOVE_MAX && bad == NULL)
			game_set_error(&err, GAME_ESYNTAX, "too many tokens");
		log_info("game=%lld event=illegal seat=%d move=\"%.64s\" "
		    "why=\"%s\"", (long long)g->id, g->to_move, text, err.msg);
		lg_refused(g, text, err.msg, used, rtt);
		if (g->lb->conf.illegal_retry && p->illegal < LOBBY_RETRIES &&
		    p->lc != NULL) {
			p->illegal++;
			lc_event(p->lc, "illegal %lld %.200s %s",
			    (long long)g->id, text, err.msg);
			g->serial++;
			lg_send_genmove(g);
		} else {
			struct buf	 d;

			buf_init(&d);
			lobby_quote(&d, text);
			buf_printf(&d, " %s", err.msg);
			lg_finish_detail(g, 3 - g->to_move, "illegal-move",
			    buf_str(&d));
			buf_free(&d);
		}
		free(copy);
		game_move_clear(&m);
		return;
	}
	free(copy);
	before = game_outcome(&g->game, &err);
	{
		struct game	 after;
		enum store_mark	 mark = STORE_NO_WIN;

		if (before == GAME_N) {
			game_clone(&after, &g->game);
			game_play(&after, &m, &err);
			mark = game_outcome(&after, &err) == GAME_P ?
			    STORE_KEPT_WIN : STORE_THREW_WIN;
			game_free(&after);
		}
		lg_apply(g, &m, mark, used, rtt);
	}
	game_move_clear(&m);
}

/* The name of a server command, for the log. */
static const char *
lcmd_name(enum lcmd_kind kind)
{
	switch (kind) {
	case LCMD_NEW:
		return ("new");
	case LCMD_PLAY:
		return ("play");
	case LCMD_GENMOVE:
		return ("genmove");
	case LCMD_GAMEOVER:
		break;
	}
	return ("gameover");
}

/*
 * Takes a complete answer block from a client (proto_answer_feed) and
 * gives it to the outstanding server command with its id (without an id:
 * the oldest); older commands left unanswered are forgotten, as GTP
 * answers come in order.  Returns 0 if no outstanding command has that
 * id (unknown, stale or duplicate): the caller answers it as an error.
 * Every answer here is one line; more is a protocol error for that
 * command only.
 */
int
lobby_answer(struct lobby_client *lc, const struct proto_answer *a)
{
	struct lcmd	*c;
	struct lgame	*g;
	const char	*text = a->body.data != NULL ? a->body.data : "";
	const char	*bad = NULL;

	if (a->has_id) {
		STAILQ_FOREACH(c, &lc->out, entry)
			if (c->id == a->id)
				break;
	} else
		c = STAILQ_FIRST(&lc->out);
	if (c == NULL)
		return (0);
	while (c != NULL) {
		struct lcmd *first = STAILQ_FIRST(&lc->out);

		STAILQ_REMOVE_HEAD(&lc->out, entry);
		lc->nout--;
		if (first == c)
			break;
		free(first);		/* older, never answered: skipped */
	}
	if (a->over)
		bad = "answer too long";
	else if (a->lines > 1)
		bad = "answer of several lines";
	if (bad != NULL || !a->ok)
		log_info("conn=%llu event=%s cmd=%s id=%llu msg=\"%.100s\"",
		    (unsigned long long)lc->connid, bad != NULL ?
		    "protocol-error" : "command-refused", lcmd_name(c->kind),
		    (unsigned long long)c->id, bad != NULL ? bad : text);
	if (c->kind != LCMD_GENMOVE) {
		free(c);
		return (1);
	}
	g = lobby_game(lc->lb, c->gid);
	if (g != NULL && !g->over && g->serial == c->serial &&
	    g->p[g->to_move - 1].lc == lc)
		lg_answer_move(g, a->ok, bad != NULL ? "-" : text, bad);
	free(c);
	return (1);
}

/* Options of seek and challenge, taken out of the game tokens. */
struct lopts {
	uint64_t	 base_ms, inc_ms;
	int		 rated;		/* -1: default */
	int		 engine;
	int		 random;
	int		 seat;		/* 0: random */
	struct game	 game;		/* the position or template */
	struct buf	 spec;		/* its canonical text */
	struct game	 drawn;		/* prepared draw (random=1), or empty */
	int		 prepared;	/* random=1 was drawn off the loop */
};

/*
 * Parses "GAME [tc=..] [rated=..] [opponent=..] [random=1] [seat=..]";
 * fills o and returns 0, or puts the error in body and returns -1.
 */
static int
lobby_opts(struct lobby *lb, int argc, char **argv, struct lopts *o,
    int challenge, struct buf *body)
{
	struct game_error err;
	char		**rest;
	size_t		 len;
	int		 i, n = 0;

	memset(o, 0, sizeof *o);
	o->base_ms = lb->conf.default_base_ms;
	o->inc_ms = lb->conf.default_inc_ms;
	o->rated = -1;
	buf_init(&o->spec);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "tc=", 3) == 0) {
			if (lobby_parse_tc(a + 3, &o->base_ms, &o->inc_ms)) {
				buf_printf(body, "invalid time control %.64s: "
				    "tc=BASE or tc=BASE+INC in ms, BASE 1.."
				    "%llu", a + 3, LOBBY_TC_MAX);
				goto fail;
			}
		} else if (strcmp(a, "rated=0") == 0 ||
		    strcmp(a, "rated=1") == 0)
			o->rated = a[6] - '0';
		else if (strcmp(a, "random=1") == 0)
			o->random = 1;
		else if (strcmp(a, "random=0") == 0)
			o->random = 0;
		else if (!challenge && strcmp(a, "opponent=engine") == 0)
			o->engine = 1;
		else if (!challenge && strcmp(a, "opponent=any") == 0)
			o->engine = 0;
		else if (strcmp(a, "seat=1") == 0 || strcmp(a, "seat=2") == 0)
			o->seat = a[5] - '0';
		else if (strncmp(a, "rated=", 6) == 0 ||
		    strncmp(a, "random=", 7) == 0 ||
		    strncmp(a, "seat=", 5) == 0 ||
		    strncmp(a, "opponent=", 9) == 0) {
			buf_printf(body, "invalid option %.64s", a);
			goto fail;
		} else
			rest[n++] = argv[i];
	}
	if (n == 0) {
		buf_puts(body, "no game given");
		goto fail;
	}
	for (len = 0, i = 0; i < n; i++)
		len += strlen(rest[i]) + 1;
	if (len > LOBBY_SPEC_MAX) {
		/* Bounds the parse, draws and engine moves on the loop. */
		buf_printf(body, "game too large for networked play: %zu "
		    "bytes (limit %d)", len, LOBBY_SPEC_MAX);
		goto fail;
	}
	if (lobby_prep_take(lb->prep, n, rest, &o->game, &o->drawn,
	    &o->prepared))
		;	/* parsed (and drawn) on a worker: lobby-prep.c */
	else if (game_parse(&o->game, n, rest, &lb->conf.lim, &err) != 0) {
		buf_printf(body, "invalid game: %s", err.msg);
		goto fail;
	}
	if (!o->random && game_terminal(&o->game)) {
		game_free(&o->game);
		buf_puts(body, "the game is already over: nobody can move");
		goto fail;
	}
	game_print(&o->game, &o->spec);
	free(rest);
	return (0);
fail:
	free(rest);
	buf_free(&o->spec);
	return (-1);
}

/* Frees parsed options. */
static void
lobby_opts_free(struct lopts *o)
{
	if (o->game.fam != NULL)
		game_free(&o->game);
	if (o->drawn.fam != NULL)
		game_free(&o->drawn);
	buf_free(&o->spec);
}

/* Lends a prepared game to the next seek or challenge (NULL: none). */
void
lobby_use_prep(struct lobby_client *lc, struct lobby_prep *p)
{
	lc->lb->prep = p;
}

/* Makes the start of a new game from options (a draw for a template). */
static int
lobby_opts_start(struct lobby *lb, struct lopts *o, struct game *out,
    struct buf *body)
{
	struct game_error err;

	if (!o->random) {
		*out = o->game;
		memset(&o->game, 0, sizeof o->game);
		return (0);
	}
	if (o->prepared) {
		/* Drawn on a worker; used once. */
		o->prepared = 0;
		if (o->drawn.fam == NULL) {
			buf_printf(body, "no fair start (an N-position) in %d "
			    "draws from %s", LOBBY_DRAWS, buf_str(&o->spec));
			return (-1);
		}
		*out = o->drawn;
		memset(&o->drawn, 0, sizeof o->drawn);
		return (0);
	}
	if (lobby_draw_start(&o->game, lb->rs, &lb->conf.lim, out,
	    &err) != 0) {
		buf_printf(body, "%s", err.msg);
		return (-1);
	}
	return (0);
}

/* Refuses a command for a client already seated in a game. */
static int
lc_check_free(struct lobby_client *lc, struct buf *body)
{
	int64_t		 gid;

	if (lc->game != NULL) {
		buf_printf(body, "you are playing game %lld",
		    (long long)lc->game->id);
		return (-1);
	}
	if (lc->name[0] != '\0' &&
	    (gid = lobby_playing(lc->lb, lc->name)) != 0) {
		buf_printf(body, "your account is seated in live game %lld: "
		    "resume %lld first", (long long)gid, (long long)gid);
		return (-1);
	}
	return (0);
}

/* seek: pairs with a compatible seek, starts an engine game, or waits. */
int
lobby_cmd_seek(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lseek	*sk;
	struct lopts	 o;
	struct game	 start;
	struct lgame	*g;
	int		 seat;

	if (lc_check_free(lc, body) != 0)
		return (-1);
	if (lb->store != NULL && store_failing(lb->store)) {
		buf_puts(body, STORE_FAILING_MSG);
		return (-1);
	}
	if (lobby_opts(lb, argc, argv, &o, 0, body) != 0)
		return (-1);
	if (o.engine) {
		if (o.rated == 1) {
			buf_puts(body, "games against the engine are unrated");
			goto fail;
		}
		if (lobby_opts_start(lb, &o, &start, body) != 0)
			goto fail;
		lc_drop_seek(lc);
		seat = o.seat != 0 ? o.seat :
		    1 + (int)gmp_urandomm_ui(lb->rs, 2);
		g = lg_start(lb, &start, seat == 1 ? lc : NULL,
		    seat == 2 ? lc : NULL, 3 - seat, o.base_ms, o.inc_ms, 0,
		    NULL, 0);
		buf_printf(body, "game %lld", (long long)g->id);
		lobby_opts_free(&o);
		return (0);
	}
	if (lc->name[0] == '\0') {
		buf_puts(body, "seeking a player needs an account (login); "
		    "without one, seek opponent=engine");
		goto fail;
	}
	if (o.rated == -1)
		o.rated = 1;
	if (o.seat != 0) {
		buf_puts(body, "seat= is for challenges and the engine; "
		    "a pairing picks seats at random");
		goto fail;
	}
	TAILQ_FOREACH(sk, &lb->seeks, entry)
		if (sk->lc != lc && strcmp(sk->lc->name, lc->name) != 0 &&
		    sk->lc->game == NULL && !lobby_playing(lb, sk->lc->name) &&
		    strcmp(sk->spec, buf_str(&o.spec)) == 0 &&
		    sk->random == o.random && sk->rated == o.rated &&
		    sk->base_ms == o.base_ms && sk->inc_ms == o.inc_ms)
			break;
	if (sk != NULL) {
		struct lobby_client *other = sk->lc;

		if (lobby_opts_start(lb, &o, &start, body) != 0)
			goto fail;
		lc_drop_seek(other);
		lc_drop_seek(lc);
		if (gmp_urandomm_ui(lb->rs, 2) == 0)
			g = lg_start(lb, &start, lc, other, 0, o.base_ms,
			    o.inc_ms, o.rated, NULL, 0);
		else
			g = lg_start(lb, &start, other, lc, 0, o.base_ms,
			    o.inc_ms, o.rated, NULL, 0);
		buf_printf(body, "game %lld", (long long)g->id);
		lobby_opts_free(&o);
		return (0);
	}
	if (lc->seek == NULL && lb->nseeks >= lb->conf.max_seeks) {
		buf_printf(body, "too many open seeks (limit %zu): try later",
		    lb->conf.max_seeks);
		goto fail;
	}
	lc_drop_seek(lc);
	sk = xcalloc(1, sizeof *sk);
	sk->id = ++lb->next_seek;
	sk->lc = lc;
	sk->spec = xstrdup(buf_str(&o.spec));
	sk->random = o.random;
	sk->rated = o.rated;
	sk->base_ms = o.base_ms;
	sk->inc_ms = o.inc_ms;
	TAILQ_INSERT_TAIL(&lb->seeks, sk, entry);
	lb->nseeks++;
	lc->seek = sk;
	buf_printf(body, "seek %llu", (unsigned long long)sk->id);
	lobby_opts_free(&o);
	return (0);
fail:
	lobby_opts_free(&o);
	return (-1);
}

/* unseek: withdraws the client's seek. */
int
lobby_cmd_unseek(struct lobby_client *lc, struct buf *body)
{
	if (lc->seek == NULL) {
		buf_puts(body, "no open seek");
		return (-1);
	}
	lc_drop_seek(lc);
	return (0);
}

/* challenge NAME GAME ...: offers a game to an account's connections. */
int
lobby_cmd_challenge(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lobby_client *t;
	struct lchall	*ch, *tch;
	struct lopts	 o;
	struct buf	 tc;
	size_t		 mine = 0, theirs = 0, sent = 0;
	uint64_t	 now = lobby_now_ms();

	if (lc->name[0] == '\0') {
		buf_puts(body, "challenges need an account (login)");
		return (-1);
	}
	if (!league_name_ok(argv[0])) {
		buf_printf(body, "invalid account name %.64s", argv[0]);
		return (-1);
	}
	if (strcmp(argv[0], lc->name) == 0) {
		buf_puts(body, "you cannot challenge yourself");
		return (-1);
	}
	if (lb->store != NULL && store_failing(lb->store)) {
		buf_puts(body, STORE_FAILING_MSG);
		return (-1);
	}
	if (lobby_opts(lb, argc - 1, argv + 1, &o, 1, body) != 0)
		return (-1);
	TAILQ_FOREACH_SAFE(ch, &lb->challs, entry, tch) {
		if (now - ch->created > LOBBY_CHALL_TTL) {
			lobby_drop_chall(lb, ch);	/* expired */
			continue;
		}
		if (ch->from == lc)
			mine++;
		if (strcmp(ch->to, argv[0]) == 0)
			theirs++;
	}
	if (mine >= LOBBY_MAX_CHALL) {
		buf_printf(body, "too many open challenges (limit %d per "
		    "connection)", LOBBY_MAX_CHALL);
		goto fail;
	}
	if (theirs >= LOBBY_MAX_CHALL) {
		buf_printf(body, "%s has too many open challenges (limit %d)",
		    argv[0], LOBBY_MAX_CHALL);
		goto fail;
	}
	if (lb->nchalls >= lb->conf.max_seeks) {
		buf_printf(body, "too many open challenges server-wide "
		    "(limit %zu): try later", lb->conf.max_seeks);
		goto fail;
	}
	ch = xcalloc(1, sizeof *ch);
	ch->id = ++lb->next_seek;
	ch->from = lc;
	lobby_copy(ch->to, argv[0], sizeof ch->to);
	ch->spec = xstrdup(buf_str(&o.spec));
	ch->random = o.random;
	ch->rated = o.rated == -1 ? 1 : o.rated;
	ch->base_ms = o.base_ms;
	ch->inc_ms = o.inc_ms;
	ch->seat = o.seat != 0 ? o.seat : 1;
	ch->created = now;
	if ((!o.random || o.prepared) &&
	    lobby_opts_start(lb, &o, &ch->start, body) != 0) {
		/* Prepared on a worker: keep it, accept then costs nothing. */
		free(ch->spec);
		free(ch);
		goto fail;
	}
	buf_init(&tc);
	lobby_tc_print(&tc, ch->base_ms, ch->inc_ms);
	TAILQ_FOREACH(t, &lb->clients, entry)
		if (strcmp(t->name, ch->to) == 0 && t->game == NULL &&
		    (t->ready || t->seek != NULL)) {
			lc_event(t, "challenge %llu %s tc=%s rated=%d seat=%d "
			    "%s%s", (unsigned long long)ch->id, lc->name,
			    buf_str(&tc), ch->rated, 3 - ch->seat,
			    ch->random ? "random=1 " : "", ch->spec);
			sent++;
		}
	buf_free(&tc);
	if (sent == 0) {
		free(ch->spec);
		if (ch->start.fam != NULL)
			game_free(&ch->start);
		free(ch);
		buf_printf(body, "%s is not connected, or neither ready nor "
		    "seeking, or playing", argv[0]);
		goto fail;
	}
	TAILQ_INSERT_TAIL(&lb->challs, ch, entry);
	lb->nchalls++;
	buf_printf(body, "challenge %llu", (unsigned long long)ch->id);
	lobby_opts_free(&o);
	return (0);
fail:
	lobby_opts_free(&o);
	return (-1);
}

/* accept/decline CH_ID: starts or drops a challenge addressed to us. */
int
lobby_cmd_accept(struct lobby_client *lc, const char *id, int accept,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lchall	*ch;
	struct lopts	 o;
	struct game	 start;
	struct lgame	*g;
	int64_t		 n = lobby_gid(id);

	TAILQ_FOREACH(ch, &lb->challs, entry)
		if ((int64_t)ch->id == n)
			break;
	if (ch != NULL && lobby_now_ms() - ch->created > LOBBY_CHALL_TTL) {
		lobby_drop_chall(lb, ch);
		ch = NULL;
	}
	if (ch == NULL) {
		buf_printf(body, "no open challenge %.32s", id);
		return (-1);
	}
	if (lc->name[0] == '\0' || strcmp(ch->to, lc->name) != 0 ||
	    ch->from == lc || strcmp(ch->from->name, lc->name) == 0) {
		buf_printf(body, "challenge %.32s is not addressed to you", id);
		return (-1);
	}
	if (accept && lb->store != NULL && store_failing(lb->store)) {
		buf_puts(body, STORE_FAILING_MSG);
		return (-1);
	}
	if (!accept) {
		lc_event(ch->from, "declined %llu %s",
		    (unsigned long long)ch->id, lc->name);
		lobby_drop_chall(lb, ch);
		return (0);
	}
	if (lc_check_free(lc, body) != 0)
		return (-1);
	if (ch->from->game != NULL || lobby_playing(lb, ch->from->name)) {
		buf_printf(body, "%s is playing another game", ch->from->name);
		return (-1);
	}
	if (ch->start.fam != NULL) {
		/* Made when offered (lobby-prep.c): nothing to parse here. */
		start = ch->start;
		memset(&ch->start, 0, sizeof ch->start);
	} else {
		/* Re-parse the stored spec: it was canonical when offered. */
		memset(&o, 0, sizeof o);
		buf_init(&o.spec);
		if (game_parse_line(&o.game, ch->spec, &lb->conf.lim,
		    &(struct game_error){ 0 }) != 0) {
			buf_puts(body, "the challenge's game is no longer "
			    "valid");
			buf_free(&o.spec);
			return (-1);
		}
		o.random = ch->random;
		if (lobby_opts_start(lb, &o, &start, body) != 0) {
			lobby_opts_free(&o);
			return (-1);
		}
		lobby_opts_free(&o);
	}
	lc_drop_seek(lc);
	lc_drop_seek(ch->from);
	if (ch->seat == 1)
		g = lg_start(lb, &start, ch->from, lc, 0, ch->base_ms,
		    ch->inc_ms, ch->rated, NULL, 0);
	else
		g = lg_start(lb, &start, lc, ch->from, 0, ch->base_ms,
		    ch->inc_ms, ch->rated, NULL, 0);
	lobby_drop_chall(lb, ch);
	buf_printf(body, "game %lld", (long long)g->id);
	return (0);
}

/* ready/unready: offers the connection to tournaments, or withdraws it. */
int
lobby_cmd_ready(struct lobby_client *lc, int on, struct buf *body)
{
	if (lc->name[0] == '\0') {
		buf_puts(body, "ready needs an account (login)");
		return (-1);
	}
	lc->ready = on;
	if (on)
		lobby_schedule(lc->lb);
	return (0);
}

/*
 * Finds the seat of live game id (decimal) that lc's account holds: the
 * one away first.  Returns the game, or NULL with body filled in.
 */
static struct lgame *
lobby_resume_id(struct lobby_client *lc, const char *id, int *seat,
    struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	int		 s, found = 0;

	if (lc->name[0] == '\0') {
		buf_puts(body, "resume GAME_ID needs a login (anonymous "
		    "players resume with their token)");
		return (NULL);
	}
	if (g == NULL || g->over) {
		buf_printf(body, "no live game %.32s", id);
		return (NULL);
	}
	for (s = 2; s >= 1; s--)
		if (g->p[s - 1].account &&
		    strcmp(g->p[s - 1].name, lc->name) == 0 &&
		    (found == 0 || g->p[s - 1].lc == NULL))
			found = s;
	if (found == 0) {
		buf_printf(body, "not a player of game %lld", (long long)g->id);
		return (NULL);
	}
	*seat = found;
	return (g);
}

/*
 * resume TOKEN | GAME_ID: takes a seat back after a disconnect.  A seat
 * of one's own account still held by another connection (an old one,
 * perhaps dead) is taken over: that one gets "event replaced".
 */
int
lobby_cmd_resume(struct lobby_client *lc, const char *token,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lobby_client *old;
	struct lgame	*g;
	int		 s = 0;

	if (lc->game != NULL) {
		buf_printf(body, "you are playing game %lld",
		    (long long)lc->game->id);
		return (-1);
	}
	if (strlen(token) != LOBBY_TOKEN_LEN && lobby_isnum(token)) {
		if ((g = lobby_resume_id(lc, token, &s, body)) == NULL)
			return (-1);
		goto found;
	}
	TAILQ_FOREACH(g, &lb->games, entry) {
		if (g->over)
			continue;
		for (s = 1; s <= 2; s++)
			if (!g->p[s - 1].engine &&
			    strcmp(g->p[s - 1].token, token) == 0)
				break;
		if (s <= 2)
			break;
	}
	if (g == NULL) {
		buf_puts(body, "no live game with that token");
		return (-1);
	}
	if (g->p[s - 1].account && lc->name[0] != '\0' &&
	    strcmp(lc->name, g->p[s - 1].name) != 0) {
		buf_printf(body, "not a player of game %lld", (long long)g->id);
		return (-1);
	}
	if (g->p[s - 1].lc != NULL && (!g->p[s - 1].account ||
	    strcmp(lc->name, g->p[s - 1].name) != 0)) {
		buf_printf(body, "seat %d of game %lld is connected", s,
		    (long long)g->id);
		return (-1);
	}
found:
	if ((old = g->p[s - 1].lc) != NULL) {
		/* The same account's other connection: take the seat over. */
		lc_event(old, "replaced %lld %d", (long long)g->id, s);
		old->game = NULL;
		old->seat = 0;
		g->p[s - 1].lc = NULL;
		log_info("game=%lld event=taken-over seat=%d old=%llu",
		    (long long)g->id, s, (unsigned long long)old->connid);
	}
	lc_drop_seek(lc);
	g->p[s - 1].lc = lc;
	lc->game = g;
	lc->seat = s;
	log_info("game=%lld event=resumed seat=%d conn=%llu", (long long)g->id,
	    s, (unsigned long long)lc->connid);
	lg_tell_seat(g, s, "reconnected");
	buf_printf(body, "game %lld you=%d", (long long)g->id, s);
	lg_send_start(g, s);
	lg_send_new(g, s);
	if (g->to_move == s)
		lg_send_genmove(g);
	return (0);
}

/* resign GAME_ID: a seated player gives up a live game. */
int
lobby_cmd_resign(struct lobby_client *lc, const char *id, struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	int		 s;

	if (g == NULL || g->over) {
		buf_printf(body, "no live game %.32s", id);
		return (-1);
	}
	if (lc->game == g)
		s = lc->seat;
	else if (lc->name[0] != '\0' && g->p[0].account &&
	    strcmp(g->p[0].name, lc->name) == 0)
		s = 1;
	else if (lc->name[0] != '\0' && g->p[1].account &&
	    strcmp(g->p[1].name, lc->name) == 0)
		s = 2;
	else {
		buf_printf(body, "not a player of game %lld", (long long)g->id);
		return (-1);
	}
	buf_printf(body, "result %s resign", s == 1 ? "second" : "first");
	lg_finish(g, 3 - s, "resign");
	return (0);
}

/* games live: one line per live game. */
int
lobby_cmd_live(struct lobby_client *lc, struct buf *body)
{
	struct lgame	*g;

	TAILQ_FOREACH(g, &lc->lb->games, entry) {
		if (g->over)
			continue;
		buf_printf(body, "%lld %s %s ply=%lu tc=", (long long)g->id,
		    g->p[0].name, g->p[1].name, g->ply);
		lobby_tc_print(body, g->base_ms, g->inc_ms);
		buf_printf(body, " rated=%d %s\n", g->rated, g->start);
	}
	return (0);
}

/* watch/unwatch GAME_ID: follows a live game's moves, or stops. */
int
lobby_cmd_watch(struct lobby_client *lc, const char *id, int on,
    struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	uint64_t	 now = lobby_now_ms();
	size_t		 i;

	if (!on) {
		if (g != NULL)
			for (i = 0; i < g->nwatchers; i++)
				if (g->watchers[i] == lc) {
					g->watchers[i] =
					    g->watchers[--g->nwatchers];
					break;
				}
		lc_unwatch(lc, lobby_gid(id));
		return (0);
	}
	if (g == NULL || g->over) {
		buf_printf(body, "no live game %.32s", id);
		return (-1);
	}
	for (i = 0; i < g->nwatchers; i++)
		if (g->watchers[i] == lc)
			break;
	if (i == g->nwatchers) {
		if (lc->nwatch >= LOBBY_MAX_WATCH) {
			buf_printf(body, "you watch %d games already (limit)",
			    LOBBY_MAX_WATCH);
			return (-1);
		}
		if (g->nwatchers >= g->lb->conf.max_watchers) {
			buf_printf(body, "game %lld has %zu spectators "
			    "(limit)", (long long)g->id, g->nwatchers);
			return (-1);
		}
		g->watchers = xreallocarray(g->watchers, g->nwatchers + 1,
		    sizeof *g->watchers);
		g->watchers[g->nwatchers++] = lc;
		lc->watch[lc->nwatch++] = g->id;
	}
	buf_printf(body, "watching %lld\nplayers %s %s\nposition ",
	    (long long)g->id, g->p[0].name, g->p[1].name);
	game_print(&g->game, body);
	buf_printf(body, "\nply %lu\ntime1 %llu\ntime2 %llu", g->ply,
	    (unsigned long long)lg_clock(g, 1, now),
	    (unsigned long long)lg_clock(g, 2, now));
	return (0);
}

/* Returns the running tournament with a name, or NULL. */
static struct ltour *
lobby_tour(struct lobby *lb, const char *name)
{
	struct ltour	*t;

	TAILQ_FOREACH(t, &lb->tours, entry)
		if (strcmp(t->def.name, name) == 0)
			return (t);
	return (NULL);
}

/* Splits "a,b,c" into the tournament's player list. */
static int
lobby_split_players(struct league_tournament *d, const char *s)
{
	char		*copy = xstrdup(s), *tok, *save;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (d->nplayers == 64) {
			free(copy);
			return (-1);
		}
		d->players = xreallocarray(d->players, d->nplayers + 1,
		    sizeof *d->players);
		d->players[d->nplayers++] = xstrdup(tok);
	}
	free(copy);
	return (0);
}

/* tournament create: parses, stores and starts a tournament. */
static int
lobby_tour_create(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct league_tournament d;
	struct game_error gerr;
	struct game	 g;
	struct ltour	*t;
	struct buf	 spec;
	char		 err[256], *end, **rest;
	int		 i, n = 0, have_seed = 0;
	unsigned long	 v;
	gmp_randstate_t	 rs;
	struct game	 drawn;

	memset(&d, 0, sizeof d);
	buf_init(&spec);
	rest = xreallocarray(NULL, (size_t)argc + 1, sizeof *rest);
	if (argc < 2 || !league_name_ok(argv[0])) {
		buf_puts(body, "usage: tournament create NAME roundrobin|"
		    "gauntlet players=A,B,... games=N tc=TC [seed=S] "
		    "[random=1] GAME");
		goto fail;
	}
	lobby_copy(d.name, argv[0], sizeof d.name);
	if (strcmp(argv[1], "roundrobin") == 0)
		d.format = LEAGUE_ROUNDROBIN;
	else if (strcmp(argv[1], "gauntlet") == 0)
		d.format = LEAGUE_GAUNTLET;
	else {
		buf_printf(body, "unknown format %.32s: roundrobin or "
		    "gauntlet", argv[1]);
		goto fail;
	}
	d.games_per_pair = 2;
	d.base_ms = lb->conf.default_base_ms;
	d.inc_ms = lb->conf.default_inc_ms;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "players=", 8) == 0 && d.nplayers == 0) {
			if (lobby_split_players(&d, a + 8) != 0) {
				buf_puts(body, "too many players (limit 64)");
				goto fail;
			}
		} else if (strncmp(a, "games=", 6) == 0) {
			errno = 0;
			v = strtoul(a + 6, &end, 10);
			if (a[6] < '0' || a[6] > '9' || *end != '\0' ||
			    errno != 0 || v == 0 || v > 100) {
				buf_puts(body, "games=N: 1..100 games per "
				    "pairing");
				goto fail;
			}
			d.games_per_pair = (unsigned int)v;
		} else if (strncmp(a, "tc=", 3) == 0) {
			if (lobby_parse_tc(a + 3, &d.base_ms, &d.inc_ms)) {
				buf_printf(body, "invalid time control %.64s",
				    a + 3);
				goto fail;
			}
		} else if (strncmp(a, "seed=", 5) == 0) {
			errno = 0;
			d.seed = strtoull(a + 5, &end, 10);
			have_seed = 1;
			if (a[5] < '0' || a[5] > '9' || *end != '\0' ||
			    errno != 0) {
				buf_puts(body, "seed=S: a number");
				goto fail;
			}
		} else if (strcmp(a, "random=1") == 0)
			d.random = 1;
		else
			rest[n++] = argv[i];
	}
	if (d.nplayers < 2) {
		buf_puts(body, "players=A,B,...: at least two players");
		goto fail;
	}
	if (n == 0 || game_parse(&g, n, rest, &lb->conf.lim, &gerr) != 0) {
		buf_printf(body, "invalid game: %s", n == 0 ? "none given" :
		    gerr.msg);
		goto fail;
	}
	game_print(&g, &spec);
	if (!d.random && game_terminal(&g)) {
		game_free(&g);
		buf_puts(body, "the game is already over: nobody can move");
		goto fail;
	}
	if (!have_seed)		/* unpredictable unless asked for */
		d.seed = ((uint64_t)gmp_urandomb_ui(lb->rs, 32) << 32) |
		    gmp_urandomb_ui(lb->rs, 32);
	if (d.random) {
		/* A template with no fair start could never be played. */
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, (unsigned long)d.seed);
		i = lobby_draw_start(&g, rs, &lb->conf.lim, &drawn, &gerr);
		gmp_randclear(rs);
		if (i != 0) {
			game_free(&g);
			buf_printf(body, "%s", gerr.msg);
			goto fail;
		}
		game_free(&drawn);
	}
	game_free(&g);
	d.game = xstrdup(buf_str(&spec));
	if (league_tournament_create(lb->league, &d, err, sizeof err) != 0) {
		buf_puts(body, err);
		goto fail;
	}
	t = xcalloc(1, sizeof *t);
	t->def = d;
	lobby_tour_slots(t);
	TAILQ_INSERT_TAIL(&lb->tours, t, entry);
	log_info("tournament=%s event=created games=%zu by=%s", d.name,
	    t->nslots, lc->name);
	buf_printf(body, "tournament %lld %s games %zu", (long long)d.id,
	    d.name, t->nslots);
	free(rest);
	buf_free(&spec);
	lobby_schedule(lb);
	return (0);
fail:
	league_tournament_free(&d);
	free(rest);
	buf_free(&spec);
	return (-1);
}

/* tournament create|list|cancel (admin). */
int
lobby_cmd_tournament(struct lobby_client *lc, int argc, char **argv,
    struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct league_tournament *v;
	struct ltour	*t;
	size_t		 n, i;

	if (!lc->admin) {
		buf_puts(body, "permission denied: tournament needs the admin "
		    "role");
		return (-1);
	}
	if (lb->league == NULL) {
		buf_puts(body, "tournaments need the game log (--db)");
		return (-1);
	}
	if (strcmp(argv[0], "create") == 0)
		return (lobby_tour_create(lc, argc - 1, argv + 1, body));
	if (strcmp(argv[0], "list") == 0 && argc == 1) {
		if (league_tournaments(lb->league, 1, &v, &n) != 0) {
			buf_puts(body, "cannot read the tournaments");
			return (-1);
		}
		for (i = 0; i < n; i++) {
			buf_printf(body, "%lld %s %s %s games-per-pair=%u "
			    "tc=", (long long)v[i].id, v[i].name,
			    v[i].format == LEAGUE_GAUNTLET ? "gauntlet" :
			    "roundrobin", v[i].status == LEAGUE_T_RUNNING ?
			    "running" : v[i].status == LEAGUE_T_FINISHED ?
			    "finished" : "cancelled", v[i].games_per_pair);
			lobby_tc_print(body, v[i].base_ms, v[i].inc_ms);
			buf_printf(body, " %s\n", v[i].game);
			league_tournament_free(&v[i]);
		}
		free(v);
		return (0);
	}
	if (strcmp(argv[0], "cancel") == 0 && argc == 2) {
		if ((t = lobby_tour(lb, argv[1])) == NULL ||
		    t->def.status != LEAGUE_T_RUNNING) {
			buf_printf(body, "no running tournament %.32s",
			    argv[1]);
			return (-1);
		}
		if (league_tournament_status(lb->league, t->def.id,
		    LEAGUE_T_CANCELLED) != 0) {
			buf_puts(body, "cannot store the cancellation");
			return (-1);
		}
		t->def.status = LEAGUE_T_CANCELLED;
		log_info("tournament=%s event=cancelled by=%s", t->def.name,
		    lc->name);
		return (0);
	}
	buf_puts(body, "usage: tournament create ...|list|cancel NAME");
	return (-1);
}

/* One player's line in the standings. */
struct lstand {
	size_t		 idx;
	unsigned int	 games, wins;
};

/* Orders standings: most wins, then fewest games, then list order. */
static int
lstand_cmp(const void *a, const void *b)
{
	const struct lstand *x = a, *y = b;

	if (x->wins != y->wins)
		return (x->wins > y->wins ? -1 : 1);
	if (x->games != y->games)
		return (x->games < y->games ? -1 : 1);
	return (x->idx < y->idx ? -1 : x->idx > y->idx);
}

/* standings NAME: a tournament's table. */
int
lobby_cmd_standings(struct lobby_client *lc, const char *name,
    struct buf *body)
{
	struct ltour	*t = lobby_tour(lc->lb, name);
	struct lstand	*v;
	size_t		 i, played = 0, n;

	if (t == NULL) {
		buf_printf(body, "no tournament %.32s", name);
		return (-1);
	}
	n = t->def.nplayers;
	v = xcalloc(n, sizeof *v);
	for (i = 0; i < n; i++)
		v[i].idx = i;
	for (i = 0; i < t->nslots; i++) {
		struct lslot *s = &t->slots[i];

		if (s->state != 2)
			continue;
		played++;
		v[s->a].games++;
		v[s->b].games++;
		v[s->winner == 1 ? s->a : s->b].wins++;
	}
	qsort(v, n, sizeof *v, lstand_cmp);
	buf_printf(body, "status %s\nplayed %zu of %zu\n",
	    t->def.status == LEAGUE_T_RUNNING ? "running" :
	    t->def.status == LEAGUE_T_FINISHED ? "finished" : "cancelled",
	    played, t->nslots);
	for (i = 0; i < n; i++)
		buf_printf(body, "%zu %s points %u games %u wins %u "
		    "losses %u\n", i + 1, t->def.players[v[i].idx], v[i].wins,
		    v[i].games, v[i].wins, v[i].games - v[i].wins);
	free(v);
	return (0);
}

/* Orders ratings, best first. */
static int
lrating_cmp(const void *a, const void *b)
{
	const struct lrating *x = a, *y = b;

	if (x->r != y->r)
		return (x->r > y->r ? -1 : 1);
	return (strcmp(x->name, y->name));
}

/* ratings: every rated player, best first. */
int
lobby_cmd_ratings(struct lobby_client *lc, struct buf *body)
{
	struct lobby	*lb = lc->lb;
	struct lrating	*v;
	size_t		 i, n;

	pthread_mutex_lock(&lb->rmtx);
	n = lb->nratings;
	v = xreallocarray(NULL, n + 1, sizeof *v);
	if (n > 0)
		memcpy(v, lb->ratings, n * sizeof *v);
	pthread_mutex_unlock(&lb->rmtx);
	qsort(v, n, sizeof *v, lrating_cmp);
	for (i = 0; i < n; i++)
		buf_printf(body, "%s rating %ld games %lu\n", v[i].name,
		    lround(v[i].r), v[i].games);
	free(v);
	return (0);
}

/* connections (admin): one line per connection. */
int
lobby_cmd_connections(struct lobby_client *lc, struct buf *body)
{
	struct lobby_client *c;

	TAILQ_FOREACH(c, &lc->lb->clients, entry) {
		buf_printf(body, "%llu %s %s", (unsigned long long)c->connid,
		    c->peer[0] != '\0' ? c->peer : "-",
		    c->name[0] != '\0' ? c->name : "-");
		if (c->game != NULL)
			buf_printf(body, " game=%lld seat=%d",
			    (long long)c->game->id, c->seat);
		buf_putc(body, '\n');
	}
	while (body->len > 0 && body->data[body->len - 1] == '\n')
		body->data[--body->len] = '\0';
	return (0);
}

/* kick CONN_ID REASON (admin): tells the connection, then drops it. */
int
lobby_cmd_kick(struct lobby_client *lc, const char *id, const char *reason,
    struct buf *body)
{
	struct lobby_client *c;

	TAILQ_FOREACH(c, &lc->lb->clients, entry)
		if (lobby_isnum(id) && (int64_t)c->connid == lobby_gid(id))
			break;
	if (c == NULL) {
		buf_printf(body, "no connection %.32s", id);
		return (-1);
	}
	lc_event(c, "kicked %s", reason);
	log_info("conn=%llu event=kicked by=%s reason=\"%s\"",
	    (unsigned long long)c->connid, lc->name, reason);
	if (lc->lb->io.kick != NULL)
		lc->lb->io.kick(lc->lb->io.arg, c->conn);
	buf_printf(body, "kicked %llu", (unsigned long long)c->connid);
	return (0);
}

/*
 * abort GAME_ID REASON (winner 0) or adjudicate GAME_ID 1|2 REASON (admin):
 * ends a live game without a result, or with a win for a seat; the
 * admin's name and reason go to the players, spectators and the record.
 */
int
lobby_cmd_end(struct lobby_client *lc, const char *id, int winner,
    const char *reason, struct buf *body)
{
	struct lgame	*g = lobby_game(lc->lb, lobby_gid(id));
	struct buf	 d;

	if (g == NULL || g->over) {
		buf_printf(body, "no live game %.32s", id);
		return (-1);
	}
	buf_init(&d);
	buf_printf(&d, "by %s: %s", lc->name, reason);
	log_info("game=%lld event=%s winner=%d %s", (long long)g->id,
	    winner == 0 ? "aborted" : "adjudicated", winner, buf_str(&d));
	buf_printf(body, "result %s %s", winner == 1 ? "first" : winner == 2 ?
	    "second" : "-", winner == 0 ? "aborted" : "adjudicated");
	lg_finish_detail(g, winner, winner == 0 ? "aborted" : "adjudicated",
	    buf_str(&d));
	buf_free(&d);
	return (0);
}
