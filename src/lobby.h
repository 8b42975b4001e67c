/*
 * lobby.h: networked play (PROTOCOL.md §13): the games grundyd referees
 * between clients (or a client and the engine) with server-side clocks,
 * seeks and challenges, spectators, resume tokens, tournaments and
 * ratings.  Everything here runs on the event loop, except the functions
 * marked "any thread".  The lobby never touches sockets: the server hands
 * it answer lines and gives it a send function.
 */
#ifndef LOBBY_H
#define LOBBY_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "game.h"

#include <sys/queue.h>

#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	    (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);	\
	    (var) = (tvar))
#endif

struct event_base;
struct store;
struct league;
struct lobby;
struct lobby_client;

/* The rating of a player without rated games (Elo). */
#define LOBBY_ELO_START	1500

/* What the server provides. */
struct lobby_io {
	void		*arg;
	/* Writes to a connection; never frees it synchronously. */
	void		 (*send)(void *arg, void *conn, const char *, size_t);
	/* Runs fn(fnarg) on the loop soon (any thread). */
	void		 (*defer)(void *arg, void (*fn)(void *), void *fnarg);
	/* Drops a connection a moment later (never synchronously). */
	void		 (*kick)(void *arg, void *conn);
	/* A connection's round-trip estimate in microseconds, or -1. */
	long		 (*rtt)(void *arg, void *conn);
};

/* Settings, from the configuration; lobby_set_conf applies new ones. */
struct lobby_conf {
	uint64_t	 default_base_ms;	/* default time control */
	uint64_t	 default_inc_ms;
	uint64_t	 grace_ms;		/* clock_grace */
	int		 illegal_retry;		/* illegal_move = retry */
	size_t		 max_seeks;		/* open seeks, server-wide */
	size_t		 max_watchers;		/* spectators per game */
	struct game_limits lim;			/* for game specs and moves */
};

struct lobby *lobby_new(struct event_base *, struct store *, struct league *,
	    const struct lobby_io *, const struct lobby_conf *, char *, size_t);
void	 lobby_free(struct lobby *);
void	 lobby_set_conf(struct lobby *, const struct lobby_conf *);

struct lobby_client *lobby_attach(struct lobby *, void *, uint64_t);
void	 lobby_detach(struct lobby_client *, const char *);
void	 lobby_set_peer(struct lobby_client *, const char *, const char *);
void	 lobby_login(struct lobby_client *, const char *, int);
void	 lobby_login_live(struct lobby_client *);
void	 lobby_disabled(struct lobby *, const char *, const char *);
int	 lobby_active(const struct lobby_client *);
struct proto_answer;
int	 lobby_answer(struct lobby_client *, const struct proto_answer *);
void	 lobby_rx_time(struct lobby_client *, uint64_t);
void	 lobby_hold(struct lobby_client *);
void	 lobby_release(struct lobby_client *, struct buf *);
int	 lobby_rating(struct lobby *, const char *, long *, unsigned long *);

/* Commands (cmd-play.c); each fills body and returns 0 or -1 (error). */
int	 lobby_cmd_seek(struct lobby_client *, int, char **, struct buf *);
int	 lobby_cmd_unseek(struct lobby_client *, struct buf *);
int	 lobby_cmd_challenge(struct lobby_client *, int, char **,
	    struct buf *);
int	 lobby_cmd_accept(struct lobby_client *, const char *, int,
	    struct buf *);
int	 lobby_cmd_ready(struct lobby_client *, int, struct buf *);
int	 lobby_cmd_resume(struct lobby_client *, const char *, struct buf *);
int	 lobby_cmd_resign(struct lobby_client *, const char *, struct buf *);
int	 lobby_cmd_live(struct lobby_client *, struct buf *);
int	 lobby_cmd_watch(struct lobby_client *, const char *, int,
	    struct buf *);
int	 lobby_cmd_tournament(struct lobby_client *, int, char **,
	    struct buf *);
int	 lobby_cmd_standings(struct lobby_client *, const char *,
	    struct buf *);
int	 lobby_cmd_ratings(struct lobby_client *, struct buf *);
/* Admin commands (the caller checks the role). */
int	 lobby_cmd_connections(struct lobby_client *, struct buf *);
int	 lobby_cmd_kick(struct lobby_client *, const char *, const char *,
	    struct buf *);
int	 lobby_cmd_end(struct lobby_client *, const char *, int, const char *,
	    struct buf *);

/*
 * The real monotonic clock in milliseconds (clock_mono_ms), the time base
 * of lobby_rx_time.  A test gives the lobby a virtual clock instead.
 */
uint64_t lobby_now_ms(void);
struct clock_ops;
void	 lobby_set_clock(struct lobby *, const struct clock_ops *);

/*
 * The game of a seek or challenge, parsed (and drawn) off the loop
 * (lobby-prep.c); lobby_use_prep lends one to the next lobby command.
 */
#define LOBBY_SPEC_MAX	4096	/* bytes of a seek's or challenge's game */
struct lobby_prep {
	int		 ok;		/* tmpl holds the parsed game */
	int		 drawn;		/* random=1: start holds the draw */
	struct buf	 spec;		/* the game tokens it was made from */
	struct game	 tmpl;
	struct game	 start;		/* fam NULL: no fair start found */
};
void	 lobby_prepare(const struct game_limits *, int, char **, int,
	    struct lobby_prep *);
void	 lobby_prep_clear(struct lobby_prep *);
int	 lobby_prep_take(struct lobby_prep *, int, char **, struct game *,
	    struct game *, int *);
void	 lobby_use_prep(struct lobby_client *, struct lobby_prep *);

/* Shared with the tests: time controls and random fair starts. */
int	 lobby_parse_tc(const char *, uint64_t *, uint64_t *);
int	 lobby_draw_start(const struct game *, gmp_randstate_t,
	    const struct game_limits *, struct game *, struct game_error *);

#endif /* LOBBY_H */
