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

#include "lib/budget.h"
#include "lib/buf.h"
#include "solver/game.h"

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

/* The rating of a player without rated games (Glicko-2's start). */
#define LOBBY_RATING_START	1500

/* What the server provides. */
struct lobby_io {
	void		*arg;
	/* Writes to a connection; never frees it synchronously. */
	void		 (*send)(void *arg, void *conn, const char *, size_t);
	/* Runs fn(fnarg) on the loop soon (any thread). */
	void		 (*defer)(void *arg, void (*fn)(void *), void *fnarg);
	/*
	 * Runs work(fnarg) on a worker, then done(fnarg) on the loop; NULL:
	 * none (a tournament's engine moves are then made on the loop).
	 */
	void		 (*work)(void *arg, void (*work)(void *),
			    void (*done)(void *), void *fnarg);
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
	unsigned long	 max_plies;		/* then adjudicated: ply-limit */
	size_t		 max_game_bytes;	/* logged, then game-bytes-limit */
	struct budget_limits budget[BUDGET_NCLASSES];	/* per class */
	struct game_limits lim;			/* for game specs and moves */
};

struct lobby *lobby_new(struct event_base *, struct store *, struct league *,
	    const struct lobby_io *, const struct lobby_conf *, char *, size_t);
void	 lobby_free(struct lobby *);
/*
 * Restores live game id, held at epoch by this daemon, from the log
 * (lobby-restore.c): after a takeover, or at a start with takeover on.
 * Returns 0 when the restore is under way, -1 when it cannot start.
 */
int	 lobby_restore(struct lobby *, int64_t, int64_t);
/*
 * takeover on, at a start before the daemon listens (PROTOCOL.md §12):
 * restores every game the log has as live, at once on the calling thread.
 * Returns 0, or -1 if they cannot be listed.
 */
int	 lobby_restore_live(struct lobby *);
void	 lobby_set_conf(struct lobby *, const struct lobby_conf *);

struct lobby_client *lobby_attach(struct lobby *, void *, uint64_t);
void	 lobby_detach(struct lobby_client *, const char *);
void	 lobby_set_peer(struct lobby_client *, const char *, const char *,
	    struct budget *);
void	 lobby_login(struct lobby_client *, const char *, int);
void	 lobby_login_live(struct lobby_client *);
void	 lobby_disabled(struct lobby *, const char *, const char *);
int	 lobby_active(const struct lobby_client *);
struct proto_answer;
int	 lobby_answer(struct lobby_client *, const struct proto_answer *);
void	 lobby_rx_time(struct lobby_client *, uint64_t);
void	 lobby_tx_time(struct lobby_client *, uint64_t);
int	 lobby_tx_waits(const struct lobby_client *);
size_t	 lobby_held_bytes(const struct lobby_client *);
void	 lobby_hold(struct lobby_client *);
void	 lobby_release(struct lobby_client *, struct buf *);
int	 lobby_rating(struct lobby *, const char *, long *, unsigned long *);
struct lobby_rating_row;
int	 lobby_rating_get(struct lobby *, const char *,
	    struct lobby_rating_row *);
void	 lobby_ratings_sync(struct lobby *);

/*
 * The lobby's operations (lobby-ops.c), called by the commands of
 * cmd-lobby.c, which parse the arguments and format the replies.  Each
 * returns 0, or -1 with a one-line error appended to err (the errors
 * are protocol text; they quote a game's spec, so a buffer, not a fixed
 * array).  Ids are passed as sent (decimal text), since the errors quote
 * them.  Pointers in results borrow the lobby's memory: use them before
 * control returns to the event loop.
 */

/* The caller's account ("" before login) and role. */
const char *lobby_client_name(const struct lobby_client *);
int	 lobby_client_admin(const struct lobby_client *);
/* The settings in force (default time control, game limits). */
const struct lobby_conf *lobby_client_conf(const struct lobby_client *);
/* 1 if the game log is failing (STORE_FAILING_MSG refuses new games). */
int	 lobby_store_failing(const struct lobby_client *);
/* Refuses a client seated in a live game, or whose account is. */
int	 lobby_check_free(struct lobby_client *, struct buf *);

/* A seek or challenge, as parsed by the cmd layer. */
struct lobby_offer {
	uint64_t	 base_ms, inc_ms;
	int		 rated;		/* -1: the default */
	int		 engine;	/* seek opponent=engine */
	int		 random;	/* game is a template: draw a fair start */
	int		 seat;		/* 0: random */
	struct game	 game;		/* the position or template */
	struct buf	 spec;		/* its canonical text */
	struct game	 drawn;		/* drawn off the loop, or empty */
	int		 prepared;	/* random=1 was drawn off the loop */
};
/* What a seek did: started game_id, or opened seek_id (the other 0). */
struct lobby_seek_result {
	int64_t		 game_id;
	uint64_t	 seek_id;
};
int	 lobby_seek(struct lobby_client *, struct lobby_offer *,
	    struct lobby_seek_result *, struct buf *);
int	 lobby_unseek(struct lobby_client *, struct buf *);
int	 lobby_challenge(struct lobby_client *, const char *,
	    struct lobby_offer *, uint64_t *, struct buf *);
int	 lobby_accept(struct lobby_client *, const char *, int, int64_t *,
	    struct buf *);
int	 lobby_ready(struct lobby_client *, int, struct buf *);
int	 lobby_resume(struct lobby_client *, const char *, int64_t *, int *,
	    struct buf *);
int	 lobby_resign(struct lobby_client *, const char *, const char *,
	    const char *, int *, struct buf *);

/* A live game, as games live, watch and the web (lobby-web.c) show it. */
struct lobby_live {
	int64_t		 id;
	const char	*player[2];
	unsigned long	 ply;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	const char	*start;		/* canonical start position */
	const struct game *position;	/* the current one */
	uint64_t	 clock_ms[2];	/* watch: time left, now */
	/* The web's too (lobby-web.c; 0 or NULL for games live, watch): */
	const char	*family;
	int		 to_move;
	const char	*tour;		/* its tournament's name, or NULL */
	unsigned int	 slot;		/* in the tournament's schedule */
	size_t		 watchers;
};
void	 lobby_live_games(struct lobby_client *, struct lobby_live **,
	    size_t *);
int	 lobby_watch(struct lobby_client *, const char *, struct lobby_live *,
	    struct buf *);
void	 lobby_unwatch(struct lobby_client *, const char *);

/* Tournaments (admin: the caller checks the role). */
struct league_tournament;
int	 lobby_tour_check(struct lobby_client *, struct buf *);
uint64_t lobby_tour_seed(void);
void	 lobby_tour_add(struct lobby_client *, struct league_tournament *,
	    size_t *);
int	 lobby_tour_status_of(struct lobby_client *, int64_t, int);
/*
 * The admin's changes of a running tournament (lobby-tchange.c):
 * checked on the loop, stored on a worker, applied on the loop.
 */
enum lobby_tc {
	LOBBY_TC_CANCEL,
	LOBBY_TC_PAUSE,
	LOBBY_TC_RESUME,
	LOBBY_TC_ADD,
	LOBBY_TC_WITHDRAW,
};
struct lobby_tchange {
	enum lobby_tc	 op;
	char		 name[33];	/* the tournament (LEAGUE_NAME_MAX) */
	char		 player[33];	/* add, withdraw */
	int64_t		 id;		/* set by the check: */
	int		 status;	/* cancel, pause, resume: to store */
	struct league_tournament *roster;	/* add, withdraw: to store */
	int		 rc;		/* the store's: 0, or -1 with msg */
	char		 msg[256];
};
int	 lobby_tour_change(struct lobby_client *, struct lobby_tchange *,
	    struct buf *);
void	 lobby_tour_change_store(struct lobby *, struct lobby_tchange *);
int	 lobby_tour_change_apply(struct lobby_client *,
	    struct lobby_tchange *, struct buf *);
void	 lobby_tour_change_free(struct lobby_tchange *);
/* tournament show: what a tournament waits for (anyone). */
#define LOBBY_SHOW_PENDING	50	/* pending games listed at most */
struct lobby_tpend {
	size_t		 slot;
	unsigned int	 game;		/* within its pairing, 1-based */
	const char	*p[2];		/* first and second seat */
	int		 where[2];	/* 1 ready, 0 in another game, -1 absent */
	int		 after;		/* waits for its pair's first game */
	int		 forfeit;	/* a forfeit deadline runs: */
	uint64_t	 forfeit_ms;	/* ms left */
};
struct lobby_tshow {
	const struct league_tournament *def;	/* valid during the command */
	unsigned int	 round;		/* Swiss: rounds paired */
	size_t		 played, playing, pending, stopped, forfeits, total;
	struct lobby_tpend pend[LOBBY_SHOW_PENDING];
	size_t		 npend;
	const size_t	*byes;		/* Swiss: each round's, or NULL */
	int		 has_llr;	/* SPRT (def->has_sprt): */
	double		 llr, lower, upper;
	uint64_t	 pairs, penta[5];	/* ll, ld, wl + dd, wd, ww */
	int		 verdict;	/* 0 continue, 1 H0, 2 H1 */
	const void	*tour;		/* for lobby_tour_rounds */
	size_t		 block;		/* Swiss: slots per round (slot / block
					 * + 1 is a game's round), else 0 */
};
int	 lobby_tour_show(struct lobby_client *, const char *,
	    struct lobby_tshow *, struct buf *);
/* A game of a Swiss round, as lobby_tour_rounds hands it out. */
struct lobby_tgame {
	unsigned int	 round;		/* 1-based */
	size_t		 slot;
	unsigned int	 game;		/* within its pairing, 1-based */
	const char	*p[2];		/* first and second seat */
	const char	*state;		/* pending, playing, done, stopped */
	int		 winner;	/* done: 1 or 2 (seat) */
	int		 forfeit;	/* done: the loser was absent */
};
/*
 * Calls fn with each game of a Swiss tournament's paired rounds (sh from
 * lobby_tour_show, during the same command), in slot order (round by
 * round); nothing for the other formats.
 */
void	 lobby_tour_rounds(const struct lobby_tshow *,
	    void (*)(void *, const struct lobby_tgame *), void *);
/* A lobby_tpend's where[]: "ready", "busy" or "absent". */
const char *lobby_tour_where(int);
const char *lobby_tour_status(int);
/* Every rated player, best first (Glicko-2, PROTOCOL.md §13.7). */
struct lobby_rating_row {
	char		 name[33];	/* LEAGUE_NAME_MAX + 1 */
	double		 r;		/* rating */
	double		 rd;		/* rating deviation */
	int		 provisional;	/* rd 110 or above */
	unsigned long	 games;
};
void	 lobby_ratings(struct lobby_client *, struct lobby_rating_row **,
	    size_t *);

/* Admin operations (the caller checks the role). */
struct lobby_conn {
	uint64_t	 id;
	const char	*peer;		/* ADDR:PORT or "" */
	const char	*name;		/* account or "" */
	int64_t		 game_id;	/* seated in, or 0 */
	int		 seat;
};
void	 lobby_connections(struct lobby_client *, struct lobby_conn **,
	    size_t *);
int	 lobby_kick(struct lobby_client *, const char *, const char *,
	    uint64_t *, struct buf *);
int	 lobby_end(struct lobby_client *, const char *, int, const char *,
	    struct buf *);

/*
 * The real monotonic clock in milliseconds (clock_mono_ms), the time base
 * of lobby_rx_time and lobby_tx_time (which take its nanoseconds).  A test
 * gives the lobby a virtual clock instead.
 */
struct clock_ops;
void	 lobby_set_clock(struct lobby *, const struct clock_ops *);

/*
 * The game of a seek or challenge, parsed (and drawn) off the loop
 * (lobby-prep.c); cmd-lobby.c takes it with lobby_prep_take.
 */
#define LOBBY_SPEC_MAX	4096	/* bytes of a seek's or challenge's game */
struct lobby_prep {
	int		 ok;		/* tmpl holds the parsed game */
	int		 drawn;		/* random=1: start holds the draw */
	struct buf	 spec;		/* the game tokens it was made from */
	struct game	 tmpl;
	struct game	 start;		/* fam NULL: no fair start found */
};
/*
 * Options are KEY=VALUE tokens among the game's: lobby_key matches one
 * against a list of keys, as game_parse_keys does (the key exactly, up to
 * the first '='), and returns the key's index with *val set, or -1.  The
 * keys of seek and challenge are the lobby_opt ones: a token with one of
 * them is an option (valid or not), never part of the game.
 */
enum lobby_opt {
	LOBBY_OPT_TC = 0,	/* tc=BASE[+INC] */
	LOBBY_OPT_RATED,	/* rated=0|1 */
	LOBBY_OPT_RANDOM,	/* random=0|1 */
	LOBBY_OPT_OPPONENT,	/* opponent=any|engine (seek) */
	LOBBY_OPT_SEAT,		/* seat=1|2 */
};
int	 lobby_key(const char *, const char *const *, size_t, const char **);
int	 lobby_offer_opt(const char *, const char **);
void	 lobby_prepare(const struct game_limits *, int, char **, int,
	    struct lobby_prep *);
void	 lobby_prep_clear(struct lobby_prep *);
int	 lobby_spec_fits(int, char **, struct buf *);
int	 lobby_prep_take(struct lobby_prep *, int, char **, struct game *,
	    struct game *, int *);

/* Random fair starts (and the tests). */
int	 lobby_draw_start(const struct game *, gmp_randstate_t,
	    const struct game_limits *, struct game *, struct game_error *);

/*
 * The web front end (http-feed.c, http-api.c): a hook the server sets,
 * told on the loop of every move of a refereed game and of each end once
 * the log has it (lobby-feed.c); and the lobby's live data as JSON
 * (lobby-web.c, PROTOCOL.md §14).
 */
struct lobby_feed {
	int64_t		 id;
	int		 end;		/* 0: a move; 1: the game's end */
	unsigned long	 ply;		/* the move's; at the end: plies */
	int		 player;	/* the seat that moved */
	const char	*move;		/* canonical move text */
	const char	*position;	/* canonical position after it */
	const char	*mark;		/* kept-win, threw-win, no-win */
	uint64_t	 time_ms;	/* time the mover used */
	uint64_t	 clock_ms[2];	/* time left after the move */
	int		 winner;	/* end: seat 1 or 2, 0: none */
	const char	*winner_name;	/* end: its player, or NULL */
	const char	*reason;	/* end: one word */
	const char	*detail;	/* end: or NULL */
	int		 logged;	/* end: the log has the result */
};
/* A move's clocks replayed from the log (lobby-feed.c). */
struct store_rmove;
void	 lobby_feed_clock(const int *, uint64_t, uint64_t *,
	    const struct store_rmove *);
void	 lobby_set_feed(struct lobby *,
	    void (*)(void *, const struct lobby_feed *), void *);
struct json;
struct league;
int	 lobby_web_game(struct lobby *, int64_t, struct lobby_live *);
int	 lobby_web_summary(struct lobby *, int64_t, struct lobby_live *);
size_t	 lobby_web_games(struct lobby *, const char *,
	    void (*)(void *, const struct lobby_live *), void *);
int64_t	 lobby_web_featured(struct lobby *);
size_t	 lobby_web_nlive(struct lobby *);
int64_t	 lobby_web_tour_id(struct lobby *, const char *);
int	 lobby_web_show(struct lobby *, const char *, struct lobby_tshow *);
void	 lobby_web_tours(struct lobby *,
	    void (*)(void *, const struct lobby_tshow *), void *);
void	 lobby_web_ratings(struct lobby *, struct lobby_rating_row **,
	    size_t *);

#endif /* LOBBY_H */
